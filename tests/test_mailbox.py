"""The mailbox a table's task and a socket's writer wait on: order, the clock, one reader;
and a request a table never read is refused when it stops, not left waiting."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.room.structure import Stakes
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.mailbox import Mailbox
from mazziere.server.tables import MemoryStore, Player, TableConfig, TableTask


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


def test_a_request_the_table_never_read_is_refused_when_it_stops() -> None:
    async def scenario() -> None:
        stakes = Stakes(small_blind=5, big_blind=10)
        config = TableConfig(
            id=1, name="t", rules="holdem", seats=6, min_buy_in=200, max_buy_in=2000, stakes=stakes
        )
        task = TableTask(config, MemoryStore({1: 10_000}), LocalBus(), bot_seconds=0.0)
        await task.rebuild()
        task.start()

        class Outbox:
            player = "anna"

            def offer(self, text: str) -> None:
                pass

        sent = asyncio.create_task(task.submit(Player(1, "anna"), p.Ping(), Outbox()))
        await asyncio.sleep(0)  # queued: the table is woken but has not read it yet
        await task.stop()
        with pytest.raises(RuntimeError, match="table 1 stopped"):
            await sent
        assert len(task.inbox) == 0

    asyncio.run(scenario())
