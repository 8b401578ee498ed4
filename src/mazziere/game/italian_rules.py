"""Where the rules of Poker all'italiana used to live: now :mod:`mazziere.game.italian.rules`
and, for the draw's stock, :mod:`mazziere.game.italian.stock` (this module keeps the old
import path working)."""

from __future__ import annotations

from mazziere.game.italian.rules import (
    InvalidStakesError,
    OpeningTest,
    blind_opening_amounts,
    can_open,
    draw_deals,
    forced_blinds,
    is_bilateral_straight_flush_draw,
    missed_blind_post,
    new_player_post,
    next_opening_level,
    opening_minimum,
    opening_reason,
    rake,
    rejoin_costs,
)
from mazziere.game.italian.stock import DrawStock, ReshuffleEvent, StockError

__all__ = [
    "DrawStock",
    "InvalidStakesError",
    "OpeningTest",
    "ReshuffleEvent",
    "StockError",
    "blind_opening_amounts",
    "can_open",
    "draw_deals",
    "forced_blinds",
    "is_bilateral_straight_flush_draw",
    "missed_blind_post",
    "new_player_post",
    "next_opening_level",
    "opening_minimum",
    "opening_reason",
    "rake",
    "rejoin_costs",
]
