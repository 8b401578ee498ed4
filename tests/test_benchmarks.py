"""The benchmarks run on tiny sizes and print their figures as ratios (no time is asserted)."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from benchmarks.__main__ import main
from benchmarks.engine import (
    play_holdem_hands,
    play_holdem_hands_with_decide,
    play_pokerkit_hands,
)
from benchmarks.italian import TABLES, play_italian_hands
from benchmarks.policy import LOOSE, POLICIES, TIGHT, Policy, decide
from benchmarks.startup import _environment, commands
from mazziere.game.core import ActionKind, Phase
from mazziere.game.italian import ItalianHand
from mazziere.rules import ITALIAN_32, register_rules, unregister_rules


def test_engine_prints_ours_pokerkit_and_the_ratio_for_each_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["engine", "--hands", "20", "--peer-hands", "10", "--repeats", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("holdem: 6-max, stacks 200, blinds 1/2; hands per CPU second")
    assert [line.split(":")[0] for line in lines[1::3]] == [" policy loose", " policy tight"]
    for ours, peer in ((lines[2], lines[3]), (lines[5], lines[6])):
        assert ours.split()[0] == "mazziere" and "hands/s" in ours
        assert peer.split()[0] == "pokerkit" and "mazziere is" in peer and peer.endswith("x")
    assert len(lines) == 7


def test_the_italian_engine_is_timed_against_our_holdem(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            *("engine", "-r", "italian-32", "--policy", "tight"),
            *("--hands", "10", "--peer-hands", "10", "--repeats", "1"),
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].startswith("italian-32: 5 players")
    assert lines[1].startswith(" policy tight:")
    assert lines[3].split()[0] == "holdem" and "mazziere is" in lines[3]


def test_rules_without_an_engine_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    house = register_rules(dataclasses.replace(ITALIAN_32, name="house-no-engine"))
    try:
        code = main(["engine", "--rules", house.name])
    finally:
        unregister_rules(house.name)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(
        "python -m benchmarks: error: no hand engine for 'house-no-engine' yet (engines: "
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["engine", "--hands", "5"],
        ["engine", "--rules", "omaha"],
        ["engine", "--policy", "wild"],
        ["eval", "--hands", "10"],
        ["startup", "--runs", "0"],
        ["startup", "--against", "/nowhere"],
        ["rebuild", "--rules", "omaha"],
        ["rebuild", "--hands", "0"],
        ["rebuild", "--checkpoint-hands", "0"],
        ["restart", "--hands", "0"],
        ["restart", "--rules", "omaha"],
    ],
)
def test_bad_input_is_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("python -m benchmarks: error: ") and err.count("\n") == 1


def test_eval_prints_every_evaluator_with_its_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--hands", "200", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    sections = out.split("\n\n")
    assert sections[0].startswith("hand evaluation: 200 random hands per timing")
    for section, title in zip(sections[1:3], ("Hold'em 7 cards", "Hold'em 5 cards"), strict=True):
        lines = section.splitlines()
        assert lines[0].startswith(title)
        assert lines[1].split()[0] == "mazziere"
        # every peer is timed with its ratio, or said to be missing (the bench extra)
        peers = {line.split("  ")[1].strip(): line for line in lines[2:]}
        assert set(peers) == {"eval7", "treys", "phevaluator", "phevaluator C", "pokerkit"}
        for line in peers.values():
            assert "mazziere is" in line or "not installed" in line
        assert "mazziere is" in peers["pokerkit"] and "mazziere is" in peers["treys"]
    assert "italian-32 (32 cards): no peer evaluates Italian poker" in out
    assert out.count("batch (evaluate_batch)") == 3


def test_phevaluator_calls_prints_each_way_with_its_ratio() -> None:
    pytest.importorskip("phevaluator", reason="phevaluator is a peer of the bench extra only")
    from benchmarks.phevaluator_calls import run

    lines: list[str] = []
    rates = run(hands=100, repeats=1, seed=1, echo=lines.append)
    assert len(rates) == 5 and lines[0].startswith("phevaluator's calls: 100 random")
    assert lines[1].split()[0] == "mazziere"
    assert all("mazziere is" in line for line in lines[2:]) and len(lines) == 6


@pytest.mark.parametrize("rules", ["holdem", "italian-classic"])
def test_rebuild_times_the_replay_of_the_hands_played(
    rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["rebuild", "--rules", rules, "--hands", "30", "--repeats", "2"]
    assert main([*command, "--checkpoint-hands", "20"]) == 0
    line, quick = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{rules}: a table of 30 hands (")
    assert "rebuilds in" in line and "(median of 2)" in line and " ms a hand, " in line
    assert quick.startswith(f"{rules}: from its latest checkpoint (one every 20 hands; ")
    assert "commands after it) in " in quick and "kB, written in " in quick


def test_restart_times_a_room_coming_back_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["restart", "--hands", "12", "--repeats", "1"]) == 0
    quick, whole = capsys.readouterr().out.splitlines()
    for line in (quick, whole):
        assert line.startswith("holdem: a room over a table of 12 hands (")
        assert "s after its launch" in line and "; median of 1)" in line
    assert "with no checkpoint yet (from the first)" in quick  # 12 hands: none written
    assert "reading no checkpoint (from the first)" in whole


def test_startup_times_each_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["startup", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("start-up: each command in a fresh process, median of 1 runs")
    timed = [line.split("CPU")[0].strip() for line in lines if " CPU " in line and " wall " in line]
    assert timed == list(commands())
    assert lines[-2].startswith(" `mazziere --help`, top-level imports (-X importtime")
    assert "mazziere.cli" in lines[-2].split(":", 1)[1]
    assert lines[-1].startswith(" `mazziere --help`, imports of mazziere.cli (-X importtime")
    assert "typer" in lines[-1].split(":", 1)[1]


def test_startup_against_another_checkout_puts_its_src_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", "elsewhere")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = _environment("/other/src")
    assert env["PYTHONPATH"] == os.pathsep.join(["/other/src", "elsewhere"])
    assert "PYTHONDONTWRITEBYTECODE" not in env  # the children use the bytecode cache
    assert _environment(None)["PYTHONPATH"] == "elsewhere"


def test_the_random_players_play_whole_hands() -> None:
    for policy in POLICIES.values():
        assert play_holdem_hands(50, 3, policy) > 50 * 2
        assert play_pokerkit_hands(5, 3, policy) > 5 * 2
        assert play_holdem_hands(50, 3, policy) == play_holdem_hands(50, 3, policy)  # seeded
    # The tight player folds more: fewer actions a hand.
    assert play_holdem_hands(200, 1, TIGHT) < 0.8 * play_holdem_hands(200, 1, LOOSE)


@pytest.mark.parametrize("policy", POLICIES.values(), ids=lambda p: p.name)
def test_the_inlined_policy_is_decide(policy: Policy) -> None:
    # The same generator draws give the same decisions: any difference would
    # change the draws that follow, and with them the count of actions.
    for seed in (1, 2, 3):
        assert play_holdem_hands(200, seed, policy) == play_holdem_hands_with_decide(
            200, seed, policy
        )


def _italian_hands_with_decide(rules: str, hands: int, seed: int, policy: Policy) -> int:
    """The Italian driver's hands, its policy asked of decide() (the reference)."""
    table = TABLES[rules]
    rng = random.Random(seed)
    actions = 0
    for _ in range(hands):
        hand = ItalianHand(rules, [table.stack] * table.players, rng=rng, **table.stakes)  # type: ignore[arg-type]
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
            choice, to = decide(rng, legal.to_call, bounds, policy)
            if choice == "fold" and hand.phase is Phase.BETTING:
                hand.fold()
            elif choice in ("call", "fold"):
                hand.call() if legal.to_call else hand.check()
            elif ActionKind.RAISE in legal.kinds:
                hand.raise_to(to)
            else:
                hand.bet(to)
    return actions


@pytest.mark.parametrize("policy", POLICIES.values(), ids=lambda p: p.name)
def test_the_italian_driver_plays_decide(policy: Policy) -> None:
    for rules in ("italian-classic", "italian-32"):
        for seed in (1, 2):
            assert play_italian_hands(rules, 200, seed, policy) == _italian_hands_with_decide(
                rules, 200, seed, policy
            )
