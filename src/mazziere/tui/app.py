"""The Textual app of ``mazziere play``: the table, the player's cards, the actions, the log.

Everything is driven by keys (and the mouse on the buttons):

* ``f`` fold (Passo), ``c`` check or call (Passo/Busso/Cip/Vedo, Check/Call),
  ``b`` or ``r`` bet or raise the amount shown (Apri, Punto, Rilancio), ``a``
  all-in, ``p`` parol (parole), ``s``/``u`` show or muck when asked;
* the amount: type its digits (Backspace deletes), or ``m`` minimum, ``j``
  half the pot, ``k`` the pot, ``x`` everything; Up and Down change it by
  one minimum raise;
* the draw: ``1``-``5`` mark the cards to change, ``d`` (or Enter) draws
  them, or stands pat (Servito) when none is marked;
* between hands: ``n`` or Space deals the next hand (it also comes by
  itself after a few seconds), ``y``/``n`` answer the table's questions,
  ``r`` buys in again after losing every chip, ``i`` sits back in;
* ``h`` shows the previous hands, ``C`` switches to the four-colour deck,
  ``q`` quits; each finished hand was saved as a PHH file when it ended.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, RichLog, Static

from mazziere.cards import Card
from mazziere.game.core import Action, ActionKind, IllegalActionError, LegalActions
from mazziere.room.errors import RoomError
from mazziere.room.table import OfferKind, SeatStatus
from mazziere.rules import GameTraits
from mazziere.tui.hints import Hints
from mazziere.tui.render import (
    big_cards,
    cards_text,
    chips,
    empty_slots,
    header,
    wrap_keeping_amounts,
)
from mazziere.tui.session import PlayError, SeatLine, Snapshot
from mazziere.tui.source import TableSession

__all__ = ["HistoryScreen", "PlayApp"]

_BUTTONS = (
    ("fold", ActionKind.FOLD, "f"),
    ("check", ActionKind.CHECK, "c"),
    ("call", ActionKind.CALL, "c"),
    ("bet", ActionKind.BET, "b"),
    ("raise", ActionKind.RAISE, "b"),
    ("all-in", ActionKind.ALL_IN, "a"),
    ("parol", ActionKind.PAROL, "p"),
    ("draw", ActionKind.DRAW, "d"),
    ("show", ActionKind.SHOW, "s"),
    ("muck", ActionKind.MUCK, "u"),
)


_ACTING_KEYS = frozenset("fcapdsu")
"""Keys that play an action other than the bet: they wait while an amount is typed."""


def write_lines(log: RichLog, lines: list[Text], console: Console) -> None:
    """Add ``lines`` to ``log``, wrapped between words and never inside an amount."""
    width = log.scrollable_content_region.width
    for line in lines:
        if width < 10:  # not laid out yet: the log wraps by itself
            log.write(line)
            continue
        for piece in wrap_keeping_amounts(line, width, console):
            log.write(piece)


def _sorted_hand(cards: tuple[Card, ...], traits: GameTraits) -> tuple[Card, ...]:
    """The player's cards as shown: sorted high to low in a game with a draw, else as dealt."""
    if traits.draw:
        return tuple(sorted(cards, reverse=True))
    return cards


class HistoryScreen(ModalScreen[None]):
    """The previous hands: pick one on the left, read its log on the right."""

    BINDINGS: ClassVar = [
        Binding("escape", "close", "close"),
        Binding("h", "close", "close"),
        Binding("q", "close", "close"),
    ]

    DEFAULT_CSS = """
    HistoryScreen { align: center middle; }
    #history-box { width: 95%; height: 90%; border: round $accent; background: $surface; }
    #history-list { width: 40%; }
    #history-log { width: 60%; }
    #history-help { height: 1; color: $text-muted; }
    """

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        words = self.session.words
        help_line = Static(
            words.pick(
                "Mani precedenti · ↑↓ per scegliere · Esc o h per tornare al tavolo",
                "Previous hands · ↑↓ to pick · Esc or h to go back to the table",
            ),
            id="history-help",
        )
        hands = OptionList(id="history-list")
        log = RichLog(id="history-log", wrap=True, min_width=20)
        yield Vertical(help_line, Horizontal(hands, log), id="history-box")

    def on_mount(self) -> None:
        # The lists sit inside containers that finish mounting after the screen itself.
        self.call_after_refresh(self._fill)

    def _fill(self) -> None:
        options = self.query_one("#history-list", OptionList)
        hands = self.session.hands
        if not hands:
            options.add_option(
                self.session.words.pick("Nessuna mano finita", "No hand finished yet")
            )
            return
        for played in reversed(hands):
            options.add_option(played.summary.copy())
        options.highlighted = 0
        options.focus()
        self._show(0)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the log of the hand picked."""
        self._show(event.option_index)

    def _show(self, index: int) -> None:
        hands = self.session.hands
        if not 0 <= index < len(hands):
            return
        played = hands[len(hands) - 1 - index]
        log = self.query_one("#history-log", RichLog)
        log.clear()
        write_lines(log, played.lines, self.app.console)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class PlayApp(App[Path | None]):
    """``mazziere play``: the player against bots at a table of the room.

    ``bot_delay``: seconds between two bots' actions (0: at once, for tests);
    ``next_hand_delay``: seconds before the next hand comes by itself
    (``None``: only on a key press); ``tick``: whether a timer runs the
    table's clock (timeouts, the countdown); ``hands_dir``: where the
    session's folder of hand histories is made when the app starts (each hand is written
    as it ends).
    """

    TITLE = "Mazziere"

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    /* No padding on the right: the log's border sets the table apart, and the column it
       gives lets a player's row hold five cards of two-character ranks at 80 columns. */
    #table { width: 1fr; padding: 0 0 0 1; }
    #seats { height: auto; }
    #middle { height: auto; }
    #hand { height: auto; }
    #controls { height: auto; margin-top: 1; }
    #turn { height: auto; }
    #actions { height: auto; }
    #amount { height: auto; }
    #log { width: 38%; min-width: 28; border-left: tall $primary; padding: 0 1; }
    #status { height: auto; max-height: 3; background: $boost; padding: 0 1; }
    #too-small { display: none; height: 1fr; content-align: center middle; text-style: bold; }
    """

    MIN_SIZE = (80, 24)
    """The smallest terminal the table is laid out for (columns, rows)."""

    def __init__(
        self,
        session: TableSession,
        *,
        bot_delay: float = 0.8,
        next_hand_delay: float | None = 8.0,
        tick: bool = True,
        hands_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.words = session.words
        self.bot_delay = bot_delay
        self.next_hand_delay = next_hand_delay
        self.ticking = tick
        self.hands_dir = hands_dir
        self.four_colour = session.config.four_colour
        self.saved: Path | None = None
        self.amount: int | None = None
        self.typed = ""
        self.marked: set[int] = set()
        self.message: Text | None = None
        self._decision_key: tuple[int, int] | None = None
        self._confirm: str | None = None
        """A question about the player's current decision (fold for free, all-in)."""
        self._quit_asked = False
        """Quitting mid-hand was asked: a second q quits (whatever the bots did meanwhile)."""
        self._bot_timer: object | None = None
        self._next_hand_at: float | None = None
        self._log_count = 0
        config = session.config
        self._hints = Hints(config.rules, lang=config.lang) if config.hints else None
        """``--hints``: the odds at the player's own decisions."""

    # ------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Static(id="seats")
                yield Static(id="middle")
                yield Static(id="hand")
                with Vertical(id="controls"):
                    yield Static(id="turn")
                    yield Static(id="actions")
                    yield Static(id="amount")
            yield RichLog(id="log", wrap=True, min_width=20, markup=False)
        yield Static(id="status")
        yield Static(id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        """Below :attr:`MIN_SIZE` the table cannot be read: say so instead of a cropped table."""
        self._fit_size()

    def _fit_size(self) -> None:
        screen = getattr(self, "_table_screen", None)
        if screen is None:
            return  # not mounted yet: on_mount fits it
        width, height = self.size
        small = width < self.MIN_SIZE[0] or height < self.MIN_SIZE[1]
        note = screen.query_one("#too-small", Static)
        note.display = small
        for name in ("#title", "#main", "#status"):
            screen.query_one(name).display = not small
        if small:
            columns, rows = self.MIN_SIZE
            note.update(
                self.words.pick(
                    f"La finestra è troppo piccola ({width}×{height}): serve almeno "
                    f"{columns}×{rows}. Allargala, oppure q per uscire.",
                    f"The terminal is too small ({width}×{height}): the table needs "
                    f"{columns}×{rows}. Make it bigger, or q to quit.",
                )
            )

    def on_mount(self) -> None:
        self._table_screen = self.screen
        self._fit_size()
        if self.hands_dir is not None:
            try:
                self.session.open_folder(self.hands_dir)  # each hand is written as it ends
            except PlayError as error:
                self._say_error(str(error))
        self.session.start_next_hand()
        self._after_change()
        if self.ticking:
            self.set_interval(0.25, self._tick)

    # -------------------------------------------------------------- clock

    def _now(self) -> float:
        return self.session.clock.now()

    def _tick(self) -> None:
        session = self.session
        session.tick()
        if (
            self._next_hand_at is not None
            and self._now() >= self._next_hand_at
            and not isinstance(self.screen, ModalScreen)
        ):
            self._next_hand_at = None
            self._next_hand()
        self._after_change()

    def _after_change(self) -> None:
        """Bring the screen up to date and let the bots play on."""
        session = self.session
        if self.bot_delay <= 0:
            steps = 0
            while session.bot_decision() is not None and steps < 10_000:
                session.play_bot()
                steps += 1
        elif session.bot_decision() is not None and self._bot_timer is None:
            self._bot_timer = self.set_timer(self.bot_delay, self._bot_step)
        if (
            not session.in_hand
            and session.hand_over
            and self._next_hand_at is None
            and self.next_hand_delay is not None
            and self._may_deal_by_itself()
        ):
            self._next_hand_at = self._now() + self.next_hand_delay
        self.refresh_screen()

    def _may_deal_by_itself(self) -> bool:
        session = self.session
        return not session.over and session.my_offer() is None and bool(session.hands)

    def _bot_step(self) -> None:
        self._bot_timer = None
        self.session.play_bot()
        self._after_change()

    # ---------------------------------------------------------- rendering

    def refresh_screen(self) -> None:
        """Draw everything from the session's snapshot."""
        session = self.session
        snap = session.snapshot()
        self._track_decision(snap)
        self._widget("title").update(header(snap.title, self._widget("title").content_size.width))
        self._widget("seats").update(self._seats_text(snap))
        self._widget("middle").update(self._middle_text(snap))
        self._widget("hand").update(self._hand_text(snap))
        self._widget("turn").update(self._turn_text(snap))
        self._widget("actions").update(self._actions_text(snap))
        self._widget("amount").update(self._amount_text(snap))
        self._update_log()
        self._widget("status").update(self._status_text(snap))

    def _compact(self) -> bool:
        """Three-line cards when the terminal is short (an 80x24 terminal still fits all)."""
        return self.size.height < 34

    def _widget(self, name: str) -> Static:
        # Queried on the table's screen: App.query_one would look at the screen on top.
        return self._table_screen.query_one(f"#{name}", Static)

    def _log_widget(self) -> RichLog:
        return self._table_screen.query_one("#log", RichLog)

    def _track_decision(self, snap: Snapshot) -> None:
        key = None
        if snap.legal is not None:
            current = self.session.table.hand
            key = (self.session.table.hand_number, len(current.log) if current else 0)
        if key != self._decision_key:
            self._decision_key = key
            self.typed = ""
            self._confirm = None
            legal = snap.legal
            self.amount = legal.min_to if legal is not None and legal.min_to else None
            if legal is None or ActionKind.DRAW not in legal.kinds:
                self.marked = set()

    def _seats_text(self, snap: Snapshot) -> Text:
        words = self.words
        text = Text(
            words.pick(
                "  giocatore       fiches puntata carte",
                "  player          chips     bet cards",
            ),
            style="dim",
        )
        width = self._widget("seats").size.width
        for seat in snap.seats:
            text.append("\n")
            text.append_text(self._seat_line(seat, width))
        return text

    def _seat_line(self, seat: SeatLine, width: int) -> Text:
        """A player's row: 31 columns before the cards, so that five cards of two-character
        ranks (``10♦ 10♠ 10♥ 10♣ K♠``, 18 columns) fit the 49 the row has at 80 columns.
        What follows the cards (the draw, a fold, the winnings) goes on a line of its own
        under them when the row is too narrow (``width``; 0: not laid out yet)."""
        line = Text()
        line.append("▶ " if seat.to_act else "  ", style="bold yellow")
        name_style = "bold" if seat.me else ""
        if seat.folded:
            name_style += " dim"
        line.append(f"{seat.name[:10]:<10}", style=name_style.strip())
        line.append(
            " D " if seat.button else "   ", style="bold black on yellow" if seat.button else ""
        )
        line.append(f"{chips(seat.stack):>7}", style="dim" if seat.folded else "")
        line.append(f"{chips(seat.bet):>8}" if seat.bet else " " * 8, style="bold cyan")
        line.append(" ")
        cards_at = line.cell_len
        if seat.cards and not seat.folded:
            line.append_text(cards_text(seat.cards, four_colour=self.four_colour))
        elif seat.cards:
            line.append(" ".join("··" for _ in seat.cards), style="dim")
        after = Text()
        if seat.note:
            after.append(f" {seat.note}", style="italic dim" if seat.folded else "italic")
        if seat.won:
            after.append(f" +{chips(seat.won)}", style="bold green")
        if width and line.cell_len + after.cell_len > width:
            line.append("\n" + " " * (cards_at - 1))  # never a card broken off its row
        line.append_text(after)
        return line

    def _middle_text(self, snap: Snapshot) -> Text:
        words = self.words
        text = Text()
        pots = snap.pots
        session = self.session
        if not snap.in_hand and session.hand_over and session.hands:
            text.append_text(session.hands[-1].summary)
        elif len(pots) > 1:
            parts = [
                f"{words.pick('principale', 'main')} {chips(pots[0].amount)}",
                *(
                    f"{words.pick('laterale', 'side')} {i}: {chips(p.amount)}"
                    for i, p in enumerate(pots[1:], start=1)
                ),
            ]
            text.append(f"{words.pick('Piatti', 'Pots')}: " + " · ".join(parts), style="bold")
        else:
            collected = snap.total_pot - snap.bets
            text.append(f"{words.pick('Piatto', 'Pot')}: {chips(collected)}", style="bold")
        if snap.bets:
            text.append(f"   {words.pick('puntate in tavola', 'bets out')}: {chips(snap.bets)}")
        if snap.notes and snap.in_hand:
            text.append("   " + " · ".join(snap.notes), style="magenta")
        if snap.board is not None:
            compact = self._compact()
            lines = big_cards(snap.board, four_colour=self.four_colour, compact=compact)
            slots = empty_slots(5 - len(snap.board), compact=compact)
            for line, slot in zip(lines, slots, strict=True):
                if line.plain and slot.plain:
                    line.append(" ")
                line.append_text(slot)
            for line in lines:
                text.append("\n")
                text.append_text(line)
        return text

    def _hand_text(self, snap: Snapshot) -> Text:
        words = self.words
        session = self.session
        text = Text()
        cards = _sorted_hand(snap.my_cards, session.rules.traits)
        if not cards:
            status = session.my_status()
            if snap.in_hand and status is not None:
                text.append(
                    words.pick("Le carte non sono ancora distribuite", "No cards yet"), style="dim"
                )
            return text
        drawing = snap.legal is not None and ActionKind.DRAW in snap.legal.kinds
        dimmed = [i in self.marked for i in range(len(cards))]
        text.append(words.pick("Le tue carte", "Your cards"), style="bold")
        value = self._my_hand_name(cards)
        if value:
            text.append(f": {value}", style="bold green")
        for line in big_cards(
            cards, four_colour=self.four_colour, dimmed=dimmed, compact=self._compact()
        ):
            text.append("\n")
            text.append_text(line)
        if session.rules.traits.draw:  # the cards' numbers, for the discard
            text.append("\n")
            for index in range(len(cards)):
                if index in self.marked:
                    text.append(f" ✗{index + 1}  ", style="bold red")
                else:
                    text.append(f"  {index + 1}   ", style="bold" if drawing else "dim")
        return text

    def _my_hand_name(self, cards: tuple[Card, ...]) -> str | None:
        from mazziere.evaluate import evaluate

        session = self.session
        snap_board = None
        current = session.table.hand
        try:
            if not session.rules.traits.board:  # valued from the player's own five
                if len(cards) != 5 or current is None:
                    return None
                return evaluate(cards, rules=session.rules, players=current.n).describe(
                    self.words.lang
                )
            board = getattr(current, "board", None)
            snap_board = [c for c in (board or ()) if c is not None]
            if len(snap_board) < 3:
                return None
            return evaluate(cards, rules=session.rules, board=snap_board).describe(self.words.lang)
        except ValueError:
            return None

    def _turn_text(self, snap: Snapshot) -> Text:
        words = self.words
        session = self.session
        offer = session.my_offer()
        if offer is not None:
            amount = chips(offer.amount)
            if offer.kind is OfferKind.REJOIN:
                question = words.pick(
                    f"Adeguamento parol: paghi {amount} per giocare il piatto di parol?",
                    f"Parol pot: pay {amount} to play it?",
                )
            else:
                question = words.pick(
                    f"Metti l'invito di {amount}?", f"Post the invito of {amount}?"
                )
            text = Text(question, style="bold yellow")
            text.append(words.pick("   [y] sì · [n] no", "   [y] yes · [n] no"))
            text.append(f"   {math.ceil(session.offer_seconds())} s")
            return text
        if snap.acting is not None:
            me = snap.acting == session.me
            who = (
                words.pick("Tocca a te", "Your turn")
                if me
                else words.pick(f"Tocca a {snap.acting}", f"{snap.acting} to act")
            )
            text = Text(who, style="bold reverse yellow" if me else "bold")
            if snap.seconds_left is not None:
                text.append_text(self._clock_text(snap.seconds_left, snap.bank_seconds_left or 0))
            if me and snap.raise_seconds_left is not None and snap.legal is not None:
                left = int(snap.raise_seconds_left + 0.999)
                if snap.legal.kinds & {ActionKind.RAISE, ActionKind.BET}:
                    text.append(
                        words.pick(f"  · rilancio entro {left} s", f"  · raise within {left} s")
                    )
            if me and snap.legal is not None and snap.legal.to_call:
                text.append(
                    words.pick(
                        f"  · da vedere {chips(snap.legal.to_call)}",
                        f"  · {chips(snap.legal.to_call)} to call",
                    )
                )
            if me and self._hints is not None:
                hint = self._hint(snap)
                if hint:
                    text.append("\n" + hint, style="italic")
            return text
        return Text()

    def _hint(self, snap: Snapshot) -> str:
        """The learner's hint at their decision: equity, or the odds of each way to draw."""
        assert self._hints is not None
        if snap.drawn:
            return ""  # the ways to change cards were the player's before their draw only
        dealt = [seat for seat in snap.seats if seat.cards]
        opponents = sum(1 for seat in dealt if not seat.me and not seat.folded)
        drawing = snap.legal is not None and ActionKind.DRAW in snap.legal.kinds
        return self._hints.text(
            snap.my_cards,
            board=snap.board or (),
            opponents=opponents,
            drawing=drawing,
            players=len(dealt),
        )

    def _clock_text(self, left: float, bank: float) -> Text:
        """The decision's seconds (what ``--seconds`` sets), then the time bank's."""
        words = self.words
        style = "bold red" if left <= 10 else ""
        deciding = left - bank
        text = Text()
        if deciding > 0:
            text.append(f"  {int(deciding + 0.999)} s", style=style)
            if bank >= 1:
                text.append(words.pick(f" · riserva {int(bank)} s", f" · time bank {int(bank)} s"))
        else:
            seconds = int(left + 0.999)
            text.append(
                words.pick(f"  riserva {seconds} s", f"  time bank {seconds} s"), style=style
            )
        return text

    def _actions_text(self, snap: Snapshot) -> Text:
        """The actions on offer, each with its key; a click does what the key does."""
        legal = snap.legal
        context = snap.context
        buttons: list[Text] = []
        if legal is None or context is None:
            return Text()
        for name, kind, key in _BUTTONS:
            if kind not in legal.kinds:
                continue
            label = self.words.action(
                kind,
                context,
                legal,
                amount=self.amount,
                discards=len(self.marked),
            )
            if kind is ActionKind.FOLD and self._confirm == "fold":
                label = self.words.pick("Sicuro? f di nuovo", "Sure? f again")
            if kind is ActionKind.ALL_IN and self._confirm == "all-in":
                label = self.words.pick("Sicuro? a di nuovo", "Sure? a again")
            if kind is ActionKind.FOLD:
                colour = "#9b1c1c"
            elif kind in (ActionKind.CALL, ActionKind.CHECK, ActionKind.DRAW, ActionKind.PAROL):
                colour = "#1d6b2f"
            else:
                colour = "#1f4a9b"
            click = Style.from_meta({"@click": f"app.click('{name}')"})
            button = Text()
            button.append(f" {key} ", Style(bold=True, color="#000000", bgcolor="#d7d7d7") + click)
            button.append(f" {label} ", Style(bold=True, color="#ffffff", bgcolor=colour) + click)
            buttons.append(button)
        # Lay the buttons out in rows that fit, never breaking one across two lines.
        width = max(20, self._widget("actions").size.width or 60)
        text = Text()
        used = 0
        for button in buttons:
            if used and used + 2 + button.cell_len > width:
                text.append("\n")
                used = 0
            elif used:
                text.append("  ")
                used += 2
            text.append_text(button)
            used += button.cell_len
        return text

    def _amount_text(self, snap: Snapshot) -> Text:
        legal = snap.legal
        words = self.words
        text = Text()
        context = snap.context
        if legal is None:
            return text
        if context is not None and context.blind is not None:
            text.append(
                words.pick(
                    f"Apertura al buio: puoi aprire senza vedere le carte con {chips(legal.min_to)}"
                    " (prima il piatto, poi il doppio)",
                    f"Blind opening: you may open before seeing your cards with"
                    f" {chips(legal.min_to)} (the pot first, then double)",
                ),
                style="dim",
            )
            return text
        if ActionKind.DRAW in legal.kinds:
            text.append(
                words.pick(
                    f"1-{len(snap.my_cards)}: segna le carte da cambiare (fino a {legal.max_to})",
                    f"1-{len(snap.my_cards)}: mark the cards to change (up to {legal.max_to})",
                ),
                style="dim",
            )
            return text
        if (
            context is not None
            and context.opening_round
            and ActionKind.BET not in legal.kinds
            and not legal.to_call
        ):
            opening = getattr(self.session.table.hand, "opening", None)
            if opening is not None:
                draw = self.session.rules.bilateral_draw_opens
                text.append(
                    words.pick(
                        f"Non puoi aprire: serve una coppia di {opening.name_it} o meglio"
                        + (" (o un progetto bilaterale di scala reale)" if draw else ""),
                        f"You cannot open: a pair of {opening.name_it} or better is needed"
                        + (" (or a two-way straight-flush draw)" if draw else ""),
                    ),
                    style="dim",
                )
            return text
        if not legal.kinds & {ActionKind.BET, ActionKind.RAISE} or legal.min_to == legal.max_to:
            return text
        amount = self.amount if self.amount is not None else legal.min_to
        style = "bold" if legal.min_to <= amount <= legal.max_to else "bold red"
        text.append(words.pick("Importo (cifre, ↑↓): ", "Amount (digits, ↑↓): "))
        text.append(f"{chips(amount)}{'_' if self.typed else ''}", style=style)
        text.append(f"  ({chips(legal.min_to)}–{chips(legal.max_to)})", style="dim")
        text.append(
            words.pick(
                "  [m] min · [j] ½ piatto · [k] piatto · [x] max",
                "  [m] min · [j] ½ pot · [k] pot · [x] max",
            ),
            style="dim",
        )
        if self.typed:
            text.append(words.pick(" · [Esc] cancella", " · [Esc] clear"), style="dim")
        return text

    def _update_log(self) -> None:
        transcript = self.session.transcript
        lines = [line for line in transcript[self._log_count :] if self._shows(line)]
        write_lines(self._log_widget(), lines, self.console)
        self._log_count = len(transcript)

    def _shows(self, line: Text) -> bool:
        """Whether the log shows ``line`` (a room's table leaves out muted players' chat)."""
        return True

    def _rewrite_log(self) -> None:
        """Write the whole log again (what it shows has changed)."""
        self._log_widget().clear()
        self._log_count = 0
        self._update_log()

    def _status_text(self, snap: Snapshot) -> Text:
        words = self.words
        session = self.session
        if self.message is not None:
            return self.message
        text = Text(style="dim")
        status = session.my_status()
        if session.over:
            text.append(
                words.pick(
                    "Il torneo è finito · [h] mani · [q] esci",
                    "The tournament is over · [h] hands · [q] quit",
                )
            )
            return text
        if session.is_tournament and status is None:
            text.append(
                words.pick(
                    "Sei fuori dal torneo · [n] il torneo prosegue senza di te · [q] esci",
                    "You are out · [n] let the others finish · [q] quit",
                )
            )
            return text
        if status is SeatStatus.BUSTED:
            text.append(
                words.pick(
                    "Senza fiches · [r] ricompra · [q] esci",
                    "No chips · [r] buy in again · [q] quit",
                )
            )
            return text
        if status is SeatStatus.SITTING_OUT:
            text.append(
                words.pick(
                    "Sei in sit-out · [i] rientra · [q] esci",
                    "You are sitting out · [i] sit back in · [q] quit",
                )
            )
            return text
        if not session.in_hand:
            wait = ""
            if self._next_hand_at is not None:
                left = max(0, int(self._next_hand_at - self._now() + 0.999))
                wait = words.pick(f" (tra {left} s)", f" (in {left} s)")
            text.append(
                words.pick(
                    f"[n] prossima mano{wait} · [h] mani precedenti · [C] 4 colori · [q] esci",
                    f"[n] next hand{wait} · [h] previous hands · [C] four colours · [q] quit",
                )
            )
            return text
        text.append(
            words.pick(
                "[h] mani precedenti · [C] 4 colori · [q] esci",
                "[h] previous hands · [C] four colours · [q] quit",
            )
        )
        return text

    # --------------------------------------------------------------- keys

    def on_key(self, event: events.Key) -> None:
        """Every key of the game (see the module's docstring)."""
        if isinstance(self.screen, ModalScreen):
            return
        key = event.key
        handler = self._keys().get(key)
        digit = event.character if event.character and event.character.isdigit() else None
        if key != "q":
            self._quit_asked = False  # another key: the question to quit is dropped
        if self.typed and key in _ACTING_KEYS:
            # An amount is being typed: a letter that acts would play something else.
            self.message = Text(
                self.words.pick(
                    f"Stai scrivendo un importo ({chips(self.amount or 0)}): "
                    "b per puntarlo, Esc per cancellarlo",
                    f"You are typing an amount ({chips(self.amount or 0)}): "
                    "b to bet it, Esc to clear it",
                ),
                style="bold yellow",
            )
            handler = lambda: None  # noqa: E731  (the key is spent on the message)
        else:
            self.message = None
        if digit is not None and handler is None:
            self._digit(int(digit))
        elif handler is not None:
            handler()
        else:
            return
        # Handled here: no binding of the screen now on top (the history) sees this key.
        event.stop()
        event.prevent_default()
        self._after_change()

    def _keys(self) -> dict[str, Callable[[], None]]:
        return {
            "f": self.action_fold,
            "c": self.action_check_or_call,
            "b": self.action_wager,
            "r": self.action_raise_or_rebuy,
            "a": self.action_all_in,
            "p": self.action_parol,
            "d": self.action_draw,
            "enter": self.action_enter,
            "s": lambda: self._send_kind(ActionKind.SHOW),
            "u": lambda: self._send_kind(ActionKind.MUCK),
            "m": lambda: self._preset("min"),
            "j": lambda: self._preset("half"),
            "k": lambda: self._preset("pot"),
            "x": lambda: self._preset("max"),
            "up": lambda: self._step(1),
            "down": lambda: self._step(-1),
            "backspace": self._backspace,
            "escape": self._clear_amount,
            "n": self.action_no_or_next,
            "space": self.action_next_hand,
            "y": self.action_yes,
            "i": self.action_sit_in,
            "h": self.action_history,
            "C": self.action_colours,
            "q": self.action_quit_game,
        }

    def action_click(self, name: str) -> None:
        """A click on an action does what its key does."""
        actions: dict[str, Callable[[], None]] = {
            "fold": self.action_fold,
            "check": self.action_check_or_call,
            "call": self.action_check_or_call,
            "bet": self.action_wager,
            "raise": self.action_wager,
            "all-in": self.action_all_in,
            "parol": self.action_parol,
            "draw": self.action_draw,
            "show": lambda: self._send_kind(ActionKind.SHOW),
            "muck": lambda: self._send_kind(ActionKind.MUCK),
        }
        handler = actions.get(name)
        if handler is not None:
            self.message = None
            handler()
            self._after_change()

    # ------------------------------------------------------------ actions

    def _legal(self) -> LegalActions | None:
        decision = self.session.my_decision()
        return decision.legal if decision is not None else None

    def _send(self, action: Action) -> bool:
        try:
            self.session.act(action)
        except (IllegalActionError, RoomError, PlayError) as error:
            self._say_error(str(error))
            return False
        self.marked = set()
        return True

    def _send_kind(self, kind: ActionKind) -> None:
        legal = self._legal()
        if legal is None or kind not in legal.kinds:
            return
        self._send(Action(kind))

    def _say_error(self, text: str) -> None:
        self.message = Text(text, style="bold red")

    def action_fold(self) -> None:
        """Fold (Passo); asks again when a check is free."""
        legal = self._legal()
        if legal is None or ActionKind.FOLD not in legal.kinds:
            return
        if legal.confirm_fold and self._confirm != "fold":
            self._confirm = "fold"
            self.message = Text(
                self.words.pick(
                    "Puoi restare gratis: premi f di nuovo per passare davvero",
                    "You could check for free: press f again to fold anyway",
                ),
                style="bold yellow",
            )
            return
        self._confirm = None
        self._send(Action.fold())

    def action_check_or_call(self) -> None:
        """Check (Passo, Busso, Cip) or call (Vedo), whichever is offered."""
        legal = self._legal()
        if legal is None:
            return
        if ActionKind.CHECK in legal.kinds:
            self._send(Action.check())
        elif ActionKind.CALL in legal.kinds:
            self._send(Action.call())

    def action_wager(self) -> None:
        """Bet or raise the amount shown (Apri, Punto, Rilancio; a blind opening)."""
        legal = self._legal()
        if legal is None:
            return
        kind = next((k for k in (ActionKind.BET, ActionKind.RAISE) if k in legal.kinds), None)
        if kind is None:
            if ActionKind.ALL_IN in legal.kinds and ActionKind.CALL not in legal.kinds:
                self._send(Action.all_in())
            return
        amount = self.amount if self.amount is not None else legal.min_to
        if not legal.min_to <= amount <= legal.max_to:
            self._say_error(
                self.words.pick(
                    f"L'importo va da {chips(legal.min_to)} a {chips(legal.max_to)}",
                    f"The amount must be from {chips(legal.min_to)} to {chips(legal.max_to)}",
                )
            )
            return
        if amount == legal.max_to and ActionKind.ALL_IN in legal.kinds:
            self._send(Action.all_in())
        else:
            self._send(Action(kind, amount))

    def action_raise_or_rebuy(self) -> None:
        """``r``: raise while betting; buy in again when out of chips."""
        if self._legal() is not None:
            self.action_wager()
            return
        if self.session.my_status() is SeatStatus.BUSTED:
            try:
                self.session.rebuy()
            except (RoomError, PlayError) as error:
                self._say_error(str(error))
                return
            self.message = Text(
                self.words.pick("Hai ricomprato", "You bought in again"), style="green"
            )

    def action_all_in(self) -> None:
        """Put every chip in (asks again first: it cannot be taken back)."""
        legal = self._legal()
        if legal is None or ActionKind.ALL_IN not in legal.kinds:
            return
        if self._confirm != "all-in":
            self._confirm = "all-in"
            self.message = Text(
                self.words.pick(
                    f"All-in di {chips(legal.max_to)}: premi a di nuovo per confermare",
                    f"All-in for {chips(legal.max_to)}: press a again to confirm",
                ),
                style="bold yellow",
            )
            return
        self._confirm = None
        self._send(Action.all_in())

    def action_enter(self) -> None:
        """Enter: bet the amount typed, else draw (or stand pat)."""
        if self.typed:
            self.action_wager()
        else:
            self.action_draw()

    def action_parol(self) -> None:
        """Say parol (parole)."""
        self._send_kind(ActionKind.PAROL)

    def action_draw(self) -> None:
        """Change the marked cards, or stand pat (Servito)."""
        legal = self._legal()
        if legal is None or ActionKind.DRAW not in legal.kinds:
            return
        cards = _sorted_hand(self.session.snapshot().my_cards, self.session.rules.traits)
        discards = tuple(cards[i] for i in sorted(self.marked) if i < len(cards))
        self._send(Action(ActionKind.DRAW, cards=discards))

    def _digit(self, digit: int) -> None:
        legal = self._legal()
        if legal is None:
            return
        if ActionKind.DRAW in legal.kinds:
            cards = self.session.snapshot().my_cards
            index = digit - 1
            if not 0 <= index < len(cards):
                return
            if index in self.marked:
                self.marked.discard(index)
            elif len(self.marked) >= legal.max_to:
                self._say_error(
                    self.words.pick(
                        f"Puoi cambiare al massimo {legal.max_to} carte",
                        f"You may change at most {legal.max_to} cards",
                    )
                )
            else:
                self.marked.add(index)
            return
        if not legal.kinds & {ActionKind.BET, ActionKind.RAISE}:
            return
        if len(self.typed) >= 9:
            return
        self.typed = (self.typed + str(digit)).lstrip("0")
        self.amount = int(self.typed) if self.typed else 0

    def _clear_amount(self) -> None:
        legal = self._legal()
        self.typed = ""
        self.amount = legal.min_to if legal is not None and legal.min_to else None

    def _backspace(self) -> None:
        if self._legal() is None:
            return
        self.typed = self.typed[:-1]
        self.amount = int(self.typed) if self.typed else 0

    def _preset(self, which: str) -> None:
        legal = self._legal()
        if legal is None or not legal.kinds & {ActionKind.BET, ActionKind.RAISE}:
            return
        snap = self.session.snapshot()
        pot_after_call = snap.total_pot + legal.to_call
        base = snap.my_bet + legal.to_call
        amount = {
            "min": legal.min_to,
            "half": base + pot_after_call // 2,
            "pot": base + pot_after_call,
            "max": legal.max_to,
        }[which]
        self.typed = ""
        self.amount = max(legal.min_to, min(legal.max_to, amount))

    def _step(self, direction: int) -> None:
        legal = self._legal()
        if legal is None or not legal.kinds & {ActionKind.BET, ActionKind.RAISE}:
            return
        snap = self.session.snapshot()
        step = (
            max(1, legal.min_to - max(snap.my_bet + legal.to_call, 0))
            if legal.to_call
            else legal.min_to
        )
        amount = (self.amount if self.amount is not None else legal.min_to) + direction * step
        self.typed = ""
        self.amount = max(legal.min_to, min(legal.max_to, amount))

    def action_no_or_next(self) -> None:
        """``n``: no to the table's question, else the next hand."""
        if self.session.my_offer() is not None:
            self._answer(False)
        else:
            self.action_next_hand()

    def action_yes(self) -> None:
        """``y``: yes to the table's question."""
        if self.session.my_offer() is not None:
            self._answer(True)

    def _answer(self, accept: bool) -> None:
        try:
            self.session.answer(accept)
        except (RoomError, PlayError) as error:
            self._say_error(str(error))
            return
        self.session.start_next_hand()

    def action_next_hand(self) -> None:
        """Deal the next hand now."""
        session = self.session
        if session.in_hand or session.my_offer() is not None:
            return
        self._next_hand()

    def _next_hand(self) -> None:
        session = self.session
        self._next_hand_at = None
        if session.is_tournament and session.my_seat() is None and not session.over:
            session.finish_tournament()
            return
        if not session.start_next_hand() and session.my_offer() is None and not session.over:
            self.message = Text(
                self.words.pick("Non ci sono giocatori a sufficienza", "Not enough players"),
                style="yellow",
            )

    def action_sit_in(self) -> None:
        """Back in after sitting out, or not sitting out after this hand after all."""
        session = self.session
        if session.my_status() is SeatStatus.SITTING_OUT or session.sits_out_next():
            try:
                session.sit_in()
            except (RoomError, PlayError) as error:
                self._say_error(str(error))

    def action_history(self) -> None:
        """Show the previous hands."""
        self.push_screen(HistoryScreen(self.session))

    def action_colours(self) -> None:
        """Switch between the two- and four-colour decks."""
        self.four_colour = not self.four_colour
        self.session.config = dataclasses.replace(self.session.config, four_colour=self.four_colour)

    def action_quit_game(self) -> None:
        """Quit (asks again during a hand), saving the hand histories."""
        if self.session.in_hand and not self._quit_asked:
            self._quit_asked = True
            self.message = Text(
                self.words.pick(
                    "La mano è in corso e non sarà salvata: premi q di nuovo per uscire",
                    "A hand is being played and will not be saved: press q again to quit",
                ),
                style="bold yellow",
            )
            return
        self._save_and_exit()

    async def action_quit(self) -> None:  # ctrl+q, Textual's own quit
        """Quit at once (the finished hands are saved already)."""
        self._save_and_exit()

    def _save_and_exit(self) -> None:
        # Each hand was written as it ended; this writes what a failed folder kept back.
        try:
            self.saved = self.session.save(self.hands_dir)
        except PlayError:
            self.saved = None  # the command line tells why, after the screen is gone
        self.exit(self.saved)
