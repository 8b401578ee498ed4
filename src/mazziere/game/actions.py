"""Actions as data, and the legal actions of the player to act: what a client offers and sends."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mazziere.cards import Card
from mazziere.game.errors import ActionNotOfferedError, InvalidAmountError
from mazziere.game.fields import Fields, named_fields

__all__ = ["NO_ACTIONS", "Action", "ActionKind", "LegalActions"]


class ActionKind(StrEnum):
    """What a player may do.  Each engine accepts the kinds its game has."""

    FOLD = "fold"
    CHECK = "check"
    """Also "passo" (classic opening round), "busso", "cip": the engine action is a check."""
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    """Raise *to* a total amount for the round (as in PHH's ``cbr``)."""
    ALL_IN = "all-in"
    """Put in the whole stack: a call, bet or raise, whichever it amounts to."""
    PAROL = "parol"
    """Italian poker: a check that counts only if every player still in says it."""
    DRAW = "draw"
    """Italian poker: discard the given cards (none: stand pat, "servito")."""
    SHOW = "show"
    MUCK = "muck"
    TIMEOUT = "timeout"
    """The clock ran out: the engine checks if checking is free, otherwise folds."""


_AMOUNT_KINDS = frozenset({ActionKind.BET, ActionKind.RAISE})


@dataclass(frozen=True, slots=True)
class Action:
    """An action as data: what a table, a bot or a socket passes to :meth:`BettingHand.apply`.

    ``amount`` is the total a bet or raise brings the player's bet to in this
    round; ``cards`` are the discards of a draw.

    >>> Action.raise_to(300)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=300, cards=())
    >>> str(Action.parse("raise 300")), str(Action.parse("all-in")), str(Action.parse("draw Ah 7c"))
    ('raise 300', 'all-in', 'draw Ah 7c')
    >>> Action.parse("bet")
    Traceback (most recent call last):
    ...
    mazziere.game.errors.InvalidAmountError: bet needs an amount: 'bet'
    """

    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def fold(cls) -> Action:
        """Fold (pass, in Italian poker's last round)."""
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        """Check (passo, busso, cip)."""
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        """Call (vedo)."""
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, amount: int) -> Action:
        """Bet ``amount`` (open, punto)."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Raise to a total of ``amount`` for the round (rilancio)."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def all_in(cls) -> Action:
        """Put the whole stack in."""
        return cls(ActionKind.ALL_IN)

    @classmethod
    def timeout(cls) -> Action:
        """The player's clock ran out."""
        return cls(ActionKind.TIMEOUT)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``'fold'``, ``'bet 20'``, ``'raise 60'``, ``'draw Ah 7c'``... as ``str`` writes."""
        from mazziere.cards import parse_cards

        words = text.split()
        if not words:
            raise InvalidAmountError("empty action")
        try:
            kind = ActionKind(words[0].lower())
        except ValueError:
            known = ", ".join(k.value for k in ActionKind)
            raise ActionNotOfferedError(f"unknown action {words[0]!r} (known: {known})") from None
        rest = words[1:]
        if kind in _AMOUNT_KINDS:
            if len(rest) != 1 or not rest[0].isdigit():
                raise InvalidAmountError(f"{kind.value} needs an amount: {text!r}")
            return cls(kind, int(rest[0]))
        if kind is ActionKind.DRAW:
            return cls(kind, cards=tuple(parse_cards(" ".join(rest))))
        if rest:
            raise InvalidAmountError(f"{kind.value} takes no argument: {text!r}")
        return cls(kind)

    def __str__(self) -> str:
        if self.amount is not None:
            return f"{self.kind.value} {self.amount}"
        if self.cards:
            return f"{self.kind.value} " + " ".join(map(str, self.cards))
        return self.kind.value

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON.

        >>> Action.bet(20).to_dict()
        {'kind': 'bet', 'amount': 20, 'cards': []}
        """
        return {
            "kind": self.kind.value,
            "amount": self.amount,
            "cards": [str(c) for c in self.cards],
        }


@named_fields
class LegalActions(Fields):
    """What the player to act may do now: the engine's answer, and a client's buttons.

    ``to_call`` is what a call adds; a bet or raise brings the player's bet to
    any total from ``min_to`` to ``max_to`` (``min_to`` is the all-in amount
    when the stack is short of a full raise).  Built from the tuple of its
    fields, as a record is: the engine makes one for every decision.

    >>> legal = LegalActions((2, frozenset({ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE,
    ...                                     ActionKind.ALL_IN}), 2, 4, 100))
    >>> Action.raise_to(4) in legal, Action.raise_to(3) in legal, Action.check() in legal
    (True, False, False)
    """

    __slots__ = ()
    position: int | None
    kinds: frozenset[ActionKind]
    to_call: int
    min_to: int
    max_to: int

    @property
    def confirm_fold(self) -> bool:
        """Folding is legal but gives up a free check: a client asks before sending it.

        >>> LegalActions((0, frozenset({ActionKind.FOLD, ActionKind.CHECK}), 0, 0, 0)).confirm_fold
        True
        """
        return not self.to_call and ActionKind.FOLD in self.kinds

    def __contains__(self, action: object) -> bool:
        return self.allows(action)

    def allows(self, action: object) -> bool:
        """Whether ``action`` (an :class:`Action`) is legal now; ``action in legal`` says the same.

        >>> LegalActions((0, frozenset({ActionKind.BET}), 0, 10, 50)).allows(Action.bet(60))
        False
        """
        if not isinstance(action, Action) or action.kind not in self.kinds:
            return False
        if action.kind in _AMOUNT_KINDS:
            return action.amount is not None and self.min_to <= action.amount <= self.max_to
        return True

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (kinds sorted)."""
        return {
            "position": self.position,
            "kinds": sorted(k.value for k in self.kinds),
            "to_call": self.to_call,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "confirm_fold": self.confirm_fold,
        }


NO_ACTIONS = LegalActions((None, frozenset(), 0, 0, 0))

_K = ActionKind
_CHECK_ONLY = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK})
_CALL_ONLY = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL})
_CALL_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.ALL_IN})
_BET = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.BET, _K.ALL_IN})
_BET_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.BET})
_RAISE = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.RAISE, _K.ALL_IN})
_RAISE_CHECK = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.RAISE, _K.ALL_IN})
"""The big blind's option: nothing to call, a raise allowed."""
_RAISE_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.RAISE})
_RAISE_CHECK_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.RAISE})
_SHOW_ONLY = frozenset({_K.SHOW, _K.TIMEOUT})
_SHOW_OR_MUCK = frozenset({_K.SHOW, _K.MUCK, _K.TIMEOUT})
