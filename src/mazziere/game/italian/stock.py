"""The draw's stock: fresh cards from the deck, the discards, and the reshuffle (RULES.md §4)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mazziere.cards import CARDS, Card, RandomSource, format_cards
from mazziere.game.stock import RandomDraws

__all__ = ["DrawStock", "ReshuffleEvent", "StockError"]


class StockError(ValueError):
    """A card that may not be dealt now: not in the stock, dealt already, or the drawer's own."""


@functools.cache
def _permutations(size: int, count: int) -> int:
    """``math.perm(size, count)``, worked out once: the range of a deal's one random number."""
    return math.perm(size, count)


@dataclass(frozen=True, slots=True)
class ReshuffleEvent:
    """The stock ran out: ``cards`` (discards) were shuffled into a new stock for ``position``."""

    position: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"reshuffle for p{self.position + 1}: {format_cards(self.cards)}"


class DrawStock:
    """The cards of one hand still to be dealt, and the discards, with the draw's reshuffle.

    Fresh cards come from the deck: first the given ``order`` (a replay, a
    test), then at random, by an unbiased Fisher-Yates.  When no
    fresh card is left and the reshuffled stock holds no card the drawer may
    receive, the discards of the players who have already drawn (never the
    drawer's own; folded hands are not discards) are shuffled into it.  A
    drawer is never dealt a card they discarded: after a reshuffle made for
    somebody else the stock may hold a late drawer's own discards, and those
    are passed over (the first other card of a shuffled stock is as random as
    its top card).

    In ``order`` a card may appear again after it was discarded: that is a
    card dealt from a reshuffle, and it must be one the rule allows then.

    >>> from mazziere.cards import parse_cards
    >>> def cards(text):  # a card order may repeat a card: dealt again after a reshuffle
    ...     return [Card(word) for word in text.split()]
    >>> stock = DrawStock(cards("As Ks 2h 3h"), order=cards("2h 3h As Ks"))
    >>> stock.deal_fresh(2), stock.fresh_left
    ((Card('2h'), Card('3h')), 2)
    >>> stock.discard(0, parse_cards("2h 3h"))
    >>> stock.deal(1, 3)
    Traceback (most recent call last):
    ...
    mazziere.game.italian.stock.StockError: no random source to reshuffle the discards
    >>> stock = DrawStock(cards("As Ks 2h 3h"), order=cards("2h 3h As Ks 3h"))
    >>> _ = stock.deal_fresh(2); stock.discard(0, parse_cards("2h 3h"))
    >>> cards, reshuffles = stock.deal(1, 3)
    >>> cards, [str(event) for event in reshuffles]
    ([Card('As'), Card('Ks'), Card('3h')], ['reshuffle for p2: 3h 2h'])
    >>> stock.deal(0, 1)
    Traceback (most recent call last):
    ...
    mazziere.game.italian.stock.StockError: no card left that p1 may receive
    """

    __slots__ = (
        "_draws",
        "_fresh_left",
        "_given",
        "_origin",
        "_pool",
        "_recycled",
        "_repeats",
        "_replay",
        "_rng",
        "_unseen",
    )

    def __init__(
        self,
        deck: Sequence[Card],
        *,
        order: Sequence[Card] | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        if order:
            self._follow(deck, order)
        else:  # every card at random
            self._unseen = list(deck)
            self._given: list[Card] = []
            self._replay: list[Card] = []
            self._repeats: list[bool] = []
        self._fresh_left = len(deck)
        self._recycled: list[Card] = []  # the reshuffled stock, top last
        self._pool: list[Card] = []  # discards not yet reshuffled
        self._origin: dict[int, int] = {}
        self._rng = rng
        self._draws = RandomDraws(rng) if rng is not None else None

    def _follow(self, deck: Sequence[Card], order: Sequence[Card]) -> None:
        """Deal ``order`` first: its new cards from the deck, its repeats from reshuffles."""
        fresh: list[Card] = []
        again: list[Card] = []
        repeats: list[bool] = []  # for each card of the order: dealt again after a reshuffle?
        seen: set[int] = set()
        for card in order:
            if card is None:
                raise StockError("an Italian hand is dealt from known cards only")
            repeat = card in seen
            (again if repeat else fresh).append(card)
            repeats.append(repeat)
            seen.add(card)
        if fresh:
            members = set(deck)
            for card in fresh:
                if card not in members:
                    raise StockError(f"card {str(CARDS[card])!r} is not in this game's deck")
            self._unseen = [c for c in deck if c not in seen]
        else:
            self._unseen = list(deck)
        self._given = fresh[::-1]  # pop() from the end
        again.reverse()  # pop() from the end
        repeats.reverse()
        self._replay = again
        self._repeats = repeats

    @property
    def fresh_left(self) -> int:
        """Cards of the deck not dealt yet."""
        return self._fresh_left

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discards not yet shuffled back into the stock."""
        return tuple(self._pool)

    @property
    def reshuffled(self) -> tuple[Card, ...]:
        """The reshuffled stock, top first."""
        return tuple(reversed(self._recycled))

    def owner(self, card: int) -> int | None:
        """Who discarded ``card`` (``None`` for a card never discarded)."""
        return self._origin.get(card)

    def deal_fresh(self, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards of the deck (the deal)."""
        if count > self._fresh_left:
            raise StockError(f"{count} cards wanted, {self._fresh_left} left in the deck")
        if count and not self._repeats and not self._given:  # no card order (left): at random
            cards = self._draw_unseen(count)
            self._fresh_left -= count
            return tuple(cards)
        repeats = self._repeats
        for _ in range(min(count, len(repeats))):
            if repeats.pop():
                card = str(CARDS[self._replay[-1]])
                raise StockError(f"{card} is dealt from the discards before a reshuffle")
        given = self._given
        cards = [given.pop() for _ in range(min(count, len(given)))]
        missing = count - len(cards)
        if missing:
            cards += self._draw_unseen(missing)
        self._fresh_left -= count
        return tuple(cards)

    def _draw_unseen(self, count: int) -> list[Card]:
        """``count`` cards of the deck nobody has seen, in random order, without bias.

        One number drawn below n (n-1) ... (n-count+1) is read in mixed radix:
        each digit picks one of the cards left (a Fisher-Yates step), so every
        ordered choice of cards is equally likely, for the price of a single
        call to the random source.
        """
        draws = self._draws
        if draws is None:
            raise StockError("the given card order ran out and there is no random source (rng)")
        unseen = self._unseen
        size = len(unseen)
        number = draws.below(size if count == 1 else _permutations(size, count))
        if count == 1:  # one card: swapped with the last and taken (the same cards as ever)
            unseen[number], unseen[-1] = unseen[-1], unseen[number]
            return [unseen.pop()]
        cards: list[Card] = []
        append, take = cards.append, unseen.pop
        for left in range(size, size - count, -1):
            append(take(number % left))  # divmod(), without its tuple: cheaper
            number //= left
        return cards

    def discard(self, position: int, cards: Iterable[Card]) -> None:
        """Put ``position``'s discards on the discard pile."""
        if type(cards) is not tuple:
            cards = tuple(cards)
        self._origin.update(dict.fromkeys(cards, position))
        self._pool.extend(cards)

    def _usable(self, position: int) -> int:
        recycled, origin = self._recycled, self._origin
        for index in range(len(recycled) - 1, -1, -1):
            if origin.get(recycled[index]) != position:
                return index
        return -1

    def _reshuffle(self, position: int, *, replaying: bool = False) -> ReshuffleEvent:
        origin = self._origin
        eligible = [c for c in self._pool if origin.get(c) != position]
        if not eligible:
            raise StockError(f"no card left that p{position + 1} may receive")
        if self._rng is None and not replaying:
            raise StockError("no random source to reshuffle the discards")
        # The new stock is not put in order here: each card dealt from it is
        # drawn at random among those the drawer may receive (_random_usable),
        # which is dealing from a shuffled stock, one Fisher-Yates step at a time.
        self._pool = [c for c in self._pool if origin.get(c) == position]
        self._recycled.extend(eligible)
        return ReshuffleEvent(position=position, cards=tuple(reversed(eligible)))

    def deal(self, position: int, count: int) -> tuple[list[Card], list[ReshuffleEvent]]:
        """Deal ``count`` replacement cards to ``position``; also the reshuffles it needed.

        A :class:`StockError` here means the given order broke the rule (a
        replay of a wrong history); the hand cannot go on.
        """
        if count <= self._fresh_left and not self._repeats:  # the usual case: the stock lasts
            if self._given:
                return list(self.deal_fresh(count)), []
            self._fresh_left -= count
            return self._draw_unseen(count), []
        dealt: list[Card] = []
        events: list[ReshuffleEvent] = []
        for _ in range(count):
            if self._fresh_left:
                if self._given or self._repeats:
                    dealt.extend(self.deal_fresh(1))
                else:  # deal_fresh(1) without a card order left: one random card
                    dealt.extend(self._draw_unseen(1))
                    self._fresh_left -= 1
                continue
            if self._replay:
                self._repeats.pop()
                card = self._replay.pop()
                name = str(CARDS[card])
                if self._origin.get(card) == position:
                    raise StockError(f"p{position + 1} discarded {name}: it cannot come back")
                if card not in self._recycled:
                    if card not in self._pool:
                        raise StockError(f"{name} is dealt twice")
                    if self._usable(position) >= 0:
                        raise StockError(f"{name} is dealt from the discards before a reshuffle")
                    events.append(self._reshuffle(position, replaying=True))
                self._recycled.remove(card)
                dealt.append(card)
                continue
            index = self._random_usable(position)
            if index < 0:
                events.append(self._reshuffle(position))
                index = self._random_usable(position)
            dealt.append(self._recycled.pop(index))
        return dealt, events

    def _random_usable(self, position: int) -> int:
        """Where in the reshuffled stock a random card the drawer may receive is; -1 if none."""
        recycled, origin = self._recycled, self._origin
        if not recycled:
            return -1
        draws = self._draws
        if draws is None:
            if any(origin.get(card) != position for card in recycled):
                raise StockError("the given card order ran out and there is no random source")
            return -1
        # Usually no card of the drawer's own is there: one random pick.  If it
        # hits one, pick again among the others: each card the drawer may get
        # is still chosen with the same chance.
        index = draws.below(len(recycled))
        if origin.get(recycled[index]) != position:
            return index
        return self._random_other(position)

    def _random_other(self, position: int) -> int:
        """After a pick of the drawer's own discard: a random pick among the cards they may get."""
        recycled, origin, draws = self._recycled, self._origin, self._draws
        assert draws is not None
        usable = [i for i, card in enumerate(recycled) if origin.get(card) != position]
        if not usable:
            return -1
        return usable[draws.below(len(usable))]
