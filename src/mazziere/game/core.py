"""What every game shares, in one import: actions, errors, records, pots, the stock, the hand.

Each concept has its module: :mod:`~mazziere.game.actions` (actions and the
legal actions), :mod:`~mazziere.game.errors`, :mod:`~mazziere.game.records`
(the log), :mod:`~mazziere.game.pots` (pots, rake, results),
:mod:`~mazziere.game.stock` (the cards to deal, the random draws),
:mod:`~mazziere.game.hand` (a hand's state, the showdown and the awards) and
:mod:`~mazziere.game.betting` (betting rounds: who may bet or raise and how
much).  A game (Texas Hold'em in :mod:`mazziere.game.holdem`, Poker
all'italiana in :mod:`mazziere.game.italian`) subclasses :class:`BettingHand`
and adds its own phases (streets and the board, or the draw).

A tiny game played with the core alone: two players, 1 chip antes, one
betting round, then a showdown where position 1 holds the better hand.

>>> class OneRound(BettingHand):
...     def __init__(self, stacks):
...         super().__init__(stacks)
...         for position in range(self.n):
...             self._post_forced(position, 1, kind="ante", live=False)
...         self._begin_round(0, min_bet=2)
...     def _round_over(self):
...         self._begin_showdown(list(range(self.n)))
...     def _can_win(self, position):
...         return position == 1
...     def _pot_winners(self, eligible):
...         return (1,) if 1 in eligible else eligible
>>> hand = OneRound([100, 100])
>>> hand.actor, sorted(kind.value for kind in hand.legal_actions().kinds)
(0, ['all-in', 'bet', 'check', 'fold', 'timeout'])
>>> record = hand.bet(10)
>>> record.position, record.kind.value, record.added, record.to, record.all_in
(0, 'bet', 10, 10, False)
>>> hand.raise_to(15)
Traceback (most recent call last):
...
mazziere.game.errors.AmountTooSmallError: raise to at least 20, not 15
>>> hand.call().added
10
>>> hand.is_over, hand.result.stacks, hand.result.payoffs
(True, (89, 111), (-11, 11))
"""

from __future__ import annotations

# Each module's public names (its __all__), re-exported as they are.
from mazziere.game import actions, betting, errors, hand, pots, records, stock
from mazziere.game.actions import *  # noqa: F403
from mazziere.game.betting import *  # noqa: F403
from mazziere.game.errors import *  # noqa: F403
from mazziere.game.hand import *  # noqa: F403
from mazziere.game.pots import *  # noqa: F403
from mazziere.game.records import *  # noqa: F403
from mazziere.game.stock import *  # noqa: F403

__all__: list[str] = []
__all__ += actions.__all__
__all__ += betting.__all__
__all__ += errors.__all__
__all__ += hand.__all__
__all__ += pots.__all__
__all__ += records.__all__
__all__ += stock.__all__
