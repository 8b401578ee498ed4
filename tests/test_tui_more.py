"""``mazziere play`` beyond a plain hand: the clock, the table's questions, rebuys, a sit & go,
four colours, English, and bad options on the command line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Static

from mazziere.cli import main as cli_main
from mazziere.game.core import Action, ActionKind
from mazziere.room.clock import ManualClock
from mazziere.room.structure import Stakes
from mazziere.tui.connect import RoomTable
from mazziere.tui.remote import RemoteSession
from mazziere.tui.render import card_style, header
from mazziere.tui.session import PlayConfig, PlayError
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "italian-32", "--players", "6"], "italian-32 is played by 2 to 5 players"),
        (["--rules", "poker"], "poker"),
        (["--lang", "fr"], "unknown language 'fr'"),
        (["--bots", "genius"], "unknown bots 'genius' (known: basic, random, strong)"),
        (["--stack", "5"], "--stack must be a whole number of chips from 200"),
        (["--players", "many"], "Invalid value for '--players'"),
        (["--seconds", "0"], "must be more than 0 and at most 3600 seconds, not 0"),
        (["--seconds", "nan"], "must be more than 0 and at most 3600 seconds, not nan"),
        (["--seconds", "inf"], "must be more than 0 and at most 3600 seconds, not inf"),
        (["--seconds", "3601"], "must be more than 0 and at most 3600 seconds, not 3601"),
    ],
)
def test_bad_options_are_one_line_and_exit_code_2(
    args: list[str], message: str, capsys: Any
) -> None:
    assert cli_main(["play", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err


def test_bad_settings_change_nothing() -> None:
    with pytest.raises(PlayError, match="from 200 to 1000000, not 0"):
        PlayConfig(stack=0)
    with pytest.raises(PlayError, match="holdem is played by 2 to 9 players, not 1"):
        PlayConfig(rules="holdem", players=1)


@pytest.mark.asyncio
async def test_the_countdown_runs_and_a_timeout_checks_or_folds(tmp_path: Path) -> None:
    deals = [{"You": "7h 2c", "Bot 2": "Kh Ks", "Bot 3": "Qh Qs", "board": ""}]
    policies = {f"Bot {n}": holdem_policy("nobody", f"Bot {n}") for n in (2, 3)}
    session = scripted_session(
        PlayConfig(rules="holdem", players=3, lang="en", decision_seconds=20),
        deals,
        policies=policies,
    )
    app = make_app(session, tmp_path)
    clock = session.clock
    assert isinstance(clock, ManualClock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while session.my_decision() is None and not session.hand_over:
            await press_keys(pilot, "c")
        assert "Your turn  20 s · time bank 30 s" in table_text(app)
        clock.advance(38)
        app._tick()
        await pilot.pause()
        assert "Your turn  time bank 12 s" in table_text(app)
        legal = session.my_decision()
        assert legal is not None
        free = ActionKind.CHECK in legal.legal.kinds
        clock.advance(12)
        app._tick()
        await pilot.pause()
        log = log_text(app)
        if free:
            assert "You check (time out)" in log
        else:
            assert "You fold (time out)" in log


@pytest.mark.asyncio
async def test_a_player_who_folded_is_asked_to_pay_into_the_parol_pot(tmp_path: Path) -> None:
    deals = [
        {
            "Tu": "Ah Qc Td 8s 7c",
            "Bot 2": "Js Jc 9d 8h 7s",
            "Bot 3": "Qh Tc 9s 8d 7h",
            "Bot 4": "Ks Qd Th 9h 7d",
        },
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
        for _ in range(10):
            decision = session.my_decision()
            if decision is not None and ActionKind.CALL in decision.legal.kinds:
                break
            await press_keys(pilot, "c")
        await press_keys(pilot, "f")  # Passo: out of the hand
        assert "Tu passi" in log_text(app)
        assert session.hand_over
        assert "Tutti dicono parol" in log_text(app)
        await press_keys(pilot, "n")
        screen = table_text(app)
        assert "Adeguamento parol: paghi 10 per giocare il piatto di parol?" in screen
        assert re.search(r"\[y\] sì · \[n\] no   \d+ s", screen), screen  # its seconds left
        await press_keys(pilot, "y")
        log = log_text(app)
        assert "Paghi 10 e giochi il piatto di parol" in log
        assert "Tu paghi 10 di adeguamento" in log
        assert session.in_hand


@pytest.mark.asyncio
async def test_out_of_chips_the_player_buys_in_again(tmp_path: Path, capsys: Any) -> None:
    deals = [
        {
            "You": "7h 2c",
            "Bot 2": "Kh Ks",
            "board": "5d 9c Td 4s 5h Jd 6c 3s",
        }
    ]
    policies = {"Bot 2": holdem_policy("nobody", "Bot 2")}
    session = scripted_session(
        PlayConfig(rules="holdem", players=2, lang="en"),
        deals,
        policies=policies,
        stacks=[300, 1000],
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await press_keys(pilot, "a", "a")  # all-in asks again
        assert session.hand_over
        assert "Bot 2 wins the pot" in log_text(app)
        assert "No chips · [r] buy in again" in table_text(app)
        await press_keys(pilot, "r")
        seat = session.my_seat()
        assert seat is not None and seat.stack == 300
        await press_keys(pilot, "n")
        assert session.in_hand
        await press_keys(pilot, "q", "q")
    folder = app.return_value
    (path,) = sorted(folder.glob("*.phh"))
    (played,) = session.hands
    stacks = dict(zip(played.names, replay_stacks(path, capsys), strict=True))
    assert stacks == {"You": "0", "Bot 2": "1300"}


def _check_or_fold(situation: Any) -> Action:
    if ActionKind.CHECK in situation.legal.kinds:
        return Action.check()
    return Action.fold()


@pytest.mark.asyncio
async def test_a_sit_and_go_to_its_standings(tmp_path: Path) -> None:
    deals = [
        {
            "You": "7h 2c",
            "Bot 2": "Kh Ks",
            "Bot 3": "Qh Qs",
            "board": "5d 9c Td 4s 5h Jd 6c 3s",
        }
    ]
    policies = {"Bot 2": holdem_policy("nobody", "Bot 2"), "Bot 3": _check_or_fold}
    session = scripted_session(
        PlayConfig(rules="holdem", players=3, lang="en", tournament=True), deals, policies=policies
    )
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = table_text(app)
        assert "Mazziere · holdem · sit & go · blinds 15/30 · level 1" in screen
        for _ in range(5):
            if session.hand_over:
                break
            if ActionKind.ALL_IN in (
                session.my_decision().legal.kinds if session.my_decision() else ()
            ):
                await press_keys(pilot, "a")
            else:
                await press_keys(pilot, "c")
        assert session.my_finish() == 3
        assert "You are out in place 3 of 3" in log_text(app)
        assert "let the others finish" in table_text(app)
        await press_keys(pilot, "n")
        assert session.over
        log = log_text(app)
        assert "Final standings:" in log and "3. You" in log
        assert "The tournament is over" in table_text(app)


@pytest.mark.asyncio
async def test_four_colours_and_english_words(tmp_path: Path) -> None:
    deals = [{"You": "Ad Kc Qh Js 9d", "Bot 2": "Ts 9s 8h 7h 7c"}]
    session = scripted_session(PlayConfig(rules="italian-32", players=2, lang="en"), deals)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while session.my_decision() is not None and ActionKind.DRAW not in (
            session.my_decision().legal.kinds  # type: ignore[union-attr]
        ):
            screen = table_text(app)
            assert "Call" in screen or "Check" in screen
            await press_keys(pilot, "c")
        assert "Stand pat" in table_text(app)
        await press_keys(pilot, "C")
        assert app.four_colour
        assert card_style(session.snapshot().my_cards[0], four_colour=True) == (
            "bold blue on white"
        )
        await press_keys(pilot, "5")
        assert "Change 1 card" in table_text(app)


@pytest.mark.asyncio
async def test_two_timeouts_sit_the_player_out_and_i_brings_them_back(tmp_path: Path) -> None:
    policies = {f"Bot {n}": holdem_policy("nobody", f"Bot {n}") for n in (2, 3)}
    session = scripted_session(
        PlayConfig(rules="holdem", players=3, lang="en"), [], policies=policies
    )
    app = make_app(session, tmp_path)
    clock = session.clock
    assert isinstance(clock, ManualClock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timeouts = 0
        for _ in range(40):
            if session.my_decision() is not None:
                clock.advance(1000)
                app._tick()
                timeouts += 1
            elif session.hand_over:
                await press_keys(pilot, "n")
            if "You are sitting out" in table_text(app):
                break
            await pilot.pause()
        assert timeouts >= 2  # two in a row: sat out from the next hand
        assert "(time out)" in log_text(app)
        await press_keys(pilot, "i")
        assert "You are sitting out" not in table_text(app)
        for _ in range(30):  # back in at the next hand (after the button, if on it)
            if session.table.dealt_in("You"):
                break
            if session.hand_over:
                await press_keys(pilot, "n")
            else:
                await press_keys(pilot, "c")
        assert session.table.dealt_in("You")


@pytest.mark.asyncio
async def test_cards_that_do_not_open_are_told(tmp_path: Path) -> None:
    # Three players: the deck runs from the 8 up.
    deals = [{"Tu": "Ah Qc Td 9s 8c", "Bot 2": "Kh Tc 9c 8d Ad", "Bot 3": "Ks Qd Th 9h 8h"}]
    session = scripted_session(PlayConfig(rules="italian-classic", players=3), deals)
    app = make_app(session, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(3):
            decision = session.my_decision()
            assert decision is not None
            if decision.legal.kinds & {ActionKind.FOLD}:
                break
            await press_keys(pilot, "c")  # no blind opening
        screen = table_text(app)
        assert "Non puoi aprire: serve una coppia di J o meglio" in screen
        assert "Apri" not in screen and "Passo" in screen


@pytest.mark.asyncio
@pytest.mark.parametrize(("players", "blinds"), [(3, "buio 5, controbuio 10"), (4, "over 20")])
async def test_the_header_names_the_blinds_of_the_table_and_fits_80_columns(
    players: int, blinds: str, tmp_path: Path
) -> None:
    # RULES.md §5: the over is posted with more than three players only.
    session = scripted_session(PlayConfig(rules="italian-32", players=players), [], seed=4)
    app = make_app(session, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press_keys(pilot, "C", "C")  # redrawn once laid out
        title = app._table_screen.query_one("#title", Static)
        (line,) = title.render_lines(Region(0, 0, *title.size))
        shown = line.text.strip()
        log = log_text(app)
    assert shown.startswith("Mazziere · italian-32 · cash · buio 5, controbuio 10")
    assert shown.endswith(blinds) and len(shown) <= 78
    assert ("over" in shown) == (players > 3) and ("over" in log) == (players > 3)


def test_a_rooms_header_names_the_blinds_of_the_table_and_fits_80_columns() -> None:
    table = RoomTable(
        id="5", name="32 carte 5/10", rules="italian-32", seats=5, min_buy_in=200,
        max_buy_in=1000, stakes=Stakes(small_blind=5, big_blind=10),
    )  # fmt: skip
    session = RemoteSession(table, buy_in=200, send=lambda message: None, lang="it")
    session.me, session.connected = "guest-1234", True
    for seated, blinds in [(5, "buio 5, controbuio 10, over 20"), (3, "buio 5, controbuio 10")]:
        session.seats = [{"seat": n, "name": f"p{n}", "stack": 500} for n in range(1, seated + 1)]
        title = session.snapshot().title
        assert title == f"italian-32 · 32 carte 5/10 · {blinds} · guest-1234"
        line = header(title, 78)  # the title row of an 80-column screen, less its padding
        assert line.plain.endswith(title) and line.cell_len <= 78
