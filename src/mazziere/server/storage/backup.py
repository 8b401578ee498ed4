"""A copy of a SQLite room's database, made while the room goes on: ``mazziere db backup``.

SQLite's own online backup copies the database as it was at one moment (the
copy reads inside one transaction; with the write-ahead log the room goes on
committing meanwhile, and nothing it commits after that moment is in the
copy).  The copy is written beside its destination and renamed into place
only once SQLite's integrity check passes, so a destination file is never
half a database.  It is one self-contained file (its journal is the rollback
journal, with no write-ahead log beside it), ready to be copied off the
machine, opened by ``mazziere db audit``, or served after the room is stopped.

A PostgreSQL room is backed up by PostgreSQL's own tools (``pg_dump``), which
do the same for it: docs/server.md, *Backups*.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import make_url

__all__ = ["BackupError", "backup_sqlite", "sqlite_file"]


class BackupError(Exception):
    """The backup was not made (nothing is left at the destination); the message says why."""


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL; ``None`` for another database.

    >>> sqlite_file("sqlite+aiosqlite:////srv/room.db")
    PosixPath('/srv/room.db')
    >>> sqlite_file("postgresql+asyncpg://room@127.0.0.1/room") is None
    True
    >>> sqlite_file("sqlite+aiosqlite://")
    Traceback (most recent call last):
    ...
    mazziere.server.storage.backup.BackupError: an in-memory database has nothing to back up
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or "mode=memory" in database:
        raise BackupError("an in-memory database has nothing to back up")
    return Path(database.removeprefix("file:").partition("?")[0]).expanduser()


def backup_sqlite(source: Path, destination: Path) -> int:
    """Copy the SQLite database ``source`` to the new file ``destination``, as it was at
    one moment, while others may go on writing to it; the copy's size in bytes.

    Raises :class:`BackupError` if ``source`` is not there or is not a SQLite database,
    if ``destination`` exists or its folder does not, or if the copy fails its integrity
    check.
    """
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if destination.exists():
        raise BackupError(f"{destination} exists: back up to a new file")
    if not destination.parent.is_dir():
        raise BackupError(f"no folder {destination.parent}")
    partial = destination.with_name(destination.name + ".partial")
    try:
        # (check_same_thread, isolation: the defaults; the timeout waits out a writer's
        # lock only while the copy's read transaction starts.)
        with (
            closing(sqlite3.connect(source, timeout=30)) as reader,
            closing(sqlite3.connect(partial)) as copy,
        ):
            reader.backup(copy)  # all pages in one step: one read transaction, one moment
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no log beside it
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise BackupError(f"the copy of {source} failed its integrity check: {verdict}")
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise BackupError(f"cannot copy {source}: {error}") from None
    except OSError as error:
        raise BackupError(f"cannot write {destination}: {error.strerror or error}") from None
    finally:
        for leftover in (partial, partial.with_name(partial.name + "-journal")):
            leftover.unlink(missing_ok=True)
    return destination.stat().st_size
