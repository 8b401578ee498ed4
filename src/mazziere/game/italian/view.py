"""What one player (or a spectator) may see of an Italian hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mazziere.cards import Rank
from mazziere.game.view import HandView

__all__ = ["ItalianView"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ItalianView(HandView):
    """An Italian hand as one player (or a spectator) sees it: plain data, ``to_dict()`` for JSON.

    Hidden cards are ``None`` (``"??"`` in JSON); ``drawn`` says how many cards
    each player changed; ``legal`` is given only to the player to act (its
    ``bet`` is there only when the cards may open).
    """

    rules: str
    betting_round: int
    drawn: tuple[int | None, ...]
    opening: Rank | None
    parol_pot: bool
    carried_pot: int
    blind_raisers: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            **HandView.to_dict(self),
            "rules": self.rules,
            "betting_round": self.betting_round,
            "drawn": list(self.drawn),
            "opening": self.opening.name_it if self.opening is not None else None,
            "parol_pot": self.parol_pot,
            "carried_pot": self.carried_pot,
            "blind_raisers": list(self.blind_raisers),
        }
