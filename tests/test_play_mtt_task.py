"""The multi-table tournament's task in-process (a store in memory, the local bus): every rule
set's tournament over three tables plays to its winner; rebuilt from its log at any
command, it is the same tournament (tables, seats, stacks, hands, sequence numbers, turn
ids); every hand of every table checks against its own revealed seed; players moved are
told and their connections follow them."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from typing import Any

import pytest

from mazziere.fair import verify
from mazziere.room.registration import TournamentSettings
from mazziere.room.structure import Schedule
from mazziere.room.tournament import TournamentState
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import Batch, MemoryStore, Player, StoredCommand, StoreUnavailableError
from mazziere.server.tournaments import MultiTableConfig, TournamentTask

SEATS = {"holdem": 6, "italian-classic": 5, "italian-32": 5}


class Inbox:
    def __init__(self, player: str) -> None:
        self.player = player
        self.got: list[dict[str, Any]] = []

    def offer(self, text: str) -> None:
        self.got.append(json.loads(text))


def config(rules: str, players: int) -> MultiTableConfig:
    stack = 1_000
    settings = TournamentSettings(
        rules=rules, buy_in=100, starting_stack=stack, seats=SEATS[rules], max_players=60,
        schedule=Schedule.standard(rules, starting_stack=stack, unit="hands", length=2),
        starts_at=0.0,
    )  # fmt: skip
    return MultiTableConfig(
        id=1,
        table_ids=tuple(range(100, 104)),
        settings=settings,
        players=tuple((k, f"p{k}") for k in range(1, players + 1)),
        next_hand_seconds=0.0,
    )


def view(lane: Any) -> dict[str, Any]:
    """A table as a spectator sees it, but the clock of its decision (a command is stored
    with the time it was asked for, and applied a few microseconds later) and who has a
    connection open (the room's sockets, not commands: a rebuild knows nothing of them)."""
    seen: dict[str, Any] = lane.snapshot(None).state
    for seat in seen["seats"]:
        del seat["connected"]
    if seen.get("decision"):
        seen["decision"] = {
            k: v for k, v in seen["decision"].items() if k not in ("started", "deadline")
        }
    return seen


def state(task: TournamentTask) -> Any:
    """Everything a rebuild must find again."""
    return (
        task.tournament.state,
        {
            n: (
                lane.live,
                lane.seq,
                lane.action_id,
                lane.table.hand_number,
                [(s.name, s.seat, s.stack) for s in lane.table],
                view(lane),
            )
            for n, lane in task.tables.items()
        },
        [(f.name, f.place, f.prize) for f in task.tournament.standings()],
    )


def choose(legal: dict[str, Any], rng: random.Random) -> str:
    """All-in a quarter of the time it may, else the cheapest way on (stand pat at a draw)."""
    kinds = legal["kinds"]
    if "all-in" in kinds and rng.random() < 0.25:
        return "all-in"
    for kind in ("draw", "parol", "check", "call", "show"):
        if kind in kinds:
            return kind
    return str(kinds[0])


class RefusingStore(MemoryStore):
    """A database that refuses writes twice, at its tenth commit (then stores again)."""

    def __init__(self) -> None:
        super().__init__()
        self.commits = 0
        self.refused = 0

    async def commit(self, table_id: int, batch: Batch) -> None:
        self.commits += 1
        if self.commits in (10, 11):
            self.refused += 1
            raise StoreUnavailableError("disk I/O error")
        await super().commit(table_id, batch)


async def started(
    setup: MultiTableConfig, store: MemoryStore, bus: LocalBus
) -> tuple[TournamentTask, dict[str, Inbox]]:
    """The tournament's task running, each player's inbox following their table."""
    task = TournamentTask(setup, store, bus)
    await task.begin()
    await task.rebuild()
    task.start()
    boxes = {name: Inbox(name) for _, name in setup.players}
    for box in boxes.values():
        bus.connect(box)
    for name, number in task.where().items():
        bus.follow(task.tables[number].id, boxes[name])
    return task, boxes


async def play(rules: str, players: int, store: MemoryStore | None = None) -> list[Any]:
    store = store if store is not None else MemoryStore()
    bus = LocalBus()
    setup = config(rules, players)
    task, boxes = await started(setup, store, bus)
    # A spectator at each of the first tables (none of them is the final table).
    watchers = {lane.id: Inbox(f"watcher{lane.number}") for lane in task.tables.values()}
    for table, watcher in watchers.items():
        bus.connect(watcher)
        bus.follow(table, watcher)
    checked = 0
    rng = random.Random(rules)
    try:
        for _ in range(3_000):
            if task.tournament.state is not TournamentState.RUNNING:
                break
            acted = False
            for lane in list(task.tables.values()):
                decision = lane.table.decision
                if decision is None or not lane.live:
                    continue
                kind = choose(decision.legal.to_dict(), rng)
                player = Player(task.accounts[decision.name], decision.name)
                act = p.Act(table=lane.id, action_id=lane.action_id, kind=kind)
                await lane.submit(player, act, boxes[decision.name])
                acted = True
            if len(store.commands[100]) % 7 == 0 and checked < len(store.commands[100]):
                checked = len(store.commands[100])
                again = TournamentTask(setup, store, bus)
                await again.rebuild()
                assert state(again) == state(task)
            await asyncio.sleep(0 if acted else 0.01)
    finally:
        await task.stop()
    assert task.tournament.state is TournamentState.FINISHED
    assert len(task.tables) == 4  # three tables and the final one
    places = sorted(f.place for f in task.tournament.standings())
    assert places == list(range(1, players + 1))
    # Every hand of every table, from its own seed (the draw's reshuffles too).
    histories = [
        part.hand_end.history
        for batch in store.batches[100]
        for _, part in batch.parts
        if part.hand_end is not None
    ]
    assert histories
    for history in histories:
        verify(history)
    moved = [m for box in boxes.values() for m in box.got if m["type"] == "moved"]
    # Whatever the cards, three tables end as one: the final table is drawn and everyone
    # still in is moved to it (whether a table breaks before depends on the cards: a field
    # may lose enough players at once to go straight to the final table).
    assert "final_table" in {m["reason"] for m in moved}
    for message in moved:  # each followed by the new table's snapshot for that player
        box = next(b for b in boxes.values() if message in b.got)
        after = box.got[box.got.index(message) + 1]
        assert (after["type"], after["table"]) == ("snapshot", message["table"])
    # Each table closed says so last, to who still follows it: a first table broken (its
    # spectator is told where the tournament goes on), the final table at the end.  The
    # players moved from a table hear of their own table instead.
    final = next(lane.id for lane in task.tables.values() if lane.id not in watchers)
    for table, watcher in watchers.items():
        closed = watcher.got[-1]
        assert closed == {**closed, "type": "closed", "table": table, "over": False}, closed
        assert closed["tournament"] == setup.id and closed["tables"], closed
        assert set(closed["tables"]) <= {lane.id for lane in task.tables.values()} - {table}
        assert [m["type"] for m in watcher.got].count("closed") == 1
    winner = next(f.name for f in task.tournament.standings() if f.place == 1)
    ending = [m for m in boxes[winner].got if "seq" in m][-1]  # (an ack may follow)
    assert ending == {**ending, "type": "closed", "table": final, "over": True, "tables": []}
    for box in boxes.values():
        left = {m["from_table"] for m in box.got if m["type"] == "moved"}
        told = {m["table"] for m in box.got if m["type"] == "closed"}
        assert not left & told, (box.player, left & told)
    again = TournamentTask(setup, store, bus)
    await again.rebuild()
    assert state(again) == state(task)
    # A stored command for a table is kept in the log with that table's number.
    kinds = {c.kind for c in store.commands[100]}
    assert kinds == {"start", "tick", "act"}
    assert all(
        isinstance(c, StoredCommand) and "table" in c.data
        for c in store.commands[100]
        if c.kind == "act"
    )
    return [m for box in boxes.values() for m in box.got]


@pytest.mark.parametrize(
    ("rules", "players"), [("holdem", 13), ("italian-classic", 11), ("italian-32", 11)]
)
def test_a_tournament_over_three_tables_replays_and_deals_fairly(rules: str, players: int) -> None:
    asyncio.run(play(rules, players))


def test_a_tournament_holds_while_the_database_refuses_writes_then_goes_on() -> None:
    store = RefusingStore()
    heard = asyncio.run(play("holdem", 13, store))
    assert store.refused == 2
    held = [m["held"] for m in heard if m["type"] == "held"]
    assert True in held and held[-1] is False  # told it is held, then that it goes on


def test_with_levels_by_hands_each_table_breaks_on_its_own() -> None:
    """Levels of two hands with a break after each: the tables get to their breaks one by
    one, so for a while one rests while another plays. The tables the task says are on a
    break (what the tournament's page shows) are those whose players were last told a
    break, and those only; each of them has no decision to make."""

    async def scenario() -> tuple[int, int]:
        setup = config("holdem", 13)
        schedule = Schedule.standard(
            "holdem", starting_stack=1_000, unit="hands", length=2, break_every=1
        )
        setup = replace(setup, settings=replace(setup.settings, schedule=schedule))
        task, boxes = await started(setup, MemoryStore(), LocalBus())
        try:
            for _ in range(3_000):
                live = [lane for lane in task.tables.values() if lane.live]
                resting = task.tables_on_break(task.clock.now())
                if resting and len(resting) < len(live):
                    told = {}
                    for box in boxes.values():
                        for message in box.got:
                            if message["type"] == "level" and message.get("level"):
                                told[message["table"]] = message["level"]["on_break"]
                    on_break = {lane.table_id for lane in live if told.get(lane.id)}
                    assert resting == on_break, (resting, told)
                    for lane in live:
                        if lane.table_id in resting:
                            assert lane.table.decision is None
                    return len(resting), len(live)
                acted = False
                for lane in live:
                    decision = lane.table.decision
                    if decision is None:
                        continue
                    # Check or call: nobody goes out, so the three tables play on.
                    kinds = decision.legal.to_dict()["kinds"]
                    kind = next(k for k in ("check", "call", "show", "fold") if k in kinds)
                    player = Player(task.accounts[decision.name], decision.name)
                    act = p.Act(table=lane.id, action_id=lane.action_id, kind=kind)
                    await lane.submit(player, act, boxes[decision.name])
                    acted = True
                await asyncio.sleep(0 if acted else 0.01)
        finally:
            await task.stop()
        raise AssertionError("no moment with some tables on a break and others playing")

    resting, live = asyncio.run(scenario())
    assert 0 < resting < live
