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

from mazziere.game.actions import NO_ACTIONS, Action, ActionKind, LegalActions
from mazziere.game.betting import BettingHand
from mazziere.game.errors import (
    ActionNotOfferedError,
    AmountTooLargeError,
    AmountTooSmallError,
    CannotBetError,
    CannotCheckError,
    CannotMuckError,
    CannotRaiseError,
    DeckExhaustedError,
    HandOverError,
    HandSetupError,
    IllegalActionError,
    InvalidAmountError,
    NothingToCallError,
    NotYourTurnError,
    UndeterminedHandError,
    WrongPhaseError,
)
from mazziere.game.hand import Hand, MinRaiseRule, Phase, check_chips
from mazziere.game.pots import HandResult, Pot, PotResult, Rake, build_pots, split_pot
from mazziere.game.records import (
    BetsCollected,
    CardBurned,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RakeTaken,
    Record,
    UncalledBetReturned,
    as_record,
)
from mazziere.game.stock import RandomDraws, Stock

__all__ = [
    "NO_ACTIONS",
    "Action",
    "ActionKind",
    "ActionNotOfferedError",
    "AmountTooLargeError",
    "AmountTooSmallError",
    "BetsCollected",
    "BettingHand",
    "CannotBetError",
    "CannotCheckError",
    "CannotMuckError",
    "CannotRaiseError",
    "CardBurned",
    "CardsMucked",
    "CardsShown",
    "DeckExhaustedError",
    "ForcedBet",
    "Hand",
    "HandOverError",
    "HandResult",
    "HandSetupError",
    "HoleCardsDealt",
    "IllegalActionError",
    "InvalidAmountError",
    "LegalActions",
    "MinRaiseRule",
    "NotYourTurnError",
    "NothingToCallError",
    "Phase",
    "PlayerActed",
    "Pot",
    "PotAwarded",
    "PotResult",
    "Rake",
    "RakeTaken",
    "RandomDraws",
    "Record",
    "Stock",
    "UncalledBetReturned",
    "UndeterminedHandError",
    "WrongPhaseError",
    "as_record",
    "build_pots",
    "check_chips",
    "split_pot",
]
