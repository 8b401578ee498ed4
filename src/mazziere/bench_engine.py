"""Hand-engine benchmark: random six-max hands in our engine and in peers, in the same run.

Each rule set with an engine registers a "random hand player" here: a
function ``play(hands, seed) -> actions`` that plays ``hands`` complete hands
with the seeded random policy below and returns how many player actions it
made.  Peers register the same way under the rule set they can play.  The
figure is hands per second, the median of several timings; the ratio is
ours over each peer's.

>>> play_holdem_hands(20, seed=1) > 20
True
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

from mazziere.game.core import ActionKind
from mazziere.game.holdem import HoldemHand

Echo = Callable[[str], Any]
RandomHandPlayer = Callable[[int, int], int]

RANDOM_HAND_PLAYERS: dict[str, str] = {
    "holdem": "mazziere.bench_engine:play_holdem_hands",
    "italian-classic": "mazziere.bench_italian:play_italian_classic_hands",
    "italian-32": "mazziere.bench_italian:play_italian_32_hands",
}
"""Rule set -> ``"module:function"`` of our random hand player (imported when used)."""

PEER_PLAYERS: dict[str, dict[str, str]] = {
    "holdem": {"pokerkit": "mazziere.bench_engine:play_pokerkit_hands"},
    # No library plays Italian poker: the yardstick is our own Hold'em engine.
    "italian-classic": {"holdem": "mazziere.bench_engine:play_holdem_hands"},
    "italian-32": {"holdem": "mazziere.bench_engine:play_holdem_hands"},
}
"""Rule set -> peer name -> ``"module:function"`` of that peer's random hand player."""

SEATS = 6
STACK = 200
BLINDS = (1, 2)

TABLES: dict[str, str] = {
    "italian-classic": "6 players (40 cards), stacks 200, invito 2",
    "italian-32": "5 players, stacks 200, buio 1 (controbuio 2, over 4)",
}
"""How the benchmark's table of a rule set is set up, when it is not the Hold'em one."""


class NoEngineError(ValueError):
    """No hand engine is registered for these rules yet."""


def _load(target: str) -> RandomHandPlayer:
    module, _, name = target.partition(":")
    player: RandomHandPlayer = getattr(importlib.import_module(module), name)
    return player


def decide(rng: random.Random, to_call: int, bounds: tuple[int, int] | None) -> tuple[str, int]:
    """The random policy: ``("fold", 0)``, ``("call", 0)`` (check or call) or ``("raise", to)``.

    A loose, passive random player, as at a low-stakes table: facing a bet it
    folds 10% and raises 10% (when allowed), otherwise calls; with nothing to
    call it bets 10%, otherwise checks.  A bet or raise is the minimum 70% of
    the time, otherwise uniform up to all-in.  Most hands reach a showdown.

    >>> decide(random.Random(1), 0, None)
    ('call', 0)
    """
    roll = rng.random()
    if to_call and roll < 0.1:
        return "fold", 0
    if bounds is not None and roll >= 0.9:
        low, high = bounds
        return "raise", low if rng.random() < 0.7 else rng.randint(low, high)
    return "call", 0


def play_holdem_hands(hands: int, seed: int) -> int:
    """Play ``hands`` six-max hands (200-chip stacks, blinds 1/2) with the random policy.

    The policy is :func:`decide`'s, written out in the loop (the same draws
    from the same generator, so the same decisions) so that the figure is the
    engine's cost, not the cost of calling the policy.
    """
    rng = random.Random(seed)
    draw, randint = rng.random, rng.randint
    actions = 0
    raise_kind, bet_kind = ActionKind.RAISE, ActionKind.BET
    stacks = [STACK] * SEATS
    for _ in range(hands):
        hand = HoldemHand(stacks, blinds=BLINDS, rng=rng)
        legal_actions = hand.legal_actions
        while hand.actor is not None:
            _, kinds, to_call, low, high = legal_actions()
            roll = draw()
            if to_call and roll < 0.1:
                hand.fold()
            elif roll >= 0.9 and (raise_kind in kinds or bet_kind in kinds):
                to = low if draw() < 0.7 else randint(low, high)
                hand.raise_to(to) if hand.current_bet else hand.bet(to)
            elif to_call:
                hand.call()
            else:
                hand.check()
            actions += 1
    return actions


def play_holdem_hands_with_decide(hands: int, seed: int) -> int:
    """The same hands played through :func:`decide` (a check of the loop above): the actions."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(hands):
        hand = HoldemHand([STACK] * SEATS, blinds=BLINDS, rng=rng)
        while hand.actor is not None:
            legal = hand.legal_actions()
            can_raise = ActionKind.RAISE in legal.kinds or ActionKind.BET in legal.kinds
            bounds = (legal.min_to, legal.max_to) if can_raise else None
            choice, to = decide(rng, legal.to_call, bounds)
            if choice == "fold":
                hand.fold()
            elif choice == "call":
                hand.call() if legal.to_call else hand.check()
            elif hand.current_bet:
                hand.raise_to(to)
            else:
                hand.bet(to)
            actions += 1
    return actions


def play_pokerkit_hands(hands: int, seed: int) -> int:
    """The same hands in pokerkit 0.7.7 (it deals and shows down by itself)."""
    import pokerkit

    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_DEALING,
        pokerkit.Automation.BOARD_DEALING,
        pokerkit.Automation.RUNOUT_COUNT_SELECTION,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    actions = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = pokerkit.NoLimitTexasHoldem.create_state(
                automations, True, 0, BLINDS, BLINDS[1], STACK, SEATS
            )
            while state.status:
                to_call = state.checking_or_calling_amount
                assert to_call is not None
                bounds = None
                if state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    assert low is not None and high is not None
                    bounds = (low, high)
                choice, to = decide(rng, to_call, bounds)
                if choice == "fold":
                    state.fold()
                elif choice == "call":
                    state.check_or_call()
                else:
                    state.complete_bet_or_raise_to(to)
                actions += 1
    return actions


def _shares(count: int, slices: int) -> list[int]:
    """``count`` hands cut into ``slices`` shares as even as can be.

    >>> _shares(25, 10)
    [3, 3, 3, 3, 3, 2, 2, 2, 2, 2]
    """
    whole, extra = divmod(count, slices)
    return [whole + (k < extra) for k in range(slices)]


def _timed(run: Callable[[], int]) -> tuple[float, int]:
    """CPU seconds ``run`` took, and its result (the actions played)."""
    start = time.process_time()
    actions = run()
    return time.process_time() - start, actions


SLICES = 10
"""Each timing is played in this many slices, the engines' slices interleaved."""


def run_engine_benchmark(
    *, rules: str, hands: int, peer_hands: int, repeats: int, seed: int, echo: Echo
) -> dict[str, float]:
    """Print and return hands/s of our engine and each peer for ``rules``, with ratios.

    The timings of all engines alternate, ``repeats`` rounds, and each figure
    is the median; time is CPU time of this process, so other jobs on the
    machine do not make one engine look slower than the other.  A round's
    timing of each engine is the sum of :data:`SLICES` slices (slice ``k``
    plays its share of the hands with seed ``seed + k``), the engines' slices
    interleaved: a shared machine's speed wanders within a second, and so
    both engines are timed over the same stretch of it.
    """
    target = RANDOM_HAND_PLAYERS.get(rules)
    if target is None:
        known = ", ".join(sorted(RANDOM_HAND_PLAYERS))
        raise NoEngineError(f"no hand engine for {rules!r} yet (engines: {known})")
    players: dict[str, tuple[RandomHandPlayer, int]] = {"mazziere": (_load(target), hands)}
    missing = []
    for name, peer_target in PEER_PLAYERS.get(rules, {}).items():
        try:
            players[name] = (_load(peer_target), peer_hands)
            players[name][0](1, seed)  # imports the peer now, outside the timings
        except ImportError:
            missing.append(name)
    table = TABLES.get(rules, f"{SEATS}-max, stacks {STACK}, blinds {BLINDS[0]}/{BLINDS[1]}")
    echo(
        f"{rules}: {table}, random policy "
        f"(seeds {seed}-{seed + SLICES - 1}); hands per CPU second, median of {repeats} "
        f"timings, each in {SLICES} slices alternating between the engines"
    )
    times: dict[str, list[float]] = {name: [] for name in players}
    actions: dict[str, int] = {}
    shares = {name: _shares(count, SLICES) for name, (_, count) in players.items()}
    for _ in range(repeats):
        spent = dict.fromkeys(players, 0.0)
        actions = dict.fromkeys(players, 0)
        for k in range(SLICES):
            for name, (play, _count) in players.items():
                share = shares[name][k]
                if share:
                    seconds, played = _timed(lambda play=play, n=share, s=seed + k: play(n, s))  # type: ignore[misc]
                    spent[name] += seconds
                    actions[name] += played
        for name in players:
            times[name].append(spent[name])
    figures = {name: players[name][1] / statistics.median(values) for name, values in times.items()}
    ours = figures["mazziere"]
    for name, rate in figures.items():
        count = players[name][1]
        line = (
            f"  {name:<10} {rate:10.1f} hands/s  ({count} hands, "
            f"{actions[name] / count:.1f} actions/hand)"
        )
        if name != "mazziere":
            line += f"   mazziere is {ours / rate:.2f}x"
        echo(line)
    for name in missing:
        echo(f"  {name:<10} not installed (pip install -e '.[bench]')")
    return figures
