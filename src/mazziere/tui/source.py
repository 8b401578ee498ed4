"""What the terminal table (:class:`~mazziere.tui.app.PlayApp`) needs from a game: its source.

Two sources drive the same screen: :class:`~mazziere.tui.session.PlaySession`
(the player and bots at a table of the room's logic in this process) and
:class:`~mazziere.tui.remote.RemoteSession` (a seat at a table of a running
``mazziere serve``, from what the room sends that seat).  The screen reads
the table only through :class:`TableSession`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from rich.text import Text

from mazziere.game.core import Action, LegalActions
from mazziere.room.clock import Clock
from mazziere.room.table import OfferKind, SeatStatus
from mazziere.rules import RuleSet
from mazziere.tui.session import PlayConfig, PlayedHand, Snapshot
from mazziere.tui.words import Words

__all__ = ["DecisionLike", "OfferLike", "TableLike", "TableSession"]


class DecisionLike(Protocol):
    """The player's decision: what they may do."""

    @property
    def legal(self) -> LegalActions:
        """The legal actions."""


class OfferLike(Protocol):
    """A question to the player before the deal."""

    @property
    def kind(self) -> OfferKind:
        """What is asked (post the invito, rejoin a parol pot)."""

    @property
    def amount(self) -> int:
        """The chips it costs."""


class TableLike(Protocol):
    """The table's hand in progress (an engine hand, or the hand as the seat saw it)."""

    @property
    def hand(self) -> Any:
        """The hand (``n`` players, its ``log``; Hold'em's ``board``; Italian ``opening``)."""

    @property
    def hand_number(self) -> int:
        """The hand's number at the table."""


class TableSession(Protocol):
    """A game the terminal table shows and plays (see the module's docstring)."""

    config: PlayConfig
    words: Words
    rules: RuleSet
    me: str
    clock: Clock
    hands: list[PlayedHand]
    transcript: list[Text]

    @property
    def table(self) -> TableLike:
        """The player's table."""

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""

    @property
    def hand_over(self) -> bool:
        """Whether the last hand dealt is over (true before the first one too)."""

    @property
    def over(self) -> bool:
        """Nothing more to deal (a finished tournament)."""

    @property
    def is_tournament(self) -> bool:
        """Whether this is a sit & go."""

    def snapshot(self) -> Snapshot:
        """What the screen shows now."""

    def my_decision(self) -> DecisionLike | None:
        """The decision when it is the player's turn."""

    def my_offer(self) -> OfferLike | None:
        """A question the table asks the player before the deal."""

    def offer_seconds(self) -> float:
        """Seconds left to answer :meth:`my_offer` (0 when none is open)."""

    def my_seat(self) -> object | None:
        """The player's seat (``None``: not seated)."""

    def my_status(self) -> SeatStatus | None:
        """Where the player stands at the table."""

    def sits_out_next(self) -> bool:
        """The player sits out once this hand is over (asked for during it, or after too
        many timeouts): sitting in before then takes it back."""

    def bot_decision(self) -> object | None:
        """A decision a bot of this process must make (``None``: none)."""

    def play_bot(self) -> bool:
        """Let that bot act; say whether one did."""

    def act(self, action: Action) -> None:
        """The player's action (raises a precise error when it cannot be sent)."""

    def answer(self, accept: bool) -> None:
        """The player answers :meth:`my_offer`."""

    def rebuy(self) -> None:
        """Buy in again after losing every chip."""

    def sit_in(self) -> None:
        """Back in after sitting out."""

    def start_next_hand(self) -> bool:
        """Deal the next hand if this source deals; say whether one started."""

    def tick(self) -> None:
        """The clock's turn (timeouts)."""

    def finish_tournament(self) -> None:
        """The player is out: let the others finish."""

    def open_folder(self, base: Path | str | None = None) -> None:
        """Save the finished hands under ``base``."""

    def save(self, folder: Path | str | None = None) -> Path | None:
        """Make sure every finished hand is saved; the folder, if any."""
