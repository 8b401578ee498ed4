"""No card leaks: the real server, real WebSockets, hundreds of hands of each rule set.

Two people (each one connection carrying three tables, one of each rule
set) play with bots; a spectator watches the three tables.  Every message
every client receives is kept.  After the run the hands stored in the
database (every record, every card) say what each seat held; the test then
asserts that no message to anyone held a card they may not see (another
player's hole cards, draw cards, the fourth card, discards reshuffled,
mucked hands, the cards still in the deck), that each person did receive
every card of their own, that each hand's commitment came before its first
card and its seed only with its end (and hashes to the commitment), and
that every stored history passes ``verify-deck``.

HANDS hands are played at each table (180 in all, under a minute on this 2-core
machine while other work loads it; ``MAZZIERE_TEST_HANDS=1000`` plays more).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

from mazziere.fair import verify
from tests.play_room import CARD, Person, Room, running_room

HANDS = int(os.environ.get("MAZZIERE_TEST_HANDS", "60"))
"""Hands played at each of the three tables."""

SECONDS = 240 + 2 * HANDS
"""How long they may take, at most."""


async def play(room: Room, hands: int) -> tuple[list[Person], Person, dict[str, str]]:
    lobby = room.tables()
    tables: dict[str, str] = {}
    for rules in ("holdem", "italian-classic", "italian-32"):
        table = next(t for t in lobby if t["rules"] == rules)
        tables[rules] = str(table["id"])
    people = [Person(room, seed, label=f"person {seed}") for seed in (1, 2)]
    watcher = Person(room, 3, label="spectator")
    for client in (*people, watcher):
        await client.connect()
    buy_in = {str(t["id"]): min(t["max_buy_in"], 2 * t["min_buy_in"]) for t in lobby}
    for table in tables.values():
        await watcher.send(type="watch", table=table)
        for person in people:
            person.due(person.sitting, table)  # asked now: not again at once
            await person.send(type="sit", table=table, buy_in=buy_in[table])
            person.plays.add(table)
        people[0].due(people[0].calling, table)
        await people[0].send(type="add_bots", table=table, count=2, kind="random")
    try:
        await asyncio.wait_for(keep_playing(people, watcher, tables, hands, buy_in), SECONDS)
    except TimeoutError:
        played = {r: len(watcher.seen("hand_ended", t)) for r, t in tables.items()}
        errors = [e for p in people for e in p.errors][-5:]
        seats = {r: (watcher.seen("seats", t) or [{}])[-1].get("seats") for r, t in tables.items()}
        raise AssertionError(
            f"hands played in {SECONDS} s: {played}; last errors: {errors}; seats: {seats}"
        ) from None
    finally:
        for client in (*people, watcher):
            await client.disconnect()
            client.close()
    return people, watcher, tables


async def keep_playing(
    people: list[Person],
    watcher: Person,
    tables: dict[str, str],
    hands: int,
    buy_ins: dict[str, int],
) -> None:
    """Until every table has played ``hands``: buy in again when broke, sit down again when
    the seat was freed (a rebuy that came too late), call bots when fewer than four play.

    Each request is repeated while what it asked for is not seen (``Person.due``): a flag
    kept until the seats changed left a table with one player for good when the room
    refused the request or freed the seat (a run out of its 240 s with one table stuck).
    """
    while True:
        if all(len(watcher.seen("hand_ended", t)) >= hands for t in tables.values()):
            return
        for table in tables.values():
            seats = watcher.seen("seats", table)
            if not seats:
                continue
            latest = {s["name"]: s for s in seats[-1]["seats"]}
            for person in people:
                seat = latest.get(person.name)
                if seat is None and person.due(person.sitting, table):
                    await person.send(type="sit", table=table, buy_in=buy_ins[table])
                elif (
                    seat is not None
                    and seat["status"] == "busted"
                    and person.due(person.topping, table)
                ):
                    await person.send(type="top_up", table=table, amount=buy_ins[table])
            host = next((p for p in people if p.name in latest), None)
            if len(latest) < 4 and host is not None and host.due(host.calling, table):
                await host.send(type="add_bots", table=table, count=4 - len(latest), kind="random")
        await asyncio.sleep(0.05)


class Truth:
    """What each seat of each stored hand held, and what every seat could see."""

    def __init__(self, database: Path) -> None:
        self.own: dict[tuple[str, int, str], set[str]] = defaultdict(set)
        self.public: dict[tuple[str, int], set[str]] = defaultdict(set)
        self.seeds: dict[tuple[str, int], tuple[str, str]] = {}
        self.histories: list[str] = []
        self.dealt: dict[tuple[str, int], list[str]] = {}
        with sqlite3.connect(database) as db:
            hands = db.execute(
                "SELECT id, table_id, number, setup, seed, commitment, history FROM hands"
            ).fetchall()
            for hand_id, table_id, number, setup, seed, committed, history in hands:
                key = (str(table_id), int(number))
                names = json.loads(setup)["names"]
                self.dealt[key] = names
                self.seeds[key] = (seed, committed)
                if history:
                    self.histories.append(history)
                for (data,) in db.execute(
                    "SELECT data FROM hand_actions WHERE hand_id = ? ORDER BY number", (hand_id,)
                ):
                    record = json.loads(data)
                    cards = set(c for c in record.get("cards", []) if c != "??")
                    kind = record["type"]
                    if kind in ("hole_cards", "discard"):
                        self.own[(*key, names[record["position"]])] |= cards
                    elif kind in ("show", "board"):
                        self.public[key] |= cards

    def allowed(self, table: str, hand: int, name: str | None) -> set[str]:
        seen = set(self.public[(table, hand)])
        if name is not None:
            seen |= self.own[(table, hand, name)]
        return seen


def check_client(client: Person, truth: Truth, tables: set[str], *, seated: bool) -> int:
    """Assert that ``client`` saw nothing it may not; return how many cards it was shown."""
    name = client.name if seated else None
    current: dict[str, int] = {}
    shown = 0
    saw: dict[tuple[str, int], set[str]] = defaultdict(set)
    revealed: set[tuple[str, int]] = set()
    for text, message in zip(client.texts, client.messages, strict=True):
        table = message.get("table")
        if table not in tables:
            continue
        kind = message["type"]
        if kind == "hand_started":
            current[table] = message["hand"]
            seed, committed = truth.seeds[(table, message["hand"])]
            assert message["commitment"] == committed
        hand = message.get("hand")
        if hand is None and kind == "snapshot":
            hand = message["state"]["hand"]
        if hand is None:
            hand = current.get(table, 0)
        cards = set(re.findall(CARD, text))
        allowed = truth.allowed(table, hand, name)
        assert cards <= allowed, (
            f"{client.label} was sent {sorted(cards - allowed)} in {kind} of hand {hand} at "
            f"table {table}: {text[:300]}"
        )
        shown += len(cards)
        saw[(table, hand)] |= cards
        for h in (hand, hand + 1):  # this hand's seed, and the next one's (drawn already)
            secret = truth.seeds.get((table, h))
            if secret is not None and (table, h) not in revealed and secret[0] in text:
                assert kind == "hand_ended" and message["hand"] == h, (
                    f"the seed of hand {h} reached {client.label} before the hand ended"
                )
        if kind == "hand_ended":
            revealed.add((table, message["hand"]))
            seed, committed = truth.seeds[(table, message["hand"])]
            assert message["seed"] == seed
            assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed
    if seated:
        for (table, hand), names in truth.dealt.items():
            # Only hands the client saw end: the test stops listening while the bots play on,
            # so the last hand's later cards (the draw's) may be dealt after it has gone.
            if table in tables and client.name in names and (table, hand) in revealed:
                mine = truth.own[(table, hand, client.name)]
                assert mine <= saw[(table, hand)], f"{client.label} missed its own cards"
    return shown


def test_no_card_reaches_anyone_who_may_not_see_it(tmp_path: Path) -> None:
    database = tmp_path / "room.db"
    # Each person plays three tables on one socket with no time to think, beside bots that
    # act at once: on a fast machine that is more than a person's 50 messages a second, and
    # refused actions left turns to run out their clocks (40 Hold'em hands in 240 s).
    # And each guest's play money is enough for rebuys at three tables however many hands
    # are played (10,000 ran out at about 300 hands a table, and the tables were left with
    # one player each).
    faster = {
        "MAZZIERE_WS_MESSAGES_PER_SECOND": "1000",
        "MAZZIERE_STARTING_GRANT": str(max(10_000, 100 * HANDS)),
    }
    with running_room(f"sqlite+aiosqlite:///{database}", tmp_path, env=faster) as room:
        people, watcher, tables = asyncio.run(play(room, HANDS))
        audit = room.audit()
    assert audit["total"] == 0 and not audit["drifted"], audit
    truth = Truth(database)
    ids = set(tables.values())
    for rules, table in tables.items():
        ended = len(watcher.seen("hand_ended", table))
        assert ended >= HANDS, (rules, ended)
    for person in people:
        assert check_client(person, truth, ids, seated=True) > 0
    assert check_client(watcher, truth, ids, seated=False) > 0  # the cards shown down
    # Those checks read every message of every batch (a bot's action is several at once).
    assert any(json.loads(frame)["type"] == "batch" for frame in watcher.frames)
    assert len(truth.histories) >= 3 * HANDS
    for history in truth.histories:
        verify(history)
