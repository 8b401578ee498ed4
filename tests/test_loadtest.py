"""``mazziere loadtest``, tiny: 20 players for 10 seconds against the real server process.

Its figures are a benchmark's (docs/benchmarks.md): this test checks what it prints, that
the players really played (actions measured, hands dealt) without an error, and that the
room's ledger still adds up to zero; never how fast.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from mazziere.loadtest.players import Options, Seat, TableRun, Worker, plan_tables
from mazziere.loadtest.runner import Report, _ServerProcess, _with_lags, by_minute
from mazziere.server.settings import Settings
from tests.server_db import BACKENDS, POSTGRES_URL, postgres_problem
from tests.server_process import serve


def loadtest(
    *args: str, timeout: float = 240.0, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mazziere.cli", "loadtest", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, check=False,
        env=None if env is None else {**os.environ, **env},
    )  # fmt: skip


def test_a_room_that_limits_new_accounts_is_told_to_lift_it(tmp_path: Path) -> None:
    """Against a room started by hand with the limit on new accounts per address (every
    player of a load test is a guest of this machine): one line that says what to do."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        password_profile="CHEAPEST",
        new_accounts_per_address=4,
    )
    with serve(settings, tmp_path) as server:
        done = loadtest("--url", server.address, "--server-pid", str(server.process.pid),
                        "--players", "8", "--tables", "2", "--minutes", "0.1")  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "mazziere loadtest: the set-up failed: HttpError: the room makes no more guests from "
        "this machine's address (every player of a load test is a guest of it): start the "
        "room with MAZZIERE_NEW_ACCOUNTS_PER_ADDRESS=0"
    ), done.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_twenty_players_for_ten_seconds_print_the_figures_and_one_json_line(
    backend: str, tmp_path: Path
) -> None:
    database: list[str] = []
    operators_room = f"sqlite+aiosqlite:///{tmp_path / 'own.db'}"
    if backend == "postgresql":
        problem = postgres_problem()
        if problem is not None:
            pytest.skip(problem)
        database = ["--database-url", POSTGRES_URL]  # a schema of its own, dropped after
    done = loadtest("--players", "20", "--tables", "4", "--minutes", "0.17", "--think",
                    "0.2-0.6", "--next-hand", "0.5", "--drops", "3", "--generator-nice", "3",
                    *database, "--json",
                    env={"XDG_DATA_HOME": str(tmp_path / "data"),  # the operator's own room's
                         "MAZZIERE_DATABASE_URL": operators_room})  # fmt: skip
    assert done.returncode == 0, done.stderr
    # Its room was one of its own: nothing of it in the operator's room or data folder.
    assert sorted(tmp_path.iterdir()) == []
    lines = done.stdout.strip().splitlines()
    report = json.loads(lines[-1])
    for key in ("players", "p50_ms", "p99_ms", "max_ms", "errors", "hands_per_s"):
        assert key in report
    assert report["players"] == 20 and report["tables"] == 4
    assert report["errors"] == 0, report["error_codes"]
    assert report["samples"] > 0 and report["hands_per_s"] > 0
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    minutes = report["by_minute"]  # ten seconds: one minute, holding every action measured
    assert [(m["minute"], m["samples"], m["max_ms"]) for m in minutes] == [
        (1, report["samples"], report["max_ms"])
    ]
    assert minutes[0]["p99_ms"] == report["p99_ms"]
    # The minute's CPU, part by part (percent of one core): the room as a whole is its loop's
    # process and its writer, the machine's busy time holds the room's and the generator's.
    cpu = {key.removesuffix("_cpu_percent"): value for key, value in minutes[0].items()
           if key.endswith("_cpu_percent")}  # fmt: skip
    assert set(cpu) == {"room", "room_loop", "generator", "database", "machine", "stolen"}
    # How late the generator's loops ran in the minute: the whole run's, as there is one.
    assert minutes[0]["generator_lag_p99_ms"] == report["load_generator_lag_p99_ms"]
    assert minutes[0]["generator_lag_max_ms"] == report["load_generator_lag_max_ms"]
    assert 0 < cpu["room_loop"] <= cpu["room"] + 1  # the clock's ticks are 10 ms
    assert cpu["generator"] > 0 and cpu["stolen"] >= 0
    assert cpu["room"] + cpu["generator"] <= cpu["machine"] + 2
    assert cpu["machine"] <= 100 * (os.cpu_count() or 1) + 2
    if backend == "sqlite":
        assert cpu["database"] is None  # no PostgreSQL to read
    else:
        assert cpu["database"] > 0  # PostgreSQL's own processes stored the room's actions
    assert report["reconnects"] > 0  # some players dropped and came back
    assert report["ledger_total"] == 0 and report["ledger_drifted"] == 0
    assert report["server_peak_mb"] > 0 and report["server_cpu_percent"] is not None
    # The server's CPU is its own process's and its child's (the table store's writer).
    assert 0 <= report["server_main_cpu_percent"] <= report["server_cpu_percent"]
    assert lines[0].startswith("players 20 at 4 tables")
    assert any(line.startswith("action to every seat: p50") for line in lines)
    slowest = float(report["slowest"].split(" ms: table ")[0])  # the slowest is named
    assert abs(slowest - report["max_ms"]) < 0.1, report["slowest"]
    assert f"slowest action: {report['slowest']}" in lines
    # The generator's processes ran at the niceness asked, and say how late their loops ran.
    assert report["load_generator_nice"] == min(19, os.nice(0) + 3)
    assert 0 <= report["load_generator_lag_p99_ms"] <= report["load_generator_lag_max_ms"]
    # The room's full collections while measuring, from its output (the test's room is small:
    # how many there were is not checked, only that they are told).
    assert isinstance(report["server_full_collections"], int)
    assert any("full garbage collections while measuring: " in line for line in lines)


def test_the_rooms_full_collections_are_counted_in_the_measured_part_of_its_output(
    tmp_path: Path,
) -> None:
    log = tmp_path / "serve.log"
    log.write_text("WARNING: full garbage collection: 3900 objects freed in 388 ms\n")
    server = _ServerProcess(None, None, log)
    start = server.log_size()
    with log.open("a") as output:
        output.write('INFO:     127.0.0.1:5000 - "GET /api/session HTTP/1.1" 200\n')
        output.write("full garbage collection: 9716 objects freed in 1753 ms\n")
        output.write("full garbage collection: 10 objects freed in 12 ms\n")
    end = server.log_size()
    with log.open("a") as output:
        output.write("full garbage collection: 4788 objects freed in 967 ms\n")
    assert server.full_collections(start, end) == [1753.0, 12.0]
    assert _ServerProcess(None, None).full_collections(None, None) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--think", "3-1"], "--think"),
        (["--players", "30", "--tables", "3"], "do not fit"),
        (["--players", "3", "--tables", "2"], "cannot fill"),
        (["--generator-nice", "20"], "--generator-nice"),
        (["--server-pid", "1"], "--server-pid: only with --url"),
        (["--url", "http://127.0.0.1:1", "--database-url", "sqlite:///x.db"], "not --url"),
        (["--database-url", "mysql://room@127.0.0.1/room"], "unsupported database 'mysql'"),
    ],
)
def test_bad_options_are_one_line_and_exit_code_2(args: list[str], says: str) -> None:
    done = loadtest(*args, timeout=60)
    assert done.returncode == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_sqlite_file_that_exists_is_not_taken_for_the_load_tests_room(tmp_path: Path) -> None:
    """Perhaps the room's own database: the bots would sign up there by thousands."""
    room = tmp_path / "room.db"
    room.write_bytes(b"the room's own")
    done = loadtest("--database-url", f"sqlite+aiosqlite:///{room}", timeout=60)
    assert done.returncode == 2
    assert f"{room} exists" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert room.read_bytes() == b"the room's own" and sorted(tmp_path.iterdir()) == [room]


def test_a_bot_back_from_a_long_gap_takes_its_hand_from_the_snapshot() -> None:
    """A resume after more than the table keeps gets only a snapshot: the bot's hole cards
    and position come from it, not from the hand it heard of before it dropped."""
    plan = plan_tables(5, 1)[0]
    worker = Worker([plan], Options(host="127.0.0.1", port=1))
    seat = Seat(TableRun(plan, worker), random.Random(1))
    seat.position, seat.hole = 0, ["Kc", "Kd", "2s", "3h", "4d"]  # the last hand's
    game = {"viewer": 3, "hole": [["??"] * 5, [], ["??"] * 5, ["Ah", "7c", "8c", "9c", "Tc"]]}
    seat._on({"type": "snapshot", "seq": 40, "table": "", "state": {"game": game}}, 0.0)
    assert (seat.position, seat.hole) == (3, ["Ah", "7c", "8c", "9c", "Tc"])
    seat._on({"type": "snapshot", "seq": 41, "table": "", "state": {"game": None}}, 0.0)
    assert (seat.position, seat.hole) == (None, [])


def _two_seats_measuring() -> tuple[Worker, TableRun, Seat, Seat]:
    """A worker measuring, its table "7" and two seats connected, anna and bruno (not
    seated yet: each test sets ``table.seats``)."""
    plan = plan_tables(5, 1)[0]
    worker = Worker([plan], Options(host="127.0.0.1", port=1))
    worker.measuring = True
    table = TableRun(plan, worker)
    table.id = "7"
    anna, bruno = Seat(table, random.Random(1)), Seat(table, random.Random(2))
    anna.name, bruno.name = "anna", "bruno"
    anna.connected = bruno.connected = True
    return worker, table, anna, bruno


def test_an_action_a_seat_learns_of_from_a_snapshot_is_done_then() -> None:
    """A seat back from a long gap hears of an action in the snapshot, not its record: the
    wait for it ends there (it waited until the seat's next drop), and is named if slowest,
    with where its time went: the actor's acknowledgement, the first seat, the last socket."""
    worker, table, anna, bruno = _two_seats_measuring()
    anna.position = 0
    table.seats = [anna, bruno]
    table.acted(anna, {"position": 0, "seq": 9, "action_id": 3}, sent=100.0)
    anna._on({"type": "ack", "table": "7", "of": "act", "action_id": 3}, 100.005)
    record = {"type": "record", "seq": 10, "table": "7", "record": {"type": "bet", "position": 0}}
    anna._on(record, 100.01)
    assert worker.tally.latencies.tolist() == []  # bruno has not heard of it
    bruno._on({"type": "snapshot", "seq": 12, "table": "7", "state": {"game": None}}, 100.5)
    assert [round(ms) for ms in worker.tally.latencies] == [500]
    assert worker.tally.slowest == (
        "500.0 ms: table 7, event 10 (sent after event 9); done when a snapshot reached bruno"
        " (acknowledged 5 ms; first seat 10 ms; bruno's socket: snapshot 500 ms)"
    )


def test_an_action_heard_of_after_the_measured_time_is_not_a_latency() -> None:
    """The measured time over, an action still waited for is counted among those not
    measured; its record arriving later (the sockets closing: a burst for the room) adds no
    latency and no slowest action."""
    worker, table, anna, bruno = _two_seats_measuring()
    anna.position = 0
    table.seats = [anna, bruno]
    worker.tables = [table]
    table.acted(anna, {"position": 0, "seq": 9, "action_id": 3}, sent=100.0)
    asyncio.run(worker.measure(0.0))  # the time is up at once
    assert worker.tally.lost == 1 and not worker.measuring
    record = {"type": "record", "seq": 10, "table": "7", "record": {"type": "bet", "position": 0}}
    anna._on(record, 100.9)
    bruno._on(record, 101.0)
    assert worker.tally.latencies.tolist() == [] and worker.tally.slowest == ""
    assert table.pending == []  # done with, all the same


def test_a_turn_the_room_did_not_acknowledge_is_played_again_after_a_resume() -> None:
    """A socket closed while its player thought (or before the room answered): the turn
    comes back in the resume's snapshot and is played, as a person's client would (before,
    the player never acted, the table waited out the decision and the time bank, and an
    action sent on the closed socket was measured as taking that long)."""

    async def scenario() -> tuple[bool, bool, bool, bool]:
        plan = plan_tables(5, 1)[0]
        worker = Worker([plan], Options(host="127.0.0.1", port=1, think=(0.0, 0.0)))
        worker.measuring = True
        table = TableRun(plan, worker)
        table.id = "7"
        anna = Seat(table, random.Random(1))
        anna.name = "anna"
        table.seats = [anna]
        legal = {"kinds": ["check", "bet"], "to_call": 0, "min_to": 2}
        turn = {"type": "turn", "seq": 5, "table": "7", "name": "anna", "position": 0,
                "action_id": 3, "legal": legal}  # fmt: skip
        anna._on(turn, 0.0)  # its socket is closed: the action cannot go
        first = anna.thinking
        assert first is not None
        await first
        nothing_measured = table.pending == [] and worker.tally.actions == 0
        anna._on({**turn, "seq": 6}, 0.0)  # the same turn again, before any resume: ignored
        ignored = anna.thinking is first
        anna.forget_unanswered()  # what a resume does
        snapshot = {"type": "snapshot", "seq": 7, "table": "7", "state": {"game": None},
                    "turn": turn}  # fmt: skip
        anna._on(snapshot, 0.0)
        played_again = anna.thinking is not first
        anna.acknowledged.add(4)
        anna.acted_ids.add(4)
        anna.forget_unanswered()
        kept = 4 in anna.acted_ids
        await worker.close()
        return nothing_measured, ignored, played_again, kept

    nothing_measured, ignored, played_again, kept = asyncio.run(scenario())
    assert nothing_measured  # an action that never went is not an action waited for
    assert ignored
    assert played_again
    assert kept  # a turn the room acknowledged is not played twice


def test_a_turn_played_again_that_the_room_had_applied_is_not_waited_for() -> None:
    """The first sending did arrive (the socket closed before its answer): the room answers
    the second with ``repeated`` and sends no event, its record having come before; waiting
    for it would wait for the player's next record (the likely reading of a wait of 1.9 s at
    7,500 players: acknowledged in 108 ms, no seat hearing of it for 1.9 s)."""
    worker, table, anna, bruno = _two_seats_measuring()
    table.seats = [anna, bruno]
    table.acted(anna, {"position": 0, "seq": 9, "action_id": 3}, sent=100.0)
    worker.tally.actions = 1
    ack = {"type": "ack", "table": "7", "of": "act", "action_id": 3, "repeated": True}
    anna._on(ack, 100.005)
    assert table.pending == []
    assert worker.tally.actions == 0
    table.acted(anna, {"position": 0, "seq": 12, "action_id": 4}, sent=101.0)
    anna._on({**ack, "action_id": 4, "repeated": False}, 101.004)
    assert [p.acked for p in table.pending] == [101.004]  # a first answer: still waited for


def test_a_run_of_several_minutes_prints_its_p99_and_maximum_minute_by_minute() -> None:
    latencies = array("d", [5.0, 7.0, 30.0, 2.0])
    heard_at = array("d", [1.0, 61.0, 119.0, 150.0])  # the 2nd minute's maximum: 30 ms
    minutes = by_minute(latencies, heard_at, 180.0)
    blank = {f.name: 0 for f in dataclasses.fields(Report)}
    report = Report(**{**blank, "error_codes": {}, "load_average": (0.0, 0.0, 0.0),
                       "notes": [], "slowest": "", "by_minute": minutes})  # fmt: skip
    assert "p99 by minute (ms): 5.0 30.0 2.0" in report.lines()
    assert "max by minute (ms): 5.0 30.0 2.0" in report.lines()
    assert not any("by minute (% of" in line for line in report.lines())  # no CPU was read
    cpu = [{"room_cpu_percent": 80.0, "machine_cpu_percent": 150.0, "stolen_cpu_percent": 0.0},
           {"room_cpu_percent": 95.5, "machine_cpu_percent": 190.0, "stolen_cpu_percent": 40.0},
           {}]  # the last minute's end could not be read  # fmt: skip
    with_cpu = dataclasses.replace(
        report, by_minute=[{**m, **c} for m, c in zip(minutes, cpu, strict=True)]
    )
    assert "room CPU by minute (% of one core): 80.0 95.5 n/a" in with_cpu.lines()
    assert "taken by the host by minute (% of one core): 0.0 40.0 n/a" in with_cpu.lines()
    lags = by_minute(array("d", [1.0, 250.0, 3.0]), array("d", [0.5, 70.0, 130.0]), 180.0)
    late = dataclasses.replace(report, by_minute=_with_lags(minutes, lags))
    assert "load generator's loops late at most by minute (ms): 1.0 250.0 3.0" in late.lines()
    assert not any(line.startswith("PostgreSQL") for line in with_cpu.lines())
    one = Report(**{**blank, "error_codes": {}, "load_average": (0.0, 0.0, 0.0), "notes": [],
                    "slowest": "", "by_minute": minutes[:1]})  # fmt: skip
    assert not any("by minute" in line for line in one.lines())  # a minute says nothing more
