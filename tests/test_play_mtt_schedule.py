"""The schedule of the lobby's multi-table tournaments, on SQLite and PostgreSQL, with the
room's clock in the test's hands: one open per rule set, registration closed at the start,
a tournament short of players cancelled and refunded, the next one opened, and a field of
seven seated over two tables at its time (their tables listed with players and stacks)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from mazziere.server.app import create_app
from mazziere.server.play import table_service
from mazziere.server.settings import Settings
from mazziere.server.storage.models import utc_now
from tests.server_client import RoomClient, error_code

EVERY = dt.timedelta(minutes=10)


def until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    """Wait for the schedule (it looks every second) to get there; what ``check`` found."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "the schedule never got there"
        time.sleep(0.1)
    return found


def scheduled(browser: RoomClient, rules: str, state: str = "registering") -> list[Any]:
    listed = browser.get("/api/tournaments", params={"rules": rules, "state": state}).json()
    return [t for t in listed["tournaments"] if t["starts_at"] is not None]


def test_the_schedule_opens_cancels_and_starts_tournaments(room_settings: Settings) -> None:
    now = [utc_now()]
    settings = room_settings.model_copy(update={"scheduled_every_seconds": 600})
    app = create_app(settings, now=lambda: now[0], services=[table_service])
    with TestClient(app) as client:
        browser = RoomClient(client)
        for rules in ("holdem", "italian-classic", "italian-32"):
            (event,) = until(lambda r=rules: scheduled(browser, r))
            starts = dt.datetime.fromisoformat(event["starts_at"])
            assert abs(starts - (now[0] + EVERY)) < dt.timedelta(seconds=2)
        (first,) = scheduled(browser, "holdem")
        people = [RoomClient(client) for _ in range(7)]
        for person in people:
            person.guest()
        grant = people[0].get("/api/wallet").json()["balance"]
        for person in people[:2]:  # two of the four it needs
            joined = person.post(f"/api/tournaments/{first['id']}/registration")
            assert joined.status_code == 201, joined.text
        # What the two would share now, not what a full field of 60 would.
        waiting = browser.get(f"/api/tournaments/{first['id']}").json()
        assert waiting["prize_pool"] == 2 * first["buy_in"]
        assert sum(waiting["payouts"]) == waiting["prize_pool"], waiting["payouts"]

        now[0] = dt.datetime.fromisoformat(first["starts_at"]) + dt.timedelta(seconds=1)
        late = people[2].post(f"/api/tournaments/{first['id']}/registration")
        assert (late.status_code, error_code(late)) == (409, "registration_closed")
        until(lambda: scheduled(browser, "holdem", "cancelled"))
        assert [p.get("/api/wallet").json()["balance"] for p in people[:2]] == [grant, grant]
        (second,) = until(lambda: scheduled(browser, "holdem"))
        assert second["starts_at"] > first["starts_at"]  # the next one, ten minutes on

        for person in people:
            joined = person.post(f"/api/tournaments/{second['id']}/registration")
            assert joined.status_code == 201, joined.text
        now[0] = dt.datetime.fromisoformat(second["starts_at"])
        until(lambda: scheduled(browser, "holdem", "running"))
        details = until(
            lambda: (d := browser.get(f"/api/tournaments/{second['id']}").json())["seating"] and d
        )
        seating = details["seating"]
        assert sorted(len(t["players"]) for t in seating) == [3, 4]  # 7 over 6-seat tables
        assert details["tables"] == [t["id"] for t in seating]
        seated = sorted(s["player"] for t in seating for s in t["players"])
        assert seated == sorted(details["players"])
        assert {s["stack"] for t in seating for s in t["players"]} == {details["starting_stack"]}
        assert browser.audit()["total"] == 0
        # The tournament's tables are not the lobby's cash tables.
        cash = {t["id"] for t in browser.get("/api/tables").json()["tables"]}
        assert not cash & set(details["tables"])
