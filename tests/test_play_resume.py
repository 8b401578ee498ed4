"""Resume after a restart, on SQLite and on PostgreSQL: the real server process is stopped
in the middle of a hand, once with SIGTERM and once with SIGKILL (no chance to tidy up),
started again on the same database, and each hand goes on at the same decision to the same
result as a hand that never stopped.

Two people play heads-up Hold'em with a fixed policy (check, else call), so the hand's
result depends only on its cards.  The hand that never stopped is played again here, away
from the server, by a room table dealt from the seed the server revealed at the end.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from mazziere.fair import BUTTON_LABEL, FairRandom, deck_order
from mazziere.game.core import Action
from mazziere.room.cash import CashSettings, CashTable
from mazziere.room.clock import ManualClock
from mazziere.room.structure import Stakes
from mazziere.server.settings import Settings
from tests.play_room import Person, Room, running_room, until


def passive(person: Person, turn: dict[str, Any]) -> dict[str, Any]:
    kinds = turn["legal"]["kinds"]
    return {"kind": "check" if "check" in kinds else "call" if "call" in kinds else "show"}


class Script:
    """Check or call, but leave every turn after the first ``limit`` unanswered."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def __call__(self, person: Person, turn: dict[str, Any]) -> dict[str, Any] | bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return passive(person, turn)


def pending_turn(person: Person, table: str) -> dict[str, Any] | None:
    turns = [m for m in person.messages if m.get("table") == table and m["type"] in
             ("turn", "snapshot")]  # fmt: skip
    if not turns:
        return None
    last = turns[-1]
    return last if last["type"] == "turn" else last.get("turn")


async def first_part(
    room: Room, which: int, seeds: tuple[int, int]
) -> tuple[list[Person], dict[str, Any], dict[str, Any]]:
    table = [t for t in room.tables() if t["rules"] == "holdem"][which]
    people = [Person(room, seed) for seed in seeds]
    for person in people:
        await person.connect()
    tid = str(table["id"])
    script = Script(3)  # three actions of the first hand, then the hand waits on a decision
    for person in people:
        person.scripted[tid] = script
        person.plays.add(tid)
    for seat, person in enumerate(people, start=1):
        await person.send(type="sit", table=tid, buy_in=table["max_buy_in"], seat=seat)
    await until(lambda: len([m for m in people[0].seen("record", tid)
                             if m["record"]["type"] == "action"]) >= 3)  # fmt: skip
    await asyncio.sleep(0.3)
    turn = pending_turn(people[0], tid)
    assert turn is not None and turn["hand"] == 1
    return people, table, turn


async def second_part(
    room: Room, people: list[Person], table: dict[str, Any], before: dict[str, Any]
) -> dict[str, Any]:
    tid = str(table["id"])
    for person in people:
        welcomed = len(person.seen("welcome"))
        await person.disconnect()
        await person.connect()
        await until(lambda p=person, w=welcomed: len(p.seen("welcome")) > w)
    for person in people:
        assert person.seen("welcome")[-1]["tables"] == [tid]  # the seat is there
        await person.send(type="resume", table=tid, last_seq=person.last_seq(tid))
    await until(lambda: all(p.seen("snapshot", tid) for p in people))
    snapshot = people[0].seen("snapshot", tid)[-1]
    assert snapshot["turn"]["action_id"] == before["action_id"]  # the same decision
    assert snapshot["turn"]["name"] == before["name"]
    assert snapshot["turn"]["deadline"] > 10  # its clock started again (30 s)
    for person in people:
        person.scripted[tid] = passive
    actor = next(p for p in people if p.name == before["name"])
    mine = next(m for m in reversed(actor.messages) if m["type"] == "snapshot")["turn"]
    await actor.send(type="act", table=tid, action_id=mine["action_id"], **passive(actor, mine))
    await until(lambda: any(m["hand"] == 1 for m in people[0].seen("hand_ended", tid)))
    ended = next(m for m in people[0].seen("hand_ended", tid) if m["hand"] == 1)
    for person in people:
        await person.disconnect()
        person.close()
    return ended


def never_stopped(seed: str, table: dict[str, Any], people: list[Person]) -> list[int]:
    """The same hand dealt from the same seed and played by the same policy, no stop."""
    stakes = table["stakes"]
    settings = CashSettings(
        rules="holdem", seats=table["seats"],
        stakes=Stakes(small_blind=stakes["small_blind"], big_blind=stakes["big_blind"]),
        min_buy_in=table["min_buy_in"], max_buy_in=table["max_buy_in"], name=str(table["id"]),
    )  # fmt: skip
    rng = FairRandom(bytes(32))
    room_table = CashTable(settings, clock=ManualClock(), rng=rng)
    secret = bytes.fromhex(seed)

    def deck(plan: Any) -> list[Any]:
        return deck_order(secret, "holdem", players=len(plan.seats), rng=rng)[0]

    room_table.deck_source = deck
    for seat, person in enumerate(people, start=1):
        room_table.sit_down(person.name, table["max_buy_in"], seat=seat)
    rng.restart(secret, BUTTON_LABEL)
    assert room_table.start_hand()
    while room_table.in_hand:
        decision = room_table.decision
        assert decision is not None
        kinds = {k.value for k in decision.legal.kinds}
        kind = "check" if "check" in kinds else "call" if "call" in kinds else "show"
        room_table.act(decision.name, Action.parse(kind))
    hand = room_table.hand
    assert hand is not None and hand.result is not None
    return list(hand.result.stacks)


def test_a_hand_goes_on_after_the_server_stops(room_settings: Settings, tmp_path: Path) -> None:
    url, schema = room_settings.database_url, room_settings.database_schema
    with running_room(url, tmp_path, schema) as room:

        async def scenario() -> list[tuple[list[Person], dict[str, Any], dict[str, Any]]]:
            gentle = await first_part(room, 0, (11, 12))  # a hand waits at the first table
            room.stop(signal.SIGTERM)
            room.start()
            hard = await first_part(room, 1, (13, 14))  # and one at the second
            ended = [(*gentle[:2], await second_part(room, *gentle))]
            room.stop(signal.SIGKILL)  # no chance to tidy anything up
            room.start()
            ended.append((*hard[:2], await second_part(room, *hard)))
            return ended

        results = asyncio.run(scenario())
        audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit
    for people, table, ended in results:
        assert ended["result"]["stacks"] == never_stopped(ended["seed"], table, people)
