"""Where ``mazziere play`` keeps the hand histories: a folder checked when the sitting starts,
each hand written as it ends, a folder of its own for every sitting, and no finished hand lost
when the folder fails midway."""

from __future__ import annotations

import random
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from mazziere.history.phh import loads
from mazziere.room.clock import ManualClock
from mazziere.tui.session import PlayConfig, PlaySession
from tests.tui_helpers import SIZE, log_text, make_app, play_hands, press_keys, run_cli


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default folder, where a failed save moves the hands, is the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def play(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("play", *args)


def sitting(rules: str = "holdem", *, seed: int = 5) -> PlaySession:
    return PlaySession(
        PlayConfig(rules=rules, players=3, seed=seed), clock=ManualClock(), rng=random.Random(seed)
    )


@pytest.mark.parametrize("kind", ["file", "unreachable"])
def test_a_hands_dir_that_cannot_hold_folders_stops_play_at_once(kind: str, tmp_path: Path) -> None:
    if kind == "file":
        where = tmp_path / "afile"
        where.write_text("not a folder")
    else:
        where = Path("/proc/nope/x")
    result = play("--hands-dir", str(where), "--seed", "1")
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"mazziere: error: cannot save the hand histories in {where}")


def test_each_hand_is_written_as_it_ends(tmp_path: Path) -> None:
    idle = sitting()
    idle.open_folder(tmp_path)
    assert idle.save() is None and list(tmp_path.iterdir()) == []  # no hand, no folder
    session = sitting()
    session.open_folder(tmp_path)
    play_hands(session, 2)
    # Written already, before anything is saved on quitting.
    (folder,) = tmp_path.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["hand-0001.phh", "hand-0002.phh"]
    assert session.save() == folder


def test_the_holdem_history_keeps_its_hand_number(tmp_path: Path) -> None:
    session = sitting("holdem")
    play_hands(session, 3)
    folder = session.save(tmp_path)
    assert folder is not None
    for played in session.hands:
        path = folder / f"hand-{played.number:04d}.phh"
        hand = loads(path.read_text(encoding="utf-8"))
        assert hand.variant == "NT"
        assert hand["hand"] == played.number
        assert hand["players"] == list(played.names)


def test_sittings_started_in_the_same_second_get_a_folder_each(tmp_path: Path) -> None:
    same_second = datetime(2026, 1, 2, 3, 4, 5)
    sessions = []
    for seed in (1, 2, 3):
        session = sitting("italian-classic", seed=seed)
        session.started = same_second
        play_hands(session, 1)
        sessions.append(session)
    folders = [session.save(tmp_path) for session in sessions]
    assert [f.name for f in folders if f is not None] == [
        "20260102-030405-italian-classic",
        "20260102-030405-italian-classic-2",
        "20260102-030405-italian-classic-3",
    ]
    # No save overwrote another: each folder holds its own sitting's hand.
    for folder, session in zip(folders, sessions, strict=True):
        assert folder is not None
        (path,) = folder.iterdir()
        assert path.read_text(encoding="utf-8") == session.hands[0].phh


@pytest.mark.asyncio
async def test_a_folder_that_fails_midway_loses_no_hand(
    tmp_path: Path,
) -> None:
    base = tmp_path / "hands"
    base.mkdir()
    session = sitting("holdem")
    app = make_app(session, base)

    async def finish_hand(pilot: Any) -> None:
        for _ in range(40):
            if session.hand_over:
                return
            await press_keys(pilot, "c")
        raise AssertionError("the hand did not end")

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await finish_hand(pilot)
        # The folder goes away under the sitting (a removed disk, a cleaned /tmp)...
        base.rename(tmp_path / "gone")
        base.write_text("now a file")
        await press_keys(pilot, "n")
        await finish_hand(pilot)
        assert "Non riesco a salvare" in log_text(app)
        await press_keys(pilot, "q")
    # ...the two hands are in a folder that works, and the log said where.
    folder = app.return_value
    assert folder is not None and folder.parent == tmp_path / "data" / "mazziere" / "hands"
    assert sorted(p.name for p in folder.iterdir()) == ["hand-0001.phh", "hand-0002.phh"]
    told = [line.plain for line in session.transcript if "sono ora in" in line.plain]
    assert told == [
        f"Non riesco a salvare in {base / folder.name} (Not a directory): "
        f"le mani di questa sessione sono ora in {folder}"
    ]


def test_the_help_and_the_readme_name_the_same_folder() -> None:
    readme = " ".join((Path(__file__).parent.parent / "README.md").read_text().split())
    help_text = " ".join(play("--help").stdout.split())
    default = "~/.local/share/mazziere/hands"
    assert f"(default: {default}, or $XDG_DATA_HOME/mazziere/hands)" in help_text, help_text
    assert f"under `{default}` (or `$XDG_DATA_HOME/mazziere/hands`, or `--hands-dir`)" in readme
