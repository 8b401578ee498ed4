"""Hints for learners in the terminal client: off by default, never in tournaments, the odds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mazziere.cards import parse_cards
from mazziere.game.core import ActionKind
from mazziere.odds import draw_odds, holdem_equity
from mazziere.tui.hints import Hints
from mazziere.tui.session import PlayConfig, PlayError
from tests.tui_helpers import (
    SIZE,
    holdem_policy,
    log_text,
    make_app,
    press_keys,
    scripted_session,
    table_text,
)

DEAL = {
    "You": "Ah As",
    "Bot 2": "Kh Ks",
    "Bot 3": "Qh Qs",
    "Bot 4": "Jh Js",
    "board": "5d 2c 7d 9h 6s 3s 8c 4c",
}


def holdem_session(*, hints: bool):
    policies = {f"Bot {n}": holdem_policy("Bot 2", f"Bot {n}") for n in (2, 3, 4)}
    config = PlayConfig(rules="holdem", players=4, lang="en", hints=hints)
    return scripted_session(config, [DEAL], policies=policies)


@pytest.mark.asyncio
async def test_the_hint_shows_the_players_equity_at_their_turn(tmp_path: Path) -> None:
    app = make_app(holdem_session(hints=True), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Your turn" in screen
        match = re.search(r"Hint: equity (\d+\.\d)% against 3 opponents \(any two cards\)", screen)
        assert match is not None
        # Aces against three random hands: the hint is the equity worked out for it.
        expected = holdem_equity(["AhAs", "any", "any", "any"], trials=20_000, rng=7)
        assert abs(float(match[1]) / 100 - expected.players[0].equity) < 0.02
        await press_keys(pilot, "q")


@pytest.mark.asyncio
async def test_no_hint_unless_asked(tmp_path: Path) -> None:
    app = make_app(holdem_session(hints=False), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Your turn" in screen and "Hint" not in screen
        await press_keys(pilot, "q")


def test_hints_are_never_offered_in_tournaments() -> None:
    with pytest.raises(PlayError, match="never in tournaments"):
        PlayConfig(rules="holdem", tournament=True, hints=True)


def test_the_italian_hint_names_the_best_draws_and_what_they_make() -> None:
    cards = parse_cards("J♥J♦9♣8♠7♠")
    hints = Hints("italian-classic", lang="it")
    text = hints.text(cards, board=(), opponents=3, drawing=True, players=4)
    second = draw_odds(cards, "italian-classic", players=4).options[1]
    assert text.startswith("Consiglio: cambia 9♣ 8♠ 7♠: coppia 54%")
    assert f"cambia {second.discard_text}:" in text
    again = hints.text(cards, board=(), opponents=3, drawing=True, players=4)
    assert again is text  # kept, not worked out again


@pytest.mark.asyncio
async def test_the_draw_hint_ends_with_the_players_draw(tmp_path: Path) -> None:
    deal = {
        "Tu": "Ah Kc Qd 8s 7c",
        "Bot 2": "Js Jc 9d 8h 7s",
        "Bot 3": "Qh Tc 9s 8d 7h",
        "Bot 4": "Ks Qs Th 9h 7d",
        "draw": "Ad Ac",
    }
    config = PlayConfig(rules="italian-32", players=4, lang="it", hints=True)
    app = make_app(scripted_session(config, [deal]), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(20):  # pass the word (no blind opening) until the draw
            decision = app.session.my_decision()
            assert decision is not None, table_text(app)
            if ActionKind.DRAW in decision.legal.kinds:
                break
            await press_keys(pilot, "c")
        assert "Consiglio: cambia" in table_text(app)
        await press_keys(pilot, "4", "5", "d")
        assert "Tu cambi 2 carte: 8♠ 7♣" in log_text(app)
        screen = table_text(app)
        # The player's turn after the draw: the ways to change cards are no longer theirs.
        assert "Tocca a te" in screen and "Parole" in screen
        assert "Consiglio" not in screen
        await press_keys(pilot, "q")
