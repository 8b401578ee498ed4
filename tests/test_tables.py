"""The table service in one process: a task per table, commands through its queue,
turn ids, refusals that change nothing, every command stored, and a table rebuilt from
what was stored exactly as it was."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from mazziere.fair import verify
from mazziere.room.structure import Stakes
from mazziere.room.table import SeatStatus
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.tables import MemoryStore, Player, TableConfig, TableTask


class Inbox:
    """A connection's outbox that keeps every message, parsed."""

    def __init__(self, player: str | None) -> None:
        self._player = player
        self.messages: list[dict[str, Any]] = []

    @property
    def player(self) -> str | None:
        return self._player

    def offer(self, text: str) -> None:
        self.messages.append(json.loads(text))

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.messages) if m["type"] == kind)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]


CONFIGS = {
    "holdem": dict(rules="holdem", seats=6, stakes=Stakes(small_blind=5, big_blind=10)),
    "italian-classic": dict(rules="italian-classic", seats=5, stakes=Stakes(ante=10)),
    "italian-32": dict(rules="italian-32", seats=5, stakes=Stakes(small_blind=10, big_blind=20)),
}


def config(rules: str, **more: Any) -> TableConfig:
    return TableConfig(
        id=1,
        name="t",
        min_buy_in=200,
        max_buy_in=2000,
        **{"next_hand_seconds": 0.0, **CONFIGS[rules], **more},
    )


ANNA = Player(1, "anna")
BRUNO = Player(2, "bruno")


async def until(check: Any, seconds: float = 20.0) -> None:
    """Let the table run until ``check()`` holds."""
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table never got there")


def my_turn(inbox: Inbox, name: str) -> dict[str, Any] | None:
    """The turn waiting for ``name`` (the latest turn event, if it is theirs)."""
    turns = inbox.of_type("turn")
    if turns and turns[-1]["name"] == name:
        later = [m for m in inbox.messages if m.get("seq", 0) > turns[-1]["seq"]]
        if not any(m["type"] in ("record", "hand_ended") for m in later):
            return turns[-1]
    return None


def busted(inbox: Inbox, name: str) -> bool:
    """Whether the latest seats show ``name`` without chips."""
    seats = inbox.of_type("seats")
    return bool(seats) and any(
        s["name"] == name and s["status"] == "busted" for s in seats[-1]["seats"]
    )


def passive(legal: dict[str, Any]) -> str:
    kinds = legal["kinds"]
    for kind in ("check", "call", "draw", "show", "fold"):
        if kind in kinds:
            return kind
    return kinds[0]


@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_a_player_and_bots_play_hands_that_are_stored_and_fair(rules: str) -> None:
    async def scenario() -> None:
        store = MemoryStore({1: 10_000})
        bus = LocalBus()
        task = TableTask(config(rules), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna = Inbox("anna")
        bus.connect(anna)
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        assert anna.last("ack")["of"] == "sit"
        await task.submit(ANNA, p.AddBots(table="1", count=2), anna)
        ended = 0
        paid = 1000
        while ended < 6:
            await until(
                lambda seen=ended: bool(
                    my_turn(anna, "anna")
                    or len(anna.of_type("hand_ended")) > seen
                    or busted(anna, "anna")
                )
            )
            ended = len(anna.of_type("hand_ended"))
            if busted(anna, "anna"):  # the bots took everything: buy in again
                await task.submit(ANNA, p.TopUp(table="1", amount=1000), anna)
                assert anna.last("ack")["of"] == "top_up"
                paid += 1000
                await until(lambda: not busted(anna, "anna"))
                continue
            turn = my_turn(anna, "anna")
            if turn is not None and ended < 6:
                kind = passive(turn["legal"])
                act = p.Act(table="1", action_id=turn["action_id"], kind=kind)  # type: ignore[arg-type]
                await task.submit(ANNA, act, anna)
                assert anna.last("ack")["action_id"] == turn["action_id"], anna.messages[-3:]
                await task.submit(ANNA, act, anna)  # a retry: acknowledged, not applied again
                assert anna.last("ack")["repeated"] is True
        await task.stop()
        # Every event has the table's next sequence number.
        seqs = [m["seq"] for m in anna.messages if "seq" in m]
        assert seqs == list(range(1, len(seqs) + 1))
        # Each hand was committed to before the deal and the seed shown after it.
        started = {m["hand"]: m["commitment"] for m in anna.of_type("hand_started")}
        for end in anna.of_type("hand_ended"):
            assert started[end["hand"]] == end["commitment"]
        # Each hand says the pair that opens it: at italian-classic the ladder's (the level
        # its start record gives), elsewhere none.
        starts = {m["hand"]: m["record"]["setup"] for m in anna.of_type("record")
                  if m["record"]["type"] == "start"}  # fmt: skip
        for hand in anna.of_type("hand_started"):
            setup = starts[hand["hand"]]
            expected = None
            if rules == "italian-classic":
                expected = "K" if setup["parol_pot"] else "JQK"[min(setup["opening_level"], 2)]
            assert hand["opening"] == expected, (hand, setup)
        histories = [b.hand_end.history for b in store.batches[1] if b.hand_end is not None]
        assert len(histories) >= 6
        for history in histories:
            assert verify(history).cards_checked > 0
        # The wallet paid the buy-in into the table.
        assert store.wallets[1] == 10_000 - paid

    asyncio.run(scenario())


def test_refusals_change_nothing() -> None:
    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 100})
        bus = LocalBus()
        task = TableTask(config("holdem"), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        await task.submit(BRUNO, p.Sit(table="1", buy_in=500), bruno)
        assert bruno.last("error")["code"] == "refused"  # his wallet holds 100
        await task.submit(BRUNO, p.Leave(table="1"), bruno)
        assert bruno.last("error")["code"] == "not_seated"
        await task.submit(ANNA, p.Sit(table="1", buy_in=50_000, seat=2), anna)
        assert anna.last("error")["code"] == "refused"  # above the table's maximum
        await task.submit(None, p.Sit(table="1", buy_in=500), anna)
        assert anna.last("error")["code"] == "unauthenticated"
        assert len(store.commands.get(1, [])) == 0
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=2), anna)
        await task.submit(ANNA, p.AddBots(table="1", count=1), anna)
        await until(lambda: bool(anna.of_type("turn")))
        stored = len(store.commands[1])
        turn = anna.of_type("turn")[-1]
        if turn["name"] != "anna":
            await until(lambda: my_turn(anna, "anna") is not None)
            turn = my_turn(anna, "anna")
            assert turn is not None
            stored = len(store.commands[1])
        stale = p.Act(table="1", action_id=turn["action_id"] + 5, kind="fold")  # not the turn
        await task.submit(ANNA, stale, anna)
        assert anna.last("error")["code"] == "stale_action"
        illegal = p.Act(table="1", action_id=turn["action_id"], kind="bet", amount=1)
        await task.submit(ANNA, illegal, anna)
        assert anna.last("error")["code"] == "illegal_action"
        await task.submit(ANNA, p.Answer(table="1", accept=True), anna)
        assert anna.last("error")["code"] == "refused"
        assert len(store.commands[1]) == stored
        await task.stop()

    asyncio.run(scenario())


def test_a_rebuilt_table_is_the_table_that_stopped() -> None:
    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        bus = LocalBus()
        first = TableTask(config("italian-32"), store, bus, bot_seconds=0.0)
        await first.rebuild()
        first.start()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        await first.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await first.submit(BRUNO, p.Sit(table="1", buy_in=1000, seat=3), bruno)
        await first.submit(ANNA, p.AddBots(table="1", count=1), anna)
        await first.submit(BRUNO, p.Chat(table="1", text="ciao"), bruno)
        # Play until it is one of the two people's turn in the third hand, then stop.
        while True:
            await until(lambda: my_turn(anna, "anna") or my_turn(anna, "bruno"))
            turn = my_turn(anna, "anna") or my_turn(anna, "bruno")
            assert turn is not None
            if turn["hand"] >= 3:
                break
            who, box = (ANNA, anna) if turn["name"] == "anna" else (BRUNO, bruno)
            mine = box.last("turn")
            kind = passive(mine["legal"])
            await first.submit(who, p.Act(table="1", action_id=turn["action_id"], kind=kind), box)  # type: ignore[arg-type]
        await first.stop()
        second = TableTask(config("italian-32"), store, LocalBus(), bot_seconds=0.0)
        count = await second.rebuild()
        assert count == len(store.commands[1])
        for attribute in ("seq", "action_id"):
            assert getattr(second, attribute) == getattr(first, attribute)
        view_a, view_b = first.table.view("anna"), second.table.view("anna")
        for state in (view_a, view_b):
            state.pop("decision")  # its clock started again
        assert view_a == view_b
        assert first.table.hand is not None and second.table.hand is not None
        assert second.table.hand.log == first.table.hand.log
        # A client that saw everything up to the stop gets only the snapshot; one that
        # missed the last three events gets them first.
        back = Inbox("bruno")
        second.start()
        await second.submit(BRUNO, p.Resume(table="1", last_seq=first.seq - 3), back)
        assert [m["seq"] for m in back.messages[:3]] == [first.seq - 2, first.seq - 1, first.seq]
        assert back.messages[-1]["type"] == "snapshot"
        # The turn waited for before the stop is the same turn, with the same id.
        turn = my_turn(anna, "anna") or my_turn(anna, "bruno")
        assert turn is not None
        assert back.messages[-1]["turn"]["action_id"] == turn["action_id"]
        await second.stop()

    asyncio.run(scenario())


def test_a_seat_sat_out_too_long_is_freed_and_its_chips_go_back_to_the_wallet() -> None:
    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        bus = LocalBus()
        task = TableTask(config("holdem", sit_out_seconds=1.0), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        bus.connect(anna)
        await task.submit(BRUNO, p.Sit(table="1", buy_in=1000, seat=3), bruno)
        await task.submit(BRUNO, p.SitOut(table="1"), bruno)
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await task.submit(ANNA, p.SitOut(table="1"), anna)
        await task.submit(ANNA, p.SitIn(table="1"), anna)  # back in time: she keeps her seat
        await task.submit(ANNA, p.AddBots(table="1", count=1), anna)
        assert store.wallets[2] == 9_000
        # Anna plays with the bot; bruno never comes back.  Then anna and the bot alone
        # (nobody deals to a seat sitting out, and no hand is played: the table's clock
        # frees it all the same).

        def seated() -> list[str]:
            seats = anna.of_type("seats")
            return [s["name"] for s in seats[-1]["seats"]] if seats else []

        while "bruno" in seated():
            await until(lambda: bool(my_turn(anna, "anna") or "bruno" not in seated()))
            turn = my_turn(anna, "anna")
            if turn is not None:
                act = p.Act(table="1", action_id=turn["action_id"], kind=passive(turn["legal"]))  # type: ignore[arg-type]
                await task.submit(ANNA, act, anna)
        await asyncio.sleep(0.3)  # had she not been back in, her time was up with his
        assert "anna" in seated() and task.table.is_seated("anna")
        assert store.wallets[2] == 10_000  # his stack, back where it came from
        leaves = [c for c in store.commands[1] if c.kind == "leave"]
        assert [c.data["name"] for c in leaves] == ["bruno"]
        sat_out = next(c for c in store.commands[1] if c.kind == "sit_out")
        assert leaves[0].at - sat_out.at >= 1.0  # not before his time was up
        await task.stop()
        # Stored as a command: the table rebuilt from the store has him gone too.
        again = TableTask(config("holdem", sit_out_seconds=1.0), store, LocalBus())
        await again.rebuild()
        assert not again.table.is_seated("bruno") and again.table.is_seated("anna")

    asyncio.run(scenario())


def test_a_seat_sat_out_too_long_is_freed_at_a_table_that_deals_no_more() -> None:
    async def scenario() -> None:
        store = MemoryStore({2: 10_000})
        bus = LocalBus()
        task = TableTask(config("holdem", sit_out_seconds=1.0), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        bruno = Inbox("bruno")
        bus.connect(bruno)
        await task.submit(BRUNO, p.Sit(table="1", buy_in=1000, seat=3), bruno)
        await task.submit(BRUNO, p.SitOut(table="1"), bruno)
        await task.submit(BRUNO, p.AddBots(table="1", count=1), bruno)
        # A bot and a seat sitting out: no hand, no tick of a deal; the seat is freed at
        # its time all the same.
        await until(lambda: store.wallets[2] == 10_000, seconds=5.0)
        assert not task.table.is_seated("bruno")
        assert task.table.hand_number == 0
        await task.stop()

    asyncio.run(scenario())


def sit_and_go(max_players: int) -> Any:
    """A quick Hold'em sit & go's settings (levels of three hands)."""
    from mazziere.room.tournament import Schedule, TournamentSettings

    return TournamentSettings(
        rules="holdem", buy_in=100, fee=10, starting_stack=300, seats=6, max_players=max_players,
        schedule=Schedule.standard("holdem", starting_stack=300, unit="hands", length=3),
    )  # fmt: skip


def test_a_sit_and_go_runs_to_its_prizes_and_rebuilds() -> None:
    from mazziere.server.tables import TournamentConfig

    settings = sit_and_go(3)
    players = ((1, "anna"), (2, "bruno"), (3, "carla"))
    tournament = TournamentConfig(id=5, table_id=9, settings=settings, players=players,
                                  next_hand_seconds=0.0)  # fmt: skip

    async def scenario() -> None:
        store = MemoryStore({1: 0, 2: 0, 3: 0})
        bus = LocalBus()
        task = TableTask(tournament, store, bus, bot_seconds=0.0)
        await task.begin()
        await task.rebuild()
        boxes = {name: Inbox(name) for _, name in players}
        who = {name: Player(account, name) for account, name in players}
        for box in boxes.values():  # seated players follow their table from the start
            bus.connect(box)
            bus.follow("9", box)
        watcher = Inbox("dario")  # and a spectator
        bus.connect(watcher)
        bus.follow("9", watcher)
        task.start()
        await task.submit(who["anna"], p.Leave(table="9"), boxes["anna"])
        assert boxes["anna"].last("error")["code"] == "refused"
        rebuilt = False
        while task.tournament is not None and task.tournament.state.value == "running":
            await until(
                lambda now=task: (
                    any(my_turn(b, n) for n, b in boxes.items())
                    or now.tournament is None
                    or now.tournament.state.value != "running"
                )
            )
            for name, box in boxes.items():
                turn = my_turn(box, name)
                if turn is None or turn["legal"] is None:
                    continue
                kinds = turn["legal"]["kinds"]
                late = turn["hand"] >= 4 and turn["hand"] % 2 == 0
                kind = "all-in" if "all-in" in kinds and late else passive(turn["legal"])
                act = p.Act(table="9", action_id=turn["action_id"], kind=kind)  # type: ignore[arg-type]
                await task.submit(who[name], act, box)
            if not rebuilt and task.table.hand_number >= 2 and task.table.in_hand:
                # Stop in the middle of a hand; a new task rebuilds the tournament.
                await task.stop()
                before = task.table.view(None)
                task = TableTask(tournament, store, bus, bot_seconds=0.0)
                await task.rebuild()
                after = task.table.view(None)
                before.pop("decision"), after.pop("decision")
                assert before == after
                task.start()
                for name, box in boxes.items():
                    await task.submit(who[name], p.Resume(table="9", last_seq=task.seq), box)
                rebuilt = True
        await task.stop()
        assert rebuilt
        # Its table closed, said last (to its spectator too), and so again by a rebuild.
        closed = {"type": "closed", "table": "9", "tournament": 5, "over": True, "tables": []}
        told = [m for m in watcher.messages if "seq" in m]
        assert told[-1] == {**told[-1], **closed} and told[-1]["seq"] == task.seq, told[-1]
        assert [m["type"] for m in watcher.messages].count("closed") == 1
        again = TableTask(tournament, store, bus, bot_seconds=0.0)
        await again.rebuild()
        assert again.seq == task.seq
        prizes = [b.standings for b in store.batches[9] if b.standings is not None]
        assert len(prizes) == 1
        places = sorted(s["place"] for s in prizes[0])
        assert places == [1, 2, 3]
        paid = sum(m.amount for b in store.batches[9] for m in b.moves if m.kind == "prize")
        assert paid == 300  # the whole prize pool, to the last chip
        assert sum(store.wallets.values()) == 300
        # The tournament's chips: balances only (its commands replay every movement).
        assert task.tournament is not None
        chips = task.tournament.chips
        assert len(chips) == 0 and chips.recorded > 0
        chips.check()

    asyncio.run(scenario())


async def started_sit_and_go(
    tournament: Any, players: tuple[tuple[int, str], ...]
) -> tuple[TableTask, dict[str, Inbox], dict[str, Player]]:
    """A sit & go's table running, each player following it from the start (their inbox)."""
    bus = LocalBus()
    task = TableTask(tournament, MemoryStore(dict.fromkeys((a for a, _ in players), 0)), bus,
                     bot_seconds=0.0)  # fmt: skip
    await task.begin()
    await task.rebuild()
    boxes = {name: Inbox(name) for _, name in players}
    for box in boxes.values():
        bus.connect(box)
        bus.follow(str(tournament.table_id), box)
    task.start()
    return task, boxes, {name: Player(account, name) for account, name in players}


def test_a_sit_and_go_tells_its_players_the_level_at_each_hand() -> None:
    """A tournament's table says its level, the next stakes and the hands left (levels of
    three hands here) at each hand; a snapshot says it too; a cash table says nothing."""
    from mazziere.server.tables import TournamentConfig

    settings = sit_and_go(3)
    players = ((1, "anna"), (2, "bruno"), (3, "carla"))
    tournament = TournamentConfig(id=5, table_id=9, settings=settings, players=players,
                                  next_hand_seconds=0.0)  # fmt: skip
    levels = settings.schedule.levels

    async def scenario() -> None:
        task, boxes, who = await started_sit_and_go(tournament, players)
        while task.table.hand_number < 5:
            await until(lambda: any(my_turn(b, n) for n, b in boxes.items()))
            for name, box in boxes.items():
                turn = my_turn(box, name)
                if turn is not None and turn["legal"] is not None:
                    act = p.Act(table="9", action_id=turn["action_id"], kind=passive(turn["legal"]))  # type: ignore[arg-type]
                    await task.submit(who[name], act, box)
        await until(lambda: task.table.in_hand)
        watcher = Inbox(None)
        await task.submit(None, p.Watch(table="9"), watcher)
        await task.stop()
        told = boxes["bruno"].of_type("level")
        # At each hand's start, and between hands when the next one is at another level:
        # level, big blind, next big blind, hands left.
        seen = [
            (m["level"]["number"], m["level"]["stakes"]["big_blind"],
             m["level"]["next_stakes"]["big_blind"], m["level"]["hands_left"])
            for m in told
        ]  # fmt: skip
        first, second, third = (level.stakes.big_blind for level in levels[:3])
        assert seen == [
            (1, first, second, 2), (1, first, second, 1), (1, first, second, 0),
            (2, second, third, 3),  # after the third hand: the next is at level 2
            (2, second, third, 2), (2, second, third, 1),
        ]  # fmt: skip
        assert all(not m["level"]["on_break"] and m["level"]["seconds_left"] is None for m in told)
        # Each hand's level comes just before the hand (a client heads the hand with it).
        told_at = {m["seq"] for m in told}
        assert all(m["seq"] - 1 in told_at for m in boxes["bruno"].of_type("hand_started"))
        assert watcher.last("snapshot")["level"] == told[-1]["level"]

    asyncio.run(scenario())


def with_a_break_after_level_one(
    unit: str, *, table_id: int
) -> tuple[Any, tuple[tuple[int, str], ...]]:
    """A two-player Hold'em sit & go: level 1 (one hand, or one minute), a minute's break,
    level 2."""
    from mazziere.room.structure import Break, Level, Schedule
    from mazziere.room.tournament import TournamentSettings
    from mazziere.server.tables import TournamentConfig

    schedule = Schedule(
        [Level(Stakes(small_blind=5, big_blind=10), 1), Break(1),
         Level(Stakes(small_blind=10, big_blind=20), 1)],
        unit,
    )  # fmt: skip
    settings = TournamentSettings(
        rules="holdem", buy_in=100, starting_stack=1000, seats=2, max_players=2,
        schedule=schedule,
    )  # fmt: skip
    players = ((1, "anna"), (2, "bruno"))
    config = TournamentConfig(id=table_id, table_id=table_id, settings=settings,
                              players=players, next_hand_seconds=0.0)  # fmt: skip
    return config, players


def test_a_sit_and_go_on_a_break_tells_it_and_deals_again_at_its_end() -> None:
    """A break after the first level (one hand): the players are told it, with its minute,
    and the table wakes at its end (it waited for a command that never came)."""
    tournament, players = with_a_break_after_level_one("hands", table_id=12)

    async def scenario() -> None:
        task, boxes, who = await started_sit_and_go(tournament, players)
        on_break = None
        while on_break is None:
            await until(
                lambda: (
                    any(my_turn(b, n) for n, b in boxes.items())
                    or any(m["level"]["on_break"] for m in boxes["anna"].of_type("level"))
                )
            )
            for name, box in boxes.items():
                turn = my_turn(box, name)
                if turn is not None and turn["legal"] is not None:
                    kind = "fold" if "fold" in turn["legal"]["kinds"] else passive(turn["legal"])
                    act = p.Act(table="12", action_id=turn["action_id"], kind=kind)  # type: ignore[arg-type]
                    await task.submit(who[name], act, box)
            told = [m["level"] for m in boxes["anna"].of_type("level") if m["level"]["on_break"]]
            on_break = told[0] if told else None
        wake = task._next_wake()
        table = task.table
        await task.stop()
        assert on_break == {
            "number": 2, "stakes": {"small_blind": 10, "big_blind": 20, "ante": 0},
            "next_stakes": None, "on_break": True, "seconds_left": 60.0, "hands_left": None,
        }  # fmt: skip
        assert table.hand_number == 1 and not table.in_hand
        assert wake is not None and wake == table.paused_until  # type: ignore[attr-defined]

    asyncio.run(scenario())


def test_a_sit_and_go_by_minutes_deals_again_when_its_break_ends() -> None:
    """Levels by minutes: a hand that ends inside the break deals no next hand, and the
    table wakes when the break ends (it waited for a command that never came)."""
    tournament, players = with_a_break_after_level_one("minutes", table_id=13)

    async def scenario() -> None:
        task, boxes, who = await started_sit_and_go(tournament, players)
        await until(lambda: any(my_turn(b, n) for n, b in boxes.items()))
        (name, turn), *_ = [(n, t) for n, b in boxes.items() if (t := my_turn(b, n))]
        first = boxes["anna"].of_type("level")[0]["level"]
        assert first["seconds_left"] is not None and 59 < first["seconds_left"] <= 60
        # A minute and a half later (the table's clock moved on), the hand is folded.
        task.clock.run(task.clock.now() + 90)
        await task.submit(who[name], p.Act(table="13", action_id=turn["action_id"], kind="fold"),
                          boxes[name])  # fmt: skip
        await until(lambda: any(m["level"]["on_break"] for m in boxes["anna"].of_type("level")))
        on_break = boxes["anna"].of_type("level")[-1]["level"]
        await until(lambda: not task.table.in_hand)
        await asyncio.sleep(0.1)  # no deal is tried during the break: nothing to store
        assert task.store.commands[13][-1].kind == "act"  # type: ignore[attr-defined]
        wake = task._next_wake()
        now = task.clock.now()
        await task.stop()
        assert task.table.hand_number == 1 and not task.table.in_hand
        assert on_break["number"] == 2 and 29 < on_break["seconds_left"] <= 30
        assert wake is not None and 29 < wake - now <= 30.01

    asyncio.run(scenario())


def test_a_cash_table_tells_no_level() -> None:
    async def scenario() -> None:
        bus = LocalBus()
        task = TableTask(config("holdem"), MemoryStore({1: 1000}), bus, bot_seconds=0.0)
        await task.begin()
        await task.rebuild()
        box = Inbox("anna")
        bus.connect(box)
        task.start()
        await task.submit(ANNA, p.Sit(table="1", buy_in=500), box)
        await task.submit(ANNA, p.AddBots(table="1", count=1), box)
        await until(lambda: bool(box.of_type("hand_started")))
        watcher = Inbox(None)
        await task.submit(None, p.Watch(table="1"), watcher)
        await task.stop()
        assert box.of_type("level") == []
        assert watcher.last("snapshot")["level"] is None

    asyncio.run(scenario())


def test_an_italian_32_sit_and_go_offers_the_raise_for_ten_seconds() -> None:
    """RULES.md §5's raise window, in a tournament as at a cash table (it had none)."""
    from mazziere.room.tournament import Schedule, TournamentSettings
    from mazziere.server.tables import TournamentConfig

    settings = TournamentSettings(
        rules="italian-32", buy_in=100, starting_stack=2000, seats=4, max_players=2,
        schedule=Schedule.standard("italian-32", starting_stack=2000),
    )  # fmt: skip
    players = ((1, "anna"), (2, "bruno"))
    tournament = TournamentConfig(id=6, table_id=11, settings=settings, players=players)

    async def scenario() -> None:
        bus = LocalBus()
        task = TableTask(tournament, MemoryStore({1: 0, 2: 0}), bus, bot_seconds=0.0)
        await task.begin()
        await task.rebuild()
        boxes = {name: Inbox(name) for _, name in players}
        for box in boxes.values():
            bus.connect(box)
            bus.follow("11", box)
        task.start()
        await until(lambda: any(my_turn(b, n) for n, b in boxes.items()))
        turn = next(t for n, b in boxes.items() if (t := my_turn(b, n)) is not None)
        await task.stop()
        assert "raise" in turn["legal"]["kinds"], turn
        assert turn["raise_seconds"] is not None and 9 < turn["raise_seconds"] <= 10, turn

    asyncio.run(scenario())


class SlowHistories(MemoryStore):
    """A store that takes its time writing a hand's end (a database under load)."""

    async def commit(self, table_id: int, batch: Any) -> None:
        if batch.hand_end is not None:
            await asyncio.sleep(0.4)
        await super().commit(table_id, batch)


def test_the_pause_between_hands_counts_from_when_the_end_was_announced() -> None:
    """A slow commit of a hand's end must not eat the pause that shows the showdown."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        bus = LocalBus()
        pause = 0.6
        task = TableTask(
            config("italian-classic", next_hand_seconds=pause),
            SlowHistories({1: 10_000}),
            bus,
            bot_seconds=0.0,
        )
        await task.rebuild()
        task.start()
        heard: list[tuple[float, str]] = []

        class Watcher(Inbox):
            def offer(self, text: str) -> None:
                super().offer(text)
                heard.append((loop.time(), self.messages[-1]["type"]))

        anna = Watcher("anna")
        bus.connect(anna)
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await task.submit(ANNA, p.SitOut(table="1"), anna)  # the bots play each other
        await task.submit(ANNA, p.AddBots(table="1", count=2), anna)
        await until(lambda: len(anna.of_type("hand_ended")) >= 3)
        await task.stop()
        gaps = []
        for index, (when, kind) in enumerate(heard):
            if kind == "hand_ended":
                after = [t for t, k in heard[index:] if k == "hand_started"]
                if after:
                    gaps.append(after[0] - when)
        assert len(gaps) >= 2
        assert min(gaps) >= pause - 0.05, gaps


def test_a_broke_seat_is_freed_at_its_time_at_a_paused_table_whose_clock_rests() -> None:
    from mazziere.server.tables import HostControls, SyncControls

    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        home = config("holdem", host_id=1, rebuy_seconds=1.0)
        task = TableTask(home, store, LocalBus(), bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        inboxes = {"anna": anna, "bruno": bruno}
        await task.submit(ANNA, p.Sit(table="1", buy_in=200, seat=1), anna)
        await task.submit(BRUNO, p.Sit(table="1", buy_in=200, seat=3), bruno)
        # All in, called, until one of them is left without chips.
        while not (busted(anna, "anna") or busted(anna, "bruno")):
            await until(lambda: bool(my_turn(anna, "anna") or my_turn(bruno, "bruno")))
            turn = my_turn(anna, "anna") or my_turn(bruno, "bruno")
            assert turn is not None
            legal, name = turn["legal"], turn["name"]
            shove = next((k for k in ("raise", "bet") if k in legal["kinds"]), None)
            act = (
                p.Act(table="1", action_id=turn["action_id"], kind=shove, amount=legal["max_to"])  # type: ignore[arg-type]
                if shove
                else p.Act(table="1", action_id=turn["action_id"], kind=passive(legal))  # type: ignore[arg-type]
            )
            await task.submit(ANNA if name == "anna" else BRUNO, act, inboxes[name])
        broke = "anna" if busted(anna, "anna") else "bruno"
        # The host pauses the table: nothing is dealt, and no deal frees the broke seat.
        store.host_controls[1] = HostControls(paused=True, stakes=home.stakes)
        await task.submit(None, SyncControls(), None)
        paused_at = len(store.commands[1])
        await asyncio.sleep(1.6)  # the rebuy offer (1 s) runs out during the pause
        assert not task.table.is_seated(broke)
        since = store.commands[1][paused_at:]
        assert [(c.kind, c.data.get("name")) for c in since] == [("leave", broke)], [
            c.kind for c in since[:10]
        ]  # the clock woke once for it; it did not wake again and again for nothing
        assert task._next_wake() is None
        await task.stop()
        again = TableTask(home, store, LocalBus())
        await again.rebuild()
        assert not again.table.is_seated(broke) and again.paused

    asyncio.run(scenario())


@pytest.mark.parametrize("answered", [True, False])
def test_an_invito_asked_before_the_host_paused_waits_for_the_resumed_deal(
    answered: bool,
) -> None:
    from mazziere.server.tables import HostControls, SyncControls

    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        home = config("italian-classic", host_id=1, decision_seconds=0.5)
        task = TableTask(home, store, LocalBus(), bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna, bruno = Inbox("anna"), Inbox("bruno")
        await task.submit(ANNA, p.Sit(table="1", buy_in=500, seat=1), anna)
        await task.submit(ANNA, p.AutoPost(table="1", on=False), anna)  # she is asked
        await task.submit(BRUNO, p.Sit(table="1", buy_in=500, seat=3), bruno)
        await until(lambda: "anna" in task.table.offers)
        controls = HostControls(paused=True, stakes=home.stakes)
        store.host_controls[1] = controls
        await task.submit(None, SyncControls(), None)
        paused_at = len(store.commands[1])
        await asyncio.sleep(1.0)  # her offer's time (0.5 s) runs out during the pause
        stored = len(store.commands[1]) - paused_at
        assert stored == 0, f"{stored} commands stored while paused"  # the clock rested
        assert "anna" in task.table.offers and not task.table.in_hand
        if answered:
            await task.submit(ANNA, p.Answer(table="1", accept=True), anna)
        store.host_controls[1] = replace(controls, paused=False)
        await task.submit(None, SyncControls(), None)
        # The resumed deal reads the offer: her yes deals her in; no answer sits her out.
        await until(
            lambda: task.table.in_hand or task.table.player("anna").status is SeatStatus.SITTING_OUT
        )
        assert [c.kind for c in store.commands[1][paused_at:]][-2:] == ["resume", "tick"]
        assert task.table.in_hand is answered
        await task.stop()

    asyncio.run(scenario())


def test_a_hosts_controls_are_commands_of_the_table_and_rebuild() -> None:
    from mazziere.server.tables import HostControls, SyncControls

    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000, 3: 10_000})
        store.approved[1] = {2}  # the host (1) approved bruno (2), not carla (3)
        home = config("holdem", host_id=1)
        bus = LocalBus()
        first = TableTask(home, store, bus, bot_seconds=0.0)
        await first.rebuild()
        first.start()
        anna, bruno, carla = Inbox("anna"), Inbox("bruno"), Inbox("carla")
        await first.submit(Player(3, "carla"), p.Sit(table="1", buy_in=500), carla)
        assert "approved" in carla.last("error")["message"]
        await first.submit(BRUNO, p.Sit(table="1", buy_in=500, seat=5), bruno)
        await first.submit(BRUNO, p.SitOut(table="1"), bruno)  # the bots play on their own
        await first.submit(BRUNO, p.AddBots(table="1", count=1), bruno)
        assert bruno.last("error")["code"] == "refused"  # only the host calls bots here
        # The host changes the stakes: the first deal (once the bots sit) takes them.
        new = Stakes(small_blind=10, big_blind=20)
        store.host_controls[1] = HostControls(paused=False, stakes=new)
        await first.submit(None, SyncControls(), None)
        told = bruno.last("table_state")
        assert told["next_stakes"] == {"small_blind": 10, "big_blind": 20, "ante": 0}
        await first.submit(ANNA, p.AddBots(table="1", count=1, kind="strong"), anna)
        assert anna.last("ack")["of"] == "add_bots"  # the host, not even seated
        await first.submit(ANNA, p.AddBots(table="1", count=1, kind="basic"), anna)
        await until(lambda: bruno.last("table_state")["next_stakes"] is None)
        assert first.table.current_stakes() == new
        start = next(m for m in bruno.of_type("record") if m["record"]["type"] == "start")
        assert max(start["record"]["setup"]["blinds"]) == 20
        taken = [b.stakes for b in store.batches[1] if b.stakes is not None]
        assert taken == [new]  # the table row takes them in the deal's transaction
        # The pause: the hand playing is played out, then nothing is dealt.
        store.host_controls[1] = HostControls(paused=True, stakes=new)
        await first.submit(None, SyncControls(), None)
        assert bruno.last("table_state")["paused"] is True
        await until(lambda: not first.table.in_hand)
        dealt = first.table.hand_number
        await asyncio.sleep(0.2)
        assert first.table.hand_number == dealt
        bot = next(name for name in first.seated if name.startswith("bot-"))  # one is left
        await first.submit(BRUNO, p.RemoveBot(table="1", name=bot), bruno)
        assert bruno.last("error")["code"] == "refused"
        await first.submit(ANNA, p.RemoveBot(table="1", name=bot), anna)
        assert bot not in first.seated  # between hands: at once
        await first.stop()
        # Rebuilt from a row that has the new stakes: the table began with the old ones.
        second = TableTask(replace(home, stakes=new), store, bus)
        await second.rebuild()
        assert (second.paused, second.seq, second.action_id) == (True, first.seq, first.action_id)
        assert second.table.view("bruno") == first.table.view("bruno")
        assert second.table.current_stakes() == new

    asyncio.run(scenario())


async def two_seated(rules: str) -> tuple[TableTask, Inbox, Inbox]:
    """A table of ``rules`` running, anna and bruno seated and the first turn announced."""
    task = TableTask(
        config(rules), MemoryStore({1: 10_000, 2: 10_000}), LocalBus(), bot_seconds=0.0
    )
    await task.rebuild()
    task.start()
    anna, bruno = Inbox("anna"), Inbox("bruno")
    await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
    await task.submit(BRUNO, p.Sit(table="1", buy_in=1000, seat=3), bruno)
    await until(lambda: my_turn(anna, "anna") or my_turn(anna, "bruno"))
    return task, anna, bruno


def test_a_snapshot_gives_the_turn_the_time_it_has_left() -> None:
    async def scenario() -> None:
        task, anna, _ = await two_seated("holdem")
        announced = my_turn(anna, "anna") or my_turn(anna, "bruno")
        assert announced is not None
        await asyncio.sleep(0.5)
        back = Inbox("anna")
        await task.submit(ANNA, p.Resume(table="1", last_seq=task.seq), back)
        turn = back.last("snapshot")["turn"]
        assert turn["action_id"] == announced["action_id"]
        # Half a second of the decision has gone: the snapshot says so, the bank is whole.
        assert turn["deadline"] <= announced["deadline"] - 0.4
        assert turn["time_bank"] == announced["time_bank"]
        await task.stop()

    asyncio.run(scenario())


def test_a_players_connection_gone_and_back_is_told_at_the_table_once() -> None:
    """Bruno's last connection closes: every follower of the table hears it (``presence``,
    no ``seq``: not an event of the table) and a snapshot says it of his seat; a second
    connection of his, opening or closing, tells nothing; his first one back is told."""

    async def scenario() -> None:
        task, anna, bruno = await two_seated("holdem")
        bus, spectator, second = task.bus, Inbox(None), Inbox("bruno")
        for box in (anna, bruno, second):
            bus.connect(box)
        bus.follow("1", spectator)
        await task.reconnected("bruno")  # his second connection opened
        bus.disconnect(second)  # (and closed: one is left, disconnected is not called)
        assert anna.of_type("presence") == []
        bus.disconnect(bruno)
        await task.disconnected("bruno")  # his last one closed
        gone = {"v": 1, "type": "presence", "table": "1", "name": "bruno", "connected": False}
        assert anna.of_type("presence") == [gone]
        assert spectator.of_type("presence") == [gone]
        looking = Inbox("anna")
        await task.submit(ANNA, p.Resume(table="1", last_seq=task.seq), looking)
        seats = looking.last("snapshot")["state"]["seats"]
        assert {s["name"]: s["connected"] for s in seats} == {"anna": True, "bruno": False}
        bus.connect(bruno)
        await task.reconnected("bruno")
        assert anna.of_type("presence") == [gone, {**gone, "connected": True}]
        await task.stop()
        # Started again (a restart): the rebuilt table knows nothing of connections; its
        # snapshot says who has one open now.
        again = TableTask(task.config, task.store, LocalBus(), bot_seconds=0.0)
        await again.rebuild()
        again.start()
        looking = Inbox("anna")
        again.bus.connect(looking)
        await again.submit(ANNA, p.Resume(table="1", last_seq=0), looking)
        seats = looking.last("snapshot")["state"]["seats"]
        assert {s["name"]: s["connected"] for s in seats} == {"anna": True, "bruno": False}
        await again.stop()

    asyncio.run(scenario())


def test_a_snapshot_offers_the_raise_no_more_once_its_window_has_shut() -> None:
    async def scenario() -> None:
        task, anna, bruno = await two_seated("italian-32")
        announced = my_turn(anna, "anna") or my_turn(anna, "bruno")
        assert announced is not None
        player, inbox = (ANNA, anna) if announced["name"] == "anna" else (BRUNO, bruno)
        other = bruno if inbox is anna else anna
        assert "raise" in inbox.last("turn")["legal"]["kinds"]
        window = task.table.time.raise_window_seconds
        assert window is not None
        # The player is told how long the raise is offered; the others, nothing of it.
        told = inbox.last("turn")
        assert told["raise_seconds"] == pytest.approx(window, abs=0.5)
        after = told["legal_after_raise"]
        assert "raise" not in after["kinds"] and after["kinds"]
        assert other.last("turn")["raise_seconds"] is None
        assert other.last("turn")["legal_after_raise"] is None
        task.clock.run(task.clock.now() + window / 2)
        back = Inbox(player.name)
        await task.submit(player, p.Resume(table="1", last_seq=task.seq), back)
        halfway = back.last("snapshot")["turn"]
        assert "raise" in halfway["legal"]["kinds"]
        assert halfway["raise_seconds"] == pytest.approx(window / 2, abs=0.5)
        task.clock.run(task.clock.now() + window / 2 + 1)  # shut; the decision goes on
        await task.submit(player, p.Resume(table="1", last_seq=task.seq), back)
        turn = back.last("snapshot")["turn"]
        assert turn["action_id"] == announced["action_id"]
        assert "raise" not in turn["legal"]["kinds"]
        assert turn["legal"] == after  # what the player was told would stand, stands
        assert turn["raise_seconds"] is None
        assert turn["legal"]["kinds"]  # calling or folding is still theirs to do
        await task.stop()

    asyncio.run(scenario())


def test_no_raise_window_runs_at_hold_em() -> None:
    async def scenario() -> None:
        task, anna, bruno = await two_seated("holdem")
        turns = [m for inbox in (anna, bruno) for m in inbox.of_type("turn") if m["legal"]]
        assert turns and all(t["raise_seconds"] is None for t in turns)
        assert all(t["legal_after_raise"] is None for t in turns)
        await task.stop()

    asyncio.run(scenario())


def test_a_cash_table_holds_no_ledger_entry_it_has_stored() -> None:
    """Every hand's movements go to the store with the command; the table keeps only the
    balances (holding every entry grew the room for as long as it ran), its audit still
    adds up, and a rebuild from the stored commands is the same table."""

    async def scenario() -> None:
        store = MemoryStore({1: 10_000})
        first = TableTask(config("holdem"), store, LocalBus(), bot_seconds=0.0)
        await first.rebuild()
        first.start()
        anna = Inbox("anna")
        await first.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await first.submit(ANNA, p.SitOut(table="1"), anna)  # the bots play on their own
        for _ in range(30_000):
            if first.table.hand_number >= 300:
                break
            if len(first.table.seats) < 4:  # a broke bot leaves: others take its seat
                await first.submit(ANNA, p.AddBots(table="1", count=1), anna)
            await asyncio.sleep(0.01)
        await first.stop()
        assert first.table.hand_number >= 300
        ledger = first.table.ledger
        assert ledger.recorded > 300 * 3
        assert len(ledger) == 0
        ledger.check()
        assert ledger.total() == 0
        assert first.table.chips_on_table() == sum(
            amount for account, amount in ledger.balances().items() if not account.external
        )
        # What the table stored moved the same chips in and out as its ledger did.
        stored = [move for batch in store.batches[1] for move in batch.moves]
        bought = sum(m.amount for m in stored if m.destination == "table:1")
        paid = sum(m.amount for m in stored if m.source == "table:1")
        assert bought - paid == first.table.chips_on_table()
        second = TableTask(config("holdem"), store, LocalBus(), bot_seconds=0.0)
        await second.rebuild()
        assert second.table.hand_number == first.table.hand_number
        assert second.table.ledger.balances() == ledger.balances()
        assert len(second.table.ledger) == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("private", [False, True])
def test_bots_left_alone_leave_a_lobby_table_and_wait_at_a_private_one(private: bool) -> None:
    """Bots fill a lobby's tables for people: once the last person has left, they leave
    between hands (their chips back to the room's grants) and nothing more is dealt, where
    they would have dealt to each other for ever, each hand stored.  A private table's bots
    are its host's: they stay, and wait for a person to deal again."""

    async def scenario() -> None:
        store = MemoryStore({1: 10_000})
        bus = LocalBus()
        settings = config("holdem", host_id=1) if private else config("holdem")
        task = TableTask(settings, store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna = Inbox("anna")
        bus.connect(anna)
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await task.submit(ANNA, p.AddBots(table="1", count=2), anna)

        async def play_until(done: Any, kind: str | None = None) -> None:
            """Anna answers her turns (passively, or ``kind``) until ``done()``."""
            for _ in range(2000):
                if done():
                    return
                turn = my_turn(anna, "anna")
                if turn is not None:
                    chosen = kind or passive(turn["legal"])
                    act = p.Act(table="1", action_id=turn["action_id"], kind=chosen)  # type: ignore[arg-type]
                    await task.submit(ANNA, act, anna)
                await asyncio.sleep(0.01)
            raise AssertionError("the table never got there")

        await play_until(lambda: len(anna.of_type("hand_ended")) >= 1)
        await task.submit(ANNA, p.Leave(table="1"), anna)
        # She leaves at the end of the hand being played, if any.
        await play_until(lambda: not task.table.is_seated("anna"), "fold")
        hands = task.table.hand_number
        if private:
            await asyncio.sleep(0.3)  # hands followed each other at once here
            staying = {seat.name for seat in task.table}  # (a bot broke in a hand has left)
            assert staying and staying <= {"bot-2", "bot-3"}  # they stay, and wait for people
            assert task.table.hand_number <= hands + 1  # the one being played, if any
            await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
            await play_until(lambda: task.table.hand_number > hands + 2)  # she comes back
        else:
            await until(lambda: len(task.table) == 0)
            gone = [c.data["name"] for c in store.commands[1] if c.kind == "leave"]
            assert sorted(gone) == ["anna", "bot-2", "bot-3"], gone
            assert gone[-1] != "anna", gone  # the bots left after her (before: broke)
            await asyncio.sleep(0.3)  # hands followed each other at once here
            assert task.table.hand_number <= hands + 1  # the one being played, if any
        await task.stop()

    asyncio.run(scenario())


def test_a_host_closes_a_private_table_once_nobody_plays_there() -> None:
    """The host's close (:class:`Close`) is refused while a person sits there; a pot
    carried to a next hand that will not come goes back to the players who built it,
    gone from the table as they are; a lobby's table is not the host's to close, nor a
    private one the lobby file's.
    Once it may, its bots leave first and the close is stored: the followers are told, and
    the table, rebuilt, is closed still and takes nothing more."""
    from mazziere.server.tables import Close

    async def close(task: TableTask, *, by_host: bool = True) -> str | None:
        refusal: asyncio.Future[tuple[str, str] | None] = asyncio.get_running_loop().create_future()
        await task.submit(None, Close(refusal, by_host=by_host), None)
        said = await refusal
        return None if said is None else said[0]

    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        bus = LocalBus()
        home = config("italian-classic", host_id=1, next_hand_seconds=0.3)  # between hands
        task = TableTask(home, store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        people = {"anna": (ANNA, Inbox("anna")), "bruno": (BRUNO, Inbox("bruno"))}
        for seat, (player, inbox) in enumerate(people.values(), start=1):
            bus.connect(inbox)
            await task.submit(player, p.Sit(table="1", buy_in=1000, seat=seat), inbox)
        await until(lambda: task.table.in_hand)
        assert await close(task) == "players_seated"

        async def pass_until(done: Any) -> None:
            """Each person passes at their turn (at Italian poker nobody opens: the invito's
            pot is carried)."""
            for _ in range(2000):
                if done():
                    return
                for name, (player, inbox) in people.items():
                    turn = my_turn(inbox, name)
                    if turn is not None:
                        act = p.Act(
                            table="1", action_id=turn["action_id"], kind=passive(turn["legal"])
                        )  # type: ignore[arg-type]
                        await task.submit(player, act, inbox)
                await asyncio.sleep(0.01)
            raise AssertionError("the table never got there")

        await pass_until(lambda: task.table.carry.pot > 0 and not task.table.in_hand)
        for player, inbox in people.values():
            await task.submit(player, p.Leave(table="1"), inbox)
        await pass_until(lambda: len(task.table) == 0)
        carried = task.table.carry
        assert carried.pot > 0 and set(carried.shares) == {"anna", "bruno"}
        assert sum(store.wallets.values()) == 20_000 - carried.pot
        assert await close(task, by_host=False) == "refused"  # not a lobby's table
        assert await close(task) is None  # the carried pot goes back to who built it
        assert store.wallets == {1: 10_000, 2: 10_000}  # (they only passed)
        refunds = [m for m in store.batches[1][-1].moves if m.kind == "refund"]
        assert sorted((m.destination, m.amount) for m in refunds) == [
            ("wallet:1", carried.shares["anna"]),
            ("wallet:2", carried.shares["bruno"]),
        ]
        assert task.table.carry.pot == 0 and task.table.chips_on_table() == 0
        assert task.table.ledger.total() == 0
        await task.stop()
        again = TableTask(home, store, bus, bot_seconds=0.0)
        await again.rebuild()  # the close replayed: the pot given back once, as stored
        assert again.closed and again.table.carry.pot == 0 and again.table.chips_on_table() == 0

        # A home game of Hold'em: the host's bots and Anna; then the bots alone.
        store = MemoryStore({1: 10_000})
        task = TableTask(config("holdem", host_id=1), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna = Inbox("anna")
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await task.submit(ANNA, p.AddBots(table="1", count=2), anna)
        people = {"anna": (ANNA, anna)}
        await pass_until(lambda: task.table.hand_number >= 2)
        await task.submit(ANNA, p.Leave(table="1"), anna)
        await pass_until(lambda: not task.table.is_seated("anna") and not task.table.in_hand)
        still_seated = [seat.name for seat in task.table]  # a bot broke in the last hand left
        assert still_seated and all(task.seated[name].bot is not None for name in still_seated)
        hands_dealt = task.table.hand_number
        await asyncio.sleep(0.3)  # the next hand is due at once (next_hand_seconds=0)
        assert task.table.hand_number == hands_dealt and not task.table.in_hand  # bots wait
        assert await close(task, by_host=False) == "refused"  # a private table
        assert await close(task) is None
        assert len(task.table) == 0  # the bots left first, their chips back
        assert task.table.chips_on_table() == 0
        told = anna.last("closed")
        assert (told["tournament"], told["over"], told["tables"]) == (None, True, [])
        assert await close(task) == "table_closed"
        for refused in (p.Sit(table="1", buy_in=1000), p.AddBots(table="1", count=1)):
            await task.submit(ANNA, refused, anna)
            assert anna.last("error")["message"] == "the table is closed"
        kinds = [c.kind for c in store.commands[1]]
        assert kinds[-3:] == ["leave", "leave", "close"] and store.batches[1][-1].closed
        await task.stop()
        again = TableTask(config("holdem", host_id=1), store, bus, bot_seconds=0.0)
        await again.rebuild()
        assert again.closed and len(again.table) == 0
        assert again._next_wake() is None  # nothing more is dealt or looked at

    asyncio.run(scenario())


def test_a_player_sitting_out_from_the_next_hand_is_told_so_alone_and_may_take_it_back() -> None:
    """Asked during a hand, sitting out waits for its end: the player's own seat says so at
    once, to them and in their snapshot only, and sitting in before the end takes it back."""

    async def scenario() -> None:
        store = MemoryStore({1: 10_000, 2: 10_000})
        bus = LocalBus()
        task = TableTask(config("holdem"), store, bus, bot_seconds=0.0)
        await task.rebuild()
        task.start()
        anna, bruno, spectator = Inbox("anna"), Inbox("bruno"), Inbox(None)
        for inbox in (anna, bruno, spectator):
            bus.connect(inbox)
        await task.submit(ANNA, p.Sit(table="1", buy_in=1000, seat=1), anna)
        await task.submit(BRUNO, p.Sit(table="1", buy_in=1000, seat=2), bruno)
        await task.submit(None, p.Watch(table="1"), spectator)

        def pending(inbox: Inbox, name: str) -> bool | None:
            seats = inbox.of_type("seats")
            mine = [s for s in seats[-1]["seats"] if s["name"] == name] if seats else []
            return mine[0].get("sit_out_next") if mine else None

        def status(inbox: Inbox, name: str) -> str:
            seats = inbox.last("seats")["seats"]
            return str(next(s["status"] for s in seats if s["name"] == name))

        await until(
            lambda: my_turn(anna, "anna") is not None or my_turn(bruno, "bruno") is not None
        )
        await task.submit(ANNA, p.SitOut(table="1"), anna)
        assert pending(anna, "anna") is True and status(anna, "anna") == "playing"
        snapshot = task.snapshot("anna").state["seats"]
        assert next(s for s in snapshot if s["name"] == "anna")["sit_out_next"] is True
        # Nobody else hears of it: not bruno, not a spectator, not in their snapshots.
        for inbox in (bruno, spectator):
            assert not any("sit_out_next" in s for m in inbox.of_type("seats") for s in m["seats"])
        for viewer in ("bruno", None):
            assert all(
                s.get("sit_out_next") is not True for s in task.snapshot(viewer).state["seats"]
            )

        async def play_until(done: Any) -> None:
            """Both play passively until ``done()``."""
            while not done():
                await until(
                    lambda: bool(my_turn(anna, "anna") or my_turn(bruno, "bruno") or done())
                )
                for inbox, player in ((anna, ANNA), (bruno, BRUNO)):
                    turn = my_turn(inbox, player.name)
                    if turn is not None:
                        act = p.Act(
                            table="1", action_id=turn["action_id"], kind=passive(turn["legal"])
                        )  # type: ignore[arg-type]
                        await task.submit(player, act, inbox)

        # Taken back before the hand ends: she is dealt the next one.
        await task.submit(ANNA, p.SitIn(table="1"), anna)
        assert pending(anna, "anna") is None and task.table.player("anna").sit_out_next is False
        await play_until(lambda: len(anna.of_type("hand_started")) >= 2)
        assert "anna" in anna.last("hand_started")["names"]
        assert status(bruno, "anna") == "playing"
        # Asked again and kept: she sits out once the hand is over, and everyone sees it.
        await task.submit(ANNA, p.SitOut(table="1"), anna)
        assert pending(anna, "anna") is True
        await play_until(lambda: status(bruno, "anna") == "sitting-out")
        assert pending(anna, "anna") is None and status(anna, "anna") == "sitting-out"
        await task.stop()

    asyncio.run(scenario())
