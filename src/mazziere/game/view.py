"""What one player (or a spectator) may see of a hand: the views every game extends."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mazziere.cards import Card

if TYPE_CHECKING:  # (the hand imports its view)
    from mazziere.game.actions import LegalActions
    from mazziere.game.hand import Phase
    from mazziere.game.pots import HandResult, Pot

__all__ = ["HandView", "card_texts"]


def card_texts(cards: Iterable[Card | None]) -> list[str]:
    """Cards as text, a hidden one as ``"??"``.

    >>> card_texts([Card("Ah"), None])
    ['Ah', '??']
    """
    return ["??" if card is None else str(card) for card in cards]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandView:
    """A hand as one player (or a spectator) sees it: plain data, ``to_dict()`` for JSON.

    Hidden cards are ``None`` (``"??"`` in JSON).  ``legal`` is given only to
    the player to act.  Each game's view adds what is its own.
    """

    viewer: int | None
    phase: Phase
    button: int
    actor: int | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    hole: tuple[tuple[Card | None, ...], ...]
    legal: LegalActions | None = None
    result: HandResult | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "viewer": self.viewer,
            "phase": self.phase.value,
            "button": self.button,
            "actor": self.actor,
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "folded": list(self.folded),
            "pots": [p.to_dict() for p in self.pots],
            "total_pot": self.total_pot,
            "hole": [card_texts(h) for h in self.hole],
            "legal": None if self.legal is None else self.legal.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
        }
