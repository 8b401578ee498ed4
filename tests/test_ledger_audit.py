"""The ledger's audit while money moves (both databases).

The audit compares each account's balance with the sum of its entries.  It is asked while
the room runs (the load generator asks it as soon as its players have gone, while tables
still play out their hands and pay the rake), so it must read one moment of the ledger:
read in several statements, each seeing what had committed by then, a movement committed
between them showed as an account that drifted from its entries though nothing had (most
likely the one drifted account of a 30-minute load run on PostgreSQL).
"""

from __future__ import annotations

import asyncio

from mazziere.server.settings import Settings
from mazziere.server.storage import Database, ledger
from mazziere.server.storage import accounts as account_store


def test_the_audit_reads_one_moment_of_a_ledger_that_keeps_moving(
    room_settings: Settings,
) -> None:
    async def run() -> tuple[int, list[tuple[int, list[str]]]]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.session() as session:
                players = [await account_store.create_account(session, grant=1000) for _ in "ab"]
                await session.commit()
            wallets = [ledger.wallet_key(player.id) for player in players]
            stop = asyncio.Event()
            moved = 0

            async def keep_moving() -> None:
                nonlocal moved
                while not stop.is_set():
                    async with db.session() as session:
                        source, destination = wallets if moved % 2 else wallets[::-1]
                        await ledger.move(session, ledger.Kind.TOP_UP, source, destination, 1)
                        await session.commit()
                    moved += 1
                    await asyncio.sleep(0)

            mover = asyncio.create_task(keep_moving())
            audits = []
            try:
                while moved < 200 or len(audits) < 30:
                    async with db.session() as session:
                        audits.append(await ledger.audit(session))
                    await asyncio.sleep(0)
            finally:
                stop.set()
                await mover
            return moved, audits
        finally:
            await db.dispose()

    moved, audits = asyncio.run(run())
    assert moved >= 200  # the money moved all along
    assert all(audit == (0, []) for audit in audits), [a for a in audits if a != (0, [])][:3]
