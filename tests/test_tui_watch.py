"""``mazziere play --connect URL --watch N``: a terminal follows a table of the room without
sitting, as the browser's *Guarda* does.

Two terminals play heads-up at a Hold'em table of the lobby of the real ``mazziere serve``
process; a third watches it.  The spectator's terminal shows each hand as a spectator
sees it (no hole card the room did not show at a showdown reaches it), its keys play
nothing (the room is never asked anything a spectator may not ask, so it never refuses),
a lost connection resumes without a hand told twice, and ``q`` stops watching at once.
The command itself runs in a pseudo-terminal, and its bad input is one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from textual.screen import ModalScreen

from mazziere.tui.connect import ConnectError, watch_table
from mazziere.tui.remote import RemoteSession
from mazziere.tui.remote_app import RemotePlayApp
from mazziere.tui.render import chips
from tests.play_room import TERMINALS_ON_ONE_MACHINE, Room, running_room
from tests.test_tui_connect import (
    Terminal,
    _in_a_terminal,
    cards_by_hand,
    own_cards,
    play,
    private_table,
    run_play,
    shown_cards,
)
from tests.tui_helpers import table_text


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    folder = tmp_path_factory.mktemp("watch")
    database = f"sqlite+aiosqlite:///{folder / 'room.db'}"
    with running_room(database, folder, env=TERMINALS_ON_ONE_MACHINE) as started:
        yield started


def holdem_table(room: Room) -> dict[str, Any]:
    """The lobby's first Hold'em table."""
    return next(row for row in room.tables() if row["rules"] == "holdem")


class Spectator(Terminal):
    """A terminal joined as ``--watch`` joins: no seat, the table followed."""

    def __init__(
        self, room: Room, table: str, sessions: Path, *, hands_dir: Path | None = None
    ) -> None:
        joined = watch_table(room.address, table, sessions=sessions)
        self.said = []
        self.table = joined.table
        self.http = joined.http
        self.texts = []
        self.session = RemoteSession(joined.table, buy_in=0, send=print, lang="en", watching=True)
        if hands_dir is not None:
            self.session.open_folder(hands_dir)
        self.app = RemotePlayApp(
            self.session,
            socket=joined.socket,
            cookie=joined.http.cookie_header(),
            http=joined.http,
            listen=self.texts.append,
            tick=False,
        )


def test_a_spectator_follows_the_hands_sees_no_hidden_card_and_resumes(
    room: Room, tmp_path: Path
) -> None:
    table = holdem_table(room)
    where = str(table["id"])
    players = [
        Terminal(room, None, tmp_path / name, int(table["min_buy_in"]), table=where)
        for name in ("anna", "bruno")
    ]
    spectator = Spectator(room, where, tmp_path / "carla")
    shown: list[str] = []
    dropped: list[int] = []

    async def look(terminal: Terminal, pilot: Any) -> None:
        if terminal is not spectator or not spectator.session.hands:
            return
        if not shown:  # connected, a hand seen: a player's keys (sit out, chat, act, rebuy)
            for key in ("o", "t", "c", "f", "r"):
                await pilot.press(key)
            await pilot.pause()
            assert not isinstance(spectator.app.screen, ModalScreen)  # no chat box opened
            shown.append(table_text(spectator.app))
        if len(spectator.session.hands) == 2 and not dropped:
            dropped.append(spectator.app.link.connections)
            await spectator.app.link.drop()  # the network fails: the client opens it again

    def three_hands_seen_after_a_drop() -> bool:
        return bool(dropped) and len(spectator.session.hands) >= 4

    asyncio.run(play([*players, spectator], three_hands_seen_after_a_drop, seconds=60, step=look))
    watched = spectator.session
    assert watched.me not in {p.session.me for p in players}
    assert spectator.app.link.connections == dropped[0] + 1
    numbers = [hand.number for hand in watched.hands]
    assert numbers == sorted(set(numbers)), numbers  # none told twice after the resume
    assert numbers[-1] - numbers[0] == len(numbers) - 1, numbers  # none missed
    messages = spectator.messages()
    assert [m for m in messages if m["type"] == "error"] == []  # its keys asked nothing
    assert not any(m["type"] == "welcome" and where in m["tables"] for m in messages)
    seen = cards_by_hand(messages)
    for player in players:
        theirs = own_cards(player.messages(), player.session.me)
        shown_at_showdown = shown_cards(player.messages())
        assert theirs, "no card was dealt"
        for number, cards in theirs.items():
            hidden = cards - shown_at_showdown.get(number, set())
            assert not hidden & seen.get(number, set()), (number, hidden & seen[number])
    (screen,) = shown
    assert "watching" in screen, screen
    assert "Watching the table · [s] sit down · [h] previous hands" in screen, screen
    for player in players:
        assert player.session.me in screen
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_spectator_sits_down_at_a_free_seat_and_plays_from_there(
    room: Room, tmp_path: Path
) -> None:
    """The spectator's status line offers the free seats; ``s`` takes one with the room's
    usual buy-in (twice the minimum): dealt in, the spectator plays with a player's keys,
    and the hands played are saved, not those watched before."""
    table = next(row for row in room.tables() if row["name"] == "Hold'em 5/10")
    where = str(table["id"])
    players = [Terminal(room, None, tmp_path / name, 200, table=where) for name in ("dora", "ezio")]
    hands = tmp_path / "hands"
    spectator = Spectator(room, where, tmp_path / "fabio", hands_dir=hands)
    offered: list[str] = []
    watched: list[int] = []
    playing: list[str] = []

    async def look(terminal: Terminal, pilot: Any) -> None:
        if terminal is not spectator or not spectator.session.hands:
            return
        if not offered:
            offered.append(table_text(spectator.app))
            watched.extend(hand.number for hand in spectator.session.hands)
            await pilot.press("s")
        elif spectator.session.kept and not playing:
            playing.append(table_text(spectator.app))

    def two_hands_played_and_saved() -> bool:
        return len(spectator.session.kept) >= 2

    asyncio.run(play([*players, spectator], two_hands_played_and_saved, seconds=90, step=look))
    session = spectator.session
    assert "[s] sit down" in offered[0], offered[0]
    assert (session.watching, session.sat_down, session.seated) == (False, True, True)
    messages = spectator.messages()
    assert [m for m in messages if m["type"] == "error"] == []
    assert {"type": "ack", "of": "sit", "table": where} in [
        {key: m.get(key) for key in ("type", "of", "table")} for m in messages
    ]
    sat = next(s for s in session.seats if s["name"] == session.me)
    assert sat["seat"] in range(1, 7)
    saved = sorted(hands.rglob("*.phh"))
    assert len(saved) == len(session.kept) >= 2
    for path in saved:  # hands the spectator was dealt into, none of those only watched
        assert session.me in path.read_text(encoding="utf-8"), path
    assert not {hand.number for hand in session.kept} & set(watched)
    (screen,) = playing
    assert "watching" not in screen and "[t] chat" in screen, screen  # a player's line
    audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit


def test_a_seat_taken_meanwhile_leaves_the_spectator_watching() -> None:
    """The room refuses the seat the spectator asked for (taken meanwhile): watching goes
    on, with the room's reason said; a spectator who sits there already (back with
    ``--watch``) is a player of the table."""
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable

    table = RoomTable(
        "4", "Hold'em 5/10", "holdem", 2, 200, 1000, Stakes(small_blind=5, big_blind=10)
    )
    sent: list[object] = []
    session = RemoteSession(table, buy_in=0, send=sent.append, lang="en", watching=True)
    session.receive(p.Welcome(player="carla", tables=[]))
    assert session.rejoin() == [p.Watch(table="4")]
    session.receive(p.SeatsChanged(table="4", seq=1, seats=[{"seat": 1, "name": "anna"}]))
    assert session.has_free_seat()
    session.sit_down(400)
    assert sent == [p.Sit(table="4", buy_in=400)]
    refusal = "the table is full"
    session.receive(p.Error(code=p.ErrorCode.REFUSED, message=refusal, of="sit"))
    assert (session.watching, session.sat_down, session.sit_refused) == (True, False, None)
    assert session.take_problem() == refusal
    assert session.rejoin() == [p.Resume(table="4", last_seq=1)]
    back = RemoteSession(table, buy_in=0, send=sent.append, lang="en", watching=True)
    back.receive(p.Welcome(player="carla", tables=["4"]))
    assert (back.watching, back.seated) == (False, True)
    assert back.rejoin() == [p.Watch(table="4")]


def test_the_command_watches_and_q_stops_at_once(room: Room, tmp_path: Path) -> None:
    table = holdem_table(room)
    shown = _in_a_terminal(room, tmp_path, "--watch", str(table["id"]), until="Watching the table")
    assert f"You stopped watching {table['name']}." in shown
    assert "watching" in shown


def test_the_command_sits_down_from_watching_and_says_how_to_come_back(
    room: Room, tmp_path: Path
) -> None:
    """``--watch`` with ``--buy-in``: ``s`` sits the spectator with those chips, the screen is
    a player's, and quitting says the seat is kept and the command that comes back to it."""
    table = next(row for row in room.tables() if row["name"] == "32 carte 5/10")
    shown = _in_a_terminal(
        room, tmp_path, "--watch", str(table["id"]), "--buy-in", "300",
        first=(r"\[s\] sit down", b"s"), until=r"guest-\d+ 300 waiting",
    )  # fmt: skip
    back = f"mazziere play --connect {room.address} --table {table['id']}"
    assert f"Your seat at {table['name']} is kept: `{back}` brings you back to it." in shown
    assert "You stopped watching" not in shown


def test_a_private_table_is_not_watched_by_a_stranger(room: Room, tmp_path: Path) -> None:
    invite = private_table(room, tmp_path / "host", "holdem")
    host = Terminal(room, invite, tmp_path / "host", 500)
    with pytest.raises(ConnectError) as refused:
        watch_table(room.address, host.table.id, sessions=tmp_path / "stranger")
    assert str(refused.value) == (
        f"the room has no table {host.table.id} (a private table: only its players watch it)"
    )


def test_bad_watching_is_one_line_and_exit_code_2(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    where = str(holdem_table(room)["id"])
    cases = {
        ("--watch", where): "--watch needs --connect URL",
        ("--connect", room.address, "--watch", "one"): "--watch needs a table's number",
        ("--connect", room.address, "--watch", "9999"): "the room has no table 9999",
        ("--connect", room.address, "--watch", where, "--buy-in", "1"): (
            "the buy-in at Hold'em 1/2 is 40 to 200, not 1"
        ),
        ("--connect", room.address, "--watch", where, "--table", where): (
            "--table is for playing, not with --watch"
        ),
        ("--connect", room.address, "--watch", where, "--tournament"): (
            "--tournament is for playing, not with --watch"
        ),
        ("--connect", room.address, "--watch", where, "--lang", "fr"): "unknown language 'fr'",
    }
    for args, expected in cases.items():
        code, lines = run_play(*args, capsys=capsys)
        assert code == 2, (args, lines)
        assert len(lines) == 1 and expected in lines[0], (args, lines)


def test_a_refusal_to_watch_closes_the_spectators_screen() -> None:
    """A table the lobby lists whose socket refuses the spectator (a private sit & go's, whose
    players alone follow it): the session takes the refusal as the end of watching, and
    sends nothing again on reconnecting."""
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable

    table = RoomTable("9", "Finale", "holdem", 6, 0, 0, Stakes(small_blind=1, big_blind=2))
    session = RemoteSession(table, buy_in=0, send=print, lang="en", watching=True)
    session.receive(p.Welcome(player="carla", tables=[]))
    assert session.rejoin() == [p.Watch(table="9")]
    refusal = "a private sit & go is followed by its host and its players"
    session.receive(p.Error(code=p.ErrorCode.REFUSED, message=refusal, of="watch"))
    assert session.watch_refused == refusal
    assert session.rejoin() == []


def test_a_tournaments_table_is_watched_and_not_sat_at(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """``--watch`` of a running tournament's table watches it, named by its tournament and
    the table's number, with no seat offered (the tournament seats its players); ``--table``
    of it, and ``--watch`` with ``--buy-in``, are one line and exit code 2, the first naming
    the way back for its players (``--tournament-id``).  It had said the room had no such
    table, a private one."""
    event = running_sit_and_go(room)
    table = str(event["tables"][0])
    shown = _in_a_terminal(room, tmp_path, "--watch", table, until="Watching the table")
    assert f"{event['name']} · table {table}" in shown, shown
    assert "[s] sit down" not in shown, shown
    cases = {
        ("--table", table): f"table {table} is one of the tables of {event['name']}: its "
        f"players come back to it with --tournament-id {event['id']}",
        ("--watch", table, "--buy-in", "300"): f"--buy-in is for a cash table: {event['name']} "
        "seats its players",
    }
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for args, expected in cases.items():
        code, lines = run_play("--connect", room.address, *args, capsys=capsys)
        assert (code, lines) == (2, [f"mazziere: error: {expected}"]), lines


def running_sit_and_go(room: Room) -> dict[str, Any]:
    """The lobby's Italian sit & go, filled by guests who never connect (their clocks play
    for them): its details once it runs."""
    import httpx2 as httpx

    from tests.play_room import Person

    lobby = httpx.get(f"{room.address}/api/tournaments?rules=italian-classic&state=registering")
    event = next(t for t in lobby.json()["tournaments"] if t["starts_at"] is None)
    players = [Person(room, 60 + k) for k in range(event["max_players"])]
    for person in players:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text
        person.close()
    page = f"{room.address}/api/tournaments/{event['id']}"
    for _ in range(100):  # it starts as soon as it is full
        details: dict[str, Any] = httpx.get(page).json()
        if details["state"] == "running" and details["tables"]:
            return details
        time.sleep(0.1)
    raise AssertionError(f"the sit & go did not start: {details}")


def test_a_spectator_of_a_table_broken_up_watches_where_the_tournament_goes_on(
    room: Room, tmp_path: Path
) -> None:
    """Six players push all-in in a scheduled tournament of two tables of three: the first
    player out sends everyone to the final table.  The terminal watching the first table is
    told it was broken up and watches the final table from then on, hands included, to the
    end, which it says with the winner; it asked the room nothing it refused."""
    from tests.test_web_pages import Field, scheduled

    tid = scheduled(room.url, seconds=6)
    field = Field(room, 6)  # type: ignore[arg-type]
    try:
        for someone in field.people:
            answer = someone.post(f"/api/tournaments/{tid}/registration")
            assert answer.status_code == 201, answer.text
        page = f"{room.address}/api/tournaments/{tid}"
        for _ in range(200):
            details = httpx.get(page).json()
            if details["state"] == "running" and len(details["tables"]) == 2:
                break
            time.sleep(0.1)
        first = str(details["tables"][0])
        spectator = Spectator(room, first, tmp_path / "viewer")
        field.start()
        session = spectator.session

        def the_end_watched_at_the_final_table() -> bool:
            over = any("The tournament is over" in str(line) for line in session.transcript)
            return session.table_id != first and session.hand is not None and over

        asyncio.run(play([spectator], the_end_watched_at_the_final_table, seconds=120))
    finally:
        field.close()
    winner = next(s for s in httpx.get(page).json()["standings"] if s["place"] == 1)
    # The final table, drawn afresh (the tournament may be over by now: all-in every hand).
    assert int(session.table_id) not in details["tables"], (details["tables"], session.table_id)
    said = [str(line) for line in session.transcript]
    assert f"Table {first} was broken up: watching table {session.table_id} now" in said, said
    end = f"The tournament is over: {winner['player']} won, prize {chips(winner['prize'])}"
    assert said[-1] == end, said
    assert f"table {session.table_id}" in session.snapshot().title
    assert session.watching and not session.has_free_seat()
    messages = spectator.messages()
    assert [m for m in messages if m["type"] == "error"] == []
    closed = [(m["table"], m["tables"], m["over"]) for m in messages if m["type"] == "closed"]
    assert closed == [(first, [session.table_id], False), (session.table_id, [], True)]


def test_a_spectator_of_a_cash_table_that_closes_is_told_and_follows_nothing() -> None:
    """A cash table closed (its host's, or withdrawn by the lobby file): said in the
    client's language, nothing sent, no tournament's end awaited."""
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable

    table = RoomTable("4", "Classica invito 5", "italian-classic", 5, 0, 0, Stakes(ante=5))
    sent: list[object] = []
    session = RemoteSession(table, buy_in=0, send=sent.append, lang="it", watching=True)
    session.receive(p.Welcome(player="carla", tables=[]))
    session.receive(p.TableClosed(table="4", seq=9, over=True, tables=[]))
    assert str(session.transcript[-1]) == "Il tavolo è chiuso."
    assert sent == [] and session.winner_due is None and session.table_id == "4"


def test_a_spectator_session_follows_a_closed_table_and_is_told_the_end() -> None:
    """The session's own rule: a table closed while the tournament goes on is left for the
    first table still playing (unwatched, then watched from its start); the tournament's
    end is said with its winner once read; a player's screen (not watching) follows no
    table."""
    from mazziere.room.structure import Stakes
    from mazziere.server import protocol as p
    from mazziere.tui.connect import RoomTable

    table = RoomTable("7", "Torneo lampo", "italian-32", 5, 0, 0, Stakes(), tournament_id=3)
    sent: list[object] = []
    session = RemoteSession(table, buy_in=0, send=sent.append, lang="en", watching=True)
    session.receive(p.Welcome(player="carla", tables=[]))
    session.receive(p.SeatsChanged(table="7", seq=4, seats=[{"seat": 1, "name": "anna"}]))
    assert not session.has_free_seat()  # four seats free, none to take
    closed = p.TableClosed(table="7", seq=5, tournament=3, over=False, tables=["9", "8"])
    session.receive(closed)
    assert sent == [p.Unwatch(table="7"), p.Watch(table="9")]
    assert (session.table_id, session.seq, session.seats) == ("9", 0, [])
    assert str(session.transcript[-1]) == "Table 7 was broken up: watching table 9 now"
    assert session.snapshot().title.startswith("italian-32 · Torneo lampo · table 9 · ")
    assert session.rejoin() == [p.Watch(table="9")]  # (a drop meanwhile: from its start)
    said = len(session.transcript)
    session.receive(p.TableClosed(table="9", seq=40, tournament=3, over=True, tables=[]))
    assert session.winner_due == 3 and len(session.transcript) == said  # said once read
    session.tournament_over("anna", 540)  # (the standings, as the screen reads them)
    assert str(session.transcript[-1]) == "The tournament is over: anna won, prize 540"
    assert session.winner_due is None
    assert session.table_id == "9" and len(sent) == 2
    player = RemoteSession(table, buy_in=0, send=sent.append, lang="en")
    player.receive(p.Welcome(player="anna", tables=["7"]))
    player.receive(closed)
    assert player.table_id == "7" and len(sent) == 2
    player.receive(p.TableClosed(table="7", seq=41, tournament=3, over=True, tables=[]))
    assert str(player.transcript[-1]) == "The tournament is over"
    assert player.winner_due is None  # (their own place is read from the standings)
