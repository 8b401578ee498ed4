"""The random bot: a uniformly random legal action, with sane bet sizes.

It picks one of the legal kinds of action with equal chance (never the
timeout; all-in is a size, not a kind, when a bet, raise or call is
possible); a bet or raise is the minimum, half the pot, the pot or, rarely,
everything; a draw changes a random number of random cards.

>>> import random
>>> from mazziere.game.core import LegalActions
>>> kinds = frozenset({ActionKind.FOLD, ActionKind.CALL, ActionKind.TIMEOUT})
>>> legal = LegalActions((0, kinds, 5, 0, 0))
>>> bot = RandomBot(random.Random(3))
>>> {bot.choose_kind(legal) for _ in range(50)} == {ActionKind.FOLD, ActionKind.CALL}
True
"""

from __future__ import annotations

from mazziere.bots.base import BOTS, Bot, Situation, wager
from mazziere.game.core import Action, ActionKind, LegalActions

__all__ = ["RandomBot"]

_NEVER = frozenset({ActionKind.TIMEOUT})
_WAGERS = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.CALL})


class RandomBot(Bot):
    """Uniformly random legal actions."""

    kind = "random"

    def choose_kind(self, legal: LegalActions) -> ActionKind:
        """One of the legal kinds, uniformly (the timeout excluded).

        All-in counts as a size of bet or raise, not as a kind of its own,
        unless it is the only way to put chips in.
        """
        kinds = sorted(legal.kinds - _NEVER)
        if legal.kinds & _WAGERS and ActionKind.ALL_IN in kinds:
            kinds.remove(ActionKind.ALL_IN)
        if not kinds:
            return ActionKind.TIMEOUT
        return kinds[self.rng.randrange(len(kinds))]

    def act(self, situation: Situation) -> Action:
        """A random legal action."""
        legal = situation.legal
        kind = self.choose_kind(legal)
        if kind in (ActionKind.BET, ActionKind.RAISE):
            pot = max(situation.pot, situation.big_bet)
            roll = self.rng.randrange(20)
            if roll == 0:
                target = legal.max_to
            elif roll < 8:
                target = legal.min_to
            elif roll < 14:
                target = legal.to_call + pot // 2
            else:
                target = legal.to_call + pot
            return wager(legal, target)
        if kind is ActionKind.DRAW:
            hole = list(situation.hole)
            limit = min(situation.rules.draw_max, len(hole))
            count = self.rng.randrange(limit + 1)
            for i in range(len(hole) - 1, 0, -1):
                j = self.rng.randrange(i + 1)
                hole[i], hole[j] = hole[j], hole[i]
            return Action(ActionKind.DRAW, cards=tuple(hole[:count]))
        return Action(kind)


BOTS["random"] = RandomBot
