"""What a rule-based bot knows about cards: pure functions, fast enough for simulations.

* Hold'em: :func:`chen_score` rates two hole cards; :func:`holdem_hand_strength`
  estimates the chance that the hand beats one random holding now, by
  sampling; :func:`holdem_draws` finds flush and straight draws.
* Italian poker: :func:`italian_discards` picks the cards to change (keep
  pairs and trips, draw to a four-card flush or straight, stand pat on a
  straight or better; it lives in :mod:`mazziere.odds.discards`, where the
  draw odds model an opener's draw by it); :func:`italian_percentile` places
  five cards among random hands of the same deck.

>>> from mazziere.cards import parse_cards
>>> chen_score(parse_cards("As Ah")), chen_score(parse_cards("7s 2d"))
(20, -1)
>>> [str(c) for c in italian_discards(parse_cards("Kh Kd 9c 8s 7s"), "italian-32")]
['7s', '8s', '9c']
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections import Counter
from collections.abc import Sequence

from mazziere.cards import Deck, RandomSource
from mazziere.evaluate import ranking_for
from mazziere.odds.discards import italian_discards
from mazziere.rules import Category, RuleSet, find_rules

__all__ = [
    "chen_score",
    "holdem_draws",
    "holdem_hand_strength",
    "italian_category",
    "italian_discards",
    "italian_percentile",
]

_CHEN_HIGH = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}


def chen_score(hole: Sequence[int]) -> int:
    """Bill Chen's score of two hole cards (-1 for 7-2 offsuit to 20 for aces).

    >>> from mazziere.cards import parse_cards
    >>> [chen_score(parse_cards(h)) for h in ("Ks Qs", "Jh Td", "5c 5d", "Ah 5h")]
    [10, 7, 5, 7]
    """
    first, second = hole
    high, low = max(first >> 2, second >> 2) + 2, min(first >> 2, second >> 2) + 2
    score = _CHEN_HIGH.get(high, high / 2)
    if high == low:
        return math.ceil(max(5.0, score * 2))
    if first & 3 == second & 3:
        score += 2
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 12:
        score += 1
    return math.ceil(score)  # Chen rounds half points up


def holdem_draws(hole: Sequence[int], board: Sequence[int]) -> tuple[bool, bool]:
    """``(flush_draw, straight_draw)``: four to a flush / four in a row, using a hole card.

    >>> from mazziere.cards import parse_cards
    >>> holdem_draws(parse_cards("Ah 2h"), parse_cards("Kh 9h 4c"))
    (True, False)
    >>> holdem_draws(parse_cards("9c Tc"), parse_cards("Jd Qs 2h"))
    (False, True)
    """
    cards = list(hole) + list(board)
    suits = Counter(c & 3 for c in cards)
    flush = any(n == 4 and any(h & 3 == s for h in hole) for s, n in suits.items())
    ranks = {(c >> 2) + 2 for c in cards}
    if 14 in ranks:
        ranks.add(1)
    hole_ranks = {(c >> 2) + 2 for c in hole} | ({1} if any(c >> 2 == 12 for c in hole) else set())
    straight = False
    for low in range(1, 11):
        window = set(range(low, low + 5))
        held = window & ranks
        if len(held) == 4 and held & hole_ranks:
            straight = True
            break
    return flush, straight


def holdem_hand_strength(
    hole: Sequence[int], board: Sequence[int], rng: RandomSource, *, samples: int = 64
) -> float:
    """The chance (0 to 1) that ``hole`` beats one random holding on ``board`` as it is now.

    Ties count half.  Sampled: ``samples`` random opponent holdings.

    >>> import random
    >>> from mazziere.cards import parse_cards
    >>> holdem_hand_strength(parse_cards("Ah As"), parse_cards("Ad Ac Kh"), random.Random(1))
    1.0
    """
    ranking = ranking_for("holdem")
    strength = ranking.strength
    used = set(hole) | set(board)
    rest = [c for c in range(52) if c not in used]
    ours = strength([*hole, *board])
    score = 0.0
    size = len(rest)
    for _ in range(samples):
        i = rng.randrange(size)
        j = rng.randrange(size - 1)
        if j >= i:
            j += 1
        theirs = strength([rest[i], rest[j], *board])
        if ours > theirs:
            score += 1.0
        elif ours == theirs:
            score += 0.5
    return score / samples


# ---------------------------------------------------------------- Italian poker


def italian_category(cards: Sequence[int], rules: str | RuleSet, players: int) -> Category:
    """The category of five cards under ``rules`` with ``players`` dealt in.

    >>> from mazziere.cards import parse_cards
    >>> italian_category(parse_cards("Kh Qh Jh 9h 7h"), "italian-32", 4).value
    'flush'
    """
    ranking = ranking_for(rules, players)
    return ranking.category(ranking.strength(cards))


@functools.cache
def _italian_distribution(name: str, players: int) -> list[int]:
    rules = find_rules(name)
    ranking = ranking_for(rules, players)
    deck = list(Deck(rules.lowest_rank(players)))
    rng = random.Random(20_260_101)  # a fixed sample: the same table of percentiles every run
    strengths = []
    for _ in range(4000):
        strengths.append(ranking.strength(rng.sample(deck, 5)))
    strengths.sort()
    return strengths


def italian_percentile(cards: Sequence[int], rules: str | RuleSet, players: int) -> float:
    """The share (0 to 1) of random five-card hands of this deck that these cards beat.

    >>> from mazziere.cards import parse_cards
    >>> italian_percentile(parse_cards("Ah Ad As Kc Kd"), "italian-32", 4) > 0.99
    True
    """
    rule_set = find_rules(rules)
    strengths = _italian_distribution(rule_set.name, players)
    ours = ranking_for(rule_set, players).strength(cards)
    return bisect.bisect_left(strengths, ours) / len(strengths)
