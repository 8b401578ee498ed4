"""The table service: one asyncio task per table, owning its :mod:`mazziere.room` table.

Everything that changes a table reaches its task through the task's queue
(a player's message, a bot's decision, the clock), so no two commands ever
race.  The task applies each one to its :class:`~mazziere.room.cash.CashTable`,
**stores it** (the command, the chips it moved in the ledger, the hand's
records) in one database transaction, and only then sends the events it made
through the :class:`~mazziere.server.bus.Bus`: an action is committed before
anyone hears of it.

The room tables are pure (time and randomness injected), so the stored
commands are the table: each one is kept with the table's time when it was
applied, the clock's own turns ("ticks": timeouts, dealing the next hand)
with the seed of the hand they may deal.  After a restart the service
replays them on a new room table and finds it exactly as it was: the same
seats, stacks, button, hand in progress, decision, sequence numbers and
turn ids (:meth:`TableTask.rebuild`).  The decision being waited for gets its
whole time again.

Each hand is dealt from its own 32-byte seed (:mod:`mazziere.fair`): its
commitment goes out with ``hand_started``, the seed with ``hand_ended``.
Each seat gets the engine's own view of every record (``Record.seen_by``);
spectators get the view of nobody's seat.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, MutableMapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from mazziere.bots.base import Bot, Situation, check_or_fold, make_bot
from mazziere.cards import Card, parse_cards
from mazziere.fair import BUTTON_LABEL, FairRandom, commitment, deck_order, new_seed
from mazziere.game.core import Action, ActionKind, IllegalActionError
from mazziere.room.cash import REBUY_SECONDS, SIT_OUT_SECONDS, CashSettings, CashTable
from mazziere.room.clock import TimeSettings
from mazziere.room.errors import RoomError
from mazziere.room.ledger import AccountKind, EntryKind
from mazziere.room.plan import HandPlan
from mazziere.room.seating import tables_needed
from mazziere.room.structure import Stakes
from mazziere.room.table import Decision, Seat, SeatStatus, Table
from mazziere.room.tournament import (
    Tournament,
    TournamentSettings,
    TournamentState,
    TournamentTable,
)
from mazziere.rules import find_rules
from mazziere.server import checkpoints, crash
from mazziere.server import protocol as p
from mazziere.server.bus import Bus, Outbox, TableEvent
from mazziere.server.requests import Request, RequestLoop

__all__ = [
    "Batch",
    "HandEnd",
    "HandStart",
    "HostControls",
    "KeptSeat",
    "MemoryStore",
    "Move",
    "Player",
    "StoreUnavailableError",
    "StoredCommand",
    "TableClock",
    "TableConfig",
    "TableService",
    "TableStore",
    "TableTask",
    "TournamentConfig",
    "TournamentTableConfig",
    "WaitingList",
    "commit_or_hold",
    "mirror_tournament_money",
]

log = logging.getLogger(__name__)

SEATING_LABEL = b"mazziere/seating/v1"
"""The label of the stream that seats a sit & go's players (from its start seed)."""

RECENT_EVENTS = 300
"""Events a table keeps for clients that come back (older gaps get a snapshot).

About three hands at a full table: a dropped socket is back within seconds, and a client
gone longer needs the table as it is, which the snapshot gives.  (Two thousand events a
table, 400,000 events at 200 tables once full after some twenty minutes of play, were
a quarter of the objects the garbage collector followed after four minutes, and growing.)"""

KeptEvent = tuple[int, str, tuple[tuple[str, str], ...]]
"""An event a table keeps: its sequence number, its public text and the private ones by
player, as plain tuples of strings, which the garbage collector stops following once it
has seen them (as objects, a full room's kept events were half of what every full
collection walked: 90,000 of 190,000 objects at 2,500 players)."""

HOLD_RETRY_SECONDS = (0.5, 30.0)
"""A held table tries to store again after the first wait, then after twice as long each
time, up to the second (a database back after a blip is used at once, one down for long is
not hammered)."""


# ------------------------------------------------------------------ the clock


class TableClock:
    """A table's time in seconds: it runs only while the server runs.

    While a table is rebuilt the clock is moved to each stored command's
    time; then :meth:`run` lets it flow from a given time.

    >>> clock = TableClock()
    >>> clock.replay_to(12.5); clock.now()
    12.5
    >>> clock.run(12.5); clock.now() >= 12.5
    True
    """

    def __init__(self) -> None:
        self._base = 0.0
        self._started: float | None = None

    def now(self) -> float:
        """The table's time now."""
        if self._started is None:
            return self._base
        return self._base + (time.monotonic() - self._started)

    def replay_to(self, when: float) -> None:
        """While rebuilding: the time of the next stored command."""
        self._started = None
        self._base = max(self._base, when)

    def run(self, start: float) -> None:
        """Let the time flow from ``start`` on."""
        self._base = start
        self._started = time.monotonic()


# -------------------------------------------------------- what gets stored


@dataclass(frozen=True, slots=True)
class StoredCommand:
    """One command as stored: what happened to the table, and at which table time."""

    kind: str
    at: float
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Move:
    """A movement of the room's ledger the command made (between ledger keys)."""

    kind: str
    source: str
    destination: str
    amount: int
    account_id: int | None


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand dealt: its number, seed (secret until the end), seats and set-up."""

    number: int
    rules: str
    seed: str
    commitment: str
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    tournament: int | None = None
    """The tournament the hand is played in, if any (its hands are listed with it)."""


@dataclass(frozen=True, slots=True)
class HandEnd:
    """A hand over: its result and its full history (PHH, with the seed)."""

    number: int
    result: dict[str, Any]
    history: str


@dataclass(slots=True)
class Batch:
    """What one command writes, in one transaction."""

    command: StoredCommand
    moves: list[Move] = field(default_factory=list)
    hand_start: HandStart | None = None
    records: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    """(hand number, index in its log, the record with every card)."""
    hand_end: HandEnd | None = None
    standings: list[dict[str, Any]] | None = None
    """A tournament that ended: each player's account, name, place and prize."""
    places: list[dict[str, Any]] = field(default_factory=list)
    """Players who finished a tournament with this command (account, name, place, prize):
    its standings as they happen."""
    seats: list[dict[str, Any]] | None = None
    """The seats as they are after the command, when they changed (name, seat, stack,
    status, account, bot)."""
    stakes: Stakes | None = None
    """The stakes a deal took from the host's change (the table row's stakes from now on)."""
    parts: list[tuple[int, Batch]] = field(default_factory=list)
    """A multi-table tournament's command: what it wrote at each of its tables (by table
    id), stored in the same transaction; their command is the one in the tournament's log."""
    logged: bool = True
    """Whether ``command`` is stored in the table's log (a part's is the tournament's)."""
    closed: bool = False
    """The table closed with this command (a tournament's table broken or finished)."""
    checkpoint: StoredCheckpoint | None = None
    """The table's state once the command is applied (:mod:`~mazziere.server.checkpoints`),
    stored as its latest: its ``seq`` is the command's (0 here)."""


@dataclass(frozen=True, slots=True)
class StoredCheckpoint:
    """A cash table's state after its command number ``seq`` (:mod:`mazziere.server.checkpoints`),
    written by the room's code of ``version``."""

    seq: int
    version: str
    state: bytes


@dataclass(frozen=True, slots=True)
class HostControls:
    """What a private table's host set over REST: paused or not, the stakes wanted (the
    pending change if there is one)."""

    paused: bool
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class WaitingList:
    """A table's waiting list as the table needs it: the free seats kept for its first
    players, and how many wait in all."""

    kept: list[KeptSeat]
    waiting: int


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A free seat kept for a player of the table's waiting list: who, and how long still
    (docs/server.md, *Who may sit*)."""

    account_id: int
    name: str
    """Their display name."""
    seconds_left: float


class StoreUnavailableError(Exception):
    """The database refuses writes for now (a full disk, a read-only file, a lost
    connection): nothing of the batch was stored, and the same batch may be tried again.

    A batch that can never be stored (a wallet that cannot pay) raises anything else."""


class TableStore(abc.ABC):
    """Where a table's commands live; :class:`MemoryStore` for tests, the database for the
    server (:mod:`mazziere.server.storage.tables`)."""

    @abc.abstractmethod
    async def load(self, table_id: int, *, after: int = 0) -> list[StoredCommand]:
        """The table's stored commands after its first ``after``, in order."""

    async def checkpoint(self, table_id: int) -> StoredCheckpoint | None:
        """The table's latest checkpoint (``None``: replay from the first command)."""
        return None

    @abc.abstractmethod
    async def commit(self, table_id: int, batch: Batch) -> None:
        """Store ``batch`` all at once, or raise and store nothing
        (:class:`StoreUnavailableError` when trying again later may succeed)."""

    @abc.abstractmethod
    async def wallet(self, account_id: int) -> int:
        """The player's balance (to refuse a buy-in they cannot pay before trying)."""

    async def sit_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """Why the player may not sit at the table now (code, message); ``None``: they may."""
        return None

    async def watch_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """Why the player may not watch the table (code, message); ``None``: they may."""
        return None

    async def controls(self, table_id: int) -> HostControls | None:
        """What the table's host set (``None``: a table without a host's controls)."""
        return None

    async def waiting_list(self, table_id: int) -> WaitingList:
        """The table's waiting list now, with the free seats kept for its first players: a
        seat's time counts from the first time it is kept for the player, whose place is
        lost (and the seat kept for the next) when it is up."""
        return WaitingList([], 0)


class MemoryStore(TableStore):
    """Commands kept in a dictionary: for tests and for tables nobody needs to resume."""

    def __init__(self, wallets: dict[int, int] | None = None) -> None:
        self.commands: dict[int, list[StoredCommand]] = {}
        self.batches: dict[int, list[Batch]] = {}
        self.wallets: dict[int, int] = dict(wallets or {})
        self.host_controls: dict[int, HostControls] = {}
        self.approved: dict[int, set[int]] = {}
        """Private tables (by id): the accounts that may sit (absent: anyone may)."""
        self.checkpoints: dict[int, StoredCheckpoint] = {}

    async def sit_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """Refused where the table has a list of approved players without this one."""
        approved = self.approved.get(table_id)
        if approved is not None and account_id not in approved:
            return "not_approved", "the host has not approved you at this table"
        return None

    async def watch_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """Refused as a seat is: only the approved players watch a table with such a list."""
        return await self.sit_refusal(table_id, account_id)

    async def controls(self, table_id: int) -> HostControls | None:
        """What a test set as the host."""
        return self.host_controls.get(table_id)

    async def load(self, table_id: int, *, after: int = 0) -> list[StoredCommand]:
        """The commands stored so far (after the first ``after``)."""
        return list(self.commands.get(table_id, ())[after:])

    async def checkpoint(self, table_id: int) -> StoredCheckpoint | None:
        """The latest checkpoint committed."""
        return self.checkpoints.get(table_id)

    async def commit(self, table_id: int, batch: Batch) -> None:
        """Append the command; move the wallets."""
        for move in batch.moves:
            if move.account_id is None:
                continue
            if move.source == f"wallet:{move.account_id}":
                if self.wallets.get(move.account_id, 0) < move.amount:
                    raise ValueError(f"wallet {move.account_id} cannot pay {move.amount}")
                self.wallets[move.account_id] -= move.amount
            elif move.destination == f"wallet:{move.account_id}":
                self.wallets[move.account_id] = self.wallets.get(move.account_id, 0) + move.amount
        commands = self.commands.setdefault(table_id, [])
        commands.append(batch.command)
        self.batches.setdefault(table_id, []).append(batch)
        if batch.checkpoint is not None:
            self.checkpoints[table_id] = replace(batch.checkpoint, seq=len(commands))
        if batch.closed:  # nothing rebuilds it again
            self.checkpoints.pop(table_id, None)

    async def wallet(self, account_id: int) -> int:
        """The wallet's balance."""
        return self.wallets.get(account_id, 0)


# ---------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A cash table as the lobby opened it."""

    id: int
    name: str
    rules: str
    seats: int
    stakes: Stakes
    min_buy_in: int
    max_buy_in: int
    decision_seconds: float = 30.0
    time_bank_seconds: float = 60.0
    bots_allowed: bool = True
    next_hand_seconds: float = 2.0
    """The pause between a hand's end and the next deal (to see the showdown)."""
    hints_allowed: bool = False
    """Hints for learners for everyone seated (a private table's host allows them); without
    it, only a player whose every opponent is a bot may have them (:mod:`.hints`)."""
    host_id: int | None = None
    """A private table's host: the only one who adds and removes bots there."""
    sit_out_seconds: float = SIT_OUT_SECONDS
    """How long a player may sit out (or be away) before their seat is freed and their
    chips go back to their wallet: a seat nobody comes back to is not held for ever."""
    rebuy_seconds: float = REBUY_SECONDS
    """How long a player left without chips may rebuy before their seat is freed."""

    def settings(self) -> CashSettings:
        """The room's settings for this table."""
        rules = find_rules(self.rules)
        base = TimeSettings.for_rules(rules)
        time_settings = TimeSettings(
            decision_seconds=self.decision_seconds,
            time_bank_seconds=min(self.time_bank_seconds, base.time_bank_max_seconds),
            time_bank_refill_seconds=base.time_bank_refill_seconds,
            time_bank_refill_hands=base.time_bank_refill_hands,
            time_bank_max_seconds=base.time_bank_max_seconds,
            timeouts_to_sit_out=base.timeouts_to_sit_out,
            raise_window_seconds=base.raise_window_seconds,
        )
        return CashSettings(
            rules=rules,
            seats=self.seats,
            stakes=self.stakes,
            min_buy_in=self.min_buy_in,
            max_buy_in=self.max_buy_in,
            time=time_settings,
            sit_out_seconds=self.sit_out_seconds,
            rebuy_seconds=self.rebuy_seconds,
            name=str(self.id),
            # Every hand's history is stored (and read) in the database: twenty summaries a
            # table held in memory had no reader.
            keep_hands=0,
        )


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """A sit & go that has filled: its settings and its players, in registration order.

    ``table_id`` is the table row its hands and commands are stored under;
    ``players`` pairs each account with the name it has at the table.
    """

    id: int
    table_id: int
    settings: TournamentSettings
    players: tuple[tuple[int, str], ...]
    next_hand_seconds: float = 2.0
    host_id: int | None = None
    """A private sit & go's host: its table is followed by the host and its players only."""

    def __post_init__(self) -> None:
        if tables_needed(len(self.players), self.settings.seats) != 1:
            raise ValueError("a sit & go is played at one table")


@dataclass(frozen=True, slots=True)
class TournamentTableConfig(TournamentConfig):
    """One table of a multi-table tournament: its row (``table_id``) and the room table it
    plays.  The tournament's own task (:mod:`mazziere.server.tournaments`) owns the
    tournament, its clock and every one of its tables; this table's task only speaks for
    it (its events, turn ids, snapshots)."""

    room_table: Any = None

    def __post_init__(self) -> None:
        if self.room_table is None:
            raise ValueError("a tournament's table plays a room table")


@dataclass(frozen=True, slots=True)
class Player:
    """Who sent a message: the account and the name shown at tables."""

    account_id: int
    name: str


@dataclass(slots=True)
class _Seated:
    name: str
    account_id: int | None
    bot: str | None


SeatIndex = dict[str, dict[str, None]]
"""Who sits where in the whole room: each name's tables, in the order they sat there."""


class Seating(MutableMapping[str, _Seated]):
    """The players seated at one table, kept in the room's :data:`SeatIndex` as they come
    and go: a connection opening or closing finds its player's tables at once, not by
    asking each of thousands of tables.

    >>> where: SeatIndex = {}
    >>> seating = Seating("7", where)
    >>> seating["anna"] = _Seated("anna", 1, None)
    >>> where, "anna" in seating
    ({'anna': {'7': None}}, True)
    >>> seating.clear()
    >>> where
    {}
    """

    __slots__ = ("_seated", "_table", "_where")

    def __init__(self, table: str, where: SeatIndex) -> None:
        self._table = table
        self._where = where
        self._seated: dict[str, _Seated] = {}

    def __getitem__(self, name: str) -> _Seated:
        return self._seated[name]

    def __contains__(self, name: object) -> bool:
        return name in self._seated

    def get(self, name: str, default: Any = None) -> Any:
        return self._seated.get(name, default)

    def __setitem__(self, name: str, seated: _Seated) -> None:
        self._seated[name] = seated
        self._where.setdefault(name, {})[self._table] = None

    def __delitem__(self, name: str) -> None:
        del self._seated[name]
        tables = self._where.get(name)
        if tables is not None:
            tables.pop(self._table, None)
            if not tables:
                del self._where[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._seated)

    def __len__(self) -> int:
        return len(self._seated)


@dataclass(frozen=True, slots=True)
class SyncControls:
    """Not a client's message: the service asks the task to read its host's controls again."""

    type: str = "sync_controls"


@dataclass(frozen=True, slots=True)
class Close:
    """Not a client's message: close this cash table between hands, moving no one's chips
    but the bots' (they leave first, their chips back to the room's grants).  ``by_host``:
    a private table's host closes it, once no person sits there.  Else the operator's lobby
    file no longer offers this lobby table (or offers it changed), read again while the
    room runs: it closes only once nobody sits there at all and no seat is kept for someone
    waiting.  Never with a hand playing or a pot carried to the next hand (its chips are
    the players' who built it).  ``refusal`` is told why not (a code and a sentence), or
    ``None`` once the close is stored.  Asked of the table's own task, so that no sit can
    come between the check and the close."""

    refusal: asyncio.Future[tuple[str, str] | None]
    by_host: bool = False
    type: str = "close"


class _RefusedError(Exception):
    def __init__(self, code: p.ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_EXTERNAL_IN = {EntryKind.BUY_IN, EntryKind.TOP_UP, EntryKind.REBUY}


def wallet_key(account_id: int | None) -> str:
    """The ledger key a seat's money comes from: the player's wallet; the grants for a bot."""
    return "grants" if account_id is None else f"wallet:{account_id}"


_LIVE_ONLY = frozenset(
    {"clock", "held", "_replaying", "_seats_told", "_seats_owed", "_seats_check_at", "bots"}
)
"""A table task's attributes that no replay changes, not in a checkpoint; and its bots, made
again from the seats (what a bot remembers of the hands it played there, a replay, which
asks no bot to decide, does not give it)."""


class TableTask(RequestLoop):
    """One table: its room table, its queue, its sequence of events, its bots.

    ``bot_seconds``: how long a bot "thinks" before acting (0 in tests).
    """

    def __init__(
        self,
        config: TableConfig | TournamentConfig,
        store: TableStore,
        bus: Bus,
        *,
        bot_seconds: float = 0.8,
        bot_rng: Any = None,
        seat_index: SeatIndex | None = None,
        checkpoint_hands: int = checkpoints.CHECKPOINT_EVERY_HANDS,
    ) -> None:
        self.config = config
        self.table_id = config.table_id if isinstance(config, TournamentConfig) else config.id
        self.id = str(self.table_id)
        self.store = store
        self.bus = bus
        self.bot_seconds = bot_seconds
        # The bots' own choices (never the deck's order: that is FairRandom's) from a generator
        # seeded by the system: unpredictable, without a system call for each of the hundred
        # numbers a Hold'em bot draws a decision (a fifth of a bot table's CPU, with
        # SystemRandom: docs/bots.md).
        self.bot_rng = bot_rng if bot_rng is not None else random.Random(secrets.randbits(256))
        super().__init__(f"table {self.id}")
        self.seated = Seating(self.id, {} if seat_index is None else seat_index)
        self.checkpoint_hands = checkpoint_hands if isinstance(config, TableConfig) else 0
        """A cash table writes its state down every this many hands (0: never)."""
        given = set(vars(self))
        self._fresh(bytes(32))
        # What a fresh table starts, the replay of its commands builds: that is what a
        # checkpoint keeps, but for what only a running table changes (a rebuild starts it
        # afresh too) and its clock (the reader's own).
        self._replayed = frozenset(vars(self).keys() - given - _LIVE_ONLY)

    def _fresh(self, start_seed: bytes) -> None:
        """A new, empty table (before the stored commands are replayed on it).

        A tournament's table is its sit & go, started: every player registered, seated at
        random by the stream of ``start_seed`` (the tournament's first stored command)."""
        self.clock = TableClock()
        self.rng = FairRandom(start_seed, SEATING_LABEL)
        self.tournament: Tournament | None = None
        self.table: Table
        config = self.config
        self.seated.clear()
        if isinstance(config, TournamentTableConfig):
            # The tournament's task made the table, with its own random source, on the
            # tournament's clock; its players are seated by the tournament.
            self.table = config.room_table
            self.clock = config.room_table.clock
            self.rng = config.room_table.rng
            self.tournament = config.room_table.tournament
        elif isinstance(config, TournamentConfig):
            self.tournament = Tournament(config.settings, clock=self.clock, rng=self.rng)
            for account, name in config.players:
                self.tournament.register(name)
                self.seated[name] = _Seated(name, account, None)
            self.table = next(iter(self.tournament.tables.values()))
        else:
            self.table = CashTable(config.settings(), clock=self.clock, rng=self.rng)
        self.table.deck_source = self._deck
        self.seq = 0
        self.recent: deque[KeptEvent] = deque(maxlen=RECENT_EVENTS)
        self._hand_seq = 0  # the sequence number of the last hand's start (0: none yet)
        self.bots: dict[str, Bot] = {}
        self.action_id = 0
        self.applied: dict[str, int] = {}
        self.share_holders: dict[str, int | None] = {}
        """The accounts of players gone from the table who hold a share of its carried pot
        (a close gives it back to them): by name, ``None`` for a bot."""
        self._turn_key: tuple[int, int, int] | None = None
        self._turn: tuple[p.Turn, p.Turn] | None = None
        self._hand_seed: bytes = b""
        self._tick_seed: bytes = b""
        self._announced_hand = 0
        self._dealt_names: tuple[int, list[str]] = (0, [])
        """The hand being played and its players' names by position, as it was dealt."""
        self._announced_records = 0
        self._ended_hand = 0
        self._ended_at = 0.0
        self._seats_shown: Any = None
        self._offers_shown: set[tuple[str, str, int]] = set()
        self._ledger_seen = 0
        # A tournament's registrations were paid through the lobby: not mirrored again.
        self._money_seen = len(self.tournament.money) if self.tournament is not None else 0
        self._standings_stored = False
        self._placed = 0
        self.paused = False
        """The host paused the table: no new hand is dealt (the one playing goes on)."""
        self.closed = False
        """Its row is closed: a cash table by its stored ``close`` (:class:`Close`), a
        tournament's table broken up or its tournament over.  It takes no command more."""
        self.next_stakes: Stakes | None = None
        """The host's stakes change, taken by the next deal."""
        self._stakes_taken: Stakes | None = None
        self._controls_shown = self._controls()
        self._level_shown: tuple[int, bool, int | None, int] | None = None
        self._replaying = False
        self.held = False
        """The database refuses writes: the table waits for its last change to be stored."""
        self._idle = False
        """A tick found nothing to deal: wait for a command (or an offer's deadline)."""
        self._seats_told: dict[int, float] = {}
        """The players of the waiting list told that a free seat is kept for them (by
        account), each until when (the table's clock)."""
        self._seats_owed = 0
        """The players of the waiting list for whom no seat is kept: at a lobby's table a bot
        gives its seat up to them, between hands."""
        self._seats_check_at: float | None = 0.0 if isinstance(self.table, CashTable) else None
        """When to ask which free seats are kept for the waiting list (a seat freed, a
        player's time up; at once after a start, which told nobody yet)."""

    # ------------------------------------------------------------- lifecycle

    async def rebuild(self) -> int:
        """Replay the stored commands on a fresh table, from its latest checkpoint if it
        has one this code can read; return how many commands the table has stored."""
        version = checkpoints.code_version()  # known from the start (docs: code_version)
        stored = await self.store.checkpoint(self.table_id) if self.checkpoint_hands else None
        self._fresh(bytes(32))
        if stored is not None and stored.version != version:
            log.info("table %s: checkpoint %s not used (other code wrote it)", self.id, stored.seq)
        restored = stored is not None and stored.version == version and self._restore(stored)
        after = stored.seq if stored is not None and restored else 0
        commands = await self.store.load(self.table_id, after=after)
        if not restored:
            start_seed = bytes(32)
            if isinstance(self.config, TournamentConfig):
                if not commands or commands[0].kind != "start":
                    raise ValueError(f"tournament table {self.id} has no start stored")
                start_seed = bytes.fromhex(str(commands[0].data["seed"]))
            changed = next((c for c in commands if c.kind == "stakes"), None)
            if changed is not None and isinstance(self.config, TableConfig):
                # The row has the stakes now; the table began with those of before the change.
                self.config = replace(self.config, stakes=Stakes(**changed.data["from"]))
            self._fresh(start_seed)
        self._replaying = True
        try:
            for command in commands:
                if command.kind == "start":
                    continue
                self.clock.replay_to(command.at)
                try:
                    self._execute(command)
                except _RefusedError as refused:  # stored, so it was applied once: a bug
                    log.error(
                        "table %s: stored %s refused on replay: %s",
                        self.id,
                        command.kind,
                        refused.message,
                    )
        finally:
            self._replaying = False
        decision = self.table.decision
        start = decision.timer.started if decision is not None else self.clock.now()
        self.clock.run(start)  # the decision waited for gets its whole time again
        return after + len(commands)

    def _checkpoint(self, command: StoredCommand) -> StoredCheckpoint | None:
        """The table's state once ``command`` is applied (:mod:`~mazziere.server.checkpoints`);
        ``None`` if it cannot be written (the table goes on: a rebuild replays more)."""
        state = {name: getattr(self, name) for name in self._replayed}
        state["seated"] = list(self.seated.values())
        state["settings"] = self._settings_replayed()
        try:
            data = checkpoints.dump(
                state, at=command.at, owner=self, externals=self._checkpoint_externals()
            )
        except Exception:
            log.exception("table %s: no checkpoint at its command of %s", self.id, command.kind)
            return None
        return StoredCheckpoint(0, checkpoints.code_version(), data)

    def _restore(self, stored: StoredCheckpoint) -> bool:
        """The fresh table made what ``stored`` keeps; ``False`` (and nothing changed) if it
        cannot be read."""
        try:
            at, state = checkpoints.load(
                stored.state, owner=self, externals=self._checkpoint_externals()
            )
        except checkpoints.CheckpointError as error:
            log.warning("table %s: checkpoint %s not used (%s)", self.id, stored.seq, error)
            return False
        if state.keys() != self._replayed | {"seated", "settings"}:
            why = "not this table's state"
            log.warning("table %s: checkpoint %s not used (%s)", self.id, stored.seq, why)
            return False
        if state.pop("settings") != self._settings_replayed():
            # Made from the table's row by code a replay does not run (the lobby's): a
            # replay from the first command plays the table as its settings are now.
            log.info("table %s: checkpoint %s not used (other settings)", self.id, stored.seq)
            return False
        for seated in state.pop("seated"):
            self.seated[seated.name] = seated
            if seated.bot is not None:
                self.bots[seated.name] = make_bot(seated.bot, self.bot_rng)
        for name, value in state.items():
            setattr(self, name, value)
        self.clock.replay_to(at)
        return True

    def _settings_replayed(self) -> dict[str, object]:
        """What a replay takes from the table's config: all of it but its stakes (the
        replay's own, changed by the host's commands) and the pause before a deal (the
        running table's)."""
        kept = asdict(self.config)
        del kept["stakes"], kept["next_hand_seconds"]
        return kept

    def _checkpoint_externals(self) -> dict[str, object]:
        return {"clock": self.clock, "bot_rng": self.bot_rng}

    async def begin(self) -> None:
        """A tournament opened for the first time: store its start (the seating seed)."""
        if isinstance(self.config, TournamentConfig) and not await self.store.load(self.table_id):
            start = StoredCommand("start", 0.0, {"seed": new_seed().hex()})
            await self.store.commit(self.table_id, Batch(start))

    async def stop(self) -> None:
        """Stop the loop (the stored commands keep the table)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def submit(self, player: Player | None, message: Any, outbox: Outbox | None) -> None:
        """Queue a message for the table and wait until it is handled (replies go to outbox)."""
        await self._submit(self, player, message, outbox)

    async def _failed(self, what: str) -> None:
        """Something failed half-way (the database, a bug): the table is rebuilt from what
        was stored, so nothing that was not stored survives, and nothing stored is lost."""
        log.exception(
            "table %s failed on %s; rebuilding it from the stored commands", self.id, what
        )
        await asyncio.sleep(1.0)  # a failure that repeats does not spin
        await self.rebuild()

    # ------------------------------------------------------------ the clock

    def _next_wake(self) -> float | None:
        if self.closed:
            return None  # nothing more happens here
        if self._yielding_bot() is not None:
            return self.clock.now()
        wake = self._next_wake_of_play()
        check = self._seats_check_at
        if check is None or (wake is not None and wake < check):
            return wake
        return check

    def _next_wake_of_play(self) -> float | None:
        table = self.table
        decision = table.decision
        if decision is not None:
            seated = self.seated.get(decision.name)
            if seated is not None and seated.bot is not None:
                return decision.timer.started + self.bot_seconds
            return decision.timer.deadline
        times: list[float] = []
        deals = not self.paused
        if isinstance(table, TournamentTable) and not table.in_hand and self.tournament:
            tournament = self.tournament
            on_break = tournament.level_clock(table, self.clock.now()).on_break
            deals = deals and not on_break and not tournament.final_table_forming
        if deals:
            # An offer is asked by a deal and its time ends at the next tick's deal, which a
            # table does not try while its host paused it, while its tournament is on a
            # break or forms its final table: waking for it then would wake again at once, a
            # tick stored each time, for as long as that lasted.  It is read at the next
            # deal, whose own time wakes the table.
            times.extend(o.timer.deadline for o in table.offers.values())
        if any(self.seated[o.name].bot for o in table.offers.values() if o.name in self.seated):
            times.append(self.clock.now())
        if isinstance(table, CashTable):
            for seat in table:
                if seat.busted_at is not None and self.seated[seat.name].bot is not None:
                    times.append(self.clock.now())  # a broke bot leaves
                freed = self._seat_freed_at(seat)
                if freed is not None:
                    times.append(freed)
        if self._dealable() and not self._idle:
            times.append(self._ended_at + self.config.next_hand_seconds)
        if isinstance(table, TournamentTable) and not table.in_hand:
            if table.paused_until is not None:
                times.append(table.paused_until)  # a break of its own ends: the next deal
            elif self.tournament is not None:
                now = self.clock.now()
                level = self.tournament.level_clock(table, now)
                if level.on_break and level.seconds_left is not None:
                    # The tournament's break by the clock ends (a millisecond after: its end
                    # reached, not missed by a rounding and asked for again at once).
                    times.append(now + level.seconds_left + 0.001)
        return min(times) if times else None

    def _seat_freed_at(self, seat: Seat) -> float | None:
        """When a person's seat, sat out or left without chips, is freed (``None``: never;
        bots sit out and come back as the table's pool needs them, and leave when broke).
        The room stores that leave as a command when its time comes, whether the table
        deals or not: a paused table whose clock waited on a deal to free a broke seat would
        wake for it again at once, and again, for as long as the pause lasted."""
        table = self.table
        if not isinstance(table, CashTable) or self.seated[seat.name].bot is not None:
            return None
        rebuy_ends = table.rebuy_ends_at(seat)
        return rebuy_ends if rebuy_ends is not None else table.seat_freed_at(seat)

    def _dealable(self) -> bool:
        """Whether a tick could deal: no hand playing, two players who could play, and at a
        cash table a person among those seated (bots play for people: a private table's
        bots, left alone by its host, wait for them instead of dealing to each other, each
        hand stored, for as long as the room runs), and at a tournament's table no break
        (its end is a wake of its own: a tick tried during it, after each chat line or
        sitting in, would deal nothing and store a tick all the same)."""
        if self.table.in_hand or self.paused:
            return False
        tournament = self.tournament
        if tournament is not None:
            on_break = tournament.level_clock(self.table, self.clock.now()).on_break  # type: ignore[arg-type]
            return tournament.state is TournamentState.RUNNING and not on_break
        if all(self.seated[s.name].bot is not None for s in self.table):
            return False
        able = [s for s in self.table if s.stack > 0 and s.status is not SeatStatus.SITTING_OUT]
        return len(able) >= 2

    async def _on_time(self) -> None:
        """The clock's turn: the waiting list told of the seats kept, a bot decides, a broke
        bot leaves, or a tick (timeouts, the deal)."""
        if self._seats_check_at is not None and self._seats_check_at <= self.clock.now():
            await self._tell_seats_kept()
            return
        yielding = self._yielding_bot()
        if yielding is not None:  # a seat kept for a person waiting, or no person sits here
            await self._run(StoredCommand("leave", self.clock.now(), {"name": yielding}))
            return
        table = self.table
        decision = table.decision
        if decision is not None:
            seated = self.seated.get(decision.name)
            if seated is not None and seated.bot is not None:
                action = self._bot_action(decision.name)
                data = {"name": decision.name, "action_id": self.action_id, **_action_data(action)}
                await self._run(StoredCommand("act", self.clock.now(), data))
                return
        for offer in list(table.offers.values()):
            seated = self.seated.get(offer.name)
            if seated is not None and seated.bot is not None:
                bot = self.bots[offer.name]
                accept = bot.wants_rejoin(offer.amount, table.player(offer.name).stack)
                data = {"name": offer.name, "accept": accept}
                await self._run(StoredCommand("answer", self.clock.now(), data))
                return
        for seat in list(table):
            if seat.busted_at is not None and self.seated[seat.name].bot is not None:
                await self._run(StoredCommand("leave", self.clock.now(), {"name": seat.name}))
                return
            freed = self._seat_freed_at(seat)
            if freed is not None and freed <= self.clock.now():
                # Gone too long, or broke past the rebuy offer: the seat is freed as if
                # they had left (their chips back to their wallet), a command stored like
                # any other.
                await self._run(StoredCommand("leave", self.clock.now(), {"name": seat.name}))
                return
        await self._run(StoredCommand("tick", self.clock.now(), {"seed": new_seed().hex()}))

    async def _tell_seats_kept(self) -> None:
        """Tell each player of the waiting list a free seat is now kept for, wherever their
        connections are (:class:`~mazziere.server.protocol.SeatKept`); look again when the
        first one's time is up (the seat then kept for the next player waiting)."""
        now = self.clock.now()
        try:
            waiting = await self.store.waiting_list(self.table_id)
        except Exception as error:  # the database: the players wait a little longer
            log.warning(
                "table %s: the waiting list was not read (%s); trying again", self.id, error
            )
            self._seats_check_at = now + 5.0
            self._seats_owed = 0  # (no bot leaves for a list not read)
            return
        told: dict[int, float] = {}
        for seat in waiting.kept:
            if seat.account_id not in self._seats_told:
                seconds = math.ceil(seat.seconds_left)
                message = p.dump(p.SeatKept(table=self.id, seconds=seconds))
                # A guest who took a name plays on, where they sat, as their guest name.
                for name in {seat.name, f"guest-{seat.account_id}"}:
                    await self.bus.deliver(name, message)
            told[seat.account_id] = now + seat.seconds_left
        self._seats_told = told
        self._seats_owed = waiting.waiting - len(waiting.kept)
        self._seats_check_at = min(told.values()) if told else None

    def _close_refusal(self, by_host: bool) -> tuple[str, str] | None:
        """Why this table may not close now (:class:`Close`), or ``None``."""
        config = self.config
        table = self.table
        private = isinstance(config, TableConfig) and config.host_id is not None
        if self.closed:
            return "table_closed", "the table is closed"
        if not isinstance(config, TableConfig) or not isinstance(table, CashTable):
            return "refused", "a tournament's table closes with its tournament"
        if private != by_host:
            return "refused", "a private table is closed by its host, a lobby's by its operator"
        people = sum(1 for seat in table if self.seated[seat.name].bot is None)
        if people or (not by_host and len(table)):
            return "players_seated", "the table can close once every player has left it"
        if table.in_hand:  # (bots deal no hand alone: the one a person left, at most)
            return "hand_playing", "a hand is being played: the table can close once it is over"
        if table.carry.pot and not any(table.carry.shares.values()):  # (the engine keeps them)
            return "pot_carried", f"the pot of {table.carry.pot} carried has nobody's share"
        if not by_host and self._seats_told:
            return "seat_kept", "a seat is kept for a player waiting"
        return None

    def _yielding_bot(self) -> str | None:
        """The bot that leaves now, at a table of the lobby (a private table's bots are its
        host's), between hands: the bot in the highest seat, when a person of the waiting
        list has no seat kept, or when no person sits there any more (bots fill tables for
        people: left alone they would deal to each other for ever, each hand stored);
        ``None`` if none does."""
        config = self.config
        if not isinstance(config, TableConfig) or config.host_id is not None:
            return None
        if self.table.in_hand:
            return None
        seats = list(self.table)
        bots = [seat for seat in seats if self.seated[seat.name].bot is not None]
        if not bots or not (self._seats_owed or len(bots) == len(seats)):
            return None
        return bots[-1].name

    def _bot_action(self, name: str) -> Action:
        table = self.table
        decision = table.decision
        hand = table.hand
        assert decision is not None and hand is not None
        bot = self.bots[name]
        engine: Any = hand  # every engine's hand has view() (not the base class)
        stakes = table.current_stakes()
        big = stakes.big_blind or stakes.ante or 1
        situation = Situation(
            table.rules,
            decision.position,
            hand.n,
            engine.view(decision.position),
            decision.legal,
            big,
        )
        try:
            return bot.act(situation)
        except Exception:
            # A bot's bug must not hold the table (the turn would fail again on every
            # rebuild): it checks, or folds, and the log says why.
            log.exception("table %s: bot %s failed; it checks or folds", self.id, name)
            return check_or_fold(decision.legal)

    # ---------------------------------------------------------- the messages

    async def _handle(self, request: Request) -> None:
        message = request.message
        if isinstance(message, Close):
            refusal = self._close_refusal(message.by_host)
            if refusal is None:
                for seat in list(self.table):  # bots only (a host's: a lobby's have left)
                    await self._run(StoredCommand("leave", self.clock.now(), {"name": seat.name}))
                await self._run(StoredCommand("close", self.clock.now(), {}))
            if not message.refusal.done():
                message.refusal.set_result(refusal)
            return
        if isinstance(message, SyncControls):
            await self._sync_controls()
            self._seats_check_at = self.clock.now()  # (a player joined the waiting list?)
            return
        if isinstance(message, p.Watch | p.Resume):
            unwelcome = await self._watch_refusal(request.player)
            if unwelcome is not None:
                self._reply(request, self._error(p.ErrorCode.REFUSED, unwelcome, of=message.type))
                return
            if request.outbox is not None:
                self.bus.follow(self.id, request.outbox)
                if isinstance(message, p.Resume):
                    self._catch_up(request, message.last_seq)
                elif request.player is None or request.player.name not in self.seated:
                    # A spectator's first look: the hand being played (or the last) from
                    # its start, for its log, then the snapshot.  (A seated player's watch
                    # is a tournament client's first look at its table: the snapshot, whose
                    # level heads the hands that follow.)
                    self._catch_up(request, self._hand_seq - 1 if self._hand_seq else -1)
                else:
                    self._catch_up(request, -1)
            return
        if isinstance(message, p.Unwatch):
            if request.outbox is not None and not (
                request.player and request.player.name in self.seated
            ):
                self.bus.unfollow(self.id, request.outbox)
            self._reply(request, p.Ack(table=self.id, of=message.type))
            return
        try:
            command = self._command_for(request.player, message)
        except _RefusedError as refused:
            self._reply(request, self._error(refused.code, refused.message, of=message.type))
            return
        if command is None:  # a retry of an action already applied
            assert isinstance(message, p.Act)
            self._reply(
                request,
                p.Ack(table=self.id, of="act", action_id=message.action_id, repeated=True),
            )
            return
        if command.kind in ("sit", "top_up") and request.player is not None:
            amount = int(command.data.get("buy_in", command.data.get("amount", 0)))
            if await self.store.wallet(request.player.account_id) < amount:
                self._reply(
                    request,
                    self._error(
                        p.ErrorCode.REFUSED, f"your balance cannot pay {amount}", of=message.type
                    ),
                )
                return
        if command.kind == "sit" and request.player is not None:
            refusal = await self.store.sit_refusal(self.table_id, request.player.account_id)
            if refusal is not None:
                self._reply(request, self._error(p.ErrorCode.REFUSED, refusal[1], of=message.type))
                return
        if command.kind == "sit" and request.outbox is not None:
            self.bus.follow(self.id, request.outbox)  # from the first event of the seat on
        try:
            await self._run(command)
        except _RefusedError as refused:
            self._reply(request, self._error(refused.code, refused.message, of=message.type))
            return
        action_id = message.action_id if isinstance(message, p.Act) else None
        self._reply(request, p.Ack(table=self.id, of=message.type, action_id=action_id))

    async def _watch_refusal(self, player: Player | None) -> str | None:
        """Why ``player`` may not follow the table (a private table's or private sit & go's
        stranger), or ``None``."""
        config = self.config
        if isinstance(config, TournamentConfig):
            if config.host_id is None or (
                player is not None
                and (
                    player.account_id == config.host_id
                    or any(account == player.account_id for account, _ in config.players)
                )
            ):
                return None
            return "a private sit & go is followed by its host and its players"
        if not isinstance(config, TableConfig) or config.host_id is None:
            return None  # a lobby's or a tournament's table: open to every spectator
        if player is not None and (
            player.name in self.seated or player.account_id == config.host_id
        ):
            return None
        refusal = (
            None
            if player is None
            else await self.store.watch_refusal(self.table_id, player.account_id)
        )
        if player is None or refusal is not None:
            return "a private table is watched by its host and the players approved"
        return None

    def _command_for(self, player: Player | None, message: Any) -> StoredCommand | None:
        """The command a message asks for, checked against the table (nothing changes)."""
        now = self.clock.now()
        if player is None:
            raise _RefusedError(p.ErrorCode.UNAUTHENTICATED, "log in to play")
        if self.closed:
            raise _RefusedError(p.ErrorCode.REFUSED, "the table is closed")
        name = player.name
        if self.tournament is not None and isinstance(
            message, p.Sit | p.AddBots | p.Leave | p.TopUp | p.AutoPost
        ):
            raise _RefusedError(
                p.ErrorCode.REFUSED, f"a tournament table has no {message.type} (register instead)"
            )
        if isinstance(message, p.Sit):
            if name in self.seated:
                raise _RefusedError(p.ErrorCode.REFUSED, f"{name} is already seated here")
            seat = message.seat
            empty = self.table.empty_seats()
            if seat is None:
                if not empty:
                    raise _RefusedError(p.ErrorCode.REFUSED, "the table is full")
                seat = empty[secrets.randbelow(len(empty))]
            data = {
                "name": name,
                "account": player.account_id,
                "seat": seat,
                "buy_in": message.buy_in,
                "bot": None,
            }
            return StoredCommand("sit", now, data)
        if isinstance(message, p.AddBots | p.RemoveBot):
            return self._bots_command(player, message, now)
        if name not in self.seated:
            raise _RefusedError(p.ErrorCode.NOT_SEATED, f"{name} has no seat at table {self.id}")
        if isinstance(message, p.Act):
            return self._act_command(name, message, now)
        simple: dict[type, tuple[str, dict[str, Any]]] = {
            p.Leave: ("leave", {}),
            p.SitOut: ("sit_out", {}),
        }
        if type(message) in simple:
            kind, extra = simple[type(message)]
            return StoredCommand(kind, now, {"name": name, **extra})
        if isinstance(message, p.SitIn):
            return StoredCommand("sit_in", now, {"name": name, "post": message.post})
        if isinstance(message, p.AutoPost):
            return StoredCommand("auto_post", now, {"name": name, "on": message.on})
        if isinstance(message, p.TopUp):
            return StoredCommand("top_up", now, {"name": name, "amount": message.amount})
        if isinstance(message, p.Answer):
            if name not in self.table.offers:
                raise _RefusedError(p.ErrorCode.REFUSED, "you have nothing to answer")
            return StoredCommand("answer", now, {"name": name, "accept": message.accept})
        if isinstance(message, p.Chat):
            # The wall clock's time too (the table's own runs only while the room does): an
            # operator reading a complaint needs when it was said (`mazziere db chat`).
            said = {"name": name, "text": message.text, "said_at": round(time.time())}
            return StoredCommand("chat", now, said)
        raise _RefusedError(p.ErrorCode.UNKNOWN_TYPE, f"{message.type} is not for a table")

    def _bots_command(
        self, player: Player, message: p.AddBots | p.RemoveBot, now: float
    ) -> StoredCommand:
        """Bots called or sent away: by anyone seated at a lobby table, by the host alone
        at a private table (seated or not); only a host sends a bot away."""
        config = self.config
        assert isinstance(config, TableConfig)
        if config.host_id is not None and player.account_id != config.host_id:
            raise _RefusedError(p.ErrorCode.REFUSED, "only the table's host calls bots here")
        if isinstance(message, p.RemoveBot):
            seated = self.seated.get(message.name)
            if config.host_id is None:
                raise _RefusedError(
                    p.ErrorCode.REFUSED, "only a private table's host sends bots away"
                )
            if seated is None or seated.bot is None:
                raise _RefusedError(p.ErrorCode.REFUSED, f"no bot {message.name!r} sits here")
            return StoredCommand("leave", now, {"name": message.name})
        if not config.bots_allowed:
            raise _RefusedError(p.ErrorCode.REFUSED, "this table has no bots")
        if config.host_id is None and player.name not in self.seated:
            raise _RefusedError(p.ErrorCode.NOT_SEATED, "sit down first to call bots")
        empty = self.table.empty_seats()
        free = max(0, len(empty) - len(self._seats_told))  # a seat kept for someone waiting
        if free < message.count:  # is not a bot's
            raise _RefusedError(p.ErrorCode.REFUSED, f"only {free} seats are free")
        return StoredCommand("bots", now, {"seats": empty[: message.count], "kind": message.kind})

    async def _sync_controls(self) -> None:
        """Take what the host set over REST as stored commands: a pause or a resume (the
        hand playing goes on), a stakes change (taken by the next deal)."""
        controls = await self.store.controls(self.table_id)
        if controls is None or self.tournament is not None or self.closed:
            return
        if controls.paused != self.paused:
            await self._run(
                StoredCommand("pause" if controls.paused else "resume", self.clock.now(), {})
            )
        assert isinstance(self.table, CashTable)
        wanted = controls.stakes
        pending = self.next_stakes or self.table.settings.stakes
        if wanted != pending:
            # "from": the stakes until now, so that a rebuild starts from the table's first
            # stakes (the table row has the latest).
            data = {**_stakes_data(wanted), "from": _stakes_data(self.table.settings.stakes)}
            await self._run(StoredCommand("stakes", self.clock.now(), data))

    def _act_command(self, name: str, message: p.Act, now: float) -> StoredCommand | None:
        if self.applied.get(name) == message.action_id:
            return None
        decision = self.table.decision
        if decision is None or message.action_id != self.action_id:
            raise _RefusedError(
                p.ErrorCode.STALE_ACTION,
                f"turn {message.action_id} is over"
                + ("" if decision is None else f" (now: turn {self.action_id})"),
            )
        if decision.name != name:
            raise _RefusedError(p.ErrorCode.NOT_YOUR_TURN, f"it is {decision.name}'s turn")
        try:
            cards = tuple(parse_cards(" ".join(message.cards))) if message.cards else ()
            action = Action(ActionKind(message.kind), message.amount, cards)
        except ValueError as error:
            raise _RefusedError(p.ErrorCode.MALFORMED, str(error)) from None
        data = {"name": name, "action_id": message.action_id, **_action_data(action)}
        return StoredCommand("act", now, data)

    # ---------------------------------------------------------- running one

    async def _run(self, command: StoredCommand) -> None:
        """Apply, store, then announce one command (refused: nothing changed)."""
        ended = self._ended_hand
        level = self.tournament.level() if crash.ARMED.point and self.tournament is not None else 0
        occupied = len(self.table)
        events, batch = self._execute(command)
        end = batch.hand_end
        if self.checkpoint_hands and end is not None and end.number % self.checkpoint_hands == 0:
            batch.checkpoint = self._checkpoint(command)
        if crash.ARMED.point:
            self._crash_points(command, batch, stored=False, level=level)
        await self._store(batch)
        if crash.ARMED.point:
            self._crash_points(command, batch, stored=True, level=level)
        for event in events:
            await self.bus.publish(event)
        if len(self.table) < occupied and isinstance(self.table, CashTable):
            self._seats_check_at = self.clock.now()  # a seat freed: kept for someone waiting?
        if self._ended_hand != ended:
            # The pause that shows the showdown counts from when the players hear of the end:
            # a slow commit (the hand's history) must not use it up and deal at once.
            self._ended_at = self.clock.now()

    async def _store(self, batch: Batch) -> None:
        """Store the batch; while the database refuses writes, the table is held
        (:func:`commit_or_hold`)."""
        await commit_or_hold(
            self.store,
            self.table_id,
            batch,
            clock=self.clock,
            hold=self.hold,
            what=f"table {self.id}",
        )

    def held_refusal(self, message: Any) -> p.Error:
        """The answer to a message sent to the table while it is held."""
        return self._error(
            p.ErrorCode.STORAGE_UNAVAILABLE,
            "the table is held: the database refuses writes for now",
            of=getattr(message, "type", None),
        )

    async def hold(self, reason: str | None, retry: float | None) -> None:
        """The table is held (``reason``: the database refuses writes) or goes on (``None``):
        every follower hears it (not an event of the table, no sequence number: a replay
        never makes it); meanwhile what is sent to the table is refused."""
        self.held = reason is not None
        message = p.Held(
            table=self.id,
            held=reason is not None,
            message=reason or "the database stores again: the table goes on",
            retry_seconds=retry,
        )
        await self.bus.publish(TableEvent(self.id, self.seq, p.dump(message)))

    def _crash_points(
        self, command: StoredCommand, batch: Batch, *, stored: bool, level: int
    ) -> None:
        """The crash points of a command (:mod:`~mazziere.server.crash`; tests only), before
        its batch is stored or once it is, never after its events are sent."""
        tournament = self.tournament
        if not stored:
            if (
                tournament is not None
                and batch.hand_start is not None
                and tournament.level() > level
            ):
                crash.reached("level-change")
            return
        if batch.hand_start is not None:
            crash.reached("seed-stored")
        if tournament is not None and batch.hand_end is not None:
            crash.reached("between-tournament-hands")
        decision = self.table.decision
        if command.kind != "act" or decision is None or batch.hand_end is not None:
            return
        kinds = {kind.value for kind in decision.legal.kinds}
        if command.data["kind"] == "draw" and "draw" in kinds:
            crash.reached("mid-draw")
        elif {"draw", "show", "muck"}.isdisjoint(kinds) and all(
            record.get("type") == "action" for _, _, record in batch.records
        ):
            crash.reached("mid-betting")  # no bets collected: the round goes on

    def _execute(self, command: StoredCommand) -> tuple[list[TableEvent], Batch]:
        """Apply ``command`` to the room table and work out its events and what to store."""
        batch = Batch(command)
        hands = self.table.hand_number
        self._apply(command)
        self._idle = command.kind == "tick" and self.table.hand_number == hands
        events = self._changes(batch, command)
        batch.closed = batch.closed or command.kind == "close"
        return events, batch

    def _apply(self, command: StoredCommand) -> None:
        table = self.table
        data = command.data
        kind = command.kind
        name = data.get("name", "")
        try:
            if kind == "act":
                table.act(name, _action_of(data))
                self.applied[name] = int(data["action_id"])
            elif kind == "tick":
                table.advance()
                if not table.in_hand and not self.paused:
                    self._tick_seed = bytes.fromhex(str(data["seed"]))
                    self.rng.restart(self._tick_seed, BUTTON_LABEL)
                    if self.tournament is not None:
                        self.tournament.start_hands()
                    else:
                        self._take_stakes()
                        table.start_hand()
            elif kind in ("pause", "resume"):
                self.paused = kind == "pause"
            elif kind == "stakes" and isinstance(table, CashTable):
                wanted = Stakes(**{k: int(data[k]) for k in ("small_blind", "big_blind", "ante")})
                self.next_stakes = None if wanted == table.settings.stakes else wanted
            elif kind == "answer":
                table.answer(name, bool(data["accept"]))
            elif kind == "sit_out":
                table.sit_out(name)  # type: ignore[attr-defined]
            elif kind == "sit_in" and isinstance(table, CashTable):
                table.sit_in(name, post=bool(data.get("post")))
            elif kind == "sit_in":
                table.sit_in(name)  # type: ignore[attr-defined]
            elif isinstance(table, CashTable):
                self._apply_cash(table, kind, name, data)
            elif kind != "chat":
                raise ValueError(f"no {kind!r} at a tournament table")
        except (RoomError, IllegalActionError) as error:
            raise _RefusedError(
                p.ErrorCode.ILLEGAL_ACTION if kind == "act" else p.ErrorCode.REFUSED, str(error)
            ) from None

    def _take_stakes(self) -> None:
        """Between hands: the host's stakes change becomes the table's."""
        table = self.table
        assert isinstance(table, CashTable)
        if self.next_stakes is not None:
            table.settings = replace(table.settings, stakes=self.next_stakes)
            self._stakes_taken = self.next_stakes
            self.next_stakes = None

    def _controls(self) -> tuple[bool, Stakes, Stakes | None]:
        """What the players are told of the host's controls: paused, stakes, next stakes."""
        return (self.paused, self.table.current_stakes(), self.next_stakes)

    def _apply_cash(self, table: CashTable, kind: str, name: str, data: dict[str, Any]) -> None:
        """The commands only a cash table has: seats, bots, money, the invito option."""
        if kind == "sit":
            table.sit_down(name, int(data["buy_in"]), seat=int(data["seat"]))
            self.seated[name] = _Seated(name, data.get("account"), data.get("bot"))
            if data.get("account") is not None:  # off the waiting list once seated
                self._seats_told.pop(int(data["account"]), None)
        elif kind == "bots":
            for seat in data["seats"]:
                if seat in table.seats:
                    continue
                bot_name = self._bot_name(int(seat))
                table.sit_down(bot_name, table.settings.max_buy_in, seat=int(seat))
                self.seated[bot_name] = _Seated(bot_name, None, str(data["kind"]))
                self.bots[bot_name] = make_bot(str(data["kind"]), self.bot_rng)
        elif kind == "leave":
            table.leave(name)
        elif kind == "auto_post":
            table.set_auto_post(name, bool(data["on"]))
        elif kind == "top_up":
            if table.player(name).status is SeatStatus.BUSTED:
                table.rebuy(name, int(data["amount"]))
            else:
                table.top_up(name, int(data["amount"]))
        elif kind == "close":  # the row says so too (Batch.closed)
            table.give_back_carried_pot()
            self.closed = True
        elif kind != "chat":
            raise ValueError(f"unknown command {kind!r}")

    def _bot_name(self, seat: int) -> str:
        number = seat
        while f"bot-{number}" in self.seated or f"bot-{number}" in (s.name for s in self.table):
            number += self.table.seat_count
        return f"bot-{number}"

    def _deck(self, plan: HandPlan) -> Sequence[Card]:
        """The room table asks for the hand's cards: the deck in the order of the hand's seed.

        The same random source, restarted from the seed, goes on as the hand's rng
        (a reshuffle of the draw, an odd chip)."""
        self._hand_seed = self._tick_seed
        order, _ = deck_order(
            self._hand_seed, self.table.rules, players=len(plan.seats), rng=self.rng
        )
        return order

    # ---------------------------------------------------------- the changes

    def _event(self, public: BaseModel, private: dict[str, BaseModel] | None = None) -> TableEvent:
        texts = {name: p.dump(message) for name, message in (private or {}).items()}
        event = TableEvent(self.id, self.seq, p.dump(public), texts)
        self.recent.append((event.seq, event.public, tuple(texts.items())))
        return event

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _changes(self, batch: Batch, command: StoredCommand) -> list[TableEvent]:
        """Events for everything the command changed, in order; fill ``batch`` likewise."""
        events: list[TableEvent] = []
        table = self.table
        self._mirror_ledger(batch)
        batch.stakes, self._stakes_taken = self._stakes_taken, None
        hand = table.hand
        names = list(table.plan.seats) if table.plan is not None else []
        if command.kind == "chat":
            events.append(
                self._event(
                    p.ChatSaid(
                        table=self.id,
                        seq=self._next_seq(),
                        name=str(command.data["name"]),
                        text=str(command.data["text"]),
                    )
                )
            )
        # A tournament's level: before the hand it is played at, and between hands when the
        # next hand's changes (a level by minutes may end during a hand, which goes on at
        # its stakes: not told again until the hand is over). The command's own time, not
        # the clock's: a rebuild tells the same levels.
        level = self._level(command.at)
        told_this_hand = self._level_shown is not None and self._level_shown[3] == table.hand_number
        if level is not None and not (table.in_hand and told_this_hand):
            level_key = (level.number, level.on_break, level.hands_left, table.hand_number)
            if level_key != self._level_shown:
                self._level_shown = level_key
                events.append(
                    self._event(p.LevelChanged(table=self.id, seq=self._next_seq(), level=level))
                )
        if hand is not None and table.hand_number != self._announced_hand:
            self._announced_hand = table.hand_number
            self._announced_records = 0
            hand_names = self._hand_names(table.hand_number, names)
            engine_hand: Any = hand
            stacks = engine_hand.setup.stacks  # every engine's hand has its setup
            start = HandStart(
                number=table.hand_number,
                rules=table.rules.name,
                seed=self._hand_seed.hex(),
                commitment=commitment(self._hand_seed),
                setup={
                    "button": table.button,
                    "seats": names,
                    "names": hand_names,
                    "stacks": list(stacks),
                },
                seats=[
                    {"seat": s, "name": n, "stack": stack, **self._owner(n)}
                    for s, n, stack in zip(names, hand_names, stacks, strict=True)
                ],
                tournament=self.config.id if isinstance(self.config, TournamentConfig) else None,
            )
            batch.hand_start = start
            events.append(
                self._event(
                    p.HandStarted(
                        table=self.id,
                        seq=self._next_seq(),
                        hand=table.hand_number,
                        rules=table.rules.name,
                        names=hand_names,
                        seats=names,
                        button=table.button,
                        commitment=start.commitment,
                        opening=_opening_of(hand),
                    )
                )
            )
            self._hand_seq = self.seq
        if hand is not None:
            hand_names = self._hand_names(table.hand_number, names)
            for index in range(self._announced_records, len(hand.log)):
                record = hand.log[index]
                stored = record.to_dict()
                batch.records.append((table.hand_number, index, stored))
                seq = self._next_seq()
                public_record = record.seen_by(None)
                public = p.HandRecord(
                    table=self.id,
                    seq=seq,
                    hand=table.hand_number,
                    # Most records hide nothing (seen_by gives the record itself): its plain
                    # data once (the message validates a copy of it).
                    record=stored if public_record is record else public_record.to_dict(),
                )
                private: dict[str, BaseModel] = {}
                # A seat sees at least what a spectator sees: a record shown whole to
                # spectators (most of them) is the same to every seat.
                seats_differ = public_record is not record
                for position, player in enumerate(hand_names if seats_differ else ()):
                    seen = record.seen_by(position)
                    if seen != public_record:
                        private[player] = p.HandRecord(
                            table=self.id, seq=seq, hand=table.hand_number, record=seen.to_dict()
                        )
                events.append(self._event(public, private))
            self._announced_records = len(hand.log)
            if hand.is_over and self._ended_hand != table.hand_number:
                self._ended_hand = table.hand_number
                self._ended_at = self.clock.now()
                assert hand.result is not None
                result = hand.result.to_dict()
                # (a rebuild's batches are stored already: its history is not written again)
                history = (
                    ""
                    if self._replaying
                    else _history(hand, self._hand_seed, self.id, table.hand_number, hand_names)
                )
                batch.hand_end = HandEnd(table.hand_number, result, history)
                events.append(
                    self._event(
                        p.HandEnded(
                            table=self.id,
                            seq=self._next_seq(),
                            hand=table.hand_number,
                            result=result,
                            seed=self._hand_seed.hex(),
                            commitment=commitment(self._hand_seed),
                        )
                    )
                )
        seats = [_seat_shown(s.to_dict()) for s in table]
        # Who sits out from the next hand is told to that player alone (the room table's
        # view of their own seat): the others see it when it happens.
        out_next = tuple(seat.name for seat in table if seat.sit_out_next)
        shown = (seats, table.carry.pot, table.carry.parol_pot, out_next)
        if shown != self._seats_shown:
            self._seats_shown = shown
            batch.seats = [{**s, **self._owner(s["name"])} for s in seats]
            seats_public = p.SeatsChanged(
                table=self.id,
                seq=self._next_seq(),
                seats=seats,
                carried_pot=table.carry.pot,
                parol_pot=table.carry.parol_pot,
            )
            private = {
                name: seats_public.model_copy(
                    update={
                        "seats": [
                            _seat_shown(seat.to_dict(own=True)) if seat.name == name else shown
                            for seat, shown in zip(table, seats, strict=True)
                        ]
                    }
                )
                for name in out_next
            }
            events.append(self._event(seats_public, private))
        controls = self._controls()
        if controls != self._controls_shown and self.tournament is None:
            self._controls_shown = controls
            events.append(self._event(self._state_event()))
        present = {seat.name for seat in table}  # once, not a search of the seats a name
        shares = table.carry.shares
        for name in [name for name in self.seated if name not in present]:
            gone = self.seated.pop(name)
            if name in shares:
                self.share_holders[name] = gone.account_id
            self.bots.pop(name, None)
            self.applied.pop(name, None)
        if self.share_holders and not shares.keys() >= self.share_holders.keys():
            self.share_holders = {n: a for n, a in self.share_holders.items() if n in shares}
        offers = {(o.name, o.kind.value, o.amount) for o in table.offers.values()}
        for offer in table.offers.values():
            key = (offer.name, offer.kind.value, offer.amount)
            if key not in self._offers_shown:
                events.append(
                    self._event(
                        p.OfferMade(
                            table=self.id,
                            seq=self._next_seq(),
                            name=offer.name,
                            kind=offer.kind.value,
                            amount=offer.amount,
                            seconds=max(0.0, offer.timer.deadline - self.clock.now()),
                        )
                    )
                )
        self._offers_shown = offers
        turn = self._turn_event()
        if turn is not None:
            events.append(turn)
        if batch.standings is not None and not isinstance(self.config, TournamentTableConfig):
            # A sit & go over: its table closes (a multi-table tournament's task says so of
            # each of its own tables).
            assert isinstance(self.config, TournamentConfig)
            closed = p.TableClosed(
                table=self.id, seq=self._next_seq(), tournament=self.config.id, over=True, tables=[]
            )
            events.append(self._event(closed))
        if command.kind == "close":  # a cash table closed (Close): its followers are told
            closed = p.TableClosed(table=self.id, seq=self._next_seq(), over=True, tables=[])
            events.append(self._event(closed))
        return events

    def _level(self, now: float) -> p.LevelInfo | None:
        """Where a running tournament's table stands in its schedule (``None``: a cash
        table, or a tournament over)."""
        tournament, table = self.tournament, self.table
        if tournament is None or tournament.state is not TournamentState.RUNNING:
            return None
        if not isinstance(table, TournamentTable):  # pragma: no cover - a tournament's table
            return None
        clock = tournament.level_clock(table, now)
        following = clock.next_stakes
        return p.LevelInfo(
            number=clock.number,
            stakes=_stakes_data(clock.stakes),
            next_stakes=None if following is None else _stakes_data(following),
            on_break=clock.on_break,
            # Tenths: a minute's break set while the command is applied, a few microseconds
            # after its time, is a minute (not 60.00002 s, shown as 1:01 counting down).
            seconds_left=None if clock.seconds_left is None else round(clock.seconds_left, 1),
            hands_left=clock.hands_left,
        )

    def _state_event(self) -> p.TableState:
        paused, stakes, following = self._controls()
        return p.TableState(
            table=self.id,
            seq=self._next_seq(),
            paused=paused,
            stakes=_stakes_data(stakes),
            next_stakes=None if following is None else _stakes_data(following),
        )

    def _turn_event(self) -> TableEvent | None:
        """A new decision: its turn id, announced (what they may do only to the player)."""
        table = self.table
        decision = table.decision
        if decision is None or table.hand is None:
            self._turn_key = None
            self._turn = None
            return None
        key = (table.hand_number, decision.position, len(table.hand.log))
        if key == self._turn_key:
            return None
        self._turn_key = key
        self.action_id += 1
        now = self.clock.now()
        common: dict[str, Any] = {
            "table": self.id,
            "seq": self._next_seq(),
            "hand": table.hand_number,
            "action_id": self.action_id,
            "name": decision.name,
            "position": decision.position,
            "deadline": decision.timer.time_left(now),
            "time_bank": decision.timer.bank_left(now),
        }
        public = p.Turn(legal=None, **common)
        mine = p.Turn(legal=decision.legal.to_dict(), **self._raise_window(decision, now), **common)
        self._turn = (public, mine)
        return self._event(public, {decision.name: mine})

    def _raise_window(self, decision: Decision, now: float) -> dict[str, Any]:
        """The player's turn's raise window: how long the raise is still offered and what
        stands after it (a client shows the raise only so long, then the rest; the table
        refuses a raise after it).  Nothing where no window runs or no raise is offered."""
        left = decision.timer.raise_left(now)
        if left is None or ActionKind.RAISE not in decision.legal.kinds:
            return {"raise_seconds": None, "legal_after_raise": None}
        after = self.table.without_raise(decision.legal)
        return {"raise_seconds": left, "legal_after_raise": after.to_dict()}

    def _name_at(self, seat: int) -> str:
        return self.table.seats[seat].name if seat in self.table.seats else "?"

    def _hand_names(self, number: int, seats: list[int]) -> list[str]:
        """The names of hand ``number``'s players by position (``seats``), as it was dealt: a
        tournament takes an eliminated player's seat before the hand's end is told, and its
        history must still name them (their download, their place in the hand)."""
        names = [self._name_at(seat) for seat in seats]
        known, dealt = self._dealt_names
        if known == number and len(dealt) == len(names):
            names = [dealt[i] if name == "?" else name for i, name in enumerate(names)]
        self._dealt_names = (number, names)
        return names

    def _owner(self, name: str) -> dict[str, Any]:
        seated = self.seated.get(name)
        if seated is None:
            return {"account": None, "bot": None}
        return {"account": seated.account_id, "bot": seated.bot}

    def _mirror_ledger(self, batch: Batch) -> None:
        """The room ledger's movements in and out of the table, as the database's."""
        ledger = self.table.ledger
        table_key = f"table:{self.table_id}"
        # A tournament's chips are not money: only its money ledger is mirrored (below).
        for entry in ledger.since(self._ledger_seen) if self.tournament is None else ():
            if entry.source.kind is AccountKind.PLAYER and entry.kind in _EXTERNAL_IN:
                seated = self.seated.get(entry.source.owner)
                account = seated.account_id if seated is not None else None
                batch.moves.append(
                    Move(
                        "buy-in"
                        if entry.kind is EntryKind.BUY_IN
                        else "top-up"
                        if entry.kind is EntryKind.TOP_UP
                        else "buy-in",
                        wallet_key(account),
                        table_key,
                        entry.amount,
                        account,
                    )
                )
            elif entry.destination.kind is AccountKind.PLAYER:
                owner = entry.destination.owner
                seated = self.seated.get(owner)
                account = seated.account_id if seated is not None else self.share_holders.get(owner)
                why = "refund" if entry.kind is EntryKind.REFUND else "cash-out"
                batch.moves.append(Move(why, table_key, wallet_key(account), entry.amount, account))
            elif entry.kind is EntryKind.RAKE:
                batch.moves.append(Move("rake", table_key, "house", entry.amount, None))
        self._ledger_seen = ledger.recorded
        # Stored by now (a cash table's as the batch's movements, a tournament's chips as the
        # commands that replay them): the table needs only the balances, and holding every
        # hand's entries grew the room for as long as it played.
        ledger.forget(self._ledger_seen)
        tournament = self.tournament
        if tournament is None or isinstance(self.config, TournamentTableConfig):
            return  # a multi-table tournament's money is its own task's
        assert isinstance(self.config, TournamentConfig)
        self._money_seen, self._placed, self._standings_stored = mirror_tournament_money(
            tournament,
            self.config.id,
            self.config.players,
            batch,
            seen=self._money_seen,
            placed=self._placed,
            standings_stored=self._standings_stored,
        )

    # ------------------------------------------------------------- replies

    def _error(self, code: p.ErrorCode, message: str, *, of: str | None = None) -> p.Error:
        return p.Error(code=code, message=message, table=self.id, of=of)

    def _reply(self, request: Request, message: BaseModel) -> None:
        if request.outbox is not None:
            request.outbox.offer(p.dump(message))

    def _catch_up(self, request: Request, last_seq: int) -> None:
        """Send a returning client what it missed after ``last_seq``, or a snapshot."""
        outbox = request.outbox
        assert outbox is not None
        player = request.player.name if request.player is not None else None
        oldest = self.recent[0][0] if self.recent else self.seq + 1
        if 0 <= last_seq < self._hand_seq - 1 and last_seq + 1 < oldest <= self._hand_seq:
            # Too far behind (a page opened again knows nothing): the last hand from its
            # start, for the client's log of it, then the snapshot.
            last_seq = self._hand_seq - 1
        if last_seq >= 0 and last_seq + 1 >= oldest:
            for seq, public, private in self.recent:
                if seq > last_seq:
                    outbox.offer(next((text for name, text in private if name == player), public))
        # Then the table as it is now, with the current turn's time left (a restart gives
        # the decision its whole time again).
        outbox.offer(p.dump(self.snapshot(player)))

    def snapshot(self, player: str | None) -> p.Snapshot:
        """The table as ``player`` (``None``: a spectator) may see it now."""
        state = self.table.view(player)
        for seat in state["seats"]:
            # Who has a connection open is the bus's word, the only one the service keeps
            # (connections are not commands: a rebuilt room table knows nothing of them).
            seat["connected"] = seat["name"] in self.bots or self.bus.connected(seat["name"])
        now = self.clock.now()
        for offer in state["offers"]:  # its time left, as an offer's event says it
            offer["seconds"] = max(0.0, offer["deadline"] - now)
        decision = state.get("decision")
        if decision is not None and decision.get("name") != player:
            decision["legal"] = None  # what the player to act may do is theirs alone
        turn = None
        if self._turn is not None:
            public, mine = self._turn
            turn = mine if player == public.name else public
            decision_now = self.table.decision
            if decision_now is not None:
                # The turn as announced, with its clock as it stands now (not its start), and
                # to its player what they may do now (italian-32's raise window may have shut).
                update: dict[str, Any] = {
                    "deadline": decision_now.timer.time_left(now),
                    "time_bank": decision_now.timer.bank_left(now),
                }
                if turn.legal is not None:
                    update["legal"] = decision_now.legal.to_dict()
                    update.update(self._raise_window(decision_now, now))
                turn = turn.model_copy(update=update)
        following = self.next_stakes
        return p.Snapshot(
            table=self.id,
            seq=max(self.seq, 1),
            state=state,
            turn=turn,
            paused=self.paused,
            next_stakes=None if following is None else _stakes_data(following),
            level=self._level(now),
        )

    # ---------------------------------------------------------- connections

    def sits(self, name: str) -> bool:
        """Whether ``name`` plays at this table now: seated at it, and (a tournament's
        table) the tournament still running."""
        if self.tournament is not None and self.tournament.state is not TournamentState.RUNNING:
            return False
        return any(seat.name == name for seat in self.table)

    async def disconnected(self, name: str) -> None:
        """The player's last connection closed (the clock runs for them as for anyone): the
        table's followers are told."""
        if self.table.is_seated(name):
            await self._tell_presence(name, connected=False)

    async def reconnected(self, name: str) -> None:
        """A connection of the player opened: the followers are told they are back, if it
        is their only one."""
        if self.table.is_seated(name) and self.bus.connections(name) == 1:
            await self._tell_presence(name, connected=True)

    async def _tell_presence(self, name: str, *, connected: bool) -> None:
        # (as a hold: not an event of the table, no sequence number, a replay never makes it)
        message = p.Presence(table=self.id, name=name, connected=connected)
        await self.bus.publish(TableEvent(self.id, self.seq, p.dump(message)))


def mirror_tournament_money(
    tournament: Tournament,
    tournament_id: int,
    players: Sequence[tuple[int, str]],
    batch: Batch,
    *,
    seen: int,
    placed: int,
    standings_stored: bool,
) -> tuple[int, int, bool]:
    """The tournament's prizes since its money entry ``seen`` as movements of the database's
    ledger (prize pool to wallet), the places of the players who finished since the first
    ``placed``, and its standings once it has finished (unless ``standings_stored``), added
    to ``batch``; returns the new ``seen``, ``placed`` and ``standings_stored``.  The
    registrations were paid through the lobby: not mirrored."""
    accounts = {name: account for account, name in players}
    finishes = list(tournament.finishes.values())
    batch.places.extend(
        {"tournament": tournament_id, "account": accounts[f.name], "name": f.name,
         "place": f.place, "prize": f.prize}
        for f in finishes[placed:]
    )  # fmt: skip
    pool = f"tournament:{tournament_id}"
    for index in range(seen, len(tournament.money)):
        entry = tournament.money[index]
        if entry.kind is EntryKind.PRIZE and entry.destination.kind is AccountKind.PLAYER:
            # Eliminated players have left the table, not the tournament: their prize
            # goes to the account they registered with.
            account = accounts[entry.destination.owner]
            batch.moves.append(Move("prize", pool, wallet_key(account), entry.amount, account))
    if tournament.state is TournamentState.FINISHED and not standings_stored:
        standings_stored = True
        batch.standings = [
            {
                "tournament": tournament_id,
                "account": accounts[f.name],
                "name": f.name,
                "place": f.place,
                "prize": f.prize,
            }
            for f in tournament.standings()
        ]
    return len(tournament.money), len(finishes), standings_stored


async def commit_or_hold(
    store: TableStore,
    key: int,
    batch: Batch,
    *,
    clock: TableClock,
    hold: Callable[[str | None, float | None], Awaitable[None]],
    what: str,
) -> None:
    """Store ``batch`` under ``key``; while the database refuses writes, hold and retry.

    Held, the caller's task waits here: it announces nothing of the change (it is not
    stored) and takes no other command (the turn waits), and its ``clock`` stands still,
    so the player to act finds their time as they left it.  ``hold(reason, retry)`` tells
    the players (once held, once it goes on: ``hold(None, None)``).  The same batch is
    tried again after :data:`HOLD_RETRY_SECONDS`' first wait, then twice as long each
    time.  Killed meanwhile, the server resumes from what was stored, without the change.
    A batch that can never be stored raises (the caller rebuilds from what was stored).
    """
    try:
        await store.commit(key, batch)
        return
    except StoreUnavailableError as error:
        reason = error
    held_at = clock.now()
    wait, longest = HOLD_RETRY_SECONDS
    log.error("%s held: the database refuses writes (%s)", what, reason)
    await hold(f"the database refuses writes: {reason}", wait)
    while True:
        await asyncio.sleep(wait)
        try:
            await store.commit(key, batch)
            break
        except StoreUnavailableError as error:
            wait = min(2 * wait, longest)
            log.warning("%s still held (%s); next try in %.1f s", what, error, wait)
    clock.run(held_at)  # the table's time stood still while it was held
    log.warning("%s goes on: the database stores again", what)
    await hold(None, None)


def _seat_shown(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as the seats event shows it: without its ``connected`` (which the event has
    never carried)."""
    seat.pop("connected", None)
    return seat


def _opening_of(hand: Any) -> str | None:
    """The smallest pair that opens the hand, as the players call it (``None``: no opening
    requirement, or not Poker all'italiana)."""
    opening = getattr(hand, "opening", None)
    return None if opening is None else str(opening.name_it)


def _stakes_data(stakes: Stakes) -> dict[str, int]:
    return {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind, "ante": stakes.ante}


def _action_data(action: Action) -> dict[str, Any]:
    return {
        "kind": action.kind.value,
        "amount": action.amount,
        "cards": [str(c) for c in action.cards],
    }


def _action_of(data: dict[str, Any]) -> Action:
    cards = tuple(parse_cards(" ".join(data.get("cards") or ()))) if data.get("cards") else ()
    return Action(ActionKind(data["kind"]), data.get("amount"), cards)


def _history(hand: Any, seed: bytes, table: str, number: int, names: list[str]) -> str:
    """The hand's full PHH (every card) with its seed and commitment."""
    from mazziere.history.writers import write_history

    fields: dict[str, Any] = {
        "table": table,
        "hand": number,
        "players": names,
        "_seed": seed.hex(),
        "_commitment": commitment(seed),
    }
    return write_history(hand, fields)


# --------------------------------------------------------------- the service


class TableService:
    """Every table task of the server: opens them, finds them, stops them."""

    def __init__(
        self,
        store: TableStore,
        bus: Bus,
        *,
        bot_seconds: float = 0.8,
        checkpoint_hands: int = checkpoints.CHECKPOINT_EVERY_HANDS,
    ) -> None:
        self.store = store
        self.bus = bus
        self.bot_seconds = bot_seconds
        self.checkpoint_hands = checkpoint_hands
        self.tasks: dict[str, TableTask] = {}
        self.seat_index: SeatIndex = {}

    async def open(self, config: TableConfig | TournamentConfig) -> TableTask:
        """Rebuild a table from its stored commands and start its task."""
        task = TableTask(
            config,
            self.store,
            self.bus,
            bot_seconds=self.bot_seconds,
            seat_index=self.seat_index,
            checkpoint_hands=self.checkpoint_hands,
        )
        await task.begin()
        await task.rebuild()
        self.tasks[task.id] = task
        task.start()
        if isinstance(config, TableConfig):
            # What the host set while the table was not running (or a call that failed).
            await task.submit(None, SyncControls(), None)
        return task

    def find(self, table: str) -> TableTask:
        """The task of table ``table`` (raise :class:`~mazziere.server.protocol.ProtocolError`)."""
        task = self.tasks.get(table)
        if task is None:
            raise p.ProtocolError(p.ErrorCode.NO_TABLE, f"no table {table!r}")
        return task

    def name_at_tables(self, account_id: int, name: str) -> str:
        """The name an account plays under at the tables now: ``name`` (its display name),
        or ``guest-<id>`` while it still sits where it sat down as a guest.  A guest who takes
        a name mid-game keeps their seats, and every connection of theirs finds them, under
        the name they sat down with; the new name is theirs from their next seat on."""
        as_guest = f"guest-{account_id}"
        return as_guest if as_guest != name and self.tables_of(as_guest) else name

    def tables_of(self, name: str) -> list[str]:
        """The tables where ``name`` plays now (not a finished tournament's, nor one a
        tournament moved them from)."""
        tasks = self.tasks
        return [t for t in self.seat_index.get(name, ()) if t in tasks and tasks[t].sits(name)]

    async def stop(self) -> None:
        """Stop every task."""
        for task in list(self.tasks.values()):
            await task.stop()
        self.tasks.clear()
