"""Odds and bots speed: ours and the peers' in the same run, as ratios (``make bench``).

``python -m benchmarks.odds [--repeats N] [--quick]`` prints:

1. the exact equity of AhKh against QsQd before the flop (all 1,712,304
   boards): ours, and a loop of phevaluator over the same boards, two
   seven-card hands a board (timed on every tenth board, times ten): its
   fastest public call, ``evaluate_7cards`` bound once, and its private C
   entry for reference;
2. Monte Carlo deals per second, a hand against a hand: ours, eval7's
   ``py_hand_vs_range_monte_carlo`` and pokerkit's ``calculate_equities``;
3. the Italian draw's odds of a hand, all 31 ways exactly: milliseconds per
   hand over random hands (no peer computes them);
4. the strong bot's decisions while it plays the basic bot heads up: the
   50th and 99th percentiles and the worst, in milliseconds, of the wall
   clock (what a player waits; other jobs on the machine lengthen it) and of
   this process's CPU time (the worst is the first decision of a deck, which
   builds its tables);
5. the first decision of a fresh process (each rule set in a new Python),
   and the slowest of its first two hands: cold, and after
   :func:`mazziere.bots.strong.warm_up` (what ``mazziere serve``, ``play``,
   ``duel`` and ``simulate`` do before the first deal), with the warm-up's
   own time.

Timings alternate between the contenders round after round
(:func:`benchmarks.timing.alternating_medians`) and the medians are kept;
CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import warnings
from collections.abc import Callable

import numpy as np

from benchmarks.timing import alternating_medians
from mazziere.cards import parse_cards
from mazziere.odds import draw_odds, holdem_equity
from mazziere.odds.combinatorics import combinations


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes): how shared it was while timing."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def _median_seconds(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median CPU seconds of each run, the runs taking turns within each round."""
    timings = alternating_medians({name: [run] for name, run in runs.items()}, repeats)
    return {name: timing.seconds for name, timing in timings.items()}


def exact_equity(repeats: int) -> None:
    import phevaluator  # type: ignore[import-untyped,import-not-found,unused-ignore]
    from phevaluator import _pheval  # type: ignore[import-untyped,import-not-found,unused-ignore]

    hero, villain = parse_cards("Ah Kh"), parse_cards("Qs Qd")
    live = [c for c in range(52) if c not in {*hero, *villain}]
    boards = np.array(live)[combinations(48, 5)][::10].tolist()  # every tenth board
    ids = {c: phevaluator.Card(str(parse_cards([c])[0])).id_ for c in range(52)}
    h = [ids[c] for c in hero]
    v = [ids[c] for c in villain]
    board_ids = [[ids[c] for c in b] for b in boards]

    def loop(evaluate7: Callable[..., int]) -> Callable[[], tuple[int, int]]:
        def run() -> tuple[int, int]:
            wins = ties = 0
            for a, b, c, d, e in board_ids:
                ours = evaluate7(a, b, c, d, e, h[0], h[1])
                theirs = evaluate7(a, b, c, d, e, v[0], v[1])
                if ours < theirs:  # phevaluator: smaller is stronger
                    wins += 1
                elif ours == theirs:
                    ties += 1
            return wins, ties

        return run

    holdem_equity(["AhKh", "QsQd"])  # the tables, built once
    times = _median_seconds(
        {
            "mazziere": lambda: holdem_equity(["AhKh", "QsQd"]),
            # The fastest public call, bound once (benchmarks.phevaluator_calls).
            "phevaluator": loop(phevaluator.evaluate_7cards),
            "phevaluator C": loop(_pheval.evaluate_7cards),
        },
        repeats,
    )
    ours = times["mazziere"]
    print(f"1. exact equity, AhKh against QsQd preflop, 1,712,304 boards ({load_average()})")
    print(f"   mazziere       {ours:8.3f} s")
    for name, note in (
        ("phevaluator", "evaluate_7cards bound once, in a loop"),
        ("phevaluator C", "its private C entry _pheval.evaluate_7cards"),
    ):
        peer = times[name] * 10
        print(
            f"   {name:<14} {peer:8.3f} s  ({note}; every tenth board, x10)"
            f"   ours is {peer / ours:5.1f}x faster"
        )


def monte_carlo(repeats: int, trials: int) -> None:
    with warnings.catch_warnings():  # eval7 0.1.11 calls pyparsing names deprecated since
        warnings.simplefilter("ignore")
        import eval7  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import pokerkit

    hand = [eval7.Card("Ah"), eval7.Card("Kh")]
    villain = [((eval7.Card("Qs"), eval7.Card("Qd")), 1.0)]
    pokerkit_samples = max(200, trials // 500)
    ranges = (pokerkit.parse_range("AhKh"), pokerkit.parse_range("QsQd"))

    def pokerkit_run() -> object:
        return pokerkit.calculate_equities(
            ranges,
            (),
            2,
            5,
            pokerkit.Deck.STANDARD,
            (pokerkit.StandardHighHand,),
            sample_count=pokerkit_samples,
        )

    seeds = iter(range(10**6))
    times = _median_seconds(
        {
            "mazziere": lambda: holdem_equity(
                ["AhKh", "QsQd"], method="monte-carlo", trials=trials, rng=next(seeds)
            ),
            "eval7": lambda: eval7.py_hand_vs_range_monte_carlo(hand, villain, [], trials),
            "pokerkit": pokerkit_run,
        },
        repeats,
    )
    ours = trials / times["mazziere"]
    print(f"2. Monte Carlo, AhKh against QsQd preflop, {trials:,} deals a run ({load_average()})")
    print(f"   mazziere       {ours:12,.0f} deals/s")
    for name, count in (("eval7", trials), ("pokerkit", pokerkit_samples)):
        rate = count / times[name]
        print(f"   {name:<14} {rate:12,.0f} deals/s   ours/theirs {ours / rate:8.2f}x")


def italian_draws(repeats: int, hands: int) -> None:
    print(
        f"3. Italian draw odds, all 31 ways to change 0-4 cards, exact ({hands} random hands; "
        f"{load_average()})"
    )
    for rules, players in (("italian-classic", 4), ("italian-32", None), ("italian-classic", 6)):
        from mazziere.rules import find_rules

        deck = list(find_rules(rules).deck(players))
        rng = random.Random(7)
        sample = [rng.sample(deck, 5) for _ in range(hands)]
        draw_odds(sample[0], rules, players=players)  # the deck's tables, built once
        per_hand: list[float] = []
        wall: list[float] = []
        for _ in range(repeats):
            for cards in sample:
                start, start_wall = time.process_time(), time.perf_counter()
                draw_odds(cards, rules, players=players)
                per_hand.append(time.process_time() - start)
                wall.append(time.perf_counter() - start_wall)
        label = f"{rules}, {len(deck)} cards"
        for kind, spent in (("CPU", per_hand), ("wall", wall)):
            median = statistics.median(spent) * 1000
            worst = max(spent) * 1000
            print(f"   {label:<26} {kind:<4} median {median:6.1f} ms   max {worst:6.1f} ms")


def bot_decisions(hands: int) -> None:
    from mazziere.bots.base import BOTS, Situation
    from mazziere.bots.strong import StrongBot
    from mazziere.duel import duel
    from mazziere.game.core import Action

    times: list[float] = []
    cpu: list[float] = []

    class TimedStrongBot(StrongBot):
        """The strong bot, its decisions timed: wall clock (what a player waits) and CPU."""

        def act(self, situation: Situation) -> Action:
            start, start_cpu = time.perf_counter(), time.process_time()
            action = super().act(situation)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            return action

    print(
        f"4. strong bot decisions, heads up against basic ({hands} hands a rule set; "
        f"{load_average()}); the wall clock's 99th percentile must stay within 50 ms"
    )
    for rules in ("holdem", "italian-classic", "italian-32"):
        times.clear()
        cpu.clear()
        BOTS["strong"] = TimedStrongBot
        try:
            duel(rules, ("strong", "basic"), hands=hands, seed=11)
        finally:
            BOTS["strong"] = StrongBot
        print(f"   {rules}: {load_average()} after its duel")
        for label, spent in (("wall", times), ("CPU", cpu)):
            ordered = sorted(spent)
            p50 = ordered[len(ordered) // 2] * 1000
            p99 = ordered[int(len(ordered) * 0.99)] * 1000
            print(
                f"   {rules:<16} {label:<4} {len(ordered):6} decisions   p50 {p50:5.1f} ms   "
                f"p99 {p99:5.1f} ms   max {ordered[-1] * 1000:6.1f} ms"
            )


_FIRST_DECISION = """
import json, sys, time
from mazziere.bots.base import BOTS
from mazziere.bots.strong import StrongBot, warm_up
from mazziere.duel import duel

rules, warm = sys.argv[1], sys.argv[2] == "warm"
spent = {}
if warm:
    start, start_cpu = time.perf_counter(), time.process_time()
    warm_up(rules, [2])
    spent["warm_up"] = (time.perf_counter() - start, time.process_time() - start_cpu)

class FirstTimed(StrongBot):
    def act(self, situation):
        start, start_cpu = time.perf_counter(), time.process_time()
        action = super().act(situation)
        took = (time.perf_counter() - start, time.process_time() - start_cpu)
        spent.setdefault("first", took)
        spent["slowest"] = max(spent.get("slowest", took), took)
        return action

BOTS["strong"] = FirstTimed
duel(rules, ("strong", "basic"), hands=2, seed=11)
print(json.dumps(spent))
"""


def first_decisions(repeats: int) -> None:
    """The strong bot's first decision in a new process, and the slowest of its first two
    hands (heads up, the duel's first deal played twice): cold, and after ``warm_up``;
    medians of ``repeats`` processes each."""
    import json
    import subprocess
    import sys

    print(
        f"5. the strong bot's first decision in a fresh process and the slowest of its first "
        f"two hands, cold and after warm_up (heads up; median of {repeats} processes; "
        f"{load_average()})"
    )
    for rules in ("holdem", "italian-classic", "italian-32"):
        runs: dict[str, list[dict[str, list[float]]]] = {"cold": [], "warm": []}
        for _ in range(repeats):
            for kind in ("cold", "warm"):  # alternated: the load falls on both alike
                done = subprocess.run(
                    [sys.executable, "-c", _FIRST_DECISION, rules, kind],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                runs[kind].append(json.loads(done.stdout.splitlines()[-1]))
        for kind in ("cold", "warm"):
            line = f"   {rules:<16} {kind}"
            for which in ("first", "slowest"):
                wall = statistics.median(r[which][0] for r in runs[kind]) * 1000
                cpu = statistics.median(r[which][1] for r in runs[kind]) * 1000
                line += f"  {which} wall {wall:6.1f} ms CPU {cpu:5.1f} ms"
            if kind == "warm":
                warm_wall = statistics.median(r["warm_up"][0] for r in runs[kind])
                warm_cpu = statistics.median(r["warm_up"][1] for r in runs[kind])
                line += f"   (warm_up: wall {warm_wall:.2f} s, CPU {warm_cpu:.2f} s)"
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds per figure (median kept)")
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a first look")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    exact_equity(args.repeats)
    monte_carlo(args.repeats, 200_000 if args.quick else 1_000_000)
    italian_draws(args.repeats, 20 if args.quick else 100)
    bot_decisions(100 if args.quick else 400)
    first_decisions(1 if args.quick else args.repeats)


if __name__ == "__main__":
    main()
