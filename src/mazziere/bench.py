"""Benchmarks: our figures and the peers', measured in the same run, as ratios.

Peers are optional (``pip install -e '.[bench]'``); a missing one is reported
as such.  Every figure is the median of ``repeats`` timings.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mazziere.cards import CARDS
from mazziere.evaluate import evaluate_batch, holdem_strength5, holdem_strength7, ranking_for
from mazziere.rules import find_rules

Echo = Callable[[str], Any]


def median_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    """Items per second of ``run`` (which handles ``count`` items), median of ``repeats``.

    Timed in CPU seconds of this process (``time.process_time``), so that
    other work on a shared machine slows the figures less; ours and the
    peers' are timed alike, in the same run.
    """
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return count / statistics.median(times)


def alternating_median_rates(
    runs: dict[str, tuple[Callable[[], object], int]], repeats: int
) -> dict[str, float]:
    """Items per second of each run (``name -> (run, items)``), median of ``repeats``.

    The timings alternate (one of each, ``repeats`` times over), so that a
    slow spell of a shared machine falls on all of them alike.
    """
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, (run, _count) in runs.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    return {name: runs[name][1] / statistics.median(times[name]) for name in runs}


def _loop(function: Callable[[Any], object], items: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for item in items:
            function(item)

    return run


def _peer_evaluators(
    size: int,
) -> dict[str, tuple[Callable[[Any], object], Callable[[list[int]], Any]]]:
    """name -> (evaluate one hand, convert one hand of our cards to its input)."""
    peers: dict[str, tuple[Callable[[Any], object], Callable[[list[int]], Any]]] = {}
    try:
        import eval7  # type: ignore[import-untyped,import-not-found,unused-ignore]

        eval7_cards = {int(c): eval7.Card(str(c)) for c in CARDS}
        peers["eval7"] = (eval7.evaluate, lambda hand: [eval7_cards[c] for c in hand])
    except ImportError:
        pass
    try:
        import treys  # type: ignore[import-untyped,import-not-found,unused-ignore]

        evaluator = treys.Evaluator()
        treys_cards = {int(c): treys.Card.new(str(c)) for c in CARDS}

        def treys_eval(hand: list[int]) -> object:
            return evaluator.evaluate(hand[:2], hand[2:])

        peers["treys"] = (treys_eval, lambda hand: [treys_cards[c] for c in hand])
    except ImportError:
        pass
    try:
        import phevaluator  # type: ignore[import-untyped,import-not-found,unused-ignore]

        ph_cards = {int(c): phevaluator.Card(str(c)).id_ for c in CARDS}

        def ph_eval(hand: list[int]) -> object:
            return phevaluator.evaluate_cards(*hand)

        peers["phevaluator"] = (ph_eval, lambda hand: [ph_cards[c] for c in hand])
    except ImportError:
        pass
    try:
        import pokerkit

        def pk_eval(hand: tuple[str, str]) -> object:
            return pokerkit.StandardHighHand.from_game(hand[0], hand[1])

        peers["pokerkit"] = (
            pk_eval,
            lambda hand: (
                "".join(str(CARDS[c]) for c in hand[:2]),
                "".join(str(CARDS[c]) for c in hand[2:]),
            ),
        )
    except ImportError:
        pass
    return peers


def run_eval_benchmark(*, hands: int, repeats: int, seed: int, echo: Echo) -> dict[str, float]:
    """Print and return hands/s of every evaluator, ours first, with ratios."""
    rng = random.Random(seed)
    figures: dict[str, float] = {}
    echo(f"hands per timing: {hands}; median of {repeats} alternating timings; seed {seed}")
    for size, ours in ((7, holdem_strength7), (5, holdem_strength5)):
        # Our cards are ints (0..51); each peer gets its own card objects or ints.
        deals = [rng.sample(range(52), size) for _ in range(hands)]
        runs: dict[str, tuple[Callable[[], object], int]] = {
            "mazziere": (_loop(ours, deals), hands)
        }
        for name, (peer, convert) in _peer_evaluators(size).items():
            # pokerkit is three orders of magnitude slower: time fewer hands.
            count = hands // 50 if name == "pokerkit" else hands
            converted = [convert(hand) for hand in deals[:count]]
            runs[name] = (_loop(peer, converted), count)
        rates = alternating_median_rates(runs, repeats)
        ours_rate = rates["mazziere"]
        figures[f"holdem{size}.mazziere"] = ours_rate
        echo(f"\nHold'em {size}-card, one call per hand ({ours.__name__})")
        echo(f"  {'mazziere':<12} {ours_rate / 1e6:8.3f} M hands/s")
        for name, rate in rates.items():
            if name == "mazziere":
                continue
            figures[f"holdem{size}.{name}"] = rate
            echo(f"  {name:<12} {rate / 1e6:8.3f} M hands/s   mazziere is {ours_rate / rate:7.2f}x")
    batch = 1_000_000
    deals7 = np.argsort(np.random.default_rng(seed).random((batch, 52)), axis=1)[:, :7]
    deals7 = deals7.astype(np.uint8)
    rate = median_rate(lambda: evaluate_batch(deals7), batch, repeats)
    figures["holdem7.batch"] = rate
    echo(f"\nHold'em 7-card batch (evaluate_batch, numpy, {batch} hands per call)")
    echo(f"  {'mazziere':<12} {rate / 1e6:8.3f} M hands/s")
    best_peer = max(
        (
            v
            for k, v in figures.items()
            if k.startswith("holdem7.") and "mazziere" not in k and "batch" not in k
        ),
        default=0.0,
    )
    if best_peer:
        echo(f"  {'':<12} {rate / best_peer:8.1f}x the fastest peer's single-call rate")
    for name, players in (("italian-classic", 4), ("italian-classic", 6), ("italian-32", None)):
        ranking = ranking_for(name, players)
        deck = list(find_rules(name).deck(players))
        deals5 = [rng.sample(deck, 5) for _ in range(hands)]
        single = median_rate(_loop(ranking.strength, deals5), hands, repeats)
        big = np.array([rng.sample(deck, 5) for _ in range(batch // 10)], dtype=np.uint8)
        big = np.tile(big, (10, 1))
        batch_rate = median_rate(
            functools.partial(evaluate_batch, big, rules=name, players=players), len(big), repeats
        )
        label = f"{name}" + (
            f" ({players} players, {len(deck)} cards)" if players else f" ({len(deck)} cards)"
        )
        figures[f"{name}{players or ''}.single"] = single
        figures[f"{name}{players or ''}.batch"] = batch_rate
        echo(f"\n{label}: no peer evaluates Italian poker")
        echo(f"  single (Ranking.strength) {single / 1e6:8.3f} M hands/s")
        echo(f"  batch  (evaluate_batch)   {batch_rate / 1e6:8.3f} M hands/s")
    return figures
