"""A mailbox: what one task waits for, put by others without waiting.

A table's task waits for its players' requests or its clock; a socket's writer waits for
the texts the tables queue for it.  Each of them waits again after every message, thousands
of times a second in a busy room, and what a wait makes lives until the next message: the
garbage collector walks it at every young collection (at 5,000 players those walks were the
event loop's longest pauses).  ``asyncio.wait_for(queue.get(), timeout)`` makes a coroutine,
a task and its coroutine, several futures and callbacks for each wait; a mailbox parks its
one reader on a bare future, with a timer handle when the wait has a limit.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

__all__ = ["Mailbox"]

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items in the order they were put; one task waits for them.

    >>> import asyncio
    >>> async def demo() -> list[object]:
    ...     box: Mailbox[str] = Mailbox()
    ...     seen: list[object] = [await box.wait(timeout=0.01)]  # nothing came: False
    ...     asyncio.get_running_loop().call_soon(box.put, "hello")
    ...     seen.append(await box.wait())
    ...     seen.append(box.take())
    ...     return seen + [len(box)]
    >>> asyncio.run(demo())
    [False, True, 'hello', 0]
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: T) -> None:
        """Add ``item`` at the end and wake the waiting task (never waits)."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def take(self) -> T:
        """The first item, removed (``IndexError`` when the box is empty)."""
        return self._items.popleft()

    def drain(self) -> list[T]:
        """Every item, removed, in order."""
        items = list(self._items)
        self._items.clear()
        return items

    async def wait(self, timeout: float | None = None) -> bool:
        """Until the box holds an item (``True``) or ``timeout`` seconds pass (``False``)."""
        if self._items:
            return True
        if self._waiter is not None:
            raise RuntimeError("a mailbox has one reader")
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = None if timeout is None else loop.call_later(timeout, _time_up, waiter)
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()
        return bool(self._items)


def _time_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
