"""The mailbox a table's task and a socket's writer wait on: order, the clock, one reader;
and the loop a table's task and a tournament's share: a request never read is refused when
the task stops, not left waiting; one that fails is answered and the task rebuilt; a held
task refuses at once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.room.registration import TournamentSettings
from mazziere.room.structure import Schedule, Stakes
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.mailbox import Mailbox
from mazziere.server.tables import MemoryStore, Player, TableConfig, TableTask
from mazziere.server.tournaments import MultiTableConfig, TournamentTask


def table_config() -> TableConfig:
    stakes = Stakes(small_blind=5, big_blind=10)
    return TableConfig(
        id=1, name="t", rules="holdem", seats=6, min_buy_in=200, max_buy_in=2000, stakes=stakes
    )


def tournament_config() -> MultiTableConfig:
    settings = TournamentSettings(
        rules="holdem", buy_in=100, starting_stack=1_000, seats=6, max_players=60,
        schedule=Schedule.standard("holdem", starting_stack=1_000, unit="hands", length=2),
        starts_at=0.0,
    )  # fmt: skip
    players = tuple((k, f"p{k}") for k in range(1, 9))
    return MultiTableConfig(id=1, table_ids=(100, 101), settings=settings, players=players)


@given(st.lists(st.integers(), max_size=30), st.integers(min_value=0, max_value=30))
def test_items_come_out_in_the_order_they_were_put(items: list[int], taken: int) -> None:
    box: Mailbox[int] = Mailbox()
    for item in items:
        box.put(item)
    first = [box.take() for _ in range(min(taken, len(items)))]
    assert first + box.drain() == items
    assert len(box) == 0
    with pytest.raises(IndexError):
        box.take()


def test_a_wait_ends_when_an_item_comes_or_the_time_is_up() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        box: Mailbox[str] = Mailbox()
        started = loop.time()
        assert await box.wait(timeout=0.05) is False
        assert loop.time() - started >= 0.04
        loop.call_later(0.02, box.put, "late")
        assert await box.wait(timeout=5.0) is True  # woken by the item, not the limit
        assert loop.time() - started < 1.0
        assert await box.wait(timeout=0.0) is True  # an item is there: no wait at all
        assert box.take() == "late"

    asyncio.run(scenario())


def test_a_mailbox_has_one_reader() -> None:
    async def scenario() -> None:
        box: Mailbox[str] = Mailbox()
        reader = asyncio.create_task(box.wait())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one reader"):
            await box.wait()
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        box.put("after")  # a cancelled reader left no waiter behind
        assert await box.wait() is True

    asyncio.run(scenario())


class Replies:
    player = "anna"

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    def offer(self, text: str) -> None:
        self.got.append(json.loads(text))


async def running(owner: str) -> tuple[TableTask | TournamentTask, TableTask]:
    """A table's task, or a tournament's, running; and the table to send requests to."""
    if owner == "table":
        table = TableTask(table_config(), MemoryStore({1: 10_000}), LocalBus(), bot_seconds=0.0)
        await table.rebuild()
        table.start()
        return table, table
    tournament = TournamentTask(tournament_config(), MemoryStore(), LocalBus())
    await tournament.begin()
    await tournament.rebuild()
    tournament.start()
    return tournament, tournament.tables[1]


@pytest.mark.parametrize("owner", ["table", "tournament"])
def test_a_request_the_task_never_read_is_refused_when_it_stops(owner: str) -> None:
    async def scenario() -> None:
        task, table = await running(owner)
        sent = asyncio.create_task(table.submit(Player(1, "anna"), p.Ping(), Replies()))
        await asyncio.sleep(0)  # queued: the task is woken but has not read it yet
        await task.stop()
        with pytest.raises(RuntimeError, match=f"{owner} 1 stopped"):
            await sent
        assert len(task.inbox) == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("owner", ["table", "tournament"])
def test_a_request_the_table_fails_on_is_answered_and_the_task_rebuilt(owner: str) -> None:
    """The task answers with an internal error, rebuilds from what was stored and goes on (a
    tournament: its next request is handled by the table as it has it after the rebuild)."""

    async def scenario() -> tuple[list[dict[str, Any]], str]:
        task, table = await running(owner)
        rebuilt: list[int] = []
        rebuild = task.rebuild

        async def counted() -> int:
            rebuilt.append(1)
            return await rebuild()

        async def broken(request: Any) -> None:
            raise ValueError("a bug")

        task.rebuild = counted  # type: ignore[method-assign]
        table._handle = broken  # type: ignore[method-assign]
        replies = Replies()
        await table.submit(Player(1, "anna"), p.Unwatch(table=table.id), replies)
        assert rebuilt == [1]
        if owner == "table":  # rebuilt in place; a tournament makes new table tasks
            del table._handle
        await table.submit(Player(1, "anna"), p.Unwatch(table=table.id), replies)
        await task.stop()
        return replies.got, table.id

    got, table = asyncio.run(scenario())
    assert [(m["type"], m.get("code"), m["table"]) for m in got] == [
        ("error", "internal", table),
        ("ack", None, table),
    ]


@pytest.mark.parametrize("owner", ["table", "tournament"])
def test_a_held_task_refuses_at_once(owner: str) -> None:
    async def scenario() -> list[dict[str, Any]]:
        task, table = await running(owner)
        task.held = True
        replies = Replies()
        await table.submit(Player(1, "anna"), p.Unwatch(table=table.id), replies)
        assert len(task.inbox) == 0  # not queued behind the hold
        await task.stop()
        return replies.got

    got = asyncio.run(scenario())
    assert [(m["type"], m["code"], m["of"]) for m in got] == [
        ("error", "storage_unavailable", "unwatch")
    ]
