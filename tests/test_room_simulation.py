"""Bots at work: 200 tournaments and 10,000 cash hands per rule set with players coming and
going; Hypothesis drives a cash table through random operations and checks the ledger, and
the close that gives a carried pot back."""

from __future__ import annotations

import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mazziere.room.errors import RoomError
from mazziere.room.ledger import Account, AccountKind
from mazziere.room.table import SeatStatus
from mazziere.simulation import simulate_cash, simulate_tournament
from tests.room_helpers import bot_policy, holdem_table, italian_table, play_hand

RULES = ("holdem", "italian-classic", "italian-32")


@pytest.mark.parametrize("rules", RULES)
def test_200_bot_tournaments_run_to_a_single_winner(rules: str) -> None:
    report = simulate_tournament(rules, players=6, players_max=9, count=200, seed=11)
    assert report.tournaments == 200
    assert len(report.entrants) == 200 and set(report.entrants) <= set(range(6, 10))
    assert len(set(report.entrants)) > 1
    assert report.ledger_total == 0
    assert report.hands > 200
    assert set(report.winners) <= {"basic", "random"} and sum(report.winners.values()) == 200


@pytest.mark.parametrize(
    ("rules", "players"), [("holdem", 6), ("italian-classic", 5), ("italian-32", 4)]
)
def test_10000_cash_hands_with_players_coming_and_going(rules: str, players: int) -> None:
    report = simulate_cash(rules, players=players, hands=10_000, seed=5)
    assert report.hands == 10_000
    assert report.ledger_total == 0
    assert report.joins > players and report.leaves > 0 and report.sit_outs > 0
    assert report.rebuys > 0 and report.timeouts > 0 and report.showdowns > 0
    # Chips won by the players, the house's rake and a pot still carried when the last
    # players left: nothing created, nothing lost.
    assert sum(report.won.values()) + report.rake + report.carried == 0


AMOUNTS = st.one_of(st.integers(200, 1000), st.integers(-100, 3000))
OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["sit", "leave", "sit_out", "sit_in", "top_up", "rebuy", "hand", "hand", "hand"]
        ),
        st.integers(0, 5),
        AMOUNTS,
        st.booleans(),
    ),
    min_size=4,
    max_size=40,
)


def _check_ledger(table) -> None:  # type: ignore[no-untyped-def]
    ledger = table.ledger
    assert ledger.total() == 0
    for seat in table:
        assert ledger.balance(Account.stack(seat.name)) == seat.stack >= 0
    assert ledger.balance(table.pot_account) == table.carry.pot
    stacks = sum(v for k, v in ledger.balances().items() if k.kind is AccountKind.STACK)
    assert stacks == sum(seat.stack for seat in table)
    outside = sum(v for k, v in ledger.balances().items() if k.kind is AccountKind.PLAYER)
    house = ledger.balance(Account.house("rake"))
    assert outside + stacks + ledger.balance(table.pot_account) + house == 0


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=40)
@given(operations=OPERATIONS, seed=st.integers(0, 2**16))
def test_random_table_operations_never_lose_a_chip(
    rules: str, operations: list[tuple[str, int, int, bool]], seed: int
) -> None:
    table = holdem_table(seed=seed) if rules == "holdem" else italian_table(rules, seed=seed)
    policy = bot_policy("random", seed)
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(6)]
    for name in names[:3]:
        table.sit_down(name, 500)
    for operation, who, amount, flag in operations:
        name = names[who]
        entries = len(table.ledger)
        balances = dict(table.ledger.balances())
        try:
            if operation == "sit":
                table.sit_down(name, amount, post=flag)
            elif operation == "leave":
                table.leave(name)
            elif operation == "sit_out":
                table.sit_out(name)
            elif operation == "sit_in":
                table.sit_in(name, post=flag)
            elif operation == "top_up":
                table.top_up(name, amount)
            elif operation == "rebuy":
                table.rebuy(name, amount)
            else:
                for _ in range(1 + amount % 3):
                    if not table.start_hand():
                        for offer in list(table.offers):
                            table.answer(offer, rng.randrange(2) == 0)
                        if not table.start_hand():
                            break
                    play_hand(table, policy)
        except RoomError:
            # Refused: nothing recorded, nothing moved.
            assert len(table.ledger) == entries
            assert dict(table.ledger.balances()) == balances
        _check_ledger(table)
        for seat in table:
            if seat.stack == 0:
                assert seat.status is SeatStatus.BUSTED
    event(f"hands played: {min(table.stats.hands, 5)}{'+' if table.stats.hands > 5 else ''}")
    for seat in list(table):
        table.leave(seat.name)
    assert len(table) == 0
    _check_ledger(table)
    # The table closes: a pot carried to the next hand goes back, each player their share
    # (the shares are the whole pot, whoever built it and left).
    carried = table.carry
    event(f"a pot carried at the close: {carried.pot > 0}")
    outside = {n: table.ledger.balance(Account.player(n)) for n in names}
    given = table.give_back_carried_pot()
    assert given == {name: share for name, share in carried.shares.items() if share}
    assert sum(given.values()) == carried.pot
    for name in names:
        assert table.ledger.balance(Account.player(name)) == outside[name] + given.get(name, 0)
    assert table.carry.pot == 0 and table.chips_on_table() == 0
    _check_ledger(table)


@pytest.mark.parametrize("rules", RULES)
def test_scheduled_multi_table_tournament_with_late_registrations(rules: str) -> None:
    from mazziere.bots.base import make_bot
    from mazziere.room.clock import ManualClock, TimeSettings
    from mazziere.room.registration import TournamentSettings, TournamentState
    from mazziere.room.structure import Schedule
    from mazziere.room.tournament import Tournament
    from mazziere.simulation import _run_tournament

    rng = random.Random(8)
    clock = ManualClock()
    settings = TournamentSettings(
        rules=rules,
        buy_in=1000,
        fee=100,
        starting_stack=400,
        seats={"holdem": 9, "italian-classic": 6, "italian-32": 5}[rules],
        schedule=Schedule.standard(rules, starting_stack=400, unit="minutes", length=4, depth=20),
        starts_at=600.0,
        min_players=10,
        late_registration_level=2,
        time=TimeSettings(decision_seconds=10),
    )
    event = Tournament(settings, clock=clock, rng=rng)
    bots = {}
    for number in range(1, 31):
        bots[f"p{number}"] = make_bot("basic" if number % 2 else "random", rng)
        event.register(f"p{number}")
    clock.set(600)
    assert event.start_due() and len(event.tables) == -(-30 // settings.seats)
    late = 0
    while event.state is TournamentState.RUNNING and late < 10:
        tables = event.start_hands()
        for table in tables:
            while table.in_hand:
                clock.advance(2)
                decision = table.decision
                assert decision is not None
                if decision.timer.expired(clock.now()):
                    table.advance()
                    continue
                from mazziere.bots.base import Situation

                situation = Situation(
                    table.rules,
                    decision.position,
                    table.plan.players,  # type: ignore[union-attr]
                    table.hand.view(decision.position),
                    decision.legal,
                    20,  # type: ignore[union-attr]
                )
                table.act(decision.name, bots[decision.name].act(situation))
        if event.registration.late_registration_open:
            name = f"late{late}"
            bots[name] = make_bot("basic", rng)
            event.register(name)
            late += 1
        else:
            break
    assert late >= 3
    _run_tournament(event, bots, clock, rng)
    assert event.state is TournamentState.FINISHED
    assert event.hands_dealt > 30 and len(event.every_table()) > len(event.tables)
    entrants = 30 + late
    assert sorted(f.place for f in event.standings()) == list(range(1, entrants + 1))
    prizes = [f.prize for f in event.standings()]
    assert sum(prizes) == entrants * 1000 and len([p for p in prizes if p]) <= 5
    assert event.money.balance(Account.prize_pool()) == 0
    event.money.check()
    event.chips.check()
