"""The :class:`Bot` interface: given what a seat sees and may do, return an action.

A bot never touches the hand or the table: the table (or a simulator) gives
it a :class:`Situation` -- the rule set, the engine's view of the hand from
the bot's seat, the legal actions, the stakes -- and applies what it
returns.  Randomness is injected: every bot takes a ``random.Random``-like
object, so a seeded simulation is repeatable.

>>> import random
>>> bot = make_bot("random", random.Random(1))
>>> isinstance(bot, Bot), bot.kind
(True, 'random')
>>> make_bot("genius", random.Random(1))
Traceback (most recent call last):
...
mazziere.bots.base.UnknownBotError: unknown bot 'genius' (known: basic, random, strong)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mazziere.cards import Card, RandomSource
from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.rules import RuleSet

__all__ = [
    "BOTS",
    "Bot",
    "Situation",
    "UnknownBotError",
    "call_or_check",
    "can_wager",
    "check_or_fold",
    "make_bot",
    "raise_or_call",
    "wager",
]


class UnknownBotError(ValueError):
    """No bot of that name."""


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything a bot may know when it must act.

    ``view`` is the engine's view of the hand from the bot's position (its
    own cards visible, the others' hidden); ``players`` how many were dealt
    in; ``big_bet`` the table's reference bet (the big blind, the over, the
    invito) for sizing.
    """

    rules: RuleSet
    position: int
    players: int
    view: Any
    legal: LegalActions
    big_bet: int

    @property
    def hole(self) -> tuple[Card, ...]:
        """The bot's own cards (empty before the deal, e.g. during a blind opening)."""
        cards = self.view.hole[self.position]
        return tuple(c for c in cards if c is not None)

    @property
    def pot(self) -> int:
        """Every chip in the middle now."""
        return int(getattr(self.view, "total_pot", 0))

    @property
    def live_players(self) -> int:
        """Players still in the hand."""
        folded = getattr(self.view, "folded", ())
        return sum(1 for f in folded if not f) or self.players


def wager(legal: LegalActions, amount: int) -> Action:
    """A bet or raise to ``amount`` clamped into the legal range (all-in at the top).

    >>> legal = LegalActions((0, frozenset({ActionKind.BET, ActionKind.ALL_IN}), 0, 10, 500))
    >>> wager(legal, 3), wager(legal, 120), wager(legal, 9999)
    (Action(kind=<ActionKind.BET: 'bet'>, amount=10, cards=()), \
Action(kind=<ActionKind.BET: 'bet'>, amount=120, cards=()), \
Action(kind=<ActionKind.ALL_IN: 'all-in'>, amount=None, cards=()))
    """
    kind = ActionKind.RAISE if ActionKind.RAISE in legal.kinds else ActionKind.BET
    if kind not in legal.kinds:
        if ActionKind.ALL_IN in legal.kinds:
            return Action.all_in()
        raise ValueError("neither a bet nor a raise is legal now")
    to = min(max(amount, legal.min_to), legal.max_to)
    if to == legal.max_to and ActionKind.ALL_IN in legal.kinds:
        return Action.all_in()
    return Action(kind, to)


def check_or_fold(legal: LegalActions) -> Action:
    """Check if free, else fold (else the timeout, which does the same)."""
    if ActionKind.CHECK in legal.kinds:
        return Action.check()
    if ActionKind.FOLD in legal.kinds:
        return Action.fold()
    return Action.timeout()


def call_or_check(legal: LegalActions) -> Action:
    """Call (all-in if that is the only way), or check when there is nothing to call."""
    if ActionKind.CALL in legal.kinds:
        return Action.call()
    if ActionKind.CHECK in legal.kinds:
        return Action.check()
    if ActionKind.ALL_IN in legal.kinds:
        return Action.all_in()
    return check_or_fold(legal)


def can_wager(legal: LegalActions) -> bool:
    """Whether a bet or a raise is offered."""
    return bool(legal.kinds & {ActionKind.BET, ActionKind.RAISE})


def raise_or_call(legal: LegalActions, amount: int) -> Action:
    """Bet or raise to ``amount`` (clamped, see :func:`wager`) if allowed, else call or check."""
    if can_wager(legal):
        return wager(legal, amount)
    return call_or_check(legal)


class Bot(ABC):
    """A player that decides alone.  Subclasses implement :meth:`act`."""

    kind: ClassVar[str] = "bot"

    def __init__(self, rng: RandomSource) -> None:
        self.rng = rng

    @abstractmethod
    def act(self, situation: Situation) -> Action:
        """The action to take; it must be in ``situation.legal``."""

    def wants_rejoin(self, cost: int, stack: int) -> bool:
        """italian-classic: pay ``cost`` to take part in a parol pot?  Default: if cheap."""
        return cost * 5 <= stack

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


BOTS: dict[str, Callable[[RandomSource], Bot]] = {}
"""Bot factories by name (filled by the bot modules)."""


def make_bot(name: str, rng: RandomSource) -> Bot:
    """A new bot of kind ``name`` (``random``, ``basic`` or ``strong``).

    >>> import random
    >>> make_bot("basic", random.Random(0))
    <BasicBot>
    """
    from mazziere.bots import basic, random_bot, strong  # noqa: F401 - they register themselves

    try:
        factory = BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise UnknownBotError(f"unknown bot {name!r} (known: {known})") from None
    return factory(rng)
