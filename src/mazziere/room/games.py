"""From a table's plan to a hand of the right game: the one place that knows each engine's
constructor.

The table decides who is dealt in, by position, and what each posts
(:class:`HandSpec`); :func:`new_hand` turns that into a
:class:`~mazziere.game.holdem.HoldemHand` or an Italian hand and
:func:`carry_of` reads back what the next hand of an Italian table needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from mazziere.cards import Card, RandomSource
from mazziere.game.core import BettingHand, Rake
from mazziere.rules import Game, RuleSet

__all__ = ["Carry", "HandSpec", "carry_of", "new_hand"]


@dataclass(frozen=True, slots=True)
class Carry:
    """What an Italian hand leaves to the next one at its table, by player name.

    ``pot``: chips left in the middle; ``opening``: the opening level (dead
    hands since the pot was last won); ``parol_pot``: whether the next hand
    plays a parol pot; ``shares``: each player's chips in the carried pot;
    ``parol_players``: who plays the parol pot without paying; ``rejoin``:
    what each other player with a right to it must pay to take part.
    """

    pot: int = 0
    opening: int = 0
    parol_pot: bool = False
    shares: Mapping[str, int] = field(default_factory=dict)
    parol_players: tuple[str, ...] = ()
    rejoin: Mapping[str, int] = field(default_factory=dict)


NO_CARRY = Carry()


@dataclass(frozen=True, slots=True)
class HandSpec:
    """One hand as the table planned it; every tuple is by position (0: dealer's left).

    ``blinds``: live forced bets (blinds and live entry posts);
    ``blind_positions``: which positions post real blinds, smallest first
    (the other live posts do not decide who acts first); ``dead``: dead
    money (a missed small blind, the dead part of a missed-blind post, the
    adeguamento of a parol pot); ``ante``: everyone's ante or invito;
    ``deck``: a card order dealt before ``rng`` deals on (``None``: all from ``rng``).
    """

    rules: RuleSet
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    blind_positions: tuple[int, ...]
    dead: tuple[int, ...]
    ante: int
    min_bet: int | None
    rng: RandomSource
    rake: Rake | None = None
    ask_show: bool = False
    carried_pot: int = 0
    carried_shares: tuple[int, ...] = ()
    opening: int = 0
    parol_pot: bool = False
    tournament: bool = False
    deck: Sequence[Card] | None = None


def new_hand(spec: HandSpec) -> BettingHand:
    """A new hand of ``spec.rules``'s game, dealt from ``spec.rng``.

    >>> import random
    >>> from mazziere.rules import find_rules
    >>> spec = HandSpec(rules=find_rules("italian-32"), stacks=(500, 500, 500),
    ...                 blinds=(5, 10, 0), blind_positions=(0, 1), dead=(0, 0, 0), ante=0,
    ...                 min_bet=None, rng=random.Random(1))
    >>> hand = new_hand(spec)
    >>> type(hand).__name__, hand.bets
    ('ItalianHand', [5, 10, 0])
    """
    return _HAND_MAKERS[spec.rules.game](spec)


def _holdem(spec: HandSpec) -> BettingHand:
    from mazziere.game.holdem import HoldemHand

    n = len(spec.stacks)
    real = set(spec.blind_positions)
    blinds = tuple(
        amount if position in real or not amount else -amount
        for position, amount in enumerate(spec.blinds)
    )
    min_bet = spec.min_bet if spec.min_bet is not None else max(*spec.blinds, 1)
    if n == 2:
        # The engine reads a pair as (small, big) and seats the big blind at position 0.
        blinds = (blinds[1], blinds[0])
    antes = tuple(spec.ante + dead for dead in spec.dead)
    return HoldemHand(
        spec.stacks,
        blinds=blinds,
        ante=antes,
        min_bet=min_bet,
        deck=spec.deck,
        rng=spec.rng,
        rake=spec.rake,
        ask_show=spec.ask_show,
        rules=spec.rules,
    )


def _italian(spec: HandSpec) -> BettingHand:
    from mazziere.game.italian import ItalianHand

    n = len(spec.stacks)
    blind_count = len(spec.blind_positions)
    posts = tuple(0 if p < blind_count else amount for p, amount in enumerate(spec.blinds))
    invito = spec.ante
    if spec.parol_pot and not spec.tournament:
        invito = 0  # cash games: no invito in a parol-pot hand (RULES.md §4.9)
    buio = spec.blinds[spec.blind_positions[0]] if spec.blind_positions else 0
    min_bet = spec.min_bet
    if min_bet is None and spec.rules.uses_invito:
        min_bet = spec.ante  # the table's minimum bet is its invito, posted or not
    return ItalianHand(
        spec.rules,
        spec.stacks,
        invito=invito,
        buio=buio,
        min_bet=min_bet,
        opening_level=spec.opening,
        parol_pot=spec.parol_pot,
        carried_pot=spec.carried_pot,
        carried_shares=spec.carried_shares or (0,) * n,
        dead_money=spec.dead,
        posts=posts if any(posts) else None,
        rake=spec.rake is not None,
        ask_show=spec.ask_show,
        deck=spec.deck,
        rng=spec.rng,
    )


_HAND_MAKERS: Mapping[Game, Callable[[HandSpec], BettingHand]] = MappingProxyType(
    {Game.HOLDEM: _holdem, Game.ITALIAN: _italian}
)
"""Game -> how a hand of it is made from a :class:`HandSpec` (the one place that knows)."""


def carry_of(hand: BettingHand, names: tuple[str, ...], previous: Carry = NO_CARRY) -> Carry:
    """What ``hand`` (over) leaves to the next hand, positions turned into ``names``.

    >>> import random
    >>> from mazziere.game.italian import ItalianHand
    >>> hand = ItalianHand("italian-classic", [500] * 3, invito=10, rng=random.Random(4))
    >>> while not hand.is_over:  # nobody opens: a dead hand
    ...     _ = hand.check()
    >>> carry = carry_of(hand, ("ann", "bob", "cal"))
    >>> carry.pot, carry.opening, dict(carry.shares)
    (30, 1, {'ann': 10, 'bob': 10, 'cal': 10})

    Players who put chips into a carried pot without being dealt in (the
    invito of a tournament player away) keep their share while the pot is
    carried on; a parol pot's price for them is what a parol player put in
    beyond their share.
    """
    from mazziere.game.italian import ItalianCarry

    # A game whose pots may go unwon hands its carry on in the result (Poker all'italiana).
    carry = hand.result.extra.get("carry") if hand.result is not None else None
    if not isinstance(carry, ItalianCarry):
        return NO_CARRY
    if not carry.pot:
        return Carry(opening=carry.opening_level)
    shares = {name: carry.shares[p] for p, name in enumerate(names) if carry.shares[p]}
    for name, share in previous.shares.items():
        if name not in names and share:
            shares[name] = shares.get(name, 0) + share
    parol_players = tuple(names[p] for p in carry.parol_players)
    rejoin: dict[str, int] = {}
    if carry.parol_pot:
        level = max((shares.get(name, 0) for name in parol_players), default=0)
        for name, share in shares.items():
            if name not in parol_players:
                rejoin[name] = max(0, level - share)
    return Carry(
        pot=carry.pot,
        opening=carry.opening_level,
        parol_pot=carry.parol_pot,
        shares=shares,
        parol_players=parol_players,
        rejoin=rejoin,
    )
