"""The room's commands (``mazziere serve``, ``mazziere db upgrade``) and where they are told
to run: a database they cannot use, or an address the room cannot listen on, is refused in
one line with exit code 2 before anything starts, never with the server's traceback; a URL
without its driver (``postgresql://...``, as hosting services hand them out) is taken as the
room's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from mazziere.server.storage import Database
from tests.server_db import BACKENDS, backend_settings


def mazziere(
    *args: str, folder: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The real console command, its data folder (the default database's) in ``folder``."""
    environment = {**os.environ, "XDG_DATA_HOME": str(folder), **(env or {})}
    command = [sys.executable, "-m", "mazziere.cli", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, check=False, env=environment
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


UNUSABLE = [
    ("foo://room", "unsupported database 'foo'"),
    ("room.db", "not a database URL"),
    ("postgresql+psycopg2://room@127.0.0.1/room", "through asyncpg"),
    ("sqlite+pysqlite:///room.db", "through aiosqlite"),
    # Nothing listens on port 1: the database cannot be reached.
    ("postgresql+asyncpg://room@127.0.0.1:1/room", "cannot reach the database"),
]


@pytest.mark.parametrize(("url", "says"), UNUSABLE)
def test_the_room_does_not_start_on_a_database_it_cannot_use(
    url: str, says: str, tmp_path: Path
) -> None:
    done = mazziere("serve", "--port", str(free_port()), "--database-url", url, folder=tmp_path)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert "Mazziere room at" not in done.stdout  # refused before it said it was up


def test_the_room_does_not_start_where_it_cannot_listen(tmp_path: Path) -> None:
    with socket.socket() as taken:  # another room, say, on the port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = mazziere("serve", "--port", str(port), folder=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"cannot listen on http://127.0.0.1:{port}/" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert "Mazziere room at" not in done.stdout  # refused before its start-up
    assert not (tmp_path / "mazziere" / "room.db").exists()


@pytest.mark.parametrize(("url", "says"), [UNUSABLE[0], UNUSABLE[-1]])
def test_the_migrations_are_not_applied_to_a_database_the_room_cannot_use(
    url: str, says: str, tmp_path: Path
) -> None:
    done = mazziere("db", "upgrade", "--database-url", url, folder=tmp_path)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["db", "upgrade"], ["serve", "--port", "0"]])
def test_a_settings_file_that_cannot_be_read_is_refused_naming_its_line(
    command: list[str], tmp_path: Path
) -> None:
    config = tmp_path / "room.env"
    config.write_text("MAZZIERE_PORT=8001\n\nGARBAGE LINE\n")
    done = mazziere(*command, "--config", str(config), folder=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"mazziere: error: {config}, line 3: not a KEY=value line: 'GARBAGE LINE'\n"
    )
    assert done.stdout == "" and not (tmp_path / "mazziere").exists()  # nothing was made


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_database_url_without_its_driver_is_the_rooms_own(backend: str, tmp_path: Path) -> None:
    with contextlib.contextmanager(backend_settings)(backend, tmp_path) as settings:
        driver = "+aiosqlite" if backend == "sqlite" else "+asyncpg"
        plain = settings.database_url.replace(driver, "", 1)
        assert "+" not in plain.partition(":")[0]
        schema = {"MAZZIERE_DATABASE_SCHEMA": settings.database_schema or ""}
        done = mazziere("db", "upgrade", "--database-url", plain, folder=tmp_path,
                        env=schema if settings.database_schema else None)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("database up to date: ")
        assert driver in done.stdout  # the room's driver, named

        async def tables() -> list[str]:
            db = Database(settings.database_url, schema=settings.database_schema)
            try:
                return await db.table_names()
            finally:
                await db.dispose()

        assert "ledger_entries" in asyncio.run(tables())


def test_a_lobby_file_the_room_would_refuse_stops_the_start_in_one_line(tmp_path: Path) -> None:
    lobby = tmp_path / "lobby.toml"
    lobby.write_text(
        '[[table]]\nname = "Classica"\nrules = "italian-classic"\nseats = 9\nante = 10\n'
        "min_buy_in = 200\nmax_buy_in = 1000\n"
    )
    done = mazziere("serve", "--port", str(free_port()), "--lobby", str(lobby), folder=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"mazziere: error: lobby_file: {lobby}: table 'Classica': "
        "italian-classic tables seat 2 to 6 players, not 9\n"
    )
    assert done.stdout == "" and not (tmp_path / "mazziere").exists()  # nothing was made
