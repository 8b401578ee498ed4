"""10,000 random hands played in our engine and in pokerkit 0.7.7: identical finishing stacks.

2 to 9 players, random stacks (many short: all-ins and side pots), blinds,
straddles, equal or unequal antes (live or dead), random legal actions drawn
from our legal actions.  At every decision the call amount agrees, and where
we allow a raise pokerkit allows it with the same minimum and maximum, and
where pokerkit allows a raise we refuse it is the one known rule difference
(a short all-in that does not reopen the betting, RULES.md §2.6).  The
differences kept on purpose (odd chips, short all-ins) are explained in
``tests/pokerkit_oracle.py``.
"""

from __future__ import annotations

import random

from tests.pokerkit_oracle import Stats, memoized_pokerkit, play_both

HANDS = 10_000


def test_ten_thousand_random_hands_match_pokerkit() -> None:
    rng = random.Random(20240611)
    stats = Stats()
    mismatches = []
    with memoized_pokerkit():
        for number in range(HANDS):
            ours, theirs = play_both(rng, stats)
            if ours != theirs:
                mismatches.append((number, ours, theirs))
    assert not mismatches, mismatches[:5]
    assert stats.hands == HANDS
    # The random hands really exercise the rules.
    assert stats.showdowns > HANDS // 2
    assert stats.side_pots > HANDS // 5
    assert stats.split_pots > HANDS // 50
    assert stats.all_in_runouts > HANDS // 5
    assert stats.straddles > HANDS // 20
    assert stats.odd_chip_corrections > 0
    assert stats.decisions_compared > 10 * HANDS
    # Refusals that pokerkit would allow were met (and checked to be the known one).
    assert stats.raises_only_pokerkit_allows > HANDS // 100
