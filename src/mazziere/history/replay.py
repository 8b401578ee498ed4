"""Replaying hand histories: a registry from PHH variant code to the function that replays it.

Each game registers the codes it can replay (Hold'em: ``NT``, in
:mod:`mazziere.history.holdem`); another game adds its own with
:func:`register_variant`, or a line in :data:`VARIANTS` naming its function
(imported when first used).  A replay function takes a
:class:`~mazziere.history.phh.PhhHand` and returns an :class:`Outcome`, or
raises :class:`ReplayError` with the reason.

>>> from mazziere.history.phh import loads
>>> hand = loads('''variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [0.50, 1, 0]
... min_bet = 1
... starting_stacks = [200.30, 81.60, 197]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
... ''')
>>> outcome = replay_hand(hand).to_dict()
>>> outcome["finishing_stacks"], outcome["payoffs"], outcome["error"]
(['201.30', '80.60', '197.00'], ['1.00', '-1.00', '0.00'], None)
>>> replay_hand(hand.replace(variant="FB")).error
"variant 'FB' cannot be replayed (known: NI32, NIC, NT, PI32, PIC)"
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from mazziere.history.phh import PHHError, PhhHand, format_amount, loads_many

__all__ = [
    "VARIANTS",
    "Outcome",
    "ReplayError",
    "register_variant",
    "replay_hand",
    "replay_text",
]


class ReplayError(ValueError):
    """A hand history that cannot be replayed; the message says why."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a replayed hand in the file's units: finishing stacks and payoffs, or an error.

    An unknown starting stack (``inf``) finishes as ``inf``; its payoff is exact.
    """

    finishing_stacks: tuple[Decimal, ...] = ()
    payoffs: tuple[Decimal, ...] = ()
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"finishing_stacks": [...], "payoffs": [...], "error": ...}``; amounts as text."""
        if self.error is not None:
            return {"finishing_stacks": None, "payoffs": None, "error": self.error}
        return {
            "finishing_stacks": [format_amount(v) for v in self.finishing_stacks],
            "payoffs": [format_amount(v) for v in self.payoffs],
            "error": None,
        }


Replayer = Callable[[PhhHand], Outcome]

VARIANTS: dict[str, str | Replayer] = {
    "NT": "mazziere.history.holdem:replay_nt",
    "NIC": "mazziere.history.phh_italian:replay_outcome",
    "PIC": "mazziere.history.phh_italian:replay_outcome",
    "NI32": "mazziere.history.phh_italian:replay_outcome",
    "PI32": "mazziere.history.phh_italian:replay_outcome",
}
"""Variant code -> replay function, or ``"module:function"`` imported when first used."""


def register_variant(code: str, replayer: str | Replayer) -> None:
    """Make ``code`` replayable by ``replayer`` (a function or ``"module:function"``).

    >>> register_variant("XX", lambda hand: Outcome(error="not yet"))
    >>> replay_hand(PhhHand({"variant": "XX"})).error
    'not yet'
    >>> del VARIANTS["XX"]
    """
    VARIANTS[code] = replayer


def _replayer(code: str) -> Replayer:
    target = VARIANTS.get(code)
    if target is None:
        known = ", ".join(sorted(VARIANTS))
        raise ReplayError(f"variant {code!r} cannot be replayed (known: {known})")
    if isinstance(target, str):
        module, _, name = target.partition(":")
        function: Replayer = getattr(importlib.import_module(module), name)
        VARIANTS[code] = function
        return function
    return target


def replay_hand(hand: PhhHand) -> Outcome:
    """Replay one hand; a hand that cannot be replayed gives an :class:`Outcome` with its error."""
    try:
        return _replayer(hand.variant)(hand)
    except (ReplayError, PHHError) as exc:
        return Outcome(error=str(exc))


def replay_text(text: str) -> list[Outcome]:
    """Replay every hand of a ``.phh`` or ``.phhs`` text, in order.

    A section that cannot be read or replayed gets its error; the others still run.
    """
    outcomes = []
    for section in loads_many(text):
        if section.hand is None:
            outcomes.append(Outcome(error=section.error))
        else:
            outcomes.append(replay_hand(section.hand))
    return outcomes
