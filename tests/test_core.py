"""The shared core: betting rounds, pots, odd chips, rake, the stock, errors."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from mazziere.cards import Deck, parse_cards
from mazziere.game.core import (
    Action,
    ActionKind,
    ActionNotOfferedError,
    AmountTooLargeError,
    AmountTooSmallError,
    BettingHand,
    CannotBetError,
    CannotCheckError,
    CannotMuckError,
    CannotRaiseError,
    DeckExhaustedError,
    HandOverError,
    HandSetupError,
    IllegalActionError,
    InvalidAmountError,
    MinRaiseRule,
    NothingToCallError,
    NotYourTurnError,
    Phase,
    PlayerActed,
    Pot,
    Rake,
    Stock,
    UncalledBetReturned,
    build_pots,
    split_pot,
)
from mazziere.rules import BettingStructure, OddChipRule
from tests.hand_state import hand_state


class OneRound(BettingHand):
    """One betting round, then a showdown decided by ``ranks`` (higher wins)."""

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        ranks: Sequence[int] | None = None,
        ante: int = 0,
        blinds: Sequence[int] = (),
        min_bet: int = 2,
        first: int = 0,
        ask: bool = False,
        **options: object,
    ) -> None:
        super().__init__(stacks, **options)  # type: ignore[arg-type]
        self.ranks = list(ranks or range(len(stacks)))
        self.ask = ask
        for position in range(self.n):
            if ante:
                self._post_forced(position, ante, kind="ante", live=False)
        for position, blind in enumerate(blinds):
            if blind:
                self._post_forced(position, blind, kind="blind")
        self._begin_round(first, min_bet=min_bet, increment=max(blinds, default=0))

    def _round_over(self) -> None:
        self._begin_showdown(list(range(self.n)), ask=self.ask)

    def _can_win(self, position: int) -> bool | None:
        best = max((self.ranks[i] for i in self.shown), default=-1)
        return self.ranks[position] >= best

    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        top = max(self.ranks[i] for i in eligible)
        return tuple(i for i in eligible if self.ranks[i] == top)


def snapshot(hand: BettingHand) -> dict[str, object]:
    return copy.deepcopy({k: v for k, v in hand_state(hand).items() if k != "rng"})


def total_chips(hand: BettingHand) -> int:
    return sum(hand.stacks) + hand.total_pot


# ------------------------------------------------------------------ pots


def test_side_pots_by_all_in_levels() -> None:
    pots = build_pots([100, 250, 400, 400, 20], [False, False, False, False, True])
    assert pots == (
        Pot(100 * 4 + 20, (0, 1, 2, 3)),
        Pot(150 * 3, (1, 2, 3)),
        Pot(150 * 2, (2, 3)),
    )


def test_dead_money_goes_to_main_pot() -> None:
    pots = build_pots([5, 40, 40], [False, False, False], dead=[10, 10, 10])
    assert pots == (Pot(15 + 30, (0, 1, 2)), Pot(70, (1, 2)))


def test_odd_chips_clockwise_from_button() -> None:
    # Position 0 sits left of the button: it is served first.
    assert split_pot(11, [3, 1, 2]) == (3, 4, 4)
    assert split_pot(10, [0, 1, 2]) == (4, 3, 3)
    assert split_pot(9, [1, 2]) == (5, 4)


def test_odd_chip_random_winner_uses_the_rng() -> None:
    counts = {0: 0, 1: 0}
    rng = random.Random(5)
    for _ in range(400):
        shares = split_pot(3, [0, 1], odd_chip=OddChipRule.RANDOM_WINNER, rng=rng)
        counts[shares.index(2)] += 1
    assert 120 < counts[0] < 280
    with pytest.raises(ValueError, match="random source"):
        split_pot(3, [0, 1], odd_chip=OddChipRule.RANDOM_WINNER)


def test_rake_percent_cap_unit() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=50)
    assert rake.amount(999, players=4) == 49
    assert rake.amount(5000, players=4) == 50
    with pytest.raises(HandSetupError):
        Rake(percent=0.05)  # type: ignore[arg-type]


# ----------------------------------------------------------------- stock


def test_stock_order_then_random_without_repeats() -> None:
    order = parse_cards("Ah Kd 2c")
    stock = Stock(Deck.standard(), order=order, rng=random.Random(1))
    dealt = stock.take(52)
    assert list(dealt[:3]) == order
    assert len(set(dealt)) == 52
    with pytest.raises(DeckExhaustedError):
        stock.draw()
    with pytest.raises(HandSetupError, match="twice"):
        Stock(Deck.standard(), order=parse_cards("Ah") * 2)


# --------------------------------------------------------------- betting


def test_min_raise_is_largest_increment() -> None:
    hand = OneRound([1000] * 4, blinds=(0, 0))
    hand.bet(10)
    hand.raise_to(40)  # +30
    legal = hand.legal_actions()
    assert (legal.to_call, legal.min_to, legal.max_to) == (40, 70, 1000)
    with pytest.raises(AmountTooSmallError, match="at least 70"):
        hand.raise_to(69)
    with pytest.raises(AmountTooLargeError):
        hand.raise_to(1001)


def test_short_all_in_does_not_reopen_betting() -> None:
    hand = OneRound([1000, 1000, 130, 1000])
    hand.bet(100)  # position 0
    hand.call()  # 1
    record = hand.all_in()  # 2: to 130, +30 < 100
    assert record.kind is ActionKind.RAISE and record.all_in
    hand.call()  # 3 (had not acted: may call; could have raised)
    assert hand.actor == 0
    legal = hand.legal_actions()
    assert ActionKind.RAISE not in legal.kinds and legal.to_call == 30
    with pytest.raises(CannotRaiseError, match="did not reopen"):
        hand.raise_to(300)
    hand.call()
    hand.call()
    assert hand.is_over


def test_player_who_has_not_acted_may_raise_after_short_all_in() -> None:
    hand = OneRound([1000, 130, 1000])
    hand.bet(100)
    hand.all_in()  # 130
    assert ActionKind.RAISE in hand.legal_actions().kinds
    assert hand.legal_actions().min_to == 230


def test_two_short_all_ins_adding_to_a_full_raise_reopen() -> None:
    hand = OneRound([1000, 160, 220, 1000])
    hand.bet(100)
    hand.all_in()  # 160: +60
    hand.all_in()  # 220: +60; position 0 now faces 120 >= 100
    hand.call()
    assert hand.actor == 0
    assert ActionKind.RAISE in hand.legal_actions().kinds


def test_short_all_in_bet_below_minimum() -> None:
    hand = OneRound([1000, 1000, 1], min_bet=2)
    hand.check()
    hand.check()
    hand.all_in()  # a bet of 1, under the minimum: allowed all-in
    legal = hand.legal_actions()
    assert legal.to_call == 1 and ActionKind.RAISE not in legal.kinds  # 0 checked: not reopened


def test_uncalled_bet_returned() -> None:
    hand = OneRound([1000, 300], ranks=[0, 1])
    hand.bet(500)
    hand.call()  # all-in for 300
    assert UncalledBetReturned((0, 200)) in hand.log
    assert hand.result is not None
    assert hand.result.stacks == (700, 600)


def test_everyone_folds_pot_goes_to_last_player() -> None:
    hand = OneRound([100, 100, 100], ante=1)
    hand.bet(10)
    hand.fold()
    hand.fold()
    assert hand.is_over
    assert hand.result is not None and hand.result.stacks == (102, 99, 99)


def test_illegal_actions_change_nothing() -> None:
    hand = OneRound([100, 100, 100], blinds=(1, 2), first=2)
    attempts = [
        (NotYourTurnError, lambda: hand.fold(0)),
        (CannotCheckError, hand.check),
        (CannotBetError, lambda: hand.bet(10)),
        (AmountTooSmallError, lambda: hand.raise_to(3)),
        (AmountTooLargeError, lambda: hand.raise_to(101)),
        (InvalidAmountError, lambda: hand.raise_to(4.0)),  # type: ignore[arg-type]
        (InvalidAmountError, lambda: hand.apply(Action(ActionKind.RAISE))),
        (ActionNotOfferedError, lambda: hand.apply(Action(ActionKind.DRAW))),
        (IllegalActionError, hand.show),
        (IllegalActionError, hand.muck),
    ]
    before = snapshot(hand)
    for error, attempt in attempts:
        with pytest.raises(error):
            attempt()
        assert snapshot(hand) == before
    hand.call()
    hand.call()
    with pytest.raises(NothingToCallError):
        hand.call()
    hand.check()
    with pytest.raises(HandOverError):
        hand.check()


def test_timeout_checks_if_free_else_folds() -> None:
    hand = OneRound([100, 100, 100])
    record = hand.timeout()
    assert isinstance(record, PlayerActed) and record.kind is ActionKind.CHECK and record.timed_out
    hand.bet(10)
    record = hand.timeout()
    assert isinstance(record, PlayerActed) and record.kind is ActionKind.FOLD


def test_call_only_players() -> None:
    hand = OneRound([100, 100, 100])
    hand.call_only[1] = True
    hand.bet(10)
    assert hand.legal_actions().kinds == {
        ActionKind.FOLD,
        ActionKind.CALL,
        ActionKind.TIMEOUT,
    }
    with pytest.raises(CannotRaiseError, match="only call or fold"):
        hand.raise_to(20)


def test_pot_limit_maximum() -> None:
    hand = OneRound(
        [1000] * 3, blinds=(1, 2), first=2, structure=BettingStructure.POT_LIMIT, min_bet=2
    )
    legal = hand.legal_actions()
    # pot 3, call 2 -> pot 5; raise by 5 to 7
    assert (legal.min_to, legal.max_to) == (4, 7)
    assert ActionKind.ALL_IN not in legal.kinds
    hand.raise_to(7)
    legal = hand.legal_actions()  # small blind: pot 10, call 6 -> 16; to 7 + 16 = 23
    assert legal.max_to == 23


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (MinRaiseRule.LARGEST_INCREMENT, 160 + 80),
        (MinRaiseRule.LAST_INCREMENT, 160 + 60),
        (MinRaiseRule.OPENING_BET, 160 + 20),
    ],
)
def test_min_raise_rules(rule: MinRaiseRule, expected: int) -> None:
    hand = OneRound([1000, 1000, 160, 1000], min_raise_rule=rule)
    hand.bet(20)
    hand.raise_to(100)  # +80
    hand.all_in()  # 160: +60
    assert hand.legal_actions().min_to == expected


def test_showdown_muck_only_when_beaten() -> None:
    hand = OneRound([100, 100, 100], ranks=[5, 9, 1], ask=True)
    hand.check()
    hand.check()
    hand.check()
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 0
    hand.show()
    assert hand.actor == 1
    with pytest.raises(CannotMuckError):
        hand.muck()
    hand.show()
    assert hand.can_muck()
    hand.timeout()  # beaten: mucks
    assert hand.result is not None and hand.result.payoffs == (0, 0, 0)
    assert set(hand.result.shown) == {0, 1}


def test_chips_conserved_through_a_split() -> None:
    hand = OneRound([50, 100, 100, 100], ranks=[9, 9, 3, 9], ante=1)
    before = total_chips(hand)
    hand.all_in()
    hand.all_in()
    hand.call()
    hand.call()
    assert hand.result is not None
    assert sum(hand.result.stacks) == before
    main = hand.result.pots[0]
    assert main.winners == (0, 1, 3) and sum(main.shares) == main.amount


def test_the_stock_deals_as_the_generator_would_draw() -> None:
    # A seed gives the same cards whichever way they are dealt (take, draw),
    # and the same as random.Random's own unbiased draw below k.
    for seed in range(100):
        stock = Stock(Deck.standard(), rng=random.Random(seed))
        dealt = [*stock.take(12), stock.draw(), *stock.take(3), *stock.take(36)]
        reference = random.Random(seed)
        remaining = list(Deck.standard())
        expected = []
        for _ in range(52):
            j = reference.randrange(len(remaining))
            expected.append(remaining[j])
            remaining[j] = remaining[-1]
            remaining.pop()
        assert dealt == expected


def test_records_are_values_of_their_own_class() -> None:
    import pickle

    from mazziere.game.core import CardsMucked, CardsShown, RakeTaken

    acted = PlayerActed((2, ActionKind.CALL, 4, 6, False, False))  # built from its fields
    assert acted.all_in is False and acted.timed_out is False
    assert acted == PlayerActed([2, ActionKind.CALL, 4, 6, False, False])
    assert hash(acted) == hash(PlayerActed((2, ActionKind.CALL, 4, 6, False, False)))
    # A tuple underneath, but equal only to a record of the same class.
    assert CardsMucked((3,)) != (3,) and CardsMucked((3,)) != RakeTaken((3,))
    assert (CardsMucked((3,)) == RakeTaken((3,))) is False
    assert repr(acted) == (
        "PlayerActed(position=2, kind=<ActionKind.CALL: 'call'>, added=4, to=6,"
        " all_in=False, timed_out=False)"
    )
    assert acted.to_dict() == {
        "type": "action",
        "position": 2,
        "kind": "call",
        "added": 4,
        "to": 6,
        "all_in": False,
        "timed_out": False,
    }
    shown = CardsShown((1, tuple(parse_cards("Ah Kd"))))
    assert shown.to_dict()["cards"] == ["Ah", "Kd"]
    for record in (acted, shown, CardsMucked((0,))):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.deepcopy(record) == record and type(copy.copy(record)) is type(record)
    with pytest.raises(AttributeError):
        acted.added = 5  # type: ignore[misc]
    match acted:
        case PlayerActed(position, kind, added):
            assert (position, kind, added) == (2, ActionKind.CALL, 4)
        case _:
            pytest.fail("a record matches its class pattern")
