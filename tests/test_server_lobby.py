"""The lobby over REST, on SQLite and PostgreSQL: lists, filters, tournament money."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mazziere.server.app import create_app
from mazziere.server.settings import Settings
from tests.server_client import RoomClient, error_code


@pytest.fixture
def app_client(room_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(room_settings)) as client:
        yield client


def test_the_lobby_lists_tables_filtered_by_rules_and_stakes(app_client: TestClient) -> None:
    browser = RoomClient(app_client)
    tables = browser.get("/api/tables").json()["tables"]
    assert len(tables) == 6
    assert all(t["players"] == 0 and t["state"] == "open" for t in tables)
    classic = browser.get("/api/tables", params={"rules": "italian-classic"}).json()["tables"]
    assert [t["stakes"]["label"] for t in classic] == ["invito 10", "invito 50"]
    assert [t["name"] for t in browser.get("/api/tables?stakes=5/10").json()["tables"]] == [
        "Hold'em 5/10",
        "32 carte 5/10",
    ]
    cheap = browser.get("/api/tables", params={"max_stake": 10}).json()["tables"]
    assert {(t["rules"], t["stakes"]["label"]) for t in cheap} == {
        ("holdem", "1/2"),
        ("holdem", "5/10"),
        ("italian-classic", "invito 10"),
        ("italian-32", "5/10"),
    }
    unknown = browser.get("/api/tables", params={"rules": "omaha"})
    assert (unknown.status_code, error_code(unknown)) == (422, "unknown_rules")
    assert unknown.json()["error"]["message"] == (
        "unknown rules 'omaha' (known: holdem, italian-32, italian-classic)"
    )
    negative = browser.get("/api/tables", params={"min_stake": -1})
    assert error_code(negative) == "invalid_input"


def test_the_openapi_page_documents_the_lobby(app_client: TestClient) -> None:
    assert "swagger" in app_client.get("/docs").text.lower()
    paths = app_client.get("/openapi.json").json()["paths"]
    assert {"/api/tables", "/api/tournaments", "/api/login", "/api/guest"} <= set(paths)


def test_registering_pays_buy_in_and_fee_and_unregistering_refunds_both(
    app_client: TestClient,
) -> None:
    anna = RoomClient(app_client)
    anna.guest()
    (sng,) = anna.get("/api/tournaments?rules=italian-32").json()["tournaments"]
    joined = anna.post(f"/api/tournaments/{sng['id']}/registration")
    assert joined.status_code == 201
    assert joined.json()["you_are_registered"] is True
    assert anna.get("/api/account").json()["balance"] == 10_000 - 110
    listed = anna.get("/api/tournaments?rules=italian-32").json()["tournaments"]
    assert [t["you_are_registered"] for t in listed] == [True]
    bruno = RoomClient(app_client)
    bruno.guest()
    others = bruno.get("/api/tournaments?rules=italian-32").json()["tournaments"]
    assert [t["you_are_registered"] for t in others] == [False]
    twice = anna.post(f"/api/tournaments/{sng['id']}/registration")
    assert (twice.status_code, error_code(twice)) == (409, "already_registered")
    left = anna.delete(f"/api/tournaments/{sng['id']}/registration")
    assert left.status_code == 200
    assert left.json()["registered"] == 0
    assert anna.get("/api/account").json()["balance"] == 10_000
    again = anna.delete(f"/api/tournaments/{sng['id']}/registration")
    assert error_code(again) == "not_registered"
    kinds = [(e["kind"], e["amount"]) for e in anna.get("/api/wallet").json()["entries"]]
    assert kinds == [
        ("refund", 10),
        ("refund", 100),
        ("fee", -10),
        ("buy-in", -100),
        ("grant", 10_000),
    ]
    audit = anna.audit()
    assert (audit["total"], audit["drifted"]) == (0, [])
    missing = anna.post("/api/tournaments/999/registration")
    assert (missing.status_code, error_code(missing)) == (404, "no_such_tournament")


def test_a_player_who_cannot_pay_is_refused_and_nothing_moves(
    room_settings: Settings,
) -> None:
    poor = room_settings.model_copy(update={"starting_grant": 105})
    with TestClient(create_app(poor)) as client:
        anna = RoomClient(client)
        anna.guest()
        (sng,) = anna.get("/api/tournaments?rules=holdem").json()["tournaments"]
        refused = anna.post(f"/api/tournaments/{sng['id']}/registration")
        assert (refused.status_code, error_code(refused)) == (409, "insufficient_funds")
        assert anna.get("/api/account").json()["balance"] == 105
        assert anna.get("/api/tournaments?rules=holdem").json()["tournaments"][0]["registered"] == 0
        assert anna.audit()["entries"] == 1  # the grant alone


def test_a_full_sit_and_go_starts_and_a_new_one_opens(app_client: TestClient) -> None:
    players = [RoomClient(app_client) for _ in range(5)]
    for player in players:
        player.guest()
    (sng,) = players[0].get("/api/tournaments?rules=italian-classic").json()["tournaments"]
    assert sng["max_players"] == 4
    for player in players[:4]:
        assert player.post(f"/api/tournaments/{sng['id']}/registration").status_code == 201
    listed = players[0].get("/api/tournaments?rules=italian-classic").json()["tournaments"]
    assert [(t["id"] == sng["id"], t["state"], t["registered"]) for t in listed] == [
        (False, "registering", 0),
        (True, "running", 4),
    ]
    late = players[4].post(f"/api/tournaments/{sng['id']}/registration")
    assert (late.status_code, error_code(late)) == (409, "registration_closed")
    no_refund = players[0].delete(f"/api/tournaments/{sng['id']}/registration")
    assert error_code(no_refund) == "already_started"
    audit = players[0].audit()
    assert audit["total"] == 0
    assert players[4].get("/api/account").json()["balance"] == 10_000


def test_a_tournament_shows_its_levels_players_and_prize_pool(app_client: TestClient) -> None:
    anna, bruno = RoomClient(app_client), RoomClient(app_client)
    anna.register("Anna")
    bruno.guest()
    (sng,) = anna.get("/api/tournaments?rules=holdem").json()["tournaments"]
    anna.post(f"/api/tournaments/{sng['id']}/registration")
    bruno.post(f"/api/tournaments/{sng['id']}/registration")
    details = anna.get(f"/api/tournaments/{sng['id']}").json()
    assert details["players"] == ["Anna", bruno.get("/api/account").json()["name"]]
    assert details["prize_pool"] == 200
    assert details["you_are_registered"] is True
    levels = details["levels"]
    assert [level["number"] for level in levels] == list(range(1, len(levels) + 1))
    assert levels[0]["big_blind"] < levels[-1]["big_blind"]
    assert details["standings"] == []  # the table service writes them once it starts
    missing = anna.get("/api/tournaments/999")
    assert (missing.status_code, error_code(missing)) == (404, "no_such_tournament")


def test_one_table_of_the_lobby(app_client: TestClient) -> None:
    browser = RoomClient(app_client)
    (first, *_) = browser.get("/api/tables").json()["tables"]
    assert browser.get(f"/api/tables/{first['id']}").json() == first
    assert error_code(browser.get("/api/tables/999")) == "no_such_table"


def test_ids_out_of_range_are_bad_input_not_a_crash(app_client: TestClient) -> None:
    browser = RoomClient(app_client)
    browser.guest()
    for path in (
        "/api/tournaments/99999999999",
        "/api/tables/0",
        "/api/hands/99999999999/phh",
        "/api/hands?before=99999999999",
        "/api/tournaments?max_buy_in=10000000000000000000000",
    ):
        answer = browser.get(path)
        assert (answer.status_code, error_code(answer)) == (422, "invalid_input"), path
    registration = browser.post("/api/tournaments/99999999999/registration")
    assert error_code(registration) == "invalid_input"
    assert browser.audit()["entries"] == 1  # the guest's grant alone


def test_a_sit_and_go_lists_its_table_from_its_start(
    app_client: TestClient, room_settings: Settings
) -> None:
    """Its table is in the tournament's page as soon as it starts, before the table's first
    command has stored the seats (a client asking then took it for a cash table)."""
    from sqlalchemy import select

    from mazziere.server.play import _tournament_table
    from mazziere.server.storage.models import Tournament, TournamentRegistration
    from mazziere.server.storage.models import TournamentStanding as Standing
    from tests.test_server_storage import on_database

    players = [RoomClient(app_client) for _ in range(4)]
    for player in players:
        player.guest()
    (sng,) = players[0].get("/api/tournaments?rules=italian-classic").json()["tournaments"]
    for player in players:
        assert player.post(f"/api/tournaments/{sng['id']}/registration").status_code == 201

    async def started(session: Any) -> int:  # what the table service does at the start
        tournament = await session.get(Tournament, sng["id"])
        table = _tournament_table(tournament, f"{tournament.name} #{tournament.id}")
        session.add(table)
        await session.flush()
        for registration in await session.scalars(
            select(TournamentRegistration).where(TournamentRegistration.tournament_id == sng["id"])
        ):
            session.add(Standing(tournament_id=sng["id"], account_id=registration.account_id,
                                chips=tournament.starting_stack, table_id=table.id))  # fmt: skip
        await session.commit()
        return int(table.id)

    table_id = on_database(room_settings, started)
    details = players[0].get(f"/api/tournaments/{sng['id']}").json()
    assert details["state"] == "running"
    assert details["tables"] == [table_id]
    assert details["seating"] == [{"id": table_id, "players": [], "on_break": False}]
