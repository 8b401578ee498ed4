"""Accounts over REST, on SQLite and PostgreSQL: guests, names, log-in, CSRF, rate limit, wallet."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from mazziere.server.app import create_app
from mazziere.server.play import table_service
from mazziere.server.security import CSRF_COOKIE, SESSION_COOKIE, hash_token, origin_allowed
from mazziere.server.settings import Settings
from mazziere.server.storage.models import Account, AccountOpening, Session
from tests.server_client import RoomClient, error_code


class Clock:
    """The wall clock of a test: moved by hand."""

    def __init__(self) -> None:
        self.at = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app_client(room_settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(room_settings, now=clock)) as client:
        yield client


@pytest.fixture
def browser(app_client: TestClient) -> RoomClient:
    return RoomClient(app_client)


def another_browser(app_client: TestClient) -> RoomClient:
    """A second browser (its own cookies) on the same running app."""
    return RoomClient(app_client)


async def _rows(app_client: TestClient, model: type) -> list[object]:
    async with app_client.app.state.room.db.session() as session:  # type: ignore[attr-defined]
        return list(await session.scalars(select(model)))


def rows(app_client: TestClient, model: type) -> list[object]:
    """Every row of ``model``, read on the app's own event loop."""
    assert app_client.portal is not None
    return app_client.portal.call(_rows, app_client, model)


def test_a_visitor_gets_a_csrf_cookie_and_nobody_is_logged_in(browser: RoomClient) -> None:
    answer = browser.get("/api/session").json()
    assert answer["account"] is None
    assert answer["csrf_token"] == browser.csrf != ""


def test_a_guest_gets_the_starting_grant_and_an_httponly_samesite_cookie(
    app_client: TestClient, browser: RoomClient
) -> None:
    answer = browser.post("/api/guest")
    assert answer.status_code == 201
    account = answer.json()["account"]
    assert account["guest"] is True
    assert account["name"] == f"guest-{account['id']}"
    assert account["balance"] == 10_000
    cookies = answer.headers.get_list("set-cookie")
    session_cookie = next(c for c in cookies if c.startswith(SESSION_COOKIE + "="))
    assert "HttpOnly" in session_cookie
    assert "samesite=lax" in session_cookie.lower()
    csrf_cookie = next(c for c in cookies if c.startswith(CSRF_COOKIE + "="))
    assert "HttpOnly" not in csrf_cookie  # the page reads it to send it back as a header
    # The database keeps the token's hash, never the token.
    token = browser.jar.get(SESSION_COOKIE)
    assert token
    stored = rows(app_client, Session)
    assert [s.token_hash for s in stored] == [hash_token(token)]  # type: ignore[attr-defined]
    assert browser.get("/api/account").json()["id"] == account["id"]


def test_state_changing_calls_without_the_csrf_header_are_refused_and_change_nothing(
    app_client: TestClient, browser: RoomClient
) -> None:
    refused = app_client.post("/api/guest")
    assert refused.status_code == 403
    assert error_code(refused) == "csrf"
    wrong = app_client.post("/api/guest", headers={"X-CSRF-Token": "not-the-cookie"})
    assert error_code(wrong) == "csrf"
    assert rows(app_client, Account) == []
    assert browser.audit()["entries"] == 0


def test_a_request_from_another_site_is_refused(
    app_client: TestClient, browser: RoomClient
) -> None:
    refused = browser.post("/api/guest", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    assert error_code(refused) == "bad_origin"
    assert rows(app_client, Account) == []
    same_site = browser.post("/api/guest", headers={"Origin": "http://testserver"})
    assert same_site.status_code == 201


def test_the_csrf_token_must_be_the_sessions_own(
    app_client: TestClient, browser: RoomClient
) -> None:
    browser.guest()
    # A token that matches the cookie but is not this session's (a planted cookie).
    browser.jar.delete(CSRF_COOKIE)
    browser.jar.set(CSRF_COOKIE, "planted", domain="testserver.local")
    refused = browser.post("/api/wallet/top-up")
    assert refused.status_code == 403
    assert error_code(refused) == "csrf"


def test_a_guest_takes_a_name_and_logs_in_again_with_it(browser: RoomClient) -> None:
    guest = browser.guest()
    named = browser.post("/api/account/name", {"name": "Anna", "password": "correct horse"})
    assert named.status_code == 200, named.text
    assert named.json() == {"id": guest["id"], "name": "Anna", "guest": False, "balance": 10_000}
    again = browser.post("/api/account/name", {"name": "Other", "password": "correct horse"})
    assert error_code(again) == "not_a_guest"
    assert browser.post("/api/logout").status_code == 200
    assert error_code(browser.get("/api/account")) == "not_logged_in"
    login = browser.post("/api/login", {"name": "anna", "password": "correct horse"})
    assert login.status_code == 200
    assert login.json()["account"]["id"] == guest["id"]


def test_registration_checks_the_name_and_the_password(browser: RoomClient) -> None:
    browser.register("Bruno")
    other = another_browser(browser.http)
    taken = other.post("/api/register", {"name": "BRUNO", "password": "long enough"})
    assert (taken.status_code, error_code(taken)) == (409, "name_taken")
    assert error_code(other.post("/api/register", {"name": "b", "password": "long enough"})) == (
        "bad_name"
    )
    assert error_code(other.post("/api/register", {"name": "guest-4", "password": "x" * 9})) == (
        "bad_name"
    )
    assert error_code(other.post("/api/register", {"name": "Carla", "password": "short"})) == (
        "bad_password"
    )
    malformed = other.post("/api/register", {"name": ["x"], "password": 5})
    assert (malformed.status_code, error_code(malformed)) == (422, "invalid_input")
    assert error_code(other.post("/api/register", {"name": "x", "extra": 1})) == "invalid_input"
    assert other.get("/api/session").json()["account"] is None


def test_passwords_are_stored_as_argon2id_hashes(
    app_client: TestClient, browser: RoomClient
) -> None:
    browser.register("Dario", "a secret phrase")
    (account,) = rows(app_client, Account)
    assert account.password_hash.startswith("$argon2id$")  # type: ignore[attr-defined]
    assert "a secret phrase" not in account.password_hash  # type: ignore[attr-defined]


def test_failed_log_ins_are_limited_per_account(browser: RoomClient) -> None:
    browser.register("Elena", "right password")
    browser.post("/api/logout")
    for _ in range(5):
        wrong = browser.post("/api/login", {"name": "elena", "password": "wrong password"})
        assert error_code(wrong) == "bad_credentials"
    locked = browser.post("/api/login", {"name": "Elena", "password": "right password"})
    assert (locked.status_code, error_code(locked)) == (429, "rate_limited")
    assert int(locked.headers["Retry-After"]) > 0


def test_failed_log_ins_are_limited_per_address(browser: RoomClient) -> None:
    browser.register("Franca", "right password")
    browser.post("/api/logout")
    for n in range(20):  # twenty names, each tried once, from the same address
        assert error_code(browser.post("/api/login", {"name": f"nobody{n}", "password": "x"})) == (
            "bad_credentials"
        )
    locked = browser.post("/api/login", {"name": "Franca", "password": "right password"})
    assert error_code(locked) == "rate_limited"


def test_the_daily_top_up_is_given_once_a_day(clock: Clock, browser: RoomClient) -> None:
    browser.guest()
    wallet = browser.get("/api/wallet").json()
    assert wallet["top_up_available"] is True
    topped = browser.post("/api/wallet/top-up")
    assert topped.status_code == 200
    assert topped.json()["balance"] == 12_000
    assert topped.json()["entries"][0]["kind"] == "top-up"
    again = browser.post("/api/wallet/top-up")
    assert (again.status_code, error_code(again)) == (409, "top_up_taken")
    assert browser.get("/api/account").json()["balance"] == 12_000
    clock.at += dt.timedelta(days=1)
    assert browser.post("/api/wallet/top-up").json()["balance"] == 14_000
    assert browser.audit()["total"] == 0


def test_errors_are_json_with_a_code_never_a_traceback(browser: RoomClient) -> None:
    missing = browser.get("/api/no-such-thing")
    assert (missing.status_code, error_code(missing)) == (404, "not_found")
    not_json = browser.post(
        "/api/login", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert error_code(not_json) == "invalid_input"
    assert "Traceback" not in not_json.text


def test_the_origin_check_for_websockets() -> None:
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert origin_allowed("ws://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origin_allowed("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not origin_allowed("http://127.0.0.1.evil.example", "127.0.0.1:8000")
    assert origin_allowed("https://room.example", "127.0.0.1:8000", ["https://room.example:443"])
    assert not origin_allowed("file://", "127.0.0.1:8000")


def test_the_log_in_limit_holds_across_a_restart_and_ends_with_its_window(
    room_settings: Settings, clock: Clock
) -> None:
    with TestClient(create_app(room_settings, now=clock)) as first:
        browser = RoomClient(first)
        browser.register("Gianna", "right password")
        browser.post("/api/logout")
        for _ in range(5):
            wrong = browser.post("/api/login", {"name": "gianna", "password": "wrong"})
            assert error_code(wrong) == "bad_credentials"
    # Another server process on the same database (or this one, restarted) knows them.
    with TestClient(create_app(room_settings, now=clock)) as second:
        browser = RoomClient(second)
        locked = browser.post("/api/login", {"name": "Gianna", "password": "right password"})
        assert (locked.status_code, error_code(locked)) == (429, "rate_limited")
        assert 0 < int(locked.headers["Retry-After"]) <= 301
        clock.at += dt.timedelta(seconds=301)  # the window has passed
        welcome = browser.post("/api/login", {"name": "Gianna", "password": "right password"})
        assert welcome.status_code == 200, welcome.text


def test_new_accounts_are_limited_per_address_and_the_limit_ends_with_its_window(
    room_settings: Settings, clock: Clock
) -> None:
    assert room_settings.new_accounts_per_address == 20  # the room's default
    with TestClient(create_app(room_settings, now=clock)) as client:
        first = RoomClient(client)
        first.register("Ilaria", "right password")  # a registration counts
        first.post("/api/logout")
        for _ in range(18):  # eighteen guests from the same address
            assert RoomClient(client).post("/api/guest").status_code == 201
        taken = RoomClient(client)  # and the twentieth account
        assert taken.post("/api/guest").status_code == 201
        taken_id = taken.get("/api/account").json()["id"]
        before = len(rows(client, Account))
        late = RoomClient(client)
        refused = late.post("/api/guest")
        assert (refused.status_code, error_code(refused)) == (429, "too_many_accounts")
        assert refused.json()["error"]["message"] == (
            "too many new accounts from this address: try again in 60 min, or log in"
        )
        assert 3_590 <= int(refused.headers["Retry-After"]) <= 3_600
        also = late.post("/api/register", {"name": "Lorena", "password": "right password"})
        assert error_code(also) == "too_many_accounts"
        # Nothing was made: no account, no session, no chip granted.
        assert len(rows(client, Account)) == before
        assert late.get("/api/session").json()["account"] is None
        assert late.audit()["total"] == 0
        # Logging in and a guest taking a name make no account: never refused by it.
        assert (
            late.post("/api/login", {"name": "Ilaria", "password": "right password"}).status_code
            == 200
        )
        named = taken.post("/api/account/name", {"name": "Marta", "password": "right password"})
        assert named.status_code == 200, named.text
        assert taken.get("/api/account").json()["id"] == taken_id
    # Another process on the same database knows the count, until the hour has passed.
    with TestClient(create_app(room_settings, now=clock)) as client:
        assert error_code(RoomClient(client).post("/api/guest")) == "too_many_accounts"
        clock.at += dt.timedelta(minutes=30)
        waiting = RoomClient(client).post("/api/guest")
        assert waiting.json()["error"]["message"].endswith("try again in 30 min, or log in")
        clock.at += dt.timedelta(minutes=30, seconds=1)
        assert RoomClient(client).post("/api/guest").status_code == 201
        # The addresses older than the window are forgotten: only the new one is kept.
        assert len(rows(client, AccountOpening)) == 1


def test_a_room_without_the_limit_makes_every_account_asked(
    room_settings: Settings, clock: Clock
) -> None:
    unlimited = room_settings.model_copy(update={"new_accounts_per_address": 0})
    with TestClient(create_app(unlimited, now=clock)) as client:
        for _ in range(25):
            assert RoomClient(client).post("/api/guest").status_code == 201
        assert rows(client, AccountOpening) == []  # no address is kept either


def test_a_socket_belongs_to_the_sessions_player_until_the_session_expires(
    room_settings: Settings, clock: Clock
) -> None:
    with TestClient(create_app(room_settings, now=clock, services=[table_service])) as client:
        browser = RoomClient(client)
        account = browser.post("/api/guest").json()["account"]
        token = browser.jar.get(SESSION_COOKIE)
        assert token

        def first_message(cookies: dict[str, str]) -> dict[str, object]:
            client.cookies.clear()
            for name, value in cookies.items():
                client.cookies.set(name, value)
            with client.websocket_connect("/ws") as socket:
                message: dict[str, object] = socket.receive_json()
            return message

        welcome = first_message({SESSION_COOKIE: token})
        assert (welcome["type"], welcome["player"]) == ("welcome", account["name"])
        assert first_message({SESSION_COOKIE: "not-a-session"})["code"] == "unauthenticated"
        assert first_message({})["code"] == "unauthenticated"
        clock.at += dt.timedelta(days=31)  # past the session's 30 days
        assert first_message({SESSION_COOKIE: token})["code"] == "unauthenticated"


def test_while_the_database_refuses_writes_reads_answer_and_changes_are_refused(
    room_settings: Settings, clock: Clock, tmp_path: Path
) -> None:
    """A full disk: the lobby, the wallet and the hands still show (a request that changes
    nothing reads in a session that only reads), what would change state is refused with
    ``storage_unavailable`` and changes nothing, and all works again once writes do."""
    flag = tmp_path / "read-only"
    settings = room_settings.model_copy(update={"test_refuse_writes_while": flag})
    with TestClient(create_app(settings, now=clock)) as client:
        browser = RoomClient(client)
        account = browser.guest()
        flag.touch()
        for path in ("/api/session", "/api/account", "/api/wallet", "/api/tables",
                     "/api/tournaments", "/api/hands", "/api/private-tables",
                     "/api/ledger/audit"):  # fmt: skip
            answer = browser.get(path)
            assert answer.status_code == 200, (path, answer.text)
        assert browser.get("/api/session").json()["account"]["id"] == account["id"]
        assert browser.get("/api/wallet").json()["balance"] == account["balance"]
        refused = browser.post("/api/wallet/top-up")
        assert (refused.status_code, error_code(refused)) == (503, "storage_unavailable")
        newcomer = RoomClient(client).post("/api/guest")
        assert (newcomer.status_code, error_code(newcomer)) == (503, "storage_unavailable")
        assert "Traceback" not in refused.text + newcomer.text
        flag.unlink()
        assert len(rows(client, Account)) == 1  # nobody was made while refused
        topped = browser.post("/api/wallet/top-up")
        assert topped.status_code == 200, topped.text
        assert topped.json()["balance"] == account["balance"] + 2_000
        assert browser.audit()["total"] == 0


class _DriverError(Exception):
    """A driver's error carrying PostgreSQL's code, as asyncpg's do."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"SQLSTATE {sqlstate}")
        self.sqlstate = sqlstate


def test_a_database_error_is_a_503_when_the_database_cannot_work_and_a_500_when_it_is_a_bug(
    room_settings: Settings, clock: Clock
) -> None:
    """PostgreSQL's full disk (53100) reaches the room as a plain ``DBAPIError``: the client
    is told to try again (503 ``storage_unavailable``); any other database error (a bad
    column, 42703) is a bug: 500 ``internal_error``. Neither shows a traceback."""
    app = create_app(room_settings, now=clock)

    @app.get("/api/test-database-error/{sqlstate}")
    async def failing(sqlstate: str) -> None:
        raise DBAPIError("INSERT", {}, _DriverError(sqlstate))

    app.router.routes.insert(0, app.router.routes.pop())  # before the pages' catch-all
    with TestClient(app, raise_server_exceptions=False) as client:
        full = client.get("/api/test-database-error/53100")
        bug = client.get("/api/test-database-error/42703")
    assert (full.status_code, error_code(full)) == (503, "storage_unavailable")
    assert full.headers["retry-after"] == "1"
    assert (bug.status_code, error_code(bug)) == (500, "internal_error")
    assert "Traceback" not in full.text + bug.text
