"""The short ways through a one-pot showdown give exactly what the general showdown gives.

Each hand is played twice from the same seed, once with the shortcuts and
once without (``_one_pot_shortcuts = False``): the logs and the results must
be equal, records and pots included.
"""

from __future__ import annotations

import random

import pytest

from mazziere.game.core import BettingHand, Phase
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from tests.random_play import play_randomly


class GeneralHoldem(HoldemHand):
    _one_pot_shortcuts = False


class GeneralItalian(ItalianHand):
    _one_pot_shortcuts = False


def _same_hand(fast: BettingHand, general: BettingHand, seed: int) -> None:
    play_randomly(fast, random.Random(seed))
    play_randomly(general, random.Random(seed))
    assert fast.phase is Phase.OVER and general.phase is Phase.OVER
    assert fast.log == general.log
    assert fast.result == general.result


def test_holdem_showdowns_are_the_same_either_way() -> None:
    showdowns = 0
    for seed in range(400):
        players = 2 + seed % 8
        stacks = [random.Random(seed).choice([40, 200, 1000]) for _ in range(players)]
        fast = HoldemHand(stacks, blinds=(1, 2), rng=random.Random(seed))
        general = GeneralHoldem(stacks, blinds=(1, 2), rng=random.Random(seed))
        _same_hand(fast, general, seed)
        showdowns += any(type(r).__name__ == "CardsShown" for r in fast.log)
    assert showdowns > 200


@pytest.mark.parametrize(
    ("rules", "stakes", "most"),
    [("italian-32", {"buio": 1}, 5), ("italian-classic", {"invito": 2}, 6)],
)
def test_italian_showdowns_are_the_same_either_way(
    rules: str, stakes: dict[str, int], most: int
) -> None:
    showdowns = 0
    for seed in range(300):
        players = 2 + seed % (most - 1)
        stacks = [random.Random(seed).choice([30, 200, 1000]) for _ in range(players)]
        fast = ItalianHand(rules, stacks, rng=random.Random(seed), **stakes)  # type: ignore[arg-type]
        general = GeneralItalian(rules, stacks, rng=random.Random(seed), **stakes)  # type: ignore[arg-type]
        _same_hand(fast, general, seed)
        showdowns += any(type(r).__name__ == "CardsShown" for r in fast.log)
    assert showdowns > 100
