"""What a newcomer met at the terminal table (issue 19), each through Textual's Pilot: the hints
and words after a blind opening, pots named one by one, the clock as the help tells it, quitting
while the bots act, confirmations, typed amounts, the show-or-muck choice, amounts kept on one
line, the layout at small and large sizes, and Hold'em in Italian words."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import RichLog, Static

from mazziere.game.core import Action, ActionKind
from mazziere.tui.app import PlayApp
from mazziere.tui.session import PlayConfig, PlaySession
from tests.tui_helpers import (
    SIZE,
    holdem_policy,
    log_text,
    make_app,
    press_keys,
    run_cli,
    scripted_session,
    table_text,
)

# With seed 2 the player sits left of the dealer: the first who may open blind.
BLIND_DEAL = {
    "Tu": "Ah Qc Td 8s 7c",
    "Bot 2": "Js Jc 9d 8h 7s",
    "Bot 3": "Qh Tc 9s 8d 7h",
    "Bot 4": "Ks Qd Th 9h 7d",
    "draw": "Ad Kh Kc 9c As Ac Kd Qs Jh Jd Ts 8c",
}


def _kinds(session: PlaySession) -> frozenset[ActionKind]:
    decision = session.my_decision()
    return decision.legal.kinds if decision is not None else frozenset()


@pytest.mark.asyncio
async def test_after_a_blind_opening_the_hints_and_words_fit(tmp_path: Path) -> None:
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [BLIND_DEAL], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Buio 40" in table_text(app)
        await press_keys(pilot, "b")
        log = log_text(app)
        assert "Tu apri al buio con 40" in log
        # Bot 2 could have raised blind: it declines the controbuio, not a blind opening.
        assert "Bot 2 non fa il controbuio" in log
        assert "non apre al buio" not in log
        # Everyone called: the last blind raiser may raise again; nobody needs to open.
        screen = table_text(app)
        assert "Rilancio a 80" in screen
        assert "Non puoi aprire" not in screen
        await press_keys(pilot, "b")
        # A call is named by what it makes: the raise to 80, not the 40 added.
        assert "Bot 2 vede 80" in log_text(app)


@pytest.mark.asyncio
async def test_the_over_declined_is_told(tmp_path: Path) -> None:
    # Seed 5 seats Bot 4 left of the dealer and the player next: Bot 4 opens blind, the
    # player raises blind (the controbuio) and Bot 2 may make the over.
    def opens_blind(situation: Any) -> Action:
        if not situation.hole and ActionKind.BET in situation.legal.kinds:
            return Action.bet(situation.legal.min_to)
        if not situation.hole:
            return Action.check()
        kinds = situation.legal.kinds
        if ActionKind.DRAW in kinds:
            return Action(ActionKind.DRAW)
        return Action.call() if ActionKind.CALL in kinds else Action.check()

    deal = {**BLIND_DEAL}
    session = scripted_session(
        PlayConfig(rules="italian-classic", players=4),
        [deal],
        policies={"Bot 4": opens_blind},
        seed=5,
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Bot 4 apre al buio con 40" in log_text(app)
        assert "Controbuio 80" in table_text(app)
        await press_keys(pilot, "b")
        log = log_text(app)
        assert "Tu fai il controbuio a 80" in log
        assert "Bot 2 non fa l'over" in log


@pytest.mark.asyncio
async def test_a_pot_won_with_a_side_pot_names_each_pot(tmp_path: Path) -> None:
    deals = [
        {
            "Tu": "7h 2c",
            "Bot 2": "Kh Ks",
            "Bot 3": "Qh Qs",
            "board": "5d 3d 9c Jd 4s Ac 8h 4h",
        }
    ]
    policies = {f"Bot {n}": holdem_policy("Bot 2", f"Bot {n}") for n in (2, 3)}
    session = scripted_session(
        PlayConfig(rules="holdem", players=3),
        deals,
        policies=policies,
        stacks=[200, 1000, 1000],
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while not session.hand_over:
            if ActionKind.ALL_IN in _kinds(session):
                await press_keys(pilot, "a", "a")
            else:
                await press_keys(pilot, "c")
        log = log_text(app)
        # The player's all-in made a main pot of 600; the bots bet on into a side pot.
        # Bot 2 wins both: each is named with its own amount.
        won = re.findall(r"Bot 2 vince [^(]*\(\d+\)(?: e [^(]*\(\d+\))?", log)
        assert won == [
            f"Bot 2 vince il piatto principale (600) e il piatto laterale 1 ({side})"
            for side in re.findall(r"laterale 1 \((\d+)\)", won[0] if won else "")
        ], log


@pytest.mark.asyncio
async def test_the_clock_counts_the_decision_time_the_help_names(tmp_path: Path) -> None:
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [BLIND_DEAL], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Tocca a te  30 s" in screen and "riserva 30 s" in screen
        session.clock.advance(31)  # type: ignore[attr-defined]
        await press_keys(pilot, "C", "C")  # any key redraws the screen
        assert "Tocca a te  riserva 29 s" in table_text(app)
    # The help names the same two figures.
    help_text = " ".join(run_cli("play", "--help").stdout.split())
    seconds = re.search(
        r"--seconds \S+ Seconds for each decision; (.*?)\[default: (\S+)\]", help_text
    )
    assert seconds is not None, help_text
    assert "30-second time bank" in seconds.group(1) and float(seconds.group(2)) == 30


@pytest.mark.asyncio
async def test_quitting_mid_hand_takes_two_presses_while_the_bots_act(tmp_path: Path) -> None:
    config = PlayConfig(rules="holdem", players=4)
    policies = {f"Bot {n}": holdem_policy("nobody", f"Bot {n}") for n in (2, 3, 4)}
    session = scripted_session(config, [], policies=policies, seed=3)
    app = PlayApp(session, bot_delay=1.0, next_hand_delay=None, tick=False, hands_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if session.my_decision() is not None:
                break
            await pilot.pause(0.1)
        await press_keys(pilot, "c")
        assert session.my_decision() is None and session.in_hand  # the bots act, slowly
        await press_keys(pilot, "q")
        assert "premi q di nuovo" in table_text(app)
        for _ in range(100):  # the bots act meanwhile, and it comes back to the player
            if session.my_decision() is not None or session.hand_over:
                break
            await pilot.pause(0.1)
        await press_keys(pilot, "q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.asyncio
async def test_all_in_asks_again_and_letters_wait_while_an_amount_is_typed(
    tmp_path: Path,
) -> None:
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [BLIND_DEAL], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await press_keys(pilot, "b")  # the blind opening; everyone calls
        assert ActionKind.ALL_IN in _kinds(session)
        await press_keys(pilot, "a")
        assert session.my_decision() is not None  # not yet
        assert "premi a di nuovo" in table_text(app)
        await press_keys(pilot, "1", "2", "0")
        assert "Rilancio a 120" in table_text(app)
        await press_keys(pilot, "f", "c", "a", "p")  # letters wait while the amount is typed
        assert session.my_decision() is not None
        assert "Rilancio a 120" in table_text(app)
        assert "Esc" in table_text(app)
        await press_keys(pilot, "escape", "a", "a")  # cleared: the letters act again
        assert "Tu rilanci a 990 e sei all-in" in log_text(app)


@pytest.mark.asyncio
async def test_the_italian_showdown_lets_a_beaten_player_show(tmp_path: Path) -> None:
    deals = [
        {
            # Bot 2 opens with the aces and shows them first; the player's tens are beaten.
            "Tu": "Th Td 9c 8s 7c",
            "Bot 2": "As Ad Jh 9d 8h",
            "Bot 3": "Qh Jc 9s 8d 7h",
            "Bot 4": "Ks Qd Tc 9h 7d",
        }
    ]
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), deals, seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(30):
            kinds = _kinds(session)
            if ActionKind.SHOW in kinds or session.hand_over:
                break
            if ActionKind.DRAW in kinds:
                await press_keys(pilot, "d")
            elif not session.snapshot().my_cards:
                await press_keys(pilot, "c")  # no blind opening
            else:
                await press_keys(pilot, "c")  # pass, call, and check (no parol pot)
        assert {ActionKind.SHOW, ActionKind.MUCK} <= _kinds(session), log_text(app)
        screen = table_text(app)
        assert "Mostro" in screen and "Non mostro" in screen
        await press_keys(pilot, "s")
        assert "Tu mostri 10♥ 10♦ 9♣ 8♠ 7♣: coppia di 10" in log_text(app)
        assert session.hand_over


@pytest.mark.asyncio
async def test_an_amount_stays_on_one_line_of_the_log(tmp_path: Path) -> None:
    deals = [
        {"Tu": "7h 2c", "Bot 2": "Kh Ks", "Bot 3": "Qh Qs", "board": "5d 3d 9c Td 4s 8h Jd 6c"}
    ]
    policies = {f"Bot {n}": holdem_policy("nobody", f"Bot {n}") for n in (2, 3)}
    session = scripted_session(
        PlayConfig(rules="holdem", players=3), deals, policies=policies, stacks=[9000] * 3
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while not session.hand_over:
            await press_keys(pilot, *(["a", "a"] if ActionKind.ALL_IN in _kinds(session) else "c"))
        # The log's lines break between words, never inside "9 000" or "(27 000)".
        strips = [s.text.rstrip() for s in app._table_screen.query_one("#log", RichLog).lines]
        amounts = [a for line in session.transcript for a in re.findall(r"\d+ \d{3}", line.plain)]
        assert len(amounts) >= 5, amounts
        for above, below in itertools.pairwise(strips):
            split = re.search(r"\d$", above) and re.match(r"\d{3}\b", below.lstrip())
            assert not split, (above, below)


def _region(app: PlayApp, name: str) -> Any:
    return app._table_screen.query_one(f"#{name}").region


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_table_fits_the_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [BLIND_DEAL], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press_keys(pilot, "b")  # open blind; the others call: the player's turn again
        width, height = size
        log = app._table_screen.query_one("#log", RichLog)
        # The newest line of the log is in sight, whole...
        assert log.region.bottom <= height and log.region.height >= 5
        assert log.scroll_offset.y == log.max_scroll_y
        assert all(s.cell_length <= log.scrollable_content_region.width for s in log.lines)
        assert "Bot 4 vede 40" in log.lines[-1].text
        # ...and so is every part of the table, the actions close under the cards.
        for name in ("seats", "middle", "hand", "turn", "actions", "status"):
            region = _region(app, name)
            assert region.height > 0 and region.bottom <= height, (name, region)
        gap = _region(app, "turn").y - _region(app, "hand").bottom
        assert 0 <= gap <= 2, gap
        if width >= 120:
            assert _region(app, "log").width >= 50  # a wide terminal gives the log room


@pytest.mark.asyncio
async def test_five_cards_of_two_character_ranks_keep_to_their_row_at_80_columns(
    tmp_path: Path,
) -> None:
    deal = {
        "Tu": "Ah Qc 9d 8s 7c",
        "Bot 2": "Td Ts Th Ks Kc",  # opens with the full house and stands pat
        "Bot 3": "Qh Tc 9s 8d 7h",
        "Bot 4": "Kh Qd Jh 9h 7d",
    }
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [deal], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while not session.hand_over:
            kinds = _kinds(session)
            key = "d" if ActionKind.DRAW in kinds else "s" if ActionKind.SHOW in kinds else "c"
            await press_keys(pilot, key)
        seats = app._table_screen.query_one("#seats", Static)
        rows = [s.text.rstrip() for s in seats.render_lines(Region(0, 0, *seats.size))]
    (row,) = [r for r in rows if "Bot 2" in r]
    assert row.endswith("10♦ 10♠ 10♥ K♠ K♣"), rows
    # What follows the cards goes under them, on a line of its own.
    below = rows[rows.index(row) + 1]
    assert below.lstrip() == "servito +80" and below.index("servito") == row.index("10♦"), rows


@pytest.mark.asyncio
async def test_a_terminal_too_small_says_so(tmp_path: Path) -> None:
    session = scripted_session(PlayConfig(rules="italian-classic", players=4), [BLIND_DEAL], seed=2)
    app = make_app(session, tmp_path)
    async with app.run_test(size=(50, 12)) as pilot:
        await pilot.pause()
        shown = str(app.screen.query_one("#too-small", Static).content)
        assert "troppo piccola (50×12)" in shown and "80×24" in shown
        assert not app.screen.query_one("#main").display


@pytest.mark.asyncio
async def test_holdem_in_italian_speaks_italian(tmp_path: Path) -> None:
    deals = [
        {"Tu": "Ah As", "Bot 2": "Kh Ks", "Bot 3": "Qh Qs", "board": "5d 2c 7d 9h 6s 3s 8c 4c"}
    ]
    policies = {f"Bot {n}": holdem_policy("Bot 2", f"Bot {n}") for n in (2, 3)}
    session = scripted_session(PlayConfig(rules="holdem", players=3), deals, policies=policies)
    app = make_app(session, tmp_path)
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while not session.hand_over:
            seen.append(table_text(app))
            kinds = _kinds(session)
            await press_keys(pilot, "c" if kinds & {ActionKind.CHECK, ActionKind.CALL} else "f")
        seen.append(table_text(app))
        seen.append(log_text(app))
    words = set(re.findall(r"[a-z]+", " ".join(seen).lower()))
    english = {"check", "checks", "blind", "blinds", "call", "calls", "fold", "bet", "raise"}
    assert not words & english, words & english
    text = " ".join(seen)
    assert "piccolo buio" in text and "grande buio" in text and "bui 5/10" in text
    assert "Busso" in text or "bussa" in text
