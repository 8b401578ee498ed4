"""The WebSocket protocol module: what it accepts, what it refuses, and its document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from mazziere.server.protocol import (
    MAX_MESSAGE_BYTES,
    Act,
    Batch,
    ErrorCode,
    HandStarted,
    Pong,
    ProtocolError,
    Turn,
    dump,
    dump_batch,
    parse_client,
    parse_server,
    schema_markdown,
    unbatch,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def test_docs_protocol_md_is_what_the_code_writes() -> None:
    assert DOC.read_text(encoding="utf-8") == schema_markdown(), (
        "docs/protocol.md is stale: run `mazziere protocol-doc > docs/protocol.md`"
    )


def test_every_message_has_a_version_and_a_type() -> None:
    doc = schema_markdown()
    for direction in doc.split("```json")[1:]:
        schema = json.loads(direction.split("```")[0])
        for name, model in schema["$defs"].items():
            if "properties" in model and "type" in model["properties"]:
                assert {"type", "v"} <= set(model["properties"]), name


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", ErrorCode.MALFORMED),
        ('"a string"', ErrorCode.MALFORMED),
        ("{}", ErrorCode.UNKNOWN_TYPE),
        ('{"type": "teleport", "v": 1}', ErrorCode.UNKNOWN_TYPE),
        ('{"type": "ping", "v": 9}', ErrorCode.BAD_VERSION),
        ('{"type": "act", "v": 1, "table": "t", "kind": "call"}', ErrorCode.MALFORMED),
        (
            '{"type": "act", "v": 1, "table": "t", "action_id": 1, "kind": "win"}',
            ErrorCode.MALFORMED,
        ),
        ('{"type": "sit", "v": 1, "table": "t", "buy_in": -5}', ErrorCode.MALFORMED),
        ('{"type": "ping", "v": 1, "extra": true}', ErrorCode.MALFORMED),
        (
            '{"type": "chat", "v": 1, "table": "t", "text": "' + "x" * 281 + '"}',
            ErrorCode.MALFORMED,
        ),
        (
            '{"type": "chat", "v": 1, "table": "t", "text": "' + "x" * MAX_MESSAGE_BYTES + '"}',
            ErrorCode.TOO_LARGE,
        ),
        # One line of text: no new line, no terminal escape sequence (a screen cleared).
        ('{"type": "chat", "v": 1, "table": "t", "text": "one\\ntwo"}', ErrorCode.MALFORMED),
        ('{"type": "chat", "v": 1, "table": "t", "text": "\\u001b[2J"}', ErrorCode.MALFORMED),
    ],
)
def test_bad_messages_are_refused_with_a_code(text: str, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client(text)
    assert caught.value.code is code


def test_client_messages_parse_into_their_models() -> None:
    act = parse_client(
        '{"type": "act", "v": 1, "table": "t1", "action_id": 3, "kind": "draw", "cards": ["Ah"]}'
    )
    assert act == Act(table="t1", action_id=3, kind="draw", cards=["Ah"])
    assert parse_client(dump(act)) == act


def test_server_messages_round_trip() -> None:
    started = HandStarted(
        table="t1",
        seq=4,
        hand=2,
        rules="holdem",
        names=["a", "b"],
        seats=[1, 3],
        button=3,
        commitment="ab" * 32,
    )
    turn = Turn(
        table="t1",
        seq=5,
        hand=2,
        action_id=9,
        name="a",
        position=0,
        legal=None,
        deadline=12.5,
        time_bank=30,
    )
    for message in (started, turn):
        assert parse_server(dump(message)) == message
    batch = dump_batch([dump(started), dump(turn)])
    assert parse_server(batch) == Batch(messages=[started, turn])
    assert unbatch(json.loads(batch)) == [json.loads(dump(started)), json.loads(dump(turn))]
    assert unbatch(json.loads(dump(turn))) == [json.loads(dump(turn))]


@pytest.mark.parametrize("inside", [[], ["turn"], ["turn", "batch"]])
def test_a_batch_holds_two_messages_or_more_and_no_batch(inside: list[str]) -> None:
    texts = {"turn": dump(Turn(table="t1", seq=5, hand=2, action_id=9, name="a", position=0,
                               legal=None, deadline=12.5, time_bank=30)),
             "batch": dump_batch([dump(Pong()), dump(Pong())])}  # fmt: skip
    with pytest.raises(ValidationError):
        parse_server(dump_batch([texts[kind] for kind in inside]))
