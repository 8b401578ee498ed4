"""The table store's writer in a child process (:mod:`mazziere.server.writer_process`), on a
real database file and a real child: what it stores is what the server reads; a batch that
cannot be stored fails alone; a database that refuses writes makes the group "unavailable";
a child that died is started again; and the child dies with the server, so a restarted
server never finds the old writer committing behind its back.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvloop
from sqlalchemy import func, select

from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage import ledger as db_ledger
from mazziere.server.storage.accounts import create_account
from mazziere.server.storage.models import LedgerAccount, RoomTable
from mazziere.server.table_store import (
    DatabaseTableStore,
    StoreFailedError,
    StoreFailure,
)
from mazziere.server.tables import Batch, Move, StoredCommand, StoreUnavailableError
from mazziere.server.writer_process import WriterProcess


async def room_with_a_table(db: Database) -> tuple[int, int, int]:
    """A table and two accounts, one with 1,000 chips, one with none."""
    await db.upgrade()
    async with db.session() as session:
        rich = await create_account(session, grant=1_000)
        poor = await create_account(session, grant=0)
        row = RoomTable(name="t", rules="holdem", seats=5, min_buy_in=100, max_buy_in=400)
        session.add(row)
        await session.commit()
        return row.id, rich.id, poor.id


def sit(table_id: int, account: int, name: str, amount: int) -> Batch:
    command = StoredCommand("sit", 0.0, {"name": name, "seat": 1, "buy_in": amount})
    move = Move("buy-in", db_ledger.wallet_key(account), f"table:{table_id}", amount, account)
    return Batch(command, moves=[move])


async def balance(db: Database, key: str) -> int:
    async with db.reading() as session:
        return await db_ledger.balance(session, key)


@dataclass
class ChildRoom:
    """A room's database with a table, two accounts and the store's writer in a child."""

    db: Database
    writer: WriterProcess
    store: DatabaseTableStore
    table_id: int
    rich: int
    poor: int


@asynccontextmanager
async def child_room(settings: Settings) -> AsyncIterator[ChildRoom]:
    db = Database(settings.database_url, schema=settings.database_schema)
    try:
        table_id, rich, poor = await room_with_a_table(db)
        writer = await WriterProcess.start(settings)
        try:
            yield ChildRoom(db, writer, DatabaseTableStore(db, writer), table_id, rich, poor)
        finally:
            await writer.close()
    finally:
        await db.dispose()


def chat(at: float, name: str = "anna", text: str = "") -> Batch:
    return Batch(StoredCommand("chat", at, {"name": name, "text": text}))


def sqlite_file(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}")


def test_the_child_stores_what_the_server_reads_and_a_batch_that_cannot_pay_fails_alone(
    room_settings: Settings,
) -> None:
    async def scenario() -> None:
        async with child_room(room_settings) as room:
            store, table_id = room.store, room.table_id
            assert room.writer.pid is not None and room.writer.pid != os.getpid()
            # Queued at once: one group, in which the poor player's buy-in cannot pay.
            results = await asyncio.gather(
                store.commit(table_id, sit(table_id, room.rich, "anna", 400)),
                store.commit(table_id, sit(table_id, room.poor, "bruno", 400)),
                store.commit(table_id, chat(1.0)),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None
            assert isinstance(results[1], StoreFailedError)
            assert "cannot pay" in str(results[1])
            commands = await store.load(table_id)
            assert [(c.kind, c.data.get("name")) for c in commands] == [
                ("sit", "anna"),
                ("chat", "anna"),
            ]
            assert await balance(room.db, db_ledger.wallet_key(room.rich)) == 600
            assert await balance(room.db, db_ledger.wallet_key(room.poor)) == 0
            assert await balance(room.db, f"table:{table_id}") == 400
            async with room.db.reading() as session:
                total = await session.scalar(select(func.sum(LedgerAccount.balance)))
            assert total == 0
            # A service manager's SIGTERM to the whole group: the child lives on until the
            # server, stopping, closes its socket.
            os.kill(room.writer.pid, signal.SIGTERM)
            await store.commit(table_id, chat(2.0))
            assert len(await store.load(table_id)) == 3
        assert room.writer.pid is None

    asyncio.run(scenario())


def test_a_database_refusing_the_child_s_writes_makes_the_batch_unavailable_then_it_stores(
    room_settings: Settings, tmp_path: Path
) -> None:
    flag = tmp_path / "refuse"
    refusing = room_settings.model_copy(update={"test_refuse_writes_while": flag})

    async def scenario() -> None:
        async with child_room(refusing) as room:
            buy_in = sit(room.table_id, room.rich, "anna", 400)
            flag.touch()
            with pytest.raises(StoreUnavailableError):
                await room.store.commit(room.table_id, buy_in)
            assert await room.store.load(room.table_id) == []
            flag.unlink()
            await room.store.commit(room.table_id, buy_in)
            assert [c.kind for c in await room.store.load(room.table_id)] == ["sit"]

    asyncio.run(scenario())


def test_a_group_larger_than_the_socket_s_buffer_crosses_on_uvloop(tmp_path: Path) -> None:
    """The server runs on uvloop, which makes the sockets it watches non-blocking: a group
    of megabytes (a thousand tables at once, each hand's history) must wait for a child busy
    elsewhere (here: stopped) to read it, not fail half-sent."""

    async def scenario() -> None:
        async with child_room(sqlite_file(tmp_path)) as room:
            texts = [f"{i:03d}" + "x" * 20_000 for i in range(200)]  # 4 MB, no repeats
            chats = [chat(float(i), text=text) for i, text in enumerate(texts)]
            child = room.writer.pid
            assert child is not None
            os.kill(child, signal.SIGSTOP)  # the child reads nothing for a while
            try:
                commits = asyncio.gather(*(room.store.commit(room.table_id, c) for c in chats))
                await asyncio.sleep(0.5)
                assert not commits.done()  # the group waits, not fails
            finally:
                os.kill(child, signal.SIGCONT)
            await commits
            stored = await room.store.load(room.table_id)
            assert [c.at for c in stored] == [float(i) for i in range(200)]
            assert [c.data["text"] for c in stored] == texts

    uvloop.run(scenario())


def test_a_child_that_died_is_started_again_at_the_next_group(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with child_room(sqlite_file(tmp_path)) as room:
            await room.store.commit(room.table_id, chat(0.0))
            first = room.writer.pid
            assert first is not None
            os.kill(first, signal.SIGKILL)
            await asyncio.sleep(0.2)
            await room.store.commit(room.table_id, sit(room.table_id, room.rich, "anna", 400))
            assert room.writer.pid not in (None, first)
            assert [c.kind for c in await room.store.load(room.table_id)] == ["chat", "sit"]

    asyncio.run(scenario())


def test_a_child_killed_during_a_group_makes_its_table_rebuild(tmp_path: Path) -> None:
    """Killed with the group, the child may have committed it or not: the batch must not be
    tried again (it could be stored twice), its table is rebuilt from what was stored."""

    async def scenario() -> None:
        async with child_room(sqlite_file(tmp_path)) as room:
            child = room.writer.pid
            assert child is not None
            os.kill(child, signal.SIGSTOP)  # it has the group, and writes nothing
            commit = asyncio.ensure_future(room.store.commit(room.table_id, chat(0.0)))
            await asyncio.sleep(0.3)
            os.kill(child, signal.SIGKILL)
            with pytest.raises(StoreFailedError, match="stopped during the group"):
                await commit
            await room.store.commit(room.table_id, chat(1.0, name="b"))
            assert room.writer.pid not in (None, child)
            assert [c.data["name"] for c in await room.store.load(room.table_id)] == ["b"]

    uvloop.run(scenario())


SERVER = """
import asyncio, sys
from mazziere.server.settings import Settings
from mazziere.server.writer_process import WriterProcess

async def main():
    writer = await WriterProcess.start(Settings(database_url=sys.argv[1]))
    print(writer.pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_the_child_dies_with_the_server(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    asyncio.run(upgraded(url))
    with subprocess.Popen(
        [sys.executable, "-c", SERVER, url], stdout=subprocess.PIPE, text=True
    ) as server:
        try:
            assert server.stdout is not None
            child = int(server.stdout.readline())
            os.kill(child, 0)  # it runs
            server.kill()  # SIGKILL: the server has no chance to stop it
            server.wait(timeout=10)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and _alive(child):
                time.sleep(0.02)
            assert not _alive(child), "the writer outlived the server"
        finally:
            server.kill()


async def upgraded(url: str) -> None:
    db = Database(url)
    await db.upgrade()
    await db.dispose()


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead, not yet reaped


def test_a_failure_crosses_as_plain_data() -> None:
    refused = StoreFailure(True, "disk full").error()
    assert isinstance(refused, StoreUnavailableError) and str(refused) == "disk full"
    failed = StoreFailure(False, "InsufficientFundsError: wallet:2 cannot pay 400").error()
    assert isinstance(failed, StoreFailedError)
