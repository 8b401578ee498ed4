"""Tournaments: sit & go and multi-table, levels and breaks, late registration,
eliminations, places and prizes, balancing and breaking tables, the final table, deals."""

from __future__ import annotations

import itertools
import random

import pytest

from mazziere.game.core import ForcedBet
from mazziere.room.clock import ManualClock, TimeSettings
from mazziere.room.errors import RegistrationError, TournamentStateError
from mazziere.room.games import Carry
from mazziere.room.ledger import Account, EntryKind
from mazziere.room.registration import TournamentSettings, TournamentState
from mazziere.room.seating import tables_needed
from mazziere.room.structure import Break, Level, Schedule, Stakes
from mazziere.room.table import HandSummary
from mazziere.room.tournament import Tournament
from tests.room_helpers import (
    Policy,
    bot_policy,
    folder,
    italian_policy,
    passive,
    play_hand,
    shove,
)


def _event(
    players: int = 6,
    *,
    seats: int = 6,
    stack: int = 1000,
    schedule: Schedule | None = None,
    seed: int = 1,
    rules: str = "holdem",
    **overrides: object,
) -> Tournament:
    values: dict[str, object] = {
        "rules": rules,
        "buy_in": 1000,
        "fee": 100,
        "starting_stack": stack,
        "seats": seats,
        "max_players": players,
        "schedule": schedule
        or Schedule.standard(rules, starting_stack=stack, unit="hands", length=10),
        "time": TimeSettings(decision_seconds=10, time_bank_seconds=0),
    }
    values.update(overrides)
    return Tournament(
        TournamentSettings(**values),  # type: ignore[arg-type]
        clock=ManualClock(),
        rng=random.Random(seed),
    )


def _register(event: Tournament, count: int) -> list[str]:
    names = [f"p{i}" for i in range(1, count + 1)]
    for name in names:
        event.register(name)
    return names


def _run(event: Tournament, policy=shove, rounds: int = 5000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(rounds):
        if event.state is not TournamentState.RUNNING:
            return
        tables = event.start_hands()
        if not tables:
            event.clock.advance(60)  # type: ignore[attr-defined]
            continue
        for table in tables:
            play_hand(table, policy)
    raise AssertionError("the tournament did not finish")


def test_sit_and_go_seats_everyone_with_equal_stacks() -> None:
    event = _event(6)
    names = _register(event, 6)
    assert event.state is TournamentState.RUNNING and len(event.tables) == 1
    table = next(iter(event))
    assert sorted(s.name for s in table) == sorted(names)
    assert {s.stack for s in table} == {1000}
    assert event.chips.balance(Account.bank()) == -6000
    assert event.registration.prize_pool == 6000
    assert event.money.balance(Account.house("fees")) == 600
    event.start_hands()
    assert table.button_draw is not None and table.button == table.button_draw.button


def test_a_full_sit_and_go_pays_places_and_prizes() -> None:
    event = _event(6)
    names = _register(event, 6)
    _run(event, bot_policy("basic", seed=4))
    standings = event.standings()
    assert [f.place for f in standings] == [1, 2, 3, 4, 5, 6]
    assert sorted(f.name for f in standings) == sorted(names)
    prizes = [f.prize for f in standings]
    assert sum(prizes) == 6000 and prizes[0] >= 3000
    if prizes[1] != prizes[2]:  # unless 2nd and 3rd busted together with equal stacks
        assert prizes == [4200, 1800, 0, 0, 0, 0]  # 70/30 of 6000
    assert event.money.balance(Account.prize_pool()) == 0
    assert event.money.total() == 0 and event.chips.total() == 0
    winner = standings[0].name
    assert event.chips.balance(Account.stack(winner)) == 6000
    event.money.check()
    event.chips.check()
    with pytest.raises(RegistrationError):
        event.register("late")


def test_levels_by_hands() -> None:
    schedule = Schedule(
        [
            Level(Stakes(small_blind=10, big_blind=20), 2),
            Level(Stakes(small_blind=25, big_blind=50), 2),
        ],
        "hands",
    )
    event = _event(3, seats=3, schedule=schedule)
    _register(event, 3)
    table = next(iter(event))
    big_blinds = []
    told = []  # what the players are told during each hand: level, big blind, hands left
    for _ in range(4):
        event.start_hands()
        assert table.hand is not None
        big_blinds.append(max(r.amount for r in table.hand.log if isinstance(r, ForcedBet)))
        clock = event.level_clock(table, event.clock.now())
        told.append((clock.number, clock.stakes.big_blind, clock.hands_left))
        # The level played is the hand's, not the next hand's (level() after the second).
        assert event.level_played(event.clock.now()) == clock.number
        assert not clock.on_break and clock.seconds_left is None
        assert clock.next_stakes == (schedule.items[1].stakes if clock.number == 1 else None)  # type: ignore[union-attr]
        play_hand(table, folder)
    assert big_blinds == [20, 20, 50, 50]
    # The last hand of a level says so (0 left); the last level never ends (None).
    assert told == [(1, 20, 1), (1, 20, 0), (2, 50, None), (2, 50, None)]
    assert event.level() == 2


def test_levels_by_minutes_and_breaks() -> None:
    schedule = Schedule(
        [
            Level(Stakes(small_blind=10, big_blind=20), 10),
            Break(5),
            Level(Stakes(small_blind=25, big_blind=50), 10),
        ]
    )
    event = _event(3, seats=3, schedule=schedule)
    _register(event, 3)
    clock = event.clock
    table = next(iter(event))
    assert event.start_hands() == [table]
    at_start = event.level_clock(table, clock.now())
    assert (at_start.number, at_start.on_break, at_start.seconds_left) == (1, False, 600.0)
    assert at_start.next_stakes == Stakes(small_blind=25, big_blind=50)
    play_hand(table, folder)
    clock.set(11 * 60)  # type: ignore[attr-defined]
    assert event.start_hands() == []  # the break: no new hand
    on_break = event.level_clock(table, clock.now())
    assert (on_break.number, on_break.on_break, on_break.seconds_left) == (2, True, 240.0)
    assert on_break.stakes.big_blind == 50 and on_break.next_stakes is None
    clock.set(15 * 60)  # type: ignore[attr-defined]
    assert event.start_hands() == [table]
    last = event.level_clock(table, clock.now())  # the last level lasts for ever
    assert (last.number, last.seconds_left, last.next_stakes) == (2, None, None)
    assert table.hand is not None
    assert max(r.amount for r in table.hand.log if isinstance(r, ForcedBet)) == 50
    assert event.level() == 2


def test_a_break_between_levels_by_hands_pauses_the_table() -> None:
    schedule = Schedule(
        [
            Level(Stakes(small_blind=10, big_blind=20), 1),
            Break(3),
            Level(Stakes(small_blind=20, big_blind=40), 5),
        ],
        "hands",
    )
    event = _event(3, seats=3, schedule=schedule)
    _register(event, 3)
    table = next(iter(event))
    event.start_hands()
    play_hand(table, folder)
    assert event.start_hands() == []
    event.clock.advance(179)  # type: ignore[attr-defined]
    on_break = event.level_clock(table, event.clock.now())
    assert (on_break.number, on_break.on_break, on_break.seconds_left) == (2, True, 1.0)
    assert on_break.stakes.big_blind == 40 and on_break.hands_left is None
    assert event.on_break(event.clock.now()) and event.level_played(event.clock.now()) == 2
    assert event.start_hands() == []
    event.clock.advance(1)  # type: ignore[attr-defined]
    assert event.start_hands() == [table]
    assert not event.on_break(event.clock.now())


def test_scheduled_start_late_registration_and_payouts_by_entrants() -> None:
    schedule = Schedule.standard("holdem", starting_stack=1000, unit="hands", length=3)
    event = _event(
        None,  # type: ignore[arg-type]
        seats=6,
        schedule=schedule,
        starts_at=100.0,
        min_players=4,
        late_registration_level=2,
        max_players=None,
    )
    _register(event, 4)
    event.clock.set(100)  # type: ignore[attr-defined]
    assert event.start_due()
    table = next(iter(event))
    event.start_hands()
    play_hand(table, folder)
    event.register("late1")
    assert event.registration.late_registration_open and table.is_seated("late1")
    assert event.chips.balance(Account.stack("late1")) == 1000
    for _ in range(6):  # past level 2: registration closes
        event.start_hands()
        play_hand(table, folder)
    assert not event.registration.late_registration_open
    with pytest.raises(RegistrationError, match="closed"):
        event.register("late2")
    _run(event)
    standings = event.standings()
    assert [f.place for f in standings] == [1, 2, 3, 4, 5]
    assert [f.prize for f in standings[:2]] == [3500, 1500]  # 5 entrants: 70/30
    assert event.money.balance(Account.prize_pool()) == 0


def test_scheduled_tournament_cancelled_without_the_minimum() -> None:
    event = _event(None, starts_at=50.0, min_players=4, max_players=None)  # type: ignore[arg-type]
    _register(event, 3)
    event.clock.set(60)  # type: ignore[attr-defined]
    assert not event.start_due()
    assert event.state is TournamentState.CANCELLED
    assert event.money.flows(EntryKind.REFUND) == 3 * 1100
    assert all(event.money.balance(Account.player(f"p{i}")) == 0 for i in (1, 2, 3))
    assert event.tables == {}


def test_players_busted_in_one_hand_bigger_stack_places_higher_equal_stacks_share() -> None:
    event = _event(6)
    _register(event, 6)
    assert event._entrants_final
    event._eliminate(["p1", "p2", "p3"], [500, 300, 300])
    finishes = event.finishes
    assert finishes["p1"].place == 4
    assert {finishes["p2"].place, finishes["p3"].place} == {5, 6}
    event._eliminate(["p4", "p5"], [800, 800])  # places 2 and 3 shared: (1800 + 0) / 2
    assert {finishes["p4"].place, finishes["p5"].place} == {2, 3}
    assert finishes["p4"].prize == finishes["p5"].prize == 900


def test_multi_table_balancing_breaking_and_final_table() -> None:
    event = _event(20, seats=9, stack=500, seed=3)
    _register(event, 20)
    assert sorted(len(t) for t in event) == [6, 7, 7]
    seen_tables = {
        name: {t.number for t in event if t.is_seated(name)} for name in event.players_left()
    }
    final_seen = False
    for _ in range(3000):
        if event.state is not TournamentState.RUNNING:
            break
        tables = event.start_hands()
        if not tables:
            event.clock.advance(60)  # type: ignore[attr-defined]
            continue
        for table in tables:
            play_hand(table, shove)
        if not any(t.in_hand for t in event):
            left = event.players_left()
            counts = [len(t) for t in event]
            assert len(event.tables) == max(1, tables_needed(len(left), 9))
            assert max(counts) - min(counts) <= 1
            for table in event:
                for seat in table:
                    seen_tables[seat.name].add(table.number)
                    assert event.chips.balance(Account.stack(seat.name)) == seat.stack
            if len(event.tables) == 1 and event.final_table is not None:
                final_seen = True
    assert event.state is TournamentState.FINISHED
    assert final_seen
    assert any(len(numbers) > 1 for numbers in seen_tables.values())  # players were moved
    assert [f.place for f in event.standings()] == list(range(1, 21))
    assert [f.prize for f in event.standings()[:3]] == [10000, 6000, 4000]
    event.chips.check()
    event.money.check()


def test_a_player_away_posts_and_folds_at_once() -> None:
    event = _event(3, seats=3)
    _register(event, 3)
    table = next(iter(event))
    table.sit_out("p1")
    for _ in range(3):
        event.start_hands()
        while table.in_hand:
            decision = table.decision
            assert decision is not None and decision.name != "p1"
            table.act(decision.name, passive(table, decision))
    assert table.player("p1").stack < 1000


def test_classic_player_away_forfeits_the_invito() -> None:
    event = _event(4, seats=4, rules="italian-classic")
    _register(event, 4)
    table = next(iter(event))
    table.sit_out("p1")
    event.start_hands()
    assert not table.dealt_in("p1")
    forfeits = [e for e in event.chips if e.note == "invito of a player away"]
    assert len(forfeits) == 1 and forfeits[0].amount == 20
    assert table.player("p1").stack == 980
    assert table.carry.shares == {"p1": 20}
    table.sit_in("p1")


def test_classic_players_with_chips_in_a_parol_pot_stay_until_it_is_won() -> None:
    event = _event(3, seats=3, rules="italian-classic")
    _register(event, 3)
    table = next(iter(event))
    event.start_hands()
    play_hand(table, passive)
    summary = HandSummary(
        number=99,
        button=1,
        seats=(),
        names=(),
        stakes=Stakes(ante=20),
        log=(),
        payoffs=(),
        rake=0,
        showdown=False,
    )
    # A player left with no chips but a share of a parol pot is not eliminated...
    victim = next(s for s in table if s.stack > 0)
    event.chips.transfer(EntryKind.BET, Account.stack(victim.name), table.pot_account, victim.stack)
    pot = event.chips.balance(table.pot_account)
    victim.stack = 0
    table.carry = Carry(pot=pot, parol_pot=True, shares={victim.name: pot}, parol_players=())
    event.hand_finished(table, summary)
    assert table.is_seated(victim.name) and victim.name not in event.finishes
    # ...until the pot is won (by somebody else: the carry is empty again).
    table.carry = Carry()
    event.hand_finished(table, summary)
    assert victim.name in event.finishes


def test_icm_deal_ends_the_tournament() -> None:
    event = _event(4, seats=4)
    _register(event, 4)
    policy = bot_policy("basic", seed=2)
    for _ in range(500):
        tables = event.start_hands()
        for table in tables:
            play_hand(table, policy)
        if len(event.players_left()) <= 3:
            break
    assert 2 <= len(event.players_left()) <= 3
    offer = event.deal_offer()
    assert sum(offer.values()) == event.money.balance(Account.prize_pool())
    with pytest.raises(TournamentStateError, match="pay out"):
        event.accept_deal({name: 0 for name in offer})
    event.accept_deal()
    assert event.state is TournamentState.FINISHED
    assert event.money.balance(Account.prize_pool()) == 0
    assert event.chips.balance(Account.bank()) == 0
    assert sorted(f.place for f in event.standings()) == [1, 2, 3, 4]
    assert sum(f.prize for f in event.standings()) == 4000


# ---------------------------------------------------------- through real hands


def _seating(event: Tournament) -> dict[str, int]:
    return {seat.name: table.number for table in event for seat in table}


def _play_round(event: Tournament, policy: Policy) -> list[tuple[dict[str, int], set[str], bool]]:
    """Deal at every table and play each hand out; for each hand: the stacks at its start,
    the players who finished in it, and whether anybody changed tables when it ended."""
    played = []
    before = {seat.name: seat.stack for table in event for seat in table}
    tables = event.start_hands()
    if not tables:
        event.clock.advance(60)  # type: ignore[attr-defined]
    for table in tables:
        known, where = set(event.finishes), _seating(event)
        play_hand(table, policy)
        now = _seating(event)
        moved = any(name in where and where[name] != number for name, number in now.items())
        played.append((before, set(event.finishes) - known, moved))
    return played


def test_players_busted_in_one_hand_are_placed_by_their_stacks_at_its_start() -> None:
    seen_unequal = False
    for seed in (1, 2, 3):
        event = _event(6, seed=seed)
        _register(event, 6)
        bots = bot_policy("basic", seed=seed)
        for number in range(300):
            if event.state is not TournamentState.RUNNING:
                break
            policy = shove if number % 3 == 2 else bots  # mostly play; now and then shove
            for before, finished, _ in _play_round(event, policy):
                busted = sorted(
                    (name for name in finished if event.finishes[name].place != 1),
                    key=lambda name: event.finishes[name].place,
                )
                stacks = [before[name] for name in busted]
                assert stacks == sorted(stacks, reverse=True), (busted, stacks)
                for better, worse in itertools.pairwise(busted):
                    if before[better] == before[worse]:  # equal stacks share their prizes
                        gap = event.finishes[better].prize - event.finishes[worse].prize
                        assert gap in (0, 1)
                    else:
                        seen_unequal = True
        assert event.state is TournamentState.FINISHED
    assert seen_unequal


def test_a_player_away_left_without_chips_stays_while_a_parol_pot_holds_their_invito() -> None:
    """RULES.md §4.10 through real hands: p1 is away and forfeits the invito hand after hand;
    the hand that takes their last chips ends in parol, so they stay until the pot is won."""
    schedule = Schedule([Level(Stakes(ante=100), 1000)], "hands")
    for seed in range(1, 10):
        event = _event(4, seats=4, rules="italian-classic", seed=seed, schedule=schedule)
        _register(event, 4)
        table = next(iter(event))
        table.sit_out("p1")
        stayed = 0
        while "p1" not in event.finishes and event.state is TournamentState.RUNNING:
            last_invito = table.player("p1").stack <= 100
            # The others say parol in the hand that takes p1's last invito, and never after.
            policy = italian_policy(parol=last_invito and not stayed)
            if event.start_hands() != [table]:
                break
            assert not table.dealt_in("p1")
            play_hand(table, policy)
            carry = table.carry
            if "p1" in event.finishes:
                assert not (carry.parol_pot and carry.shares.get("p1", 0)), (
                    "p1 eliminated with chips in a parol pot"
                )
                continue
            if table.player("p1").stack > 0:
                continue
            assert carry.parol_pot and carry.shares.get("p1", 0) > 0, carry  # why p1 stays
            stayed += 1
        if stayed and "p1" in event.finishes:
            # Eliminated in the hand that won the pot, behind everyone still in.
            assert not table.is_seated("p1") and table.carry.pot == 0
            assert event.finishes["p1"].place > len(event.players_left())
            event.chips.check()
            return
    raise AssertionError("no seed left p1 without chips in a parol pot")


def test_no_player_moves_while_a_carried_pot_sits_on_a_table() -> None:
    held = moves = 0
    for seed in (1, 4, 5):
        event = _event(10, seats=5, stack=500, seed=seed, rules="italian-classic")
        _register(event, 10)
        for number in range(200):
            if event.state is not TournamentState.RUNNING:
                break
            policy = shove if number % 4 == 3 else italian_policy(parol=False)
            for _, _, moved in _play_round(event, policy):
                carried = any(event.chips.balance(t.pot_account) for t in event)
                counts = [len(t) for t in event]
                if carried and len(counts) > 1 and max(counts) - min(counts) > 1:
                    held += 1
                assert not (carried and moved), "a player moved while a pot is carried"
                moves += moved
        assert event.state is TournamentState.FINISHED
    assert held and moves  # moves were held back, and made once the pots were won
