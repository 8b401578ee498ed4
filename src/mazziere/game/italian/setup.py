"""What defines an Italian hand before the cards: its setup (checked), the records of its
own, and the numbers of a rule set at a table (worked out once)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

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
    "Discarded",
    "HandStarted",
    "ItalianSetup",
    "ItalianStakes",
    "ItalianTable",
    "PotCarried",
    "StockReshuffled",
    "italian_setup",
    "italian_stakes",
    "italian_table",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class ItalianSetup:
    """Everything that defines a hand before the cards: the first record of its log.

    Positions run clockwise from the dealer's left; the dealer is the last.
    ``stacks`` are before any chip is posted.  ``carried_pot`` is in the main
    pot from the start (dead hands, a parol pot, forfeited invitos), of which
    ``carried_shares[i]`` came from position ``i``.  ``dead_money[i]`` is paid
    by position ``i`` before the deal and is no bet (a parol pot's adeguamento,
    a missed blind's dead part); ``posts[i]`` is a live post (italian-32: a
    player back from missing blinds, or new).
    """

    rules: str
    stacks: tuple[int, ...]
    invito: int = 0
    buio: int = 0
    min_bet: int
    structure: BettingStructure
    opening_level: int = 0
    parol_pot: bool = False
    carried_pot: int = 0
    carried_shares: tuple[int, ...] = ()
    dead_money: tuple[int, ...] = ()
    posts: tuple[int, ...] = ()
    rake: bool = True
    ask_show: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        data = dataclasses.asdict(self)
        data["structure"] = self.structure.value
        for key in ("stacks", "carried_shares", "dead_money", "posts"):
            data[key] = list(data[key])
        return data


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
    )


@dataclass(frozen=True, slots=True)
class ItalianStakes:
    """The stakes of a table of a rule set, once checked (:func:`italian_stakes`): what every
    hand there posts and the smallest opening bet."""

    blinds: tuple[int, ...]
    """The forced blinds from the dealer's left (italian-32: buio, controbuio, over)."""
    min_bet: int


@functools.lru_cache(maxsize=256, typed=True)
def italian_stakes(
    rules: RuleSet, players: int, *, invito: int, buio: int, min_bet: int | None, parol_pot: bool
) -> ItalianStakes:
    """The stakes of ``rules`` for ``players`` dealt in, checked once for each table's stakes
    (a table deals hand after hand with the same; ``typed``: ``True`` is not the chip 1).

    >>> from mazziere.rules import ITALIAN_32
    >>> italian_stakes(ITALIAN_32, 5, invito=0, buio=50, min_bet=None, parol_pot=False)
    ItalianStakes(blinds=(50, 100, 200), min_bet=200)
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
    return ItalianStakes(blinds=blinds, min_bet=min_bet)


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
) -> tuple[ItalianSetup, ItalianStakes]:
    """The setup of a hand of ``rules`` with these stakes, once they are checked, and the
    table's stakes (what the hand posts): :class:`ItalianHand` takes the same arguments.
    The table's stakes are checked once (:func:`italian_stakes`), what changes from hand
    to hand here."""
    n = len(stacks)
    stakes = italian_stakes(
        rules, n, invito=invito, buio=buio, min_bet=min_bet, parol_pot=parol_pot
    )
    check_chips("stacks", stacks)
    check_chips("the invito, buio and carried pot", [carried_pot, opening_level])
    shares = _per_position("carried_shares", carried_shares, n)
    if sum(shares) > carried_pot:
        raise HandSetupError(
            f"the carried shares ({sum(shares)}) exceed the carried pot ({carried_pot})"
        )
    dead = _per_position("dead_money", dead_money, n)
    if dead_money is not None:  # (none: nothing to pay)
        for position, (stack, due) in enumerate(zip(stacks, dead, strict=True)):
            if due > stack:
                raise HandSetupError(
                    f"position {position} cannot pay {due} with {stack}: it does not take part"
                )
    live_posts = _per_position("posts", posts, n)
    if posts is not None:  # (none: no posts)
        if any(live_posts) and not rules.missed_blind_penalties:
            raise HandSetupError(f"{rules.name} has no missed-blind posts")
        if any(live_posts[: len(stakes.blinds)]):
            raise HandSetupError("a player in a blind position posts that blind, not a post")
    setup = ItalianSetup(
        rules=rules.name,
        stacks=tuple(stacks),
        invito=invito,
        buio=buio,
        min_bet=stakes.min_bet,
        structure=structure or rules.betting_structure,
        opening_level=opening_level,
        parol_pot=parol_pot,
        carried_pot=carried_pot,
        carried_shares=shares,
        dead_money=dead,
        posts=live_posts,
        rake=rake,
        ask_show=ask_show,
    )
    return setup, stakes
