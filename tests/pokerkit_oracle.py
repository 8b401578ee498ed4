"""Play one random Hold'em hand in our engine and in pokerkit, with the same cards and actions.

Used by the differential test.  pokerkit 0.7.7 is the oracle; where its rules
differ from RULES.md on purpose the differences are handled here and counted:

* odd chips: pokerkit gives every odd chip of a split to the first winner; we
  give them one at a time clockwise from the button (RULES.md §1).  With
  three or more winners and two or more odd chips the stacks differ by that;
  the comparison moves those chips back.
* a player who may only check while nobody else can act (a big blind whose
  opponents are all-in for less): pokerkit still asks for the check; we skip it.
* an all-in for less than a full raise: we let a player who already acted
  raise only when facing a full raise more than when they last acted
  (RULES.md §2.6); pokerkit also reopens after any first raise of a round and
  after consecutive short all-ins that add up to a full raise.  The random
  policy draws from our legal actions, so it never needs the extra raises;
  each such refusal is checked to be this difference and nothing else (the
  player already acted, and a short all-in since left them facing less than
  a full raise), so a wrong refusal fails the test.
  The other way round, pokerkit adds up only the short all-ins it counts as
  consecutive: a player who called 14, then faces all-ins to 23, 24 and 27
  (a full raise is 10) faces 13 more, a full raise, and may raise with us;
  pokerkit 0.7.7 counts the last all-in only (3) and refuses.  At such a
  decision (pokerkit's own reason checked, and ours: a full raise more than
  when the player last acted) the random player does not raise, so that
  both engines can go on; it is counted.

pokerkit values every hand again and again at a showdown (it is what makes it
slow); :func:`memoized_pokerkit` caches its pure hand-valuing function during
a test, which changes no result and makes the oracle about four times faster.
"""

from __future__ import annotations

import contextlib
import random
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pokerkit

from mazziere.cards import Card, Deck
from mazziere.game.core import (
    Action,
    ActionKind,
    BetsCollected,
    CardBurned,
    LegalActions,
    PlayerActed,
)
from mazziere.game.holdem import BoardDealt, HoldemHand

_AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


@contextlib.contextmanager
def memoized_pokerkit() -> Iterator[None]:
    """Cache ``StandardHighHand.from_game`` (a pure function of the cards) while inside."""
    hand_type = pokerkit.StandardHighHand
    function = hand_type.from_game.__func__  # inherited: our override is deleted afterwards
    cache: dict[tuple[Any, ...], Any] = {}

    def from_game(cls: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
        key = (cls, tuple(hole_cards), tuple(board_cards))
        value = cache.get(key)
        if value is None:
            try:
                value = function(cls, key[1], key[2])
            except ValueError as exc:
                value = exc
            if len(cache) > 100_000:
                cache.clear()
            cache[key] = value
        if isinstance(value, ValueError):
            raise value
        return value

    hand_type.from_game = classmethod(from_game)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        del hand_type.from_game


@dataclass
class Stats:
    hands: int = 0
    actions: int = 0
    showdowns: int = 0
    side_pots: int = 0
    split_pots: int = 0
    odd_chip_corrections: int = 0
    skipped_checks: int = 0
    all_in_runouts: int = 0
    straddles: int = 0
    decisions_compared: int = 0
    raises_only_pokerkit_allows: int = 0
    raises_only_we_allow: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


def random_action(hand: HoldemHand, rng: random.Random, *, may_raise: bool = True) -> Action:
    """A random legal action: fold, check/call, or (if ``may_raise``) a bet/raise of any size."""
    legal = hand.legal_actions()
    kinds = legal.kinds
    if not may_raise:
        kinds = kinds - {ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN}
    roll = rng.random()
    if ActionKind.FOLD in kinds and legal.to_call and roll < 0.15:
        return Action.fold()
    if ActionKind.FOLD in kinds and not legal.to_call and roll < 0.02:
        return Action.fold()  # folding when checking is free is legal too
    wager = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
    if wager in kinds and roll > 0.70:
        pick = rng.random()
        if pick < 0.35:
            amount = legal.min_to
        elif pick < 0.5:
            amount = legal.max_to
        else:
            amount = rng.randint(legal.min_to, legal.max_to)
        return Action(wager, amount)
    if ActionKind.ALL_IN in kinds and roll > 0.97:
        return Action.all_in()
    return Action.check() if ActionKind.CHECK in kinds else Action.call()


def _compare_legal(ours: HoldemHand, state: pokerkit.State, stats: Stats) -> bool:
    """Same call amount; where we allow a raise pokerkit does, with the same bounds.

    False: a raise that only we allow, for the one reason explained above; the
    player must not raise at this decision.
    """
    legal = ours.legal_actions()
    stats.decisions_compared += 1
    assert state.checking_or_calling_amount == legal.to_call, (
        legal,
        state.checking_or_calling_amount,
    )
    ours_raise = bool(legal.kinds & {ActionKind.BET, ActionKind.RAISE})
    theirs_raise = state.can_complete_bet_or_raise_to()
    if ours_raise and not theirs_raise:
        try:
            state.verify_completion_betting_or_raising_to(legal.min_to)
            reason = ""
        except ValueError as exc:
            reason = str(exc)
        assert "already acted and hence cannot raise in face of a non-full all-in" in reason, (
            f"we allow a raise pokerkit does not: {legal} ({reason})"
        )
        assert ours.current_bet - _last_acted_to(ours, legal.position) >= ours.min_increment, (
            f"we reopened the betting to a player who faces less than a full raise: {legal}"
        )
        stats.raises_only_we_allow += 1
        return False
    if ours_raise:
        assert state.min_completion_betting_or_raising_to_amount == legal.min_to, legal
        assert state.max_completion_betting_or_raising_to_amount == legal.max_to, legal
    elif theirs_raise:
        _assert_short_all_in_refusal(ours, legal)
        stats.raises_only_pokerkit_allows += 1
    return True


def _assert_short_all_in_refusal(hand: HoldemHand, legal: LegalActions) -> None:
    """A raise pokerkit allows and we refuse is the known difference, and nothing else.

    RULES.md §2.6: the player has chips for more than a call, already acted in
    this round, and since then faces less than a full raise, because a short
    all-in raised the bet (pokerkit reopens after a round's first raise and
    after consecutive short all-ins that add up to a full raise).
    """
    position = legal.position
    assert position is not None
    assert hand.stacks[position] > legal.to_call, f"pokerkit raises without the chips: {legal}"
    last_to = _last_acted_to(hand, position)  # fails when the player has not acted yet
    faced = hand.current_bet - last_to
    assert 0 < faced < hand.min_increment, (
        f"we refuse a raise to a player who faces a full raise ({faced} more, a full raise "
        f"is {hand.min_increment}): {legal}"
    )
    since = hand.log[_last_action_index(hand, position) + 1 :]
    assert any(
        isinstance(r, PlayerActed) and r.all_in and r.kind is not ActionKind.CALL for r in since
    ), f"we refuse a raise although no short all-in was made: {legal}"


def _last_acted_to(hand: HoldemHand, position: int | None) -> int:
    """The bet ``position`` made or matched when they last acted in this betting round."""
    record = hand.log[_last_action_index(hand, position)]
    assert isinstance(record, PlayerActed)
    return record.to


def _last_action_index(hand: HoldemHand, position: int | None) -> int:
    """Where in the log ``position`` last acted in this betting round."""
    for index in range(len(hand.log) - 1, -1, -1):
        record = hand.log[index]
        if isinstance(record, BetsCollected):
            break
        if isinstance(record, PlayerActed) and record.position == position:
            return index
    raise AssertionError(f"position {position} has not acted in this round")


def _kind(record: object) -> ActionKind | None:
    return getattr(record, "kind", None)


def _pk_cards(cards: list[Card | None]) -> str:
    return "".join(str(c) for c in cards)


def play_both(rng: random.Random, stats: Stats) -> tuple[list[int], list[int]]:
    """One random hand in both engines; returns (ours, pokerkit's) finishing stacks."""
    n = rng.randint(2, 9)
    big = rng.choice([2, 2, 2, 4, 10])
    small = big // 2 if rng.random() < 0.8 else rng.randint(1, big)
    stacks = [
        rng.choice([rng.randint(1, 30), rng.randint(20, 400), rng.randint(100, 2000)])
        for _ in range(n)
    ]
    ante_kind = rng.random()
    if ante_kind < 0.5:
        antes = [0] * n
    elif ante_kind < 0.8:
        antes = [rng.randint(1, 3)] * n
    else:
        antes = [rng.choice([0, 1, 2, 5]) for _ in range(n)]
    # Unequal antes are dead money (PHH: ante trimming only for uniform antes).
    trimming = len(set(antes)) == 1 and rng.random() < 0.5
    blinds: tuple[int, ...] = (small, big)
    if n >= 3 and rng.random() < 0.15:
        blinds = (small, big, 2 * big) + (0,) * (n - 3)  # a straddle
        stats.straddles += 1
    deck = Deck.standard().shuffled(rng)
    ours = HoldemHand(
        stacks,
        blinds=blinds,
        ante=antes,
        min_bet=big,
        deck=deck,
        antes_dead=not trimming,
    )
    pk_antes = antes[::-1] if n == 2 else antes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = pokerkit.NoLimitTexasHoldem.create_state(
            _AUTOMATIONS,
            trimming,
            pk_antes,
            blinds,
            big,
            stacks,
            n,
            mode=pokerkit.Mode.CASH_GAME,
        )
        # Same cards: one at a time from position 0, twice; burn before each street.
        cards = iter(deck)
        for _ in range(2 * n):
            state.deal_hole(str(next(cards)))
        _sync_dealing(ours, state, 0, stats)
        stats.hands += 1
        while not ours.is_over:
            if ours.actor is None:
                break
            while state.actor_index is not None and state.actor_index != ours.actor:
                raise AssertionError(
                    f"actor: ours {ours.actor}, pokerkit {state.actor_index}; log {ours.log}"
                )
            may_raise = _compare_legal(ours, state, stats)
            action = random_action(ours, rng, may_raise=may_raise)
            before = len(ours.log)
            record = ours.apply(action)
            stats.actions += 1
            stats.kinds[str(_kind(record))] += 1
            if action.kind is ActionKind.FOLD:
                state.fold()
            elif action.kind in (ActionKind.CHECK, ActionKind.CALL) or (
                action.kind is ActionKind.ALL_IN and record.kind is ActionKind.CALL
            ):
                state.check_or_call()
            else:
                to = record.to  # type: ignore[attr-defined]
                state.complete_bet_or_raise_to(to)
            _sync_dealing(ours, state, before, stats)
        # pokerkit may still ask a lone player to check.
        while state.status and state.actor_index is not None:
            assert state.checking_or_calling_amount == 0, "pokerkit expects a real decision"
            state.check_or_call()
            stats.skipped_checks += 1
            _sync_dealing(ours, state, len(ours.log), stats)
    assert ours.is_over and not state.status, "one engine finished, the other did not"
    result = ours.result
    assert result is not None
    expected = list(state.stacks)
    ours_stacks = list(result.stacks)
    for pot in result.pots:
        if len(pot.winners) > 1:
            stats.split_pots += 1
        count = len(pot.winners)
        share, odd = divmod(pot.amount, count)
        if count >= 3 and odd >= 2:
            stats.odd_chip_corrections += 1
            first = min(pot.winners)
            for winner, got in zip(pot.winners, pot.shares, strict=True):
                ours_stacks[winner] += (share + odd if winner == first else share) - got
    if len(result.pots) > 1:
        stats.side_pots += 1
    if len(result.shown) >= 2:
        stats.showdowns += 1
    return ours_stacks, expected


def _sync_dealing(ours: HoldemHand, state: pokerkit.State, start: int, stats: Stats) -> None:
    """Deal pokerkit the burns and boards our engine dealt since log index ``start``."""
    dealt = 0
    for record in ours.log[start:]:
        if isinstance(record, CardBurned):
            while not state.can_burn_card() and state.actor_index is not None:
                assert state.checking_or_calling_amount == 0
                state.check_or_call()
                stats.skipped_checks += 1
            state.burn_card(str(record.card))
        elif isinstance(record, BoardDealt):
            state.deal_board(_pk_cards(list(record.cards)))
            dealt += 1
    if dealt > 1:
        stats.all_in_runouts += 1
