"""The WebSocket protocol: every message either side sends, as typed pydantic models.

A message is one JSON object with a ``type`` (which model it is) and a
version ``v``.  Clients send :data:`ClientMessage`; the room sends
:data:`ServerMessage`.  Every event of a table carries the ``table`` and that
table's sequence number ``seq`` (1, 2, 3, ... per table), so a client that
reconnects says the last one it saw (:class:`Resume`) and receives what it
missed, or a :class:`Snapshot`.

Several messages queued for a connection at once arrive as one
:class:`Batch`, in order; a client handles each as if it had come alone
(:func:`unbatch`).

:func:`parse_client` reads one client message and raises
:class:`ProtocolError` with an :class:`ErrorCode` for anything else.
``docs/protocol.md`` holds the JSON Schema of both directions, written by
:func:`schema_markdown` (``mazziere protocol-doc``).

>>> parse_client('{"type": "act", "v": 1, "table": "t1", "action_id": 7, "kind": "call"}')
Act(v=1, type='act', table='t1', action_id=7, kind='call', amount=None, cards=[])
>>> parse_client('{"type": "dance", "v": 1}')
Traceback (most recent call last):
...
mazziere.server.protocol.ProtocolError: unknown_type: unknown message type 'dance'
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "CHAT_LIMIT",
    "MAX_MESSAGE_BYTES",
    "VERSION",
    "Ack",
    "Act",
    "AddBots",
    "Answer",
    "AutoPost",
    "Batch",
    "Chat",
    "ChatSaid",
    "ClientMessage",
    "Error",
    "ErrorCode",
    "HandEnded",
    "HandRecord",
    "HandStarted",
    "Held",
    "Leave",
    "Moved",
    "OfferMade",
    "Ping",
    "Pong",
    "ProtocolError",
    "RemoveBot",
    "Resume",
    "SeatKept",
    "SeatsChanged",
    "ServerMessage",
    "Sit",
    "SitIn",
    "SitOut",
    "Snapshot",
    "TableClosed",
    "TableState",
    "TopUp",
    "Turn",
    "Unwatch",
    "Watch",
    "Welcome",
    "dump",
    "dump_batch",
    "parse_client",
    "parse_server",
    "schema_markdown",
    "unbatch",
]

VERSION = 1
"""The protocol version this room speaks; a message of another version is refused."""

MAX_MESSAGE_BYTES = 64 * 1024
"""A client message longer than this is refused without being read."""

CHAT_LIMIT = 280
"""The longest chat line, in characters."""

TableId = Annotated[str, Field(min_length=1, max_length=64, description="The table's id.")]


class ErrorCode(StrEnum):
    """Why the room refused a message; nothing changed when it says so."""

    MALFORMED = "malformed"
    """Not JSON, not an object, or fields of the wrong shape."""
    TOO_LARGE = "too_large"
    """Longer than :data:`MAX_MESSAGE_BYTES`."""
    UNKNOWN_TYPE = "unknown_type"
    BAD_VERSION = "bad_version"
    NO_TABLE = "no_table"
    """No such table."""
    NOT_SEATED = "not_seated"
    """The connection's player has no seat at that table."""
    NOT_YOUR_TURN = "not_your_turn"
    STALE_ACTION = "stale_action"
    """The action quotes a turn that is no longer the current one."""
    ILLEGAL_ACTION = "illegal_action"
    """The engine (or the clock) does not allow that action now."""
    REFUSED = "refused"
    """The table does not allow it now (seat taken, buy-in out of range, ...)."""
    RATE_LIMITED = "rate_limited"
    UNAUTHENTICATED = "unauthenticated"
    SESSION_ENDED = "session_ended"
    """The account's sessions ended (its password was changed, the operator suspended it,
    they expired): the socket is closed, and opens again only with a new log-in."""
    INTERNAL = "internal"
    """The room failed; the message changed nothing."""
    STORAGE_UNAVAILABLE = "storage_unavailable"
    """The database refuses or does not answer for now: the table is held (see
    :class:`Held`), or a socket's log-in could not be read (it is closed with 1013)."""


class ProtocolError(Exception):
    """A message the room refuses: an :class:`ErrorCode` and a sentence."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = Field(default=1, description="The protocol version.")


# ----------------------------------------------------------- client -> room


class Watch(_Message):
    """Follow a table as a spectator (a seated player follows their tables anyway); a
    private table only its host and the players the host approved.  The answer: the hand
    being played (or the last) from its start, as a spectator sees it, then a snapshot."""

    type: Literal["watch"] = "watch"
    table: TableId


class Unwatch(_Message):
    """Stop following a table one does not sit at."""

    type: Literal["unwatch"] = "unwatch"
    table: TableId


class Sit(_Message):
    """Sit down at a cash table with ``buy_in`` chips (from the account's balance)."""

    type: Literal["sit"] = "sit"
    table: TableId
    buy_in: int = Field(gt=0)
    seat: int | None = Field(default=None, ge=1, le=10, description="None: any free seat.")


class Resume(_Message):
    """Back after a gap: send what was missed after ``last_seq`` (0: everything), then a
    snapshot; when that is older than the events the table keeps, the last hand from its
    start (if kept), then the snapshot."""

    type: Literal["resume"] = "resume"
    table: TableId
    last_seq: int = Field(ge=0)


class Act(_Message):
    """Act in the hand: ``action_id`` quotes the :class:`Turn` being answered."""

    type: Literal["act"] = "act"
    table: TableId
    action_id: int = Field(ge=1)
    kind: Literal[
        "fold", "check", "call", "bet", "raise", "all-in", "parol", "draw", "show", "muck"
    ]
    amount: int | None = Field(default=None, ge=0, description="bet, raise: the total.")
    cards: list[Annotated[str, Field(min_length=2, max_length=3)]] = Field(
        default_factory=list, max_length=5, description="draw: the discards."
    )


class Answer(_Message):
    """Answer an offer before the deal (post the invito, pay to rejoin a parol pot)."""

    type: Literal["answer"] = "answer"
    table: TableId
    accept: bool


class SitOut(_Message):
    """Sit out from the next hand."""

    type: Literal["sit_out"] = "sit_out"
    table: TableId


class SitIn(_Message):
    """Come back; ``post``: post what is owed to be dealt in at once."""

    type: Literal["sit_in"] = "sit_in"
    table: TableId
    post: bool = False


class AutoPost(_Message):
    """italian-classic cash tables: post the invito without being asked (on by default)."""

    type: Literal["auto_post"] = "auto_post"
    table: TableId
    on: bool


class TopUp(_Message):
    """Add chips to one's stack between hands (up to the table's maximum buy-in)."""

    type: Literal["top_up"] = "top_up"
    table: TableId
    amount: int = Field(gt=0)


class Leave(_Message):
    """Leave the table (at once between hands, at the end of the hand otherwise)."""

    type: Literal["leave"] = "leave"
    table: TableId


def _no_control_characters(text: str) -> str:
    """A chat line is one line of text: a new line or a terminal's escape sequence in it
    would be another player's screen (or an operator's, reading it) taken over."""
    if any(unicodedata.category(character) == "Cc" for character in text):
        raise ValueError("a chat line has no control characters (a new line, an escape)")
    return text


class Chat(_Message):
    """Say something at the table."""

    type: Literal["chat"] = "chat"
    table: TableId
    text: Annotated[
        str,
        Field(min_length=1, max_length=CHAT_LIMIT, description="One line: no control characters."),
        AfterValidator(_no_control_characters),
    ]


class AddBots(_Message):
    """Fill empty seats of a table with bots: anyone seated at a lobby table, only the host
    at a private table (seated or not)."""

    type: Literal["add_bots"] = "add_bots"
    table: TableId
    count: int = Field(ge=1, le=9)
    kind: Literal["basic", "random", "strong"] = Field(
        default="basic", description="The bots of mazziere.bots: basic, random or strong."
    )


class RemoveBot(_Message):
    """A private table's host sends a bot away: it leaves between hands (at once if no hand
    is playing), its chips cashed out."""

    type: Literal["remove_bot"] = "remove_bot"
    table: TableId
    name: str = Field(min_length=1, max_length=40)


class Ping(_Message):
    """Are you there?  The room answers :class:`Pong`."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    Watch
    | Unwatch
    | Sit
    | Resume
    | Act
    | Answer
    | SitOut
    | SitIn
    | AutoPost
    | TopUp
    | Leave
    | Chat
    | AddBots
    | RemoveBot
    | Ping,
    Field(discriminator="type"),
]
"""Any message a client may send."""


# ----------------------------------------------------------- room -> client


class Welcome(_Message):
    """The first message on a connection: who the room takes the player to be."""

    type: Literal["welcome"] = "welcome"
    player: str
    tables: list[str] = Field(description="The tables where the player sits.")


class Ack(_Message):
    """The room took the message (for an action: stored, then announced)."""

    type: Literal["ack"] = "ack"
    table: str | None = None
    of: str = Field(description="The type of the message acknowledged.")
    action_id: int | None = None
    repeated: bool = Field(default=False, description="A retry of an action already applied.")


class Error(_Message):
    """The room refused a message; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    table: str | None = None
    of: str | None = Field(default=None, description="The type of the message refused.")


class Pong(_Message):
    """The answer to :class:`Ping`."""

    type: Literal["pong"] = "pong"


class Moved(_Message):
    """A tournament moved the player to another of its tables: the connection follows
    ``table`` from now on (no longer ``from_table``), and a ``snapshot`` of it comes next."""

    type: Literal["moved"] = "moved"
    table: str = Field(description="The table the player sits at now.")
    from_table: str
    seat: int
    reason: Literal["balance", "break", "final_table"] = Field(
        description="Tables balanced, the old table broken, or the final table drawn."
    )


class SeatKept(_Message):
    """A seat is free at a full table whose waiting list the player joined (over REST), and
    the room keeps it for them for ``seconds``: a ``sit`` there takes it.  Then their place
    is lost and the seat kept for the next player waiting.  Not a table event: it goes to
    the player's connections wherever they are, followed tables or not."""

    type: Literal["seat_kept"] = "seat_kept"
    table: str
    seconds: int = Field(description="How long the seat is kept for the player still.")


class _Event(_Message):
    table: str
    seq: int = Field(ge=1, description="This table's sequence number.")


class Turn(_Event):
    """Someone must act: an action must quote ``action_id``."""

    type: Literal["turn"] = "turn"
    hand: int
    action_id: int
    name: str
    position: int
    legal: dict[str, Any] | None = Field(description="What they may do (only to them).")
    deadline: float = Field(description="Seconds left before the time bank starts.")
    time_bank: float
    raise_seconds: float | None = Field(
        default=None,
        description=(
            "Seconds left in which a raise is offered (italian-32's raise window; only to the"
            " player, with legal): after them legal_after_raise stands, and the room refuses"
            " a raise. Null where no window runs or no raise is offered."
        ),
    )
    legal_after_raise: dict[str, Any] | None = Field(
        default=None,
        description="What is offered once raise_seconds have gone (with raise_seconds).",
    )


class LevelInfo(BaseModel):
    """Where a tournament's table stands in its schedule (see ``level``)."""

    number: int = Field(description="The level played (on a break: the one after it).")
    stakes: dict[str, int]
    next_stakes: dict[str, int] | None = Field(
        description="The next level's stakes; null on a break and at the last level."
    )
    on_break: bool
    seconds_left: float | None = Field(
        description="Seconds left of the break, or of a level counted in minutes, when "
        "this was sent; null otherwise and at the last level."
    )
    hands_left: int | None = Field(
        description="A level counted in hands: hands still to be dealt at it, the one "
        "playing not counted (0: the next hand is at the next level); null otherwise."
    )


class Snapshot(_Event):
    """The table as this connection may see it now (after a gap too long to replay)."""

    type: Literal["snapshot"] = "snapshot"
    state: dict[str, Any] = Field(description="The room table's view for this viewer.")
    turn: Turn | None = None
    paused: bool = Field(default=False, description="The host paused the table.")
    next_stakes: dict[str, int] | None = Field(
        default=None, description="The host's stakes change, taken by the next hand."
    )
    level: LevelInfo | None = Field(
        default=None, description="A tournament's table: where it stands in its schedule."
    )


class SeatsChanged(_Event):
    """Who sits where, with stacks and status."""

    type: Literal["seats"] = "seats"
    seats: list[dict[str, Any]] = Field(
        description="Each seat: name, seat, stack, status, away, time_bank.  A player who "
        "sits out once the hand being played is over (asked for during it, or timed out too "
        "often) finds `sit_out_next: true` on their own seat, in their copy alone (and in "
        "their snapshot's seats); a `sit_in` before the hand's end takes it back."
    )
    carried_pot: int = 0
    parol_pot: bool = Field(
        default=False,
        description="The carried pot is a parol pot (everyone said parol), not one that "
        "nobody opened.",
    )


class HandStarted(_Event):
    """A hand is about to be dealt: its number, who is in it, and the seed's commitment."""

    type: Literal["hand_started"] = "hand_started"
    hand: int
    rules: str
    names: list[str] = Field(description="The players dealt in, by position (0: dealer's left).")
    seats: list[int]
    button: int | None
    commitment: str = Field(description="SHA-256 (hex) of the seed that orders the deck.")
    opening: str | None = Field(
        default=None,
        description="The smallest pair that opens this hand (J, Q, K: italian-classic's "
        "ladder; K in a parol pot); null where no opening is required.",
    )


class HandRecord(_Event):
    """One entry of the hand's log, as this viewer may see it (others' cards hidden)."""

    type: Literal["record"] = "record"
    hand: int
    record: dict[str, Any]


class HandEnded(_Event):
    """The hand is over: its result and the seed, revealed."""

    type: Literal["hand_ended"] = "hand_ended"
    hand: int
    result: dict[str, Any]
    seed: str = Field(description="The seed (hex): SHA-256 of it is the commitment.")
    commitment: str


class OfferMade(_Event):
    """A question before the deal to one player (invito, rejoining a parol pot)."""

    type: Literal["offer"] = "offer"
    name: str
    kind: str
    amount: int
    seconds: float


class TableState(_Event):
    """The host paused or resumed the table or changed its stakes: a paused table deals no
    new hand (the one playing is played out); ``next_stakes`` are taken by the next deal."""

    type: Literal["table_state"] = "table_state"
    paused: bool
    stakes: dict[str, int]
    next_stakes: dict[str, int] | None = None


class LevelChanged(_Event):
    """A tournament's table: where it stands in its schedule, sent at each hand and when
    a level or a break begins (a client counts ``seconds_left`` down itself)."""

    type: Literal["level"] = "level"
    level: LevelInfo


class TableClosed(_Event):
    """A table closed, its last event.  A tournament's: a multi-table tournament's broken
    up (its players moved to the tournament's other tables, ``tables``; they hear of their
    own table instead, ``moved``, so its followers then are its spectators and players out
    of the tournament), or the tournament is over (a sit & go's table too).  A cash table's
    (``tournament`` null, ``over`` true): closed by its host (a private table nobody plays
    at any more) or withdrawn by the operator's lobby file, with nobody seated."""

    type: Literal["closed"] = "closed"
    tournament: int | None = Field(
        default=None, description="The tournament of the table; null at a cash table."
    )
    over: bool = Field(
        description="The tournament is over (always, at a cash table); else it goes on at "
        "``tables``."
    )
    tables: list[str] = Field(
        description="The tournament's tables still playing, to watch instead (none once over)."
    )


class ChatSaid(_Event):
    """A chat line at the table."""

    type: Literal["chat"] = "chat"
    name: str
    text: str


class Held(_Message):
    """The table is held, or goes on again.  ``held``: the database refuses writes (a full
    disk, a read-only file, a lost connection), so the table's last change was not stored:
    nothing of it is announced, the turn waits and the table's clock stands still; the room
    retries every ``retry_seconds`` (doubling up to half a minute) and meanwhile refuses
    what is sent to the table with ``storage_unavailable``.  Not held: the change was stored
    and its events follow.  Not a table event (no ``seq``): it changes nothing at the table."""

    type: Literal["held"] = "held"
    table: str
    held: bool
    message: str
    retry_seconds: float | None = Field(
        default=None, description="When the room tries to store again (held only)."
    )


class Presence(_Message):
    """A seated player's last connection closed (``connected`` false), or one opened again:
    the table's followers see it at the seat (a snapshot says it of every seat).  Not a
    table event (no ``seq``): it changes nothing at the table, whose clock runs for a player
    who is gone as for anyone."""

    type: Literal["presence"] = "presence"
    table: str
    name: str
    connected: bool


_Alone = (
    Welcome
    | Ack
    | Error
    | Pong
    | Moved
    | SeatKept
    | Snapshot
    | SeatsChanged
    | HandStarted
    | HandRecord
    | Turn
    | HandEnded
    | OfferMade
    | TableState
    | LevelChanged
    | TableClosed
    | ChatSaid
    | Held
    | Presence
)
"""A message the room sends as it is (every one but :class:`Batch`)."""


class Batch(_Message):
    """Several messages queued for the connection at once, in one frame: a client handles
    each of ``messages``, in order, as if it had come alone.  A player's action makes
    several events for each follower of its table; one frame costs the room and the client
    one write and one wake-up, not one each.  Two messages or more, none of them a batch."""

    type: Literal["batch"] = "batch"
    messages: list[Annotated[_Alone, Field(discriminator="type")]] = Field(
        min_length=2, description="The messages, in the order they were sent."
    )


ServerMessage = Annotated[_Alone | Batch, Field(discriminator="type")]
"""Any message the room sends."""

_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def _types(adapter: TypeAdapter[Any]) -> frozenset[str]:
    schema = adapter.json_schema()
    return frozenset(schema["discriminator"]["mapping"])


CLIENT_TYPES = _types(_CLIENT)
SERVER_TYPES = _types(_SERVER)


def parse_client(data: str | bytes) -> Any:
    """One client message, checked; raise :class:`ProtocolError` saying what is wrong.

    >>> parse_client(b"[1, 2]")
    Traceback (most recent call last):
    ...
    mazziere.server.protocol.ProtocolError: malformed: a message is a JSON object
    >>> parse_client('{"type": "ping", "v": 2}')
    Traceback (most recent call last):
    ...
    mazziere.server.protocol.ProtocolError: bad_version: this room speaks version 1, not 2
    """
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(ErrorCode.MALFORMED, "not JSON") from None
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "a message is a JSON object")
    kind = raw.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}")
    if raw.get("v", VERSION) != VERSION:
        raise ProtocolError(
            ErrorCode.BAD_VERSION, f"this room speaks version {VERSION}, not {raw.get('v')!r}"
        )
    try:
        return _CLIENT.validate_python(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError(ErrorCode.MALFORMED, f"{kind}: {where}: {first['msg']}") from None


def parse_server(data: str | bytes | dict[str, Any]) -> Any:
    """One message from the room (for clients and tests): its text, or its JSON object."""
    if isinstance(data, dict):
        return _SERVER.validate_python(data)
    return _SERVER.validate_json(data)


def unbatch(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of one frame from the room, in order: a :class:`Batch`'s, or the frame's own.

    >>> unbatch({"v": 1, "type": "pong"})
    [{'v': 1, 'type': 'pong'}]
    >>> unbatch(json.loads(dump_batch([dump(Pong()), dump(Error(code="refused", message="no"))])))
    [{'v': 1, 'type': 'pong'}, {'v': 1, 'type': 'error', 'code': 'refused', 'message': 'no', \
'table': None, 'of': None}]
    """
    messages: list[dict[str, Any]] = frame["messages"] if frame.get("type") == "batch" else [frame]
    return messages


def dump(message: BaseModel) -> str:
    """A message as the JSON text sent over the socket."""
    return message.model_dump_json()


def dump_batch(texts: Sequence[str]) -> str:
    """Several messages' texts (each made by :func:`dump`) as one :class:`Batch`, in order.

    The texts are joined as they are: each is a JSON object already, so nothing is
    serialised again.

    >>> parse_server(dump_batch([dump(Pong()), dump(Pong())])) == Batch(messages=[Pong(), Pong()])
    True
    """
    return f'{{"v":{VERSION},"type":"batch","messages":[{",".join(texts)}]}}'


def schema_markdown() -> str:
    """``docs/protocol.md``: the protocol in words and the JSON Schema of both directions."""
    head = (__doc__ or "").split("\n\n>>>")[0].strip()
    client = json.dumps(_CLIENT.json_schema(), indent=2, sort_keys=True)
    server = json.dumps(_SERVER.json_schema(), indent=2, sort_keys=True)
    codes = "\n".join(f"| `{code.value}` | {_code_doc(code)} |" for code in ErrorCode)
    return (
        "# The WebSocket protocol\n\n"
        "<!-- Written by `mazziere protocol-doc > docs/protocol.md` from "
        "src/mazziere/server/protocol.py; a test fails when it is stale. -->\n\n"
        f"{_plain(head)}\n\n"
        f"Version {VERSION}. The socket is `/ws`; a message is at most "
        f"{MAX_MESSAGE_BYTES} bytes; chat lines at most {CHAT_LIMIT} characters.\n\n"
        "## Error codes\n\n| code | meaning |\n|---|---|\n"
        f"{codes}\n\n"
        "## Client to room\n\n"
        f"Types: {', '.join(f'`{t}`' for t in sorted(CLIENT_TYPES))}.\n\n"
        f"```json\n{client}\n```\n\n"
        "## Room to client\n\n"
        f"Types: {', '.join(f'`{t}`' for t in sorted(SERVER_TYPES))}.\n\n"
        f"```json\n{server}\n```\n"
    )


def _code_doc(code: ErrorCode) -> str:
    docs = {
        ErrorCode.MALFORMED: "not JSON, not an object, or fields of the wrong shape",
        ErrorCode.TOO_LARGE: f"longer than {MAX_MESSAGE_BYTES} bytes",
        ErrorCode.UNKNOWN_TYPE: "no message has that type",
        ErrorCode.BAD_VERSION: f"not version {VERSION}",
        ErrorCode.NO_TABLE: "no such table",
        ErrorCode.NOT_SEATED: "the player has no seat at that table",
        ErrorCode.NOT_YOUR_TURN: "somebody else is to act",
        ErrorCode.STALE_ACTION: "the action quotes a turn that is over",
        ErrorCode.ILLEGAL_ACTION: "the rules (or the clock) do not allow it now",
        ErrorCode.REFUSED: "the table does not allow it now (seat taken, buy-in out of range...)",
        ErrorCode.RATE_LIMITED: "too many messages",
        ErrorCode.UNAUTHENTICATED: "no valid session",
        ErrorCode.SESSION_ENDED: "the account's password was changed, or it has no session "
        "left (reset by the operator, expired): every socket of it is closed after this "
        "message, and opens again only with a new log-in",
        ErrorCode.INTERNAL: "the room failed; nothing changed",
        ErrorCode.STORAGE_UNAVAILABLE: "the table is held: the database refuses writes for "
        "now (message `held`); nothing changed, send it again when it goes on",
    }
    return docs[code]


def _plain(text: str) -> str:
    """Sphinx roles (``:class:`X```) as plain code for the Markdown page."""
    import re

    return re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")
