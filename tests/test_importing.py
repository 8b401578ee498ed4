"""Importing other rooms' hand histories through pokerkit's parsers (`mazziere import`)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from mazziere.cli import main
from mazziere.game.holdem import HoldemHand
from mazziere.history.phh import loads_many
from mazziere.history.pokerstars import HandHeader, to_pokerstars, to_pokerstars_many
from mazziere.history.replay import replay_hand
from mazziere.importing import import_histories
from tests.test_pokerstars import _random_hand, _same_but_odd_chips

HANDS = 60


def _our_hands(count: int, seed: int = 8) -> list[tuple[HoldemHand, HandHeader]]:
    """Random hands (antes in some: the import reads PokerStars' ante lines)."""
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    return [_random_hand(rng, counts) for _ in range(count)]


def test_our_exported_hands_imported_replay_to_our_stacks() -> None:
    hands = _our_hands(HANDS)
    report = import_histories(to_pokerstars_many(hands))
    assert report.source == "pokerstars"
    assert [h.error for h in report.hands] == [None] * HANDS
    showdowns = 0
    for (hand, header), imported in zip(hands, report.hands, strict=True):
        assert imported.hand is not None
        assert imported.hand["hand"] == header.hand_id
        outcome = replay_hand(imported.hand)
        unit = Decimal(header.unit)
        stacks = [int(s / unit) for s in outcome.finishing_stacks]
        assert _same_but_odd_chips(hand, stacks), to_pokerstars(hand, header)
        showdowns += any(a.endswith(" sm") for a in imported.hand["actions"])
    assert showdowns > 5  # mucked hands at a showdown are read as mucks
    assert sum(any(h.setup.stakes.antes) for h, _ in hands) > 10


BROKEN = """PokerStars Hand #2: Hold'em Limit (1/2)
Table 'Mazziere' 2-max Seat #2 is the button
Seat 1: p1 (100 in chips)
Seat 2: p2 (100 in chips)
p2: posts small blind 1
p1: posts big blind 2
*** HOLE CARDS ***
p2: folds
"""


def _impossible() -> str:
    """A hand whose raise is more than the player has."""
    hand, header = _our_hands(1, seed=3)[0]
    text = to_pokerstars(hand, header)
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.endswith(("calls 1", "calls 2", "checks")) and "HOLE" not in line:
            who = line.split(":")[0]
            lines[index] = f"{who}: raises 5000 to 5002"
            break
    return "\n".join(lines) + "\n"


def test_unreadable_hands_are_reported_with_why_and_the_others_imported() -> None:
    good = _our_hands(3)
    text = "\n\n".join([to_pokerstars(*good[0]), BROKEN, to_pokerstars(*good[1]), _impossible()])
    report = import_histories(text, "pokerstars")
    assert [h.number for h in report.failed] == [2, 4]
    assert report.failed[0].error == "pokerkit cannot read it: Unable to parse variant."
    assert report.failed[0].title == "PokerStars Hand #2: Hold'em Limit (1/2)"
    assert report.failed[1].error is not None
    assert report.failed[1].error.startswith("pokerkit cannot read it")
    assert len(report.imported) == 2


def test_a_text_with_no_hand_is_an_error() -> None:
    with pytest.raises(ValueError, match="no hand history that pokerkit reads"):
        import_histories("hello\n")
    with pytest.raises(ValueError, match="unknown source 'stars'"):
        import_histories(BROKEN, "stars")


def test_cli_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _our_hands(2)
    source = tmp_path / "stars.txt"
    source.write_text(to_pokerstars_many(good))
    assert main(["import", str(source)]) == 0
    captured = capsys.readouterr()
    sections = loads_many(captured.out)
    assert [s.number for s in sections] == [1, 2]
    assert captured.err == "2 pokerstars hands: 2 imported, 0 not\n"
    # the PHH written replays, and `mazziere replay` reads it
    out = tmp_path / "hands.phhs"
    assert main(["import", str(source), "--from", "pokerstars", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    assert '"error": null' in capsys.readouterr().out
    # a broken hand: named, the others kept, exit code 1
    source.write_text(to_pokerstars(*good[0]) + "\n\n" + BROKEN)
    assert main(["import", str(source)]) == 1
    captured = capsys.readouterr()
    assert len(loads_many(captured.out)) == 1
    assert "mazziere: error: hand 2 (PokerStars Hand #2: Hold'em Limit (1/2)): " in captured.err
    source.write_text(BROKEN)
    assert main(["import", str(source)]) == 2
    assert "no hand of" in capsys.readouterr().err


def test_cli_import_without_pokerkit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "stars.txt"
    source.write_text(BROKEN)
    for name in [m for m in sys.modules if m == "pokerkit" or m.startswith("pokerkit.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pokerkit", None)  # an import of it fails, as uninstalled
    assert main(["import", str(source)]) == 2
    assert capsys.readouterr().err == (
        "mazziere: error: importing hand histories needs pokerkit: pip install pokerkit==0.7.7\n"
    )
