"""End-to-end, on SQLite and on PostgreSQL: a private table's host controls applied by the
running table, over real WebSockets to the real server process.

The host creates a home game that needs approval; a friend may sit only once approved, a
stranger the host refused never.  The host calls bots (strong and random) over REST, changes
the stakes (the hand playing keeps the old ones, the next one takes the new), pauses (the
hand playing is played out, then nothing is dealt, and the pause holds across a restart of
the server) and resumes, and sends the bots away (one while a hand may be playing: it leaves
at the end of the hand; one while paused: at once, its chips cashed out).  A bot that goes
broke leaves at once (the two bots' all-ins break one now and then within a few hands): the
host then calls another, so that there is always a bot to send away.  The settle-up stays
right throughout: every player's result is what their wallet gained or lost, and the
results, the bots' line, the rake and the chips in the pot add up to zero.

A private sit & go, killed mid-game and started again, goes on to its prize, its table
followed by its host and its players and by nobody else.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from mazziere.server.settings import Settings
from tests.play_room import Person, Room, until
from tests.test_play_moments import shover

HOME_GAME = {
    "name": "Da Carla",
    "rules": "holdem",
    "seats": 6,
    "small_blind": 1,
    "big_blind": 2,
    "min_buy_in": 40,
    "max_buy_in": 200,
    "approval_required": True,
}


def passive(person: Person, turn: dict[str, Any]) -> dict[str, Any]:
    """Check, call a small bet, fold to a big one (the people must not go broke: the table
    plays heads-up at the end)."""
    legal = turn["legal"]
    kinds = legal["kinds"]
    if "call" in kinds and legal["to_call"] > 8:
        return {"kind": "fold"}
    for kind in ("check", "call", "show"):
        if kind in kinds:
            return {"kind": kind}
    return {"kind": kinds[0]}


def wallet(person: Person) -> int:
    balance: int = person.http.get("/api/wallet").json()["balance"]
    return balance


def refusals(person: Person, of: str) -> int:
    return sum(1 for error in person.errors if error.get("of") == of)


def started(person: Person, table: str, after_seq: int = 0) -> list[dict[str, Any]]:
    return [m for m in person.seen("hand_started", table) if m["seq"] > after_seq]


def ended_hands(person: Person, table: str) -> set[int]:
    return {m["hand"] for m in person.seen("hand_ended", table)}


def big_blind_of(person: Person, table: str, hand: int) -> int:
    """The biggest blind posted in ``hand`` (from its start record)."""
    for message in person.seen("record", table):
        if message["hand"] == hand and message["record"]["type"] == "start":
            blinds: list[int] = message["record"]["setup"]["blinds"]
            return max(blinds)
    raise AssertionError(f"no start record of hand {hand}")


def settle_up(person: Person, path: str) -> dict[str, Any]:
    settle: dict[str, Any] = person.http.get(f"{path}/settle-up").json()
    bots = settle["bots"]["result"] if settle["bots"] else 0
    total = sum(line["result"] for line in settle["players"]) + bots
    assert total + settle["rake"] + settle["in_pot"] == 0, settle
    return settle


async def paused_and_still(people: list[Person], table: str, seq: int) -> None:
    """The hand playing when the pause came has ended, and no hand starts after it."""
    watcher = people[0]
    await until(
        lambda: all(m["hand"] in ended_hands(watcher, table) for m in started(watcher, table))
    )
    count = len(watcher.seen("hand_started", table))
    await asyncio.sleep(1.0)  # the pause between hands is 0 s here: a hand would be dealt
    assert len(watcher.seen("hand_started", table)) == count
    assert not started(watcher, table, seq)


async def reconnect(people: list[Person], table: str) -> None:
    for person in people:
        welcomed = len(person.seen("welcome"))
        await person.disconnect()
        await person.connect()
        await until(lambda p=person, w=welcomed: len(p.seen("welcome")) > w)
        snapshots = len(person.seen("snapshot", table))
        await person.send(type="resume", table=table, last_seq=person.last_seq(table))
        await until(lambda p=person, n=snapshots: len(p.seen("snapshot", table)) > n)


async def host_controls(room: Room) -> None:
    host, friend, stranger = Person(room, 41), Person(room, 42), Person(room, 43)
    before = {p.name: wallet(p) for p in (host, friend)}
    created = host.post("/api/private-tables", HOME_GAME)
    assert created.status_code == 201, created.text
    table = created.json()
    tid, path, code = str(table["id"]), f"/api/private-tables/{table['id']}", table["invite_code"]
    people = [host, friend]
    for person in (host, friend, stranger):
        await person.connect()

    # Who sits: the host's approval.
    await friend.send(type="sit", table=tid, buy_in=200)
    await until(lambda: refusals(friend, "sit") == 1)
    asked = friend.post(f"/api/invites/{code}/requests", {"buy_in": 200}).json()
    pushy = stranger.post(f"/api/invites/{code}/requests", {"buy_in": 200}).json()
    assert (asked["state"], pushy["state"]) == ("pending", "pending")
    await friend.send(type="sit", table=tid, buy_in=200)  # the request waits for the host
    await until(lambda: refusals(friend, "sit") == 2)
    assert host.post(f"{path}/requests/{asked['id']}/approve").json()["state"] == "approved"
    assert host.post(f"{path}/requests/{pushy['id']}/refuse").json()["state"] == "refused"
    await stranger.send(type="sit", table=tid, buy_in=200)
    await until(lambda: refusals(stranger, "sit") == 1)
    assert "approved" in stranger.errors[-1]["message"]
    # Nor may the stranger watch it (its number is easily guessed), by a watch or a resume;
    # the friend approved may, before sitting.
    await stranger.send(type="watch", table=tid)
    await stranger.send(type="resume", table=tid, last_seq=0)
    await friend.send(type="watch", table=tid)
    await until(lambda: refusals(stranger, "watch") == 1 and refusals(stranger, "resume") == 1)
    await until(lambda: bool(friend.seen("snapshot", tid)))
    assert refusals(friend, "watch") == 0
    for seat, person in enumerate(people, start=1):
        person.plays.add(tid)
        person.scripted[tid] = passive
        await person.send(type="sit", table=tid, buy_in=200, seat=seat)
    await until(lambda: {host.name, friend.name} <= seated(friend, tid))
    assert refusals(friend, "sit") == 2

    # Bots: called by the host alone.
    for kind in ("strong", "random"):
        called = host.post(f"{path}/bots", {"count": 1, "kind": kind})
        assert called.status_code == 200 and called.json()["type"] == "ack", called.text
    refused = friend.post(f"{path}/bots", {"count": 1})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_the_host")
    await friend.send(type="add_bots", table=tid, count=1, kind="basic")
    await until(lambda: refusals(friend, "add_bots") == 1)
    await until(lambda: len(bots_seen(friend, tid)) >= 2)
    await until(lambda: len(ended_hands(friend, tid)) >= 3)

    # The stakes: the next hand takes them.
    changed = host.post(f"{path}/stakes", {"small_blind": 2, "big_blind": 4}).json()
    assert changed["stakes"]["label"] != changed["next_stakes"]["label"]
    await until(lambda: any(m["next_stakes"] for m in friend.seen("table_state", tid)))
    told = next(m for m in friend.seen("table_state", tid) if m["next_stakes"])
    assert told["next_stakes"] == {"small_blind": 2, "big_blind": 4, "ante": 0}
    await until(lambda: bool(started(friend, tid, told["seq"])))
    await until(lambda: len(friend.seen("table_state", tid)) >= 2)
    taken = friend.seen("table_state", tid)[1]
    assert (taken["stakes"]["big_blind"], taken["next_stakes"]) == (4, None)
    for hand in started(friend, tid):
        expected = 4 if hand["seq"] > told["seq"] else 2
        await until(lambda h=hand: any(m["hand"] == h["hand"] and m["record"]["type"] == "start"
                                       for m in friend.seen("record", tid)))  # fmt: skip
        assert big_blind_of(friend, tid, hand["hand"]) == expected
    now = host.http.get(f"/api/invites/{code}").json()
    assert (now["stakes"]["big_blind"], now["next_stakes"]) == (4, None)

    # A bot sent away while the table plays leaves at the end of a hand.
    assert len(bots_seen(friend, tid)) == 2  # the two the host called, none of the friend's
    leaving = await send_away(host, friend, path, tid)
    await until(lambda: leaving not in seated(friend, tid))
    left_at = max(m["seq"] for m in friend.seen("seats", tid) if leaving not in names(m))
    assert all(leaving not in m["names"] for m in started(friend, tid, left_at))
    missing = host.http.delete(f"{path}/bots/{leaving}", headers=csrf(host))
    assert (missing.status_code, missing.json()["error"]["code"]) == (409, "refused")

    # The pause: the hand playing is played out, then nothing; it holds across a restart.
    assert host.post(f"{path}/pause").json()["state"] == "paused"
    await until(lambda: any(m["paused"] for m in friend.seen("table_state", tid)))
    paused_at = next(m for m in friend.seen("table_state", tid) if m["paused"])["seq"]
    await paused_and_still(people, tid, paused_at)
    staying = await a_bot(host, friend, path, tid)
    settle_up(host, path)
    room.stop()
    room.start()
    await reconnect(people, tid)
    assert friend.seen("snapshot", tid)[-1]["paused"] is True
    await paused_and_still(people, tid, paused_at)

    # A bot sent away between hands leaves at once, its chips cashed out.
    before_bot = settle_up(host, path)["bots"]
    shown = friend.seen("snapshot", tid)[-1]["state"]["seats"]
    stack = next(seat["stack"] for seat in shown if seat["name"] == staying)
    assert before_bot["stack"] == stack
    assert host.http.delete(f"{path}/bots/{staying}", headers=csrf(host)).status_code == 200
    await until(lambda: staying not in seated(friend, tid))
    after_bot = settle_up(host, path)["bots"]
    assert after_bot["cashed_out"] == before_bot["cashed_out"] + stack
    assert after_bot["stack"] == 0

    # Resumed: hands are dealt again (heads-up now).
    assert host.post(f"{path}/resume").json()["state"] == "open"
    dealt = len(ended_hands(friend, tid))
    await until(lambda: len(ended_hands(friend, tid)) >= dealt + 2)
    assert host.post(f"{path}/pause").json()["state"] == "paused"
    await until(lambda: sum(m["paused"] for m in friend.seen("table_state", tid)) >= 2)
    last_pause = [m for m in friend.seen("table_state", tid) if m["paused"]][-1]["seq"]
    await paused_and_still(people, tid, last_pause)

    # Everybody leaves: the settle-up is what each wallet won or lost.
    for person in people:
        await person.send(type="leave", table=tid)
    await until(lambda: not seated(friend, tid))
    settle = settle_up(host, path)
    lines = {line["player"]: line for line in settle["players"]}
    assert set(lines) == {host.name, friend.name}
    for person in people:
        line = lines[person.name]
        assert line["stack"] == 0 and line["bought_in"] == 200
        assert line["result"] == wallet(person) - before[person.name]
    assert settle["in_pot"] == 0
    # The stranger heard nothing of the table all along: its refusals only.
    heard = [m for m in stranger.messages if m.get("table") == tid and m["type"] != "error"]
    assert heard == [], heard[:3]
    for person in (host, friend, stranger):
        await person.disconnect()
        person.close()


def csrf(person: Person) -> dict[str, str]:
    from mazziere.server.security import CSRF_COOKIE

    return {"X-CSRF-Token": person.http.cookies.get(CSRF_COOKIE) or ""}


def names(seats: dict[str, Any]) -> set[str]:
    return {seat["name"] for seat in seats["seats"]}


def seated(person: Person, table: str) -> set[str]:
    shown = person.seen("seats", table)
    return names(shown[-1]) if shown else set()


def bots_seen(person: Person, table: str) -> set[str]:
    """Every bot that has sat at the table (one gone broke since, too)."""
    return {n for m in person.seen("seats", table) for n in names(m) if n.startswith("bot-")}


async def a_bot(host: Person, friend: Person, path: str, table: str) -> str:
    """A bot sitting at the table: one of those playing, or, if they all went broke (and so
    left), one the host calls now."""
    playing = sorted(n for n in seated(friend, table) if n.startswith("bot-"))
    if playing:
        return playing[0]
    called = host.post(f"{path}/bots", {"count": 1, "kind": "strong"})
    assert called.status_code == 200 and called.json()["type"] == "ack", called.text
    await until(lambda: any(n.startswith("bot-") for n in seated(friend, table)))
    return min(n for n in seated(friend, table) if n.startswith("bot-"))


async def send_away(host: Person, friend: Person, path: str, table: str) -> str:
    """The host sends a bot away while the table plays: the bot's name.  It is refused only
    if the bot went broke and left meanwhile (then another is sent away)."""
    for _ in range(3):
        bot = await a_bot(host, friend, path, table)
        gone = host.http.delete(f"{path}/bots/{bot}", headers=csrf(host))
        if gone.status_code == 200:
            return bot
        assert (gone.status_code, gone.json()["error"]["code"]) == (409, "refused"), gone.text
        await until(lambda b=bot: b not in seated(friend, table))
    raise AssertionError("no bot stayed long enough to be sent away")


def play_balanced(room_settings: Settings, tmp_path: Path, scenario: Any) -> None:
    """Run ``scenario(room)`` against a real room, whose ledger is at zero after it."""
    room = Room(room_settings.database_url, tmp_path, room_settings.database_schema)
    room.start()
    try:
        asyncio.run(scenario(room))
        audit = room.audit()
        assert audit["total"] == 0 and not audit["drifted"], audit
    finally:
        room.stop()


def test_the_host_controls_a_running_private_table(room_settings: Settings, tmp_path: Path) -> None:
    play_balanced(room_settings, tmp_path, host_controls)


async def host_closes(room: Room) -> None:
    """A home game's last night: the friend plays with the host's bots, then leaves, and the
    host closes the table; a restart keeps it closed."""
    host, friend, stranger = Person(room, 51), Person(room, 52), Person(room, 53)
    created = host.post("/api/private-tables", {**HOME_GAME, "approval_required": False})
    assert created.status_code == 201, created.text
    table = created.json()
    tid, path, code = str(table["id"]), f"/api/private-tables/{table['id']}", table["invite_code"]
    for person in (host, friend, stranger):
        await person.connect()
    await host.send(type="watch", table=tid)  # the host follows the table, not seated
    asked = friend.post(f"/api/invites/{code}/requests", {"buy_in": 200})
    assert asked.json()["state"] == "approved", asked.text
    friend.plays.add(tid)
    friend.scripted[tid] = passive
    await friend.send(type="sit", table=tid, buy_in=200, seat=1)
    called = host.post(f"{path}/bots", {"count": 2, "kind": "basic"})
    assert called.status_code == 200, called.text
    await until(lambda: len(ended_hands(host, tid)) >= 2)

    def closing(person: Person) -> tuple[int, str]:
        answer = person.post(f"{path}/close")
        return answer.status_code, answer.json()["error"]["code"]

    # Only the host closes it, and not while the friend plays there.
    assert closing(friend) == (403, "not_the_host")
    assert closing(stranger) == (403, "not_the_host")
    assert closing(host) in {(409, "players_seated"), (409, "hand_playing")}
    await friend.send(type="leave", table=tid)
    await until(lambda: friend.name not in seated(host, tid))
    for _ in range(100):  # the hand the bots were playing, if any, ends first
        answer = host.post(f"{path}/close")
        if answer.status_code == 200:
            break
        assert answer.json()["error"]["code"] == "hand_playing", answer.text
        await asyncio.sleep(0.1)
    assert answer.status_code == 200 and answer.json()["state"] == "closed", answer.text

    # Its followers are told; its bots left first, their chips back; the accounts stay.
    await until(lambda: bool(host.seen("closed", tid)))
    told = host.seen("closed", tid)[-1]
    assert (told["tournament"], told["over"], told["tables"]) == (None, True, [])
    assert seated(host, tid) == set()
    settle = settle_up(host, path)
    assert settle["bots"]["stack"] == 0 and settle["in_pot"] == 0
    dealt = len(host.seen("hand_started", tid))

    # Nothing more happens there: no sit, no bot, no invite, no second close.
    await friend.send(type="sit", table=tid, buy_in=200, seat=1)
    await until(lambda: refusals(friend, "sit") == 1)
    assert "closed" in friend.errors[-1]["message"]
    again = host.post(f"{path}/bots", {"count": 1, "kind": "basic"})
    assert again.status_code == 409, again.text
    assert closing(host) == (409, "table_closed")
    assert host.http.get(f"/api/invites/{code}").status_code == 410
    await asyncio.sleep(0.5)
    assert len(host.seen("hand_started", tid)) == dealt

    # A restart keeps it closed.
    for person in (host, friend, stranger):
        await person.disconnect()
    room.stop()
    room.start()
    listed = {t["id"]: t for t in host.http.get("/api/private-tables").json()["tables"]}
    assert listed[table["id"]]["state"] == "closed"
    await friend.connect()
    await friend.send(type="sit", table=tid, buy_in=200, seat=1)
    await until(lambda: refusals(friend, "sit") == 2)
    assert settle_up(host, path) == settle
    await friend.disconnect()
    for person in (host, friend, stranger):
        person.close()


def test_the_host_closes_the_table_once_nobody_plays_there(
    room_settings: Settings, tmp_path: Path
) -> None:
    play_balanced(room_settings, tmp_path, host_closes)


async def host_closes_with_a_pot_carried(room: Room) -> None:
    """Poker all'italiana at home: the host and a friend only pass, so every hand is dead
    and its invitos stay in the middle for the next; the host pauses, both leave, and the
    host closes the table: the pot carried to a hand never dealt goes back to the two who
    built it (each their share, in their wallets, as the settle-up says), also after a
    restart.  A third friend, on the full table's waiting list, is told by the invite that
    the table closed, and waits no more."""
    host, friend, third = Person(room, 71), Person(room, 72), Person(room, 73)
    game = {**HOME_GAME, "rules": "italian-classic", "approval_required": False, "seats": 2}
    game["min_buy_in"] = 100
    del game["small_blind"], game["big_blind"]  # the home game's invito
    created = host.post("/api/private-tables", game)
    assert created.status_code == 201, created.text
    table = created.json()
    tid, path, code = str(table["id"]), f"/api/private-tables/{table['id']}", table["invite_code"]
    before = {person.name: wallet(person) for person in (host, friend)}
    assert friend.post(f"/api/invites/{code}/requests", {"buy_in": 200}).status_code == 201
    for seat, person in enumerate((host, friend), start=1):
        await person.connect()
        person.plays.add(tid)
        person.scripted[tid] = passive  # (they check: nobody opens)
        await person.send(type="sit", table=tid, buy_in=200, seat=seat)
    await until(lambda: seated(host, tid) == {host.name, friend.name})
    assert third.post(f"/api/invites/{code}/requests", {"buy_in": 200}).status_code == 201
    waits = third.post(f"/api/tables/{tid}/waiting-list")
    assert waits.status_code == 201 and waits.json()["you"] == 1, waits.text

    def carried() -> int:
        shown = host.seen("seats", tid)
        return int(shown[-1]["carried_pot"]) if shown else 0

    await until(lambda: len(ended_hands(host, tid)) >= 2 and carried() > 0)
    assert host.post(f"{path}/pause").json()["state"] == "paused"
    await until(lambda: any(m["paused"] for m in friend.seen("table_state", tid)))
    paused_at = next(m for m in friend.seen("table_state", tid) if m["paused"])["seq"]
    await paused_and_still([host, friend], tid, paused_at)
    pot = carried()
    assert pot > 0
    for person in (host, friend):
        await person.send(type="leave", table=tid)
    await until(lambda: seated(host, tid) == set())
    assert {p.name: wallet(p) for p in (host, friend)} == {
        name: amount - pot // 2 for name, amount in before.items()
    }
    assert settle_up(host, path)["in_pot"] == pot
    assert await waiting_rows(room, int(tid)) == 1  # (a seat kept for the third, maybe)

    answer = host.post(f"{path}/close")
    assert answer.status_code == 200 and answer.json()["state"] == "closed", answer.text
    assert {person.name: wallet(person) for person in (host, friend)} == before
    invite = third.http.get(f"/api/invites/{code}")
    assert (invite.status_code, invite.json()["error"]["code"]) == (410, "table_closed")
    assert await waiting_rows(room, int(tid)) == 0
    settle = settle_up(host, path)
    assert settle["in_pot"] == 0
    assert {line["player"]: line["result"] for line in settle["players"]} == {
        host.name: 0,
        friend.name: 0,
    }
    for person in (host, friend):
        await person.disconnect()
    room.stop()
    room.start()
    assert settle_up(host, path) == settle
    assert {person.name: wallet(person) for person in (host, friend)} == before
    for person in (host, friend, third):
        person.close()


async def waiting_rows(room: Room, table_id: int) -> int:
    """How many rows of the table's waiting list the database holds."""
    from sqlalchemy import func, select

    from mazziere.server.storage import Database
    from mazziere.server.storage.models import WaitingEntry

    database = Database(room.url, schema=room.schema)
    try:
        async with database.session() as session:
            query = select(func.count()).where(WaitingEntry.table_id == table_id)
            return int(await session.scalar(query) or 0)
    finally:
        await database.dispose()


def test_a_pot_carried_at_the_close_goes_back_to_who_built_it(
    room_settings: Settings, tmp_path: Path
) -> None:
    play_balanced(room_settings, tmp_path, host_closes_with_a_pot_carried)


async def age(room: Room, table_ids: list[int], days: float, *, chips: bool = True) -> None:
    """Make the tables ``days`` older, and every chip moved at them unless not ``chips``
    (the room stopped)."""
    import datetime as dt

    from sqlalchemy import select

    from mazziere.server.storage import Database
    from mazziere.server.storage.models import LedgerEntry, RoomTable

    database = Database(room.url, schema=room.schema)
    back = dt.timedelta(days=days)
    try:
        async with database.session() as session:
            rows: list[RoomTable | LedgerEntry] = list(
                await session.scalars(select(RoomTable).where(RoomTable.id.in_(table_ids)))
            )
            if chips:
                query = select(LedgerEntry).where(LedgerEntry.table_id.in_(table_ids))
                rows += await session.scalars(query)
            for row in rows:
                row.created_at -= back
            await session.commit()
    finally:
        await database.dispose()


async def forgotten_tables(room: Room) -> None:
    """Three home games left for eight days: one with its host's bot, one nobody ever sat at,
    one where a friend still sits (away), and one older still whose bot bought in today.
    The room, started again, closes the first two as their hosts would (the bot leaves
    with its chips), and leaves the other two open."""
    host, friend = Person(room, 61), Person(room, 62)
    game = {**HOME_GAME, "approval_required": False}
    made = [
        host.post("/api/private-tables", {**game, "name": f"Casa {n}"}).json() for n in range(4)
    ]
    with_bot, empty, friends, recent = (str(t["id"]) for t in made)
    for table in (with_bot, recent):
        assert host.post(f"/api/private-tables/{table}/bots", {"count": 1}).status_code == 200
    code = made[2]["invite_code"]
    assert friend.post(f"/api/invites/{code}/requests", {"buy_in": 200}).status_code == 201
    await friend.connect()
    await friend.send(type="sit", table=friends, buy_in=200, seat=1)
    await until(lambda: any(m["of"] == "sit" for m in friend.seen("ack", friends)))
    await friend.disconnect()
    room.stop()
    await age(room, [int(t) for t in (with_bot, empty, friends)], days=8)
    await age(room, [int(recent)], days=8, chips=False)  # its bot bought in today
    room.start()
    said = "closed: nobody played there for 7 days"
    await until(lambda: room.log().count(said) == 2, 30)
    states = {
        str(t["id"]): t["state"] for t in host.http.get("/api/private-tables").json()["tables"]
    }
    assert states == {with_bot: "closed", empty: "closed", friends: "open", recent: "open"}, states
    assert settle_up(host, f"/api/private-tables/{with_bot}")["bots"]["stack"] == 0
    for person in (host, friend):
        person.close()


def test_a_private_table_nobody_plays_at_for_a_week_closes(
    room_settings: Settings, tmp_path: Path
) -> None:
    play_balanced(room_settings, tmp_path, forgotten_tables)


async def private_sit_and_go_across_a_kill(room: Room) -> None:
    """A host who does not play makes a private sit & go of two; two friends fill it and
    play; the server is killed mid-game and started again: the sit & go goes on, its table
    still followed by its host and its players only, and it ends with its prize paid."""
    host, anna, bruno, stranger = (Person(room, seed) for seed in (71, 72, 73, 74))
    made = host.post(
        "/api/private-sit-and-gos",
        {"name": "Tra amici", "rules": "holdem", "players": 2, "buy_in": 100,
         "starting_stack": 300, "level_length": 2, "host_plays": False},
    )  # fmt: skip
    assert made.status_code == 201, made.text
    game = made.json()
    for friend in (anna, bruno):
        joined = friend.post(f"/api/sit-and-go-invites/{game['invite_code']}/registration")
        assert joined.status_code == 201, joined.text
    details = anna.http.get(f"/api/tournaments/{game['id']}").json()
    table = str(details["tables"][0])
    people = [host, anna, bruno, stranger]
    for person in people:
        await person.connect()
    await until(lambda: all(p.seen("welcome") for p in people))
    for friend in (anna, bruno):
        friend.plays.add(table)
        friend.scripted[table] = passive
        await friend.send(type="resume", table=table, last_seq=0)
    await until(lambda: len(ended_hands(anna, table)) >= 2)
    for person in people:
        await person.disconnect()
    room.stop(signal.SIGKILL)
    room.start()
    for person in people:
        await person.connect()
    await until(lambda: all(len(p.seen("welcome")) == 2 for p in people))
    # Rebuilt from what was stored, it is still private: the stranger is refused and hears
    # nothing of it; its host follows it without playing.
    await stranger.send(type="watch", table=table)
    await until(lambda: any(e.get("of") == "watch" for e in stranger.errors))
    (refused,) = [e for e in stranger.errors if e.get("of") == "watch"]
    assert refused["code"] == "refused" and "private sit & go" in refused["message"], refused
    await host.send(type="watch", table=table)
    await until(lambda: bool(host.seen("snapshot", table)))
    for friend in (anna, bruno):
        friend.scripted[table] = shover  # so that it ends soon
        await friend.send(type="resume", table=table, last_seq=friend.last_seq(table))

    def finished() -> bool:
        state: str = anna.http.get(f"/api/tournaments/{game['id']}").json()["state"]
        return state == "finished"

    await until(finished, 120)
    assert not [m for m in stranger.messages if m.get("table") == table and m["type"] != "error"]
    ended = anna.http.get(f"/api/tournaments/{game['id']}").json()
    assert sorted(s["prize"] for s in ended["standings"]) == [0, 200], ended["standings"]
    # Over: the host makes its rematch (the host did not play: nobody registered yet).
    rematch = host.post(f"/api/private-sit-and-gos/{game['id']}/rematch")
    assert rematch.status_code == 201, rematch.text
    assert (rematch.json()["players"], rematch.json()["max_players"]) == ([], 2)
    seen = bruno.http.get(f"/api/private-sit-and-gos/{game['id']}").json()
    assert seen["rematch_invite_code"] == rematch.json()["invite_code"]
    assert sorted(wallet(friend) for friend in (anna, bruno)) == sorted(
        [wallet(host) - 100, wallet(host) + 100]
    )  # the host paid nothing: one friend lost the buy-in, the other won it
    for person in people:
        await person.disconnect()
        person.close()


def test_a_private_sit_and_go_survives_a_kill_still_private(
    room_settings: Settings, tmp_path: Path
) -> None:
    play_balanced(room_settings, tmp_path, private_sit_and_go_across_a_kill)
