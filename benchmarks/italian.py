"""Random Italian hands for ``python -m benchmarks engine --rules italian-classic`` (or 32).

The policy is the Hold'em benchmark's (:func:`benchmarks.policy.decide`,
written out in the loop as the Hold'em driver does: fold, call or raise with
the same odds), plus what only Italian poker asks:
before the deal the player offered the blind opens blind as often as it would
bet; in the draw each player changes 0 to 4 random cards (its first
k, k uniform: the deal already put them in random order); in the last round a
player offered parol says it one time in three.  Each hand is a new hand with
the same stacks (a dead hand or a parol pot counts as a hand played).

>>> from benchmarks.policy import LOOSE
>>> play_italian_classic_hands(20, 1, LOOSE) > 20
True
>>> play_italian_32_hands(20, 1, LOOSE) > 20
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from benchmarks.policy import Policy
from mazziere.game.core import ActionKind, Phase
from mazziere.game.italian import ItalianHand


@dataclass(frozen=True)
class Table:
    """Players, stacks and stakes of the benchmark's hands of one rule set."""

    players: int
    stack: int
    stakes: dict[str, int] = field(default_factory=dict)


TABLES = {
    "italian-classic": Table(players=6, stack=200, stakes={"invito": 2}),
    "italian-32": Table(players=5, stack=200, stakes={"buio": 1}),
}
"""The benchmark's table, by rule set."""


def play_italian_hands(rules: str, hands: int, seed: int, policy: Policy) -> int:
    """Play ``hands`` random hands of ``rules``; return how many actions the players made."""
    table = TABLES[rules]
    rng = random.Random(seed)
    draw, randint, getrandbits = rng.random, rng.randint, rng.getrandbits
    fold_below, raise_from, minimum = policy.fold_below, policy.raise_from, policy.minimum
    actions = 0
    # Enum members read once, as the Hold'em driver does: the engine's cost is what is timed.
    draw_phase, betting_phase = Phase.DRAW, Phase.BETTING
    parol_kind, raise_kind, bet_kind = ActionKind.PAROL, ActionKind.RAISE, ActionKind.BET
    stacks = [table.stack] * table.players
    for _ in range(hands):
        hand = ItalianHand(rules, stacks, rng=rng, **table.stakes)  # type: ignore[arg-type]
        while (actor := hand.actor) is not None:
            actions += 1
            phase = hand.phase
            if phase is draw_phase:
                # The cards were dealt in random order: the first k are k random cards.
                # rng.randrange(5), written out: the same rejection on 3 random bits
                count = getrandbits(3)
                while count >= 5:
                    count = getrandbits(3)
                hand.draw(hand.hole[actor][:count])  # type: ignore[arg-type]
                continue
            _, kinds, to_call, low, high = hand.legal_actions()
            if parol_kind in kinds and draw() < 1 / 3:
                hand.parol()
                continue
            # decide(), written out as in the Hold'em driver (the same draws)
            roll = draw()
            if to_call and roll < fold_below:
                if phase is betting_phase:
                    hand.fold()
                else:
                    hand.call()
            elif roll >= raise_from and (raise_kind in kinds or bet_kind in kinds):
                to = low if draw() < minimum else randint(low, high)
                hand.raise_to(to) if raise_kind in kinds else hand.bet(to)
            elif to_call:
                hand.call()
            else:
                hand.check()
    return actions


def play_italian_classic_hands(hands: int, seed: int, policy: Policy) -> int:
    """Random six-player italian-classic hands (40 cards), stacks 200, invito 2."""
    return play_italian_hands("italian-classic", hands, seed, policy)


def play_italian_32_hands(hands: int, seed: int, policy: Policy) -> int:
    """Random five-player italian-32 hands, stacks 200, buio 1 (controbuio 2, over 4)."""
    return play_italian_hands("italian-32", hands, seed, policy)
