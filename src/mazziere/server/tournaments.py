"""Multi-table tournaments: one task per tournament, one ordered log of its commands.

A scheduled tournament seats its players over as many tables as they need
(:class:`~mazziere.room.tournament.Tournament`: random seats, then balancing,
breaking tables and drawing the final table between hands, by
:mod:`mazziere.room.seating`).  Those decisions join the tables: a hand that
ends at one table moves a player to another.  So the tournament has **one**
task and **one** queue, and every command of every one of its tables (an
action, a player away or back, the clock's turn) is applied in one order and
stored in one log, the ``table_commands`` of its first table's row.  A rebuild
after a restart replays that log on a new tournament and finds every table,
seat, stack, move and hand in progress as they were.

Each table still speaks for itself: a :class:`TournamentTableTask` (a
:class:`~mazziere.server.tables.TableTask` whose room table is one of the
tournament's) has the table's id, sequence numbers, turn ids, recent events
and snapshots, and is what ``/ws`` finds by the table's id; what it is asked
to do it hands to the tournament's queue.  Each table's hands are stored
under its own row, each dealt from its own seed: the clock's turn stores one
32-byte seed from the CSPRNG and each table deals from the SHA-256 of it and
the table's number (:func:`table_seed`), published as each hand's commitment
and revealed at its end like any other.

A player moved to another table is told (``moved``, then the new table's
``snapshot`` for their seat) and their connections follow the new table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from mazziere.fair import BUTTON_LABEL, FairRandom, new_seed
from mazziere.room.registration import TournamentSettings
from mazziere.room.structure import LevelUnit
from mazziere.room.tournament import Tournament, TournamentState
from mazziere.room.tournament import TournamentTable as RoomTournamentTable
from mazziere.server import crash
from mazziere.server import protocol as p
from mazziere.server.bus import Bus, Outbox, TableEvent
from mazziere.server.requests import Request, RequestLoop
from mazziere.server.tables import (
    SEATING_LABEL,
    Batch,
    Player,
    SeatIndex,
    StoredCommand,
    TableClock,
    TableStore,
    TableTask,
    TournamentTableConfig,
    _Seated,
    commit_or_hold,
    mirror_tournament_money,
)

__all__ = ["MultiTableConfig", "TournamentTableTask", "TournamentTask", "table_seed"]

log = logging.getLogger(__name__)

TABLE_LABEL = b"mazziere/tournament-table/v1"
"""The label of a tournament table's own random source before its first deal."""


def table_seed(seed: bytes, number: int) -> bytes:
    """The seed table ``number`` of a tournament deals its hand from, for the clock's turn
    that stored ``seed``: as secret and as unpredictable as ``seed`` itself.

    >>> table_seed(bytes(32), 1) != table_seed(bytes(32), 2), len(table_seed(bytes(32), 1))
    (True, 32)
    """
    return hashlib.sha256(seed + b"/table/" + str(number).encode()).digest()


@dataclass(frozen=True, slots=True)
class MultiTableConfig:
    """A scheduled tournament that has started: its settings, its players (account, name, in
    registration order) and the table rows it plays at (table number ``k`` of the
    tournament is ``table_ids[k - 1]``; the first row keeps the tournament's log)."""

    id: int
    table_ids: tuple[int, ...]
    settings: TournamentSettings
    players: tuple[tuple[int, str], ...]
    next_hand_seconds: float = 2.0

    @property
    def log_table_id(self) -> int:
        """The row whose ``table_commands`` are the tournament's log."""
        return self.table_ids[0]


class TournamentTableTask(TableTask):
    """One table of a multi-table tournament: it speaks for the table (events, turn ids,
    snapshots) and hands every command to the tournament's task."""

    def __init__(self, owner: TournamentTask, config: TournamentTableConfig) -> None:
        super().__init__(
            config, owner.store, owner.bus, bot_seconds=0.0, seat_index=owner.seat_index
        )
        self.owner = owner

    @property
    def number(self) -> int:
        """The table's number in the tournament."""
        table: RoomTournamentTable = self.table  # type: ignore[assignment]
        return table.number

    @property
    def live(self) -> bool:
        """Still one of the tournament's tables (not broken)."""
        tournament = self.owner.tournament
        return tournament.tables.get(self.number) is self.table

    def sits(self, name: str) -> bool:
        """Whether ``name`` plays here now: the table is still one of the tournament's (not
        broken, not closed) and ``name`` plays at it."""
        return self.live and not self.closed and super().sits(name)

    def start(self) -> None:
        """The tournament's task runs the tables."""

    async def stop(self) -> None:
        """Stop the tournament's task."""
        await self.owner.stop()

    async def rebuild(self) -> int:
        """The tournament's task rebuilds every table from its log."""
        return await self.owner.rebuild()

    async def submit(self, player: Player | None, message: Any, outbox: Outbox | None) -> None:
        """Queue the message in the tournament's queue, for this table."""
        await self.owner._submit(self, player, message, outbox)

    async def _run(self, command: StoredCommand) -> None:
        await self.owner.run(command, self)


class TournamentTask(RequestLoop):
    """A multi-table tournament: the room's tournament, its queue and its log."""

    def __init__(
        self,
        config: MultiTableConfig,
        store: TableStore,
        bus: Bus,
        *,
        register: Callable[[TournamentTableTask], None] | None = None,
        seat_index: SeatIndex | None = None,
    ) -> None:
        super().__init__(f"tournament {config.id}")
        self.config = config
        self.store = store
        self.bus = bus
        self.seat_index: SeatIndex = {} if seat_index is None else seat_index
        self._register = register
        self._stopping = False
        self.held = False
        """The database refuses writes: every table waits for the last command to be stored."""
        self._fresh(bytes(32))

    def _fresh(self, start_seed: bytes) -> None:
        """A new tournament, its players registered and seated by the start seed's stream."""
        config = self.config
        self.clock = TableClock()
        self.rng = FairRandom(start_seed, SEATING_LABEL)
        self._start_seed = start_seed
        self._tick_seed = bytes(32)
        self.tables: dict[int, TournamentTableTask] = {}
        """Every table the tournament opened, by number (broken ones included)."""
        self.tournament = Tournament(config.settings, clock=self.clock, rng=self.rng)
        self.tournament.table_opened = self._opened
        self.accounts = {name: account for account, name in config.players}
        for _, name in config.players:
            self.tournament.register(name)
        self.tournament.registration.start_now()
        self._money_seen = len(self.tournament.money)
        self._standings_stored = False
        self._placed = 0
        self._sync_seats()

    def _opened(self, table: RoomTournamentTable) -> None:
        """A table opens: its own random source, its task, its row."""
        if table.number > len(self.config.table_ids):
            raise RuntimeError(f"tournament {self.config.id} has no row for table {table.number}")
        label = TABLE_LABEL + str(table.number).encode()
        table.rng = FairRandom(self._start_seed, label)
        lane = TournamentTableTask(
            self,
            TournamentTableConfig(
                id=self.config.id,
                table_id=self.config.table_ids[table.number - 1],
                settings=self.config.settings,
                players=self.config.players,
                next_hand_seconds=self.config.next_hand_seconds,
                room_table=table,
            ),
        )
        self._seed_table(lane)
        self.tables[table.number] = lane
        if self._register is not None:
            self._register(lane)

    def _seed_table(self, lane: TournamentTableTask) -> None:
        """The clock's turn being applied: the seed of the table's next hand."""
        lane._tick_seed = table_seed(self._tick_seed, lane.number)
        lane.rng.restart(lane._tick_seed, BUTTON_LABEL)

    def _sync_seats(self) -> None:
        """Each table task knows who sits at its table (the tournament seats and moves)."""
        for lane in self.tables.values():
            for seat in lane.table:
                if seat.name not in lane.seated:
                    lane.seated[seat.name] = _Seated(seat.name, self.accounts.get(seat.name), None)

    def where(self) -> dict[str, int]:
        """Each player still in: the number of their table."""
        return {seat.name: table.number for table in self.tournament for seat in table}

    # ------------------------------------------------------------- lifecycle

    async def begin(self) -> None:
        """Opened for the first time: store the tournament's start (the seating seed)."""
        if not await self.store.load(self.config.log_table_id):
            start = StoredCommand("start", 0.0, {"seed": new_seed().hex()})
            await self.store.commit(self.config.log_table_id, Batch(start))

    async def rebuild(self) -> int:
        """Replay the log on a fresh tournament; return how many commands there were."""
        commands = await self.store.load(self.config.log_table_id)
        if not commands or commands[0].kind != "start":
            raise ValueError(f"tournament {self.config.id} has no start stored")
        self._fresh(bytes.fromhex(str(commands[0].data["seed"])))
        for command in commands[1:]:
            self.clock.replay_to(command.at)
            try:
                self._execute(command)
            except Exception:  # stored, so it was applied once: a bug
                log.exception("tournament %s: stored %s failed on replay", self.config.id, command)
        # One clock for every table (levels by minutes are one time for all of them): it
        # goes on from the last command, each decision with the time it had left.
        self.clock.run(self.clock.now())
        return len(commands)

    async def stop(self) -> None:
        """Stop the loop (the log keeps the tournament)."""
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _handle(self, request: Request) -> None:
        """Hand the request to its table, as the tournament has it now (a rebuild after a
        failure made new table tasks: a request queued before names the old one)."""
        lane = request.table_task
        assert isinstance(lane, TournamentTableTask)  # the queue holds only its tables' requests
        await self.tables[lane.number]._handle(request)

    async def _failed(self, what: str) -> None:
        log.exception(
            "tournament %s failed on %s; rebuilding it from its log", self.config.id, what
        )
        await asyncio.sleep(1.0)
        await self.rebuild()

    # ------------------------------------------------------------- the clock

    def tables_on_break(self, now: float) -> frozenset[int]:
        """The ids of its tables (those not broken) on a break at ``now``: with levels by
        hands each table pauses when it gets there, with levels by minutes all at once."""
        event = self.tournament
        return frozenset(
            self.tables[number].table_id
            for number, table in event.tables.items()
            if number in self.tables and event.level_clock(table, now).on_break
        )

    def _live(self) -> list[TournamentTableTask]:
        return [lane for lane in self.tables.values() if lane.live]

    def _waiting(self) -> list[int]:
        """Tables between hands still showing their last one (the pause after a hand)."""
        now = self.clock.now()
        pause = self.config.next_hand_seconds
        return [
            lane.number
            for lane in self._live()
            if not lane.table.in_hand and lane._ended_hand and lane._ended_at + pause > now
        ]

    def _next_wake(self) -> float | None:
        if self.tournament.state is not TournamentState.RUNNING:
            return None
        times = []
        for lane in self._live():
            wake = lane._next_wake()  # a table's own break included
            if wake is not None:
                times.append(wake)
        if self.config.settings.schedule.unit is LevelUnit.MINUTES and not times:
            times.append(self.clock.now() + 1.0)  # a break ends by the clock alone
        return min(times) if times else None

    async def _on_time(self) -> None:
        """The clock's turn: timeouts at every table, then a deal wherever one may start."""
        data = {"seed": new_seed().hex(), "waiting": self._waiting()}
        await self.run(StoredCommand("tick", self.clock.now(), data), None)

    # ---------------------------------------------------------- running one

    async def run(self, command: StoredCommand, lane: TournamentTableTask | None) -> None:
        """Apply, store, then announce one command of the tournament (``lane``: the table
        it was sent to; refused: nothing changed)."""
        if lane is not None:
            command.data["table"] = lane.number
        before = self.where()
        ended = {number: t._ended_hand for number, t in self.tables.items()}
        live = {n for n, t in self.tables.items() if t.live} if crash.ARMED.point else set()
        events, closed, batch = self._execute(command)
        await commit_or_hold(
            self.store,
            self.config.log_table_id,
            batch,
            clock=self.clock,
            hold=self._hold,
            what=f"tournament {self.config.id}",
        )
        if crash.ARMED.point and any(not self.tables[n].live for n in live):
            crash.reached("table-break")  # tests only: stored, nobody told of the moves
        for event in events:
            await self.bus.publish(event)
        now = self.clock.now()
        for number, table in self.tables.items():
            if table._ended_hand != ended.get(number, 0):
                table._ended_at = now  # the showdown's pause counts from when it is heard
        await self._tell_moves(before)
        # A closed table's last word goes to who still follows it once its players are
        # moved: spectators and the players out (the moved hear of their own table).
        for event in closed:
            await self.bus.publish(event)

    async def _hold(self, reason: str | None, retry: float | None) -> None:
        """Every table is held (``reason``) or goes on (``None``), and its followers told."""
        self.held = reason is not None
        for lane in self._live():
            await lane.hold(reason, retry)

    def _execute(self, command: StoredCommand) -> tuple[list[TableEvent], list[TableEvent], Batch]:
        """Apply ``command`` to the tournament, then each table's events, the events that
        close tables (their last), and the rows."""
        hands = {number: lane.table.hand_number for number, lane in self.tables.items()}
        playing = {number: lane.table.in_hand for number, lane in self.tables.items()}
        before = self.where()
        if command.kind == "tick":
            self._tick(command.data)
        else:
            sent_to = self.tables[int(command.data["table"])]
            sent_to._apply(command)
        self._sync_seats()
        # A table that found nothing to deal waits for something to change: a tick's
        # deal, or a command that moved players or ended a hand somewhere.
        moved = before != self.where() or any(
            playing.get(n, False) and not lane.table.in_hand for n, lane in self.tables.items()
        )
        for number, lane in self.tables.items():
            if command.kind == "tick":
                if number not in command.data.get("waiting", ()):
                    lane._idle = lane.table.hand_number == hands.get(number, 0)
            elif moved or lane is sent_to:
                lane._idle = False
        batch = Batch(command)
        events: list[TableEvent] = []
        finished = self.tournament.state is TournamentState.FINISHED
        closing: list[TournamentTableTask] = []
        for lane in self.tables.values():
            part = Batch(command, logged=False)
            events.extend(lane._changes(part, command))
            if (finished or not lane.live) and not lane.table.in_hand and not lane.closed:
                lane.closed = part.closed = True  # broken, or the tournament is over
                closing.append(lane)
            if _wrote(part):
                batch.parts.append((lane.table_id, part))
        still_playing = [lane.id for lane in self._live() if not lane.closed]
        closed = [
            lane._event(
                p.TableClosed(
                    table=lane.id,
                    seq=lane._next_seq(),
                    tournament=self.config.id,
                    over=finished,
                    tables=[] if finished else still_playing,
                )
            )
            for lane in closing
        ]
        self._money_seen, self._placed, self._standings_stored = mirror_tournament_money(
            self.tournament,
            self.config.id,
            self.config.players,
            batch,
            seen=self._money_seen,
            placed=self._placed,
            standings_stored=self._standings_stored,
        )
        return events, closed, batch

    def _tick(self, data: dict[str, Any]) -> None:
        self._tick_seed = bytes.fromhex(str(data["seed"]))
        for lane in self._live():
            lane.table.advance()
        if self.tournament.state is not TournamentState.RUNNING:
            return
        for lane in self._live():
            if not lane.table.in_hand:
                self._seed_table(lane)
        self.tournament.start_hands(waiting=[int(n) for n in data.get("waiting", ())])

    async def _tell_moves(self, before: dict[str, int]) -> None:
        """Players who now sit at another table: told, their connections follow them, and
        they get the new table's snapshot for their seat."""
        after = self.where()
        for name, number in after.items():
            old = before.get(name)
            if old is None or old == number:
                continue
            source, destination = self.tables[old], self.tables[number]
            reason: Literal["balance", "break", "final_table"]
            if self.tournament.final_table == number and not source.live:
                reason = "final_table"
            elif not source.live:
                reason = "break"
            else:
                reason = "balance"
            seat = destination.table.player(name).seat
            self.bus.move(name, source.id, destination.id)
            moved = p.Moved(table=destination.id, from_table=source.id, seat=seat, reason=reason)
            await self.bus.deliver(name, p.dump(moved))
            await self.bus.deliver(name, p.dump(destination.snapshot(name)))
            if not self.bus.connected(name):
                await destination.disconnected(name)


def _wrote(batch: Batch) -> bool:
    """Whether a table's part of a command writes anything."""
    return bool(
        batch.moves
        or batch.hand_start
        or batch.records
        or batch.hand_end
        or batch.seats is not None
        or batch.closed
    )
