"""Hints for learners, as the room decides them: offered only where every other seat is a
bot or the host allows them, never in a tournament, and worked out only at the player's
own decision from their own seat's view (a real table task, in one process)."""

from __future__ import annotations

import asyncio
from typing import Any

from mazziere.cards import parse_cards
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.hints import _question, refusal
from mazziere.server.tables import MemoryStore, Player, TableTask, TournamentConfig
from tests.test_tables import ANNA, BRUNO, Inbox, config, sit_and_go, until


async def seated(task: TableTask, *people: tuple[Player, Inbox]) -> None:
    await task.rebuild()
    task.start()
    for player, box in people:
        await task.submit(player, p.Sit(table="1", buy_in=1000), box)
        assert box.last("ack")["of"] == "sit", box.messages[-1]


def test_hints_are_offered_against_bots_only_unless_the_host_allows_them() -> None:
    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        anna, bruno = Inbox("anna"), Inbox("bruno")
        task = TableTask(config("holdem"), store, LocalBus(), bot_seconds=0.0)
        await seated(task, (ANNA, anna))
        assert "bot" in refusal(task, "anna")  # alone: nobody to play against yet
        assert refusal(task, "bruno") == "sit at the table first"
        await task.submit(ANNA, p.AddBots(table="1", count=2), anna)
        assert refusal(task, "anna") == ""
        await task.submit(BRUNO, p.Sit(table="1", buy_in=1000), bruno)
        assert "bot" in refusal(task, "anna")  # a person sat down: no more hints
        assert "bot" in refusal(task, "bruno")
        await task.stop()
        fresh = MemoryStore({1: 10_000, 2: 10_000})
        hosted = TableTask(config("holdem", hints_allowed=True), fresh, LocalBus(), bot_seconds=0)
        await seated(hosted, (ANNA, Inbox("anna")), (BRUNO, Inbox("bruno")))
        assert refusal(hosted, "anna") == refusal(hosted, "bruno") == ""
        await hosted.stop()

    asyncio.run(scenario())


def test_never_in_a_tournament() -> None:
    players = ((1, "anna"), (2, "bruno"))
    tournament = TournamentConfig(id=5, table_id=9, settings=sit_and_go(2), players=players)

    async def scenario() -> None:
        task = TableTask(tournament, MemoryStore({1: 0, 2: 0}), LocalBus(), bot_seconds=0.0)
        await task.begin()
        await task.rebuild()
        assert refusal(task, "anna") == "hints are never offered in tournaments"

    asyncio.run(scenario())


def test_a_hint_is_worked_out_from_the_own_seat_only_at_the_own_decision() -> None:
    async def scenario() -> None:
        bus = LocalBus()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        bus.connect(anna)
        bus.connect(bruno)
        store = MemoryStore({1: 10_000, 2: 10_000})
        task = TableTask(config("italian-32", hints_allowed=True), store, bus, bot_seconds=0.0)
        await seated(task, (ANNA, anna), (BRUNO, bruno))
        asked: dict[str, Any] = {}
        for _ in range(200):  # play passively until each has been asked at a dealt hand
            await until(lambda: task.table.decision is not None)
            decision = task.table.decision
            assert decision is not None
            other = "bruno" if decision.name == "anna" else "anna"
            assert _question(task, other) is None  # not their decision: nothing worked out
            question = _question(task, decision.name)
            assert question is not None
            rules, cards, board, opponents, players = question
            if cards:
                box = anna if decision.name == "anna" else bruno
                dealt = [
                    m["record"]["cards"]
                    for m in box.of_type("record")
                    if m["hand"] == task.table.hand_number and m["record"]["type"] == "hole_cards"
                    and m["record"].get("position") == decision.position
                ]  # fmt: skip
                mine = {c for batch in dealt for c in batch}
                assert "??" not in mine and set(map(str, cards)) <= mine  # the seat's own cards
                assert (rules, board, opponents, players) == ("italian-32", (), 1, 2)
                asked[decision.name] = cards
            if len(asked) == 2:
                break
            legal = decision.legal
            kinds = {k.value for k in legal.kinds}
            kind = next(k for k in ("check", "call", "draw", "parol", "muck", "fold") if k in kinds)
            turn = task.action_id
            player = ANNA if decision.name == "anna" else BRUNO
            await task.submit(player, p.Act(table="1", action_id=turn, kind=kind), None)  # type: ignore[arg-type]
        assert len(asked) == 2
        assert not set(asked["anna"]) & set(asked["bruno"])
        assert all(len(cards) == 5 for cards in asked.values())
        assert parse_cards(" ".join(map(str, asked["anna"])))  # plain cards, nothing hidden
        await task.stop()

    asyncio.run(scenario())
