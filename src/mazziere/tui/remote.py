"""A seat at a table of a running room (``mazziere play --connect URL``) as a source of the
terminal table.

:class:`RemoteSession` is what :class:`~mazziere.tui.app.PlayApp` shows and plays
when the game is not in this process: it reads the room's messages
(:mod:`mazziere.server.protocol`) for one table and one seat, and turns the
player's keys into the protocol's messages.  What the room sends is the only
truth: the hand is rebuilt from the records the room sent this seat
(:class:`~mazziere.tui.seen.SeenHand`; another seat's card is unknown until the
room shows it), what the player may do is the ``legal`` of the room's
``turn``, and every action quotes that turn's ``action_id``, so a retry after
a lost connection is acknowledged by the room and not applied twice.  It
does no I/O itself: messages leave through the ``send`` it is given
(:class:`~mazziere.tui.connect.RoomLink` puts them on the WebSocket).

>>> from mazziere.room.structure import Stakes
>>> from mazziere.tui.connect import RoomTable
>>> sent = []
>>> table = RoomTable(id="7", name="Amici", rules="holdem", seats=2, min_buy_in=100,
...                   max_buy_in=400, stakes=Stakes(small_blind=1, big_blind=2))
>>> session = RemoteSession(table, buy_in=200, send=sent.append, lang="en")
>>> session.receive(p.Welcome(player="ann", tables=[]))
>>> session.receive(p.HandStarted(table="7", seq=4, hand=1, rules="holdem", names=["ann", "bob"],
...                               seats=[1, 2], button=2, commitment="00"))
>>> session.receive(p.Turn(table="7", seq=5, hand=1, action_id=3, name="ann", position=0,
...                        legal={"position": 0, "kinds": ["call", "fold", "raise"],
...                               "to_call": 1, "min_to": 4, "max_to": 200},
...                        deadline=30, time_bank=60))
>>> session.act(Action.call())
>>> sent[-1]
Act(v=1, type='act', table='7', action_id=3, kind='call', amount=None, cards=[])
>>> session.my_decision() is None  # answered: the room is asked, the buttons wait
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rich.text import Text

from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.room.clock import Clock
from mazziere.room.structure import Stakes
from mazziere.room.table import OfferKind, SeatStatus
from mazziere.rules import find_rules
from mazziere.server import protocol as p
from mazziere.tui.connect import RoomTable, RoomTournament
from mazziere.tui.render import chips
from mazziere.tui.seen import SeenHand
from mazziere.tui.session import (
    HandsFolder,
    PlayConfig,
    PlayedHand,
    PlayError,
    SeatLine,
    Snapshot,
    SystemClock,
)
from mazziere.tui.telling import (
    hand_context,
    hand_header,
    hand_notes,
    hand_summary,
    has_drawn,
    my_cards,
    seat_note,
)
from mazziere.tui.words import Narrator, Words

__all__ = ["ChatLine", "RemoteDecision", "RemoteOffer", "RemoteSession", "legal_from_dict"]


class ChatLine(Text):
    """A line said at the table, with who said it (the log leaves out muted players')."""

    def __init__(self, who: str, said: str) -> None:
        super().__init__(f"{who}: ", style="bold blue")
        self.append(said)
        self.who = who


@dataclass(frozen=True, slots=True)
class RemoteDecision:
    """The player's turn, as the room announced it."""

    legal: LegalActions
    action_id: int


@dataclass(frozen=True, slots=True)
class RemoteOffer:
    """The room's question to the player before the deal, open until ``until`` (the
    session's clock; then the room takes it as a no)."""

    kind: OfferKind
    amount: int
    until: float


def legal_from_dict(data: Mapping[str, Any]) -> LegalActions:
    """The engine's legal actions from their JSON (``LegalActions.to_dict()``).

    >>> legal_from_dict({"position": 1, "kinds": ["check", "bet"], "to_call": 0,
    ...                  "min_to": 10, "max_to": 90}).min_to
    10
    """
    return LegalActions(
        (
            data.get("position"),
            frozenset(ActionKind(kind) for kind in data.get("kinds") or ()),
            int(data.get("to_call") or 0),
            int(data.get("min_to") or 0),
            int(data.get("max_to") or 0),
        )
    )


class _SeenTable:
    """The table as :class:`~mazziere.tui.source.TableLike`: the hand as the seat saw it."""

    def __init__(self, session: RemoteSession) -> None:
        self._session = session

    @property
    def hand(self) -> SeenHand | None:
        return self._session.hand

    @property
    def hand_number(self) -> int:
        hand = self._session.hand
        return hand.number if hand is not None else 0


class RemoteSession:
    """One seat at the room's table ``table``, fed by :meth:`receive`; sends through ``send``.

    ``buy_in``: the chips brought when sitting down (and when buying in again
    after losing them all).  ``hints``: the player asked for the room's hints
    (shown where the room offers them).  ``tournament``: the sit & go whose
    table this is (the player was seated by the room when it started).
    ``watching``: no seat, the table followed as a spectator sees it (every
    hole card face down until a showdown shows it), until the spectator takes a
    free seat (:meth:`sit_down`).
    """

    def __init__(
        self,
        table: RoomTable,
        *,
        buy_in: int,
        send: Callable[[BaseModel], None],
        lang: str = "it",
        four_colour: bool = False,
        hints: bool = False,
        tournament: RoomTournament | None = None,
        clock: Clock | None = None,
        watching: bool = False,
    ) -> None:
        self.room_table = table
        self.watching = watching
        self.watch_refused: str | None = None
        """Why the room will not let this spectator follow the table (then the screen
        closes)."""
        self.sat_down = False
        """The spectator asked for a seat (:meth:`sit_down`): a player of the table from then
        on, and a spectator again if the room refuses the seat."""
        self.tournament = tournament
        """The sit & go this table plays (``None``: a cash table)."""
        self.finish: tuple[int, int] | None = None
        """In a tournament, once the player's place is known: the place and the prize."""
        self.standing_due = False
        """A tournament's hand ended (or the player's seat went): the standings are to be read
        (``GET /api/tournaments/<id>``) to know whether the player's tournament is over."""
        self.winner_due: int | None = None
        """A spectator at a tournament's end: the tournament whose winner is to be read from
        its standings and said (:meth:`tournament_over`)."""
        self.table_id = table.id
        self.buy_in = buy_in
        self.send = send
        self.config = PlayConfig(rules=table.rules, lang=lang, four_colour=four_colour, hints=hints)
        self.rules = find_rules(table.rules)
        self.words = Words(lang)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.me = ""
        """The player's name at the room's tables (from the room's ``welcome``)."""
        self.seq = 0
        """The last sequence number of the table received (sent back on reconnecting)."""
        self.seats: list[dict[str, Any]] = []
        self.gone: set[str] = set()
        """The seated players whose connections are all closed (the room's ``presence``)."""
        self.carried_pot = 0
        self.hand: SeenHand | None = None
        self.turn: p.Turn | None = None
        self._turn_at = 0.0
        self.level: p.LevelInfo | None = None
        """A sit & go's level, as the room last told it."""
        self.offer: RemoteOffer | None = None
        self.pending: p.Act | None = None
        """The action sent and not yet acknowledged: sent again after a reconnection."""
        self.seated = False
        self.left = False
        """The room acknowledged that the player left the table."""
        self.sit_refused: str | None = None
        """Why the room would not seat the player (then the screen closes)."""
        self.connected = False
        self.problem: str | None = None
        """The room's last refusal, in its words, until the screen took it."""
        self.hands: list[PlayedHand] = []
        self.transcript: list[Text] = []
        self.dealt_in: list[tuple[str, int]] = []
        """The hands the player was dealt into that ended (table, number), in order: each one's
        history is fetched from the room (``GET /api/hands/<id>/phh``) and saved
        (:meth:`keep_history`)."""
        self.to_download: list[tuple[str, int]] = []
        """Of those, the ones whose download has not been started."""
        self.tournament_tables: tuple[str, ...] = ()
        """A tournament's tables when it started (the player's is among them)."""
        self.kept: list[PlayedHand] = []
        """The hands whose history came from the room, as the sitting's folder holds them."""
        self.started = datetime.now()
        self._saving = HandsFolder(self._folder_name, self.words, self.note)
        self._narrator: Narrator | None = None
        self._lines: list[Text] = []
        self._names_shown = False
        self._table = _SeenTable(self)

    # ------------------------------------------------------------ the room

    def receive(self, message: BaseModel) -> None:
        """One message from the room, parsed (:func:`~mazziere.server.protocol.parse_server`)."""
        if isinstance(message, p.Welcome):
            self.me = message.player
            if self.watching and self.table_id in message.tables:
                self.watching, self.sat_down = False, True  # their own seat: a player's
            if self.tournament is not None and self.table_id not in message.tables:
                # The room seated the player at another of the tournament's tables.
                mine = [t for t in message.tables if t in self.tournament_tables]
                if mine:
                    self._follow(mine[0])
            self.seated = self.seated or self.table_id in message.tables
            return
        if isinstance(message, p.Moved):
            if message.from_table == self.table_id:  # the new table's snapshot comes next
                self._follow(message.table, told=True, reason=message.reason)
            return
        if isinstance(message, p.Ack):
            self._acknowledged(message)
            return
        if isinstance(message, p.Error):
            if message.of == "act":
                self.pending = None  # refused: the turn (if still on) may be answered again
            if message.of == "sit" and not self.seated:
                if self.sat_down:  # the seat went meanwhile: watching goes on
                    self.sat_down, self.watching = False, True
                else:
                    self.sit_refused = message.message  # nowhere to sit: nothing more to show
            if message.of in ("watch", "resume") and self.watching:
                self.watch_refused = message.message  # nothing more to show
            self.problem = message.message
            return
        if isinstance(message, p.Pong):
            return
        table = getattr(message, "table", None)
        if table != self.table_id:
            return  # another table of the player's: this screen shows one
        if isinstance(message, p.Snapshot):
            self._snapshot(message)
            return
        seq = getattr(message, "seq", None)
        if isinstance(seq, int):
            if seq <= self.seq:
                return  # seen already (a resume sends what may have arrived)
            self.seq = seq
        self._event(message)

    def _acknowledged(self, message: p.Ack) -> None:
        if message.of == "act" and self.pending is not None:
            if message.action_id == self.pending.action_id:
                self.pending = None
        elif message.of == "sit" and message.table == self.table_id:
            self.seated = True
        elif message.of == "leave" and message.table == self.table_id:
            self.left = True

    def _event(self, message: BaseModel) -> None:
        if isinstance(message, p.SeatsChanged):
            self.seats = list(message.seats)
            # A player who left is no longer said gone (seated again, they have a connection).
            self.gone &= {str(s.get("name")) for s in self.seats}
            self.carried_pot = message.carried_pot
            if not self.seated and any(s.get("name") == self.me for s in self.seats):
                self.seated = True
            if self.tournament is not None and self.my_seat() is None:
                self.standing_due = True  # out, or the table closed at the end
        elif isinstance(message, p.HandStarted):
            self._hand_started(message)
        elif isinstance(message, p.HandRecord):
            self._record(message)
        elif isinstance(message, p.Turn):
            self.turn = message
            self._turn_at = self.clock.now()
        elif isinstance(message, p.HandEnded):
            self._hand_ended(message)
        elif isinstance(message, p.OfferMade):
            if message.name == self.me:
                self.offer = self._offer(message.kind, message.amount, message.seconds)
        elif isinstance(message, p.LevelChanged):
            was_on_break = self.level is not None and self.level.on_break
            self.level = message.level
            if message.level.on_break and not was_on_break:
                self.note(self._break_line(message.level))
        elif isinstance(message, p.ChatSaid):
            self.transcript.append(ChatLine(message.name, message.text))
        elif isinstance(message, p.TableClosed):
            self._closed(message)
        elif isinstance(message, p.Presence):
            if message.connected:
                self.gone.discard(message.name)
            else:
                self.gone.add(message.name)

    def _closed(self, message: p.TableClosed) -> None:
        """A table closed.  A cash table's (by its host, or the operator's lobby file, with
        nobody seated): said, and nothing more comes.  A tournament's: its spectator
        watches the first of the tournament's tables still playing (a player out of it
        keeps their screen, told the end)."""
        words, old = self.words, self.table_id
        if message.tournament is None:
            self.note(Text(words.pick("Il tavolo è chiuso.", "The table is closed."), style="bold"))
            return
        if message.over and self.watching:
            self.winner_due = message.tournament  # said with its winner, once read
            return
        if message.over or not message.tables:
            self.tournament_over(None, 0)
            return
        if not self.watching:
            return
        new = message.tables[0]
        self.send(p.Unwatch(table=old))
        self._follow(new)
        self.send(p.Watch(table=new))
        self.note(
            Text(
                words.pick(
                    f"Il tavolo {old} è stato chiuso: ora guardi il tavolo {new}",
                    f"Table {old} was broken up: watching table {new} now",
                ),
                style="bold yellow",
            )
        )

    def _new_hand(
        self, number: int, names: list[str], seats: list[int], button: int | None
    ) -> None:
        me = names.index(self.me) if self.me in names else None
        self.hand = SeenHand(
            self.rules, number=number, names=names, seats=seats, button=button, me=me
        )
        self._narrator = Narrator(
            self.rules,
            names,
            me=me,
            words=self.words,
            four_colour=self.config.four_colour,
        )
        self._lines = []
        self.turn = None
        self.offer = None
        self.pending = None

    def _hand_started(self, message: p.HandStarted) -> None:
        self._new_hand(message.hand, list(message.names), list(message.seats), message.button)

    def _record(self, message: p.HandRecord) -> None:
        hand, narrator = self.hand, self._narrator
        if hand is None or narrator is None or message.hand != hand.number:
            return
        record = hand.apply(message.record)
        if record is None:  # the set-up: the hand's heading, now that its pot is known
            narrator.opening = hand.opening is not None and bool(self.rules.opening_ladder)
            self._say(self._header(hand))
            return
        self._say(*narrator.lines(record))
        self._say(*narrator.settle())

    def _header(self, hand: SeenHand) -> Text:
        return hand_header(
            self.words,
            number=hand.number,
            dealer=hand.names[-1],
            stakes=self._stakes(hand.n),
            carried=hand.carried,
            parol_pot=hand.parol_pot,
            opening=hand.opening,
        )

    def _stakes(self, players: int) -> str:
        """The table's stakes, the blinds of a hand of ``players``; a tournament's, those of
        its level (the room tells the level before each hand)."""
        event = self.words.pick("torneo sit & go", "sit & go") if self.tournament else ""
        if self.level is None:
            return event or self.words.stakes(self.room_table.stakes, self.rules, players)
        level = self.words.pick(f"livello {self.level.number}", f"level {self.level.number}")
        stakes = self.words.stakes(Stakes(**self.level.stakes), self.rules, players)
        return f"{event}, {level}: {stakes}" if event else f"{level}: {stakes}"

    def _break_line(self, level: p.LevelInfo) -> Text:
        """A sit & go's break begins: how long, and the stakes it goes on at."""
        minutes = max(1, round((level.seconds_left or 0) / 60))
        stakes = self.words.stakes(Stakes(**level.stakes), self.rules)
        return Text(
            self.words.pick(
                f"Pausa: si riprende tra {minutes} {'minuto' if minutes == 1 else 'minuti'}, "
                f"livello {level.number} ({stakes})",
                f"Break: play resumes in {minutes} {'minute' if minutes == 1 else 'minutes'}, "
                f"level {level.number} ({stakes})",
            ),
            style="bold yellow",
        )

    def _hand_ended(self, message: p.HandEnded) -> None:
        hand, narrator = self.hand, self._narrator
        if hand is None or narrator is None or message.hand != hand.number:
            return
        hand.result = dict(message.result)
        self.turn = None
        self.pending = None
        self._say(*narrator.finish())
        won: dict[int, int] = {}
        for pot in message.result.get("pots") or ():
            for winner, share in zip(pot["winners"], pot["shares"], strict=True):
                won[int(winner)] = won.get(int(winner), 0) + int(share)
        payoffs = message.result.get("payoffs") or []
        carry = (message.result.get("extra") or {}).get("carry") or {}
        summary = hand_summary(
            self.words,
            number=hand.number,
            names=hand.names,
            me=hand.me,
            won=won,
            payoff=int(payoffs[hand.me]) if hand.me is not None and payoffs else None,
            describe=narrator.describe,
            carried=int(carry.get("pot") or 0) if isinstance(carry, Mapping) else 0,
            parol_pot=bool(carry.get("parol_pot")) if isinstance(carry, Mapping) else False,
        )
        self._say(summary)
        result_stacks = message.result.get("stacks") or hand.stacks
        self.hands.append(
            PlayedHand(
                number=hand.number,
                names=tuple(hand.names),
                lines=self._lines,
                summary=summary,
                phh="",  # the room's history of it, once fetched (keep_history)
                stacks=tuple(int(s) for s in result_stacks),
                payoffs=tuple(int(x) for x in payoffs),
                table=self.table_id if self.tournament is not None else "",
            )
        )
        if hand.me is not None:
            self.dealt_in.append((self.table_id, hand.number))
            self.to_download.append((self.table_id, hand.number))
        if self.tournament is not None:
            self.standing_due = True

    def _snapshot(self, message: p.Snapshot) -> None:
        """The table now, after a resume (or a first look): seats, the hand, the turn."""
        state = message.state
        self.level = message.level
        self.seats = list(state.get("seats") or [])
        self.gone = {str(s.get("name")) for s in self.seats if s.get("connected") is False}
        self.carried_pot = int(state.get("carried_pot") or 0)
        if any(s.get("name") == self.me for s in self.seats):
            self.seated = True
        caught_up = message.seq <= self.seq
        # Sequence numbers start at 1, and the room sends a table where nothing happened yet
        # at seq 1 too: that table's first event, 1, is still to come (a table that had one
        # event does not send it again after a snapshot at seq 1).
        self.seq = max(self.seq, 0 if message.seq == 1 else message.seq)
        game = state.get("game")
        number = int(state.get("hand") or 0)
        if game is not None and game.get("result") is None:
            current = self.hand
            if current is None or current.number != number or not caught_up:
                positions = [int(s) for s in state.get("positions") or ()]
                by_seat = {int(s["seat"]): str(s["name"]) for s in self.seats}
                names = [by_seat.get(seat, "?") for seat in positions]
                self._new_hand(number, names, positions, state.get("button"))
                hand, narrator = self.hand, self._narrator
                assert hand is not None and narrator is not None
                hand.restore(game)
                # The words go on from here as if the narrator had heard the hand so far.
                narrator.opening = hand.opening is not None and bool(self.rules.opening_ladder)
                narrator.resume(hand)
                self._say(self._header(hand))
        offers = [o for o in state.get("offers") or () if o.get("name") == self.me]
        self.offer = (
            self._offer(offers[0]["kind"], int(offers[0]["amount"]), float(offers[0]["seconds"]))
            if offers
            else None
        )
        self.turn = message.turn
        self._turn_at = self.clock.now()

    def _say(self, *lines: Text) -> None:
        self._lines.extend(lines)
        self.transcript.extend(lines)

    def take_problem(self) -> str | None:
        """The room's last refusal, once (the screen shows it)."""
        problem, self.problem = self.problem, None
        return problem

    def note(self, text: Text) -> None:
        """A line of the client's own in the log (the connection lost, back...)."""
        self.transcript.append(text)

    # ------------------------------------------------------- on reconnecting

    def rejoin(self) -> list[BaseModel]:
        """What to send on a (new) connection after the room's welcome: sit down the first
        time (a spectator: watch), otherwise resume after the last event seen and repeat an
        unanswered action."""
        table = self.table_id
        if self.left or self.sit_refused is not None or self.finish is not None:
            return []
        if self.watch_refused is not None:
            return []
        if self.watching:  # after a drop, what happened meanwhile
            return [p.Resume(table=table, last_seq=self.seq) if self.seq else p.Watch(table=table)]
        if self.tournament is not None and not self.seq:
            return [p.Watch(table=table)]  # the room seated the player when it started
        if not self.seated:
            return [p.Watch(table=table), p.Sit(table=table, buy_in=self.buy_in)]
        # Back at a seat kept from an earlier sitting: the table as it is now, not its past.
        first: BaseModel = (
            p.Resume(table=table, last_seq=self.seq) if self.seq else p.Watch(table=table)
        )
        messages: list[BaseModel] = [first]
        if self.pending is not None:
            messages.append(self.pending)  # same action id: applied at most once
        return messages

    # ------------------------------------------------------------ the player

    @property
    def table(self) -> _SeenTable:
        """The table, as the screen reads it."""
        return self._table

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.hand is not None and not self.hand.is_over

    @property
    def hand_over(self) -> bool:
        """Whether the last hand is over (true before the first one too)."""
        return self.hand is None or self.hand.is_over

    @property
    def over(self) -> bool:
        """A cash table always deals on; a tournament is over for the player once their place
        is known."""
        return self.finish is not None

    @property
    def is_tournament(self) -> bool:
        """Whether this is a sit & go's table."""
        return self.tournament is not None

    def finished(self, place: int, prize: int) -> None:
        """The room's standings gave the player's place (and prize): say it, once."""
        if self.finish is not None:
            return
        self.finish = (place, prize)
        assert self.tournament is not None
        entrants = self.tournament.registered or self.tournament.max_players  # when it began
        won = chips(prize)
        line = self.words.pick(
            f"Torneo finito per te: {place}° posto su {entrants}"
            + (f", premio {won}" if prize else ", nessun premio"),
            f"Your tournament is over: place {place} of {entrants}"
            + (f", prize {won}" if prize else ", no prize"),
        )
        self.note(Text(line, style="bold green" if prize else "bold"))

    def tournament_over(self, winner: str | None, prize: int) -> None:
        """Say that the tournament is over, with its winner and prize where known."""
        self.winner_due = None
        line = self.words.pick("Torneo finito", "The tournament is over")
        if winner is not None:
            line += self.words.pick(f": vince {winner}", f": {winner} won")
        if winner is not None and prize:
            line += self.words.pick(f", premio {chips(prize)}", f", prize {chips(prize)}")
        self.note(Text(line, style="bold"))

    def _my_turn(self) -> p.Turn | None:
        turn = self.turn
        if turn is None or turn.name != self.me or turn.legal is None or not self.in_hand:
            return None
        return turn

    def my_decision(self) -> RemoteDecision | None:
        """The room's turn for the player, unless it was answered and waits for the room."""
        turn = self._my_turn()
        if turn is None or turn.legal is None or self.pending is not None:
            return None
        legal = turn.legal
        if self._raise_left(turn) == 0.0:
            # Italian-32's raise window has shut: what the room said stands after it.
            legal = turn.legal_after_raise or legal
        return RemoteDecision(legal_from_dict(legal), turn.action_id)

    def _turn_seconds_gone(self) -> float:
        """Seconds since the turn was told (its clock and raise window count from then)."""
        return self.clock.now() - self._turn_at

    def _raise_left(self, turn: p.Turn) -> float | None:
        """Seconds left in the turn's raise window (0: it has shut; ``None``: none runs)."""
        if turn.raise_seconds is None:
            return None
        return max(0.0, turn.raise_seconds - self._turn_seconds_gone())

    def _offer(self, kind: str, amount: int, seconds: float) -> RemoteOffer:
        return RemoteOffer(OfferKind(kind), amount, self.clock.now() + seconds)

    def my_offer(self) -> RemoteOffer | None:
        """The room's question to the player before the deal, while it is open (once its
        time is up the room has taken it as a no: it stayed on the screen, and a late answer
        was refused)."""
        if self.offer is not None and self.clock.now() >= self.offer.until:
            self.offer = None
        return self.offer

    def offer_seconds(self) -> float:
        """Seconds left to answer the room's question (0 when none is open)."""
        offer = self.my_offer()
        return 0.0 if offer is None else max(0.0, offer.until - self.clock.now())

    def my_seat(self) -> dict[str, Any] | None:
        """The player's seat as the room listed it."""
        return next((s for s in self.seats if s.get("name") == self.me), None)

    def sits_out_next(self) -> bool:
        """The player sits out once this hand is over (the room tells them alone; sitting in
        before then takes it back)."""
        seat = self.my_seat()
        return seat is not None and seat.get("sit_out_next") is True

    def my_status(self) -> SeatStatus | None:
        """Where the player stands at the table (``None``: not seated)."""
        seat = self.my_seat()
        if seat is None:
            return None
        if seat.get("away"):
            return SeatStatus.SITTING_OUT
        return SeatStatus(seat.get("status", SeatStatus.PLAYING.value))

    def act(self, action: Action) -> None:
        """Send the player's action for the room's current turn (the room judges it)."""
        decision = self.my_decision()
        if decision is None:
            raise PlayError(self.words.pick("Non tocca a te", "It is not your turn"))
        message = p.Act(
            table=self.table_id,
            action_id=decision.action_id,
            kind=action.kind.value,  # type: ignore[arg-type]  # the room checks the kind
            amount=action.amount,
            cards=[str(card) for card in action.cards],
        )
        self.pending = message
        self.send(message)

    def answer(self, accept: bool) -> None:
        """Answer the room's question (post the invito, pay to rejoin a parol pot)."""
        if self.my_offer() is None:
            raise PlayError(self.words.pick("Il tavolo non ti chiede nulla", "Nothing to answer"))
        self.offer = None
        self.send(p.Answer(table=self.table_id, accept=accept))

    def rebuy(self) -> None:
        """Out of chips: buy in again for the sitting's buy-in (the room's top-up)."""
        if self.tournament is not None:
            raise PlayError(self.words.pick("nei tornei non si ricompra", "no rebuys here"))
        if self.my_status() is not SeatStatus.BUSTED:
            raise PlayError(self.words.pick("hai ancora fiches", "you still have chips"))
        self.send(p.TopUp(table=self.table_id, amount=self.buy_in))

    def has_free_seat(self) -> bool:
        """Whether a seat of the table is free, as the room last listed them (a tournament's
        table has none: the tournament seats its players)."""
        table = self.room_table
        return table.tournament_id is None and len(self.seats) < table.seats

    def sit_down(self, buy_in: int) -> None:
        """The spectator takes a free seat with ``buy_in`` chips (the room judges it)."""
        if not self.watching or self.tournament is not None:
            raise PlayError(self.words.pick("Sei già al tavolo", "You are at the table"))
        self.buy_in = buy_in
        self.watching, self.sat_down = False, True
        self.send(p.Sit(table=self.table_id, buy_in=buy_in))

    def sit_in(self) -> None:
        """Back in after sitting out (posting what was missed, to be dealt in at once)."""
        self.send(p.SitIn(table=self.table_id, post=True))

    def sit_out(self) -> None:
        """Sit out from the next hand."""
        self.send(p.SitOut(table=self.table_id))

    def chat(self, text: str) -> None:
        """Say something at the table."""
        text = text.strip()[: p.CHAT_LIMIT]
        if text:
            self.send(p.Chat(table=self.table_id, text=text))

    def leave(self) -> None:
        """Leave the table (at once between hands, at the end of the hand otherwise)."""
        self.send(p.Leave(table=self.table_id))

    # The room deals, runs the clocks and plays its bots: nothing of it happens here.

    def start_next_hand(self) -> bool:
        """The room deals by itself."""
        return False

    def tick(self) -> None:
        """The room's clock decides timeouts; the screen only counts down."""

    def bot_decision(self) -> None:
        """The room's bots play in the room."""
        return None

    def play_bot(self) -> bool:
        """The room's bots play in the room."""
        return False

    def finish_tournament(self) -> None:
        """Not a tournament."""

    def _folder_name(self) -> str:
        return f"{self.started.strftime('%Y%m%d-%H%M%S')}-{self.rules.name}"

    def open_folder(self, base: Path | str | None = None) -> None:
        """Save this sitting's hands under ``base``, as ``mazziere play`` does
        (:class:`~mazziere.tui.session.HandsFolder`): each as the room gives it."""
        self._saving.open(base)
        self._saving.write(self.kept)

    def _table_of(self, played: PlayedHand) -> str:
        return played.table or self.table_id

    def keep_history(self, table: str, number: int, phh: str) -> None:
        """The room's history of hand ``number`` of ``table`` (what this player saw): saved
        at once."""
        if any((self._table_of(k), k.number) == (table, number) for k in self.kept):
            return  # fetched twice (a download finished after quitting)
        for index, played in enumerate(self.hands):
            if (self._table_of(played), played.number) == (table, number):
                self.hands[index] = replace(played, phh=phh)
                self.kept.append(self.hands[index])
                break
        self._saving.write(self.kept)

    def _follow(self, table: str, *, told: bool = False, reason: str = "") -> None:
        """Play on at ``table`` (a tournament moved the player): its events from its start."""
        if table == self.table_id:
            return
        self.table_id = table
        self.seq = 0
        self.seats = []
        self.hand = None
        self.turn = None
        self.offer = None
        self.pending = None
        if told:
            why = {
                "balance": self.words.pick(" (si bilanciano i tavoli)", " (tables balanced)"),
                "break": self.words.pick(" (il tavolo chiude)", " (the table broke)"),
                "final_table": self.words.pick(" (tavolo finale)", " (the final table)"),
            }.get(reason, "")
            self.note(
                Text(
                    self.words.pick(
                        f"Cambi tavolo: ora al {table}{why}", f"Moved to table {table}{why}"
                    ),
                    style="bold yellow",
                )
            )

    def not_kept(self) -> list[tuple[str, int]]:
        """The hands dealt into (table, number) whose history has not been saved (yet)."""
        kept = {(self._table_of(played), played.number) for played in self.kept}
        return [hand for hand in dict.fromkeys(self.dealt_in) if hand not in kept]

    def save(self, folder: Path | str | None = None) -> Path | None:
        """Make sure every hand fetched is written; the sitting's folder (``None``: none)."""
        return self._saving.save(self.kept, folder)

    # ------------------------------------------------------------ the screen

    def snapshot(self) -> Snapshot:
        """What the screen shows now: the seats, the hand as the seat saw it, the turn."""
        words = self.words
        hand = self.hand
        # The blinds of the hand in play, or between hands of the players with chips.
        if hand is not None and self.in_hand:
            players = hand.n
        else:
            players = sum(1 for seat in self.seats if int(seat.get("stack", 0)) > 0)
        name = self.room_table.name
        if self.watching and self.room_table.tournament_id is not None:  # which table of it
            name += words.pick(f" · tavolo {self.table_id}", f" · table {self.table_id}")
        title = f"{self.rules.name} · {name} · {self._stakes(players)}"
        if self.watching:
            title += words.pick(" · spettatore", " · watching")
        elif self.me:
            title += f" · {self.me}"
        if not self.connected:
            title += words.pick(" · connessione persa, riprovo…", " · connection lost, retrying…")
        seats = sorted(self.seats, key=lambda s: int(s.get("seat", 0)))
        if hand is None:
            return Snapshot(title=title, seats=self._gone_said(self._idle_seat(s) for s in seats))
        won: dict[int, int] = {}
        for pot in (hand.result or {}).get("pots") or ():
            for winner, share in zip(pot["winners"], pot["shares"], strict=True):
                won[int(winner)] = won.get(int(winner), 0) + int(share)
        turn = self.turn if self.in_hand else None
        lines: list[SeatLine] = []
        for seat in seats:
            number = int(seat.get("seat", 0))
            position = hand.seats.index(number) if number in hand.seats else None
            if position is None or hand.names[position] != seat.get("name"):
                lines.append(self._idle_seat(seat))
                continue
            lines.append(
                SeatLine(
                    seat=number,
                    name=str(seat.get("name")),
                    stack=hand.stacks[position],
                    bet=hand.bets[position],
                    cards=tuple(hand.hole[position]),
                    folded=hand.folded[position],
                    button=number == hand.button,
                    to_act=turn is not None and turn.position == position,
                    me=position == hand.me,
                    note=seat_note(words, hand, position),
                    won=won.get(position, 0),
                )
            )
        decision = self.my_decision()
        seconds: float | None = None
        bank_left: float | None = None
        raise_left: float | None = None
        if turn is not None:
            gone = self._turn_seconds_gone()
            seconds = max(0.0, turn.deadline + turn.time_bank - gone)
            bank_left = min(turn.time_bank, seconds)
            raise_left = self._raise_left(turn) or None  # shown while italian-32's window runs
        cards, my_bet = my_cards(hand, hand.me)
        return Snapshot(
            title=title,
            seats=self._gone_said(lines),
            pots=hand.pots,
            total_pot=hand.total_pot,
            bets=sum(hand.bets),
            board=tuple(hand.board) if self.rules.traits.board else None,
            my_cards=cards,
            drawn=has_drawn(hand, hand.me),
            phase=hand.phase,
            in_hand=self.in_hand,
            acting=turn.name if turn is not None else None,
            seconds_left=seconds,
            bank_seconds_left=bank_left,
            raise_seconds_left=raise_left,
            notes=hand_notes(words, self.rules, hand),
            legal=decision.legal if decision is not None else None,
            context=hand_context(self.rules, hand) if decision is not None else None,
            my_bet=my_bet,
        )

    def _gone_said(self, lines: Iterable[SeatLine]) -> tuple[SeatLine, ...]:
        """The seat lines, a player whose connection is gone said so (they may not answer)."""
        gone = self.words.pick("disconnesso", "disconnected")
        return tuple(
            replace(line, note=f"{line.note} · {gone}" if line.note else gone)
            if line.name in self.gone and not line.me
            else line
            for line in lines
        )

    def _idle_seat(self, seat: Mapping[str, Any]) -> SeatLine:
        words = self.words
        status = str(seat.get("status", ""))
        note = {
            SeatStatus.SITTING_OUT.value: "sit-out",
            SeatStatus.WAITING.value: words.pick("in attesa", "waiting"),
            SeatStatus.BUSTED.value: words.pick("senza fiches", "no chips"),
        }.get(status, "")
        if seat.get("away"):
            note = "sit-out"
        name = str(seat.get("name", "?"))
        return SeatLine(
            seat=int(seat.get("seat", 0)),
            name=name,
            stack=int(seat.get("stack", 0)),
            me=name == self.me,
            note=note,
        )
