"""The stock: the cards still to be dealt, a given order first, then random ones."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from mazziere.cards import Card, RandomSource
from mazziere.game.errors import DeckExhaustedError, HandSetupError

__all__ = ["RandomDraws", "Stock"]


class RandomDraws:
    """Uniform numbers below a bound from a hand's random source, through its public methods.

    A source with ``getrandbits`` (``random.Random``, ``secrets.SystemRandom``
    and their subclasses, such as a provably fair deck that overrides
    ``random()`` and ``getrandbits()``) is asked for ``bound.bit_length()``
    bits until the number is below the bound: the numbers ``randrange(bound)``
    gives for ``random.Random``, so the same seeds deal the same cards.  Any
    other source is asked ``randrange(bound)``.

    >>> import random
    >>> RandomDraws(random.Random(5)).below(52) == random.Random(5).randrange(52)
    True
    >>> RandomDraws(random.Random(5)).shuffle_steps(52, 3)  # below 52, then 51, then 50
    [39, 16, 47]
    """

    __slots__ = ("_getrandbits", "_randrange")

    def __init__(self, rng: RandomSource) -> None:
        self._getrandbits: Callable[[int], int] | None = getattr(rng, "getrandbits", None)
        self._randrange = rng.randrange

    def below(self, bound: int) -> int:
        """A number from 0 to ``bound - 1``, each as likely (``bound`` at least 1)."""
        getrandbits = self._getrandbits
        if getrandbits is None:
            return self._randrange(bound)
        bits = bound.bit_length()
        number = getrandbits(bits)
        while number >= bound:
            number = getrandbits(bits)
        return number

    def shuffle_steps(self, size: int, count: int) -> list[int]:
        """The steps of a partial Fisher-Yates over ``size`` items: a number below ``size``,
        then below ``size - 1``... ``count`` of them (what :meth:`below` gives for each)."""
        getrandbits = self._getrandbits
        if getrandbits is None:
            randrange = self._randrange
            return [randrange(bound) for bound in range(size, size - count, -1)]
        steps = []
        for bound in range(size, size - count, -1):  # below(bound) for each, in one call
            bits = bound.bit_length()
            number = getrandbits(bits)
            while number >= bound:
                number = getrandbits(bits)
            steps.append(number)
        return steps


class Stock:
    """The cards still to be dealt: a given order first, then random ones.

    With ``order`` the cards come out in that order (``None`` is an unknown
    card, for replays); after it, or without it, each card is drawn by one
    step of a Fisher-Yates shuffle with ``rng``, so only the cards dealt are
    ever shuffled.

    >>> import random
    >>> from mazziere.cards import Deck, parse_cards
    >>> stock = Stock(Deck.standard(), order=parse_cards("Ah Kd"), rng=random.Random(3))
    >>> stock.draw(), stock.draw(), stock.draw() not in parse_cards("Ah Kd"), len(stock)
    (Card('Ah'), Card('Kd'), True, 49)
    >>> Stock(Deck.standard(), order=parse_cards("Ah")).take(2)
    Traceback (most recent call last):
    ...
    mazziere.game.errors.DeckExhaustedError: the given card order ran out after 1 cards
    """

    __slots__ = ("_dealt", "_draws", "_order", "_remaining", "unknown")

    def __init__(
        self,
        cards: Iterable[Card],
        *,
        order: Sequence[Card | None] | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        remaining = list(cards)
        self._order: list[Card | None] = []
        self.unknown = False
        """Whether the given order has unknown cards (``None``): no hand is valued unseen."""
        if order is not None:
            members = set(remaining)
            seen: set[int] = set()
            for card in order:
                if card is None:
                    self._order.append(None)
                    self.unknown = True
                    continue
                if card not in members:
                    raise HandSetupError(f"card {str(card)!r} is not in this game's deck")
                if card in seen:
                    raise HandSetupError(f"card {str(card)!r} appears twice in the card order")
                seen.add(card)
                self._order.append(card)
            remaining = [c for c in remaining if c not in seen]
        self._order.reverse()  # pop() from the end is O(1)
        self._remaining = remaining
        self._dealt = 0
        self._draws = RandomDraws(rng) if rng is not None else None

    def __len__(self) -> int:
        return len(self._order) + (len(self._remaining) if self._draws is not None else 0)

    def draw(self) -> Card | None:
        """The next card (``None``: a card of the given order that is unknown)."""
        if self._order:
            self._dealt += 1
            return self._order.pop()
        if self._draws is None:
            raise DeckExhaustedError(f"the given card order ran out after {self._dealt} cards")
        if not self._remaining:
            raise DeckExhaustedError("no cards left in the stock")
        return self.take(1)[0]

    def take(self, count: int) -> tuple[Card | None, ...]:
        """The next ``count`` cards."""
        remaining = self._remaining
        if self._order or self._draws is None or len(remaining) < count:
            return tuple([self.draw() for _ in range(count)])
        cards = []
        for j in self._draws.shuffle_steps(len(remaining), count):
            cards.append(remaining[j])
            remaining[j] = remaining[-1]  # the last card fills the gap
            remaining.pop()
        self._dealt += count
        return tuple(cards)

    def add(self, cards: Iterable[Card]) -> None:
        """Put cards back among the random ones (a reshuffle of discards into the stock)."""
        self._remaining.extend(cards)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The cards not yet dealt and not promised by the given order (in no useful order)."""
        return tuple(self._remaining)
