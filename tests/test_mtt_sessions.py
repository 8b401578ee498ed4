"""Multi-table tournaments played at random on a clock the test moves (standing still between
its moves, as a real clock never does): people acting, timing out, sitting out and in,
losing their connection and coming back, chatting, over three tables that break into the
final one, levels by hands and by minutes with breaks.  The tournament's clock wakes its
task only for something it acts on (a wake it does not act on comes back at once: a tick
stored at each turn of the loop), and the tournament rebuilt from its log is the
tournament that played it."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from mazziere.room.structure import Schedule
from mazziere.room.tournament import TournamentState
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import Player
from mazziere.server.tournaments import MultiTableConfig, TournamentTask
from tests.random_sessions import FIRST_MORE_SEED, more_seeds, same_session_for
from tests.test_checkpoints import Seat, Yielding, play_until_enough, random_act
from tests.test_checkpoints import table_time as _standing_clock
from tests.test_play_mtt_task import config, started, state

table_time = _standing_clock  # the fixture, used here too


async def random_tournament(
    setup: MultiTableConfig, seed: int, time: SimpleNamespace
) -> tuple[TournamentTask, Yielding]:
    """Play ``setup`` at random until it ends (or 4,000 moves): its task and its store."""
    chance = random.Random(seed)
    store = Yielding({}, hands=10**6)
    task, _ = await started(setup, store, LocalBus())
    seats = {name: Seat(name) for _, name in setup.players}
    for name, number in task.where().items():
        task.bus.connect(seats[name])
        task.bus.follow(task.tables[number].id, seats[name])

    def lane_of(name: str) -> Any:
        number = task.where().get(name)
        return None if number is None else task.tables[number]

    async def send(name: str, message: Any) -> None:
        lane = lane_of(name)
        if lane is not None:
            await lane.submit(Player(task.accounts[name], name), message, seats[name])

    async def play() -> None:
        for _ in range(4000):
            if task.tournament.state is not TournamentState.RUNNING:
                break
            time.now += chance.choice((0.0, 0.0, 0.5, 2.0, 31.0))  # a timeout now and then
            lanes = [lane for lane in task.tables.values() if lane.live and lane.table.decision]
            roll = chance.random()
            if lanes and roll < 0.85:
                lane = chance.choice(lanes)
                decision = lane.table.decision
                legal = decision.legal.to_dict()
                await send(decision.name, random_act(chance, lane.id, lane.action_id, legal))
            else:
                name = chance.choice(list(seats))
                lane = lane_of(name)
                if lane is None:
                    pass
                elif roll < 0.88:
                    await send(name, p.Chat(table=lane.id, text="ciao"))
                elif roll < 0.92:
                    await send(name, p.SitOut(table=lane.id))
                elif roll < 0.96:
                    await send(name, p.SitIn(table=lane.id))
                elif lane.table.is_seated(name):  # a socket closes, or opens again
                    await (lane.disconnected if chance.random() < 0.5 else lane.reconnected)(name)
            await asyncio.sleep(0)

    await play_until_enough(play(), store)
    await task.stop()
    return task, store


@pytest.mark.parametrize("seed", [0, *more_seeds()])
@pytest.mark.parametrize("unit", ["hands", "minutes"])
@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_a_random_tournament_wakes_only_to_act_and_rebuilds_as_it_played(
    rules: str, unit: str, seed: int, table_time: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_checked(rules, unit, seed, table_time, monkeypatch)


def test_an_offer_past_its_time_wakes_no_tournament_on_a_break(
    table_time: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session of a hunt that found it (seed 1122): at an italian-classic table, players
    asked to pay back into a parol pot had not answered when the tournament's break by the
    clock began.  An offer ends at a deal, and no table deals during a break; the offers'
    time, past, woke the tournament's clock again and again at one moment, a tick stored
    each time (on a real clock: for the whole break, as fast as the database took them)."""
    play_checked("italian-classic", "minutes", 1122, table_time, monkeypatch)


def play_checked(
    rules: str, unit: str, seed: int, table_time: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A random tournament of ``rules``, levels by ``unit``, played from ``seed``: its clock
    never spins, it plays enough, and it rebuilds from its log as it played."""
    base = config(rules, 14)  # levels of two hands, or of two minutes and a break
    schedule = Schedule.standard(
        rules, starting_stack=base.settings.starting_stack, unit=unit, length=2,
        break_every=2, break_minutes=1,
    )  # fmt: skip
    # A pause between hands, as in the room: where everyone is away the hands play
    # themselves, and on a clock that stands still they would all be played at one moment.
    setup = replace(base, next_hand_seconds=0.5, settings=replace(base.settings, schedule=schedule))

    # The decks from the seed too (with the room's own seeds, holdem's by hands ended after
    # nine hands in one run of 25, under the ten asked of the suite's own).
    same_session_for(seed, monkeypatch)

    async def scenario() -> None:
        task, store = await random_tournament(
            setup, seed=seed or len(rules + unit), time=table_time
        )
        assert store.spun_at is None, f"the tournament's clock spun at {store.spun_at}"
        hands = sum(lane.table.hand_number for lane in task.tables.values())
        assert hands >= (10 if seed < FIRST_MORE_SEED else 1)  # (a hunt's may end at once)
        again = TournamentTask(setup, store, LocalBus())
        await again.rebuild()
        assert state(again) == state(task)

    asyncio.run(scenario())
