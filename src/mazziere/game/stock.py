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

    def deal(self, cards: list[Card], count: int) -> tuple[Card, ...]:
        """``count`` cards taken from ``cards`` (which keeps the rest) by a partial Fisher-Yates:
        each is the card at a number below how many are left (what :meth:`below` gives), and
        the last card fills its place.

        >>> import random
        >>> deck = list(range(52))
        >>> RandomDraws(random.Random(5)).deal(deck, 3), len(deck)  # below 52, then 51, then 50
        ((39, 16, 47), 49)
        """
        getrandbits = self._getrandbits
        size = len(cards)
        taken = []
        if getrandbits is None:
            randrange = self._randrange
            for _ in range(count):
                j = randrange(size)
                taken.append(cards[j])
                size -= 1
                cards[j] = cards[size]
        else:
            # below(size) for each card, in one loop: the bits needed drop as size does
            bits = size.bit_length()
            smaller = 1 << (bits - 1)  # below it, size needs one bit fewer
            for _ in range(count):
                j = getrandbits(bits)
                while j >= size:
                    j = getrandbits(bits)
                taken.append(cards[j])
                size -= 1
                cards[j] = cards[size]
                if size < smaller:
                    bits -= 1
                    smaller >>= 1
        del cards[size:]
        return tuple(taken)


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
        self._dealt += count
        return self._draws.deal(remaining, count)

    def add(self, cards: Iterable[Card]) -> None:
        """Put cards back among the random ones (a reshuffle of discards into the stock)."""
        self._remaining.extend(cards)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The cards not yet dealt and not promised by the given order (in no useful order)."""
        return tuple(self._remaining)
