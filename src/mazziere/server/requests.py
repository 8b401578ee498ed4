"""The loop of a task that owns tables: their requests one at a time, between its clock's turns.

Everything that changes a table reaches the task that owns it as a request in that task's
mailbox (a player's message, the service's own), so no two commands ever race.  A table
has its own task (:class:`~mazziere.server.tables.TableTask`); a multi-table tournament has
one task for all its tables (:class:`~mazziere.server.tournaments.TournamentTask`).  Both
serve requests the same way (:class:`RequestLoop`); each says only how it handles one, when
its clock wants a turn and what that turn does, and how it recovers from a failure.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mazziere.server import protocol as p
from mazziere.server.mailbox import Mailbox

if TYPE_CHECKING:
    from mazziere.server.bus import Outbox
    from mazziere.server.tables import Player, TableClock, TableTask

__all__ = [
    "IDLE_TURNS_BEFORE_REST",
    "LONGEST_REST",
    "WOKE_FOR_NOTHING",
    "Request",
    "RequestLoop",
    "next_request",
    "refuse_queued",
]

log = logging.getLogger(__name__)

IDLE_TURNS_BEFORE_REST = 100
"""Turns in a row of a task's clock after which its wake is still the same and due: each
turn stores a command, so a wake no turn acts on (a bug) would store one at every turn of
the event loop; after this many the task logs an error and rests a second, then twice as
long each time it comes back to the same wake, up to :data:`LONGEST_REST` (a real wake
repeats only while several things are due at one time, one per turn: a few seats' worth)."""

LONGEST_REST = 60.0
"""The longest rest of a task whose clock wakes it for nothing (seconds)."""

WOKE_FOR_NOTHING = "woke its clock for nothing"
"""The words of that error (the tests fail on any log or server output that holds them)."""


@dataclass(slots=True)
class Request:
    """A message for a table, and what its sender awaits until it is handled."""

    table_task: TableTask
    """The table it was sent to (a tournament's queue holds the requests of all its tables)."""
    player: Player | None
    message: Any
    outbox: Outbox | None
    done: asyncio.Future[None]


async def next_request(inbox: Mailbox[Any], wake: float | None, now: float) -> bool:
    """Wait for a request (``True``) or the clock's next wake at ``wake`` (``False``).

    A wake that is due comes first: a decision whose time ran out is ended before an action
    that arrived too late is read.

    >>> async def due_wake_with_an_action_queued() -> bool:
    ...     inbox: Mailbox[str] = Mailbox()
    ...     inbox.put("fold")
    ...     return await next_request(inbox, wake=10.0, now=10.5)
    >>> asyncio.run(due_wake_with_an_action_queued())
    False
    """
    if wake is None:
        return await inbox.wait()
    timeout = wake - now
    if timeout > 0:
        return await inbox.wait(timeout)
    await asyncio.sleep(0)  # the other tasks run between two due wakes of a table
    return False


def refuse_queued(requests: Iterable[Request], why: str) -> None:
    """Tell whoever waits on ``requests`` that the task stopped before reading them."""
    for request in requests:
        if not request.done.done():
            request.done.set_exception(RuntimeError(why))


class RequestLoop(abc.ABC):
    """A task that serves its tables' requests in the order they came, between the turns of
    its clock; a failure rebuilds what it owns from what was stored.

    ``what``: how the logs and errors name it (``"table 7"``, ``"tournament 3"``).
    """

    clock: TableClock
    held: bool
    """The database refuses writes: a request is refused at once (:meth:`_submit`)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.inbox: Mailbox[Request] = Mailbox()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the loop."""
        self._task = asyncio.create_task(self._loop(), name=self.what)

    async def _submit(
        self, table_task: TableTask, player: Player | None, message: Any, outbox: Outbox | None
    ) -> None:
        """Queue a message for ``table_task``'s table and wait until it is handled (replies go
        to ``outbox``)."""
        running = self._task
        if running is None or running.done():
            raise RuntimeError(f"table {table_task.id} is not running")
        if self.held and outbox is not None:
            # Not queued behind the change that waits for the database: refused at once.
            outbox.offer(p.dump(table_task.held_refusal(message)))
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.put(Request(table_task, player, message, outbox, done))
        await done  # the loop ends it, or refuses it if the task stops first

    async def _loop(self) -> None:
        idle_turns = 0
        rest = 1.0
        try:
            while True:
                wake = self._next_wake()
                if not await next_request(self.inbox, wake, self.clock.now()):
                    try:
                        await self._on_time()
                    except Exception:
                        await self._failed("its clock")
                    if self._next_wake() != wake:
                        idle_turns, rest = 0, 1.0
                        continue
                    idle_turns += 1
                    if idle_turns >= IDLE_TURNS_BEFORE_REST:
                        log.error(
                            "%s %s %d times in a row (its wake at %s stays due); "
                            "resting for %g s",
                            self.what, WOKE_FOR_NOTHING, idle_turns, wake, rest,
                        )  # fmt: skip
                        idle_turns = 0
                        await asyncio.sleep(rest)
                        rest = min(2 * rest, LONGEST_REST)
                    continue
                idle_turns = 0
                request = self.inbox.take()
                try:
                    await self._handle(request)
                except Exception:
                    table_task = request.table_task
                    failed = table_task._error(p.ErrorCode.INTERNAL, "the table failed")
                    table_task._reply(request, failed)
                    await self._failed(repr(request.message))
                finally:
                    if not request.done.done():
                        request.done.set_result(None)
        finally:
            refuse_queued(self.inbox.drain(), f"{self.what} stopped")

    @abc.abstractmethod
    def _next_wake(self) -> float | None:
        """When the clock wants its next turn (``None``: only a request wakes the task)."""

    @abc.abstractmethod
    async def _on_time(self) -> None:
        """The clock's turn."""

    @abc.abstractmethod
    async def _handle(self, request: Request) -> None:
        """Handle one request (what it answers goes to its outbox)."""

    @abc.abstractmethod
    async def _failed(self, what: str) -> None:
        """Handling ``what`` failed half-way: rebuild from what was stored."""
