"""Seating, the draw for the button, balancing and breaking tables; clocks and time banks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.cards import Deck
from mazziere.room.clock import DecisionTimer, ManualClock, TimeBank, TimeSettings
from mazziere.room.errors import SeatError, SettingsError
from mazziere.room.seating import (
    draw_for_button,
    plan_tables,
    random_seating,
    tables_needed,
)


def test_draw_for_button_highest_card_wins_and_is_repeatable() -> None:
    draw = draw_for_button([3, 1, 7], random.Random(5), Deck.standard())
    assert [seat for seat, _ in draw.cards] == [1, 3, 7]
    best_seat, _ = max(draw.cards, key=lambda sc: sc[1])
    assert draw.button == best_seat
    assert len({card for _, card in draw.cards}) == 3
    assert draw == draw_for_button([3, 1, 7], random.Random(5), Deck.standard())


def test_draw_for_button_is_fair() -> None:
    rng = random.Random(11)
    wins = dict.fromkeys(range(1, 6), 0)
    for _ in range(5000):
        wins[draw_for_button(list(range(1, 6)), rng, Deck.piquet()).button] += 1
    assert all(850 < n < 1150 for n in wins.values()), wins


def test_random_seating_even_tables_and_every_player_once() -> None:
    players = [f"p{i}" for i in range(23)]
    layout = random_seating(players, tables=3, seats=9, rng=random.Random(1))
    assert sorted(len(t) for t in layout) == [7, 8, 8]
    seated = [p for table in layout for p in table.values()]
    assert sorted(seated) == sorted(players)
    assert all(1 <= seat <= 9 for table in layout for seat in table)
    with pytest.raises(SeatError, match="do not fit"):
        random_seating(players, tables=2, seats=9, rng=random.Random(1))
    with pytest.raises(SeatError, match="two seats"):
        random_seating(["a", "a"], tables=1, seats=9, rng=random.Random(1))


def test_balancing_moves_from_the_biggest_to_the_smallest() -> None:
    plan = plan_tables({1: 9, 2: 9, 3: 5}, seats=9)
    assert plan.broken == ()
    assert [(m.source, m.destination) for m in plan.moves] == [(1, 3), (2, 3)]
    assert plan_tables({1: 8, 2: 7}, seats=9).moves == ()


def test_breaking_when_players_fit_in_one_table_fewer() -> None:
    plan = plan_tables({1: 6, 2: 6, 3: 6}, seats=9)
    assert plan.broken == (3,)
    assert sorted(m.destination for m in plan.moves) == [1, 1, 1, 2, 2, 2]
    # Down to the final table.
    final = plan_tables({1: 4, 2: 5}, seats=9)
    assert final.broken == (1,)
    assert [m.destination for m in final.moves] == [2, 2, 2, 2]


@given(
    counts=st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=12),
    slack=st.integers(min_value=1, max_value=2),
)
def test_plans_leave_the_fewest_tables_balanced(counts: list[int], slack: int) -> None:
    tables = {i + 1: n for i, n in enumerate(counts)}
    plan = plan_tables(tables, seats=9, max_difference=slack)
    after = dict(tables)
    for table in plan.broken:
        assert table in after
    for move in plan.moves:
        after[move.source] -= 1
        after[move.destination] += 1
        assert move.destination not in plan.broken
    assert all(after[t] == 0 for t in plan.broken)
    live = {t: n for t, n in after.items() if t not in plan.broken}
    total = sum(counts)
    assert sum(live.values()) == total
    assert len(live) == max(1, tables_needed(total, 9))
    assert all(0 <= n <= 9 for n in live.values())
    assert max(live.values()) - min(live.values()) <= slack
    # Never more moves than needed: each player moves at most once.
    assert len(plan.moves) <= total


# --- clocks ---


def test_decision_timer_uses_the_bank_after_the_decision_time() -> None:
    clock = ManualClock()
    settings = TimeSettings(decision_seconds=15, time_bank_seconds=30)
    bank = TimeBank(settings)
    timer = DecisionTimer.start(clock.now(), settings, bank)
    clock.advance(10)
    assert timer.bank_used(clock.now()) == 0
    clock.advance(10)
    assert timer.bank_used(clock.now()) == 5
    assert not timer.expired(clock.now())
    clock.advance(25)
    assert timer.expired(clock.now())
    assert timer.bank_used(clock.now()) == 30


def test_time_bank_refills_up_to_its_maximum_and_counts_timeouts() -> None:
    settings = TimeSettings(
        time_bank_seconds=10,
        time_bank_refill_seconds=4,
        time_bank_refill_hands=3,
        time_bank_max_seconds=15,
        timeouts_to_sit_out=2,
    )
    bank = TimeBank(settings)
    bank.spend(8)
    assert bank.seconds == 2
    for _ in range(6):
        bank.hand_dealt()
    assert bank.seconds == 10
    for _ in range(9):
        bank.hand_dealt()
    assert bank.seconds == 15
    assert not bank.timed_out()
    bank.acted()
    assert not bank.timed_out()
    assert bank.timed_out()  # two in a row


def test_raise_window() -> None:
    settings = TimeSettings(decision_seconds=20, raise_window_seconds=10)
    timer = DecisionTimer.start(100.0, settings, TimeBank(settings))
    assert timer.raise_allowed(109.0) and not timer.raise_allowed(110.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"decision_seconds": -1},
        {"time_bank_seconds": 100, "time_bank_max_seconds": 50},
        {"time_bank_refill_hands": 0},
        {"timeouts_to_sit_out": -1},
        {"raise_window_seconds": 0},
    ],
)
def test_bad_time_settings(kwargs: dict[str, float]) -> None:
    with pytest.raises(SettingsError):
        TimeSettings(**kwargs)  # type: ignore[arg-type]
