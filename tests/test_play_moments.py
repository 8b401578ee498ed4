"""End-to-end, on SQLite and on PostgreSQL: each rule set's own moments played over real
WebSockets by two scripted people and bots (a random bot at each Italian table, two at the
Hold'em one), a sit & go from registration to prizes, and the ledger adding up to zero
throughout (checked while the tables and the sit & go play, and at the end).

The cards come from the CSPRNG, so the people play policies that go looking for each
moment (the Hold'em short stack shoves and the other player raises over it; at the Italian
tables they open blind, draw four, say parol) and the tables play until every moment has
happened, at most ``MAX_HANDS`` hands each:

* italian-classic: an opening, a blind opening, a draw of four, a parol pot carried to the
  next hand (which plays it);
* italian-32: a draw of four, a parole split;
* Hold'em: side pots.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mazziere.server.settings import Settings
from tests.play_room import Person, Room, close_balanced, safe, until

MAX_HANDS = 150
"""The most hands a table plays looking for its moments."""

MOMENTS_SECONDS = 300
"""A table that stops dealing fails the test instead of holding up the suite."""
BOTS = {"holdem": 2, "italian-classic": 1, "italian-32": 1}
"""The bots that sit with the two people at each table (called again when they leave broke)."""


def hands_of(person: Person, table: str) -> dict[int, list[dict[str, Any]]]:
    """Each hand's messages at ``table``, as ``person`` received them."""
    hands: dict[int, list[dict[str, Any]]] = {}
    for message in person.messages:
        if message.get("table") == table and "hand" in message:
            hands.setdefault(message["hand"], []).append(message)
    return hands


def records(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["record"] for m in messages if m["type"] == "record"]


def opened(messages: list[dict[str, Any]], *, blind: bool) -> bool:
    seen_cards = False
    for record in records(messages):
        if record["type"] == "hole_cards":
            seen_cards = True
        if record["type"] == "action" and record["kind"] == "bet" and seen_cards != blind:
            return True
    return False


def drew_four(messages: list[dict[str, Any]]) -> bool:
    return any(r["type"] == "discard" and len(r["cards"]) == 4 for r in records(messages))


def parol_carried(hands: dict[int, list[dict[str, Any]]], number: int) -> bool:
    carried = any(r["type"] == "carry" and r.get("parol") for r in records(hands[number]))
    following = hands.get(number + 1, [])
    played = any(r["type"] == "start" and r["setup"].get("parol_pot") for r in records(following))
    return carried and played


def parole_split(messages: list[dict[str, Any]]) -> bool:
    parols = sum(1 for r in records(messages) if r["type"] == "action" and r["kind"] == "parol")
    ended = [m for m in messages if m["type"] == "hand_ended"]
    return bool(ended) and parols >= 2 and len(ended[0]["result"]["pots"][0]["winners"]) >= 2


def side_pots(messages: list[dict[str, Any]]) -> bool:
    ended = [m for m in messages if m["type"] == "hand_ended"]
    return bool(ended) and len(ended[0]["result"]["pots"]) >= 2


MOMENTS: dict[str, dict[str, Callable[[dict[int, list[dict[str, Any]]], int], bool]]] = {
    "italian-classic": {
        "an opening": lambda hands, n: opened(hands[n], blind=False),
        "a blind opening": lambda hands, n: opened(hands[n], blind=True),
        "a draw of four": lambda hands, n: drew_four(hands[n]),
        "a parol pot carried to the next hand": parol_carried,
    },
    "italian-32": {
        "a draw of four": lambda hands, n: drew_four(hands[n]),
        "a parole split": lambda hands, n: parole_split(hands[n]),
    },
    "holdem": {"side pots": lambda hands, n: side_pots(hands[n])},
}


def seeker(rules: str, role: int) -> Callable[[Person, dict[str, Any]], dict[str, Any] | None]:
    """The policy of person ``role`` (0 or 1) at a table of ``rules``."""

    def choose(person: Person, turn: dict[str, Any]) -> dict[str, Any] | None:
        legal = turn["legal"]
        kinds = legal["kinds"]
        table = turn["table"]
        before_deal = not person.hole.get(table)
        if "draw" in kinds:
            hole = person.hole.get(table, [])
            count = 4 if person.rng.random() < 0.5 else person.rng.choice([0, 1, 2, 3])
            return {"kind": "draw", "cards": hole[:count]}
        if rules == "holdem":
            if role == 0 and "all-in" in kinds:
                return {"kind": "all-in"}  # the short stack shoves
            if role == 1 and "raise" in kinds and legal["to_call"] > 0:
                return {"kind": "raise", "amount": legal["min_to"]}  # over the shove
            return {"kind": "call"} if "call" in kinds else {"kind": safe(legal)}
        if "parol" in kinds:
            return {"kind": "parol"}
        if "bet" in kinds and (not before_deal or role == 0) and person.rng.random() < 0.6:
            return {"kind": "bet", "amount": legal["min_to"]}  # open (blind, before the deal)
        if "check" in kinds:
            return {"kind": "check"}
        return {"kind": "call"} if "call" in kinds else {"kind": safe(legal)}

    return choose


async def play_moments(room: Room) -> dict[str, set[str]]:
    lobby = room.tables()
    people = [Person(room, seed) for seed in (21, 22)]
    for person in people:
        await person.connect()
    tables: dict[str, dict[str, Any]] = {}
    for rules in MOMENTS:
        table = next(t for t in lobby if t["rules"] == rules)
        tid = str(table["id"])
        tables[rules] = table
        for role, person in enumerate(people):
            person.scripted[tid] = seeker(rules, role)
            person.plays.add(tid)
            short = rules == "holdem" and role == 0
            buy_in = table["min_buy_in"] if short else table["max_buy_in"]
            person.rebuys[tid] = buy_in
            await person.send(type="sit", table=tid, buy_in=buy_in)
        await until(functools.partial(seated, people, tid))  # then the bots: BOTS of them
        people[0].due(people[0].calling, tid)  # asked now: a fill waits for this one's ack
        await people[0].send(type="add_bots", table=tid, count=BOTS[rules], kind="random")
        people[0].fills[tid] = len(people) + BOTS[rules]  # bots that leave broke come back
    found: dict[str, set[str]] = {rules: set() for rules in MOMENTS}
    audits = 0
    while True:
        for rules, table in tables.items():
            tid = str(table["id"])
            hands = hands_of(people[0], tid)
            for number in hands:
                for moment, happened in MOMENTS[rules].items():
                    if (
                        moment not in found[rules]
                        and number + 1 in hands
                        and happened(hands, number)
                    ):
                        found[rules].add(moment)
        played = {r: len(people[0].seen("hand_ended", str(t["id"]))) for r, t in tables.items()}
        complete = all(found[r] == set(MOMENTS[r]) for r in MOMENTS)
        if complete or all(n >= MAX_HANDS for n in played.values()):
            break
        audits += 1
        if audits % 40 == 0:  # the ledger adds up while the tables play, too
            audit = room.audit()
            assert audit["total"] == 0 and not audit["drifted"], audit
        await asyncio.sleep(0.05)
    for person in people:
        await person.disconnect()
        person.close()
    return found


def seated(people: list[Person], tid: str) -> bool:
    """Whether the last seats message at ``tid`` shows every one of ``people``."""
    seats = people[0].seen("seats", tid)
    return bool(seats) and {p.name for p in people} <= {s["name"] for s in seats[-1]["seats"]}


def shover(person: Person, turn: dict[str, Any]) -> dict[str, Any] | None:
    """A sit & go that ends soon: all-in half the time it is offered."""
    if "all-in" in turn["legal"]["kinds"] and person.rng.random() < 0.5:
        return {"kind": "all-in"}
    return None  # the person's usual policy


async def play_sit_and_go(room: Room) -> tuple[dict[str, Any], list[Person]]:
    with room.http() as http:
        lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
    event = next(
        t for t in lobby["tournaments"] if t["rules"] == "italian-32" and t["starts_at"] is None
    )  # the sit & go (not the scheduled tournament)
    people = [Person(room, 30 + k) for k in range(event["max_players"])]
    for person in people:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text
    for person in people:
        await person.connect()  # the welcome lists the tournament's table
    await asyncio.sleep(1.0)
    tables = {t for p in people for m in p.seen("welcome") for t in m["tables"]}
    assert len(tables) == 1, tables
    table = tables.pop()
    for person in people:
        person.plays.add(table)
        person.scripted[table] = shover
        await person.send(type="resume", table=table, last_seq=0)
    with room.http() as http:
        for tries in range(1200):
            states = http.get("/api/tournaments", params={"state": "finished"}).json()
            done = [t for t in states["tournaments"] if t["id"] == event["id"]]
            if done:
                break
            if tries % 20 == 0:  # the ledger adds up while the sit & go plays, too
                audit = room.audit()
                assert audit["total"] == 0 and not audit["drifted"], audit
            await asyncio.sleep(0.1)
        else:
            hands = len(people[0].seen("hand_ended", table))
            last = people[0].messages[-3:]
            raise AssertionError(
                f"the sit & go did not finish in two minutes: {hands} hands, "
                f"last {last}, errors {people[0].errors[-3:]}"
            )
    for person in people:
        await person.disconnect()
    return done[0], people


NEXT_HAND_SECONDS = "0.05"
"""The pause between hands: time for a broke person's rebuy to land before the next deal.

Without it, bots that act at once dealt a hand every few milliseconds; a person who went
broke was back only dozens of hands later, and the Hold'em short stack, broke after most
shoves, sat out most of the hands that could make side pots (none in 150, once)."""


def run(settings: Settings, folder: Path) -> None:
    env = {"MAZZIERE_NEXT_HAND_SECONDS": NEXT_HAND_SECONDS}
    room = Room(settings.database_url, folder, settings.database_schema, env=env)
    room.start()
    try:
        found = asyncio.run(asyncio.wait_for(play_moments(room), timeout=MOMENTS_SECONDS))
        for rules, moments in MOMENTS.items():
            assert found[rules] == set(moments), (rules, set(moments) - found[rules])
        finished, people = asyncio.run(play_sit_and_go(room))
        assert finished["state"] == "finished"
        wallets = [p.http.get("/api/wallet").json()["balance"] for p in people]
        pool = finished["buy_in"] * finished["max_players"]
        start = settings.starting_grant - finished["buy_in"] - finished["fee"]
        assert sum(wallets) == len(people) * start + pool  # every prize paid, to the last chip
        assert max(wallets) > start
        # Each player's hands (all of the sit & go: they played nothing else) say so.
        for person in people:
            played = person.http.get("/api/hands", params={"limit": 500}).json()["hands"]
            assert played and {h["tournament_id"] for h in played} == {finished["id"]}
        close_balanced(room, people)
    finally:
        room.stop()


def test_each_rule_sets_moments_and_a_sit_and_go(room_settings: Settings, tmp_path: Path) -> None:
    run(room_settings, tmp_path)
