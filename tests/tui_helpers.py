"""Helpers for the terminal client's tests: scripted decks and bots, the screen as text, replays."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.widgets import RichLog, Static

from mazziere.bots.base import Bot, Situation
from mazziere.cards import Card, parse_cards
from mazziere.cli import main as cli_main
from mazziere.game.core import Action, ActionKind
from mazziere.room.clock import ManualClock
from mazziere.room.plan import HandPlan
from mazziere.tui.app import PlayApp
from mazziere.tui.session import PlayConfig, PlaySession

Policy = Callable[[Situation], Action]


class ScriptedBot(Bot):
    """A bot whose every decision is the test's ``policy``."""

    kind = "scripted"

    def __init__(self, policy: Policy) -> None:
        super().__init__(random.Random(0))
        self.policy = policy

    def act(self, situation: Situation) -> Action:
        """What the script says."""
        return self.policy(situation)

    def wants_rejoin(self, cost: int, stack: int) -> bool:
        """Always join a parol pot."""
        return True


def italian_policy(situation: Situation) -> Action:
    """Decline the blind, open when the cards allow, call, stand pat, say parol (parole)."""
    kinds = situation.legal.kinds
    if ActionKind.DRAW in kinds:
        return Action(ActionKind.DRAW)
    if not situation.hole:
        return Action.check()  # no blind opening
    if ActionKind.PAROL in kinds:
        return Action(ActionKind.PAROL)
    view = situation.view
    if ActionKind.BET in kinds and view.betting_round == 1 and view.opening is not None:
        return Action.bet(situation.legal.min_to)  # offered only to cards that open
    if ActionKind.CHECK in kinds:
        return Action.check()
    if ActionKind.CALL in kinds:
        return Action.call()
    return Action.timeout()


def holdem_policy(bettor: str, me: str) -> Policy:
    """``bettor`` bets the minimum whenever it may; everyone calls or checks."""

    def policy(situation: Situation) -> Action:
        legal = situation.legal
        kinds = legal.kinds
        if me == bettor and ActionKind.BET in kinds:
            return Action.bet(legal.min_to)
        if ActionKind.CHECK in kinds:
            return Action.check()
        if ActionKind.CALL in kinds:
            return Action.call()
        if ActionKind.ALL_IN in kinds:
            return Action.all_in()
        return Action.fold()

    return policy


def scripted_session(
    config: PlayConfig,
    deals: Sequence[dict[str, str]],
    *,
    policies: dict[str, Policy] | None = None,
    stacks: Sequence[int] | None = None,
    board_game: bool = False,
    seed: int = 1,
) -> PlaySession:
    """A session whose hands are dealt from ``deals`` (one per hand: each player's cards by
    name, and ``"draw"``/``"board"``: the cards after the deal), bots played by policies."""
    bots = {
        f"Bot {n}": ScriptedBot((policies or {}).get(f"Bot {n}", italian_policy))
        for n in range(2, config.players + 1)
    }
    session = PlaySession(
        config, clock=ManualClock(), rng=random.Random(seed), bots=bots, stacks=stacks
    )
    script = iter(deals)

    def deck(plan: HandPlan) -> list[Card] | None:
        deal = next(script, None)
        if deal is None:
            return None
        names = [session.table.seats[seat].name for seat in plan.seats]
        hands = [parse_cards(deal[name]) for name in names]
        size = len(hands[0])
        order = [hands[p][k] for k in range(size) for p in range(len(hands))]
        return order + parse_cards(deal.get("draw", "") + " " + deal.get("board", ""))

    session.deck_source = deck
    return session


def make_app(session: PlaySession, tmp_path: Path) -> PlayApp:
    """The app as tests run it: bots act at once, no timers, histories under ``tmp_path``."""
    return PlayApp(session, bot_delay=0, next_hand_delay=None, tick=False, hands_dir=tmp_path)


def _plain(widget: Static) -> str:
    content: Any = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


def table_text(app: PlayApp) -> str:
    """What the table part of the screen shows now (seats, pots, cards, turn, actions)."""
    screen = app._table_screen
    parts = [
        _plain(screen.query_one(f"#{name}", Static))
        for name in ("title", "seats", "middle", "hand", "turn", "actions", "amount", "status")
    ]
    return "\n".join(parts)


def log_text(app: PlayApp) -> str:
    """What the running log shows, its wrapped lines joined again."""
    log = app._table_screen.query_one("#log", RichLog)
    text = " ".join(strip.text.rstrip() for strip in log.lines)
    return " ".join(text.split())


def replay_stacks(path: Path, capsys: Any) -> list[str]:
    """Finishing stacks of the one hand in ``path``, as ``mazziere replay --json`` prints them."""
    capsys.readouterr()
    code = cli_main(["replay", "--json", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    (hand,) = json.loads(out)["hands"]
    assert hand["error"] is None, hand["error"]
    return list(hand["finishing_stacks"])


SIZE = (150, 45)
"""The terminal size the Pilot tests run at."""


async def press_keys(pilot: Any, *keys: str) -> None:
    """Press ``keys`` in turn, then let the app settle."""
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``mazziere ARGS`` as a user runs it: a subprocess, no terminal, stopped after 30 s."""
    return subprocess.run(
        [sys.executable, "-m", "mazziere.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


def play_hands(session: PlaySession, count: int) -> None:
    """Deal ``count`` hands; the player lets the clock act for them, the bots play."""
    for _ in range(count):
        assert session.start_next_hand()
        while not session.hand_over:
            if session.my_decision() is not None:
                session.act(session.timeout_action())
            else:
                session.play_bot()
