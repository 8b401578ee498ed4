"""The short ways through a one-pot showdown give exactly what the general showdown gives.

Each hand is played twice from the same seed, once with the shortcuts and
once without (``_one_pot_shortcuts = False``): the logs and the results must
be equal, records and pots included.
"""

from __future__ import annotations

import random

import pytest

from mazziere.game.core import Action, ActionKind, BettingHand, Phase
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand


class GeneralHoldem(HoldemHand):
    _one_pot_shortcuts = False


class GeneralItalian(ItalianHand):
    _one_pot_shortcuts = False


def play_randomly(hand: BettingHand, rng: random.Random) -> None:
    """Random legal actions (folds rare, so that most hands reach a showdown)."""
    while hand.actor is not None:
        legal = hand.legal_actions()
        kinds = legal.kinds
        if ActionKind.DRAW in kinds:
            held = hand.hole[hand.actor]
            count = rng.randint(legal.min_to, legal.max_to)
            hand.apply(Action(ActionKind.DRAW, cards=tuple(rng.sample(held, count))))  # type: ignore[arg-type]
            continue
        roll = rng.random()
        wager = ActionKind.RAISE if ActionKind.RAISE in kinds else ActionKind.BET
        if wager in kinds and roll < 0.2:
            amount = legal.min_to if rng.random() < 0.6 else legal.max_to
            hand.apply(Action(wager, amount))
        elif ActionKind.FOLD in kinds and legal.to_call and roll > 0.93:
            hand.apply(Action.fold())
        elif ActionKind.PAROL in kinds and roll < 0.5:
            hand.apply(Action(ActionKind.PAROL))
        elif ActionKind.CALL in kinds:
            hand.apply(Action.call())
        elif ActionKind.CHECK in kinds:
            hand.apply(Action.check())
        else:
            hand.apply(Action.fold())


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
