"""The room's database on SQLite and PostgreSQL: migrations, the ledger's constraints, lobby."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.structure import Stakes
from mazziere.server.settings import Settings
from mazziere.server.storage import Database, ledger
from mazziere.server.storage import accounts as account_store
from mazziere.server.storage import lobby as lobby_store
from mazziere.server.storage.models import (
    Base,
    Hand,
    HandAction,
    LedgerAccount,
    RoomTable,
    Tournament,
    utc_now,
)
from mazziere.server.table_store import RowsInsert

T = TypeVar("T")


def on_database(settings: Settings, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``work`` in a session of a migrated database, then close everything."""

    async def run() -> T:
        db = Database(settings.database_url, schema=settings.database_schema)
        try:
            await db.upgrade()
            async with db.session() as session:
                return await work(session)
        finally:
            await db.dispose()

    return asyncio.run(run())


def test_the_migrations_create_every_table_and_run_twice_harmlessly(
    room_settings: Settings,
) -> None:
    async def work() -> tuple[list[str], str]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            await db.upgrade()
            names = await db.table_names()
            async with db.session() as session:
                version = await session.scalar(text("SELECT version_num FROM alembic_version"))
            return names, str(version)
        finally:
            await db.dispose()

    names, version = asyncio.run(work())
    assert set(Base.metadata.tables) | {"alembic_version"} == set(names)
    assert version == "0010"


def test_the_migrations_match_the_models(room_settings: Settings) -> None:
    """A model changed without its migration shows here as a difference."""

    async def work() -> list[object]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.engine.connect() as connection:
                return await connection.run_sync(
                    lambda sync: compare_metadata(
                        MigrationContext.configure(sync, opts={"compare_type": True}),
                        Base.metadata,
                    )
                )
        finally:
            await db.dispose()

    assert asyncio.run(work()) == []


def test_a_movement_that_would_overdraw_is_refused_and_changes_nothing(
    room_settings: Settings,
) -> None:
    async def work(session: AsyncSession) -> None:
        anna = await account_store.create_account(session, grant=100, name="anna")
        await session.commit()
        wallet = ledger.wallet_key(anna.id)
        with pytest.raises(ledger.InsufficientFundsError):
            await ledger.move(session, ledger.Kind.BUY_IN, wallet, ledger.table_key(1), 101)
        # The session goes on: the refused movement left no trace.
        await ledger.move(session, ledger.Kind.FEE, wallet, ledger.HOUSE, 100)
        await session.commit()
        assert await ledger.balance(session, wallet) == 0
        assert await ledger.balance(session, ledger.HOUSE) == 100
        assert await ledger.balance(session, ledger.table_key(1)) == 0
        assert await ledger.audit(session) == (0, [])

    on_database(room_settings, work)


def test_the_database_itself_refuses_a_negative_balance(room_settings: Settings) -> None:
    """Not only the code: an UPDATE that bypasses it hits the CHECK constraint."""

    async def work(session: AsyncSession) -> None:
        anna = await account_store.create_account(session, grant=50, name="anna")
        await session.commit()
        with pytest.raises(IntegrityError):
            await session.execute(
                update(LedgerAccount)
                .where(LedgerAccount.key == ledger.wallet_key(anna.id))
                .values(balance=-1)
            )
        await session.rollback()
        with pytest.raises(IntegrityError):
            await session.execute(
                text(
                    "INSERT INTO ledger_entries (created_at, kind, from_id, to_id, amount) "
                    "VALUES (CURRENT_TIMESTAMP, 'grant', 1, 2, 0)"
                )
            )
        await session.rollback()
        # The source of play money is the one account that goes negative.
        grants = await session.scalar(
            select(LedgerAccount).where(LedgerAccount.key == ledger.GRANTS)
        )
        assert grants is not None
        assert (grants.balance, grants.may_go_negative) == (-50, True)

    on_database(room_settings, work)


def test_random_movements_keep_the_ledger_at_zero_and_no_balance_negative(
    room_settings: Settings,
) -> None:
    async def work(session: AsyncSession) -> None:
        players = [
            await account_store.create_account(session, grant=1_000, name=f"p{n}") for n in range(4)
        ]
        keys = [ledger.wallet_key(p.id) for p in players]
        keys += [ledger.HOUSE, ledger.table_key(1), ledger.tournament_key(1)]
        await session.commit()
        chooser = random.Random(14)
        refused = 0
        for _ in range(120):
            source, destination = chooser.sample(keys, 2)
            amount = chooser.randint(1, 600)
            before = await ledger.balance(session, source)
            try:
                await ledger.move(session, ledger.Kind.BUY_IN, source, destination, amount)
            except ledger.InsufficientFundsError:
                refused += 1
                assert before < amount
            await session.commit()
        total, drifted = await ledger.audit(session)
        assert (total, drifted) == (0, [])
        balances = await session.scalars(
            select(LedgerAccount.balance).where(LedgerAccount.key != ledger.GRANTS)
        )
        assert min(balances) >= 0
        assert refused > 0  # the sequence did try to overdraw

    on_database(room_settings, work)


def test_the_default_lobby_opens_once(room_settings: Settings) -> None:
    async def work(session: AsyncSession) -> None:
        assert await lobby_store.open_default_lobby(session) is True
        await session.commit()
        assert await lobby_store.open_default_lobby(session) is False
        tables = list(await session.scalars(select(RoomTable).order_by(RoomTable.id)))
        by_rules: dict[str, set[int]] = {}
        for table in tables:
            by_rules.setdefault(table.rules, set()).add(table.big_blind or table.ante)
            lobby_store.cash_settings(table)  # each is a valid room table
        assert {rules: len(stakes) for rules, stakes in by_rules.items()} == {
            "holdem": 2,
            "italian-classic": 2,
            "italian-32": 2,
        }
        tournaments = list(await session.scalars(select(Tournament)))
        assert sorted(t.rules for t in tournaments) == ["holdem", "italian-32", "italian-classic"]
        for tournament in tournaments:
            settings = await lobby_store.tournament_settings(session, tournament)
            assert settings.sit_and_go
            assert len(await lobby_store.tournament_levels(session, tournament.id)) >= 10

    on_database(room_settings, work)


def test_a_table_the_room_would_refuse_is_not_stored(room_settings: Settings) -> None:
    async def work(session: AsyncSession) -> None:
        spec = lobby_store.TableSpec(
            name="bad", rules="italian-32", seats=5, stakes=Stakes(small_blind=5, big_blind=15),
            min_buy_in=100, max_buy_in=500,
        )  # fmt: skip
        with pytest.raises(ValueError, match="controbuio is twice the buio"):
            await lobby_store.create_table(session, spec)
        await session.commit()
        assert list(await session.scalars(select(RoomTable))) == []

    on_database(room_settings, work)


def test_a_session_that_only_reads_never_holds_up_the_writer(room_settings: Settings) -> None:
    # Under load a reconnection's session lookup held SQLite's write lock across its
    # awaits, and the table service's writer waited in the busy loop behind it: a
    # reading session's transaction takes no lock.
    async def work() -> tuple[bool, int]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.reading() as session:
                await session.scalar(select(LedgerAccount.balance))  # its transaction is open
                write = asyncio.ensure_future(
                    db.transaction(
                        lambda connection: (
                            connection.execute(
                                LedgerAccount.__table__.insert().values(
                                    key="probe", balance=0, may_go_negative=False
                                )
                            ).rowcount
                        )
                    )
                )
                finished, _ = await asyncio.wait([write], timeout=5.0)
            return write in finished, await write
        finally:
            await db.dispose()

    written_while_reading, rows = asyncio.run(work())
    assert written_while_reading
    assert rows == 1


def test_a_session_that_only_reads_cannot_write_on_postgresql(room_settings: Settings) -> None:
    # Every GET reads in such a session: on PostgreSQL the database itself refuses a write
    # there (BEGIN READ ONLY), so a GET that changed state would fail, not change it.
    if room_settings.database_schema is None:
        pytest.skip("SQLite has no read-only transaction (its reading session takes no lock)")

    async def work() -> tuple[str | None, int]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            state = None
            async with db.reading() as session:
                try:
                    session.add(LedgerAccount(key="probe", balance=0, may_go_negative=False))
                    await session.flush()
                except DBAPIError as error:
                    state = getattr(error.orig, "sqlstate", None)
            async with db.reading() as session:
                count = await session.scalar(select(func.count()).select_from(LedgerAccount))
            return state, int(count or 0)
        finally:
            await db.dispose()

    state, accounts = asyncio.run(work())
    assert state == "25006"  # read_only_sql_transaction
    assert accounts == 0


def test_rows_inserted_by_the_driver_read_back_as_sqlalchemy_writes_them(
    room_settings: Settings,
) -> None:
    # The group writer's inserts go to the driver's executemany with each value converted
    # by its column's own bind processor: JSON and times must read back exactly as through
    # Connection.execute, on each database.
    when = dt.datetime(2026, 12, 3, 8, 30, 15, 123456, tzinfo=dt.UTC)
    record = {"type": "action", "cards": ["A♥", "10♦"], "amount": 40, "nested": {"all_in": True}}

    def write(connection: Connection, table_id: int) -> int:
        hand_id = connection.scalar(
            Hand.__table__.insert()
            .values(
                table_id=table_id,
                number=1,
                rules="holdem",
                seed="00",
                commitment="00",
                setup={},
                state="playing",
                started_at=when,
            )
            .returning(Hand.__table__.c.id)
        )
        assert hand_id is not None
        rows = [
            {"hand_id": hand_id, "number": number, "seat": None, "kind": "action",
             "data": {**record, "number": number}, "created_at": when}
            for number in range(3)
        ]  # fmt: skip
        RowsInsert(HandAction.__table__, list(rows[0])).run(connection, rows[:2])
        connection.execute(HandAction.__table__.insert(), rows[2:])
        return int(hand_id)

    async def work() -> list[tuple[object, ...]]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.session() as session:
                spec = lobby_store.TableSpec(name="t", rules="holdem", seats=2,
                                             stakes=Stakes(small_blind=1, big_blind=2),
                                             min_buy_in=40, max_buy_in=200)  # fmt: skip
                table = await lobby_store.create_table(session, spec, lobby=True)
                await session.commit()
            hand_id = await db.transaction(lambda connection: write(connection, table.id))
            async with db.reading() as session:
                found = await session.execute(
                    select(HandAction.number, HandAction.data, HandAction.created_at)
                    .where(HandAction.hand_id == hand_id)
                    .order_by(HandAction.number)
                )
                return [tuple(row) for row in found]
        finally:
            await db.dispose()

    (first, second, through_sqlalchemy) = asyncio.run(work())
    assert [row[0] for row in (first, second, through_sqlalchemy)] == [0, 1, 2]
    assert first[1] == {**record, "number": 0} and second[1] == {**record, "number": 1}
    assert first[2] == second[2] == through_sqlalchemy[2]


def _probe_insert(key: str) -> Callable[[Connection], int]:
    def write(connection: Connection) -> int:
        insert = LedgerAccount.__table__.insert().values(key=key, balance=0, may_go_negative=False)
        return int(connection.execute(insert).rowcount)

    return write


def test_a_sqlite_writer_transaction_runs_on_the_event_loop_when_the_lock_is_free(
    tmp_path: Path,
) -> None:
    # No thread to hand the transaction to and wait for (docs/benchmarks-changelog.md): the thread
    # that runs it is the loop's own.
    async def work() -> tuple[int, int]:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}")
        try:
            await db.upgrade()

            def write(connection: Connection) -> int:
                _probe_insert("probe")(connection)
                return threading.get_ident()

            return await db.transaction(write), threading.get_ident()
        finally:
            await db.dispose()

    writer, loop = asyncio.run(work())
    assert writer == loop


def test_a_sqlite_writer_transaction_waits_for_the_lock_in_its_thread_not_on_the_loop(
    tmp_path: Path,
) -> None:
    # Another connection (the lobby's writes) holds the write lock: the transaction is not
    # refused and does not stop the loop; it runs in the writer's thread once the lock is free.
    path = tmp_path / "room.db"

    async def work() -> tuple[bool, int, int, list[str]]:
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await db.upgrade()
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            holder.execute(
                "INSERT INTO ledger_accounts (key, balance, may_go_negative) VALUES ('held', 0, 0)"
            )
            loop_turns = 0

            async def turns() -> None:
                nonlocal loop_turns
                while True:
                    await asyncio.sleep(0.01)
                    loop_turns += 1

            ticking = asyncio.ensure_future(turns())
            write = asyncio.ensure_future(db.transaction(_probe_insert("probe")))
            finished, _ = await asyncio.wait([write], timeout=0.5)
            waited = write not in finished
            holder.execute("COMMIT")
            holder.close()
            rows = await write
            ticking.cancel()
            async with db.reading() as session:
                keys = list(await session.scalars(select(LedgerAccount.key)))
            return waited, rows, loop_turns, sorted(keys)
        finally:
            await db.dispose()

    waited, rows, loop_turns, keys = asyncio.run(work())
    assert waited  # it waited for the lock...
    assert loop_turns >= 20  # ...while the loop went on
    assert rows == 1
    assert keys == ["held", "probe"]


def test_the_loop_s_sqlite_writer_keeps_one_connection_and_takes_a_fresh_one_after_a_refusal(
    tmp_path: Path,
) -> None:
    # Checking a connection out of the pool for every group cost some 40 us of CPU, so the
    # loop's writer keeps one; a BEGIN refused (the lock busy) leaves SQLAlchemy's
    # connection half begun, so the next transaction takes another, which works.
    path = tmp_path / "room.db"

    def connection_of(key: str) -> Callable[[Connection], Connection]:
        def write(connection: Connection) -> Connection:
            _probe_insert(key)(connection)
            return connection

        return write

    async def work() -> tuple[list[Connection], list[str]]:
        db = Database(f"sqlite+aiosqlite:///{path}")
        try:
            await db.upgrade()
            used = [await db.transaction(connection_of(key)) for key in ("a", "b")]
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            waiting = asyncio.ensure_future(db.transaction(connection_of("c")))
            await asyncio.sleep(0.2)
            holder.execute("COMMIT")
            holder.close()
            used.append(await waiting)  # in the writer's thread, on its own connection
            used.append(await db.transaction(connection_of("d")))
            used.append(await db.transaction(connection_of("e")))
            async with db.reading() as session:
                keys = list(await session.scalars(select(LedgerAccount.key)))
            return used, sorted(keys)
        finally:
            await db.dispose()

    used, keys = asyncio.run(work())
    assert used[0] is used[1]  # one connection from one group to the next
    assert used[3] is used[4] and used[3] is not used[0]  # a fresh one after the refusal
    assert keys == ["a", "b", "c", "d", "e"]


def test_which_accounts_have_a_live_session_is_asked_in_parts(room_settings: Settings) -> None:
    """``accounts_with_sessions`` over more ids than one query takes (500 a time): the
    accounts with a session not expired, none of those whose only session expired."""

    async def work(session: AsyncSession) -> None:
        now = utc_now()
        made = [await account_store.create_account(session, grant=0) for _ in range(3)]
        for number, (account, days) in enumerate(zip(made, (1, -1, 1), strict=True)):
            await account_store.start_session(
                session, account, token_hash=f"{number:064d}", csrf_token="c",
                now=now - dt.timedelta(days=2) if days < 0 else now, days=1,
            )  # fmt: skip
        await session.commit()
        asked = [*range(-1_200, 0), *(account.id for account in made)]  # (theirs asked last)
        live = await account_store.accounts_with_sessions(session, asked, now=now)
        assert live == {made[0].id, made[2].id}

    on_database(room_settings, work)


def test_a_session_of_a_suspended_account_opens_nothing(room_settings: Settings) -> None:
    """A log-in that raced its account's suspension (checked, then the suspension committed
    with every session ended, then the log-in's session stored): that session is no one's,
    and its sockets are among those the room closes."""

    async def work(session: AsyncSession) -> None:
        now = utc_now()
        kept, raced = [await account_store.create_account(session, grant=0) for _ in range(2)]
        await account_store.suspend(session, raced.display_name, "spam", now=now)
        for number, account in enumerate((kept, raced)):
            await account_store.start_session(
                session, account, token_hash=f"{number:064d}", csrf_token="c", now=now, days=1
            )
        await session.commit()
        assert await account_store.session_account(session, f"{0:064d}", now=now) is not None
        assert await account_store.session_account(session, f"{1:064d}", now=now) is None
        live = await account_store.accounts_with_sessions(session, [kept.id, raced.id], now=now)
        assert live == {kept.id}
        await account_store.reinstate(session, raced.display_name)
        assert await account_store.session_account(session, f"{1:064d}", now=now) is not None

    on_database(room_settings, work)


def test_the_chat_is_read_in_the_order_it_was_said(room_settings: Settings) -> None:
    """``said_lines``: by the wall-clock time kept with each line, across tables; lines
    stored before the time was kept first, table by table; by a player whatever the case;
    the latest ``last``."""
    from mazziere.server.storage.chat import said_lines
    from mazziere.server.storage.models import RoomTable, TableCommand

    async def work(session: AsyncSession) -> None:
        tables = [
            RoomTable(name=name, rules="holdem", seats=2, small_blind=1, big_blind=2,
                      min_buy_in=40, max_buy_in=200)
            for name in ("Uno", "Due")
        ]  # fmt: skip
        session.add_all(tables)
        await session.flush()
        one, two = (table.id for table in tables)
        said = [  # (table, seq, epoch seconds or None, name, text)
            (two, 1, None, "Anna", "old at two"),
            (one, 5, None, "anna", "old at one"),
            (one, 6, 1_800_000_200, "Bruno", "second"),
            (two, 2, 1_800_000_100, "ANNA", "first"),
            (one, 7, 1_800_000_300, "anna", "third"),
        ]
        for table, seq, at, name, words in said:
            data = {"name": name, "text": words} | ({"said_at": at} if at else {})
            session.add(TableCommand(table_id=table, seq=seq, kind="chat", at=0.0, data=data))
        session.add(TableCommand(table_id=one, seq=8, kind="leave", at=0.0, data={"name": "anna"}))
        await session.commit()
        everything = await said_lines(session)
        assert [line.text for line in everything] == [
            "old at one", "old at two", "first", "second", "third",
        ]  # fmt: skip
        annas = await said_lines(session, player="Anna", last=3)
        assert [line.text for line in annas] == ["old at two", "first", "third"]
        at_one = await said_lines(session, table=one)
        assert [(line.table_name, line.text) for line in at_one] == [
            ("Uno", "old at one"), ("Uno", "second"), ("Uno", "third"),
        ]  # fmt: skip
        assert everything[2].at == dt.datetime(2027, 1, 15, 8, 1, 40, tzinfo=dt.UTC)

    on_database(room_settings, work)
