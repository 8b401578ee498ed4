"""A database that refuses writes holds the table, on SQLite and on PostgreSQL.

The real server runs with ``MAZZIERE_TEST_REFUSE_WRITES_WHILE`` naming a file: while the
file exists, its database transactions are read-only (SQLite ``PRAGMA query_only``,
PostgreSQL ``SET TRANSACTION READ ONLY``), and the database refuses every write with its
own error, as a full disk or a read-only file would.  Two people play heads-up Hold'em
over real WebSockets.  At a turn the file appears and the player acts: the table must not
go on with an action it could not store.  Each person hears ``held`` and nothing of the
action (no record, no next turn, no ack), and a message sent to the held table is refused
with ``storage_unavailable``.  The file goes: the table stores the action, says it goes
on, and only then announces it.  On PostgreSQL the server's connections are then
terminated (``pg_terminate_backend``: a lost connection), and the next action is held
until a new connection stores it (they are cut again if another of the server's
transactions met a dead connection first and had them all replaced before the table
wrote).  Held a second time, the server is killed (SIGKILL) and started again with writes
allowed: the table resumes from what was stored, waiting for the same turn, as if the
unstored action had never been sent.  The ledger sums to zero.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import asyncpg
from websockets.asyncio.client import connect

from mazziere.server.protocol import unbatch
from mazziere.server.settings import Settings
from tests.play_room import Person, Room, until
from tests.server_db import POSTGRES_URL, asyncpg_dsn


def passive(turn: dict[str, Any]) -> dict[str, Any]:
    kinds = turn["legal"]["kinds"]
    return {"kind": "check" if "check" in kinds else "call" if "call" in kinds else "show"}


def my_turn(person: Person, table: str) -> dict[str, Any] | None:
    """The turn this person is to play now (from a turn or a snapshot), if any."""
    for message in reversed(person.messages):
        if message.get("table") != table:
            continue
        if message["type"] == "turn":
            return message if message["name"] == person.name else None
        if message["type"] == "snapshot":
            turn = message.get("turn")
            return turn if turn is not None and turn["name"] == person.name else None
    return None


def actor(people: list[Person], table: str) -> tuple[Person, dict[str, Any]]:
    for person in people:
        turn = my_turn(person, table)
        if turn is not None:
            return person, turn
    raise AssertionError("nobody is to act")


def since(person: Person, mark: int, kind: str) -> list[dict[str, Any]]:
    return [m for m in person.messages[mark:] if m["type"] == kind]


async def hold(
    people: list[Person], table: str, flag: Path
) -> tuple[Person, dict[str, Any], list[int]]:
    """The file appears and the player to act acts: every person hears ``held`` and nothing
    else of the table; a chat at the held table is refused."""
    await until(lambda: any(my_turn(p, table) for p in people))
    person, turn = actor(people, table)
    flag.touch()
    marks = [len(p.messages) for p in people]
    await person.send(type="act", table=table, action_id=turn["action_id"], **passive(turn))
    await until(lambda: all(since(p, m, "held") for p, m in zip(people, marks, strict=True)))
    other = next(p for p in people if p is not person)
    await other.send(type="chat", table=table, text="anyone there?")
    await until(lambda: any(e["code"] == "storage_unavailable" for e in other.errors))
    await asyncio.sleep(1.5)  # the room retries meanwhile (0.5 s, then 1 s, ...)
    for who, mark in zip(people, marks, strict=True):
        heard = who.messages[mark:]
        assert [m["type"] for m in heard if m.get("table") == table and "seq" in m] == []
        assert not since(who, mark, "ack")
        held = since(who, mark, "held")[0]
        assert held["held"] and held["table"] == table and held["retry_seconds"] > 0
    return person, turn, marks


def family(pid: int) -> list[int]:
    """The process and its children (the server's table store writer)."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == pid:
                children.append(int(entry))
    return [pid, *children]


def database_ports(pid: int, port: int = 5432) -> list[int]:
    """The local ports of the TCP connections to ``port`` of the process and its children
    (Linux's /proc)."""
    inodes = set()
    for member in family(pid):
        for fd in os.listdir(f"/proc/{member}/fd"):
            with_target = os.readlink(f"/proc/{member}/fd/{fd}") if fd.isdigit() else ""
            if with_target.startswith("socket:["):
                inodes.add(with_target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == port:
                    ports.append(int(local.rsplit(":", 1)[1], 16))
    return ports


async def terminate_connections(room: Room) -> int:
    """End the server's PostgreSQL sessions from the database's side (a lost connection);
    how many there were."""
    assert room.process is not None
    ports = database_ports(room.process.pid)
    dsn = asyncpg_dsn(POSTGRES_URL)
    connection = await asyncpg.connect(dsn)
    try:
        ended = await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()",
            ports,
        )
    finally:
        await connection.close()
    return sum(1 for row in ended if row[0])


async def play_on(people: list[Person], table: str, actions: int) -> None:
    """Both check or call for ``actions`` more actions (or to the end of the hand)."""
    for _ in range(actions):
        await until(lambda: any(my_turn(p, table) for p in people))
        person, turn = actor(people, table)
        mark = len(person.messages)
        await person.send(type="act", table=table, action_id=turn["action_id"], **passive(turn))
        await until(lambda p=person, m=mark: bool(since(p, m, "ack")))


def heard(person: Person, mark: int, held: bool) -> bool:
    return any(m["held"] is held for m in since(person, mark, "held"))


async def cut_until_held(room: Room, people: list[Person], table: str, cuts: int = 5) -> list[int]:
    """Cut the server's connections and play on, until a write has failed on a cut one and
    held the table; each person's mark before the cut that held it.

    The first to use a dead connection gets the error, and the pool then replaces the others
    unused: when another of the server's transactions (the tournament schedule reads every
    second) comes first, the table's write gets a new connection and is stored, and the
    table rightly goes on.  Then the connections are cut again, ``cuts`` times at most."""
    for _ in range(cuts):
        marks = [len(p.messages) for p in people]
        assert await terminate_connections(room) > 0
        await play_on(people, table, 2)
        if any(heard(p, m, True) for p, m in zip(people, marks, strict=True)):
            await until(lambda m=marks: all(
                heard(p, mark, True) and heard(p, mark, False)
                for p, mark in zip(people, m, strict=True)
            ))  # fmt: skip
            return marks
    raise AssertionError(f"no write held the table in {cuts} cuts of its connections")


async def what_only_reads_answers(room: Room, person: Person) -> None:
    """While held: the person's pages still answer (a GET only reads), a change is refused
    with ``storage_unavailable``, and a second socket of theirs logs in (its look-up only
    reads) and is welcomed."""
    for path in ("/api/session", "/api/account", "/api/wallet", "/api/tables", "/api/hands"):
        answer = person.http.get(path)
        assert answer.status_code == 200, (path, answer.text)
    refused = person.post("/api/wallet/top-up")
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "storage_unavailable"
    url = room.address.replace("http://", "ws://") + "/ws"
    async with connect(url, additional_headers={"Cookie": person.cookie_header()}) as second:
        first = unbatch(json.loads(await asyncio.wait_for(second.recv(), timeout=30)))[0]
    assert first["type"] == "welcome" and first["player"] == person.name, first


def test_a_table_holds_while_the_database_refuses_writes(
    room_settings: Settings, tmp_path: Path
) -> None:
    flag = tmp_path / "read-only"
    room = Room(room_settings.database_url, tmp_path, room_settings.database_schema)
    room.env = {"MAZZIERE_TEST_REFUSE_WRITES_WHILE": str(flag)}
    room.start()
    people: list[Person] = []

    async def scenario() -> None:
        table = next(t for t in room.tables() if t["rules"] == "holdem")
        tid = str(table["id"])
        people.extend(Person(room, seed) for seed in (71, 72))
        for seat, person in enumerate(people, start=1):
            await person.connect()
            person.scripted[tid] = lambda person, turn: False  # the test plays every turn
            person.plays.add(tid)
            await person.send(type="sit", table=tid, buy_in=table["max_buy_in"], seat=seat)
        await play_on(people, tid, 2)

        # Held, then the database takes writes again: stored, "goes on", then announced.
        person, turn, marks = await hold(people, tid, flag)
        await what_only_reads_answers(room, person)
        flag.unlink()
        await until(lambda: all(
            any(not h["held"] for h in since(p, m, "held"))
            for p, m in zip(people, marks, strict=True)
        ))  # fmt: skip
        await until(lambda: bool(since(person, marks[people.index(person)], "ack")))
        for who, mark in zip(people, marks, strict=True):
            heard = [m for m in who.messages[mark:] if m["type"] in ("held", "record")]
            assert [m["type"] for m in heard][:3] == ["held", "held", "record"], heard
            assert heard[2]["record"]["type"] == "action"  # the action stored, announced
        acked = since(person, marks[people.index(person)], "ack")[0]
        assert acked["action_id"] == turn["action_id"] and not acked["repeated"]
        await play_on(people, tid, 1)

        if room_settings.database_schema is not None:
            # PostgreSQL: the server's connections are cut.  The next write (the action, or
            # the deal of the next hand) fails and holds the table until a new connection
            # stores it: nothing is announced in between.
            marks = await cut_until_held(room, people, tid)
            for who, mark in zip(people, marks, strict=True):
                order = [
                    ("held", m["held"]) if m["type"] == "held" else "event"
                    for m in who.messages[mark:]
                    if m["type"] == "held" or (m.get("table") == tid and "seq" in m)
                ]
                start = order.index(("held", True))
                assert order[start + 1] == ("held", False), order

        # Held again, and the server is killed: the unstored action never happened.
        person, turn, marks = await hold(people, tid, flag)
        room.stop(signal.SIGKILL)
        flag.unlink()
        room.start()
        for who in people:
            await who.disconnect()
            await who.connect()
            await who.send(type="resume", table=tid, last_seq=who.last_seq(tid))
        await until(lambda: all(p.seen("snapshot", tid) for p in people))
        waiting = people[0].seen("snapshot", tid)[-1]["turn"]
        assert waiting["action_id"] == turn["action_id"] and waiting["name"] == turn["name"]
        await play_on(people, tid, 1)
        for who in people:
            await who.disconnect()

    try:
        asyncio.run(scenario())
        audit = room.audit()
        assert audit["total"] == 0 and not audit["drifted"], audit
    finally:
        room.stop()
        for person in people:
            person.close()
