"""Hints for learners (``mazziere play --hints``): the odds at the player's own decision.

Off by default, and offered only where every other seat is a bot (which is
every table of the terminal client) and never in a tournament.  At the
player's turn the screen shows, in Hold'em, their equity against the
opponents still in, each holding any two cards (:func:`~mazziere.odds.holdem_equity`,
exact on the river and the turn, else 20,000 sampled deals); in Poker
all'italiana, the best ways to draw with what each makes
(:func:`~mazziere.odds.draw_odds`, exact), as :func:`mazziere.hints.work_out`
works them out for both clients; the draw's hint ends with the player's
draw (the room's ``GET /api/tables/{id}/hint`` does the same).  Each hint
is worked out once per cards seen (the screen refreshes many times a second).

>>> from mazziere.cards import parse_cards
>>> hints = Hints("holdem", lang="en")
>>> royal = parse_cards("Qh Jh Th 2c 3d")
>>> hints.text(parse_cards("Ah Kh"), board=royal, opponents=1, drawing=False, players=2)
'Hint: equity 100.0% against 1 opponent (any two cards)'
>>> hints = Hints("italian-32", lang="en")
>>> hints.text(parse_cards("J♥J♦9♣8♠7♠"), board=(), opponents=3, drawing=False, players=4)
'Hint: change 9♣ 8♠ 7♠: pair 54%, two pair 24%, three of a kind 18%'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mazziere.cards import Card, format_cards, parse_cards
from mazziere.hints import work_out
from mazziere.rules import find_rules

__all__ = ["Hints", "describe"]


class Hints:
    """The hint of one player's decision, kept while their cards and the board stay the same."""

    def __init__(self, rules: str, *, lang: str = "it") -> None:
        self.rules = find_rules(rules)
        self.lang = lang
        self._key: tuple[object, ...] | None = None
        self._text = ""

    def text(
        self,
        cards: Sequence[Card],
        *,
        board: Sequence[Card | None],
        opponents: int,
        drawing: bool,
        players: int,
    ) -> str:
        """The hint for these cards (empty before the deal or with nobody left to beat).

        ``players`` were dealt in (it sets the italian-classic deck).
        """
        known_board = tuple(c for c in board if c is not None)
        key = (tuple(cards), known_board, opponents, drawing, players)
        if key != self._key:
            self._key = key
            self._text = self._work_out(tuple(cards), known_board, opponents, drawing, players)
        return self._text

    def _work_out(
        self,
        cards: tuple[Card, ...],
        board: tuple[Card, ...],
        opponents: int,
        drawing: bool,
        players: int,
    ) -> str:
        hint = work_out(self.rules.name, cards, board=board, opponents=opponents, players=players)
        if hint is None:
            return ""
        return describe(hint.to_dict(self.lang, options=2), lang=self.lang, drawing=drawing)


def describe(hint: Mapping[str, Any], *, lang: str, drawing: bool) -> str:
    """The hint's line, from its plain data (:meth:`mazziere.hints.Hint.to_dict`, which the
    room's ``GET /api/tables/{id}/hint`` answers too): the equity, or the best way to draw
    (the two best at the draw itself) with the three likeliest hands it makes.

    >>> describe({"equity": 0.25, "opponents": 2, "options": []}, lang="en", drawing=False)
    'Hint: equity 25.0% against 2 opponents (any two cards)'
    >>> stand = {"discard": [], "categories": [{"name": "colore", "chance": 1.0}]}
    >>> describe({"equity": None, "opponents": 1, "options": [stand]}, lang="it", drawing=True)
    'Consiglio: servito: colore 100%'
    """

    def pick(italian: str, english: str) -> str:
        return italian if lang == "it" else english

    prefix = pick("Consiglio: ", "Hint: ")
    equity = hint.get("equity")
    opponents = int(hint.get("opponents") or 0)
    if equity is not None:
        who = pick(
            f"{opponents} avversari" if opponents > 1 else "1 avversario",
            f"{opponents} opponents" if opponents > 1 else "1 opponent",
        )
        return prefix + pick(
            f"equità {equity:.1%} contro {who} (carte qualsiasi)",
            f"equity {equity:.1%} against {who} (any two cards)",
        )
    parts = []
    for option in list(hint.get("options") or ())[: 2 if drawing else 1]:
        likely = sorted(option["categories"], key=lambda made: -float(made["chance"]))[:3]
        made = ", ".join(
            f"{category['name']} {float(category['chance']):.0%}"
            for category in likely
            if float(category["chance"]) >= 0.005
        )
        discard = " ".join(option["discard"])
        change = (
            pick("cambia ", "change ") + format_cards(parse_cards(discard), pretty=True)
            if discard
            else pick("servito", "stand pat")
        )
        parts.append(f"{change}: {made}")
    return prefix + " · ".join(parts) if parts else ""
