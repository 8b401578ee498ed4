"""The table store's writer in a process of its own: the database's share of every action
done on the machine's other core.

Every action is stored before anyone hears of it, so the table service waits for each group
commit (:mod:`~mazziere.server.table_store`).  Written on the server's event loop, the
groups' statements and commits took a fifth to a third of the loop's time under load, time
in which no socket was served.  :class:`WriterProcess` hands each group to a child process
(its batches pickled over a pipe) that writes it with the same :class:`GroupWriter`, and
answers with what failed; the event loop only waits.  Nothing else changes: one group at a
time, started as soon as the previous one ends, events sent only once the group committed.

**Never two writers.**  The child dies with the server: the kernel kills it the moment its
parent dies (Linux's parent-death signal), so a server killed at any moment and started
again never finds the old one's writer still committing behind its back.  Where the system
has no such signal, the child stops at the end of its pipe (the group it is writing, if any,
commits or not, as in the server's own crash).  A child that dies while the server runs is
started again at the next group; the groups meanwhile fail as "unavailable" (nothing of them
was stored), and their tables hold and try again, as for a database refusing writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from mazziere.server import crash
from mazziere.server.context import open_database
from mazziere.server.settings import Settings
from mazziere.server.table_store import GroupWriter, StoreFailure
from mazziere.server.tables import Batch

__all__ = ["WriterProcess"]

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1  # prctl(2)


class WriterProcess:
    """The table store's :class:`~mazziere.server.table_store.GroupWriting`, in a child
    process: :meth:`start` it, :meth:`write` groups, :meth:`close` it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._process: Any = None
        self._pipe: Connection | None = None
        self._answer: asyncio.Future[Any] | None = None

    @classmethod
    async def start(cls, settings: Settings) -> WriterProcess:
        """A writer whose child is running and has opened the database."""
        writer = cls(settings)
        await writer._spawn()
        return writer

    async def _spawn(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_child, args=(theirs, self.settings, os.getpid()), name="table store writer"
        )
        process.start()
        theirs.close()
        loop = asyncio.get_running_loop()
        # The child imports the room and opens the database: seconds that the loop goes on
        # serving meanwhile.
        ready = await loop.run_in_executor(None, _receive, ours)
        if ready != "ready":
            process.join(timeout=5)
            raise RuntimeError(f"the table store's writer did not start: {ready!r}")
        self._process, self._pipe = process, ours
        loop.add_reader(ours.fileno(), self._readable)

    async def write(self, group: list[tuple[int, Batch]]) -> list[StoreFailure | None]:
        """Store ``group`` in the child (one group at a time: the caller waits for each)."""
        if self._answer is not None:
            raise RuntimeError("the writer writes one group at a time")
        if self._pipe is None or not self._process.is_alive():
            self._forget()
            try:
                await self._spawn()
            except Exception as error:
                log.exception("the table store's writer could not start again")
                return [StoreFailure(True, f"no database writer: {error}")] * len(group)
            log.warning("the table store's writer was started again")
        assert self._pipe is not None
        answer = self._answer = asyncio.get_running_loop().create_future()
        try:
            # The child is idle, reading its pipe (the one group before was answered), so
            # the send does not wait on it however long the group.
            self._pipe.send(group)
            failures: list[StoreFailure | None] = await answer
        except (OSError, EOFError) as error:
            self._forget()
            return [StoreFailure(True, f"the database writer stopped: {error}")] * len(group)
        finally:
            self._answer = None
        return failures

    def _readable(self) -> None:
        answer, pipe = self._answer, self._pipe
        assert pipe is not None
        try:
            reply = pipe.recv()
        except (OSError, EOFError) as error:
            self._forget()
            if answer is not None and not answer.done():
                answer.set_exception(EOFError(f"the writer's pipe closed: {error}"))
            return
        if answer is not None and not answer.done():
            answer.set_result(reply)

    def _forget(self, *, kill: bool = True) -> None:
        """Stop reading the child's pipe (and close it: the child's end of its work); the
        child is killed, unless it may finish what it does (``kill=False``)."""
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(pipe.fileno())
            pipe.close()
        if kill and self._process is not None and self._process.is_alive():
            self._process.kill()

    async def close(self) -> None:
        """Stop the child once it has answered its last group (closing its pipe ends it)."""
        process = self._process
        if self._answer is not None:  # a group in the child: its answer first
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._answer), 30)
        self._forget(kill=False)
        if process is not None:
            await asyncio.get_running_loop().run_in_executor(None, process.join, 10)
            if process.is_alive():
                process.kill()
        self._process = None

    @property
    def pid(self) -> int | None:
        """The child's process id (while it runs)."""
        return None if self._process is None else int(self._process.pid)


def _receive(pipe: Connection) -> Any:
    try:
        return pipe.recv()
    except (OSError, EOFError) as error:
        return f"the child ended: {error!r}"


# ------------------------------------------------------------------ the child


def _child(pipe: Connection, settings: Settings, server_pid: int) -> None:
    """The child's life: die with the server, open the database, write what comes."""
    _die_with(server_pid)
    # Ctrl-C, or a service manager's SIGTERM to the whole group, stops the server, which
    # closes the pipe once its last group is answered: the child must live until then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    crash.arm(settings.test_crash_at)
    crash.ARMED.server_pid = server_pid
    with contextlib.suppress(EOFError, OSError, KeyboardInterrupt):
        asyncio.run(_serve(pipe, settings))


def _die_with(server_pid: int) -> None:
    """Have the kernel kill this process when the server dies (Linux); elsewhere the end
    of the pipe stops it."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != server_pid:  # the server died before the signal was set
        os._exit(0)


async def _serve(pipe: Connection, settings: Settings) -> None:
    db = open_database(settings)
    writer = GroupWriter(db)
    try:
        pipe.send("ready")
        while True:
            try:
                group = pipe.recv()  # nothing else to do meanwhile: waiting here is fine
            except EOFError:
                return  # the server closed the pipe: it stops
            try:
                failures = await writer.write(group)
            except Exception as error:  # a bug: nothing of the group was stored
                log.exception("the table store's writer failed")
                failures = [StoreFailure.of(error)] * len(group)
            pipe.send(failures)
    finally:
        await db.dispose()
