"""Hold'em hand ranges in the usual notation, weighted or not.

A range is a comma-separated list of tokens:

* pairs ``QQ``, ``QQ+`` (queens and better), ``JJ-99``;
* two ranks ``AKs`` (suited), ``AKo`` (offsuit), ``AK`` (both); ``KTo+``
  raises the second rank up to one below the first (KTo, KJo, KQo);
  ``A5s-A2s`` is a run of second ranks;
* exact cards ``AhKh`` (or ``A♥K♥``, ``Ah Kh``);
* ``any`` (or ``random``): all 1,326 holdings.

Weights, as PioSolver writes them (``AA:0.5``) or as PokerStove and eval7
do (``0.5(AA, AKs)``, ``40%(ATs+)``), say how often a holding is in the
range; a holding written twice keeps its last weight.

>>> r = parse_range("QQ+, AKs")
>>> len(r), r.total_weight
(22, 22.0)
>>> len(parse_range("KTo+")), len(parse_range("76s")), len(parse_range("any"))
(36, 4, 1326)
>>> parse_range("AA:0.5, 40%(KK)").weights.tolist()[:1], parse_range("40%(KK)").total_weight
([0.5], 2.4)
>>> parse_range("AhKh").describe()
'AhKh'
>>> parse_range("AJx")
Traceback (most recent call last):
...
mazziere.odds.ranges.RangeError: cannot read 'AJx' in range 'AJx'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mazziere.cards import CardError, format_cards, parse_cards

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["HandRange", "RangeError", "parse_range"]


class RangeError(ValueError):
    """A range that cannot be read, or that no holding is left in."""


_RANK = r"(10|[2-9TJQKA])"
_RANKS = "23456789TJQKA"
_CLASS = re.compile(rf"^{_RANK}{_RANK}([so]?)(\+?)$", re.IGNORECASE)
_SPAN = re.compile(rf"^{_RANK}{_RANK}([so]?)-{_RANK}{_RANK}([so]?)$", re.IGNORECASE)
_GROUP = re.compile(r"(\d+(?:\.\d+)?)(%?)\(([^()]*)\)")
_SUFFIX_WEIGHT = re.compile(r"^(.*?):\s*(\d+(?:\.\d+)?)$")


def _rank(text: str) -> int:
    """Rank index 0 (deuce) .. 12 (ace)."""
    return _RANKS.index("T" if text == "10" else text.upper())


def _card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def _pair(rank: int) -> list[tuple[int, int]]:
    return [
        (_card(rank, a), _card(rank, b)) for a in range(3, -1, -1) for b in range(a - 1, -1, -1)
    ]


def _two_ranks(high: int, low: int, suited: str) -> list[tuple[int, int]]:
    combos = []
    for a in range(3, -1, -1):
        for b in range(3, -1, -1):
            if (a == b and suited != "o") or (a != b and suited != "s"):
                combos.append((_card(high, a), _card(low, b)))
    return combos


def _class_combos(first: int, second: int, suited: str) -> list[tuple[int, int]]:
    if first == second:
        if suited:
            raise ValueError("a pair is neither suited nor offsuit")
        return _pair(first)
    return _two_ranks(max(first, second), min(first, second), suited)


def _token_combos(token: str) -> list[tuple[int, int]]:
    """The holdings one token names; ValueError if it names none."""
    if token.lower() in ("any", "random"):
        return [(a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1)]
    match = _CLASS.match(token)
    if match:
        first, second = _rank(match[1]), _rank(match[2])
        suited, plus = match[3].lower(), match[4]
        if not plus:
            return _class_combos(first, second, suited)
        if first == second:
            return [c for r in range(first, 13) for c in _pair(r)]
        high, low = max(first, second), min(first, second)
        return [c for r in range(low, high) for c in _class_combos(high, r, suited)]
    match = _SPAN.match(token)
    if match:
        a1, a2, s1, b1, b2, s2 = (
            _rank(match[1]),
            _rank(match[2]),
            match[3].lower(),
            _rank(match[4]),
            _rank(match[5]),
            match[6].lower(),
        )
        if s1 != s2:
            raise ValueError("both ends of a span need the same suitedness")
        if a1 == a2 and b1 == b2:  # JJ-99
            return [c for r in range(min(a1, b1), max(a1, b1) + 1) for c in _pair(r)]
        if a1 == b1 and a2 != a1 and b2 != b1:  # A5s-A2s
            return [
                c for r in range(min(a2, b2), max(a2, b2) + 1) for c in _class_combos(a1, r, s1)
            ]
        raise ValueError("a span keeps its first rank (A5s-A2s) or is of pairs (JJ-99)")
    try:
        cards = parse_cards(token)
    except CardError:
        raise ValueError("not a hand") from None
    if len(cards) != 2:
        raise ValueError("exact holdings have two cards")
    high, low = max(cards), min(cards)
    return [(int(high), int(low))]


@dataclass(frozen=True, eq=False)
class HandRange:
    """Holdings with weights: ``combos`` is ``(K, 2)`` card ints, ``weights`` ``(K,)``."""

    text: str
    combos: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.combos)

    @property
    def total_weight(self) -> float:
        """The sum of the weights (how many holdings the range counts)."""
        return round(float(self.weights.sum()), 9)

    @property
    def is_hand(self) -> bool:
        """Whether the range is one holding."""
        return len(self.combos) == 1

    def describe(self) -> str:
        """How the range is written in reports: its cards if it is one holding, else its text.

        >>> parse_range("Ah Kh").describe(), parse_range(" QQ+ , AKs").describe()
        ('AhKh', 'QQ+, AKs')
        """
        if self.is_hand:
            return format_cards(self.combos[0].tolist()).replace(" ", "")
        return self.text

    def without(self, cards: set[int]) -> HandRange:
        """The range less the holdings that use any of ``cards`` (known elsewhere).

        >>> len(parse_range("AA").without({51}))
        3
        """
        if not cards:
            return self
        known = np.zeros(52, dtype=bool)
        known[list(cards)] = True
        blocked = known[self.combos].any(axis=1)
        return HandRange(self.text, self.combos[~blocked], self.weights[~blocked])


def _weighted_tokens(text: str) -> list[tuple[str, float]]:
    tokens: list[tuple[str, float]] = []
    position = 0
    for match in _GROUP.finditer(text):
        tokens += [(t, 1.0) for t in text[position : match.start()].split(",")]
        weight = float(match[1]) / (100 if match[2] else 1)
        tokens += [(t, weight) for t in match[3].split(",")]
        position = match.end()
    tokens += [(t, 1.0) for t in text[position:].split(",")]
    weighted = []
    for raw, group_weight in tokens:
        token, weight = raw.strip(), group_weight
        if not token:
            continue
        suffix = _SUFFIX_WEIGHT.match(token)
        if suffix:
            token, weight = suffix[1].strip(), float(suffix[2])
        weighted.append((token, weight))
    return weighted


def parse_range(text: str) -> HandRange:
    """Read a range (see the module's notation); a :class:`RangeError` says what is wrong."""
    clean = ", ".join(t.strip() for t in text.split(",") if t.strip())
    weights: dict[tuple[int, int], float] = {}
    for token, weight in _weighted_tokens(text):
        if not 0 <= weight <= 1:
            raise RangeError(f"weight {weight:g} of {token!r} is not between 0 and 1")
        try:
            combos = _token_combos(token)
        except ValueError as exc:
            reason = str(exc)
            detail = "" if reason == "not a hand" else f": {reason}"
            raise RangeError(f"cannot read {token!r} in range {text!r}{detail}") from None
        for combo in combos:
            weights.pop(combo, None)  # the last weight written counts
            weights[combo] = weight
    kept = [(combo, w) for combo, w in weights.items() if w > 0]
    if not kept:
        raise RangeError(f"range {text!r} holds no hand")
    return HandRange(
        clean,
        np.array([combo for combo, _ in kept], dtype=np.int64),
        np.array([w for _, w in kept], dtype=np.float64),
    )
