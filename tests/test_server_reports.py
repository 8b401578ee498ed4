"""A player reports another to the operator (``POST /api/reports``), on SQLite and
PostgreSQL: stored with who, whom, where and why; refused, with its code and nothing
stored, without a log-in, for oneself, for nobody, without a reason and a second time
within the hour; read back as the operator reads them (``storage.reports.reports``)."""

from __future__ import annotations

import asyncio
import datetime as dt

from fastapi.testclient import TestClient

from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage.reports import reports
from tests import test_server_accounts
from tests.server_client import RoomClient, error_code
from tests.test_server_accounts import Clock

# The wall clock the test moves, and the room's app on it (test_server_accounts's).
clock = test_server_accounts.clock
app_client = test_server_accounts.app_client


def read_reports(settings: Settings, player: str | None = None) -> list[str]:
    async def read() -> list[str]:
        database = Database(settings.database_url, schema=settings.database_schema)
        try:
            async with database.reading() as session:
                return [str(line) for line in await reports(session, player=player)]
        finally:
            await database.dispose()

    return asyncio.run(read())


def test_a_player_reports_another_once_an_hour(
    app_client: TestClient, room_settings: Settings, clock: Clock
) -> None:
    bruno, anna, stranger = RoomClient(app_client), RoomClient(app_client), RoomClient(app_client)
    bruno.register("bruno")
    anna.register("Anna")
    guest = RoomClient(app_client)
    shown = guest.guest()["name"]
    made = bruno.post("/api/reports", {"player": "anna", "table": 3, "reason": "  insults \n"})
    assert made.status_code == 201, made.text
    assert made.json()["player"] == "anna"
    for who, body, status, code in (
        (stranger, {"player": "anna", "reason": "x"}, 401, "not_logged_in"),
        (bruno, {"player": "bruno", "reason": "x"}, 422, "bad_report"),
        (bruno, {"player": "nobody", "reason": "x"}, 404, "no_such_player"),
        (bruno, {"player": "Anna", "reason": "   "}, 422, "bad_report"),
        (bruno, {"player": "Anna", "reason": "x" * 201}, 422, "invalid_input"),
        (bruno, {"player": "Anna", "table": 0, "reason": "x"}, 422, "invalid_input"),
        (bruno, {"player": "ANNA", "reason": "again"}, 409, "already_reported"),
    ):
        refused = who.post("/api/reports", body)
        assert (refused.status_code, error_code(refused)) == (status, code), (body, refused.text)
    clock.at += dt.timedelta(minutes=61)
    assert bruno.post("/api/reports", {"player": "anna", "reason": "again"}).status_code == 201
    assert anna.post("/api/reports", {"player": shown, "reason": "spam"}).status_code == 201
    assert read_reports(room_settings) == [
        "2026-12-01 10:00 UTC · bruno reported Anna at table 3: insults",
        "2026-12-01 11:01 UTC · bruno reported Anna: again",
        f"2026-12-01 11:01 UTC · Anna reported {shown}: spam",
    ]
    # Ten reports an hour, whoever they report: the eleventh waits.
    for number in range(2, 10):  # (Bruno's 2nd to 9th of this hour; his 1st was "again")
        RoomClient(app_client).register(f"player{number}")
        made = bruno.post("/api/reports", {"player": f"player{number}", "reason": "spam"})
        assert made.status_code == 201, made.text
    RoomClient(app_client).register("player10")
    assert bruno.post("/api/reports", {"player": "player10", "reason": "spam"}).status_code == 201
    RoomClient(app_client).register("player11")
    eleventh = bruno.post("/api/reports", {"player": "player11", "reason": "spam"})
    assert (eleventh.status_code, error_code(eleventh)) == (429, "rate_limited"), eleventh.text
    assert "at most 10 reports an hour" in eleventh.text
    clock.at += dt.timedelta(minutes=61)
    assert bruno.post("/api/reports", {"player": "player11", "reason": "spam"}).status_code == 201
    assert read_reports(room_settings, shown) == [
        f"2026-12-01 11:01 UTC · Anna reported {shown}: spam"
    ]
