"""From a table's plan to a hand of the right game: the one place that knows each engine's
constructor.

The table decides who is dealt in, by position, and what each posts
(:class:`HandSpec`); :func:`new_hand` turns that into a
:class:`~mazziere.game.holdem.HoldemHand` or an Italian hand and
:func:`carry_of` reads back what the next hand of an Italian table needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mazziere.cards import RandomSource
from mazziere.game.core import BettingHand, Rake
from mazziere.rules import Game, RuleSet

__all__ = ["Carry", "HandSpec", "carry_of", "new_hand"]


@dataclass(frozen=True, slots=True)
class Carry:
    """What an Italian hand leaves to the next one at its table, by player name.

    ``pot``: chips left in the middle; ``opening``: the opening level (dead
    hands since the pot was last won); ``parol_pot``: whether the next hand
    plays a parol pot; ``shares``: each player's chips in the carried pot;
    ``rejoin``: what each player who may take part in the parol pot must pay
    (0 for the parol players).
    """

    pot: int = 0
    opening: int = 0
    parol_pot: bool = False
    shares: Mapping[str, int] = field(default_factory=dict)
    rejoin: Mapping[str, int] = field(default_factory=dict)


NO_CARRY = Carry()


@dataclass(frozen=True, slots=True)
class HandSpec:
    """One hand as the table planned it; every tuple is by position (0: dealer's left).

    ``blinds``: live forced bets (blinds and live entry posts);
    ``blind_positions``: which positions post real blinds, smallest first
    (the other live posts do not decide who acts first); ``dead``: dead
    money (a missed small blind, the dead part of a missed-blind post, the
    adeguamento of a parol pot); ``ante``: everyone's ante or invito.
    """

    rules: RuleSet
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    blind_positions: tuple[int, ...]
    dead: tuple[int, ...]
    ante: int
    min_bet: int
    rng: RandomSource
    rake: Rake | None = None
    ask_show: bool = False
    carried_pot: int = 0
    carried_shares: tuple[int, ...] = ()
    opening: int = 0
    parol_pot: bool = False
    tournament: bool = False


def new_hand(spec: HandSpec) -> BettingHand:
    """A new hand of ``spec.rules``'s game, dealt from ``spec.rng``."""
    if spec.rules.game is Game.HOLDEM:
        return _holdem(spec)
    return _italian(spec)


def _holdem(spec: HandSpec) -> BettingHand:
    from mazziere.game.holdem import HoldemHand

    n = len(spec.stacks)
    real = set(spec.blind_positions)
    blinds = tuple(
        amount if position in real or not amount else -amount
        for position, amount in enumerate(spec.blinds)
    )
    if n == 2:
        # The engine reads a pair as (small, big) and seats the big blind at position 0.
        blinds = (blinds[1], blinds[0])
    antes = tuple(spec.ante + dead for dead in spec.dead)
    return HoldemHand(
        spec.stacks,
        blinds=blinds,
        ante=antes,
        min_bet=spec.min_bet,
        rng=spec.rng,
        rake=spec.rake,
        ask_show=spec.ask_show,
        rules=spec.rules,
    )


def _italian(spec: HandSpec) -> BettingHand:
    raise NotImplementedError("the Italian engine is not merged yet")


def carry_of(hand: BettingHand, names: tuple[str, ...]) -> Carry:
    """What ``hand`` (over) leaves to the next hand, with positions turned into ``names``."""
    return NO_CARRY
