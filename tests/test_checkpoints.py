"""A cash table's checkpoints (:mod:`mazziere.server.checkpoints`): the state a checkpoint
keeps is the state the replay of the commands up to it gives, at every checkpoint of a
session of random play (people betting, drawing, timing out, sitting out and in, topping
up, leaving and coming back, bots added and removed, chat, the host's pause and stakes);
a rebuild starts from the latest and replays only what came after; one another version of
the code wrote, or one that cannot be read, is not used (the table is rebuilt from its first
command, the same table); and a checkpoint finds no class but the room's own.  On SQLite
and PostgreSQL the checkpoint is stored with its command, in its transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import os
import pickle
import random
from collections import deque
from collections.abc import Coroutine, Mapping
from dataclasses import replace
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType, SimpleNamespace
from typing import Any

import numpy as np
import pytest

from mazziere.room.structure import Stakes
from mazziere.server import checkpoints
from mazziere.server import protocol as p
from mazziere.server import tables as tables_module
from mazziere.server.bus import LocalBus
from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage.accounts import create_account
from mazziere.server.storage.models import RoomTable
from mazziere.server.table_store import DatabaseTableStore
from mazziere.server.tables import (
    Batch,
    HostControls,
    MemoryStore,
    Player,
    StoredCheckpoint,
    StoredCommand,
    SyncControls,
    TableConfig,
    TableStore,
    TableTask,
)
from tests.random_sessions import FIRST_MORE_SEED, more_seeds, same_session_for

CONFIGS = {
    "holdem": dict(rules="holdem", seats=6, stakes=Stakes(small_blind=5, big_blind=10)),
    "italian-classic": dict(rules="italian-classic", seats=5, stakes=Stakes(ante=10)),
    "italian-32": dict(rules="italian-32", seats=5, stakes=Stakes(small_blind=10, big_blind=20)),
}
OTHER_STAKES = {
    "holdem": Stakes(small_blind=10, big_blind=20),
    "italian-classic": Stakes(ante=20),
    "italian-32": Stakes(small_blind=20, big_blind=40),
}
HOST = Player(1, "anna")
GUEST = Player(2, "bruno")


def home_game(rules: str, table_id: int = 1) -> TableConfig:
    """A private table of anna's (she calls bots, pauses and changes the stakes)."""
    return TableConfig(
        id=table_id, name="t", min_buy_in=200, max_buy_in=2000, next_hand_seconds=0.0,
        host_id=HOST.account_id, **CONFIGS[rules],  # type: ignore[arg-type]
    )  # fmt: skip


class Seat:
    """A person's connection: every message, parsed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.messages: list[dict[str, Any]] = []

    @property
    def player(self) -> str:
        return self.name

    def offer(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def turn(self) -> dict[str, Any] | None:
        """The turn offered to this person last, if no record or end came after it."""
        for message in reversed(self.messages):
            if message["type"] in ("record", "hand_ended", "snapshot"):
                return None
            if message["type"] == "turn":
                return message if message["name"] == self.name and message["legal"] else None
        return None


@pytest.fixture
def table_time(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The tables' clock reads a time the test moves (``table_time.now``), so a command is
    applied at the very time it is stored, as a replay applies it; the rest of the process
    keeps the real clock."""
    now = SimpleNamespace(now=1_000.0)
    fake = SimpleNamespace(monotonic=lambda: now.now, time=tables_module.time.time)
    monkeypatch.setattr(tables_module, "time", fake)
    return now


_BUSY = object()


def canonical(value: Any, task: TableTask, seen: dict[int, Any]) -> Any:
    """``value`` as plain tuples to compare two states by: every object by its class and
    attributes, a set's items in a sorted order (its own order is the hash table's, not
    the table's), what is the task's own or the running room's by name.  Two objects equal
    but not shared are equal here: a replay shares the engine's cached objects where a
    checkpoint read back holds copies."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, enum.Enum):
        return (type(value).__qualname__, value.name)
    for name, external in task._checkpoint_externals().items():
        if value is external:
            return ("external", name)
    key = id(value)
    if key in seen:
        return ("cycle",) if seen[key] is _BUSY else seen[key]
    seen[key] = _BUSY
    form: Any
    if isinstance(value, (set, frozenset)):
        form = ("set", tuple(sorted((canonical(v, task, seen) for v in value), key=repr)))
    elif isinstance(value, (list, tuple, deque)):
        form = (type(value).__name__, tuple(canonical(v, task, seen) for v in value))
    elif isinstance(value, Mapping):
        form = ("map", tuple((canonical(k, task, seen), canonical(v, task, seen))
                             for k, v in value.items()))  # fmt: skip
    elif isinstance(value, MethodType):
        owner = "task" if value.__self__ is task else canonical(value.__self__, task, seen)
        form = ("method", value.__func__.__qualname__, owner)
    elif isinstance(value, (FunctionType, BuiltinFunctionType, type)):
        form = ("named", value.__module__, value.__qualname__)
    elif isinstance(value, np.ndarray):
        form = ("array", value.dtype.str, value.shape, value.tobytes())
    else:
        names = set(getattr(value, "__dict__", ()))
        names.update(n for c in type(value).__mro__ for n in getattr(c, "__slots__", ()))
        form = (
            type(value).__qualname__,
            tuple((n, canonical(getattr(value, n), task, seen))
                  for n in sorted(names) if hasattr(value, n)),
        )  # fmt: skip
    seen[key] = form
    return form


def state_of(task: TableTask) -> dict[str, Any]:
    """What a checkpoint keeps of ``task``, to compare."""
    seen: dict[int, Any] = {}
    state = {}
    for name in sorted(task._replayed | {"seated"}):
        value = list(task.seated.values()) if name == "seated" else getattr(task, name)
        state[name] = canonical(value, task, seen)
    state["clock"] = task.clock.now()  # the table's time (the test's clock stands still)
    return state


def differences(one: TableTask, other: TableTask) -> list[str]:
    """The attributes of two tasks' states that differ (a failed comparison names them, not
    the states: pytest's account of two such structures would take minutes and gigabytes)."""
    first, second = state_of(one), state_of(other)
    return [name for name in first if first[name] != second.get(name)]


class Yielding(MemoryStore):
    """Commands kept in memory, each commit a turn of the event loop, as a database's is:
    with bots acting at once and the next hand dealt at once, a table whose commits never
    gave the loop up would deal hand after hand among its bots and never let the session
    look at its hands (a run of italian-classic dealt until the machine's memory ran out)."""

    def __init__(self, wallets: dict[int, int], hands: int) -> None:
        super().__init__(wallets)
        self.hands = hands
        self.enough = asyncio.Event()
        """Set once hand ``hands`` has ended, or the clock spins: the session stops there."""
        self.idle_ticks = 0
        """Ticks in a row at one time of the table's clock (one that wakes it for nothing)."""
        self.spun_at: float | None = None
        """Where the table's clock woke it again and again at one time (its tick changing
        nothing): a bug of the room, which on a real clock writes ticks as fast as the
        database takes them, for as long as it lasts."""

    async def commit(self, table_id: int, batch: Batch) -> None:
        await asyncio.sleep(0)
        await super().commit(table_id, batch)
        command = batch.command
        commands = self.commands[table_id]
        again = len(commands) > 1 and commands[-2].kind == "tick" and commands[-2].at == command.at
        self.idle_ticks = self.idle_ticks + 1 if command.kind == "tick" and again else 0
        if self.idle_ticks >= 50:
            self.spun_at = command.at
            self.enough.set()
        if batch.hand_end is not None and batch.hand_end.number >= self.hands:
            self.enough.set()


async def play_until_enough(play: Coroutine[Any, Any, None], store: Yielding) -> None:
    """Run ``play`` until it ends, or the store has had enough (its hands, or a clock that
    spins): then it stops where it is."""
    playing = asyncio.ensure_future(play)
    waiting = asyncio.ensure_future(store.enough.wait())
    await asyncio.wait({playing, waiting}, return_when=asyncio.FIRST_COMPLETED)
    for pending in (playing, waiting):
        pending.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pending


class Recorded(MemoryStore):
    """A store that says from which command each load began."""

    def __init__(self, wallets: dict[int, int] | None = None) -> None:
        super().__init__(wallets)
        self.loaded_after: list[int] = []

    async def load(self, table_id: int, *, after: int = 0) -> list[StoredCommand]:
        self.loaded_after.append(after)
        return await super().load(table_id, after=after)


def store_of(
    commands: list[StoredCommand], checkpoint: StoredCheckpoint | None = None, table_id: int = 1
) -> Recorded:
    store = Recorded()
    store.commands[table_id] = list(commands)
    if checkpoint is not None:
        store.checkpoints[table_id] = checkpoint
    return store


async def rebuilt(rules: str, store: TableStore) -> TableTask:
    return await rebuilt_at(home_game(rules), store)


async def rebuilt_at(config: TableConfig, store: TableStore) -> TableTask:
    task = TableTask(config, store, LocalBus(), bot_seconds=0.0)
    await task.rebuild()
    return task


def my_cards(task: TableTask, name: str) -> list[str]:
    """The cards ``name`` holds in the hand playing (to draw some of them)."""
    game = task.table.view(name).get("game") or {}
    viewer, hole = game.get("viewer"), game.get("hole") or []
    if viewer is None or viewer >= len(hole) or not hole[viewer]:
        return []
    return [str(card) for card in hole[viewer]]


def random_act(
    chance: random.Random,
    table: str,
    action_id: int,
    legal: dict[str, Any],
    held: list[str] | None = None,
) -> p.Act:
    """One of the ``legal`` actions at random (not the timeout, which is the clock's): a bet
    or raise to an amount within its limits, a draw of up to three of the cards ``held``
    (``None``: standing pat)."""
    kind = chance.choice([k for k in legal["kinds"] if k != "timeout"])
    amount = None
    if kind in ("bet", "raise") and legal.get("min_to") is not None:
        amount = chance.randint(legal["min_to"], legal["max_to"])
    cards: list[str] = []
    if kind == "draw" and held is not None:
        cards = chance.sample(held, chance.randint(0, min(len(held), 3)))
    return p.Act(table=table, action_id=action_id, kind=kind, amount=amount, cards=cards)  # type: ignore[arg-type]


def lobby_table(rules: str) -> TableConfig:
    """A table of the lobby: no host (anyone seated calls bots; they leave a table no person
    sits at)."""
    return replace(home_game(rules), host_id=None)


async def random_session(
    rules: str, seed: int, time: SimpleNamespace, hands: int, *, lobby: bool = False
) -> MemoryStore:
    """Two people and bots play ``hands`` hands at random at anna's private table (or at a
    table of the lobby), a checkpoint at every hand's end; the store holds every batch (and
    so every checkpoint)."""
    chance = random.Random(seed)
    store = Yielding({HOST.account_id: 10**7, GUEST.account_id: 10**7}, hands)
    task = TableTask(
        lobby_table(rules) if lobby else home_game(rules),
        store,
        LocalBus(),
        bot_seconds=1.0,  # a bot acts when the test's clock has moved: its play is bounded
        bot_rng=random.Random(seed),
        checkpoint_hands=1,
    )
    await task.rebuild()
    task.start()
    seats = {HOST.name: Seat(HOST.name), GUEST.name: Seat(GUEST.name)}
    people = {HOST.name: HOST, GUEST.name: GUEST}
    for seat in seats.values():
        task.bus.connect(seat)

    async def send(name: str, message: Any) -> None:
        await task.submit(people[name], message, seats[name])

    async def play() -> None:
        await send(HOST.name, p.Sit(table="1", buy_in=1500, seat=1))
        await send(GUEST.name, p.Sit(table="1", buy_in=1500, seat=2))
        await send(HOST.name, p.AddBots(table="1", count=2, kind="basic"))
        for _ in range(4000):
            if task.table.hand_number > hands:
                break
            time.now += chance.choice((0.0, 0.5, 2.0, 2.0, 31.0))  # a timeout now and then
            name = chance.choice(list(seats))
            table = task.table
            roll = chance.random()
            turn = seats[name].turn()
            if turn is not None and roll < 0.8:
                held = my_cards(task, name)
                await send(name, random_act(chance, "1", turn["action_id"], turn["legal"], held))
            elif roll < 0.83:
                await send(name, p.Chat(table="1", text=f"mano {table.hand_number}"))
            elif roll < 0.86:
                await send(name, p.SitOut(table="1"))
            elif roll < 0.89:
                await send(name, p.SitIn(table="1", post=chance.random() < 0.5))
            elif roll < 0.91 and table.is_seated(name):
                room_for = 2000 - table.player(name).stack
                if room_for > 0:
                    await send(name, p.TopUp(table="1", amount=chance.randint(1, room_for)))
            elif roll < 0.92:
                if table.is_seated(name):
                    await send(name, p.Leave(table="1"))
                else:
                    await send(name, p.Sit(table="1", buy_in=chance.randint(200, 2000)))
            elif roll < 0.93:
                bots = [b for b in task.seated if b.startswith("bot-")]
                caller = name if lobby else HOST.name  # at the lobby, whoever sits
                if bots and chance.random() < 0.5:
                    await send(caller, p.RemoveBot(table="1", name=chance.choice(bots)))
                else:
                    kind = chance.choice(("basic", "random", "strong"))
                    await send(caller, p.AddBots(table="1", count=1, kind=kind))
            elif roll < 0.94 and not lobby:
                stakes = chance.choice((CONFIGS[rules]["stakes"], OTHER_STAKES[rules]))
                paused = chance.random() < 0.3
                store.host_controls[1] = HostControls(paused=paused, stakes=stakes)  # type: ignore[arg-type]
                await task.submit(None, SyncControls(), None)
            elif roll < 0.97 and table.is_seated(name):  # a socket closes, or opens again
                await (task.disconnected if chance.random() < 0.5 else task.reconnected)(name)
            elif roll < 0.99 and task.table.offers.get(name) is not None:
                await send(name, p.Answer(table="1", accept=chance.random() < 0.7))
            await asyncio.sleep(0)

    await play_until_enough(play(), store)
    await task.stop()
    assert store.spun_at is None, f"the table's clock spun at {store.spun_at}"
    return store


@pytest.mark.parametrize(
    ("seed", "lobby"),
    [(1, False), (2, False), (3, True), *((seed, seed % 2 == 1) for seed in more_seeds())],
)
@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_every_checkpoint_is_what_the_replay_of_its_commands_gives(
    rules: str,
    seed: int,
    lobby: bool,
    table_time: SimpleNamespace,
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = lobby_table(rules) if lobby else home_game(rules)

    async def scenario() -> None:
        store = await random_session(rules, seed, table_time, hands=14, lobby=lobby)
        commands = store.commands[1]
        taken = [
            replace(batch.checkpoint, seq=index + 1)
            for index, batch in enumerate(store.batches[1])
            if batch.checkpoint is not None
        ]
        # A checkpoint at each hand's end (the suite's seeds play ten hands and more; a hunt's
        # may spend its moves paused or chatting).
        assert len(taken) >= (10 if seed < FIRST_MORE_SEED else 1)
        kinds = {command.kind for command in commands}
        assert len(kinds - {"act", "tick"}) >= 3, kinds  # more than bets and deals
        for checkpoint in taken:
            assert checkpoint.version == checkpoints.code_version()
            replayed = await rebuilt_at(config, store_of(commands[: checkpoint.seq]))
            resumed_store = store_of(commands[: checkpoint.seq], checkpoint)
            resumed = await rebuilt_at(config, resumed_store)
            assert resumed_store.loaded_after == [checkpoint.seq]  # nothing replayed
            assert not differences(resumed, replayed), checkpoint.seq
        # The last rebuild: from the latest checkpoint, the commands after it replayed.
        latest = taken[-1]
        whole = await rebuilt_at(config, store_of(commands))
        quick_store = store_of(commands, latest)
        quick = await rebuilt_at(config, quick_store)
        assert quick_store.loaded_after == [latest.seq]
        assert not differences(quick, whole)
        assert (quick.seq, quick.table.hand_number) == (whole.seq, whole.table.hand_number)

    with (
        caplog.at_level(logging.WARNING, logger="mazziere.server.tables"),
        pytest.MonkeyPatch.context() as patch,
    ):
        same_session_for(seed, patch)  # a seed plays the same session every time
        asyncio.run(scenario())
    # Not a command applied twice (refused, so logged) nor a checkpoint left unused.
    assert not caplog.records, [r.getMessage() for r in caplog.records]


def test_a_checkpoint_of_other_code_or_unreadable_is_not_used(
    table_time: SimpleNamespace, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        store = await random_session("holdem", 3, table_time, hands=4)
        commands = store.commands[1]
        latest = store.checkpoints[1]
        whole = await rebuilt("holdem", store_of(commands))
        for kind, bad in (
            ("other code", replace(latest, version="0" * 64)),
            ("unreadable", replace(latest, state=latest.state[: len(latest.state) // 2])),
            ("not a table's", replace(latest, state=pickle.dumps((0.0, {"seq": 1})))),
        ):
            bad_store = store_of(commands, bad)
            again = await rebuilt("holdem", bad_store)
            assert bad_store.loaded_after == [0], kind  # from the first command
            assert not differences(again, whole), kind
        # Settings a replay takes from the table's row, changed since: not used either; the
        # stakes (the replay's own) and the pause before a deal (the running table's) may.
        config = home_game("holdem")
        for changed, used in (
            (replace(config, decision_seconds=config.decision_seconds + 5), False),
            (replace(config, rebuy_seconds=config.rebuy_seconds + 60), False),
            (replace(config, stakes=OTHER_STAKES["holdem"]), True),
            (replace(config, next_hand_seconds=config.next_hand_seconds + 1), True),
        ):
            changed_store = store_of(commands, latest)
            await rebuilt_at(changed, changed_store)
            assert changed_store.loaded_after == [latest.seq if used else 0], changed
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert sum("checkpoint" in line and "not used" in line for line in said) == 5, said
        assert sum("(other settings)" in line for line in said) == 2, said

    with caplog.at_level(logging.INFO, logger="mazziere.server.tables"):
        asyncio.run(scenario())


class _Runs:
    """What a forged checkpoint would run if it were unpickled without a check."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return os.system, (f"touch {self.path}",)


def test_a_checkpoint_finds_no_class_but_the_rooms(tmp_path: Path) -> None:
    """A row written into the database by someone else cannot make the room run code."""
    ran = tmp_path / "ran"
    forged = pickle.dumps((0.0, {"table": _Runs(ran)}))
    with pytest.raises(checkpoints.CheckpointError, match="not part of a table's state"):
        checkpoints.load(forged, owner=object(), externals={})
    assert not ran.exists()
    # Nor a class of the room whose code a replay does not run (so not in the code's digest).
    from mazziere.server.lobby_file import LobbyFileError

    assert "mazziere.server.lobby_file" not in checkpoints.replay_modules()
    outside = checkpoints.dump(
        {"why": LobbyFileError("a table?")}, at=0.0, owner=object(), externals={}
    )
    with pytest.raises(
        checkpoints.CheckpointError, match=r"lobby_file\.LobbyFileError is not part"
    ):
        checkpoints.load(outside, owner=object(), externals={})
    clock = object()  # the writer's clock, written by name; the reader has none to give
    written = checkpoints.dump({"clock": clock}, at=0.0, owner=object(), externals={"clock": clock})
    with pytest.raises(checkpoints.CheckpointError, match="nothing called 'clock'"):
        checkpoints.load(written, owner=object(), externals={})


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_database_stores_the_checkpoint_with_its_command_and_a_rebuild_starts_there(
    backend: str, tmp_path: Path, table_time: SimpleNamespace
) -> None:
    from tests.server_db import backend_settings

    for settings in backend_settings(backend, tmp_path):
        asyncio.run(_stored_and_rebuilt(settings, table_time))


async def _stored_and_rebuilt(settings: Settings, time: SimpleNamespace) -> None:
    db = Database(settings.database_url, schema=settings.database_schema)
    try:
        await db.upgrade()
        async with db.session() as session:
            host = await create_account(session, name="anna", grant=10_000)
            row = RoomTable(name="t", rules="holdem", seats=6, min_buy_in=200, max_buy_in=2000)
            session.add(row)
            await session.commit()
            table_id, host_id = row.id, host.id
        config = replace(home_game("holdem", table_id), host_id=host_id)
        store = DatabaseTableStore(db)
        task = TableTask(config, store, LocalBus(), bot_seconds=0.0, checkpoint_hands=3)
        await task.rebuild()
        task.start()
        anna = Seat("anna")
        player = Player(host_id, "anna")
        await task.submit(player, p.Sit(table=str(table_id), buy_in=2000), anna)
        await task.submit(player, p.AddBots(table=str(table_id), count=3), anna)
        for _ in range(5000):
            if task.table.hand_number > 7:
                break
            turn = anna.turn()
            if turn is not None:
                kind = next(k for k in ("check", "call", "fold") if k in turn["legal"]["kinds"])
                act = p.Act(table=str(table_id), action_id=turn["action_id"], kind=kind)  # type: ignore[arg-type]
                await task.submit(player, act, anna)
            time.now += 1.0
            await asyncio.sleep(0.001)
        await task.stop()
        await store.settled()  # a commit on its way when the task stopped is written
        stored = await store.checkpoint(table_id)
        assert stored is not None and stored.version == checkpoints.code_version()
        commands = await store.load(table_id)
        assert 0 < stored.seq < len(commands)  # hand 6's end: hand 7 was dealt after it
        # The checkpoint is the state after the command it is stored with, not another.
        prefix = commands[: stored.seq]
        just_there = await rebuilt_at(config, store_of(prefix, stored, table_id))
        replayed = await rebuilt_at(config, store_of(prefix, table_id=table_id))
        assert not differences(just_there, replayed)
        whole = TableTask(config, store, LocalBus(), bot_seconds=0.0, checkpoint_hands=0)
        assert await whole.rebuild() == len(commands)
        quick = TableTask(config, store, LocalBus(), bot_seconds=0.0)
        assert await quick.rebuild() == len(commands)
        assert not differences(quick, whole)
        after = await store.load(table_id, after=stored.seq)
        assert after == commands[stored.seq :]
        # A table closed is rebuilt no more: its checkpoint goes with the close.
        close = StoredCommand("close", time.now, {"by_host": True})
        await store.commit(table_id, Batch(close, closed=True))
        assert await store.checkpoint(table_id) is None
    finally:
        await db.dispose()


def test_the_codes_version_is_the_code_a_replay_runs(tmp_path: Path) -> None:
    """An upgrade of code a replay does not run keeps the checkpoints; one of code it runs,
    however imported (at the top, in a function, relatively, by a name in a string), does
    not."""
    package = tmp_path / "pkg"
    sources = {
        "__init__.py": "",
        "task.py": (
            "import importlib\n"
            "from pkg import top\n"
            "from pkg.brackets import (\n    one,\n    two as three,\n)\n"
            "from .relative import thing\n\n\n"
            "def later():\n    import pkg.inner.late\n"
            "    return importlib.import_module('pkg.by_name')\n"
        ),
        "top.py": "from pkg.deep import x  # imported by what the task imports\n",
        "deep.py": "x = 1\n",
        "brackets.py": "one = two = 2\n",
        "relative.py": "thing = 3\n",
        "inner/__init__.py": "",
        "inner/late.py": "",
        "by_name.py": "",
        "lobby.py": "from pkg import task  # imports the task; the task does not import it\n",
        "web/__init__.py": "",
    }
    for name, text in sources.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    found = checkpoints.modules_imported(package, "pkg.task")
    assert found == {
        "pkg",
        "pkg.task",
        "pkg.top",
        "pkg.deep",
        "pkg.brackets",
        "pkg.relative",
        "pkg.inner",
        "pkg.inner.late",
        "pkg.by_name",
    }
    version = checkpoints.version_of(package, found)
    (package / "lobby.py").write_text("# a fix of the lobby\n")
    (package / "web" / "__init__.py").write_text("# a new page\n")
    assert (
        checkpoints.version_of(package, checkpoints.modules_imported(package, "pkg.task"))
        == version
    )
    for changed in ("deep.py", "inner/late.py", "by_name.py", "relative.py"):
        before = (package / changed).read_text()
        (package / changed).write_text(before + "# changed\n")
        again = checkpoints.modules_imported(package, "pkg.task")
        assert again == found and checkpoints.version_of(package, again) != version, changed
        (package / changed).write_text(before)
    # The room's own: the engine, the room and the table task are in it, the rest is not.
    room = checkpoints.replay_modules()
    assert {"mazziere.server.tables", "mazziere.room.cash", "mazziere.game.hand"} <= room
    assert {"mazziere.bots.strong", "mazziere.history.writers"} <= room  # in functions
    assert not room & {"mazziere.server.lobby", "mazziere.server.play", "mazziere.cli"}
    assert not any(name.startswith(("mazziere.web", "mazziere.tui")) for name in room)
