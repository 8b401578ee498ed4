"""A multi-table tournament end to end, on SQLite and on PostgreSQL: the real server process,
thirteen scripted people over real WebSockets in the lobby's scheduled Hold'em tournament
(three tables of six seats, levels of two hands), from registration to prizes.

The tournament starts at its time and seats the field over three tables (5, 4, 4); the
first players out break a table (twelve fit in two; the cards are the CSPRNG's, so when
enough go at once it is the final table straight away), whose players are told ``moved``
and follow it to their new table; the final table is drawn when six are left.  Once players
have moved, the server is stopped with every table waiting on a decision (SIGKILL on
SQLite, SIGTERM on PostgreSQL): it starts again on the same database and the tournament
goes on at the same tables with the same stacks and decisions.  At the end every prize is
in a wallet, the places go from 1 to 13, and the ledger adds up to zero and every chip is
on the tables (checked while it plays, too).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import signal
from pathlib import Path
from typing import Any

from mazziere.server.settings import Settings
from tests.play_room import Person, Room, close_balanced, until

PLAYERS = 13
EVERY_SECONDS = 14
"""The lobby's scheduled tournaments start this often."""
REGISTERING_SECONDS = 9
"""The time the test leaves itself to register everyone."""


class Entrant(Person):
    """A person in the tournament: plays at whichever table it is moved to, and takes up a
    decision waiting for it in a snapshot; while ``holding``, it leaves its turns waiting."""

    holding = False

    async def _react(self, message: dict[str, Any]) -> None:
        if message["type"] == "moved":
            self.plays.add(message["table"])
        if self.holding and message["type"] == "turn":
            return
        await super()._react(message)
        turn = message.get("turn") if message["type"] == "snapshot" else None
        if (
            turn is not None
            and not self.holding
            and turn["name"] == self.name
            and turn["legal"] is not None
        ):
            # Back after a restart, or moved: the decision waiting is ours (a repeat of an
            # action already sent is acknowledged, not applied twice).
            await super()._react(turn)

    def choose(self, table: str, legal: dict[str, Any]) -> dict[str, Any]:
        if "all-in" in legal["kinds"] and self.rng.random() < 0.3:
            return {"kind": "all-in"}  # so that it ends in a few dozen hands
        return super().choose(table, legal)


def details(room: Room, tournament: int) -> dict[str, Any]:
    with room.http() as http:
        answer: dict[str, Any] = http.get(f"/api/tournaments/{tournament}").json()
        return answer


async def join(people: list[Entrant]) -> None:
    """(Re)connect everyone; each follows the tables its welcome lists and resumes them."""
    for person in people:
        welcomed = len(person.seen("welcome"))
        await person.disconnect()
        await person.connect()
        await until(lambda p=person, w=welcomed: len(p.seen("welcome")) > w)
        for table in person.seen("welcome")[-1]["tables"]:
            person.plays.add(table)
            await person.send(type="resume", table=table, last_seq=person.last_seq(table))


async def quiet(people: list[Entrant]) -> None:
    """Wait until nothing has happened for a second (every table waits on a held turn)."""
    count = -1
    while count != sum(len(p.messages) for p in people):
        count = sum(len(p.messages) for p in people)
        await asyncio.sleep(1.0)


def waiting_turns(people: list[Entrant]) -> dict[str, tuple[int, int, str]]:
    """Each table's decision waiting (hand, turn id, player), as its players last heard."""
    turns: dict[str, tuple[int, int, str]] = {}
    for person in people:
        for message in person.messages:
            turn = message if message["type"] == "turn" else message.get("turn")
            if message["type"] in ("turn", "snapshot") and turn is not None:
                key = (turn["hand"], turn["action_id"], turn["name"])
                turns[turn["table"]] = max(turns.get(turn["table"], key), key)
    return turns


async def restart(room: Room, people: list[Entrant], tournament: int, how: signal.Signals) -> None:
    """Hold every turn, stop the server ``how`` and start it again: the tournament's tables
    are where they were, with the same players and stacks, each waiting on the same
    decision of the same hand; then play on."""
    for person in people:
        person.holding = True
    await quiet(people)
    seating = details(room, tournament)["seating"]
    turns = waiting_turns(people)
    room.stop(how)
    room.start()
    marks = {p.name: len(p.messages) for p in people}
    await join(people)
    assert details(room, tournament)["seating"] == seating
    for table in seating:
        tid = str(table["id"])
        person = next(p for p in people if p.name == table["players"][0]["player"])
        await until(
            lambda p=person, t=tid: any(
                m["type"] == "snapshot" and m["table"] == t for m in p.messages[marks[p.name] :]
            )
        )
        snapshot = [m for m in person.seen("snapshot", tid)][-1]
        stacks = {s["name"]: s["stack"] for s in snapshot["state"]["seats"]}
        assert stacks == {s["player"]: s["stack"] for s in table["players"]}, (stacks, table)
        if tid in turns and snapshot["turn"] is not None:
            hand, action_id, name = turns[tid]
            turn = snapshot["turn"]
            assert (turn["hand"], turn["action_id"], turn["name"]) == (hand, action_id, name)
    for person in people:  # play on: each takes up its waiting decision from a snapshot
        person.holding = False
        for table in person.seen("welcome")[-1]["tables"]:
            await person.send(type="resume", table=table, last_seq=person.last_seq(table))


async def next_scheduled(room: Room) -> dict[str, Any]:
    """The lobby's scheduled Hold'em tournament, if it leaves the time to register; else the
    one that opens when it starts."""
    while True:
        with room.http() as http:
            lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
        found = [t for t in lobby["tournaments"] if t["rules"] == "holdem" and t["starts_at"]]
        if found:
            left = dt.datetime.fromisoformat(found[0]["starts_at"]) - dt.datetime.now(dt.UTC)
            if left > dt.timedelta(seconds=REGISTERING_SECONDS):
                return found[0]
        await asyncio.sleep(0.5)


async def scenario(room: Room, how: signal.Signals) -> tuple[dict[str, Any], list[Entrant]]:
    people = [Entrant(room, 70 + k) for k in range(PLAYERS)]
    event = await next_scheduled(room)
    for person in people:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text

    def drawn() -> bool:
        # "running" is stored first, and the tournament's task then draws its tables: a look
        # in between finds it running with no table yet.
        now = details(room, event["id"])
        return (
            now["state"] == "running" and sum(len(t["players"]) for t in now["seating"]) == PLAYERS
        )

    await until(drawn, EVERY_SECONDS + 20)
    started = details(room, event["id"])
    assert [len(t["players"]) for t in started["seating"]] in ([5, 4, 4], [4, 5, 4], [4, 4, 5])
    chips = PLAYERS * started["starting_stack"]
    await join(people)

    def moved() -> list[dict[str, Any]]:
        return [m for p in people for m in p.seen("moved")]

    # The first ones out break a table (twelve fit in two), or, if enough go at once, the
    # final table is drawn: either way players are moved, and told.
    await until(lambda: bool(moved()), seconds=60)
    await restart(room, people, event["id"], how)
    levels: list[int] = []  # the level played, as the tournament's page says it
    for tries in range(1200):
        now = details(room, event["id"])
        if now["state"] == "finished":
            break
        levels.append(now["level"])
        if tries % 10 == 0:  # the ledger adds up, and no chip is lost, while it plays
            audit = room.audit()
            assert audit["total"] == 0 and not audit["drifted"], audit
            stacks = [s["stack"] for t in now["seating"] for s in t["players"]]
            assert not now["seating"] or sum(stacks) == chips, now["seating"]
            # Places are given as players finish: below everyone still seated.
            placed = [s for s in now["standings"] if s["place"] is not None]
            assert all(s["chips"] == 0 for s in placed)
            assert all(s["place"] > len(stacks) for s in placed) or not now["seating"]
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"the tournament did not finish: {now}")
    assert levels and levels[0] >= 1 and levels == sorted(levels), levels  # never back
    assert now["level"] is None  # over
    # Whatever the cards, the three tables end as one: the final table, everyone moved to it.
    assert "final_table" in {m["reason"] for m in moved()}, moved()
    for person in people:
        await person.disconnect()
    # Over: nobody plays at any of its tables, the winner either (their next tournament's
    # page once opened the finished table, or one they had been moved from).
    for person in people:
        welcomed = len(person.seen("welcome"))
        await person.connect()
        await until(lambda p=person, w=welcomed: len(p.seen("welcome")) > w)
        assert person.seen("welcome")[-1]["tables"] == [], person.seen("welcome")[-1]
        await person.disconnect()
    return now, people


def test_a_scheduled_tournament_over_three_tables_to_its_prizes(
    room_settings: Settings, tmp_path: Path
) -> None:
    room = Room(room_settings.database_url, tmp_path, room_settings.database_schema)
    room.env = {
        "MAZZIERE_SCHEDULED_EVERY_SECONDS": str(EVERY_SECONDS),
        "MAZZIERE_SCHEDULED_LEVEL_HANDS": "2",
    }
    room.start()
    try:
        # SIGKILL on SQLite (no chance to tidy anything up), SIGTERM on PostgreSQL.
        how = signal.SIGKILL if room_settings.database_url.startswith("sqlite") else signal.SIGTERM
        finished, people = asyncio.run(scenario(room, how))
        places = sorted(s["place"] for s in finished["standings"])
        assert places == list(range(1, PLAYERS + 1))
        prizes = [s["prize"] for s in sorted(finished["standings"], key=lambda s: s["place"])]
        pool = finished["buy_in"] * PLAYERS
        assert sum(prizes) == pool and prizes == sorted(prizes, reverse=True)
        wallets = [p.http.get("/api/wallet").json()["balance"] for p in people]
        start = room_settings.starting_grant - finished["buy_in"] - finished["fee"]
        assert sum(wallets) == PLAYERS * start + pool  # every prize paid, to the last chip
        for person in people:
            played = person.http.get("/api/hands", params={"limit": 500}).json()["hands"]
            assert played and {h["tournament_id"] for h in played} == {finished["id"]}
        close_balanced(room, people)
    finally:
        room.stop()
