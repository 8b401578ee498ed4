"""The draw of Poker all'italiana: each player still in changes up to the rule set's
number of cards, in turn from the dealer's left (RULES.md §4)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from itertools import filterfalse

from mazziere.cards import Card, format_cards
from mazziere.game.core import (
    HoleCardsDealt,
    IllegalActionError,
    NotYourTurnError,
    Phase,
    WrongPhaseError,
)
from mazziere.game.errors import succeeds
from mazziere.game.italian.setup import Discarded, StockReshuffled
from mazziere.game.italian.showdown import ItalianShowdown
from mazziere.game.italian.stock import DrawStock

__all__ = ["CannotDiscardError", "ItalianDraw"]

_PHASE_DRAW = Phase.DRAW
_PHASE_OVER = Phase.OVER


class CannotDiscardError(IllegalActionError):
    """Discards that are not the player's cards, too many of them, or the same card twice."""


class ItalianDraw(ItalianShowdown):
    """The draw part of :class:`~mazziere.game.italian.hand.ItalianHand`."""

    __slots__ = ("_draw_queue", "_late")

    # The hand's own attributes this part reads (set by ItalianHand).
    drawn: list[int | None]
    _draw_max: int
    _stock: DrawStock

    @abstractmethod
    def _after_draw(self) -> None:
        """Everyone drew: the last betting round (or the showdown)."""

    def _begin_draw(self) -> None:
        self._draw_queue = list(self.live)  # the players not folded, in position order
        self._late: list[int] = []
        if not self.rules.draw_max:
            self._after_draw()
            return
        self.phase = _PHASE_DRAW
        self.actor = self._draw_queue[0]

    def verify_draw(self, cards: Iterable[Card] = (), position: int | None = None) -> None:
        """Raise unless the player to draw may discard these cards (none: stand pat)."""
        if self.phase is not _PHASE_DRAW:
            if self.phase is _PHASE_OVER:
                raise WrongPhaseError("the hand is over")
            raise WrongPhaseError(f"no draw now: the hand is at the {self.phase.value}")
        actor = self.actor
        assert actor is not None
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn to draw, not {position}'s")
        discards = list(cards)
        if len(discards) > self.rules.draw_max:
            raise CannotDiscardError(
                f"at most {self.rules.draw_max} cards may be changed, not {len(discards)}"
            )
        if len(set(discards)) != len(discards):
            raise CannotDiscardError(f"the same card twice: {format_cards(discards)}")
        held = self.hole[actor]
        for card in discards:
            if card not in held:
                raise CannotDiscardError(f"{card} is not in position {actor}'s hand")

    def can_draw(self, cards: Iterable[Card] = (), position: int | None = None) -> bool:
        """Whether :meth:`draw` would succeed."""
        return succeeds(self.verify_draw, cards, position)

    def draw(
        self, cards: Iterable[Card] = (), position: int | None = None, *, timed_out: bool = False
    ) -> Discarded:
        """Discard ``cards`` and get as many new ones (the fourth of four after everyone)."""
        discards = tuple(cards)
        self.verify_draw(discards, position)
        actor = self.actor
        assert actor is not None
        held, thrown = self.hole[actor], set(discards)
        record = Discarded((actor, discards, timed_out))
        self.log.append(record)
        count = len(discards)
        self.drawn[actor] = count
        if count:
            self.hole[actor] = tuple(filterfalse(thrown.__contains__, held))
            self._stock.discard(actor, discards)
            now = count
            if count == 4 and self.rules.fourth_card_after_others:
                now = 3
                self._late.append(actor)
            self._deal_draw(actor, now)
        queue = self._draw_queue
        queue.pop(0)
        if queue:
            self.actor = queue[0]
            return record
        for late in self._late:
            self._deal_draw(late, 1)
        self._after_draw()
        return record

    def _deal_draw(self, position: int, count: int) -> None:
        cards, reshuffles = self._stock.deal(position, count)
        for event in reshuffles:
            # The new stock's order is secret: the record keeps which cards went in.
            self.log.append(StockReshuffled((event.position, tuple(sorted(event.cards)))))
        dealt = tuple(cards)
        self.hole[position] += dealt
        self.log.append(HoleCardsDealt((position, dealt)))
