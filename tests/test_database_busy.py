"""A database that does not answer in time (a saturated room, an outage): the real server
refuses what needs it with a code and a wait, logs one line and no traceback, changes
nothing, and goes on once the database answers again.

Brought about for real, on SQLite and PostgreSQL: the server's pool is one connection with
a one-second wait (``MAZZIERE_DATABASE_POOL_*``), and another process holds the write lock
(SQLite's, or an exclusive lock on PostgreSQL's ``accounts`` table, which lets reads go on
and makes writes wait), so a write holds that connection while it waits for the lock, and
what comes next finds none free.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from mazziere.server import protocol as p
from mazziere.server.settings import Settings
from tests.server_db import POSTGRES_URL, asyncpg_dsn
from tests.server_process import serve
from tests.test_server_process import Browser


def _socket_url(address: str) -> str:
    return address.replace("http://", "ws://", 1) + "/ws"


def _cookies(browser: Browser) -> str:
    return "; ".join(f"{name}={value}" for name, value in browser.http.cookies.items())


@contextmanager
def _sqlite_writes_held(settings: Settings) -> Iterator[None]:
    """Another process holds SQLite's write lock until the block ends."""
    database = settings.database_url.removeprefix("sqlite+aiosqlite:///")
    lock = sqlite3.connect(database, timeout=0, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        lock.rollback()
        lock.close()


@contextmanager
def _postgres_writes_held(settings: Settings) -> Iterator[None]:
    """Another session holds an exclusive lock on ``accounts`` (a guest's insert waits for
    it; reads go on) until the block ends.  Its own loop in a thread: the test is sync."""
    import asyncpg

    locked = threading.Event()
    release = threading.Event()
    failures: list[BaseException] = []

    async def hold() -> None:
        connection = await asyncpg.connect(
            asyncpg_dsn(POSTGRES_URL),
            server_settings={"search_path": str(settings.database_schema)},
        )
        try:
            transaction = connection.transaction()
            await transaction.start()
            await connection.execute("LOCK TABLE accounts IN EXCLUSIVE MODE")
            locked.set()
            await asyncio.to_thread(release.wait)
            await transaction.rollback()
        finally:
            await connection.close()

    def run() -> None:
        try:
            asyncio.run(hold())
        except BaseException as exc:  # handed to the test, which fails with it
            failures.append(exc)
            locked.set()

    holder = threading.Thread(target=run)
    holder.start()
    try:
        assert locked.wait(timeout=10), "the lock was not taken in 10 s"
        assert not failures, failures
        yield
    finally:
        release.set()
        holder.join(timeout=10)


def test_a_database_with_no_connection_free_is_refused_as_busy_and_the_room_goes_on(
    room_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAZZIERE_DATABASE_POOL_SIZE", "1")
    monkeypatch.setenv("MAZZIERE_DATABASE_POOL_OVERFLOW", "0")
    monkeypatch.setenv("MAZZIERE_DATABASE_POOL_TIMEOUT", "1")
    settings = room_settings
    on_sqlite = settings.database_url.startswith("sqlite")
    writes_held = _sqlite_writes_held if on_sqlite else _postgres_writes_held
    with serve(settings, tmp_path) as server, Browser(server.address) as anna:
        assert anna.post("/api/guest").status_code in (200, 201)
        guests_before = anna.get("/api/ledger/audit")["entries"]
        with connect(
            _socket_url(server.address), additional_headers={"Cookie": _cookies(anna)}
        ) as ws:
            assert p.parse_server(ws.recv(timeout=10)).type == "welcome"

        answers: list[int] = []
        carla = Browser(server.address)
        writer = threading.Thread(
            target=lambda: answers.append(carla.post("/api/guest").status_code)
        )
        with writes_held(settings):
            writer.start()  # a write: it holds the one connection, waiting for the lock
            time.sleep(1.0)
            busy = anna.http.get("/api/session")
            assert busy.status_code == 503, busy.text
            assert busy.json()["error"]["code"] == "storage_unavailable"
            assert busy.headers["Retry-After"] == "1"
            headers = {"Cookie": _cookies(anna)}
            with connect(_socket_url(server.address), additional_headers=headers) as ws:
                refusal = p.parse_server(ws.recv(timeout=10))
                assert isinstance(refusal, p.Error), refusal
                assert refusal.code is p.ErrorCode.STORAGE_UNAVAILABLE
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        writer.join(timeout=70)
        # The write that waited went through once the lock was free; the room answers again.
        assert answers and answers[0] in (200, 201), answers
        carla.http.close()
        assert anna.http.get("/api/session").status_code == 200
        with connect(
            _socket_url(server.address), additional_headers={"Cookie": _cookies(anna)}
        ) as ws:
            assert p.parse_server(ws.recv(timeout=10)).type == "welcome"
        assert anna.get("/api/ledger/audit")["entries"] > guests_before  # carla's grant
        output = server.output()
        assert "Traceback" not in output, output
        assert "database unavailable on GET /api/session" in output
        assert "a socket's log-in failed" in output
        assert httpx.get(server.address + "/api/tables", timeout=10).status_code == 200
