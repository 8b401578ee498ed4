"""The WebSocket endpoint in-process: Origin check, log-in, every kind of bad message
refused with its code while nothing changes, and a connection's writer sending what is
queued at once in batches (the real server's socket: test_play_batch.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from fastapi import FastAPI, WebSocket
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mazziere.room.structure import Stakes
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import MemoryStore, Player, TableConfig, TableService
from mazziere.server.ws import BATCH_CHARACTERS, Connection, Play, _write, add_websocket_route
from tests.server_client import inbox

PLAYERS = {"anna-token": Player(1, "anna"), "bruno-token": Player(2, "bruno")}


async def from_header(websocket: WebSocket) -> Player | None:
    return PLAYERS.get(websocket.headers.get("x-test-token", ""))


@pytest.fixture
def room() -> Iterator[tuple[TestClient, MemoryStore]]:
    store = MemoryStore({1: 10_000, 2: 10_000})
    bus = LocalBus()
    service = TableService(store, bus, bot_seconds=0.0)
    config = TableConfig(
        id=7,
        name="t",
        rules="holdem",
        seats=6,
        stakes=Stakes(small_blind=5, big_blind=10),
        min_buy_in=200,
        max_buy_in=2000,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.open(config)
        app.state.play = Play(service, bus, from_header, allowed_origins=["http://friend.example"])
        yield
        await service.stop()

    app = FastAPI(lifespan=lifespan)
    add_websocket_route(app)
    with TestClient(app) as client:
        yield client, store


def until_type(messages: Iterator[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(m for m in messages if m["type"] == kind)


def test_other_origins_and_strangers_are_turned_away(room: tuple[TestClient, MemoryStore]) -> None:
    client, _ = room
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example", "x-test-token": "anna-token"}
        ) as ws,
    ):
        ws.receive_text()
    assert closed.value.code == 4403
    with client.websocket_connect("/ws", headers={"origin": "http://friend.example"}) as ws:
        assert next(inbox(ws))["code"] == "unauthenticated"


def test_bad_messages_are_refused_and_change_nothing(
    room: tuple[TestClient, MemoryStore],
) -> None:
    client, store = room
    with client.websocket_connect("/ws", headers={"x-test-token": "anna-token"}) as anna:
        anna_in = inbox(anna)
        assert next(anna_in) == {"v": 1, "type": "welcome", "player": "anna", "tables": []}
        anna.send_text(json.dumps({"type": "sit", "v": 1, "table": "7", "buy_in": 1000, "seat": 1}))
        assert until_type(anna_in, "ack")["of"] == "sit"
        anna.send_text(json.dumps({"type": "add_bots", "v": 1, "table": "7", "count": 1}))
        assert until_type(anna_in, "ack")["of"] == "add_bots"
        with client.websocket_connect("/ws", headers={"x-test-token": "bruno-token"}) as bruno:
            bruno_in = inbox(bruno)
            next(bruno_in)
            stored = len(store.commands[7])
            bad: list[tuple[Any, str]] = [
                ("{not json", "malformed"),
                ("x" * (p.MAX_MESSAGE_BYTES + 1), "too_large"),
                (json.dumps({"type": "shuffle", "v": 1}), "unknown_type"),
                (json.dumps({"type": "ping", "v": 3}), "bad_version"),
                (json.dumps({"type": "leave", "v": 1, "table": "99"}), "no_table"),
                (json.dumps({"type": "leave", "v": 1, "table": "7"}), "not_seated"),
                (json.dumps({"type": "act", "v": 1, "table": "7", "action_id": 1,
                             "kind": "fold"}), "not_seated"),
                (json.dumps({"type": "top_up", "v": 1, "table": "7", "amount": 10}),
                 "not_seated"),
            ]  # fmt: skip
            for text, code in bad:
                bruno.send_text(text)
                error = until_type(bruno_in, "error")
                assert error["code"] == code, (text[:60], error)
            bruno.send_bytes(b"\x00\x01")
            assert until_type(bruno_in, "error")["code"] == "malformed"
            bruno.send_text(json.dumps({"type": "ping", "v": 1}))
            assert until_type(bruno_in, "pong") == {"v": 1, "type": "pong"}
            assert len(store.commands[7]) == stored  # nothing of that was a command
            # Bruno sits too, and a spectator's view never gets here: his own turn ids only.
            bruno.send_text(json.dumps({"type": "watch", "v": 1, "table": "7"}))
            snapshot = until_type(bruno_in, "snapshot")
            for hole in (snapshot["state"]["game"] or {"hole": []})["hole"]:
                assert set(hole) <= {"??"}
        # Out of turn and replayed: anna quotes a turn that is not hers, then a retry.
        turn = until_type(anna_in, "turn")
        while turn["name"] != "anna":
            turn = until_type(anna_in, "turn")
        kind = "check" if "check" in turn["legal"]["kinds"] else "call"
        act = {"type": "act", "v": 1, "table": "7", "action_id": turn["action_id"], "kind": kind}
        anna.send_text(json.dumps(act))
        assert until_type(anna_in, "ack")["action_id"] == turn["action_id"]
        anna.send_text(json.dumps(act))
        assert until_type(anna_in, "ack")["repeated"] is True
        count = len(store.commands[7])
        anna.send_text(json.dumps({**act, "action_id": turn["action_id"] + 100}))
        assert until_type(anna_in, "error")["code"] == "stale_action"
        assert len(store.commands[7]) == count


def test_a_seated_players_socket_closed_and_opened_again_is_told_to_the_table(
    room: tuple[TestClient, MemoryStore],
) -> None:
    """Bruno's socket closes: anna, at his table, is told, and her snapshot says it; his
    socket opened again is told too."""
    client, _ = room

    def sit(ws: Any, seat: int) -> Iterator[dict[str, Any]]:
        messages = inbox(ws)
        next(messages)  # the welcome
        ws.send_text(json.dumps({"type": "sit", "v": 1, "table": "7", "buy_in": 1000,
                                 "seat": seat}))  # fmt: skip
        assert until_type(messages, "ack")["of"] == "sit"
        return messages

    bruno_token = {"x-test-token": "bruno-token"}
    with client.websocket_connect("/ws", headers={"x-test-token": "anna-token"}) as anna:
        anna_in = sit(anna, 1)
        with client.websocket_connect("/ws", headers=bruno_token) as bruno:
            sit(bruno, 2)
        gone = until_type(anna_in, "presence")
        assert gone == {"v": 1, "type": "presence", "table": "7", "name": "bruno",
                        "connected": False}  # fmt: skip
        anna.send_text(json.dumps({"type": "resume", "v": 1, "table": "7", "last_seq": 0}))
        seats = until_type(anna_in, "snapshot")["state"]["seats"]
        assert {s["name"]: s["connected"] for s in seats} == {"anna": True, "bruno": False}
        with client.websocket_connect("/ws", headers=bruno_token) as bruno:
            assert next(inbox(bruno))["tables"] == ["7"]
            assert until_type(anna_in, "presence") == {**gone, "connected": True}


def frames_after(texts: list[str]) -> list[str]:
    """The frames a socket gets when ``texts`` were queued for it, then its close, all before
    its writer ran (as a table's burst is queued before the writer wakes)."""
    app = FastAPI()

    @app.websocket("/ws")
    async def burst(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(Player(1, "anna"))
        for text in texts:
            connection.offer(text)
        connection.close()
        await _write(websocket, connection)

    frames: list[str] = []
    with (
        TestClient(app) as client,
        client.websocket_connect("/ws") as ws,
        pytest.raises(WebSocketDisconnect),
    ):
        while True:
            frames.append(ws.receive_text())
    return frames


def test_what_is_queued_at_once_leaves_in_batches_in_order_then_the_close() -> None:
    texts = [p.dump(p.Error(code=p.ErrorCode.REFUSED, message=str(n))) for n in range(250)]
    frames = frames_after(texts)
    assert [len(p.parse_server(frame).messages) for frame in frames] == [100, 100, 50]
    assert frames[0] == p.dump_batch(texts[:100])  # the texts as they were, joined
    assert [m for f in frames for m in p.unbatch(json.loads(f))] == [json.loads(t) for t in texts]
    # One message alone leaves as it is; a frame stops growing past BATCH_CHARACTERS.
    assert frames_after(texts[:1]) == texts[:1]
    large = [p.dump(p.Error(code=p.ErrorCode.REFUSED, message=f"{n}" * 100_000)) for n in range(5)]
    assert BATCH_CHARACTERS < 3 * 100_000
    frames = frames_after(large)
    assert [len(p.parse_server(frame).messages) for frame in frames] == [3, 2]
    assert [m for f in frames for m in p.unbatch(json.loads(f))] == [json.loads(t) for t in large]
