"""Sit & go's played at random on a clock the test moves (its standing still between moves is
what a real clock never shows): people acting, timing out, sitting out and in, losing their
connection and coming back, chatting, answering offers, over levels by hands and by
minutes with a break.  At every moment the table's clock wakes it only for something it
acts on (a wake it does not act on comes back at once: a tick stored at each turn of the
loop), the chips are all there, and the table rebuilt from its stored commands is the table
that played them."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

import pytest

from mazziere.room.structure import Schedule
from mazziere.room.tournament import TournamentSettings
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import Player, TableTask, TournamentConfig
from tests.random_sessions import more_seeds, same_session_for
from tests.test_checkpoints import (
    Seat,
    Yielding,
    differences,
    my_cards,
    play_until_enough,
    random_act,
)
from tests.test_checkpoints import table_time as _standing_clock

table_time = _standing_clock  # the fixture, used here too

PEOPLE = (Player(1, "anna"), Player(2, "bruno"), Player(3, "carla"), Player(4, "dario"))
STACKS = {"holdem": 300, "italian-classic": 400, "italian-32": 400}


def sit_and_go(rules: str, unit: str) -> TournamentConfig:
    """Four people; levels of two hands (or two minutes), a minute's break every two levels."""
    schedule = Schedule.standard(
        rules, starting_stack=STACKS[rules], unit=unit, length=2, break_every=2, break_minutes=1
    )
    settings = TournamentSettings(
        rules=rules, buy_in=100, starting_stack=STACKS[rules], seats=4, max_players=4,
        schedule=schedule,
    )  # fmt: skip
    players = tuple((person.account_id, person.name) for person in PEOPLE)
    # A pause between hands, as in the room: where everyone is away the hands play
    # themselves, and on a clock that stands still they would all be played at one moment.
    return TournamentConfig(
        id=7, table_id=7, settings=settings, players=players, next_hand_seconds=0.5
    )


async def random_sit_and_go(
    config: TournamentConfig, seed: int, time: SimpleNamespace
) -> tuple[TableTask, Yielding]:
    """Play ``config`` at random until it ends (or 3,000 moves): the task and its store."""
    chance = random.Random(seed)
    store = Yielding({person.account_id: 0 for person in PEOPLE}, hands=10**6)
    task = TableTask(config, store, LocalBus(), bot_seconds=1.0)
    await task.begin()
    await task.rebuild()
    seats = {person.name: Seat(person.name) for person in PEOPLE}
    for seat in seats.values():
        task.bus.connect(seat)
        task.bus.follow("7", seat)
    task.start()
    people = {person.name: person for person in PEOPLE}

    async def send(name: str, message: object) -> None:
        await task.submit(people[name], message, seats[name])

    async def play() -> None:
        for _ in range(3000):
            tournament = task.tournament
            if tournament is None or tournament.state.value != "running":
                break
            time.now += chance.choice((0.0, 0.5, 2.0, 2.0, 31.0))  # a timeout now and then
            name = chance.choice(list(seats))
            roll = chance.random()
            turn = seats[name].turn()
            if turn is not None and roll < 0.85:
                held = my_cards(task, name)
                await send(name, random_act(chance, "7", turn["action_id"], turn["legal"], held))
            elif roll < 0.88:
                await send(name, p.Chat(table="7", text=f"mano {task.table.hand_number}"))
            elif roll < 0.91:
                await send(name, p.SitOut(table="7"))
            elif roll < 0.95:
                await send(name, p.SitIn(table="7"))
            elif roll < 0.98 and task.table.is_seated(name):  # a socket closes, or opens again
                await (task.disconnected if chance.random() < 0.5 else task.reconnected)(name)
            elif task.table.offers.get(name) is not None:
                await send(name, p.Answer(table="7", accept=chance.random() < 0.7))
            await asyncio.sleep(0)

    await play_until_enough(play(), store)
    await task.stop()
    return task, store


@pytest.mark.parametrize("seed", [0, *more_seeds()])
@pytest.mark.parametrize("unit", ["hands", "minutes"])
@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_a_random_sit_and_go_wakes_only_to_act_and_rebuilds_as_it_played(
    rules: str, unit: str, seed: int, table_time: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = sit_and_go(rules, unit)
    same_session_for(seed, monkeypatch)  # a seed plays the same session every time

    async def scenario() -> None:
        task, store = await random_sit_and_go(
            config, seed=seed or len(rules + unit), time=table_time
        )
        assert store.spun_at is None, f"the table's clock spun at {store.spun_at}"
        tournament = task.tournament
        assert tournament is not None and task.table.hand_number >= 1
        over = tournament.state.value != "running"  # (all in at once, it may end at once)
        assert over or task.table.hand_number >= 3
        tournament.chips.check()
        if over:  # the prize pool paid to the last chip
            assert sum(store.wallets.values()) == 100 * len(PEOPLE)
        again = TableTask(config, store, LocalBus(), bot_seconds=1.0)
        await again.rebuild()
        for seat in task.table:  # sockets are not commands: a rebuilt seat is connected
            await task.reconnected(seat.name)
        assert (again.seq, again.table.hand_number) == (task.seq, task.table.hand_number)
        assert not differences(again, task)

    asyncio.run(scenario())
