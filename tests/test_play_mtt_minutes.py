"""A multi-table tournament whose levels last minutes, end to end against the real server.

A club's lobby file offers a scheduled Hold'em tournament over tables of four, levels of one
minute and a break of one minute after each level.  Eight scripted people register and
play over real WebSockets.  The levels go by the clock, one clock for every table: the
break comes to both tables within seconds of each other, no hand is dealt at any table while
the tournament's page says it is on a break, every table deals again when it ends, and the
level after it is the second.  Then the players push, and the tournament goes to its
prizes, with the ledger at zero.

SQLite only: the clock's rules are the tournament task's, the same on either database, and
the PostgreSQL path of a multi-table tournament is played through in ``test_play_mtt``;
this one lasts some three minutes of real time.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from tests.play_room import Room, close_balanced, until
from tests.test_play_mtt import Entrant, details, join, next_scheduled

PLAYERS = 8
LOBBY = """
[[tournament]]
name = "Torneo a tempo"
rules = "holdem"
buy_in = 100
starting_stack = 3000
seats = 4
max_players = 8
min_players = 2
level_minutes = 1
break_every = 1
break_minutes = 1
"""


class Patient(Entrant):
    """Plays the seeded policy without the entrants' pushes, until ``pushing``: the
    tournament must outlast its first level and its break."""

    pushing = False

    def choose(self, table: str, legal: dict[str, Any]) -> dict[str, Any]:
        if self.pushing and "all-in" in legal["kinds"]:
            return {"kind": "all-in"}
        choice = super(Entrant, self).choose(table, legal)
        if choice["kind"] == "all-in":
            return {"kind": "call" if "call" in legal["kinds"] else "check"}
        return choice


def hands_started(people: list[Patient]) -> dict[str, set[int]]:
    """Each table's hands whose start someone heard."""
    started: dict[str, set[int]] = {}
    for person in people:
        for message in person.seen("hand_started"):
            started.setdefault(message["table"], set()).add(message["hand"])
    return started


def break_told(people: list[Patient]) -> dict[str, float]:
    """When each table first told one of its players that its break began (monotonic s)."""
    told: dict[str, float] = {}
    for person in people:
        for at, message in person.timed:
            level = message.get("level") if message["type"] == "level" else None
            if level is not None and level["on_break"]:
                table = message["table"]
                told[table] = min(told.get(table, at), at)
    return told


class Timed(Patient):
    """Also notes when each message arrived."""

    def __init__(self, room: Room, seed: int) -> None:
        super().__init__(room, seed)
        self.timed: list[tuple[float, dict[str, Any]]] = []

    async def _react(self, message: dict[str, Any]) -> None:
        self.timed.append((time.monotonic(), message))
        await super()._react(message)


async def scenario(room: Room) -> tuple[dict[str, Any], list[Timed]]:
    people = [Timed(room, 300 + k) for k in range(PLAYERS)]
    event = await next_scheduled(room)
    assert event["name"] == "Torneo a tempo"
    for person in people:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text

    def drawn() -> bool:
        now = details(room, event["id"])
        return now["state"] == "running" and sum(len(t["players"]) for t in now["seating"]) == 8

    await until(drawn, 40)
    await join(people)
    tables = {str(t["id"]) for t in details(room, event["id"])["seating"]}
    assert len(tables) == 2
    assert details(room, event["id"])["level"] == 1

    # The first level: a minute of play, then the break at every table at once (the tables
    # playing then: players out may have broken one, or the final table been drawn).
    await until(lambda: details(room, event["id"])["on_break"], 100)
    playing = {str(t["id"]) for t in details(room, event["id"])["seating"]}
    await until(lambda: playing <= set(break_told(people)), 10)
    told = {table: at for table, at in break_told(people).items() if table in playing}
    assert max(told.values()) - min(told.values()) < 10, told  # one clock (a hand plays out)
    # On the break no table deals.
    dealt = hands_started(people)
    await asyncio.sleep(5)
    resting = details(room, event["id"])
    assert resting["on_break"]
    assert [t["on_break"] for t in resting["seating"]] == [True] * len(resting["seating"])
    assert hands_started(people) == dealt
    # It ends by the clock: every table deals again, at the second level.
    await until(lambda: not details(room, event["id"])["on_break"], 75)
    assert details(room, event["id"])["level"] == 2
    assert not any(t["on_break"] for t in details(room, event["id"])["seating"])
    await until(
        lambda: all(len(hands_started(people).get(t, ())) > len(dealt.get(t, ())) for t in playing),
        30,
    )
    for person in people:  # now to the end
        person.pushing = True
    for _ in range(1800):
        now = details(room, event["id"])
        if now["state"] == "finished":
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"the tournament did not finish: {now}")
    for person in people:
        await person.disconnect()
    return now, people


@pytest.mark.clock
def test_a_tournament_by_minutes_breaks_at_every_table_at_once(tmp_path: Path) -> None:
    lobby = tmp_path / "lobby.toml"
    lobby.write_text(LOBBY, encoding="utf-8")
    room = Room(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", tmp_path)
    room.env = {
        "MAZZIERE_LOBBY_FILE": str(lobby),
        "MAZZIERE_SCHEDULED_EVERY_SECONDS": "14",
        "MAZZIERE_NEXT_HAND_SECONDS": "2",  # a pace of people: both tables last the level
    }
    room.start()
    try:
        finished, people = asyncio.run(scenario(room))
        places = sorted(s["place"] for s in finished["standings"])
        assert places == list(range(1, PLAYERS + 1))
        prizes = [s["prize"] for s in finished["standings"]]
        assert sum(prizes) == finished["buy_in"] * PLAYERS
        close_balanced(room, people)
    finally:
        room.stop()
