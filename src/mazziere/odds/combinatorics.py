"""Tables of combinations, built with numpy and kept: the boards and draws to enumerate.

>>> combinations(5, 3).tolist()[:4]
[[0, 1, 2], [0, 1, 3], [0, 1, 4], [0, 2, 3]]
>>> len(combinations(48, 5)), combinations(7, 0).shape
(1712304, (1, 0))
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["combinations"]


@functools.lru_cache(maxsize=12)
def combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every ``k``-subset of ``range(n)`` as a row of increasing ints, in lexicographic order.

    The same rows as ``itertools.combinations``, made a column at a time
    (a fifth of a second for the 2.6 million boards of a full deck); the
    table is read-only and cached.
    """
    if not 0 <= k <= n <= 255:
        raise ValueError(f"cannot choose {k} of {n}")
    if k == 0:
        rows = np.zeros((1, 0), dtype=np.uint8)
        rows.flags.writeable = False
        return rows
    # Start from the last column and prepend one column at a time: the rows of
    # size j are, for each first element f, f followed by the rows of size
    # j - 1 whose first element is above f (those rows form a suffix).
    rows = np.arange(k - 1, n, dtype=np.uint8)[:, None]
    for width in range(2, k + 1):
        first = rows[:, 0].astype(np.intp)
        lowest = k - width  # the smallest first element of the new width's rows
        # start[f]: index of the first row (size width-1) whose first element exceeds f
        start = np.searchsorted(first, np.arange(lowest, n - width + 1), side="right")
        sizes = len(rows) - start
        heads = np.repeat(np.arange(lowest, n - width + 1, dtype=np.uint8), sizes)
        offsets = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes - start, sizes)
        rows = np.hstack([heads[:, None], rows[offsets]])
    # Stored column by column (the transpose of a contiguous array): the
    # evaluator reads boards a column at a time.
    rows = np.ascontiguousarray(rows.T).T
    rows.flags.writeable = False
    return rows
