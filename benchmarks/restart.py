"""A room's restart: how long ``mazziere serve`` takes to answer again over a table that
dealt many hands, from its latest checkpoint and from its first command.

This plays ``hands`` hands at a home game of ``rules`` (the host, who checks or
folds and tops up between hands, and four of the host's basic bots) through the
room's own table task, stored in a SQLite file as the room stores them (a
checkpoint every 500 hands); then starts the real server on that file, alternately
as it runs (``MAZZIERE_CHECKPOINT_HANDS`` at its default: from the latest checkpoint)
and reading no checkpoint (``0``: every command from the first), ``repeats`` times
each, and times each start from the process's launch to its first answer
(``GET /api/session``), which comes once every open table is rebuilt.  The
medians, and the server's CPU for the same (``resource.getrusage`` of the child).
"""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

from benchmarks.rebuild import STAKES, play_at
from benchmarks.timing import Echo
from mazziere.server.bus import LocalBus
from mazziere.server.play import table_config
from mazziere.server.storage import Database
from mazziere.server.storage.accounts import create_account
from mazziere.server.storage.models import RoomTable
from mazziere.server.table_store import DatabaseTableStore
from mazziere.server.tables import Player, TableTask


async def _a_room_with_a_long_table(url: str, rules: str, hands: int) -> tuple[int, int]:
    """A room in ``url`` with one private table that dealt ``hands`` hands; its commands, and
    how many of them its latest checkpoint covers."""
    db = Database(url)
    try:
        await db.upgrade()
        async with db.session() as session:
            host = await create_account(session, name="host", grant=10**9)
            stakes = STAKES[rules]
            row = RoomTable(
                name="bench", rules=rules, seats=5, small_blind=stakes.small_blind,
                big_blind=stakes.big_blind, ante=stakes.ante, min_buy_in=200, max_buy_in=2000,
                private=True, host_id=host.id,
            )  # fmt: skip
            session.add(row)
            await session.commit()
            config = table_config(row, next_hand_seconds=0.0)
            player = Player(host.id, "host")
        store = DatabaseTableStore(db)
        task = TableTask(config, store, LocalBus(), bot_seconds=0.0)
        await play_at(task, player, hands)
        checkpoint = await store.checkpoint(config.id)
        return len(await store.load(config.id)), 0 if checkpoint is None else checkpoint.seq
    finally:
        await db.dispose()


def _start_seconds(url: str, folder: Path, *, checkpoints: bool) -> tuple[float, float]:
    """Wall and CPU seconds from ``mazziere serve``'s launch to its first answer."""
    port = _free_port()
    env = {
        **os.environ,
        "MAZZIERE_WARM_UP_BOTS": "false",
        "XDG_DATA_HOME": str(folder / "data"),
    }
    if not checkpoints:
        env["MAZZIERE_CHECKPOINT_HANDS"] = "0"
    command = [
        sys.executable, "-m", "mazziere.cli", "serve",
        "--host", "127.0.0.1", "--port", str(port), "--database-url", url,
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError("the server stopped at start")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/session", timeout=2).is_success:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.02)
        wall = time.perf_counter() - started
    finally:
        process.send_signal(signal.SIGKILL)  # its CPU is the start's, not a stop's
        process.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def run_restart_benchmark(*, rules: str, hands: int, repeats: int, echo: Echo) -> None:
    """Print the median start of a room over a table of ``hands`` hands, both ways."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        url = f"sqlite+aiosqlite:///{folder / 'room.db'}"
        commands, covered = asyncio.run(_a_room_with_a_long_table(url, rules, hands))
        times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(repeats):
            for checkpoints in (True, False):
                times[checkpoints].append(_start_seconds(url, folder, checkpoints=checkpoints))
    latest = f"from its latest checkpoint ({commands - covered} commands after it)"
    if not covered:
        latest = "with no checkpoint yet (from the first)"
    for checkpoints, label in ((True, latest), (False, "reading no checkpoint (from the first)")):
        wall = statistics.median(w for w, _ in times[checkpoints])
        cpu = statistics.median(c for _, c in times[checkpoints])
        echo(
            f"{rules}: a room over a table of {hands} hands ({commands} stored commands) "
            f"answers {wall:.2f} s after its launch, {label} (its CPU {cpu:.2f} s; median "
            f"of {repeats})"
        )
