"""The hand pages' REST: the replay of a hand and its text download, each as one player saw it.

Real hands of the engines are stored the way the table service stores them
(the full history, every record with every card, the result); the replay
must give each record exactly as the engine shows it to that player, and the
text download (PokerStars' for Hold'em, the Italian export otherwise) only
that player's own hole cards and the cards shown.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mazziere.game.core import CardsShown, HoleCardsDealt
from mazziere.game.holdem import HoldemHand
from mazziere.history import phh
from mazziere.history.holdem import to_phh
from mazziere.history.phh_italian import dumps_italian
from mazziere.server.storage.models import Hand, HandAction, HandSeat
from tests.italian_play import random_action
from tests.server_client import RoomClient, error_code
from tests.test_server_private import _italian_hand_with_a_draw, app_client, on_app

__all__ = ["app_client"]  # the fixture: the app on the test's database

NAMES = ["Anna", "Bruno", "bot-1", "bot-2"]


def holdem_hand() -> HoldemHand:
    """A Hold'em hand to a showdown, with a player who folded before it."""
    hand = HoldemHand([200] * 4, blinds=(1, 2), rng=random.Random(11))
    hand.fold()
    while not hand.is_over:
        legal = hand.legal_actions()
        kinds = {k.value for k in legal.kinds}
        if "check" in kinds:
            hand.check()
        elif "call" in kinds:
            hand.call()
        else:
            hand.apply(random_action(hand, random.Random(1)))
    return hand


def store(client: TestClient, rules: str, hand: Any, history: str, ids: list[int]) -> int:
    async def work(session: Any) -> int:
        from sqlalchemy import select

        from mazziere.server.storage.models import RoomTable

        table = await session.scalar(select(RoomTable).where(RoomTable.rules == rules))
        assert hand.result is not None
        row = Hand(
            table_id=table.id, number=1, rules=rules, seed="ab" * 32, commitment="c" * 64,
            setup={}, result=hand.result.to_dict(), history=history, state="finished",
        )  # fmt: skip
        session.add(row)
        await session.flush()
        for position, name in enumerate(NAMES):
            session.add(
                HandSeat(
                    hand_id=row.id, seat=position + 1, name=name,
                    stack=hand.result.stacks[position] - hand.result.payoffs[position],
                    account_id=ids[position] if position < 2 else None,
                    bot=None if position < 2 else "basic",
                )
            )  # fmt: skip
        for number, record in enumerate(hand.log):
            session.add(
                HandAction(
                    hand_id=row.id, number=number, seat=None, kind=record.type,
                    data=record.to_dict(),
                )
            )  # fmt: skip
        return int(row.id)

    hand_id: int = on_app(client, work)
    return hand_id


def people(client: TestClient) -> tuple[RoomClient, RoomClient, list[int]]:
    anna, bruno = RoomClient(client), RoomClient(client)
    anna.register("Anna")
    bruno.register("Bruno")
    return anna, bruno, [b.get("/api/account").json()["id"] for b in (anna, bruno)]


def stored_hand(client: TestClient, rules: str) -> tuple[RoomClient, RoomClient, Any, int]:
    """Anna and Bruno, a real hand of ``rules`` they were dealt into (stored), and its id."""
    anna, bruno, ids = people(client)
    if rules == "holdem":
        hand: Any = holdem_hand()
        history = phh.dumps(to_phh(hand, players=NAMES))
    else:
        hand = _italian_hand_with_a_draw()
        history = dumps_italian(hand, extra={"players": NAMES, "_seed": "ab" * 32})
    return anna, bruno, hand, store(client, rules, hand, history, ids)


def hidden_cards(hand: Any, viewer: int) -> set[str]:
    """Every card dealt to another player that was never shown."""
    shown = {str(c) for r in hand.log if isinstance(r, CardsShown) for c in r.cards}
    return {
        str(card)
        for r in hand.log
        if isinstance(r, HoleCardsDealt) and r.position != viewer
        for card in r.cards
        if str(card) not in shown
    }


@pytest.mark.parametrize("rules", ["italian-32", "holdem"])
def test_the_replay_gives_each_record_as_the_engine_shows_it_to_the_player(
    app_client: TestClient, rules: str
) -> None:
    anna, bruno, hand, hand_id = stored_hand(app_client, rules)
    for viewer, person in enumerate((anna, bruno)):
        answer = person.get(f"/api/hands/{hand_id}/replay")
        assert answer.status_code == 200, answer.text
        replay = answer.json()
        assert replay["you"] == viewer and replay["players"] == NAMES
        assert replay["seats"] == [1, 2, 3, 4] and replay["rules"] == rules
        assert replay["records"] == [r.seen_by(viewer).to_dict() for r in hand.log]
        assert replay["result"]["payoffs"] == list(hand.result.payoffs)
        hidden = hidden_cards(hand, viewer)
        assert hidden, "the other players had cards never shown"
        assert not {c for r in replay["records"] for c in r.get("cards", [])} & hidden
        listed = person.get("/api/hands").json()["hands"]
        assert [(h["id"], h["net"]) for h in listed] == [(hand_id, hand.result.payoffs[viewer])]
        # The table by the name the lobby gives it, in the list and in the replay.
        lobby_name = person.get(f"/api/tables/{replay['table_id']}").json()["name"]
        assert listed[0]["table_name"] == replay["table_name"] == lobby_name != ""
    stranger = RoomClient(app_client)
    stranger.guest()
    for path in ("replay", "text"):
        assert error_code(stranger.get(f"/api/hands/{hand_id}/{path}")) == "no_such_hand"
    assert error_code(anna.get("/api/hands/99999999999/replay")) == "invalid_input"


@pytest.mark.parametrize("rules", ["italian-32", "holdem"])
def test_the_text_download_names_only_the_heros_cards(app_client: TestClient, rules: str) -> None:
    anna, bruno, hand, hand_id = stored_hand(app_client, rules)
    for viewer, person in enumerate((anna, bruno)):
        answer = person.get(f"/api/hands/{hand_id}/text")
        assert answer.status_code == 200, answer.text
        assert "attachment" in answer.headers["content-disposition"]
        text = answer.text
        first = "PokerStars Hand #" if rules == "holdem" else "Mazziere Hand #"
        assert text.startswith(f"{first}{hand_id}:"), text[:80]
        listed = person.get("/api/hands").json()["hands"]
        name = next(h["table_name"] for h in listed if h["id"] == hand_id)
        assert f"Table '{name}' " in text and name  # as the lobby names it, not its number
        assert f"Dealt to {NAMES[viewer]} [" in text
        for other in NAMES:
            if other != NAMES[viewer]:
                assert f"Dealt to {other} [" not in text
        words = set(text.replace("[", " ").replace("]", " ").split())
        assert not words & hidden_cards(hand, viewer), words & hidden_cards(hand, viewer)
