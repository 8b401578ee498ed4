"""Poker all'italiana: one hand of ``italian-classic`` or ``italian-32`` (RULES.md §3-5).

The betting (rounds, raises, all-ins, side pots, rake, awards) is the shared
core's (:class:`~mazziere.game.core.BettingHand`); this module adds what is
Italian: the invito, the blind opening and the forced blinds, the deal, the
opening test and the dead hand, the draw with its fourth card and reshuffle,
the last round's first speaker, parol and parole, the showdown's automatic
showing, and the state the next hand needs (:class:`ItalianCarry`).

A classic hand at four players where nobody opens: the pot is carried and
the next hand opens at Queens.

>>> import random
>>> hand = ItalianHand("italian-classic", [500] * 4, invito=10, rng=random.Random(4))
>>> hand.phase.value, hand.actor, sorted(k.value for k in hand.legal_actions().kinds)
('dealing', 0, ['bet', 'check', 'timeout'])
>>> hand.legal_actions().min_to  # the buio: the pot
40
>>> _ = hand.check()  # no blind opening: the cards are dealt
>>> while not hand.is_over:
...     _ = hand.check()
>>> carry = hand.carry
>>> carry.pot, carry.opening.name_it, hand.result.payoffs
(40, 'Q', (-10, -10, -10, -10))

An italian-32 hand: buio 50, controbuio 100, over 200; round 1 starts left of
the over.

>>> hand = ItalianHand("italian-32", [5000] * 4, buio=50, rng=random.Random(1))
>>> hand.bets, hand.actor, hand.legal_actions().to_call
([50, 100, 200, 0], 3, 200)
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import filterfalse, islice
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from mazziere.cards import Card, RandomSource, Rank, format_cards
from mazziere.evaluate import HandValue, Ranking, best_hands, ranking_for
from mazziere.game.core import (
    _NEW_POT,
    Action,
    ActionKind,
    ActionNotOfferedError,
    AmountTooLargeError,
    AmountTooSmallError,
    BetsCollected,
    BettingHand,
    CannotBetError,
    CannotCheckError,
    CannotRaiseError,
    CardsMucked,
    CardsShown,
    HandResult,
    HandSetupError,
    HoleCardsDealt,
    IllegalActionError,
    InvalidAmountError,
    LegalActions,
    MinRaiseRule,
    NotYourTurnError,
    Phase,
    PlayerActed,
    Pot,
    PotAwarded,
    Rake,
    Record,
    WrongPhaseError,
    _builder,
    _fast_init,
    _fast_keyword_init,
    _record_builder,
    as_record,
)
from mazziere.game.italian_rules import (
    DrawStock,
    OpeningTest,
    blind_opening_amounts,
    forced_blinds,
    next_opening_level,
    opening_minimum,
    rejoin_costs,
)
from mazziere.rules import BettingStructure, Category, Game, MinimumBet, RuleSet, find_rules

__all__ = [
    "BLIND_NAMES",
    "CannotDiscardError",
    "Discarded",
    "HandStarted",
    "ItalianCarry",
    "ItalianHand",
    "ItalianSetup",
    "ItalianView",
    "NextHand",
    "PotCarried",
    "StockReshuffled",
    "next_hand",
]

# Enum members as module constants, as in the core: reading one off its class costs
# ten times more, and these are read on every action.
_ACTIONKIND_BET = ActionKind.BET
_ACTIONKIND_CALL = ActionKind.CALL
_ACTIONKIND_CHECK = ActionKind.CHECK
_ACTIONKIND_DRAW = ActionKind.DRAW
_ACTIONKIND_FOLD = ActionKind.FOLD
_ACTIONKIND_PAROL = ActionKind.PAROL
_ACTIONKIND_RAISE = ActionKind.RAISE
_ACTIONKIND_TIMEOUT = ActionKind.TIMEOUT
_PHASE_BETTING = Phase.BETTING
_PHASE_DEALING = Phase.DEALING
_PHASE_DRAW = Phase.DRAW
_PHASE_OVER = Phase.OVER
_PHASE_SHOWDOWN = Phase.SHOWDOWN
_MINRAISERULE_LARGEST_INCREMENT = MinRaiseRule.LARGEST_INCREMENT
_GAME_ITALIAN = Game.ITALIAN
_MINIMUMBET_LAST_BLIND = MinimumBet.LAST_BLIND

_PAROL = frozenset({_ACTIONKIND_PAROL})
_DRAW_KINDS = frozenset({_ACTIONKIND_DRAW, _ACTIONKIND_TIMEOUT})
_BLIND_BET_KINDS = frozenset({_ACTIONKIND_BET, _ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT})
_BLIND_RAISE_KINDS = frozenset({_ACTIONKIND_RAISE, _ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT})

BLIND_NAMES = ("buio", "controbuio", "over")
"""The blind bets from the dealer's left: forced in italian-32, chosen in italian-classic."""


class CannotDiscardError(IllegalActionError):
    """Discards that are not the player's cards, too many of them, or the same card twice."""


# ------------------------------------------------------------------- setup

_T = TypeVar("_T")


@_fast_keyword_init
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
    timed_out: bool = False

    def seen_by(self, viewer: int | None) -> Record:
        """Others see how many cards were thrown, not which."""
        if viewer == self.position:
            return self
        return Discarded(self.position, (None,) * len(self.cards), self.timed_out)


@as_record
class StockReshuffled(Record):
    """The stock ran out: these discards became a new stock for ``position``'s draw."""

    type: ClassVar[str] = "reshuffle"
    position: int
    cards: tuple[Card | None, ...]

    def seen_by(self, viewer: int | None) -> Record:
        """Nobody sees which cards were shuffled."""
        return StockReshuffled(self.position, (None,) * len(self.cards))


@as_record
class PotCarried(Record):
    """The pot is not awarded: a dead hand (nobody opened) or a parol pot."""

    type: ClassVar[str] = "carry"
    amount: int
    parol: bool


_NEW_DISCARDED = _record_builder(Discarded)
_NEW_HAND_STARTED = _record_builder(HandStarted)
_NEW_ITALIAN_SETUP = _builder(ItalianSetup)
_NEW_STOCK_RESHUFFLED = _record_builder(StockReshuffled)
_NEW_HOLE_CARDS_DEALT = _record_builder(HoleCardsDealt)


@_fast_init
@dataclass(frozen=True, slots=True)
class ItalianCarry:
    """What the next hand needs from this one; the table layer maps positions to seats.

    ``pot``: chips carried (0 when the pot was won).  ``opening_level``: dead
    hands in a row (the ladder's step).  ``parol_pot``: the next hand plays a
    parol pot.  ``shares[i]``: chips of position ``i`` in the carried pot.
    ``parol_players``: who may play the parol pot without paying; ``rejoin[i]``
    what position ``i`` must pay to take part (the adeguamento).
    """

    pot: int
    opening_level: int
    parol_pot: bool
    shares: tuple[int, ...]
    parol_players: tuple[int, ...]
    rejoin: tuple[int, ...]
    opening: Rank | None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "pot": self.pot,
            "opening_level": self.opening_level,
            "opening": self.opening.name_it if self.opening is not None else None,
            "parol_pot": self.parol_pot,
            "shares": list(self.shares),
            "parol_players": list(self.parol_players),
            "rejoin": list(self.rejoin),
        }


# -------------------------------------------------------------------- hand


def _chips(name: str, values: Iterable[object]) -> None:
    for value in values:
        if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
            raise HandSetupError(f"{name} are whole chips (int), not {value!r}")
        if value < 0:
            raise HandSetupError(f"{name} cannot be negative, got {value}")


def _per_position(name: str, values: Sequence[int] | None, n: int) -> tuple[int, ...]:
    if values is None:
        return (0,) * n
    result = tuple(values)
    if len(result) != n:
        raise HandSetupError(f"{name} needs one amount per player ({n}), got {len(result)}")
    _chips(name, result)
    return result


_RAKES: dict[str, tuple[RuleSet, Rake | None]] = {}


def _rake(rules: RuleSet) -> Rake | None:
    """The house's rake of ``rules`` as the core computes it, made once (``None``: no rake)."""
    cached = _RAKES.get(rules.name)
    if cached is None or cached[0] is not rules:
        rake = None
        if rules.rake_per_unit:
            rake = Rake(
                percent=Fraction(rules.rake_per_unit, rules.rake_unit),
                unit=rules.rake_unit,
                cap_by_players=rules.rake_cap,
                no_flop_no_drop=False,
            )
        cached = (rules, rake)
        _RAKES[rules.name] = cached
    return cached[1]


_WON: dict[tuple[str, int], tuple[RuleSet, ItalianCarry]] = {}


def _pot_won(rules: RuleSet, players: int) -> ItalianCarry:
    """The carry after a pot is won: nothing carried, the ladder back at the bottom."""
    cached = _WON.get((rules.name, players))
    if cached is None or cached[0] is not rules:
        zeros = (0,) * players
        level = next_opening_level(rules, 0, pot_won=True)
        carry = ItalianCarry(
            pot=0,
            opening_level=level,
            parol_pot=False,
            shares=zeros,
            parol_players=(),
            rejoin=zeros,
            opening=opening_minimum(rules, level),
        )
        cached = (rules, carry)
        _WON[(rules.name, players)] = cached
    return cached[1]


_TABLES: dict[
    tuple[str, int], tuple[RuleSet, Ranking, tuple[Card, ...], Rake | None, Rank | None]
] = {}


def _tables(
    rules: RuleSet, players: int
) -> tuple[RuleSet, Ranking, tuple[Card, ...], Rake | None, Rank | None]:
    """``rules`` itself, then its ranking and deck for ``players`` dealt in, its rake
    (:func:`_rake`) and the opening of a hand at the bottom of the ladder, made once."""
    cached = _TABLES.get((rules.name, players))
    if cached is None or cached[0] is not rules:
        cached = (
            rules,
            ranking_for(rules, players),
            tuple(rules.deck(players)),
            _rake(rules),
            _opening(rules, 0, False),
        )
        _TABLES[(rules.name, players)] = cached
    return cached


_STAKES: dict[
    tuple[str, int, int, int, int | None, bool], tuple[RuleSet, tuple[int, ...], int]
] = {}
"""The stakes of a table (rules, players, invito, buio, min_bet, parol pot) that passed
the checks of :class:`ItalianHand` -> its forced blinds and minimum bet."""


_OPENINGS: dict[tuple[str, int, bool], tuple[RuleSet, Rank | None]] = {}


def _opening(rules: RuleSet, level: int, parol_pot: bool) -> Rank | None:
    """``opening_minimum(rules, level, parol_pot=parol_pot)``, looked up once."""
    cached = _OPENINGS.get((rules.name, level, parol_pot))
    if cached is None or cached[0] is not rules:
        cached = (rules, opening_minimum(rules, level, parol_pot=parol_pot))
        if len(_OPENINGS) > 1000:  # levels are small: never let odd ones pile up
            _OPENINGS.clear()
        _OPENINGS[(rules.name, level, parol_pot)] = cached
    return cached[1]


_REFUSALS: dict[tuple[Rank, bool], str] = {}


def _refusal(minimum: Rank, *, bilateral: bool) -> str:
    """Why cards that do not open may not bet (written once for each minimum)."""
    text = _REFUSALS.get((minimum, bilateral))
    if text is None:
        draw = ", or a bilateral straight-flush draw" if bilateral else ""
        text = f"these cards do not open: a pair of {minimum.name_it} or better is needed{draw}"
        _REFUSALS[(minimum, bilateral)] = text
    return text


class ItalianHand(BettingHand):
    """One hand of Poker all'italiana.

    ``rules``: ``"italian-classic"``, ``"italian-32"`` or a house rule set.
    ``invito`` (classic) is every player's ante; ``buio`` (italian-32) the
    smallest blind, the others following from the rule set.  ``min_bet`` is
    the table's minimum opening bet (default: the invito; italian-32: the
    last blind).  ``opening_level`` counts the dead hands since the pot was
    last won; ``parol_pot`` plays a parol pot.  The cards come from ``deck``
    (a card order: the deal one card at a time from the dealer's left, then
    the draw; a card repeated later is dealt again after a reshuffle) and
    then, or otherwise, from ``rng``, which also draws the odd chips of a
    parole split unless ``odd_chips`` names their winners (a replay).

    ``ask_show``: at the showdown the players who may muck are asked, and a
    player who wins uncontested may show; otherwise cards speak.
    """

    # Slots, as in the core: more attributes than an instance dict shares keys for.
    __slots__ = (
        "_all_in_raisers",
        "_blind_base",
        "_blind_lock",
        "_cycle",
        "_draw_max",
        "_draw_queue",
        "_first_aggressor",
        "_has_parol",
        "_last_aggressor",
        "_last_first",
        "_last_round_start",
        "_late",
        "_no_last_round",
        "_odd_chips",
        "_opening_test",
        "_opens",
        "_outcome",
        "_parol_breaker",
        "_parol_scanned",
        "_showdown_pots",
        "_stock",
        "_strengths",
        "ask_show",
        "betting_round",
        "blind_raisers",
        "blinds",
        "drawn",
        "opening",
        "opening_level",
        "parol_pot",
        "ranking",
        "rules",
        "setup",
    )

    setup: ItalianSetup
    rules: RuleSet

    def __init__(
        self,
        rules: str | RuleSet,
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
        deck: Sequence[Card] | None = None,
        rng: RandomSource | None = None,
        odd_chips: Sequence[int] | None = None,
    ) -> None:
        rule_set = find_rules(rules)
        n = len(stacks)
        # A table deals hand after hand with the same stakes: once they passed the
        # checks below, a hand with whole-chip amounts and nothing carried in per
        # position skips them (anything else takes the checks, which say what is wrong).
        if (
            type(invito) is int
            and type(buio) is int
            and (min_bet is None or type(min_bet) is int)
            and type(carried_pot) is int
            and type(opening_level) is int
            and carried_pot >= 0
            and opening_level >= 0
            and carried_shares is None
            and dead_money is None
            and posts is None
        ):
            key = (rule_set.name, n, invito, buio, min_bet, bool(parol_pot))
            known = _STAKES.get(key)
            if known is not None and known[0] is rule_set:
                for stack in stacks:
                    if type(stack) is not int or stack < 0:
                        break
                else:
                    zeros = (0,) * n
                    setup = _NEW_ITALIAN_SETUP(
                        rule_set.name,
                        tuple(stacks),
                        invito,
                        buio,
                        known[2],
                        structure or rule_set.betting_structure,
                        opening_level,
                        parol_pot,
                        carried_pot,
                        zeros,
                        zeros,
                        zeros,
                        rake,
                        ask_show,
                    )
                    self._start(setup, rule_set, deck, rng, odd_chips, blinds=known[1])
                    return
        else:
            key = None
        if rule_set.game is not _GAME_ITALIAN:
            raise HandSetupError(f"{rule_set.name} is not a rule set of Poker all'italiana")
        _chips("stacks", stacks)
        rule_set.check_players(n)
        _chips("the invito, buio and carried pot", [invito, buio, carried_pot, opening_level])
        if rule_set.uses_invito:
            if invito <= 0 and not parol_pot:
                raise HandSetupError(f"{rule_set.name} needs a positive invito")
        elif invito:
            raise HandSetupError(f"{rule_set.name} has no invito")
        blinds = forced_blinds(rule_set, buio=buio, players=n) if buio else ()
        if rule_set.forced_blinds and not blinds:
            raise HandSetupError(f"{rule_set.name} needs a positive buio")
        if buio and not rule_set.forced_blinds:
            raise HandSetupError(f"{rule_set.name} has no forced blinds")
        if min_bet is None:
            min_bet = blinds[-1] if rule_set.minimum_bet is _MINIMUMBET_LAST_BLIND else invito
        _chips("the minimum bet", [min_bet])
        if min_bet <= 0:
            raise HandSetupError("give a positive minimum bet (min_bet)")
        if parol_pot and not rule_set.parol:
            raise HandSetupError(f"{rule_set.name} has no parol pot")
        shares = _per_position("carried_shares", carried_shares, n)
        if sum(shares) > carried_pot:
            raise HandSetupError(
                f"the carried shares ({sum(shares)}) exceed the carried pot ({carried_pot})"
            )
        dead = _per_position("dead_money", dead_money, n)
        if dead_money is not None:  # (none: nothing to pay, nothing to check)
            for position, (stack, due) in enumerate(zip(stacks, dead, strict=True)):
                if due > stack:
                    raise HandSetupError(
                        f"position {position} cannot pay {due} with {stack}: it does not take part"
                    )
        live_posts = _per_position("posts", posts, n)
        if posts is not None:
            if any(live_posts) and not rule_set.missed_blind_penalties:
                raise HandSetupError(f"{rule_set.name} has no missed-blind posts")
            if any(live_posts[: len(blinds)]):
                raise HandSetupError("a player in a blind position posts that blind, not a post")
        setup = ItalianSetup(
            rules=rule_set.name,
            stacks=tuple(stacks),
            invito=invito,
            buio=buio,
            min_bet=min_bet,
            structure=structure or rule_set.betting_structure,
            opening_level=opening_level,
            parol_pot=parol_pot,
            carried_pot=carried_pot,
            carried_shares=shares,
            dead_money=dead,
            posts=live_posts,
            rake=rake,
            ask_show=ask_show,
        )
        if key is not None:
            if len(_STAKES) > 1000:  # stakes are few: never let odd ones pile up
                _STAKES.clear()
            _STAKES[key] = (rule_set, blinds, min_bet)
        self._start(setup, rule_set, deck, rng, odd_chips, blinds=blinds)

    @classmethod
    def from_setup(
        cls,
        setup: ItalianSetup,
        *,
        deck: Sequence[Card] | None = None,
        rng: RandomSource | None = None,
        odd_chips: Sequence[int] | None = None,
    ) -> ItalianHand:
        """A new hand with this setup (the first record of another hand's log, say)."""
        hand = cls.__new__(cls)
        hand._start(setup, find_rules(setup.rules), deck, rng, odd_chips)
        return hand

    def _start(
        self,
        setup: ItalianSetup,
        rule_set: RuleSet,
        deck: Sequence[Card] | None,
        rng: RandomSource | None,
        odd_chips: Sequence[int] | None,
        *,
        blinds: tuple[int, ...] | None = None,
    ) -> None:
        if deck is None and rng is None:
            raise HandSetupError("give a card order (deck) or a random source (rng)")
        if rule_set.parole_splits_pot and rng is None and odd_chips is None:
            raise HandSetupError("a parole split draws odd chips: give rng or odd_chips")
        # _tables(), looked up here: made for a new table only after the core has
        # checked the stacks (its errors come first).
        tables = _TABLES.get((rule_set.name, len(setup.stacks)))
        if tables is not None and tables[0] is not rule_set:
            tables = None
        rake = None
        if setup.rake:
            rake = tables[3] if tables is not None else _rake(rule_set)
        super().__init__(
            setup.stacks,
            structure=setup.structure,
            min_raise_rule=_MINRAISERULE_LARGEST_INCREMENT,
            odd_chip=rule_set.odd_chip,
            rake=rake,
            rng=rng if rng is not None else _NO_RANDOM,
        )
        n = self.n
        if tables is None:
            tables = _tables(rule_set, n)
        _, ranking, deck_cards, _, opening = tables
        self.setup = setup
        self.rules = rule_set
        self.ask_show = setup.ask_show
        self.ranking = ranking
        self.opening_level = setup.opening_level
        self.parol_pot = setup.parol_pot
        if setup.opening_level or setup.parol_pot:
            opening = _opening(rule_set, setup.opening_level, setup.parol_pot)
        self.opening: Rank | None = opening
        """The smallest pair that opens this hand (``None``: no opening requirement)."""
        self.betting_round = 0
        """0 before the deal, 1 the first betting round, 2 the last."""
        self.blind_raisers: list[int] = []
        self._blind_base = 0
        self.drawn: list[int | None] = [None] * n
        """How many cards each player discarded (``None``: not drawn yet)."""
        self._stock = DrawStock(deck_cards, order=deck, rng=rng)
        self._odd_chips = list(odd_chips) if odd_chips is not None else None
        self._opens: list[bool | None] = [None] * n
        self._opening_test: OpeningTest | None = None
        self._strengths: dict[int, int] = {}
        self._all_in_raisers: set[int] = set()
        self._cycle = rule_set.straight_flush_minima_beats_massima
        self._has_parol = rule_set.parol or rule_set.parole_splits_pot
        self._draw_max = rule_set.draw_max
        self._showdown_pots: tuple[Pot, ...] = ()
        self._first_aggressor: int | None = None
        self._last_aggressor: int | None = None
        self._last_first: int = 0
        self._last_round_start = 0
        self._parol_scanned = 0
        self._parol_breaker: int | None = None
        self._no_last_round = False
        self._blind_lock = False
        self._outcome = "won"
        self._draw_queue: list[int] = []
        self._late: list[int] = []
        self.blinds: tuple[int, ...] = (
            blinds
            if blinds is not None
            else (forced_blinds(rule_set, buio=setup.buio, players=n) if setup.buio else ())
        )
        """The forced blinds from the dealer's left (italian-32: buio, controbuio, over)."""
        self.log.append(_NEW_HAND_STARTED((setup,)))
        self.carried = setup.carried_pot
        if any(setup.dead_money):
            for position, amount in enumerate(setup.dead_money):
                if amount:
                    self._post_forced(position, amount, kind="dead", live=False, levels=False)
        if setup.invito:
            for position in range(n):
                if self.stacks[position]:
                    self._post_forced(position, setup.invito, kind="invito", live=False)
        for position, amount in enumerate(self.blinds):
            if self.stacks[position]:
                self._post_forced(position, amount, kind=BLIND_NAMES[position])
        if any(setup.posts):
            for position, amount in enumerate(setup.posts):
                if amount and self.stacks[position]:
                    self._post_forced(position, amount, kind="post")
        if (
            rule_set.blind_opening_raises
            and setup.opening_level == 0
            and (not setup.parol_pot or rule_set.parol_pot_blind_opening)
            and self._offer_blind(0)
        ):
            return
        self._deal()

    # ------------------------------------------------------------ properties

    @property
    def carry(self) -> ItalianCarry:
        """What the next hand needs (once the hand is over)."""
        if self.result is None:
            raise WrongPhaseError("the hand is not over: nothing to carry yet")
        carry = self.result.extra["carry"]
        assert isinstance(carry, ItalianCarry)
        return carry

    def opens(self, position: int) -> bool:
        """Whether ``position``'s cards may open this hand (always, without an opening test)."""
        if self.opening is None:
            return True
        known = self._opens[position]
        if known is None:
            cards = self.hole[position]
            test = self._opening_test
            if test is None:
                test = OpeningTest.of(self.rules, players=self.n, minimum=self.opening)
                self._opening_test = test
            known = len(cards) == 5 and test(cards)  # type: ignore[arg-type]
            self._opens[position] = known
        return known

    # ---------------------------------------------------------- blind opening

    def _blind_amount(self) -> int:
        """What the next blind raiser must put in: the pot, then double each time."""
        base = self._blind_base
        if base <= 0:  # blind_opening_amounts says why there is no blind opening
            blind_opening_amounts(pot=base, raises=1)
        # The last of blind_opening_amounts(pot=base, raises=len(raisers) + 1, factor=...).
        due: int = base * self.rules.blind_opening_factor ** len(self.blind_raisers)
        return due

    def _offer_blind(self, position: int) -> bool:
        """Ask ``position`` for the next blind raise if the rules and its chips allow."""
        if len(self.blind_raisers) >= min(self.rules.blind_opening_raises, self.n):
            return False
        if position >= self.n:
            return False
        if not self.blind_raisers:
            self._blind_base = self.total_pot
        if self.stacks[position] < self._blind_amount():
            return False
        self.phase = _PHASE_DEALING
        self.actor = position
        return True

    def _in_blind_phase(self) -> bool:
        return self.phase is _PHASE_DEALING

    def _verify_blind(self, kind: ActionKind, amount: object, position: int | None) -> int:
        actor = self.actor
        assert actor is not None
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn, not {position}'s")
        if kind in (_ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT):
            return 0
        due = self._blind_amount()
        name = BLIND_NAMES[len(self.blind_raisers)]
        if kind is _ACTIONKIND_BET and self.blind_raisers:
            raise CannotBetError(f"there is a blind bet already: the {name} raises to {due}")
        if kind is _ACTIONKIND_RAISE and not self.blind_raisers:
            raise CannotRaiseError(f"there is no blind to raise: the buio bets {due}")
        if kind not in (_ACTIONKIND_BET, _ACTIONKIND_RAISE):
            raise ActionNotOfferedError(
                f"before the deal position {actor} may only make the {name} ({due}) or check"
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidAmountError(f"amounts are whole chips (int), not {amount!r}")
        if amount < due:
            raise AmountTooSmallError(f"the {name} is {due}, not {amount}")
        if amount > due:
            raise AmountTooLargeError(f"the {name} is {due}, not {amount}")
        return due

    def _blind(self, kind: ActionKind, amount: object, position: int | None) -> PlayerActed:
        due = self._verify_blind(kind, amount, position)
        actor = self.actor
        assert actor is not None
        if not due:
            record = PlayerActed(actor, _ACTIONKIND_CHECK, 0, 0, False, kind is _ACTIONKIND_TIMEOUT)
            self.log.append(record)
            self._deal()
            return record
        # The chips move as a live post; the record is the player's decision.
        forced = self._post_forced(actor, due, kind=BLIND_NAMES[len(self.blind_raisers)])
        self.log.pop()
        record = PlayerActed(actor, kind, due, due, forced.all_in)
        self.log.append(record)
        if forced.all_in:
            self._all_in_raisers.add(actor)
        self.blind_raisers.append(actor)
        if not self._offer_blind(actor + 1):
            self._deal()
        return record

    def verify_bet(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may bet ``amount`` (before the deal: the buio)."""
        if self._in_blind_phase():
            self._verify_blind(_ACTIONKIND_BET, amount, position)
            return
        super().verify_bet(amount, position)

    def bet(self, amount: int, position: int | None = None) -> PlayerActed:
        """Bet (open, punto); before the deal, the buio."""
        if self.phase is _PHASE_DEALING:  # _in_blind_phase(), inlined
            return self._blind(_ACTIONKIND_BET, amount, position)
        record = BettingHand.bet(self, amount, position)
        if record.all_in:
            self._all_in_raisers.add(record.position)
        return record

    def verify_raise_to(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may raise to ``amount`` (before the deal: a blind)."""
        if self._in_blind_phase():
            self._verify_blind(_ACTIONKIND_RAISE, amount, position)
            return
        super().verify_raise_to(amount, position)

    def raise_to(self, amount: int, position: int | None = None) -> PlayerActed:
        """Raise (rilancio); before the deal, the controbuio or the over."""
        if self.phase is _PHASE_DEALING:  # _in_blind_phase(), inlined
            return self._blind(_ACTIONKIND_RAISE, amount, position)
        record = BettingHand.raise_to(self, amount, position)
        if record.all_in:
            self._all_in_raisers.add(record.position)
        if self._blind_lock:
            self._unlock_after_blind(record)
        return record

    def all_in(self, position: int | None = None) -> PlayerActed:
        """Put the whole stack in."""
        record = super().all_in(position)
        if record.kind is not _ACTIONKIND_CALL:
            self._all_in_raisers.add(record.position)
        self._unlock_after_blind(record)
        return record

    def _unlock_after_blind(self, record: PlayerActed) -> None:
        # Once the last blind raiser raises again, betting goes on normally.
        if self._blind_lock and record.kind is _ACTIONKIND_RAISE:
            self._blind_lock = False
            self.call_only = [False] * self.n
            self._legal = None  # worked out with the lock on

    def verify_check(self, position: int | None = None) -> None:
        """Raise unless the player to act may check (before the deal: decline the blind)."""
        if self._in_blind_phase():
            self._verify_blind(_ACTIONKIND_CHECK, None, position)
            return
        super().verify_check(position)

    def check(self, position: int | None = None, *, timed_out: bool = False) -> PlayerActed:
        """Check (passo, busso, cip); before the deal, decline the blind."""
        if self.phase is _PHASE_DEALING:
            kind = _ACTIONKIND_TIMEOUT if timed_out else _ACTIONKIND_CHECK
            return self._blind(kind, None, position)
        return BettingHand.check(self, position, timed_out=timed_out)

    # ------------------------------------------------------------------ deal

    def _deal(self) -> None:
        n = self.n
        cards = self._stock.deal_fresh(5 * n)
        hole = self.hole
        for position in range(n):
            hole[position] = cards[position::n]  # one card at a time from the dealer's left
            self.log.append(_NEW_HOLE_CARDS_DEALT((position, hole[position])))
        self.betting_round = 1
        if self.blind_raisers:
            raisers = self.blind_raisers
            last = raisers[-1]
            amounts = [self.bets[p] for p in raisers]
            increment = max(b - a for a, b in zip([0, *amounts], amounts, strict=False))
            self.call_only = [p != last for p in range(n)]
            self._blind_lock = True
            self._begin_round(
                last + 1, min_bet=self.setup.min_bet, increment=increment, aggressor=last
            )
        elif self.blinds:
            last = len(self.blinds) - 1
            big = self.blinds[-1]
            self._begin_round(last + 1, min_bet=self.setup.min_bet, increment=big, aggressor=last)
        else:
            min_bet = self.setup.min_bet
            if self.parol_pot and self.rules.parol_pot_min_bet_is_pot:
                min_bet = max(min_bet, self.total_pot)
            self._begin_round(0, min_bet=min_bet)

    def _bet_refused(self, position: int) -> str | None:
        # Asked on every decision with nothing to call: the cached answer first.
        if self.betting_round != 1 or self.opening is None:
            return None
        known = self._opens[position]
        if known or (known is None and self.opens(position)):
            return None
        return _refusal(self.opening, bilateral=self.rules.bilateral_draw_opens)

    # ----------------------------------------------------------- round ends

    def _round_over(self) -> None:
        if self.betting_round == 1:
            self._first_aggressor = self.aggressor
            self._blind_lock = False
            self.call_only = [False] * self.n
            if self.opening is not None and self.aggressor is None and not self.blind_raisers:
                if self._active != self._live:  # somebody still in has no chips behind
                    self._no_last_round = True  # all-in on the invito: no dead hand
                else:
                    self._carry_pot(parol=False)
                    return
            self._begin_draw()
            return
        self._last_aggressor = self.aggressor
        if self._parol_unanimous():
            if self.rules.parol:
                self._carry_pot(parol=True)
            else:
                self._split_by_parole()
            return
        self._showdown()

    def _carry_pot(self, *, parol: bool) -> None:
        self._outcome = "parol" if parol else "dead"
        self.log.append(PotCarried(self.total_pot, parol))
        self._finish()

    def _split_by_parole(self) -> None:
        plan = [(pot, tuple(p for p in pot.eligible)) for pot in self.pots()]
        self._award(plan)
        self._finish()

    def _split_pot(self, index: int, amount: int, winners: tuple[int, ...]) -> tuple[int, ...]:
        if len(winners) == 1:  # suits break every tie: only parole splits a pot
            return (amount,)
        script = self._odd_chips
        if script is None:
            return super()._split_pot(index, amount, winners)
        share, odd = divmod(amount, len(winners))
        given, self._odd_chips = script[:odd], script[odd:]
        if len(given) < odd or len(set(given)) < odd or not set(given) <= set(winners):
            raise HandSetupError(
                f"pot {index}: {odd} odd chips go to distinct winners among {list(winners)}, "
                f"not {given}"
            )
        return tuple(share + (p in given) for p in winners)

    # ------------------------------------------------------------------ draw

    def _begin_draw(self) -> None:
        self.betting_round = 1
        self._draw_queue = list(self.live)  # the players not folded, in position order
        self._late = []
        if not self.rules.draw_max:
            self._after_draw()
            return
        self.phase = _PHASE_DRAW
        self.actor = self._draw_queue[0]

    def verify_draw(self, cards: Iterable[Card] = (), position: int | None = None) -> None:
        """Raise unless the player to draw may discard these cards (none: stand pat)."""
        if self.phase is not _PHASE_DRAW:
            if self.phase is _PHASE_OVER:
                raise WrongPhaseError("the hand is over")
            raise WrongPhaseError(f"no draw now: the hand is at the {self.phase.value}")
        actor = self.actor
        assert actor is not None
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn to draw, not {position}'s")
        discards = list(cards)
        if len(discards) > self.rules.draw_max:
            raise CannotDiscardError(
                f"at most {self.rules.draw_max} cards may be changed, not {len(discards)}"
            )
        if len(set(discards)) != len(discards):
            raise CannotDiscardError(f"the same card twice: {format_cards(discards)}")
        held = self.hole[actor]
        for card in discards:
            if card not in held:
                raise CannotDiscardError(f"{card} is not in position {actor}'s hand")

    def can_draw(self, cards: Iterable[Card] = (), position: int | None = None) -> bool:
        """Whether :meth:`draw` would succeed."""
        try:
            self.verify_draw(cards, position)
        except IllegalActionError:
            return False
        return True

    def draw(
        self, cards: Iterable[Card] = (), position: int | None = None, *, timed_out: bool = False
    ) -> Discarded:
        """Discard ``cards`` and get as many new ones (the fourth of four after everyone)."""
        discards = tuple(cards)
        actor = self.actor
        held = self.hole[actor] if actor is not None else ()
        if (
            self.phase is not _PHASE_DRAW
            or (position is not None and position != actor)
            or len(discards) > self._draw_max
            or len(thrown := set(discards)) != len(discards)
            or not thrown.issubset(held)
        ):
            self.verify_draw(discards, position)  # raises the precise error (always, here)
        assert actor is not None
        record = _NEW_DISCARDED((actor, discards, timed_out))
        self.log.append(record)
        count = len(discards)
        self.drawn[actor] = count
        if count:
            self.hole[actor] = tuple(filterfalse(thrown.__contains__, held))
            self._stock.discard(actor, discards)
            now = count
            if count == 4 and self.rules.fourth_card_after_others:
                now = 3
                self._late.append(actor)
            self._deal_draw(actor, now)
        queue = self._draw_queue
        queue.pop(0)
        if queue:
            self.actor = queue[0]
            return record
        for late in self._late:
            self._deal_draw(late, 1)
        self._after_draw()
        return record

    def _deal_draw(self, position: int, count: int) -> None:
        cards, reshuffles = self._stock.deal(position, count)
        for event in reshuffles:
            # The new stock's order is secret: the record keeps which cards went in.
            self.log.append(_NEW_STOCK_RESHUFFLED((event.position, tuple(sorted(event.cards)))))
        dealt = tuple(cards)
        self.hole[position] += dealt
        self.log.append(_NEW_HOLE_CARDS_DEALT((position, dealt)))

    def _after_draw(self) -> None:
        self.actor = None
        if self._no_last_round:
            self._showdown()
            return
        self.betting_round = 2
        self._last_round_start = self._parol_scanned = len(self.log)
        if self.blind_raisers:
            first = self.blind_raisers[-1] + 1
        elif self.blinds:
            first = len(self.blinds)
        else:
            assert self._first_aggressor is not None
            first = self._first_aggressor
        # The first to speak opens the showdown if nobody bets; set before the round
        # starts, since it ends at once when at most one player can bet.
        self._last_first = first % self.n
        self._begin_round(first, min_bet=self.setup.min_bet)
        if self.phase is _PHASE_BETTING and self.actor is not None:
            self._last_first = self.actor

    # ----------------------------------------------------------------- parol

    def _parol_offered(self) -> str | None:
        """Why this game or moment has no parol (parole); ``None`` if it has."""
        if not self._has_parol:
            return f"{self.rules.name} has no parol"
        if self.betting_round != 2:
            return "parol is said in the last betting round only"
        return None

    def _parol_blocked(self) -> str | None:
        """Why parol (parole) may not be said now; ``None`` if it may."""
        offered = self._parol_offered()
        if offered is not None:
            return offered
        if self._active != self._live:  # somebody still in has no chips behind
            return "no parol while a player still in is all-in"
        if self._parol_breaker is None and self._parol_scanned != len(self.log):
            self._scan_parol()
        if self._parol_breaker is not None:
            return f"position {self._parol_breaker} did not say parol: it no longer counts"
        return None

    def _scan_parol(self) -> None:
        """Look for the first player of the last round who acted other than by parol or a fold."""
        log = self.log
        for record in islice(log, self._parol_scanned, None):
            if isinstance(record, PlayerActed) and record.kind not in (
                _ACTIONKIND_PAROL,
                _ACTIONKIND_FOLD,
            ):
                self._parol_breaker = record.position
                break
        self._parol_scanned = len(log)

    def _parol_unanimous(self) -> bool:
        if self._parol_blocked() is not None:
            return False
        return any(
            isinstance(r, PlayerActed) and r.kind is _ACTIONKIND_PAROL
            for r in self.log[self._last_round_start :]
        )

    def verify_parol(self, position: int | None = None) -> None:
        """Raise unless the player to act may say parol (parole, in italian-32)."""
        self._check_turn(position)
        actor = self.actor
        assert actor is not None
        offered = self._parol_offered()
        if offered is not None:
            raise ActionNotOfferedError(offered)
        if self.bets[actor] < self.current_bet:
            raise CannotCheckError("parol is a check: there is a bet to call")
        blocked = self._parol_blocked()
        if blocked is not None:
            raise ActionNotOfferedError(blocked)

    def can_parol(self, position: int | None = None) -> bool:
        """Whether :meth:`parol` would succeed."""
        try:
            self.verify_parol(position)
        except IllegalActionError:
            return False
        return True

    def parol(self, position: int | None = None) -> PlayerActed:
        """Say parol (parole): a check that counts only if every player still in says it."""
        self.verify_parol(position)
        return self._check_as(_ACTIONKIND_PAROL)

    # ---------------------------------------------------- actions of our own

    def _verify_other(self, action: Action, position: int | None) -> None:
        kind = action.kind
        if kind is _ACTIONKIND_PAROL:
            self.verify_parol(position)
        elif kind is _ACTIONKIND_DRAW:
            self.verify_draw(action.cards, position)
        elif kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DRAW:
            self.verify_draw((), position)
        elif kind is _ACTIONKIND_TIMEOUT and self._in_blind_phase():
            self._verify_blind(kind, None, position)
        else:
            super()._verify_other(action, position)

    def _apply_other(self, action: Action, position: int | None) -> Record:
        kind = action.kind
        if kind is _ACTIONKIND_PAROL:
            return self.parol(position)
        if kind is _ACTIONKIND_DRAW:
            return self.draw(action.cards, position)
        if kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DRAW:
            return self.draw((), position, timed_out=True)
        if kind is _ACTIONKIND_TIMEOUT and self._in_blind_phase():
            return self._blind(kind, None, position)
        return super()._apply_other(action, position)

    def _legal_other(self) -> LegalActions:
        actor = self.actor
        if actor is None:
            return LegalActions(None)
        if self.phase is _PHASE_DRAW:
            return LegalActions(actor, _DRAW_KINDS, 0, 0, self._draw_max)
        due = self._blind_amount()
        kinds = _BLIND_RAISE_KINDS if self.blind_raisers else _BLIND_BET_KINDS
        return LegalActions(actor, kinds, 0, due, due)

    def _betting_options(self, i: int) -> LegalActions:
        """The core's options, plus parol when it may be said (a fold with nothing to call
        is flagged for confirmation: ``confirm_fold``).

        Before the deal (:meth:`_legal_other`): the blind (``min_to`` is its
        amount) or a check.  In the draw: ``draw`` with ``min_to``..``max_to`` cards.
        """
        legal = super()._betting_options(i)
        if not legal.to_call and self._parol_blocked() is None:
            return legal._replace(kinds=legal.kinds | _PAROL)
        return legal

    # -------------------------------------------------------------- showdown

    def _showdown(self) -> None:
        if self._no_last_round:
            start = 0
        else:
            start = self._last_aggressor if self._last_aggressor is not None else self._last_first
        live = self.live  # in position order
        split = bisect_left(live, start)
        order = [*live[split:], *live[:split]]
        ranking = self.ranking
        strengths = self._strengths
        for position in order:
            strengths[position] = ranking.strength(self.hole[position])  # type: ignore[arg-type]
        last = self.log[-1]  # the bets of the last round were just collected into these pots
        self._showdown_pots = last.pots if type(last) is BetsCollected else self.pots()
        if not self._one_pass_showdown(order):
            self._begin_showdown(order, ask=self.ask_show, auto_show=True)

    def _one_pass_showdown(self, order: list[int]) -> bool:
        """The common showdown in one pass; False when it is not that case.

        Nobody asked, one pot, nobody all-in, no straight-flush cycle: in
        showdown order a hand better than every hand shown so far is shown,
        the others are mucked (no ties: suits break them), and the last hand
        shown wins.  What the general showdown does then, without its questions.
        """
        pots = self._showdown_pots
        if self.ask_show or self._cycle or not self._one_pot_at_showdown(pots):
            return False
        strengths = self._strengths
        self.phase = _PHASE_SHOWDOWN
        best = -1
        winner = order[0]
        shown = []
        for position in order:
            strength = strengths[position]
            if strength > best:
                best, winner = strength, position
                self._do_show(position)
                shown.append(position)
            else:
                self._do_muck(position)
        pot = _NEW_POT(pots[0].amount, tuple(sorted(shown)))
        self._award([(pot, (winner,))])
        self._finish()
        return True

    def _best(self, positions: Sequence[int]) -> list[int]:
        """Who wins among ``positions`` (never a tie: suits break them)."""
        strengths = self._strengths
        if self._cycle:
            category = self.ranking.category
            flushes = [p for p in positions if category(strengths[p]) is Category.STRAIGHT_FLUSH]
            if len(flushes) > 1:
                # Straight flushes of italian-classic: minima beats massima, a cycle.
                ranking, name = self.ranking, self.rules.name
                values = [
                    HandValue(
                        strength=strengths[p],
                        ranking=ranking,
                        cards=self.hole[p],  # type: ignore[arg-type]
                        rules=name,
                    )
                    for p in positions
                ]
                return [positions[i] for i in best_hands(values)]
        top = max(strengths[p] for p in positions)
        return [p for p in positions if strengths[p] == top]

    def _can_win(self, position: int) -> bool | None:
        # Shown automatically: a hand that beats every hand shown so far in some
        # pot it contests, and a player who raised all-in.
        if position in self._all_in_raisers:
            return True
        shown, strengths = self.shown, self._strengths
        pots = self._showdown_pots
        if len(pots) == 1 and not self._cycle:
            # One pot (the common case): beat every hand shown in it (no ties: suits break them)
            eligible = pots[0].eligible
            if position not in eligible:
                return False
            mine = strengths[position]
            for other in shown:
                if other != position and other in eligible and strengths[other] >= mine:
                    return False
            return True
        for pot in pots:
            eligible = pot.eligible
            if position not in eligible:
                continue
            rivals = [p for p in eligible if p in shown and p != position]
            if not rivals:
                return True
            if self._cycle:
                if self._best([*rivals, position]) == [position]:
                    return True
            elif strengths[position] > max(strengths[p] for p in rivals):
                return True
        return False

    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        if len(eligible) == 1:
            return eligible
        return tuple(self._best(eligible))

    def _on_uncontested(self, winner: int) -> None:
        if self.ask_show:
            self._offer_show(winner)
        else:
            self._finish()

    # ---------------------------------------------------------------- result

    def _finish(self, extra: Mapping[str, object] | None = None) -> None:
        carry = self._carry()
        BettingHand._finish(self, {"carry": carry, **extra} if extra else {"carry": carry})

    def _carry(self) -> ItalianCarry:
        n = self.n
        rules = self.rules
        if self._outcome == "won":
            return _pot_won(rules, n)
        carried = self.setup.carried_shares
        shares = tuple(carried[p] + self.committed[p] + self.dead[p] for p in range(n))
        if self._outcome == "dead":
            level = next_opening_level(rules, self.opening_level, pot_won=False)
            parol_pot = self.parol_pot
            players = tuple(range(n)) if parol_pot else ()
            rejoin = (0,) * n
        else:
            level = self.opening_level
            parol_pot = True
            players = self.live
            rejoin = rejoin_costs(shares, players)
        return ItalianCarry(
            pot=self.total_pot,
            opening_level=level,
            parol_pot=parol_pot,
            shares=shares,
            parol_players=players,
            rejoin=rejoin,
            opening=_opening(rules, level, parol_pot),
        )

    # ---------------------------------------------------------------- replay

    @classmethod
    def from_log(cls, log: Sequence[Record], *, rng: RandomSource | None = None) -> ItalianHand:
        """Rebuild a hand by replaying its log (``rng`` deals on if the hand is not over).

        >>> import random
        >>> hand = ItalianHand("italian-32", [900, 900, 900], buio=50, rng=random.Random(3))
        >>> _ = hand.call(); _ = hand.call(); _ = hand.check(); _ = hand.draw(hand.hole[0][:2])
        >>> copy = ItalianHand.from_log(hand.log, rng=random.Random(0))
        >>> copy.log == hand.log, copy.actor == hand.actor, copy.hole == hand.hole
        (True, True, True)
        """
        if not log or not isinstance(log[0], HandStarted):
            raise HandSetupError("an Italian log starts with its HandStarted record")
        setup = log[0].setup
        n = len(setup.stacks)
        dealt = [r for r in log if isinstance(r, HoleCardsDealt)]
        order: list[Card] = []
        if dealt:
            first = [r.cards for r in dealt[:n]]
            order = [first[p][k] for k in range(5) for p in range(n)]  # type: ignore[misc]
            order += [c for r in dealt[n:] for c in r.cards]  # type: ignore[misc]
        odd_chips = [
            winner
            for r in log
            if isinstance(r, PotAwarded)
            for winner, share in zip(r.winners, r.shares, strict=True)
            if share > min(r.shares)
        ]
        hand = cls.from_setup(setup, deck=order, rng=rng, odd_chips=odd_chips)
        for record in log[1:]:
            if isinstance(record, PlayerActed):
                if record.timed_out:
                    hand.timeout(record.position)
                elif record.kind in (_ACTIONKIND_BET, _ACTIONKIND_RAISE):
                    wager = hand.bet if record.kind is _ACTIONKIND_BET else hand.raise_to
                    wager(record.to, record.position)
                else:
                    getattr(hand, record.kind.value)(record.position)
            elif isinstance(record, Discarded):
                if record.timed_out:
                    hand.timeout(record.position)
                else:
                    hand.draw(record.cards, record.position)  # type: ignore[arg-type]
            elif (
                isinstance(record, CardsShown | CardsMucked)
                and hand.phase is _PHASE_SHOWDOWN
                and hand.actor == record.position
            ):
                hand.show() if isinstance(record, CardsShown) else hand.muck()
        if hand.log != list(log):
            raise HandSetupError("the log does not replay to itself")
        return hand

    # ------------------------------------------------------------------ views

    def view(self, viewer: int | None = None) -> ItalianView:
        """What ``viewer`` (a position, or ``None`` for a spectator) may see now.

        >>> import random
        >>> hand = ItalianHand("italian-32", [900, 900], buio=50, rng=random.Random(2))
        >>> mine, spectator = hand.view(0), hand.view(None)
        >>> None in mine.hole[0], mine.hole[1], spectator.legal
        (False, (None, None, None, None, None), None)
        """
        hole: list[tuple[Card | None, ...]] = []
        for position in range(self.n):
            if position == viewer or position in self.shown:
                hole.append(self.hole[position])
            else:
                hole.append((None,) * len(self.hole[position]))
        legal = self.legal_actions() if viewer is not None and viewer == self.actor else None
        return ItalianView(
            viewer=viewer,
            rules=self.rules.name,
            phase=self.phase,
            betting_round=self.betting_round,
            button=self.button,
            actor=self.actor,
            stacks=tuple(self.stacks),
            bets=tuple(self.bets),
            folded=tuple(self.folded),
            pots=self.pots(),
            total_pot=self.total_pot,
            hole=tuple(hole),
            drawn=tuple(self.drawn),
            opening=self.opening,
            parol_pot=self.parol_pot,
            carried_pot=self.setup.carried_pot,
            blind_raisers=tuple(self.blind_raisers),
            legal=legal,
            result=self.result,
        )


@dataclass(frozen=True)
class NextHand:
    """Who plays the next hand, and the arguments it needs, from the last hand's carry.

    ``seats`` are positions of the last hand in the next hand's position
    order (the button has moved one seat left); ``stacks`` theirs before the
    next hand; ``arguments`` go to :class:`ItalianHand` with the table's
    stakes; ``passed`` were left out of a parol pot (they could not pay the
    adeguamento, or chose not to).
    """

    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    arguments: Mapping[str, object]
    passed: tuple[int, ...]


def next_hand(
    carry: ItalianCarry, stacks: Sequence[int], *, declined: Iterable[int] = ()
) -> NextHand:
    """The next hand after one that ended with ``carry`` and ``stacks`` (positions of that hand).

    The button moves one seat left.  Players without chips sit out.  A parol
    pot is played by the parol players and by those who pay their
    adeguamento (``carry.rejoin``) unless they are in ``declined``; a player
    who cannot pay it is passed automatically.

    >>> carry = ItalianCarry(pot=100, opening_level=0, parol_pot=True, shares=(40, 10, 40, 10),
    ...                      parol_players=(0, 2), rejoin=(0, 30, 0, 30), opening=Rank.KING)
    >>> plan = next_hand(carry, [500, 20, 300, 600])
    >>> plan.seats, plan.passed, plan.arguments["dead_money"], plan.arguments["carried_shares"]
    ((2, 3, 0), (1,), (0, 30, 0), (40, 10, 40))
    """
    n = len(stacks)
    if len(carry.shares) != n:
        raise ValueError(f"the carry is for {len(carry.shares)} players, not {n}")
    refused = set(declined)
    order = [*range(1, n), 0]
    seats: list[int] = []
    passed: list[int] = []
    for position in order:
        if stacks[position] <= 0:
            continue
        if carry.parol_pot:
            if position in carry.parol_players:
                seats.append(position)
            elif carry.shares[position] and (
                position in refused or stacks[position] < carry.rejoin[position]
            ):
                passed.append(position)
            elif carry.shares[position]:
                seats.append(position)
            continue
        seats.append(position)
    dead = tuple(carry.rejoin[p] if carry.parol_pot else 0 for p in seats)
    arguments: dict[str, object] = {
        "opening_level": carry.opening_level,
        "parol_pot": carry.parol_pot,
        "carried_pot": carry.pot,
        "carried_shares": tuple(carry.shares[p] for p in seats),
        "dead_money": dead,
    }
    return NextHand(
        seats=tuple(seats),
        stacks=tuple(stacks[p] for p in seats),
        arguments=MappingProxyType(arguments),
        passed=tuple(passed),
    )


class _NoRandom:
    """The random source of a hand that was given none: a replay never needs it."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1, /) -> int:
        raise HandSetupError("this hand has no random source (rng)")


_NO_RANDOM = _NoRandom()


@dataclass(frozen=True)
class ItalianView:
    """An Italian hand as one player (or a spectator) sees it: plain data, ``to_dict()`` for JSON.

    Hidden cards are ``None`` (``"??"`` in JSON); ``drawn`` says how many cards
    each player changed; ``legal`` is given only to the player to act (its
    ``bet`` is there only when the cards may open).
    """

    viewer: int | None
    rules: str
    phase: Phase
    betting_round: int
    button: int
    actor: int | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    hole: tuple[tuple[Card | None, ...], ...]
    drawn: tuple[int | None, ...]
    opening: Rank | None
    parol_pot: bool
    carried_pot: int
    blind_raisers: tuple[int, ...]
    legal: LegalActions | None = None
    result: HandResult | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""

        def cards(values: Iterable[Card | None]) -> list[str]:
            return ["??" if c is None else str(c) for c in values]

        return {
            "viewer": self.viewer,
            "rules": self.rules,
            "phase": self.phase.value,
            "betting_round": self.betting_round,
            "button": self.button,
            "actor": self.actor,
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "folded": list(self.folded),
            "pots": [p.to_dict() for p in self.pots],
            "total_pot": self.total_pot,
            "hole": [cards(h) for h in self.hole],
            "drawn": list(self.drawn),
            "opening": self.opening.name_it if self.opening is not None else None,
            "parol_pot": self.parol_pot,
            "carried_pot": self.carried_pot,
            "blind_raisers": list(self.blind_raisers),
            "legal": self.legal.to_dict() if self.legal is not None else None,
            "result": self.result.to_dict() if self.result is not None else None,
        }
