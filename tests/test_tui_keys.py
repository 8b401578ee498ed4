"""Random key presses through many hands of each rule set: the client never breaks, every
hand it plays is settled by the room with the ledger at zero, and every hand history it saves
replays to the stacks the table had."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from textual import events

from mazziere.room.clock import ManualClock
from mazziere.tui.session import PlayConfig, PlaySession
from tests.tui_helpers import make_app, replay_stacks

KEYS = [*"fcbrapdsumjkxyni0123456789", "backspace", "up", "down", "enter", "space", "C"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "game",
    [
        ("italian-classic", 5, False, "it"),
        ("italian-32", 4, True, "en"),
        ("holdem", 6, False, "en"),
    ],
)
async def test_random_keys_never_break_the_game(
    game: tuple[str, int, bool, str], tmp_path: Path, capsys: Any
) -> None:
    rules, players, tournament, lang = game
    rng = random.Random(f"{rules} keys")
    clock = ManualClock()
    config = PlayConfig(
        rules=rules, players=players, tournament=tournament, lang=lang, bots="random"
    )
    session = PlaySession(config, clock=clock, rng=random.Random(7), bot_rng=random.Random(8))
    app = make_app(session, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        for press in range(500):
            key = rng.choice(KEYS)
            # Now and then the clock runs out on the player.
            if press % 97 == 96 and session.my_decision() is not None:
                clock.advance(1000)
                app._tick()
            # The app's key handler at once (Pilot's presses wait for an idle machine:
            # the scenario tests use them; hundreds of keys go straight in here).
            character = key if len(key) == 1 else None
            app.on_key(events.Key(key, character))
            if press % 50 == 0:
                await pilot.pause()
            if session.over:
                break
        await pilot.pause()
        assert session.table.ledger.total() == 0 or session.event is not None
        await pilot.press("q")
        await pilot.press("q")
        await pilot.pause()
    if session.event is not None:
        session.event.chips.check()
        session.event.money.check()
    else:
        session.table.ledger.check()
    # (all-in and the Italian showdown ask again: fewer hands than keys used to make)
    assert len(session.hands) >= (2 if tournament else 6)
    folder = app.return_value
    assert folder is not None
    for played in session.hands[:8]:
        path = folder / f"hand-{played.number:04d}.phh"
        stacks = [Decimal(s) for s in replay_stacks(path, capsys)]
        assert stacks == [Decimal(s) for s in played.stacks]
