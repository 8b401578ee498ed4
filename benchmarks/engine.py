"""Hand engine: random six-max hands in our engine and in pokerkit, in the same run.

Each rule set with an engine has a random hand player here: a function
``play(hands, seed, policy) -> actions`` that plays ``hands`` complete hands
with the seeded random :class:`~benchmarks.policy.Policy` and returns how
many player actions it made.  Peers are registered the same way under the
rule set they can play.  The figure is hands per CPU second, the median of
timings that alternate between the engines in slices; the ratio is ours over
each peer's.

>>> play_holdem_hands(20, 1, LOOSE) > 20
True
"""

from __future__ import annotations

import functools
import random
import warnings
from collections.abc import Callable, Sequence

from benchmarks.italian import play_italian_32_hands, play_italian_classic_hands
from benchmarks.policy import LOOSE, POLICIES, Policy, decide
from benchmarks.timing import Echo, alternating_medians, shares
from mazziere.game.core import ActionKind
from mazziere.game.holdem import HoldemHand

RandomHandPlayer = Callable[[int, int, Policy], int]

SEATS = 6
STACK = 200
BLINDS = (1, 2)
SLICES = 10
"""Each timing is played in this many slices (slice k with seed + k), the engines' interleaved."""


class NoEngineError(ValueError):
    """No hand engine is registered for these rules yet."""


def play_holdem_hands(hands: int, seed: int, policy: Policy) -> int:
    """Play ``hands`` six-max hands (200-chip stacks, blinds 1/2) with ``policy``.

    The policy is :func:`~benchmarks.policy.decide`'s, written out in the loop
    (the same draws from the same generator, so the same decisions) so that
    the figure is the engine's cost, not the cost of calling the policy.
    """
    rng = random.Random(seed)
    draw, randint = rng.random, rng.randint
    fold_below, raise_from, minimum = policy.fold_below, policy.raise_from, policy.minimum
    actions = 0
    raise_kind, bet_kind = ActionKind.RAISE, ActionKind.BET
    stacks = [STACK] * SEATS
    for _ in range(hands):
        hand = HoldemHand(stacks, blinds=BLINDS, rng=rng)
        legal_actions = hand.legal_actions
        while hand.actor is not None:
            _, kinds, to_call, low, high = legal_actions()
            roll = draw()
            if to_call and roll < fold_below:
                hand.fold()
            elif roll >= raise_from and (raise_kind in kinds or bet_kind in kinds):
                to = low if draw() < minimum else randint(low, high)
                hand.raise_to(to) if hand.current_bet else hand.bet(to)
            elif to_call:
                hand.call()
            else:
                hand.check()
            actions += 1
    return actions


def play_holdem_hands_with_decide(hands: int, seed: int, policy: Policy) -> int:
    """The same hands played through :func:`decide` (a check of the loop above): the actions."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(hands):
        hand = HoldemHand([STACK] * SEATS, blinds=BLINDS, rng=rng)
        while hand.actor is not None:
            legal = hand.legal_actions()
            can_raise = ActionKind.RAISE in legal.kinds or ActionKind.BET in legal.kinds
            bounds = (legal.min_to, legal.max_to) if can_raise else None
            choice, to = decide(rng, legal.to_call, bounds, policy)
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


def play_pokerkit_hands(hands: int, seed: int, policy: Policy) -> int:
    """The same kind of hands in pokerkit 0.7.7 (it deals and shows down by itself)."""
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
    create_state = pokerkit.NoLimitTexasHoldem.create_state
    rng = random.Random(seed)
    actions = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = create_state(automations, True, 0, BLINDS, BLINDS[1], STACK, SEATS)
            while state.status:
                to_call = state.checking_or_calling_amount
                assert to_call is not None
                bounds = None
                if state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    assert low is not None and high is not None
                    bounds = (low, high)
                choice, to = decide(rng, to_call, bounds, policy)
                if choice == "fold":
                    state.fold()
                elif choice == "call":
                    state.check_or_call()
                else:
                    state.complete_bet_or_raise_to(to)
                actions += 1
    return actions


RANDOM_HAND_PLAYERS: dict[str, RandomHandPlayer] = {
    "holdem": play_holdem_hands,
    "italian-classic": play_italian_classic_hands,
    "italian-32": play_italian_32_hands,
}
"""Rule set -> our random hand player."""

PEER_PLAYERS: dict[str, dict[str, RandomHandPlayer]] = {
    "holdem": {"pokerkit": play_pokerkit_hands},
    # No library plays Italian poker: the yardstick is our own Hold'em engine.
    "italian-classic": {"holdem": play_holdem_hands},
    "italian-32": {"holdem": play_holdem_hands},
}
"""Rule set -> peer name -> that peer's random hand player."""

TABLES: dict[str, str] = {
    "holdem": f"{SEATS}-max, stacks {STACK}, blinds {BLINDS[0]}/{BLINDS[1]}",
    "italian-classic": "6 players (40 cards), stacks 200, invito 2",
    "italian-32": "5 players, stacks 200, buio 1 (controbuio 2, over 4)",
}
"""How the benchmark's table of each rule set is set up."""


def run_engine_benchmark(
    *,
    rules: str,
    hands: int,
    peer_hands: int,
    repeats: int,
    seed: int,
    echo: Echo,
    policies: Sequence[Policy] = tuple(POLICIES.values()),
) -> dict[str, float]:
    """Print and return hands/s of our engine and each peer for ``rules``, by policy, with ratios.

    For each policy, the timings of all engines alternate, ``repeats``
    rounds, and each figure is the median; a round's timing of each engine
    is the sum of :data:`SLICES` slices (slice ``k`` plays its share of the
    hands with seed ``seed + k``), the engines' slices interleaved.  The
    figures' keys are ``"policy.engine"``.
    """
    ours = RANDOM_HAND_PLAYERS.get(rules)
    if ours is None:
        known = ", ".join(sorted(RANDOM_HAND_PLAYERS))
        raise NoEngineError(f"no hand engine for {rules!r} yet (engines: {known})")
    players: dict[str, tuple[RandomHandPlayer, int]] = {"mazziere": (ours, hands)}
    missing = []
    for name, peer in PEER_PLAYERS.get(rules, {}).items():
        try:
            peer(1, seed, LOOSE)  # imports the peer now, outside the timings
        except ImportError:
            missing.append(name)
            continue
        players[name] = (peer, peer_hands)
    echo(
        f"{rules}: {TABLES[rules]}; hands per CPU second, median of {repeats} timings, each in "
        f"{SLICES} slices alternating between the engines (seeds {seed}-{seed + SLICES - 1})"
    )
    figures: dict[str, float] = {}
    for policy in policies:
        runs = {
            name: [
                functools.partial(play, n, seed + k, policy)
                for k, n in enumerate(shares(count, SLICES))
            ]
            for name, (play, count) in players.items()
        }
        timings = alternating_medians(runs, repeats)
        rates = {name: players[name][1] / timing.seconds for name, timing in timings.items()}
        echo(f" policy {policy.name}: {policy.describe()}")
        for name, rate in rates.items():
            count = players[name][1]
            actions: int = sum(timings[name].results)
            line = (
                f"  {name:<10} {rate:10.1f} hands/s  "
                f"({count} hands, {actions / count:.1f} actions/hand)"
            )
            if name != "mazziere":
                line += f"   mazziere is {rates['mazziere'] / rate:.2f}x"
            echo(line)
            figures[f"{policy.name}.{name}"] = rate
    for name in missing:
        echo(f"  {name:<10} not installed (pip install -e '.[bench]')")
    return figures
