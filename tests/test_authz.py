"""Authorisation: every route that belongs to someone, tried as a stranger (no session), as
another registered player, as a guest and as the owner; sessions that must not outlive
their owner's will (fixation, a cookie stolen before a log-out); cross-site requests and
forged origins.  On SQLite and on PostgreSQL (the ``room_settings`` fixture), through the
room's app with its table service, over REST and the WebSocket.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mazziere.server.app import create_app
from mazziere.server.play import table_service
from mazziere.server.security import CSRF_COOKIE, SESSION_COOKIE
from mazziere.server.settings import Settings
from tests.server_client import RoomClient, error_code, inbox
from tests.server_db import writing_in_the_loop
from tests.test_server_private import HOME_GAME
from tests.test_server_private_sit_and_go import FRIENDS_GAME
from tests.test_web_pages_hands import stored_hand

STRANGER, OTHER, GUEST, OWNER = "stranger", "other", "guest", "owner"


@pytest.fixture
def app_client(room_settings: Settings) -> Iterator[TestClient]:
    """The room's app with its table service (``/ws`` served), on the test's database."""
    app = create_app(writing_in_the_loop(room_settings), services=[table_service])
    with TestClient(app) as client:
        yield client


def browsers(client: TestClient, *, owner: bool = True) -> dict[str, RoomClient]:
    """A stranger (no account), another registered player, a guest and the owner."""
    roles = (STRANGER, OTHER, GUEST, OWNER) if owner else (STRANGER, OTHER, GUEST)
    people = {role: RoomClient(client) for role in roles}
    people[OTHER].register("Altro")
    people[GUEST].guest()
    if owner:
        people[OWNER].register("Anna")
    return people


def statuses(people: dict[str, RoomClient], method: str, path: str, body: Any = None) -> dict:
    """The status each role gets for the same request (each with its own CSRF token)."""
    found = {}
    for role, browser in people.items():
        answer = browser.request(method, path, **({} if body is None else {"json": body}))
        found[role] = answer.status_code
    return found


def test_a_private_tables_routes_answer_only_its_host(app_client: TestClient) -> None:
    people = browsers(app_client)
    created = people[OWNER].post("/api/private-tables", HOME_GAME)
    assert created.status_code == 201, created.text
    table = created.json()
    tid, code = table["id"], table["invite_code"]
    asked = people[OTHER].post(f"/api/invites/{code}/requests", {"buy_in": 500})
    assert asked.status_code == 201
    request_id = asked.json()["id"]
    hosts_only = [
        ("GET", f"/api/private-tables/{tid}/requests", None),
        ("POST", f"/api/private-tables/{tid}/pause", None),
        ("POST", f"/api/private-tables/{tid}/resume", None),
        ("POST", f"/api/private-tables/{tid}/stakes", {"ante": 20}),
    ]
    for method, path, body in hosts_only:
        others = {r: b for r, b in people.items() if r != OWNER}
        found = statuses(others, method, path, body)
        assert found[STRANGER] == 401, (path, found)
        assert found[OTHER] in (403, 404) and found[GUEST] in (403, 404), (path, found)
        mine = people[OWNER].request(method, path, **({} if body is None else {"json": body}))
        assert mine.status_code == 200, (path, mine.text)
    for verb in ("approve", "refuse"):
        path = f"/api/private-tables/{tid}/requests/{request_id}/{verb}"
        found = statuses({r: b for r, b in people.items() if r != OWNER}, "POST", path)
        assert found[STRANGER] == 401 and found[OTHER] in (403, 404), found
        assert found[GUEST] in (403, 404), found
    assert people[OWNER].post(f"/api/private-tables/{tid}/requests/{request_id}/approve").is_success
    # The settle-up: the host and who sat; the table itself: through its invite only.
    found = statuses(people, "GET", f"/api/private-tables/{tid}/settle-up")
    assert found == {STRANGER: 401, OTHER: 403, GUEST: 403, OWNER: 200}, found
    found = statuses(people, "GET", f"/api/tables/{tid}")
    assert set(found.values()) == {404}, found
    found = statuses(people, "GET", f"/api/invites/{code}")
    assert found == {STRANGER: 401, OTHER: 200, GUEST: 200, OWNER: 200}, found
    found = statuses(people, "GET", "/api/invites/not-a-code")
    assert found[STRANGER] == 401 and {found[r] for r in (OTHER, GUEST, OWNER)} == {404}
    # Nobody's list shows a table they neither host nor asked to sit at.
    assert people[GUEST].get("/api/private-tables").json()["tables"] == []
    assert [t["id"] for t in people[OTHER].get("/api/private-tables").json()["tables"]] == [tid]
    # Closing it for good: its host's alone (nobody sits there).
    path = f"/api/private-tables/{tid}/close"
    found = statuses({r: b for r, b in people.items() if r != OWNER}, "POST", path)
    assert found[STRANGER] == 401, found
    assert found[OTHER] in (403, 404) and found[GUEST] in (403, 404), found
    closed = people[OWNER].post(path)
    assert closed.status_code == 200 and closed.json()["state"] == "closed", closed.text


def test_a_private_tables_waiting_list_is_not_for_strangers(app_client: TestClient) -> None:
    people = browsers(app_client)
    tid = people[OWNER].post("/api/private-tables", HOME_GAME).json()["id"]
    for role in (OTHER, GUEST):
        looked = people[role].get(f"/api/tables/{tid}/waiting-list")
        joined = people[role].post(f"/api/tables/{tid}/waiting-list")
        assert looked.status_code == 404 and joined.status_code in (403, 404), (role, joined.text)


@pytest.mark.parametrize("rules", ["holdem", "italian-32"])
def test_hand_downloads_only_for_who_was_dealt_in(app_client: TestClient, rules: str) -> None:
    anna, bruno, _, hand_id = stored_hand(app_client, rules)
    people = browsers(app_client, owner=False)
    for path in ("phh", "replay", "text"):
        url = f"/api/hands/{hand_id}/{path}"
        found = statuses(people, "GET", url)
        assert found[STRANGER] == 401, found
        assert found[OTHER] == found[GUEST] == 404, found  # as a hand that does not exist
        assert anna.get(url).status_code == bruno.get(url).status_code == 200
    assert people[GUEST].get("/api/hands").json()["hands"] == []
    assert [h["id"] for h in anna.get("/api/hands").json()["hands"]] == [hand_id]
    # Statistics: only one's own hands count, and only one's own figures are given.
    assert statuses(people, "GET", "/api/stats")[STRANGER] == 401
    for role in (OTHER, GUEST):
        assert people[role].get("/api/stats").json()["games"] == [], role
    assert anna.get("/api/stats").json()["hands"] == bruno.get("/api/stats").json()["hands"] == 1


def test_a_private_sit_and_gos_routes_answer_only_its_host_and_players(
    app_client: TestClient,
) -> None:
    people = browsers(app_client)
    created = people[OWNER].post("/api/private-sit-and-gos", FRIENDS_GAME)
    assert created.status_code == 201, created.text
    tid, code = created.json()["id"], created.json()["invite_code"]
    others = {r: b for r, b in people.items() if r != OWNER}
    for method, path in [
        ("GET", f"/api/private-sit-and-gos/{tid}"),
        ("GET", f"/api/tournaments/{tid}"),
        ("POST", f"/api/tournaments/{tid}/registration"),
        ("DELETE", f"/api/tournaments/{tid}/registration"),
        ("POST", f"/api/private-sit-and-gos/{tid}/start"),
        ("POST", f"/api/private-sit-and-gos/{tid}/cancel"),
    ]:
        found = statuses(others, method, path)
        expected = {
            STRANGER: 404 if path.startswith("/api/tournaments/") and method == "GET" else 401
        }
        assert found == {**expected, OTHER: 404, GUEST: 404}, (method, path, found)
    found = statuses(people, "GET", f"/api/sit-and-go-invites/{code}")
    assert found == {STRANGER: 401, OTHER: 200, GUEST: 200, OWNER: 200}, found
    assert all(t["id"] != tid for t in people[OTHER].get("/api/tournaments").json()["tournaments"])
    # A player who came through the invite sees it, and may not start or cancel it.
    assert people[GUEST].post(f"/api/sit-and-go-invites/{code}/registration").status_code == 201
    assert people[GUEST].get(f"/api/tournaments/{tid}").status_code == 200
    for verb in ("start", "cancel"):
        assert error_code(people[GUEST].post(f"/api/private-sit-and-gos/{tid}/{verb}")) == (
            "not_the_host"
        )
    assert people[OTHER].get("/api/private-sit-and-gos").json()["sit_and_gos"] == []
    assert people[OWNER].post(f"/api/private-sit-and-gos/{tid}/cancel").is_success
    assert people[OWNER].audit()["total"] == 0


def test_tournament_registration_is_each_players_own(app_client: TestClient) -> None:
    people = browsers(app_client)
    tournaments = people[OWNER].get("/api/tournaments").json()["tournaments"]
    tid = next(t["id"] for t in tournaments if t["state"] == "registering")
    path = f"/api/tournaments/{tid}/registration"
    assert error_code(people[STRANGER].post(path)) in ("not_logged_in", "unauthenticated")
    before = people[OWNER].get("/api/wallet").json()["balance"]
    assert people[OWNER].post(path).status_code == 201
    # Another player's or a guest's DELETE cannot unregister the owner.
    for role in (OTHER, GUEST):
        assert people[role].delete(path).status_code == 409
    entrants = people[OWNER].get(f"/api/tournaments/{tid}").json()
    assert "Anna" in json.dumps(entrants)
    assert people[OWNER].get("/api/wallet").json()["balance"] < before
    assert people[OWNER].delete(path).is_success
    assert people[OWNER].get("/api/wallet").json()["balance"] == before
    assert people[OWNER].audit()["total"] == 0


def test_accounts_and_wallets_are_each_ones_own(app_client: TestClient) -> None:
    people = browsers(app_client)
    for path in ("/api/account", "/api/wallet"):
        assert people[STRANGER].get(path).status_code == 401
        names = {role: people[role].get(path).json() for role in (OTHER, GUEST, OWNER)}
        assert len({json.dumps(n, sort_keys=True) for n in names.values()}) == 3
    assert people[STRANGER].post("/api/wallet/top-up").status_code == 401
    assert people[STRANGER].post("/api/logout").status_code == 401


def test_a_planted_session_cookie_does_not_become_the_victims_session(
    app_client: TestClient,
) -> None:
    attacker, victim = RoomClient(app_client), RoomClient(app_client)
    RoomClient(app_client).register("Vittima")
    attacker.guest()
    planted = attacker.jar.get(SESSION_COOKIE)
    assert planted
    # The attacker's cookies set in the victim's browser (the session and its CSRF token).
    domain = next(c.domain for c in attacker.jar.jar if c.name == SESSION_COOKIE)
    csrf = attacker.csrf
    victim.jar.clear()
    victim.jar.set(SESSION_COOKIE, planted, domain=domain)
    victim.jar.set(CSRF_COOKIE, csrf, domain=domain)
    logged = victim.post("/api/login", {"name": "Vittima", "password": "correct horse"})
    assert logged.status_code == 200, logged.text
    assert victim.jar.get(SESSION_COOKIE) not in (None, planted)
    # The attacker's cookie is nobody's now (the log-in ended the session it came with).
    answer = attacker.get("/api/account")
    assert answer.status_code == 401 or answer.json()["name"] != "Vittima"


def test_a_cookie_stolen_before_the_log_out_opens_nothing_after_it(
    app_client: TestClient,
) -> None:
    owner, thief = RoomClient(app_client), RoomClient(app_client)
    owner.register("Derubato")
    stolen = owner.jar.get(SESSION_COOKIE)
    assert stolen
    thief.jar.set(SESSION_COOKIE, stolen)
    assert thief.get("/api/account").json()["name"] == "Derubato"  # before: it works
    assert owner.post("/api/logout").is_success
    assert thief.get("/api/account").status_code == 401
    with app_client.websocket_connect(
        "/ws", headers={"cookie": f"{SESSION_COOKIE}={stolen}"}
    ) as ws:
        refused = json.loads(ws.receive_text())
        assert refused["type"] == "error" and refused["code"] == "unauthenticated"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4401


def _socket_of(client: TestClient, browser: RoomClient) -> Any:
    """A socket opened with ``browser``'s session cookie (its welcome read)."""
    ws = client.websocket_connect(
        "/ws", headers={"cookie": f"{SESSION_COOKIE}={browser.jar.get(SESSION_COOKIE)}"}
    )
    socket = ws.__enter__()
    assert json.loads(socket.receive_text())["type"] == "welcome"
    return ws, socket


def _closed_as_logged_out(socket: Any) -> None:
    said = json.loads(socket.receive_text())
    assert (said["type"], said["code"]) == ("error", "session_ended"), said
    assert "password was changed" in said["message"]
    with pytest.raises(WebSocketDisconnect):
        socket.receive_text()


def test_a_changed_password_ends_every_other_session_and_socket(app_client: TestClient) -> None:
    phone, laptop, thief = (RoomClient(app_client) for _ in range(3))
    phone.register("Cambia")
    logged_in = laptop.post("/api/login", {"name": "Cambia", "password": "correct horse"})
    assert logged_in.status_code == 200, logged_in.text
    thief.jar.set(SESSION_COOKIE, laptop.jar.get(SESSION_COOKIE))
    sockets = [_socket_of(app_client, browser) for browser in (phone, laptop)]
    change = "/api/account/password"

    # Refused, and nothing changes: a wrong password, a short one, a body that is not one.
    wrong = phone.post(
        change, {"current_password": "wrong horse", "new_password": "battery staple"}
    )
    assert (wrong.status_code, error_code(wrong)) == (401, "bad_credentials")
    short = phone.post(change, {"current_password": "correct horse", "new_password": "short"})
    assert (short.status_code, error_code(short)) == (422, "bad_password")
    for body in ({"new_password": "battery staple"}, {"current_password": 5, "new_password": 6}):
        refused = phone.post(change, body)
        assert (refused.status_code, error_code(refused)) == (422, "invalid_input"), body
    assert thief.get("/api/account").json()["name"] == "Cambia"

    changed = phone.post(
        change, {"current_password": "correct horse", "new_password": "battery staple"}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["account"]["name"] == "Cambia"
    assert phone.get("/api/account").status_code == 200  # this browser: a new session at once
    assert laptop.get("/api/account").status_code == 401  # every other: logged out
    assert thief.get("/api/account").status_code == 401
    for ws, socket in sockets:  # every socket of the account is told and closed
        _closed_as_logged_out(socket)
        ws.__exit__(None, None, None)
    ws, socket = _socket_of(app_client, phone)  # the new session opens one again
    ws.__exit__(None, None, None)
    # The good password cleared the name's count (the wrong one above was its first): four
    # more wrong tries still leave the log-in open (a fifth failure would close it).
    for guess in ("correct horse", "wrong 1", "wrong 2", "wrong 3"):
        old = laptop.post("/api/login", {"name": "Cambia", "password": guess})
        assert old.status_code == 401, old.text
    assert laptop.post("/api/login", {"name": "Cambia", "password": "battery staple"}).is_success


def test_a_password_is_changed_only_by_who_knows_it(app_client: TestClient) -> None:
    people = browsers(app_client)
    change = "/api/account/password"
    body = {"current_password": "correct horse", "new_password": "battery staple"}
    assert statuses(people, "POST", change, body)[STRANGER] == 401
    refused = people[GUEST].post(change, body)
    assert (refused.status_code, error_code(refused)) == (409, "no_password")
    # Guessing through a session costs what guessing at the log-in costs: five tries.
    owner = people[OWNER]
    guesses = [
        owner.post(change, {"current_password": f"guess {n}", "new_password": "battery staple"})
        for n in range(6)
    ]
    assert [g.status_code for g in guesses] == [401] * 5 + [429]
    assert error_code(guesses[-1]) == "rate_limited" and "Retry-After" in guesses[-1].headers
    late = owner.post(change, body)  # the right one too, until the window has passed
    assert (late.status_code, error_code(late)) == (429, "rate_limited")
    assert owner.get("/api/account").status_code == 200
    # The same count as the log-in's: the name is held there too.
    held = RoomClient(app_client).post("/api/login", {"name": "Anna", "password": "correct horse"})
    assert (held.status_code, error_code(held)) == (429, "rate_limited")


def test_cross_site_requests_and_forged_origins_are_refused(app_client: TestClient) -> None:
    people = browsers(app_client)
    owner, other = people[OWNER], people[OTHER]
    before = owner.get("/api/wallet").json()["balance"]
    body = {"json": HOME_GAME}
    refused = [
        owner.request("POST", "/api/private-tables", headers={"X-CSRF-Token": ""}, **body),
        owner.request("POST", "/api/private-tables", headers={"X-CSRF-Token": "forged"}, **body),
        # The attacker's own valid token is not the victim's session's.
        owner.request("POST", "/api/private-tables", headers={"X-CSRF-Token": other.csrf}, **body),
        owner.request(
            "POST", "/api/private-tables", headers={"Origin": "https://evil.example"}, **body
        ),
        owner.request("POST", "/api/wallet/top-up", headers={"Origin": "null"}),
    ]
    assert [a.status_code for a in refused] == [403] * 5, [a.text for a in refused]
    assert {error_code(a) for a in refused} <= {"csrf", "bad_origin"}
    assert owner.get("/api/private-tables").json()["tables"] == []
    assert owner.get("/api/wallet").json()["balance"] == before
    cookie = f"{SESSION_COOKIE}={owner.jar.get(SESSION_COOKIE)}"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        app_client.websocket_connect(
            "/ws", headers={"cookie": cookie, "origin": "https://evil.example"}
        ) as ws,
    ):
        ws.receive_text()
    assert closed.value.code == 4403


def _ws(client: TestClient, browser: RoomClient) -> Any:
    cookie = "; ".join(f"{k}={v}" for k, v in browser.jar.items())
    return client.websocket_connect("/ws", headers={"cookie": cookie})


def _answer(messages: Iterator[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in messages if m["type"] in ("ack", "error", "snapshot"))


def test_a_guest_who_takes_a_name_mid_game_keeps_their_seat(app_client: TestClient) -> None:
    """The seat stays under the guest's name until they leave it; every socket of theirs
    (a reload, another device) finds it (a new socket knew them only by the new name and
    found no table: the seat went on without them)."""
    guest = RoomClient(app_client)
    account_id = guest.guest()["id"]
    tables = guest.get("/api/tables").json()["tables"]
    table = next(t for t in tables if t["rules"] == "holdem")
    tid = str(table["id"])
    with _ws(app_client, guest) as first:
        first_in = inbox(first)
        assert next(first_in)["type"] == "welcome"
        first.send_text(json.dumps({"type": "sit", "v": 1, "table": tid,
                                    "buy_in": table["min_buy_in"]}))  # fmt: skip
        assert _answer(first_in)["type"] == "ack"
    named = guest.post("/api/account/name", {"name": "Nuovo", "password": "correct horse"})
    assert named.status_code == 200, named.text
    with _ws(app_client, guest) as again:
        again_in = inbox(again)
        welcome = next(again_in)
        assert (welcome["player"], welcome["tables"]) == (f"guest-{account_id}", [tid])
        hint = guest.get(f"/api/tables/{tid}/hint").json()
        assert hint["reason"] != "sit at the table first", hint
        again.send_text(json.dumps({"type": "leave", "v": 1, "table": tid}))
        assert _answer(again_in)["type"] == "ack"
    with _ws(app_client, guest) as later:  # no seat left: the new name from now on
        welcome = json.loads(later.receive_text())
        assert (welcome["player"], welcome["tables"]) == ("Nuovo", [])
    assert guest.audit()["total"] == 0


def test_seat_actions_belong_to_the_seated_player(app_client: TestClient) -> None:
    people = browsers(app_client)
    tables = people[OWNER].get("/api/tables").json()["tables"]
    table = next(t for t in tables if t["rules"] == "holdem")
    tid = str(table["id"])
    with _ws(app_client, people[OWNER]) as mine:
        mine_in = inbox(mine)
        assert next(mine_in)["type"] == "welcome"
        mine.send_text(json.dumps({"type": "sit", "v": 1, "table": tid,
                                   "buy_in": table["max_buy_in"]}))  # fmt: skip
        assert _answer(mine_in)["type"] == "ack"
        for role in (OTHER, GUEST):
            with _ws(app_client, people[role]) as theirs:
                theirs_in = inbox(theirs)
                assert next(theirs_in)["type"] == "welcome"
                for message in (
                    {"type": "act", "table": tid, "action_id": 1, "kind": "fold"},
                    {"type": "leave", "table": tid},
                    {"type": "top_up", "table": tid, "amount": 10},
                    {"type": "sit_out", "table": tid},
                    {"type": "add_bots", "table": tid, "count": 1},
                ):
                    theirs.send_text(json.dumps({"v": 1, **message}))
                    answer = _answer(theirs_in)
                    assert answer["code"] == "not_seated", (role, message, answer)
        mine.send_text(json.dumps({"type": "leave", "v": 1, "table": tid}))
        assert _answer(mine_in)["type"] == "ack"
    with _ws(app_client, people[STRANGER]) as nobody:
        refused = json.loads(nobody.receive_text())
        assert refused["code"] == "unauthenticated"
    assert people[OWNER].audit()["total"] == 0
