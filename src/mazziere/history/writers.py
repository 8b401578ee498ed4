"""Hand history writers by game: the one place a client or the server picks how a finished
hand of a rule set is written as PHH text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from mazziere.game.core import BettingHand
from mazziere.rules import Game

__all__ = ["HISTORY_WRITERS", "HistoryWriter", "write_history"]

HistoryWriter = Callable[[Any, Mapping[str, object]], str]
"""A finished hand and the fields to add (``venue``, ``table``, ``hand``, ``players``...)
-> its PHH text."""


def _holdem_history(hand: Any, fields: Mapping[str, object]) -> str:
    from mazziere.history.holdem import to_phh
    from mazziere.history.phh import dumps

    rest: dict[str, Any] = dict(fields)
    number = rest.pop("hand", None)  # to_phh's own first argument is called hand
    phh = to_phh(hand, **rest)
    return dumps(phh if number is None else phh.replace(hand=number))


def _italian_history(hand: Any, fields: Mapping[str, object]) -> str:
    from mazziere.history.phh_italian import dumps_italian

    return dumps_italian(hand, extra=fields)


HISTORY_WRITERS: Mapping[Game, HistoryWriter] = MappingProxyType(
    {Game.HOLDEM: _holdem_history, Game.ITALIAN: _italian_history}
)
"""Game -> its hand history writer (Hold'em: PHH ``NT``; Poker all'italiana: its extension)."""


def write_history(hand: BettingHand, fields: Mapping[str, object]) -> str:
    """A finished hand as PHH text, by its rule set's writer, with ``fields`` added.

    >>> import random
    >>> from mazziere.game.holdem import HoldemHand
    >>> game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(1))
    >>> _ = game.fold()
    >>> write_history(game, {"hand": 7}).splitlines()[0]
    "variant = 'NT'"
    """
    writer = HISTORY_WRITERS.get(hand.rules.game)
    if writer is None:
        raise TypeError(f"no hand history for {hand.rules.name}")
    return writer(hand, fields)
