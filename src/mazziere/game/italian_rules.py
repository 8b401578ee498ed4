"""The rules of Poker all'italiana that do not depend on betting: pure functions and the stock.

The hand state machine (:mod:`mazziere.game.italian`) asks these what is
allowed; each reads its parameters from the :class:`~mazziere.rules.RuleSet`,
so a house variation is new data, never a new branch here.

>>> from mazziere.cards import parse_cards
>>> classic = find_rules("italian-classic")
>>> can_open(parse_cards("Jh Jd 9c 8s 7s"), classic, players=4, level=0)
True
>>> can_open(parse_cards("Jh Jd 9c 8s 7s"), classic, players=4, level=1)
False
>>> blind_opening_amounts(pot=40, raises=3, factor=classic.blind_opening_factor)
(40, 80, 160)
>>> rake(1234, find_rules("italian-32"), players=3)
60
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from mazziere.cards import CARDS, Card, RandomSource, Rank, format_cards
from mazziere.evaluate import (
    ITALIAN_KEY,
    ITALIAN_RANK_SHIFT,
    ITALIAN_SUIT_SHIFT,
    SUIT_KEYS,
    ranking_for,
)
from mazziere.game.core import _draws_by_getrandbits
from mazziere.rules import Category, RuleSet, find_rules

__all__ = [
    "DrawStock",
    "InvalidStakesError",
    "OpeningTest",
    "ReshuffleEvent",
    "StockError",
    "blind_opening_amounts",
    "can_open",
    "draw_deals",
    "forced_blinds",
    "is_bilateral_straight_flush_draw",
    "missed_blind_post",
    "new_player_post",
    "next_opening_level",
    "opening_minimum",
    "opening_reason",
    "rake",
    "rejoin_costs",
]


class InvalidStakesError(ValueError):
    """Stakes or forced bets that the rule set does not allow (an odd buio, a negative ante)."""


class StockError(ValueError):
    """A card that may not be dealt now: not in the stock, dealt already, or the drawer's own."""


# ------------------------------------------------------------------- opening


def opening_minimum(rules: str | RuleSet, level: int, *, parol_pot: bool = False) -> Rank | None:
    """The smallest pair that opens: ``level`` counts the dead hands since the pot was last won.

    ``None`` when the rule set has no opening requirement (italian-32).

    >>> classic = find_rules("italian-classic")
    >>> [opening_minimum(classic, n).name_it for n in range(5)]
    ['J', 'Q', 'K', 'K', 'K']
    >>> opening_minimum(classic, 0, parol_pot=True).name_it
    'K'
    >>> opening_minimum(find_rules("italian-32"), 0) is None
    True
    """
    rules = find_rules(rules)
    if parol_pot and rules.parol_pot_opening is not None:
        return rules.parol_pot_opening
    ladder = rules.opening_ladder
    if not ladder:
        return None
    if level < 0:
        raise ValueError(f"the opening level counts dead hands: it cannot be {level}")
    return ladder[min(level, len(ladder) - 1)]


def next_opening_level(rules: str | RuleSet, level: int, *, pot_won: bool) -> int:
    """The opening level of the next hand: back to the bottom once the pot is won, else one up.

    The top of the ladder sticks ("Kings and aces") until the pot is won.

    >>> classic = find_rules("italian-classic")
    >>> next_opening_level(classic, 0, pot_won=False), next_opening_level(classic, 2, pot_won=False)
    (1, 2)
    >>> next_opening_level(classic, 2, pot_won=True)
    0
    """
    rules = find_rules(rules)
    if pot_won or not rules.opening_ladder:
        return 0
    return min(level + 1, len(rules.opening_ladder) - 1)


def is_bilateral_straight_flush_draw(cards: Iterable[int], lowest_rank: int) -> bool:
    """Four cards of one suit in sequence that the deck completes at both ends.

    The ace completes a sequence below the deck's lowest rank (the minima) or
    above the king, so a four-card run holding the ace is one-ended.

    >>> from mazziere.cards import parse_cards
    >>> is_bilateral_straight_flush_draw(parse_cards("8h 9h Th Jh Ks"), 7)
    True
    >>> is_bilateral_straight_flush_draw(parse_cards("7h 8h 9h Th Ks"), 7)  # the ace goes below
    True
    >>> is_bilateral_straight_flush_draw(parse_cards("Jh Qh Kh Ah 8s"), 7)
    False
    >>> is_bilateral_straight_flush_draw(parse_cards("Ah 7h 8h 9h Ks"), 7)
    False
    """
    held = {((card >> 2) + 2, card & 3) for card in cards}
    for rank, suit in held:
        # A run of four from ``rank`` without the ace: the card below it is the next rank
        # down or, at the bottom of the deck, the ace (the minima); the card above is at
        # most the ace.  A run holding the ace has nothing beyond the ace.
        if (
            rank >= lowest_rank
            and rank + 3 < Rank.ACE
            and all((rank + step, suit) in held for step in (1, 2, 3))
        ):
            return True
    return False


def opening_reason(
    cards: Sequence[int], rules: str | RuleSet, *, players: int, level: int, parol_pot: bool = False
) -> str | None:
    """Why these five cards may open this hand (``None`` if they may not).

    >>> from mazziere.cards import parse_cards
    >>> classic = find_rules("italian-classic")
    >>> opening_reason(parse_cards("8h 8d 7c 7s As"), classic, players=4, level=2)
    'two pair'
    >>> opening_reason(parse_cards("Ah Ad 9c 8s 7s"), classic, players=4, level=2)
    'pair of aces'
    >>> opening_reason(parse_cards("7h 8h 9h Th Ks"), classic, players=4, level=2)
    'bilateral straight-flush draw'
    >>> opening_reason(parse_cards("Jh Qh Kh Ah 8s"), classic, players=4, level=0) is None
    True
    """
    rules = find_rules(rules)
    minimum = opening_minimum(rules, level, parol_pot=parol_pot)
    if minimum is None:
        return "no opening requirement"
    ranking = ranking_for(rules, players)
    category = ranking.category(ranking.strength(cards))
    order = rules.category_order
    if order.index(category) < order.index(Category.PAIR):
        return category.name_en
    if category == Category.PAIR:
        counts: dict[int, int] = {}
        for card in cards:
            counts[card >> 2] = counts.get(card >> 2, 0) + 1
        pair_rank = Rank(next(r for r, n in counts.items() if n == 2) + 2)
        if pair_rank >= minimum:
            return f"pair of {_PLURAL[pair_rank]}"
    if rules.bilateral_draw_opens and is_bilateral_straight_flush_draw(
        cards, rules.lowest_rank(players)
    ):
        return "bilateral straight-flush draw"
    return None


_PLURAL = {
    Rank.TWO: "twos",
    Rank.THREE: "threes",
    Rank.FOUR: "fours",
    Rank.FIVE: "fives",
    Rank.SIX: "sixes",
    Rank.SEVEN: "sevens",
    Rank.EIGHT: "eights",
    Rank.NINE: "nines",
    Rank.TEN: "tens",
    Rank.JACK: "jacks",
    Rank.QUEEN: "queens",
    Rank.KING: "kings",
    Rank.ACE: "aces",
}


def can_open(
    cards: Sequence[int], rules: str | RuleSet, *, players: int, level: int, parol_pot: bool = False
) -> bool:
    """Whether these five cards may open: a pair of at least the current minimum, any
    higher category, or a bilateral straight-flush draw.

    >>> from mazziere.cards import parse_cards
    >>> classic = find_rules("italian-classic")
    >>> can_open(parse_cards("Qh Qd 9c 8s 7s"), classic, players=4, level=0, parol_pot=True)
    False
    """
    rules = find_rules(rules)
    return (
        opening_reason(cards, rules, players=players, level=level, parol_pot=parol_pot) is not None
    )


_FOUR_OF_A_SUIT = frozenset(
    4 * SUIT_KEYS[suit] + SUIT_KEYS[other]
    for suit in range(4)
    for other in range(4)
    if other != suit
) | frozenset(5 * SUIT_KEYS[suit] for suit in range(4))
"""Suit parts of five-card Italian sums with four or five cards of one suit."""


class OpeningTest:
    """The opening test of one deck and one minimum, made once and called for every hand.

    The same answer as :func:`can_open`, without looking anything up per call.

    >>> from mazziere.cards import parse_cards
    >>> test = OpeningTest.of(find_rules("italian-classic"), players=4, minimum=Rank.QUEEN)
    >>> test(parse_cards("Qh Qd 9c 8s 7s")), test(parse_cards("Jh Jd 9c 8s 7s"))
    (True, False)
    """

    __slots__ = ("_above_pair", "_bilateral", "_by_ranks", "_lowest", "_minimum", "_ranking")

    _cache: ClassVar[dict[tuple[str, int, int], tuple[RuleSet, OpeningTest]]] = {}

    def __init__(self, rules: RuleSet, *, players: int, minimum: Rank) -> None:
        self._ranking = ranking_for(rules, players)
        order = rules.category_order
        self._above_pair = frozenset(order[: order.index(Category.PAIR)])
        self._minimum = int(minimum) - 2  # as the rank part of a card int
        self._lowest = rules.lowest_rank(players)
        self._bilateral = rules.bilateral_draw_opens
        self._by_ranks: dict[int, bool] = {}
        """Rank part of an Italian sum -> the answer (hands with at most three cards of a suit)."""

    @classmethod
    def of(cls, rules: RuleSet, *, players: int, minimum: Rank) -> OpeningTest:
        """The (cached) test for this rule set, players dealt in and minimum pair."""
        key = (rules.name, players, int(minimum))
        cached = cls._cache.get(key)
        if cached is None or cached[0] is not rules:
            cached = (rules, cls(rules, players=players, minimum=minimum))
            cls._cache[key] = cached
        return cached[1]

    def __call__(self, cards: Sequence[int]) -> bool:
        # Without four cards of a suit there is no flush and no straight-flush draw:
        # the answer depends on the ranks alone, and is worked out once for each
        # multiset of ranks.
        key = ITALIAN_KEY
        first, second, third, fourth, fifth = cards
        total = key[first] + key[second] + key[third] + key[fourth] + key[fifth]
        if (total >> ITALIAN_SUIT_SHIFT) & 4095 in _FOUR_OF_A_SUIT:
            return self._test(cards)
        ranks = total >> ITALIAN_RANK_SHIFT
        known = self._by_ranks.get(ranks)
        if known is None:
            known = self._by_ranks[ranks] = self._test(cards)
        return known

    def _test(self, cards: Sequence[int]) -> bool:
        ranking = self._ranking
        category = ranking.category(ranking.strength(cards))
        if category in self._above_pair:
            return True
        if category is Category.PAIR:
            ranks = [card >> 2 for card in cards]
            for rank in ranks:
                if ranks.count(rank) == 2:
                    if rank >= self._minimum:
                        return True
                    break
        if not self._bilateral:
            return False
        suits = [card & 3 for card in cards]
        if max(suits.count(suit) for suit in set(suits)) < 4:
            return False
        return is_bilateral_straight_flush_draw(cards, self._lowest)


# ------------------------------------------------------------- forced bets


def blind_opening_amounts(*, pot: int, raises: int, factor: int = 2) -> tuple[int, ...]:
    """What each blind raiser puts in: the buiante the pot, each next one ``factor`` times more.

    >>> blind_opening_amounts(pot=30, raises=2)
    (30, 60)
    """
    if pot <= 0:
        raise InvalidStakesError(f"a blind opening needs chips in the pot, not {pot}")
    return tuple(pot * factor**i for i in range(raises))


def forced_blinds(rules: str | RuleSet, *, buio: int, players: int) -> tuple[int, ...]:
    """The blinds posted before the deal, from the dealer's left: buio, controbuio, over.

    >>> i32 = find_rules("italian-32")
    >>> forced_blinds(i32, buio=50, players=3), forced_blinds(i32, buio=50, players=5)
    ((50, 100), (50, 100, 200))
    >>> forced_blinds(find_rules("italian-classic"), buio=50, players=4)
    ()
    """
    rules = find_rules(rules)
    rules.check_players(players)
    multiples = rules.forced_blinds.get(players, ())
    if multiples and buio <= 0:
        raise InvalidStakesError(f"{rules.name} needs a positive buio, not {buio}")
    return tuple(buio * m for m in multiples)


def missed_blind_post(
    rules: str | RuleSet, *, buio: int, players: int, missed: int
) -> tuple[int, int]:
    """``(live, dead)`` a player back at the table posts after missing the first ``missed`` blinds.

    Missed buio: the controbuio.  Missed buio and controbuio: the controbuio
    plus the buio, dead.  Missed all three: the over plus buio and
    controbuio, dead.  The live part counts as the player's bet; the dead part
    only goes to the pot.

    >>> i32 = find_rules("italian-32")
    >>> [missed_blind_post(i32, buio=50, players=5, missed=k) for k in (0, 1, 2, 3)]
    [(0, 0), (100, 0), (100, 50), (200, 150)]
    """
    rules = find_rules(rules)
    blinds = forced_blinds(rules, buio=buio, players=players)
    if not rules.missed_blind_penalties or missed == 0:
        return (0, 0)
    if not 0 < missed <= len(blinds):
        raise InvalidStakesError(
            f"with {players} players there are {len(blinds)} blinds to miss, not {missed}"
        )
    live = blinds[max(1, missed - 1)] if len(blinds) > 1 else blinds[0]
    return (live, sum(blinds[: missed - 1]))


def new_player_post(rules: str | RuleSet, *, buio: int, players: int) -> int:
    """What a new player posts (live) to be dealt in at once rather than wait for the over.

    >>> new_player_post(find_rules("italian-32"), buio=50, players=4)
    200
    """
    rules = find_rules(rules)
    blinds = forced_blinds(rules, buio=buio, players=players)
    return blinds[-1] if blinds else 0


def rake(pot: int, rules: str | RuleSet, *, players: int) -> int:
    """The house's cut of a pot: ``rake_per_unit`` per whole ``rake_unit``, capped by players.

    >>> i32 = find_rules("italian-32")
    >>> rake(99, i32, players=2), rake(100, i32, players=2), rake(5000, i32, players=3)
    (0, 5, 100)
    >>> rake(5000, i32, players=4), rake(10_000_000, i32, players=5)
    (200, 200)
    """
    rules = find_rules(rules)
    if rules.rake_per_unit <= 0 or pot <= 0:
        return 0
    taken = (pot // rules.rake_unit) * rules.rake_per_unit
    cap = rules.rake_cap.get(players)
    return taken if cap is None else min(taken, cap)


# ------------------------------------------------------------------ parol pot


def rejoin_costs(contributions: Sequence[int], parol_players: Iterable[int]) -> tuple[int, ...]:
    """What each player must add to take part in the parol pot: the difference between what
    a parol player put in and what they put in (``0`` for the parol players themselves).

    >>> rejoin_costs([40, 40, 10, 25], parol_players=[0, 1])
    (0, 0, 30, 15)
    """
    parol = set(parol_players)
    if not parol:
        return tuple(0 for _ in contributions)
    level = max(contributions[p] for p in parol)
    return tuple(0 if i in parol else max(0, level - c) for i, c in enumerate(contributions))


# ----------------------------------------------------------------------- draw


def draw_deals(discards: Sequence[tuple[int, int]], *, fourth_late: bool) -> list[tuple[int, int]]:
    """The order of the replacement deals: ``(position, cards)`` for ``(position, discarded)``
    in drawing order.  With ``fourth_late`` a player who discards four gets three at once and
    the fourth after everyone else, the late ones in drawing (clockwise) order.

    >>> draw_deals([(0, 4), (1, 2), (2, 4), (3, 0)], fourth_late=True)
    [(0, 3), (1, 2), (2, 3), (0, 1), (2, 1)]
    >>> draw_deals([(0, 4), (1, 2)], fourth_late=False)
    [(0, 4), (1, 2)]
    """
    deals: list[tuple[int, int]] = []
    late: list[tuple[int, int]] = []
    for position, count in discards:
        if fourth_late and count == 4:
            deals.append((position, 3))
            late.append((position, 1))
        elif count:
            deals.append((position, count))
    return deals + late


@functools.cache
def _permutations(size: int, count: int) -> int:
    """``math.perm(size, count)``, worked out once: the range of a deal's one random number."""
    return math.perm(size, count)


_RANDBELOW = "randbelow"
_GETRANDBITS = "getrandbits"
_RANDRANGE = "randrange"
_SOURCES: dict[type, str] = {}
"""The type of a random source -> how a stock draws a number below k with it."""


def _source_kind(rng: RandomSource) -> str:
    own = getattr(type(rng), "randrange", None)
    if getattr(own, "__module__", None) != "random":
        return _RANDRANGE
    return _GETRANDBITS if _draws_by_getrandbits(rng) else _RANDBELOW


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
    mazziere.game.italian_rules.StockError: no random source to reshuffle the discards
    >>> stock = DrawStock(cards("As Ks 2h 3h"), order=cards("2h 3h As Ks 3h"))
    >>> _ = stock.deal_fresh(2); stock.discard(0, parse_cards("2h 3h"))
    >>> cards, reshuffles = stock.deal(1, 3)
    >>> cards, [str(event) for event in reshuffles]
    ([Card('As'), Card('Ks'), Card('3h')], ['reshuffle for p2: 3h 2h'])
    >>> stock.deal(0, 1)
    Traceback (most recent call last):
    ...
    mazziere.game.italian_rules.StockError: no card left that p1 may receive
    """

    __slots__ = (
        "_below",
        "_fresh_left",
        "_getrandbits",
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
        # random.Random and SystemRandom answer randrange(k) with _randbelow(k), for
        # k >= 1, at a third of the cost (as the core's Stock does): the same numbers.
        # A source with a randrange of its own is asked through it.  random.Random's
        # _randbelow is a rejection on getrandbits, which the draws do inline (the
        # same numbers again, without a Python call per card).
        self._below: Callable[[int], int] | None = None
        self._getrandbits: Callable[[int], int] | None = None
        if rng is not None:
            source = _SOURCES.get(type(rng))
            if source is None:
                source = _SOURCES[type(rng)] = _source_kind(rng)
            if source is _RANDRANGE:
                self._below = rng.randrange
            else:
                self._below = getattr(rng, "_randbelow", None) or rng.randrange
                if source is _GETRANDBITS:
                    self._getrandbits = rng.getrandbits  # type: ignore[attr-defined]

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
        below = self._below
        if below is None:
            raise StockError("the given card order ran out and there is no random source (rng)")
        getrandbits = self._getrandbits
        unseen = self._unseen
        size = len(unseen)
        limit = size if count == 1 else _permutations(size, count)
        if getrandbits is None:
            number = below(limit)
        else:  # below(limit), inlined
            bits = limit.bit_length()
            number = getrandbits(bits)
            while number >= limit:
                number = getrandbits(bits)
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
        below = self._below
        if below is None:
            if any(origin.get(card) != position for card in recycled):
                raise StockError("the given card order ran out and there is no random source")
            return -1
        # Usually no card of the drawer's own is there: one random pick.  If it
        # hits one, pick again among the others: each card the drawer may get
        # is still chosen with the same chance.
        index = below(len(recycled))
        if origin.get(recycled[index]) != position:
            return index
        return self._random_other(position)

    def _random_other(self, position: int) -> int:
        """After a pick of the drawer's own discard: a random pick among the cards they may get."""
        recycled, origin, below = self._recycled, self._origin, self._below
        assert below is not None
        usable = [i for i, card in enumerate(recycled) if origin.get(card) != position]
        if not usable:
            return -1
        return usable[below(len(usable))]
