"""Joining a room's table from the terminal: the address, the account, the table, the buy-in.

``mazziere play --connect URL`` first does over HTTP what the browser's page
does: it asks the room for a session (``GET /api/session``: the CSRF token),
logs in by name and password or starts as a guest, finds the table (an id of
the lobby, a private table's invite code or link, or the first table of the
rule set with a free seat, or the one the player picks from the lobby's
list), asks the host of a private table to let the player sit, and checks
the buy-in.  Everything that can go wrong here (an address that is not a
room, a room that does not answer, wrong credentials, no such table, a
buy-in out of range) is a :class:`ConnectError`: one line, and the command
exits with code 2.  Then :class:`~mazziere.tui.remote_app.RoomLink` opens the
WebSocket with the session's cookie.

>>> room_address("http://127.0.0.1:8000/")
('http://127.0.0.1:8000', 'ws://127.0.0.1:8000/ws')
>>> room_address("https://poker.example")
('https://poker.example', 'wss://poker.example/ws')
>>> room_address("127.0.0.1:8000")
Traceback (most recent call last):
...
mazziere.tui.connect.ConnectError: --connect needs the room's address, such as \
http://127.0.0.1:8000, not '127.0.0.1:8000'
>>> invite_code("http://127.0.0.1:8000/api/invites/Ab3dE5"), invite_code("Ab3dE5")
('Ab3dE5', 'Ab3dE5')
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mazziere.room.structure import Stakes
from mazziere.rules import UnknownRulesError, find_rules

__all__ = [
    "ConnectError",
    "Joined",
    "NewPrivateTable",
    "NewSitAndGo",
    "Registered",
    "RoomHttp",
    "RoomTable",
    "RoomTournament",
    "buy_in_for",
    "close_private_table",
    "default_sessions_folder",
    "download_hand",
    "invite_code",
    "join_table",
    "join_tournament",
    "room_address",
    "session_file",
    "watch_table",
]


@dataclass(frozen=True, slots=True)
class RoomTable:
    """A table of the room as its lobby (or invite) describes it."""

    id: str
    name: str
    rules: str
    seats: int
    min_buy_in: int
    max_buy_in: int
    stakes: Stakes
    private: bool = False
    tournament_id: int | None = None
    """A tournament's table: the tournament's number (nobody sits there but by the
    tournament, and it may close while the tournament goes on at its other tables)."""


CSRF_COOKIE = "mazziere_csrf"
"""The room's double-submit cookie (see docs/server.md, decision 4)."""


class ConnectError(ValueError):
    """The room cannot be joined; the message says why in one line."""


def room_address(url: str) -> tuple[str, str]:
    """The room's HTTP base and its WebSocket address, from ``--connect``."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConnectError(
            f"--connect needs the room's address, such as http://127.0.0.1:8000, not {url!r}"
        )
    try:
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        raise ConnectError(f"--connect: {url!r} has a bad port") from None
    base = f"{parts.scheme}://{parts.netloc}"
    socket = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}/ws"
    return base, socket


def invite_code(text: str) -> str:
    """The invite code of ``--invite``: the code itself, or the invite's link (the browser's,
    whose code is after the ``#``, or the room's API's).

    >>> [invite_code(text) for text in ("Ab3_x", "http://room:8000/#invite/Ab3_x",
    ...  "https://room/#sitgo/Ab3_x", "http://room/api/sit-and-go-invites/Ab3_x")]
    ['Ab3_x', 'Ab3_x', 'Ab3_x', 'Ab3_x']
    """
    text = text.strip()
    if "/" in text:
        parts = urllib.parse.urlsplit(text)
        path = (parts.fragment or parts.path).rstrip("/")
        text = path.rsplit("/", 1)[-1]
    if not text or not text.replace("-", "").replace("_", "").isalnum():
        raise ConnectError(f"--invite needs an invite code or link, not {text!r}")
    return text


class RoomHttp:
    """The room's REST API with one session's cookies (the CSRF header on every change)."""

    def __init__(
        self, base: str, *, cookie_file: Path | None = None, timeout: float = 10.0
    ) -> None:
        self.base = base
        self.timeout = timeout
        self.cookie_file = cookie_file
        self.cookies = http.cookiejar.MozillaCookieJar()
        if cookie_file is not None and cookie_file.is_file():
            with contextlib.suppress(OSError, http.cookiejar.LoadError):
                self.cookies.load(str(cookie_file), ignore_discard=True)
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def keep(self) -> None:
        """Write the session's cookies to ``cookie_file`` (only its owner may read it), so the
        next sitting continues this session, as a browser does."""
        if self.cookie_file is None:
            return
        with contextlib.suppress(OSError):
            self.cookie_file.parent.mkdir(parents=True, exist_ok=True)
            self.cookie_file.touch(mode=0o600, exist_ok=True)
            self.cookie_file.chmod(0o600)
            self.cookies.save(str(self.cookie_file), ignore_discard=True)

    def _cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)

    def cookie_header(self) -> str:
        """The session's cookies as a ``Cookie`` header (for the WebSocket's handshake)."""
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies if c.value is not None)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """``(status, JSON)`` of one request; a room that does not answer is a ConnectError."""
        status, raw = self._request(method, path, body)
        return status, _json(raw)

    def text(self, path: str) -> tuple[int, str]:
        """``(status, text)`` of a GET whose answer is not JSON (a hand's PHH)."""
        status, raw = self._request("GET", path, None, accept="*/*")
        return status, raw.decode("utf-8", errors="replace")

    def _request(
        self, method: str, path: str, body: Any, *, accept: str = "application/json"
    ) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method)
        request.add_header("Accept", accept)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if method not in ("GET", "HEAD"):
            request.add_header("X-CSRF-Token", self._cookie(CSRF_COOKIE) or "")
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return answer.status, bytes(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, bytes(error.read())
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", None) or error
            raise ConnectError(f"cannot reach the room at {self.base}: {reason}") from None

    def expect(self, method: str, path: str, body: Any = None, *, what: str) -> Any:
        """The JSON of a request that must succeed; otherwise the room's reason, one line."""
        status, data = self.call(method, path, body)
        if 200 <= status < 300 and isinstance(data, dict):
            return data
        raise ConnectError(f"{what}: {_reason(status, data)}")


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return None


def _reason(status: int, data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        return str(data["error"].get("message") or data["error"].get("code"))
    return f"the room answered {status}"


@dataclass(frozen=True, slots=True)
class Joined:
    """What the terminal needs to play at the table: the table, the buy-in, the session."""

    http: RoomHttp
    socket: str
    table: RoomTable
    buy_in: int
    account: dict[str, Any]
    invite: tuple[str, ...] = ()
    """A private table created now: the lines that pass its invite on (the table's log
    shows them too, for the host to give them while playing)."""
    back: str | None = None
    """The command that brings the player back to this seat when it is not the same one
    (a table created now: its invite, not another table)."""
    close: str | None = None
    """The command that closes the table for good, for its host (a private table's)."""


@dataclass(frozen=True, slots=True)
class NewPrivateTable:
    """A private cash table the player hosts and sits at: the room's home-game stakes and
    buy-ins for ``rules``, anyone with its invite sits (the terminal has no place to
    approve requests while playing)."""

    name: str
    rules: str
    seats: int
    hints_allowed: bool = False


Chooser = Callable[[Sequence[RoomTable]], RoomTable | None]
"""Asks the player which of the lobby's tables to sit at (``None``: the first free one)."""


def join_table(
    url: str,
    *,
    table: str | None = None,
    invite: str | None = None,
    rules: str | None = None,
    name: str | None = None,
    password: str | None = None,
    buy_in: int | None = None,
    choose: Chooser | None = None,
    wait_seconds: float = 300.0,
    say: Callable[[str], None] = lambda line: None,
    sessions: Path | None = None,
    host: NewPrivateTable | None = None,
) -> Joined:
    """Log in (or start as a guest) and find the table; raise :class:`ConnectError` if not.

    ``choose`` is asked when neither ``table`` nor ``invite`` names one; ``say``
    tells the player what is being waited for (the host's approval).  ``sessions``:
    the folder where each room's session cookie is kept between sittings (without
    ``name``, the last session with the room goes on: the same guest, the same seat).
    ``host``: a private table created now, its invite told with ``say``, its host
    sitting at it.
    """
    if sum(given is not None for given in (table, invite, host)) > 1:
        raise ConnectError("give one of --table, --invite and --host")
    room, socket, account = _log_in(url, rules, name, password, sessions)
    told: tuple[str, ...] = ()
    back = close = None
    if host is not None:
        invite, told = _hosted_table(room, host)
        for line in told:
            say(line)
        back = f"mazziere play --connect {room.base} --invite {invite}"
    if invite is not None:
        code = invite_code(invite)
        chosen, buy_in, hosts = _invited(room, code, buy_in, wait_seconds, say)
        _wait_for_a_seat(room, chosen, wait_seconds, say, read=f"/api/invites/{code}")
        if hosts:
            close = f"mazziere play --connect {room.base} --invite {code} --close"
    elif table is not None:
        chosen = _lobby_table(room, table)
        _wait_for_a_seat(room, chosen, wait_seconds, say)
    else:
        chosen = _free_table(room, rules or "italian-classic", choose, wait_seconds, say)
    amount = buy_in_for(chosen, buy_in, account)
    return Joined(room, socket, chosen, amount, account, told, back, close)


def watch_table(
    url: str,
    table: str,
    *,
    name: str | None = None,
    password: str | None = None,
    sessions: Path | None = None,
) -> Joined:
    """Log in (or start as a guest, as the browser's page does) and find table ``table`` to
    watch, a table of the lobby or of a running tournament (not a private table)."""
    room, socket, account = _log_in(url, None, name, password, sessions)
    return Joined(room, socket, _room_table(room, table), 0, account)


def close_private_table(
    url: str,
    invite: str,
    *,
    name: str | None = None,
    password: str | None = None,
    sessions: Path | None = None,
) -> list[str]:
    """As its host (logged in as ``name``, or the last session with the room: a guest host
    goes on from where they hosted), close the private table ``invite`` opens for good, once
    nobody plays there (the room's rule: ``POST /api/private-tables/<id>/close``); the lines
    that say it, with the table's settle-up.  Raise :class:`ConnectError` if not."""
    room, _, _ = _log_in(url, None, name, password, sessions, guest=False)
    code = invite_code(invite)
    status, data = room.call("GET", f"/api/invites/{code}")
    if status == 404:
        raise ConnectError(f"no private table has the invite {code}")
    if status != 200 or not isinstance(data, dict):
        raise ConnectError(f"cannot open the invite {code}: {_reason(status, data)}")
    table = _table_of(data)
    if not data.get("you_are_host"):
        raise ConnectError(f"only the host of {table.name} closes it")
    status, answer = room.call("POST", f"/api/private-tables/{table.id}/close")
    if status != 200:
        raise ConnectError(f"cannot close {table.name}: {_reason(status, answer)}")
    settle = room.expect(
        "GET", f"/api/private-tables/{table.id}/settle-up", what="cannot read the settle-up"
    )
    lines = [f"{table.name} (table {table.id}) is closed for good. Its settle-up:"]
    bots = [{**settle["bots"], "player": "bots"}] if settle.get("bots") else []
    for line in [*(settle.get("players") or ()), *bots]:
        lines.append(
            f"  {line['player']}: bought in {line['bought_in']}, cashed out "
            f"{line['cashed_out']}, result {int(line['result']):+d}"
        )
    if settle.get("rake"):
        lines.append(f"  rake: {settle['rake']}")
    return lines


def _hosted_table(room: RoomHttp, new: NewPrivateTable) -> tuple[str, tuple[str, ...]]:
    """Create the private table ``new``; its invite code, and the lines that say it."""
    asked = {
        "name": new.name, "rules": new.rules, "seats": new.seats,
        "approval_required": False, "hints_allowed": new.hints_allowed,
    }  # fmt: skip
    status, data = room.call("POST", "/api/private-tables", asked)
    if status != 201 or not isinstance(data, dict):
        raise ConnectError(f"cannot create the table {new.name!r}: {_reason(status, data)}")
    table = _table_of(data)
    code = str(data.get("invite_code"))
    return code, (
        f"Created {table.name} (table {table.id}), your private table of {table.rules}: "
        f"{table.seats} seats, {table.stakes.describe(table.rules)}, buy-in "
        f"{table.min_buy_in} to {table.max_buy_in}; whoever has the invite sits.",
        f"Invite your friends: {room.base}/#invite/{code} (in a terminal: mazziere play "
        f"--connect {room.base} --invite {code}; you come back to your seat the same way)",
    )


def _log_in(
    url: str,
    rules: str | None,
    name: str | None,
    password: str | None,
    sessions: Path | None,
    *,
    guest: bool = True,
) -> tuple[RoomHttp, str, dict[str, Any]]:
    """The room's REST API with a session (logged in as ``name``, the last session with the
    room, or a new guest unless not ``guest``), its WebSocket's address and the account."""
    if rules is not None:
        try:
            find_rules(rules)
        except UnknownRulesError as error:
            raise ConnectError(str(error)) from None
    if name is not None and not password:
        raise ConnectError("--name needs --password (or leave both out to play as a guest)")
    base, socket = room_address(url)
    room = RoomHttp(base, cookie_file=session_file(sessions, base) if sessions else None)
    status, session = room.call("GET", "/api/session")
    if status != 200 or not isinstance(session, dict) or "csrf_token" not in session:
        raise ConnectError(f"{base} is not a Mazziere room (GET /api/session answered {status})")
    if name is not None:
        status, data = room.call("POST", "/api/login", {"name": name, "password": password})
        if status != 200:
            raise ConnectError(f"cannot log in as {name}: {_reason(status, data)}")
    elif session.get("account") is None and not guest:
        raise ConnectError(
            f"no session with {base} here: log in with --name (a guest goes on where it played)"
        )
    elif session.get("account") is None:  # else: the last sitting's session goes on
        room.expect("POST", "/api/guest", what="cannot start as a guest")
    room.keep()
    account = room.expect("GET", "/api/account", what="cannot read the account")
    return room, socket, account


@dataclass(frozen=True, slots=True)
class RoomTournament:
    """A sit & go of the room as its lobby describes it."""

    id: str
    name: str
    rules: str
    buy_in: int
    fee: int
    max_players: int
    registered: int
    state: str
    hosted: bool = False
    """A private sit & go the player hosts (leaving it before its start cancels it)."""


def _tournament_of(data: dict[str, Any]) -> RoomTournament:
    return RoomTournament(
        id=str(data["id"]),
        name=str(data.get("name") or data["id"]),
        rules=str(data["rules"]),
        buy_in=int(data.get("buy_in") or 0),
        fee=int(data.get("fee") or 0),
        max_players=int(data.get("max_players") or 0),
        registered=int(data.get("registered") or 0),
        state=str(data.get("state") or ""),
        hosted=bool(data.get("you_are_host")),
    )


@dataclass(frozen=True, slots=True)
class Registered:
    """A tournament the player is registered for and which has started: where they sit."""

    http: RoomHttp
    socket: str
    tournament: RoomTournament
    table: RoomTable
    """The player's table (the lobby's first level as its stakes)."""
    account: dict[str, Any]
    tables: tuple[str, ...] = ()
    """Every table of the tournament when it started (a multi-table one has several)."""


@dataclass(frozen=True, slots=True)
class NewSitAndGo:
    """A private sit & go the player hosts and plays in (``None``: the room's default)."""

    name: str
    rules: str
    players: int
    buy_in: int | None = None
    starting_stack: int | None = None


TournamentChooser = Callable[[Sequence[RoomTournament]], RoomTournament | None]
"""Asks the player which of the lobby's sit & gos to play (``None``: the first one)."""


def join_tournament(
    url: str,
    *,
    tournament: str | None = None,
    invite: str | None = None,
    rules: str | None = None,
    name: str | None = None,
    password: str | None = None,
    choose: TournamentChooser | None = None,
    wait_seconds: float = 3600.0,
    say: Callable[[str], None] = lambda line: None,
    sessions: Path | None = None,
    poll_seconds: float = 1.0,
    host: NewSitAndGo | None = None,
    start_asked: Callable[[float], bool] | None = None,
) -> Registered:
    """Register for a sit & go (``tournament``: its id; ``invite``: a private sit & go's
    invite code or link; ``host``: a private sit & go created now, its invite told with
    ``say``; else one of ``rules`` open for registration, picked by ``choose``), paying the
    buy-in and the fee from the balance, and wait for it to start (a sit & go for
    ``wait_seconds`` at most, a scheduled tournament until its time); raise
    :class:`ConnectError` if not.

    A player registered already (a terminal started again) is not registered twice: the
    command waits for the start, or goes back to the table of a tournament running.  Ctrl+C
    while waiting unregisters (the buy-in and the fee come back) and says so; for the host
    of a private sit & go it cancels it, every buy-in refunded.  The host may start it
    sooner with those registered: ``start_asked(seconds)`` waits up to that long for the
    host to ask (the terminal's Enter) and says whether they did.
    """
    if sum(given is not None for given in (tournament, invite, host)) > 1:
        raise ConnectError("give one of --tournament-id, --invite and --host")
    room, socket, account = _log_in(url, rules, name, password, sessions)
    if host is not None:
        event = _hosted_sit_and_go(room, host, say)
    elif invite is not None:
        event = _invited_sit_and_go(room, invite_code(invite), say)
    elif tournament is not None:
        event = _tournament_by_id(room, tournament)
    else:
        event = _open_tournament(
            room, rules or "italian-classic", str(account.get("name") or ""), choose
        )
    path = f"/api/tournaments/{event.id}"
    data = room.expect("GET", path, what=f"cannot read tournament {event.id}")
    if not data.get("you_are_registered"):
        if event.state != "registering":
            raise ConnectError(f"{event.name} is {event.state}: registration is closed")
        status, answer = room.call("POST", f"{path}/registration")
        if status != 201:
            raise ConnectError(f"cannot register for {event.name}: {_reason(status, answer)}")
        cost = event.buy_in + event.fee
        say(f"Registered for {event.name}: {event.buy_in} + {event.fee} ({cost}) paid.")
        data = room.expect("GET", path, what=f"cannot read tournament {event.id}")
    deadline = time.monotonic() + wait_seconds
    told = -1
    starts = data.get("starts_at")  # a scheduled tournament starts then, full or not
    try:
        while data.get("state") == "registering":
            count = int(data.get("registered") or 0)
            if count != told:
                # A scheduled tournament starts at its time with whoever registered by then.
                field = (
                    f" at {starts}: {count} registered"
                    if starts
                    else f": {count} of {event.max_players} players"
                )
                keys = "Ctrl+C to unregister"
                if event.hosted:
                    keys = "Ctrl+C to cancel it"
                    if start_asked is not None:
                        keys = f"Enter to start now, {keys}"
                say(f"Waiting for {event.name} to start{field} ({keys})…")
                told = count
            if starts is None and time.monotonic() > deadline:
                raise ConnectError(f"the sit & go did not start in time: {_give_up(room, event)}")
            if event.hosted and start_asked is not None:
                if start_asked(poll_seconds):
                    _start_now(room, event, say)
            else:
                time.sleep(poll_seconds)
            data = room.expect("GET", path, what=f"cannot read tournament {event.id}")
    except KeyboardInterrupt:
        raise ConnectError(f"stopped waiting: {_give_up(room, event)}") from None
    # Started: the room seats the field as its tables open (their seating a moment later).
    seated_by = time.monotonic() + 60.0
    while data.get("state") == "running" and not data.get("tables"):
        if time.monotonic() > seated_by:
            raise ConnectError(f"{event.name} has no table to play at")
        time.sleep(poll_seconds)
        data = room.expect("GET", path, what=f"cannot read tournament {event.id}")
    if data.get("state") != "running":
        raise ConnectError(f"{event.name} is {data.get('state')}")
    me = str(account.get("name") or "")
    standing = next((s for s in data.get("standings") or () if s.get("player") == me), None)
    if standing is not None and standing.get("place") is not None:
        raise ConnectError(
            f"you are out of {event.name}: place {standing['place']}, prize {standing['prize']}"
        )
    tables = [str(t) for t in data.get("tables") or ()]
    # The player's own table, where the room lists who sits where (else the room's welcome
    # on the WebSocket says which of them is theirs).
    for seated in data.get("seating") or ():
        if me in {str(s.get("name") or s.get("player")) for s in seated.get("players") or ()}:
            tables.insert(0, str(seated.get("id")))
            break
    return Registered(
        room,
        socket,
        replace(_tournament_of(data), hosted=event.hosted),
        _tournament_table(data, tables[0]),
        account,
        tuple(dict.fromkeys(tables)),
    )


def _tournament_table(data: dict[str, Any], table: str) -> RoomTable:
    """Table ``table`` of the tournament ``data`` (as ``GET /api/tournaments/<id>`` has it):
    named by the tournament, at its first level's stakes (the room tells each hand's
    level)."""
    levels = data.get("levels") or [{}]
    return RoomTable(
        id=table,
        name=str(data.get("name")),
        rules=str(data.get("rules")),
        seats=int(data.get("seats") or 0),
        min_buy_in=0,
        max_buy_in=0,
        stakes=Stakes(
            small_blind=int(levels[0].get("small_blind") or 0),
            big_blind=int(levels[0].get("big_blind") or 0),
            ante=int(levels[0].get("ante") or 0),
        ),
        tournament_id=int(data["id"]),
    )


def _start_now(room: RoomHttp, event: RoomTournament, say: Callable[[str], None]) -> None:
    """The host starts their private sit & go with those registered (two at least), or is
    told why not and waits on."""
    status, answer = room.call("POST", f"/api/private-sit-and-gos/{event.id}/start")
    if status == 200 and isinstance(answer, dict):
        say(f"Starting {event.name} now with {answer.get('max_players')} players.")
    else:
        say(f"Not started: {_reason(status, answer)}.")


def _give_up(room: RoomHttp, event: RoomTournament) -> str:
    """Leave a tournament not started: its host cancels a private sit & go (every buy-in
    refunded), a player unregisters (their buy-in and fee refunded); what came of it."""
    if event.hosted:
        status, answer = room.call("POST", f"/api/private-sit-and-gos/{event.id}/cancel")
        done = f"{event.name} cancelled, every buy-in refunded"
    else:
        status, answer = room.call("DELETE", f"/api/tournaments/{event.id}/registration")
        done = f"unregistered from {event.name}, buy-in and fee refunded"
    return done if status == 200 else f"still in {event.name}: {_reason(status, answer)}"


def _hosted_sit_and_go(
    room: RoomHttp, new: NewSitAndGo, say: Callable[[str], None]
) -> RoomTournament:
    """Create the private sit & go ``new``, its host registered (its buy-in paid), and say
    how friends join it."""
    asked: dict[str, Any] = {"name": new.name, "rules": new.rules, "players": new.players}
    if new.buy_in is not None:
        asked["buy_in"] = new.buy_in
    if new.starting_stack is not None:
        asked["starting_stack"] = new.starting_stack
    status, data = room.call("POST", "/api/private-sit-and-gos", asked)
    if status != 201 or not isinstance(data, dict):
        raise ConnectError(f"cannot create the sit & go {new.name!r}: {_reason(status, data)}")
    event = _tournament_of(data)
    say(
        f"Created {event.name} (tournament {event.id}), your private sit & go of "
        f"{event.rules}: {event.max_players} "
        f"players, {data.get('starting_stack')} chips each, {event.buy_in} paid."
    )
    code = data.get("invite_code")
    say(
        f"Invite your friends: {room.base}/#sitgo/{code} (in a terminal: mazziere play "
        f"--connect {room.base} --tournament --invite {code})"
    )
    return event


def _invited_sit_and_go(room: RoomHttp, code: str, say: Callable[[str], None]) -> RoomTournament:
    """The private sit & go the invite ``code`` opens, the player registered through it (a
    private sit & go takes its players through its invite only)."""
    path = f"/api/sit-and-go-invites/{code}"
    status, data = room.call("GET", path)
    if status == 404:
        raise ConnectError(f"no private sit & go has the invite {code}")
    if status != 200 or not isinstance(data, dict):
        raise ConnectError(f"cannot open the invite {code}: {_reason(status, data)}")
    event = _tournament_of(data)
    if not data.get("you_are_registered") and event.state == "registering":
        status, answer = room.call("POST", f"{path}/registration")
        if status != 201:
            raise ConnectError(f"cannot register for {event.name}: {_reason(status, answer)}")
        say(f"Registered for {event.name}, {data.get('host')}'s sit & go: {event.buy_in} paid.")
    return event


def _tournament_by_id(room: RoomHttp, tournament: str) -> RoomTournament:
    if not tournament.isdigit() or not 1 <= int(tournament) < 2**31:
        raise ConnectError(f"--tournament-id needs a tournament's number, not {tournament!r}")
    status, data = room.call("GET", f"/api/tournaments/{int(tournament)}")
    if status == 404:
        raise ConnectError(f"the room has no tournament {tournament}")
    if status != 200 or not isinstance(data, dict):
        raise ConnectError(f"cannot open tournament {tournament}: {_reason(status, data)}")
    return _tournament_of(data)


def _open_tournament(
    room: RoomHttp, rules: str, me: str, choose: TournamentChooser | None
) -> RoomTournament:
    """The sit & go of ``rules`` the player is in already (registered, or still playing it),
    else one open for registration."""
    data = room.expect("GET", f"/api/tournaments?rules={rules}", what="cannot read the lobby")
    for row in data.get("tournaments") or ():
        if not row.get("you_are_registered") or row.get("state") not in ("registering", "running"):
            continue
        if row.get("state") == "running":
            details = room.expect("GET", f"/api/tournaments/{int(row['id'])}", what="lobby")
            standing = [s for s in details.get("standings") or () if s.get("player") == me]
            if standing and standing[0].get("place") is not None:
                continue  # out of it already
        return _tournament_of(row)
    data = room.expect(
        "GET", f"/api/tournaments?rules={rules}&state=registering", what="cannot read the lobby"
    )
    events = [
        _tournament_of(row)
        for row in data.get("tournaments") or ()
        if int(row.get("registered") or 0) < int(row.get("max_players") or 0)
        and row.get("starts_at") is None  # a sit & go, not a scheduled tournament
    ]
    if not events:
        raise ConnectError(f"no sit & go of {rules} is open for registration in the room now")
    picked = choose(events) if choose is not None else None
    return picked if picked is not None else events[0]


def download_hand(
    room: RoomHttp,
    table: str,
    number: int,
    *,
    tries: int = 5,
    wait: float = 0.4,
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """The PHH of hand ``number`` of ``table`` as the room lets this player see it.

    The hand is found in the player's hands (``GET /api/hands``) by its table and number,
    then downloaded (``GET /api/hands/<id>/phh``).  The room may still be writing a hand
    that has just ended (409, or not yet listed): asked again ``tries`` times, ``wait``
    seconds apart.  Whatever else goes wrong is a :class:`ConnectError` saying what.
    """
    reason = "the room does not list it"
    for attempt in range(tries):
        if attempt:
            sleep(wait)
        status, data = room.call("GET", "/api/hands?limit=50")
        if status != 200 or not isinstance(data, dict):
            raise ConnectError(f"cannot list your hands: {_reason(status, data)}")
        found = next(
            (
                row
                for row in data.get("hands") or ()
                if str(row.get("table_id")) == table and row.get("number") == number
            ),
            None,
        )
        if found is None:
            continue
        status, text = room.text(f"/api/hands/{int(found['id'])}/phh")
        if status == 200:
            return text
        reason = _reason(status, _json(text.encode()))
        if status != 409:  # 409: the hand is being stored still
            break
    raise ConnectError(f"cannot download hand {number}: {reason}")


def session_file(folder: Path, base: str) -> Path:
    """The file in ``folder`` of the session with the room at ``base``.

    >>> session_file(Path("/s"), "http://127.0.0.1:8000").name
    '127_0_0_1_8000.cookies'
    """
    name = "".join(c if c.isalnum() else "_" for c in base.split("://", 1)[-1])
    return folder / f"{name}.cookies"


def default_sessions_folder() -> Path:
    """Where the room sessions are kept: ``$XDG_DATA_HOME/mazziere/sessions``."""
    import os

    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "mazziere" / "sessions"


def _table_of(data: dict[str, Any]) -> RoomTable:
    stakes = data.get("stakes") or {}
    return RoomTable(
        id=str(data["id"]),
        name=str(data.get("name") or data["id"]),
        rules=str(data["rules"]),
        seats=int(data.get("seats") or 0),
        min_buy_in=int(data.get("min_buy_in") or 0),
        max_buy_in=int(data.get("max_buy_in") or 0),
        stakes=Stakes(
            small_blind=int(stakes.get("small_blind") or 0),
            big_blind=int(stakes.get("big_blind") or 0),
            ante=int(stakes.get("ante") or 0),
        ),
        private=bool(data.get("private")),
    )


def _lobby_table(room: RoomHttp, table: str) -> RoomTable:
    return _room_table(room, table, option="--table")


def _room_table(room: RoomHttp, table: str, *, option: str = "--watch") -> RoomTable:
    """The open table of number ``table`` (given with ``option``), as the lobby shows it, or
    (``--watch``) as its running tournament does."""
    if not table.isdigit() or not 1 <= int(table) < 2**31:
        raise ConnectError(f"{option} needs a table's number, not {table!r}")
    status, data = room.call("GET", f"/api/tables/{int(table)}")
    if status == 404:
        event = _tournament_playing_at(room, int(table))
        if event is not None and option == "--watch":
            return _tournament_table(event, table)
        if event is not None:
            raise ConnectError(
                f"table {table} is one of the tables of {event.get('name')}: its players come "
                f"back to it with --tournament-id {event.get('id')}"
            )
        private = "use --invite" if option == "--table" else "only its players watch it"
        raise ConnectError(f"the room has no table {table} (a private table: {private})")
    if status != 200 or not isinstance(data, dict):
        raise ConnectError(f"cannot open table {table}: {_reason(status, data)}")
    if data.get("state") not in (None, "open"):
        raise ConnectError(f"table {table} is {data.get('state')}")
    return _table_of(data)


def _tournament_playing_at(room: RoomHttp, table: int) -> dict[str, Any] | None:
    """The running tournament one of whose tables is ``table`` (``GET /api/tournaments/<id>``),
    if any (the lobby's route shows no tournament's table: each is a row of its own)."""
    status, data = room.call("GET", "/api/tournaments?state=running")
    rows = data.get("tournaments") if status == 200 and isinstance(data, dict) else None
    for row in rows or ():
        status, details = room.call("GET", f"/api/tournaments/{int(row['id'])}")
        tables = details.get("tables") if status == 200 and isinstance(details, dict) else None
        if table in {int(t) for t in tables or ()}:
            return dict(details)
    return None


def _wait_for_a_seat(
    room: RoomHttp,
    table: RoomTable,
    wait_seconds: float,
    say: Callable[[str], None],
    *,
    read: str | None = None,
) -> None:
    """At a full table (every seat taken, or kept for the players of its waiting list): join
    its waiting list, and wait until the room keeps a seat for the player (Ctrl+C, or
    ``wait_seconds`` without one, gives the place up).  A player who sits there already, or
    finds a seat open, goes on at once.  ``read``: where the room says the table's seats
    (a private table's: its invite; the lobby's route does not show it)."""
    path = f"/api/tables/{table.id}"
    read = read or path
    data = room.expect("GET", read, what=f"cannot open table {table.id}")
    if data.get("seat_kept_seconds") or int(data.get("open_seats") or 0) > 0:
        return
    if data.get("you_wait") is None:
        status, answer = room.call("POST", f"{path}/waiting-list")
        code = (answer.get("error") or {}).get("code") if isinstance(answer, dict) else None
        if code in ("already_seated", "seat_free"):
            return  # back at their seat, or a seat freed meanwhile
        if status != 201 or not isinstance(answer, dict):
            raise ConnectError(f"cannot wait for a seat at {table.name}: {_reason(status, answer)}")
        data = room.expect("GET", read, what=f"cannot open table {table.id}")
    say(
        f"{table.name} is full: you are number {data.get('you_wait')} on its waiting list, "
        "and the room keeps the first seat that frees for you (Ctrl+C to give up)…"
    )
    deadline = time.monotonic() + wait_seconds
    try:
        while not data.get("seat_kept_seconds"):
            if data.get("you_wait") is None:
                raise ConnectError(f"your place on the waiting list of {table.name} is lost")
            if time.monotonic() > deadline:
                raise ConnectError(f"no seat came free at {table.name} in time")
            time.sleep(1.0)
            data = room.expect("GET", read, what=f"cannot open table {table.id}")
    except (ConnectError, KeyboardInterrupt) as stopped:
        room.call("DELETE", f"{path}/waiting-list")  # the place given up (if still held)
        if isinstance(stopped, ConnectError):
            raise
        raise ConnectError(f"stopped waiting for a seat at {table.name}") from None
    say(f"A seat is yours at {table.name} for {data['seat_kept_seconds']} s: sitting down.")


def _free_table(
    room: RoomHttp,
    rules: str,
    choose: Chooser | None,
    wait_seconds: float,
    say: Callable[[str], None],
) -> RoomTable:
    """A table of ``rules``: one the player picks from those with a free seat (``choose``,
    in a terminal), else the room's *play now* (``POST /api/play-now``, the browser's
    button): a free seat, or, every table full, the waiting list where a seat comes first,
    which the player then waits on."""
    if choose is not None:
        data = room.expect("GET", f"/api/tables?rules={rules}", what="cannot read the lobby")
        free = [
            _table_of(row)
            for row in data.get("tables") or ()
            if not row.get("private") and int(row.get("open_seats") or 0) > 0
        ]
        picked = choose(free) if free else None
        if picked is not None:
            return picked
    status, answer = room.call("POST", "/api/play-now", {"rules": rules})
    if status == 404:  # no table of the game (but the player's own)
        raise ConnectError(_reason(status, answer))
    if status != 200 or not isinstance(answer, dict):
        raise ConnectError(f"cannot find a table of {rules}: {_reason(status, answer)}")
    table = _table_of(answer["table"])
    if answer.get("waiting"):
        _wait_for_a_seat(room, table, wait_seconds, say)
    return table


def _invited(
    room: RoomHttp,
    code: str,
    buy_in: int | None,
    wait_seconds: float,
    say: Callable[[str], None],
) -> tuple[RoomTable, int | None, bool]:
    """The private table the invite ``code`` opens, the buy-in, and whether the player hosts
    it; the player asked to sit there (and let in) unless they host it."""
    path = f"/api/invites/{code}"
    status, data = room.call("GET", path)
    if status == 404:
        if room.call("GET", f"/api/sit-and-go-invites/{code}")[0] == 200:
            raise ConnectError(f"the invite {code} opens a private sit & go: add --tournament")
        raise ConnectError(f"no private table has the invite {code}")
    if status != 200 or not isinstance(data, dict):
        raise ConnectError(f"cannot open the invite {code}: {_reason(status, data)}")
    table = _table_of(data)
    if data.get("you_are_host"):
        return table, buy_in, True
    request = data.get("your_request")
    if request is None or request.get("state") not in ("pending", "approved"):
        amount = buy_in_for(table, buy_in, room.expect("GET", "/api/account", what="account"))
        request = room.expect(
            "POST", f"{path}/requests", {"buy_in": amount}, what=f"cannot ask to sit at {code}"
        )
    deadline = time.monotonic() + wait_seconds
    told = False
    while request.get("state") == "pending":
        if not told:
            say(f"Waiting for {data.get('host') or 'the host'} to let you sit (Ctrl+C to stop)…")
            told = True
        if time.monotonic() > deadline:
            raise ConnectError(f"the host did not let you sit at {table.name} in time")
        time.sleep(1.0)
        data = room.expect("GET", path, what=f"cannot open the invite {code}")
        request = data.get("your_request") or {}
    if request.get("state") != "approved":
        raise ConnectError(f"the host of {table.name} did not let you sit")
    return table, buy_in if buy_in is not None else int(request.get("buy_in") or 0) or None, False


def buy_in_for(table: RoomTable, asked: int | None, account: dict[str, Any]) -> int:
    """The chips to bring: ``asked``, or twice the minimum (within the table's range), never
    more than the balance."""
    balance = int(account.get("balance") or 0)
    low, high = table.min_buy_in, table.max_buy_in
    if asked is None:
        amount = min(high, max(low, 2 * low), balance)
    else:
        amount = asked
        if not low <= amount <= high:
            raise ConnectError(f"the buy-in at {table.name} is {low} to {high}, not {amount}")
    if amount > balance or amount < low:
        raise ConnectError(f"your balance ({balance}) cannot pay the buy-in of {max(amount, low)}")
    return amount
