"""The Italian draw's odds: every way to change 0 to 4 cards, exactly, all at once.

For five cards of either profile and a deck (italian-classic: by the players
dealt in), :func:`draw_odds` enumerates, for each of the 31 ways to keep some
cards and change the others, every set of new cards the unseen cards can
give, evaluates all of them in one numpy batch, and reports for each way:

* ``categories``: the exact probability of each category after the draw;
* ``share``: the final hand's expected share of the deck's five-card hands
  that it beats (a strength from 0 to 1; the ranking's default order);
* ``beats_hand``: with ``beat=``, the exact probability of beating that known
  hand (its cards are not in the stock);
* ``beats_opener``: with ``opener=`` (the current minimum pair), the
  probability of beating a hand that can open at that minimum: every such
  hand of the unseen cards equally likely.  Our own cards are out of it;
  the new cards we draw are not taken out of the opener's hand (their
  effect on it is left out).

The unseen cards are the deck less our five and any ``dead`` cards; our own
discards never come back (RULES.md: the drawer's discards are not in the
stock).  Suits break every tie, so there are no ties, and in italian-classic
the ace-low straight flush beats the ace-high one.

>>> odds = draw_odds("J♥J♦9♣8♠7♠", "italian-classic", players=4)
>>> len(odds.options), odds.options[0].discard_text
(31, '9♣ 8♠ 7♠')
>>> round(odds.options[0].categories["three_of_a_kind"], 4), odds.options[0].draws
(0.1826, 2925)
>>> stand = odds.option(())
>>> stand.categories["pair"], stand.draws
(1.0, 1)
>>> sum(odds.options[5].categories.values())
1.0
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from mazziere.cards import Card, Rank, WrongCardCountError, format_cards, parse_cards
from mazziere.evaluate import (
    ITALIAN_KEY,
    Ranking,
    StraightFlushClass,
    evaluate_batch,
    italian_strengths_of_sums,
    ranking_for,
)
from mazziere.game.italian.rules import OpeningTest
from mazziere.odds.combinatorics import combinations
from mazziere.rules import Game, RuleSet, find_rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["DrawOdds", "DrawOption", "draw_odds"]

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class DrawOption:
    """One way to draw: the cards changed, and what the draw makes, exactly."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    draws: int
    """How many sets of new cards were enumerated (all equally likely)."""
    categories: dict[str, float]
    """Probability of each category after the draw (the rule set's categories, best first)."""
    share: float
    """Expected share of the deck's five-card hands the final hand beats."""
    beats_hand: float | None = None
    beats_opener: float | None = None

    @property
    def discard_text(self) -> str:
        """The cards changed, with suit symbols (``servito``: none)."""
        return format_cards(self.discard, pretty=True)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: what ``mazziere odds italian-... --json`` lists for each option."""
        payload: dict[str, Any] = {
            "discard": [Card(c).pretty() for c in self.discard],
            "keep": [Card(c).pretty() for c in self.keep],
            "draws": self.draws,
            "categories": self.categories,
            "share": self.share,
        }
        if self.beats_hand is not None:
            payload["beats_hand"] = self.beats_hand
        if self.beats_opener is not None:
            payload["beats_opener"] = self.beats_opener
        return payload


@dataclass(frozen=True, slots=True)
class DrawOdds:
    """All 31 ways to draw, best first: by ``beats_hand``, else ``beats_opener``, else ``share``."""

    rules: str
    players: int | None
    hand: tuple[Card, ...]
    options: tuple[DrawOption, ...]

    def option(self, discard: Sequence[int | str] | str) -> DrawOption:
        """The option that changes exactly these cards.

        >>> round(draw_odds("Ah Kh Qh Jh 7s", "italian-32").option("7s").categories["flush"], 4)
        0.1111
        """
        wanted = frozenset(parse_cards(discard))
        for option in self.options:
            if frozenset(option.discard) == wanted:
                return option
        raise ValueError(f"no option changes exactly {format_cards(wanted)}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "rules": self.rules,
            "players": self.players,
            "hand": [c.pretty() for c in self.hand],
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class _Order:
    """Per strength of a ranking: its category's index, and the straight-flush classes."""

    category: npt.NDArray[np.int8]
    minima: npt.NDArray[np.bool_]
    massima: npt.NDArray[np.bool_]
    cycle: bool
    """Whether the minima beats the massima (italian-classic)."""


_CACHE: dict[tuple[object, ...], tuple[RuleSet, Any]] = {}


def _cached(rules: RuleSet, key: tuple[object, ...], build: Callable[[], _T]) -> _T:
    """Tables built once per rule set (by name and identity: rule sets are not hashable)."""
    full_key = (rules.name, *key)
    hit = _CACHE.get(full_key)
    if hit is None or hit[0] is not rules:
        hit = _CACHE[full_key] = (rules, build())
    value: _T = hit[1]
    return value


def _order(rules: RuleSet, ranking: Ranking) -> _Order:
    def build() -> _Order:
        categories = rules.category_order
        strengths = range(ranking.size + 1)
        classes = [ranking.straight_flush_class(s) for s in strengths]
        return _Order(
            np.array([categories.index(ranking.category(s)) for s in strengths], dtype=np.int8),
            np.array([c is StraightFlushClass.MINIMA for c in classes]),
            np.array([c is StraightFlushClass.MASSIMA for c in classes]),
            rules.straight_flush_minima_beats_massima,
        )

    return _cached(rules, ("order", ranking.lowest_rank), build)


def _beaten_table(field: npt.NDArray[np.int32], order: _Order) -> npt.NDArray[np.int64]:
    """For each strength, how many of the hands of ``field`` (their strengths) it beats."""
    size = len(order.category)
    counts = np.bincount(field, minlength=size)
    beaten = np.cumsum(counts) - counts  # the hands below
    if order.cycle:
        # The minima beats every massima, also those above it; a massima
        # loses to every minima, also those below it.
        massima = np.where(order.massima, counts, 0)
        minima = np.where(order.minima, counts, 0)
        massima_above = massima.sum() - np.cumsum(massima)
        minima_below = np.cumsum(minima) - minima
        beaten = beaten + np.where(order.minima, massima_above, 0)
        beaten = beaten - np.where(order.massima, minima_below, 0)
    return beaten


def _deck_hands(rules: RuleSet, players: int | None) -> npt.NDArray[np.int64]:
    deck = np.array(list(rules.deck(players)), dtype=np.int64)
    return deck[combinations(len(deck), 5)]


def _deck_field(rules: RuleSet, players: int | None) -> tuple[npt.NDArray[np.int64], int]:
    """How many of the deck's hands each strength beats, and how many hands there are."""

    def build() -> tuple[npt.NDArray[np.int64], int]:
        ranking = ranking_for(rules, players)
        strengths = evaluate_batch(_deck_hands(rules, players), rules=rules, players=players)
        return _beaten_table(strengths, _order(rules, ranking)), len(strengths)

    return _cached(rules, ("field", rules.lowest_rank(players)), build)


def _openers(
    rules: RuleSet, players: int | None, minimum: Rank
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """Every hand of the deck that can open at ``minimum``: card masks and strengths."""

    def build() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
        test = OpeningTest.of(rules, players=players or 4, minimum=minimum)
        hands = _deck_hands(rules, players)
        opens = np.fromiter((test(hand) for hand in hands.tolist()), dtype=bool, count=len(hands))
        chosen = hands[opens]
        bits = np.left_shift(np.uint64(1), chosen.astype(np.uint64))
        return np.bitwise_or.reduce(bits, axis=1), evaluate_batch(
            chosen, rules=rules, players=players
        )

    return _cached(rules, ("openers", rules.lowest_rank(players), int(minimum)), build)


def _mask(cards: Sequence[int]) -> np.uint64:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return np.uint64(mask)


def draw_odds(
    hand: str | Sequence[int],
    rules: str | RuleSet = "italian-classic",
    *,
    players: int | None = None,
    dead: str | Sequence[int] = "",
    beat: str | Sequence[int] | None = None,
    opener: Rank | int | None = None,
) -> DrawOdds:
    """The odds of every way to draw (see the module's docstring), best first.

    ``players`` (dealt in) sets the italian-classic deck; italian-32 needs none.
    """
    rule_set = find_rules(rules)
    if rule_set.game is not Game.ITALIAN:
        raise ValueError(f"{rule_set.name} has no draw")
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise WrongCardCountError(f"an Italian hand has 5 cards, not {len(cards)}")
    deck = rule_set.deck(players)
    dead_cards = parse_cards(dead)
    target = parse_cards(beat) if beat is not None else []
    if beat is not None and len(target) != 5:
        raise WrongCardCountError(f"the hand to beat has 5 cards, not {len(target)}")
    parse_cards([*cards, *dead_cards, *target])  # no card twice
    deck.check([*cards, *dead_cards, *target])
    ranking = ranking_for(rule_set, players)
    order = _order(rule_set, ranking)
    known = {*cards, *dead_cards, *target}
    unseen = np.array([c for c in deck if c not in known], dtype=np.int64)

    # Each option's final hands as sums of card keys: the kept cards' sum (one
    # number) plus each set of new cards' sum, made once per number of cards
    # changed and shared by the options that change that many.  What is kept
    # of the outcomes is their histogram over the strengths: every figure
    # below is that histogram times a table of the strengths.
    limit = min(rule_set.draw_max, 4)
    options = [d for k in range(limit + 1) for d in itertools.combinations(range(5), k)]
    keys = np.array(ITALIAN_KEY, dtype=np.int64)
    unseen_keys = np.take(keys, unseen)
    new_sums = []
    for k in range(limit + 1):
        table = combinations(len(unseen), k)
        sums = np.zeros(len(table), dtype=np.int64)
        for column in table.T:
            sums += np.take(unseen_keys, column)
        new_sums.append(sums)
    strengths_count = len(order.category)
    histogram = np.empty((len(options), strengths_count), dtype=np.float64)
    for i, discard in enumerate(options):
        kept = sum(ITALIAN_KEY[cards[j]] for j in range(5) if j not in discard)
        strengths = italian_strengths_of_sums(
            new_sums[len(discard)] + kept, rules=rule_set, players=players
        )
        histogram[i] = np.bincount(strengths, minlength=strengths_count)
    sizes = [len(new_sums[len(d)]) for d in options]
    # One product per category (a matrix product with a one-hot table starts
    # BLAS threads, which on a busy machine costs more than the whole draw).
    per_option = np.stack(
        [histogram @ (order.category == c) for c in range(len(rule_set.category_order))], axis=1
    )
    beaten, field_size = _deck_field(rule_set, players)
    share = histogram @ beaten / field_size
    beats_hand = beats_opener = None
    if target:
        target_strength = evaluate_batch([target], rules=rule_set, players=players)
        beats_hand = histogram @ _beaten_table(target_strength, order)
    if opener is not None:
        masks, opener_strengths = _openers(rule_set, players, Rank(opener))
        possible = opener_strengths[(masks & _mask(list(known))) == 0]
        beats_opener = histogram @ _beaten_table(possible, order) / max(len(possible), 1)

    results = []
    names = [c.value for c in rule_set.category_order]
    for i, discard in enumerate(options):
        count = sizes[i]
        results.append(
            DrawOption(
                discard=tuple(cards[j] for j in discard),
                keep=tuple(cards[j] for j in range(5) if j not in discard),
                draws=count,
                categories={
                    name: n / count for name, n in zip(names, per_option[i].tolist(), strict=True)
                },
                share=float(share[i] / count),
                beats_hand=None if beats_hand is None else float(beats_hand[i] / count),
                beats_opener=None if beats_opener is None else float(beats_opener[i] / count),
            )
        )

    def score(option: DrawOption) -> float:
        if option.beats_hand is not None:
            return option.beats_hand
        if option.beats_opener is not None:
            return option.beats_opener
        return option.share

    results.sort(key=lambda o: (-score(o), -o.share, len(o.discard)))
    return DrawOdds(rule_set.name, players, tuple(cards), tuple(results))
