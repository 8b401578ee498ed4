"""The engine's behaviour, pinned: thousands of seeded random hands hashed into one digest.

Each rule set plays a few thousand hands from fixed seeds: varied tables
(players, short stacks, antes, straddles, rake, the three minimum-raise rules,
pot limit, asked showdowns) and, for Poker all'italiana, tables that deal hand
after hand through :func:`next_hand` (dead hands, parol pots, rejoin dues,
missed-blind posts).  At every decision the legal actions are hashed, then a
random action is tried: usually a legal one, sometimes one drawn from every
kind with odd amounts, whose refusal (error class and message) is hashed too.
Every record of the log, the result and the carry go into the digest.

A digest that changes means the engine deals, offers, refuses, records or
pays differently for the same seed: a refactoring must leave it alone.  A
deliberate change of behaviour updates the digest in the same commit and
says why.  Part of the hands draw their cards from a random source that
overrides ``random()`` and ``getrandbits()`` (as a provably fair deck does).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from fractions import Fraction

import pytest

from mazziere.game.core import (
    Action,
    ActionKind,
    BettingHand,
    IllegalActionError,
    MinRaiseRule,
    Phase,
    Rake,
)
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand, next_hand
from mazziere.rules import HOLDEM, BettingStructure, find_rules

HANDS = 2500


class HashChainRandom(random.Random):
    """A random source that overrides ``random()`` and ``getrandbits()``: SHA-256 of a counter."""

    def __init__(self, seed: int) -> None:
        self._key = seed.to_bytes(8, "big")
        self._counter = 0
        super().__init__(seed)

    def getrandbits(self, k: int, /) -> int:
        out = 0
        got = 0
        while got < k:
            self._counter += 1
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            out = out << 256 | int.from_bytes(block, "big")
            got += 256
        return out >> (got - k)

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)


class Digest:
    """Everything the hands did, in order, as one SHA-256."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.errors = 0
        self.actions = 0

    def add(self, data: object) -> None:
        self._hash.update(json.dumps(data, sort_keys=True, default=str).encode())
        self._hash.update(b"\n")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


KINDS = [kind for kind in ActionKind if kind is not ActionKind.DRAW]


def probe(hand: BettingHand, rng: random.Random) -> Action:
    """Any kind of action with an odd amount: often illegal, to pin the refusals."""
    legal = hand.legal_actions()
    kind = rng.choice(KINDS)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        amount = rng.choice(
            [legal.min_to - 1, legal.max_to + 1, 0, rng.randint(0, 3 * max(legal.max_to, 1))]
        )
        return Action(kind, amount)
    return Action(kind)


def choose(hand: BettingHand, rng: random.Random) -> Action:
    """A random legal action: wagers of several sizes, folds, parol, draws of any size."""
    legal = hand.legal_actions()
    kinds = sorted(legal.kinds - {ActionKind.TIMEOUT}, key=lambda k: k.value)
    if not kinds or rng.random() < 0.03:
        return Action.timeout()
    kind = rng.choice(kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        low, high = legal.min_to, legal.max_to
        return Action(kind, rng.choice([low, low, high, rng.randint(low, high)]))
    if kind is ActionKind.DRAW:
        assert legal.position is not None
        held = list(hand.hole[legal.position])
        return Action(kind, cards=tuple(rng.sample(held, rng.randint(0, legal.max_to))))  # type: ignore[arg-type]
    if kind is ActionKind.FOLD and not legal.to_call and rng.random() < 0.8:
        return Action.check() if ActionKind.CHECK in legal.kinds else Action(kind)
    return Action(kind)


def play(hand: BettingHand, rng: random.Random, digest: Digest) -> None:
    """Play ``hand`` to the end, hashing legal actions, refusals and records as they come."""
    digest.add([record.to_dict() for record in hand.log])  # the setup, forced bets, the deal
    while not hand.is_over:
        digest.add(hand.legal_actions().to_dict())
        action = probe(hand, rng) if rng.random() < 0.15 else choose(hand, rng)
        before = len(hand.log)
        try:
            hand.apply(action)
        except IllegalActionError as error:
            assert len(hand.log) == before
            digest.errors += 1
            digest.add([str(action), type(error).__name__, str(error)])
            continue
        digest.actions += 1
        digest.add([record.to_dict() for record in hand.log[before:]])
    assert hand.phase is Phase.OVER and hand.result is not None
    digest.add(hand.result.to_dict())


POT_LIMIT_HOLDEM = dataclasses.replace(
    HOLDEM, name="holdem-pot-limit", betting_structure=BettingStructure.POT_LIMIT
)


def holdem_digest(seed: int, hands: int) -> Digest:
    rng = random.Random(seed)
    digest = Digest()
    for number in range(hands):
        players = rng.randint(2, 9)
        stacks = [rng.choice((3, 10, 40, 200, 1000)) + rng.randint(0, 30) for _ in range(players)]
        shape = rng.random()
        if shape < 0.6 or players == 2:
            blinds: tuple[int, ...] = rng.choice(((1, 2), (5, 10), (2, 2)))
        elif shape < 0.8:
            blinds = (1, 2, 4) + (0,) * (players - 3)  # a straddle
        else:
            blinds = (1, 2) + (0,) * (players - 3) + (-2,)  # a returning player's post
        ante: int | list[int] = rng.choice((0, 0, 0, 1, 2))
        if rng.random() < 0.1:
            ante = [rng.choice((0, 1, 3)) for _ in range(players)]
        rake = Rake(percent=Fraction(5, 100), cap=30) if rng.random() < 0.2 else None
        source = HashChainRandom(number) if number % 5 == 0 else rng
        hand = HoldemHand(
            stacks,
            blinds=blinds,
            ante=ante,
            antes_dead=rng.random() < 0.3,
            min_raise_rule=rng.choice(list(MinRaiseRule)),
            rake=rake,
            ask_show=rng.random() < 0.3,
            rules=POT_LIMIT_HOLDEM if rng.random() < 0.2 else HOLDEM,
            rng=source,
        )
        play(hand, rng, digest)
    return digest


def italian_digest(rules: str, seed: int, hands: int) -> Digest:
    """Tables of ``rules`` dealing hand after hand through the carry until ``hands`` are played."""
    rule_set = find_rules(rules)
    rng = random.Random(seed)
    digest = Digest()
    played = 0
    table = 0
    while played < hands:
        table += 1
        players = rng.randint(rule_set.min_players, rule_set.max_players)
        chips = [rng.randint(5, 300) for _ in range(players)]
        seats = list(range(players))
        stakes: dict[str, int] = (
            {"invito": rng.choice((2, 5))} if rule_set.uses_invito else {"buio": rng.choice((1, 5))}
        )
        if rng.random() < 0.2:
            stakes["min_bet"] = 10
        structure = BettingStructure.POT_LIMIT if rng.random() < 0.2 else None
        arguments: dict[str, object] = {}
        source = HashChainRandom(table) if table % 5 == 0 else rng
        for _ in range(rng.randint(1, 12)):
            if len(seats) < 2 or played >= hands:
                break
            stacks = [chips[s] for s in seats]
            these: dict[str, object] = dict(stakes)
            if arguments.get("parol_pot") and rng.random() < 0.5:
                these["invito"] = 0  # a cash table: no invito in a parol pot
                these["min_bet"] = 10
            if (
                rule_set.missed_blind_penalties
                and not arguments
                and len(seats) == 5
                and rng.random() < 0.3
            ):
                these["posts"] = [0, 0, 0, 0, 4 * stakes["buio"]]  # back from missing blinds
            hand = ItalianHand(
                rules,
                stacks,
                rng=source,
                ask_show=rng.random() < 0.5,
                structure=structure,
                **these,  # type: ignore[arg-type]
                **arguments,  # type: ignore[arg-type]
            )
            play(hand, rng, digest)
            played += 1
            carry = hand.carry
            digest.add(carry.to_dict())
            assert hand.result is not None
            for seat, stack in zip(seats, hand.result.stacks, strict=True):
                chips[seat] = stack
            declined = [p for p in range(len(seats)) if rng.random() < 0.1]
            plan = next_hand(carry, hand.result.stacks, declined=declined)
            digest.add([list(plan.seats), list(plan.passed), dict(plan.arguments)])
            seats = [seats[p] for p in plan.seats]
            arguments = dict(plan.arguments)
    return digest


# The digests of the engine's behaviour on these seeds (see the module's docstring).
EXPECTED = {
    "holdem": "3dacb226fe51c99521be403ca161b22ffe3e0943472778c67078f4a74e056843",
    "italian-classic": "dcc2623eb310ee45b8859bf99b0d61435a7011adf89ae8bd200cacee051452bd",
    "italian-32": "174f8d830aa7995685ff439eb11119a094f0f8331ea8d61bdfb70e26904a45fb",
}


def digest_of(rules: str) -> Digest:
    if rules == "holdem":
        return holdem_digest(13, HANDS)
    return italian_digest(rules, 13, HANDS)


@pytest.mark.parametrize("rules", sorted(EXPECTED))
def test_seeded_hands_play_as_they_always_have(rules: str) -> None:
    digest = digest_of(rules)
    # The hands reach the rare paths: refusals of every kind, and many actions.
    assert digest.errors > HANDS // 2
    assert digest.actions > 4 * HANDS
    assert digest.hexdigest() == EXPECTED[rules]


def test_the_digest_sees_a_change_of_one_card() -> None:
    one, other = holdem_digest(1, 3), holdem_digest(2, 3)
    assert one.hexdigest() != other.hexdigest()
    assert holdem_digest(1, 3).hexdigest() == one.hexdigest()
