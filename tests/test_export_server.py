"""The room's text download of a tournament hand: the tournament's header, through export_text.

The download and ``mazziere export --tournament`` are one function
(:func:`mazziere.history.export.export_text`); the room gives it the
tournament's number, buy-in and fee, and its levels (breaks left out), so a
sit & go's hand reads as PokerStars writes a tournament's, and pokerkit's
parser reads it back to the hand's finishing stacks.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from fastapi.testclient import TestClient

from mazziere.game.holdem import HoldemHand
from mazziere.history import phh
from mazziere.history.holdem import to_phh
from mazziere.importing import parser_class
from mazziere.server.storage.models import Hand, HandSeat, Tournament, TournamentLevel
from tests.test_server_private import app_client, on_app
from tests.test_web_pages_hands import NAMES, people

__all__ = ["app_client"]  # the fixture: the app on the test's database


def _tournament_hand() -> HoldemHand:
    """A hand of the sit & go's third level (25/50, ante 5)."""
    hand = HoldemHand([1500, 1320, 900, 2280], blinds=(25, 50), ante=5, antes_dead=True,
                      rng=random.Random(4))  # fmt: skip
    hand.raise_to(150)
    hand.call()
    hand.fold()
    hand.fold()
    while not hand.is_over:
        hand.check()
    return hand


def _store(client: TestClient, hand: HoldemHand, ids: list[int]) -> tuple[int, int]:
    async def work(session: Any) -> tuple[int, int]:
        from sqlalchemy import select

        from mazziere.server.storage.models import RoomTable

        table = await session.scalar(select(RoomTable).where(RoomTable.rules == "holdem"))
        event = Tournament(
            name="Sit & go", rules="holdem", buy_in=100, fee=10, starting_stack=1500,
            seats=4, max_players=4, state="finished",
        )  # fmt: skip
        session.add(event)
        await session.flush()
        structure = [(10, 20, 0, 5), (15, 30, 0, 5), (0, 0, 0, 5), (25, 50, 5, 5)]  # a break
        for number, (small, big, ante, length) in enumerate(structure, start=1):
            session.add(TournamentLevel(tournament_id=event.id, number=number, small_blind=small,
                                        big_blind=big, ante=ante, length=length))  # fmt: skip
        assert hand.result is not None
        row = Hand(
            table_id=table.id, tournament_id=event.id, number=7, rules="holdem",
            seed="ab" * 32, commitment="c" * 64, setup={}, result=hand.result.to_dict(),
            history=phh.dumps(to_phh(hand, players=NAMES)), state="finished",
        )  # fmt: skip
        session.add(row)
        await session.flush()
        for position, name in enumerate(NAMES):
            session.add(HandSeat(hand_id=row.id, seat=position + 1, name=name,
                                 stack=hand.setup.stacks[position],
                                 account_id=ids[position] if position < 2 else None,
                                 bot=None if position < 2 else "basic"))  # fmt: skip
        return int(row.id), int(event.id)

    stored: tuple[int, int] = on_app(client, work)
    return stored


def test_a_tournament_hand_is_downloaded_with_its_tournament_header(
    app_client: TestClient,
) -> None:
    anna, _, ids = people(app_client)
    hand = _tournament_hand()
    hand_id, tournament_id = _store(app_client, hand, ids)
    answer = anna.get(f"/api/hands/{hand_id}/text")
    assert answer.status_code == 200, answer.text
    text = answer.text
    first, table = text.splitlines()[:2]
    assert first == (
        f"PokerStars Hand #{hand_id}: Tournament #{tournament_id}, 100+10 Hold'em No Limit"
        " - Level III (25/50)"
    )
    assert table.startswith(f"Table '{tournament_id} ")
    assert "Anna: posts the ante 5" in text and "Dealt to Anna [" in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [history] = list(parser_class("pokerstars")()(text, error_status=True))
    assert list(list(history)[-1].stacks) == list(hand.stacks)
