"""Parol (parole, in italian-32): a check in the last betting round that counts only if
every player still in says it; then the pot is carried on, or split (RULES.md §5)."""

from __future__ import annotations

from itertools import islice

from mazziere.game.core import (
    ActionKind,
    ActionNotOfferedError,
    CannotCheckError,
    PlayerActed,
)
from mazziere.game.errors import succeeds
from mazziere.game.italian.draw import ItalianDraw

__all__ = ["ItalianParol"]

_ACTIONKIND_FOLD = ActionKind.FOLD
_ACTIONKIND_PAROL = ActionKind.PAROL


class ItalianParol(ItalianDraw):
    """The parol part of :class:`~mazziere.game.italian.hand.ItalianHand`."""

    __slots__ = ("_parol_breaker", "_parol_scanned")
    _parol_breaker: int | None
    """The first player of the last round who acted other than by parol or a fold."""
    _parol_scanned: int
    """How much of the log :meth:`_scan_parol` has read."""

    # The hand's own attributes this part reads (set by ItalianHand).
    betting_round: int
    _has_parol: bool
    _last_round_start: int

    def _parol_offered(self) -> str | None:
        """Why this game or moment has no parol (parole); ``None`` if it has."""
        if not self._has_parol:
            return f"{self.rules.name} has no parol"
        if self.betting_round != 2:
            return "parol is said in the last betting round only"
        return None

    def _parol_blocked(self) -> str | None:
        """Why parol (parole) may not be said now, in the last round of a game that has it
        (:meth:`_parol_offered`); ``None`` if it may."""
        if self._active != self._live:  # somebody still in has no chips behind
            return "no parol while a player still in is all-in"
        if self._parol_breaker is None and self._parol_scanned != len(self.log):
            self._scan_parol()
        if self._parol_breaker is not None:
            return f"position {self._parol_breaker} did not say parol: it no longer counts"
        return None

    def _scan_parol(self) -> None:
        """Look for the first player of the last round who acted other than by parol or a fold."""
        log = self.log
        for record in islice(log, self._parol_scanned, None):
            if isinstance(record, PlayerActed) and record.kind not in (
                _ACTIONKIND_PAROL,
                _ACTIONKIND_FOLD,
            ):
                self._parol_breaker = record.position
                break
        self._parol_scanned = len(log)

    def _parol_unanimous(self) -> bool:
        """Whether every player still in said parol in the last round (asked at its end)."""
        if not self._has_parol or self._parol_blocked() is not None:
            return False
        return any(
            isinstance(r, PlayerActed) and r.kind is _ACTIONKIND_PAROL
            for r in self.log[self._last_round_start :]
        )

    def verify_parol(self, position: int | None = None) -> None:
        """Raise unless the player to act may say parol (parole, in italian-32)."""
        legal = self._options(position)
        if _ACTIONKIND_PAROL in legal.kinds:
            return
        offered = self._parol_offered()
        if offered is not None:
            raise ActionNotOfferedError(offered)
        if legal.to_call:
            raise CannotCheckError("parol is a check: there is a bet to call")
        blocked = self._parol_blocked()
        assert blocked is not None  # (the legal actions offer parol otherwise)
        raise ActionNotOfferedError(blocked)

    def can_parol(self, position: int | None = None) -> bool:
        """Whether :meth:`parol` would succeed."""
        return succeeds(self.verify_parol, position)

    def parol(self, position: int | None = None) -> PlayerActed:
        """Say parol (parole): a check that counts only if every player still in says it."""
        self.verify_parol(position)
        return self._check_as(_ACTIONKIND_PAROL)
