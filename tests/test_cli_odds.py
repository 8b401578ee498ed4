"""``mazziere odds``: the JSON scripts rely on, the tables, and one-line errors."""

from __future__ import annotations

import json

import pytest

from mazziere.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_holdem_json_has_each_players_equity_win_and_tie(capsys) -> None:
    code, out, err = run(capsys, "odds", "holdem", "AhKh", "QQ+", "--board", "Qc 7d 2h", "--json")
    assert code == 0 and err == "" and out.count("\n") == 1
    payload = json.loads(out)
    assert payload["method"] == "exact" and payload["boards"] == 9 * 990
    hero, villain = payload["players"]
    assert hero["hand"] == "AhKh" and villain["hand"] == "QQ+"
    assert hero["equity"] + villain["equity"] == pytest.approx(1.0)
    assert hero["equity"] == pytest.approx(hero["win"] + hero["tie"] / 2)
    assert set(hero) == {"hand", "equity", "win", "tie", "stderr"}


def test_two_known_hands_preflop_are_exact_and_ranges_sampled(capsys) -> None:
    code, out, _ = run(capsys, "odds", "holdem", "AhKh", "QsQd", "--json")
    assert code == 0 and json.loads(out)["method"] == "exact"
    code, out, _ = run(
        capsys, "odds", "holdem", "AhKh", "QQ+, AKs", "--trials", "20000", "--seed", "3", "--json"
    )
    payload = json.loads(out)
    assert payload["method"] == "monte-carlo" and payload["trials"] == 20_000
    assert 0 < payload["players"][0]["stderr"] < 0.01


def test_holdem_table(capsys) -> None:
    code, out, _ = run(capsys, "odds", "holdem", "AhKh", "QQ+", "--board", "Qc 7d 2h")
    assert code == 0
    assert "A♥ K♥" in out and "QQ+" in out and "9.83%" in out and "exact" in out


def test_italian_json_lists_all_31_draws_with_category_names(capsys) -> None:
    code, out, err = run(
        capsys, "odds", "italian-classic", "--players", "4", "J♥J♦9♣8♠7♠", "--json"
    )
    assert code == 0 and err == ""
    payload = json.loads(out)
    options = payload["options"]
    assert len(options) == 31
    assert options[0]["discard"] == ["9♣", "8♠", "7♠"]
    assert set(options[0]["categories"]) == {
        "straight_flush",
        "four_of_a_kind",
        "flush",
        "full_house",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    }
    assert options[0]["categories"]["pair"] == pytest.approx(0.5398, abs=1e-4)
    assert (
        sorted(len(o["discard"]) for o in options) == [0] + [1] * 5 + [2] * 10 + [3] * 10 + [4] * 5
    )


def test_italian_table_ranks_by_the_chance_to_beat_a_hand(capsys) -> None:
    code, out, _ = run(
        capsys, "odds", "italian-32", "K♥Q♥J♥10♥9♦", "--beat", "A♣A♦A♠7♣7♦", "--top", "3"
    )
    assert code == 0
    assert "beat the hand" in out and "18.2%" in out
    code, out, _ = run(capsys, "odds", "italian-32", "J♥J♦9♣8♠7♠", "--opener", "K", "--json")
    assert code == 0 and "beats_opener" in json.loads(out)["options"][0]


def test_italian_odds_against_the_opener_after_their_draw(capsys) -> None:
    args = ["odds", "italian-classic", "--players", "4", "J♥J♦9♣8♠7♠", "--opener", "J"]
    code, out, _ = run(capsys, *args, "--opener-drew", "3", "--json")
    assert code == 0
    best = json.loads(out)["options"][0]
    assert best["discard"] == ["9♣", "8♠", "7♠"]
    assert best["beats_opener_after_draw"] == pytest.approx(0.325, abs=5e-4)
    code, out, _ = run(capsys, *args, "--opener-drew", "3", "--top", "2")
    assert code == 0 and "beat opener (drew 3)" in out and "32.5%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["holdem", "AhKh", "AhQd"], "card Ah is used twice"),
        (["holdem", "AhKh", "QQx"], "cannot read 'QQx'"),
        (["holdem", "AhKh", "Zz9"], "cannot read"),
        (["holdem", "AhKh"], "at least two players"),
        (["holdem", "AhKh", "QQ", "--board", "2c 2c 3d"], "duplicate card"),
        (["italian-classic", "--players", "4", "J♥J♦9♣8♠6♠"], "not in the 32-card deck"),
        (["italian-32", "J♥J♦9♣8♠"], "5 cards"),
        (["italian-32", "J♥J♦9♣8♠7♠", "--opener", "X"], "--opener"),
        (["italian-32", "J♥J♦9♣8♠7♠", "--opener-drew", "3"], "--opener-drew needs --opener"),
        (
            [
                "italian-classic",
                "--players",
                "4",
                "J♥J♦9♣8♠7♠",
                "--opener",
                "J",
                "--opener-drew",
                "5",
            ],
            "is a number of cards from 0 to 4 (the most a player may change)",
        ),
        (
            [
                "italian-classic",
                "A♣K♦Q♠9♥7♣",
                "--players",
                "4",
                "--opener",
                "J",
                "--opener-drew",
                "4",
            ],
            "changes 4 cards",
        ),
        (["poker", "AhKh", "QQ"], "unknown rules 'poker'"),
        (["holdem", "AhKh", "QQ", "--method", "guess"], "--method"),
        (["italian-classic", "J♥J♦9♣8♠7♠"], "italian-classic: give --players"),
        (
            [
                "italian-classic",
                "--players",
                "4",
                "J♥J♦9♣8♠7♠",
                "--dead",
                "7h 7d 7c 8h 8d 8c 9h 9d 9s Th Td Tc Ts Jc Js Qh Qd Qc Qs Kh Kd Kc Ks Ah Ad",
            ],
            "too few cards left for the draw: 4 needed, only 2 of the 32-card deck not dead",
        ),
        (
            [
                "holdem",
                "AhKh",
                "QsQd",
                "--dead",
                " ".join(f"{r}{s}" for r in "23456789TJ" for s in "cdhs") + " Kc Kd Ks Qc Qh",
            ],
            "too few cards left for the board: 5 needed, only 3 not dead",
        ),
        # Bounded by --seconds: without the cap, these would sample for that long and pass.
        (
            ["holdem", "AhKh", "QsQd", "--trials", "99999999999999999999999", "--seconds", "0.1"],
            "--trials must be 1 to 100000000, not 99999999999999999999999",
        ),
        (["holdem", "AhKh", "QsQd", "--trials", "100000001", "--seconds", "0.1"], "--trials"),
        (["holdem", "AhKh", "QsQd", "--trials", "0"], "--trials must be 1 to 100000000, not 0"),
        (["holdem", "AhKh", "QsQd", "--seconds", "0"], "--seconds must be positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(capsys, args, message) -> None:
    code, out, err = run(capsys, "odds", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
