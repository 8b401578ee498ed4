"""The garbage collector's policy of the running room (``mazziere.server.collector``)."""

from __future__ import annotations

import asyncio
import gc
import math
import sys
import weakref

import pytest

from mazziere.server.collector import CollectorPolicy

# The collections these tests make finalize whatever an earlier test in the same process
# left unclosed (a socket, say): its warning is that test's, not this one's.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> tuple[Node, weakref.ref[Node]]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first, weakref.ref(second)


def test_a_cycle_that_outlived_a_young_collection_waits_for_the_room_to_grow() -> None:
    async def run() -> tuple[bool, bool, bool, int]:
        policy = CollectorPolicy(
            asyncio.get_running_loop(), full_after_growth=0.5, heap_check_seconds=0.0
        )
        policy.install()
        try:
            held, probe = _cycle()
            gc.collect(0)  # it survives a young collection: frozen
            del held  # now garbage, but among the frozen objects
            gc.collect(0)
            await asyncio.sleep(0)
            kept_while_small = probe() is not None
            growth = [[] for _ in range(sys.getallocatedblocks())]  # the room doubles
            gc.collect(0)
            due_before_the_loop_runs = probe() is not None
            await asyncio.sleep(0)  # the full collection runs on the loop
            freed = probe() is None
            del growth
            return kept_while_small, due_before_the_loop_runs, freed, policy.full_collections
        finally:
            policy.uninstall()

    kept_while_small, waited_for_the_loop, freed, full_collections = asyncio.run(run())
    assert kept_while_small
    assert waited_for_the_loop
    assert freed
    assert full_collections == 1


def _room_grows(
    players: tuple[int, int], heap: tuple[float, float], *, size_floor: int = 1
) -> tuple[bool, bool, int]:
    """The room goes from ``players[0]`` to ``players[1]`` players as its heap grows to
    ``heap[0]`` times what it was, then to ``heap[1]`` times with no one new.  Whether a
    cycle among the frozen objects was kept after the first growth, freed after the second,
    and how many full collections there were."""
    now = [players[0]]

    async def run() -> tuple[bool, bool, int]:
        policy = CollectorPolicy(
            asyncio.get_running_loop(),
            full_after_growth=0.5,
            heap_check_seconds=0.0,
            room_size=lambda: now[0],
            size_floor=size_floor,
        )
        policy.install()
        try:
            held, probe = _cycle()
            gc.collect(0)
            del held  # garbage among the frozen objects
            start = sys.getallocatedblocks()
            now[0] = players[1]
            with_players = [[] for _ in range(int((heap[0] - 1) * start))]
            gc.collect(0)
            await asyncio.sleep(0)
            kept = probe() is not None
            beyond = [[] for _ in range(int((heap[1] - heap[0]) * start))]
            gc.collect(0)
            await asyncio.sleep(0)
            freed = probe() is None
            del with_players, beyond
            return kept, freed, policy.full_collections
        finally:
            policy.uninstall()

    return asyncio.run(run())


def test_a_heap_that_grew_with_the_players_is_not_collected_in_full() -> None:
    """The room trebles its players and doubles its heap: no cycle more for each of them,
    no full collection (a pause for nothing); the heap then grows with no one new past half
    more for each of them (1.5 * 3): it is."""
    assert _room_grows((1, 3), (2.0, 6.0)) == (True, True, 1)


def test_a_room_that_grew_by_less_than_doubling_brings_its_share_of_the_heap() -> None:
    """From 10 players to 14 the heap grows by 60%: less than half more for each player
    (the heap measured afresh only when the players doubled made a full collection of it,
    2.4 s at 7,500 players); then it grows past 1.5 * 14 / 10 = 2.1 times: it is."""
    assert _room_grows((10, 14), (1.6, 2.6)) == (True, True, 1)


def test_a_policy_with_no_bound_on_growth_never_collects_in_full() -> None:
    """The load generator's: its heap may treble, and a cycle among its frozen objects
    waits for the end of the run, while young cycles are still freed by young collections."""

    async def run() -> tuple[bool, bool, int]:
        policy = CollectorPolicy(
            asyncio.get_running_loop(), full_after_growth=math.inf, heap_check_seconds=0.0
        )
        policy.install()
        try:
            held, probe = _cycle()
            gc.collect(0)
            del held  # garbage among the frozen objects
            growth = [[] for _ in range(2 * sys.getallocatedblocks())]  # the heap trebles
            gc.collect(0)
            await asyncio.sleep(0)
            kept = probe() is not None
            young, young_probe = _cycle()
            del young
            gc.collect(0)
            del growth
            return kept, young_probe() is None, policy.full_collections
        finally:
            policy.uninstall()

    assert asyncio.run(run()) == (True, True, 0)


def test_a_young_cycle_is_freed_by_the_young_collection() -> None:
    async def run() -> bool:
        policy = CollectorPolicy(asyncio.get_running_loop())
        policy.install()
        try:
            held, probe = _cycle()
            del held
            gc.collect(0)
            return probe() is None
        finally:
            policy.uninstall()

    assert asyncio.run(run())


def test_the_loop_collects_the_young_generation_on_its_clock() -> None:
    async def run() -> tuple[bool, bool]:
        # CPython's own trigger out of the way: only the loop's timer collects.
        policy = CollectorPolicy(
            asyncio.get_running_loop(), young_every_seconds=0.01, young_every=1_000_000_000
        )
        policy.install()
        try:
            held, probe = _cycle()
            del held
            await asyncio.sleep(0)
            before_its_time = probe() is not None
            await asyncio.sleep(0.05)
            return before_its_time, probe() is None
        finally:
            policy.uninstall()

    assert asyncio.run(run()) == (True, True)


def test_uninstalling_gives_the_collector_back_its_thresholds() -> None:
    before = gc.get_threshold()

    async def run() -> tuple[int, int, int]:
        policy = CollectorPolicy(asyncio.get_running_loop(), young_every=1_234)
        policy.install()
        during = gc.get_threshold()
        policy.uninstall()
        assert policy._timer is None  # no young collection left to come
        return during

    during = asyncio.run(run())
    assert during[0] == 1_234
    assert gc.get_threshold() == before
    assert not any(isinstance(getattr(c, "__self__", None), CollectorPolicy) for c in gc.callbacks)


@pytest.mark.parametrize(("warn_after_ms", "level"), [(0.0, "WARNING"), (1e9, "INFO")])
def test_a_full_collection_the_players_would_feel_is_a_warning_in_the_log(
    warn_after_ms: float, level: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def run() -> None:
        policy = CollectorPolicy(asyncio.get_running_loop(), warn_after_ms=warn_after_ms)
        policy.install()
        try:
            policy.collect_all()
        finally:
            policy.uninstall()

    with caplog.at_level("INFO", logger="mazziere.server.collector"):
        asyncio.run(run())
    (record,) = [r for r in caplog.records if "full garbage collection" in r.getMessage()]
    assert record.levelname == level
    assert record.getMessage().endswith(" ms")
