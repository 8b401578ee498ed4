"""The loop of a task that owns tables (:mod:`mazziere.server.requests`): a clock that wakes
the task again and again at a time its turns never move (a bug of the task: each turn
stores a tick) rests and says so, while a wake due for several things at one time, one per
turn, goes on without a pause."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from mazziere.server.requests import (
    IDLE_TURNS_BEFORE_REST,
    WOKE_FOR_NOTHING,
    Request,
    RequestLoop,
)


class Clock:
    def now(self) -> float:
        return time.monotonic()


class DueAtOneTime(RequestLoop):
    """A task whose clock is due at one time gone by for ``things`` turns (forever if
    ``None``), then has nothing to wake for."""

    def __init__(self, things: int | None) -> None:
        super().__init__("the task")
        self.clock = Clock()  # type: ignore[assignment]
        self.held = False
        self.things = things
        self.turns = 0
        self.due_at = round(self.clock.now()) - 5.0

    def _next_wake(self) -> float | None:
        if self.things is not None and self.turns >= self.things:
            return None
        return self.due_at

    async def _on_time(self) -> None:
        self.turns += 1

    async def _handle(self, request: Request) -> None:
        raise AssertionError("no request is sent")

    async def _failed(self, what: str) -> None:
        raise AssertionError(f"nothing fails ({what})")


async def turns_in(task: DueAtOneTime, seconds: float) -> int:
    """The turns ``task`` took in ``seconds``."""
    task.start()
    await asyncio.sleep(seconds)
    assert task._task is not None
    task._task.cancel()
    return task.turns


def test_a_clock_that_wakes_for_nothing_rests_a_second_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="mazziere.server.requests"):
        turns = asyncio.run(turns_in(task := DueAtOneTime(None), 1.5))
    # The hundredth turn of nothing: a second's rest (not a turn at each of the loop's),
    # then two seconds after the next hundred.
    assert turns == 2 * IDLE_TURNS_BEFORE_REST
    said = [record.getMessage() for record in caplog.records]
    assert said == [
        f"the task {WOKE_FOR_NOTHING} {IDLE_TURNS_BEFORE_REST} times in a row "
        f"(its wake at {task.due_at} stays due); resting for {seconds} s"
        for seconds in (1, 2)
    ]
    caplog.clear()  # said here on purpose: the suite's check of every test would fail it


def test_a_wake_due_for_several_things_takes_a_turn_for_each_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    things = IDLE_TURNS_BEFORE_REST - 1  # (more than a table's seats would ever be due)
    turns = asyncio.run(turns_in(DueAtOneTime(things), 0.2))
    assert turns == things
    assert not caplog.records
