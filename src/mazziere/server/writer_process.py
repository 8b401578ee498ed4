"""The table store's writer in a process of its own: the database's share of every action
done on the machine's other core.

Every action is stored before anyone hears of it, so the table service waits for each group
commit (:mod:`~mazziere.server.table_store`).  Written on the server's event loop, the
groups' statements and commits took a fifth to a third of the loop's time under load, time
in which no socket was served.  :class:`WriterProcess` hands each group to a child process
(its batches pickled over a socket pair) that writes it with the same :class:`GroupWriter`, and
answers with what failed; the event loop only waits.  Nothing else changes: one group at a
time, started as soon as the previous one ends, events sent only once the group committed.

**Never two writers.**  The child dies with the server: the kernel kills it the moment its
parent dies (Linux's parent-death signal), so a server killed at any moment and started
again never finds the old one's writer still committing behind its back.  Where the system
has no such signal, the child stops at the end of its socket (the group it is writing, if any,
commits or not, as in the server's own crash).  A child that dies while the server runs is
started again at the next group.  The group it was writing may have been committed or not:
its tables are rebuilt from what was stored, as after the server's own crash (trying the
batch again could store it twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import sys
from typing import Any

from mazziere.server import crash
from mazziere.server.settings import Settings
from mazziere.server.storage.database import open_database
from mazziere.server.table_store import GroupWriter, StoreFailure
from mazziere.server.tables import Batch

__all__ = ["WriterProcess"]

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1  # prctl(2)


_FRAME = struct.Struct("!Q")
"""Each message on the socket: its length, then its pickle."""

_START_SECONDS = 120.0
"""How long the child may take to import the room and open the database."""


class WriterProcess:
    """The table store's :class:`~mazziere.server.table_store.GroupWriting`, in a child
    process: :meth:`start` it, :meth:`write` groups, :meth:`close` it.

    The two talk over a socket pair, the loop's side through asyncio's streams: a group
    larger than the socket's buffer waits for the child to read it (the loop serving
    meanwhile), and the answer is read as it comes, however it is split.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._process: Any = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._busy = False

    @classmethod
    async def start(cls, settings: Settings) -> WriterProcess:
        """A writer whose child is running and has opened the database."""
        writer = cls(settings)
        await writer._spawn()
        return writer

    async def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        process = context.Process(
            target=_child, args=(theirs, self.settings, os.getpid()), name="table store writer"
        )
        try:
            process.start()
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        try:
            # The child imports the room and opens the database: the loop serves meanwhile.
            ready = await asyncio.wait_for(_receive(reader), _START_SECONDS)
        except (OSError, EOFError, asyncio.IncompleteReadError, TimeoutError) as error:
            ready = f"no answer: {error!r}"
        if ready != "ready":
            writer.close()
            process.kill()
            process.join(timeout=5)
            raise RuntimeError(f"the table store's writer did not start: {ready!r}")
        self._process, self._reader, self._writer = process, reader, writer

    async def write(self, group: list[tuple[int, Batch]]) -> list[StoreFailure | None]:
        """Store ``group`` in the child (one group at a time: the caller waits for each)."""
        if self._busy:
            raise RuntimeError("the writer writes one group at a time")
        self._busy = True
        try:
            if self._writer is None or not self._process.is_alive():
                self._forget()
                try:
                    await self._spawn()
                except Exception as error:
                    log.exception("the table store's writer could not start again")
                    return [StoreFailure(True, f"no database writer: {error}")] * len(group)
                log.warning("the table store's writer was started again")
            assert self._reader is not None and self._writer is not None
            try:
                _send(self._writer, group)
                await self._writer.drain()
                failures: list[StoreFailure | None] = await _receive(self._reader)
            except (OSError, EOFError, asyncio.IncompleteReadError) as error:
                # The child died with the group: it may have committed it or not, nobody can
                # say.  Trying the batch again could store it twice; the table is rebuilt
                # from what was stored instead, as after the server's own crash.
                self._forget()
                stopped = f"the database writer stopped during the group: {error!r}"
                return [StoreFailure(False, stopped)] * len(group)
            return failures
        finally:
            self._busy = False

    def _forget(self, *, kill: bool = True) -> None:
        """Close the socket (the child's end of its work); the child is killed, unless it
        may finish what it does (``kill=False``)."""
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
        if kill and self._process is not None and self._process.is_alive():
            self._process.kill()

    async def close(self) -> None:
        """Stop the child once it has answered its last group (closing the socket ends it)."""
        process = self._process
        for _ in range(300):  # a group in the child: its answer first (30 s at most)
            if not self._busy:
                break
            await asyncio.sleep(0.1)
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


def _frame(message: Any) -> bytes:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _FRAME.pack(len(data)) + data


def _send(writer: asyncio.StreamWriter, message: Any) -> None:
    writer.write(_frame(message))


async def _receive(reader: asyncio.StreamReader) -> Any:
    (size,) = _FRAME.unpack(await reader.readexactly(_FRAME.size))
    return pickle.loads(await reader.readexactly(size))


# ------------------------------------------------------------------ the child


def _child(sock: socket.socket, settings: Settings, server_pid: int) -> None:
    """The child's life: die with the server, open the database, write what comes."""
    _die_with(server_pid)
    # Ctrl-C, or a service manager's SIGTERM to the whole group, stops the server, which
    # closes the socket once its last group is answered: the child must live until then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    crash.arm(settings.test_crash_at)
    crash.ARMED.server_pid = server_pid
    with contextlib.suppress(EOFError, OSError, KeyboardInterrupt):
        asyncio.run(_serve(sock, settings))


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


async def _serve(sock: socket.socket, settings: Settings) -> None:
    db = open_database(settings)
    writer = GroupWriter(db)
    channel = sock.makefile("rwb")  # blocking: the child has nothing else to do meanwhile
    try:
        _write_message(channel, "ready")
        while True:
            group = _read_message(channel)
            if group is None:
                return  # the server closed the socket: it stops
            try:
                failures = await writer.write(group)
            except Exception as error:  # a bug: nothing of the group was stored
                log.exception("the table store's writer failed")
                failures = [StoreFailure.of(error)] * len(group)
            _write_message(channel, failures)
    finally:
        await db.dispose()


def _write_message(channel: Any, message: Any) -> None:
    channel.write(_frame(message))
    channel.flush()


def _read_message(channel: Any) -> Any:
    """The next message, or ``None`` at the end of the socket."""
    header = channel.read(_FRAME.size)
    if len(header) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(header)
    data = channel.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)
