"""PHH as pokerkit writes it: random hands played and written by pokerkit replay in ours.

pokerkit 0.7.7 records a check by the only player left with chips once
everyone else is all-in and that player's bet is the largest (it changes
nothing); our replay accepts that check and only that one.
"""

from __future__ import annotations

import random

import pytest

from mazziere.history.phh import loads
from mazziere.history.replay import replay_hand
from tests.pokerkit_hands import random_pokerkit_hand, stacks_with_our_odd_chips
from tests.pokerkit_oracle import memoized_pokerkit
from tests.test_phh import nt

HANDS = 400


def test_random_hands_written_by_pokerkit_replay_to_its_finishing_stacks() -> None:
    rng = random.Random(17)
    no_op_checks = all_in_hands = 0
    with memoized_pokerkit():
        for number in range(HANDS):
            hand = random_pokerkit_hand(rng)
            text = hand.phh()
            outcome = replay_hand(loads(text))
            assert outcome.error is None, (number, outcome.error, text)
            assert [int(s) for s in outcome.finishing_stacks] == stacks_with_our_odd_chips(hand), (
                number,
                text,
            )
            no_op_checks += hand.lone_checks
            all_in_hands += 0 in hand.stacks
    # The hands do reach the case this test is about, and all-ins are common.
    assert no_op_checks >= 5, no_op_checks
    assert all_in_hands >= HANDS // 4, all_in_hands


SHORT_SMALL_BLIND = {
    "starting_stacks": [1, 81, 30],
}
CARDS = ["d dh p1 TsQd", "d dh p2 Ad9d", "d dh p3 7s6h"]
BOARD = ["d db Ks9hKc", "d db Qh", "d db Js"]


def test_the_no_op_check_of_the_lone_player_is_accepted() -> None:
    """p1's small blind is all-in; p3 folds; pokerkit still asks p2 (the big blind) to check."""
    actions = [*CARDS, "p3 f", "p2 cc", "p1 sm TsQd", "p2 sm Ad9d", *BOARD]
    outcome = replay_hand(nt(actions, **SHORT_SMALL_BLIND))
    assert outcome.error is None
    assert [str(s) for s in outcome.finishing_stacks] == ["2", "80", "30"]  # p1 makes a straight
    assert replay_hand(nt([*CARDS, "p3 f", *BOARD], **SHORT_SMALL_BLIND)) == outcome


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        # a second check after the no-op one: the hand is over
        ([*CARDS, "p3 f", "p2 cc", "p2 cc", *BOARD], "action 6 'p2 cc': the hand is over"),
        # the lone player bets: not a check, refused as before
        ([*CARDS, "p3 f", "p2 cbr 10", *BOARD], "action 5 'p2 cbr 10': the hand is over"),
        # a check by a player who folded
        ([*CARDS, "p3 f", "p3 cc", *BOARD], "action 5 'p3 cc': the hand is over"),
        # a check by the all-in player
        ([*CARDS, "p3 f", "p1 cc", *BOARD], "action 5 'p1 cc': the hand is over"),
        # the check comes late, after the showdown it belongs before
        (
            [*CARDS, "p3 f", "p1 sm TsQd", "p2 sm Ad9d", *BOARD, "p2 cc"],
            "action 10 'p2 cc': the hand is over",
        ),
    ],
)
def test_other_actions_after_the_end_are_still_refused(actions: list[str], error: str) -> None:
    assert replay_hand(nt(actions, **SHORT_SMALL_BLIND)).error == error


def test_no_check_is_accepted_where_two_players_can_still_act() -> None:
    """Two players with chips: the betting goes on, so a check out of turn is out of turn."""
    actions = [*CARDS, "p3 cc", "p1 cc", "p2 cc", BOARD[0], "p1 cc", "p1 cc"]
    error = replay_hand(nt(actions, starting_stacks=[50, 50, 50])).error
    assert error is not None and "turn" in error, error
