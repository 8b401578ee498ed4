"""Mazziere, the dealer: Poker all'italiana and Texas Hold'em, correct and fast.

>>> import mazziere
>>> mazziere.winners(["K♥ Q♥ J♥ 9♥ 7♥", "A♣ A♠ A♦ K♣ K♠"], rules="italian-32")
[0]
>>> mazziere.evaluate("Ah Kh", board="Qh Jh Th 2c 3d").category.value
'straight_flush'
"""

import importlib
from typing import TYPE_CHECKING

from mazziere.cards import (
    Card,
    CardError,
    CardNotInDeckError,
    Deck,
    DuplicateCardError,
    Rank,
    Suit,
    UnknownCardError,
    WrongCardCountError,
    format_cards,
    parse_cards,
)
from mazziere.evaluate import (
    HandValue,
    Ranking,
    best_hands,
    evaluate,
    evaluate_batch,
    ranking_for,
    winners,
)
from mazziere.rules import RULESETS, Category, RuleSet, find_rules

if TYPE_CHECKING:
    from mazziere.evaluate import holdem_strength5, holdem_strength7, holdem_strengths

__version__ = "0.1.0"

__all__ = [
    "RULESETS",
    "Card",
    "CardError",
    "CardNotInDeckError",
    "Category",
    "Deck",
    "DuplicateCardError",
    "HandValue",
    "Rank",
    "Ranking",
    "RuleSet",
    "Suit",
    "UnknownCardError",
    "WrongCardCountError",
    "best_hands",
    "evaluate",
    "evaluate_batch",
    "find_rules",
    "format_cards",
    "holdem_strength5",
    "holdem_strength7",
    "holdem_strengths",
    "parse_cards",
    "ranking_for",
    "winners",
]


def __getattr__(name: str) -> object:
    """The Hold'em fast paths of :mod:`mazziere.evaluate`, whose tables are built on first use."""
    if name in ("holdem_strength5", "holdem_strength7", "holdem_strengths"):
        # The module, not the function `evaluate` that shadows its name here.
        return getattr(importlib.import_module("mazziere.evaluate"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
