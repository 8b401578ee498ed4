"""`mazziere import` of the formats other than PokerStars', from sample histories of each site.

``tests/data/import/`` holds hands of Absolute Poker, Full Tilt Poker, iPoker,
Ongame and PartyPoker in each site's own layout (its README says where each
comes from).  Every hand that pokerkit 0.7.7's parser reads must come in as
PHH that our engine replays to the stacks the source states
(``expected.json``: each player's finishing stack as the history's own
amounts give it, after rake where the site takes one); the last hand of
each file is one the import cannot read, reported with why.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from mazziere.cli import main
from mazziere.history.phh import PhhHand, loads_many
from mazziere.history.replay import replay_hand
from mazziere.importing import import_histories

DATA = Path(__file__).parent / "data" / "import"
FILES = {
    "absolute": "absolute.txt",
    "fulltilt": "fulltilt.txt",
    "ipoker": "ipoker.xml",
    "ongame": "ongame.txt",
    "partypoker": "partypoker.txt",
}
EXPECTED: dict[str, list[dict[str, Any]]] = json.loads((DATA / "expected.json").read_text())


def _stated(entry: dict[str, Any]) -> list[Decimal]:
    """The finishing stacks before rake: the source's, with the rake back to who paid it."""
    stacks = [Decimal(s) for s in entry["finishing_stacks"]]
    if "rake" in entry:
        stacks[entry["players"].index(entry["raked"])] += Decimal(entry["rake"])
    return stacks


def _shows(hand: PhhHand) -> int:
    return sum(1 for a in hand["actions"] if a.split()[1:2] == ["sm"] and len(a.split()) == 3)


@pytest.mark.parametrize("source", FILES)
def test_each_site_imports_to_the_stacks_its_histories_state(source: str) -> None:
    text = (DATA / FILES[source]).read_text()
    report = import_histories(text)  # the format is recognised
    assert report.source == source
    assert import_histories(text, source).hands == report.hands
    expected = EXPECTED[source]
    assert len(report.hands) == len(expected)
    kinds = {"folds": 0, "showdown": 0, "all-in": 0, "split pot": 0}
    for imported, entry in zip(report.hands, expected, strict=True):
        if "error" in entry:
            continue
        assert imported.error is None, (imported.title, imported.error)
        hand = imported.hand
        assert hand is not None
        assert str(hand["hand"]) == entry["hand"]
        assert hand["players"] == entry["players"]
        assert [Decimal(s) for s in hand["starting_stacks"]] == [
            Decimal(s) for s in entry["starting_stacks"]
        ]
        outcome = replay_hand(hand)
        assert outcome.error is None
        assert list(outcome.finishing_stacks) == _stated(entry), imported.title
        starts = [Decimal(s) for s in entry["starting_stacks"]]
        gains = [f - s for f, s in zip(_stated(entry), starts, strict=True)]
        kinds["folds"] += any(a.endswith(" f") for a in hand["actions"])
        kinds["showdown"] += _shows(hand) >= 2
        kinds["all-in"] += any(Decimal(s) == 0 for s in entry["finishing_stacks"])
        kinds["split pot"] += sum(1 for g in gains if g > 0) >= 2
    assert all(kinds.values()), kinds  # every site's sample has each kind of hand


@pytest.mark.parametrize("source", FILES)
def test_the_hand_that_cannot_be_read_is_reported_with_why(source: str) -> None:
    report = import_histories((DATA / FILES[source]).read_text(), source)
    [failed] = report.failed
    entry = EXPECTED[source][-1]
    assert failed.number == len(report.hands)
    assert entry["hand"] in failed.title
    assert failed.error == entry["error"]
    assert len(report.imported) == len(report.hands) - 1


def test_the_command_imports_a_site_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ongame.phhs"
    assert main(["import", str(DATA / "ongame.txt"), "-o", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "mazziere: error: hand 6 (***** History for hand R5-1709016-544 *****): "
        "pokerkit cannot read it: Unable to parse variant."
    )
    assert err[-1] == "6 ongame hands: 5 imported, 1 not"
    sections = loads_many(out.read_text())
    assert [s.number for s in sections] == [1, 2, 3, 4, 5]
    assert main(["replay", str(out), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert [h["error"] for h in replayed["hands"]] == [None] * 5
