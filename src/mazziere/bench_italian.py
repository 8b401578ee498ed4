"""Random Italian hands for ``mazziere bench engine --rules italian-classic`` (or ``italian-32``).

The policy is the Hold'em benchmark's (:func:`mazziere.bench_engine.decide`,
written out in the loop as the Hold'em driver does: fold, call or raise with
the same odds), plus what only Italian poker asks:
before the deal the player offered the blind opens blind as often as it would
bet; in the draw each player changes 0 to 4 random cards (its first
k, k uniform: the deal already put them in random order); in the last round a
player offered parol says it one time in three.  Each hand is a new hand with
the same stacks (a dead hand or a parol pot counts as a hand played).

>>> play_italian_classic_hands(20, seed=1) > 20
True
>>> play_italian_32_hands(20, seed=1) > 20
True
"""

from __future__ import annotations

import random

from mazziere.game.core import ActionKind, Phase
from mazziere.game.italian import ItalianHand

__all__ = ["SETUPS", "play_italian_32_hands", "play_italian_classic_hands", "play_italian_hands"]

SETUPS = {
    "italian-classic": {"players": 6, "stack": 200, "stakes": {"invito": 2}},
    "italian-32": {"players": 5, "stack": 200, "stakes": {"buio": 1}},
}
"""Players, stacks and stakes of the benchmark's hands, by rule set."""


def play_italian_hands(rules: str, hands: int, seed: int) -> int:
    """Play ``hands`` random hands of ``rules``; return how many actions the players made."""
    setup = SETUPS[rules]
    players, stack = int(setup["players"]), int(setup["stack"])  # type: ignore[call-overload]
    stakes: dict[str, int] = setup["stakes"]  # type: ignore[assignment]
    rng = random.Random(seed)
    draw, randint, getrandbits = rng.random, rng.randint, rng.getrandbits
    actions = 0
    # Enum members read once, as the Hold'em driver does: the engine's cost is what is timed.
    draw_phase, betting_phase = Phase.DRAW, Phase.BETTING
    parol_kind, raise_kind, bet_kind = ActionKind.PAROL, ActionKind.RAISE, ActionKind.BET
    stacks = [stack] * players
    for _ in range(hands):
        hand = ItalianHand(rules, stacks, rng=rng, **stakes)  # type: ignore[arg-type]
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
            if to_call and roll < 0.1:
                if phase is betting_phase:
                    hand.fold()
                else:
                    hand.call()
            elif roll >= 0.9 and (raise_kind in kinds or bet_kind in kinds):
                to = low if draw() < 0.7 else randint(low, high)
                hand.raise_to(to) if raise_kind in kinds else hand.bet(to)
            elif to_call:
                hand.call()
            else:
                hand.check()
    return actions


def play_italian_classic_hands(hands: int, seed: int) -> int:
    """Random six-player italian-classic hands (40 cards), stacks 200, invito 2."""
    return play_italian_hands("italian-classic", hands, seed)


def play_italian_32_hands(hands: int, seed: int) -> int:
    """Random five-player italian-32 hands, stacks 200, buio 1 (controbuio 2, over 4)."""
    return play_italian_hands("italian-32", hands, seed)
