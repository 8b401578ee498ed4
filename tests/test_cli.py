"""The ``mazziere`` command line."""

import json
import subprocess
import sys

import pytest

from mazziere.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_json_golden(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "compare",
        "--rules",
        "italian-classic",
        "--players",
        "4",
        "K♥Q♥10♥9♥8♥",
        "A♠K♠J♠9♠8♠",
        "A♣A♥A♦K♣K♦",
        "--json",
    )
    assert code == 0 and err == ""
    payload = json.loads(out)
    assert payload == {
        "rules": "italian-classic",
        "players": 4,
        "order": [[0], [1], [2]],
        "hands": [
            {
                "cards": "Kh Qh Th 9h 8h",
                "category": "flush",
                "name_it": "colore",
                "best": "Kh Qh Th 9h 8h",
            },
            {
                "cards": "As Ks Js 9s 8s",
                "category": "flush",
                "name_it": "colore",
                "best": "As Ks Js 9s 8s",
            },
            {
                "cards": "Ac Ah Ad Kc Kd",
                "category": "full_house",
                "name_it": "full",
                "best": "Ah Ad Ac Kd Kc",
            },
        ],
    }
    assert out.count("\n") == 1


def test_compare_json_ties_share_a_group(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "compare", "--board", "Qc Jd Ts 2h 3c", "Ah Kh", "As Kd", "2d 2s", "--json"
    )
    payload = json.loads(out)
    assert code == 0
    assert payload["rules"] == "holdem" and payload["players"] is None
    assert payload["order"] == [[0, 1], [2]]
    assert payload["hands"][0]["best"] == "Ah Kh Qc Jd Ts"
    assert payload["hands"][2]["category"] == "three_of_a_kind"


def test_compare_italian_32_and_players_default(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "compare", "-r", "italian-32", "K♥Q♥10♥9♥8♥", "A♠K♠J♠9♠8♠", "--json")
    assert json.loads(out)["order"] == [[1], [0]]
    # italian-classic without --players: the deck of as many players as hands.
    # With 3 players the deck runs 8 to A, so A-8-9-10-J is the minima.
    hands = ["A♣8♠9♦10♣J♥", "K♥K♠K♦Q♣J♠", "Q♥Q♠Q♦J♣9♠"]
    _, out, _ = run(capsys, "compare", "-r", "italian-classic", *hands, "--json")
    payload = json.loads(out)
    assert payload["players"] == 3
    assert payload["hands"][0]["category"] == "straight"
    assert payload["hands"][0]["best"] == "Jh Tc 9d 8s Ac"
    _, out, _ = run(capsys, "compare", "-r", "italian-classic", "--players", "4", *hands, "--json")
    assert json.loads(out)["hands"][0]["category"] == "high_card"


def test_compare_cycle_is_peeled_not_sorted(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys,
        "compare",
        "-r",
        "italian-classic",
        "-p" if False else "--players",
        "4",
        "A♠7♠8♠9♠10♠",
        "A♥K♥Q♥J♥10♥",
        "K♦Q♦J♦10♦9♦",
        "--json",
    )
    # All three classes: the massima wins; then minima vs media: media.
    assert json.loads(out)["order"] == [[1], [2], [0]]


def test_compare_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "-r", "italian-32", "J♥J♦A♣9♠8♠", "J♣J♠A♦9♥8♥")
    assert code == 0
    lines = out.splitlines()
    assert "#1" in lines[1] and "pair (coppia)" in lines[1]
    assert "#0" in lines[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "Ah Kh Qh Jh Xx"], "'Xx'"),
        (["compare", "-r", "italian-32", "Ah Kh Qh Jh 6h", "Ad Kd Qd Jd 9d"], "'6h'"),
        (["compare", "Ah Kh Qh Jh Th", "Ah Kd Qd Jd 9d"], "duplicate card 'Ah'"),
        (["compare", "-r", "omaha", "Ah Kh Qh Jh Th"], "unknown rules 'omaha'"),
        (["compare", "-r", "italian-32", "Ah Kh Qh Jh"], "exactly 5 cards"),
        (
            ["compare", "-r", "italian-classic", "--players", "9", "Ah Kh Qh Jh Th"],
            "2 to 6 players",
        ),
        (["compare", "-r", "italian-32", "--board", "2c 3c 4c", "Ah Kh Qh Jh Th"], "no board"),
        (["compare", "--players", "x", "Ah Kh Qh Jh Th"], "'--players'"),
        (["compare"], "Missing argument"),
        (["frobnicate"], "No such command"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["demo"],
        ["odds", "holdem", "AhKh", "QsQd", "--method", "monte-carlo", "--trials", "100"],
        ["duel", "--hands", "2"],
        ["simulate", "--hands", "1"],
        ["play", "--players", "1"],  # refused for the seed before the players are looked at
    ],
)
def test_a_negative_seed_is_refused_by_every_command(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    # random.Random(-1) deals what random.Random(1) deals: not a game of its own.
    code, out, err = run(capsys, *args, "--seed", "-1")
    assert code == 2 and out == ""
    assert err == (
        "mazziere: error: Invalid value for '--seed': a seed is a whole number from 0, not -1\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "-r", "omaha", "Ah Kh Qh Jh Th"],
        ["odds", "omaha", "AhKh", "QQ"],
        ["duel", "--rules", "omaha"],
        ["simulate", "--rules", "omaha"],
        ["play", "--rules", "omaha"],
        ["play", "--connect", "http://127.0.0.1:9", "--rules", "omaha"],  # before any request
    ],
)
def test_an_unknown_rule_set_is_told_in_the_same_words_by_every_command(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert (
        err
        == "mazziere: error: unknown rules 'omaha' (known: holdem, italian-32, italian-classic)\n"
    )


def test_the_sittings_hands_are_counted_in_words_that_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pathlib import Path

    from mazziere.cli import _say_saved
    from mazziere.tui.words import Words

    folder = Path("hands")
    for lang, one, two in [
        ("it", "1 mano salvata in PHH nella cartella hands", "2 mani salvate in PHH"),
        ("en", "1 hand saved as PHH in the folder hands", "2 hands saved as PHH"),
    ]:
        _say_saved(Words(lang), folder, 1)
        _say_saved(Words(lang), folder, 2)
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == one and lines[1].startswith(two)


def test_demo_deals_each_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--seed", "3")
    assert code == 0
    assert out.count("<- wins") >= 3
    for title in ("Poker all'italiana (classic", "32 cards", "Texas Hold'em"):
        assert title in out


def test_console_script_runs_in_a_subprocess() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mazziere.cli", "compare", "Ah Kh", "--board", "Xx"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "mazziere: error: unknown card 'Xx'"
