"""Texas Hold'em No-Limit: one hand, from the forced bets to the awards (RULES.md §2).

>>> import random
>>> hand = HoldemHand([200, 200, 200], blinds=(1, 2), rng=random.Random(7))
>>> hand.street.value, hand.actor, hand.legal_actions().to_call
('preflop', 2, 2)
>>> _ = hand.raise_to(6); _ = hand.fold(); _ = hand.fold()
>>> hand.is_over, hand.result.payoffs
(True, (-1, -2, 3))

A hand dealt from a given card order (a first card to each player from the
dealer's left, then a second; burn, flop, burn, turn, burn, river):

>>> from mazziere.cards import format_cards, parse_cards
>>> deck = parse_cards("Ah 2c Kh 2d  3s Qh Jh Th  4s 5d  6c 9c")
>>> hand = HoldemHand([100, 100], blinds=(1, 2), deck=deck)
>>> hand.actor  # heads-up: the button (position 1) posts the small blind and acts first
1
>>> _ = hand.all_in(); _ = hand.call()
>>> format_cards(hand.board), hand.result.stacks
('Qh Jh Th 5d 9c', (200, 0))
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from mazziere.cards import Card, RandomSource
from mazziere.evaluate import holdem_strengths
from mazziere.game.core import (
    BetsCollected,
    BettingHand,
    CardBurned,
    HandSetupError,
    HoleCardsDealt,
    MinRaiseRule,
    Phase,
    Pot,
    Rake,
    Record,
    Stock,
    UndeterminedHandError,
    as_record,
    check_chips,
)
from mazziere.game.view import HandView, card_texts
from mazziere.rules import HOLDEM, Game, RuleSet, find_rules

__all__ = [
    "BoardDealt",
    "HandStarted",
    "HoldemHand",
    "HoldemSetup",
    "HoldemStakes",
    "HoldemView",
    "Street",
]


class Street(StrEnum):
    """The four betting rounds."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


@functools.cache
def _deck(rules: RuleSet) -> tuple[Card, ...]:
    """The deck of a Hold'em rule set, built once."""
    return tuple(rules.deck())


_BOARD_COUNT = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


@dataclass(frozen=True, kw_only=True, slots=True)
class HoldemStakes:
    """A table's terms, the same hand after hand and checked once (:func:`holdem_stakes`).

    ``antes[i]`` and ``blinds[i]`` are what position ``i`` posts.  A negative
    blind is posted (its absolute value, live) but does not decide who acts
    first (a returning player's post, as in PHH).  ``antes_dead``: antes go to
    the main pot, which every player still in may win, instead of counting
    for all-in levels.
    """

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    min_bet: int
    antes_dead: bool
    min_raise_rule: MinRaiseRule
    ask_show: bool
    rules: RuleSet


@dataclass(frozen=True, kw_only=True, slots=True)
class HoldemSetup:
    """Everything that defines a hand before the cards: the first record of its log.

    ``stacks`` are before any chip is posted; ``stakes`` are the table's (the
    same object hand after hand).
    """

    stakes: HoldemStakes
    stacks: tuple[int, ...]
    rake: Rake | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON, one level deep."""
        stakes, rake = self.stakes, self.rake
        return {
            "stacks": list(self.stacks),
            "antes": list(stakes.antes),
            "blinds": list(stakes.blinds),
            "min_bet": stakes.min_bet,
            "antes_dead": stakes.antes_dead,
            "min_raise_rule": stakes.min_raise_rule.value,
            "rake": None
            if rake is None
            else {
                "percent": str(rake.percent),
                "cap": rake.cap,
                "cap_by_players": {str(k): v for k, v in rake.cap_by_players.items()},
                "unit": rake.unit,
                "no_flop_no_drop": rake.no_flop_no_drop,
            },
            "ask_show": stakes.ask_show,
            "rules": stakes.rules.name,
        }


@as_record
class HandStarted(Record):
    """The first record: the setup, from which the hand can be rebuilt with the rest of the log."""

    type: ClassVar[str] = "start"
    setup: HoldemSetup


@as_record
class BoardDealt(Record):
    """Community cards dealt face up for a street."""

    type: ClassVar[str] = "board"
    street: Street
    cards: tuple[Card | None, ...]


def _per_position(name: str, values: int | Sequence[int], n: int) -> tuple[int, ...]:
    if isinstance(values, int) and not isinstance(values, bool):
        return (values,) * n
    result = tuple(values)  # type: ignore[arg-type]
    if len(result) != n:
        raise HandSetupError(f"{name} needs one amount per player ({n}), got {len(result)}")
    return result


@functools.lru_cache(maxsize=256, typed=True)
def holdem_stakes(
    rules: RuleSet,
    players: int,
    *,
    blinds: tuple[int, ...],
    ante: int | tuple[int, ...],
    min_bet: int | None,
    antes_dead: bool,
    min_raise_rule: MinRaiseRule,
    ask_show: bool,
) -> HoldemStakes:
    """The terms of a table of ``players``, checked once for each table's stakes (a table
    deals hand after hand with the same; ``typed``: ``True`` is not the chip 1).

    ``blinds`` is ``(small, big)`` or one amount per position; ``ante`` one
    amount for all or one per position; ``min_bet`` defaults to the big blind,
    else the largest post, else the ante.

    >>> stakes = holdem_stakes(HOLDEM, 3, blinds=(1, 2), ante=0, min_bet=None,
    ...                        antes_dead=False, min_raise_rule=MinRaiseRule.LARGEST_INCREMENT,
    ...                        ask_show=False)
    >>> stakes.blinds, stakes.antes, stakes.min_bet
    ((1, 2, 0), (0, 0, 0), 2)
    """
    n = players
    check_chips("blinds", blinds, signed=True)  # (before the padding: zeros are whole chips)
    if len(blinds) == 2 and n != 2:
        blinds = (blinds[0], blinds[1]) + (0,) * (n - 2)
    elif len(blinds) == 2:
        blinds = (blinds[1], blinds[0])  # heads-up: position 0 is the big blind
    per_ante = _per_position("ante", ante, n)
    check_chips("antes", per_ante)
    per_blind = _per_position("blinds", blinds, n)
    if min_bet is None:  # the big blind, else the largest post, else the ante
        big = abs(per_blind[0 if n == 2 else 1]) if n >= 2 else 0
        min_bet = big or max([*map(abs, per_blind), *per_ante], default=0)
    else:
        check_chips("the minimum bet", (min_bet,))
    return HoldemStakes(
        antes=per_ante,
        blinds=per_blind,
        min_bet=min_bet,
        antes_dead=antes_dead,
        min_raise_rule=min_raise_rule,
        ask_show=ask_show,
        rules=rules,
    )


def _blind_kind(position: int, amount: int, blinds: Sequence[int]) -> str:
    if amount < 0:
        return "post"
    if len(blinds) == 2:
        other = blinds[1 - position]
        return "big_blind" if amount >= other and position == 0 else "small_blind"
    return ("small_blind", "big_blind")[position] if position < 2 else "straddle"


# Enum members as module constants: reading one off its class costs ten times more.
_PHASE_SHOWDOWN = Phase.SHOWDOWN
_STREET_PREFLOP = Street.PREFLOP
_STREET_RIVER = Street.RIVER


class HoldemHand(BettingHand):
    """One hand of Texas Hold'em No-Limit.

    ``blinds`` is ``(small, big)`` or one amount per position (straddles,
    PHH's negative posts); ``ante`` one amount for all or one per position.
    Positions are clockwise from the dealer's left; the button is the last.
    Heads-up, position 0 is the big blind and the button posts the small
    blind.  The cards come from ``deck`` (a card order, ``None`` for an
    unknown card) and then, or otherwise, from ``rng`` (tests: a seeded
    ``random.Random``; production: ``secrets.SystemRandom()``).

    ``ask_show``: at the showdown each player shows or mucks in turn (muck
    only a hand that cannot win), and a player who wins uncontested may show;
    otherwise cards speak: winning hands are shown, losing ones mucked.
    """

    __slots__ = (
        "_last_aggressor",
        "_showdown_pots",
        "_stock",
        "_strengths",
        "ask_show",
        "board",
        "rules",
        "setup",
        "street",
    )

    street: Street | None
    board: list[Card | None]

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        blinds: Sequence[int] = (1, 2),
        ante: int | Sequence[int] = 0,
        min_bet: int | None = None,
        deck: Sequence[Card | None] | None = None,
        rng: RandomSource | None = None,
        antes_dead: bool = False,
        min_raise_rule: MinRaiseRule = MinRaiseRule.LARGEST_INCREMENT,
        rake: Rake | None = None,
        ask_show: bool = False,
        rules: str | RuleSet = HOLDEM,
    ) -> None:
        stakes = holdem_stakes(
            find_rules(rules),
            len(stacks),
            blinds=tuple(blinds),
            ante=ante if isinstance(ante, int) else tuple(ante),
            min_bet=min_bet,
            antes_dead=antes_dead,
            min_raise_rule=min_raise_rule,
            ask_show=ask_show,
        )
        setup = HoldemSetup(stakes=stakes, stacks=tuple(stacks), rake=rake)
        self._start(setup, deck, rng)

    @classmethod
    def from_setup(
        cls,
        setup: HoldemSetup,
        *,
        deck: Sequence[Card | None] | None = None,
        rng: RandomSource | None = None,
    ) -> HoldemHand:
        """A new hand with this setup (the first record of another hand's log, say)."""
        stakes = setup.stakes
        check_chips("antes", stakes.antes)
        check_chips("blinds", stakes.blinds, signed=True)
        check_chips("the minimum bet", (stakes.min_bet,))
        hand = cls.__new__(cls)
        hand._start(setup, deck, rng)
        return hand

    def _start(
        self,
        setup: HoldemSetup,
        deck: Sequence[Card | None] | None,
        rng: RandomSource | None,
    ) -> None:
        """Start the hand; its amounts are known to be whole chips (checked by whoever made
        ``setup``: the constructor or :meth:`from_setup`)."""
        stakes = setup.stakes
        rule_set = stakes.rules
        if rule_set.game is not Game.HOLDEM:
            raise HandSetupError(f"{rule_set.name} is not a Hold'em rule set")
        n = len(setup.stacks)
        if n >= 2:
            rule_set.check_players(n)
        if stakes.min_bet <= 0:
            raise HandSetupError("the minimum bet must be positive")
        if deck is None and rng is None:
            raise HandSetupError("give a card order (deck) or a random source (rng)")
        super().__init__(
            setup.stacks,
            structure=rule_set.betting_structure,
            min_raise_rule=stakes.min_raise_rule,
            odd_chip=rule_set.odd_chip,
            rake=setup.rake,
            rng=rng,
        )
        self.setup = setup
        self.rules = rule_set
        self.ask_show = stakes.ask_show
        self.street = None
        self.board = []
        self._stock = Stock(_deck(rule_set), order=deck, rng=rng)
        self._strengths: dict[int, int | None] = {}
        self._showdown_pots: tuple[Pot, ...] = ()
        self._last_aggressor: int | None = None
        self.log.append(HandStarted((setup,)))
        if any(stakes.antes):
            posted = [0] * n
            for position, amount in enumerate(stakes.antes):
                if amount:
                    record = self._post_forced(
                        position, amount, kind="ante", live=False, levels=not stakes.antes_dead
                    )
                    posted[position] = record.amount
            if not stakes.antes_dead and any(posted):
                self._return_unmatched_ante(posted)
        blinds = stakes.blinds
        for position in (1, 0) if n == 2 else range(n):  # heads-up, the button's blind first
            amount = blinds[position]
            if amount and self.stacks[position]:
                self._post_forced(position, abs(amount), kind=_blind_kind(position, amount, blinds))
        self._deal_hole_cards()
        self._begin_street(Street.PREFLOP)

    def _return_unmatched_ante(self, posted: list[int]) -> None:
        """Antes that count for all-in levels: the part of the largest nobody matched goes back."""
        top = max(posted)
        owner = posted.index(top)
        excess = top - max(a for i, a in enumerate(posted) if i != owner)
        if excess:
            self._return_unmatched(owner, excess)

    # ---------------------------------------------------------------- dealing

    def _deal_hole_cards(self) -> None:
        n = self.n
        cards = self._stock.take(2 * n)
        hole = self.hole
        hole[:] = zip(cards[:n], cards[n:], strict=True)  # one card at a time, dealer's left first
        log = self.log
        for position, cards in enumerate(hole):
            log.append(HoleCardsDealt((position, cards)))

    def _deal_board(self, street: Street) -> None:
        # The burn card and the street's cards in one draw (the same cards, in order).
        burn, *cards = self._stock.take(1 + _BOARD_COUNT[street])
        log = self.log
        log.append(CardBurned((burn,)))
        self.board.extend(cards)
        log.append(BoardDealt((street, tuple(cards))))

    def _begin_street(self, street: Street) -> None:
        self.street = street
        if street is _STREET_PREFLOP:
            # The big blind is the opening bet: a raise is at least the minimum bet
            # more than the largest blind or straddle (a short blind changes nothing).
            self._begin_round(self._preflop_first(), min_bet=self.setup.stakes.min_bet)
        else:
            self._deal_board(street)
            self._begin_round(0, min_bet=self.setup.stakes.min_bet)

    def _preflop_first(self) -> int:
        """First asked pre-flop: left of the largest blind or straddle (negative posts aside)."""
        blinds = self.setup.stakes.blinds
        bets = self.bets
        if min(blinds) >= 0:
            # No negative post: the last of the largest bets (in C calls; ties go to the later).
            return self.n - bets[::-1].index(max(bets))
        top = 0
        key = (0, 0)
        for i in range(self.n):
            posted = bets[i] if blinds[i] > 0 else -bets[i]
            if (posted, i) >= key:
                top, key = i, (posted, i)
        return top + 1

    def _round_over(self) -> None:
        self._last_aggressor = self.aggressor
        street = self.street
        assert street is not None
        if street is _STREET_RIVER:
            if not self._cards_speak_one_pot():
                self._evaluate()
                self._begin_showdown(self._showdown_order(), ask=self.ask_show)
        elif self._active <= 1:
            # At most one player can still bet: hands face up, the board is dealt out.
            for position in self._showdown_order():
                self._do_show(position)
            while street is not _STREET_RIVER:
                street = _NEXT_STREET[street]
                self.street = street
                self._deal_board(street)
            self._evaluate()
            self._begin_showdown(self._showdown_order(), ask=self.ask_show)
        else:
            self._begin_street(_NEXT_STREET[street])

    # --------------------------------------------------------------- showdown

    def _showdown_order(self) -> list[int]:
        """Last aggressor of the last round first, else the first left of the button; clockwise."""
        start = self._last_aggressor if self._last_aggressor is not None else 0
        live = self.live  # in position order
        split = bisect_left(live, start)
        return [*live[split:], *live[:split]]

    def _evaluate(self) -> None:
        """Each hand still in, valued once (``None`` while a card is unknown or the board short)."""
        board = self.board
        hole = self.hole
        live = self.live
        strengths: dict[int, int | None] = dict.fromkeys(live)
        if len(board) == 5 and None not in board:
            known = [position for position in live if None not in hole[position]]
            values = holdem_strengths([hole[p] for p in known], board)  # type: ignore[misc,arg-type]
            strengths.update(zip(known, values, strict=True))
        self._strengths = strengths
        self._showdown_pots = self.pots()

    def _cards_speak_one_pot(self) -> bool:
        """The common showdown, done in one pass; False when it is not that case.

        Cards speak (nobody is asked), one pot (nobody all-in), every card
        known (dealt at random): in showdown order a hand at least as good as
        the best shown so far is shown, the others are mucked, and the best
        hands split the pot.  This is what the general showdown does in that
        case, without rebuilding the pots for each question (a test plays
        both ways and compares).
        """
        last = self.log[-1]  # the river's bets were just collected into these pots
        pots = last.pots if type(last) is BetsCollected else self.pots()
        if self.ask_show or self._stock.unknown or not self._one_pot_at_showdown(pots):
            return False
        live = self.live
        hole = self.hole
        values = holdem_strengths([hole[p] for p in live], self.board)  # type: ignore[misc,arg-type]
        strengths: dict[int, int | None] = dict(zip(live, values, strict=True))
        self._strengths = strengths
        self.phase = _PHASE_SHOWDOWN
        best = -1
        for position in self._showdown_order():
            strength = strengths[position]
            if strength >= best:  # type: ignore[operator]
                best = strength  # type: ignore[assignment]
                self._do_show(position)
            else:
                self._do_muck(position)
        # The pot as the general showdown builds it: the hands not mucked contend.
        eligible = tuple(sorted(self.shown))
        winners = tuple([i for i in eligible if strengths[i] == best])
        self._award([(Pot(pots[0].amount, eligible), winners)])
        self._finish()
        return True

    def _can_win(self, position: int) -> bool | None:
        strengths = self._strengths
        mine = strengths.get(position)
        if mine is None:
            return None
        pots = self._showdown_pots
        if len(pots) == 1:
            # One pot (the common case): only the best hand shown so far matters.
            eligible = pots[0].eligible
            if position not in eligible:
                return False
            best = -1
            for other in self.shown:
                if other != position and other in eligible:
                    theirs = strengths.get(other)
                    if theirs is None:
                        return True  # an unknown hand shown: this one may still win
                    if theirs > best:  # noqa: PLR1730 (max() costs a call)
                        best = theirs
            return mine >= best
        for pot in pots:
            if position not in pot.eligible:
                continue
            best = -1
            for other in pot.eligible:
                if other in self.shown and other != position:
                    theirs = self._strengths.get(other)
                    if theirs is None:
                        return True  # an unknown hand shown: this one may still win
                    best = max(best, theirs)
            if mine >= best:
                return True
        return False

    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        if len(eligible) == 1:
            return eligible
        strengths = self._strengths
        values = [strengths.get(i) for i in eligible]
        if None in values:
            unknown = [i for i, v in zip(eligible, values, strict=True) if v is None]
            raise UndeterminedHandError(
                f"a pot would be decided by unknown cards (position {unknown[0]})"
            )
        top = max(values)  # type: ignore[type-var]
        return tuple(i for i, v in zip(eligible, values, strict=True) if v == top)

    def _rake_applies(self) -> bool:
        rake = self.rake
        return rake is not None and (not rake.no_flop_no_drop or len(self.board) >= 3)

    def _on_uncontested(self, winner: int) -> None:
        if self.ask_show:
            self._offer_show(winner)
        else:
            self._finish()

    # ------------------------------------------------------------------ views

    def view(self, viewer: int | None = None) -> HoldemView:
        """What ``viewer`` (a position, or ``None`` for a spectator) may see now.

        >>> import random
        >>> hand = HoldemHand([100, 100, 100], blinds=(1, 2), rng=random.Random(2))
        >>> mine, spectator = hand.view(0), hand.view(None)
        >>> None in mine.hole[0], mine.hole[1], spectator.hole[0]
        (False, (None, None), (None, None))
        """
        return HoldemView(**self._view_fields(viewer), street=self.street, board=tuple(self.board))

    # ---------------------------------------------------------------- rebuild

    @classmethod
    def from_log(cls, log: Sequence[Record], *, rng: RandomSource | None = None) -> HoldemHand:
        """Rebuild a hand by replaying its log (``rng`` deals on if the hand is not over).

        >>> import random
        >>> hand = HoldemHand([50, 80, 120], blinds=(1, 2), rng=random.Random(4))
        >>> _ = hand.call(); _ = hand.call(); _ = hand.check()
        >>> copy = HoldemHand.from_log(hand.log)
        >>> copy.log == hand.log, copy.actor == hand.actor
        (True, True)
        """
        if not log or not isinstance(log[0], HandStarted):
            raise HandSetupError("a Hold'em log starts with its HandStarted record")
        setup = log[0].setup
        n = len(setup.stacks)
        hole: dict[int, tuple[Card | None, ...]] = {}
        later: list[Card | None] = []
        for record in log:
            if isinstance(record, HoleCardsDealt):
                hole[record.position] = record.cards
            elif isinstance(record, CardBurned):
                later.append(record.card)
            elif isinstance(record, BoardDealt):
                later.extend(record.cards)
        order: list[Card | None] = []
        if hole:
            order = [hole[p][0] for p in range(n)] + [hole[p][1] for p in range(n)]
        hand = cls.from_setup(setup, deck=order + later, rng=rng)
        hand._replay(log)
        return hand


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemView(HandView):
    """A Hold'em hand as one player (or a spectator) sees it: the street and the board too."""

    street: Street | None
    board: tuple[Card | None, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        street = None if self.street is None else self.street.value
        return {**HandView.to_dict(self), "street": street, "board": card_texts(self.board)}
