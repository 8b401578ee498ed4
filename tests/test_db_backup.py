"""``mazziere db backup``: a SQLite room's database copied while the room plays.

The real server plays Hold'em against bots while the real command copies its
database three times; each copy is one consistent moment (SQLite's integrity
check, the ledger at zero, no hand half-stored), and a room started on the
last copy opens with every chip in its place. Bad requests are refused in one
line with exit code 2 and leave nothing behind.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.play_room import Person, running_room, until
from tests.test_cli_room import mazziere

HANDS_BETWEEN_COPIES = 5


def _copy(source: Path, destination: Path, folder: Path) -> str:
    done = mazziere(
        "db", "backup", str(destination), "--database-url", f"sqlite+aiosqlite:///{source}",
        folder=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout.strip()


def _hands_and_seats(database: Path) -> tuple[int, int]:
    """Finished hands, and finished hands without their seats (none, in a whole moment)."""
    with closing(sqlite3.connect(database)) as db:
        (hands,) = db.execute("SELECT count(*) FROM hands WHERE state = 'finished'").fetchone()
        (bare,) = db.execute(
            "SELECT count(*) FROM hands WHERE state = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM hand_seats WHERE hand_seats.hand_id = hands.id)"
        ).fetchone()
        return int(hands), int(bare)


def test_copies_made_while_the_room_plays_are_whole_and_serve_again(tmp_path: Path) -> None:
    database = tmp_path / "room.db"
    copies = [tmp_path / f"copy-{k}.db" for k in range(3)]
    said: list[str] = []
    with running_room(f"sqlite+aiosqlite:///{database}", tmp_path) as room:
        person = Person(room, 7)

        async def play_and_copy() -> None:
            table = next(t for t in room.tables() if t["rules"] == "holdem")
            tid = str(table["id"])
            await person.connect()
            person.plays.add(tid)
            person.rebuys[tid] = table["max_buy_in"]
            await person.send(type="sit", table=tid, buy_in=table["max_buy_in"])
            person.fills[tid] = 4  # the lobby's bots and more, called as they leave broke
            for copy in copies:
                wanted = len(person.seen("hand_ended", tid)) + HANDS_BETWEEN_COPIES
                await until(lambda n=wanted: len(person.seen("hand_ended", tid)) >= n, 90)
                # The hands go on while the command copies (it runs in its own process).
                said.append(await asyncio.to_thread(_copy, database, copy, tmp_path))
            await person.disconnect()

        asyncio.run(play_and_copy())
        person.close()
        assert not person.errors, person.errors
        live_hands, _ = _hands_and_seats(database)
    counted = []
    for copy, line in zip(copies, said, strict=True):
        assert line.startswith(f"backed up {database} to {copy} (")
        assert line.endswith(", the ledger balanced"), line
        assert not copy.with_name(copy.name + "-wal").exists()  # one file, nothing beside it
        with closing(sqlite3.connect(copy)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        hands, bare = _hands_and_seats(copy)
        assert bare == 0
        counted.append(hands)
    # Each copy is a later moment of the same room, and none is later than the room.
    assert HANDS_BETWEEN_COPIES <= counted[0] < counted[1] < counted[2] <= live_hands, counted
    audit = mazziere("db", "audit", "--database-url", f"sqlite+aiosqlite:///{copies[0]}",
                     folder=tmp_path)  # fmt: skip
    assert audit.returncode == 0 and "balanced" in audit.stdout.splitlines()[-1], audit
    # The room started again on the last copy: its ledger adds up, its tables are there.
    again = tmp_path / "again"
    again.mkdir()
    with running_room(f"sqlite+aiosqlite:///{copies[2]}", again) as restored:
        assert restored.audit()["total"] == 0 and not restored.audit()["drifted"]
        assert any(t["rules"] == "holdem" for t in restored.tables())


def test_a_backup_that_cannot_be_made_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    room = tmp_path / "room.db"
    not_a_room = tmp_path / "other.db"
    with closing(sqlite3.connect(not_a_room)) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.commit()
    (tmp_path / "taken.db").write_text("mine")
    (tmp_path / "text.db").write_text("not a database")
    sqlite = "sqlite+aiosqlite:///"
    cases = [
        (f"{sqlite}{room}", "new.db", f"no database at {room}"),
        (f"{sqlite}{not_a_room}", "taken.db", f"{tmp_path / 'taken.db'} exists: back up"),
        (f"{sqlite}{tmp_path / 'text.db'}", "new.db", "file is not a database"),
        (f"{sqlite}{not_a_room}", "new.db", f"{not_a_room} is not a room's database"),
        (f"{sqlite}{not_a_room}", "no/such/folder.db", "no folder "),
        ("postgresql+asyncpg://room@127.0.0.1/room", "new.db", "pg_dump"),
        ("sqlite+aiosqlite://", "new.db", "an in-memory database has nothing to back up"),
    ]
    for url, file, says in cases:
        done = mazziere("db", "backup", str(tmp_path / file), "--database-url", url,
                        folder=tmp_path)  # fmt: skip
        assert done.returncode == 2, (url, done)
        assert done.stderr.startswith("mazziere: error: ") and says in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert not (tmp_path / "new.db").exists()
        assert sorted(p.name for p in tmp_path.glob("*.partial*")) == []
    assert (tmp_path / "taken.db").read_text() == "mine"  # never written over
    assert not room.exists()  # (the command created no database where none was)
