"""Texas Hold'em No-Limit: one scenario per rule of RULES.md §1-2."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction

import pytest

from mazziere.cards import Card, Deck, parse_cards
from mazziere.game.core import (
    Action,
    ActionKind,
    AmountTooLargeError,
    AmountTooSmallError,
    BetsCollected,
    CannotCheckError,
    CannotMuckError,
    CannotRaiseError,
    CardBurned,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HandOverError,
    HandSetupError,
    HoleCardsDealt,
    NotYourTurnError,
    Phase,
    PlayerActed,
    Pot,
    PotAwarded,
    Rake,
    RakeTaken,
    UncalledBetReturned,
    WrongPhaseError,
)
from mazziere.game.holdem import BoardDealt, HoldemHand, Street
from mazziere.rules import WrongPlayerCountError
from tests.hand_state import hand_state


def deck(holes: list[str], board: str = "") -> list[Card]:
    """A card order dealing ``holes`` (one string per position) and ``board`` (burns added)."""
    hands = [parse_cards(h) for h in holes]
    community = parse_cards(board)
    used = {c for h in hands for c in h} | set(community)
    spare = iter(c for c in Deck.standard() if c not in used)
    order = [h[0] for h in hands] + [h[1] for h in hands]
    for street in (community[:3], community[3:4], community[4:5]):
        if street:
            order += [next(spare), *street]
    return order


def play_check_down(hand: HoldemHand) -> None:
    while hand.actor is not None and hand.phase is Phase.BETTING:
        if hand.bets[hand.actor] < hand.current_bet:
            hand.call()
        else:
            hand.check()


def of(hand: HoldemHand, kind: type) -> list:  # type: ignore[type-arg]
    return [r for r in hand.log if isinstance(r, kind)]


def snapshot(hand: HoldemHand) -> dict[str, object]:
    return copy.deepcopy(
        {
            k: v
            for k, v in hand_state(hand).items()
            if k not in ("rng", "_stock", "setup", "rules", "log")
        }
    ) | {"log": list(hand.log)}


# ------------------------------------------------------------ forced bets, order


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    hand = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(1))
    posts = of(hand, ForcedBet)
    assert [(p.position, p.kind, p.amount) for p in posts] == [
        (1, "small_blind", 1),
        (0, "big_blind", 2),
    ]
    assert hand.button == 1 and hand.actor == 1
    hand.call()
    assert hand.actor == 0  # the big blind's option
    hand.check()
    assert hand.street is Street.FLOP and hand.actor == 0  # the big blind acts first after
    hand.check()
    assert hand.actor == 1


def test_preflop_starts_left_of_big_blind_postflop_left_of_button() -> None:
    hand = HoldemHand([100] * 5, blinds=(1, 2), rng=random.Random(2))
    assert hand.actor == 2
    hand.call()  # 2
    hand.call()  # 3
    hand.call()  # 4, the button
    hand.fold()  # 0, small blind
    hand.check()  # 1, big blind
    assert hand.street is Street.FLOP
    assert hand.actor == 1  # first active player left of the button (0 folded)


def test_antes_then_blinds_and_a_short_blind_is_all_in() -> None:
    hand = HoldemHand([100, 1, 100], blinds=(1, 2), ante=1, rng=random.Random(3))
    posts = [(p.position, p.kind, p.amount, p.all_in) for p in of(hand, ForcedBet)]
    assert posts == [
        (0, "ante", 1, False),
        (1, "ante", 1, True),
        (2, "ante", 1, False),
        (0, "small_blind", 1, False),
    ]
    assert hand.actor == 2 and hand.legal_actions().to_call == 1


def test_straddle_acts_last_preflop_and_sets_the_bet() -> None:
    hand = HoldemHand([100] * 6, blinds=(1, 2, 4, 0, 0, 0), rng=random.Random(4))
    assert [p.kind for p in of(hand, ForcedBet)] == ["small_blind", "big_blind", "straddle"]
    legal = hand.legal_actions()
    assert hand.actor == 3 and legal.to_call == 4 and legal.min_to == 6


def test_dealing_one_card_at_a_time_and_burns() -> None:
    holes = ["AhKh", "2c2d", "7s8s"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "QhJhTh 3c 4d"))
    assert hand.hole == [tuple(parse_cards(h)) for h in holes]
    play_check_down(hand)
    records = [r for r in hand.log if isinstance(r, CardBurned | BoardDealt)]
    assert [type(r).__name__ for r in records] == ["CardBurned", "BoardDealt"] * 3
    assert [len(r.cards) for r in records if isinstance(r, BoardDealt)] == [3, 1, 1]
    assert hand.board == parse_cards("QhJhTh 3c 4d")
    assert hand.result is not None and hand.result.payoffs == (4, -2, -2)


# ------------------------------------------------------------------- betting


def test_bet_limits_check_and_call() -> None:
    hand = HoldemHand([100, 60, 100], blinds=(1, 2), rng=random.Random(5))
    play_check_down_preflop(hand)
    assert hand.street is Street.FLOP and hand.actor == 0
    legal = hand.legal_actions()
    assert legal.kinds >= {ActionKind.CHECK, ActionKind.BET, ActionKind.ALL_IN}
    assert (legal.min_to, legal.max_to) == (2, 98)
    with pytest.raises(AmountTooSmallError, match="at least 2"):
        hand.bet(1)
    with pytest.raises(AmountTooLargeError):
        hand.bet(99)
    hand.bet(10)
    with pytest.raises(CannotCheckError):
        hand.check()
    record = hand.all_in()  # 58 behind: a raise
    assert record.kind is ActionKind.RAISE and record.to == 58 and record.all_in


def play_check_down_preflop(hand: HoldemHand) -> None:
    while hand.street is Street.PREFLOP:
        hand.call() if hand.bets[hand.actor or 0] < hand.current_bet else hand.check()


def test_min_raise_is_largest_increment_and_big_blind_counts() -> None:
    hand = HoldemHand([1000] * 4, blinds=(5, 10), rng=random.Random(6))
    assert hand.legal_actions().min_to == 20
    hand.raise_to(35)  # +25
    assert hand.legal_actions().min_to == 60
    hand.raise_to(60)
    assert hand.legal_actions().min_to == 85


def test_all_in_not_above_the_bet_is_a_call() -> None:
    hand = HoldemHand([100, 50, 100], blinds=(1, 2), rng=random.Random(7))
    hand.raise_to(60)
    hand.fold()
    legal = hand.legal_actions()
    assert legal.kinds == {ActionKind.FOLD, ActionKind.CALL, ActionKind.ALL_IN, ActionKind.TIMEOUT}
    assert legal.to_call == 48
    record = hand.all_in()
    assert record.kind is ActionKind.CALL and record.added == 48 and record.all_in
    assert UncalledBetReturned((2, 10)) in hand.log


def test_short_all_in_does_not_reopen_the_betting() -> None:
    hand = HoldemHand([200, 200, 200, 27], blinds=(1, 2), rng=random.Random(8))
    hand.raise_to(20)  # position 2: +18
    hand.all_in()  # position 3: to 27, +7 short of a full raise
    hand.call()  # small blind had not acted: could have raised
    hand.call()  # big blind
    assert hand.actor == 2
    assert ActionKind.RAISE not in hand.legal_actions().kinds
    with pytest.raises(CannotRaiseError, match="did not reopen"):
        hand.raise_to(60)
    hand.call()
    assert hand.street is Street.FLOP


def test_a_full_raise_of_exactly_the_minimum_reopens_the_betting() -> None:
    hand = HoldemHand([200] * 4, blinds=(1, 2), rng=random.Random(8))
    hand.raise_to(20)  # position 2: +18, the minimum raise is now 18
    hand.raise_to(38)  # position 3: +18, exactly a full raise
    hand.fold()
    hand.fold()
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert ActionKind.RAISE in legal.kinds and legal.min_to == 56
    hand.raise_to(56)
    assert hand.actor == 3 and ActionKind.RAISE in hand.legal_actions().kinds


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    hand = HoldemHand([200, 16, 22, 200], blinds=(1, 2), rng=random.Random(8))
    play_check_down_preflop(hand)
    assert hand.street is Street.FLOP and hand.actor == 0
    hand.bet(10)
    hand.all_in()  # position 1: to 14, short
    hand.all_in()  # position 2: to 20, short again; 10 more than position 0's bet
    hand.call()
    assert hand.actor == 0
    legal = hand.legal_actions()
    assert ActionKind.RAISE in legal.kinds and legal.min_to == 30


def test_big_blind_option_and_round_end() -> None:
    hand = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(9))
    hand.call()
    hand.call()
    assert hand.actor == 1 and ActionKind.CHECK in hand.legal_actions().kinds
    assert ActionKind.RAISE in hand.legal_actions().kinds
    hand.check()
    assert hand.street is Street.FLOP


def test_uncalled_bet_is_returned() -> None:
    hand = HoldemHand([100, 100, 100], blinds=(1, 2), rng=random.Random(10))
    hand.raise_to(50)
    hand.fold()
    hand.fold()
    assert UncalledBetReturned((2, 48)) in hand.log
    assert hand.result is not None and hand.result.payoffs == (-1, -2, 3)


# ---------------------------------------------------------------- pots


def test_three_way_all_in_two_side_pots() -> None:
    # Best: position 0 (aces), then 1 (kings), then 2 (queens).
    holes = ["AhAd", "KhKd", "QhQd"]
    hand = HoldemHand([50, 100, 250], blinds=(1, 2), deck=deck(holes, "2c 7s 9d 3h 4s"))
    hand.all_in()  # 2: 250
    hand.all_in()  # 0: 50
    hand.all_in()  # 1: 100
    assert UncalledBetReturned((2, 150)) in hand.log
    collected = of(hand, BetsCollected)[0]
    assert collected.pots == (Pot(150, (0, 1, 2)), Pot(100, (1, 2)))
    awards = of(hand, PotAwarded)
    assert [(a.amount, a.winners) for a in awards] == [(150, (0,)), (100, (1,))]
    assert hand.result is not None and hand.result.stacks == (150, 100, 150)


def test_split_pot_odd_chip_goes_left_of_the_button() -> None:
    # The board is a royal flush: everyone still in ties.
    holes = ["2c3d", "4c5d", "6c7d"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "AsKsQs JsTs"))
    hand.call()  # 2, the button
    hand.fold()  # 0, small blind: its 1 chip stays in
    hand.check()
    play_check_down(hand)
    award = of(hand, PotAwarded)[0]
    assert award.amount == 5 and award.winners == (1, 2) and award.shares == (3, 2)


def test_suits_never_break_ties() -> None:
    holes = ["AhKd", "AcKs"]
    hand = HoldemHand([100, 100], blinds=(1, 2), deck=deck(holes, "2c 7s 9d Jh 4s"))
    play_check_down(hand)
    assert hand.result is not None and hand.result.payoffs == (0, 0)


def test_dead_antes_are_won_by_a_player_all_in_on_the_ante() -> None:
    holes = ["AhAd", "KhKd", "QhQd"]
    order = deck(holes, "2c 7s 9d 3h 4s")
    dead = HoldemHand(
        [1, 100, 100], blinds=(0, 0, 0), ante=2, min_bet=2, deck=order, antes_dead=True
    )
    live = HoldemHand([1, 100, 100], blinds=(0, 0, 0), ante=2, min_bet=2, deck=order)
    for hand in (dead, live):
        play_check_down(hand)
    assert dead.result is not None and live.result is not None
    assert dead.result.stacks == (5, 98, 98)  # every ante
    assert live.result.stacks == (3, 100, 98)  # aces win 1 from each; the rest goes to kings


# ------------------------------------------------------------ showdown


def test_showdown_order_last_aggressor_first_losers_muck() -> None:
    holes = ["2c3d", "AhAd", "7h7d"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "Kc 9s 5d Jh 4s"))
    play_check_down_preflop(hand)
    hand.check()
    hand.check()
    hand.bet(10)  # position 2 bets the flop
    hand.call()
    hand.call()
    play_check_down(hand)  # no bet on turn and river
    shows = [r for r in hand.log if isinstance(r, CardsShown | CardsMucked)]
    # nobody bet the river: first left of the button shows first; cards speak
    assert [(type(r).__name__, r.position) for r in shows] == [
        ("CardsShown", 0),
        ("CardsShown", 1),
        ("CardsMucked", 2),
    ]


def test_river_bettor_shows_first() -> None:
    holes = ["2c3d", "AhAd", "7h7d"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "Kc 9s 5d Jh 4s"))
    play_check_down_preflop(hand)
    while hand.street is not Street.RIVER:
        hand.check()
    hand.check()
    hand.check()
    hand.bet(20)  # position 2, the button
    hand.call()
    hand.call()
    shows = [r for r in hand.log if isinstance(r, CardsShown | CardsMucked)]
    assert [(type(r).__name__, r.position) for r in shows] == [
        ("CardsShown", 2),
        ("CardsMucked", 0),
        ("CardsShown", 1),
    ]


def test_all_in_runout_exposes_hands_before_the_board() -> None:
    holes = ["AhAd", "KhKd"]
    hand = HoldemHand([100, 100], blinds=(1, 2), deck=deck(holes, "2c 7s 9d 3h 4s"))
    hand.all_in()
    hand.call()
    kinds = [type(r).__name__ for r in hand.log]
    first_board = kinds.index("BoardDealt")
    assert kinds.index("CardsShown") < first_board
    assert kinds.count("CardsShown") == 2
    assert hand.result is not None and hand.result.stacks == (200, 0)


def test_asked_showdown_muck_only_when_beaten() -> None:
    holes = ["2c3d", "AhAd", "7h7d"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "Kc 9s 5d Jh 4s"), ask_show=True)
    play_check_down(hand)
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 0
    assert hand.legal_actions().kinds == {ActionKind.SHOW, ActionKind.TIMEOUT}
    with pytest.raises(CannotMuckError):
        hand.muck()
    hand.show()
    assert hand.actor == 1
    hand.show()
    assert hand.actor == 2 and hand.can_muck()
    hand.timeout()  # beaten: mucks
    assert hand.result is not None and hand.result.payoffs == (-2, 4, -2)
    assert set(hand.result.shown) == {0, 1}


def test_uncontested_winner_mucks_by_default_or_shows_if_asked() -> None:
    auto = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(11))
    auto.fold()
    auto.fold()
    assert auto.is_over and not of(auto, CardsShown)
    asked = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(11), ask_show=True)
    asked.fold()
    asked.fold()
    assert asked.phase is Phase.SHOWDOWN and asked.actor == 1
    assert asked.legal_actions().kinds == {ActionKind.SHOW, ActionKind.MUCK, ActionKind.TIMEOUT}
    asked.show()
    assert asked.is_over and of(asked, CardsShown)[0].position == 1
    assert asked.result is not None and asked.result.payoffs == (-1, 1, 0)


# ------------------------------------------------------------------ rake


def test_rake_percent_cap_and_no_flop_no_drop() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=3)
    preflop = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(12), rake=rake)
    preflop.raise_to(10)
    preflop.call()
    preflop.fold()
    assert preflop.street is Street.FLOP
    preflop.check()
    preflop.bet(20)
    preflop.fold()
    assert preflop.result is not None and preflop.result.rake == 1  # 5% of 22
    folded = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(12), rake=rake)
    folded.raise_to(10)
    folded.fold()
    folded.fold()
    assert folded.result is not None and folded.result.rake == 0 and not of(folded, RakeTaken)
    big = HoldemHand([1000] * 2, blinds=(1, 2), rng=random.Random(13), rake=rake)
    big.all_in()
    big.call()
    assert big.result is not None and big.result.rake == 3  # capped
    assert sum(big.result.payoffs) == -3


# ------------------------------------------------------------ timeouts


def test_rake_with_side_pots_rounds_down_and_takes_the_rest_from_the_main_pot() -> None:
    rake = Rake(percent=Fraction(10, 100), no_flop_no_drop=False)
    hand = HoldemHand([16, 51, 51], blinds=(1, 2), rng=random.Random(3), rake=rake)
    for _ in range(3):
        hand.all_in()
    assert hand.result is not None and hand.result.rake == 11  # 10% of 48 + 70
    # In proportion, rounded down: 4 of the main pot's 48, 6 of the side pot's 70;
    # the chip left over comes from the main pot first.
    awarded = [(r.pot, r.amount) for r in of(hand, PotAwarded)]
    assert awarded == [(0, 48 - 5), (1, 70 - 6)]


def test_timeout_checks_if_free_else_folds() -> None:
    hand = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(14))
    record = hand.apply(Action.timeout())
    assert isinstance(record, PlayerActed) and record.kind is ActionKind.FOLD and record.timed_out
    hand.call()
    record = hand.timeout()
    assert isinstance(record, PlayerActed) and record.kind is ActionKind.CHECK


# ------------------------------------------------------------ legality


def test_illegal_actions_raise_precisely_and_change_nothing() -> None:
    hand = HoldemHand([100] * 3, blinds=(1, 2), rng=random.Random(15))
    before = snapshot(hand)
    with pytest.raises(NotYourTurnError):
        hand.call(0)
    with pytest.raises(WrongPhaseError):
        hand.show()
    with pytest.raises(CannotCheckError):
        hand.apply(Action.check(), 2)
    with pytest.raises(AmountTooSmallError):
        hand.apply(Action.raise_to(3))
    assert snapshot(hand) == before
    assert not hand.can_raise_to(3) and hand.can_raise_to(4) and hand.can_fold(2)
    hand.fold()
    hand.fold()
    with pytest.raises(HandOverError):
        hand.fold()
    assert hand.legal_actions().kinds == frozenset()


def test_bad_setups() -> None:
    rng = random.Random(1)
    with pytest.raises(HandSetupError):
        HoldemHand([100, 0], rng=rng)
    with pytest.raises(HandSetupError):
        HoldemHand([100, 100.5], rng=rng)  # type: ignore[list-item]
    with pytest.raises(WrongPlayerCountError):
        HoldemHand([100] * 10, rng=rng)
    with pytest.raises(HandSetupError, match="deck"):
        HoldemHand([100, 100])
    with pytest.raises(HandSetupError, match="one amount per player"):
        HoldemHand([100] * 3, ante=[1, 1], rng=rng)
    with pytest.raises(HandSetupError, match="twice"):
        HoldemHand([100] * 2, deck=parse_cards("Ah") * 2)


# ------------------------------------------------------------ views, log


def test_views_hide_what_a_seat_may_not_see() -> None:
    holes = ["AhAd", "KhKd", "QhQd"]
    hand = HoldemHand([100] * 3, blinds=(1, 2), deck=deck(holes, "2c 7s 9d 3h 4s"))
    mine = hand.view(1)
    assert mine.hole[1] == tuple(parse_cards("KhKd"))
    assert mine.hole[0] == (None, None) and mine.hole[2] == (None, None)
    assert mine.legal is None  # not this seat's turn
    actor = hand.view(2)
    assert actor.legal is not None and actor.legal.to_call == 2
    spectator = hand.view(None)
    assert all(h == (None, None) for h in spectator.hole)
    json.dumps(spectator.to_dict())
    seen = hand.records_for(0)
    dealt = [r for r in seen if r.type == "hole_cards"]
    assert dealt[0].cards == tuple(parse_cards("AhAd")) and dealt[1].cards == (None, None)
    hand.all_in()
    hand.call()
    hand.call()
    after = hand.view(None)
    assert after.hole[0] == tuple(parse_cards("AhAd"))  # shown at the all-in
    burned = [r for r in hand.records_for(None) if isinstance(r, CardBurned)]
    assert burned and all(r.card is None for r in burned)
    payload = json.loads(json.dumps(after.to_dict()))
    assert payload["board"] == ["2c", "7s", "9d", "3h", "4s"]
    assert payload["result"]["payoffs"] == [200, -100, -100]


def test_log_records_to_dict_are_json() -> None:
    hand = HoldemHand([100] * 4, blinds=(1, 2), ante=1, rng=random.Random(16))
    play_check_down(hand)
    dicts = [record.to_dict() for record in hand.log]
    assert json.loads(json.dumps(dicts)) == dicts  # only JSON's own types: lists, not tuples
    assert [d["type"] for d in dicts] == [type(r).type for r in hand.log]
    for record, data in zip(hand.log, dicts, strict=True):
        if isinstance(record, PlayerActed):
            assert data == {
                "type": "action",
                "position": record.position,
                "kind": record.kind.value,
                "added": record.added,
                "to": record.to,
                "all_in": record.all_in,
                "timed_out": record.timed_out,
            }
        elif isinstance(record, HoleCardsDealt | CardsShown | BoardDealt):
            assert data["cards"] == [str(card) for card in record.cards]
        elif isinstance(record, CardBurned):
            assert data["card"] == str(record.card)
        elif isinstance(record, BetsCollected):
            assert data["pots"] == [{"amount": 12, "eligible": [0, 1, 2, 3]}]
    assert dicts[5] == {
        "type": "forced_bet",
        "position": 0,
        "amount": 1,
        "kind": "small_blind",
        "live": True,
        "all_in": False,
    }
    assert dicts[-1] == {"type": "award", "pot": 0, "amount": 12, "winners": [3], "shares": [12]}
    seen = [record.to_dict() for record in hand.records_for(0)]
    assert [d["cards"] for d in seen if d["type"] == "hole_cards"][1:] == [["??", "??"]] * 3
    assert all(d["card"] is None for d in seen if d["type"] == "burn")


def random_play(hand: HoldemHand, rng: random.Random) -> None:
    while hand.actor is not None:
        legal = hand.legal_actions()
        kinds = sorted(legal.kinds)
        kind = rng.choice(kinds)
        if kind in (ActionKind.BET, ActionKind.RAISE):
            hand.apply(Action(kind, rng.randint(legal.min_to, legal.max_to)))
        else:
            hand.apply(Action(kind))


def test_hands_rebuild_from_their_logs() -> None:
    rng = random.Random(17)
    for number in range(150):
        n = rng.randint(2, 9)
        hand = HoldemHand(
            [rng.randint(1, 300) for _ in range(n)],
            blinds=(1, 2),
            ante=rng.choice([0, 1]),
            rng=rng,
            ask_show=number % 2 == 0,
        )
        stop = rng.randint(0, 30)
        for _ in range(stop):
            if hand.actor is None:
                break
            legal = hand.legal_actions()
            kind = rng.choice(sorted(legal.kinds))
            amount = rng.randint(legal.min_to, legal.max_to) if kind in ("bet", "raise") else None
            hand.apply(Action(kind, amount))
        copy_ = HoldemHand.from_log(hand.log, rng=random.Random(1))
        assert copy_.log == hand.log
        assert copy_.stacks == hand.stacks and copy_.actor == hand.actor
        if not hand.is_over:  # the rebuilt hand plays on
            random_play(copy_, rng)
            assert copy_.is_over
