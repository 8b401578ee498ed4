"""Stakes, levels and breaks; payout tables; the ICM calculator."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.room.errors import ICMError, PayoutError, ScheduleError
from mazziere.room.icm import EXACT_SETS, icm_deal, icm_equities
from mazziere.room.payouts import DEFAULT_PAYOUTS, PayoutTable, split_prize_pool
from mazziere.room.structure import Break, Level, LevelUnit, Schedule, Stakes

# --- stakes and schedules ---


def test_stakes_checked_per_game() -> None:
    Stakes(small_blind=5, big_blind=10, ante=1).check_for("holdem")
    Stakes(ante=10).check_for("italian-classic")
    Stakes(small_blind=5, big_blind=10).check_for("italian-32")
    with pytest.raises(ScheduleError, match="twice the buio"):
        Stakes(small_blind=5, big_blind=15).check_for("italian-32")
    with pytest.raises(ScheduleError, match="no ante"):
        Stakes(small_blind=5, big_blind=10, ante=1).check_for("italian-32")
    with pytest.raises(ScheduleError, match="exceeds"):
        Stakes(small_blind=20, big_blind=10).check_for("holdem")
    with pytest.raises(ScheduleError, match="invito"):
        Stakes(ante=0).check_for("italian-classic")


def test_schedule_by_minutes_with_breaks() -> None:
    schedule = Schedule(
        [
            Level(Stakes(small_blind=10, big_blind=20), 10),
            Level(Stakes(small_blind=15, big_blind=30), 10),
            Break(5),
            Level(Stakes(small_blind=25, big_blind=50), 10),
        ]
    )
    assert schedule.unit is LevelUnit.MINUTES
    points = {t: schedule.at_seconds(t * 60) for t in (0, 9.99, 10, 20, 24.9, 25, 1000)}
    assert [points[t].number for t in (0, 9.99, 10, 20, 24.9, 25, 1000)] == [1, 1, 2, 3, 3, 3, 3]
    assert [points[t].on_break for t in (0, 10, 20, 24.9, 25)] == [False, False, True, True, False]
    assert points[20].stakes.big_blind == 50  # a break shows the stakes that follow it
    assert points[0].remaining == 600
    assert points[1000].remaining == float("inf")  # the last level lasts for ever
    with pytest.raises(ScheduleError, match="counts minutes"):
        schedule.at_hands(3)


def test_schedule_by_hands() -> None:
    schedule = Schedule(
        [Level(Stakes(ante=5), 3), Break(5), Level(Stakes(ante=10), 3), Level(Stakes(ante=20), 3)],
        unit="hands",
    )
    assert [schedule.at_hands(n).number for n in range(11)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3]
    assert schedule.at_hands(3).remaining == 3
    assert schedule.breaks_between(schedule.at_hands(2).index, schedule.at_hands(3).index) == 5
    assert schedule.breaks_between(schedule.at_hands(3).index, schedule.at_hands(6).index) == 0
    with pytest.raises(ScheduleError, match="counts hands"):
        schedule.at_seconds(10)


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([], "at least one level"),
        ([Break(5), Level(Stakes(ante=1), 5)], "starts with a level"),
        ([Level(Stakes(ante=1), -1)], "positive ints"),
        ([Level(Stakes(ante=1), 5), Break(0)], "break after level 1"),
    ],
)
def test_bad_schedules(items: list[Level | Break], message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        Schedule(items)


def test_bad_unit() -> None:
    with pytest.raises(ScheduleError, match="'minutes' or 'hands'"):
        Schedule([Level(Stakes(ante=1), 5)], unit="orbits")


@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_standard_schedules_rise_and_fit_the_game(rules: str) -> None:
    schedule = Schedule.standard(rules, starting_stack=1000, levels=15, break_every=4)
    levels = schedule.levels
    assert len(levels) == 15
    assert sum(isinstance(item, Break) for item in schedule.items) == 3
    sizes = [max(lv.stakes.big_blind, lv.stakes.ante) for lv in levels]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    for level in levels:
        level.stakes.check_for(rules)


def test_standard_holdem_antes_from_level() -> None:
    schedule = Schedule.standard("holdem", starting_stack=10_000, ante_from=3)
    assert [lv.stakes.ante > 0 for lv in schedule.levels[:4]] == [False, False, True, True]


# --- payouts ---


def test_default_payout_brackets() -> None:
    assert [DEFAULT_PAYOUTS.percentages(n) for n in (1, 3, 4, 9, 10, 30)] == [
        (100,),
        (100,),
        (70, 30),
        (70, 30),
        (50, 30, 20),
        (50, 30, 20),
    ]
    for bracket in DEFAULT_PAYOUTS.brackets:
        assert sum(bracket.percentages) == 100


def test_configurable_payouts() -> None:
    table = PayoutTable({(2, 5): (100,), (6, 10): (65, 35)})
    assert table.prizes(1000, 6) == [650, 350]
    with pytest.raises(PayoutError, match="no bracket for 1 entrants"):
        table.percentages(1)
    with pytest.raises(PayoutError, match="add up to 90"):
        PayoutTable({(1, 9): (60, 30)})
    with pytest.raises(PayoutError, match="lower place"):
        PayoutTable({(2, 9): (40, 60)})


@given(
    pool=st.integers(min_value=0, max_value=10**9),
    shares=st.lists(st.integers(min_value=1, max_value=100), min_size=1, max_size=20),
    unit=st.sampled_from([1, 5, 100]),
)
def test_prizes_sum_to_the_pool_and_never_increase(pool: int, shares: list[int], unit: int) -> None:
    shares.sort(reverse=True)
    prizes = split_prize_pool(pool, shares, unit=unit)
    assert sum(prizes) == pool
    assert all(type(p) is int and p >= 0 for p in prizes)
    assert prizes == sorted(prizes, reverse=True)
    assert all(p % unit == 0 for p in prizes[1:])
    total = sum(shares)
    paid_in_units = pool // unit * unit  # what is below one unit goes to the winner
    for prize, share in zip(prizes[1:], shares[1:], strict=True):
        # largest remainder: each prize is within one unit of its exact share
        assert abs(prize - paid_in_units * share / total) <= unit


# --- ICM ---


def _brute_force_icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Malmuth-Harville by enumerating every finishing order of the paid places."""
    n = len(stacks)
    equities = [Fraction(0)] * n
    for order in itertools.permutations(range(n), len(prizes)):
        chance = Fraction(1)
        left = sum(stacks)
        for i in order:
            chance *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            equities[i] += chance * prizes[place]
    return equities


@given(
    stacks=st.lists(st.integers(min_value=1, max_value=10_000), min_size=1, max_size=6),
    data=st.data(),
)
def test_icm_matches_the_definition(stacks: list[int], data: st.DataObject) -> None:
    places = data.draw(st.integers(min_value=1, max_value=len(stacks)))
    prizes = sorted(
        data.draw(st.lists(st.integers(0, 1000), min_size=places, max_size=places)), reverse=True
    )
    result = icm_equities(stacks, prizes)
    assert result.exact
    assert list(result.equities) == _brute_force_icm(stacks, prizes)
    assert sum(result.equities) == sum(prizes)
    deal = icm_deal(stacks, prizes)
    assert sum(deal) == sum(prizes)
    assert all(abs(d - e) < 1 for d, e in zip(deal, result.equities, strict=True))


def test_icm_known_values() -> None:
    # Equal stacks share equally; a huge stack approaches first prize.
    assert icm_equities([500] * 4, [60, 40]).equities == (Fraction(25),) * 4
    big = icm_equities([10**6, 1, 1], [70, 20, 10]).equities
    assert 69.99 < float(big[0]) < 70


def test_an_icm_deal_gives_the_rest_below_one_unit_to_the_biggest_stack() -> None:
    """docs/room.md (ICM): rounded to the prize unit by largest remainder, any rest to the
    biggest stack, wherever it sits."""
    for stacks in ([200, 700, 100], [100, 200, 700], [700, 100, 200]):
        deal = icm_deal(stacks, [5030, 3000, 2000], unit=100)
        biggest = stacks.index(700)
        assert sum(deal) == 10_030
        assert deal[biggest] % 100 == 30
        assert all(amount % 100 == 0 for i, amount in enumerate(deal) if i != biggest)


def test_icm_exact_up_to_ten_players_then_documented_approximation() -> None:
    ten = icm_equities(list(range(100, 1100, 100)), [50, 30, 20, 10, 5, 5, 4, 3, 2, 1])
    assert ten.exact and ten.depth == 10
    many = list(range(100, 2100, 100))  # 20 players, 9 places
    prizes = [300, 200, 150, 100, 80, 60, 50, 40, 20]
    approx = icm_equities(many, prizes)
    assert not approx.exact and approx.depth < len(prizes)
    assert sum(approx.equities) == sum(prizes)  # still pays out exactly the prizes
    assert (
        sum(1 for i in range(20) for j in range(i) if approx.equities[i] < approx.equities[j]) == 0
    )
    few_paid = icm_equities(many, [70, 30])  # 21 sets: exact
    assert few_paid.exact
    assert EXACT_SETS >= 2**10


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([], [1], "at least one player"),
        ([10, 0], [1], "positive int"),
        ([10, 20], [3, 2, 1], "3 prizes for 2 players"),
        ([10, 20], [-1], "non-negative"),
    ],
)
def test_icm_bad_input(stacks: list[int], prizes: list[int], message: str) -> None:
    with pytest.raises(ICMError, match=message):
        icm_equities(stacks, prizes)
