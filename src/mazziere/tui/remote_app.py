"""The terminal table at a room's table: :class:`RemotePlayApp` over a :class:`RoomLink`.

The screen, its keys and its words are the terminal game's
(:class:`~mazziere.tui.app.PlayApp`); the game is a seat in a running room
(:class:`~mazziere.tui.remote.RemoteSession`), reached over the room's
WebSocket by :class:`RoomLink`.  The keys the room adds: ``t`` to chat (Enter
sends, Esc closes; ``/mute NAME`` there hides a player's chat at this terminal,
``/unmute NAME`` shows it again, ``/report NAME WHY`` reports a player to the room's
operator), ``o`` to sit out from the next hand (``i`` to come
back), ``q`` to leave the table (asked twice during a hand; the seat is
given up at the end of the hand) and quit.  A spectator (``--watch``) has
only ``h``, ``C``, ``q``, which stops watching at once, and ``s``, which takes a free
seat (then the player's keys are theirs).  Ctrl+Q quits and keeps the
seat: run the same command again to come back to it (the room plays a
missing player's turns by the clock meanwhile).  A lost connection is
opened again by itself; the client then resumes after the last event it
saw and sends again an action the room had not acknowledged (with its turn
id: never applied twice).  Each hand the player was dealt into is fetched
from the room as it ends and saved, as ``mazziere play`` saves its hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Input

from mazziere.game.core import ActionKind
from mazziere.room.table import SeatStatus
from mazziere.server import protocol as p
from mazziere.tui.app import PlayApp
from mazziere.tui.connect import ConnectError, RoomHttp, buy_in_for, download_hand
from mazziere.tui.hints import describe
from mazziere.tui.remote import ChatLine, RemoteSession
from mazziere.tui.session import Snapshot

__all__ = ["MutedPlayers", "RemotePlayApp", "RoomLink"]

log = logging.getLogger(__name__)


_LOGGED_OUT = (p.ErrorCode.UNAUTHENTICATED, p.ErrorCode.SESSION_ENDED)
"""The room's word that this session is over: the client stops, and says why."""


class RoomLink:
    """The WebSocket to the room for one :class:`RemoteSession`, opened again when it drops.

    ``cookie``: the session's ``Cookie`` header; ``on_change`` is called after
    every message (the screen redraws); ``listen`` sees every text received
    (the tests keep them).
    """

    def __init__(
        self,
        socket: str,
        cookie: str,
        session: RemoteSession,
        *,
        on_change: Callable[[], None] = lambda: None,
        listen: Callable[[str], None] | None = None,
        retry_seconds: tuple[float, float] = (0.5, 5.0),
    ) -> None:
        self.socket = socket
        self.cookie = cookie
        self.session = session
        self.on_change = on_change
        self.listen = listen
        self.retry_seconds = retry_seconds
        self.connections = 0
        """How many times the socket was opened."""
        self.stopped = False
        self.refused: str | None = None
        """Why the room will not take this session (then the link stops)."""
        self._outbox: asyncio.Queue[BaseModel] | None = None
        self._socket: Any = None
        session.send = self.send

    def send(self, message: BaseModel) -> None:
        """Send ``message`` now if connected (an action is sent again on reconnecting)."""
        if self._outbox is None:
            if not isinstance(message, p.Act):
                self.session.problem = self.session.words.pick(
                    "Non connesso: riprova tra un momento", "Not connected: try again in a moment"
                )
            return
        self._outbox.put_nowait(message)

    async def run(self) -> None:
        """Connect, play, and connect again after a drop, until :meth:`stop`."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, WebSocketException

        wait = self.retry_seconds[0]
        while not self.stopped:
            try:
                async with connect(
                    self.socket,
                    additional_headers={"Cookie": self.cookie},
                    max_size=2**20,
                    open_timeout=10,
                ) as socket:
                    self.connections += 1
                    wait = self.retry_seconds[0]
                    await self._play(socket)
            except (OSError, TimeoutError, InvalidHandshake, WebSocketException) as error:
                log.info("connection to %s lost: %s", self.socket, error)
            self._lost()
            if self.stopped:
                return
            await asyncio.sleep(wait)
            wait = min(self.retry_seconds[1], wait * 2)

    async def _play(self, socket: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        self._socket = socket
        outbox: asyncio.Queue[BaseModel] = asyncio.Queue()
        writer = asyncio.create_task(self._write(socket, outbox))
        try:
            async for text in socket:
                for message in self._parse(text):
                    if isinstance(message, p.Error) and message.code in _LOGGED_OUT:
                        self.refused = message.message
                        self.stopped = True
                        self.on_change()
                        return
                    self.session.receive(message)
                    if isinstance(message, p.Welcome):
                        self.session.connected = True
                        self._outbox = outbox
                        for first in self.session.rejoin():
                            outbox.put_nowait(first)
                self.on_change()
        except ConnectionClosed:
            pass
        finally:
            self._outbox = None
            self._socket = None
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    def _parse(self, text: str | bytes) -> list[BaseModel]:
        """The messages of one frame, in order (a batch's one by one); one this client does
        not know is left out (the others of its batch are still read)."""
        if self.listen is not None:
            self.listen(text if isinstance(text, str) else text.decode(errors="replace"))
        try:
            frame = json.loads(text)
            raw = list(p.unbatch(frame))
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("the room sent a frame this client cannot read: %.200s", text)
            return []
        messages: list[BaseModel] = []
        for item in raw:
            try:
                messages.append(p.parse_server(item))
            except ValidationError:
                log.warning("the room sent a message this client does not know: %.200s", item)
        return messages

    async def _write(self, socket: Any, outbox: asyncio.Queue[BaseModel]) -> None:
        while True:
            message = await outbox.get()
            await socket.send(p.dump(message))

    def _lost(self) -> None:
        session = self.session
        if session.connected and not self.stopped:
            session.note(
                Text(
                    session.words.pick(
                        "Connessione persa: riprovo…", "Connection lost: trying again…"
                    ),
                    style="bold red",
                )
            )
        session.connected = False
        self.on_change()

    async def drop(self) -> None:
        """Close the socket as a network failure would (it is opened again)."""
        socket = self._socket
        if socket is not None:
            await socket.close()

    async def stop(self) -> None:
        """Close for good."""
        self.stopped = True
        await self.drop()


class MutedPlayers:
    """The players whose chat this terminal does not show, kept in ``file`` between
    sittings (one room's: the names are its accounts'; a browser keeps its own list).

    Names are compared whatever their case, as the room compares them.

    >>> muted = MutedPlayers(None)
    >>> muted.change("Marco", on=True)
    >>> "marco" in muted, "anna" in muted
    (True, False)
    >>> muted.change("MARCO", on=False)
    >>> "marco" in muted
    False
    """

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self.names: set[str] = set()
        if file is not None:
            # A list that cannot be read is an empty one: muting is this terminal's comfort,
            # never a reason to stop the table.
            with contextlib.suppress(OSError, ValueError):
                kept = json.loads(file.read_text())
                if isinstance(kept, list):
                    self.names = {name.casefold() for name in kept if isinstance(name, str)}

    def __contains__(self, name: str) -> bool:
        return name.casefold() in self.names

    def change(self, name: str, *, on: bool) -> None:
        """Mute ``name`` (``on``) or hear them again, and keep the list."""
        if on:
            self.names.add(name.casefold())
        else:
            self.names.discard(name.casefold())
        if self.file is not None:
            with contextlib.suppress(OSError):  # kept for this sitting all the same
                self.file.parent.mkdir(parents=True, exist_ok=True)
                self.file.write_text(json.dumps(sorted(self.names)))


class ChatScreen(ModalScreen[str | None]):
    """The chat line: Enter says it at the table, Esc closes it unsaid."""

    BINDINGS: ClassVar = [Binding("escape", "close", "close")]

    DEFAULT_CSS = """
    ChatScreen { align: center bottom; background: $background 30%; }
    #chat { width: 100%; margin: 0 0 3 0; }
    """

    def __init__(self, pick: Callable[[str, str], str]) -> None:
        super().__init__()
        self.pick = pick

    def compose(self) -> ComposeResult:
        yield Input(
            id="chat",
            max_length=p.CHAT_LIMIT,
            placeholder=self.pick(
                "Scrivi al tavolo · Invio per mandare · Esc per chiudere · "
                "/silenzia NOME nasconde la chat di un giocatore",
                "Say something at the table · Enter to send · Esc to close · "
                "/mute NAME hides a player's chat",
            ),
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: say it."""
        self.dismiss(event.value.strip() or None)

    def action_close(self) -> None:
        """Esc: nothing said."""
        self.dismiss(None)


class RemotePlayApp(PlayApp):
    """``mazziere play --connect``: the terminal table at a seat of a running room.

    ``http``: the session's REST API, through which each hand the player was dealt
    into is fetched as it ends and saved under ``hands_dir`` (as ``mazziere play``
    saves its hands; without ``http`` nothing is saved).  ``muted_file`` keeps the
    players muted at this terminal (without it, the list lasts the sitting).
    """

    def __init__(
        self,
        session: RemoteSession,
        *,
        socket: str,
        cookie: str,
        http: RoomHttp | None = None,
        hands_dir: Path | None = None,
        listen: Callable[[str], None] | None = None,
        tick: bool = True,
        muted_file: Path | None = None,
        sit_buy_in: int | None = None,
    ) -> None:
        super().__init__(session, bot_delay=0, next_hand_delay=None, tick=tick, hands_dir=hands_dir)
        self.remote = session
        self.http = http
        self.link = RoomLink(socket, cookie, session, on_change=self._on_room, listen=listen)
        self._leaving = False
        self._room_hint: tuple[int, str] | None = None
        """The room's hint of the player's current turn (its action id, the line)."""
        self._hints_refused = False
        """The room's last answer was that hints are not offered here (told once in the log)."""
        self._asking_standings = False
        self._asking_winner = False
        self.muted = MutedPlayers(muted_file)
        self.sit_buy_in = sit_buy_in
        """A spectator's chips to bring on taking a seat (``None``: the room's usual)."""
        self._sitting = False
        self._quitting = False

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self.link.run(), name="room", exit_on_error=False)

    def _on_room(self) -> None:
        """A message came (or the connection changed): show it."""
        if not self.is_running:
            return
        problem = self.remote.take_problem()
        if problem is not None:
            self.message = Text(problem, style="bold red")
        if self.link.refused is not None:
            self.exit(None, message=f"the room refused the session: {self.link.refused}")
            return
        if (
            self.remote.left
            or self.remote.sit_refused is not None
            or self.remote.watch_refused is not None
        ):
            self._quit_once()
            return
        self._fetch_histories()
        self._read_standings()
        self._read_winner()
        self._after_change()

    # ---------------------------------------------------------- tournaments

    def _read_winner(self) -> None:
        """A spectator at a tournament's end: its winner, from the standings (stored with
        the command that ended it, before the table said it closed)."""
        tournament = self.remote.winner_due
        if tournament is None or self.http is None or self._asking_winner:
            return
        self._asking_winner = True
        self.run_worker(self._winner(tournament), group="standings", exit_on_error=False)

    async def _winner(self, tournament: int) -> None:
        assert self.http is not None
        try:
            status, data = await asyncio.to_thread(
                self.http.call, "GET", f"/api/tournaments/{tournament}"
            )
        except ConnectError:
            status, data = 0, None
        finally:
            self._asking_winner = False
        standings = data.get("standings") if status == 200 and isinstance(data, dict) else None
        first = next((s for s in standings or () if s.get("place") == 1), None)
        if first is None:
            self.remote.tournament_over(None, 0)
        else:
            self.remote.tournament_over(str(first.get("player")), int(first.get("prize") or 0))
        self._after_change()

    def _read_standings(self) -> None:
        """A sit & go: after each hand, whether the player's tournament is over (the room's
        standings give the place and the prize)."""
        session = self.remote
        if session.tournament is None or not session.standing_due or self.http is None:
            return
        if session.finish is not None or self._asking_standings:
            return
        session.standing_due = False
        self._asking_standings = True
        self.run_worker(self._standings(), group="standings", exit_on_error=False)

    async def _standings(self) -> None:
        assert self.http is not None and self.remote.tournament is not None
        path = f"/api/tournaments/{self.remote.tournament.id}"
        try:
            status, data = await asyncio.to_thread(self.http.call, "GET", path)
        except ConnectError:
            status, data = 0, None
        finally:
            self._asking_standings = False
        if status == 200 and isinstance(data, dict):
            mine = next(
                (s for s in data.get("standings") or () if s.get("player") == self.remote.me),
                None,
            )
            if mine is not None and mine.get("place") is not None:
                self.remote.finished(int(mine["place"]), int(mine.get("prize") or 0))
        self._read_standings()  # a hand that ended meanwhile
        self._after_change()

    # ------------------------------------------------------- hand histories

    def _fetch_histories(self) -> None:
        """Fetch each hand that ended from the room, in the background (the table goes on)."""
        if self.http is None:
            return
        while self.remote.to_download:
            table, number = self.remote.to_download.pop(0)
            self.run_worker(self._fetch(table, number), group="histories", exit_on_error=False)

    async def _fetch(self, table: str, number: int) -> None:
        assert self.http is not None
        try:
            phh = await asyncio.to_thread(download_hand, self.http, table, number)
        except ConnectError as error:
            line = self.words.pick(
                f"Mano {number} non salvata: {error}", f"Hand {number} not saved: {error}"
            )
            self.message = Text(line, style="red")
            self.remote.note(Text(line, style="red"))  # the log keeps it after the status goes
        else:
            self.remote.keep_history(table, number, phh)
        self._after_change()

    def fetch_missing(self) -> list[tuple[int, str]]:
        """After the screen closed: fetch now the hands not saved yet (a download cut short
        by quitting, or one that failed); the hands that still could not be, and why."""
        failed: list[tuple[int, str]] = []
        if self.http is None:
            return failed
        unreachable: str | None = None
        for table, number in self.remote.not_kept():
            if unreachable is not None:  # the room is gone: no use waiting for it again
                failed.append((number, unreachable))
                continue
            try:
                phh = download_hand(self.http, table, number)
            except ConnectError as error:
                failed.append((number, str(error)))
                if str(error).startswith("cannot reach"):
                    unreachable = str(error)
            else:
                self.remote.keep_history(table, number, phh)
        return failed

    # ---------------------------------------------------------------- hints

    def _hint(self, snap: Snapshot) -> str:
        """``--hints``: the room's hint of the player's decision (``GET /api/tables/{id}/hint``,
        asked once a turn, in the background; the line shows when it comes)."""
        decision = self.remote.my_decision()
        if decision is None or self.http is None:
            return ""
        known = self._room_hint
        if known is None or known[0] != decision.action_id:
            self._room_hint = (decision.action_id, "")
            drawing = ActionKind.DRAW in decision.legal.kinds
            self.run_worker(
                self._ask_hint(decision.action_id, drawing), group="hints", exit_on_error=False
            )
            return ""
        return known[1]

    async def _ask_hint(self, action_id: int, drawing: bool) -> None:
        assert self.http is not None
        lang = self.words.lang
        path = f"/api/tables/{self.remote.table_id}/hint?lang={lang}"
        try:
            status, data = await asyncio.to_thread(self.http.call, "GET", path)
        except ConnectError:
            return  # no hint this turn; the next one asks again
        if status != 200 or not isinstance(data, dict):
            return
        if not data.get("offered"):
            # Offered or not can change (a person sits down with the bots): asked every turn,
            # the refusal told once, in the client's own words (the room's reason is English).
            if self._hints_refused:
                return
            self._hints_refused = True
            self.remote.note(
                Text(
                    self.words.pick(
                        "Niente consigli a questo tavolo: ci sono dove tutti gli altri posti "
                        "sono bot, o dove l'host li permette",
                        "No hints at this table: they are offered where every other seat is "
                        "a bot, or where the host allows them",
                    ),
                    style="yellow",
                )
            )
        else:
            self._hints_refused = False
            if self._room_hint is not None and self._room_hint[0] == action_id:
                hint = data.get("hint")
                text = describe(hint, lang=lang, drawing=drawing) if hint else ""
                self._room_hint = (action_id, text)
        self._after_change()

    # ---------------------------------------------------------------- keys

    def _keys(self) -> dict[str, Callable[[], None]]:
        keys = super()._keys()
        if self.remote.watching:  # nothing to play, and the room hears only its players
            return {key: keys[key] for key in ("h", "C", "q")} | {"s": self.action_sit_down}
        keys.update({"t": self.action_chat, "o": self.action_sit_out})
        return keys

    def action_sit_down(self) -> None:
        """A spectator takes a free seat, with ``--buy-in`` or the room's usual buy-in (twice
        the minimum, within the balance): a player of the table from then on."""
        if self._sitting or not self.remote.has_free_seat() or self.http is None:
            return  # (the status line offers it only where a seat is free)
        self._sitting = True
        self.run_worker(self._sit_down(), group="sit", exit_on_error=False)

    async def _sit_down(self) -> None:
        assert self.http is not None
        pick = self.words.pick
        try:
            account = await asyncio.to_thread(
                self.http.expect, "GET", "/api/account", what="cannot read the account"
            )
            buy_in = buy_in_for(self.remote.room_table, self.sit_buy_in, account)
        except ConnectError as refused:
            self.message = Text(str(refused), style="bold red")
        else:
            self.remote.sit_down(buy_in)
            self.message = Text(pick(f"Ti siedi con {buy_in}…", f"Sitting down with {buy_in}…"))
        finally:
            self._sitting = False
        self._after_change()

    def action_chat(self) -> None:
        """Open the chat line (a box over the table: the game's keys wait meanwhile)."""
        self.push_screen(ChatScreen(self.words.pick), self._said)

    def _said(self, text: str | None) -> None:
        if text and text.startswith("/"):
            self.message = self._chat_command(text[1:])
        elif text:
            self.remote.chat(text)
        self._after_change()

    def _chat_command(self, command: str) -> Text:
        """``/mute NAME``, ``/unmute NAME``, ``/mute`` (who is muted; in Italian ``/silenzia``
        and ``/riattiva``), ``/report NAME WHY`` (``/segnala``): what was done, in the status
        line."""
        pick = self.words.pick
        verb, _, name = command.partition(" ")
        name = name.strip()
        verb = verb.casefold()
        if verb in ("report", "segnala"):
            who, _, why = name.partition(" ")
            if who and why.strip() and self.http is not None:
                self.run_worker(self._report(who, why.strip()), group="report", exit_on_error=False)
                return Text(pick(f"Segnalo {who}…", f"Reporting {who}…"))
        mute, unmute = verb in ("mute", "silenzia"), verb in ("unmute", "riattiva")
        if mute and not name:
            if not self.muted.names:
                return Text(pick("Nessuna chat silenziata", "Nobody's chat is muted"))
            listed = ", ".join(sorted(self.muted.names))
            return Text(pick(f"Chat silenziata: {listed}", f"Chat muted: {listed}"))
        if mute and name.casefold() == self.remote.me.casefold():
            return Text(pick("Non puoi silenziare te stesso", "You cannot mute yourself"))
        if mute or (unmute and name):
            self.muted.change(name, on=mute)
            self._rewrite_log()
            if mute:
                return Text(
                    pick(
                        f"Chat di {name} silenziata · /riattiva {name} per sentirla di nuovo",
                        f"{name}'s chat muted · /unmute {name} to hear it again",
                    )
                )
            return Text(pick(f"Senti di nuovo la chat di {name}", f"{name}'s chat is heard again"))
        return Text(
            pick(
                "Comandi della chat: /silenzia NOME, /riattiva NOME, /silenzia (chi è silenziato), "
                "/segnala NOME PERCHÉ",
                "Chat commands: /mute NAME, /unmute NAME, /mute (who is muted), /report NAME WHY",
            ),
            style="yellow",
        )

    async def _report(self, who: str, why: str) -> None:
        """Report ``who`` to the room's operator (``POST /api/reports``); the answer in the
        status line."""
        assert self.http is not None
        body = {"player": who, "table": int(self.remote.table_id), "reason": why[:200]}
        pick = self.words.pick
        try:
            await asyncio.to_thread(
                self.http.expect, "POST", "/api/reports", body, what=f"cannot report {who}"
            )
        except ConnectError as refused:
            self.message = Text(str(refused), style="bold red")
        else:
            self.message = Text(
                pick(
                    f"Hai segnalato {who}: chi gestisce la sala lo leggerà",
                    f"You reported {who}: the room's operator will read it",
                )
            )
        self._after_change()

    def _shows(self, line: Text) -> bool:
        return not (isinstance(line, ChatLine) and line.who in self.muted)

    def action_sit_out(self) -> None:
        """Sit out from the next hand (``i`` comes back, or takes it back before then).  The
        status line says what the room made of it: sitting out at once between hands, after
        this one during a hand (a message of its own here would outlive the room's answer)."""
        if self.remote.my_status() is SeatStatus.SITTING_OUT:
            return
        self.remote.sit_out()
        self.message = None

    def action_next_hand(self) -> None:
        """The room deals by itself."""

    def action_quit_game(self) -> None:
        """Leave the table and quit (asked again during a hand).  A sit & go's table is not
        left: quitting (asked again) lets the room's clock play the player's turns.  A
        spectator stops watching at once."""
        if self.remote.watching:
            self.run_worker(self.action_quit(), exit_on_error=False)
            return
        if self.remote.is_tournament:
            if self.remote.over or self._quit_asked:
                self.run_worker(self.action_quit(), exit_on_error=False)
                return
            self._quit_asked = True
            self.message = Text(
                self.words.pick(
                    "Premi q di nuovo per uscire: il torneo va avanti, il tempo gioca per te "
                    "(lo stesso comando ti riporta al tavolo)",
                    "Press q again to quit: the tournament goes on, the clock plays for you "
                    "(the same command brings you back)",
                ),
                style="bold yellow",
            )
            return
        if self.remote.in_hand and not self._quit_asked:
            self._quit_asked = True
            self.message = Text(
                self.words.pick(
                    "Premi q di nuovo per lasciare il tavolo (alla fine della mano)",
                    "Press q again to leave the table (at the end of the hand)",
                ),
                style="bold yellow",
            )
            return
        if not self.remote.connected or not self.remote.seated:
            self._quit_once()
            return
        self._leaving = True
        self.remote.leave()
        self.message = Text(
            self.words.pick("Lasci il tavolo…", "Leaving the table…"), style="yellow"
        )

    async def action_quit(self) -> None:  # ctrl+q
        """Quit at once, keeping the seat (the same command comes back to it)."""
        await self.link.stop()
        self.exit(None)

    def _quit_once(self) -> None:
        """Quit as :meth:`action_quit` does, the link closed first (left to the app's end, a
        socket cut in the middle of its closing may stay open until collected), once: the
        room's messages may still come meanwhile."""
        if not self._quitting:
            self._quitting = True
            self.run_worker(self.action_quit(), exit_on_error=False)

    def _status_text(self, snap: Snapshot) -> Text:
        if self.message is not None:
            return self.message
        words = self.words
        session = self.remote
        text = Text(style="dim")
        status = session.my_status()
        if not session.connected:
            text.append(words.pick("Connessione al tavolo…", "Connecting to the table…"))
            return text
        if session.watching:
            text.append(words.pick("Guardi il tavolo · ", "Watching the table · "))
            if session.has_free_seat():
                text.append(words.pick("[s] siediti · ", "[s] sit down · "), style="bold")
            text.append(
                words.pick(
                    "[h] mani precedenti · [C] 4 colori · [q] esci",
                    "[h] previous hands · [C] four colours · [q] quit",
                )
            )
            return text
        if session.finish is not None:
            place, prize = session.finish
            text.append(
                words.pick(
                    f"Torneo finito: {place}° posto, premio {prize} · [h] mani · [q] esci",
                    f"Tournament over: place {place}, prize {prize} · [h] hands · [q] quit",
                )
            )
            return text
        if session.is_tournament:
            if status is None and session.seated:
                text.append(words.pick("Sei fuori dal torneo…", "You are out…"))
                return text
            text.append(
                words.pick(
                    "[o] salta le prossime mani · [h] mani · [q] esci (il posto resta)",
                    "[o] sit out · [h] hands · [q] quit (the seat stays)",
                )
            )
            return text
        if status is SeatStatus.BUSTED:
            text.append(words.pick("Senza fiches · [r] ricompra · ", "No chips · [r] buy in · "))
        elif status is SeatStatus.SITTING_OUT:
            text.append(words.pick("In sit-out · [i] rientra · ", "Sitting out · [i] sit in · "))
        elif session.sits_out_next():
            text.append(
                words.pick(
                    "Salterai le prossime mani · [i] annulla · ",
                    "Sitting out from the next hand · [i] undo · ",
                )
            )
        elif not session.in_hand:
            text.append(words.pick("[o] salta le prossime mani · ", "[o] sit out · "))
        text.append(
            words.pick(
                "[t] chat · [h] mani precedenti · [C] 4 colori · [q] lascia il tavolo",
                "[t] chat · [h] previous hands · [C] four colours · [q] leave the table",
            )
        )
        return text
