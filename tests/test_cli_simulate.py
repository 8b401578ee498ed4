"""``mazziere simulate``: bots offline, a summary table; bad input is one line, exit 2."""

from __future__ import annotations

import pytest

from mazziere.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cash_session_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--rules", "italian-32", "--players", "4", "--hands", "60", "--seed", "3"
    )
    assert code == 0
    assert "cash game" in out and "hands/s" in out and "showdowns" in out
    assert "chips won" in out and "bot1" in out
    assert "│ hands      │    60 │" in out
    assert "│ ledger sum │     0 │" in out


def test_tournaments_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "--rules",
        "holdem",
        "--tournament",
        "--players",
        "6",
        "--tournaments",
        "2",
        "--seed",
        "1",
    )
    assert code == 0
    assert "tournaments" in out and "prizes won" in out and "ledger sum" in out


def test_same_seed_same_result(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--rules", "italian-classic", "--players", "3", "--hands", "40", "--seed", "9")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    strip = [line for line in first.splitlines() if "hands/s" not in line]
    assert strip == [line for line in second.splitlines() if "hands/s" not in line]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "holdem", "--players", "12"), "holdem deals 2 to 9 players, not 12"),
        (("--rules", "italian-32", "--players", "6"), "italian-32 deals 2 to 5 players, not 6"),
        (
            (
                "--rules",
                "omaha",
            ),
            "unknown rules 'omaha'",
        ),
        (
            (
                "--hands",
                "0",
            ),
            "--hands must be 1 to",
        ),
        (
            (
                "--bots",
                "genius",
            ),
            "unknown bot 'genius'",
        ),
        (("--tournament", "--players", "1"), "a tournament needs 2 to 1000 players"),
        (
            (
                "--players",
                "many",
            ),
            "Invalid value",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mazziere: error: ")
    assert message in err


def test_the_summary_says_when_churn_changes_the_table() -> None:
    from tests.tui_helpers import run_cli

    args = ["simulate", "--players", "5", "--hands", "300", "--seed", "1"]
    churned = run_cli(*args)
    assert churned.returncode == 0, churned.stderr
    # More bots than seats and timeouts: the summary says why.
    assert "churn" in churned.stdout and "--no-churn" in churned.stdout
    quiet = run_cli(*args, "--no-churn")
    assert quiet.returncode == 0, quiet.stderr
    assert "--no-churn" not in quiet.stdout
    assert quiet.stdout.count("basic") + quiet.stdout.count("random") == 5
