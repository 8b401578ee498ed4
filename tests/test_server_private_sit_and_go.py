"""Private sit & gos over REST and the WebSocket, on SQLite and PostgreSQL: a host's
tournament among friends, reached through its invite, started when full or by its host,
cancelled with every buy-in refunded; seen, followed and joined only by who may."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mazziere.server.app import create_app
from mazziere.server.play import table_service
from mazziere.server.settings import Settings
from tests.server_client import RoomClient, error_code, inbox
from tests.server_db import writing_in_the_loop

FRIENDS_GAME = {
    "name": "Torneo del giovedì",
    "rules": "holdem",
    "players": 3,
    "buy_in": 100,
    "starting_stack": 1_500,
}


@pytest.fixture
def app_client(room_settings: Settings) -> Iterator[TestClient]:
    """The room's app with its table service: a sit & go that starts gets its table."""
    with TestClient(
        create_app(writing_in_the_loop(room_settings), services=[table_service])
    ) as client:
        yield client


def players(client: TestClient, *names: str) -> list[RoomClient]:
    browsers = [RoomClient(client) for _ in names]
    for browser, name in zip(browsers, names, strict=True):
        browser.register(name)
    return browsers


def balance(browser: RoomClient) -> int:
    return int(browser.get("/api/wallet").json()["balance"])


def create(host: RoomClient, **changes: Any) -> dict[str, Any]:
    created = host.post("/api/private-sit-and-gos", {**FRIENDS_GAME, **changes})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def test_friends_register_through_the_invite_and_it_starts_when_full(
    app_client: TestClient,
) -> None:
    host, bruno, carla, stranger = players(app_client, "Ospite", "Bruno", "Carla", "Estraneo")
    before = {b: balance(b) for b in (host, bruno, carla)}
    game = create(host)
    assert (game["you_are_host"], game["host"], game["players"]) == (True, "Ospite", ["Ospite"])
    assert (game["state"], game["fee"], game["max_players"], game["seats"]) == (
        "registering",
        0,
        3,
        3,
    )
    assert game["invite_link"].endswith(f"/api/sit-and-go-invites/{game['invite_code']}")
    # Not in the lobby, not for a stranger by its number.
    listed = stranger.get("/api/tournaments").json()["tournaments"]
    assert all(t["id"] != game["id"] for t in listed)
    assert error_code(stranger.get(f"/api/tournaments/{game['id']}")) == "no_such_tournament"
    invite = f"/api/sit-and-go-invites/{game['invite_code']}"
    seen = bruno.get(invite).json()
    assert [level["number"] for level in seen["levels"][:2]] == [1, 2]
    assert seen["levels"][0]["length"] == 10  # hands, the room's default
    assert (seen["id"], seen["you_are_host"], seen["you_are_registered"]) == (
        game["id"],
        False,
        False,
    )
    joined = bruno.post(f"{invite}/registration")
    assert joined.status_code == 201, joined.text
    assert joined.json()["players"] == ["Ospite", "Bruno"]
    assert error_code(bruno.post(f"{invite}/registration")) == "already_registered"
    assert bruno.get(f"/api/tournaments/{game['id']}").status_code == 200
    last = carla.post(f"{invite}/registration").json()
    assert (last["state"], last["registered"]) == ("running", 3)
    assert error_code(stranger.post(f"{invite}/registration")) == "registration_closed"
    # Its one table is dealing; the pool is the three buy-ins; no fee went to the house.
    details = carla.get(f"/api/tournaments/{game['id']}").json()
    assert len(details["tables"]) == 1 and details["prize_pool"] == 300
    assert details["private"] is True
    # Its page tells its host they host it (a terminal coming back by its number), nobody else.
    hosts = [b.get(f"/api/tournaments/{game['id']}").json()["you_are_host"] for b in (host, carla)]
    assert hosts == [True, False]
    assert not any(t["private"] for t in listed)
    assert sorted(s["player"] for s in details["standings"]) == ["Bruno", "Carla", "Ospite"]
    assert all(balance(b) == before[b] - 100 for b in before)
    assert [t["id"] for t in carla.get("/api/private-sit-and-gos").json()["sit_and_gos"]] == [
        game["id"]
    ]
    assert stranger.get("/api/private-sit-and-gos").json()["sit_and_gos"] == []
    assert host.audit()["total"] == 0


def test_the_host_starts_it_with_whoever_registered(app_client: TestClient) -> None:
    host, bruno = players(app_client, "Ospite", "Bruno")
    game = create(host, players=4, rules="italian-classic", starting_stack=1_000)
    start = f"/api/private-sit-and-gos/{game['id']}/start"
    assert error_code(host.post(start)) == "not_enough_players"
    bruno.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    assert error_code(bruno.post(start)) == "not_the_host"
    started = host.post(start)
    assert started.status_code == 200, started.text
    assert (started.json()["state"], started.json()["max_players"]) == ("running", 2)
    # It pays as a sit & go of two: the winner takes the pool.
    details = bruno.get(f"/api/tournaments/{game['id']}").json()
    assert details["payouts"] == [200] and len(details["tables"]) == 1
    assert error_code(host.post(start)) == "registration_closed"
    assert error_code(host.post(f"/api/private-sit-and-gos/{game['id']}/cancel")) == (
        "registration_closed"
    )


def test_the_host_cancels_it_and_every_buy_in_comes_back(app_client: TestClient) -> None:
    host, bruno, carla = players(app_client, "Ospite", "Bruno", "Carla")
    before = {b: balance(b) for b in (host, bruno, carla)}
    game = create(host, buy_in=250)
    invite = f"/api/sit-and-go-invites/{game['invite_code']}"
    bruno.post(f"{invite}/registration")
    assert balance(bruno) == before[bruno] - 250
    cancel = f"/api/private-sit-and-gos/{game['id']}/cancel"
    assert error_code(bruno.post(cancel)) == "not_the_host"
    cancelled = host.post(cancel)
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    assert all(balance(b) == before[b] for b in before)
    assert error_code(carla.post(f"{invite}/registration")) == "registration_closed"
    assert carla.get(invite).json()["state"] == "cancelled"
    assert host.audit()["total"] == 0


def test_a_player_leaves_before_the_start_refunded_and_the_host_may_sit_out(
    app_client: TestClient,
) -> None:
    host, bruno = players(app_client, "Ospite", "Bruno")
    before = balance(host)
    game = create(host, host_plays=False)
    assert (game["players"], balance(host)) == ([], before)
    bruno.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    assert bruno.delete(f"/api/tournaments/{game['id']}/registration").is_success
    # Once out, Bruno is a stranger to it again (its invite lets him back).
    assert error_code(bruno.get(f"/api/private-sit-and-gos/{game['id']}")) == ("no_such_tournament")
    assert host.get(f"/api/private-sit-and-gos/{game['id']}").json()["players"] == []
    assert host.post(f"/api/tournaments/{game['id']}/registration").status_code == 201
    assert host.audit()["total"] == 0


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"rules": "poker-cinese"}, "unknown_rules"),
        ({"players": 10}, "invalid_input"),
        ({"players": 1}, "invalid_input"),
        ({"buy_in": -1}, "invalid_input"),
        ({"name": ""}, "invalid_input"),
        ({"level_unit": "days"}, "invalid_input"),
        ({"rake": 5}, "invalid_input"),
        ({"rules": "italian-32", "players": 9}, "bad_tournament"),
        ({"buy_in": 100_000_000}, "insufficient_funds"),
    ],
)
def test_a_bad_private_sit_and_go_is_refused_and_nothing_is_made(
    app_client: TestClient, changes: dict[str, Any], code: str
) -> None:
    (host,) = players(app_client, "Ospite")
    before = balance(host)
    refused = host.post("/api/private-sit-and-gos", {**FRIENDS_GAME, **changes})
    assert error_code(refused) == code, refused.text
    assert host.get("/api/private-sit-and-gos").json()["sit_and_gos"] == []
    assert balance(host) == before


def _ws(client: TestClient, browser: RoomClient) -> Any:
    cookie = "; ".join(f"{k}={v}" for k, v in browser.jar.items())
    return client.websocket_connect("/ws", headers={"cookie": cookie})


def _watch(client: TestClient, browser: RoomClient, table: int) -> dict[str, Any]:
    """What the room answers ``browser`` asking to follow ``table``."""
    with _ws(client, browser) as ws:
        messages = inbox(ws)
        assert next(messages)["type"] == "welcome"
        ws.send_text(json.dumps({"type": "watch", "v": 1, "table": str(table)}))
        return next(m for m in messages if m["type"] in ("snapshot", "error"))


def test_its_table_is_followed_by_its_host_and_players_only(app_client: TestClient) -> None:
    host, bruno, other = players(app_client, "Ospite", "Bruno", "Altro")
    game = create(host, players=2, host_plays=False)
    bruno.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    guest = RoomClient(app_client)
    guest.guest()
    guest.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    table = bruno.get(f"/api/tournaments/{game['id']}").json()["tables"][0]
    for browser in (host, bruno, guest):
        assert _watch(app_client, browser, table)["type"] == "snapshot"
    refused = _watch(app_client, other, table)
    assert (refused["type"], refused["code"]) == ("error", "refused"), refused
    assert "private sit & go" in refused["message"]
    for path in (f"/api/tournaments/{game['id']}", f"/api/private-sit-and-gos/{game['id']}"):
        assert error_code(other.get(path)) == "no_such_tournament"


def test_a_friend_who_cannot_pay_is_refused_and_nothing_moves(app_client: TestClient) -> None:
    host, bruno = players(app_client, "Ospite", "Bruno")
    game = create(host, buy_in=1_000_000, host_plays=False)
    before = balance(bruno)
    refused = bruno.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    assert error_code(refused) == "insufficient_funds", refused.text
    assert "the buy-in (1000000) exceed" in refused.json()["error"]["message"]  # no fee here
    assert balance(bruno) == before
    assert host.get(f"/api/private-sit-and-gos/{game['id']}").json()["players"] == []
    assert host.audit()["total"] == 0


def test_the_host_makes_a_rematch_once_it_is_over(app_client: TestClient) -> None:
    host, bruno, carla = players(app_client, "Ospite", "Bruno", "Carla")
    game = create(host, players=4, level_unit="minutes", level_length=7, break_every=2)
    bruno.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
    again = f"/api/private-sit-and-gos/{game['id']}/rematch"
    assert error_code(host.post(again)) == "not_over"
    assert error_code(bruno.post(again)) == "not_the_host"
    assert error_code(carla.post(again)) == "no_such_tournament"
    host.post(f"/api/private-sit-and-gos/{game['id']}/cancel")
    made = host.post(again)
    assert made.status_code == 201, made.text
    rematch = made.json()
    assert rematch["id"] != game["id"] and rematch["invite_code"] != game["invite_code"]
    same = ("name", "rules", "buy_in", "starting_stack", "seats", "max_players", "level_unit")
    assert {k: rematch[k] for k in same} == {k: game[k] for k in same}
    assert rematch["levels"] == game["levels"]  # the same levels and breaks
    assert (rematch["state"], rematch["players"]) == ("registering", ["Ospite"])  # the host plays
    # Asked twice (a second click): the same rematch.
    twice = host.post(again)
    assert (twice.status_code, twice.json()["id"]) == (200, rematch["id"])
    # Its players find it on the one that is over, and register through its invite.
    old = bruno.get(f"/api/private-sit-and-gos/{game['id']}").json()
    assert (old["rematch_id"], old["rematch_invite_code"]) == (
        rematch["id"],
        rematch["invite_code"],
    )
    joined = bruno.post(f"/api/sit-and-go-invites/{old['rematch_invite_code']}/registration")
    assert joined.json()["players"] == ["Ospite", "Bruno"]
    assert host.audit()["total"] == 0


def test_the_room_says_how_many_each_rule_set_seats(app_client: TestClient) -> None:
    from mazziere.rules import RULESETS

    said = RoomClient(app_client).get("/api/rule-sets").json()["rule_sets"]
    assert {r["name"]: (r["min_players"], r["max_players"]) for r in said} == {
        name: (rules.min_players, rules.max_players) for name, rules in RULESETS.items()
    }
    assert {r["name"]: r["max_players"] for r in said}["italian-32"] == 5
