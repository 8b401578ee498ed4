"""The records of a hand's log: immutable, compared by value, each as a viewer may see it."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from mazziere.cards import Card
from mazziere.game.actions import ActionKind
from mazziere.game.fields import Fields, named_fields

if TYPE_CHECKING:
    from mazziere.game.pots import Pot

__all__ = [
    "BetsCollected",
    "CardBurned",
    "CardsMucked",
    "CardsShown",
    "ForcedBet",
    "HoleCardsDealt",
    "PlayerActed",
    "PotAwarded",
    "RakeTaken",
    "Record",
    "UncalledBetReturned",
    "as_record",
]


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, bool | int | str):
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:  # before tuples: a named tuple says how it is written
        return to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


class Record(Fields):
    """Base of every record in a hand's log.  Records are immutable and compare by value.

    Each record class is declared with annotated fields and made by
    :func:`as_record` into a tuple with named fields, built from the tuple of
    its fields: ``CardsShown((position, cards))`` (see
    :class:`~mazziere.game.fields.Fields`).  Unlike a tuple, a record equals
    only a record of the same class.
    """

    __slots__ = ()
    type: ClassVar[str] = "record"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``{"type": ..., <fields>}``; cards as text, unknown ``"??"``."""
        data: dict[str, Any] = {"type": self.type}
        for name, value in zip(self._fields, self, strict=True):
            if name == "cards" and isinstance(value, tuple):
                data[name] = [_card_text(c) for c in value]
            elif name == "card":
                data[name] = None if value is None else str(value)
            else:
                data[name] = _plain(value)
        return data

    def seen_by(self, viewer: int | None) -> Record:
        """The record as ``viewer`` (a position, or ``None`` for a spectator) may see it.

        A seat sees at least what a spectator sees: a record a spectator sees whole (this
        one itself) is seen whole from every seat.
        """
        return self


_R = TypeVar("_R", bound=Record)


def as_record(cls: type[_R]) -> type[_R]:
    """Make a :class:`Record` subclass declared with annotated fields a record
    (:func:`~mazziere.game.fields.named_fields`): built from the tuple of all its fields.

    >>> @as_record
    ... class Example(Record):
    ...     position: int
    ...     all_in: bool
    >>> Example((3, False)), Example((3, False)) == (3, False)
    (Example(position=3, all_in=False), False)
    """
    return named_fields(cls)


@as_record
class ForcedBet(Record):
    """A forced bet posted before the cards: ante, invito, blind, straddle, blind raise...

    ``live`` chips count toward the player's bet in the first betting round;
    dead ones only go into the pot.
    """

    type: ClassVar[str] = "forced_bet"
    position: int
    amount: int
    kind: str
    live: bool
    all_in: bool


@as_record
class HoleCardsDealt(Record):
    """Cards dealt face down to a player; ``None`` is an unknown card (replays)."""

    type: ClassVar[str] = "hole_cards"
    position: int
    cards: tuple[Card | None, ...]

    def seen_by(self, viewer: int | None) -> Record:
        """Others' hole cards are hidden.

        >>> HoleCardsDealt((0, (Card("Ah"), Card("Kd")))).seen_by(1).to_dict()
        {'type': 'hole_cards', 'position': 0, 'cards': ['??', '??']}
        """
        if viewer == self.position:
            return self
        return HoleCardsDealt((self.position, (None,) * len(self.cards)))


@as_record
class CardBurned(Record):
    """A card burned by the dealer (nobody sees which)."""

    type: ClassVar[str] = "burn"
    card: Card | None

    def seen_by(self, viewer: int | None) -> Record:
        """Nobody sees a burned card."""
        return CardBurned((None,)) if self.card is not None else self


@as_record
class PlayerActed(Record):
    """A betting decision: ``added`` chips went in and the player's bet is now ``to``."""

    type: ClassVar[str] = "action"
    position: int
    kind: ActionKind
    added: int
    to: int
    all_in: bool
    timed_out: bool


@as_record
class UncalledBetReturned(Record):
    """The part of a bet nobody called goes back to its owner."""

    type: ClassVar[str] = "uncalled"
    position: int
    amount: int


@as_record
class BetsCollected(Record):
    """The end of a betting round: bets go to the pots, which are now ``pots``."""

    type: ClassVar[str] = "collect"
    pots: tuple[Pot, ...]


@as_record
class CardsShown(Record):
    """A player's hole cards face up (at the showdown, an all-in, or by choice)."""

    type: ClassVar[str] = "show"
    position: int
    cards: tuple[Card | None, ...]


@as_record
class CardsMucked(Record):
    """A player gave up their cards unseen at the showdown (they win nothing)."""

    type: ClassVar[str] = "muck"
    position: int


@as_record
class RakeTaken(Record):
    """The house's share, taken from the pots before they are awarded."""

    type: ClassVar[str] = "rake"
    amount: int


@as_record
class PotAwarded(Record):
    """Pot number ``pot`` (0 is the main pot) goes to ``winners``, ``shares`` each."""

    type: ClassVar[str] = "award"
    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
