"""Payout tables and prizes in whole chips or cents that add up to the prize pool.

A :class:`PayoutTable` says, for a number of entrants, how the prize pool is
shared among the first places (in percent).  :func:`split_prize_pool` turns
those shares into int prizes that sum exactly to the pool: every prize is
rounded down to the paying unit, the units left over go one by one to the
places that lost most in the rounding (better places first on ties), and what
is left below one unit goes to the winner.  Prizes never increase down the
places.

>>> DEFAULT_PAYOUTS.percentages(6)
(70, 30)
>>> split_prize_pool(1001, (50, 30, 20))
[501, 300, 200]
>>> split_prize_pool(10_050, (50, 30, 20), unit=100)  # whole euros in cents
[5050, 3000, 2000]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mazziere.room.errors import PayoutError

__all__ = ["DEFAULT_PAYOUTS", "PayoutBracket", "PayoutTable", "split_prize_pool"]


@dataclass(frozen=True, slots=True)
class PayoutBracket:
    """From ``low`` to ``high`` entrants (inclusive) the places are paid ``percentages``."""

    low: int
    high: int
    percentages: tuple[int, ...]


@dataclass(frozen=True, init=False)
class PayoutTable:
    """Brackets of entrants, each with the percent of the pool of each paid place.

    >>> PayoutTable({(1, 3): (100,), (4, 9): (60, 40)}).percentages(5)
    (60, 40)
    >>> PayoutTable({(1, 3): (100,), (3, 9): (60, 40)})
    Traceback (most recent call last):
    ...
    mazziere.room.errors.PayoutError: brackets 1-3 and 3-9 overlap
    >>> PayoutTable({(1, 3): (60, 40)})
    Traceback (most recent call last):
    ...
    mazziere.room.errors.PayoutError: 1-3 entrants: 2 paid places but only 1 entrant
    """

    brackets: tuple[PayoutBracket, ...]

    def __init__(self, brackets: dict[tuple[int, int], Sequence[int]]) -> None:
        parsed: list[PayoutBracket] = []
        for (low, high), shares in sorted(brackets.items()):
            percentages = tuple(shares)
            label = f"{low}-{high} entrants"
            if type(low) is not int or type(high) is not int or not 1 <= low <= high:
                raise PayoutError(f"bad bracket {low!r}-{high!r}")
            if not percentages or any(type(p) is not int or p <= 0 for p in percentages):
                raise PayoutError(f"{label}: shares must be positive int percentages")
            if sum(percentages) != 100:
                raise PayoutError(f"{label}: shares add up to {sum(percentages)}, not 100")
            if list(percentages) != sorted(percentages, reverse=True):
                raise PayoutError(f"{label}: a lower place cannot be paid more")
            if len(percentages) > low:
                raise PayoutError(
                    f"{label}: {len(percentages)} paid places but only {low} "
                    f"entrant{'s' if low > 1 else ''}"
                )
            if parsed and low <= parsed[-1].high:
                raise PayoutError(
                    f"brackets {parsed[-1].low}-{parsed[-1].high} and {low}-{high} overlap"
                )
            parsed.append(PayoutBracket(low, high, percentages))
        if not parsed:
            raise PayoutError("a payout table needs at least one bracket")
        object.__setattr__(self, "brackets", tuple(parsed))

    def percentages(self, entrants: int) -> tuple[int, ...]:
        """The percentages paid with ``entrants`` players.

        >>> DEFAULT_PAYOUTS.percentages(30)
        (50, 30, 20)
        >>> DEFAULT_PAYOUTS.percentages(10_000)
        Traceback (most recent call last):
        ...
        mazziere.room.errors.PayoutError: the payout table has no bracket for 10000 entrants
        """
        for bracket in self.brackets:
            if bracket.low <= entrants <= bracket.high:
                return bracket.percentages
        raise PayoutError(f"the payout table has no bracket for {entrants} entrants")

    @property
    def max_entrants(self) -> int:
        """The largest field the table can pay."""
        return self.brackets[-1].high

    def prizes(self, pool: int, entrants: int, *, unit: int = 1) -> list[int]:
        """The prizes of a pool of ``pool`` with ``entrants`` players, best place first.

        >>> DEFAULT_PAYOUTS.prizes(900, 9)
        [630, 270]
        """
        return split_prize_pool(pool, self.percentages(entrants), unit=unit)


DEFAULT_PAYOUTS = PayoutTable(
    {
        (1, 3): (100,),
        (4, 9): (70, 30),
        (10, 30): (50, 30, 20),
        (31, 60): (40, 25, 15, 12, 8),
        (61, 120): (30, 20, 14, 10, 8, 7, 6, 5),
        (121, 250): (26, 17, 12, 9, 7, 6, 5, 4, 4, 4, 3, 3),
        (251, 1000): (20, 13, 10, 8, 6, 5, 4, 4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2),
    }
)
"""1-3 entrants: 100; 4-9: 70/30; 10-30: 50/30/20; larger fields pay more places."""


def split_prize_pool(pool: int, percentages: Sequence[int], *, unit: int = 1) -> list[int]:
    """Int prizes for ``percentages`` of ``pool`` that sum exactly to ``pool``.

    ``unit`` is the paying unit (1 chip or cent, 100 for whole euros in
    cents): every prize but the winner's is a multiple of it.

    >>> split_prize_pool(100, (34, 33, 33))
    [34, 33, 33]
    >>> split_prize_pool(2, (50, 30, 20))
    [1, 1, 0]
    >>> split_prize_pool(-5, (100,))
    Traceback (most recent call last):
    ...
    mazziere.room.errors.PayoutError: a prize pool is a non-negative int, not -5
    """
    if type(pool) is not int or pool < 0:
        raise PayoutError(f"a prize pool is a non-negative int, not {pool!r}")
    if type(unit) is not int or unit < 1:
        raise PayoutError(f"the paying unit is a positive int, not {unit!r}")
    total = sum(percentages)
    if not percentages or total <= 0 or any(p < 0 for p in percentages):
        raise PayoutError("prize shares must be non-negative and not all zero")
    units = pool // unit
    exact = [units * p for p in percentages]  # in units, times `total`
    prizes = [e // total for e in exact]
    short = units - sum(prizes)
    # Largest remainder first; on equal remainders the better place.
    order = sorted(range(len(prizes)), key=lambda i: (-(exact[i] % total), i))
    for i in order[:short]:
        prizes[i] += 1
    result = [p * unit for p in prizes]
    result[0] += pool - units * unit
    return result
