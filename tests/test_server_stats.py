"""A player's own statistics in the room (``GET /api/stats``), on SQLite and PostgreSQL.

Real hands of each rule set, played in the engine and stored as the room
stores them, are counted by the room and, in the test, by ``StatsBook``
straight from the engine's hands: the figures must be the same, per game
(each rule set, cash tables and tournaments apart), and only the player's own.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.history import phh
from mazziere.history.holdem import to_phh
from mazziere.history.phh_italian import dumps_italian
from mazziere.history.stats import StatsBook
from mazziere.server.storage.models import Hand, HandSeat, Tournament
from tests import italian_play, pokerkit_oracle
from tests.server_client import RoomClient, error_code
from tests.test_server_private import app_client, on_app
from tests.test_web_pages_hands import NAMES, people

__all__ = ["app_client"]  # the fixture: the app on the test's database


def _holdem(seed: int) -> HoldemHand:
    rng = random.Random(seed)
    hand = HoldemHand([200] * 4, blinds=(1, 2), rng=random.Random(seed))
    while not hand.is_over:
        hand.apply(pokerkit_oracle.random_action(hand, rng))
    return hand


def _italian(seed: int) -> ItalianHand:
    rng = random.Random(seed)
    hand = ItalianHand("italian-32", [1_000] * 4, buio=5, rng=random.Random(seed))
    while not hand.is_over:
        hand.apply(italian_play.random_action(hand, rng))
    return hand


def _history(rules: str, hand: Any) -> str:
    if rules == "holdem":
        return phh.dumps(to_phh(hand, players=NAMES))
    return dumps_italian(hand, extra={"players": NAMES, "_seed": "ab" * 32})


def _store(
    client: TestClient, rules: str, hand: Any, ids: list[int], *, tournament: bool = False,
    finished: bool = True,
) -> None:  # fmt: skip
    """The hand as the room stores it: Anna and Bruno at its first two seats, two bots."""

    async def work(session: Any) -> None:
        from sqlalchemy import func, select

        from mazziere.server.storage.models import RoomTable

        table = await session.scalar(select(RoomTable).where(RoomTable.rules == rules))
        number = 1 + await session.scalar(select(func.count()).select_from(Hand))
        event_id = None
        if tournament:
            event = Tournament(
                name="Sit & go", rules=rules, buy_in=100, fee=0, starting_stack=1500, seats=4,
                max_players=4, state="running",
            )  # fmt: skip
            session.add(event)
            await session.flush()
            event_id = event.id
        row = Hand(
            table_id=table.id, tournament_id=event_id, number=number, rules=rules, seed="ab" * 32,
            commitment="c" * 64, setup={}, result=hand.result.to_dict() if finished else None,
            history=_history(rules, hand) if finished else None,
            state="finished" if finished else "playing",
        )  # fmt: skip
        session.add(row)
        await session.flush()
        for position, name in enumerate(NAMES):
            session.add(HandSeat(hand_id=row.id, seat=position + 1, name=name, stack=200,
                                 account_id=ids[position] if position < 2 else None,
                                 bot=None if position < 2 else "basic"))  # fmt: skip

    on_app(client, work)


def _expected(hands: list[Any], name: str) -> dict[str, Any]:
    """``name``'s figures over ``hands``, counted from the engine's own hands."""
    book = StatsBook()
    for hand in hands:
        book.add(hand, NAMES)
    figures = book.players[name].to_dict()
    figures.pop("name")
    return figures


def _games(answer: dict[str, Any]) -> dict[tuple[str, bool], dict[str, Any]]:
    return {(g["rules"], g["tournament"]): g["stats"] for g in answer["games"]}


def test_a_player_sees_their_own_figures_per_game_and_nobody_elses(
    app_client: TestClient,
) -> None:
    anna, bruno, ids = people(app_client)
    holdem = [_holdem(seed) for seed in range(6)]
    italian = [_italian(seed) for seed in range(5)]
    in_tournament = [_holdem(seed) for seed in range(100, 103)]
    for hand in holdem:
        _store(app_client, "holdem", hand, ids)
    for hand in italian:
        _store(app_client, "italian-32", hand, ids)
    for hand in in_tournament:
        _store(app_client, "holdem", hand, ids, tournament=True)
    _store(app_client, "holdem", _holdem(50), ids, finished=False)  # still being played

    answer = anna.get("/api/stats")
    assert answer.status_code == 200, answer.text
    mine = answer.json()
    assert (mine["hands"], mine["limit"], mine["skipped"]) == (14, 1000, 0)
    assert _games(mine) == {
        ("holdem", False): _expected(holdem, "Anna"),
        ("italian-32", False): _expected(italian, "Anna"),
        ("holdem", True): _expected(in_tournament, "Anna"),
    }
    assert [g["stats"]["hands"] for g in mine["games"]] == [6, 5, 3]  # most hands first
    assert "italian" in _games(mine)[("italian-32", False)]
    for other in ("Bruno", "bot-1", "bot-2", "other-"):
        assert other not in answer.text

    theirs = bruno.get("/api/stats").json()
    assert _games(theirs)[("holdem", False)] == _expected(holdem, "Bruno")
    assert _games(theirs)[("italian-32", False)] == _expected(italian, "Bruno")

    # The two most recent hands only: the tournament's last two.
    recent = anna.get("/api/stats?limit=2").json()
    assert recent["hands"] == 2
    assert _games(recent) == {("holdem", True): _expected(in_tournament[1:], "Anna")}

    # A hand that ends is counted at once (the answer kept until then is not given again).
    assert anna.get("/api/stats").json() == mine
    another = _italian(77)
    _store(app_client, "italian-32", another, ids)
    grown = anna.get("/api/stats").json()
    assert grown["hands"] == 15
    assert _games(grown)[("italian-32", False)] == _expected([*italian, another], "Anna")


def test_a_newcomer_has_no_figures_and_bad_requests_get_codes(app_client: TestClient) -> None:
    newcomer = RoomClient(app_client)
    newcomer.post("/api/guest")
    answer = newcomer.get("/api/stats")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"hands": 0, "limit": 1000, "skipped": 0, "games": []}
    for query in ("limit=0", "limit=5001", "limit=many", "limit=1e3"):
        refused = newcomer.get(f"/api/stats?{query}")
        assert (refused.status_code, error_code(refused)) == (422, "invalid_input"), query
    stranger = RoomClient(app_client)
    refused = stranger.get("/api/stats")
    assert refused.status_code == 401
    assert error_code(refused) == "not_logged_in"


def test_a_damaged_history_is_skipped_and_said(app_client: TestClient) -> None:
    anna, _, ids = people(app_client)
    _store(app_client, "holdem", _holdem(1), ids)
    _store(app_client, "holdem", _holdem(2), ids)

    async def damage(session: Any) -> None:
        from sqlalchemy import select

        row = await session.scalar(select(Hand).order_by(Hand.id.desc()).limit(1))
        row.history = "variant = 'NT'\nthis is not a hand"

    on_app(app_client, damage)
    answer = anna.get("/api/stats").json()
    assert (answer["hands"], answer["skipped"]) == (1, 1)
    assert _games(answer)[("holdem", False)] == _expected([_holdem(1)], "Anna")


def test_the_window_slides_and_a_counted_hand_is_not_replayed_again(
    app_client: TestClient,
) -> None:
    """Each hand is replayed once and its figures kept: as hands end, the window of the
    most recent ones moves on (the oldest leaves the figures), and a hand already counted
    is not read again (its history, damaged in the database after it was counted, is still
    counted as it was)."""
    anna, _, ids = people(app_client)
    hands = [_holdem(seed) for seed in range(200, 206)]
    for hand in hands[:3]:
        _store(app_client, "holdem", hand, ids)
    first = anna.get("/api/stats?limit=3").json()
    assert _games(first) == {("holdem", False): _expected(hands[:3], "Anna")}

    async def damage_the_newest(session: Any) -> None:
        from sqlalchemy import select

        row = await session.scalar(select(Hand).order_by(Hand.id.desc()).limit(1))
        row.history = "variant = 'NT'\nthis is not a hand"

    on_app(app_client, damage_the_newest)  # (already counted: not read again)
    for shown in range(4, 7):
        _store(app_client, "holdem", hands[shown - 1], ids)
        answer = anna.get("/api/stats?limit=3").json()
        assert (answer["hands"], answer["skipped"]) == (3, 0)
        recent = hands[shown - 3 : shown]
        assert _games(answer) == {("holdem", False): _expected(recent, "Anna")}, shown
    # The room keeps the figures of the window last counted only: a wider window reads
    # again the hands that left it, and the damaged one is now found damaged.
    wider = anna.get("/api/stats?limit=10").json()
    assert (wider["hands"], wider["skipped"]) == (5, 1)
    assert _games(wider) == {("holdem", False): _expected([*hands[:2], *hands[3:]], "Anna")}
