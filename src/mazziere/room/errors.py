"""Errors of the room layer: every one is a :class:`ValueError` with a precise message.

An operation that raises one of these has changed nothing.

>>> issubclass(InsufficientChipsError, RoomError) and issubclass(RoomError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "BuyInError",
    "ICMError",
    "InsufficientChipsError",
    "LedgerError",
    "LedgerMismatchError",
    "NotRegisteredError",
    "PayoutError",
    "RegistrationError",
    "RoomError",
    "ScheduleError",
    "SeatError",
    "SettingsError",
    "TableStateError",
    "TournamentStateError",
]


class RoomError(ValueError):
    """Base class of every error the room layer raises for bad input."""


class SettingsError(RoomError):
    """Table or tournament settings that do not make sense (min buy-in above max...)."""


class LedgerError(RoomError):
    """A chip movement the ledger refuses (non-positive amount, same account twice...)."""


class InsufficientChipsError(LedgerError):
    """A movement that would leave an account that may not go negative below zero."""


class LedgerMismatchError(LedgerError):
    """The ledger disagrees with the chips on the table: a bug, never bad input."""


class SeatError(RoomError):
    """A seat that does not exist, is taken, or a player who is not seated."""


class BuyInError(RoomError):
    """A buy-in or top-up outside the table's limits."""


class TableStateError(RoomError):
    """An operation the table cannot do now (acting out of turn, leaving mid-hand...)."""


class ScheduleError(RoomError):
    """A level schedule that cannot be played (no levels, a level of zero length...)."""


class PayoutError(RoomError):
    """A payout table or prize split that cannot be paid."""


class ICMError(RoomError):
    """Stacks and prizes the ICM calculator cannot use."""


class RegistrationError(RoomError):
    """A registration refused: closed, full, already registered."""


class NotRegisteredError(RegistrationError):
    """Unregistering a player who is not registered."""


class TournamentStateError(RoomError):
    """An operation the tournament cannot do in its current state."""
