"""Odds: Hold'em equity of hands and ranges, and the Italian draw's odds (pure).

Pure functions on top of the evaluators (numpy and the standard library; no
clock, no global random state: a time budget takes the caller's clock, Monte
Carlo the caller's generator or seed).

>>> from mazziere.odds import holdem_equity
>>> round(holdem_equity(["AhKh", "QsQd"], board="2c 7d 9s").players[1].equity, 4)
0.7606
>>> from mazziere.odds import draw_odds
>>> best = draw_odds("K♥Q♥J♥10♥9♦", "italian-32", beat="A♣A♦A♠7♣7♦").options[0]
>>> best.discard_text, round(best.beats_hand, 3)  # a heart: 4 of the 22 cards unseen
('9♦', 0.182)

"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mazziere.odds.holdem import Equity, EquityError, PlayerEquity, holdem_equity
    from mazziere.odds.italian import DrawOdds, DrawOption, draw_odds
    from mazziere.odds.ranges import HandRange, RangeError, parse_range

# The names are loaded when first used: the modules import numpy, which a
# module of the package that needs none (the model of a draw, the bots'
# rules) should not wait for.
_MODULE_OF = {
    **dict.fromkeys(("Equity", "EquityError", "PlayerEquity", "holdem_equity"), "holdem"),
    **dict.fromkeys(("DrawOdds", "DrawOption", "draw_odds"), "italian"),
    **dict.fromkeys(("HandRange", "RangeError", "parse_range"), "ranges"),
}


def __getattr__(name: str) -> object:
    import importlib

    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "DrawOdds",
    "DrawOption",
    "Equity",
    "EquityError",
    "HandRange",
    "PlayerEquity",
    "RangeError",
    "draw_odds",
    "holdem_equity",
    "parse_range",
]
