"""The garbage collector's policy while the room runs: short pauses, no garbage kept.

CPython collects cycles in three generations, and an older generation's collection walks
everything that survived the younger ones, the event loop standing still meanwhile.  A
room with thousands of sockets holds hundreds of thousands of long-lived objects (the
connections, the seats, the hands in play), and its sockets' waits live for seconds: at
5,000 players young collections took 60 to 100 ms, middle ones 120 to 320 ms and full
ones 600 to 900 ms (``docs/benchmarks-changelog.md``), the longest delays of the room.

The policy: a young collection every :attr:`CollectorPolicy.young_every_seconds` on the
event loop, and whatever survives one is moved out of every later collection's way
(``gc.freeze``).  A young collection walks only what was made since the last one and is
still alive, so the more often it comes, the shorter it is.  CPython's own trigger (a count
of new objects) cannot say that: it counts every freed object, old or new, against the new
ones, so in a room whose objects live for seconds (the sockets' waits) it fired only when
making and freeing happened to drift apart, and each collection walked whatever had piled
up meanwhile (at 5,000 players: 6 a second, 5 ms at the median and 20 ms at the longest).
That trigger stays, at :attr:`CollectorPolicy.young_every` new objects, for a burst between
two turns of the loop.  A frozen object is still freed as soon as its last reference goes
(reference counting frees almost everything); only a reference cycle among frozen objects
waits, so everything is collected in full once the interpreter's heap (its allocated
blocks: counting the frozen objects themselves would walk them all) has grown by
:attr:`CollectorPolicy.full_after_growth` for each of the room's players since the last
time, looked at once a second (:attr:`CollectorPolicy.room_size`, from
:attr:`CollectorPolicy.size_floor` players on; the heap is measured afresh when the room
first reaches that size).  A heap grown with its players held no more garbage: collected in
full, it froze the room for 0.4 to 1.0 s at 5,000 players and up to 1.8 s at 10,000 to free
4,000 to 19,000 objects, and for 2.4 s at 7,500 (a room grown by less than doubling since
its heap was last measured).  So the pause comes when cycles pile up (or the room is
small), not while it fills, and memory stays bounded: within twice what the room's players
held at the last mark for each player it holds now, garbage and all.

>>> loop = asyncio.new_event_loop()
>>> policy = CollectorPolicy(loop)
>>> policy.young_every_seconds, policy.young_every, policy.full_after_growth
(0.025, 20000, 1.0)
>>> loop.close()
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["CollectorPolicy"]

log = logging.getLogger(__name__)


class CollectorPolicy:
    """The collector's policy for one running room (:meth:`install`, :meth:`uninstall`)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        young_every_seconds: float = 0.025,
        young_every: int = 20_000,
        full_after_growth: float = 1.0,
        heap_check_seconds: float = 1.0,
        warn_after_ms: float = 100.0,
        room_size: Callable[[], int] = lambda: 0,
        size_floor: int = 1_000,
    ) -> None:
        self.loop = loop
        self.young_every_seconds = young_every_seconds
        """Seconds between two young collections made by the loop."""
        self.young_every = young_every
        """New objects (as CPython counts them) that start a young collection sooner."""
        self.full_after_growth = full_after_growth
        """How much the heap may grow (0.5: by half) before a full collection (``math.inf``:
        never, for a process whose run is bounded, as the load generator's)."""
        self.heap_check_seconds = heap_check_seconds
        """Seconds between two looks at the heap's size (each walks its pools: 0.4 ms at
        450 MB, which young collections 40 times a second would spend 1.5% of a core on)."""
        self.warn_after_ms = warn_after_ms
        """A full collection that long is logged as a warning (the room stood still)."""
        self.room_size = room_size
        """How many players the room holds now (called from the collector's callback, in
        any thread: it only reads)."""
        self.size_floor = size_floor
        """A room of fewer players never counts as grown: its heap is mostly the program's
        own, and collecting it in full is short."""
        self.full_collections = 0
        self._blocks_mark = 0
        """The heap's size after the last full collection, or when the room last grew."""
        self._players_mark = 0
        """The room's players at the same moment."""
        self._full_due = False
        self._next_growth_check = 0.0
        self._saved_threshold: tuple[int, int, int] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def install(self) -> None:
        """Freeze what start-up made, take over the collector's thresholds and start the
        loop's young collections."""
        gc.collect()
        gc.freeze()
        self._mark()
        self._saved_threshold = gc.get_threshold()
        gc.set_threshold(self.young_every, *self._saved_threshold[1:])
        gc.callbacks.append(self._collected)
        self._timer = self.loop.call_later(self.young_every_seconds, self._young_collection)

    def uninstall(self) -> None:
        """Give the collector back its thresholds; what was frozen stays frozen (the server
        is stopping; a test process that ran it would otherwise finalize its leftovers in
        the middle of a later test)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._saved_threshold is not None:
            gc.set_threshold(*self._saved_threshold)
            self._saved_threshold = None

    def _young_collection(self) -> None:
        gc.collect(0)  # the callback freezes what survived
        self._timer = self.loop.call_later(self.young_every_seconds, self._young_collection)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Called by the collector itself, in whichever thread allocated: it only freezes
        # (a constant-time move of lists) and hands the full collection to the loop.
        if phase != "stop":
            return
        gc.freeze()
        now = time.monotonic()
        if self._full_due or now < self._next_growth_check:
            return
        self._next_growth_check = now + self.heap_check_seconds
        grown = 1.0 + self.full_after_growth
        players = self.room_size()
        if sys.getallocatedblocks() <= self._blocks_mark * grown * self._per_player(players):
            return
        if self._players_mark < self.size_floor <= players:
            self._mark()  # the room is first large enough to measure its players' heap by
            return
        self._full_due = True
        self.loop.call_soon_threadsafe(self.collect_all)

    def _per_player(self, players: int) -> float:
        """How many times the players at the mark the room holds now: its heap may grow as
        much with no garbage in it (1 while the room is below :attr:`size_floor` players or
        has not grown).  The heap measured afresh only when the players had doubled let a
        room of 7,500 players, grown by less since its last mark, double its heap and be
        collected in full, the room standing still for 2.4 s, to find its players' heap."""
        if self._players_mark < self.size_floor or players <= self._players_mark:
            return 1.0
        return players / self._players_mark

    def _mark(self) -> None:
        self._blocks_mark = sys.getallocatedblocks()
        self._players_mark = self.room_size()

    def collect_all(self) -> int:
        """Collect everything, frozen or not, then freeze what is left; returns what was freed."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self._mark()
        self._full_due = False
        self.full_collections += 1
        pause_ms = (time.perf_counter() - started) * 1000
        # A pause the players feel is the operator's to hear of (and the load test's: it
        # counts these lines in the server's log while it measures).
        log.log(
            logging.WARNING if pause_ms >= self.warn_after_ms else logging.INFO,
            "full garbage collection: %d objects freed in %.0f ms",
            freed,
            pause_ms,
        )
        return freed
