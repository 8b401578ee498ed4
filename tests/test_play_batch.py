"""Batches over the real server's socket: what is queued for a connection at once leaves as
one ``batch`` frame, in the order it was queued, and a message queued alone leaves alone.

A returning client's catch-up is such a burst: a ``resume`` makes the table queue every
event missed and then a snapshot, in one go.  A person sits alone at a Hold'em table (no
hand is dealt) and says three chat lines; a second socket of the same account resumes from
the start and must get all of it in one frame, the events exactly as the first socket saw
them and in the same order, then the snapshot.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from mazziere.server import protocol as p
from mazziere.server.tables import RECENT_EVENTS
from tests.play_room import Person, running_room, until

LINES = ("uno", "due", "tre")


async def catch_up(person: Person, table: str, *, watch: bool = False) -> tuple[str, list[str]]:
    """The welcome's frame and the frames that answer a ``resume`` from 0 (or a ``watch``)
    and a ``ping``."""
    url = person.room.address.replace("http://", "ws://") + "/ws"
    asked: dict[str, Any] = {"type": "watch"} if watch else {"type": "resume", "last_seq": 0}
    async with connect(url, additional_headers={"Cookie": person.cookie_header()}) as ws:
        welcome = await asyncio.wait_for(ws.recv(), 10)
        await ws.send(json.dumps({**asked, "v": 1, "table": table}))
        await ws.send(json.dumps({"type": "ping", "v": 1}))
        frames: list[str] = []
        while not frames or json.loads(frames[-1]).get("type") != "pong":
            frame = await asyncio.wait_for(ws.recv(), 10)
            assert isinstance(frame, str)
            frames.append(frame)
    assert isinstance(welcome, str)
    return welcome, frames


async def sit_and_chat(person: Person) -> str:
    table = next(t for t in person.room.tables() if t["rules"] == "holdem")
    tid = str(table["id"])
    await person.connect()
    await person.send(type="sit", table=tid, buy_in=table["max_buy_in"])
    for line in LINES:
        await person.send(type="chat", table=tid, text=line)
    await until(lambda: len(person.seen("chat", tid)) == len(LINES), 30)
    await asyncio.sleep(0.2)  # nothing more is coming: no hand is dealt to one player
    return tid


def test_a_resume_catches_up_in_one_batch_and_a_pong_comes_alone(tmp_path: Path) -> None:
    with running_room(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", tmp_path) as room:
        person = Person(room, 1)

        async def scenario() -> tuple[str, str, list[str]]:
            try:
                table = await sit_and_chat(person)
                welcome, frames = await catch_up(person, table)
            finally:
                await person.disconnect()
            return table, welcome, frames

        table, welcome, frames = asyncio.run(scenario())
        person.close()
    assert not person.errors, person.errors
    assert p.parse_server(welcome) == p.Welcome(player=person.name, tables=[table])
    burst, pong = frames  # the catch-up in one frame; the pong after it, alone
    assert pong == p.dump(p.Pong())
    batch = p.parse_server(burst)
    assert isinstance(batch, p.Batch)
    *events, snapshot = json.loads(burst)["messages"]
    seen: list[dict[str, Any]] = [m for m in person.messages if "seq" in m]
    assert events == seen  # every event, as it was sent live, in the same order
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["text"] for e in events if e["type"] == "chat"] == list(LINES)
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == events[-1]["seq"]


def test_a_resume_from_far_behind_gets_the_last_hand_from_its_start(tmp_path: Path) -> None:
    """A client too far behind for the table's kept events (a page opened again, last seen
    seq 0) gets the last hand from its start, then the snapshot: the page's log tells the
    hand it comes back to (a snapshot alone left it empty).  So does a spectator's first
    look, with no card it may not see."""
    env = {"MAZZIERE_BOT_SECONDS": "0", "MAZZIERE_NEXT_HAND_SECONDS": "0.05"}
    with running_room(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", tmp_path, env=env) as room:
        person = Person(room, 2)

        async def scenario() -> tuple[str, list[str], list[str]]:
            table = next(t for t in room.tables() if t["rules"] == "holdem")
            tid = str(table["id"])
            try:
                await person.connect()
                person.plays.add(tid)
                person.rebuys[tid] = table["max_buy_in"]  # the hands go on whoever goes broke
                person.fills[tid] = 3
                await person.send(type="sit", table=tid, buy_in=table["max_buy_in"])
                await until(lambda: person.last_seq(tid) > RECENT_EVENTS + 50, 120)
                # Then the table waits for the person's next decision: nothing more comes.  (A
                # turn got before this was answered: the table went on after it, and its live
                # events reached the second socket before its catch-up; seen in a full run.)
                person.plays.discard(tid)
                unanswered = len(person.messages)
                await until(lambda: pending(person, tid, after=unanswered), 30)
                _, frames = await catch_up(person, tid)
                _, watched = await catch_up(spectator, tid, watch=True)
            finally:
                await person.disconnect()
            return tid, frames, watched

        spectator = Person(room, 3)
        table, frames, watched = asyncio.run(scenario())
        person.close()
        spectator.close()
    assert not person.errors, person.errors
    burst = json.loads(frames[0])
    *events, snapshot = burst.get("messages", [burst])  # (a snapshot alone is no batch)
    assert events, "a snapshot alone"
    first = events[0]
    assert first["type"] == "hand_started" and first["seq"] > RECENT_EVENTS, first
    assert first["hand"] == snapshot["state"]["hand"]
    seen = [
        m for m in person.messages if m.get("table") == table and m.get("seq", 0) >= first["seq"]
    ]
    assert events == seen  # the hand's events as the person saw them live, their own cards too
    # A spectator's first look: the same hand from its start, every hole card face down.
    *shown, last = json.loads(watched[0])["messages"]
    assert [m["seq"] for m in shown] == [m["seq"] for m in events]
    assert shown[0]["type"] == "hand_started" and last["type"] == "snapshot"
    dealt = [m["record"] for m in shown if m["type"] == "record"]
    holes = [r["cards"] for r in dealt if r["type"] == "hole_cards"]
    assert holes and all(set(cards) == {"??"} for cards in holes), holes


def pending(person: Person, table: str, *, after: int) -> bool:
    """Whether the last message of ``table`` the person got is a turn of theirs, got after
    their first ``after`` messages."""
    later = [m for m in person.messages[after:] if m.get("table") == table]
    return bool(later) and later[-1]["type"] == "turn" and later[-1]["name"] == person.name
