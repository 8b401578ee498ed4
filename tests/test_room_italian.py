"""Italian cash tables: the invito (posted or sit out, auto-post), the carried pot of a dead
hand, the parol pot and who plays it, italian-32's over for new players, missed blinds and
the 10-second raise window (RULES.md §4, §5)."""

from __future__ import annotations

import pytest

from mazziere.game.core import Action, ActionKind, ForcedBet
from mazziere.room.cash import CashTable
from mazziere.room.clock import TimeSettings
from mazziere.room.errors import TableStateError
from mazziere.room.ledger import Account
from mazziere.room.structure import Stakes
from mazziere.room.table import OfferKind, SeatStatus
from tests.room_helpers import forced_bets, italian_policy, italian_table, passive, play_hand


def _classic(*names: str, seed: int = 1):  # type: ignore[no-untyped-def]
    table = italian_table(seed=seed)
    for name in names:
        table.sit_down(name, 500)
    return table


def test_classic_players_are_dealt_in_at_once_and_post_the_invito() -> None:
    table = _classic("ann", "bob", "cal")
    assert all(s.status is SeatStatus.PLAYING for s in table)
    assert table.start_hand()
    assert {name: post[:2] for name, post in forced_bets(table).items()} == {
        "ann": (10, "invito"),
        "bob": (10, "invito"),
        "cal": (10, "invito"),
    }


def test_dead_hand_carries_the_pot_and_raises_the_opening() -> None:
    table = _classic("ann", "bob", "cal", "dan")
    table.start_hand()
    play_hand(table, italian_policy(opens=False))  # nobody opens: a dead hand
    assert table.carry.pot == 40 and table.carry.opening == 1
    assert table.ledger.balance(table.pot_account) == 40
    assert table.chips_on_table() == 2000
    table.start_hand()
    view = table.view(None)
    assert view["game"]["carried_pot"] == 40 and view["game"]["opening"] == "Q"
    assert table.hand is not None and table.hand.total_pot == 80
    play_hand(table, italian_policy(opens=False))
    table.start_hand()
    assert table.view(None)["game"]["opening"] == "K"
    table.ledger.check()


def test_a_player_without_auto_post_is_asked_for_the_invito() -> None:
    table = _classic("ann", "bob", "cal")
    table.set_auto_post("cal", False)
    assert not table.start_hand()
    assert list(table.offers) == ["cal"] and table.offers["cal"].kind is OfferKind.INVITO
    table.answer("cal", True)
    assert table.start_hand() and table.dealt_in("cal")
    play_hand(table, italian_policy(parol=False))
    assert not table.start_hand()
    table.answer("cal", False)  # declines: sits out
    assert table.start_hand() and not table.dealt_in("cal")
    assert table.player("cal").status is SeatStatus.SITTING_OUT
    with pytest.raises(TableStateError, match="nothing to answer"):
        table.answer("bob", True)


def test_an_unanswered_invito_sits_the_player_out_when_time_runs_out() -> None:
    table = italian_table(time=TimeSettings(decision_seconds=8))
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 500)
    table.set_auto_post("ann", False)
    assert not table.start_hand()
    table.clock.advance(8)  # type: ignore[attr-defined]
    assert table.start_hand()
    assert not table.dealt_in("ann") and table.player("ann").status is SeatStatus.SITTING_OUT


def _make_parol_pot(table, folders=("cal",)):  # type: ignore[no-untyped-def]
    policy = italian_policy(folders=folders)
    for _ in range(200):
        if not table.start_hand():
            for name in list(table.offers):
                table.answer(name, False)
            assert table.start_hand()
        play_hand(table, policy)
        if table.carry.parol_pot and set(table.carry.rejoin) == set(folders):
            return
    raise AssertionError("no parol pot")


def test_parol_pot_is_played_by_the_parol_players_and_those_who_pay_to_rejoin() -> None:
    table = _classic("ann", "bob", "cal", "dan")
    _make_parol_pot(table)
    carry = table.carry
    assert set(carry.parol_players) == {"ann", "bob", "dan"}
    cost = carry.rejoin["cal"]
    assert cost == carry.shares["ann"] - carry.shares["cal"] > 0
    table.sit_down("eve", 500)  # was not there: no part in the parol pot
    assert not table.start_hand()
    assert list(table.offers) == ["cal"] and table.offers["cal"].amount == cost
    table.answer("cal", True)
    cal_before = table.player("cal").stack
    assert table.start_hand()
    assert table.dealt_in("cal") and not table.dealt_in("eve")
    posts = forced_bets(table)
    # Cash games: no invito in a parol-pot hand; the adeguamento is dead money.
    assert posts["cal"] == (cost, "dead", False)
    assert "ann" not in posts
    view = table.view(None)["game"]
    assert view["parol_pot"] and view["opening"] == "K"
    assert (
        table.hand is not None
        and table.hand.stacks[table.plan.position_of(table.player("cal").seat)] == cal_before - cost
    )  # type: ignore[union-attr]
    play_hand(table, italian_policy(parol=False))
    table.ledger.check()


def test_a_parol_player_sitting_out_keeps_the_seat_while_the_parol_pot_waits() -> None:
    table = _classic("ann", "bob", "cal", "dan")
    _make_parol_pot(table)
    table.sit_down("eve", 500)
    for name in ("ann", "eve"):
        table.sit_out(name)
    table.clock.advance(table.settings.sit_out_seconds)  # type: ignore[attr-defined]
    # Eve's seat is due; ann's is not: she is dealt into the parol pot's hand anyway.
    assert table.seat_freed_at(table.player("eve")) == table.clock.now()
    assert table.seat_freed_at(table.player("ann")) is None
    assert not table.start_hand()
    table.answer("cal", True)
    assert table.start_hand() and table.dealt_in("ann")
    play_hand(table, italian_policy(parol=False))
    if not table.carry.parol_pot:  # the pot was won: she is a player sitting out like any
        assert table.seat_freed_at(table.player("ann")) is not None


def test_parol_pot_without_the_one_who_declines() -> None:
    table = _classic("ann", "bob", "cal", "dan", seed=3)
    _make_parol_pot(table)
    assert not table.start_hand()
    table.answer("cal", False)
    assert table.start_hand()
    assert not table.dealt_in("cal") and table.plan is not None and table.plan.players == 3


def test_the_adeguamento_matches_the_largest_parol_share() -> None:
    """Decision 19: a newcomer after a dead hand has no share of the carried pot; when the
    parol players' shares differ, the others pay up to the largest of them."""
    for seed in range(1, 20):
        table = _classic("ann", "bob", "cal", "dan", seed=seed)
        table.start_hand()
        play_hand(table, italian_policy(opens=False))  # a dead hand: 10 each carried
        table.sit_down("eve", 500)  # dealt in next, with no share of those 40
        assert table.start_hand()
        play_hand(table, italian_policy(folders=("cal",)))
        carry = table.carry
        if carry.parol_pot and "eve" in carry.parol_players and "cal" in carry.rejoin:
            break
    else:
        raise AssertionError("no parol pot with the newcomer among the parol players")
    largest = max(carry.shares[name] for name in carry.parol_players)
    assert carry.shares["eve"] < largest
    assert dict(carry.rejoin) == {"cal": largest - carry.shares["cal"]}
    assert not table.start_hand()
    assert table.offers["cal"].kind is OfferKind.REJOIN
    assert table.offers["cal"].amount == largest - carry.shares["cal"]
    table.answer("cal", True)
    assert table.start_hand() and table.dealt_in("cal") and table.dealt_in("eve")
    assert forced_bets(table)["cal"] == (largest - carry.shares["cal"], "dead", False)
    play_hand(table, italian_policy(parol=False))
    table.ledger.check()


def test_italian_32_new_player_posts_the_over_or_waits_for_it() -> None:
    table = italian_table("italian-32", seats=5)
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3)):
        table.sit_down(name, 500, seat=seat)
    table.start_hand()
    assert sorted(a for a, _, _ in forced_bets(table).values()) == [5, 10]  # 3 players: no over
    play_hand(table, passive)
    table.sit_down("dan", 500, seat=4, post=True)
    table.sit_down("eve", 500, seat=5)  # waits for the over
    first: dict[str, tuple[int, str, bool]] = {}
    for _ in range(8):
        table.start_hand()
        posts = forced_bets(table)
        for name in ("dan", "eve"):
            if table.dealt_in(name) and name not in first:
                first[name] = posts.get(name, (0, "", True))
        play_hand(table, passive)
    # Dan posted the over (20) at once, or was dealt the over itself.
    assert first["dan"] in ((20, "post", True), (20, "over", True))
    # Eve waited until the over reached her seat.
    assert first["eve"] == (20, "over", True)


def _cal_missed_every_blind() -> CashTable:
    """An italian-32 table of five where cal sat out while buio, controbuio and over passed."""
    table = italian_table("italian-32", seats=5)
    for name, seat in (("ann", 1), ("bob", 2), ("cal", 3), ("dan", 4), ("eve", 5)):
        table.sit_down(name, 2000, seat=seat)
    table.start_hand()
    play_hand(table, passive)
    table.sit_out("cal")
    for _ in range(5):
        table.start_hand()
        play_hand(table, passive)
    assert table.player("cal").missed == frozenset({0, 1, 2})
    return table


def test_italian_32_missed_blinds_are_posted_on_return() -> None:
    table = _cal_missed_every_blind()
    cal = table.player("cal")
    table.sit_in("cal", post=True)
    for _ in range(5):
        table.start_hand()
        if table.dealt_in("cal"):
            break
        play_hand(table, passive)
    assert table.hand is not None
    cal_records = [
        r
        for r in table.hand.log
        if isinstance(r, ForcedBet)
        and table.plan is not None
        and table.plan.seats[r.position] == cal.seat
    ]
    kinds = {(r.kind, r.amount, r.live) for r in cal_records}
    # Missed all three: the over live, buio and controbuio dead; or the over came round.
    assert kinds in ({("dead", 15, False), ("post", 20, True)}, {("over", 20, True)})


@pytest.mark.parametrize("leaving", [("dan", "eve"), ("bob", "dan", "eve")])
def test_italian_32_missed_every_blind_then_the_table_shrinks(leaving: tuple[str, ...]) -> None:
    """Cal misses buio, controbuio and over at five players; back at a table of three (or
    two) there is no over: the controbuio, the last blind, settles everything missed."""
    table = _cal_missed_every_blind()
    for name in leaving:
        table.leave(name)
    table.sit_in("cal", post=True)
    for _ in range(3):
        assert table.start_hand()
        if table.dealt_in("cal"):
            break
        assert "cal" not in forced_bets(table)
        play_hand(table, passive)
    assert table.dealt_in("cal")
    assert forced_bets(table)["cal"] == (10, "controbuio", True)  # nothing dead
    assert not any(
        isinstance(r, ForcedBet) and not r.live
        for r in table.hand.log  # type: ignore[union-attr]
    )
    play_hand(table, passive)
    assert table.player("cal").missed == frozenset()
    table.ledger.check()


def test_italian_32_raise_window() -> None:
    table = italian_table(
        "italian-32", seats=4, time=TimeSettings.for_rules("italian-32", decision_seconds=20)
    )
    for name in ("ann", "bob", "cal", "dan"):
        table.sit_down(name, 2000)
    table.start_hand()
    decision = table.decision
    assert decision is not None and ActionKind.RAISE in decision.legal.kinds
    table.clock.advance(10)  # type: ignore[attr-defined]
    late = table.decision
    assert late is not None and ActionKind.RAISE not in late.legal.kinds
    assert ActionKind.CALL in late.legal.kinds and ActionKind.FOLD in late.legal.kinds
    with pytest.raises(TableStateError, match="time to raise"):
        table.act(late.name, Action.raise_to(late.legal.to_call * 3))
    table.act(late.name, Action.call())
    following = table.decision
    assert following is not None and ActionKind.RAISE in following.legal.kinds  # a fresh clock


def test_italian_32_rake_goes_to_the_house() -> None:
    table = italian_table(
        "italian-32", seats=4, stakes=Stakes(small_blind=50, big_blind=100), max_buy_in=20_000
    )
    for name in ("ann", "bob", "cal", "dan"):
        table.sit_down(name, 20_000)
    for _ in range(20):
        table.start_hand()
        play_hand(table, passive)
    assert table.ledger.balance(Account.house("rake")) > 0
    assert table.chips_on_table() + table.ledger.balance(Account.house("rake")) == 80_000
    table.ledger.check()
