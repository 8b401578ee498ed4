"""A deliberately simple Italian poker evaluator, written from RULES.md §3-5.

It shares no code with ``mazziere.evaluate``: it looks at five cards, works
out the category and a tuple to compare, and compares two hands with the
classic straight-flush cycle spelled out.  Slow on purpose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

# Categories from weakest to strongest: the flush sits above the full house.
CATEGORIES = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "full_house",
    "flush",
    "four_of_a_kind",
    "straight_flush",
]


def _rank(card: str) -> int:
    return "23456789TJQKA".index(card[0]) + 2


def _suit(card: str) -> int:
    # Come Quando Fuori Piove: cuori > quadri > fiori > picche.
    return "scdh".index(card[1])


def describe(cards: Sequence[str], lowest: int, profile: str) -> tuple[str, tuple[int, ...]]:
    """(category, comparison tuple) of five cards written like 'Ah'."""
    assert len(cards) == 5
    ranks = sorted((_rank(c) for c in cards), reverse=True)
    suit_of = {_rank(c): _suit(c) for c in cards}
    flush = len({_suit(c) for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = 0
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, lowest + 3, lowest + 2, lowest + 1, lowest]:
            top = lowest + 3  # minima: the ace plays below the lowest rank
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if top and flush:
        return "straight_flush", (top, suit_of[top])
    if shape[0] == 4:
        return "four_of_a_kind", (grouped[0],)
    if flush:
        suit = _suit(cards[0])
        if profile == "classic":
            return "flush", (suit, *ranks)
        return "flush", (*ranks, suit)
    if shape == [3, 2]:
        return "full_house", (grouped[0],)
    if top:
        return "straight", (top, suit_of[top])
    if shape[0] == 3:
        return "three_of_a_kind", (grouped[0],)
    if shape == [2, 2, 1]:
        return "two_pair", (grouped[0], grouped[1], grouped[2], suit_of[grouped[2]])
    if shape[0] == 2:
        kickers = grouped[1:]
        return "pair", (grouped[0], *kickers, suit_of[kickers[0]])
    return "high_card", (*ranks, suit_of[ranks[0]])


def compare(a: Sequence[str], b: Sequence[str], lowest: int, profile: str) -> int:
    """1 if a wins, -1 if b wins, 0 if equal (the same cards)."""
    cat_a, key_a = describe(a, lowest, profile)
    cat_b, key_b = describe(b, lowest, profile)
    if cat_a != cat_b:
        return 1 if CATEGORIES.index(cat_a) > CATEGORIES.index(cat_b) else -1
    if cat_a == "straight_flush" and profile == "classic":
        minima, massima = lowest + 3, 14
        if {key_a[0], key_b[0]} == {minima, massima}:
            return 1 if key_a[0] == minima else -1  # NB.2: minima beats massima
    return (key_a > key_b) - (key_a < key_b)
