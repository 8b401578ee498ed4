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


def test_the_child_stores_what_the_server_reads_and_a_batch_that_cannot_pay_fails_alone(
    room_settings: Settings,
) -> None:
    async def scenario() -> None:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            table_id, rich, poor = await room_with_a_table(db)
            writer = await WriterProcess.start(room_settings)
            store = DatabaseTableStore(db, writer)
            try:
                assert writer.pid is not None and writer.pid != os.getpid()
                # Queued at once: one group, in which the poor player's buy-in cannot pay.
                results = await asyncio.gather(
                    store.commit(table_id, sit(table_id, rich, "anna", 400)),
                    store.commit(table_id, sit(table_id, poor, "bruno", 400)),
                    store.commit(table_id, Batch(StoredCommand("chat", 1.0, {"name": "anna"}))),
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
                assert await balance(db, db_ledger.wallet_key(rich)) == 600
                assert await balance(db, db_ledger.wallet_key(poor)) == 0
                assert await balance(db, f"table:{table_id}") == 400
                async with db.reading() as session:
                    total = await session.scalar(select(func.sum(LedgerAccount.balance)))
                assert total == 0
                # A service manager's SIGTERM to the whole group: the child lives on until
                # the server, stopping, closes its pipe.
                os.kill(writer.pid, signal.SIGTERM)
                await store.commit(table_id, Batch(StoredCommand("chat", 2.0, {"name": "anna"})))
                assert len(await store.load(table_id)) == 3
            finally:
                await writer.close()
            assert writer.pid is None
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_database_refusing_the_child_s_writes_makes_the_batch_unavailable_then_it_stores(
    room_settings: Settings, tmp_path: Path
) -> None:
    flag = tmp_path / "refuse"

    async def scenario() -> None:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            table_id, rich, _ = await room_with_a_table(db)
            refusing = room_settings.model_copy(update={"test_refuse_writes_while": flag})
            writer = await WriterProcess.start(refusing)
            store = DatabaseTableStore(db, writer)
            try:
                flag.touch()
                with pytest.raises(StoreUnavailableError):
                    await store.commit(table_id, sit(table_id, rich, "anna", 400))
                assert await store.load(table_id) == []
                flag.unlink()
                await store.commit(table_id, sit(table_id, rich, "anna", 400))
                assert [c.kind for c in await store.load(table_id)] == ["sit"]
            finally:
                await writer.close()
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_group_larger_than_the_socket_s_buffer_crosses_on_uvloop(tmp_path: Path) -> None:
    """The server runs on uvloop, which makes the sockets it watches non-blocking: a group
    of megabytes (a thousand tables at once, each hand's history) must wait for a child busy
    elsewhere (here: stopped) to read it, not fail half-sent."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"

    async def scenario() -> None:
        db = Database(url)
        try:
            table_id, _, _ = await room_with_a_table(db)
            writer = await WriterProcess.start(Settings(database_url=url))
            store = DatabaseTableStore(db, writer)
            try:
                texts = [f"{i:03d}" + "x" * 20_000 for i in range(200)]  # 4 MB, no repeats
                chats = [
                    Batch(StoredCommand("chat", float(i), {"name": "anna", "text": text}))
                    for i, text in enumerate(texts)
                ]
                assert writer.pid is not None
                os.kill(writer.pid, signal.SIGSTOP)  # the child reads nothing for a while
                try:
                    commits = asyncio.gather(*(store.commit(table_id, c) for c in chats))
                    await asyncio.sleep(0.5)
                    assert not commits.done()  # the group waits, not fails
                finally:
                    os.kill(writer.pid, signal.SIGCONT)
                await commits
                stored = await store.load(table_id)
                assert [c.at for c in stored] == [float(i) for i in range(200)]
                assert [c.data["text"] for c in stored] == texts
            finally:
                await writer.close()
        finally:
            await db.dispose()

    uvloop.run(scenario())


def test_a_child_that_died_is_started_again_at_the_next_group(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"

    async def scenario() -> None:
        db = Database(url)
        try:
            table_id, rich, _ = await room_with_a_table(db)
            writer = await WriterProcess.start(Settings(database_url=url))
            store = DatabaseTableStore(db, writer)
            try:
                await store.commit(table_id, Batch(StoredCommand("chat", 0.0, {"name": "a"})))
                first = writer.pid
                assert first is not None
                os.kill(first, signal.SIGKILL)
                await asyncio.sleep(0.2)
                await store.commit(table_id, sit(table_id, rich, "anna", 400))
                assert writer.pid not in (None, first)
                assert [c.kind for c in await store.load(table_id)] == ["chat", "sit"]
            finally:
                await writer.close()
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_child_killed_during_a_group_makes_its_table_rebuild(tmp_path: Path) -> None:
    """Killed with the group, the child may have committed it or not: the batch must not be
    tried again (it could be stored twice), its table is rebuilt from what was stored."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"

    async def scenario() -> None:
        db = Database(url)
        try:
            table_id, _, _ = await room_with_a_table(db)
            writer = await WriterProcess.start(Settings(database_url=url))
            store = DatabaseTableStore(db, writer)
            try:
                child = writer.pid
                assert child is not None
                os.kill(child, signal.SIGSTOP)  # it has the group, and writes nothing
                chat = Batch(StoredCommand("chat", 0.0, {"name": "anna"}))
                commit = asyncio.ensure_future(store.commit(table_id, chat))
                await asyncio.sleep(0.3)
                os.kill(child, signal.SIGKILL)
                with pytest.raises(StoreFailedError, match="stopped during the group"):
                    await commit
                await store.commit(table_id, Batch(StoredCommand("chat", 1.0, {"name": "b"})))
                assert writer.pid not in (None, child)
                assert [c.data["name"] for c in await store.load(table_id)] == ["b"]
            finally:
                await writer.close()
        finally:
            await db.dispose()

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
