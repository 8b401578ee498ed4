"""Between hands: button movement, blinds, waiting for the big blind or the over, posting,
missed blinds (RULES.md §1, §2, §5)."""

from __future__ import annotations

import pytest

from mazziere.room.errors import TableStateError
from mazziere.room.plan import Candidate, Entry, missed_blinds, missed_post, plan_hand
from mazziere.room.structure import Stakes

BLINDS = Stakes(small_blind=5, big_blind=10)
BUIO = Stakes(small_blind=50, big_blind=100)


def _regulars(*seats: int) -> dict[int, Candidate]:
    return {seat: Candidate(seat) for seat in seats}


def test_button_moves_one_player_left_skipping_empty_seats() -> None:
    people = _regulars(2, 5, 7)
    buttons = []
    button = 7
    for _ in range(4):
        plan = plan_hand("holdem", BLINDS, people, previous_button=button, table_seats=9)
        assert plan is not None
        button = plan.button
        buttons.append(button)
        assert plan.seats[-1] == button
    assert buttons == [2, 5, 7, 2]


def test_first_hand_uses_the_drawn_button() -> None:
    plan = plan_hand("holdem", BLINDS, _regulars(1, 2, 3), button=2)
    assert plan is not None and plan.button == 2 and plan.seats == (3, 1, 2)
    with pytest.raises(TableStateError, match="drawn"):
        plan_hand("holdem", BLINDS, _regulars(1, 2, 3))
    with pytest.raises(TableStateError, match="seat 4"):
        plan_hand("holdem", BLINDS, _regulars(1, 2, 3), button=4)


def test_holdem_blinds_and_heads_up() -> None:
    plan = plan_hand("holdem", BLINDS, _regulars(1, 2, 3, 4), previous_button=1)
    assert plan is not None
    assert plan.seats == (3, 4, 1, 2) and plan.blinds == (5, 10, 0, 0)
    assert plan.blind_seats == (3, 4)
    heads_up = plan_hand("holdem", BLINDS, _regulars(1, 2), previous_button=1)
    assert heads_up is not None
    # Position 0 (left of the button) is the big blind; the button posts the small blind.
    assert heads_up.seats == (1, 2) and heads_up.blinds == (10, 5)
    assert heads_up.blind_seats == (2, 1)


def test_not_enough_players() -> None:
    assert plan_hand("holdem", BLINDS, _regulars(3), previous_button=1) is None
    assert plan_hand("holdem", BLINDS, {}, previous_button=1) is None
    waiting_only = {1: Candidate(1), 2: Candidate(2, Entry.WAIT, new=True)}
    # The only other player cannot be the big blind heads-up from seat 2 with button 1...
    plan = plan_hand("holdem", BLINDS, waiting_only, previous_button=2)
    assert plan is not None and plan.seats == (2, 1)  # ...but here they are: dealt in as BB


def test_new_player_waits_for_the_big_blind() -> None:
    people = _regulars(1, 3, 5)
    people[4] = Candidate(4, Entry.WAIT, new=True)
    seen = []
    button = 3
    for _ in range(3):
        plan = plan_hand("holdem", BLINDS, people, previous_button=button, table_seats=6)
        assert plan is not None
        seen.append(4 in plan.seats)
        if 4 in plan.seats:
            assert plan.blinds[plan.position_of(4)] == 10
            assert plan.position_of(4) == 1  # the big blind
            assert plan.entered == (4,)
            break
        button = plan.button
    assert seen == [False, True]


def test_new_player_posts_the_big_blind_from_a_later_seat() -> None:
    people = _regulars(1, 2, 3)
    people[5] = Candidate(5, Entry.POST, new=True)
    plan = plan_hand("holdem", BLINDS, people, previous_button=3, table_seats=6)
    assert plan is not None
    # Button 1: SB 2, BB 3, then seat 5 posts a live big blind.
    assert plan.seats == (2, 3, 5, 1)
    assert plan.blinds == (5, 10, 10, 0) and plan.dead == (0, 0, 0, 0)
    assert plan.entered == (5,)


def test_poster_on_the_small_blind_waits_a_hand() -> None:
    people = _regulars(1, 3, 5)
    people[2] = Candidate(2, Entry.POST, new=True)
    plan = plan_hand("holdem", BLINDS, people, previous_button=5, table_seats=6)
    assert plan is not None
    assert 2 not in plan.seats and plan.skipped == (2,)
    assert plan.seats == (3, 5, 1)


def test_returning_player_posts_missed_blinds_live_and_dead() -> None:
    people = _regulars(1, 2, 3)
    people[5] = Candidate(5, Entry.POST, missed=frozenset({0, 1}))
    plan = plan_hand("holdem", BLINDS, people, previous_button=3, table_seats=6)
    assert plan is not None
    position = plan.position_of(5)
    assert (plan.blinds[position], plan.dead[position]) == (10, 5)
    assert missed_post("holdem", BLINDS, 6, frozenset({0})) == (0, 5)


def test_italian_32_over_and_entry() -> None:
    plan = plan_hand("italian-32", BUIO, _regulars(1, 2, 3, 4), previous_button=4)
    assert plan is not None
    assert plan.seats == (2, 3, 4, 1) and plan.blinds == (50, 100, 200, 0)
    three = plan_hand("italian-32", BUIO, _regulars(1, 2, 3), previous_button=3)
    assert three is not None and three.blinds == (50, 100, 0)
    # A new player posts the over to come in at once...
    people = _regulars(1, 2, 3, 4)
    people[5] = Candidate(5, Entry.POST, new=True)
    posted = plan_hand("italian-32", BUIO, people, previous_button=4)
    assert posted is not None and posted.seats == (2, 3, 4, 5, 1)
    assert posted.blinds == (50, 100, 200, 200, 0)
    # ...or waits for the over to reach the seat.
    people[5] = Candidate(5, Entry.WAIT, new=True)
    waits = plan_hand("italian-32", BUIO, people, previous_button=4)
    assert waits is not None and 5 not in waits.seats
    arrives = plan_hand("italian-32", BUIO, people, previous_button=1)
    assert arrives is not None and arrives.seats == (3, 4, 5, 1, 2)
    assert arrives.blinds[2] == 200 and arrives.entered == (5,)


@pytest.mark.parametrize(
    ("missed", "post"), [({0}, (100, 0)), ({0, 1}, (100, 50)), ({0, 1, 2}, (200, 150))]
)
def test_italian_32_missed_blinds(missed: set[int], post: tuple[int, int]) -> None:
    people = _regulars(1, 2, 3, 4)
    people[5] = Candidate(5, Entry.POST, missed=frozenset(missed))
    plan = plan_hand("italian-32", BUIO, people, previous_button=4)
    assert plan is not None
    position = plan.position_of(5)
    assert (plan.blinds[position], plan.dead[position]) == post


def test_italian_classic_has_no_blinds_and_no_waiting() -> None:
    people = _regulars(1, 2)
    people[4] = Candidate(4, Entry.WAIT, new=True)
    plan = plan_hand("italian-classic", Stakes(ante=10), people, previous_button=1)
    assert plan is not None
    assert plan.seats == (4, 1, 2) and plan.blinds == (0, 0, 0) and plan.ante == 10


def test_missed_blinds_are_the_seats_the_blinds_passed() -> None:
    assert missed_blinds((1, 2), (4, 5), away=[3], table_seats=6) == {3: frozenset({0, 1})}
    assert missed_blinds((1, 2), (2, 4), away=[3], table_seats=6) == {3: frozenset({1})}
    # The last big blind (seat 6) is away when the small blind should reach it.
    assert missed_blinds((5, 6), (1, 2), away=[6, 3], table_seats=6) == {6: frozenset({0})}
    assert missed_blinds((5, 1), (2, 4), away=[6, 3], table_seats=6) == {
        3: frozenset({1}),
        6: frozenset({0}),
    }
