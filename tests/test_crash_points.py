"""Crash points: the real server kills itself (SIGKILL) at named moments, and the room after
its restart is the room that was stored.

One room plays three tables at once: a Hold'em cash table (two people and a bot), an
italian-32 cash table (three people: bets and draws) and a Hold'em sit & go of three
people whose levels last one hand each; from the ``table-break`` run on, seven more play
the lobby's scheduled Hold'em tournament over two tables (the first one out breaks both
to draw the final table).  The server is started with a crash point armed
(``MAZZIERE_TEST_CRASH_AT``, :mod:`mazziere.server.crash`), the people play until it dies
there, and then, with the process dead, the database itself is checked:

* the ledger sums to zero and no account drifts from its entries (the play money put in,
  the ``grants``, is exactly the wallets, the house, the prize pools and the tables);
* each table, rebuilt here from its stored commands by the server's own replay, makes
  exactly the hand records stored (none twice, none missing, none different), holds the
  chips the ledger says it holds (stacks and pots), and no action was stored twice;

then the server is started again with the next point armed (the last start with none),
everybody reconnects and asks for the whole table again (``resume`` from 0), and every
event a person had heard before the crash is heard again the same (an event sent was an
event stored).  At the end every hand that was being played at a crash has finished, the
sit & go and the multi-table tournament have gone on to their end and paid their prizes,
and the checks above pass once more.

The chain shares one room across all the points, so a start of the server (the slow part)
serves two points at once: the restart after one crash is the run armed for the next.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import signal
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed, InvalidMessage

from mazziere.room.ledger import AccountKind
from mazziere.room.structure import Stakes
from mazziere.server.bus import LocalBus
from mazziere.server.crash import POINTS
from mazziere.server.play import TableWatcher, table_config
from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage import ledger as db_ledger
from mazziere.server.storage.lobby import TableSpec, TournamentSpec, create_table, create_tournament
from mazziere.server.storage.models import (
    Hand,
    HandAction,
    LedgerAccount,
    RoomTable,
    TableCommand,
    Tournament,
    TournamentStanding,
)
from mazziere.server.table_store import DatabaseTableStore
from mazziere.server.tables import StoredCommand, TableConfig, TableTask, TournamentConfig
from mazziere.server.tournaments import MultiTableConfig, TournamentTask
from tests.play_room import Person, Room, until
from tests.server_db import backend_settings

SQLITE_CHAIN = (
    "level-change",
    "between-tournament-hands",
    "table-break",
    "seed-stored",
    "mid-betting",
    "mid-draw",
    "pot-awarded",
)
"""Every point, the tournament's first (the sit & go must still be playing)."""

POSTGRES_CHAIN = ("between-tournament-hands", "pot-awarded")
"""A quick subset on PostgreSQL: a kill after a commit, and one inside a transaction."""

COMPARED = ("hand_started", "record", "hand_ended")
"""Events that a replay makes again exactly (turns and seats are compared in part)."""


ROOM_SETTINGS = {
    "MAZZIERE_SCHEDULED_EVERY_SECONDS": "10",
    "MAZZIERE_SCHEDULED_LEVEL_HANDS": "2",
    "MAZZIERE_STARTING_GRANT": "1000000",
    "MAZZIERE_CHECKPOINT_HANDS": "1",
}
"""The lobby's scheduled multi-table tournaments start every 10 s, levels of two hands; and
each new account's wallet holds a million chips.  The italian-32 table's three people play
as fast as they can and its losers top up again and again while the winners' stacks grow:
a loser spent 5,400 chips in a minute, and on a loaded machine (a slower chain) a wallet of
the usual 10,000 ran dry, two of three stayed broke and the table dealt no more (the
mid-draw point was never reached).  A room with a grant of 2,000 showed it at once.  A cash
table writes a checkpoint at every hand's end, so each start after a kill rebuilds it from
its latest checkpoint (:mod:`mazziere.server.checkpoints`)."""
MTT_PLAYERS = 7
"""Two tables of six seats; the first one out leaves six, who are moved to the final table
(both tables broken)."""


def test_every_point_is_in_a_chain() -> None:
    assert set(SQLITE_CHAIN) == set(POINTS), "a point the harness never kills at"
    assert set(POSTGRES_CHAIN) <= set(POINTS)


# ------------------------------------------------------------------ the people


class Player(Person):
    """A person who also plays the turn of a snapshot (the one waiting after a restart),
    tops up when a snapshot shows them broke at a cash table too, and remembers every
    event it heard by its table's sequence number, to compare with what it hears again
    after a crash."""

    def __init__(self, room: Room, seed: int) -> None:
        super().__init__(room, seed)
        self.heard: dict[tuple[str, int], tuple[str, str]] = {}
        self.differences: list[str] = []
        self.shoves = False
        """All-in now and then at every table it plays (a tournament that ends soon)."""
        self.catching_up: set[str] = set()
        """Tables asked for again and not yet caught up (until their snapshot): the turns
        and offers of the past are heard, not played (hundreds of stale actions would
        also run into the socket's rate limit and hold the current turn up)."""

    async def _react(self, message: dict[str, Any]) -> None:
        table = message.get("table")
        kind = message["type"]
        if table is not None and "seq" in message and kind != "snapshot":
            self._remember(table, message)
        if kind == "moved":  # a multi-table tournament moved this person: play there
            self.plays.add(message["table"])
            if self.shoves:
                self.scripted[message["table"]] = shove
        if kind == "snapshot" and table in self.plays:
            self.catching_up.discard(table)
            turn = message.get("turn")
            if turn is not None and turn["name"] == self.name and turn["legal"] is not None:
                await super()._react(turn)
            for offer in message["state"]["offers"]:
                if offer["name"] == self.name:
                    await super()._react({"type": "offer", "table": table, **offer})
            await self._keep_playing(table, message["state"]["seats"])
            return
        if table in self.catching_up and kind in ("turn", "offer"):
            return
        await super()._react(message)

    def _remember(self, table: str, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind in COMPARED:
            shown = json.dumps(message, sort_keys=True)
        elif kind == "turn":
            shown = json.dumps([message["hand"], message["action_id"], message["name"]])
        elif kind == "seats":
            shown = json.dumps([(s["name"], s["seat"], s["stack"]) for s in message["seats"]])
        else:
            shown = kind
        key = (table, int(message["seq"]))
        before = self.heard.get(key)
        if before is not None and before != (kind, shown):
            self.differences.append(f"{self.name} at {key}: heard {before}, then {(kind, shown)}")
        self.heard[key] = (kind, shown)

    async def rejoin(self) -> None:
        """A new socket; the tables the welcome lists (and those played before) asked for
        from their first event.  The server may die again meanwhile (its next crash point):
        then the person rejoins after that restart."""
        await self.disconnect()
        self.topping.clear()  # a top-up the dead server never answered is asked for again
        welcomed = len(self.seen("welcome"))
        try:
            await self.connect()
            for _ in range(400):
                if len(self.seen("welcome")) > welcomed or self.closed.is_set():
                    break
                await asyncio.sleep(0.05)
            if len(self.seen("welcome")) > welcomed:
                self.plays.update(self.seen("welcome")[-1]["tables"])
            for table in sorted(self.plays):
                self.catching_up.add(table)
                await self.send(type="resume", table=table, last_seq=0)
        except (OSError, InvalidMessage, ConnectionClosed):
            pass


# ------------------------------------------------------------- the database


async def prepare(settings: Settings) -> None:
    """The room before its first start: two cash tables and a sit & go of short levels."""
    db = Database(settings.database_url, schema=settings.database_schema)
    try:
        await db.upgrade()
        async with db.session() as session:
            for spec in (
                TableSpec(name="Crash Hold'em", rules="holdem", seats=3,
                          stakes=Stakes(small_blind=1, big_blind=2), min_buy_in=40,
                          max_buy_in=200),
                TableSpec(name="Crash 32", rules="italian-32", seats=3,
                          stakes=Stakes(small_blind=5, big_blind=10), min_buy_in=200,
                          max_buy_in=1_000),
            ):  # fmt: skip
                await create_table(session, spec, lobby=True)
            await create_tournament(
                session,
                TournamentSpec(name="Crash sit & go", rules="holdem", buy_in=100, fee=10,
                               starting_stack=1_000, seats=3, max_players=3, level_length=1),
                lobby=True,
            )  # fmt: skip
            await session.commit()
    finally:
        await db.dispose()


class Replayed(TableTask):
    """A table rebuilt here from its stored commands, keeping the records each one made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.replayed: dict[tuple[int, int], Any] = {}
        self.twice: list[tuple[int, int]] = []
        super().__init__(*args, **kwargs)

    def _execute(self, command: StoredCommand) -> Any:
        events, batch = super()._execute(command)
        for number, index, record in batch.records:
            if (number, index) in self.replayed:
                self.twice.append((number, index))
            self.replayed[(number, index)] = json.loads(json.dumps(record))
        return events, batch


class ReplayedTournament(TournamentTask):
    """A multi-table tournament rebuilt here from its log, keeping each table's records."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.replayed: dict[tuple[int, int, int], Any] = {}
        self.twice: list[tuple[int, int, int]] = []
        super().__init__(*args, **kwargs)

    def _execute(self, command: StoredCommand) -> Any:
        events, closed, batch = super()._execute(command)
        for table_id, part in batch.parts:
            for number, index, record in part.records:
                key = (table_id, number, index)
                if key in self.replayed:
                    self.twice.append(key)
                self.replayed[key] = json.loads(json.dumps(record))
        return events, closed, batch


def chips_at(task: TableTask) -> int:
    """The chips on the table by its own room ledger: every stack and every pot."""
    balances = task.table.ledger.balances()
    return sum(v for a, v in balances.items() if a.kind in (AccountKind.STACK, AccountKind.POT))


async def same_from_the_checkpoint(
    whole: TableTask, config: TableConfig, store: DatabaseTableStore
) -> None:
    """The cash table rebuilt as the server does, from its latest checkpoint, is the table
    rebuilt from its first command (but for its clocks: the checkpoint's timers are the
    running table's own, started a few microseconds after their commands' times, so the
    time banks are compared to the hundredth of a second)."""
    quick = TableTask(config, store, LocalBus(), bot_seconds=0)
    commands = len(await store.load(whole.table_id))
    assert await quick.rebuild() == commands, f"table {whole.id}: commands"
    assert chips_at(quick) == chips_at(whole), f"table {whole.id}: chips"
    for attribute in ("seq", "action_id", "applied", "paused", "share_holders"):
        assert getattr(quick, attribute) == getattr(whole, attribute), (whole.id, attribute)
    assert list(quick.seated.values()) == list(whole.seated.values()), f"table {whole.id}"
    for name in [None, *whole.seated]:
        views = [task.table.view(name) for task in (quick, whole)]
        for view in views:
            view.pop("decision")  # its clock started again
            for seat in view["seats"]:
                seat["time_bank"] = round(seat["time_bank"], 2)
        assert views[0] == views[1], f"table {whole.id}: {name}'s view"


async def check_storage(settings: Settings) -> dict[str, Any]:
    """The checks of a dead room's database; what was found (hands playing, tables)."""
    db = Database(settings.database_url, schema=settings.database_schema)
    try:
        async with db.session() as session:
            total, drifted = await db_ledger.audit(session)
            assert total == 0 and not drifted, (total, drifted)
            balances = dict((await session.execute(
                select(LedgerAccount.key, LedgerAccount.balance))).all())  # fmt: skip
            assert balances.get("grants", 0) < 0  # play money was put in
            playing = set(
                (await session.execute(
                    select(Hand.table_id, Hand.number).where(Hand.state == "playing")
                )).all()
            )  # fmt: skip
            stored: dict[tuple[int, int, int], Any] = {}
            rows = await session.execute(
                select(Hand.table_id, Hand.number, HandAction.number, HandAction.data).join(
                    HandAction, HandAction.hand_id == Hand.id
                )
            )
            for table_id, hand, index, data in rows:
                stored[(table_id, hand, index)] = data
            tables = list(await session.scalars(select(RoomTable)))
            configs: list[Any] = []
            watcher = TableWatcher(None, SimpleNamespace(settings=settings))  # type: ignore[arg-type]
            multi = {row.tournament_id for row in tables if row.tournament_id is not None}
            for tournament_id in multi:
                tournament = await session.get(Tournament, tournament_id)
                assert tournament is not None
                configs.append(await watcher._multi_table_config(session, tournament))
            for row in tables:
                if row.tournament_id is not None:
                    continue  # a multi-table tournament's (replayed from its log, above)
                tournament_id = await session.scalar(
                    select(TournamentStanding.tournament_id).where(
                        TournamentStanding.table_id == row.id
                    )
                )
                if tournament_id is None:
                    configs.append(table_config(row, next_hand_seconds=0))
                    continue
                tournament = await session.get(Tournament, tournament_id)
                assert tournament is not None
                configs.append(await watcher._tournament_config(session, tournament))
            commands = await session.execute(
                select(TableCommand.table_id, TableCommand.kind, TableCommand.data)
            )
            acts = [(t, d.get("table"), d["name"], d["action_id"])
                    for t, k, d in commands if k == "act"]  # fmt: skip
            assert len(acts) == len(set(acts)), "an action stored twice"
        store = DatabaseTableStore(db)
        replayed_keys: set[tuple[int, int, int]] = set()
        checkpointed = 0
        for config in configs:
            if isinstance(config, MultiTableConfig):
                tournament_task = ReplayedTournament(config, store, LocalBus())
                await tournament_task.rebuild()
                assert not tournament_task.twice, f"tournament {config.id}: records made twice"
                for key, record in tournament_task.replayed.items():
                    replayed_keys.add(key)
                    assert stored.get(key) == record, f"tournament {config.id}: record {key}"
                continue
            # From the first command, whatever checkpoint there is: every record made again.
            task = Replayed(config, store, LocalBus(), bot_seconds=0, checkpoint_hands=0)
            if not await store.load(task.table_id):
                continue
            await task.rebuild()
            if isinstance(config, TableConfig) and await store.checkpoint(task.table_id):
                checkpointed += 1
                await same_from_the_checkpoint(task, config, store)
            assert not task.twice, f"table {task.id}: records made twice {task.twice}"
            for (hand, index), record in task.replayed.items():
                key = (task.table_id, hand, index)
                replayed_keys.add(key)
                assert stored.get(key) == record, f"table {task.id} hand {hand} record {index}"
            chips = chips_at(task)
            if isinstance(config, TournamentConfig):
                issued = len(config.players) * config.settings.starting_stack
                assert chips == issued, f"sit & go {config.id}: {chips} chips of {issued}"
            else:
                held = balances.get(f"table:{task.table_id}", 0)
                assert chips == held, f"table {task.id}: {chips} chips, the ledger says {held}"
        assert set(stored) == replayed_keys, "hand records stored that no replay makes"
        return {"playing": playing, "checkpointed": checkpointed}
    finally:
        await db.dispose()


# ------------------------------------------------------------------ the play


async def seat_everyone(room: Room) -> list[Player]:
    tables = {t["rules"]: t for t in room.tables() if t["name"].startswith("Crash")}
    people: list[Player] = []
    for rules, count in (("holdem", 2), ("italian-32", 3)):
        table = tables[rules]
        tid = str(table["id"])
        for k in range(count):
            person = Player(room, 100 * len(people) + k)
            await person.connect()
            person.plays.add(tid)
            person.rebuys[tid] = table["min_buy_in"]
            await person.send(type="sit", table=tid, buy_in=table["max_buy_in"], seat=k + 1)
            people.append(person)
        if rules == "holdem":
            await until(lambda p=people[-1], t=tid: bool(p.seen("seats", t)))
            await people[-1].send(type="add_bots", table=tid, count=1, kind="basic")
    with room.http() as http:
        lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
    event = next(t for t in lobby["tournaments"] if t["name"] == "Crash sit & go")
    entrants = [Player(room, 1_000 + k) for k in range(event["max_players"])]
    for person in entrants:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text
    for person in entrants:
        await person.rejoin()  # the welcome lists the sit & go's table
    return people + entrants


def start_armed(room: Room, point: str) -> bool:
    """Start the server with ``point`` armed; ``False`` if it died there while starting."""
    try:
        room.start()
    except AssertionError:
        process = room.process
        if process is None or process.returncode != -signal.SIGKILL:
            raise
        assert f"crash point {point} reached" in room.log()
        return False
    return True


async def wait_for_death(room: Room, point: str, seconds: float = 150.0) -> None:
    process = room.process
    assert process is not None
    deadline = time.monotonic() + seconds
    while process.poll() is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"crash point {point} never reached:\n{room.log()[-3000:]}")
        await asyncio.sleep(0.05)
    assert process.returncode == -signal.SIGKILL, process.returncode
    assert f"crash point {point} reached" in room.log()


def finished_tournaments(room: Room, ids: set[int]) -> bool:
    """Whether the sit & go and the tournaments ``ids`` have finished."""
    with room.http() as http:
        found = http.get("/api/tournaments", params={"state": "finished"}).json()
    done = {t["id"] for t in found["tournaments"]}
    sit_and_go = any(t["name"] == "Crash sit & go" for t in found["tournaments"])
    return sit_and_go and ids <= done


def shove(person: Person, turn: dict[str, Any]) -> dict[str, Any] | None:
    """All-in now and then, so that the multi-table tournament loses a player soon."""
    if "all-in" in turn["legal"]["kinds"] and person.rng.random() < 0.3:
        return {"kind": "all-in"}
    return None  # the person's usual policy


async def start_multi_table(room: Room) -> tuple[int, list[Player]]:
    """Seven people register for the lobby's next scheduled Hold'em tournament (one that
    leaves them five seconds to do so), and join its tables when it starts."""
    while True:
        with room.http() as http:
            lobby = http.get("/api/tournaments", params={"state": "registering"}).json()
        found = [t for t in lobby["tournaments"] if t["rules"] == "holdem" and t["starts_at"]]
        if found:
            left = dt.datetime.fromisoformat(found[0]["starts_at"]) - dt.datetime.now(dt.UTC)
            if left > dt.timedelta(seconds=5):
                break
        await asyncio.sleep(0.5)
    event = found[0]
    entrants = [Player(room, 2_000 + k) for k in range(MTT_PLAYERS)]
    for person in entrants:
        answer = person.post(f"/api/tournaments/{event['id']}/registration")
        assert answer.status_code == 201, answer.text

    def running() -> bool:
        with room.http() as http:
            state = http.get(f"/api/tournaments/{event['id']}").json()["state"]
        return bool(state == "running")

    await until(running, 60)
    for person in entrants:
        person.shoves = True
        await person.rejoin()
        for table in person.plays:
            person.scripted[table] = shove
    return int(event["id"]), entrants


async def hands_finished(settings: Settings, hands: set[tuple[int, int]]) -> bool:
    """Whether each of these (table, hand number) is stored as finished."""
    db = Database(settings.database_url, schema=settings.database_schema)
    try:
        async with db.session() as session:
            rows = await session.execute(select(Hand.table_id, Hand.number, Hand.state))
            states = {(t, n): s for t, n, s in rows}
    finally:
        await db.dispose()
    return all(states.get(hand) == "finished" for hand in hands)


async def run_chain(settings: Settings, folder: Path, chain: tuple[str, ...]) -> None:
    await prepare(settings)
    room = Room(settings.database_url, folder, settings.database_schema)
    interrupted: set[tuple[int, int]] = set()
    people: list[Player] = []
    multi_tables: set[int] = set()
    began = time.monotonic()
    phase = ["preparing"]

    def mark(what: str) -> None:  # where the time goes (pytest -s shows it)
        phase[0] = what
        print(f"{time.monotonic() - began:6.1f} s  {what}", flush=True)

    try:
        for number, point in enumerate(chain):
            mark(f"start armed at {point}")
            room.env = {"MAZZIERE_TEST_CRASH_AT": point, **ROOM_SETTINGS}
            if not start_armed(room, point):
                pass  # dead before it answered: a table rebuilt at start got there at once
            elif number == 0:
                people = await seat_everyone(room)
            else:
                for person in people:
                    await person.rejoin()
            if point == "table-break":
                multi, entrants = await start_multi_table(room)
                people.extend(entrants)
                multi_tables.add(multi)
            mark("playing")
            await wait_for_death(room, point)
            mark("dead")
            room.process = None
            found = await check_storage(settings)
            interrupted |= found["playing"]
        room.env = dict(ROOM_SETTINGS)
        mark("checked; start unarmed")
        room.start()
        mark("playing to the end")
        for person in people:
            await person.rejoin()
        for _ in range(1_200):
            if finished_tournaments(room, multi_tables) and await hands_finished(
                settings, interrupted
            ):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"the room did not get to the end:\n{room.log()[-3000:]}")
        mark("at the end")
        for person in people:
            await person.disconnect()
        room.stop(signal.SIGINT)
        found = await check_storage(settings)
        assert found["checkpointed"] == 2, "the two cash tables rebuilt from checkpoints"
        log = room.log()
        assert "refused on replay" not in log, log
        differences = [d for person in people for d in person.differences]
        assert not differences, differences
        assert interrupted, "no crash caught a hand being played"
        mark("checked")
    except AssertionError as error:  # say where, with the server's last words and refusals
        refused = [f"{p.name}: {p.errors[-1]}" for p in people if p.errors]
        raise AssertionError(
            f"{error}\nwhile: {phase[0]}\nlast refusals: {refused}\n{room.log()[-4000:]}"
        ) from error
    finally:
        room.stop()
        for person in people:
            await person.disconnect()
            person.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_room_survives_being_killed_at_each_crash_point(backend: str, tmp_path: Path) -> None:
    chain = SQLITE_CHAIN if backend == "sqlite" else POSTGRES_CHAIN
    for settings in backend_settings(backend, tmp_path):
        asyncio.run(run_chain(settings, tmp_path, chain))
