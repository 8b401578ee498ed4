"""The load generator's players: bot clients over real WebSockets, one process of many.

A worker process owns whole tables (every seat of a table is in the same process, so the
time from an action sent to its event arriving at every seat is measured on one clock).
For each table it makes a host guest, the host's private table of one rule set (no
approval, no bots), a guest per other seat with its request to sit, then one WebSocket per
player; everybody sits with the table's largest buy-in and plays what the room's ``turn``
offers after a think time, chats now and then, drops the socket and comes back with
``resume`` now and then, tops up when broke.

The worker tells the runner (:mod:`mazziere.loadtest.runner`) when its seats are down,
waits for ``go``, measures for the given seconds, and sends back what it saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import random
import resource
import time
from array import array
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from mazziere.loadtest.http import CookieJar, HttpError, HttpPool
from mazziere.server.collector import CollectorPolicy

__all__ = ["Options", "TablePlan", "plan_tables", "run_worker"]

RULE_SETS: tuple[tuple[str, int, dict[str, int], int, int], ...] = (
    ("holdem", 9, {"small_blind": 1, "big_blind": 2}, 40, 200),
    ("italian-classic", 6, {"ante": 10}, 200, 1_000),
    ("italian-32", 5, {"small_blind": 5, "big_blind": 10}, 200, 1_000),
)
"""Each rule set's most seats, stakes and buy-in limits (the lobby's small tables)."""

LAG_SAMPLE_SECONDS = 0.01
"""How often a worker checks how late its event loop runs (a hundred times a second)."""

RAISE_MARGIN_SECONDS = 1.0
"""A raise sent with less of its window left than this may reach the room after it shut."""

CHAT_LINES = ("ciao a tutti", "nice hand", "buona fortuna", "gg", "che mano!", "ok")


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of the load: its rule set, seats (all taken), stakes and buy-ins."""

    index: int
    rules: str
    players: int
    stakes: dict[str, int]
    min_buy_in: int
    max_buy_in: int


def plan_tables(players: int, tables: int) -> list[TablePlan]:
    """``players`` spread over ``tables`` tables, the rule sets in turn.

    >>> [(t.rules, t.players) for t in plan_tables(11, 3)]
    [('holdem', 4), ('italian-classic', 4), ('italian-32', 3)]
    >>> plan_tables(30, 3)
    Traceback (most recent call last):
    ...
    ValueError: 30 players do not fit 3 tables (holdem seats 9)
    """
    if tables < 1 or players < 2 * tables:
        raise ValueError(f"{players} players cannot fill {tables} tables (two a table at least)")
    plans = []
    for index in range(tables):
        rules, most, stakes, low, high = RULE_SETS[index % len(RULE_SETS)]
        count = players // tables + (1 if index < players % tables else 0)
        if count > most:
            raise ValueError(f"{players} players do not fit {tables} tables ({rules} seats {most})")
        plans.append(TablePlan(index, rules, count, stakes, low, high))
    return plans


@dataclass(frozen=True, slots=True)
class Options:
    """How the players behave."""

    host: str
    port: int
    think: tuple[float, float] = (1.0, 3.0)
    chats_per_minute: float = 0.5
    """Per player."""
    drops_per_minute: float = 0.2
    """Per player: the socket closes and the client comes back 0.5 to 3 s later."""
    seed: int = 0
    setup_concurrency: int = 32
    nice: int = 0
    """Added to the worker process's niceness (``LoadRun.generator_nice``)."""


@dataclass(slots=True)
class _Pending:
    """An action sent: when, by whom, after which event; the seats still to hear of it."""

    position: int
    after_seq: int
    sent: float
    waiting: set[Seat]
    actor: Seat | None = None
    action_id: int | None = None
    event_seq: int | None = None
    acked: float | None = None
    """When the room's acknowledgement reached the actor (it stored and sent the events)."""
    first_heard: float | None = None
    """When the first seat heard of it: later than ``acked`` only if every seat was slow."""


@dataclass
class Tally:
    """What a worker saw while measuring."""

    latencies: array[float] = field(default_factory=lambda: array("d"))
    heard_at: array[float] = field(default_factory=lambda: array("d"))
    """When each of ``latencies`` ended, in seconds from the start of measuring: a long run's
    latency minute by minute tells a steady drift from a few bad moments."""
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    hands: int = 0
    actions: int = 0
    chats: int = 0
    lost: int = 0
    """Actions whose event never reached every seat (the next one came first, or the end)."""
    examples: list[str] = field(default_factory=list)
    """The first error messages, as the room worded them."""
    slowest_ms: float = 0.0
    slowest: str = ""
    """The slowest action measured: its table, its event and what ended the wait for it."""
    loop_lags: array[float] = field(default_factory=lambda: array("d"))
    """How late this process's event loop woke for a timer, sampled while measuring (ms):
    what of the latencies is the generator's own delay, not the room's."""
    loop_lag_at: array[float] = field(default_factory=lambda: array("d"))
    """When each of ``loop_lags`` was seen, in seconds from the start of measuring."""


class TableRun:
    """One table of the load: its seats and the actions waiting to reach all of them."""

    def __init__(self, plan: TablePlan, worker: Worker) -> None:
        self.plan = plan
        self.worker = worker
        self.id = ""
        self.code = ""
        self.seats: list[Seat] = []
        self.pending: list[_Pending] = []
        self.ended: set[int] = set()

    def acted(self, seat: Seat, turn: dict[str, Any], sent: float) -> None:
        """``seat`` sent its action for ``turn``: wait for its record at every seat."""
        if not self.worker.measuring:
            return
        waiting = {s for s in self.seats if s.connected}
        self.pending.append(
            _Pending(int(turn["position"]), int(turn["seq"]), sent, waiting, seat,
                     int(turn["action_id"]))
        )  # fmt: skip
        if len(self.pending) > 8:  # never heard of by someone: give up on the oldest
            self.pending.pop(0)
            self.worker.tally.lost += 1

    def arrived(self, seat: Seat, message: dict[str, Any], now: float) -> None:
        """A record reached ``seat``: the event of an action waited for?"""
        seq = int(message["seq"])
        for pending in self.pending:
            if seat not in pending.waiting or seq <= pending.after_seq:
                continue
            if pending.event_seq is None:
                if message["record"].get("position") != pending.position:
                    continue
                pending.event_seq = seq
                pending.first_heard = now
            elif seq != pending.event_seq:
                continue
            pending.waiting.discard(seat)
            if not pending.waiting:
                self._done(pending, now, f"its record reached {seat.name}, the last seat", seat)
            return

    def acknowledged(self, seat: Seat, action_id: int, now: float, *, repeated: bool) -> None:
        """The room acknowledged ``seat``'s action ``action_id`` (stored, its events sent).

        ``repeated``: the room had applied it already (a turn played again after a resume,
        whose first sending did arrive): its event came before this sending, so it is not
        waited for (its record would be the player's next one) and is not counted again.
        """
        for pending in list(self.pending):
            if pending.actor is seat and pending.action_id == action_id:
                if repeated and pending.event_seq is None:
                    self.pending.remove(pending)
                    if self.worker.measuring:
                        self.worker.tally.actions -= 1
                else:
                    pending.acked = now

    def told(self, seat: Seat, seq: int, now: float) -> None:
        """A snapshot as of event ``seq`` reached ``seat``: it knows every event up to it
        (a resume after a gap longer than the table keeps gets no events, only this)."""
        for pending in list(self.pending):
            known = pending.event_seq is not None and pending.event_seq <= seq
            if known and seat in pending.waiting:
                pending.waiting.discard(seat)
                if not pending.waiting:
                    self._done(pending, now, f"a snapshot reached {seat.name}", seat)

    def gone(self, seat: Seat, now: float) -> None:
        """``seat`` dropped: the actions waited for no longer wait for it."""
        for pending in list(self.pending):
            pending.waiting.discard(seat)
            if not pending.waiting and pending.event_seq is not None:
                self._done(pending, now, f"{seat.name}, the last seat to hear of it, dropped", seat)

    def _done(self, pending: _Pending, now: float, how: str, last: Seat) -> None:
        self.pending.remove(pending)
        if not self.worker.measuring:
            # Heard of after the measured time: counted already among those not measured,
            # and maybe slowed by the teardown (thousands of sockets closing at once).
            return
        milliseconds = (now - pending.sent) * 1000.0
        tally = self.worker.tally
        tally.latencies.append(milliseconds)
        tally.heard_at.append(now - self.worker.measured_from)
        if milliseconds > tally.slowest_ms:
            tally.slowest_ms = milliseconds
            tally.slowest = (
                f"{milliseconds:.1f} ms: table {self.id}, event {pending.event_seq} "
                f"(sent after event {pending.after_seq}); done when {how}" + _when(pending, last)
            )

    def hand_ended(self, hand: int) -> None:
        """Count each hand once (every seat hears of it)."""
        if hand not in self.ended:
            self.ended.add(hand)
            if self.worker.measuring:
                self.worker.tally.hands += 1


def _when(pending: _Pending, last: Seat) -> str:
    """Where a slow action's time went, as the clients saw it: the actor's acknowledgement,
    the first seat to hear of it, and the last seat's socket (opened, closed) meanwhile."""

    def since(at: float | None) -> str:
        return "never" if at is None else f"{(at - pending.sent) * 1000.0:.0f} ms"

    parts = [f"acknowledged {since(pending.acked)}", f"first seat {since(pending.first_heard)}"]
    moments = [f"{what} {since(at)}" for at, what in last.moments if at >= pending.sent - 5.0]
    if moments:
        parts.append(f"{last.name}'s socket: " + ", ".join(moments))
    return " (" + "; ".join(parts) + ")"


class Seat:
    """One player: a guest account, a cookie jar, a WebSocket, a simple policy."""

    def __init__(self, table: TableRun, rng: random.Random) -> None:
        self.table = table
        self.worker = table.worker
        self.rng = rng
        self.jar = CookieJar()
        self.name = ""
        self.ws: ClientConnection | None = None
        self.connected = False
        self.seated = False
        self.last_seq = 0
        self.position: int | None = None
        self.hole: list[str] = []
        self.acted_ids: set[int] = set()
        self.acknowledged: set[int] = set()
        """The actions the room acknowledged: one that was not (the socket closed while the
        player thought, or before the answer came) is played again after a resume."""
        self.thinking: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.welcomed = asyncio.Event()
        self.sat = asyncio.Event()
        self.dropping = False
        self.topped_for = -1
        self.moments: deque[tuple[float, str]] = deque(maxlen=8)
        """The socket's latest moments (opened, welcomed, closed...): a slow action says
        what its last seat's socket did meanwhile."""

    def moment(self, what: str, now: float | None = None) -> None:
        """Note a moment of the socket (kept for a slow action's report)."""
        self.moments.append((time.monotonic() if now is None else now, what))

    # -------------------------------------------------------------- the socket

    async def connect(self) -> None:
        """Open the WebSocket with the session cookie and read it in a task."""
        options = self.worker.options
        self.welcomed.clear()
        self.ws = await connect(
            f"ws://{options.host}:{options.port}/ws",
            additional_headers={"Cookie": self.jar.header()},
            compression=None,
            ping_interval=None,
            max_size=1 << 20,
            open_timeout=120,
        )
        self.connected = True
        self.moment("opened")
        self.reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                now = time.monotonic()
                for message in _messages(json.loads(text)):
                    self._on(message, now)
        except Exception:  # the socket failed: counted below unless we closed it
            pass
        finally:
            self.connected = False
            self.moment("closed" if self.dropping else "lost")
            self.table.gone(self, time.monotonic())
            if not self.dropping and not self.worker.stopping:
                self.worker.count_error("connection_lost")
                self.worker.spawn(self.reconnect(0.5))

    async def send(self, **message: Any) -> bool:
        """Send one message; whether it went (not if the socket is closed)."""
        if self.ws is None or not self.connected:
            return False
        try:
            await self.ws.send(json.dumps({"v": 1, **message}))
        except Exception:
            return False
        return True

    async def drop(self) -> None:
        """Close the socket as a lost connection would, and come back a little later."""
        if not self.connected or self.ws is None:
            return
        self.dropping = True
        self.moment("closing")
        if self.thinking is not None:
            self.thinking.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self.reader
        self.dropping = False
        await self.reconnect(self.rng.uniform(0.5, 3.0))

    async def reconnect(self, after: float) -> None:
        """Come back: a new socket, then ``resume`` from the last event seen."""
        await asyncio.sleep(after)
        if self.worker.stopping or self.connected:
            return
        try:
            await self.connect()
            await asyncio.wait_for(self.welcomed.wait(), 60)
        except Exception:
            self.worker.count_error("reconnect_failed")
            self.worker.spawn(self.reconnect(2.0))
            return
        if self.worker.measuring:
            self.worker.tally.reconnects += 1
        # As a person's client does: a turn it had not played (or not heard back about) is
        # played again from the snapshot that the resume ends with (the room answers a
        # repeat of an action it applied with ``repeated``, and applies nothing twice).
        self.forget_unanswered()
        self.moment("resumed")
        await self.send(type="resume", table=self.table.id, last_seq=self.last_seq)

    def forget_unanswered(self) -> None:
        """Forget the turns played that the room did not acknowledge (see ``acknowledged``)."""
        self.acted_ids &= self.acknowledged

    async def close(self) -> None:
        """Close the socket for good."""
        if self.thinking is not None:
            self.thinking.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self.reader

    # -------------------------------------------------------------- messages

    def _on(self, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        seq = message.get("seq")
        if isinstance(seq, int) and message.get("table") == self.table.id:
            if kind != "snapshot" and seq <= self.last_seq:
                # A returning socket follows its tables at once, so the catch-up of its
                # resume may repeat what arrived live meanwhile: each event counts once
                # (a hole card dealt twice made a draw of the same card twice).
                return
            self.last_seq = max(self.last_seq, seq)
        if kind == "record":
            self._record(message["record"])
            self.table.arrived(self, message, now)
        elif kind == "turn":
            self._turn(message)
        elif kind == "hand_started":
            names = message["names"]
            self.position = names.index(self.name) if self.name in names else None
            self.hole = []
        elif kind == "hand_ended":
            self.table.hand_ended(int(message["hand"]))
        elif kind == "seats":
            self._seats(message)
        elif kind == "snapshot":
            self.moment("snapshot", now)
            self._snapshot(message["state"])
            if isinstance(seq, int):
                self.table.told(self, seq, now)
            turn = message.get("turn")
            if turn is not None:
                self._turn(turn)
        elif kind == "offer":
            if message.get("name") == self.name:
                self.worker.spawn(self.send(type="answer", table=self.table.id, accept=True))
        elif kind == "welcome":
            self.moment("welcomed", now)
            self.welcomed.set()
        elif kind == "ack":
            if message.get("of") == "act" and isinstance(message.get("action_id"), int):
                self.acknowledged.add(message["action_id"])
                repeated = bool(message.get("repeated"))
                self.table.acknowledged(self, message["action_id"], now, repeated=repeated)
            if message.get("of") == "sit":
                self.seated = True
                self.sat.set()
        elif kind == "error":
            self.worker.count_error(str(message.get("code")), message)
            if message.get("of") == "sit":
                self.sat.set()

    def _record(self, record: dict[str, Any]) -> None:
        if record.get("position") != self.position or self.position is None:
            return
        cards = [c for c in record.get("cards", ()) if c != "??"]
        if record["type"] == "hole_cards":
            self.hole.extend(cards)
        elif record["type"] == "discard":
            self.hole = [c for c in self.hole if c not in cards]

    def _snapshot(self, state: dict[str, Any]) -> None:
        """The hand as it stands: a resume after a gap longer than the table keeps gets no
        events, only this (kept from before, the hole cards were the last hand's, and a
        draw discarded cards the seat did not hold)."""
        game: dict[str, Any] = state.get("game") or {}
        viewer = game.get("viewer")
        self.position = viewer
        self.hole = [] if viewer is None else [c for c in game["hole"][viewer] if c != "??"]

    def _seats(self, message: dict[str, Any]) -> None:
        mine = next((s for s in message["seats"] if s["name"] == self.name), None)
        if mine is None:
            return
        hand = len(self.table.ended)
        if mine["stack"] == 0 and self.topped_for != hand:
            self.topped_for = hand
            amount = self.table.plan.max_buy_in
            self.worker.spawn(self.send(type="top_up", table=self.table.id, amount=amount))
        elif mine["status"] == "sitting-out":
            self.worker.spawn(self.send(type="sit_in", table=self.table.id, post=True))

    def _turn(self, turn: dict[str, Any]) -> None:
        if turn.get("name") != self.name or turn.get("legal") is None:
            return
        action_id = int(turn["action_id"])
        if action_id in self.acted_ids:
            return
        self.acted_ids.add(action_id)
        if len(self.acted_ids) > 64:
            self.acted_ids = {a for a in self.acted_ids if a > action_id - 32}
            self.acknowledged = {a for a in self.acknowledged if a > action_id - 32}
        self.thinking = self.worker.spawn(self._act(turn, time.monotonic()))

    async def _act(self, turn: dict[str, Any], told: float) -> None:
        low, high = self.worker.options.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))
        fields = self.choose(offered(turn, time.monotonic() - told))
        sent = time.monotonic()
        if not await self.send(
            type="act", table=self.table.id, action_id=turn["action_id"], **fields
        ):
            return  # the socket closed meanwhile: played again after the resume
        self.table.acted(self, turn, sent)
        if self.worker.measuring:
            self.worker.tally.actions += 1

    def choose(self, legal: dict[str, Any]) -> dict[str, Any]:
        """Mostly check or call, sometimes bet, raise or fold; draw up to three cards."""
        kinds = legal["kinds"]
        rng = self.rng
        if "draw" in kinds:
            count = min(rng.choice((0, 1, 2, 3, 3)), len(self.hole))
            return {"kind": "draw", "cards": rng.sample(self.hole, count)}
        if "show" in kinds or "muck" in kinds:
            return {"kind": rng.choice([k for k in ("show", "muck") if k in kinds])}
        weights = {"check": 6, "call": 5, "parol": 2, "bet": 2, "raise": 1, "fold": 1}
        options = [k for k in weights if k in kinds]
        if legal.get("to_call", 0) == 0 and "check" in options and "fold" in options:
            options.remove("fold")
        if not options:
            return {"kind": kinds[0]}
        kind = rng.choices(options, [weights[k] for k in options])[0]
        if kind in ("bet", "raise"):
            return {"kind": kind, "amount": legal["min_to"]}
        return {"kind": kind}


def offered(turn: dict[str, Any], waited: float) -> dict[str, Any]:
    """What ``turn`` offers ``waited`` seconds after it came, as a person's client shows it:
    once its raise window (italian-32's) has shut, or nearly, what the room said stands
    after it.

    >>> turn = {"legal": {"kinds": ["fold", "call", "raise"]}, "raise_seconds": 10.0,
    ...         "legal_after_raise": {"kinds": ["fold", "call"]}}
    >>> offered(turn, 2.0)["kinds"], offered(turn, 9.5)["kinds"]
    (['fold', 'call', 'raise'], ['fold', 'call'])
    """
    window = turn.get("raise_seconds")
    if window is None or waited < window - RAISE_MARGIN_SECONDS:
        return dict(turn["legal"])
    return dict(turn["legal_after_raise"])


class Worker:
    """The tables of one process."""

    def __init__(self, plans: list[TablePlan], options: Options) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.tables = [TableRun(plan, self) for plan in plans]
        self.tally = Tally()
        self.measuring = False
        self.measured_from = 0.0
        """When measuring began (``time.monotonic()``, the clock the sockets read)."""
        self.stopping = False
        self._tasks: set[asyncio.Task[None]] = set()
        self.http = HttpPool(options.host, options.port, size=8)

    def spawn(self, work: Any) -> asyncio.Task[None]:
        """Run ``work`` in the background, kept until it ends."""
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def count_error(self, code: str, message: dict[str, Any] | None = None) -> None:
        """An error seen (during the set-up or the run)."""
        self.tally.errors[code] += 1
        if len(self.tally.examples) < 5:
            self.tally.examples.append(f"{code}: {json.dumps(message)}" if message else code)

    # ---------------------------------------------------------------- set-up

    async def _rest(self, seat: Seat, method: str, path: str, body: Any = None) -> Any:
        status, answer = await self.http.request(method, path, seat.jar, body)
        if status >= 400:
            raise HttpError(f"{method} {path}: {status} {answer}")
        return answer

    async def _guest(self, seat: Seat) -> None:
        await self._rest(seat, "GET", "/api/session")
        status, answer = await self.http.request("POST", "/api/guest", seat.jar, None)
        refusal = answer.get("error") if isinstance(answer, dict) else None
        if isinstance(refusal, dict) and refusal.get("code") == "too_many_accounts":
            raise HttpError(
                "the room makes no more guests from this machine's address (every player of a "
                "load test is a guest of it): start the room with "
                "MAZZIERE_NEW_ACCOUNTS_PER_ADDRESS=0"
            )
        if status >= 400:
            raise HttpError(f"POST /api/guest: {status} {answer}")
        account = answer["account"]
        seat.name = account["name"] or f"guest-{account['id']}"

    async def _open_table(self, table: TableRun, limit: asyncio.Semaphore) -> None:
        plan = table.plan
        table.seats = [
            Seat(table, random.Random(self.rng.getrandbits(64))) for _ in range(plan.players)
        ]
        host, *others = table.seats
        async with limit:
            await self._guest(host)
            made = await self._rest(
                host,
                "POST",
                "/api/private-tables",
                {
                    "name": f"load {plan.index}",
                    "rules": plan.rules,
                    "seats": plan.players,
                    **plan.stakes,
                    "min_buy_in": plan.min_buy_in,
                    "max_buy_in": plan.max_buy_in,
                    "decision_seconds": 30,
                    "bots_allowed": False,
                    "approval_required": False,
                },
            )
            table.id, table.code = str(made["id"]), str(made["invite_code"])
        for seat in others:
            async with limit:
                await self._guest(seat)
                await self._rest(
                    seat,
                    "POST",
                    f"/api/invites/{table.code}/requests",
                    {"buy_in": plan.max_buy_in},
                )
        for seat in table.seats:
            async with limit:
                await seat.connect()
                await asyncio.wait_for(seat.welcomed.wait(), 120)
                await seat.send(type="sit", table=table.id, buy_in=plan.max_buy_in)
                await asyncio.wait_for(seat.sat.wait(), 120)
            if not seat.seated:
                raise HttpError(f"{seat.name} could not sit at table {table.id}")

    async def set_up(self) -> None:
        """Every table opened, every seat taken."""
        limit = asyncio.Semaphore(self.options.setup_concurrency)
        await asyncio.gather(*(self._open_table(t, limit) for t in self.tables))

    # --------------------------------------------------------------- the run

    async def _now_and_then(self, seconds: float) -> None:
        """Chats and dropped connections, each player at its rate."""
        options = self.options
        seats = [s for t in self.tables for s in t.seats]
        chat = options.chats_per_minute / 60.0
        drop = options.drops_per_minute / 60.0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(1.0)
            for seat in seats:
                if not seat.connected:
                    continue
                roll = self.rng.random()
                if roll < chat:
                    text = self.rng.choice(CHAT_LINES)
                    self.spawn(seat.send(type="chat", table=seat.table.id, text=text))
                    self.tally.chats += 1
                elif roll < chat + drop:
                    self.spawn(seat.drop())

    async def _sample_loop_lag(self, every: float = LAG_SAMPLE_SECONDS) -> None:
        """How late the loop runs a timer, every ``every`` seconds, until cancelled."""
        loop = asyncio.get_running_loop()
        tally = self.tally
        while True:
            asked = loop.time()
            await asyncio.sleep(every)
            woke = loop.time()
            tally.loop_lags.append(max(0.0, (woke - asked - every) * 1000.0))
            tally.loop_lag_at.append(time.monotonic() - self.measured_from)

    async def measure(self, seconds: float) -> None:
        """Play for ``seconds`` while counting."""
        self.tally = Tally(errors=self.tally.errors, examples=self.tally.examples)  # and set-up's
        self.measured_from = time.monotonic()
        self.measuring = True
        sampler = self.spawn(self._sample_loop_lag())
        await self._now_and_then(seconds)
        sampler.cancel()
        self.measuring = False
        self.tally.lost += sum(len(t.pending) for t in self.tables)

    async def close(self) -> None:
        """Every socket closed, every background task ended."""
        self.stopping = True
        await asyncio.gather(*(s.close() for t in self.tables for s in t.seats))
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.http.close()


def _messages(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of one frame from the room, in order: a batch's, or the frame's own.

    The rule of :func:`mazziere.server.protocol.unbatch`, written here again so the load
    generator's processes read plain JSON without importing the protocol's models.

    >>> _messages({"type": "batch", "v": 1, "messages": [{"type": "pong"}, {"type": "pong"}]})
    [{'type': 'pong'}, {'type': 'pong'}]
    """
    messages: list[dict[str, Any]] = frame["messages"] if frame.get("type") == "batch" else [frame]
    return messages


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _serve(worker: Worker, pipe: Any) -> None:
    loop = asyncio.get_running_loop()
    try:
        await worker.set_up()
    except Exception as error:
        pipe.send(("failed", f"{type(error).__name__}: {error}"))
        await worker.close()
        return
    pipe.send(("ready", sum(len(t.seats) for t in worker.tables)))
    # The players' own pauses would count in the latencies they measure: thousands of
    # players in one process make collections as long as the server's, with the same cure.
    # And never a full one while measuring: a worker's heap grows with nothing to free, and
    # its full collection stops every player of the worker (a 30-minute soak at 7,500
    # players logged "0 objects freed in 713 ms" from a worker, and in its last minute the
    # slowest action, 719.7 ms, waited as the worker's loop was 717 ms late: the generator's
    # pause, counted as the room's).  The run is bounded, so what a cycle among its frozen
    # objects holds waits for its end.
    collector = CollectorPolicy(loop, full_after_growth=math.inf)
    collector.install()
    command, seconds = await loop.run_in_executor(None, pipe.recv)
    assert command == "go"
    cpu = _cpu_seconds()
    await worker.measure(float(seconds))
    cpu = _cpu_seconds() - cpu
    tally = worker.tally
    pipe.send(
        (
            "done",
            {
                "latencies": tally.latencies.tobytes(),
                "heard_at": tally.heard_at.tobytes(),
                "errors": dict(tally.errors),
                "reconnects": tally.reconnects,
                "hands": tally.hands,
                "actions": tally.actions,
                "chats": tally.chats,
                "lost": tally.lost,
                "examples": tally.examples,
                "slowest": (tally.slowest_ms, tally.slowest),
                "cpu_seconds": cpu,
                "loop_lags": tally.loop_lags.tobytes(),
                "loop_lag_at": tally.loop_lag_at.tobytes(),
                "nice": os.nice(0),
            },
        )
    )
    # The players play on until every worker has measured: one worker's sockets closing
    # (thousands at once, a burst of work for the room) must not fall in another's minute.
    command, _ = await loop.run_in_executor(None, pipe.recv)
    assert command == "close"
    await worker.close()
    # Errors go on counting until the end (a socket lost while the others measured).
    pipe.send(("closed", {"errors": dict(tally.errors), "examples": tally.examples}))


def run_worker(pipe: Any, plans: list[TablePlan], options: Options) -> None:
    """A worker process's body: set up, wait for ``go``, measure, report, through ``pipe``."""
    # Its warnings (its own full collections) in the load test's output, told from the room's.
    logging.basicConfig(format="load generator (process %(process)d): %(message)s")
    if options.nice:
        os.nice(options.nice)
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:  # uvicorn[standard] brings uvloop; without it, asyncio's own loop
        runner = asyncio.run
    runner(_serve(Worker(plans, options), pipe))
