"""The engine's errors: each says precisely why an action or a setup was refused."""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "ActionNotOfferedError",
    "AmountTooLargeError",
    "AmountTooSmallError",
    "CannotBetError",
    "CannotCheckError",
    "CannotMuckError",
    "CannotRaiseError",
    "DeckExhaustedError",
    "HandOverError",
    "HandSetupError",
    "IllegalActionError",
    "InvalidAmountError",
    "NotYourTurnError",
    "NothingToCallError",
    "UndeterminedHandError",
    "WrongPhaseError",
    "succeeds",
]


class IllegalActionError(ValueError):
    """An action the hand does not allow now; the message says why.  Nothing changed."""


class HandOverError(IllegalActionError):
    """The hand is over."""


class WrongPhaseError(IllegalActionError):
    """Not the moment for this action (betting during the showdown, say)."""


class NotYourTurnError(IllegalActionError):
    """Another position is to act."""


class ActionNotOfferedError(IllegalActionError):
    """An action this game or this moment does not have."""


class CannotCheckError(IllegalActionError):
    """There is a bet to call."""


class NothingToCallError(IllegalActionError):
    """There is no bet to call: check."""


class CannotBetError(IllegalActionError):
    """There is already a bet in this round: raise."""


class CannotRaiseError(IllegalActionError):
    """No bet or raise is allowed: no bet to raise, betting not reopened, call-or-fold only..."""


class InvalidAmountError(IllegalActionError):
    """An amount that is not a whole number of chips."""


class AmountTooSmallError(IllegalActionError):
    """Below the minimum bet or raise."""


class AmountTooLargeError(IllegalActionError):
    """Above the stack or the pot limit."""


class CannotMuckError(IllegalActionError):
    """The hand could still win: it is shown (cards speak)."""


class HandSetupError(ValueError):
    """Bad parameters for a new hand (stacks, blinds, deck...)."""


class DeckExhaustedError(HandSetupError):
    """The given card order ran out."""


class UndeterminedHandError(ValueError):
    """A pot would be decided by cards nobody knows (a replayed ``????``)."""


def succeeds(verify: Callable[..., object], *args: object) -> bool:
    """Whether ``verify(*args)`` raises no :class:`IllegalActionError`: every ``can_x``.

    >>> def verify(amount):
    ...     if amount > 10:
    ...         raise AmountTooLargeError("at most 10")
    >>> succeeds(verify, 5), succeeds(verify, 50)
    (True, False)
    """
    try:
        verify(*args)
    except IllegalActionError:
        return False
    return True
