"""Cards, ranks, suits and decks.

A card is a small int: ``(rank - 2) * 4 + suit``, with the suits numbered in
the Italian order of strength (picche 0 < fiori 1 < quadri 2 < cuori 3).  So
comparing two cards as ints compares rank first, then suit, which is exactly
how Poker all'italiana breaks a tie between two single cards.

>>> Card("Ah") > Card("Kh") > Card("Ks")
True
>>> str(Card("10♦")), repr(Card("Td"))
('Td', "Card('Td')")
>>> [str(c) for c in parse_cards("A♥ 10♦ 9c")]
['Ah', 'Td', '9c']
>>> len(Deck.standard()), len(Deck.italian(4)), len(Deck.piquet())
(52, 32, 32)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Protocol

__all__ = [
    "Card",
    "CardError",
    "CardNotInDeckError",
    "Deck",
    "DuplicateCardError",
    "RandomSource",
    "Rank",
    "Suit",
    "UnknownCardError",
    "WrongCardCountError",
    "format_cards",
    "parse_cards",
]


class Rank(IntEnum):
    """Card ranks; the value is the rank's pip count (ace = 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One-character symbol: ``Rank.TEN.symbol == 'T'``.

        >>> Rank.TEN.symbol, Rank.ACE.symbol
        ('T', 'A')
        """
        return _RANK_SYMBOLS[self - 2]

    @property
    def name_it(self) -> str:
        """Italian name for display: ``Rank.JACK.name_it == 'J'``, ``Rank.TEN.name_it == '10'``.

        >>> Rank.TEN.name_it
        '10'
        """
        return "10" if self == Rank.TEN else self.symbol


class Suit(IntEnum):
    """Suits, numbered in the Italian order of strength ("Come Quando Fuori Piove")."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """``'s'``, ``'c'``, ``'d'`` or ``'h'``.

        >>> Suit.HEARTS.letter
        'h'
        """
        return "scdh"[self]

    @property
    def symbol(self) -> str:
        """``'♠'``, ``'♣'``, ``'♦'`` or ``'♥'``.

        >>> Suit.DIAMONDS.symbol
        '♦'
        """
        return "♠♣♦♥"[self]

    @property
    def name_it(self) -> str:
        """Italian name: picche, fiori, quadri, cuori.

        >>> Suit.HEARTS.name_it
        'cuori'
        """
        return ("picche", "fiori", "quadri", "cuori")[self]


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_BY_TEXT = {s: Rank(i + 2) for i, s in enumerate(_RANK_SYMBOLS)}
_RANK_BY_TEXT["10"] = Rank.TEN
_SUIT_BY_TEXT = {
    "s": Suit.SPADES,
    "c": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "h": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
}


class CardError(ValueError):
    """Base class of every error about cards; the message names the card."""


class UnknownCardError(CardError):
    """Text that is not a card (``'Xx'``, ``'1h'``)."""


class DuplicateCardError(CardError):
    """The same card twice in one hand or deck."""


class CardNotInDeckError(CardError):
    """A real card that this game's deck does not hold (a 2 in a 32-card deck)."""


class WrongCardCountError(CardError):
    """A hand with the wrong number of cards."""


class Card(int):
    """A playing card, an int from 0 (2♠) to 51 (A♥): ``(rank - 2) * 4 + suit``.

    ``Card('Ah')``, ``Card('10h')``, ``Card('A♥')`` and ``Card(51)`` are the
    same object; comparisons are int comparisons (rank, then suit).

    >>> c = Card("Q♣")
    >>> c.rank, c.suit, int(c)
    (<Rank.QUEEN: 12>, <Suit.CLUBS: 1>, 41)
    >>> Card("Zz")
    Traceback (most recent call last):
    ...
    mazziere.cards.UnknownCardError: unknown card 'Zz'
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return _parse_card(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
            return CARDS[value]
        raise UnknownCardError(f"unknown card {value!r}")

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        """The card of this rank and suit.

        >>> Card.from_rank_suit(Rank.TEN, Suit.HEARTS)
        Card('Th')
        """
        return CARDS[(rank - 2) * 4 + suit]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANKS[self >> 2]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self & 3]

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self >> 2] + "scdh"[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """Rank and suit symbol as a player reads them: ``'10♥'``.

        >>> Card("Th").pretty(), Card("As").pretty()
        ('10♥', 'A♠')
        """
        return self.rank.name_it + self.suit.symbol

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def _make_card(index: int) -> Card:
    return int.__new__(Card, index)


_RANKS = tuple(Rank(r) for r in range(2, 15))
_SUITS = tuple(Suit(s) for s in range(4))
CARDS: tuple[Card, ...] = tuple(_make_card(i) for i in range(52))
"""The 52 cards, indexed by their int value."""

_CARD_BY_TEXT: dict[str, Card] = {}
for _card in CARDS:
    for _rank_text, _rank in _RANK_BY_TEXT.items():
        if _rank != _card.rank:
            continue
        for _suit_text, _suit in _SUIT_BY_TEXT.items():
            if _suit == _card.suit:
                _CARD_BY_TEXT[_rank_text + _suit_text] = _card
                _CARD_BY_TEXT[_rank_text.lower() + _suit_text] = _card
                _CARD_BY_TEXT[_rank_text + _suit_text.upper()] = _card

_SEPARATORS = re.compile(r"[\s,;]+")


def _parse_card(text: str) -> Card:
    card = _CARD_BY_TEXT.get(text)
    if card is not None:
        return card
    cards = parse_cards(text)
    if len(cards) != 1:
        raise UnknownCardError(f"unknown card {text!r}")
    return cards[0]


def parse_cards(text: str | Iterable[Card | int | str]) -> list[Card]:
    """Parse cards written ``'Ah Kd Tc'``, ``'AhKdTc'``, ``'A♥ 10♦'`` or ``'A♥,10♦'``.

    A sequence of cards, ints or card strings is accepted too.  Duplicates are
    an error.

    >>> parse_cards("AhKd 10c")
    [Card('Ah'), Card('Kd'), Card('Tc')]
    >>> parse_cards("Ah Ah")
    Traceback (most recent call last):
    ...
    mazziere.cards.DuplicateCardError: duplicate card 'Ah'
    >>> parse_cards("Ah 1h")
    Traceback (most recent call last):
    ...
    mazziere.cards.UnknownCardError: unknown card '1h'
    """
    cards: list[Card] = []
    if isinstance(text, str):
        for token in _SEPARATORS.split(text.strip()):
            if token:
                card = _CARD_BY_TEXT.get(token)
                # Cards written without spaces ("AhKd", as in PHH) are one token.
                cards.extend((card,) if card is not None else _split_glued(token))
    else:
        for item in text:
            if isinstance(item, Card):
                cards.append(item)
            elif isinstance(item, str):
                cards.append(_parse_card(item))
            else:
                cards.append(Card(item))
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"duplicate card {str(card)!r}")
        seen.add(card)
    return cards


_GLUED = re.compile(r"(10|[2-9TJQKAtjqka])([scdhSCDH♠♣♦♥♤♧♢♡])")


def _split_glued(token: str) -> list[Card]:
    cards: list[Card] = []
    position = 0
    while position < len(token):
        match = _GLUED.match(token, position)
        if match is None:
            bad = token if not cards else token[position : position + 3]
            raise UnknownCardError(f"unknown card {bad!r}")
        cards.append(_CARD_BY_TEXT[match.group(0)])
        position = match.end()
    return cards


def format_cards(cards: Iterable[int], *, pretty: bool = False) -> str:
    """Cards as text, separated by spaces.

    >>> format_cards(parse_cards("Ah 10d"))
    'Ah Td'
    >>> format_cards(parse_cards("Ah 10d"), pretty=True)
    'A♥ 10♦'
    """
    if pretty:
        return " ".join(CARDS[c].pretty() for c in cards)
    return " ".join(str(CARDS[c]) for c in cards)


class RandomSource(Protocol):
    """What a shuffle needs: ``random.Random`` and ``secrets.SystemRandom`` both fit."""

    def randrange(self, start: int, stop: int | None = ..., step: int = ..., /) -> int: ...


class Deck(Sequence[Card]):
    """An ordered deck of one game: all ranks from ``lowest_rank`` up to the ace.

    >>> deck = Deck.italian(players=5)
    >>> len(deck), str(deck[0]), Card("5h") in deck
    (36, '6s', False)
    """

    __slots__ = ("_cards", "_members", "lowest_rank")

    def __init__(self, lowest_rank: int = Rank.TWO) -> None:
        if not Rank.TWO <= lowest_rank <= Rank.TEN:
            raise ValueError(f"a deck's lowest rank must be 2..10, got {lowest_rank}")
        self.lowest_rank = Rank(lowest_rank)
        self._cards = CARDS[(lowest_rank - 2) * 4 :]
        self._members = frozenset(self._cards)

    @classmethod
    def standard(cls) -> Deck:
        """The 52-card deck."""
        return cls(Rank.TWO)

    @classmethod
    def piquet(cls) -> Deck:
        """The 32-card deck, 7 to ace."""
        return cls(Rank.SEVEN)

    @classmethod
    def italian(cls, players: int) -> Deck:
        """The Italian deck for ``players`` dealt in: ranks from ``11 - players`` up.

        >>> [len(Deck.italian(n)) for n in range(2, 7)]
        [24, 28, 32, 36, 40]
        """
        if not 2 <= players <= 6:
            raise ValueError(f"Poker all'italiana deals 2 to 6 players, got {players}")
        return cls(11 - players)

    def __len__(self) -> int:
        return len(self._cards)

    def __getitem__(self, index: int) -> Card:  # type: ignore[override]
        return self._cards[index]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._members

    def __repr__(self) -> str:
        return f"Deck({self.lowest_rank.symbol}-A, {len(self)} cards)"

    def check(self, cards: Iterable[int]) -> None:
        """Raise :class:`CardNotInDeckError` for the first card this deck lacks.

        >>> Deck.piquet().check(parse_cards("Ah 6h"))
        Traceback (most recent call last):
        ...
        mazziere.cards.CardNotInDeckError: card '6h' is not in the 32-card deck (7 to A)
        """
        for card in cards:
            if card not in self._members:
                raise CardNotInDeckError(
                    f"card {str(CARDS[card])!r} is not in the {len(self)}-card deck "
                    f"({self.lowest_rank.name_it} to A)"
                )

    def shuffled(self, rng: RandomSource) -> list[Card]:
        """A new list of the cards in random order (Fisher-Yates, unbiased).

        >>> import random
        >>> cards = Deck.piquet().shuffled(random.Random(7))
        >>> len(cards), len(set(cards))
        (32, 32)
        """
        cards = list(self._cards)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.randrange(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards
