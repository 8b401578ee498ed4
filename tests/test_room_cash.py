"""Cash tables: buy-in limits, the first dealer, button, waiting and posting, sitting out,
missed blinds, leaving, top-up, rebuy, rake, timeouts, the ledger (with a fake clock)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mazziere.game.core import Action, ActionKind, Rake
from mazziere.room.cash import CashSettings, CashTable
from mazziere.room.clock import TimeSettings
from mazziere.room.errors import BuyInError, SeatError, SettingsError, TableStateError
from mazziere.room.ledger import Account, EntryKind
from mazziere.room.structure import Stakes
from mazziere.room.table import SeatStatus
from tests.room_helpers import folder, forced_bets, holdem_table, passive, play_hand, shove


def test_buy_in_limits_and_bad_seats() -> None:
    table = holdem_table()
    for amount, message in (
        (199, "minimum buy-in is 200"),
        (1001, "maximum is 1000"),
        (0, "positive"),
    ):
        with pytest.raises(BuyInError, match=message):
            table.sit_down("ann", amount)
    table.sit_down("ann", 500, seat=3)
    with pytest.raises(SeatError, match="already seated"):
        table.sit_down("ann", 500)
    with pytest.raises(SeatError, match="taken by ann"):
        table.sit_down("bob", 500, seat=3)
    with pytest.raises(SeatError, match="numbered 1 to 6"):
        table.sit_down("bob", 500, seat=7)
    assert len(table.ledger) == 1 and table.ledger.balance(Account.player("ann")) == -500


def test_settings_are_checked() -> None:
    with pytest.raises(SettingsError, match="0 < min <= max"):
        CashSettings(
            rules="holdem",
            seats=6,
            stakes=Stakes(small_blind=1, big_blind=2),
            min_buy_in=500,
            max_buy_in=100,
        )
    with pytest.raises(SettingsError, match="own rake"):
        CashSettings(
            rules="italian-classic",
            seats=4,
            stakes=Stakes(ante=10),
            min_buy_in=100,
            max_buy_in=500,
            rake=Rake(percent=Fraction(5, 100)),
        )
    with pytest.raises(SettingsError, match="seat 2 to 9"):
        CashSettings(
            rules="holdem",
            seats=10,
            stakes=Stakes(small_blind=1, big_blind=2),
            min_buy_in=100,
            max_buy_in=500,
        )


def test_first_dealer_by_draw_then_the_button_moves_left() -> None:
    table = holdem_table(seed=4)
    for name, seat in (("ann", 1), ("bob", 3), ("cal", 4), ("dan", 6)):
        table.sit_down(name, 500, seat=seat)
    assert not table.in_hand
    assert table.start_hand()
    draw = table.button_draw
    assert draw is not None and table.button == draw.button
    assert draw.button == max(draw.cards, key=lambda sc: sc[1])[0]
    buttons = [table.button]
    for _ in range(5):
        play_hand(table, folder)
        assert table.start_hand()
        buttons.append(table.button)
    order = [1, 3, 4, 6]
    start = order.index(buttons[0])
    assert buttons == [order[(start + i) % 4] for i in range(6)]


def test_first_hand_is_dealt_to_everyone_seated_and_blinds_follow_the_button() -> None:
    table = holdem_table()
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    assert table.start_hand()
    assert table.plan is not None and table.plan.players == 3
    posts = forced_bets(table)
    assert sorted(amount for amount, _, _ in posts.values()) == [5, 10]


def test_a_new_player_waits_for_the_big_blind() -> None:
    table = holdem_table()
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3)):
        table.sit_down(name, 500, seat=seat)
    table.start_hand()
    play_hand(table, folder)
    table.sit_down("dan", 500, seat=5)
    assert table.player("dan").status is SeatStatus.WAITING
    dealt_in_as = []
    for _ in range(4):
        table.start_hand()
        posts = forced_bets(table)
        dealt_in_as.append(
            posts.get("dan", (0, "out", True))[1] if table.dealt_in("dan") else "out"
        )
        play_hand(table, folder)
    first_hand = next(i for i, kind in enumerate(dealt_in_as) if kind != "out")
    assert dealt_in_as[first_hand] == "big_blind"
    assert all(kind == "out" for kind in dealt_in_as[:first_hand])
    assert table.player("dan").status is SeatStatus.PLAYING


@pytest.mark.parametrize("seat", [5, 6])
def test_a_new_player_may_post_to_play_at_once(seat: int) -> None:
    table = holdem_table()
    for name, number in (("ann", 1), ("bob", 2), ("cal", 3), ("dan", 4)):
        table.sit_down(name, 500, seat=number)
    table.start_hand()
    play_hand(table, folder)
    table.sit_down("eve", 500, seat=seat, post=True)
    for _ in range(5):
        table.start_hand()
        plan = table.plan
        assert plan is not None
        if table.dealt_in("eve"):
            break
        # Not dealt in: she would have been the small blind (or the button).
        assert seat in plan.skipped
        play_hand(table, folder)
    position = plan.position_of(seat)
    amount, kind, live = forced_bets(table)["eve"]
    assert position >= 1 and live and amount == 10
    assert kind == ("big_blind" if position == 1 else "post")
    play_hand(table, folder)
    assert table.player("eve").status is SeatStatus.PLAYING


def test_sitting_out_misses_blinds_then_posts_them() -> None:
    table = holdem_table(seats=6)
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3), ("dan", 4), ("eve", 5)):
        table.sit_down(name, 1000, seat=seat)
    table.start_hand()
    play_hand(table, folder)
    table.sit_out("dan")
    assert table.player("dan").status is SeatStatus.SITTING_OUT
    for _ in range(5):
        table.start_hand()
        assert not table.dealt_in("dan")
        play_hand(table, folder)
    dan = table.player("dan")
    assert dan.missed == frozenset({0, 1})  # both blinds passed his seat
    table.sit_in("dan", post=True)
    assert dan.status is SeatStatus.WAITING
    for _ in range(4):
        table.start_hand()
        if table.dealt_in("dan"):
            break
        play_hand(table, folder)
    assert table.dealt_in("dan")
    amount, kinds, _ = forced_bets(table)["dan"]
    # Either the big blind came round (nothing owed) or the big blind live plus the small dead.
    assert (amount, kinds) in ((10, "big_blind"), (15, "ante+post"))
    play_hand(table, folder)
    assert dan.missed == frozenset() and dan.status is SeatStatus.PLAYING


def test_sit_out_during_a_hand_takes_effect_at_its_end() -> None:
    table = holdem_table()
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.start_hand()
    table.sit_out("ann")
    assert table.player("ann").sit_out_next and table.dealt_in("ann")
    play_hand(table, folder)
    # Out from the hand's end, not from the next deal (which may never come).
    ann = table.player("ann")
    assert ann.status is SeatStatus.SITTING_OUT and not ann.sit_out_next
    assert table.seat_freed_at(ann) == table.clock.now() + table.settings.sit_out_seconds
    table.start_hand()
    assert not table.dealt_in("ann")
    assert table.player("ann").status is SeatStatus.SITTING_OUT


def test_too_few_players_no_hand() -> None:
    table = holdem_table()
    table.sit_down("ann", 500)
    assert not table.start_hand()
    table.sit_down("bob", 500)
    table.sit_out("bob")
    assert not table.start_hand()
    table.sit_in("bob")
    assert table.start_hand()


def test_leaving_mid_hand_folds_and_cashes_out_at_the_end() -> None:
    table = holdem_table()
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.start_hand()
    leaving = table.decision
    assert leaving is not None
    assert table.leave(leaving.name) is None or not table.is_seated(leaving.name)
    play_hand(table, passive)
    assert not table.is_seated(leaving.name)
    cashed = table.ledger.balance(Account.player(leaving.name))
    assert -500 <= cashed <= 0
    assert table.ledger.flows(EntryKind.CASH_OUT) == 500 + cashed
    assert table.ledger.total() == 0


def test_leaving_between_hands_cashes_out_at_once() -> None:
    table = holdem_table()
    table.sit_down("ann", 700)
    assert table.leave("ann") == 700
    assert not table.is_seated("ann") and table.ledger.balance(Account.player("ann")) == 0


def test_top_up_between_hands_up_to_the_maximum() -> None:
    table = holdem_table()
    for name in ("ann", "bob"):
        table.sit_down(name, 500)
    table.top_up("ann", 500)
    assert table.player("ann").stack == 1000
    with pytest.raises(BuyInError, match="maximum"):
        table.top_up("bob", 501)
    table.start_hand()
    with pytest.raises(TableStateError, match="between hands"):
        table.top_up("bob", 10)
    assert table.ledger.flows(EntryKind.TOP_UP) == 500


def _bust_someone(table) -> str:  # type: ignore[no-untyped-def]
    for _ in range(200):
        table.start_hand()
        play_hand(table, shove)
        busted = [s.name for s in table if s.status is SeatStatus.BUSTED]
        if busted:
            return busted[0]
    raise AssertionError("nobody busted")


def test_a_player_without_chips_may_rebuy() -> None:
    table = holdem_table(rebuy_seconds=30)
    for name in ("ann", "bob"):
        table.sit_down(name, 500)
    loser = _bust_someone(table)
    assert table.player(loser).stack == 0
    with pytest.raises(TableStateError, match="rebuy instead"):
        table.top_up(loser, 200)
    table.rebuy(loser, 300)
    assert table.player(loser).status is SeatStatus.PLAYING
    assert table.ledger.flows(EntryKind.REBUY) == 300
    assert table.start_hand()


def test_a_player_without_chips_who_does_not_rebuy_leaves() -> None:
    table = holdem_table(rebuy_seconds=30)
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    loser = _bust_someone(table)
    table.clock.advance(29)  # type: ignore[attr-defined]
    table.start_hand()
    assert table.is_seated(loser) and not table.dealt_in(loser)
    play_hand(table, folder)
    table.clock.advance(5)  # type: ignore[attr-defined]
    table.start_hand()
    assert not table.is_seated(loser)


def _busted_at_a_table() -> tuple[CashTable, str, float]:
    table = holdem_table(rebuy_seconds=30)
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    loser = _bust_someone(table)
    return table, loser, table.clock.now()


def test_the_rebuy_offer_lasts_until_exactly_its_time() -> None:
    table, loser, busted = _busted_at_a_table()
    table.clock.set(busted + 29.5)  # type: ignore[attr-defined]
    table.rebuy(loser, 300)  # still on offer
    assert table.player(loser).status is SeatStatus.PLAYING
    table, loser, busted = _busted_at_a_table()
    table.clock.set(busted + 30)  # type: ignore[attr-defined]
    with pytest.raises(TableStateError, match="rebuy offer ran out"):
        table.rebuy(loser, 300)
    assert table.ledger.flows(EntryKind.REBUY) == 0
    table.start_hand()
    assert not table.is_seated(loser)  # the seat is freed


def test_rake_per_table() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=15)
    table = holdem_table(rake=rake)
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 1000)
    table.start_hand()
    play_hand(table, folder)  # folds before the flop: no flop, no drop
    assert table.ledger.balance(Account.house("rake")) == 0
    table.start_hand()
    play_hand(table, shove)
    assert table.ledger.balance(Account.house("rake")) == 15  # 5% of 3000, capped
    assert table.chips_on_table() == 3000 - 15
    table.ledger.check()


def test_timeout_checks_or_folds_then_sits_out() -> None:
    time = TimeSettings(decision_seconds=10, time_bank_seconds=5, timeouts_to_sit_out=2)
    table = holdem_table(time=time)
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3)):
        table.sit_down(name, 500, seat=seat)
    table.start_hand()
    first = table.decision
    assert first is not None
    clock = table.clock
    clock.advance(14.9)  # type: ignore[attr-defined]
    assert table.advance() == []
    clock.advance(0.1)  # type: ignore[attr-defined]
    records = table.advance()
    assert records and records[0].kind is ActionKind.FOLD and records[0].timed_out  # type: ignore[attr-defined]
    assert table.player(first.name).bank.seconds == 0
    play_hand(table, folder)
    # A second timeout in a row sits the player out from the next hand.
    for _ in range(6):
        table.start_hand()
        while table.in_hand:
            decision = table.decision
            assert decision is not None
            if decision.name == first.name:
                clock.advance(decision.timer.remaining(clock.now()))  # type: ignore[attr-defined]
                table.advance()
            else:
                table.act(decision.name, folder(table, decision))
        if table.player(first.name).status is SeatStatus.SITTING_OUT:
            break  # from the end of the hand of the second timeout
    table.start_hand()
    assert table.player(first.name).status is SeatStatus.SITTING_OUT
    assert not table.dealt_in(first.name)


def test_timeout_checks_when_free() -> None:
    table = holdem_table(time=TimeSettings(decision_seconds=5, time_bank_seconds=0))
    for name in ("ann", "bob"):
        table.sit_down(name, 500)
    table.start_hand()
    play_until_check = 0
    while table.in_hand and play_until_check < 10:
        decision = table.decision
        assert decision is not None
        if ActionKind.CHECK in decision.legal.kinds:
            table.clock.advance(5)  # type: ignore[attr-defined]
            records = table.advance()
            assert records[0].kind is ActionKind.CHECK  # type: ignore[attr-defined]
            return
        table.act(decision.name, passive(table, decision))
        play_until_check += 1
    raise AssertionError("no free check came up")


def test_time_bank_is_spent_and_kept() -> None:
    time = TimeSettings(decision_seconds=10, time_bank_seconds=20)
    table = holdem_table(time=time)
    for name in ("ann", "bob"):
        table.sit_down(name, 500)
    table.start_hand()
    decision = table.decision
    assert decision is not None and decision.timer.deadline == decision.timer.started + 30
    table.clock.advance(17)  # type: ignore[attr-defined]
    table.act(decision.name, Action.fold())
    assert table.player(decision.name).bank.seconds == 13


def test_disconnected_players_are_timed_out_like_anyone() -> None:
    table = holdem_table(time=TimeSettings(decision_seconds=3, time_bank_seconds=0))
    for name in ("ann", "bob"):
        table.sit_down(name, 500)
    table.start_hand()
    decision = table.decision
    assert decision is not None
    table.disconnect(decision.name)
    assert not table.player(decision.name).connected
    table.clock.advance(3)  # type: ignore[attr-defined]
    assert table.advance()
    table.reconnect(decision.name)
    assert table.player(decision.name).connected


def test_acting_out_of_turn_or_illegally_changes_nothing() -> None:
    table = holdem_table()
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.start_hand()
    decision = table.decision
    assert decision is not None
    other = next(s.name for s in table if s.name != decision.name)
    log = list(table.hand.log)  # type: ignore[union-attr]
    with pytest.raises(TableStateError, match="turn"):
        table.act(other, Action.fold())
    with pytest.raises(ValueError, match="at least"):
        table.act(decision.name, Action.raise_to(11))
    assert table.hand.log == log  # type: ignore[union-attr]


def test_views_hide_other_players_cards() -> None:
    table = holdem_table()
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.start_hand()
    mine = table.view("ann")
    spectator = table.view(None)
    position = [table.seats[s].name for s in mine["positions"]].index("ann")
    assert "??" not in mine["game"]["hole"][position]
    assert all(card == "??" for hole in spectator["game"]["hole"] for card in hole)
    assert mine["decision"] is not None and mine["stakes"] == "blinds 5/10"


def test_a_new_player_who_sits_out_still_waits_for_the_big_blind() -> None:
    table = holdem_table()
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3)):
        table.sit_down(name, 500, seat=seat)
    table.start_hand()
    play_hand(table, folder)
    table.sit_down("dan", 500, seat=5)
    table.sit_out("dan")
    table.sit_in("dan")
    dan = table.player("dan")
    assert dan.status is SeatStatus.WAITING and dan.new


def test_the_decision_clock_starts_when_the_turn_comes() -> None:
    table = holdem_table(time=TimeSettings(decision_seconds=10, time_bank_seconds=0))
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.start_hand()
    first = table.decision
    assert first is not None and first.timer.started == 0
    table.clock.advance(4)  # type: ignore[attr-defined]
    table.act(first.name, Action.call())
    table.clock.advance(7)  # type: ignore[attr-defined]
    second = table.decision
    assert second is not None and second.timer.started == 4
    table.clock.advance(3)  # type: ignore[attr-defined]
    assert table.advance()  # 4 + 10: expired even though nobody looked at it in between
