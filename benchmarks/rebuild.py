"""A table's rebuild: how long the room takes to replay a cash table's stored commands.

A restart (or a table that failed) rebuilds every open table from its stored
commands (docs/server.md); from the first, the time a room takes to come back
grows with its tables' history.  This plays ``hands`` hands at a home
game of ``rules`` (a player who checks or folds and tops up between hands,
and four of the host's basic bots, acting at once) through the room's own
table task, in memory, then times the rebuild of that table from the same
commands ``repeats`` times: the median CPU time, per hand and per stored
command.  No peer does this; the figure is the room's own.

Then the same table from its latest checkpoint, as a restart rebuilds it (a checkpoint
every ``checkpoint_hands`` hands, :mod:`mazziere.server.checkpoints`): the median CPU of
that rebuild, the checkpoint's size and the CPU of writing one (the running table's cost).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from typing import Any

from benchmarks.timing import Echo
from mazziere.room.structure import Stakes
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import MemoryStore, Player, StoredCommand, TableConfig, TableTask

STAKES = {
    "holdem": Stakes(small_blind=5, big_blind=10),
    "italian-classic": Stakes(ante=10),
    "italian-32": Stakes(small_blind=10, big_blind=20),
}
HOST = Player(1, "host")


class _Seat:
    """The player's connection: the turn offered to them last, if still theirs."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.turn: dict[str, Any] | None = None

    @property
    def player(self) -> str | None:
        return self.name

    def offer(self, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "turn":
            self.turn = message if message["name"] == self.name else None
        elif message["type"] in ("hand_ended", "snapshot"):
            self.turn = None


def _cautious(legal: dict[str, Any]) -> str:
    """Check, else fold: the player keeps their chips for a long session."""
    kinds = legal["kinds"]
    for kind in ("check", "fold", "draw", "show", "muck", "call"):
        if kind in kinds:
            return kind
    return str(kinds[0])


async def _played(
    rules: str, hands: int, checkpoint_hands: int
) -> tuple[TableConfig, MemoryStore, int]:
    """A home game's stored commands after ``hands`` hands (fewer if the player went)."""
    store = MemoryStore({HOST.account_id: 10**9})
    bus = LocalBus()
    config = TableConfig(
        id=1, name="bench", rules=rules, seats=5, stakes=STAKES[rules], min_buy_in=200,
        max_buy_in=2000, next_hand_seconds=0.0, host_id=HOST.account_id,
    )  # fmt: skip
    task = TableTask(config, store, bus, bot_seconds=0.0, checkpoint_hands=checkpoint_hands)
    return config, store, await play_at(task, HOST, hands)


async def play_at(task: TableTask, host: Player, hands: int) -> int:
    """``host`` (who checks or folds, and tops up between hands) and four of their basic
    bots play ``hands`` hands at ``task``'s table (fewer if the host went); the hands dealt."""
    await task.rebuild()
    task.start()
    seat = _Seat(host.name)
    task.bus.connect(seat)
    table = task.id
    await task.submit(host, p.Sit(table=table, buy_in=2000, seat=1), seat)
    await task.submit(host, p.AddBots(table=table, count=4, kind="basic"), seat)
    while task.table.hand_number < hands and task.table.is_seated(host.name):
        me = task.table.player(host.name)
        if me.stack < 1000 and not task.table.in_hand:  # (the session goes on)
            await task.submit(host, p.TopUp(table=table, amount=2000 - me.stack), seat)
        turn = seat.turn
        if turn is not None:
            seat.turn = None
            kind: Any = _cautious(turn["legal"])
            await task.submit(
                host, p.Act(table=table, action_id=turn["action_id"], kind=kind), seat
            )
        await asyncio.sleep(0)
    await task.stop()
    return task.table.hand_number


async def _rebuild_seconds(
    config: TableConfig, store: MemoryStore, *, checkpoint: bool
) -> tuple[float, TableTask]:
    """The CPU of one rebuild (from the latest checkpoint, or from the first command)."""
    reads = 1 if checkpoint else 0  # (a table that writes checkpoints reads its latest)
    again = TableTask(config, store, LocalBus(), bot_seconds=0.0, checkpoint_hands=reads)
    started = time.process_time()
    await again.rebuild()
    return time.process_time() - started, again


def _writing_seconds(task: TableTask, command: StoredCommand, repeats: int) -> float:
    """The median CPU of writing ``task``'s checkpoint (as the running table does)."""
    seconds = []
    for _ in range(repeats):
        started = time.process_time()
        task._checkpoint(command)
        seconds.append(time.process_time() - started)
    return statistics.median(seconds)


def run_rebuild_benchmark(
    *, rules: str, hands: int, repeats: int, echo: Echo, checkpoint_hands: int = 500
) -> float:
    """Print the median rebuild time of a table that played ``hands`` hands, from its first
    command and from its latest checkpoint; return the milliseconds a hand of the first."""

    async def measure() -> tuple[int, int, int, list[float], list[float], int, float]:
        config, store, played = await _played(rules, hands, checkpoint_hands)
        commands = store.commands[config.id]
        whole = [
            (await _rebuild_seconds(config, store, checkpoint=False))[0] for _ in range(repeats)
        ]
        quick = [await _rebuild_seconds(config, store, checkpoint=True) for _ in range(repeats)]
        latest = store.checkpoints.get(config.id)
        after = len(commands) - (latest.seq if latest is not None else 0)
        size = len(latest.state) if latest is not None else 0
        writing = _writing_seconds(quick[0][1], commands[-1], repeats)
        quick_seconds = [seconds for seconds, _ in quick]
        return played, len(commands), after, whole, quick_seconds, size, writing

    played, commands, after, whole, quick, size, writing = asyncio.run(measure())
    median = statistics.median(whole)
    per_hand = median / max(played, 1) * 1e3
    echo(
        f"{rules}: a table of {played} hands ({commands} stored commands) rebuilds in "
        f"{median * 1e3:.0f} ms of CPU (median of {repeats}): {per_hand:.3f} ms a hand, "
        f"{median / max(commands, 1) * 1e6:.0f} us a command; 100,000 hands: about "
        f"{per_hand * 100:.0f} s"
    )
    echo(
        f"{rules}: from its latest checkpoint (one every {checkpoint_hands} hands; "
        f"{after} commands after it) in {statistics.median(quick) * 1e3:.0f} ms of CPU "
        f"(median of {repeats}); a checkpoint is {size / 1000:.0f} kB, written in "
        f"{writing * 1e3:.1f} ms of CPU"
    )
    return per_hand
