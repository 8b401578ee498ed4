"""The real-time room while the server runs: the table service, its store, the bus, ``/ws``.

:func:`table_service` is a room service (``create_app(services=...)``): at
start it opens a task for every open cash table and every running sit & go
of the database (rebuilding each from its stored commands, so a hand that
was being played goes on at the same decision), serves ``/ws`` through
:class:`~mazziere.server.ws.Play`, and learns from the lobby when a table
or a tournament changes (:class:`TableWatcher`).  At stop it stops the tasks;
what they stored is the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import json
import logging
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, WebSocket
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.fair import FairnessError, verify
from mazziere.room.seating import tables_needed
from mazziere.room.structure import Stakes
from mazziere.server.accounts import account_from_cookies
from mazziere.server.bus import Bus, LocalBus
from mazziere.server.checkpoints import CHECKPOINT_EVERY_HANDS
from mazziere.server.collector import CollectorPolicy
from mazziere.server.context import LevelPlayed, RoomContext
from mazziere.server.errors import first_line
from mazziere.server.lobby_file import LobbyFileError, read_lobby
from mazziere.server.storage.accounts import accounts_with_sessions
from mazziere.server.storage.database import database_unavailable
from mazziere.server.storage.lobby import (
    DEFAULT_LOBBY,
    idle_private_tables,
    lobby_tables,
    open_scheduled,
    start_scheduled,
    sync_lobby,
    tournament_settings,
)
from mazziere.server.storage.models import (
    Account,
    RoomTable,
    Tournament,
    TournamentRegistration,
    TournamentStanding,
)
from mazziere.server.table_store import DatabaseTableStore
from mazziere.server.tables import (
    Close,
    Player,
    SyncControls,
    TableConfig,
    TableService,
    TableTask,
    TournamentConfig,
)
from mazziere.server.tournaments import MultiTableConfig, TournamentTableTask, TournamentTask
from mazziere.server.writer_process import WriterProcess
from mazziere.server.ws import Connection, Limits, Play, end_connections

__all__ = ["LOCK_HANDOVER_SECONDS", "TableWatcher", "router", "table_config", "table_service"]

IDLE_CHECK_SECONDS = 3_600.0
"""How often the room looks for private tables nobody plays at any more (and at its start)."""

LOCK_HANDOVER_SECONDS = 0.0005
"""How long the thread holding the interpreter's lock may keep it from another that asks
(``sys.setswitchinterval``) while the room runs.  The database writer's thread (SQLite's,
when another connection holds the write lock; the async drivers' threads likewise) asks for
the lock back after every statement the database ran without it; at the interpreter's default,
5 ms, a busy event loop kept it waiting that long each time, and a group commit of a few
statements took tens of milliseconds where its work took a few (every action waits for its
commit).  At 5,000 players, one run each: the writer's groups took 19 to 23 ms at the 99th
percentile instead of 28 to 39, and actions reached every seat in 71 ms instead of 110 at
the 99th percentile (docs/benchmarks-changelog.md)."""

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["fairness"])


class FairnessOut(BaseModel):
    """A hand's cards checked against its seed (docs/fairness.md)."""

    fair: bool
    commitment: str | None = None
    cards_checked: int = 0
    cards_hidden: int = 0
    reshuffled_checked: int = 0
    message: str


@router.post("/verify-deck", summary="Check a hand history's cards against its revealed seed")
async def verify_deck(
    history: Annotated[str, Body(media_type="text/plain", max_length=1 << 20)],
) -> FairnessOut:
    """What ``mazziere verify-deck HAND.phh`` prints, for a history sent as the body."""
    try:
        checked = verify(history)
    except FairnessError as error:
        return FairnessOut(fair=False, message=str(error))
    return FairnessOut(
        fair=True,
        commitment=checked.commitment,
        cards_checked=checked.cards_checked,
        cards_hidden=checked.cards_hidden,
        reshuffled_checked=checked.reshuffled_checked,
        message=checked.describe(),
    )


def table_config(row: RoomTable, *, next_hand_seconds: float = 2.0) -> TableConfig:
    """The table service's view of a cash table row."""
    return TableConfig(
        id=row.id,
        name=row.name,
        rules=row.rules,
        seats=row.seats,
        stakes=Stakes(small_blind=row.small_blind, big_blind=row.big_blind, ante=row.ante),
        min_buy_in=row.min_buy_in,
        max_buy_in=row.max_buy_in,
        decision_seconds=float(row.decision_seconds),
        time_bank_seconds=float(row.time_bank_seconds),
        bots_allowed=row.bots_allowed,
        hints_allowed=row.hints_allowed,
        next_hand_seconds=next_hand_seconds,
        host_id=row.host_id if row.private else None,
    )


class TableWatcher:
    """What the lobby tells the table service: a table or a tournament changed."""

    def __init__(self, service: TableService, room: RoomContext) -> None:
        self.service = service
        self.room = room
        self.tournaments: dict[int, TournamentTask] = {}
        """The multi-table tournaments running, by id."""
        self._reading_lobby = asyncio.Lock()
        """One reading of the lobby file at a time: two at once (two ``SIGHUP`` in a row)
        could each find a new table missing and both open it."""

    @property
    def _pause(self) -> float:
        return float(getattr(self.room.settings, "next_hand_seconds", 2.0))

    async def table_changed(self, table_id: int) -> None:
        """A new table opens its task; a running one takes its host's controls again (a
        pause, a resume, a stakes change: stored commands of the table)."""
        running = self.service.tasks.get(str(table_id))
        if running is not None:
            with contextlib.suppress(RuntimeError):  # stopping: it reads them when rebuilt
                await running.submit(None, SyncControls(), None)
            return
        async with self.room.db.session() as session:
            row = await session.get(RoomTable, table_id)
            of_tournaments = await _tournament_tables(session)
        if row is not None and row.state != "closed" and row.id not in of_tournaments:
            await self.service.open(table_config(row, next_hand_seconds=self._pause))

    async def tell(
        self, table_id: int, player: Player, message: BaseModel
    ) -> dict[str, Any] | None:
        """Hand ``message`` to the table as ``player`` sent it (the host's REST calls for
        bots); the table's reply (``ack`` or ``error``), or ``None`` if it is not running."""
        running = self.service.tasks.get(str(table_id))
        if running is None:
            return None
        reply = _Reply(player.name)
        try:
            await running.submit(player, message, reply)
        except RuntimeError:
            return None
        return reply.answer

    async def close_table(self, table_id: int, *, by_host: bool) -> tuple[str, str] | None:
        """Have the running table close (:class:`Close`): why it did not (a code and a
        sentence), or ``None`` once its close is stored.  Raises :class:`RuntimeError` if
        the room is stopping."""
        running = self.service.tasks.get(str(table_id))
        if running is None:
            return "table_not_running", "the table is not running"
        refusal: asyncio.Future[tuple[str, str] | None] = asyncio.get_running_loop().create_future()
        await running.submit(None, Close(refusal, by_host=by_host), None)
        return await refusal

    async def tournament_changed(self, tournament_id: int) -> None:
        """A sit & go that filled, or a scheduled tournament at its time, starts: its
        tables, its task, its first hands."""
        async with self.room.db.session() as session:
            tournament = await session.get(Tournament, tournament_id)
            if tournament is None or tournament.state != "running":
                return
            if tournament.starts_at is not None:
                multi = await self._multi_table_config(session, tournament)
                await session.commit()
                if tournament_id not in self.tournaments:
                    await self._open_multi_table(multi)
                return
            config = await self._tournament_config(session, tournament)
            await session.commit()
        if config is not None and str(config.table_id) not in self.service.tasks:
            await self.service.open(config)

    def tournament_level(self, tournament_id: int, table_ids: list[int]) -> LevelPlayed | None:
        """The level a running tournament plays now (levels by hands: its furthest table's),
        whether it is on a break, and which of its tables are, as its task holds them;
        ``None`` if no task runs it (a sit & go's is its table's, one of ``table_ids``)."""
        task: TournamentTask | TableTask | None = self.tournaments.get(tournament_id)
        if task is None:
            found = (self.service.tasks.get(str(table_id)) for table_id in table_ids)
            task = next((t for t in found if t is not None and t.tournament is not None), None)
        if task is None or task.tournament is None:
            return None
        now = task.clock.now()
        event = task.tournament
        everywhere = event.on_break(now)
        if isinstance(task, TournamentTask):
            resting = task.tables_on_break(now)
        else:  # a sit & go's one table
            resting = frozenset({task.table_id}) if everywhere else frozenset()
        return LevelPlayed(event.level_played(now), everywhere, resting)

    async def _open_multi_table(self, config: MultiTableConfig) -> None:
        """Rebuild a multi-table tournament from its log and run its task; its tables are
        found by ``/ws`` like any other."""

        def register(table: TournamentTableTask) -> None:
            self.service.tasks[table.id] = table

        task = TournamentTask(
            config,
            self.service.store,
            self.service.bus,
            register=register,
            seat_index=self.service.seat_index,
        )
        await task.begin()
        await task.rebuild()
        self.tournaments[config.id] = task
        task.start()

    async def _multi_table_config(
        self, session: AsyncSession, tournament: Tournament
    ) -> MultiTableConfig:
        """A scheduled tournament's players and table rows (made at its start: the tables
        its field needs, and one more for the final table)."""
        accounts = list(
            await session.scalars(
                select(Account)
                .join(TournamentRegistration, TournamentRegistration.account_id == Account.id)
                .where(TournamentRegistration.tournament_id == tournament.id)
                .order_by(TournamentRegistration.id)
            )
        )
        rows = list(
            await session.scalars(
                select(RoomTable.id)
                .where(RoomTable.tournament_id == tournament.id)
                .order_by(RoomTable.id)
            )
        )
        if not rows:
            count = tables_needed(len(accounts), tournament.seats)
            for number in range(1, count + 1 + (count > 1)):
                table = _tournament_table(
                    tournament,
                    f"{tournament.name} #{tournament.id} table {number}",
                    tournament_id=tournament.id,
                )
                session.add(table)
                await session.flush()
                rows.append(table.id)
            for account in accounts:
                session.add(
                    TournamentStanding(
                        tournament_id=tournament.id,
                        account_id=account.id,
                        chips=tournament.starting_stack,
                    )
                )
            await session.flush()
        settings = await tournament_settings(session, tournament)
        return MultiTableConfig(
            id=tournament.id,
            table_ids=tuple(rows),
            settings=dataclasses.replace(settings, starts_at=0.0),
            players=tuple((a.id, a.display_name) for a in accounts),
            next_hand_seconds=self._pause,
        )

    async def start_due(self) -> None:
        """Scheduled tournaments at their time start (or are cancelled and refunded), and
        the lobby's next ones open."""
        settings = self.room.settings
        every = int(getattr(settings, "scheduled_every_seconds", 0))
        now = self.room.now()
        started = []
        async with self.room.db.session() as session:
            due = list(
                await session.scalars(
                    select(Tournament)
                    .where(
                        Tournament.state == "registering",
                        Tournament.starts_at.is_not(None),
                        Tournament.starts_at <= now,
                    )
                    .with_for_update()
                )
            )
            for tournament in due:
                if await start_scheduled(session, tournament, now):
                    started.append(tournament.id)
            offered = self.room.lobby  # the operator's lobby file, if any
            if every and offered is not None:
                await open_scheduled(
                    session,
                    now=now,
                    every=dt.timedelta(seconds=every),
                    level_hands=None,
                    specs=offered.scheduled,
                )
            elif every and settings.open_default_lobby:
                await open_scheduled(
                    session,
                    now=now,
                    every=dt.timedelta(seconds=every),
                    level_hands=int(getattr(settings, "scheduled_level_hands", 10)),
                    specs=DEFAULT_LOBBY.scheduled,
                )
            await session.commit()
        for tournament_id in started:
            await self.tournament_changed(tournament_id)

    async def reload_lobby(self) -> None:
        """Read the operator's lobby file again while the room runs (``SIGHUP``), and make
        the lobby what it says, as at a start (:func:`sync_lobby`): each change one line of
        the log.  A table it withdraws is closed by its own task, where that moves no one's
        chips (:class:`Close`); a table that opens starts dealing at once.  A file the
        room would refuse changes nothing, and the log says why in one line."""
        async with self._reading_lobby:
            await self._reload_lobby()

    async def _reload_lobby(self) -> None:
        path = self.room.settings.lobby_file
        if path is None:
            log.warning("lobby file: none given (mazziere serve --lobby), nothing read again")
            return
        try:
            offered = read_lobby(path)
        except LobbyFileError as error:
            log.error("lobby file not read again, the lobby unchanged: %s", error)
            return
        async with self.room.db.reading() as session:
            _, rows = await lobby_tables(session, offered)
            withdrawn = [(row.id, row.name, why) for row, why in rows]
        for table_id, name, why in withdrawn:
            with contextlib.suppress(RuntimeError):  # stopping: the next start reads the file
                if await self.close_table(table_id, by_host=False) is None:
                    log.info("lobby file: table %r (number %s) closed: %s", name, table_id, why)
        async with self.room.db.session() as session:
            said = await sync_lobby(session, offered, close_tables=False)
            await session.commit()
            opened = list(
                await session.scalars(
                    select(RoomTable.id).where(
                        RoomTable.lobby.is_(True), RoomTable.state != "closed"
                    )
                )
            )
        for line in said:
            log.info("lobby file: %s", line)
        self.room.lobby = offered
        for table_id in opened:
            if str(table_id) not in self.service.tasks:
                await self.table_changed(table_id)

    async def keep_schedule(self) -> None:
        """Every second: :meth:`start_due`; at the start and every hour after it:
        :meth:`close_idle_private_tables`; until the server stops."""
        idle_check = 0.0
        while True:
            try:
                await self.start_due()
                if time.monotonic() >= idle_check:
                    idle_check = time.monotonic() + IDLE_CHECK_SECONDS
                    await self.close_idle_private_tables()
            except Exception as error:
                if not database_unavailable(error):
                    log.exception("the tournament schedule failed; trying again")
                else:  # it passes: one line, not a traceback a second
                    log.warning(
                        "the tournament schedule waits for the database: %s", first_line(error)
                    )
            await asyncio.sleep(1.0)

    async def close_idle_private_tables(self) -> None:
        """Close each private table where no person has sat and no chip has moved for
        ``private_table_idle_days``, as its host would (:meth:`close_table`: its bots
        leave first), one line of the log each: a table its host forgot keeps no bots,
        no task and no rebuild at each start for ever.  One that may not close (a pot
        carried to the next hand) stays."""
        days = self.room.settings.private_table_idle_days
        if not days:
            return
        async with self.room.db.reading() as session:
            idle = [
                (t.id, t.name)
                for t in await idle_private_tables(
                    session, self.room.now() - dt.timedelta(days=days)
                )
            ]
        for table_id, name in idle:
            if await self.close_table(table_id, by_host=True) is None:
                log.info(
                    "private table %r (number %s) closed: nobody played there for %g days",
                    name, table_id, days,
                )  # fmt: skip

    async def _tournament_config(
        self, session: object, tournament: Tournament
    ) -> TournamentConfig | None:
        from sqlalchemy.ext.asyncio import AsyncSession

        from mazziere.server.storage.models import Account

        assert isinstance(session, AsyncSession)
        table_id = await session.scalar(
            select(TournamentStanding.table_id).where(
                TournamentStanding.tournament_id == tournament.id
            )
        )
        rows = await session.execute(
            select(Account)
            .join(TournamentRegistration, TournamentRegistration.account_id == Account.id)
            .where(TournamentRegistration.tournament_id == tournament.id)
            .order_by(TournamentRegistration.id)
        )
        accounts = [row[0] for row in rows]
        if table_id is None:
            table = _tournament_table(tournament, f"{tournament.name} #{tournament.id}")
            session.add(table)
            await session.flush()
            table_id = table.id
            for account in accounts:
                session.add(
                    TournamentStanding(
                        tournament_id=tournament.id,
                        account_id=account.id,
                        chips=tournament.starting_stack,
                        table_id=table_id,
                    )
                )
            await session.flush()
        settings = await tournament_settings(session, tournament)
        return TournamentConfig(
            id=tournament.id,
            table_id=int(table_id),
            settings=settings,
            players=tuple((a.id, a.display_name) for a in accounts),
            next_hand_seconds=self._pause,
            host_id=tournament.host_id if tournament.private else None,
        )


class _Reply:
    """The outbox of a REST call that speaks to a table: keeps the table's answer."""

    def __init__(self, player: str) -> None:
        self._player = player
        self.answer: dict[str, Any] | None = None

    @property
    def player(self) -> str | None:
        return self._player

    def offer(self, text: str) -> None:
        message = json.loads(text)
        if message.get("type") in ("ack", "error"):
            self.answer = message


async def _tournament_tables(session: object) -> set[int]:
    """The tables that belong to a tournament (its standings say where each player sits)."""
    from sqlalchemy.ext.asyncio import AsyncSession

    assert isinstance(session, AsyncSession)
    found = await session.scalars(
        select(TournamentStanding.table_id).where(TournamentStanding.table_id.is_not(None))
    )
    of_multi = await session.scalars(
        select(RoomTable.id).where(RoomTable.tournament_id.is_not(None))
    )
    return {int(t) for t in found if t is not None} | {int(t) for t in of_multi}


SESSION_ENDED = (
    "your session ended (a new password, the account suspended, or it expired): log in again"
)
"""What a socket whose account has no session left is told as it closes."""


async def end_sockets_without_session(room: RoomContext, bus: Bus) -> None:
    """Close each socket whose account has no live session any more (a password reset or a
    suspension by the operator's command, another process: the room's own change of
    password closes them at once), and say so in the log."""
    sockets = [
        outbox
        for player in bus.players()
        for outbox in bus.outboxes(player)
        if isinstance(outbox, Connection)
    ]
    if not sockets:
        return
    async with room.db.reading() as session:
        live = await accounts_with_sessions(
            session, (socket.account.account_id for socket in sockets), now=room.now()
        )
    ended = {socket.player for socket in sockets if socket.account.account_id not in live}
    for player in ended:
        end_connections(bus, player, SESSION_ENDED)
    if ended:
        log.info("the sockets of %d players closed: their sessions ended", len(ended))


async def keep_sessions_checked(room: RoomContext, bus: Bus) -> None:
    """Every ``session_check_seconds``: :func:`end_sockets_without_session`."""
    while True:
        await asyncio.sleep(room.settings.session_check_seconds)
        try:
            await end_sockets_without_session(room, bus)
        except Exception as error:
            if not database_unavailable(error):
                log.exception("the check of the sockets' sessions failed; trying again")


@asynccontextmanager
async def table_service(app: FastAPI, room: RoomContext) -> AsyncIterator[None]:
    """Run the table service while the server runs."""
    bus = LocalBus()
    settings = room.settings
    writer: WriterProcess | None = None
    if settings.table_writer == "process" and not room.db.in_memory:
        writer = await WriterProcess.start(settings)
    store = DatabaseTableStore(room.db, writer, seat_kept_seconds=settings.seat_kept_seconds)
    service = TableService(
        store,
        bus,
        bot_seconds=float(getattr(settings, "bot_seconds", 0.8)),
        checkpoint_hands=int(getattr(settings, "checkpoint_hands", CHECKPOINT_EVERY_HANDS)),
    )
    watcher = TableWatcher(service, room)

    async def authenticate(websocket: WebSocket) -> Player | None:
        async with room.db.reading() as session:
            viewer = await account_from_cookies(session, dict(websocket.cookies), now=room.now())
        if viewer is None:
            return None
        account = viewer.account
        return Player(account.id, service.name_at_tables(account.id, account.display_name))

    async with room.db.session() as session:
        tables = list(await session.scalars(select(RoomTable).where(RoomTable.state != "closed")))
        of_tournaments = await _tournament_tables(session)
        running = list(
            await session.scalars(select(Tournament).where(Tournament.state == "running"))
        )
    for row in tables:
        if row.id not in of_tournaments:
            await service.open(table_config(row, next_hand_seconds=watcher._pause))
    for tournament in running:
        await watcher.tournament_changed(tournament.id)
    room.watcher = watcher
    schedule = asyncio.create_task(watcher.keep_schedule(), name="tournament schedule")
    loop = asyncio.get_running_loop()
    reloads: set[asyncio.Task[None]] = set()

    def reload_lobby() -> None:
        """``SIGHUP`` (``kill -HUP``): the operator's lobby file read again."""
        task = loop.create_task(watcher.reload_lobby(), name="lobby file read again")
        reloads.add(task)
        task.add_done_callback(reloads.discard)

    try:
        loop.add_signal_handler(signal.SIGHUP, reload_lobby)
        hangup = True
    except (NotImplementedError, RuntimeError):
        hangup = False  # no Unix signals here, or a loop outside the main thread (tests)
    sessions = asyncio.create_task(keep_sessions_checked(room, bus), name="session check")
    limits = Limits(
        per_second=settings.ws_messages_per_second,
        burst=settings.ws_message_burst,
        connections=settings.ws_connections_per_account,
    )
    app.state.play = Play(
        service, bus, authenticate, allowed_origins=settings.public_origins, limits=limits
    )
    # Short collections while the room runs (their pauses were its longest delays).
    collector = CollectorPolicy(asyncio.get_running_loop(), room_size=bus.players_connected)
    collector.install()
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(LOCK_HANDOVER_SECONDS)
    try:
        yield
    finally:
        sys.setswitchinterval(switch_interval)
        collector.uninstall()
        app.state.play = None
        if hangup:
            loop.remove_signal_handler(signal.SIGHUP)
        for background in (schedule, sessions, *reloads):
            background.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await background
        for task in watcher.tournaments.values():
            await task.stop()
        await service.stop()
        await store.settled()
        await store.writer.close()


def _tournament_table(
    tournament: Tournament, name: str, *, tournament_id: int | None = None
) -> RoomTable:
    """A table row of a tournament's: out of the lobby, no bots, every seat bought in with
    the starting stack (``tournament_id`` marks a multi-table tournament's rows)."""
    return RoomTable(
        name=name,
        rules=tournament.rules,
        seats=tournament.seats,
        min_buy_in=tournament.starting_stack,
        max_buy_in=tournament.starting_stack,
        bots_allowed=False,
        private=True,
        lobby=False,
        state="open",
        tournament_id=tournament_id,
    )
