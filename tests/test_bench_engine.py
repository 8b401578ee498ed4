"""`mazziere bench engine`: a short run prints both engines and the ratio; no engine, one line."""

from __future__ import annotations

import dataclasses
import random

import pytest

from mazziere.bench_engine import (
    decide,
    play_holdem_hands,
    play_holdem_hands_with_decide,
    play_pokerkit_hands,
)
from mazziere.bench_italian import SETUPS, play_italian_hands
from mazziere.cli import main
from mazziere.game.core import ActionKind, Phase
from mazziere.game.italian import ItalianHand
from mazziere.rules import ITALIAN_32, register_rules, unregister_rules


def test_short_run_prints_ours_pokerkit_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "engine", "--hands", "100", "--peer-hands", "10", "--repeats", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("holdem: 6-max")
    assert "mazziere" in lines[1] and "hands/s" in lines[1]
    assert "pokerkit" in lines[2] and "mazziere is" in lines[2]


def test_rules_without_an_engine_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    house = register_rules(dataclasses.replace(ITALIAN_32, name="house-no-engine"))
    try:
        code = main(["bench", "engine", "--rules", house.name])
    finally:
        unregister_rules(house.name)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("mazziere: error: no hand engine for 'house-no-engine' yet (engines: ")
    assert err.count("\n") == 1


def test_bad_counts_and_unknown_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--hands", "5"]) == 2
    assert main(["bench", "engine", "--rules", "omaha"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2


def test_the_random_players_play_whole_hands() -> None:
    assert play_holdem_hands(50, seed=3) > 50 * 5
    assert play_pokerkit_hands(5, seed=3) > 5 * 5
    assert play_holdem_hands(50, seed=3) == play_holdem_hands(50, seed=3)  # seeded


def test_the_inlined_policy_is_decide() -> None:
    # The same generator draws give the same decisions: any difference would
    # change the draws that follow, and with them the count of actions.
    for seed in (1, 2, 3):
        assert play_holdem_hands(200, seed) == play_holdem_hands_with_decide(200, seed)


def _italian_hands_with_decide(rules: str, hands: int, seed: int) -> int:
    """The Italian driver's hands, its policy asked of decide() (the reference)."""
    setup = SETUPS[rules]
    rng = random.Random(seed)
    actions = 0
    for _ in range(hands):
        stacks = [setup["stack"]] * setup["players"]  # type: ignore[operator]
        hand = ItalianHand(rules, stacks, rng=rng, **setup["stakes"])  # type: ignore[arg-type]
        while (actor := hand.actor) is not None:
            actions += 1
            if hand.phase is Phase.DRAW:
                hand.draw(hand.hole[actor][: rng.randrange(5)])  # type: ignore[arg-type]
                continue
            legal = hand.legal_actions()
            if ActionKind.PAROL in legal.kinds and rng.random() < 1 / 3:
                hand.parol()
                continue
            can_raise = ActionKind.RAISE in legal.kinds or ActionKind.BET in legal.kinds
            bounds = (legal.min_to, legal.max_to) if can_raise else None
            choice, to = decide(rng, legal.to_call, bounds)
            if choice == "fold" and hand.phase is Phase.BETTING:
                hand.fold()
            elif choice in ("call", "fold"):
                hand.call() if legal.to_call else hand.check()
            elif ActionKind.RAISE in legal.kinds:
                hand.raise_to(to)
            else:
                hand.bet(to)
    return actions


def test_the_italian_driver_plays_decide() -> None:
    for rules in ("italian-classic", "italian-32"):
        for seed in (1, 2):
            assert play_italian_hands(rules, 200, seed) == _italian_hands_with_decide(
                rules, 200, seed
            )
