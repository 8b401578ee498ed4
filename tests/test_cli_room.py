"""The room's commands (``mazziere serve``, ``mazziere db upgrade``) and where they are told
to run: a database they cannot use, or an address the room cannot listen on, is refused in
one line with exit code 2 before anything starts, never with the server's traceback; a URL
without its driver (``postgresql://...``, as hosting services hand them out) is taken as the
room's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

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


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_ledger_audit_says_where_the_chips_are_and_catches_a_drift(
    backend: str, tmp_path: Path
) -> None:
    """``mazziere db audit``: where the room's chips are, balanced (exit code 0); a balance
    changed behind the ledger's back is named (exit code 1)."""
    from sqlalchemy import text

    from mazziere.server.storage import accounts, ledger

    with contextlib.contextmanager(backend_settings)(backend, tmp_path) as settings:
        schema = settings.database_schema
        env = {"MAZZIERE_DATABASE_SCHEMA": schema} if schema else None

        def audit(*more: str) -> subprocess.CompletedProcess[str]:
            return mazziere("db", "audit", "--database-url", settings.database_url, *more,
                            folder=tmp_path, env=env)  # fmt: skip

        async def run(work: str) -> None:
            db = Database(settings.database_url, schema=settings.database_schema)
            try:
                await db.upgrade()
                async with db.session() as session:
                    await (fill if work == "fill" else drift)(session)
                    await session.commit()
            finally:
                await db.dispose()

        async def fill(session: Any) -> None:
            """Three players given their chips, the last sitting down with 300 of them."""
            for _ in range(3):
                player = (await accounts.create_account(session, grant=2_000)).id
            buy_in = ledger.Kind.BUY_IN
            seat = ledger.table_key(7)
            await ledger.move(session, buy_in, ledger.wallet_key(player), seat, 300)

        async def drift(session: Any) -> None:
            """A balance changed by hand, with no movement."""
            change = "UPDATE ledger_accounts SET balance = balance + 5 WHERE key = 'wallet:1'"
            await session.execute(text(change))

        asyncio.run(run("fill"))
        done = audit()
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].endswith(": 5 accounts, 4 movements"), lines  # grants, 3 wallets, a table
        assert [line.split() for line in lines[1:5]] == [
            ["grants", "-6,000"], ["wallet", "5,700"], ["table", "300"], ["total", "0"]
        ]  # fmt: skip
        assert lines[5].startswith("balanced: ")
        asyncio.run(run("drift"))
        done = audit("--json")
        assert done.returncode == 1, done.stderr
        report = json.loads(done.stdout)
        assert (report["balanced"], report["total"], report["drifted"]) == (False, 5, ["wallet:1"])
        done = audit()
        assert done.returncode == 1 and done.stdout.splitlines()[-1] == (
            "NOT BALANCED: the balances add up to 5; balances that differ from their "
            "movements: wallet:1"
        )


def test_the_ledger_audit_of_a_database_without_a_ledger_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "mistyped.db"
    url = f"sqlite+aiosqlite:///{missing}"
    done = mazziere("db", "audit", "--database-url", url, folder=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        f"mazziere: error: no room's database at {missing}\n",
    )
    assert not missing.exists()  # (connecting made it, empty, before)
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()  # a SQLite file, but not a room's
    done = mazziere(
        "db", "audit", "--database-url", f"sqlite+aiosqlite:///{empty}", folder=tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("mazziere: error: cannot read the ledger: ")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


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
