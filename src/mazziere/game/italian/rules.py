"""The rules of Poker all'italiana that do not depend on betting: pure functions and the stock.

The hand state machine (:mod:`mazziere.game.italian.hand`) asks these what is
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
import itertools
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from mazziere.cards import Rank
from mazziere.evaluate import (
    ITALIAN_KEY,
    ITALIAN_RANK_SHIFT,
    ITALIAN_SUIT_SHIFT,
    SUIT_KEYS,
    ranking_for,
)
from mazziere.rules import Category, RuleSet, find_rules

__all__ = [
    "InvalidStakesError",
    "OpeningTest",
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

    def __init__(self, rules: RuleSet, *, players: int, minimum: Rank) -> None:
        self._ranking = ranking_for(rules, players)
        order = rules.category_order
        self._above_pair = frozenset(order[: order.index(Category.PAIR)])
        self._minimum = int(minimum) - 2  # as the rank part of a card int
        self._lowest = rules.lowest_rank(players)
        self._bilateral = rules.bilateral_draw_opens
        self._by_ranks: Mapping[int, bool] = MappingProxyType(
            self._answers_by_ranks(rules, players)
        )
        """Rank part of an Italian sum -> the answer, for every hand with at most three cards
        of a suit (no flush, no straight-flush draw: the ranks decide), worked out once."""

    def _answers_by_ranks(self, rules: RuleSet, players: int) -> dict[int, bool]:
        answers: dict[int, bool] = {}
        ranks = sorted({card >> 2 for card in rules.deck(players)})
        for hand in itertools.combinations_with_replacement(ranks, 5):
            if hand.count(hand[0]) == 5:
                continue  # (five of a rank: no such hand)
            # The suits in turn: equal ranks (side by side) differ, no suit has three cards.
            cards = tuple(rank << 2 | index % 4 for index, rank in enumerate(hand))
            total = sum(ITALIAN_KEY[card] for card in cards)
            answers[total >> ITALIAN_RANK_SHIFT] = self._test(cards)
        return answers

    @staticmethod
    @functools.cache
    def of(rules: RuleSet, *, players: int, minimum: Rank) -> OpeningTest:
        """The test for this rule set, players dealt in and minimum pair (made once)."""
        return OpeningTest(rules, players=players, minimum=minimum)

    def __call__(self, cards: Sequence[int]) -> bool:
        # Without four cards of a suit there is no flush and no straight-flush draw:
        # the answer depends on the ranks alone, worked out for each multiset of ranks.
        key = ITALIAN_KEY
        first, second, third, fourth, fifth = cards
        total = key[first] + key[second] + key[third] + key[fourth] + key[fifth]
        if (total >> ITALIAN_SUIT_SHIFT) & 4095 in _FOUR_OF_A_SUIT:
            return self._test(cards)
        return self._by_ranks[total >> ITALIAN_RANK_SHIFT]

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
