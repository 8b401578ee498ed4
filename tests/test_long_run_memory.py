"""What a table and its store hold stays bounded however many hands it plays: every hand is
stored in the database, so memory keeps only what the table plays with now."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from mazziere.room.structure import Stakes
from mazziere.server import protocol as p
from mazziere.server.bus import LocalBus
from mazziere.server.play import table_config
from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage.accounts import create_account
from mazziere.server.storage.lobby import TableSpec, create_table
from mazziere.server.storage.models import Hand
from mazziere.server.table_store import DatabaseTableStore, GroupWriter
from mazziere.server.tables import Player, TableTask
from tests.test_tables import Inbox

HANDS = 120


def test_a_table_of_the_room_keeps_only_its_current_hand_in_memory(
    room_settings: Settings,
) -> None:
    async def scenario() -> None:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.session() as session:
                spec = TableSpec(name="Long run", rules="holdem", seats=4,
                                 stakes=Stakes(small_blind=5, big_blind=10), min_buy_in=200,
                                 max_buy_in=2_000)  # fmt: skip
                row = await create_table(session, spec, lobby=True)
                account = await create_account(session, grant=10_000, name="anna")
                await session.commit()
                config, anna = table_config(row, next_hand_seconds=0), Player(account.id, "anna")
            store = DatabaseTableStore(db)
            task = TableTask(config, store, LocalBus(), bot_seconds=0.0)
            await task.rebuild()
            task.start()
            inbox, table = Inbox("anna"), str(config.id)
            await task.submit(anna, p.Sit(table=table, buy_in=1000, seat=1), inbox)
            await task.submit(anna, p.SitOut(table=table), inbox)  # the bots play on their own
            for _ in range(60_000):
                if task.table.hand_number >= HANDS:
                    break
                if len(task.table.seats) < 4:  # a broke bot leaves: another takes its seat
                    await task.submit(anna, p.AddBots(table=table, count=1), inbox)
                await asyncio.sleep(0.01)
            await task.stop()
            assert task.table.hand_number >= HANDS
            async with db.session() as session:
                stored = await session.scalar(select(func.count()).select_from(Hand))
            assert stored is not None and stored >= HANDS
            # The store knows each table's latest hand; the table, no hand gone by, and no
            # ledger entry it has stored.
            assert isinstance(store.writer, GroupWriter)
            assert len(store.writer._hands) == 1
            assert task.table.history == []
            assert len(task.table.ledger) == 0
            task.table.ledger.check()
        finally:
            await db.dispose()

    asyncio.run(scenario())
