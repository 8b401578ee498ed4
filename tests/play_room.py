"""End-to-end helpers: the real ``mazziere serve`` process and real WebSocket clients.

:func:`running_room` starts the server on a free port of 127.0.0.1 (bots
and the pause between hands at 0 s so hundreds of hands play in seconds)
and stops it at the end of the block (SIGINT), or lets a test stop it
harder (:meth:`Room.stop` with SIGTERM or SIGKILL) and start it again on
the same database.  :class:`Person` is a browser: a guest account over
REST, then one WebSocket carrying all its tables; it keeps every message it
receives (a batch's one by one) and plays the turns announced to it with a seeded policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import ClientConnection, connect

from mazziere.server.protocol import unbatch
from mazziere.server.requests import WOKE_FOR_NOTHING
from mazziere.server.security import CSRF_COOKIE
from mazziere.server.ws import Limits, RateLimit
from tests.server_process import free_port, person_address

ASK_AGAIN_SECONDS = 3.0
"""How long a test person waits for a top-up or a call for bots to show before asking again."""

PACE = Limits(per_second=40.0, burst=40)
"""How fast a test person sends: under the room's limit (``Limits()``), as a well-made client
does; a person over it had an action refused as ``rate_limited`` with nothing to say which,
and its table waited for that turn's clock to run out (32 to 87 s were seen)."""


@dataclass
class Room:
    """A ``mazziere serve`` process on ``port`` with the database ``url``."""

    url: str
    folder: Path
    schema: str | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    starts: int = 0
    env: dict[str, str] = field(default_factory=dict)
    """More of the server's environment (MAZZIERE_... settings)."""

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return "".join(
            path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(self.folder.glob("serve-*.log"))
        )

    def start(self, timeout: float = 90.0) -> None:
        env = {
            **os.environ,
            "MAZZIERE_PASSWORD_PROFILE": "CHEAPEST",
            "MAZZIERE_BOT_SECONDS": "0",
            "MAZZIERE_NEXT_HAND_SECONDS": "0",
            "MAZZIERE_WARM_UP_BOTS": "false",  # seconds of CPU for each of the suite's servers
            "XDG_DATA_HOME": str(self.folder / "data"),
            **self.env,
        }
        if self.schema is not None:
            env["MAZZIERE_DATABASE_SCHEMA"] = self.schema
        command = [
            sys.executable, "-m", "mazziere.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--database-url", self.url,
        ]  # fmt: skip
        self.starts += 1
        log = self.folder / f"serve-{self.starts}.log"
        with log.open("w", encoding="utf-8") as sink:
            self.process = subprocess.Popen(
                command, stdout=sink, stderr=subprocess.STDOUT, text=True, env=env
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"the server stopped at start:\n{self.log()}")
            try:
                if httpx.get(f"{self.address}/api/session", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not answer in {timeout} s:\n{self.log()}")
            time.sleep(0.2)

    def stop(self, how: signal.Signals = signal.SIGINT) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(how)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        self.process = None

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.address, timeout=30)

    def audit(self) -> dict[str, Any]:
        with self.http() as client:
            answer: dict[str, Any] = client.get("/api/ledger/audit").json()
            return answer

    def tables(self) -> list[dict[str, Any]]:
        with self.http() as client:
            tables: list[dict[str, Any]] = client.get("/api/tables").json()["tables"]
            return tables


@contextlib.contextmanager
def running_room(
    url: str, folder: Path, schema: str | None = None, env: dict[str, str] | None = None
) -> Iterator[Room]:
    room = Room(url, folder, schema, env=dict(env or {}))
    room.start()
    try:
        yield room
    finally:
        room.stop()
    assert WOKE_FOR_NOTHING not in room.log()  # (the room rests and goes on: said only there)


TERMINALS_ON_ONE_MACHINE = {"MAZZIERE_NEW_ACCOUNTS_PER_ADDRESS": "0"}
"""The room of tests whose terminals (``mazziere play --connect``) start as guests: every
one of them comes from 127.0.0.1, as people of one machine, and there are more than the
room's default of new accounts per address (a browser's person or a :class:`Person` has
an address of its own, :func:`tests.server_process.person_address`)."""

CARD = r'"([2-9TJQKA][shdc])"'


class Person:
    """A guest with a browser: REST for the account, one WebSocket for every table.

    ``plays`` says which tables it acts at (a spectator plays none); its
    choices come from a seeded policy over the legal actions it is shown.
    """

    def __init__(self, room: Room, seed: int, *, label: str = "") -> None:
        self.room = room
        self.rng = random.Random(seed)
        self.label = label
        self.http = room.http()
        self.http.headers["X-Forwarded-For"] = person_address()  # a person of their own
        self.http.get("/api/session")
        answer = self.http.post(
            "/api/guest", headers={"X-CSRF-Token": self.http.cookies.get(CSRF_COOKIE) or ""}
        )
        assert answer.status_code == 201, answer.text
        self.account: dict[str, Any] = answer.json()["account"]
        self.name: str = self.account["name"] or f"guest-{self.account['id']}"
        self.frames: list[str] = []
        """Every frame received, as it came (one message, or a batch of several)."""
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        """Each message of ``messages`` as JSON text: a batch's written out one by one, so a
        check of what a message shows reads that message alone."""
        self._by_kind: dict[tuple[str, str | None], list[dict[str, Any]]] = defaultdict(list)
        """(type, table) and (type, None) -> those messages: :meth:`seen` is asked every few
        milliseconds while tens of thousands of messages come, and reading them all each
        time starved the client's own reading and playing on a loaded machine."""
        self.ws: ClientConnection | None = None
        self.plays: set[str] = set()
        self.hole: dict[str, list[str]] = {}
        self.position: dict[str, int | None] = {}
        self.scripted: dict[str, Any] = {}
        """table -> a function(person, turn) giving the act message's fields, None to let
        the policy choose, or False to leave the turn unanswered."""
        self._reader: asyncio.Task[None] | None = None
        self.errors: list[dict[str, Any]] = []
        self.late_repeats: list[dict[str, Any]] = []
        """Refusals of a request repeated too late (:meth:`_late_repeat`): not errors."""
        self._pending: dict[str, dict[str, Any]] = {}
        self.topping: dict[str, float] = {}
        self.calling: dict[str, float] = {}
        self.sitting: dict[str, float] = {}
        """table -> when this person last asked to top up / called bots / sat down there
        (:meth:`due`)."""
        self.rebuys: dict[str, int] = {}
        """table -> the chips to buy in with again when broke there."""
        self.fills: dict[str, int] = {}
        """table -> how many seats to keep taken there, calling random bots when fewer are.

        Both are done on the ``seats`` message that shows the need, not by a test's loop
        that looks now and then: bots deal a hand in a few milliseconds, and a person who
        looked every 50 ms sat out most hands of a table that needed them."""
        self._pace = RateLimit(per_second=PACE.per_second, burst=PACE.burst, now=time.monotonic())
        self.closed = asyncio.Event()

    def post(self, path: str, body: Any = None) -> Any:
        csrf = self.http.cookies.get(CSRF_COOKIE) or ""
        return self.http.post(path, json=body, headers={"X-CSRF-Token": csrf})

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())

    async def connect(self) -> None:
        url = self.room.address.replace("http://", "ws://") + "/ws"
        self.closed.clear()
        self.ws = await connect(url, additional_headers={"Cookie": self.cookie_header()})
        self._reader = asyncio.create_task(self._read(self.ws))

    def close(self) -> None:
        """Close the browser's HTTP client (its WebSocket is closed by disconnect)."""
        self.http.close()

    async def disconnect(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def send(self, **message: Any) -> None:
        assert self.ws is not None
        while not self._pace.allow(time.monotonic()):
            await asyncio.sleep(1 / PACE.per_second)
        await self.ws.send(json.dumps({"v": 1, **message}))

    def last_seq(self, table: str) -> int:
        seqs = [m["seq"] for m in self.messages if m.get("table") == table and "seq" in m]
        return max(seqs, default=0)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                assert isinstance(text, str)
                self.frames.append(text)
                for message in unbatch(json.loads(text)):
                    self.texts.append(json.dumps(message))
                    self.messages.append(message)
                    self._by_kind[(message["type"], None)].append(message)
                    if message.get("table") is not None:
                        self._by_kind[(message["type"], message["table"])].append(message)
                    await self._react(message)
        except Exception:  # the server went away: the test reconnects or ends
            pass
        finally:
            self.closed.set()

    def due(self, asked: dict[str, float], table: str) -> bool:
        """Whether to ask (again) at ``table``: never asked, or asked ASK_AGAIN_SECONDS ago.

        A flag reset only by a later ``seats`` message left a test waiting for ever when the
        room refused the request or nothing was dealt any more to send one (a table left
        with one player and no bots); so a request not yet seen through is repeated.
        """
        now = time.monotonic()
        if now - asked.get(table, -ASK_AGAIN_SECONDS) < ASK_AGAIN_SECONDS:
            return False
        asked[table] = now
        return True

    def seen(self, kind: str, table: str | None = None) -> list[dict[str, Any]]:
        """The messages of type ``kind`` received so far (at ``table``, if given), in order."""
        return list(self._by_kind.get((kind, table), ()))

    async def _react(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        table = message.get("table")
        if kind == "error":
            if self._late_repeat(message):
                self.late_repeats.append(message)
            else:
                self.errors.append(message)
            if message.get("of") == "act" and table in self.plays and self._pending:
                # The policy's choice was refused (a draw of too many cards, say): play safe.
                turn = self._pending.pop(table, None)
                if turn is not None:
                    await self.send(type="act", table=table, action_id=turn["action_id"],
                                    kind=safe(turn["legal"]))  # fmt: skip
            return
        if kind == "hand_started" and table is not None:
            names = message["names"]
            self.position[table] = names.index(self.name) if self.name in names else None
            self.hole[table] = []
        elif kind == "record" and table is not None:
            record = message["record"]
            if record.get("position") == self.position.get(table):
                cards = [c for c in record.get("cards", []) if c != "??"]
                if record["type"] == "hole_cards":
                    self.hole[table].extend(cards)
                elif record["type"] == "discard":
                    self.hole[table] = [c for c in self.hole[table] if c not in cards]
        elif kind == "ack" and table is not None:
            seen_through = {"top_up": self.topping, "add_bots": self.calling}.get(message["of"])
            if seen_through is not None:
                seen_through.pop(table, None)  # a new need is asked for at once (_keep_playing)
        elif kind == "seats" and table is not None:
            await self._keep_playing(table, message["seats"])
        elif kind == "offer" and table in self.plays and message["name"] == self.name:
            # Post the invito, pay to rejoin a parol pot: yes, mostly.
            await self.send(type="answer", table=table, accept=self.rng.random() < 0.8)
        elif kind == "turn" and table in self.plays and message["name"] == self.name:
            if message["legal"] is None:
                return
            self._pending[table] = message
            choice = self.scripted.get(table)
            fields = choice(self, message) if choice is not None else None
            if fields is False:
                return  # the script holds this turn (the test acts later)
            if fields is None:
                fields = self.choose(table, message["legal"])
            await self.send(type="act", table=table, action_id=message["action_id"], **fields)

    @staticmethod
    def _late_repeat(error: dict[str, Any]) -> bool:
        """A rebuy refused because the player is dealt in, so has chips again: asked again
        while the first was unanswered (:meth:`due`, a busy room), it came after the first
        went through and the next hand dealt the player in (this person asks only when
        broke).  The room is right to refuse it.  (Seen in a full run of the suite.)"""
        return error.get("of") == "top_up" and "only between hands" in error.get("message", "")

    async def _keep_playing(self, table: str, seats: list[dict[str, Any]]) -> None:
        """Buy in again when broke (:attr:`rebuys`), call bots when seats empty (:attr:`fills`).

        A request is repeated while it is not acknowledged (:meth:`due`), and made at once
        once it was: the next bust after a rebuy that went through is a new one.
        """
        amount = self.rebuys.get(table)
        mine = next((s for s in seats if s["name"] == self.name), None)
        busted = mine is not None and mine["status"] == "busted"
        if amount is not None and busted and self.due(self.topping, table):
            await self.send(type="top_up", table=table, amount=amount)
        wanted = self.fills.get(table)
        if wanted is not None and len(seats) < wanted and self.due(self.calling, table):
            await self.send(type="add_bots", table=table, count=wanted - len(seats), kind="random")

    def choose(self, table: str, legal: dict[str, Any]) -> dict[str, Any]:
        """The seeded policy: mostly check or call, sometimes bet, raise, fold or all-in."""
        kinds = legal["kinds"]
        rng = self.rng
        if "draw" in kinds:
            hole = list(self.hole.get(table, []))
            count = rng.choice([0, 0, 1, 2, 3, 3, 4])
            return {"kind": "draw", "cards": rng.sample(hole, min(count, len(hole)))}
        if "show" in kinds or "muck" in kinds:
            return {"kind": rng.choice([k for k in ("show", "muck") if k in kinds])}
        weights = {"check": 6, "call": 5, "parol": 3, "bet": 2, "raise": 1, "fold": 1,
                   "all-in": 0.3}  # fmt: skip
        options = [k for k in weights if k in kinds]
        if legal["to_call"] == 0 and "check" in options and "fold" in options:
            options.remove("fold")
        kind = rng.choices(options, [weights[k] for k in options])[0]
        if kind in ("bet", "raise"):
            return {"kind": kind, "amount": legal["min_to"]}
        return {"kind": kind}


def close_balanced(room: Room, people: list[Person]) -> None:
    """Close everyone's connections; the room's ledger must add up to zero, no account
    drifted."""
    for person in people:
        person.close()
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


async def until(check: Any, seconds: float = 60.0) -> None:
    """Wait until ``check()`` is true (an AssertionError after ``seconds``)."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the room never got there")


def safe(legal: dict[str, Any]) -> str:
    """The action that is always allowed when offered: check, call, stand pat, muck, fold."""
    for kind in ("check", "call", "draw", "muck", "show", "fold"):
        if kind in legal["kinds"]:
            return kind
    return str(legal["kinds"][0])
