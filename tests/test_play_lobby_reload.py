"""The operator's lobby file read again while the room runs (``kill -HUP``), on the real
server over real WebSockets: the lobby becomes what the file says, as at a start, without
moving anyone's chips (docs/server.md, *The lobby file*)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.play_room import Person, Room, running_room, until
from tests.server_db import backend_settings
from tests.test_lobby_file import FIRST, SECOND


def read_again(room: Room, text: str | None, said: str) -> None:
    """Write ``text`` as the lobby file (``None``: as it is), send the server ``SIGHUP``,
    and wait for its log to say ``said`` once more than before."""
    if text is not None:
        (room.folder / "lobby.toml").write_text(text, encoding="utf-8")
    before = room.log().count(said)
    assert room.process is not None
    room.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while room.log().count(said) == before:
        assert time.monotonic() < deadline, f"the log never said {said!r}:\n{room.log()}"
        time.sleep(0.1)


def listed(room: Room) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in room.tables()}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_lobby_file_read_again_changes_the_lobby_and_no_ones_chips(
    backend: str, tmp_path: Path
) -> None:
    """The next season's file read while a person sits at the Hold'em table: the Classica
    table (empty) closes and the new table opens and deals; the Hold'em table, changed, stays
    as it is while she sits, and once she left, the next reading replaces it with the new
    stakes.  A file the room would refuse changes nothing, and the room plays on; the ledger
    is at zero throughout."""
    file = tmp_path / "lobby.toml"
    file.write_text(FIRST, encoding="utf-8")
    env = {"MAZZIERE_LOBBY_FILE": str(file)}
    for settings in backend_settings(backend, tmp_path):
        with running_room(settings.database_url, tmp_path, settings.database_schema, env) as room:
            anna, bruno = Person(room, 1), Person(room, 2)
            try:
                asyncio.run(_next_season(room, anna, bruno))
            finally:
                anna.close()
                bruno.close()
            audit = room.audit()
            assert audit["total"] == 0 and not audit["drifted"], audit


async def _next_season(room: Room, anna: Person, bruno: Person) -> None:
    try:
        await _read_twice(room, anna, bruno)
    finally:
        for person in (anna, bruno):
            await person.disconnect()


async def _read_twice(room: Room, anna: Person, bruno: Person) -> None:
    first = listed(room)
    assert sorted(first) == ["Classica invito 5", "Hold'em del circolo"]
    holdem, classica = (
        str(first["Hold'em del circolo"]["id"]),
        str(first["Classica invito 5"]["id"]),
    )
    await anna.connect()
    await anna.send(type="sit", table=holdem, buy_in=100)
    await until(lambda: listed(room)["Hold'em del circolo"]["players"] == 1, 30)
    await bruno.connect()
    await bruno.send(type="watch", table=classica)  # a spectator of the table withdrawn
    await until(lambda: bool(bruno.seen("snapshot", classica)), 30)

    read_again(room, SECOND, "lobby file: table '32 carte 10/20' opened")
    log = room.log()
    assert f"lobby file: table 'Classica invito 5' (number {classica}) closed: not in" in log
    now = listed(room)
    assert sorted(now) == ["32 carte 10/20", "Hold'em del circolo"]
    assert str(now["Hold'em del circolo"]["id"]) == holdem  # she sits there: it stays
    assert now["Hold'em del circolo"]["stakes"]["label"] == "1/2"
    events = anna.http.get("/api/tournaments").json()["tournaments"]
    registering = {t["name"] for t in events if t["state"] == "registering"}
    assert registering == {"Torneo del circolo"}  # the sit & go, with nobody in, cancelled
    assert "tournament 'Torneo del circolo' (number 2) cancelled: changed in the" in log
    assert "lobby file: tournament 'Torneo del circolo' opened (number 3)" in log
    await until(lambda: bool(bruno.seen("closed", classica)), 30)  # he is told
    assert bruno.seen("closed", classica)[-1]["tournament"] is None
    # The new table deals: Bruno sits and calls a bot, and a hand starts.
    new = str(now["32 carte 10/20"]["id"])
    bruno.plays.add(new)
    await bruno.send(type="sit", table=new, buy_in=400)
    await bruno.send(type="add_bots", table=new, count=1, kind="basic")
    await until(lambda: bruno.seen("hand_started", new), 30)
    # The closed table seats nobody.
    await bruno.send(type="sit", table=classica, buy_in=100)
    await until(lambda: any(e.get("table") == classica for e in bruno.errors), 30)
    refused = next(e for e in bruno.errors if e.get("table") == classica)
    assert (refused["code"], refused["message"]) == ("refused", "the table is closed"), refused
    bruno.errors.clear()

    # A file the room would refuse: one line in the log, the lobby as it was.
    file = room.folder / "lobby.toml"
    read_again(room, "x = [\n", f"lobby file not read again, the lobby unchanged: {file}: not TOML")
    assert sorted(listed(room)) == ["32 carte 10/20", "Hold'em del circolo"]

    # She leaves: the next reading replaces the Hold'em table with the file's stakes.
    await anna.send(type="leave", table=holdem)
    await until(lambda: listed(room)["Hold'em del circolo"]["players"] == 0, 30)
    read_again(room, SECOND, 'lobby file: table "Hold\'em del circolo" opened')
    assert f"(number {holdem}) closed: changed in the lobby file" in room.log()
    replaced = listed(room)["Hold'em del circolo"]
    assert str(replaced["id"]) != holdem and replaced["stakes"]["label"] == "2/4", replaced
    assert "32 carte 10/20" in listed(room)  # Bruno plays on there
    assert not bruno.errors, bruno.errors
