"""Protocol fuzzing against the live server: Hypothesis sends sequences of messages (valid,
mutated, oversized, out of order, replayed, for other seats, all at once) on a player's
second socket while two people play at the table on their first ones.

After every sequence: the server is up, every message got exactly one answer in order
(an ``ack``, a ``pong``, a ``snapshot`` for ``watch``/``resume``, or an ``error`` with a
code, the one expected where the message is known to be bad), and the room's ledger adds
up to zero with no account drifted.  At the end the server is killed (SIGKILL) and
started again: the table rebuilt from its stored commands is the one the players saw.
Also the limits: a socket's burst of messages past its allowance is refused with
``rate_limited``, and an account's sixth socket is refused and closed.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from mazziere.server.protocol import MAX_MESSAGE_BYTES, ErrorCode, unbatch
from mazziere.server.settings import Settings
from tests.play_room import Person, Room
from tests.server_db import room_settings  # noqa: F401  (the fixture)

CODES = {code.value for code in ErrorCode}
REPLIES = {"ack", "pong", "snapshot", "error"}
ANY: frozenset[str] = frozenset()
"""Any answer will do (an ack, or an error with one of the protocol's codes)."""


class Fuzzer:
    """A raw socket of a seated player: what it sent, and every message it received."""

    def __init__(self, room: Room, person: Person) -> None:
        self.room = room
        self.person = person
        self.ws: ClientConnection | None = None
        self.got: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        url = self.room.address.replace("http://", "ws://") + "/ws"
        self.ws = await connect(url, additional_headers={"Cookie": self.person.cookie_header()})
        self.reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self.got.extend(unbatch(json.loads(text)))
        except ConnectionClosed:
            pass

    def replies(self) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] in REPLIES]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


Message = tuple[str | bytes, frozenset[str]]
"""What is sent (text or a binary frame) and the answers allowed (error codes, or
``ack``/``pong``/``snapshot``; empty: anything of the protocol)."""


def messages(table: str, other: str, turns: Callable[[], list[dict[str, Any]]]) -> Any:
    """Hypothesis: one message, from every family the issue names."""

    def text(message: dict[str, Any]) -> str:
        return json.dumps(message)

    def current_turn(_: object) -> dict[str, Any]:
        seen = turns()
        return seen[-1] if seen else {"action_id": 1}

    kinds = st.sampled_from(["fold", "check", "call", "bet", "raise", "all-in", "draw", "parol"])
    valid = st.one_of(
        st.just((text({"type": "ping", "v": 1}), frozenset({"pong"}))),
        # (Any text of one line: no control characters, nor halves of a surrogate pair.)
        st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=280).map(
            lambda t: (
                text({"type": "chat", "v": 1, "table": table, "text": t}),
                frozenset({"ack"}),
            )
        ),
        st.just((text({"type": "watch", "v": 1, "table": table}), frozenset({"snapshot"}))),
        st.integers(0, 10_000).map(
            lambda seq: (
                text({"type": "resume", "v": 1, "table": table, "last_seq": seq}),
                frozenset({"snapshot"}),
            )
        ),
        # Someone else's turn, or one already over, or this player's own (then legal or not).
        st.tuples(st.integers(0, 3), kinds, st.none() | st.integers(0, 5_000)).map(
            lambda t: (
                text(
                    {
                        "type": "act",
                        "v": 1,
                        "table": table,
                        "action_id": max(1, current_turn(None)["action_id"] - t[0]),
                        "kind": t[1],
                        **({} if t[2] is None else {"amount": t[2]}),
                    }
                ),
                ANY,
            )
        ),
    )
    bad = st.one_of(
        st.binary(max_size=64).map(lambda b: (b, frozenset({ErrorCode.MALFORMED.value}))),
        # A chat line with a new line or an escape in it.
        st.tuples(st.text(max_size=20), st.characters(categories=("Cc",)), st.text(max_size=20))
        .map("".join)
        .map(
            lambda t: (
                text({"type": "chat", "v": 1, "table": table, "text": t}),
                frozenset({ErrorCode.MALFORMED.value}),
            )
        ),
        st.text(max_size=40)
        .filter(lambda t: not t.strip().startswith("{"))
        .map(lambda t: (t, frozenset({ErrorCode.MALFORMED.value}))),
        st.just(("x" * (MAX_MESSAGE_BYTES + 10), frozenset({ErrorCode.TOO_LARGE.value}))),
        st.text(min_size=1, max_size=12)
        .filter(
            lambda t: (
                t
                not in {
                    "act",
                    "chat",
                    "ping",
                    "watch",
                    "resume",
                    "sit",
                    "leave",
                    "sit_out",
                    "sit_in",
                    "top_up",
                    "answer",
                    "auto_post",
                    "add_bots",
                    "unwatch",
                }
            )
        )
        .map(lambda t: (text({"type": t, "v": 1}), frozenset({ErrorCode.UNKNOWN_TYPE.value}))),
        st.integers(2, 99).map(
            lambda v: (text({"type": "ping", "v": v}), frozenset({ErrorCode.BAD_VERSION.value}))
        ),
        st.just(
            (
                text({"type": "act", "v": 1, "table": "999999", "action_id": 1, "kind": "fold"}),
                frozenset({ErrorCode.NO_TABLE.value}),
            )
        ),
        st.just(
            (
                text({"type": "act", "v": 1, "table": other, "action_id": 1, "kind": "fold"}),
                frozenset({ErrorCode.NOT_SEATED.value}),
            )
        ),
        st.just(
            (
                text({"type": "sit", "v": 1, "table": table, "buy_in": 100}),
                frozenset({ErrorCode.REFUSED.value}),
            )
        ),
        st.integers(10**6, 2**62).map(
            lambda n: (
                text({"type": "act", "v": 1, "table": table, "action_id": n, "kind": "check"}),
                frozenset({ErrorCode.STALE_ACTION.value}),
            )
        ),
        # Mutations of a valid act: a field of the wrong type, one too many, one missing.
        st.sampled_from(
            [
                {"type": "act", "v": 1, "table": table, "action_id": "one", "kind": "fold"},
                {"type": "act", "v": 1, "table": table, "action_id": 1, "kind": "fold", "x": 1},
                {"type": "act", "v": 1, "table": table, "kind": "fold"},
                {"type": "act", "v": 1, "table": table, "action_id": 1, "kind": "shove"},
                {"type": "act", "v": 1, "table": table, "action_id": -5, "kind": "fold"},
                {
                    "type": "act",
                    "v": 1,
                    "table": table,
                    "action_id": 1,
                    "kind": "bet",
                    "amount": -1,
                },
                {
                    "type": "act",
                    "v": 1,
                    "table": table,
                    "action_id": 1,
                    "kind": "draw",
                    "cards": ["Zz", "Ah", "Kd", "2c", "3c", "4c"],
                },
                {"type": "chat", "v": 1, "table": table, "text": ""},
                {"type": "chat", "v": 1, "table": table, "text": "x" * 281},
                {"type": "watch", "v": 1, "table": ""},
                [1, 2, 3],
            ]
        ).map(lambda m: (text(m), frozenset({ErrorCode.MALFORMED.value}))),
    )
    return st.one_of(valid, bad)


async def answers(fuzzer: Fuzzer, before: int, count: int) -> list[dict[str, Any]]:
    for _ in range(600):
        got = fuzzer.replies()[before:]
        if len(got) >= count:
            return got
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} answers expected, {len(fuzzer.replies()) - before} came")


def check(sent: list[Message], got: list[dict[str, Any]]) -> None:
    assert len(got) == len(sent), (len(got), len(sent))
    for (message, allowed), reply in zip(sent, got, strict=True):
        assert reply["type"] in REPLIES
        if reply["type"] == "error":
            assert reply["code"] in CODES, reply
            if reply["code"] == ErrorCode.RATE_LIMITED.value:
                continue  # all at once: past the socket's burst, refused before being read
            if allowed:
                assert reply["code"] in allowed, (message[:200], reply)
        elif allowed:
            assert reply["type"] in allowed, (message[:200], reply)


def table_now(fuzzer: Fuzzer, table: str) -> dict[str, Any]:
    snapshot = [m for m in fuzzer.got if m["type"] == "snapshot" and m["table"] == table][-1]
    state = snapshot["state"]
    seats = sorted((s["name"], s["stack"], s["status"]) for s in state["seats"])
    decision = state.get("decision") or {}
    return {
        "seats": seats,
        "hand": state.get("hand"),
        "to_act": decision.get("name"),
        "seq": snapshot["seq"],
    }


def test_fuzzed_message_sequences_change_nothing_they_should_not(
    room_settings: Settings,  # noqa: F811
    tmp_path: Path,
) -> None:
    room = Room(room_settings.database_url, tmp_path, room_settings.database_schema)
    room.start()
    loop = asyncio.new_event_loop()
    try:
        tables = room.tables()
        table = next(t for t in tables if t["rules"] == "holdem")
        other = next(t for t in tables if t["id"] != table["id"])
        tid = str(table["id"])
        people = [Person(room, seed) for seed in (41, 42)]

        async def sit() -> Fuzzer:
            for seat, person in enumerate(people, start=1):
                await person.connect()
                person.plays.add(tid)
                await person.send(type="sit", table=tid, buy_in=table["max_buy_in"], seat=seat)
            fuzzer = Fuzzer(room, people[0])
            await fuzzer.open()
            for _ in range(400):
                if people[0].seen("turn", tid):
                    break
                await asyncio.sleep(0.05)
            return fuzzer

        fuzzer = loop.run_until_complete(sit())

        def turns() -> list[dict[str, Any]]:
            return [m for m in fuzzer.got if m["type"] == "turn" and m["table"] == tid]

        @settings(
            max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        @given(st.lists(messages(tid, str(other["id"]), turns), min_size=1, max_size=40))
        def sequence(sent: list[Message]) -> None:
            async def send() -> list[dict[str, Any]]:
                assert fuzzer.ws is not None
                before = len(fuzzer.replies())
                for message, _ in sent:  # all at once: the high rate, out of any order
                    await fuzzer.ws.send(message)
                got = await answers(fuzzer, before, len(sent))
                await asyncio.sleep(1.2)  # the socket's allowance refills a little
                return got

            check(sent, loop.run_until_complete(send()))
            assert room.process is not None and room.process.poll() is None
            audit = room.audit()
            assert audit["total"] == 0 and not audit["drifted"], audit

        sequence()

        # The table as the players saw it, then killed and rebuilt from its stored commands.
        async def before_kill() -> dict[str, Any]:
            for person in people:
                await person.disconnect()  # nobody acts any more: the table waits
            await asyncio.sleep(1.0)
            assert fuzzer.ws is not None
            await fuzzer.ws.send(json.dumps({"type": "watch", "v": 1, "table": tid}))
            await answers(fuzzer, len(fuzzer.replies()) - 1, 1)
            await asyncio.sleep(0.5)
            seen = table_now(fuzzer, tid)
            await fuzzer.close()
            return seen

        seen = loop.run_until_complete(before_kill())
        room.stop(signal.SIGKILL)
        room.start()

        async def after_restart() -> dict[str, Any]:
            again = Fuzzer(room, people[0])
            await again.open()
            assert again.ws is not None
            await again.ws.send(json.dumps({"type": "watch", "v": 1, "table": tid}))
            await answers(again, 0, 1)
            now = table_now(again, tid)
            await again.close()
            return now

        rebuilt = loop.run_until_complete(after_restart())
        assert rebuilt["seats"] == seen["seats"]
        assert (rebuilt["hand"], rebuilt["to_act"]) == (seen["hand"], seen["to_act"])
        audit = room.audit()
        assert audit["total"] == 0 and not audit["drifted"], audit
    finally:
        for person in locals().get("people", []):
            person.close()
        loop.close()
        room.stop()


def test_a_burst_past_the_allowance_is_refused_and_a_sixth_socket_is_closed(
    tmp_path: Path,
) -> None:
    room = Room(
        f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        tmp_path,
        env={
            "MAZZIERE_WS_MESSAGE_BURST": "20",
            "MAZZIERE_WS_MESSAGES_PER_SECOND": "2",
            "MAZZIERE_WS_CONNECTIONS_PER_ACCOUNT": "5",
        },
    )
    room.start()
    try:
        person = Person(room, 7)

        async def scenario() -> tuple[list[dict[str, Any]], list[Fuzzer], Fuzzer]:
            sockets = [Fuzzer(room, person) for _ in range(5)]
            for socket in sockets:
                await socket.open()
            first = sockets[0]
            assert first.ws is not None
            for _ in range(60):
                await first.ws.send(json.dumps({"type": "ping", "v": 1}))
            got = await answers(first, 0, 60)
            sixth = Fuzzer(room, person)
            await sixth.open()
            assert sixth.reader is not None
            await asyncio.wait_for(sixth.reader, 30)  # the room closes it
            for socket in sockets:
                await socket.close()
            return got, sockets, sixth

        got, sockets, sixth = asyncio.run(scenario())
        pongs = [m for m in got if m["type"] == "pong"]
        limited = [m for m in got if m.get("code") == ErrorCode.RATE_LIMITED.value]
        assert len(pongs) + len(limited) == 60
        assert 20 <= len(pongs) <= 25 and len(limited) >= 35  # the burst, then 2 a second
        assert all(s.got[0]["type"] == "welcome" for s in sockets)
        assert [m["type"] for m in sixth.got] == ["error"]
        assert sixth.got[0]["code"] == ErrorCode.RATE_LIMITED.value
        assert sixth.ws is not None and sixth.ws.close_code == 4429
        person.close()
    finally:
        room.stop()
