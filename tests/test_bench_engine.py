"""`mazziere bench engine`: a short run prints both engines and the ratio; no engine, one line."""

from __future__ import annotations

import dataclasses

import pytest

from mazziere.bench_engine import (
    play_holdem_hands,
    play_holdem_hands_with_decide,
    play_pokerkit_hands,
)
from mazziere.cli import main
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
