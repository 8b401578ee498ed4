"""The database connection: one async engine, sessions, migrations, and the writer's
transactions (:meth:`Database.transaction`).

>>> import asyncio
>>> async def demo() -> list[str]:
...     db = Database("sqlite+aiosqlite:///:memory:")
...     await db.upgrade()
...     names = await db.table_names()
...     await db.dispose()
...     return names
>>> "ledger_entries" in asyncio.run(demo())
True
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import StaticPool

from mazziere.server import crash

if TYPE_CHECKING:
    from mazziere.server.settings import Settings

__all__ = [
    "MIGRATIONS",
    "READ_ONLY",
    "UNAVAILABLE_ERRORS",
    "UNAVAILABLE_SQLSTATES",
    "Database",
    "PoolLimits",
    "database_unavailable",
    "open_database",
    "room_database_url",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The Alembic scripts, shipped inside the package."""

READ_ONLY = "mazziere_read_only"
"""The execution option of :meth:`Database.reading`'s connections (their transactions only read)."""

SQLITE_BUSY_SECONDS = 60.0
"""How long a SQLite writer waits for another's transaction before giving up."""

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")

ROOM_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
"""The databases the room runs on, each with the one (async) driver it reaches it through."""

_SHORT_NAMES = {"postgres": "postgresql"}
"""Names some hosting services give PostgreSQL in the URLs they hand out."""


def room_database_url(url: str) -> str:
    """``url`` as the room connects to it, its database's driver named; a ``ValueError``
    that says what is wrong with it otherwise.

    A URL without a driver (``postgresql://...`` as a hosting service hands it out,
    ``sqlite:///room.db``) is given the room's; another driver, or another database, is
    refused before anything starts (a driver not installed failed deep in SQLAlchemy).

    >>> room_database_url("postgresql+asyncpg://room@db.example:5432/room")
    'postgresql+asyncpg://room@db.example:5432/room'
    >>> room_database_url("postgres://room:secret@db.example/room")
    'postgresql+asyncpg://room:secret@db.example/room'
    >>> room_database_url("sqlite:////var/lib/mazziere/room.db")
    'sqlite+aiosqlite:////var/lib/mazziere/room.db'
    >>> room_database_url("postgresql+psycopg2://room@db.example/room")
    Traceback (most recent call last):
    ...
    ValueError: the room reaches PostgreSQL through asyncpg (postgresql+asyncpg://...), not psycopg2
    >>> room_database_url("mysql://room@db.example/room")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database 'mysql': use SQLite or PostgreSQL
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError(f"not a database URL: {url!r}") from None
    backend = _SHORT_NAMES.get(parsed.get_backend_name(), parsed.get_backend_name())
    wanted = ROOM_DRIVERS.get(backend)
    if wanted is None:
        raise ValueError(f"unsupported database {backend!r}: use SQLite or PostgreSQL")
    if "+" in parsed.drivername and f"{backend}+{parsed.get_driver_name()}" != wanted:
        name = "SQLite" if backend == "sqlite" else "PostgreSQL"
        raise ValueError(
            f"the room reaches {name} through {wanted.partition('+')[2]} ({wanted}://...), "
            f"not {parsed.get_driver_name()}"
        )
    # The rest of the URL as it was written (rendering the parsed URL could quote it).
    return wanted + url[url.index(":") :]


T = TypeVar("T")


def _sqlite_connect(synchronous: str) -> Any:
    def connected(dbapi_connection: Any, _record: Any) -> None:
        # SQLite checks foreign keys only when asked, per connection.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # Write-ahead logging: a commit is one append to the log (a quarter of the time of
        # the rollback journal on this machine: the table service commits every action).
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a commit is in the log when it returns, and survives the server being
        # killed at any moment; the log is synced to the disk at checkpoints, so only a
        # crash of the machine itself may lose the last commits.  FULL syncs every commit
        # (4 ms median, 60 ms p99 on a busy disk here; docs/reliability.md).
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()
        _sqlite_autocommit(dbapi_connection)

    return connected


def _never_wait_for_the_lock(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=0")
    cursor.close()


def _sqlite_autocommit(dbapi_connection: Any) -> None:
    # The driver's own transaction handling breaks savepoints: SQLAlchemy's
    # recipe turns it off and begins each transaction itself (below).
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection: Connection) -> None:
    # IMMEDIATE takes the write lock at once: transactions queue up (SQLite has
    # one writer anyway) instead of failing when a reader later wants to write.
    # A transaction that only reads begins DEFERRED: with write-ahead logging it takes
    # no lock, so it neither waits for the writer nor holds it up.  (Under load, every
    # reconnection's session lookup holding the write lock across its awaits made the
    # table service's writer wait in SQLite's busy loop, hundreds of ms at a time.)
    if connection.get_execution_options().get(READ_ONLY):
        connection.exec_driver_sql("BEGIN")
    else:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _lock_busy(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the write lock (nothing of
    the transaction ran: it may run again, waiting for the lock).

    ``sqlite_errorcode`` is SQLite's extended code: its low byte is the primary one (a
    ``SQLITE_BUSY_RECOVERY`` is busy too).

    >>> busy = sqlite3.OperationalError("database is locked")
    >>> busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
    >>> _lock_busy(OperationalError("BEGIN IMMEDIATE", {}, busy))
    True
    """
    orig = error.orig
    code = getattr(orig, "sqlite_errorcode", None)
    return (
        isinstance(orig, sqlite3.OperationalError)
        and code is not None
        and (code & 0xFF == sqlite3.SQLITE_BUSY)
    )


UNAVAILABLE_ERRORS = (PoolTimeoutError, OperationalError)
"""The database not answering in time, or not at all: no connection free within the pool's
wait, a lost connection, a full disk, a lock held too long."""


UNAVAILABLE_SQLSTATES = ("08", "25006", "53", "57P", "58")
"""PostgreSQL's error codes (classes, or one code) of a database that cannot do the work for
now: a connection lost or refused, a read-only transaction (a standby after a fail-over),
insufficient resources (a full disk, too many connections), an operator's intervention (a
shutdown), a system error (I/O).  The driver reports these as plain database errors."""


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` is the database unavailable for now (:data:`UNAVAILABLE_ERRORS`,
    or PostgreSQL's :data:`UNAVAILABLE_SQLSTATES`), which passes, rather than a bug or a
    refused change.

    >>> database_unavailable(PoolTimeoutError("QueuePool limit reached"))
    True
    >>> class DiskFull(Exception):
    ...     sqlstate = "53100"
    >>> database_unavailable(DBAPIError("INSERT", {}, DiskFull("could not extend file")))
    True
    >>> class BadColumn(Exception):
    ...     sqlstate = "42703"
    >>> database_unavailable(DBAPIError("SELECT", {}, BadColumn("no such column")))
    False
    >>> database_unavailable(ValueError("a bug"))
    False
    """
    if isinstance(error, UNAVAILABLE_ERRORS):
        return True
    state = getattr(getattr(error, "orig", None), "sqlstate", None)
    return (
        isinstance(error, DBAPIError)
        and isinstance(state, str)
        and state.startswith(UNAVAILABLE_SQLSTATES)
    )


@dataclass(frozen=True)
class PoolLimits:
    """How many connections the async engine keeps and may add, and how long a session
    waits for one (SQLAlchemy's ``pool_size``, ``max_overflow``, ``pool_timeout``)."""

    size: int = 5
    overflow: int = 10
    timeout_seconds: float = 30.0


class Database:
    """An async engine for ``url`` and a session maker.

    ``schema`` (PostgreSQL only) keeps every table in that schema: the tests
    give each run its own.  ``sqlite_synchronous`` (SQLite only): ``NORMAL`` (a commit
    survives the server's crash, not the machine's) or ``FULL`` (every commit synced).
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        sqlite_synchronous: str = "NORMAL",
        pool: PoolLimits = PoolLimits(),
    ) -> None:
        url = room_database_url(url)
        parsed = make_url(url)
        self.url = url
        self.dialect = parsed.get_backend_name()
        self.in_memory = False
        """An in-memory SQLite database: it lives in this process's one connection."""
        self.schema = schema
        options: dict[str, Any] = {}
        if self.dialect == "sqlite":
            database = parsed.database or ""
            self.in_memory = database in ("", ":memory:") or "mode=memory" in database
            if database in ("", ":memory:"):
                # One connection shared by every session: an in-memory database lives in it.
                options["poolclass"] = StaticPool
            elif not database.startswith("file:"):
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            if schema is not None:
                raise ValueError("a database schema is for PostgreSQL only")
            # A writer waits for the lock up to this long (the driver's default, 5 s, is
            # exceeded when hundreds of players arrive at once: "database is locked").
            options["connect_args"] = {"timeout": SQLITE_BUSY_SECONDS}
        elif schema is not None:  # PostgreSQL: the only other database room_database_url lets in
            if not _SCHEMA_NAME.fullmatch(schema):
                raise ValueError(f"not a plain schema name: {schema!r}")
            options["connect_args"] = {"server_settings": {"search_path": schema}}
        if "poolclass" not in options:
            options.update(
                pool_size=pool.size, max_overflow=pool.overflow, pool_timeout=pool.timeout_seconds
            )
        self.engine: AsyncEngine = create_async_engine(url, **options)
        if self.dialect == "sqlite":
            if sqlite_synchronous.upper() not in ("NORMAL", "FULL"):
                raise ValueError(
                    f"SQLite synchronous is NORMAL or FULL, not {sqlite_synchronous!r}"
                )
            connected = _sqlite_connect(sqlite_synchronous.upper())
            event.listen(self.engine.sync_engine, "connect", connected)
            event.listen(self.engine.sync_engine, "begin", _sqlite_begin)
        self.writer_engine: Engine | None = None
        """A SQLite file's second, synchronous engine: the table service's transactions run
        on it in a thread of their own when the write lock is taken (:meth:`transaction`)."""
        self.eager_writer_engine: Engine | None = None
        """The same, never waiting for the lock: the transactions run on the event loop
        itself when the lock is free (:meth:`transaction`)."""
        self._writer_thread: ThreadPoolExecutor | None = None
        self._eager_connection: Connection | None = None
        """The event loop's connection of :attr:`eager_writer_engine`, kept open from one
        transaction to the next (outside a transaction it holds no lock and no snapshot)."""
        if self.dialect == "sqlite" and "poolclass" not in options:
            sqlite_url = parsed.set(drivername="sqlite+pysqlite")

            def writer(*, waits_for_the_lock: bool) -> Engine:
                # Used by the loop's thread and the writer's; closed by whoever disposes.
                engine = create_engine(
                    sqlite_url,
                    connect_args={"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False},
                )
                event.listen(engine, "connect", connected)
                if not waits_for_the_lock:  # its set-up may wait (once), its transactions never
                    event.listen(engine, "connect", _never_wait_for_the_lock)
                event.listen(engine, "begin", _sqlite_begin)
                return engine

            self.writer_engine = writer(waits_for_the_lock=True)
            self.eager_writer_engine = writer(waits_for_the_lock=False)
            self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="database writer")
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        read_only: dict[str, Any] = {READ_ONLY: True}
        if self.dialect == "postgresql":
            # BEGIN READ ONLY: PostgreSQL itself refuses a write in a transaction meant only
            # to read (a GET that changed state would be a bug, and fail loudly).
            read_only["postgresql_readonly"] = True
        self.reader: AsyncEngine = self.engine.execution_options(**read_only)
        """The engine for transactions that only read (:meth:`reading`)."""
        self.read_sessions = async_sessionmaker(self.reader, expire_on_commit=False)

    @property
    def engines(self) -> list[Engine]:
        """Every engine's synchronous core (where event listeners go)."""
        engines = [self.engine.sync_engine]
        for engine in (self.writer_engine, self.eager_writer_engine):
            if engine is not None:
                engines.append(engine)
        return engines

    async def transaction(self, write: Callable[[Connection], T]) -> T:
        """``write(connection)`` in one transaction, committed when it returns.

        On a SQLite file it runs on a plain ``sqlite3`` connection, on the event loop itself
        when the write lock is free: a commit of the write-ahead log is an append that takes
        no longer than its statements' own work, and the transaction then waits for no
        thread (in a thread of its own, each statement gave the interpreter's lock back and
        waited for it again behind the busy loop: a group of 0.3 ms of work took 8 ms at the
        99th percentile, and every action waits for its group).  When another connection
        holds the lock (the lobby's writes), the loop does not wait in SQLite's busy loop:
        the transaction runs in the writer's own thread, which waits for the lock.  Where
        the driver is async (PostgreSQL, an in-memory SQLite) it runs on the async engine
        (``run_sync``).
        """
        engine, eager = self.writer_engine, self.eager_writer_engine
        if engine is None or eager is None:
            async with self.engine.begin() as connection:
                return await connection.run_sync(write)
        # One connection for all of them: checking one out of the pool and back in cost
        # some 40 us of CPU a transaction (docs/reliability.md, the write path).
        now = self._eager_connection
        if now is None or now.closed or now.invalidated:
            now = self._eager_connection = eager.connect()
        try:
            transaction = now.begin()  # BEGIN IMMEDIATE: the lock, or "busy" at once
        except Exception as error:
            # A begin that failed leaves SQLAlchemy's connection half in it: the next group
            # takes a fresh one.
            now.close()
            self._eager_connection = None
            if not (isinstance(error, OperationalError) and _lock_busy(error)):
                raise
        else:
            with transaction:
                return write(now)

        def in_transaction() -> T:
            with engine.begin() as connection:
                return write(connection)

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer_thread, in_transaction)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session; the caller commits (anything not committed is rolled back)."""
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncSession]:
        """A session that only reads: on SQLite it takes no lock, so the writer never waits
        for it; on PostgreSQL its transactions are READ ONLY (a write through it fails there,
        and may fail on SQLite with "database is locked": use :meth:`session`).

        >>> async def demo() -> int:
        ...     db = Database("sqlite+aiosqlite:///:memory:")
        ...     await db.upgrade()
        ...     async with db.reading() as session:
        ...         found = await session.scalar(text("SELECT count(*) FROM accounts"))
        ...     await db.dispose()
        ...     return int(found)
        >>> asyncio.run(demo())
        0
        """
        async with self.read_sessions() as session:
            yield session

    async def upgrade(self, revision: str = "head") -> None:
        """Apply the Alembic migrations up to ``revision`` (creating the schema if needed)."""
        async with self.engine.begin() as connection:
            if self.schema is not None:
                await connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            await connection.run_sync(_run_upgrade, revision)

    async def table_names(self) -> list[str]:
        """The tables that exist (in the schema, if one is set)."""
        async with self.engine.connect() as connection:
            names: list[str] = await connection.run_sync(
                lambda sync: inspect(sync).get_table_names()
            )
        return sorted(names)

    async def dispose(self) -> None:
        """Close every connection."""
        await self.engine.dispose()
        if self._eager_connection is not None:
            self._eager_connection.close()
            self._eager_connection = None
        if self.eager_writer_engine is not None:
            self.eager_writer_engine.dispose()
        if self.writer_engine is not None and self._writer_thread is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._writer_thread, self.writer_engine.dispose
            )
            self._writer_thread.shutdown()


def _run_upgrade(connection: Connection, revision: str) -> None:
    """Alembic's upgrade with the shipped migrations (no ``alembic.ini`` needed)."""
    # Imported here: of the processes that open the database, only the one that migrates
    # needs Alembic (a tenth of a second of CPU to import; the table store's writer child
    # and the commands that only read start without it).
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def open_database(settings: Settings) -> Database:
    """The room's database as ``settings`` say (the server's, and its table store writer's:
    the child opens it the same way), with the tests' refused-writes switch where set.

    Here rather than with the server's context, which imports FastAPI: the writer's
    process, started with each server, would import it for nothing."""
    db = Database(
        settings.database_url,
        schema=settings.database_schema,
        sqlite_synchronous=settings.sqlite_synchronous,
        pool=PoolLimits(
            settings.database_pool_size,
            settings.database_pool_overflow,
            settings.database_pool_timeout,
        ),
    )
    if settings.test_refuse_writes_while is not None:  # tests only
        for engine in db.engines:
            crash.refuse_writes_while(engine, settings.test_refuse_writes_while)
    return db
