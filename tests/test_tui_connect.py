"""``mazziere play --connect``: two terminal clients play each other at a real room's table.

The room is the real ``mazziere serve`` process (SQLite in a temporary
folder); each terminal is the real Textual app (:class:`RemotePlayApp`,
driven by Textual's pilot in this process) on a real WebSocket, joined the
way the command joins (:func:`join_table`: a guest, an invite).  Each plays
its turns by pressing the game's keys.  Every text each client received is
kept, to check that no card of the other player reached it unless the room
showed it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from mazziere.cli import main as cli_main
from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.history.phh import loads
from mazziere.room.table import SeatStatus
from mazziere.server import protocol as p
from mazziere.tui.connect import (
    ConnectError,
    NewPrivateTable,
    NewSitAndGo,
    Registered,
    RoomHttp,
    download_hand,
    join_table,
    join_tournament,
    session_file,
)
from mazziere.tui.hints import describe
from mazziere.tui.remote import RemoteSession
from mazziere.tui.remote_app import MutedPlayers, RemotePlayApp, RoomLink
from mazziere.tui.seen import SeenHand
from tests.play_room import TERMINALS_ON_ONE_MACHINE, Person, Room, running_room, until
from tests.server_process import free_port
from tests.test_play_moments import shover
from tests.tui_helpers import log_text, run_cli, table_text

CARD = re.compile(r'"([2-9TJQKA][shdc])"')
hosts: list[str] = []
"""The names of the guests who opened the private tables, in order."""


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    folder = tmp_path_factory.mktemp("connect")
    database = f"sqlite+aiosqlite:///{folder / 'room.db'}"
    with running_room(database, folder, env=TERMINALS_ON_ONE_MACHINE) as started:
        yield started


def private_table(room: Room, sessions: Path, rules: str, *, hints_allowed: bool = False) -> str:
    """A guest (whose session the host's terminal goes on with) opens a private table of
    ``rules`` that takes whoever has the invite; its invite code."""
    host = RoomHttp(room.address, cookie_file=session_file(sessions, room.address))
    host.expect("GET", "/api/session", what="session")
    hosts.append(host.expect("POST", "/api/guest", what="guest")["account"]["name"])
    stakes = {"ante": 10} if rules == "italian-classic" else {"small_blind": 5, "big_blind": 10}
    table = host.expect(
        "POST",
        "/api/private-tables",
        {
            "name": f"Amici {rules}",
            "rules": rules,
            "seats": 2,
            "min_buy_in": 200,
            "max_buy_in": 1000,
            "approval_required": False,
            "bots_allowed": False,
            "hints_allowed": hints_allowed,
            **stakes,
        },
        what="private table",
    )
    host.keep()
    return str(table["invite_code"])


class Terminal:
    """One player's terminal: the app, and every text the room sent it."""

    def __init__(
        self,
        room: Room,
        invite: str | None,
        sessions: Path,
        buy_in: int,
        *,
        hands_dir: Path | None = None,
        http: RoomHttp | None = None,
        hints: bool = False,
        lang: str = "en",
        host: NewPrivateTable | None = None,
        muted_file: Path | None = None,
        table: str | None = None,
    ) -> None:
        self.said: list[str] = []
        joined = join_table(
            room.address, invite=invite, buy_in=buy_in, sessions=sessions, host=host,
            say=self.said.append, table=table,
        )  # fmt: skip
        self.table = joined.table
        self.http = joined.http
        self.texts: list[str] = []
        self.session = RemoteSession(
            joined.table, buy_in=joined.buy_in, send=print, lang=lang, hints=hints
        )
        if hands_dir is not None:
            self.session.open_folder(hands_dir)
        for line in joined.invite:  # as the command does
            self.session.note(Text(line, style="bold"))
        self.app = RemotePlayApp(
            self.session,
            socket=joined.socket,
            cookie=joined.http.cookie_header(),
            http=http if http is not None else joined.http,
            listen=self.texts.append,
            tick=False,
            muted_file=muted_file,
        )

    def messages(self) -> list[dict[str, Any]]:
        """Every message received, in order (a batch's one by one)."""
        return [message for text in self.texts for message in p.unbatch(json.loads(text))]


def key_for(session: RemoteSession) -> str | None:
    """The key a plain player presses now: draw none, show, check or call, else fold."""
    decision = session.my_decision()
    if decision is None:
        return None
    kinds = {kind.value for kind in decision.legal.kinds}
    hand = session.hand
    bold = hand is not None and hand.number % 2 == 1
    if "draw" in kinds:
        return "d"
    if "show" in kinds:
        return "s"
    if bold and ("bet" in kinds or "raise" in kinds) and not decision.legal.to_call:
        return "b"
    if "check" in kinds or "call" in kinds:
        return "c"
    return "f"


async def play(
    terminals: list[Terminal],
    until: Callable[[], bool],
    *,
    seconds: float = 40.0,
    step: Callable[[Terminal, Any], Any] | None = None,
) -> None:
    """Run every terminal's app and press each one's keys until ``until()``."""
    done = asyncio.Event()

    async def run(terminal: Terminal) -> None:
        async with terminal.app.run_test(size=(120, 40)) as pilot:
            while not done.is_set():
                if step is not None:
                    await step(terminal, pilot)
                key = key_for(terminal.session)
                if key is not None:
                    await pilot.press(key)
                await asyncio.sleep(0.02)
            await terminal.app.link.stop()

    async def watch() -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not until():
            if loop.time() > deadline:
                for t in terminals:
                    print("TERMINAL", t.session.me, t.session.connected, t.app.link.connections)
                    print("\n".join(t.texts[-8:]))
                    print(table_text(t.app), t.app.focused, t.session.pending)
                raise AssertionError("the game did not get there in time")
            await asyncio.sleep(0.05)
        done.set()

    # Each app sends print() to its own log while it runs, and puts back what it found when
    # it ends: apps that end in another order than they began would leave one of them in
    # place (a later capsys read nothing, the CLI's line going to the dead app's capture).
    streams = sys.stdout, sys.stderr
    runs = [asyncio.create_task(run(t)) for t in terminals]
    try:
        await watch()
    finally:
        done.set()
        try:
            await asyncio.gather(*runs)
        finally:
            sys.stdout, sys.stderr = streams


def cards_by_hand(messages: list[dict[str, Any]]) -> dict[int, set[str]]:
    """The cards in the messages about each hand (records, the end, snapshots)."""
    found: dict[int, set[str]] = {}
    for message in messages:
        number = message.get("hand")
        if message["type"] == "snapshot":
            number = message["state"].get("hand")
        if message["type"] in ("record", "hand_ended", "snapshot") and number is not None:
            found.setdefault(number, set()).update(CARD.findall(json.dumps(message)))
    return found


def own_cards(messages: list[dict[str, Any]], name: str) -> dict[int, set[str]]:
    """The cards dealt to ``name`` (from its own messages) and those shown, by hand."""
    position: dict[int, int | None] = {}
    mine: dict[int, set[str]] = {}
    for message in messages:
        if message["type"] == "hand_started":
            names = message["names"]
            position[message["hand"]] = names.index(name) if name in names else None
        if message["type"] == "record":
            record = message["record"]
            number = message["hand"]
            if record["type"] == "hole_cards" and record["position"] == position.get(number):
                mine.setdefault(number, set()).update(c for c in record["cards"] if c != "??")
    return mine


def shown_cards(messages: list[dict[str, Any]]) -> dict[int, set[str]]:
    shown: dict[int, set[str]] = {}
    for message in messages:
        if message["type"] == "record" and message["record"]["type"] in ("show", "board"):
            shown.setdefault(message["hand"], set()).update(message["record"]["cards"])
        if message["type"] == "hand_ended":
            for cards in message["result"]["shown"].values():
                shown.setdefault(message["hand"], set()).update(cards)
    return shown


def assert_no_leak(one: Terminal, other: Terminal) -> None:
    """Nothing ``one`` received names a card dealt to ``other`` that the room did not show."""
    theirs = own_cards(other.messages(), other.session.me)
    shown = shown_cards(other.messages())
    seen = cards_by_hand(one.messages())
    assert theirs, "the other player was dealt no card"
    for number, cards in theirs.items():
        hidden = cards - shown.get(number, set())
        assert not hidden & seen.get(number, set()), (number, hidden & seen[number])


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32", "holdem"])
def test_two_terminals_play_a_hand_of_each_rule_set(room: Room, tmp_path: Path, rules: str) -> None:
    invite = private_table(room, tmp_path / "host", rules)
    host = Terminal(room, invite, tmp_path / "host", 500)  # the host's session goes on
    friend = Terminal(room, invite, tmp_path / "friend", 400)  # a new guest
    assert host.table == friend.table and host.table.rules == rules
    assert host.app.link.session is host.session

    def both_saw_a_hand_end() -> bool:
        return all(t.session.hands for t in (host, friend))

    asyncio.run(play([host, friend], both_saw_a_hand_end))
    assert host.session.me == hosts[-1]  # the terminal went on with the host's session
    for one, other in ((host, friend), (friend, host)):
        assert one.session.me != other.session.me
        assert_no_leak(one, other)
        ended = [m for m in one.messages() if m["type"] == "hand_ended"]
        assert ended and len(ended[0]["result"]["payoffs"]) == 2
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_terminal_hosts_a_private_table_a_friend_sits_by_its_browser_link(
    room: Room, tmp_path: Path
) -> None:
    """``--host`` without ``--tournament``: the terminal creates a private table of the room's
    home-game stakes and buy-ins, says its invite (the browser's link and the terminal's
    command, in its log too) and sits the host; a friend's terminal given the browser's link
    sits without waiting for an approval, and they play a hand."""
    host = Terminal(
        room, None, tmp_path / "host", 300, host=NewPrivateTable("Da Mario", "italian-32", 3)
    )
    created, invite_line = host.said
    table = host.table
    assert created == (
        f"Created Da Mario (table {table.id}), your private table of italian-32: 3 seats, "
        "buio 5, controbuio 10, over 20, buy-in 200 to 1000; whoever has the invite sits."
    )
    (link,) = re.findall(r"Invite your friends: (\S+) ", invite_line)
    assert link.startswith(f"{room.address}/#invite/"), link
    assert invite_line.endswith(f"(in a terminal: mazziere play --connect {room.address} "
                                f"--invite {link.rsplit('/', 1)[1]}; you come back to your "
                                "seat the same way)")  # fmt: skip
    friend = Terminal(room, link, tmp_path / "friend", 200)
    assert friend.said == []  # nobody to wait for
    assert friend.table.id == table.id and table.private and table.seats == 3
    shown: list[str] = []

    async def look(terminal: Terminal, pilot: Any) -> None:
        if terminal is host and not shown:
            await pilot.pause()
            shown.append(log_text(terminal.app))

    asyncio.run(play([host, friend], lambda: all(t.session.hands for t in (host, friend)),
                     step=look))  # fmt: skip
    squeezed = "".join(shown[0].split())  # (the log wraps the link)
    assert "".join(invite_line.split()) in squeezed  # the host can pass it on while playing
    ended = [m for m in friend.messages() if m["type"] == "hand_ended"]
    assert ended and len(ended[0]["result"]["payoffs"]) == 2
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def _in_a_terminal(
    room: Room, tmp_path: Path, *args: str, until: str, first: tuple[str, bytes] | None = None
) -> str:
    """``mazziere play --connect`` in a pseudo-terminal (the table's screen drawn as for a
    user): once its screen shows ``until`` (a pattern) it is sent Ctrl+Q (quit, the seat
    kept); all it wrote, its escape sequences taken out and its spaces squeezed.  ``first``:
    a pattern and the keys typed once it shows, before ``until`` is looked for."""
    import os
    import pty
    import select
    import sys

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, as typed in a terminal of 120 x 40
        os.environ.update(XDG_DATA_HOME=str(tmp_path / "data"), COLUMNS="120", LINES="40")
        command = [sys.executable, "-m", "mazziere.cli", "play", "--connect", room.address]
        os.execv(sys.executable, [*command, *args, "--lang", "en"])
    wrote = b""
    shown = ""
    pressed = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        try:
            chunk = os.read(fd, 65536) if ready else b""
        except OSError:  # EIO: the command ended and all it wrote was read
            break
        if ready and not chunk:
            break
        wrote += chunk
        shown = re.sub(rb"\x1b\[[0-9;?<>=$]*[a-zA-Z~]", b" ", wrote).decode(errors="replace")
        shown = " ".join(shown.split())
        if first is not None and re.search(first[0], shown):
            os.write(fd, first[1])
            wrote, first = b"", None  # (``until`` is looked for in what comes after)
            continue
        if first is None and not pressed and re.search(until, shown):
            with contextlib.suppress(OSError):  # (the command may have ended by itself)
                os.write(fd, b"\x11")  # Ctrl+Q
            pressed = True
    else:  # still running at the deadline (a key it never read)
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert pressed, f"never showed {until!r}: {shown[-2000:]}"
    assert os.waitstatus_to_exitcode(status) == 0, shown[-2000:]
    return shown


def test_a_host_in_a_terminal_is_told_how_to_come_back_to_the_seat(
    room: Room, tmp_path: Path
) -> None:
    """The command in a real pseudo-terminal: ``--host`` prints the invite, draws the table
    with the invite in its log, and Ctrl+Q keeps the seat and says which command brings the
    host back (the invite's, since the same command would open another table); that command
    brings them back to the same seat."""
    seated = r"guest-\d+ 400 waiting"  # the host's row: seated, with twice the minimum
    shown = _in_a_terminal(room, tmp_path, "--host", "Da Gino", "--rules", "holdem", until=seated)
    found = re.search(r"Created Da Gino \(table (\d+)\)", shown)
    assert found is not None, shown[:500]
    (back,) = re.findall(r"Your seat at Da Gino is kept: `([^`]+)` brings you back to it\.", shown)
    code = back.rsplit(" ", 1)[1]
    assert back == f"mazziere play --connect {room.address} --invite {code}"
    assert shown.count(f"--invite {code};") >= 2  # printed, and in the table's log
    again = _in_a_terminal(room, tmp_path, "--invite", code, until=seated)
    assert "Your seat at Da Gino is kept: the same command brings you back to it." in again
    folder = tmp_path / "data" / "mazziere" / "sessions"
    host = RoomHttp(room.address, cookie_file=session_file(folder, room.address))
    table = host.expect("GET", f"/api/invites/{code}", what="the table")
    assert (table["id"], table["you_are_host"]) == (int(found[1]), True)
    assert table["players"] == 1, table  # one seat, the host's, taken once


def test_a_host_in_a_terminal_leaves_and_closes_the_table_for_good(
    room: Room, tmp_path: Path
) -> None:
    """A host who leaves the table they opened from a terminal (``q``) is told the command
    that closes it for good; that command, run where they hosted from (the guest's session),
    closes it and prints its settle-up.  Refused, one line and exit code 2 each, while the
    host still sits there, where the room has no session of theirs, and once closed."""
    import os
    import subprocess

    def close(code: str, data: Path) -> subprocess.CompletedProcess[str]:
        command = ["play", "--connect", room.address, "--invite", code, "--close"]
        return subprocess.run(
            [sys.executable, "-m", "mazziere.cli", *command],
            capture_output=True, text=True, check=False, timeout=30,
            stdin=subprocess.DEVNULL, env={**os.environ, "XDG_DATA_HOME": str(data)},
        )  # fmt: skip

    def one_line(done: subprocess.CompletedProcess[str]) -> str:
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        return done.stderr.strip()

    seated = r"guest-\d+ 400 waiting"
    shown = _in_a_terminal(room, tmp_path, "--host", "Da Nino", "--rules", "holdem", until=seated)
    found = re.search(r"Created Da Nino \(table (\d+)\)", shown)
    assert found is not None, shown[:500]
    (back,) = re.findall(r"Your seat at Da Nino is kept: `([^`]+)` brings you back to it\.", shown)
    code = back.rsplit(" ", 1)[1]
    hosted_here = tmp_path / "data"
    assert one_line(close(code, hosted_here)).endswith(
        "cannot close Da Nino: the table can close once every player has left it"
    )
    assert "no session with" in one_line(close(code, tmp_path / "elsewhere"))
    left = _in_a_terminal(
        room, tmp_path, "--invite", code, first=(seated, b"q"), until=r"for good\."
    )
    assert "You left the table Da Nino." in left
    (closes,) = re.findall(r"stays open for your friends: `([^`]+)` closes it for good\.", left)
    assert closes == f"mazziere play --connect {room.address} --invite {code} --close"
    done = close(code, hosted_here)
    assert done.returncode == 0, done
    lines = done.stdout.splitlines()
    assert lines[0] == f"Da Nino (table {found[1]}) is closed for good. Its settle-up:", lines
    assert re.fullmatch(r"  guest-\d+: bought in 400, cashed out 400, result \+0", lines[1])
    assert len(lines) == 2, lines
    assert one_line(close(code, hosted_here)).endswith("the table Da Nino is closed")


def test_a_lost_connection_resumes_at_the_same_decision(room: Room, tmp_path: Path) -> None:
    invite = private_table(room, tmp_path / "host", "holdem")
    host = Terminal(room, invite, tmp_path / "host", 500)
    friend = Terminal(room, invite, tmp_path / "friend", 500)
    dropped: dict[str, Any] = {}

    said: dict[str, bool] = {}

    async def step(terminal: Terminal, pilot: Any) -> None:
        if terminal is friend:
            await talk(pilot)
            return
        session, link = host.session, host.app.link
        decision = session.my_decision()
        if decision is None or not session.connected:
            return
        if "waiting" not in dropped:
            # At the player's turn the network goes: the client comes back to the same turn.
            dropped["waiting"] = decision.action_id
            await link.drop()
            while not session.connected or link.connections < 2:
                await asyncio.sleep(0.02)
            await pilot.pause()
            again = session.my_decision()
            assert again is not None and again.action_id == decision.action_id
            assert "Your turn" in table_text(host.app)
            assert "Connection lost" in log_text(host.app)
        elif "answered" not in dropped and decision.action_id != dropped["waiting"]:
            # The player answers and the network goes at once: the answer is sent again on
            # the new connection, with its turn id, and the room applies it once.
            dropped["answered"] = decision.action_id
            await pilot.press(key_for(session) or "f")
            await link.drop()

    async def talk(pilot: Any) -> None:
        """The friend chats (the host reads it) and sends an answer to a turn long over: the
        room's refusal is shown in the status line."""
        if said or not friend.session.connected or not friend.session.seated:
            return
        said["chat"] = True
        await pilot.press("t", *"ciao a tutti", "enter")
        friend.session.send(p.Act(table=friend.table.id, action_id=10**6, kind="fold"))
        for _ in range(250):
            await pilot.pause(0.02)
            if "turn 1000000 is over" in table_text(friend.app):
                said["refused"] = True
                return

    def far_enough() -> bool:
        return (
            "answered" in dropped
            and host.session.connected
            and len(host.session.hands) >= 1
            and "ciao a tutti" in log_text(host.app)
        )

    asyncio.run(play([host, friend], far_enough, step=step))
    assert said == {"chat": True, "refused": True}
    chat = f"{friend.session.me}: ciao a tutti"
    assert any(line.plain == chat for line in friend.session.transcript)
    assert host.app.link.connections >= 3
    # What the friend saw: one action of the host's after each of the two turns.
    messages = friend.messages()
    for action_id in (dropped["waiting"], dropped["answered"]):
        turn = next(
            i for i, m in enumerate(messages) if m["type"] == "turn" and m["action_id"] == action_id
        )
        position = messages[turn]["position"]
        following = next(
            (i for i, m in enumerate(messages[turn + 1 :], turn + 1) if m["type"] == "turn"),
            len(messages),
        )
        acted = [
            m
            for m in messages[turn + 1 : following]
            if m["type"] == "record"
            and m["record"]["type"] == "action"
            and m["record"]["position"] == position
        ]
        assert len(acted) == 1, (action_id, acted)
    assert_no_leak(host, friend)


def test_a_player_mutes_another_players_chat_and_hears_it_again_and_reports_them(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    invite = private_table(room, tmp_path / "host", "italian-classic")
    kept = tmp_path / "host" / "room.muted"
    host = Terminal(room, invite, tmp_path / "host", 500, muted_file=kept)
    friend = Terminal(room, invite, tmp_path / "friend", 500)
    lines = ["first line", "said while muted", "said when heard again"]
    said: list[str] = []  # by the friend, in order
    seen: dict[str, str] = {}  # what the host's screen showed at each step

    def heard(text: str) -> bool:
        return any(line.plain.endswith(text) for line in host.session.transcript)

    async def step(terminal: Terminal, pilot: Any) -> None:
        if terminal is friend:
            # The friend says each line once the host has done what follows the last one.
            due = {0: True, 1: "muted" in seen, 2: "unmuted" in seen}
            if friend.session.seated and len(said) < len(lines) and due[len(said)]:
                await pilot.press("t", *lines[len(said)], "enter")
                said.append(lines[len(said)])
            return
        name = friend.session.me
        if "muted" not in seen and heard(lines[0]):
            await pilot.press("t", *"/frobnicate", "enter")
            seen["unknown"] = table_text(host.app)
            await pilot.press("t", *f"/mute {name.upper()}", "enter")
            seen["muted"] = log_text(host.app)
            seen["muted status"] = table_text(host.app)
            seen["kept"] = kept.read_text()
            await pilot.press("t", *"/mute", "enter")
            seen["listed"] = table_text(host.app)
        elif "unmuted" not in seen and heard(lines[1]):
            await pilot.pause()
            seen["while muted"] = log_text(host.app)
            await pilot.press("t", *f"/unmute {name}", "enter")
            seen["unmuted"] = log_text(host.app)
            seen["kept after"] = kept.read_text()
            await pilot.press("t", *f"/report {name} insults at the table", "enter")
            # The room's answer, said until the next key (so no key meanwhile).  The test
            # failed once in three test files run at once on a busy machine, its output not
            # kept, and did not again in five tries; its waits were the tightest thing in it
            # (five seconds here, 40 for the whole), so both are longer now.
            for _ in range(1500):
                await pilot.pause(0.02)
                if "You reported" in table_text(host.app):
                    seen["reported"] = table_text(host.app)
                    break

    def done() -> bool:
        return heard(lines[2]) and "reported" in seen

    asyncio.run(play([host, friend], done, step=step, seconds=90))
    name = friend.session.me
    assert f"You reported {name}: the room's operator will read it" in seen["reported"]
    code = cli_main(["db", "reports", "--player", name, "--database-url", room.url])
    (report,) = capsys.readouterr().out.splitlines()
    assert code == 0 and report.endswith(
        f" · {host.session.me} reported {name} at table {host.table.id}: insults at the table"
    )
    assert "Chat commands: /mute NAME, /unmute NAME" in seen["unknown"]
    assert lines[0] not in seen["muted"], "a muted player's earlier lines stayed in the log"
    assert f"{name.upper()}'s chat muted" in seen["muted status"]
    assert json.loads(seen["kept"]) == [name.casefold()]
    assert f"Chat muted: {name.casefold()}" in seen["listed"]
    assert lines[1] not in seen["while muted"], "a muted player's new line was shown"
    assert lines[0] in seen["unmuted"] and lines[1] in seen["unmuted"]
    assert json.loads(seen["kept after"]) == []
    # Nothing was sent for the commands: the friend's terminal heard only the three lines.
    chat = [m["text"] for m in friend.messages() if m["type"] == "chat"]
    assert chat == lines


def test_a_terminal_sitting_out_during_a_hand_is_told_it_waits_and_may_undo_it(
    room: Room, tmp_path: Path
) -> None:
    """``o`` during a hand: the status line says the player sits out after it, ``i`` takes it
    back, ``o`` again keeps it, and once the hand is over the player sits out."""
    invite = private_table(room, tmp_path / "host", "holdem")
    host = Terminal(room, invite, tmp_path / "host", 500)
    friend = Terminal(room, invite, tmp_path / "friend", 500)
    seen: dict[str, str] = {}

    async def until_pending(pilot: Any, pending: bool) -> None:
        for _ in range(500):
            if host.session.sits_out_next() is pending:
                return
            await pilot.pause(0.02)
        raise AssertionError(f"sits_out_next never became {pending}")

    async def step(terminal: Terminal, pilot: Any) -> None:
        if terminal is not host or "again" in seen or not host.session.in_hand:
            return
        await pilot.press("o")
        await until_pending(pilot, True)
        seen["asked"] = table_text(host.app)
        await pilot.press("i")
        await until_pending(pilot, False)
        seen["undone"] = table_text(host.app)
        await pilot.press("o")
        await until_pending(pilot, True)
        seen["again"] = table_text(host.app)

    def done() -> bool:
        return host.session.my_status() is SeatStatus.SITTING_OUT

    asyncio.run(play([host, friend], done, step=step, seconds=90))
    assert "Sitting out from the next hand · [i] undo" in seen["asked"]
    assert "Sitting out from the next hand" not in seen["undone"]
    assert "Sitting out from the next hand · [i] undo" in seen["again"]
    # The friend was never told: the pending sit-out is the host's own to know.
    assert not any("sit_out_next" in text for text in friend.texts)


def test_the_muted_players_are_kept_between_sittings(tmp_path: Path) -> None:
    kept = tmp_path / "sessions" / "room.muted"
    MutedPlayers(kept).change("Marco", on=True)
    MutedPlayers(kept).change("anna", on=True)
    again = MutedPlayers(kept)
    assert "MARCO" in again and "Anna" in again and "luca" not in again
    for spoilt in ("not JSON", "12", '"marco"'):  # an empty list: the table goes on
        kept.write_text(spoilt)
        assert MutedPlayers(kept).names == set()
    folder = tmp_path / "not a folder"
    folder.write_text("")
    unwritable = MutedPlayers(folder / "room.muted")
    unwritable.change("marco", on=True)  # kept for the sitting all the same
    assert "marco" in unwritable


def run_play(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = cli_main(["play", *args])
    return code, capsys.readouterr().err.splitlines()


def test_bad_connections_are_one_line_and_exit_code_2(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    nobody = f"http://127.0.0.1:{free_port()}"
    lobby = room.tables()[0]
    cases = {
        ("--connect", "127.0.0.1:8000"): "--connect needs the room's address",
        ("--connect", nobody): f"cannot reach the room at {nobody}",
        ("--connect", room.address, "--name", "nobody", "--password", "not-the-one"): (
            "cannot log in as nobody: wrong name or password"
        ),
        ("--connect", room.address, "--table", "9999"): "the room has no table 9999",
        ("--connect", room.address, "--table", "one"): "--table needs a table's number",
        ("--connect", room.address, "--invite", "nosuchcode"): "no private table has the invite",
        ("--connect", room.address, "--tournament", "--invite", "nosuchcode"): (
            "no private sit & go has the invite nosuchcode"
        ),
        ("--connect", room.address, "--table", str(lobby["id"]), "--buy-in", "1"): (
            f"the buy-in at {lobby['name']} is"
        ),
        (
            "--connect",
            room.address,
            "--rules",
            "omaha",
        ): "unknown rules 'omaha' (known: holdem, italian-32, italian-classic)",
        ("--connect", room.address, "--tournament-id", "99999"): "the room has no tournament 99999",
        ("--connect", room.address, "--tournament-id", "one"): (
            "--tournament-id needs a tournament's number"
        ),
        ("--connect", room.address, "--tournament", "--table", "3"): (
            "a tournament is played at its own table"
        ),
        ("--connect", room.address, "--tournament", "--hints"): "never offered in tournaments",
        ("--connect", room.address, "--seed", "3"): "--seed is for games against bots",
        ("--tournament-id", "3"): "--tournament-id needs --connect URL",
        ("--connect", room.address, "--table", str(lobby["id"]), "--hands-dir", "/proc/no/x"): (
            "cannot save the hand histories in /proc/no/x"
        ),
        ("--table", "3"): "--table, --invite, --name and --buy-in need --connect URL",
        ("--close",): "--close needs --connect URL and --invite CODE, nothing else",
        ("--connect", room.address, "--close"): "--close needs --connect URL and --invite CODE",
        ("--connect", room.address, "--invite", "x", "--close", "--buy-in", "5"): (
            "--close needs --connect URL and --invite CODE, not --buy-in"
        ),
        ("--connect", room.address, "--invite", "nosuchcode", "--close"): (
            "no private table has the invite nosuchcode"
        ),
    }
    for args, expected in cases.items():
        code, lines = run_play(*args, capsys=capsys)
        assert code == 2, (args, lines)
        assert len(lines) == 1 and expected in lines[0], (args, lines)
        assert "Traceback" not in lines[0]


def test_a_room_that_does_not_answer_as_a_user_runs_it(tmp_path: Path) -> None:
    nobody = f"http://127.0.0.1:{free_port()}"
    done = run_cli("play", "--connect", nobody)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"mazziere: error: cannot reach the room at {nobody}: "
    ), lines


def test_a_password_changed_elsewhere_ends_the_terminal_session(room: Room, tmp_path: Path) -> None:
    """The account's password is changed from another device while the terminal plays: the
    room closes the terminal's socket, and the terminal stops and says why (it does not
    knock again and again with a session that has ended)."""
    sessions = tmp_path / "host"
    invite = private_table(room, sessions, "holdem")
    owner = RoomHttp(room.address, cookie_file=session_file(sessions, room.address))
    owner.expect("GET", "/api/session", what="session")
    credentials = {"name": "Terminale", "password": "correct horse"}
    owner.expect("POST", "/api/account/name", credentials, what="name")
    host = Terminal(room, invite, sessions, 500)
    elsewhere = RoomHttp(room.address)  # another device, logged in to the same account
    elsewhere.expect("GET", "/api/session", what="session")
    elsewhere.expect("POST", "/api/login", credentials, what="log-in")

    async def change(terminal: Terminal, pilot: Any) -> None:
        if terminal.session.seated and not said:
            said.append(True)
            new = {"current_password": "correct horse", "new_password": "battery staple"}
            elsewhere.expect("POST", "/api/account/password", new, what="password")

    said: list[bool] = []
    asyncio.run(play([host], lambda: host.app.link.refused is not None, step=change))
    assert host.app.link.refused == "the password was changed: log in again"
    assert host.app.link.stopped and host.app.link.connections == 1


def test_a_full_table_says_so_and_closes(room: Room, tmp_path: Path) -> None:
    invite = private_table(room, tmp_path / "host", "italian-32")
    host = Terminal(room, invite, tmp_path / "host", 500)
    friend = Terminal(room, invite, tmp_path / "friend", 500)
    late = Terminal(room, invite, tmp_path / "late", 500)  # the invite lets a third one ask

    async def scenario() -> None:
        await play([host, friend], lambda: all(t.session.seated for t in (host, friend)))
        async with late.app.run_test() as pilot:
            for _ in range(500):
                if late.session.sit_refused is not None:
                    break
                await pilot.pause(0.02)
            await late.app.workers.wait_for_complete()  # it closes by itself
        # Its socket closed before the app ended: left to the app's end, a socket cut in
        # its closing stays open until collected (likely the "unclosed transport"
        # warning that failed a later test of a full run once).
        assert late.app.link.stopped and late.app.link.connections == 1

    asyncio.run(scenario())
    assert late.session.sit_refused == "the table is full"
    assert not late.session.seated and late.app.return_value is None


def test_without_a_table_the_player_picks_one_of_the_rule_set(room: Room, tmp_path: Path) -> None:
    lobby = [t for t in room.tables() if t["rules"] == "holdem" and not t["private"]]
    offered: list[list[str]] = []

    def pick_the_last(tables: Any) -> Any:
        offered.append([table.id for table in tables])
        return tables[-1]

    picked = join_table(room.address, rules="holdem", choose=pick_the_last, sessions=tmp_path)
    assert offered == [[str(t["id"]) for t in lobby if t["players"] + t["bots"] < t["seats"]]]
    assert picked.table.id == offered[0][-1] and picked.table.rules == "holdem"
    first = join_table(room.address, rules="holdem", sessions=tmp_path)  # the same guest
    assert first.table.id == offered[0][0] and first.account == picked.account
    assert first.buy_in == min(first.table.max_buy_in, 2 * first.table.min_buy_in)


def test_each_hand_is_saved_as_the_room_lets_the_player_see_it(room: Room, tmp_path: Path) -> None:
    invite = private_table(room, tmp_path / "host", "italian-32")
    hands = tmp_path / "hands"
    host = Terminal(room, invite, tmp_path / "host", 500, hands_dir=hands, hints=True, lang="it")
    # The friend's downloads go to an address where no room answers: each is a line, no more.
    nobody = RoomHttp(f"http://127.0.0.1:{free_port()}", timeout=2)
    friend = Terminal(room, invite, tmp_path / "friend", 500, http=nobody)
    friend.session.open_folder(tmp_path / "friend-hands")

    def two_hands_saved() -> bool:
        told = [line.plain for line in friend.session.transcript if "not saved" in line.plain]
        return len(host.session.kept) >= 2 and bool(told)

    asyncio.run(play([host, friend], two_hands_saved))
    (folder,) = hands.iterdir()
    assert folder.name.endswith("-italian-32")
    saved = sorted(folder.iterdir())
    kept = [played.number for played in host.session.kept]
    assert [path.name for path in saved] == [f"hand-{number:04d}.phh" for number in sorted(kept)]
    friend_name = friend.session.me
    for path in saved:
        text = path.read_text(encoding="utf-8")
        number = int(path.stem.split("-")[1])
        # The file is the room's download for this player: their cards, not the friend's.
        assert text == download_hand(host.http, host.table.id, number)
        history = loads(text)
        assert history["players"] == list(host.session.hands[number - 1].names)
        them = history["players"].index(friend_name) + 1
        dealt = [a for a in history["actions"] if a.startswith(f"d dh p{them} ")]
        assert dealt and all(set(a.split()[-1]) == {"?"} for a in dealt), dealt
    assert host.session.save() == folder
    _, number = friend.session.dealt_in[0]
    told = [line.plain for line in friend.session.transcript if "not saved" in line.plain]
    assert told[0].startswith(f"Hand {number} not saved: cannot reach the room at {nobody.base}")
    # On quitting, the command asks once more: the room is still not there, said once.
    failed = friend.app.fetch_missing()
    assert [number for number, _ in failed] == [number for _, number in friend.session.dealt_in]
    assert len({reason for _, reason in failed}) == 1
    assert friend.session.save() is None  # nothing came: no folder was made
    # The host asked for hints where the room offers none (a person at the table): told once,
    # in the client's language (not the room's English reason inside an Italian sentence).
    refused = [line.plain for line in host.session.transcript if "consigli" in line.plain]
    assert refused == [
        "Niente consigli a questo tavolo: ci sono dove tutti gli altri posti sono bot, "
        "o dove l'host li permette"
    ]
    assert not (tmp_path / "friend-hands").exists() or not any(
        (tmp_path / "friend-hands").iterdir()
    )


def test_hints_where_the_host_allows_them(room: Room, tmp_path: Path) -> None:
    invite = private_table(room, tmp_path / "host", "holdem", hints_allowed=True)
    host = Terminal(room, invite, tmp_path / "host", 500, hints=True)
    friend = Terminal(room, invite, tmp_path / "friend", 500)  # who did not ask: no hint
    seen: dict[str, str] = {}

    async def step(terminal: Terminal, pilot: Any) -> None:
        session = terminal.session
        if "host" in seen or session.my_decision() is None:
            return
        if terminal is friend:
            assert "Hint" not in table_text(friend.app)
            return
        for _ in range(1000):  # the room works the hint out; the line comes when it has
            await pilot.pause(0.02)
            shown = re.search(r"Hint: equity .*\(any two cards\)", table_text(host.app))
            if shown is not None:
                seen["host"] = shown[0]
                break
        status, answer = host.http.call("GET", f"/api/tables/{host.table.id}/hint?lang=en")
        assert status == 200 and answer["offered"], answer
        seen["room"] = describe(answer["hint"], lang="en", drawing=False)

    asyncio.run(play([host, friend], lambda: "room" in seen, step=step, seconds=60))
    assert seen.get("host") == seen["room"]
    assert re.fullmatch(r"Hint: equity \d+\.\d% against 1 opponent \(any two cards\)", seen["host"])


def plain_choice(session: RemoteSession, legal: LegalActions) -> Action:
    """Open or bet the minimum when offered (no blind opening), else check or call; stand pat,
    show at the showdown."""
    kinds = legal.kinds
    hand = session.hand
    if ActionKind.DRAW in kinds:
        return Action(ActionKind.DRAW)
    if ActionKind.SHOW in kinds:
        return Action(ActionKind.SHOW)
    if ActionKind.BET in kinds and hand is not None and hand.hole[hand.me or 0]:
        return Action.bet(legal.min_to)
    if ActionKind.CHECK in kinds:
        return Action.check()
    if ActionKind.CALL in kinds:
        return Action.call()
    return Action.fold()


def moment_of(hand: SeenHand | None) -> str | None:
    """Where the hand is, for a fresh client to come in: after the deal, after the draw, the
    flop."""
    if hand is None or hand.is_over:
        return None
    if hand.draw_game:
        return {1: "dealt", 2: "drawn"}.get(hand.betting_round)
    return "flop" if len(hand.board) == 3 else None


@pytest.mark.parametrize(
    ("rules", "moments"), [("italian-classic", ("dealt", "drawn")), ("holdem", ("flop",))]
)
def test_a_client_started_mid_hand_tells_the_rest_of_it_right(
    room: Room, tmp_path: Path, rules: str, moments: tuple[str, ...]
) -> None:
    """A fresh client (a new RemoteSession on the host's session, as a restarted terminal is)
    joins while a hand is played: from the room's snapshot on, its log says what the host's
    client, which saw the whole hand, says."""
    invite = private_table(room, tmp_path / "host", rules)
    host = Terminal(room, invite, tmp_path / "host", 500)
    friend = Terminal(room, invite, tmp_path / "friend", 500)
    fresh: dict[str, tuple[RemoteSession, int]] = {}

    async def scenario() -> None:
        links = [host.app.link, friend.app.link]
        tasks = [asyncio.create_task(link.run()) for link in links]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60

        def finished() -> bool:
            return len(fresh) == len(moments) and all(
                any(played.number == number for played in session.hands)
                and any(played.number == number for played in host.session.hands)
                for session, number in fresh.values()
            )

        try:
            while not finished():
                assert loop.time() < deadline, (sorted(fresh), len(host.session.hands))
                for terminal in (host, friend):
                    session = terminal.session
                    decision = session.my_decision()
                    if decision is None:
                        continue
                    moment = moment_of(session.hand) if terminal is host else None
                    if moment in moments and moment not in fresh:
                        assert session.hand is not None
                        joined = join_table(room.address, invite=invite, sessions=tmp_path / "host")
                        late = RemoteSession(joined.table, buy_in=500, send=print, lang="en")
                        link = RoomLink(joined.socket, joined.http.cookie_header(), late)
                        links.append(link)
                        tasks.append(asyncio.create_task(link.run()))
                        number = session.hand.number
                        while late.hand is None or late.hand.number != number:
                            await asyncio.sleep(0.01)  # the room's snapshot of the hand
                        fresh[moment] = (late, number)
                    session.act(plain_choice(session, decision.legal))
                await asyncio.sleep(0.01)
        finally:
            for link in links:
                await link.stop()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    for moment, (late, number) in fresh.items():
        (told,) = [played.lines for played in late.hands if played.number == number]
        (whole,) = [played.lines for played in host.session.hands if played.number == number]
        after = [line.plain for line in told[1:]]  # told[0]: the hand's heading
        assert len(after) >= 2, (moment, after)
        assert after == [line.plain for line in whole[-len(after) :]], moment


def tournament_key(session: RemoteSession) -> tuple[str, ...]:
    """A sit & go that ends soon: all in whenever offered (``a`` asks again), else stand pat,
    show, check or call."""
    decision = session.my_decision()
    if decision is None:
        return ()
    kinds = decision.legal.kinds
    if ActionKind.ALL_IN in kinds:
        return ("a", "a")
    for kind, key in ((ActionKind.DRAW, "d"), (ActionKind.SHOW, "s")):
        if kind in kinds:
            return (key,)
    return ("c",) if kinds & {ActionKind.CHECK, ActionKind.CALL} else ("f",)


def test_a_sit_and_go_from_registration_to_the_prize(room: Room, tmp_path: Path) -> None:
    """The terminal registers for the lobby's italian-32 sit & go (three browsers fill it),
    waits for the start, plays its table to the end and shows the place and prize the room
    gave, which the wallet received."""
    with room.http() as http:
        lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
    event = next(
        t for t in lobby["tournaments"] if t["rules"] == "italian-32" and t["starts_at"] is None
    )  # the sit & go (not the scheduled tournament)
    said: list[str] = []

    async def scenario() -> tuple[Any, RemoteSession, list[Person]]:
        joining = asyncio.create_task(
            asyncio.to_thread(
                join_tournament, room.address, rules="italian-32", say=said.append,
                sessions=tmp_path, poll_seconds=0.2,
            )
        )  # fmt: skip
        await until(lambda: any("Waiting for" in line for line in said))
        people = [Person(room, 60 + k) for k in range(event["max_players"] - 1)]
        for person in people:
            answer = person.post(f"/api/tournaments/{event['id']}/registration")
            assert answer.status_code == 201, answer.text
        registered = await joining
        for person in people:
            await person.connect()
        await until(lambda: all(p.seen("welcome") for p in people))
        for person in people:
            person.plays.add(registered.table.id)
            person.scripted[registered.table.id] = shover
            await person.send(type="resume", table=registered.table.id, last_seq=0)
        session = RemoteSession(
            registered.table, buy_in=0, send=print, lang="en", tournament=registered.tournament
        )
        session.tournament_tables = registered.tables
        session.open_folder(tmp_path / "hands")
        app = RemotePlayApp(
            session,
            socket=registered.socket,
            cookie=registered.http.cookie_header(),
            http=registered.http,
            tick=False,
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90
        async with app.run_test(size=(120, 40)) as pilot:
            while not session.over:
                assert loop.time() < deadline, (len(session.hands), session.seats)
                for key in tournament_key(session):
                    await pilot.press(key)
                await asyncio.sleep(0.02)
            await pilot.pause()
            shown = log_text(app)
            await pilot.press("q")  # the tournament is over for the player: q quits at once
            await pilot.pause()
        assert await asyncio.to_thread(app.fetch_missing) == []  # as the command does
        for person in people:
            await person.disconnect()
            person.close()
        return registered, session, [shown]

    registered, session, (shown,) = asyncio.run(scenario())
    assert registered.tournament.id == str(event["id"])
    assert said[0] == f"Registered for {event['name']}: 100 + 10 (110) paid."
    with room.http() as http:
        details = http.get(f"/api/tournaments/{event['id']}").json()
    (mine,) = [s for s in details["standings"] if s["player"] == session.me]
    assert session.finish == (mine["place"], mine["prize"])
    told = [line.plain for line in session.transcript if "Your tournament is over" in line.plain]
    assert told == [
        f"Your tournament is over: place {mine['place']} of 4"
        + (f", prize {mine['prize']}" if mine["prize"] else ", no prize")
    ]
    assert told[0] in shown  # on the screen's log
    # Each hand is headed with the sit & go's level and its stakes, as the room told them.
    headers = [line.plain for line in session.transcript if line.plain.startswith("— Hand ")]
    assert headers and all(" · sit & go, level " in header for header in headers), headers
    first = details["levels"][0]
    stakes = f"level 1: buio {first['small_blind']}, controbuio {first['big_blind']}"
    assert f" · sit & go, {stakes}" in headers[0], headers[0]
    # Every hand the player was dealt into was saved, the one that knocked them out too
    # (named by its table: a tournament's tables number their hands each).
    assert not [line.plain for line in session.transcript if "not saved" in line.plain]
    assert registered.table.id in registered.tables
    (folder,) = (tmp_path / "hands").iterdir()
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        f"hand-{table}-{number:04d}.phh" for table, number in session.dealt_in
    )
    balance = registered.http.expect("GET", "/api/account", what="account")["balance"]
    assert balance == registered.account["balance"] - 110 + mine["prize"]
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_private_sit_and_go_is_joined_through_its_invite(room: Room, tmp_path: Path) -> None:
    """A host's private sit & go of two: the terminal registers through its invite (its link,
    as the host shares it), which fills it, and finds its table; the invite given as a
    table's is told what it opens."""
    host = RoomHttp(room.address)
    host.expect("GET", "/api/session", what="session")
    host.expect("POST", "/api/guest", what="guest")
    game = host.expect(
        "POST",
        "/api/private-sit-and-gos",
        {"name": "Tra amici", "rules": "italian-classic", "players": 2, "buy_in": 50},
        what="private sit & go",
    )
    with pytest.raises(ConnectError, match="opens a private sit & go: add --tournament"):
        join_table(room.address, invite=game["invite_code"], sessions=tmp_path)
    said: list[str] = []
    registered = join_tournament(
        room.address, invite=game["invite_link"], say=said.append, sessions=tmp_path,
        poll_seconds=0.2,
    )  # fmt: skip
    assert registered.tournament.id == str(game["id"])
    assert registered.tournament.state == "running"
    assert said[0] == f"Registered for Tra amici, {game['host']}'s sit & go: 50 paid.", said
    details = host.expect("GET", f"/api/tournaments/{game['id']}", what="details")
    assert [registered.table.id] == [str(t) for t in details["tables"]]
    balance = registered.http.expect("GET", "/api/account", what="account")["balance"]
    assert balance == registered.account["balance"] - 50  # no fee at a private sit & go
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def _start_play(room: Room, tmp_path: Path, *args: str) -> Any:
    """``mazziere play --connect`` as a user starts it from a terminal, its output piped."""
    import os
    import signal
    import subprocess
    import sys

    command = [sys.executable, "-m", "mazziere.cli", "play", "--connect", room.address, *args]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONFAULTHANDLER": "1"}

    def as_from_a_terminal() -> None:
        # Ctrl+C reaches a command started from a terminal; a child inherits an ignored or
        # blocked SIGINT from the process that starts it, and a CI run's child never saw
        # the signal (its one thread still in the wait loop's sleep 30 s later).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        stdin=subprocess.DEVNULL,
        preexec_fn=as_from_a_terminal,  # noqa: PLW1509 (two calls that take no lock)
    )  # fmt: skip


@contextlib.contextmanager
def _playing(room: Room, tmp_path: Path, *args: str) -> Iterator[Any]:
    """:func:`_start_play`'s process, killed at the end of the block if still running."""
    process = _start_play(room, tmp_path, *args)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()  # waits, and closes its pipes


def _ctrl_c(process: Any) -> str:
    """Press Ctrl+C in the command's terminal; what it said on stderr as it stopped."""
    import signal
    import subprocess

    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # Where it hangs: its signals as the kernel has them (blocked, ignored, caught),
        # then every thread's stack from the interpreter's fault handler.
        status = Path(f"/proc/{process.pid}/status").read_text().splitlines()
        signals = [line for line in status if line.startswith(("SigBlk", "SigIgn", "SigCgt"))]
        process.send_signal(signal.SIGABRT)
        _, err = process.communicate(timeout=10)
        raise AssertionError(
            f"no exit 30 s after Ctrl+C; its signals {signals}; its stacks:\n{err}"
        ) from None
    return str(err)


def test_waiting_for_a_sit_and_go_and_ctrl_c_unregisters(room: Room, tmp_path: Path) -> None:
    """The command as a user runs it: it registers for the lobby's sit & go, says it waits;
    Ctrl+C gives the buy-in and fee back and says so in one line (exit code 2)."""

    def open_event() -> dict[str, Any]:
        with room.http() as http:
            lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
        return next(
            t
            for t in lobby["tournaments"]
            if t["rules"] == "italian-classic" and t["starts_at"] is None  # the sit & go
        )

    before = open_event()
    with _playing(room, tmp_path, "--tournament", "--rules", "italian-classic",
                  "--lang", "en") as process:  # fmt: skip
        assert process.stdout is not None
        said = [process.stdout.readline(), process.stdout.readline()]
        assert said[0].startswith(f"Registered for {before['name']}: 100 + 10 (110) paid."), said
        assert said[1].startswith(f"Waiting for {before['name']} to start: 1 of 4 players"), said
        assert open_event()["registered"] == before["registered"] + 1
        err = _ctrl_c(process)
    assert process.returncode == 2, err
    assert err.splitlines() == [
        f"mazziere: error: stopped waiting: unregistered from {before['name']}, "
        "buy-in and fee refunded"
    ]
    assert open_event()["registered"] == before["registered"]


def test_a_terminal_hosts_a_private_sit_and_go_a_friend_joins_by_its_browser_link(
    room: Room, tmp_path: Path
) -> None:
    """``--host``: the terminal creates a private sit & go, says its invite (the browser's
    link and the terminal's command) and waits; a friend's terminal, given the browser's
    link, registers through it and fills it; both find the same table, each paid the
    buy-in and no fee."""
    said: list[str] = []
    new = NewSitAndGo("Giovedì sera", "italian-32", 2, buy_in=40, starting_stack=600)

    async def scenario() -> tuple[Registered, Registered, list[str]]:
        hosting = asyncio.create_task(
            asyncio.to_thread(
                join_tournament, room.address, host=new, say=said.append,
                sessions=tmp_path / "host", poll_seconds=0.2,
            )
        )  # fmt: skip
        await until(lambda: any("Waiting for" in line for line in said))
        (link,) = re.findall(r"Invite your friends: (\S+) ", said[1])
        friend_said: list[str] = []
        friend = await asyncio.to_thread(
            join_tournament, room.address, invite=link, say=friend_said.append,
            sessions=tmp_path / "friend", poll_seconds=0.2,
        )  # fmt: skip
        return await hosting, friend, friend_said

    host, friend, friend_said = asyncio.run(scenario())
    code = said[1].rsplit(" ", 1)[1].rstrip(")")
    assert said == [
        f"Created Giovedì sera (tournament {host.tournament.id}), your private sit & go of "
        "italian-32: 2 players, 600 chips each, 40 paid.",
        f"Invite your friends: {room.address}/#sitgo/{code} (in a terminal: mazziere play "
        f"--connect {room.address} --tournament --invite {code})",
        "Waiting for Giovedì sera to start: 1 of 2 players (Ctrl+C to cancel it)…",
    ]
    (registered,) = friend_said  # the host's name (a guest's), then what was paid
    assert registered.startswith("Registered for Giovedì sera, guest-"), registered
    assert registered.endswith("'s sit & go: 40 paid."), registered
    assert host.tournament.id == friend.tournament.id and host.tournament.hosted
    assert host.table.id == friend.table.id
    for player in (host, friend):
        balance = player.http.expect("GET", "/api/account", what="account")["balance"]
        assert balance == player.account["balance"] - 40
    path = f"/api/tournaments/{host.tournament.id}"
    details = host.http.expect("GET", path, what="its page")  # (its players' only)
    assert (details["state"], details["starting_stack"]) == ("running", 600)
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_the_host_starts_the_sit_and_go_sooner_with_those_registered(
    room: Room, tmp_path: Path
) -> None:
    """A host's sit & go of four: the host asks to start it alone (refused: two at least, and
    it waits on), then again once a friend registered: it starts with the two of them, each
    at the same table, the places not taken given up."""
    said: list[str] = []
    friend_in = threading.Event()
    asked: list[int] = []

    def start_asked(seconds: float) -> bool:
        """The host's Enter: at once, then once the friend is in."""
        time.sleep(seconds)
        if not asked or friend_in.is_set():
            asked.append(len(said))
            return True
        return False

    new = NewSitAndGo("Sabato", "holdem", 4, buy_in=30)

    async def scenario() -> tuple[Registered, Registered]:
        hosting = asyncio.create_task(
            asyncio.to_thread(
                join_tournament, room.address, host=new, say=said.append,
                sessions=tmp_path / "host", poll_seconds=0.2, start_asked=start_asked,
            )
        )  # fmt: skip
        await until(lambda: any(line.startswith("Not started: ") for line in said))
        code = said[1].rsplit(" ", 1)[1].rstrip(")")
        friend = asyncio.create_task(
            asyncio.to_thread(
                join_tournament, room.address, invite=code, sessions=tmp_path / "friend",
                poll_seconds=0.2,
            )
        )  # fmt: skip
        await until(lambda: "2 of 4 players" in said[-1])
        friend_in.set()
        return await hosting, await friend

    host, friend = asyncio.run(scenario())
    assert (
        said[2]
        == "Waiting for Sabato to start: 1 of 4 players (Enter to start now, Ctrl+C to cancel it)…"
    )
    assert said[3] == "Not started: 1 registered: a sit & go starts with 2 at least."
    assert said[-1] == "Starting Sabato now with 2 players."
    assert host.table.id == friend.table.id
    details = host.http.expect("GET", f"/api/tournaments/{host.tournament.id}", what="its page")
    assert (details["state"], details["max_players"], len(details["players"])) == ("running", 2, 2)
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_host_whose_terminal_closed_comes_back_as_the_host(room: Room, tmp_path: Path) -> None:
    """The host's terminal is closed while waiting (no Ctrl+C: the sit & go stays); the host
    comes back with ``--tournament-id`` and is waited with as its host again: Ctrl+C cancels
    it (not "unregisters"), every buy-in refunded."""
    with _playing(room, tmp_path, "--tournament", "--host", "Domenica", "--players", "3",
                  "--buy-in", "20", "--lang", "en") as process:  # fmt: skip
        assert process.stdout is not None
        said = [process.stdout.readline() for _ in range(3)]
        found = re.match(r"Created Domenica \(tournament (\d+)\)", said[0])
        assert found is not None, said
    number = found[1]  # the block killed the terminal: nothing was cancelled
    with _playing(room, tmp_path, "--tournament-id", number, "--lang", "en") as process:
        assert process.stdout is not None
        again = process.stdout.readline()
        assert again.startswith("Waiting for Domenica to start: 1 of 3 players (Ctrl+C to "
                                "cancel it)"), again  # fmt: skip
        err = _ctrl_c(process)
    assert process.returncode == 2, err
    assert err.splitlines() == [
        "mazziere: error: stopped waiting: Domenica cancelled, every buy-in refunded"
    ]
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_host_who_stops_waiting_cancels_the_sit_and_go(room: Room, tmp_path: Path) -> None:
    """The host's Ctrl+C while waiting cancels the private sit & go: every buy-in back, one
    line, exit code 2; ``--host`` without ``--tournament`` or with bad settings is refused
    in one line."""
    with _playing(room, tmp_path, "--tournament", "--host", "Venerdì", "--players", "3",
                  "--buy-in", "25", "--lang", "en") as process:  # fmt: skip
        assert process.stdout is not None
        said = [process.stdout.readline() for _ in range(3)]
        assert re.match(
            r"Created Venerdì \(tournament \d+\), your private sit & go of "
            "italian-classic: 3 players, 1000 chips each, 25 paid.",
            said[0],
        ), said
        assert said[2].startswith("Waiting for Venerdì to start: 1 of 3 players (Ctrl+C to "
                                  "cancel it)"), said  # fmt: skip
        code = said[1].rstrip().rsplit(" ", 1)[1].rstrip(")")
        err = _ctrl_c(process)
    assert process.returncode == 2, err
    assert err.splitlines() == [
        "mazziere: error: stopped waiting: Venerdì cancelled, every buy-in refunded"
    ]
    guest = RoomHttp(room.address)
    guest.expect("GET", "/api/session", what="session")
    guest.expect("POST", "/api/guest", what="guest")
    seen = guest.expect("GET", f"/api/sit-and-go-invites/{code}", what="invite")
    assert seen["state"] == "cancelled"
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit
    for args, says in (
        (("--host", "X", "--stack", "500"), "--stack is a sit & go's: at a cash table, give"),
        (("--host", "X", "--table", "1"), "give one of --table, --invite and --host"),
        (("--host", "X", "--players", "12"), "less than or equal to 9"),
        (("--tournament", "--host", "X", "--players", "12"), "less than or equal to 9"),
        (("--tournament", "--host", "X", "--invite", "abc"), "give one of --tournament-id"),
        (("--tournament", "--host", "X", "--hints"), "never offered in tournaments"),
    ):
        refused = _start_play(room, tmp_path, *args)
        _, err = refused.communicate(timeout=60)
        assert refused.returncode == 2, (args, err)
        assert len(err.splitlines()) == 1 and err.startswith("mazziere: error: "), err
        assert says in err, (args, err)
