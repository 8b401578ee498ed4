"""The legal actions worked out when the turn passes are the ones the general path gives.

After every action the engine works out the next player's options where the
state is at hand and keeps them until the next action; call, check, bet and
raise read them instead of checking the state again.  These tests play many
random hands of every rule set (all-ins, short stacks, blind openings, parol)
and, before each decision, compare what ``legal_actions()`` returns with what
the general path returns once the kept answer is dropped; and they check
that illegal amounts are still refused with the precise error.
"""

from __future__ import annotations

import random

import pytest

from mazziere.game.core import (
    AmountTooLargeError,
    AmountTooSmallError,
    BettingHand,
    CannotBetError,
    CannotRaiseError,
    InvalidAmountError,
    LegalActions,
    NothingToCallError,
    NotYourTurnError,
    Phase,
)
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from tests.random_play import play_randomly


def general_legal_actions(hand: BettingHand) -> LegalActions:
    """What legal_actions() says when nothing was kept (the state unchanged otherwise)."""
    kept = hand._legal
    hand._legal = None
    try:
        return hand.legal_actions()
    finally:
        hand._legal = kept


def play_and_compare(hand: BettingHand, rng: random.Random) -> int:
    """Random legal actions to the end; every decision's options checked. The decisions made."""
    decisions = 0

    def compare(hand: BettingHand, legal: LegalActions) -> None:
        nonlocal decisions
        assert legal == general_legal_actions(hand)
        decisions += hand.phase is Phase.BETTING

    play_randomly(hand, rng, wager_odds=0.3, fold_odds=0.15, on_decision=compare)
    assert hand.phase is Phase.OVER
    return decisions


def test_holdem_options_match_the_general_path() -> None:
    rng = random.Random(11)
    decisions = 0
    for _ in range(300):
        players = rng.randint(2, 9)
        stacks = [rng.choice((3, 10, 40, 200)) + rng.randint(0, 30) for _ in range(players)]
        ante = rng.choice((0, 0, 1))
        hand = HoldemHand(stacks, blinds=(1, 2), ante=ante, rng=rng, ask_show=rng.random() < 0.3)
        decisions += play_and_compare(hand, rng)
    assert decisions > 2000


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32"])
def test_italian_options_match_the_general_path(rules: str) -> None:
    rng = random.Random(12)
    stakes = {"invito": 2} if rules == "italian-classic" else {"buio": 1}
    decisions = 0
    for _ in range(300):
        players = rng.randint(2, 5)
        stacks = [rng.choice((5, 20, 60, 200)) + rng.randint(0, 20) for _ in range(players)]
        hand = ItalianHand(rules, stacks, rng=rng, **stakes)  # type: ignore[arg-type]
        decisions += play_and_compare(hand, rng)
    assert decisions > 1000


def test_wrong_wagers_are_refused_precisely_with_options_kept() -> None:
    hand = HoldemHand([100, 100, 100], blinds=(1, 2), rng=random.Random(3))
    assert hand._legal is not None  # worked out for the first player
    before = list(hand.log)
    for error, attempt in [
        (AmountTooSmallError, lambda: hand.raise_to(3)),
        (AmountTooLargeError, lambda: hand.raise_to(101)),
        (InvalidAmountError, lambda: hand.raise_to(4.0)),  # type: ignore[arg-type]
        (InvalidAmountError, lambda: hand.raise_to(True)),
        (CannotBetError, lambda: hand.bet(4)),
        (NotYourTurnError, lambda: hand.raise_to(4, position=0)),
        (NotYourTurnError, lambda: hand.call(position=1)),
    ]:
        with pytest.raises(error):
            attempt()
        assert hand.log == before
    hand.raise_to(4)
    hand.call()
    hand.call()
    with pytest.raises(NothingToCallError):
        hand.call()  # the flop: nothing to call
    with pytest.raises(CannotRaiseError):
        hand.raise_to(10)  # no bet to raise
    assert hand.bet(2).to == 2
