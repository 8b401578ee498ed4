"""A full table's waiting list over the real server's sockets, on SQLite and PostgreSQL.

Three seats at a Hold'em table of the operator's lobby, three people there.  Two more join
the table's waiting list over REST.  When the second person leaves, the room
tells the first player waiting, over their socket (they follow no table), that the seat is
kept for them, and tells nobody else; the lobby says so to them alone; nobody else may take
the seat, a bot included (the player who left joins the list behind them).  The first
player lets the time go by (seconds here): the room then tells the next one, who sits down
and leaves the list.  The ledger adds up.
"""

from __future__ import annotations

import asyncio
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.play_room import Person, running_room, safe, until
from tests.server_db import backend_settings
from tests.test_lobby_file import THREE_SEATS

KEPT_SECONDS = 15  # long enough for the checks while kept, on a loaded machine


def _three_seats(folder: Path) -> dict[str, str]:
    """The room's environment: its lobby the one table of three seats, a seat kept
    :data:`KEPT_SECONDS`."""
    lobby = folder / "lobby.toml"
    lobby.write_text(THREE_SEATS, encoding="utf-8")
    return {"MAZZIERE_LOBBY_FILE": str(lobby), "MAZZIERE_SEAT_KEPT_SECONDS": str(KEPT_SECONDS)}


def _listed(person: Person) -> dict[str, Any]:
    """The lobby's one table, as ``person`` is shown it."""
    (table,) = person.http.get("/api/tables").json()["tables"]
    listed: dict[str, Any] = table
    return listed


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_seat_freed_is_kept_for_the_first_player_waiting_who_is_told(
    backend: str, tmp_path: Path
) -> None:
    env = _three_seats(tmp_path)
    for settings in backend_settings(backend, tmp_path):
        with running_room(settings.database_url, tmp_path, settings.database_schema, env) as room:
            people = [Person(room, seed) for seed in range(5)]
            try:
                asyncio.run(_waiting(*people))
            finally:
                for person in people:
                    person.close()
            audit = room.audit()
            assert audit["total"] == 0 and not audit["drifted"], audit


async def _waiting(
    host: Person, third: Person, leaver: Person, first: Person, second: Person
) -> None:
    table = _listed(host)
    where = str(table["id"])
    everyone = (host, third, leaver, first, second)
    for person in everyone:
        await person.connect()
        person.plays.add(where)  # (at their turn, if they sit: the hands go on)
    for person in (host, third, leaver):
        await person.send(type="sit", table=where, buy_in=200)
    await until(lambda: _listed(host)["players"] == 3, 30)
    for place, person in enumerate((first, second), start=1):
        joined = person.post(f"/api/tables/{where}/waiting-list")
        assert joined.status_code == 201, joined.text
        assert joined.json()["you"] == place
    seen = _listed(first)
    assert (seen["waiting"], seen["you_wait"], seen["seat_kept_seconds"]) == (2, 1, None)
    assert _listed(second)["you_wait"] == 2 and _listed(host)["you_wait"] is None

    # A seat frees: kept for the first player waiting, who alone is told (at no table).
    await leaver.send(type="leave", table=where)
    await until(lambda: first.seen("seat_kept"), 30)
    (told,) = first.seen("seat_kept")
    assert told["table"] == where and 0 < told["seconds"] <= KEPT_SECONDS, told
    assert not second.seen("seat_kept") and not host.seen("seat_kept")
    assert not leaver.seen("seat_kept")
    assert 0 < _listed(first)["seat_kept_seconds"] <= KEPT_SECONDS
    assert _listed(second)["seat_kept_seconds"] is None
    # The seat is not free for anyone else: the player who left may join the list again.
    again = leaver.post(f"/api/tables/{where}/waiting-list")
    assert again.status_code == 201 and again.json()["you"] == 3, again.text
    # Nobody else takes it: not the next player waiting, nor a bot called by the table.
    await second.send(type="sit", table=where, buy_in=200)
    await host.send(type="add_bots", table=where, count=1, kind="basic")
    await until(lambda: len(second.errors) >= 1 and len(host.errors) >= 1, 30)
    assert second.errors[-1]["of"] == "sit" and "waiting list" in second.errors[-1]["message"]
    assert host.errors[-1]["of"] == "add_bots", host.errors
    assert _listed(host)["players"] == 2 and _listed(host)["bots"] == 0

    # Not taken in time: the place is lost, and the next player waiting is told.
    await until(lambda: second.seen("seat_kept"), KEPT_SECONDS + 30)
    assert len(first.seen("seat_kept")) == 1
    assert _listed(first)["you_wait"] is None
    assert _listed(second)["you_wait"] == 1 and _listed(second)["seat_kept_seconds"]
    await second.send(type="sit", table=where, buy_in=200)
    await until(lambda: _listed(host)["players"] == 3, 30)
    assert _listed(host)["waiting"] == 1 and _listed(leaver)["you_wait"] == 1
    assert not leaver.seen("seat_kept")  # no seat free: none kept for them
    for person in everyone:
        await person.disconnect()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_bot_gives_its_seat_up_to_a_person_waiting(backend: str, tmp_path: Path) -> None:
    """A table full with a person and two bots: a person who joins its waiting list is kept
    the seat of a bot, which leaves at the end of the hand it plays (its chips back to the
    room's grants, as a bot leaving does); the ledger adds up."""
    env = _three_seats(tmp_path)
    # The two bots play each other too: one may go broke (and leave at once) before the one
    # that gives its seat up is seen doing it; the room is then tried afresh.
    for attempt in range(3):
        folder = tmp_path / f"try-{attempt}"
        folder.mkdir()
        for settings in backend_settings(backend, folder):
            url, schema = settings.database_url, settings.database_schema
            with running_room(url, folder, schema, env) as room:
                host, waiting = Person(room, 1), Person(room, 2)
                try:
                    asyncio.run(_a_bot_yields(host, waiting))
                except AssertionError:
                    if not _a_bot_went_broke(host):
                        raise
                    continue
                finally:
                    host.close()
                    waiting.close()
                audit = room.audit()
                assert audit["total"] == 0 and not audit["drifted"], audit
                return
    raise AssertionError("a bot went broke in each of three tries")


def _a_bot_went_broke(person: Person) -> bool:
    """Whether ``person`` was shown a bot without chips (it leaves at once)."""
    return any(
        seat["name"].startswith("bot-") and (seat["stack"] == 0 or seat["status"] == "busted")
        for shown in person.seen("seats")
        for seat in shown["seats"]
    )


async def _a_bot_yields(host: Person, waiting: Person) -> None:
    where = str(_listed(host)["id"])
    for person in (host, waiting):
        await person.connect()
        person.plays.add(where)
    host.scripted[where] = lambda person, turn: {"kind": safe(turn["legal"])}  # no all-in

    def bots_seated() -> int:
        shown = host.seen("seats", where)
        return sum(s["name"].startswith("bot-") for s in shown[-1]["seats"]) if shown else 0

    await host.send(type="sit", table=where, buy_in=200)
    await host.send(type="add_bots", table=where, count=2, kind="basic")
    await until(lambda: bots_seated() == 2 or _a_bot_went_broke(host), 30)
    assert bots_seated() == 2 and _listed(waiting)["open_seats"] == 0
    joined = waiting.post(f"/api/tables/{where}/waiting-list")
    assert joined.status_code == 201 and joined.json()["you"] == 1, joined.text
    await until(lambda: waiting.seen("seat_kept"), 60)
    assert _listed(host)["bots"] == 1
    # The bot gave its seat up with chips in front of it: not a broke bot leaving.
    seats = [{s["name"]: s["stack"] for s in m["seats"]} for m in host.seen("seats", where)]
    gone = [set(before) - set(after) for before, after in pairwise(seats)]
    ((bot,),) = [names for names in gone if names]
    assert bot.startswith("bot-") and next(s[bot] for s in reversed(seats) if bot in s) > 0
    await waiting.send(type="sit", table=where, buy_in=200)
    await until(lambda: _listed(host)["players"] == 2, 30)
    assert _listed(host)["waiting"] == 0

    # One bot gave its seat up for the one person: the other plays on with them.
    def dealt_with_them() -> list[list[str]]:
        return [m["names"] for m in host.seen("hand_started", where) if waiting.name in m["names"]]

    await until(dealt_with_them, 60)
    names = dealt_with_them()[0]
    # (the host may be out of that hand: broke, their rebuy offered)
    assert sum(name.startswith("bot-") for name in names) == 1, names
    assert _listed(host)["bots"] == 1
    for person in (host, waiting):
        await person.disconnect()
