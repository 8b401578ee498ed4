"""The WebSocket endpoint ``/ws``: one connection per player carries all their tables.

The endpoint is thin: it checks the Origin, finds the player from the
session cookie, then reads messages, parses each in one place
(:func:`~mazziere.server.protocol.parse_client`) and hands it to the table's
task; what the task sends back, and every event of the tables the
connection follows, leave through the connection's :class:`Connection`
queue, written by a task of its own so a slow socket never holds a table up
(what is queued at once leaves in one frame, a
:class:`~mazziere.server.protocol.Batch`).

A message that is malformed, too large, of an unknown type or version, for
a table that does not exist or where the player has no seat, out of turn or
replayed is answered with an :class:`~mazziere.server.protocol.Error` and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from mazziere.server import protocol as p
from mazziere.server import security
from mazziere.server.bus import Bus
from mazziere.server.errors import UNAVAILABLE_MESSAGE, first_line
from mazziere.server.mailbox import Mailbox
from mazziere.server.storage.database import database_unavailable
from mazziere.server.tables import Player, TableService

__all__ = [
    "BATCH_CHARACTERS",
    "BATCH_MESSAGES",
    "CLOSE_TOO_MANY",
    "OUTBOX_LIMIT",
    "Connection",
    "Limits",
    "Play",
    "RateLimit",
    "add_websocket_route",
    "end_connections",
    "origin_allowed",
    "serve_connection",
]

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 5_000
"""Messages a connection may fall behind by; past it, it is closed (its client resumes)."""

BATCH_MESSAGES = 100
"""The most messages one frame carries (a connection far behind catches up in several)."""

BATCH_CHARACTERS = 256 * 1024
"""No more messages are added to a frame once it is this long (the client reads 1 MiB)."""

CLOSE_TOO_MANY = 4429
"""The close code of a connection over the account's limit (after a ``rate_limited`` error)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection and one account may do.

    ``per_second`` messages a second on average, in bursts of ``burst`` (a token bucket
    per connection: a person clicks a few times a second at most, but one socket carries
    all of a player's tables, and a client that auto-plays or catches up sends dozens at
    once; a flood is hundreds a second); past it, each message is refused with ``rate_limited``
    and not handled.  ``connections`` sockets open at once per account (several tabs,
    a phone and a laptop); one more is refused and closed.
    """

    per_second: float = 50.0
    burst: int = 100
    connections: int = 5


class RateLimit:
    """A token bucket: ``allow(now)`` spends one token, if there is one.

    >>> bucket = RateLimit(per_second=1.0, burst=2, now=0.0)
    >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("_at", "_tokens", "burst", "per_second")

    def __init__(self, *, per_second: float, burst: int, now: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self._tokens = float(burst)
        self._at = now

    def allow(self, now: float) -> bool:
        """Whether one more message may go now (it is counted if so)."""
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.per_second)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


Authenticate = Callable[[WebSocket], Awaitable[Player | None]]
"""Who the socket's session cookie belongs to (``None``: nobody logged in)."""


class Connection:
    """One socket's outgoing queue; the bus and the table tasks put texts in it."""

    def __init__(self, player: Player) -> None:
        self.account = player
        self.outgoing: Mailbox[str | None] = Mailbox()
        """Texts to send, in order; ``None`` after the last one (the socket closes)."""
        self.closed = False

    @property
    def player(self) -> str:
        """The name the player has at tables."""
        return self.account.name

    def offer(self, text: str) -> None:
        """Queue ``text``; a connection too far behind is closed instead."""
        if self.closed:
            return
        if len(self.outgoing) >= OUTBOX_LIMIT:
            log.warning(
                "connection of %s fell %d messages behind: closed", self.player, OUTBOX_LIMIT
            )
            self.close()
            return
        self.outgoing.put(text)

    def close(self) -> None:
        """Stop sending; the writer ends once what was queued before is sent."""
        if not self.closed:
            self.closed = True
            self.outgoing.put(None)


def end_connections(bus: Bus, player: str, reason: str) -> None:
    """Tell each of ``player``'s sockets why, and close it (their sessions have ended: a
    socket opened again needs a session that is still live)."""
    refusal = p.dump(p.Error(code=p.ErrorCode.SESSION_ENDED, message=reason))
    for outbox in bus.outboxes(player):
        if isinstance(outbox, Connection):
            outbox.offer(refusal)
            outbox.close()


def origin_allowed(websocket: WebSocket, allowed: Sequence[str]) -> bool:
    """Whether the socket comes from the server's own page or an allowed origin.

    The rule is the one of every other request (:func:`mazziere.server.security.origin_allowed`):
    a client that is not a browser (the terminal client, a test) may leave ``Origin`` out, and
    still needs a session.  The page of a ``wss://`` socket is served over ``https``.
    """
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return security.origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), allowed, scheme=scheme
    )


@dataclass(frozen=True, slots=True)
class Play:
    """What ``/ws`` needs while the server runs (``app.state.play``, set by the service)."""

    service: TableService
    bus: Bus
    authenticate: Authenticate
    allowed_origins: Sequence[str] = ()
    limits: Limits = Limits()


def add_websocket_route(app: FastAPI) -> None:
    """Serve ``/ws`` on ``app``; the table service puts a :class:`Play` in ``app.state.play``."""

    @app.websocket("/ws")
    async def play(websocket: WebSocket) -> None:
        running: Play | None = getattr(websocket.app.state, "play", None)
        if running is None:
            await websocket.close(code=1013, reason="the tables are not open")
            return
        await serve_connection(websocket, running)


async def serve_connection(websocket: WebSocket, running: Play) -> None:
    """One player's connection, from the Origin check to the last message."""
    service, bus = running.service, running.bus
    if not origin_allowed(websocket, running.allowed_origins):
        await websocket.close(code=4403, reason="origin not allowed")
        return
    try:
        player = await running.authenticate(websocket)
    except Exception as failure:
        if not database_unavailable(failure):
            raise
        # The log-in could not be read in time (a saturated room, a database outage): the
        # client hears why and comes back later (1013: try again later), nothing changed.
        log.warning("a socket's log-in failed: %s", first_line(failure))
        await websocket.accept()
        busy = p.Error(code=p.ErrorCode.STORAGE_UNAVAILABLE, message=UNAVAILABLE_MESSAGE)
        await websocket.send_text(p.dump(busy))
        await websocket.close(code=1013)
        return
    await websocket.accept()
    if player is None:
        error = p.Error(code=p.ErrorCode.UNAUTHENTICATED, message="log in first")
        await websocket.send_text(p.dump(error))
        await websocket.close(code=4401)
        return
    if bus.connections(player.name) >= running.limits.connections:
        error = p.Error(
            code=p.ErrorCode.RATE_LIMITED,
            message=f"at most {running.limits.connections} connections at once: close one",
        )
        await websocket.send_text(p.dump(error))
        await websocket.close(code=CLOSE_TOO_MANY)
        return
    connection = Connection(player)
    bus.connect(connection)
    tables = service.tables_of(player.name)
    for table in tables:
        await service.tasks[table].reconnected(player.name)
        bus.follow(table, connection)
    connection.offer(p.dump(p.Welcome(player=player.name, tables=tables)))
    writer = asyncio.create_task(_write(websocket, connection))
    try:
        await _read(websocket, connection, service, running.limits)
    finally:
        connection.close()
        bus.disconnect(connection)
        if not bus.connected(player.name):
            for table in service.tables_of(player.name):
                await service.tasks[table].disconnected(player.name)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        # A writer that failed (the client went away) raised its error here too, and that
        # error's traceback now holds this frame, which holds the task, which holds the
        # error: a cycle only a full collection would free (see mazziere.server.collector).
        del writer


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queue in order, what is queued at once in one frame.

    A player's action makes several events for every follower of its table, queued
    together: sent as one :class:`~mazziere.server.protocol.Batch` they cost one write
    (one system call) and one wake-up of this task and of the client, not one each.
    Only what is queued already is taken, so nothing waits for company.
    """
    outgoing = connection.outgoing
    closing = False
    while not closing:
        await outgoing.wait()
        texts: list[str] = []
        size = 0
        while outgoing and len(texts) < BATCH_MESSAGES and size < BATCH_CHARACTERS:
            text = outgoing.take()
            if text is None:  # the close comes after what was queued before it
                closing = True
                break
            texts.append(text)
            size += len(text)
        if texts:
            await websocket.send_text(texts[0] if len(texts) == 1 else p.dump_batch(texts))
    with contextlib.suppress(Exception):
        await websocket.close()


async def _read(
    websocket: WebSocket, connection: Connection, service: TableService, limits: Limits
) -> None:
    loop = asyncio.get_running_loop()
    bucket = RateLimit(per_second=limits.per_second, burst=limits.burst, now=loop.time())
    while not connection.closed:
        try:
            frame = await websocket.receive()
        except WebSocketDisconnect:
            return
        if frame["type"] == "websocket.disconnect":
            return
        if not bucket.allow(loop.time()):  # before parsing: a flood costs as little as can be
            refusal = p.Error(code=p.ErrorCode.RATE_LIMITED, message="too many messages: slow down")
            connection.offer(p.dump(refusal))
            continue
        data = frame.get("text")
        if data is None:
            data = frame.get("bytes") or b""
            if len(data) <= p.MAX_MESSAGE_BYTES:
                data = b"\xff"  # a binary frame is not a message of this protocol
        try:
            message = p.parse_client(data)
        except p.ProtocolError as error:
            connection.offer(p.dump(p.Error(code=error.code, message=error.message)))
            continue
        if isinstance(message, p.Ping):
            connection.offer(p.dump(p.Pong()))
            continue
        try:
            task = service.find(message.table)
        except p.ProtocolError as error:
            refusal = p.Error(
                code=error.code, message=error.message, table=message.table, of=message.type
            )
            connection.offer(p.dump(refusal))
            continue
        try:
            await task.submit(connection.account, message, connection)
        except RuntimeError as error:  # the table's task stopped: say so, keep the socket
            refusal = p.Error(code=p.ErrorCode.INTERNAL, message=str(error),
                              table=message.table, of=message.type)  # fmt: skip
            connection.offer(p.dump(refusal))
