"""The Italian hand engine through its API: legality, views, timeouts, setup errors, the carry,
and random legal play of thousands of chained hands per profile."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.cards import Card, parse_cards
from mazziere.game.core import (
    Action,
    ActionKind,
    CannotCheckError,
    HandSetupError,
    IllegalActionError,
    Phase,
    WrongPhaseError,
)
from mazziere.game.italian import (
    CannotDiscardError,
    ItalianCarry,
    ItalianHand,
    next_hand,
)
from mazziere.history.phh_italian import dumps_italian, loads, replay_italian
from mazziere.rules import Rank, WrongPlayerCountError
from tests.hand_state import hand_state
from tests.italian_play import Chain, check_cards, random_action


def dealt(hands: list[str], draws: str = "") -> list[Card]:
    """The card order that deals these hands one card at a time, then the draw's cards."""
    cards = [parse_cards(h) for h in hands]
    order = [cards[p][k] for k in range(5) for p in range(len(hands))]
    return order + (parse_cards(draws) if draws else [])


FOUR = ["JhJd9c8s7h", "ThTd9d8dQc", "7c7dKcJs9s", "AhKhQh9h7s"]


def classic(stacks: list[int] | None = None, **options: Any) -> ItalianHand:
    options.setdefault("invito", 10)
    if "deck" not in options:
        options.setdefault("rng", random.Random(1))
    return ItalianHand("italian-classic", stacks or [500] * 4, **options)


# ------------------------------------------------------------------ the deal


def test_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    order = parse_cards("Ah Kh Qh Jh  Ad Kd Qd Jd  Ac Kc Qc Jc  As Ks Qs Js  Th Td Tc Ts")
    hand = classic(deck=order)
    hand.check()  # no blind
    assert [parse_cards(" ".join(map(str, h))) for h in hand.hole] == [
        parse_cards("Ah Ad Ac As Th"),
        parse_cards("Kh Kd Kc Ks Td"),
        parse_cards("Qh Qd Qc Qs Tc"),
        parse_cards("Jh Jd Jc Js Ts"),
    ]


def test_the_deck_depends_on_the_players_dealt_in() -> None:
    with pytest.raises(Exception, match="not in this game's deck"):
        ItalianHand("italian-classic", [100, 100], invito=10, deck=parse_cards("8h"))
    hand = ItalianHand("italian-classic", [100] * 6, invito=10, rng=random.Random(2))
    hand.check()
    assert min(c.rank for h in hand.hole for c in h if c is not None) >= Rank.FIVE


# ------------------------------------------------------------- legal actions


def test_open_is_offered_only_when_the_cards_qualify() -> None:
    hand = classic(deck=dealt(FOUR))
    hand.check()  # no blind
    mine = hand.view(0)
    assert mine.legal is not None and ActionKind.BET in mine.legal.kinds
    hand.check()  # p1 passes although it could open
    assert hand.actor == 1
    legal = hand.legal_actions()
    assert ActionKind.BET not in legal.kinds and ActionKind.ALL_IN not in legal.kinds
    assert not hand.can_bet(20) and not hand.can_all_in()
    with pytest.raises(IllegalActionError, match="do not open"):
        hand.bet(20)


def test_views_hide_other_hands_and_serialise() -> None:
    hand = classic(deck=dealt(FOUR))
    hand.check()
    spectator, mine = hand.view(None), hand.view(0)
    assert spectator.hole[0] == (None,) * 5 and spectator.legal is None
    assert mine.hole[0] == hand.hole[0] and mine.hole[1] == (None,) * 5
    assert hand.view(1).legal is None  # not p2's turn
    data = json.loads(json.dumps(mine.to_dict()))
    assert data["opening"] == "J" and data["hole"][1] == ["??"] * 5
    seen = hand.records_for(1)
    assert all(
        getattr(r, "cards", None) in (None, (None,) * 5)
        for r in seen
        if getattr(r, "position", 1) != 1
    )


def test_draw_counts_are_public_but_discards_are_not() -> None:
    hand = classic(deck=dealt(FOUR, "As Ks"))
    hand.check()
    hand.bet(20)
    for _ in range(3):
        hand.call()
    hand.draw(parse_cards("9c 8s"))
    assert hand.view(2).drawn[0] == 2
    discard = hand.records_for(2)[-2]
    assert discard.to_dict()["cards"] == ["??", "??"]  # type: ignore[attr-defined]
    assert hand.records_for(0)[-2].to_dict()["cards"] == ["9c", "8s"]  # type: ignore[attr-defined]


def test_passo_with_nothing_to_call_asks_for_confirmation() -> None:
    hand = classic(deck=dealt(FOUR))
    hand.check()
    assert hand.legal_actions().confirm_fold  # opening round, nothing to call
    hand.bet(20)
    assert not hand.legal_actions().confirm_fold  # facing a bet
    for _ in range(3):
        hand.call()
    for _ in range(4):
        hand.draw()
    legal = hand.legal_actions()
    assert legal.confirm_fold and ActionKind.PAROL in legal.kinds
    hand.fold()  # still legal: the client confirmed
    assert hand.folded[0]


def test_timeouts() -> None:
    hand = classic(deck=dealt(FOUR))
    record = hand.timeout()  # before the deal: no blind
    assert record.timed_out and hand.phase is Phase.BETTING  # type: ignore[attr-defined]
    hand.bet(20)
    hand.timeout()  # facing a bet: fold
    assert hand.folded[1]
    hand.call()
    hand.call()
    hand.timeout()  # the draw: stand pat
    assert hand.drawn[0] == 0
    for _ in range(2):
        hand.draw()
    hand.timeout()  # the last round: busso, never parol
    assert hand.log[-1].kind is ActionKind.CHECK  # type: ignore[attr-defined]


def test_illegal_actions_explain_and_change_nothing() -> None:
    hand = classic(deck=dealt(FOUR))
    before = snapshot(hand)
    attempts = [
        (lambda: hand.bet(30), "the buio is 40"),
        (lambda: hand.raise_to(80), "no blind to raise"),
        (hand.draw, "no draw now"),
        (hand.fold, "no betting now"),
        (lambda: hand.check(position=1), "position 0's turn"),
    ]
    for attempt, message in attempts:
        with pytest.raises(IllegalActionError, match=message):
            attempt()
        assert snapshot(hand) == before
    hand.check()
    hand.bet(20)
    for _ in range(3):
        hand.call()
    before = snapshot(hand)
    for cards, message in [
        ("Ah", "not in position 0's hand"),
        ("Jh Jh", "the same card twice"),
        ("Jh Jd 9c 8s 7h", "at most 4"),
    ]:
        discards = [Card(c) for c in cards.split()]
        assert not hand.can_draw(discards)
        with pytest.raises(CannotDiscardError, match=message):
            hand.draw(discards)
        assert snapshot(hand) == before


def test_parol_rules() -> None:
    hand = classic(deck=dealt(FOUR))
    hand.check()
    hand.bet(20)
    with pytest.raises(IllegalActionError, match="last betting round"):
        hand.parol()
    for _ in range(3):
        hand.call()
    for _ in range(4):
        hand.draw()
    hand.bet(50)
    with pytest.raises(CannotCheckError):
        hand.parol()
    hand = ItalianHand(
        "italian-32", [900, 900], buio=50, deck=dealt(FOUR[:2]), rng=None, odd_chips=[]
    )
    hand.call()
    hand.check()
    hand.draw()
    hand.draw()
    assert hand.can_parol()


def test_no_parole_while_a_player_is_all_in() -> None:
    hand = ItalianHand("italian-32", [150, 900, 900], buio=50, rng=random.Random(3))
    hand.call()  # p3
    hand.call()  # p1 is all-in for 100? no: 100 of 150
    hand.check()
    for _ in range(3):
        hand.draw()
    assert ActionKind.PAROL in hand.legal_actions().kinds
    hand = ItalianHand("italian-32", [900, 900, 100], buio=50, rng=random.Random(3))
    hand.call()  # p3 calls all-in
    hand.call()
    hand.check()
    for _ in range(3):
        hand.draw()
    assert ActionKind.PAROL not in hand.legal_actions().kinds
    with pytest.raises(IllegalActionError, match="all-in"):
        hand.parol()


def test_a_blind_raise_needs_the_chips() -> None:
    hand = classic([1000, 60, 1000, 1000])
    hand.bet(40)  # buio; p2 has 50 < 80: no controbuio, the cards are dealt
    assert hand.phase is Phase.BETTING and hand.actor == 1
    assert hand.legal_actions().kinds == {ActionKind.CALL, ActionKind.FOLD, ActionKind.TIMEOUT}
    hand = classic([1000, 90, 1000, 1000])
    hand.bet(40)
    assert hand.phase is Phase.DEALING and hand.legal_actions().min_to == 80  # exactly all-in
    hand.raise_to(80)
    assert hand.stacks[1] == 0 and hand.actor == 2


CALL_OR_FOLD = {ActionKind.CALL, ActionKind.FOLD, ActionKind.TIMEOUT}


def test_after_the_deal_earlier_blind_raisers_may_only_call_or_fold() -> None:
    hand = classic([1000] * 4)
    hand.bet(40)  # buio (p1)
    hand.raise_to(80)  # controbuio (p2)
    hand.raise_to(160)  # over (p3), the last blind raiser
    assert hand.phase is Phase.BETTING and hand.actor == 3
    assert hand.legal_actions().kinds == CALL_OR_FOLD
    hand.call()
    for earlier in (0, 1):  # the buiante, then the controbuiante
        assert hand.actor == earlier
        assert hand.legal_actions().kinds == CALL_OR_FOLD
        assert not hand.can_raise_to(400) and not hand.can_all_in()
        with pytest.raises(IllegalActionError, match="may only call or fold"):
            hand.raise_to(400)
        hand.call()
    # The last blind raiser may raise again: at least the largest blind increment
    # (80, from 80 to 160), not the table's minimum bet (10).
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert {ActionKind.CHECK, ActionKind.RAISE} <= legal.kinds
    assert legal.min_to == 240
    with pytest.raises(IllegalActionError):
        hand.raise_to(239)
    hand.raise_to(240)
    for _ in range(3):  # normal betting again: everybody may re-raise
        assert ActionKind.RAISE in hand.legal_actions().kinds
        assert hand.legal_actions().min_to == 320
        hand.call()
    assert hand.phase is Phase.DRAW


def test_after_one_blind_the_buiante_re_raises_by_the_buio() -> None:
    hand = classic([1000] * 4)
    hand.bet(40)  # buio (p1), the only blind raiser
    hand.check()  # p2 declines the controbuio: the cards are dealt
    assert hand.phase is Phase.BETTING and hand.actor == 1
    for _ in range(3):
        assert hand.legal_actions().kinds == CALL_OR_FOLD
        hand.call()
    assert hand.actor == 0
    legal = hand.legal_actions()
    assert ActionKind.RAISE in legal.kinds and legal.min_to == 80  # 40 more, not 10


def test_setup_errors() -> None:
    with pytest.raises(HandSetupError, match="not a rule set of Poker all'italiana"):
        ItalianHand("holdem", [100, 100], rng=random.Random(1))
    with pytest.raises(HandSetupError, match="needs a positive invito"):
        ItalianHand("italian-classic", [100, 100], rng=random.Random(1))
    with pytest.raises(HandSetupError, match="has no invito"):
        ItalianHand("italian-32", [100, 100], invito=5, buio=5, rng=random.Random(1))
    with pytest.raises(HandSetupError, match="needs a positive buio"):
        ItalianHand("italian-32", [100, 100], rng=random.Random(1))
    with pytest.raises(HandSetupError, match="give a card order"):
        ItalianHand("italian-classic", [100, 100], invito=5)
    with pytest.raises(HandSetupError, match="cannot pay"):
        classic([100, 100], dead_money=[0, 150])
    with pytest.raises(HandSetupError, match="exceed the carried pot"):
        classic([100, 100], carried_pot=10, carried_shares=[10, 10])
    with pytest.raises(HandSetupError, match="no parol pot"):
        ItalianHand("italian-32", [100, 100], buio=5, parol_pot=True, rng=random.Random(1))
    with pytest.raises(WrongPlayerCountError):
        classic([100] * 7)
    with pytest.raises(HandSetupError, match="whole chips"):
        classic([100, 100.5])  # type: ignore[list-item]


# ------------------------------------------------------------------- the carry


def _all_check(hand: ItalianHand) -> None:
    while not hand.is_over:
        hand.check()


def test_the_ladder_through_the_carry_and_next_hand() -> None:
    rng = random.Random(7)
    stacks = [500, 500, 500, 500]
    arguments: dict[str, object] = {}
    opened_at = []
    for _ in range(4):
        hand = ItalianHand("italian-classic", stacks, invito=10, rng=rng, **arguments)  # type: ignore[arg-type]
        opened_at.append(hand.opening)
        _all_check(hand)
        plan = next_hand(hand.carry, hand.result.stacks)  # type: ignore[union-attr]
        stacks, arguments = list(plan.stacks), dict(plan.arguments)
    assert opened_at == [Rank.JACK, Rank.QUEEN, Rank.KING, Rank.KING]
    assert arguments["carried_pot"] == 160 and arguments["carried_shares"] == (40,) * 4
    while True:  # dead hands at Kings until somebody may open
        hand = ItalianHand("italian-classic", stacks, invito=10, rng=rng, **arguments)  # type: ignore[arg-type]
        assert hand.opening == Rank.KING
        while hand.actor is not None and not hand.opens(hand.actor):
            hand.check()
        if hand.actor is not None:
            break
        plan = next_hand(hand.carry, hand.result.stacks)  # type: ignore[union-attr]
        stacks, arguments = list(plan.stacks), dict(plan.arguments)
    hand.bet(20)
    while not hand.is_over:
        hand.apply(Action.fold() if hand.can_fold() else Action.timeout())
    assert hand.carry.pot == 0 and hand.carry.opening == Rank.JACK
    assert sum(hand.result.stacks) == 2000  # type: ignore[union-attr]


def test_next_hand_for_a_parol_pot() -> None:
    carry = ItalianCarry(
        pot=100,
        opening_level=0,
        parol_pot=True,
        shares=(40, 10, 40, 10),
        parol_players=(0, 2),
        rejoin=(0, 30, 0, 30),
        opening=Rank.KING,
    )
    plan = next_hand(carry, [500, 200, 300, 600], declined=[3])
    assert plan.seats == (1, 2, 0) and plan.passed == (3,)
    assert plan.arguments["dead_money"] == (30, 0, 0)
    plan = next_hand(carry, [500, 29, 300, 30])
    assert plan.seats == (2, 3, 0) and plan.passed == (1,)  # 29 cannot pay 30: passed
    with pytest.raises(ValueError, match="carry is for 4 players"):
        next_hand(carry, [1, 2])


def test_a_parol_pot_chain() -> None:
    """Parol, then the parol pot with an adeguamento, won: chips are conserved throughout."""
    hand = ItalianHand(
        "italian-classic",
        [500, 500, 500],
        invito=10,
        deck=dealt(["JhJd9c8sAs", "QhQdAc9d8c", "KcKdTs9s8d"]),
    )
    hand.check()
    hand.bet(20)
    hand.call()
    hand.fold()
    hand.draw()
    hand.draw()
    hand.parol()
    hand.parol()
    carry = hand.carry
    assert carry.parol_pot and carry.pot == 70 and carry.rejoin == (0, 0, 20)
    plan = next_hand(carry, hand.result.stacks)  # type: ignore[union-attr]
    assert plan.seats == (1, 2, 0)
    second = ItalianHand(
        "italian-classic", plan.stacks, min_bet=10, rng=random.Random(4), **plan.arguments
    )  # type: ignore[arg-type]
    assert second.opening == Rank.KING and second.total_pot == 90 and second.phase is Phase.BETTING
    while not second.is_over:
        second.apply(random_action(second, random.Random(5)))
    assert sum(second.result.stacks) + second.carry.pot + second.result.rake == 1500  # type: ignore[union-attr]


# Five players at Queens after a dead hand of four (10 each carried); p4 sat down since,
# with no share in the carried pot.  Only p0 opens (a pair of Queens).
AFTER_A_DEAD_HAND = ["QhQd9c8s6h", "Th9d7c6sKd", "JhTd8c7sAc", "AhKc9h7d6c", "KhJdTc8d6d"]


def _parol_pot_with_a_newcomer(*, last_round: str) -> ItalianHand:
    hand = classic(
        [500] * 5,
        opening_level=1,
        carried_pot=40,
        carried_shares=(10, 10, 10, 10, 0),
        deck=dealt(AFTER_A_DEAD_HAND),
    )
    assert hand.phase is Phase.BETTING and hand.actor == 0  # no blind opening at Queens
    hand.bet(20)
    hand.call()
    hand.fold()  # p2 gives up in the first round: 20 in the pot
    hand.call()
    hand.call()
    for _ in range(4):
        hand.draw()
    assert hand.betting_round == 2 and hand.actor == 0  # the opener speaks first
    for position, word in zip((0, 1, 3, 4), last_round, strict=True):
        assert hand.actor == position
        hand.parol() if word == "p" else hand.fold()
    assert hand.is_over
    return hand


def test_a_fold_in_the_last_round_does_not_cancel_the_others_parol() -> None:
    hand = _parol_pot_with_a_newcomer(last_round="pffp")  # p1 and p3 fold between parols
    carry = hand.carry
    assert carry.parol_pot and carry.pot == 40 + 5 * 10 + 4 * 20
    assert carry.parol_players == (0, 4)
    assert hand.result is not None and hand.result.pots == ()  # nobody was paid


def test_the_adeguamento_matches_the_largest_parol_share() -> None:
    """Decision 19: parol players' shares differ (p4 has none of the carried pot); every other
    player with a share pays up to the largest, so nobody plays the parol pot on less."""
    hand = _parol_pot_with_a_newcomer(last_round="ppfp")  # p3 folds in the last round
    carry = hand.carry
    assert carry.parol_players == (0, 1, 4)
    assert carry.shares == (40, 40, 20, 40, 30)
    assert carry.rejoin == (0, 0, 20, 0, 0)  # p3 matched 40 already: nothing to pay
    plan = next_hand(carry, hand.result.stacks)  # type: ignore[union-attr]
    assert plan.seats == (1, 2, 3, 4, 0)
    assert plan.arguments["dead_money"] == (0, 20, 0, 0, 0)
    plan = next_hand(carry, hand.result.stacks, declined=[2])  # type: ignore[union-attr]
    assert plan.seats == (1, 3, 4, 0) and plan.passed == (2,)


def _italian_32_to_round_two(seed: int, *, folds: int) -> ItalianHand:
    """Four players (buio 50, controbuio 100, over 200); p3 calls, p0 folds, p1 calls and
    p2 checks, or p3 raises to 1400 and ``folds`` players give up; everyone stands pat."""
    hand = ItalianHand("italian-32", [5000] * 4, buio=50, rng=random.Random(seed))
    if folds:
        hand.raise_to(1400)
        hand.fold()
        hand.fold()
        hand.call()
    else:
        hand.call()
        hand.fold()
        hand.call()
        hand.check()
    while hand.phase is Phase.DRAW:
        hand.draw()
    assert hand.betting_round == 2
    return hand


def test_the_italian_32_rake_cap_counts_the_players_dealt_in() -> None:
    hand = _italian_32_to_round_two(1, folds=2)  # two of the four dealt in folded
    while not hand.is_over:
        hand.check() if hand.can_check() else hand.show()
    assert hand.result is not None
    # 2950 in the pot: 29 whole dollars, 145 cents; the cap is $2 with four players dealt
    # in, although only two are left (with two or three dealt in it would be $1).
    assert hand.result.rake == 145
    assert sum(hand.result.stacks) + hand.result.rake == 20_000


def test_a_parole_split_gives_two_odd_chips_to_two_different_winners() -> None:
    odd_chip_winners: set[int] = set()
    for seed in range(12):
        hand = _italian_32_to_round_two(seed, folds=0)
        for _ in range(3):
            hand.parol()  # parole
        assert hand.result is not None and hand.result.rake == 30
        (pot,) = hand.result.pots
        assert pot.amount == 620 and pot.winners == (1, 2, 3)  # 206 each, 2 chips over
        assert sorted(pot.shares) == [206, 207, 207]
        odd_chip_winners |= {w for w, s in zip(pot.winners, pot.shares, strict=True) if s == 207}
    assert odd_chip_winners == {1, 2, 3}  # drawn at random, not always the same players


def test_carry_needs_the_end_of_the_hand() -> None:
    with pytest.raises(WrongPhaseError):
        _ = classic().carry


# ----------------------------------------------------------- random play


def snapshot(hand: ItalianHand) -> dict[str, object]:
    caches = ("_values", "_opens", "_opening_test", "_parol_scanned", "_parol_breaker")
    skip = ("rng", "_stock", "_table", "rules", "ranking", "setup", "rake", *caches)
    return copy.deepcopy({k: v for k, v in hand_state(hand).items() if k not in skip})


def any_action(hand: ItalianHand, rng: random.Random) -> Action:
    """A random action, legal or not."""
    kind = rng.choice(list(ActionKind))
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(kind, rng.randint(0, 400))
    if kind is ActionKind.DRAW:
        pool = [c for h in hand.hole for c in h if c is not None] or [Card("Ah")]
        return Action(kind, cards=tuple(rng.sample(pool, min(len(pool), rng.randint(0, 5)))))
    return Action(kind)


@given(st.sampled_from(["italian-classic", "italian-32"]), st.integers(2, 6), st.randoms())
@settings(max_examples=100)
def test_can_is_true_exactly_when_the_action_succeeds(
    rules: str, players: int, rng: random.Random
) -> None:
    players = min(players, 5) if rules == "italian-32" else players
    stakes = {"invito": 10} if rules == "italian-classic" else {"buio": 5}
    hand = ItalianHand(
        rules,
        [rng.randint(5, 300) for _ in range(players)],
        rng=rng,
        ask_show=rng.random() < 0.5,
        **stakes,
    )  # type: ignore[arg-type]
    while not hand.is_over:
        probe = any_action(hand, rng)
        before = snapshot(hand)
        if hand.can(probe):
            hand.apply(probe)
            continue
        with pytest.raises(IllegalActionError):
            hand.apply(probe)
        assert snapshot(hand) == before
        legal = random_action(hand, rng)
        assert hand.can(legal), (legal, hand.legal_actions())
        hand.apply(legal)
    check_cards(hand)
    assert ItalianHand.from_log(hand.log).result == hand.result
    # Written as PHH and read back, the hand replays to the same outcome.
    again = replay_italian(loads(dumps_italian(hand)))
    assert again.result is not None and hand.result is not None
    assert (again.result.stacks, again.result.rake) == (hand.result.stacks, hand.result.rake)
    assert again.carry == hand.carry


PROFILES = [
    ("italian-classic", {"invito": 10}, range(2, 7)),
    ("italian-32", {"buio": 5}, range(2, 6)),
]


@pytest.mark.parametrize(("rules", "stakes", "sizes"), PROFILES, ids=["classic", "32"])
@given(data=st.data())
@settings(max_examples=300)
def test_chips_are_conserved_over_chained_hands(
    rules: str, stakes: dict[str, int], sizes: range, data: st.DataObject
) -> None:
    players = data.draw(st.sampled_from(list(sizes)))
    chain = Chain(rules, players, random.Random(data.draw(st.integers(0, 2**32))), stakes)
    chain.run(12)
    assert sum(chain.chips.values()) + chain.carried + chain.raked == chain.total


@pytest.mark.parametrize(("rules", "stakes", "sizes"), PROFILES, ids=["classic", "32"])
def test_thousands_of_hands_reach_every_outcome(
    rules: str, stakes: dict[str, int], sizes: range
) -> None:
    totals = {"hands": 0, "dead": 0, "parol": 0, "reshuffles": 0, "splits": 0}
    for seed in range(400):
        chain = Chain(rules, sizes[seed % len(sizes)], random.Random(seed), stakes)
        chain.run(12)
        totals["hands"] += chain.hands
        totals["dead"] += chain.dead_hands
        totals["parol"] += chain.parol_pots
        totals["reshuffles"] += chain.reshuffles
        totals["splits"] += chain.splits
    assert totals["hands"] >= 2000
    assert totals["reshuffles"] > 0
    if rules == "italian-classic":
        assert totals["dead"] > 0 and totals["parol"] > 0
    else:
        assert totals["splits"] > 0
