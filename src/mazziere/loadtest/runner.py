"""``mazziere loadtest``: start the room (or use one), run the players, report.

The runner starts ``mazziere serve`` on a free port of 127.0.0.1 with a fresh database
(a SQLite file in a temporary folder, or a new schema of a PostgreSQL database), or uses
the room at ``--url``.  It splits the tables among worker processes
(:mod:`mazziere.loadtest.players`), waits until every seat is taken, says ``go``, follows
the server's CPU time and memory (``/proc``) while the workers measure, then asks the
room's ledger audit and stops the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import multiprocessing
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mazziere.loadtest.players import Options, plan_tables, run_worker

__all__ = ["LoadRun", "Report", "percentile", "run"]


@dataclass(frozen=True, slots=True)
class LoadRun:
    """What to run: the load, and the room it runs against."""

    players: int
    tables: int
    minutes: float
    think: tuple[float, float] = (1.0, 3.0)
    url: str | None = None
    """A room already running (then ``server_pid`` lets the CPU and memory be read)."""
    server_pid: int | None = None
    database_url: str | None = None
    """For the room this command starts: default a SQLite file in a temporary folder."""
    database_schema: str | None = None
    """PostgreSQL: the schema (default a new one, dropped at the end)."""
    workers: int = 2
    generator_nice: int = 10
    """The niceness of the load generator's processes: by default the machine's scheduler
    serves the room first, as it would if the players were on their own machines; the
    generator's own delays still count in the latencies (and its loops' lag is reported).
    0 makes them compete with the room for the cores as equals."""
    next_hand_seconds: float | None = None
    chats_per_minute: float = 0.5
    drops_per_minute: float = 0.2
    seed: int = 0
    warm_up_seconds: float | None = None
    """Memory growth is measured from this point (default: 5 minutes, or a fifth of a
    shorter run)."""


@dataclass
class Report:
    """What the run measured."""

    players: int
    tables: int
    seconds: float
    think: str
    database: str
    p50_ms: float
    p99_ms: float
    max_ms: float
    samples: int
    errors: int
    error_codes: dict[str, int]
    hands_per_s: float
    actions_per_s: float
    reconnects: int
    chats: int
    lost: int
    server_cpu_percent: float | None
    server_main_cpu_percent: float | None
    """Of ``server_cpu_percent``, the server's own process (its event loop: the tables and
    the sockets); the rest is its child's, the table store's writer."""
    server_cpu_ms_per_action: float | None
    """The server's CPU time (ms of one core) over the actions played: the figure that
    decides how many players a core holds, and the one the machine's load moves least."""
    server_peak_mb: float | None
    server_rss_warm_mb: float | None
    server_rss_end_mb: float | None
    memory_growth_percent: float | None
    server_full_collections: int | None
    """The room's full garbage collections while measuring (its longest pause below), as
    its output told; ``None`` for a room the load test did not start (``--url``)."""
    server_full_collection_max_ms: float | None
    load_generator_cpu_percent: float
    load_generator_lag_p99_ms: float
    """How late the generator's event loops ran a timer (p99 and max, sampled 100 times a
    second while measuring): a latency measured on the clients' side holds this delay of
    theirs too, so it tells how much of the figure is the generator's."""
    load_generator_lag_max_ms: float
    load_generator_nice: int | None
    """The niceness the generator's processes ran at, as they read it (the highest)."""
    load_average: tuple[float, float, float]
    ledger_total: int | None
    ledger_drifted: int | None
    set_up_seconds: float
    by_minute: list[dict[str, float | None]] = field(default_factory=list)
    """Each minute of the measured time: its actions, p99 and maximum (:func:`by_minute`),
    and the CPU of the room, its loop, the load generator, PostgreSQL's processes (not on
    SQLite), the whole machine and what the host took from it (:func:`cpu_between`)."""
    notes: list[str] = field(default_factory=list)
    slowest: str = ""
    """The slowest action: its table, its event and what ended the wait for it."""

    def lines(self) -> list[str]:
        """The report as a person reads it."""

        def maybe(value: float | None, unit: str) -> str:
            return "n/a" if value is None else f"{value:.1f}{unit}"

        codes = ", ".join(f"{k} {v}" for k, v in sorted(self.error_codes.items()))
        return [
            f"players {self.players} at {self.tables} tables for {self.seconds:.0f} s "
            f"(think {self.think}; {self.database}; set-up {self.set_up_seconds:.0f} s)",
            f"action to every seat: p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"max {self.max_ms:.1f} ms over {self.samples} actions ({self.lost} not measured)",
            f"hands/s {self.hands_per_s:.2f}, actions/s {self.actions_per_s:.1f}, "
            f"chats {self.chats}, reconnects {self.reconnects}",
            f"errors {self.errors}" + (f" ({codes})" if codes else ""),
            f"server: CPU {maybe(self.server_cpu_percent, '%')} of one core "
            f"(its event loop's process {maybe(self.server_main_cpu_percent, '%')}; "
            f"{maybe(self.server_cpu_ms_per_action, ' ms')} per action), peak memory "
            f"{maybe(self.server_peak_mb, ' MB')}, RSS {maybe(self.server_rss_warm_mb, ' MB')} "
            f"after warm-up -> {maybe(self.server_rss_end_mb, ' MB')} at the end "
            f"(growth {maybe(self.memory_growth_percent, '%')}); full garbage collections "
            f"while measuring: {self._full_collections()}",
            f"load generator: CPU {self.load_generator_cpu_percent:.1f}% of one core, its "
            f"loops late by {self.load_generator_lag_p99_ms:.1f} ms at p99 "
            f"(max {self.load_generator_lag_max_ms:.1f} ms), nice "
            f"{self.load_generator_nice}; "
            f"load average {' '.join(f'{x:.2f}' for x in self.load_average)}",
            *self._minutes(),
            f"ledger: total {self.ledger_total}, drifted accounts {self.ledger_drifted}",
            *([f"slowest action: {self.slowest}"] if self.slowest else []),
            *self.notes,
        ]

    def _minutes(self) -> list[str]:
        """p99 and maximum minute by minute, for a run of more than one minute."""
        if len(self.by_minute) < 2:
            return []

        def row(key: str) -> str:
            return " ".join(maybe(minute.get(key)) for minute in self.by_minute)

        def maybe(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.1f}"

        lines = [f"p99 by minute (ms): {row('p99_ms')}", f"max by minute (ms): {row('max_ms')}"]
        for key, name in _LAG_LINES:
            if any(minute.get(key) is not None for minute in self.by_minute):
                lines.append(f"{name} by minute (ms): {row(key)}")
        for part, name in _CPU_PARTS:
            key = f"{part}_cpu_percent"
            if any(minute.get(key) is not None for minute in self.by_minute):
                lines.append(f"{name} by minute (% of one core): {row(key)}")
        return lines

    def _full_collections(self) -> str:
        if self.server_full_collections is None:
            return "n/a"
        if self.server_full_collection_max_ms is None:
            return str(self.server_full_collections)
        return (
            f"{self.server_full_collections} (longest {self.server_full_collection_max_ms:.0f} ms)"
        )

    def to_json(self) -> str:
        """One JSON object (``--json``'s last line)."""
        return json.dumps(asdict(self), sort_keys=True)


def percentile(values: array[float] | list[float], fraction: float) -> float:
    """The value at ``fraction`` (nearest rank) of ``values``; 0 when there are none.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), percentile([1.0, 2.0], 0.99)
    (3.0, 2.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return float(ordered[rank])


def by_minute(
    latencies: array[float], heard_at: array[float], measured_seconds: float
) -> list[dict[str, float]]:
    """Each minute's actions, p99 and maximum (ms), in order; ``heard_at[i]`` (seconds from
    the start of measuring) says which minute ``latencies[i]`` falls in.  One heard a moment
    after ``measured_seconds`` (a worker's clock) counts in the last minute.

    >>> heard = array("d", [0.5, 59.9, 60.0, 120.01])
    >>> minutes = by_minute(array("d", [1.0, 3.0, 9.0, 4.0]), heard, 120.0)
    >>> [(m["minute"], m["samples"], m["max_ms"]) for m in minutes]
    [(1, 2, 3.0), (2, 2, 9.0)]
    """
    last = max(0, math.ceil(measured_seconds / 60) - 1)
    minutes: dict[int, list[float]] = {}
    for milliseconds, seconds in zip(latencies, heard_at, strict=True):
        minutes.setdefault(min(last, int(seconds // 60)), []).append(milliseconds)
    return [
        {
            "minute": index + 1,
            "samples": len(values),
            "p99_ms": round(percentile(values, 0.99), 2),
            "max_ms": round(max(values), 2),
        }
        for index, values in sorted(minutes.items())
    ]


def _with_lags(
    minutes: list[dict[str, float]], lags: list[dict[str, float]]
) -> list[dict[str, float]]:
    """``minutes`` (:func:`by_minute`), each with how late the generator's loops ran in it
    (``generator_lag_p99_ms`` and ``generator_lag_max_ms``: :func:`by_minute` of the lags)."""
    late = {lag["minute"]: lag for lag in lags}
    return [
        {
            **minute,
            **(
                {
                    "generator_lag_p99_ms": late[minute["minute"]]["p99_ms"],
                    "generator_lag_max_ms": late[minute["minute"]]["max_ms"],
                }
                if minute["minute"] in late
                else {}
            ),
        }
        for minute in minutes
    ]


def _with_cpu(
    minutes: list[dict[str, float]], samples: list[_CpuSample]
) -> list[dict[str, float | None]]:
    """``minutes`` (:func:`by_minute`), each with its parts' CPU (:func:`cpu_between` of
    the samples at its start and end)."""
    spans = [cpu_between(a, b) for a, b in itertools.pairwise(samples)]
    return [
        {**minute, **(spans[int(minute["minute"]) - 1] if minute["minute"] <= len(spans) else {})}
        for minute in minutes
    ]


_CPU_PARTS = (
    ("room", "room CPU"),
    ("room_loop", "its event loop's process"),
    ("generator", "load generator CPU"),
    ("database", "PostgreSQL's processes"),
    ("machine", "machine busy"),
    ("stolen", "taken by the host"),
)
"""Each minute's CPU, part by part: a field of :class:`_CpuSample` (its key in
:attr:`Report.by_minute` is ``PART_cpu_percent``) and its line's name."""

_LAG_LINES = (
    ("generator_lag_p99_ms", "load generator's loops late at p99"),
    ("generator_lag_max_ms", "load generator's loops late at most"),
)
"""The lines of each minute's lateness of the generator's loops (key, name)."""

_TICK = os.sysconf("SC_CLK_TCK")
"""The clock ticks of a CPU second in ``/proc``."""

_FULL_COLLECTION = re.compile(r"full garbage collection: \d+ objects freed in (\d+) ms")
"""The room's line for each full collection (a warning from 100 ms)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get_json(url: str, timeout: float = 30.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as answer:  # the room on loopback
        return json.loads(answer.read())


class _ServerProcess:
    """``mazziere serve`` started by the runner (or the one at ``--url``, measured by pid).

    Its figures are those of the server and its children (the table store's writer), added
    up: the room's work is theirs together."""

    def __init__(
        self, process: subprocess.Popen[bytes] | None, pid: int | None, log: Path | None = None
    ) -> None:
        self.process = process
        self.pid = pid
        self.log = log
        """The server's output, when the load test started it (a running room's is not ours)."""

    def log_size(self) -> int | None:
        """How far the server's output has come (:meth:`full_collections` from there)."""
        if self.log is None:
            return None
        try:
            return self.log.stat().st_size
        except OSError:
            return None

    def full_collections(self, start: int | None, end: int | None) -> list[float]:
        """The pauses (ms) of the room's full garbage collections its output told of
        between two of :meth:`log_size`'s answers (``mazziere.server.collector``)."""
        if self.log is None or start is None or end is None:
            return []
        with contextlib.suppress(OSError), self.log.open("rb") as output:
            output.seek(start)
            text = output.read(max(0, end - start)).decode(errors="replace")
            return [float(ms) for ms in _FULL_COLLECTION.findall(text)]
        return []

    def _family(self) -> list[int]:
        """The server's pid and its children's."""
        if self.pid is None:
            return []
        children = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.pid:
                children.append(int(entry.name))
        return [self.pid, *children]

    def cpu_seconds(self, *, main_only: bool = False) -> float | None:
        """CPU seconds of the server and its children (``main_only``: its own process's,
        the event loop's)."""
        return _cpu_seconds([self.pid] if main_only and self.pid is not None else self._family())

    def _status(self, key: str) -> float | None:
        total, found = 0.0, False
        for pid in self._family():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith(key + ":"):
                        total += int(line.split()[1]) / 1024.0
                        found = True
            except OSError:
                continue
        return total if found else None

    def rss_mb(self) -> float | None:
        return self._status("VmRSS")

    def peak_mb(self) -> float | None:
        """The sum of each process's own peak (they need not peak at once)."""
        return self._status("VmHWM")


def _cpu_seconds(pids: list[int]) -> float | None:
    """The CPU seconds (user and system) ``pids`` have used, those still running; ``None``
    if none is."""
    total, found = 0, False
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        found = True
    return total / _TICK if found else None


def _named(name: str) -> list[int]:
    """The processes whose command is ``name`` (PostgreSQL's are all ``postgres``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    pids.append(int(entry.name))
    return pids


def _machine_seconds() -> tuple[float, float] | None:
    """The machine's busy and stolen CPU seconds so far, all cores added (``/proc/stat``):
    stolen is time the host gave another machine while this one had work."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in first[1:9])
    return (user + nice + system + irq + softirq) / _TICK, steal / _TICK


@dataclass(frozen=True, slots=True)
class _CpuSample:
    """The CPU seconds used so far by each part of the machine, at one moment (``at``,
    monotonic seconds); a part that cannot be read is ``None``."""

    at: float
    room: float | None
    room_loop: float | None
    generator: float | None
    database: float | None
    machine: float | None
    stolen: float | None

    @classmethod
    def take(cls, server: _ServerProcess, generator: list[int], database: bool) -> _CpuSample:
        machine = _machine_seconds()
        return cls(
            at=time.monotonic(),
            room=server.cpu_seconds(),
            room_loop=server.cpu_seconds(main_only=True),
            generator=_cpu_seconds(generator),
            database=_cpu_seconds(_named("postgres")) if database else None,
            machine=None if machine is None else machine[0],
            stolen=None if machine is None else machine[1],
        )


def cpu_between(start: _CpuSample, end: _CpuSample) -> dict[str, float | None]:
    """Each part's CPU from ``start`` to ``end``, in percent of one core (``room_cpu_percent``
    and so on; ``None`` where a part could not be read at both ends).

    >>> a = _CpuSample(10.0, 1.0, 0.5, 2.0, None, 30.0, 0.0)
    >>> b = _CpuSample(70.0, 31.0, 20.0, 14.0, None, 120.0, 3.0)
    >>> cpu_between(a, b)["room_cpu_percent"], cpu_between(a, b)["stolen_cpu_percent"]
    (50.0, 5.0)
    >>> cpu_between(a, b)["database_cpu_percent"] is None
    True
    """
    elapsed = max(end.at - start.at, 1e-9)
    spent: dict[str, float | None] = {}
    for part, _ in _CPU_PARTS:
        before, after = getattr(start, part), getattr(end, part)
        spent[f"{part}_cpu_percent"] = (
            None
            if before is None or after is None
            else round(100.0 * (after - before) / elapsed, 1)
        )
    return spent


@contextlib.contextmanager
def _room(load: LoadRun, folder: Path) -> Iterator[tuple[str, _ServerProcess, str]]:
    """The room's address, its process and a description of its database."""
    if load.url is not None:
        yield load.url.rstrip("/"), _ServerProcess(None, load.server_pid), "a running room"
        return
    port = _free_port()
    database = load.database_url or f"sqlite+aiosqlite:///{folder / 'room.db'}"
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(folder / "data"),
        "MAZZIERE_OPEN_DEFAULT_LOBBY": "false",
        "MAZZIERE_NEW_ACCOUNTS_PER_ADDRESS": "0",  # every bot is a guest from this machine
    }
    schema = load.database_schema
    made_schema = False
    if database.startswith("postgresql") and schema is None:
        schema = f"loadtest_{os.getpid()}_{secrets.token_hex(4)}"
        made_schema = True
    if schema is not None:
        env["MAZZIERE_DATABASE_SCHEMA"] = schema
    if load.next_hand_seconds is not None:
        env["MAZZIERE_NEXT_HAND_SECONDS"] = str(load.next_hand_seconds)
    command = [sys.executable, "-m", "mazziere.cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--database-url", database]  # fmt: skip
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    address = f"http://127.0.0.1:{port}"
    described = "SQLite" if database.startswith("sqlite") else "PostgreSQL"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    "the server stopped at start:\n" + (folder / "serve.log").read_text()
                )
            with contextlib.suppress(OSError, ValueError):
                _get_json(f"{address}/api/session", timeout=2)
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer in 120 s")
            time.sleep(0.2)
        yield address, _ServerProcess(process, process.pid, folder / "serve.log"), described
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log.close()
        if made_schema and schema is not None:
            asyncio.run(_drop_schema(database, schema))


async def _drop_schema(database: str, schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    dsn = database.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await connection.close()


def run(load: LoadRun, *, say: Any = None) -> Report:
    """Run ``load`` and measure it; ``say`` (a function of one line) hears the progress."""
    plans = plan_tables(load.players, load.tables)
    tell = say or (lambda line: None)
    seconds = load.minutes * 60.0
    with (
        tempfile.TemporaryDirectory(prefix="mazziere-loadtest-") as temporary,
        _room(load, Path(temporary)) as (address, server, database),
    ):
        parts = urlsplit(address)
        options = Options(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 80,
            think=load.think,
            chats_per_minute=load.chats_per_minute,
            drops_per_minute=load.drops_per_minute,
            nice=load.generator_nice,
        )
        count = max(1, min(load.workers, len(plans)))
        context = multiprocessing.get_context("spawn")
        pipes, processes = [], []
        for index in range(count):
            mine = plans[index::count]
            parent, child = context.Pipe()
            worker_options = Options(**{**asdict(options), "seed": load.seed * 1000 + index})
            process = context.Process(
                target=run_worker, args=(child, mine, worker_options), daemon=True
            )
            process.start()
            pipes.append(parent)
            processes.append(process)
        started = time.monotonic()
        tell(
            f"setting up {load.players} players at {len(plans)} tables ({database}; "
            f"room at {address}, process {server.pid})"
        )
        try:
            ready = [pipe.recv() for pipe in pipes]
            failed = [message for kind, message in ready if kind != "ready"]
            if failed:
                log = Path(temporary) / "serve.log"
                text = log.read_text(errors="replace") if log.exists() else ""
                # The server's last traceback says why, or else the end of its log.
                last = text[text.rfind("Traceback") :] if "Traceback" in text else text
                tail = "\n".join(line for line in last.splitlines() if "INFO" not in line)[-3000:]
                said = f"the set-up failed: {failed[0]}"
                raise RuntimeError(f"{said}\n{tail}" if tail.strip() else said)
            set_up = time.monotonic() - started
            tell(f"set up in {set_up:.0f} s; measuring for {seconds:.0f} s")
            report = _measure(
                    load, plans=plans, pipes=pipes, server=server, seconds=seconds,
                    set_up=set_up, database=database,
                    generator=[p.pid for p in processes if p.pid is not None],
                )  # fmt: skip
        finally:
            for process in processes:
                process.join(timeout=30)
                if process.is_alive():
                    process.kill()
        try:
            audit = _get_json(f"{address}/api/ledger/audit")
            report.ledger_total = int(audit["total"])
            report.ledger_drifted = len(audit["drifted"])
        except (OSError, ValueError, KeyError) as error:
            report.notes.append(f"the ledger audit failed: {error}")
            report.errors += 1
    return report


def _measure(
    load: LoadRun,
    *,
    plans: list[Any],
    pipes: list[Any],
    server: _ServerProcess,
    seconds: float,
    set_up: float,
    database: str,
    generator: list[int],
) -> Report:
    warm_up = load.warm_up_seconds if load.warm_up_seconds is not None else min(300.0, seconds / 5)
    cpu_before, main_before = server.cpu_seconds(), server.cpu_seconds(main_only=True)
    log_before = server.log_size()
    # Each part's CPU at every minute's end: a bad minute says whose work it was.
    samples = [_CpuSample.take(server, generator, database != "SQLite")]
    begun = time.monotonic()
    for pipe in pipes:
        pipe.send(("go", seconds))
    rss_warm: float | None = None
    while time.monotonic() - begun < seconds:
        time.sleep(min(1.0, max(0.0, seconds - (time.monotonic() - begun))))
        if rss_warm is None and time.monotonic() - begun >= warm_up:
            rss_warm = server.rss_mb()
        if time.monotonic() - begun >= 60.0 * len(samples) and time.monotonic() - begun < seconds:
            samples.append(_CpuSample.take(server, generator, database != "SQLite"))
    samples.append(_CpuSample.take(server, generator, database != "SQLite"))
    rss_end = server.rss_mb()
    log_after = server.log_size()
    cpu_after, main_after = server.cpu_seconds(), server.cpu_seconds(main_only=True)
    elapsed = time.monotonic() - begun
    results = [pipe.recv() for pipe in pipes]
    for pipe in pipes:  # every worker has measured: now they may close their sockets
        pipe.send(("close", None))
    for index, pipe in enumerate(pipes):
        kind, closed = pipe.recv()
        if kind == "closed" and results[index][0] == "done":
            results[index][1].update(closed)  # the errors counted until the very end
    latencies: array[float] = array("d")
    heard_at: array[float] = array("d")
    lags: array[float] = array("d")
    lag_at: array[float] = array("d")
    nices: list[int] = []
    errors: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    generator_cpu = 0.0
    examples: list[str] = []
    slowest = (0.0, "")
    for kind, result in results:
        if kind != "done":
            errors["worker_failed"] += 1
            continue
        latencies.frombytes(result["latencies"])
        heard_at.frombytes(result["heard_at"])
        lags.frombytes(result["loop_lags"])
        lag_at.frombytes(result["loop_lag_at"])
        nices.append(int(result["nice"]))
        errors.update(result["errors"])
        for key in ("reconnects", "hands", "actions", "chats", "lost"):
            totals[key] += int(result[key])
        generator_cpu += float(result["cpu_seconds"])
        examples.extend(result["examples"])
        slowest = max(slowest, tuple(result["slowest"]))
    cpu = (
        None
        if cpu_before is None or cpu_after is None
        else 100.0 * (cpu_after - cpu_before) / elapsed
    )
    main = (
        None
        if main_before is None or main_after is None
        else 100.0 * (main_after - main_before) / elapsed
    )
    per_action = (
        None
        if cpu_before is None or cpu_after is None or not totals["actions"]
        else 1000.0 * (cpu_after - cpu_before) / totals["actions"]
    )
    growth = (
        None
        if rss_warm is None or rss_end is None or rss_warm == 0
        else 100.0 * (rss_end - rss_warm) / rss_warm
    )
    pauses = server.full_collections(log_before, log_after)
    low, high = load.think
    return Report(
        players=load.players,
        tables=len(plans),
        seconds=elapsed,
        think="0 s" if high == 0 else f"{low:g}-{high:g} s",
        database=database,
        p50_ms=round(percentile(latencies, 0.50), 2),
        p99_ms=round(percentile(latencies, 0.99), 2),
        max_ms=round(max(latencies, default=0.0), 2),
        samples=len(latencies),
        errors=sum(errors.values()),
        error_codes=dict(errors),
        hands_per_s=round(totals["hands"] / elapsed, 3),
        actions_per_s=round(totals["actions"] / elapsed, 2),
        reconnects=totals["reconnects"],
        chats=totals["chats"],
        lost=totals["lost"],
        server_cpu_percent=None if cpu is None else round(cpu, 1),
        server_main_cpu_percent=None if main is None else round(main, 1),
        server_cpu_ms_per_action=None if per_action is None else round(per_action, 3),
        server_peak_mb=server.peak_mb(),
        server_rss_warm_mb=rss_warm,
        server_rss_end_mb=rss_end,
        memory_growth_percent=None if growth is None else round(growth, 2),
        server_full_collections=None if log_before is None else len(pauses),
        server_full_collection_max_ms=max(pauses, default=None),
        load_generator_cpu_percent=round(100.0 * generator_cpu / elapsed, 1),
        load_generator_lag_p99_ms=round(percentile(lags, 0.99), 2),
        load_generator_lag_max_ms=round(max(lags, default=0.0), 2),
        load_generator_nice=max(nices, default=None),
        load_average=os.getloadavg(),
        by_minute=_with_cpu(
            _with_lags(by_minute(latencies, heard_at, seconds), by_minute(lags, lag_at, seconds)),
            samples,
        ),
        ledger_total=None,
        ledger_drifted=None,
        set_up_seconds=round(set_up, 1),
        notes=[f"error: {example}" for example in examples[:5]],
        slowest=slowest[1],
    )
