"""Invariants of the Hold'em engine, by Hypothesis.

* Chips are conserved after every operation: stacks + pots + bets + rake is
  what the players brought.
* ``can(action)`` is true exactly when ``apply(action)`` succeeds, for legal
  and illegal actions alike, and an action that fails changes nothing.
* ``legal_actions()`` lists exactly the kinds that can be done.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from mazziere.game.core import Action, ActionKind, IllegalActionError, Rake
from mazziere.game.holdem import HoldemHand

KINDS = list(ActionKind)


def fingerprint(hand: HoldemHand) -> tuple[object, ...]:
    return (
        tuple(hand.stacks),
        tuple(hand.bets),
        tuple(hand.committed),
        tuple(hand.dead),
        tuple(hand.folded),
        hand.actor,
        hand.phase,
        hand.current_bet,
        hand.min_increment,
        len(hand.log),
        tuple(hand.shown),
    )


def chips(hand: HoldemHand) -> int:
    return sum(hand.stacks) + hand.total_pot + hand.rake_taken


hands = st.builds(
    dict,
    n=st.integers(2, 9),
    stacks=st.lists(st.integers(1, 400), min_size=9, max_size=9),
    small=st.integers(0, 5),
    big=st.integers(1, 10),
    ante=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    ask_show=st.booleans(),
    antes_dead=st.booleans(),
    raked=st.booleans(),
)


def new_hand(spec: dict[str, int]) -> HoldemHand:
    n = spec["n"]
    return HoldemHand(
        spec["stacks"][:n],
        blinds=(min(spec["small"], spec["big"]), spec["big"]),
        ante=spec["ante"],
        rng=random.Random(spec["seed"]),
        ask_show=bool(spec["ask_show"]),
        antes_dead=bool(spec["antes_dead"]),
        rake=Rake(percent=Fraction(1, 20), cap=5) if spec["raked"] else None,
    )


@given(
    spec=hands, choices=st.lists(st.tuples(st.integers(0, 200), st.integers(-5, 500)), max_size=80)
)
def test_chips_conserved_and_can_matches_apply(
    spec: dict[str, int], choices: list[tuple[int, int]]
) -> None:
    hand = new_hand(spec)
    total = sum(hand.starting_stacks)
    assert chips(hand) == total
    for pick, raw in choices:
        amount = raw
        if hand.is_over:
            break
        legal = hand.legal_actions()
        # half the time a legal action, otherwise anything at all
        if pick % 2 and legal.kinds:
            kind = sorted(legal.kinds)[pick % len(legal.kinds)]
            if kind in (ActionKind.BET, ActionKind.RAISE):
                amount = legal.min_to + amount % (legal.max_to - legal.min_to + 1)
        else:
            kind = KINDS[pick % len(KINDS)]
        action = Action(kind, amount if kind in (ActionKind.BET, ActionKind.RAISE) else None)
        before = fingerprint(hand)
        allowed = hand.can(action)
        assert allowed == (action in legal)
        try:
            hand.apply(action)
        except IllegalActionError:
            assert not allowed
            assert fingerprint(hand) == before
        else:
            assert allowed
        assert chips(hand) == total
        assert min(hand.stacks) >= 0
    while not hand.is_over:  # finish with timeouts: check or fold, muck or show
        hand.timeout()
        assert chips(hand) == total
    assert hand.result is not None
    assert sum(hand.result.stacks) + hand.result.rake == total
    assert sum(hand.result.payoffs) == -hand.result.rake


@given(spec=hands, seed=st.integers(0, 2**32))
def test_legal_actions_are_exactly_what_can_be_done(spec: dict[str, int], seed: int) -> None:
    hand = new_hand(spec)
    rng = random.Random(seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        for kind in KINDS:
            if kind in (ActionKind.BET, ActionKind.RAISE):
                can = any(hand.can(Action(kind, a)) for a in (legal.min_to, legal.max_to))
                if kind in legal.kinds:
                    assert hand.can(Action(kind, legal.min_to))
                    assert hand.can(Action(kind, legal.max_to))
                    assert not hand.can(Action(kind, legal.max_to + 1))
                    if legal.min_to > 1:
                        assert not hand.can(Action(kind, legal.min_to - 1))
            else:
                can = hand.can(Action(kind))
            assert can == (kind in legal.kinds), (kind, legal)
        kind = rng.choice(sorted(legal.kinds))
        amount = rng.randint(legal.min_to, legal.max_to) if kind in ("bet", "raise") else None
        hand.apply(Action(kind, amount))
