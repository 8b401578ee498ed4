"""``mazziere play`` driven by key presses (Textual's Pilot): a full hand of each rule set.

The deals are scripted through the table's deck source and the bots by
policies, so each scenario really happens: an opening, a draw of four and a
parol pot (italian-classic), parole (italian-32), an all-in with side pots
(Hold'em).  The screen is read back from the widgets, and the hand histories
saved on quitting replay with ``mazziere replay`` to the stacks the table has.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from mazziere.game.core import ActionKind, Phase
from mazziere.tui.app import PlayApp
from mazziere.tui.session import PlayConfig
from tests.tui_helpers import (
    SIZE,
    holdem_policy,
    log_text,
    make_app,
    press_keys,
    replay_stacks,
    scripted_session,
    table_text,
)


def _my_kinds(app: PlayApp) -> frozenset[ActionKind]:
    decision = app.session.my_decision()
    return decision.legal.kinds if decision is not None else frozenset()


def _phase(app: PlayApp) -> Phase | None:
    hand = app.session.table.hand
    return None if hand is None else hand.phase


async def _pass_until(app: PlayApp, pilot: Any, stop: Any) -> None:
    """Press ``c`` (no blind, pass the word, call) until ``stop(app)`` or the hand ends."""
    for _ in range(20):
        if stop(app) or app.session.hand_over:
            return
        assert app.session.my_decision() is not None, table_text(app)
        await press_keys(pilot, "c")
    raise AssertionError("the hand did not get there")


def _check_replays(app: PlayApp, folder: Path, capsys: Any) -> None:
    files = sorted(folder.glob("hand-*.phh"))
    assert [f.name for f in files] == [
        f"hand-{played.number:04d}.phh" for played in app.session.hands
    ]
    for path, played in zip(files, app.session.hands, strict=True):
        stacks = [Decimal(s) for s in replay_stacks(path, capsys)]
        assert stacks == [Decimal(s) for s in played.stacks]
    # ...and the last hand's stacks are the table's.
    last = app.session.hands[-1]
    table = app.session.table
    assert [table.player(name).stack for name in last.names] == list(last.stacks)


@pytest.mark.asyncio
async def test_italian_classic_opening_draw_of_four_parol_pot(tmp_path: Path, capsys: Any) -> None:
    junk = {"Bot 3": "Qh Tc 9s 8d 7h", "Bot 4": "Ks Qd Th 9h 7d"}
    deals = [
        # Hand 1 at Jacks: Bot 2 opens with the jacks, everyone calls; the player keeps the
        # ace and changes four; the parol of everyone makes a parol pot.
        {
            "Tu": "Ah Qc Td 8s 7c",
            "Bot 2": "Js Jc 9d 8h 7s",
            **junk,
            "draw": "Ad Kh Kc 9c",
        },
        # Hand 2, the parol pot at Kings: the player opens with three kings and wins.
        {
            "Tu": "Kh Kd Kc 8c 7d",
            "Bot 2": "Js Jc 9d 8h 7s",
            "Bot 3": "Qh Qd 9s 8d 7h",
            "Bot 4": "As Qs Tc 9h 7c",
        },
    ]
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), deals)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Mazziere · italian-classic · cash · invito 10" in screen
        assert "Apertura: J" in screen
        # Four seats, the dealer's button, the bots' cards face down, the player's turn.
        for name in ("Tu", "Bot 2", "Bot 3", "Bot 4"):
            assert name in screen
        assert " D " in screen and "░░ ░░ ░░ ░░ ░░" in screen
        assert "Tocca a te  30 s · riserva 30 s" in screen
        assert "Tutti mettono l'invito di 10" in log_text(app)

        # Pass the word (and decline the blind opening) until Bot 2 has opened: then call.
        await _pass_until(app, pilot, lambda a: ActionKind.CALL in _my_kinds(a))
        assert "Bot 2 apre con 10" in log_text(app)
        assert "Vedo 10" in table_text(app)
        await press_keys(pilot, "c")
        assert "Tu vedi 10" in log_text(app)

        # The draw: the cards are shown sorted, A Q 10 8 7; keep the ace, change four.
        assert _my_kinds(app) == {ActionKind.DRAW, ActionKind.TIMEOUT}
        screen = table_text(app)
        assert "Servito" in screen and "segna le carte da cambiare" in screen
        await press_keys(pilot, "2", "3", "4", "5")
        screen = table_text(app)
        assert "Cambio 4 carte" in screen and "✗2" in screen and "✗5" in screen
        await press_keys(pilot, "1")  # a fifth card is refused...
        assert "al massimo 4 carte" in table_text(app)
        await press_keys(pilot, "d")  # ...and the four are changed
        log = log_text(app)
        assert "Tu cambi 4 carte: Q♣ 10♦ 8♠ 7♣" in log
        assert "Ricevi: A♦ K♥ K♣" in log
        assert "Ricevi la quarta carta: 9♣" in log
        assert "Bot 3 è servito" in log

        # The last round: Bot 2 (the opener) speaks first and says parol; so does everyone.
        screen = table_text(app)
        assert "Le tue carte: doppia coppia di A e K" in screen
        assert "Parol" in screen and "Busso" in screen and "Punto" in screen
        assert "Bot 2 dice parol" in log_text(app)
        await press_keys(pilot, "p")
        log = log_text(app)
        assert "Tu dici parol" in log
        assert "Tutti dicono parol: il piatto (80) diventa piatto di parol" in log
        assert "Mano 1: piatto di parol da 80" in log
        assert "prossima mano" in table_text(app)

        # Hand 2: the parol pot, opened by the player with the pot (80), then a bet of 150.
        await press_keys(pilot, "n")
        log = log_text(app)
        assert "Piatto di parol (80): apertura minima K" in log
        screen = table_text(app)
        assert "Piatto di parol" in screen
        await _pass_until(app, pilot, lambda a: ActionKind.BET in _my_kinds(a))
        await press_keys(pilot, "k")  # the pot...
        assert "Apri 80" in table_text(app)
        await press_keys(pilot, "b")  # ...is the smallest opening of a parol pot
        assert "Tu apri con 80" in log_text(app)
        await _pass_until(app, pilot, lambda a: ActionKind.DRAW in _my_kinds(a))
        await press_keys(pilot, "d")
        assert "Tu sei servito" in log_text(app)
        await press_keys(pilot, "1", "5", "0")
        assert "Punto 150" in table_text(app)
        await press_keys(pilot, "b")
        log = log_text(app)
        assert "Tu punti 150" in log
        assert "Tu mostri K♥ K♦ K♣ 8♣ 7♦: tris di K" in log
        assert "Tu vinci il piatto (" in log and "con tris di K" in log
        assert session.hand_over

        # `h` shows the previous hands.
        await press_keys(pilot, "h")
        assert type(app.screen).__name__ == "HistoryScreen"
        await press_keys(pilot, "escape")
        assert type(app.screen).__name__ != "HistoryScreen"

        await press_keys(pilot, "q")
    folder = app.return_value
    assert folder is not None and folder.parent == tmp_path
    assert len(session.hands) == 2
    _check_replays(app, folder, capsys)


@pytest.mark.asyncio
async def test_italian_32_parole_splits_the_pot(tmp_path: Path, capsys: Any) -> None:
    deals = [
        {
            "Tu": "Ah Kc Qd 8s 7c",
            "Bot 2": "Js Jc 9d 8h 7s",
            "Bot 3": "Qh Tc 9s 8d 7h",
            "Bot 4": "Ks Qc Tc 9h 7d",
            "draw": "Ad Ac",
        }
    ]
    deals[0]["Bot 4"] = "Ks Qs Th 9h 7d"
    session = scripted_session(PlayConfig(rules="italian-32", players=4, lang="it"), deals)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "buio 5, controbuio 10, over 20" in table_text(app)
        log = log_text(app)
        assert "mette il buio (5)" in log and "l'over (20)" in log
        await _pass_until(app, pilot, lambda a: ActionKind.DRAW in _my_kinds(a))
        await press_keys(pilot, "4", "5")  # change the 8 and the 7
        assert "Cambio 2 carte" in table_text(app)
        await press_keys(pilot, "d")
        assert "Tu cambi 2 carte: 8♠ 7♣" in log_text(app)
        assert "Ricevi: A♦ A♣" in log_text(app)
        screen = table_text(app)
        assert "Parole" in screen and "Cip" in screen
        await press_keys(pilot, "p")
        log = log_text(app)
        assert "Tu dici parole" in log
        assert "si dividono il piatto (80): " in log
        assert "Tu 20, Bot 2 20, Bot 3 20, Bot 4 20" in log or "Tu 20" in log
        assert session.hand_over
        await press_keys(pilot, "q")
    _check_replays(app, app.return_value, capsys)


@pytest.mark.asyncio
async def test_holdem_all_in_with_side_pots(tmp_path: Path, capsys: Any) -> None:
    deals = [
        {
            "You": "Ah As",
            "Bot 2": "Kh Ks",
            "Bot 3": "Qh Qs",
            "Bot 4": "Jh Js",
            # burn, flop, burn, turn, burn, river
            "board": "5d 2c 7d 9h 6s 3s 8c 4c",
        }
    ]
    policies = {f"Bot {n}": holdem_policy("Bot 2", f"Bot {n}") for n in (2, 3, 4)}
    session = scripted_session(
        PlayConfig(rules="holdem", players=4, lang="en"),
        deals,
        policies=policies,
        stacks=[200, 1000, 1000, 1000],
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Mazziere · holdem · cash · blinds 5/10" in screen
        assert "Your turn" in screen
        assert "All-in 200" in screen or "All-in 19" in screen
        await press_keys(pilot, "a", "a")  # all-in asks again
        log = log_text(app)
        assert "You raise to 200 and are all-in" in log or "You bet 200 and are all-in" in log
        assert "Flop: 2♣ 7♦ 9♥" in log and "Turn: 3♠" in log and "River: 4♣" in log
        assert "Bot 2 bets 10" in log
        assert "Main pot 800 · side pot 1: 30" in log and "side pot 1: 90" in log
        assert "You show A♥ A♠: pair of aces" in log
        assert "You win the main pot (800) with pair of aces" in log
        assert "Bot 2 wins side pot 1 (90) with pair of kings" in log
        screen = table_text(app)
        assert "+800" in screen and "+90" in screen
        assert "K♥ K♠" in screen  # Bot 2 showed; Bot 3 and Bot 4 mucked, face down
        assert "Q♥" not in screen and "J♠" not in screen
        assert "You win 800 (pair of aces)" in screen  # the summary line
        await press_keys(pilot, "q")
    _check_replays(app, app.return_value, capsys)
