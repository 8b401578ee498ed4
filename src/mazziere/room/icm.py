"""The Independent Chip Model (Malmuth-Harville) for deals at the end of a tournament.

Malmuth-Harville: a player finishes first with probability stack / total
chips; given who finished above, each remaining player takes the next place
with probability proportional to their stack among those left.  A player's
equity is the sum over the paid places of the prize times the chance of
finishing there.

:func:`icm_equities` computes it exactly, in fractions, by walking every set
of players that can hold the places above (at most ``2**n`` sets for ``n``
players, fewer when fewer places are paid).  When that is more than
:data:`EXACT_SETS` sets (more than ten players with many places paid), it
computes the first places exactly as deep as the limit allows and spreads the
deeper places evenly over each player's remaining chance of finishing below
them (documented in ``docs/room.md``); ``exact`` in the result says which.

>>> result = icm_equities([5000, 3000, 2000], [500, 300, 200])
>>> [round(float(e), 2) for e in result.equities], result.exact
([383.93, 327.5, 288.57], True)
>>> icm_deal([5000, 3000, 2000], [500, 300, 200])
[384, 327, 289]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm

from mazziere.room.errors import ICMError
from mazziere.room.payouts import split_prize_pool

__all__ = ["EXACT_SETS", "ICMResult", "icm_deal", "icm_equities"]

EXACT_SETS = 1024
"""The most sets of players walked for an exact answer (every field of ten players)."""


@dataclass(frozen=True, slots=True)
class ICMResult:
    """Each player's equity (a fraction of the prizes) and whether it is exact."""

    equities: tuple[Fraction, ...]
    exact: bool
    depth: int
    """How many places were computed exactly."""


def _sets_up_to(players: int, depth: int) -> int:
    return sum(comb(players, j) for j in range(depth))


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> ICMResult:
    """Every player's ICM equity for ``prizes`` (best place first).

    >>> icm_equities([100, 100], [70, 30]).equities
    (Fraction(50, 1), Fraction(50, 1))
    >>> icm_equities([100, 0], [70, 30])
    Traceback (most recent call last):
    ...
    mazziere.room.errors.ICMError: every stack must be a positive int; stack 2 is 0
    """
    if len(stacks) < 1:
        raise ICMError("ICM needs at least one player")
    for number, stack in enumerate(stacks, start=1):
        if type(stack) is not int or stack <= 0:
            raise ICMError(f"every stack must be a positive int; stack {number} is {stack!r}")
    if any(type(p) is not int or p < 0 for p in prizes):
        raise ICMError("prizes must be non-negative ints")
    if len(prizes) > len(stacks):
        raise ICMError(f"{len(prizes)} prizes for {len(stacks)} players")
    n, places = len(stacks), len(prizes)
    depth = places
    while depth > 1 and _sets_up_to(n, depth) > EXACT_SETS:
        depth -= 1
    exact = depth == places
    total = sum(stacks)
    equities = [Fraction(0)] * n
    top_chance = [Fraction(0)] * n  # chance of finishing within the exact places
    # chance[mask]: the players in mask took the first popcount(mask) places.
    layer: dict[int, tuple[Fraction, int]] = {0: (Fraction(1), 0)}
    for place in range(depth):
        following: dict[int, tuple[Fraction, int]] = {}
        prize = prizes[place]
        for mask, (chance, chips_above) in layer.items():
            left = total - chips_above
            for i in range(n):
                if mask >> i & 1:
                    continue
                p = chance * stacks[i] / left
                top_chance[i] += p
                if prize:
                    equities[i] += p * prize
                if place + 1 < depth:
                    key = mask | 1 << i
                    old = following.get(key)
                    following[key] = (old[0] + p, old[1]) if old else (p, chips_above + stacks[i])
        layer = following
    if not exact:
        # Places below the exact depth: each player's remaining chance spread evenly.
        deeper = sum(prizes[depth:])
        below = n - depth
        for i in range(n):
            equities[i] += (1 - top_chance[i]) * Fraction(deeper, below)
    return ICMResult(tuple(equities), exact, depth)


def icm_deal(stacks: Sequence[int], prizes: Sequence[int], *, unit: int = 1) -> list[int]:
    """An ICM deal in ints: each player's equity, rounded so the deal pays out every prize.

    Rounding is by largest remainder in multiples of ``unit``; any rest below
    one unit goes to the biggest stack.

    >>> icm_deal([1, 1, 1], [100])
    [34, 33, 33]
    >>> sum(icm_deal([700, 200, 100], [5000, 3000, 2000], unit=100))
    10000
    """
    result = icm_equities(stacks, prizes)
    pool = sum(prizes)
    if pool == 0:
        return [0] * len(stacks)
    # Equities as shares of the pool, scaled to a common int denominator.
    denominator = lcm(*(e.denominator for e in result.equities))
    weights = [int(e * denominator) for e in result.equities]
    order = sorted(range(len(stacks)), key=lambda i: (-stacks[i], i))
    shares = split_prize_pool(pool, [weights[i] for i in order], unit=unit)
    deal = [0] * len(stacks)
    for position, i in enumerate(order):
        deal[i] = shares[position]
    return deal
