"""Random legal play of any hand, for tests that compare two ways of doing the same thing."""

from __future__ import annotations

import random
from collections.abc import Callable

from mazziere.game.core import Action, ActionKind, BettingHand, LegalActions


def play_randomly(
    hand: BettingHand,
    rng: random.Random,
    *,
    wager_odds: float = 0.2,
    fold_odds: float = 0.07,
    on_decision: Callable[[BettingHand, LegalActions], None] | None = None,
) -> None:
    """Random legal actions to the end of the hand (folds rare by default: most hands show down).

    A bet or raise (to the minimum or the maximum) ``wager_odds`` of the time,
    a fold facing a bet ``fold_odds``, parol half the time it is offered,
    otherwise a call or a check; draws of a random size; ``on_decision`` sees
    each decision's legal actions first.
    """
    while hand.actor is not None:
        legal = hand.legal_actions()
        if on_decision is not None:
            on_decision(hand, legal)
        kinds = legal.kinds
        if ActionKind.DRAW in kinds:
            held = hand.hole[hand.actor]
            count = rng.randint(legal.min_to, legal.max_to)
            hand.apply(Action(ActionKind.DRAW, cards=tuple(rng.sample(held, count))))  # type: ignore[arg-type]
            continue
        roll = rng.random()
        wager = ActionKind.RAISE if ActionKind.RAISE in kinds else ActionKind.BET
        if wager in kinds and roll < wager_odds:
            amount = legal.min_to if rng.random() < 0.6 else legal.max_to
            hand.apply(Action(wager, amount))
        elif ActionKind.FOLD in kinds and legal.to_call and roll > 1 - fold_odds:
            hand.apply(Action.fold())
        elif ActionKind.PAROL in kinds and roll < 0.5:
            hand.apply(Action(ActionKind.PAROL))
        elif ActionKind.CALL in kinds:
            hand.apply(Action.call())
        elif ActionKind.CHECK in kinds:
            hand.apply(Action.check())
        elif ActionKind.SHOW in kinds:
            hand.apply(Action(ActionKind.SHOW))
        else:
            hand.apply(Action.fold())
