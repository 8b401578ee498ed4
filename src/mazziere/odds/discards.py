"""The draw a sensible player makes: the model of an opponent's draw in the odds and bots.

:func:`italian_discards` is the basic bot's draw, and the draw odds'
model of an opener's (``draw_odds(..., opener_drew=k)``: the openers who
change ``k`` cards are those whose cards this changes ``k`` of).

>>> from mazziere.cards import parse_cards
>>> [str(c) for c in italian_discards(parse_cards("Kh Kd 9c 8s 7s"), "italian-32")]
['7s', '8s', '9c']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mazziere.cards import Card
from mazziere.evaluate import ranking_for
from mazziere.rules import Category, RuleSet, find_rules

__all__ = ["italian_discards"]


_PAT = frozenset(
    {
        Category.STRAIGHT_FLUSH,
        Category.FOUR_OF_A_KIND,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.STRAIGHT,
    }
)


def _four_flush(cards: Sequence[int]) -> list[int] | None:
    suits = Counter(c & 3 for c in cards)
    suit, count = suits.most_common(1)[0]
    if count == 4:
        return [c for c in cards if c & 3 != suit]
    return None


def _four_straight(cards: Sequence[int], lowest: int) -> list[int] | None:
    """The card to throw to keep four cards of a straight this deck can complete."""
    by_rank: dict[int, int] = {}
    for card in cards:
        by_rank.setdefault((card >> 2) + 2, card)
    # Sequences of this deck: the ace plays below the lowest rank or above the king.
    sequence = [14, *range(lowest, 15)]
    for start in range(len(sequence) - 4):
        window = sequence[start : start + 5]
        held = [r for r in window if r in by_rank]
        if len(held) == 4:
            keep = {by_rank[r] for r in held}
            return [c for c in cards if c not in keep]
    return None


def italian_discards(
    cards: Sequence[int], rules: str | RuleSet, players: int = 4
) -> tuple[Card, ...]:
    """The cards a sensible player changes (at most the rule set's ``draw_max``).

    Stand pat on a straight or better; keep trips, two pair (change the
    kicker) and pairs (change the rest, unless a low pair sits in a
    four-card flush); otherwise draw to a four-card flush or straight, or
    keep the highest cards.

    >>> from mazziere.cards import parse_cards
    >>> italian_discards(parse_cards("Ah Kh Qh Jh 9h"), "italian-32")
    ()
    >>> [str(c) for c in italian_discards(parse_cards("Ah Kh Qh Jh 7s"), "italian-32")]
    ['7s']
    >>> [str(c) for c in italian_discards(parse_cards("Ah Ks Qd 8c 7s"), "italian-classic", 4)]
    ['7s', '8c', 'Qd', 'Ks']
    """
    rule_set = find_rules(rules)
    limit = rule_set.draw_max
    ranking = ranking_for(rule_set, players)
    category = ranking.category(ranking.strength(cards))
    lowest = rule_set.lowest_rank(players)
    ordered = sorted((Card(c) for c in cards), reverse=True)
    if category in _PAT or limit == 0:
        return ()
    counts = Counter(c >> 2 for c in ordered)
    if category in (Category.THREE_OF_A_KIND, Category.TWO_PAIR):
        return tuple(c for c in reversed(ordered) if counts[c >> 2] == 1)[:limit]
    flush_throw = _four_flush(ordered)
    if category is Category.PAIR:
        pair_rank = next(r for r, n in counts.items() if n == 2) + 2
        if flush_throw is not None and pair_rank < 11:
            return tuple(Card(c) for c in flush_throw)
        return tuple(c for c in reversed(ordered) if counts[c >> 2] == 1)[:limit]
    if flush_throw is not None:
        return tuple(Card(c) for c in flush_throw)
    straight_throw = _four_straight(ordered, lowest)
    if straight_throw is not None:
        return tuple(Card(c) for c in straight_throw)
    keep = max(1, len(ordered) - limit)
    return tuple(reversed(ordered[keep:]))
