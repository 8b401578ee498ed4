"""``mazziere replay`` as a user runs it (a subprocess): the folders ``mazziere play`` saves,
several files and folders, names and whole chips, and the exit codes of bad input."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from mazziere.room.clock import ManualClock
from mazziere.tui.session import PlayConfig, PlaySession
from tests.tui_helpers import play_hands, run_cli


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", *args)


def played_folder(tmp_path: Path, rules: str, hands: int, seed: int = 3) -> PlaySession:
    """A sitting of ``hands`` hands whose histories are saved under ``tmp_path`` the way
    ``mazziere play`` saves them."""
    session = PlaySession(
        PlayConfig(rules=rules, players=3, seed=seed), clock=ManualClock(), rng=random.Random(seed)
    )
    play_hands(session, hands)
    assert session.save(tmp_path) is not None
    return session


def test_replay_reads_the_folder_that_play_saves(tmp_path: Path) -> None:
    session = played_folder(tmp_path, "holdem", hands=3)
    (folder,) = tmp_path.iterdir()
    result = replay(str(folder))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "3 hands: 3 replayed, 0 with errors"
    for line, played in zip(lines, session.hands, strict=False):
        assert line.startswith(f"{folder / f'hand-{played.number:04d}.phh'} [{played.number}]: ")
        # The players' names and their chips as whole numbers, as the table had them.
        seats = [
            f"{name} {stack} ({'+' if payoff > 0 else ''}{payoff})"
            for name, stack, payoff in zip(played.names, played.stacks, played.payoffs, strict=True)
        ]
        assert line.endswith(": " + " · ".join(seats)), line
        assert ".00" not in line


def test_replay_takes_several_files_and_folders(tmp_path: Path) -> None:
    played_folder(tmp_path / "a", "italian-classic", hands=2)
    played_folder(tmp_path / "b", "italian-32", hands=1)
    (first,) = (tmp_path / "a").iterdir()
    (second,) = (tmp_path / "b").iterdir()
    files = sorted(str(p) for p in first.glob("*.phh"))
    result = replay(*files, str(second), "--json")
    assert result.returncode == 0, result.stderr
    hands = json.loads(result.stdout)["hands"]
    assert [h["file"] for h in hands] == [*files, str(next(second.glob("*.phh")))]
    assert all(h["error"] is None for h in hands)
    assert hands[0]["players"] == ["Tu", "Bot 2", "Bot 3"] or "Tu" in hands[0]["players"]
    assert all("." not in s for h in hands for s in h["finishing_stacks"])
    # A .phhs file of several hands is read too.
    sample = Path(__file__).parent / "data" / "handhq-sample.phhs"
    result = replay(str(sample), files[0])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "247 hands: 247 replayed, 0 with errors"


def test_a_file_with_no_valid_hand_is_bad_input(tmp_path: Path) -> None:
    not_phh = tmp_path / "passwd"
    not_phh.write_text("root:x:0:0:root:/root:/bin/bash\n")
    empty = tmp_path / "empty.phh"
    empty.write_text("")
    folder = tmp_path / "nothing"
    folder.mkdir()
    for path in (not_phh, empty, folder, tmp_path / "missing.phh"):
        result = replay(str(path))
        assert result.returncode == 2, (path, result)
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("mazziere: error: ")
        assert str(path) in result.stderr


def test_a_file_with_no_valid_hand_beside_good_ones_is_named_and_the_others_replay(
    tmp_path: Path,
) -> None:
    data = Path(__file__).parent / "data" / "italian"
    good, bad = data / "c42_blind_opening.phh", data / "c42_blind_call_or_fold_only.phh"
    missing, empty = tmp_path / "missing.phh", tmp_path / "empty"
    empty.mkdir()
    result = replay(str(good), str(bad), str(missing), str(empty))
    assert result.returncode == 1, result
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{good}: p1 910 (-90)")
    assert lines[1].startswith(f"{bad} error: action 7 ('p2 cbr 200'): cannot raise")
    assert lines[2] == f"{missing} error: cannot read it: No such file or directory"
    assert lines[3] == f"{empty} error: no .phh or .phhs file in this folder"
    assert lines[4] == "4 hands: 1 replayed, 3 with errors"
    assert result.stderr == (
        f"mazziere: error: 3 of 4 hands did not replay: {bad}, {missing}, {empty}\n"
    )
    # Nothing replays: the input as a whole is bad, said in one line.
    result = replay(str(bad), str(missing))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.endswith(
        f"no hand replayed: {bad}: action 7 ('p2 cbr 200'): cannot "
        "raise: position 1 may only call or fold (and 1 more)\n"
    )


def test_an_empty_path_is_bad_input_not_the_current_folder(tmp_path: Path) -> None:
    played_folder(tmp_path, "holdem", hands=1)  # a hand in the current folder: not read
    for command in ("replay", "stats"):
        result = subprocess.run(
            [sys.executable, "-m", "mazziere.cli", command, ""],
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
            cwd=tmp_path,
        )
        assert result.returncode == 2, (command, result)
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert result.stderr.endswith("an empty path names no file or folder\n")


def test_some_bad_hands_replay_the_others_and_fail(tmp_path: Path) -> None:
    played_folder(tmp_path / "good", "holdem", hands=2)
    (folder,) = (tmp_path / "good").iterdir()
    good = sorted(folder.glob("*.phh"))
    # A .phhs of a good hand and a hand with an impossible action.
    text = good[0].read_text()
    bad = text.replace("actions = [", "actions = ['p9 f', ", 1)
    mixed = tmp_path / "mixed.phhs"
    mixed.write_text(f"[1]\n{text}\n[2]\n{bad}")
    result = replay(str(mixed), str(good[1]))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{mixed} [1]: ")
    assert lines[1].startswith(f"{mixed} [2] error: ")
    assert lines[2].startswith(f"{good[1]} [")
    assert lines[3] == "3 hands: 2 replayed, 1 with errors"
    assert result.stderr == f"mazziere: error: 1 of 3 hands did not replay: {mixed} [2]\n"
