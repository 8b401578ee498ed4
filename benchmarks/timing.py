"""Timings that alternate between contenders in slices, and their medians."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Echo = Callable[[str], Any]
"""Where a benchmark prints its lines (``print``, ``typer.echo``, a test's list)."""


@dataclass(frozen=True)
class Timing:
    """One contender's median over the rounds, and what its slices returned in the last round."""

    seconds: float
    results: tuple[Any, ...]


def alternating_medians(
    runs: Mapping[str, Sequence[Callable[[], object]]], repeats: int
) -> dict[str, Timing]:
    """Median CPU seconds of each run (``name -> its slices``) over ``repeats`` rounds.

    A round times slice 0 of every run, then slice 1 of every run, and so on;
    a run's time in the round is the sum of its slices.  On a shared machine
    the speed wanders within a second, so interleaving short slices times
    every contender over the same stretch of it, and the median of the
    rounds drops the odd slow spell.  Time is the CPU time of this process
    (``time.process_time``): other jobs on the machine slow every contender
    less than they slow the wall clock.

    >>> timings = alternating_medians({"a": [lambda: 1, lambda: 2], "b": [lambda: 3]}, 3)
    >>> timings["a"].results, timings["b"].results
    ((1, 2), (3,))
    """
    if repeats < 1:
        raise ValueError("at least one round, please")
    rounds: dict[str, list[float]] = {name: [] for name in runs}
    results: dict[str, list[object]] = {}
    slices = max(len(parts) for parts in runs.values())
    for _ in range(repeats):
        spent = dict.fromkeys(runs, 0.0)
        results = {name: [] for name in runs}
        for k in range(slices):
            for name, parts in runs.items():
                if k < len(parts):
                    start = time.process_time()
                    result = parts[k]()
                    spent[name] += time.process_time() - start
                    results[name].append(result)
        for name, seconds in spent.items():
            rounds[name].append(seconds)
    return {name: Timing(statistics.median(rounds[name]), tuple(results[name])) for name in runs}


def shares(count: int, slices: int) -> list[int]:
    """``count`` items cut into ``slices`` shares as even as can be (empty shares dropped).

    >>> shares(25, 10)
    [3, 3, 3, 3, 3, 2, 2, 2, 2, 2]
    >>> shares(3, 10)
    [1, 1, 1]
    """
    whole, extra = divmod(count, slices)
    return [n for n in (whole + (k < extra) for k in range(slices)) if n]


def chunks(items: Sequence[Any], slices: int) -> list[Sequence[Any]]:
    """``items`` cut into consecutive chunks of :func:`shares` sizes.

    >>> chunks("abcde", 2)
    ['abc', 'de']
    """
    parts, start = [], 0
    for size in shares(len(items), slices):
        parts.append(items[start : start + size])
        start += size
    return parts
