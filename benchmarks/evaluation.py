"""Hand evaluation: ours against eval7, treys, phevaluator and pokerkit, in the same run.

Every evaluator values the same random hands, each given its own card
objects or ints, made before the timings; each is called the fastest way it
offers, bound once outside the loop (``phevaluator`` loads its names lazily
through a module ``__getattr__``: looking ``phevaluator.evaluate_cards`` up
on every call made it about three times slower).  A missing peer is reported
as such.
"""

from __future__ import annotations

import functools
import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.timing import Echo, alternating_medians, chunks
from mazziere.cards import CARDS
from mazziere.evaluate import holdem_strength5, holdem_strength7, ranking_for
from mazziere.rules import find_rules

SLICES = 10
"""Each timing is made of this many slices, the evaluators' slices interleaved."""

Loop = Callable[[Sequence[Any]], object]
"""Values every hand of a chunk, the peer's own way."""
Convert = Callable[[list[int]], Any]
"""One hand of our card ints (hole cards first) -> the peer's input."""


def _ours(strength: Callable[[Sequence[int]], int]) -> Loop:
    def loop(hands: Sequence[Any]) -> None:
        for hand in hands:
            strength(hand)

    return loop


def _eval7() -> tuple[Loop, Convert]:
    import eval7  # type: ignore[import-untyped,import-not-found,unused-ignore]

    evaluate = eval7.evaluate
    cards = {int(c): eval7.Card(str(c)) for c in CARDS}

    def loop(hands: Sequence[Any]) -> None:
        for hand in hands:
            evaluate(hand)

    return loop, lambda hand: [cards[c] for c in hand]


def _treys() -> tuple[Loop, Convert]:
    import treys  # type: ignore[import-untyped,import-not-found,unused-ignore]

    evaluate = treys.Evaluator().evaluate
    cards = {int(c): treys.Card.new(str(c)) for c in CARDS}

    def loop(hands: Sequence[Any]) -> None:
        for hole, board in hands:
            evaluate(hole, board)

    return loop, lambda hand: ([cards[c] for c in hand[:2]], [cards[c] for c in hand[2:]])


def _phevaluator(size: int, *, c_entry: bool = False) -> tuple[Loop, Convert]:
    import phevaluator  # type: ignore[import-untyped,import-not-found,unused-ignore]

    if c_entry:
        from phevaluator import _pheval  # type: ignore[import-untyped,import-not-found,unused-ignore]

        calls = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}
    else:
        # The public call for exactly this many cards (evaluate_cards, which takes
        # any number, costs a list, a map and a dict look-up more per call).
        calls = {5: phevaluator.evaluate_5cards, 7: phevaluator.evaluate_7cards}
    evaluate = calls[size]
    cards = {int(c): phevaluator.Card(str(c)).id_ for c in CARDS}

    def loop(hands: Sequence[Any]) -> None:
        for hand in hands:
            evaluate(*hand)

    return loop, lambda hand: [cards[c] for c in hand]


def _pokerkit() -> tuple[Loop, Convert]:
    import pokerkit

    from_game = pokerkit.StandardHighHand.from_game
    # Its own Card objects, parsed once: from strings it parses them on every call.
    cards = {int(c): next(iter(pokerkit.Card.parse(str(c)))) for c in CARDS}

    def loop(hands: Sequence[Any]) -> None:
        for hole, board in hands:
            from_game(hole, board)

    return loop, lambda hand: (
        tuple(cards[c] for c in hand[:2]),
        tuple(cards[c] for c in hand[2:]),
    )


PEERS: dict[str, Callable[[int], tuple[Loop, Convert]]] = {
    "eval7": lambda size: _eval7(),
    "treys": lambda size: _treys(),
    "phevaluator": _phevaluator,
    "phevaluator C": lambda size: _phevaluator(size, c_entry=True),
    "pokerkit": lambda size: _pokerkit(),
}
"""Peer -> (cards per hand -> its loop and its card conversion), in the order printed.

``phevaluator C`` is phevaluator's C extension called directly
(``phevaluator._pheval``, a private module: its public functions wrap it in
Python); it is shown for what the same tables cost without that wrapper.
"""

SLOW_PEERS = {"pokerkit": 50}
"""Peers three orders of magnitude slower: they value this many times fewer hands."""


def _ratio_line(name: str, rate: float, ours: float, hands: int) -> str:
    return (
        f"  {name:<14} {rate / 1e6:8.3f} M hands/s   mazziere is {ours / rate:6.2f}x"
        f"   ({hands} hands)"
    )


def run_eval_benchmark(*, hands: int, repeats: int, seed: int, echo: Echo) -> dict[str, float]:
    """Print and return hands/s of every evaluator, ours first, with ratios."""
    rng = random.Random(seed)
    figures: dict[str, float] = {}
    echo(
        f"hand evaluation: {hands} random hands per timing (seed {seed}); hands per CPU second, "
        f"median of {repeats} timings, each in {SLICES} slices alternating between the evaluators"
    )
    for size, strength in ((7, holdem_strength7), (5, holdem_strength5)):
        deals = [rng.sample(range(52), size) for _ in range(hands)]
        runs: dict[str, tuple[Loop, Sequence[Any]]] = {"mazziere": (_ours(strength), deals)}
        missing = []
        for name, make in PEERS.items():
            try:
                with warnings.catch_warnings():  # a peer's own deprecations are not ours
                    warnings.simplefilter("ignore")
                    loop, convert = make(size)
            except ImportError:
                missing.append(name)
                continue
            count = max(1, hands // SLOW_PEERS.get(name, 1))
            runs[name] = (loop, [convert(hand) for hand in deals[:count]])
        timings = alternating_medians(
            {
                name: [functools.partial(loop, chunk) for chunk in chunks(items, SLICES)]
                for name, (loop, items) in runs.items()
            },
            repeats,
        )
        rates = {name: len(runs[name][1]) / timing.seconds for name, timing in timings.items()}
        ours = rates["mazziere"]
        echo(f"\nHold'em {size} cards, one call per hand ({strength.__name__})")
        echo(f"  {'mazziere':<14} {ours / 1e6:8.3f} M hands/s")
        for name, rate in rates.items():
            figures[f"holdem{size}.{name}"] = rate
            if name != "mazziere":
                echo(_ratio_line(name, rate, ours, len(runs[name][1])))
        for name in missing:
            echo(f"  {name:<14} not installed (pip install -e '.[bench]')")
    figures.update(_batches(hands=hands, repeats=repeats, seed=seed, echo=echo, figures=figures))
    return figures


def _batches(
    *, hands: int, repeats: int, seed: int, echo: Echo, figures: dict[str, float]
) -> dict[str, float]:
    """The numpy batch evaluator, and the Italian rankings one call at a time and in batches."""
    import numpy as np

    from mazziere.evaluate import evaluate_batch

    rng = random.Random(seed + 1)
    batch = max(10 * hands, 10_000)
    generator = np.random.default_rng(seed)
    deals7 = np.argsort(generator.random((batch, 52)), axis=1)[:, :7].astype(np.uint8)
    runs: dict[str, list[Callable[[], object]]] = {
        "holdem7.batch": [functools.partial(evaluate_batch, deals7)]
    }
    counts = {"holdem7.batch": batch}
    labels = {}
    for name, players in (("italian-classic", 4), ("italian-classic", 6), ("italian-32", None)):
        key = f"{name}{players or ''}"
        ranking = ranking_for(name, players)
        deck = list(find_rules(name).deck(players))
        deals5 = [rng.sample(deck, 5) for _ in range(hands)]
        # A tenth of the batch drawn, ten times over: drawing a million hands
        # in Python would take longer than the benchmark.
        big = np.tile(
            np.array([rng.sample(deck, 5) for _ in range(batch // 10)], dtype=np.uint8), (10, 1)
        )
        one_call = _ours(ranking.strength)
        runs[f"{key}.single"] = [functools.partial(one_call, c) for c in chunks(deals5, SLICES)]
        runs[f"{key}.batch"] = [functools.partial(evaluate_batch, big, rules=name, players=players)]
        counts[f"{key}.single"], counts[f"{key}.batch"] = hands, batch
        labels[key] = (
            f"{name} ({players} players, {len(deck)} cards)"
            if players
            else (f"{name} ({len(deck)} cards)")
        )
    timings = alternating_medians(runs, repeats)
    found = {name: counts[name] / timing.seconds for name, timing in timings.items()}
    echo(f"\nHold'em 7 cards, batch (evaluate_batch, numpy, {batch} hands per call)")
    echo(f"  {'mazziere':<14} {found['holdem7.batch'] / 1e6:8.3f} M hands/s")
    peers = [v for k, v in figures.items() if k.startswith("holdem7.") and "mazziere" not in k]
    if peers:
        times = found["holdem7.batch"] / max(peers)
        echo(f"  {'':<14} {times:8.1f}x the fastest peer's one-call rate")
    for key, label in labels.items():
        echo(f"\n{label}: no peer evaluates Italian poker")
        echo(f"  one call (Ranking.strength) {found[f'{key}.single'] / 1e6:8.3f} M hands/s")
        echo(f"  batch (evaluate_batch)      {found[f'{key}.batch'] / 1e6:8.3f} M hands/s")
    return found
