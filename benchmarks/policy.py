"""The random players of the engine benchmark: how often they fold, call and raise."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Policy:
    """A seeded random player: one ``rng.random()`` roll per decision (two for a raise).

    Facing a bet it folds when the roll is below ``fold_below``; when it may
    bet or raise it does so when the roll is at least ``raise_from``;
    otherwise it calls (or checks).  A bet or raise is the minimum with
    probability ``minimum``, otherwise uniform up to all-in.
    """

    name: str
    fold_below: float
    raise_from: float
    minimum: float = 0.7

    def describe(self) -> str:
        """The policy in words.

        >>> LOOSE.describe()
        'facing a bet folds 10%, raises 10%, else calls; bets 10% when it may'
        """
        fold = round(100 * self.fold_below)
        raises = round(100 * (1 - self.raise_from))
        return (
            f"facing a bet folds {fold}%, raises {raises}%, else calls; bets {raises}% when it may"
        )


LOOSE = Policy("loose", fold_below=0.1, raise_from=0.9)
"""A loose, passive player, as at a low-stakes table: most hands reach a showdown
(about 25 actions a six-max Hold'em hand).  The benchmark's policy since it began."""
TIGHT = Policy("tight", fold_below=0.4, raise_from=0.9)
"""One that folds four times as often: fewer actions a hand, fewer showdowns."""
POLICIES = {policy.name: policy for policy in (LOOSE, TIGHT)}


def decide(
    rng: random.Random, to_call: int, bounds: tuple[int, int] | None, policy: Policy = LOOSE
) -> tuple[str, int]:
    """One decision: ``("fold", 0)``, ``("call", 0)`` (check or call) or ``("raise", to)``.

    ``bounds`` are the smallest and largest amounts to bet or raise to, or
    ``None`` when the player may not.  The drivers of our engines write this
    out in their loops (the same draws, so the same decisions; the tests
    compare them) so that the figure is the engine's cost, not the policy's.

    >>> decide(random.Random(1), 0, None)
    ('call', 0)
    """
    roll = rng.random()
    if to_call and roll < policy.fold_below:
        return "fold", 0
    if bounds is not None and roll >= policy.raise_from:
        low, high = bounds
        return "raise", low if rng.random() < policy.minimum else rng.randint(low, high)
    return "call", 0
