"""Bots ready before the first deal: the strong bot's tables built at the server's start.

The strong bot's first decision at a deck builds the tables it reads (the
hands that open at each minimum, the sampled draws; Hold'em's ordered
holdings): up to most of a second, and a bot decides on the server's event
loop, so every table would wait for it.  :func:`warm_up_bots` is a service of
``mazziere serve`` that builds them in a thread as the server starts, before
the tables open, for every rule set of the room's open tables and every
number of players they can deal to; the learners' hints read the same deck
tables.
``MAZZIERE_WARM_UP_BOTS=false`` leaves it to the first decisions (the
test suite's many short-lived servers do).
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI
from sqlalchemy import select

from mazziere.rules import RULESETS
from mazziere.server.context import RoomContext
from mazziere.server.storage.models import RoomTable, Tournament

__all__ = ["warm_plan", "warm_up_bots"]


def warm_plan(seats: Mapping[str, int]) -> dict[str, list[int]]:
    """What to build: each rule set of the room's tables (Hold'em first: its tables are the
    quickest) with the numbers of players a hand of it can have there, the biggest first.

    ``seats``: the most seats of an open table (or a tournament's table) of each rule set.

    >>> warm_plan({"italian-classic": 5, "holdem": 6})
    {'holdem': [6, 5, 4, 3, 2], 'italian-classic': [5, 4, 3, 2]}
    """
    plan: dict[str, list[int]] = {}
    for name in sorted(seats):
        if name in RULESETS:
            allowed = sorted(RULESETS[name].deck_lowest_rank, reverse=True)
            plan[name] = [n for n in allowed if n <= seats[name]]
    return plan


def _warm(plan: Mapping[str, Sequence[int]]) -> None:
    from mazziere.bots.strong import warm_up

    started = time.perf_counter()
    for rules, players in plan.items():
        warm_up(rules, players)
    seconds = time.perf_counter() - started
    told = ", ".join(f"{rules} ({min(n)}-{max(n)} players)" for rules, n in plan.items() if n)
    print(f"Bots ready: {told} in {seconds:.1f} s", flush=True)


@asynccontextmanager
async def warm_up_bots(app: FastAPI, room: RoomContext) -> AsyncIterator[None]:
    """Build the bots' tables in a thread while the server runs (listed before the table
    service, it starts before any table deals)."""
    if room.settings.warm_up_bots:
        seats: dict[str, int] = {}
        async with room.db.session() as session:
            tables = await session.execute(
                select(RoomTable.rules, RoomTable.seats).where(RoomTable.state != "closed")
            )
            events = await session.execute(
                select(Tournament.rules, Tournament.seats).where(
                    Tournament.state.in_(("registering", "running"))
                )
            )
            for rules, count in [*tables, *events]:
                seats[rules] = max(seats.get(rules, 0), int(count))
        worker = threading.Thread(
            target=_warm, args=(warm_plan(seats),), name="bots-warm-up", daemon=True
        )
        worker.start()
    yield
