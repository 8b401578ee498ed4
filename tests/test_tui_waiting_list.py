"""A full table's waiting list from the terminal: ``mazziere play --connect URL --table N``.

Three seats at a Hold'em table of the operator's lobby, three people there.
A terminal asks for the table: it joins the waiting list and says so; when the second
person leaves, the room keeps the seat for it, and the terminal says so and sits down.  A
second terminal finds the table full (the free seat is the first one's): it waits too, and
Ctrl+C gives its place up, in one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from mazziere.tui.connect import ConnectError, Joined, join_table
from tests.play_room import TERMINALS_ON_ONE_MACHINE, Person, Room, running_room, until
from tests.test_lobby_file import THREE_SEATS
from tests.test_tui_connect import Terminal, _ctrl_c, _playing, play, private_table


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    folder = tmp_path_factory.mktemp("waiting")
    lobby = folder / "lobby.toml"
    lobby.write_text(THREE_SEATS, encoding="utf-8")
    env = {
        "MAZZIERE_LOBBY_FILE": str(lobby),
        "MAZZIERE_SEAT_KEPT_SECONDS": "60",
        **TERMINALS_ON_ONE_MACHINE,
    }
    with running_room(f"sqlite+aiosqlite:///{folder / 'room.db'}", folder, env=env) as started:
        yield started


def test_a_terminal_waits_on_the_list_and_sits_at_the_seat_kept(room: Room, tmp_path: Path) -> None:
    (table,) = room.tables()
    where = str(table["id"])
    host, third, leaver = Person(room, 1), Person(room, 2), Person(room, 3)
    seated = (host, third, leaver)

    async def fill() -> None:
        for person in seated:
            await person.connect()
            person.plays.add(where)
            await person.send(type="sit", table=where, buy_in=200)
        await until(lambda: room.tables()[0]["open_seats"] == 0, 30)

    async def leave() -> None:
        await leaver.send(type="leave", table=where)
        await until(lambda: room.tables()[0]["players"] == 2, 30)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(fill())
        joined: list[Terminal] = []
        waiting = threading.Thread(
            target=lambda: joined.append(Terminal(room, None, tmp_path / "t1", 200, table=where))
        )
        waiting.start()
        loop.run_until_complete(until(lambda: room.tables()[0]["waiting"] == 1, 30))
        assert not joined  # it waits
        loop.run_until_complete(leave())
        waiting.join(timeout=30)
        (terminal,) = joined
        assert terminal.said == [
            "Tre posti is full: you are number 1 on its waiting list, and the room keeps the "
            "first seat that frees for you (Ctrl+C to give up)…",
            terminal.said[1],
        ]
        assert terminal.said[1].startswith("A seat is yours at Tre posti for ")
        # Asked for a table of the game, not one table: none is open, so the room's "play now"
        # puts it on the list where a seat comes first, where it waits (here not long enough:
        # its place is given up); and a game the room has no table of.
        for rules, said in (
            ("holdem", "no seat came free at Tre posti in time"),
            ("italian-32", "the room has no table of italian-32"),
        ):
            told: list[str] = []
            with pytest.raises(ConnectError) as refused:
                join_table(
                    room.address, rules=rules, sessions=tmp_path / "t3", wait_seconds=1,
                    say=told.append,
                )  # fmt: skip
            assert str(refused.value) == said
            if rules == "holdem":
                assert told == [
                    "Tre posti is full: you are number 2 on its waiting list, and the room keeps "
                    "the first seat that frees for you (Ctrl+C to give up)…"
                ]
            assert room.tables()[0]["waiting"] == 1  # the place given up
        # A second terminal finds no seat open (the free one is kept): it waits, and gives
        # its place up with Ctrl+C.
        with _playing(room, tmp_path / "t2", "--table", where, "--lang", "en") as process:
            assert process.stdout is not None
            said = process.stdout.readline()
            assert said.startswith("Tre posti is full: you are number 2 on its waiting list"), said
            assert room.tables()[0]["waiting"] == 2
            err = _ctrl_c(process)
        assert process.returncode == 2, err
        assert err.splitlines() == ["mazziere: error: stopped waiting for a seat at Tre posti"]
        assert room.tables()[0]["waiting"] == 1
        asyncio.run(play([terminal], lambda: terminal.session.seated))
        listed = room.tables()[0]
        assert (listed["players"], listed["waiting"], listed["open_seats"]) == (3, 0, 0)
        for person in seated:
            loop.run_until_complete(person.disconnect())
    finally:
        loop.close()
        for person in seated:
            person.close()
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_terminal_invited_to_a_full_private_table_waits_for_a_seat(
    room: Room, tmp_path: Path
) -> None:
    """``--invite CODE`` at a private table whose seats are taken (once: "the table is full",
    and the command ended): the terminal joins its waiting list, which the room keeps for the
    players its host let in, and sits when a friend leaves."""
    code = private_table(room, tmp_path / "host", "holdem")  # two seats, whoever is invited
    friends = [Person(room, 11), Person(room, 12)]
    invite = f"/api/invites/{code}"

    async def fill() -> str:
        where = ""
        for person in friends:
            asked = person.post(f"{invite}/requests", {"buy_in": 200})
            assert asked.status_code == 201, asked.text
            where = str(asked.json()["table_id"])
            await person.connect()
            person.plays.add(where)
            await person.send(type="sit", table=where, buy_in=200)
        await until(lambda: friends[0].http.get(invite).json()["open_seats"] == 0, 30)
        return where

    def waiting() -> int:
        return int(friends[0].http.get(invite).json()["waiting"])

    loop = asyncio.new_event_loop()
    try:
        where = loop.run_until_complete(fill())
        joined: list[Joined] = []
        said: list[str] = []
        third = threading.Thread(
            target=lambda: joined.append(
                join_table(
                    room.address,
                    invite=code,
                    sessions=tmp_path / "t3",
                    say=said.append,
                    wait_seconds=60,
                )
            )
        )
        third.start()
        loop.run_until_complete(until(lambda: waiting() == 1, 30))
        assert not joined  # it waits
        # The friend leaves at the end of the hand being played: the people play it out
        # (their loop runs while the terminal waits; a hand left to the clock took 90 s).
        loop.run_until_complete(friends[1].send(type="leave", table=where))
        loop.run_until_complete(until(lambda: not third.is_alive(), 60))
        (seat,) = joined
        assert seat.table.id == where and seat.table.private
        assert said[0].startswith("Amici holdem is full: you are number 1 on its waiting list")
        assert said[1].startswith("A seat is yours at Amici holdem for "), said
        for person in friends:
            loop.run_until_complete(person.disconnect())
    finally:
        loop.close()
        for person in friends:
            person.close()
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit
