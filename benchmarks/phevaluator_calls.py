"""Why the evaluation benchmark binds phevaluator's 7-card call: its ways of being called, timed.

``python -m benchmarks.phevaluator_calls`` times, on the same random
seven-card hands, in alternating slices (medians of five rounds):
``phevaluator.evaluate_cards`` looked up on every call (what the benchmark
did until 2026-12-01: phevaluator loads its names lazily through a module
``__getattr__``, so every look-up is a Python call), the same function bound
once, the public ``evaluate_7cards`` bound once (what the benchmark calls
now), and the private C entry ``phevaluator._pheval.evaluate_7cards``; and
ours, for the ratios.
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Callable, Sequence

from benchmarks.timing import Echo, alternating_medians, chunks
from mazziere.cards import CARDS
from mazziere.evaluate import holdem_strength7

SLICES = 10


def run(*, hands: int, repeats: int, seed: int, echo: Echo) -> dict[str, float]:
    """Print and return hands/s of each way of calling phevaluator, and ours."""
    import phevaluator  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from phevaluator import _pheval  # type: ignore[import-untyped,import-not-found,unused-ignore]

    rng = random.Random(seed)
    ours = [rng.sample(range(52), 7) for _ in range(hands)]
    ids = {int(c): phevaluator.Card(str(c)).id_ for c in CARDS}
    theirs = [[ids[c] for c in hand] for hand in ours]

    def looked_up(hands: Sequence[list[int]]) -> None:
        for hand in hands:
            phevaluator.evaluate_cards(*hand)

    def bound(call: Callable[..., int], hands: Sequence[list[int]]) -> None:
        for hand in hands:
            call(*hand)

    def mazziere(hands: Sequence[list[int]]) -> None:
        for hand in hands:
            holdem_strength7(hand)

    loops: dict[str, tuple[Callable[[Sequence[list[int]]], None], list[list[int]]]] = {
        "mazziere (holdem_strength7)": (mazziere, ours),
        "evaluate_cards, looked up per call": (looked_up, theirs),
        "evaluate_cards, bound once": (
            functools.partial(bound, phevaluator.evaluate_cards),
            theirs,
        ),
        "evaluate_7cards, bound once": (
            functools.partial(bound, phevaluator.evaluate_7cards),
            theirs,
        ),
        "_pheval.evaluate_7cards (C)": (functools.partial(bound, _pheval.evaluate_7cards), theirs),
    }
    timings = alternating_medians(
        {
            name: [functools.partial(loop, chunk) for chunk in chunks(items, SLICES)]
            for name, (loop, items) in loops.items()
        },
        repeats,
    )
    rates = {name: hands / timing.seconds for name, timing in timings.items()}
    first = next(iter(rates))
    echo(
        f"phevaluator's calls: {hands} random seven-card hands (seed {seed}); hands per CPU "
        f"second, median of {repeats} timings, each in {SLICES} slices alternating"
    )
    for name, rate in rates.items():
        ratio = "" if name == first else f"   mazziere is {rates[first] / rate:5.2f}x"
        echo(f"  {name:<36} {rate / 1e6:7.3f} M hands/s{ratio}")
    return rates


if __name__ == "__main__":
    run(hands=int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, repeats=5, seed=1, echo=print)
