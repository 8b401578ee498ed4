"""Hints for learners: the odds at a player's own decision, from what their seat sees.

Hold'em: the player's equity against the opponents still in, each holding any
two cards (:func:`~mazziere.odds.holdem_equity`: exact on the turn and the
river, else 20,000 deals sampled from a seed made of the cards, so the same
cards always give the same hint).  Poker all'italiana: every way to change
0-4 cards, best first, with the exact chance of each category after the draw
(:func:`~mazziere.odds.draw_odds`).

Both clients show them: the terminal's ``mazziere play --hints`` and the
browser's option, which the room answers (``GET /api/tables/{id}/hint``)
only where hints are allowed and only from the seat's own view.

>>> from mazziere.cards import parse_cards
>>> royal = parse_cards("Qh Jh Th 2c 3d")
>>> hint = work_out("holdem", parse_cards("Ah Kh"), board=royal, opponents=1, players=2)
>>> hint.equity, hint.opponents
(1.0, 1)
>>> hint = work_out("italian-32", parse_cards("J♥J♦9♣8♠7♠"), board=(), opponents=3, players=4)
>>> hint.options[0].discard_text, len(hint.options)
('9♣ 8♠ 7♠', 31)
>>> work_out("holdem", parse_cards("Ah Kh"), board=(), opponents=0, players=2) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mazziere.cards import Card
from mazziere.odds import draw_odds, holdem_equity
from mazziere.odds.italian import DrawOption
from mazziere.rules import Category, find_rules

__all__ = ["Hint", "work_out"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The odds of one decision: Hold'em's ``equity``, or the Italian draw's ``options``."""

    rules: str
    opponents: int
    equity: float | None = None
    options: tuple[DrawOption, ...] = ()
    """Every way to change cards, best first (Poker all'italiana)."""

    def to_dict(self, lang: str = "it", *, options: int = 5) -> dict[str, Any]:
        """Plain data for JSON: the first ``options`` ways to draw, categories named in ``lang``.

        >>> from mazziere.cards import parse_cards
        >>> hint = work_out("italian-32", parse_cards("Ah Kh Qh Jh 7s"), board=(), opponents=1,
        ...                 players=2)
        >>> first = hint.to_dict("en", options=1)["options"][0]
        >>> first["discard"], first["categories"][0]["name"]
        (['7s'], 'pair')
        """
        return {
            "rules": self.rules,
            "opponents": self.opponents,
            "equity": self.equity,
            "options": [
                {
                    "discard": [str(Card(c)) for c in option.discard],
                    "categories": [
                        {"category": name, "name": _category_name(name, lang), "chance": chance}
                        for name, chance in sorted(option.categories.items(), key=lambda i: -i[1])
                        if chance > 0
                    ],
                }
                for option in self.options[:options]
            ],
        }


def _category_name(name: str, lang: str) -> str:
    category = Category(name)
    return category.name_it if lang == "it" else category.name_en


def work_out(
    rules: str,
    cards: Sequence[Card],
    *,
    board: Sequence[Card],
    opponents: int,
    players: int,
) -> Hint | None:
    """The hint for ``cards`` (``None`` before the deal or with nobody left to beat).

    ``players`` were dealt in (it sets the italian-classic deck).
    """
    if not cards or opponents < 1:
        return None
    rule_set = find_rules(rules)
    if rule_set.traits.board:  # equity against random hands, with the board
        hand = "".join(str(c) for c in cards)
        result = holdem_equity(
            [hand, *["any"] * opponents],
            board=list(board),
            trials=20_000,
            exact_limit=200_000,
            rng=sum(cards) + 52 * len(board),
        )
        return Hint(rule_set.name, opponents, equity=result.players[0].equity)
    odds = draw_odds(cards, rule_set, players=players)
    return Hint(rule_set.name, opponents, options=odds.options)
