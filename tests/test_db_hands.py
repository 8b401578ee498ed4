"""The operator reads the tables and the hands they played, on SQLite and PostgreSQL:
``mazziere db tables`` (who sits where now), ``mazziere db hands`` (a player's, two
players' together, a table's) and ``mazziere db hand ID`` (one hand's whole history, every
card), against the real room's database while it runs.

Two guests play each other heads-up at a Hold'em table over real WebSockets for three
hands.  Each player's result in the operator's list is what the room tells that player of
the same hand (``GET /api/hands``), and a hand's history names both and shows both
players' cards, which neither player's own download does.  Bad requests are one line and
exit code 2.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mazziere.history import phh
from tests.play_room import Person, Room, running_room, until
from tests.server_db import backend_settings
from tests.test_db_operator import _db, _refused

LINE = re.compile(
    r"(?P<when>.+) · hand (?P<id>\d+) · table (?P<table>\d+) \(.*\) #\d+ · (?P<results>.+)"
)


def _listed(room: Room, *args: str) -> dict[int, dict[str, int]]:
    """``mazziere db hands ARGS``: each finished hand's results by player."""
    done = _db(room, "hands", *args)
    assert done.returncode == 0, done.stderr
    hands: dict[int, dict[str, int]] = {}
    for line in done.stdout.splitlines():
        match = LINE.fullmatch(line)
        assert match is not None, line
        if match["when"] == "being played":
            continue
        results = (item.rsplit(" ", 1) for item in match["results"].split(", "))
        hands[int(match["id"])] = {name: int(result) for name, result in results}
    return hands


async def _play(people: list[Person], table: dict[str, Any], hands: int) -> str:
    """The two play each other until ``hands`` hands have ended; then they leave."""
    where = str(table["id"])
    for person in people:
        await person.connect()
        person.plays.add(where)
    for seat, person in enumerate(people, start=1):
        await person.send(type="sit", table=where, buy_in=table["max_buy_in"], seat=seat)
    await until(lambda: len(people[0].seen("hand_ended", where)) >= hands, 90)
    for person in people:
        await person.disconnect()
    return where


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_operator_reads_who_played_which_hands_and_each_hands_cards(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    for settings in backend_settings(backend, tmp_path):
        with running_room(settings.database_url, tmp_path, settings.database_schema) as room:
            table = next(t for t in room.tables() if t["rules"] == "holdem")
            people = [Person(room, seed) for seed in (11, 12)]
            try:
                _read_by_the_operator(room, people, table, capsys, monkeypatch)
            finally:
                for person in people:
                    person.close()


def _read_by_the_operator(
    room: Room, people: list[Person], table: dict[str, Any], capsys: Any, monkeypatch: Any
) -> None:
    where = asyncio.run(_play(people, table, hands=3))
    anna, bruno = (person.name for person in people)
    played = _listed(room, "--player", anna)
    assert len(played) >= 3, played
    for results in played.values():
        assert set(results) == {anna, bruno}, results
    # Each player's result is the one the room gives that player for the hand.
    for person in people:
        told = person.http.get("/api/hands").json()["hands"]
        nets = {hand["id"]: hand["net"] for hand in told if hand["id"] in played}
        assert nets == {h: results[person.name] for h, results in played.items()}
    assert _listed(room, "--player", bruno, "--with", anna) == played
    stranger = Person(room, 13)  # dealt into no hand of anna's
    try:
        alone = _db(room, "hands", "--player", anna, "--with", stranger.name)
    finally:
        stranger.close()
    assert alone.stdout == "no hand was played so\n", alone.stdout
    assert _listed(room, "--table", where) == played
    latest = max(played)
    last_one = _db(room, "hands", "--table", where, "--last", "1").stdout
    assert f" · hand {latest} · " in last_one or "being played" in last_one
    # One hand's whole history: both players, both players' cards.
    shown = _db(room, "hand", str(latest))
    assert shown.returncode == 0, shown.stderr
    history = phh.loads(shown.stdout)
    assert sorted(history.get("players")) == sorted([anna, bruno])
    dealt = [a for a in history.get("actions", []) if a.startswith("d dh ")]
    assert len(dealt) == 2 and "??" not in "".join(dealt), dealt
    # Who sits where now: the two, seated still (gone, not up), and the chips of every cash
    # table add up to what the ledger holds at tables.
    listed = _db(room, "tables", "--json")
    assert listed.returncode == 0, listed.stderr
    tables = json.loads(listed.stdout)
    (ours,) = [t for t in tables if str(t["id"]) == where]
    assert ours["kind"] == "cash" and {s[1] for s in ours["seats"]} == {anna, bruno}, ours
    if ours["playing"] is None:
        assert ours["chips"] == sum(s[2] for s in ours["seats"]), ours
    audit = json.loads(_db(room, "audit", "--json").stdout)
    assert sum(t["chips"] for t in tables if t["chips"] is not None) == audit["by_kind"]["table"]
    line = next(
        x for x in _db(room, "tables").stdout.splitlines() if x.startswith(f"table {where} ")
    )
    assert f" · seat 1 {anna} " in line or f" · seat 1 {bruno} " in line, line
    assert _db(room, "tables", "--all").stdout.count("\n") >= len(tables)
    # Refused in one line, exit code 2.
    for args, says in (
        (("hands", "--player", "nobody"), "no account is named 'nobody'"),
        (("hands", "--player", anna, "--with", "guest-0"), "no account is named"),
        (("hand", "999999"), "no hand 999999"),
    ):
        line = _refused(room, capsys, monkeypatch, *args)
        assert line.startswith(f"mazziere: error: {says}"), line
    assert "--last" in _refused(room, capsys, monkeypatch, "hands", "--last", "0")
