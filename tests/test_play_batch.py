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
from tests.play_room import Person, running_room, until

LINES = ("uno", "due", "tre")


async def catch_up(person: Person, table: str) -> tuple[str, list[str]]:
    """The welcome's frame and the frames that answer a ``resume`` from 0 and a ``ping``."""
    url = person.room.address.replace("http://", "ws://") + "/ws"
    async with connect(url, additional_headers={"Cookie": person.cookie_header()}) as ws:
        welcome = await asyncio.wait_for(ws.recv(), 10)
        await ws.send(json.dumps({"type": "resume", "v": 1, "table": table, "last_seq": 0}))
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
