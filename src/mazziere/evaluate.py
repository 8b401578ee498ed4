"""Hand values for every rule set: one table-driven evaluator, tables built once.

Three calls, from the richest to the fastest:

* :func:`evaluate` returns a :class:`HandValue` (category, Italian name, the
  five cards that make it); :func:`winners` says who wins one pot.
* :meth:`Ranking.strength` (and, for Hold'em, :func:`holdem_strength7`)
  return a bare int strength; higher is better.  They trust their input.
* :func:`evaluate_batch` takes a numpy array of many hands at once.

>>> evaluate("Kh Qh Jh 9h 7h", rules="italian-32").name_it
'colore'
>>> winners(["Kh Qh Th 9h 8h", "As Ks Js 9s 8s"], rules="italian-classic", players=4)
[0]
>>> winners(["Kh Qh Th 9h 8h", "As Ks Js 9s 8s"], rules="italian-32")
[1]
>>> winners(["Ah Kd", "Ac Ks"], rules="holdem", board="2c 3d 7h 9s Jd")
[0, 1]

How it works.  Every card has a key; the sum of the keys of a hand tells the
multiset of its ranks (the rank keys are chosen so that no two multisets of up
to seven ranks have the same sum), how many cards of each suit it holds, and,
in the Italian key, the suit of any rank held once.  A dict from the rank part
of the sum gives the strength of the hand without its flush; a flush is found
from the suit part and looked up in a second table.  In Italian poker the
suit that breaks a tie is always the suit of a card whose rank the hand holds
once (the top card, the highest kicker, the fifth card), so the non-flush
table stores where in the sum that suit sits.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from mazziere.cards import (
    Card,
    Rank,
    WrongCardCountError,
    format_cards,
    parse_cards,
)
from mazziere.rules import Category, FlushOrder, Game, RuleSet, find_rules

if TYPE_CHECKING:
    # numpy is imported where the batch evaluator runs: importing it takes about
    # a tenth of a second, which `import mazziere` should not wait for.
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HandValue",
    "Ranking",
    "StraightFlushClass",
    "best_hands",
    "evaluate",
    "evaluate_batch",
    "holdem_strength5",
    "holdem_strength7",
    "holdem_strengths",
    "holdem_strengths_batch",
    "italian_strengths_of_sums",
    "ranking_for",
    "winners",
]

# Rank keys, lowest rank first: the sums of any two different multisets of n
# ranks (each rank at most four times) differ.  Each key is the smallest that
# keeps this true given the keys below it (a greedy search; the tests check it).
RANK_KEYS_7 = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""For up to seven cards of 13 ranks (Hold'em)."""
RANK_KEYS_5 = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998)
"""For five cards of ranks 4 to ace (Italian decks)."""
SUIT_KEYS = (1, 8, 64, 512)
"""A three-bit counter per suit: up to seven cards never carry into the next one."""

_SUIT_BITS = 12
_ITALIAN_LOWEST_SUPPORTED = Rank.FOUR
_IT_SUIT_SHIFT = 33  # 11 ranks (4..A) x 3 bits of per-rank suit fields below it
_IT_RANK_SHIFT = 45
_NO_SUIT_SHIFT = 63  # an Italian sum is below 2**62: shifting by 63 reads 0

HOLDEM_KEY: tuple[int, ...] = tuple(
    (RANK_KEYS_7[c >> 2] << _SUIT_BITS) | SUIT_KEYS[c & 3] for c in range(52)
)
"""Key of each card (by its int value) for the Hold'em sum."""


def _italian_key(card: int) -> int:
    rank, suit = (card >> 2) + 2, card & 3
    if rank < _ITALIAN_LOWEST_SUPPORTED:
        return -1
    field = 3 * (rank - _ITALIAN_LOWEST_SUPPORTED)
    return (
        (RANK_KEYS_5[rank - _ITALIAN_LOWEST_SUPPORTED] << _IT_RANK_SHIFT)
        | (SUIT_KEYS[suit] << _IT_SUIT_SHIFT)
        | (suit << field)
    )


ITALIAN_KEY: tuple[int, ...] = tuple(_italian_key(c) for c in range(52))
"""Key of each card for the Italian sum (ranks below 4 have none)."""
ITALIAN_RANK_SHIFT = _IT_RANK_SHIFT
"""An Italian sum shifted right by this is its rank part: equal for equal multisets of ranks."""
ITALIAN_SUIT_SHIFT = _IT_SUIT_SHIFT
"""An Italian sum shifted right by this, ``& 4095``: how many cards of each suit (3 bits each)."""

# Suit part of a Hold'em sum -> suit with five or more cards, or -1.
_FLUSH_SUIT7: list[int] = [-1] * (1 << _SUIT_BITS)
for _part in range(1 << _SUIT_BITS):
    for _suit in range(4):
        if (_part >> (3 * _suit)) & 7 >= 5:
            _FLUSH_SUIT7[_part] = _suit
# Suit part of a five-card Italian sum -> the suit of a flush.
_FLUSH_SUIT5: dict[int, int] = {5 * SUIT_KEYS[s]: s for s in range(4)}


class StraightFlushClass(StrEnum):
    """Italian classes of straight flush: ace low, middle, ace high."""

    MINIMA = "minima"
    MEDIA = "media"
    MASSIMA = "massima"


@dataclass(frozen=True)
class _Spec:
    lowest_rank: int
    category_order: tuple[Category, ...]
    suits_break_ties: bool
    flush_order: FlushOrder
    minima_beats_massima: bool
    best_of: bool


_PatternKey = tuple[int, tuple[int, ...], int]


class Ranking:
    """The order of all hands of one deck under one rule set, as lookup tables.

    Get one with :func:`ranking_for`; it is built once and cached.

    >>> ranking = ranking_for("italian-32")
    >>> ranking.strength(parse_cards("Ah Kh Qh Jh Th")) > ranking.strength(
    ...     parse_cards("Ad Kd Qd Jd Td"))
    True
    """

    def __init__(self, spec: _Spec) -> None:
        self.spec = spec
        self.lowest_rank = Rank(spec.lowest_rank)
        order = spec.category_order
        self._category_score = {cat: len(order) - i for i, cat in enumerate(order)}
        if spec.suits_break_ties and spec.lowest_rank < _ITALIAN_LOWEST_SUPPORTED:
            raise ValueError("rankings where suits break ties need a deck from 4 up")
        if spec.best_of and spec.suits_break_ties:
            raise ValueError("best-five-of-seven rankings cannot break ties by suit")
        if spec.best_of and not self._above(Category.FLUSH, Category.STRAIGHT):
            # holdem_strength7 relies on a flush beating everything that can
            # share seven cards with it (straight, trips, two pair, ...).
            raise ValueError("best-of rankings need the flush above the straight")
        self._ranks = list(range(spec.lowest_rank, 15))
        low = spec.lowest_rank
        # (top rank, rank mask) of every straight, best first; the ace also
        # plays below the deck's lowest rank (the minima, whose top is low + 3).
        self._straights = [
            (top, sum(1 << r for r in range(top - 4, top + 1))) for top in range(14, low + 3, -1)
        ]
        self._straights.append(
            (low + 3, (1 << Rank.ACE) | sum(1 << r for r in range(low, low + 4)))
        )
        keys = self._pattern_keys()
        ordered = sorted(keys)
        self._strength_of_key = {key: i + 1 for i, key in enumerate(ordered)}
        self.size = len(ordered)
        """How many different values a five-card hand can take."""
        by_score = {score: cat for cat, score in self._category_score.items()}
        self._category_by_strength: list[Category] = [Category.HIGH_CARD] + [
            by_score[key[0]] for key in ordered
        ]
        self._sf_class_by_strength: dict[int, StraightFlushClass] = {}
        self._build_tables()

    # ----------------------------------------------------------------- patterns

    def _above(self, upper: Category, lower: Category) -> bool:
        return self._category_score[upper] > self._category_score[lower]

    def _straight_top(self, distinct: Iterable[int]) -> int:
        """Top rank of the best straight among these ranks, 0 if none."""
        mask = 0
        for r in distinct:
            mask |= 1 << r
        for top, straight in self._straights:
            if mask & straight == straight:
                return top
        return 0

    def _sf_class(self, top: int) -> StraightFlushClass:
        if top == Rank.ACE:
            return StraightFlushClass.MASSIMA
        if top == self.spec.lowest_rank + 3:
            return StraightFlushClass.MINIMA
        return StraightFlushClass.MEDIA

    def _best_nonflush(self, counts: Counter[int]) -> tuple[Category, tuple[int, ...]]:
        """Best hand without a flush from a multiset of 5 to 7 ranks."""
        desc = sorted(counts, reverse=True)
        candidates: list[tuple[Category, tuple[int, ...]]] = []
        quads = [r for r in desc if counts[r] >= 4]
        trips = [r for r in desc if counts[r] >= 3]
        pairs = [r for r in desc if counts[r] >= 2]
        if quads:
            q = quads[0]
            candidates.append((Category.FOUR_OF_A_KIND, (q, next(r for r in desc if r != q))))
        if trips:
            t = trips[0]
            fill = [r for r in pairs if r != t]
            if fill:
                candidates.append((Category.FULL_HOUSE, (t, fill[0])))
            kickers = [r for r in desc if r != t][:2]
            if len(kickers) == 2:
                candidates.append((Category.THREE_OF_A_KIND, (t, *kickers)))
        top = self._straight_top(desc)
        if top:
            candidates.append((Category.STRAIGHT, (top,)))
        if len(pairs) >= 2:
            p, q = pairs[:2]
            kickers = [r for r in desc if r not in (p, q)][:1]
            if kickers:
                candidates.append((Category.TWO_PAIR, (p, q, kickers[0])))
        if pairs:
            p = pairs[0]
            kickers = [r for r in desc if r != p][:3]
            if len(kickers) == 3:
                candidates.append((Category.PAIR, (p, *kickers)))
        if len(desc) >= 5:
            candidates.append((Category.HIGH_CARD, tuple(desc[:5])))
        return max(candidates, key=lambda c: self._category_score[c[0]])

    def _decisive_rank(self, category: Category, tiebreak: tuple[int, ...]) -> int | None:
        """Rank of the card whose suit breaks a tie between equal ranks."""
        if not self.spec.suits_break_ties:
            return None
        if category in (Category.HIGH_CARD, Category.STRAIGHT):
            return tiebreak[0]
        if category == Category.PAIR:
            return tiebreak[1]
        if category == Category.TWO_PAIR:
            return tiebreak[2]
        return None  # three of a kind and above: one deck never holds two equal groups

    def _flush_key(self, ranks: tuple[int, ...], suit: int) -> _PatternKey:
        """Key of five cards of one suit with these (distinct, descending) ranks."""
        top = self._straight_top(ranks)
        suit_tie = suit if self.spec.suits_break_ties else 0
        if top:
            return (self._category_score[Category.STRAIGHT_FLUSH], (top,), suit_tie)
        score = self._category_score[Category.FLUSH]
        if self.spec.flush_order == FlushOrder.SUIT_THEN_RANKS:
            return (score, (suit, *ranks), 0)
        return (score, ranks, suit_tie)

    def _nonflush_key(self, counts: Counter[int], suit: int) -> _PatternKey:
        category, tiebreak = self._best_nonflush(counts)
        decisive = self._decisive_rank(category, tiebreak)
        return (self._category_score[category], tiebreak, suit if decisive is not None else 0)

    def _multisets(self, size: int) -> Iterable[tuple[int, ...]]:
        """Sorted rank tuples of ``size`` cards of one deck (no rank five times)."""
        for combo in itertools.combinations_with_replacement(self._ranks, size):
            if not any(combo[i] == combo[i + 4] for i in range(size - 4)):
                yield combo

    def _pattern_keys(self) -> set[_PatternKey]:
        suits = range(4) if self.spec.suits_break_ties else range(1)
        keys: set[_PatternKey] = set()
        for combo in self._multisets(5):
            counts = Counter(combo)
            for suit in suits:
                keys.add(self._nonflush_key(counts, suit))
        for ranks in itertools.combinations(reversed(self._ranks), 5):
            for suit in suits:
                keys.add(self._flush_key(ranks, suit))
        return keys

    # ------------------------------------------------------------------- tables

    def _build_tables(self) -> None:
        strength_of = self._strength_of_key
        sf_score = self._category_score[Category.STRAIGHT_FLUSH]
        for key, strength in strength_of.items():
            if key[0] == sf_score:
                self._sf_class_by_strength[strength] = self._sf_class(key[1][0])
        if self.spec.suits_break_ties:
            self._build_italian_tables()
        else:
            self._build_best_of_tables()

    def _build_italian_tables(self) -> None:
        strength_of = self._strength_of_key
        low = _ITALIAN_LOWEST_SUPPORTED
        self.nonflush5: dict[int, int] = {}
        """Rank part of an Italian sum -> base strength << 7 | shift of the deciding suit."""
        self.flush5: dict[int, int] = {}
        """(rank part of an Italian sum) * 4 + suit -> strength of the flush."""
        for combo in self._multisets(5):
            rank_sum = sum(RANK_KEYS_5[r - low] for r in combo)
            counts = Counter(combo)
            category, tiebreak = self._best_nonflush(counts)
            decisive = self._decisive_rank(category, tiebreak)
            base = strength_of[self._nonflush_key(counts, 0)]
            shift = _NO_SUIT_SHIFT if decisive is None else 3 * (decisive - low)
            self.nonflush5[rank_sum] = (base << 7) | shift
        for ranks in itertools.combinations(reversed(self._ranks), 5):
            rank_sum = sum(RANK_KEYS_5[r - low] for r in ranks)
            for suit in range(4):
                self.flush5[rank_sum * 4 + suit] = strength_of[self._flush_key(ranks, suit)]

    def _build_best_of_tables(self) -> None:
        strength_of = self._strength_of_key
        low = self.spec.lowest_rank
        key = RANK_KEYS_7
        self.nonflush: dict[int, dict[int, int]] = {}
        """Cards in hand -> (rank part of a Hold'em sum -> strength without flush)."""
        five: dict[int, int] = {}
        for combo in self._multisets(5):
            five[sum(key[r - 2] for r in combo)] = strength_of[
                self._nonflush_key(Counter(combo), 0)
            ]
        self.nonflush[5] = five
        self.nonflush[6], self.nonflush[7] = _six_and_seven(five, [key[r - 2] for r in self._ranks])
        self.flush: list[int] = [0] * (1 << 15)
        """Bit mask of the ranks held in the flush suit (bit r for rank r) -> strength."""
        for ranks in itertools.combinations(range(14, low - 1, -1), 5):
            self.flush[sum(1 << r for r in ranks)] = strength_of[self._flush_key(ranks, 0)]
        for size in (6, 7):
            for more in itertools.combinations(range(14, low - 1, -1), size):
                mask = sum(1 << r for r in more)
                self.flush[mask] = max([self.flush[mask ^ (1 << r)] for r in more])

    # ------------------------------------------------------------------ lookups

    def strength(self, cards: Sequence[int]) -> int:
        """Strength of a hand (higher is better); trusts that the cards are valid.

        Italian rankings take exactly five cards; the others five to seven.

        >>> r = ranking_for("holdem")
        >>> r.strength(parse_cards("As Ks Qs Js Ts")) == r.size
        True
        """
        if self.spec.suits_break_ties:
            key = ITALIAN_KEY
            a, b, c, d, e = cards
            total = key[a] + key[b] + key[c] + key[d] + key[e]
            suit = _FLUSH_SUIT5.get((total >> _IT_SUIT_SHIFT) & 4095)
            if suit is None:
                entry = self.nonflush5[total >> _IT_RANK_SHIFT]
                return (entry >> 7) + ((total >> (entry & 127)) & 7)
            return self.flush5[((total >> _IT_RANK_SHIFT) << 2) | suit]
        total = 0
        for card in cards:
            total += HOLDEM_KEY[card]
        flush_suit = _FLUSH_SUIT7[total & 4095]
        if flush_suit < 0:
            return self.nonflush[len(cards)][total >> _SUIT_BITS]
        mask = 0
        for card in cards:
            if card & 3 == flush_suit:
                mask |= 4 << (card >> 2)
        return self.flush[mask]

    def category(self, strength: int) -> Category:
        """Category of a strength of this ranking.

        >>> r = ranking_for("holdem")
        >>> r.category(1), r.category(r.size)
        (<Category.HIGH_CARD: 'high_card'>, <Category.STRAIGHT_FLUSH: 'straight_flush'>)
        """
        return self._category_by_strength[strength]

    def straight_flush_class(self, strength: int) -> StraightFlushClass | None:
        """Minima, media or massima for a straight flush; ``None`` otherwise."""
        return self._sf_class_by_strength.get(strength)

    def __repr__(self) -> str:
        return f"<Ranking {self.lowest_rank.name_it}-A, {self.size} values>"


def _six_and_seven(
    five: dict[int, int], rank_keys: Sequence[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """The six- and seven-card tables without flushes, from the five-card one.

    Six (seven) ranks are worth the best of the five (six) left after taking
    one out, that is the best over every way of making them by adding a card
    to a smaller multiset.  numpy does that for all multisets at once: a loop
    over the 49,205 seven-card ones took half of the Ranking's build, which
    every process that deals Hold'em waits for.  ``rank_keys`` tell every
    multiset of up to seven cards apart by its sum, so a sum names one.
    """
    import numpy as np

    keys = np.array(rank_keys, dtype=np.int64)
    counts = np.zeros((1, len(keys)), dtype=np.int64)  # how many of each rank: the empty hand
    sums = np.zeros(1, dtype=np.int64)
    values = np.zeros(1, dtype=np.int64)
    tables: list[dict[int, int]] = []
    for size in range(1, 8):
        # Every multiset one card larger: each smaller one with one card more
        # of a rank it holds fewer than four of.
        smaller, ranks = np.nonzero(counts < 4)
        sums, first, larger = np.unique(
            sums[smaller] + keys[ranks], return_index=True, return_inverse=True
        )
        counts = counts[smaller[first]]
        counts[np.arange(len(sums)), ranks[first]] += 1
        if size == 5:
            values = np.array([five[s] for s in sums.tolist()], dtype=np.int64)
        elif size > 5:
            best = np.zeros(len(sums), dtype=np.int64)
            np.maximum.at(best, larger, values[smaller])
            values = best
            tables.append(dict(zip(sums.tolist(), values.tolist(), strict=True)))
    six, seven = tables
    return six, seven


def _spec(rules: RuleSet, players: int | None) -> _Spec:
    return _Spec(
        lowest_rank=rules.lowest_rank(players),
        category_order=rules.category_order,
        suits_break_ties=rules.suits_break_ties,
        flush_order=rules.flush_order,
        minima_beats_massima=rules.straight_flush_minima_beats_massima,
        best_of=rules.game == Game.HOLDEM,
    )


@functools.cache
def _ranking(spec: _Spec) -> Ranking:
    return Ranking(spec)


def ranking_for(rules: str | RuleSet, players: int | None = None) -> Ranking:
    """The (cached) ranking of ``rules`` for ``players`` dealt in.

    ``players`` is needed only where the deck depends on it (italian-classic).

    >>> ranking_for("italian-classic", players=2)
    <Ranking 9-A, 648 values>
    """
    return _ranking(_spec(find_rules(rules), players))


# ---------------------------------------------------------------- Hold'em fast path


@functools.cache
def _holdem_tables() -> tuple[dict[int, int], dict[int, int], list[int]]:
    ranking = ranking_for("holdem")
    return ranking.nonflush[7], ranking.nonflush[5], ranking.flush


_Strength = Callable[[Sequence[int]], int]
_Strengths = Callable[[Iterable[Sequence[int]], Sequence[int]], list[int]]

# The key of the fast paths.  CPython adds ints below 2**30 (one internal
# digit) on a fast path and bigger ones digit by digit; HOLDEM_KEY sums reach
# 2**35, which costs a fifth of a seven-card call.  So the fast paths sum their
# own key: the rank key (seven-card sums below 2**23) plus, above it, a suit
# key whose seven-card sums stay below 2**7.  Seven bits cannot tell every
# seven-card flush from every other suit mix; these keys put the sum of a
# flush on few other mixes (about 3.4% of seven-card deals), which take the
# slow path and are found to be no flush there.  Five cards of one suit have
# a sum no other mix of five has.
_RANK_BITS7 = 23
_SUIT_KEYS7 = (0, 1, 13, 18)
_HOLDEM_KEY7: tuple[int, ...] = tuple(
    RANK_KEYS_7[c >> 2] | (_SUIT_KEYS7[c & 3] << _RANK_BITS7) for c in range(52)
)


def _maybe_flush(size: int) -> list[bool]:
    """Suit part of the sum of ``size`` cards of _HOLDEM_KEY7 -> whether a flush can have it."""
    maybe = [False] * (size * max(_SUIT_KEYS7) + 1)
    for counts in itertools.product(range(size + 1), repeat=4):
        if sum(counts) == size and max(counts) >= 5:
            maybe[sum(n * k for n, k in zip(counts, _SUIT_KEYS7, strict=True))] = True
    return maybe


def _flush_only_has_its_sum(size: int) -> bool:
    """Whether no suit mix of ``size`` cards without a flush has the suit sum of a flush."""
    maybe = _maybe_flush(size)
    return not any(
        maybe[sum(n * k for n, k in zip(counts, _SUIT_KEYS7, strict=True))]
        for counts in itertools.product(range(5), repeat=4)
        if sum(counts) == size
    )


# The seven-card table without flushes: 49,205 rank sums spread over 7.8M are
# too sparse for a list and, as dict keys, cost a cache miss or three per
# look-up.  So it is a sparse matrix, row = low 14 bits of the rank sum,
# column = the 9 bits above, packed in 64K slots: row r starts at
# displacement[r] and column c sits at slot displacement[r] ^ c (two rows may
# share a slot when they store the same strength there).  Reading it is a
# mask, a shift and two subscripts on small ints.
_ROW_BITS7 = 14
_COLUMN_BITS7 = _RANK_BITS7 - _ROW_BITS7
_SLOTS7 = 1 << 16


def _row_displacement(table: dict[int, int]) -> tuple[list[int], list[int]]:
    """(slots, displacement per row) holding every rank sum of ``table`` as above."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for rank_sum, strength in table.items():
        entries = rows.setdefault(rank_sum & ((1 << _ROW_BITS7) - 1), [])
        entries.append((rank_sum >> _ROW_BITS7, strength))
    slots = [0] * _SLOTS7  # strengths start at 1: 0 is a free slot
    displacement = [0] * (1 << _ROW_BITS7)
    # Fullest rows first, each at the first of a fixed pseudo-random sequence
    # of displacements where it fits: a few tries per row, where scanning the
    # displacements in order would try every filled one again for each row.
    probe = 0
    for row in sorted(rows, key=lambda r: (-len(rows[r]), r)):
        entries = rows[row]
        while True:
            probe = (probe * 1103515245 + 12345) & 0x7FFFFFFF  # an LCG, seeded: same tables
            start = probe >> 15
            for column, strength in entries:
                held = slots[start ^ column]
                if held and held != strength:
                    break  # taken by another strength: try the next displacement
            else:
                break
        displacement[row] = start
        for column, strength in entries:
            slots[start ^ column] = strength
    # Equal values as one object: the list then points to fewer places in memory.
    shared: dict[int, int] = {}
    return [shared.setdefault(s, s) for s in slots], [shared.setdefault(d, d) for d in displacement]


def _holdem_fast_paths() -> tuple[_Strength, _Strength, _Strengths]:
    # The tables are bound as closure cells: cheaper to reach than globals,
    # which matters in a function whose whole cost is a few dozen bytecodes.
    key7 = _HOLDEM_KEY7
    maybe_flush = _maybe_flush(7)
    is_flush5 = _maybe_flush(5)
    assert _flush_only_has_its_sum(5)  # five cards: the suit sum tells a flush exactly
    suit_key = SUIT_KEYS * 13  # card -> its suit part of a HOLDEM_KEY sum
    flush_suit_of = _FLUSH_SUIT7
    nonflush7_table, nonflush5, flush = _holdem_tables()
    assert max(nonflush7_table) < 1 << _RANK_BITS7
    nonflush7, displacement = _row_displacement(nonflush7_table)

    def holdem_strength7(cards: Sequence[int]) -> int:
        """Strength (1 to 7462, higher is better) of seven Hold'em cards.

        The fastest single-hand call: give it seven card ints (plain ints
        are a little faster than :class:`~mazziere.cards.Card` objects); it
        checks nothing.

        >>> holdem_strength7(parse_cards("Ah Kh Qh Jh Th 2c 3d"))
        7462
        >>> holdem_strength7(parse_cards("2h 2d 4c 3s 7h 9c 8d")) > holdem_strength7(
        ...     parse_cards("Ah Kh Qd Js 9c 3d 2s"))
        True
        """
        a, b, c, d, e, f, g = cards
        total = key7[a] + key7[b] + key7[c] + key7[d] + key7[e] + key7[f] + key7[g]
        if maybe_flush[total >> 23]:
            return flush7(cards, total)
        return nonflush7[displacement[total & 0x3FFF] ^ (total >> 14 & 0x1FF)]

    def flush7(cards: Sequence[int], total: int) -> int:
        a, b, c, d, e, f, g = cards
        suit = flush_suit_of[
            suit_key[a]
            + suit_key[b]
            + suit_key[c]
            + suit_key[d]
            + suit_key[e]
            + suit_key[f]
            + suit_key[g]
        ]
        if suit < 0:  # a suit mix that shares its sum with a flush
            return nonflush7[displacement[total & 0x3FFF] ^ (total >> 14 & 0x1FF)]
        mask = 0
        for card in cards:
            if card & 3 == suit:
                mask |= 4 << (card >> 2)
        return flush[mask]

    def holdem_strength5(cards: Sequence[int]) -> int:
        """Strength (1 to 7462) of five Hold'em cards; checks nothing.

        >>> holdem_strength5(parse_cards("5s 4h 3d 2c Ah"))
        5854
        """
        a, b, c, d, e = cards
        total = key7[a] + key7[b] + key7[c] + key7[d] + key7[e]
        if not is_flush5[total >> 23]:
            return nonflush5[total & 0x7FFFFF]
        mask = 0
        for card in cards:
            mask |= 4 << (card >> 2)
        return flush[mask]

    def holdem_strengths(holes: Iterable[Sequence[int]], board: Sequence[int]) -> list[int]:
        """The strength of each two-card hand with the same five-card board, in order.

        The showdown's call: the board's part of each sum is added once.

        >>> board = parse_cards("Ah Kh Qh 7d 2c")
        >>> holdem_strengths([parse_cards("Jh Th"), parse_cards("7c 7s")], board) == [
        ...     holdem_strength7(parse_cards("Jh Th Ah Kh Qh 7d 2c")),
        ...     holdem_strength7(parse_cards("7c 7s Ah Kh Qh 7d 2c"))]
        True
        """
        v, w, x, y, z = board
        board_total = key7[v] + key7[w] + key7[x] + key7[y] + key7[z]
        strengths = []
        for a, b in holes:
            total = board_total + key7[a] + key7[b]
            if maybe_flush[total >> 23]:
                strengths.append(flush7((a, b, v, w, x, y, z), total))
            else:
                strengths.append(nonflush7[displacement[total & 0x3FFF] ^ (total >> 14 & 0x1FF)])
        return strengths

    # The constants above are written out for speed.
    assert (_RANK_BITS7, _ROW_BITS7, _COLUMN_BITS7) == (23, 14, 9)
    return holdem_strength7, holdem_strength5, holdem_strengths


_FAST_PATHS = ("holdem_strength7", "holdem_strength5", "holdem_strengths")
"""The names of the Hold'em fast paths, in the order _holdem_fast_paths returns them."""

if TYPE_CHECKING:
    holdem_strength7: _Strength
    holdem_strength5: _Strength
    holdem_strengths: _Strengths


@functools.cache
def _built_fast_paths() -> tuple[_Strength, _Strength, _Strengths]:
    return _holdem_fast_paths()


def __getattr__(name: str) -> object:
    """The Hold'em fast paths, built on their first use (PEP 562).

    Their tables take about a third of a second to build, which a command
    that evaluates nothing (``mazziere --help``) should not wait for.  So
    ``from mazziere.evaluate import holdem_strength7`` builds them (once;
    bind the function once, as that import does, and call it directly).

    >>> from mazziere.evaluate import holdem_strength5
    >>> holdem_strength5([0, 4, 8, 12, 48])  # 2c 3c 4c 5c Ac: the ace-low straight flush
    7453
    """
    if name in _FAST_PATHS:
        return _built_fast_paths()[_FAST_PATHS.index(name)]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ----------------------------------------------------------------------- values


class HandValue:
    """The value of one hand under one rule set: comparable, hashable, immutable.

    Comparison follows the rule set, including italian-classic's straight
    flushes, where the minima beats the massima although the massima beats
    the media and the media the minima: that order is a cycle, so never sort
    hand values; ask :func:`winners` or :func:`best_hands` who wins a pot.

    >>> v = evaluate("Ac 7s 8d 9c Th", rules="italian-32")
    >>> v.category.value, v.name_it, str(v)
    ('straight', 'scala', 'Th 9c 8d 7s Ac (straight)')
    """

    __slots__ = ("_ranking", "cards", "category", "rules", "strength")

    def __init__(
        self,
        *,
        strength: int,
        ranking: Ranking,
        cards: tuple[Card, ...],
        rules: str,
    ) -> None:
        # Set past __setattr__, which refuses every change once built.
        init = object.__setattr__
        init(self, "strength", strength)
        init(self, "_ranking", ranking)
        init(self, "category", ranking.category(strength))
        init(self, "cards", cards)
        init(self, "rules", rules)

    strength: int
    """Integer strength within its ranking: higher is better (except the classic cycle)."""
    category: Category
    cards: tuple[Card, ...]
    """The five cards that make the hand, in the order a player reads them."""
    rules: str
    _ranking: Ranking

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("HandValue is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # Copied and pickled as what it is made of, its ranking by its spec: the copy
        # finds the same (cached) ranking, so it compares with the values made here,
        # and no table travels with it.
        return (_hand_value, (self.strength, self._ranking.spec, self.cards, self.rules))

    @property
    def name_it(self) -> str:
        """Italian category name (``'colore'``)."""
        return self.category.name_it

    @property
    def name_en(self) -> str:
        """English category name (``'flush'``)."""
        return self.category.name_en

    @property
    def straight_flush_class(self) -> StraightFlushClass | None:
        """Minima, media or massima for a straight flush; ``None`` otherwise."""
        return self._ranking.straight_flush_class(self.strength)

    def describe(self, lang: str = "it") -> str:
        """The hand in words, as a dealer announces it.

        >>> evaluate("Kh Qh Th 9h 8h", rules="italian-32").describe()
        'colore di cuori'
        >>> evaluate("Jh Jd Ac 9s 8s", rules="italian-32").describe("en")
        'pair of jacks'
        """
        return _describe(self, lang)

    def _cmp(self, other: object) -> int:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a hand value with {type(other).__name__}")
        if other._ranking is not self._ranking:
            raise ValueError("cannot compare hand values of different rule sets or decks")
        if self.strength == other.strength:
            return 0
        if self._ranking.spec.minima_beats_massima:
            mine, theirs = self.straight_flush_class, other.straight_flush_class
            if {mine, theirs} == {StraightFlushClass.MINIMA, StraightFlushClass.MASSIMA}:
                return 1 if mine == StraightFlushClass.MINIMA else -1
        return 1 if self.strength > other.strength else -1

    def __lt__(self, other: HandValue) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: HandValue) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: HandValue) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: HandValue) -> bool:
        return self._cmp(other) >= 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return other._ranking is self._ranking and other.strength == self.strength

    def __hash__(self) -> int:
        return hash((id(self._ranking), self.strength))

    def __str__(self) -> str:
        return f"{format_cards(self.cards)} ({self.category.name_en})"

    def __repr__(self) -> str:
        return (
            f"<HandValue {self.rules} {self.category.value} {format_cards(self.cards)!r} "
            f"strength={self.strength}>"
        )


def _hand_value(strength: int, spec: _Spec, cards: tuple[Card, ...], rules: str) -> HandValue:
    return HandValue(strength=strength, ranking=_ranking(spec), cards=cards, rules=rules)


def _display_order(cards: Sequence[Card], category: Category, lowest: int) -> tuple[Card, ...]:
    ranks = [card >> 2 for card in cards]  # a card is (rank - 2) * 4 + suit
    ordered = sorted(cards, key=lambda c: (ranks.count(c >> 2), c), reverse=True)
    straight = category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
    if straight and ordered[0].rank == Rank.ACE and ordered[1].rank == lowest + 3:
        ordered = [*ordered[1:], ordered[0]]  # the minima: the ace plays low, last
    return tuple(ordered)


def _cards_of(cards: str | Iterable[Card | int | str]) -> list[Card]:
    return parse_cards(cards)


def evaluate(
    cards: str | Iterable[Card | int | str],
    *,
    rules: str | RuleSet = "holdem",
    players: int | None = None,
    board: str | Iterable[Card | int | str] | None = None,
) -> HandValue:
    """Value of a hand: Hold'em takes the best five of 5 to 7 cards (hole cards
    plus ``board``), Italian poker exactly five.

    ``players`` (players dealt in) sets the italian-classic deck.

    >>> v = evaluate("Ah Ad", board="Ac Kh Ks 2d 3c")
    >>> v.category.value, [str(c) for c in v.cards]
    ('full_house', ['Ah', 'Ad', 'Ac', 'Kh', 'Ks'])
    >>> evaluate("Ac 7s 8d 9c Th", rules="italian-classic", players=5).category.value
    'high_card'
    >>> evaluate("Ah Kh Qh Jh", rules="italian-32")
    Traceback (most recent call last):
    ...
    mazziere.cards.WrongCardCountError: italian-32 hands have exactly 5 cards, got 4: 'Ah Kh Qh Jh'
    """
    rule_set = find_rules(rules)
    hand = _cards_of(cards)
    if board is not None:
        hand = _cards_of([*hand, *_cards_of(board)])
    return _evaluate_cards(hand, rule_set, players)


def _evaluate_cards(hand: list[Card], rule_set: RuleSet, players: int | None) -> HandValue:
    ranking = ranking_for(rule_set, players)
    rule_set.deck(players).check(hand)
    if rule_set.game == Game.HOLDEM:
        if not 5 <= len(hand) <= 7:
            raise WrongCardCountError(
                f"{rule_set.name} hands have 5 to 7 cards with the board, got {len(hand)}: "
                f"{format_cards(hand)!r}"
            )
        strength = ranking.strength(hand)
        if len(hand) == 5:
            five: Sequence[Card] = hand
        else:
            five = next(
                combo
                for combo in itertools.combinations(hand, 5)
                if ranking.strength(combo) == strength
            )
    else:
        if len(hand) != 5:
            raise WrongCardCountError(
                f"{rule_set.name} hands have exactly 5 cards, got {len(hand)}: "
                f"{format_cards(hand)!r}"
            )
        strength = ranking.strength(hand)
        five = hand
    category = ranking.category(strength)
    return HandValue(
        strength=strength,
        ranking=ranking,
        cards=_display_order(five, category, ranking.lowest_rank),
        rules=rule_set.name,
    )


def best_hands(values: Sequence[HandValue]) -> list[int]:
    """Indices of the values that win one pot among them, in input order.

    Resolves italian-classic's straight-flush cycle among the contenders of
    this pot only: minima beats massima, massima beats media, media beats
    minima; when all three classes meet, top rank then suit decide.

    >>> hands = ["Ad Kd Qd Jd Td", "As 7s 8s 9s Ts", "Kh Qh Jh Th 9h"]
    >>> values = [evaluate(h, rules="italian-classic", players=4) for h in hands]
    >>> best_hands(values[:2]), best_hands(values[1:]), best_hands([values[0], values[2]])
    ([1], [1], [0])
    >>> best_hands(values)
    [0]
    """
    if not values:
        return []
    contenders = list(range(len(values)))
    ranking = values[0]._ranking
    if ranking.spec.minima_beats_massima:
        classes = {values[i].straight_flush_class for i in contenders} - {None}
        if classes == {StraightFlushClass.MINIMA, StraightFlushClass.MASSIMA}:
            contenders = [
                i for i in contenders if values[i].straight_flush_class == StraightFlushClass.MINIMA
            ]
    top = max(values[i].strength for i in contenders)
    return [i for i in contenders if values[i].strength == top]


def winners(
    hands: Sequence[str | Iterable[Card | int | str]],
    *,
    rules: str | RuleSet = "holdem",
    players: int | None = None,
    board: str | Iterable[Card | int | str] | None = None,
) -> list[int]:
    """Indices (in input order) of the hands that win one pot.

    ``players`` defaults to the number of hands for italian-classic.  Cards may
    not repeat across the hands and the board.

    >>> winners(["A♣ 7♠ 8♦ 9♣ 10♥", "K♥ K♠ K♦ Q♣ J♠"], rules="italian-classic", players=5)
    [1]
    """
    rule_set = find_rules(rules)
    if players is None and rule_set.deck_depends_on_players:
        players = len(hands)
    parsed = [_cards_of(h) for h in hands]
    board_cards = _cards_of(board) if board is not None else []
    parse_cards([c for hand in parsed for c in hand] + board_cards)  # no card twice
    values = [_evaluate_cards(hand + board_cards, rule_set, players) for hand in parsed]
    return best_hands(values)


# ------------------------------------------------------------------------- batch


@functools.cache
def _batch_tables(spec: _Spec) -> dict[str, Any]:
    import numpy as np

    ranking = _ranking(spec)
    if spec.suits_break_ties:
        size = max(ranking.nonflush5) + 1
        nonflush = np.zeros(size, dtype=np.int64)
        nonflush[list(ranking.nonflush5)] = list(ranking.nonflush5.values())
        flush = np.zeros(max(ranking.flush5) + 1, dtype=np.int32)
        flush[list(ranking.flush5)] = list(ranking.flush5.values())
        flush_suit = np.full(4096, -1, dtype=np.int64)
        for part, suit in _FLUSH_SUIT5.items():
            flush_suit[part] = suit
        return {
            "key": np.array([max(k, 0) for k in ITALIAN_KEY], dtype=np.int64),
            "nonflush": nonflush,
            "flush": flush,
            "flush_suit": flush_suit,
        }
    tables = {}
    for n, table in ranking.nonflush.items():
        dense = np.zeros(max(table) + 1, dtype=np.int16)
        dense[list(table)] = list(table.values())
        tables[f"nonflush{n}"] = dense
    # suit_bits[s * 52 + card]: the card's bit in the rank mask of a flush of
    # suit s (4 << rank, as the flush table is indexed), 0 for another suit.
    suit_bits = np.zeros((4, 52), dtype=np.int64)
    for card in range(52):
        suit_bits[card & 3, card] = 4 << (card >> 2)
    return {
        **tables,
        "key": np.array(HOLDEM_KEY, dtype=np.int64),
        "flush": np.array(ranking.flush, dtype=np.int16),
        "flush_suit": np.array(_FLUSH_SUIT7, dtype=np.int8),
        "suit_bits": suit_bits,
    }


def evaluate_batch(
    cards: npt.ArrayLike,
    *,
    rules: str | RuleSet = "holdem",
    players: int | None = None,
) -> npt.NDArray[np.int32]:
    """Strengths of many hands at once: ``cards`` is an ``(N, k)`` array of card ints.

    k is 5 for Italian poker and 5 to 7 for Hold'em.  The strengths are those
    of :meth:`Ranking.strength`; the input is trusted (no duplicate checks).

    >>> import numpy as np
    >>> hands = np.array([parse_cards("Ah Kh Qh Jh Th 2c 3d"), parse_cards("2c 3d 4h 5s 7c 9d 8h")])
    >>> evaluate_batch(hands).tolist()  # a royal flush; nine-high, the weakest seven cards
    [7462, 49]
    """
    import numpy as np

    rule_set = find_rules(rules)
    spec = _spec(rule_set, players)
    tables = _batch_tables(spec)
    hands = np.asarray(cards)
    if hands.ndim != 2 or not np.issubdtype(hands.dtype, np.integer):
        raise WrongCardCountError(f"expected an (N, k) array of card ints, got shape {hands.shape}")
    k = hands.shape[1]
    if spec.suits_break_ties and k != 5:
        raise WrongCardCountError(f"{rule_set.name} hands have exactly 5 cards, got {k}")
    if not spec.suits_break_ties and not 5 <= k <= 7:
        raise WrongCardCountError(f"{rule_set.name} hands have 5 to 7 cards, got {k}")
    result = np.empty(hands.shape[0], dtype=np.int32)
    evaluate_chunk = _italian_chunk if spec.suits_break_ties else _holdem_chunk
    # Chunks small enough for the temporaries to stay in the CPU cache.
    for start in range(0, hands.shape[0], _BATCH_CHUNK):
        chunk = hands[start : start + _BATCH_CHUNK]
        result[start : start + len(chunk)] = evaluate_chunk(chunk, tables)
    return result


_BATCH_CHUNK = 1 << 15


def _key_sum(
    hands: npt.NDArray[np.integer[Any]], keys: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    import numpy as np

    # numpy turns any other index type into its own (intp) before gathering,
    # once per column; converting the whole chunk once, columns first, is
    # about twice as fast (uint8 cards, say).
    columns = hands.T.astype(np.intp)
    total: npt.NDArray[np.int64] = keys[columns[0]]
    for column in columns[1:]:
        total += keys[column]
    return total


def _italian_chunk(
    hands: npt.NDArray[np.integer[Any]], tables: dict[str, Any]
) -> npt.NDArray[np.int64]:
    return _italian_of_sums(_key_sum(hands, tables["key"]), tables)


def italian_strengths_of_sums(
    sums: npt.ArrayLike, *, rules: str | RuleSet = "italian-classic", players: int | None = None
) -> npt.NDArray[np.int64]:
    """Strengths of Italian five-card hands given as the sums of their cards' keys.

    The key of each card is :data:`ITALIAN_KEY`; a caller that builds many
    hands sharing cards (a draw: the cards kept, and each set of new cards)
    adds the sums of the parts instead of writing out every hand.  The
    result is :func:`evaluate_batch`'s for the same cards; the input is
    trusted (five cards of the deck, none twice).

    >>> import numpy as np
    >>> cards = parse_cards("Ah Ad 9c 9s 7h")
    >>> sums = np.array([sum(ITALIAN_KEY[c] for c in cards)])
    >>> italian_strengths_of_sums(sums, rules="italian-32").tolist() == evaluate_batch(
    ...     [cards], rules="italian-32").tolist()
    True
    """
    import numpy as np

    rule_set = find_rules(rules)
    spec = _spec(rule_set, players)
    if not spec.suits_break_ties:
        raise ValueError(f"{rule_set.name} hands are not Italian")
    return _italian_of_sums(np.asarray(sums, dtype=np.int64), _batch_tables(spec))


def _italian_of_sums(total: npt.NDArray[np.int64], tables: dict[str, Any]) -> npt.NDArray[np.int64]:
    import numpy as np

    suit = np.take(tables["flush_suit"], (total >> _IT_SUIT_SHIFT) & 4095)
    rank_part = total >> _IT_RANK_SHIFT
    entry = np.take(tables["nonflush"], rank_part)
    result: npt.NDArray[np.int64] = (entry >> 7) + ((total >> (entry & 127)) & 7)
    flush_rows = np.flatnonzero(suit >= 0)
    if flush_rows.size:
        result[flush_rows] = np.take(tables["flush"], rank_part[flush_rows] * 4 + suit[flush_rows])
    return result


def _holdem_chunk(
    hands: npt.NDArray[np.integer[Any]], tables: dict[str, Any]
) -> npt.NDArray[np.int64]:
    import numpy as np

    total = _key_sum(hands, tables["key"])
    suit = np.take(tables["flush_suit"], total & 4095)
    result: npt.NDArray[np.int64] = np.take(
        tables[f"nonflush{hands.shape[1]}"], total >> _SUIT_BITS
    )
    flush_rows = np.flatnonzero(suit >= 0)
    if flush_rows.size:
        columns = hands[flush_rows].T
        result[flush_rows] = _holdem_flushes(columns, suit[flush_rows], tables["suit_bits"], tables)
    return result


def _holdem_flushes(
    columns: Iterable[npt.NDArray[np.integer[Any]]],
    suit: npt.NDArray[np.int8],
    suit_bits: npt.NDArray[np.int64],
    tables: dict[str, Any],
    mask: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int16]:
    """Strengths of hands known to hold a flush of ``suit`` (one per row).

    ``columns`` hold the hands' cards a column at a time, as indices of the
    rows of ``suit_bits`` (a ``(4, n)`` table: the rank bit of each card in
    a flush of each suit, the table's "suit_bits" or its columns for a deck);
    ``mask``, when given, holds the rank bits of cards already added.
    """
    import numpy as np

    per_suit = suit_bits.shape[1]
    base = suit.astype(np.intp) * per_suit
    flat = suit_bits.ravel()
    for column in columns:
        bits = np.take(flat, base + column)
        mask = bits if mask is None else mask + bits
    assert mask is not None
    flushes: npt.NDArray[np.int16] = np.take(tables["flush"], mask)
    return flushes


def holdem_strengths_batch(
    holes: npt.ArrayLike, boards: npt.ArrayLike, *, deck: npt.ArrayLike | None = None
) -> npt.NDArray[np.int32]:
    """Hold'em strengths of several players' hole cards on many boards at once.

    ``boards`` is an ``(N, k)`` array of card ints (k from 3 to 5), or, with
    ``deck`` (an array of card ints), of indices into ``deck``: the rows of
    a table of combinations of the cards left, which then need no copying.
    ``holes`` is ``(P, 2)`` (each player's two cards, the same on every
    board) or ``(P, N, 2)`` (a pair for each board).  The result is
    ``(P, N)``: row ``p`` holds the strengths of :func:`evaluate_batch` for
    player ``p``'s cards with each board.  It is :func:`evaluate_batch`'s
    path with each board's key sum worked out once for all the players (the
    showdowns of an equity calculation).  The input is trusted.

    >>> import numpy as np
    >>> holes = np.array([parse_cards("Ah Kh"), parse_cards("7c 7s")])
    >>> boards = np.array([parse_cards("Qh Jh Th 2c 3d"), parse_cards("7d 7h 2c 3d 9s")])
    >>> holdem_strengths_batch(holes, boards).tolist() == [
    ...     evaluate_batch(np.hstack([boards, np.tile(hole, (2, 1))])).tolist() for hole in holes]
    True
    >>> deck = np.array(parse_cards("2c 3d 9s 7d 7h"))
    >>> holdem_strengths_batch(holes, [[3, 4, 0, 1, 2]], deck=deck)[:, 0].tolist() == [
    ...     evaluate_batch(np.hstack([boards[1:], [hole]]))[0] for hole in holes]
    True
    """
    import numpy as np

    tables = _batch_tables(_spec(find_rules("holdem"), None))
    key, suit_bits = tables["key"], tables["suit_bits"]
    board_rows = np.asarray(boards)
    hole_cards = np.asarray(holes)
    if deck is None:
        board_keys, board_bits = key, suit_bits
    else:
        cards_of = np.asarray(deck)
        board_keys, board_bits = (
            np.take(key, cards_of),
            np.ascontiguousarray(suit_bits[:, cards_of]),
        )
    if board_rows.ndim != 2 or not 3 <= board_rows.shape[1] <= 5:
        raise WrongCardCountError(f"expected an (N, 3..5) array of boards, got {board_rows.shape}")
    count = board_rows.shape[0]
    fixed = hole_cards.ndim == 2
    if not (fixed and hole_cards.shape[1] == 2) and hole_cards.shape[1:] != (count, 2):
        raise WrongCardCountError(f"expected (P, 2) or (P, {count}, 2) holes: {hole_cards.shape}")
    result = np.empty((hole_cards.shape[0], count), dtype=np.int32)
    nonflush = tables[f"nonflush{board_rows.shape[1] + 2}"]
    flush_suit = tables["flush_suit"]
    # Columns of the boards: contiguous when the caller lays them out so (a
    # transposed array, as the tables of combinations are).
    board_columns = board_rows.T
    for start in range(0, count, _BATCH_CHUNK):
        stop = min(start + _BATCH_CHUNK, count)
        columns = board_columns[:, start:stop]
        board_total = np.take(board_keys, columns[0])
        for column in columns[1:]:
            board_total += np.take(board_keys, column)
        for player in range(hole_cards.shape[0]):
            if fixed:
                hole = hole_cards[player]
                total = board_total + (key[hole[0]] + key[hole[1]])
            else:
                hole = hole_cards[player, start:stop].T
                total = board_total + np.take(key, hole[0]) + np.take(key, hole[1])
            suit = np.take(flush_suit, total & 4095)
            strengths = result[player, start:stop]
            strengths[:] = np.take(nonflush, total >> _SUIT_BITS)
            flush_rows = np.flatnonzero(suit >= 0)
            if flush_rows.size:
                flush_suits = suit[flush_rows]
                # The hole cards' rank bits first (cards), then the board's (the deck's rows).
                base = flush_suits.astype(np.intp) * 52
                flat = suit_bits.ravel()
                if fixed:
                    mask = np.take(flat, base + hole[0]) + np.take(flat, base + hole[1])
                else:
                    mask = np.take(flat, base + hole[0, flush_rows])
                    mask += np.take(flat, base + hole[1, flush_rows])
                strengths[flush_rows] = _holdem_flushes(
                    (column[flush_rows] for column in columns),
                    flush_suits,
                    board_bits,
                    tables,
                    mask,
                )
    return result


# --------------------------------------------------------------------- describe

_RANK_EN = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}
_SUIT_EN = ("spades", "clubs", "diamonds", "hearts")


def _describe(value: HandValue, lang: str) -> str:
    cards = value.cards
    top, second = cards[0], cards[3] if len(cards) > 3 else cards[-1]
    cat = value.category
    sf_class = value.straight_flush_class
    if lang == "it":
        r1, r2 = top.rank.name_it, second.rank.name_it
        suit = top.suit.name_it
        text = {
            Category.STRAIGHT_FLUSH: f"scala reale {sf_class.value if sf_class else ''} di {suit}",
            Category.FOUR_OF_A_KIND: f"poker di {r1}",
            Category.FLUSH: f"colore di {suit}",
            Category.FULL_HOUSE: f"full di {r1} con {r2}",
            Category.STRAIGHT: f"scala al {cards[0].rank.name_it}",
            Category.THREE_OF_A_KIND: f"tris di {r1}",
            Category.TWO_PAIR: f"doppia coppia di {r1} e {cards[2].rank.name_it}",
            Category.PAIR: f"coppia di {r1}",
            Category.HIGH_CARD: f"carta alta {r1}",
        }[cat]
        return text.replace("  ", " ")
    one, many = _RANK_EN[top.rank]
    suit = _SUIT_EN[top.suit]
    return {
        Category.STRAIGHT_FLUSH: f"straight flush, {one} high, {suit}",
        Category.FOUR_OF_A_KIND: f"four {many}",
        Category.FLUSH: f"flush, {one} high, {suit}",
        Category.FULL_HOUSE: f"full house, {many} full of {_RANK_EN[second.rank][1]}",
        Category.STRAIGHT: f"straight, {one} high",
        Category.THREE_OF_A_KIND: f"three {many}",
        Category.TWO_PAIR: f"two pair, {many} and {_RANK_EN[cards[2].rank][1]}",
        Category.PAIR: f"pair of {many}",
        Category.HIGH_CARD: f"high card {one}",
    }[cat]
