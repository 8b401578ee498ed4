"""What defines an Italian hand before the cards: its setup (checked), the records of its
own, and the numbers of a rule set at a table (worked out once)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, TypedDict

from mazziere.cards import Card, Rank
from mazziere.evaluate import Ranking, ranking_for
from mazziere.game.core import (
    HandSetupError,
    Rake,
    Record,
    as_record,
    check_chips,
)
from mazziere.game.italian.carry import ItalianCarry
from mazziere.game.italian.rules import (
    OpeningTest,
    forced_blinds,
    next_opening_level,
    opening_minimum,
)
from mazziere.rules import BettingStructure, Game, MinimumBet, RuleSet

__all__ = [
    "CarriedIn",
    "Discarded",
    "HandStarted",
    "ItalianSetup",
    "ItalianStakes",
    "ItalianTable",
    "ItalianTerms",
    "PotCarried",
    "StockReshuffled",
    "italian_setup",
    "italian_stakes",
    "italian_table",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ItalianStakes:
    """A table's terms, the same for every hand dealt there and checked once
    (:func:`italian_stakes`): the rule set (its name), the stakes, the forced blinds they
    make, the smallest opening bet, the betting structure and the table's options."""

    rules: str
    invito: int
    buio: int
    min_bet: int
    blinds: tuple[int, ...]
    """The forced blinds from the dealer's left (italian-32: buio, controbuio, over)."""
    structure: BettingStructure
    rake: bool
    ask_show: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CarriedIn:
    """What the hands before leave this one (most hands: nothing, the table's
    :attr:`ItalianTable.nothing_carried`).

    ``opening_level`` counts the dead hands since the pot was last won;
    ``parol_pot``: this hand plays a parol pot.  ``pot`` is in the main pot
    from the start (dead hands, a parol pot, forfeited invitos), of which
    ``shares[i]`` came from position ``i``.  ``dead_money[i]`` is paid by
    position ``i`` before the deal and is no bet (a parol pot's adeguamento, a
    missed blind's dead part); ``posts[i]`` is a live post (italian-32: a
    player back from missing blinds, or new).
    """

    opening_level: int
    parol_pot: bool
    pot: int
    shares: tuple[int, ...]
    dead_money: tuple[int, ...]
    posts: tuple[int, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class ItalianSetup:
    """Everything that defines a hand before the cards: the first record of its log.

    Positions run clockwise from the dealer's left; the dealer is the last.
    ``stacks`` are before any chip is posted; ``stakes`` are the table's (the
    same object hand after hand), ``carried`` what the hands before left.
    """

    stakes: ItalianStakes
    stacks: tuple[int, ...]
    carried: CarriedIn

    def terms(self) -> ItalianTerms:
        """The terms that make this setup again with its stacks (:func:`italian_setup`)."""
        stakes, carried = self.stakes, self.carried
        return ItalianTerms(
            invito=stakes.invito,
            buio=stakes.buio,
            min_bet=stakes.min_bet,
            structure=stakes.structure,
            opening_level=carried.opening_level,
            parol_pot=carried.parol_pot,
            carried_pot=carried.pot,
            carried_shares=carried.shares,
            dead_money=carried.dead_money,
            posts=carried.posts,
            rake=stakes.rake,
            ask_show=stakes.ask_show,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the rule set, the stacks and the terms."""
        data: dict[str, Any] = {"rules": self.stakes.rules, "stacks": self.stacks, **self.terms()}
        data["structure"] = self.stakes.structure.value
        for key in ("stacks", "carried_shares", "dead_money", "posts"):
            data[key] = list(data[key])
        return data


class ItalianTerms(TypedDict, total=False):
    """The terms of a hand that :class:`ItalianHand` takes by keyword and passes on to
    :func:`italian_setup` (whose defaults they are)."""

    invito: int
    buio: int
    min_bet: int | None
    structure: BettingStructure | None
    opening_level: int
    parol_pot: bool
    carried_pot: int
    carried_shares: Sequence[int] | None
    dead_money: Sequence[int] | None
    posts: Sequence[int] | None
    rake: bool
    ask_show: bool


@as_record
class HandStarted(Record):
    """The first record: the setup, from which the hand can be rebuilt with the rest of the log."""

    type: ClassVar[str] = "start"
    setup: ItalianSetup


@as_record
class Discarded(Record):
    """A player's discards in the draw (none: "servito"); others see only how many."""

    type: ClassVar[str] = "discard"
    position: int
    cards: tuple[Card | None, ...]
    timed_out: bool

    def seen_by(self, viewer: int | None) -> Record:
        """Others see how many cards were thrown, not which."""
        if viewer == self.position:
            return self
        return Discarded((self.position, (None,) * len(self.cards), self.timed_out))


@as_record
class StockReshuffled(Record):
    """The stock ran out: these discards became a new stock for ``position``'s draw."""

    type: ClassVar[str] = "reshuffle"
    position: int
    cards: tuple[Card | None, ...]

    def seen_by(self, viewer: int | None) -> Record:
        """Nobody sees which cards were shuffled."""
        return StockReshuffled((self.position, (None,) * len(self.cards)))


@as_record
class PotCarried(Record):
    """The pot is not awarded: a dead hand (nobody opened) or a parol pot."""

    type: ClassVar[str] = "carry"
    amount: int
    parol: bool


def _per_position(name: str, values: Sequence[int] | None, n: int) -> tuple[int, ...]:
    if values is None:
        return (0,) * n
    result = tuple(values)
    if len(result) != n:
        raise HandSetupError(f"{name} needs one amount per player ({n}), got {len(result)}")
    check_chips(name, result)
    return result


@dataclass(frozen=True, slots=True, kw_only=True)
class ItalianTable:
    """The numbers of a rule set of Poker all'italiana at a table of ``players``, worked out
    once (:func:`italian_table`)."""

    rules: RuleSet
    players: int
    ranking: Ranking
    """The hand values of the deck for this many players."""
    deck: tuple[Card, ...]
    rake: Rake | None
    """The house's share as the core takes it (``None``: no rake)."""
    pot_won: ItalianCarry
    """The carry after a pot is won: nothing carried, the ladder back at the bottom."""
    opening_tests: Mapping[Rank, OpeningTest]
    """The opening test of each smallest pair that may open a hand (none: no requirement)."""
    nothing_carried: CarriedIn
    """What a hand after a won pot brings: nothing (most hands' :attr:`ItalianSetup.carried`)."""


@functools.cache
def italian_table(rules: RuleSet, players: int) -> ItalianTable:
    """The numbers of ``rules`` for ``players`` dealt in, made once per rule set and count.

    >>> from mazziere.rules import ITALIAN_32
    >>> table = italian_table(ITALIAN_32, 4)
    >>> len(table.deck), table.rake.amount(1999, players=4), table.pot_won.pot
    (32, 95, 0)
    """
    rake = None
    if rules.rake_per_unit:
        rake = Rake(
            percent=Fraction(rules.rake_per_unit, rules.rake_unit),
            unit=rules.rake_unit,
            cap_by_players=rules.rake_cap,
            no_flop_no_drop=False,
        )
    zeros = (0,) * players
    level = next_opening_level(rules, 0, pot_won=True)
    pot_won = ItalianCarry(
        pot=0,
        opening_level=level,
        parol_pot=False,
        shares=zeros,
        parol_players=(),
        rejoin=zeros,
        opening=opening_minimum(rules, level),
    )
    return ItalianTable(
        rules=rules,
        players=players,
        ranking=ranking_for(rules, players),
        deck=tuple(rules.deck(players)),
        rake=rake,
        pot_won=pot_won,
        opening_tests=MappingProxyType(
            {
                minimum: OpeningTest.of(rules, players=players, minimum=minimum)
                for minimum in {*rules.opening_ladder, rules.parol_pot_opening}
                if minimum is not None
            }
        ),
        nothing_carried=CarriedIn(
            opening_level=0, parol_pot=False, pot=0, shares=zeros, dead_money=zeros, posts=zeros
        ),
    )


@functools.lru_cache(maxsize=256, typed=True)
def italian_stakes(
    rules: RuleSet,
    players: int,
    *,
    invito: int,
    buio: int,
    min_bet: int | None,
    structure: BettingStructure | None,
    parol_pot: bool,
    rake: bool,
    ask_show: bool,
) -> ItalianStakes:
    """The terms of a table of ``rules`` for ``players`` dealt in, checked once for each
    table (a table deals hand after hand with the same; ``typed``: ``True`` is not the chip
    1).  ``parol_pot``: the hand plays a parol pot, which needs no invito.

    >>> from mazziere.rules import ITALIAN_32
    >>> stakes = italian_stakes(ITALIAN_32, 5, invito=0, buio=50, min_bet=None, structure=None,
    ...                         parol_pot=False, rake=True, ask_show=False)
    >>> stakes.blinds, stakes.min_bet, stakes.structure.value
    ((50, 100, 200), 200, 'no-limit')
    """
    if rules.game is not Game.ITALIAN:
        raise HandSetupError(f"{rules.name} is not a rule set of Poker all'italiana")
    rules.check_players(players)
    check_chips("the invito, buio and carried pot", [invito, buio])
    if rules.uses_invito:
        if invito <= 0 and not parol_pot:
            raise HandSetupError(f"{rules.name} needs a positive invito")
    elif invito:
        raise HandSetupError(f"{rules.name} has no invito")
    blinds = forced_blinds(rules, buio=buio, players=players) if buio else ()
    if rules.forced_blinds and not blinds:
        raise HandSetupError(f"{rules.name} needs a positive buio")
    if buio and not rules.forced_blinds:
        raise HandSetupError(f"{rules.name} has no forced blinds")
    if min_bet is None:
        min_bet = blinds[-1] if rules.minimum_bet is MinimumBet.LAST_BLIND else invito
    check_chips("the minimum bet", [min_bet])
    if min_bet <= 0:
        raise HandSetupError("give a positive minimum bet (min_bet)")
    if parol_pot and not rules.parol:
        raise HandSetupError(f"{rules.name} has no parol pot")
    return ItalianStakes(
        rules=rules.name,
        invito=invito,
        buio=buio,
        min_bet=min_bet,
        blinds=blinds,
        structure=structure or rules.betting_structure,
        rake=rake,
        ask_show=ask_show,
    )


def italian_setup(
    rules: RuleSet,
    stacks: Sequence[int],
    *,
    invito: int = 0,
    buio: int = 0,
    min_bet: int | None = None,
    structure: BettingStructure | None = None,
    opening_level: int = 0,
    parol_pot: bool = False,
    carried_pot: int = 0,
    carried_shares: Sequence[int] | None = None,
    dead_money: Sequence[int] | None = None,
    posts: Sequence[int] | None = None,
    rake: bool = True,
    ask_show: bool = False,
) -> tuple[ItalianSetup, ItalianTable]:
    """The setup of a hand of ``rules`` with these stakes, once they are checked, and the
    numbers of its rule set at its table: :class:`ItalianHand` takes the same arguments.
    The table's terms are checked once (:func:`italian_stakes`); what the hands before
    left, when they left something, hand by hand."""
    n = len(stacks)
    stakes = italian_stakes(
        rules,
        n,
        invito=invito,
        buio=buio,
        min_bet=min_bet,
        structure=structure,
        parol_pot=parol_pot,
        rake=rake,
        ask_show=ask_show,
    )
    check_chips("stacks", stacks)
    check_chips("the invito, buio and carried pot", [carried_pot, opening_level])
    table = italian_table(rules, n)
    carried = table.nothing_carried
    given = (carried_shares, dead_money, posts)
    if opening_level or parol_pot or carried_pot or given != (None, None, None):
        shares = _per_position("carried_shares", carried_shares, n)
        if sum(shares) > carried_pot:
            raise HandSetupError(
                f"the carried shares ({sum(shares)}) exceed the carried pot ({carried_pot})"
            )
        dead = _per_position("dead_money", dead_money, n)
        for position, (stack, due) in enumerate(zip(stacks, dead, strict=True)):
            if due > stack:
                raise HandSetupError(
                    f"position {position} cannot pay {due} with {stack}: it does not take part"
                )
        live_posts = _per_position("posts", posts, n)
        if any(live_posts) and not rules.missed_blind_penalties:
            raise HandSetupError(f"{rules.name} has no missed-blind posts")
        if any(live_posts[: len(stakes.blinds)]):
            raise HandSetupError("a player in a blind position posts that blind, not a post")
        carried = CarriedIn(
            opening_level=opening_level,
            parol_pot=parol_pot,
            pot=carried_pot,
            shares=shares,
            dead_money=dead,
            posts=live_posts,
        )
    return ItalianSetup(stakes=stakes, stacks=tuple(stacks), carried=carried), table
