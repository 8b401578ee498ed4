"""Where the table service keeps its tables: the database (SQLAlchemy, SQLite or PostgreSQL).

One :class:`~mazziere.server.tables.Batch` is what one command wrote: the command
(``table_commands``: what a rebuild replays), the chips it moved (ledger entries:
buy-ins, top-ups, cash-outs, rake), the hand it dealt (``hands`` with the secret seed and
its commitment, ``hand_seats``), each record of the hand in order (``hand_actions``), the
hand's result and full history when it ends, and the seats as they are now (``seats``,
read by the lobby).

**Group commits.**  Every table task waits for its batch to be stored before it sends the
batch's events (an action is stored before anyone hears of it), so the store is on the
path of every action.  One writer task takes every batch queued since it last ran (while
the previous transaction was committing, where that waits: PostgreSQL, or SQLite's writer
thread) and writes them all in one transaction (SQLAlchemy Core, no ORM objects), then
wakes each table: a thousand tables acting at once cost a few commits, not a thousand,
and a database of one writer (SQLite) is never fought over by hundreds of table tasks.
A group is started as soon as the previous one ends, so a lone action waits for one commit
only.  The group's rows are written by a :class:`GroupWriter`: on the event loop, or in the
server's child process (:mod:`~mazziere.server.writer_process`), which then does this work
on another core while the loop serves the sockets.  If a group fails, nothing of it was
stored, and its batches are written again one transaction each: the one that cannot be
stored (a wallet that cannot pay, a database refusing writes) fails alone, and its table
is rebuilt from what was stored (:meth:`~mazziere.server.tables.TableTask.rebuild`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from mazziere.room.structure import Stakes
from mazziere.server import crash
from mazziere.server.storage import Database, seating
from mazziere.server.storage import ledger as db_ledger
from mazziere.server.storage.database import database_unavailable
from mazziere.server.storage.models import (
    Account,
    Hand,
    HandAction,
    HandSeat,
    LedgerAccount,
    RoomTable,
    Seat,
    TableCheckpoint,
    TableCommand,
    Tournament,
    TournamentStanding,
    WaitingEntry,
    utc_now,
)
from mazziere.server.tables import (
    Batch,
    HostControls,
    KeptSeat,
    StoredCheckpoint,
    StoredCommand,
    StoreUnavailableError,
    TableStore,
    WaitingList,
)

__all__ = [
    "DatabaseTableStore",
    "GroupWriter",
    "GroupWriting",
    "StoreFailedError",
    "StoreFailure",
    "refusing_writes",
]

log = logging.getLogger(__name__)

_COMMANDS = cast(Table, TableCommand.__table__)
_CHECKPOINTS = cast(Table, TableCheckpoint.__table__)
_HANDS = cast(Table, Hand.__table__)
_HAND_SEATS = cast(Table, HandSeat.__table__)
_HAND_ACTIONS = cast(Table, HandAction.__table__)
_LEDGER_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_SEATS = cast(Table, Seat.__table__)
_STANDINGS = cast(Table, TournamentStanding.__table__)
_TOURNAMENTS = cast(Table, Tournament.__table__)
_TABLES = cast(Table, RoomTable.__table__)
_WAITING = cast(Table, WaitingEntry.__table__)


class RowsInsert:
    """An ``INSERT`` of many rows of one table, compiled by SQLAlchemy once for each
    database, run by the driver's ``executemany``.

    ``Connection.execute`` of a prebuilt statement does the same work again at every call
    (its compiled form looked up by cache key, every parameter of every row converted
    through the generic execution context, its events): for the few rows of a group commit
    that was most of the database writer's CPU.  Here the statement is compiled once, each
    column's value is converted by the column type's own bind processor (JSON, dates: the
    conversion stays SQLAlchemy's), and ``exec_driver_sql`` hands the rows to the driver
    (its errors are SQLAlchemy's as before, its events fire as before).
    """

    __slots__ = ("_compiled", "keys", "table")

    def __init__(self, table: Table, keys: Sequence[str]) -> None:
        self.table = table
        self.keys = tuple(keys)
        self._compiled: dict[str, tuple[str, tuple[tuple[str, Any], ...]]] = {}

    def _compile(self, dialect: Dialect) -> tuple[str, tuple[tuple[str, Any], ...]]:
        compiled = insert(self.table).compile(dialect=dialect, column_keys=list(self.keys))
        order = compiled.positiontup
        if order is None:
            raise TypeError(f"{dialect.name}: a positional parameter style is needed")
        columns = self.table.c
        converters = tuple(
            (key, columns[key].type.dialect_impl(dialect).bind_processor(dialect)) for key in order
        )
        made = (compiled.string, converters)
        self._compiled[dialect.name] = made
        return made

    def run(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` (each with a value for every key)."""
        dialect = connection.dialect
        sql, converters = self._compiled.get(dialect.name) or self._compile(dialect)
        values = [
            tuple(row[key] if convert is None else convert(row[key]) for key, convert in converters)
            for row in rows
        ]
        connection.exec_driver_sql(sql, values)


# The statements of every group, made once (each new one costs its cache key again).
_INSERT_COMMANDS = RowsInsert(_COMMANDS, ("table_id", "seq", "kind", "at", "data"))
_INSERT_HAND_SEATS = RowsInsert(
    _HAND_SEATS, ("hand_id", "seat", "account_id", "bot", "name", "stack")
)
_INSERT_ACTIONS = RowsInsert(
    _HAND_ACTIONS, ("hand_id", "number", "seat", "kind", "data", "created_at")
)
_INSERT_SEATS = RowsInsert(
    _SEATS, ("table_id", "seat", "account_id", "bot", "stack", "sitting_out", "joined_at")
)
_INSERT_HAND = insert(_HANDS).returning(_HANDS.c.id)
_HAND_FINISHED = (
    update(_HANDS)
    .where(_HANDS.c.id == bindparam("hand"))
    .values(
        result=bindparam("result"),
        history=bindparam("history"),
        state="finished",
        finished_at=bindparam("finished_at"),
    )
)


@dataclass(slots=True)
class _Queued:
    table_id: int
    batch: Batch
    done: asyncio.Future[None]


@dataclass(slots=True)
class _Learnt:
    """What a transaction found out, kept only once it has committed."""

    next_seq: dict[int, int] = field(default_factory=dict)
    hands: dict[tuple[int, int], int] = field(default_factory=dict)
    ledger: dict[str, int] = field(default_factory=dict)


class DatabaseTableStore(TableStore):
    """The table service's store in the room's database.

    Reads run here; writes are queued and stored in groups by ``writer``: a
    :class:`GroupWriter` on this event loop (the default), or one in a process of its own
    (:class:`~mazziere.server.writer_process.WriterProcess`), which then does the
    database's share of every action on the machine's other core.
    """

    def __init__(
        self,
        db: Database,
        writer: GroupWriting | None = None,
        *,
        seat_kept_seconds: float = seating.SEAT_OFFER_SECONDS,
    ) -> None:
        self.db = db
        self.seat_kept_seconds = seat_kept_seconds
        self.writer: GroupWriting = writer if writer is not None else GroupWriter(db)
        self._queue: list[_Queued] = []
        self._writing: asyncio.Task[None] | None = None

    async def load(self, table_id: int, *, after: int = 0) -> list[StoredCommand]:
        """The table's commands after its first ``after``, in the order they were applied."""
        async with self.db.reader.connect() as connection:
            rows = await connection.execute(
                select(_COMMANDS.c.kind, _COMMANDS.c.at, _COMMANDS.c.data)
                .where(_COMMANDS.c.table_id == table_id, _COMMANDS.c.seq > after)
                .order_by(_COMMANDS.c.seq)
            )
            return [StoredCommand(kind, at, dict(data)) for kind, at, data in rows]

    async def checkpoint(self, table_id: int) -> StoredCheckpoint | None:
        """The table's latest checkpoint, if it has one."""
        async with self.db.reader.connect() as connection:
            row = (
                await connection.execute(
                    select(_CHECKPOINTS.c.seq, _CHECKPOINTS.c.version, _CHECKPOINTS.c.state).where(
                        _CHECKPOINTS.c.table_id == table_id
                    )
                )
            ).first()
        return None if row is None else StoredCheckpoint(row.seq, row.version, bytes(row.state))

    async def wallet(self, account_id: int) -> int:
        """The balance of the player's wallet."""
        async with self.db.reading() as session:
            return await db_ledger.balance(session, db_ledger.wallet_key(account_id))

    async def sit_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """:func:`mazziere.server.storage.seating.sit_refusal`."""
        async with self.db.reading() as session:
            return await seating.sit_refusal(
                session, table_id, account_id, lapse_seconds=self.seat_kept_seconds
            )

    async def waiting_list(self, table_id: int) -> WaitingList:
        """The table's waiting list, with the free seats kept for its first players
        (:func:`mazziere.server.storage.seating.keep_free_seats`: when each seat was first
        kept, and the places lost, stored)."""
        lapse = dt.timedelta(seconds=self.seat_kept_seconds)
        async with self.db.reading() as session:  # mostly nobody waits: no write lock then
            if not await seating.waiting_accounts(session, table_id):
                return WaitingList([], 0)
        async with self.db.session() as session:
            table = await session.get(RoomTable, table_id)
            if table is None or table.state == "closed":
                return WaitingList([], 0)
            now = utc_now()
            entries = await seating.keep_free_seats(
                session, table, now=now, lapse_seconds=self.seat_kept_seconds
            )
            kept = []
            for entry in entries:
                account = await session.get(Account, entry.account_id)
                assert account is not None and entry.offered_at is not None
                left = (entry.offered_at + lapse - now).total_seconds()
                kept.append(KeptSeat(entry.account_id, account.display_name, left))
            waiting = len(await seating.waiting_accounts(session, table_id))
            await session.commit()
        return WaitingList(kept, waiting)

    async def watch_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """:func:`mazziere.server.storage.seating.watch_refusal`."""
        async with self.db.reading() as session:
            return await seating.watch_refusal(session, table_id, account_id)

    async def controls(self, table_id: int) -> HostControls | None:
        """A private table's pause and wanted stakes, as its host set them."""
        async with self.db.reading() as session:
            row = await session.get(RoomTable, table_id)
            if row is None or not row.private:
                return None
            wanted = row.next_stakes or {
                "small_blind": row.small_blind,
                "big_blind": row.big_blind,
                "ante": row.ante,
            }
            return HostControls(paused=row.state == "paused", stakes=Stakes(**wanted))

    async def commit(self, table_id: int, batch: Batch) -> None:
        """Store the batch (in the next group), or raise and store nothing."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Queued(table_id, batch, done))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write_groups(), name="table store writer")
        await done

    async def settled(self) -> None:
        """Wait until every batch queued has been written, or has failed: a table's task
        stopped while its commit was on its way leaves that commit to the writer, which
        finishes it (the room's stop waits for it before the database closes)."""
        while self._writing is not None and not self._writing.done():
            await asyncio.wait({self._writing})

    async def _write_groups(self) -> None:
        """Hand what is queued to the writer, a group at a time, until nothing is left;
        then wake each table (with the reason, where its batch was not stored)."""
        while self._queue:
            group, self._queue = self._queue, []
            try:
                failures = await self.writer.write([(q.table_id, q.batch) for q in group])
            except Exception as error:  # the writer itself failed: nothing was stored
                log.exception("the table store's writer failed")
                failures = [StoreFailure.of(error)] * len(group)
            for queued, failure in zip(group, failures, strict=True):
                if queued.done.done():
                    continue
                if failure is None:
                    queued.done.set_result(None)
                else:
                    log.warning("table %s: a batch was not stored: %s", queued.table_id, failure)
                    queued.done.set_exception(failure.error())


@dataclass(frozen=True, slots=True)
class StoreFailure:
    """Why a batch was not stored, as plain data (it crosses to the table service from the
    writer's process): the database refusing writes for now (``unavailable``: the table
    holds and tries again), or the batch itself (the table rebuilds)."""

    unavailable: bool
    message: str

    @classmethod
    def of(cls, error: BaseException) -> StoreFailure:
        """The failure ``error`` stands for (:func:`refusing_writes`).

        >>> from sqlalchemy.exc import OperationalError
        >>> StoreFailure.of(OperationalError("BEGIN", {}, Exception("disk I/O error")))
        StoreFailure(unavailable=True, message='(builtins.Exception) disk I/O error')
        """
        if refusing_writes(error):
            return cls(True, str(error).splitlines()[0])
        return cls(False, f"{type(error).__name__}: {error}")

    def error(self) -> Exception:
        """The exception the table's commit raises."""
        if self.unavailable:
            return StoreUnavailableError(self.message)
        return StoreFailedError(self.message)


class StoreFailedError(Exception):
    """A batch that the database refused for a reason of the batch's own (a wallet that
    cannot pay, a bug): it is not tried again, and its table is rebuilt from what was stored."""


class GroupWriting(Protocol):
    """What writes the groups of the table store: each group in one transaction."""

    async def write(self, group: list[tuple[int, Batch]]) -> list[StoreFailure | None]:
        """Store every batch of ``group`` (each under its table's id); for each, ``None``
        if it was stored, else why not (nothing of it was stored)."""
        ...

    async def close(self) -> None:
        """Stop writing (what was written stays)."""
        ...


class GroupWriter:
    """Writes the table store's groups into the database, in the process it runs in.

    It keeps what the database told it (each table's next command number, its latest hand's
    id, the ledger's accounts) only once a transaction has committed.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self._next: dict[int, int] = {}
        self._hands: dict[int, tuple[int, int]] = {}
        """Each table's latest hand: its number and id (the hands before it are over: a
        dictionary of every hand grew for as long as the room ran)."""
        self._ledger: dict[str, int] = {}
        self.transactions = 0
        """Transactions committed (a group holds one batch or many)."""

    async def write(self, group: list[tuple[int, Batch]]) -> list[StoreFailure | None]:
        """The whole group in one transaction; if that fails, nothing of it was stored, and
        its batches are written again one transaction each: the one that cannot be stored
        fails alone."""
        try:
            await self._write(group)
            return [None] * len(group)
        except Exception as error:
            if len(group) == 1:
                return [StoreFailure.of(error)]
        failures: list[StoreFailure | None] = []
        for item in group:
            try:
                await self._write([item])
                failures.append(None)
            except Exception as alone:
                failures.append(StoreFailure.of(alone))
        return failures

    async def close(self) -> None:
        """Nothing to stop: the database is the caller's."""

    async def _write(self, group: list[tuple[int, Batch]]) -> None:
        """One transaction for the whole group (:meth:`_write_rows`); what it found out is
        kept only once it committed."""
        learnt = _Learnt()
        await self.db.transaction(lambda connection: self._write_rows(connection, group, learnt))
        self.transactions += 1
        self._next.update(learnt.next_seq)
        for (table_id, number), hand_id in learnt.hands.items():
            latest = self._hands.get(table_id)
            if latest is None or latest[0] <= number:
                self._hands[table_id] = (number, hand_id)
        self._ledger.update(learnt.ledger)

    def _write_rows(
        self, connection: Connection, group: list[tuple[int, Batch]], learnt: _Learnt
    ) -> None:
        """The group's rows: a statement per kind of row, not per row (synchronous: on a
        SQLite file it runs on the event loop or in the database's writer thread, elsewhere
        on the async engine through ``run_sync`` (:meth:`Database.transaction`); nothing here
        touches the event loop, which may be another thread's)."""
        commands: list[dict[str, Any]] = []
        hand_seats: list[dict[str, Any]] = []
        actions: list[dict[str, Any]] = []
        seats: dict[int, list[dict[str, Any]]] = {}
        checkpoints: dict[int, dict[str, Any]] = {}
        now = utc_now()
        for table_id, batch in _parts(group):
            if batch.logged:
                seq = learnt.next_seq.get(table_id) or self._next.get(table_id)
                if seq is None:
                    top = connection.scalar(
                        select(func.max(_COMMANDS.c.seq)).where(_COMMANDS.c.table_id == table_id)
                    )
                    seq = int(top or 0) + 1
                command = batch.command
                commands.append(
                    {"table_id": table_id, "seq": seq, "kind": command.kind,
                     "at": command.at, "data": command.data}
                )  # fmt: skip
                learnt.next_seq[table_id] = seq + 1
                if batch.checkpoint is not None:  # the latest replaces the one before
                    checkpoints[table_id] = {
                        "table_id": table_id, "seq": seq, "version": batch.checkpoint.version,
                        "state": batch.checkpoint.state, "created_at": now,
                    }  # fmt: skip
            hand_id: int | None = None
            if batch.hand_start is not None:
                hand_id = self._start_hand(connection, table_id, batch, learnt, now)
                hand_seats.extend(
                    {"hand_id": hand_id, "seat": seat["seat"], "account_id": seat["account"],
                     "bot": seat["bot"], "name": seat["name"], "stack": seat["stack"]}
                    for seat in batch.hand_start.seats
                )  # fmt: skip
            for number, index, record in batch.records:
                hand_id = self._hand_id(connection, table_id, number, learnt)
                actions.append(
                    {"hand_id": hand_id, "number": index, "seat": None,
                     "kind": str(record.get("type", "record"))[:24], "data": record,
                     "created_at": now}
                )  # fmt: skip
            end = batch.hand_end
            if end is not None:
                hand_id = self._hand_id(connection, table_id, end.number, learnt)
                connection.execute(
                    _HAND_FINISHED,
                    {"hand": hand_id, "result": end.result, "history": end.history,
                     "finished_at": now},
                )  # fmt: skip
                crash.reached("pot-awarded")  # tests only: inside the transaction
            for move in batch.moves:
                self._move(connection, move, table_id=table_id, hand_id=hand_id, learnt=learnt)
            if batch.seats is not None:
                seats[table_id] = [
                    {"table_id": table_id, "seat": seat["seat"], "account_id": seat["account"],
                     "bot": seat["bot"], "stack": seat["stack"],
                     "sitting_out": seat["status"] == "sitting-out", "joined_at": now}
                    for seat in batch.seats
                ]  # fmt: skip
            if batch.places:
                self._places(connection, batch.places, now)
            if batch.standings is not None:
                self._standings(connection, table_id, batch.standings, now)
            if batch.closed:
                connection.execute(
                    update(_TABLES).where(_TABLES.c.id == table_id).values(state="closed")
                )
                # Its waiting list waits for nothing more (a friend's invite says it closed).
                connection.execute(delete(_WAITING).where(_WAITING.c.table_id == table_id))
                # Nothing rebuilds it again: its checkpoint would be kept for nothing.
                connection.execute(delete(_CHECKPOINTS).where(_CHECKPOINTS.c.table_id == table_id))
                checkpoints.pop(table_id, None)
            self._seating(connection, table_id, batch)
        if commands:
            _INSERT_COMMANDS.run(connection, commands)
        if hand_seats:
            _INSERT_HAND_SEATS.run(connection, hand_seats)
        if actions:
            _INSERT_ACTIONS.run(connection, actions)
        if checkpoints:
            connection.execute(
                delete(_CHECKPOINTS).where(_CHECKPOINTS.c.table_id.in_(list(checkpoints)))
            )
            connection.execute(insert(_CHECKPOINTS), list(checkpoints.values()))
        if seats:
            connection.execute(delete(_SEATS).where(_SEATS.c.table_id.in_(list(seats))))
            rows = [row for table_rows in seats.values() for row in table_rows]
            if rows:
                _INSERT_SEATS.run(connection, rows)

    def _start_hand(
        self,
        connection: Connection,
        table_id: int,
        batch: Batch,
        learnt: _Learnt,
        now: dt.datetime,
    ) -> int:
        start = batch.hand_start
        assert start is not None
        hand_id = connection.scalar(
            _INSERT_HAND,
            {
                "table_id": table_id,
                "tournament_id": start.tournament,
                "number": start.number,
                "rules": start.rules,
                "seed": start.seed,
                "commitment": start.commitment,
                "setup": start.setup,
                "state": "playing",
                "started_at": now,
            },
        )
        assert hand_id is not None
        learnt.hands[(table_id, start.number)] = int(hand_id)
        return int(hand_id)

    def _seating(self, connection: Connection, table_id: int, batch: Batch) -> None:
        """The stakes a private table took at this deal, and a player seated leaving the
        waiting list (:mod:`~mazziere.server.storage.seating`, in the group's transaction)."""
        sat = batch.command.kind == "sit" and batch.command.data.get("account") is not None
        if batch.stakes is None and not sat:
            return
        with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
            if batch.stakes is not None:
                seating.stakes_taken(session, table_id, batch.stakes)
            if sat:
                account = int(batch.command.data["account"])
                seating.leave_waiting_list(session, table_id, account)
            session.commit()  # releases its savepoint; the group commits it all

    def _hand_id(self, connection: Connection, table_id: int, number: int, learnt: _Learnt) -> int:
        known = learnt.hands.get((table_id, number))
        if known is not None:
            return known
        latest = self._hands.get(table_id)
        if latest is not None and latest[0] == number:
            return latest[1]
        found = connection.scalar(
            select(_HANDS.c.id).where(_HANDS.c.table_id == table_id, _HANDS.c.number == number)
        )
        assert found is not None, f"hand {number} of table {table_id} was never stored"
        learnt.hands[(table_id, number)] = int(found)
        return int(found)

    def _ledger_id(self, connection: Connection, key: str, learnt: _Learnt) -> int:
        """The ledger account ``key`` (made with a zero balance if it does not exist yet)."""
        known = learnt.ledger.get(key) or self._ledger.get(key)
        if known is not None:
            return known
        found = connection.scalar(
            select(_LEDGER_ACCOUNTS.c.id).where(_LEDGER_ACCOUNTS.c.key == key)
        )
        if found is None:
            found = connection.scalar(
                insert(_LEDGER_ACCOUNTS)
                .values(key=key, owner_id=None, balance=0, may_go_negative=key == db_ledger.GRANTS)
                .returning(_LEDGER_ACCOUNTS.c.id)
            )
        assert found is not None
        learnt.ledger[key] = int(found)
        return int(found)

    def _move(
        self,
        connection: Connection,
        move: Any,
        *,
        table_id: int,
        hand_id: int | None,
        learnt: _Learnt,
    ) -> None:
        """One movement of the ledger (:func:`~mazziere.server.storage.ledger.move_between`)."""
        db_ledger.check_movement(move.source, move.destination, move.amount)
        paying = self._ledger_id(connection, move.source, learnt)
        receiving = self._ledger_id(connection, move.destination, learnt)
        db_ledger.move_between(
            connection,
            db_ledger.Kind(move.kind),
            source=move.source,
            paying_id=paying,
            receiving_id=receiving,
            amount=move.amount,
            account_id=move.account_id,
            table_id=table_id,
            hand_id=hand_id,
        )

    def _places(
        self,
        connection: Connection,
        places: list[dict[str, Any]],
        now: dt.datetime,
        *,
        keep_placed: bool = False,
    ) -> None:
        """Players who finished a tournament: their place and prize, as they happen
        (``keep_placed``: not those placed already, at the end)."""
        for finish in places:
            place = int(finish["place"])
            values = {"place": place, "prize": int(finish["prize"]), "chips": 0,
                      "eliminated_at": None if place == 1 else now}  # fmt: skip
            mine = (
                _STANDINGS.c.tournament_id == int(finish["tournament"]),
                _STANDINGS.c.account_id == int(finish["account"]),
            )
            unplaced = (_STANDINGS.c.place.is_(None),) if keep_placed else ()
            changed = connection.execute(
                update(_STANDINGS).where(*mine, *unplaced).values(**values)
            )
            if changed.rowcount == 0 and not connection.scalar(
                select(func.count()).select_from(_STANDINGS).where(*mine)
            ):
                connection.execute(
                    insert(_STANDINGS).values(
                        tournament_id=int(finish["tournament"]),
                        account_id=int(finish["account"]),
                        **values,
                    )
                )

    def _standings(
        self,
        connection: Connection,
        table_id: int,
        standings: list[dict[str, Any]],
        now: dt.datetime,
    ) -> None:
        """A tournament that ended: every place and prize not written yet, the tournament
        finished, its table closed."""
        self._places(connection, standings, now, keep_placed=True)
        tournament_ids = {int(finish["tournament"]) for finish in standings}
        if tournament_ids:
            connection.execute(
                update(_TOURNAMENTS)
                .where(_TOURNAMENTS.c.id.in_(tournament_ids))
                .values(state="finished", finished_at=now)
            )
        connection.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(state="closed"))


def refusing_writes(error: BaseException) -> bool:
    """Whether the database refused for a reason of its own, which passes (a full disk, a
    read-only file or transaction, a lost connection, no connection free in time), rather
    than because of the batch (a constraint: a wallet that cannot pay; a bug).

    >>> from sqlalchemy.exc import IntegrityError, OperationalError
    >>> refusing_writes(OperationalError("INSERT", {}, Exception("database or disk is full")))
    True
    >>> refusing_writes(IntegrityError("UPDATE", {}, Exception("CHECK constraint failed")))
    False
    """
    if isinstance(error, IntegrityError | db_ledger.InsufficientFundsError):
        return False
    return database_unavailable(error) or isinstance(error, DBAPIError | OSError | TimeoutError)


def _parts(group: list[tuple[int, Batch]]) -> list[tuple[int, Batch]]:
    """Every batch of the group by table, a multi-table tournament's parts after its own."""
    found = []
    for table_id, batch in group:
        found.append((table_id, batch))
        found.extend(batch.parts)
    return found
