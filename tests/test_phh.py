"""PHH: exact reading and writing, replaying (the handhq sample), errors, `mazziere replay`."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.cli import main
from mazziere.game.holdem import HoldemHand
from mazziere.history.holdem import to_phh
from mazziere.history.phh import (
    PHHError,
    PhhHand,
    dumps,
    dumps_many,
    format_amount,
    loads,
    loads_many,
)
from mazziere.history.replay import Outcome, register_variant, replay_hand, replay_text

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "handhq-sample.phhs"
EXPECTED = DATA / "handhq-sample.expected.json"


def nt(actions: list[str], **fields: object) -> PhhHand:
    base: dict[str, object] = {
        "variant": "NT",
        "antes": [0, 0, 0],
        "blinds_or_straddles": [1, 2, 0],
        "min_bet": 2,
        "starting_stacks": [100, 100, 100],
    }
    base.update(fields)
    base["actions"] = actions
    return PhhHand(base)


# -------------------------------------------------------------- the sample


def test_every_sample_hand_replays_to_the_expected_stacks_and_payoffs() -> None:
    expected = json.loads(EXPECTED.read_text())
    outcomes = replay_text(SAMPLE.read_text())
    assert len(outcomes) == len(expected) == 246
    for outcome, record in zip(outcomes, expected, strict=True):
        result = outcome.to_dict()
        assert result["error"] is None, (record["section"], result["error"])
        assert result["finishing_stacks"] == record["finishing_stacks"], record["section"]
        assert result["payoffs"] == record["payoffs"], record["section"]


def test_sample_file_writes_back_byte_for_byte() -> None:
    text = SAMPLE.read_text()
    sections = loads_many(text)
    assert all(s.hand is not None for s in sections)
    hands = [s.hand for s in sections if s.hand is not None]
    assert dumps_many(hands, numbers=[s.number or 0 for s in sections]) == text
    # and a single hand, read from its own text, too
    for hand in hands[:20]:
        assert loads(dumps(hand)) == hand


def test_amounts_are_decimals_never_floats() -> None:
    hand = loads_many(SAMPLE.read_text())[0].hand
    assert hand is not None
    assert hand["starting_stacks"] == [Decimal("200.30"), Decimal("81.60"), 197]
    assert all(not isinstance(v, float) for v in hand["blinds_or_straddles"])


def test_writing_keeps_types_and_quotes() -> None:
    hand = PhhHand(
        {
            "variant": "NT",
            "table": "AMY'S AVE",
            "note": 'say "hi"\n',
            "stacks": [Decimal("Infinity"), Decimal("1.50"), 3],
            "flag": False,
        }
    )
    text = dumps(hand)
    assert "table = '''AMY'S AVE'''" in text
    assert 'note = "say \\"hi\\"\\n"' in text
    assert "stacks = [inf, 1.50, 3]" in text
    assert loads(text) == hand
    with pytest.raises(PHHError, match="float"):
        dumps({"x": 0.5})


def test_format_amount() -> None:
    assert format_amount(Decimal("1")) == "1.00"
    assert format_amount(Decimal("-0.5")) == "-0.50"
    assert format_amount(Decimal("0.005")) == "0.005"
    assert format_amount(Decimal("-Infinity")) == "-inf"


def test_a_broken_section_does_not_stop_the_others() -> None:
    text = "[1]\nvariant = 'NT'\n\n[2]\nvariant = = broken\n\n[3]\nvariant = 'NT'\n"
    sections = loads_many(text)
    assert [s.number for s in sections] == [1, 2, 3]
    assert sections[1].hand is None and sections[1].error is not None
    assert sections[0].hand is not None and sections[2].hand is not None


# -------------------------------------------------------------- replay rules


def test_heads_up_blinds_are_reversed() -> None:
    hand = nt(
        ["d dh p1 ????", "d dh p2 ????", "p2 f"],
        antes=[0, 0],
        blinds_or_straddles=[1, 2],
        starting_stacks=[50, 50],
    )
    outcome = replay_hand(hand)
    assert outcome.payoffs == (Decimal(1), Decimal(-1))  # p2 (button) posted the small blind


def test_negative_blind_is_posted_but_does_not_open() -> None:
    # p4 posts 2 (a returning player's post) yet the first to act is p3.
    hand = nt(
        [
            "d dh p1 ????",
            "d dh p2 ????",
            "d dh p3 ????",
            "d dh p4 ????",
            "d dh p5 ????",
            "p3 f",
            "p4 cc",
            "p5 f",
            "p1 f",
            "p2 cc",
        ],
        antes=[0] * 5,
        blinds_or_straddles=[1, 2, 0, -2, 0],
        starting_stacks=[100] * 5,
    )
    outcome = replay_hand(hand)
    assert outcome.error == "incomplete: the actions stop before the hand ends"
    # p4 had already posted 2: calling added nothing, so the check round continues
    hand = hand.replace(actions=[*hand["actions"], "d db 2c3d4h", "p2 cc", "p4 cbr 10", "p2 f"])
    outcome = replay_hand(hand)
    assert outcome.error is None, outcome.error
    assert outcome.payoffs == (Decimal(-1), Decimal(-2), 0, Decimal(3), 0)


def test_infinite_stacks_finish_as_inf_with_exact_payoffs() -> None:
    hand = nt(
        ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cbr 6.5", "p1 f", "p2 f"],
        starting_stacks=[Decimal("Infinity")] * 3,
        blinds_or_straddles=[Decimal("0.5"), 1, 0],
        min_bet=1,
    )
    result = replay_hand(hand).to_dict()
    assert result == {
        "finishing_stacks": ["inf", "inf", "inf"],
        "payoffs": ["-0.50", "-1.00", "1.50"],
        "error": None,
    }


def test_unknown_cards_at_a_showdown_are_an_error_never_a_guess() -> None:
    actions = [
        "d dh p1 ????",
        "d dh p2 ????",
        "d dh p3 AhAd",
        "p3 cbr 100",
        "p1 cc",
        "p2 f",
        "d db 2c3d4h",
        "d db 9s",
        "d db Ks",
    ]
    outcome = replay_hand(nt(actions))
    assert outcome.error is not None and "unknown" in outcome.error
    shown = replay_hand(nt([*actions, "p1 sm 7h7s"]))
    assert shown.error is None
    assert shown.payoffs == (Decimal(-100), Decimal(-2), Decimal(102))


def test_a_showdown_muck_forfeits() -> None:
    actions = [
        "d dh p1 ????",
        "d dh p2 ????",
        "d dh p3 ????",
        "p3 cc",
        "p1 cc",
        "p2 cc",
        "d db 2c3d4h",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db 9s",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db Ks",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "p1 sm AhKh",
        "p2 sm",
        "p3 sm",
    ]
    outcome = replay_hand(nt(actions))
    assert outcome.error is None
    assert outcome.payoffs == (Decimal(4), Decimal(-2), Decimal(-2))


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        (["d dh p1 ????", "p2 f"], "turn"),
        (["d dh p1 ????", "p3 cbr 3"], "at least 4"),
        (["d dh p1 ????", "p3 sd"], "not an action"),
        (["d dh p1 AhAh"], "twice"),
        (["d dh p1 Xx"], "bad cards"),
        (["d dh p7 ????"], "no player"),
        (["p3 cc", "p1 cc", "d db 2c3c4c"], "before the betting round ended"),
    ],
)
def test_replay_errors_are_precise(actions: list[str], error: str) -> None:
    outcome = replay_hand(nt(actions))
    assert outcome.error is not None and error in outcome.error


def test_bad_fields_are_errors() -> None:
    assert "missing field" in (replay_hand(PhhHand({"variant": "NT"})).error or "")
    bad = nt([], antes=[0, 0])
    assert "one per player" in (replay_hand(bad).error or "")
    assert "cannot be replayed" in (replay_hand(nt([], variant="PO")).error or "")


def test_a_variant_can_be_registered() -> None:
    register_variant("ZZ", lambda hand: Outcome((Decimal(1),), (Decimal(0),)))
    try:
        assert replay_hand(PhhHand({"variant": "ZZ"})).payoffs == (Decimal(0),)
    finally:
        from mazziere.history.replay import VARIANTS

        del VARIANTS["ZZ"]


def test_our_hands_written_as_phh_replay_to_the_same_result() -> None:
    rng = random.Random(8)
    for _ in range(200):
        n = rng.randint(2, 9)
        stacks = [rng.randint(1, 300) for _ in range(n)]
        game = HoldemHand(stacks, blinds=(1, 2), ante=rng.choice([0, 1]), rng=rng)
        while game.actor is not None:
            legal = game.legal_actions()
            if "raise" in legal.kinds and rng.random() < 0.2:
                game.raise_to(rng.randint(legal.min_to, legal.max_to))
            elif "bet" in legal.kinds and rng.random() < 0.2:
                game.bet(rng.randint(legal.min_to, legal.max_to))
            elif legal.to_call and rng.random() < 0.2:
                game.fold()
            else:
                game.call() if legal.to_call else game.check()
        assert game.result is not None
        history = to_phh(game, unit=Decimal("0.01"))
        text = dumps(history)
        outcome = replay_hand(loads(text))
        assert outcome.error is None, outcome.error
        assert outcome.payoffs == tuple(Decimal(p) / 100 for p in game.result.payoffs)


# ---------------------------------------------------------------------- CLI


def test_cli_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLE), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = json.loads(EXPECTED.read_text())
    assert list(payload) == ["hands"]
    assert len(payload["hands"]) == 246
    first = payload["hands"][0]
    assert first == {
        "file": str(SAMPLE),
        "hand": 1,
        "players": first["players"],
        "finishing_stacks": ["201.30", "80.60", "197.00"],
        "payoffs": ["1.00", "-1.00", "0.00"],
        "error": None,
    }
    # The same amounts (a hand in whole dollars shows them as integers).
    assert [[Decimal(v) for v in h["payoffs"]] for h in payload["hands"]] == [
        [Decimal(v) for v in e["payoffs"]] for e in expected
    ]


def test_cli_replay_text_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = dumps(nt(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]))
    bad = dumps(nt(["d dh p1 ????", "p2 f"]))
    path = tmp_path / "two.phhs"
    path.write_text(f"[1]\n{good}\n[2]\n{bad}")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path} [1]: p1 99 (-1) · p2 101 (+1) · p3 100 (0)"
    assert out[1].startswith(f"{path} [2] error: ")
    assert out[2] == "2 hands: 1 replayed, 1 with errors"
    assert main(["replay", str(path), "--json"]) == 1
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert hands[1]["error"] is not None and hands[1]["payoffs"] is None


def test_cli_replay_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/hands.phhs"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


# ------------------------------------------------------------- fuzzing

_keys = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
_decimals = st.decimals(allow_nan=False, places=3, min_value=-(10**6), max_value=10**6)
_values = st.one_of(
    st.integers(-(10**9), 10**9),
    _decimals,
    st.just(Decimal("Infinity")),
    st.booleans(),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
    st.times(),
    st.lists(st.one_of(st.integers(0, 1000), _decimals), max_size=6),
    st.lists(st.text(max_size=8), max_size=4),
)


@pytest.mark.parametrize(
    ("note", "written"),
    [
        ("\nsay 'hi'", "note = \"\\nsay 'hi'\"\n"),
        ('\nsay "hi"', 'note = "\\nsay \\"hi\\""\n'),
        ("\n'''", "note = \"\\n'''\"\n"),
        ("it's\ntwo lines", 'note = "it\'s\\ntwo lines"\n'),
    ],
)
def test_strings_starting_with_a_newline_and_holding_quotes(note: str, written: str) -> None:
    """A literal string cannot hold a newline, and a multi-line one drops a first newline:
    such strings are written as basic strings, newline and double quotes escaped."""
    text = dumps({"note": note})
    assert text == written
    assert loads(text)["note"] == note


@given(st.dictionaries(_keys, _values, max_size=8))
def test_any_hand_round_trips_through_text(fields: dict[str, object]) -> None:
    hand = PhhHand(fields)
    text = dumps(hand)
    again = loads(text)
    assert again == hand
    assert dumps(again) == text
    many = dumps_many([hand, hand])
    assert [s.hand for s in loads_many(many)] == [hand, hand]
