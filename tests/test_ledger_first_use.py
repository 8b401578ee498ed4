"""Two transactions using a ledger account for the first time at once (both databases).

On a fresh PostgreSQL room the first guests arrive together: each one's grant is the first
movement out of ``grants``, so each transaction found no such account and inserted it; all
but the first then failed on the account's unique key (HTTP 500 at ``POST /api/guest``).
SQLite never showed it: its writers queue for one lock (``BEGIN IMMEDIATE``).
"""

from __future__ import annotations

import asyncio

from mazziere.server.settings import Settings
from mazziere.server.storage import Database, ledger
from mazziere.server.storage import accounts as account_store


def test_an_account_made_by_another_transaction_meanwhile_is_used_not_made_again(
    room_settings: Settings,
) -> None:
    async def run() -> tuple[int, int, int, tuple[int, list[str]]]:
        db = Database(room_settings.database_url, schema=room_settings.database_schema)
        try:
            await db.upgrade()
            async with db.session() as first, db.session() as second:
                made = await ledger.ledger_account(first, ledger.HOUSE)  # not committed yet
                # The second looks for the account while the first holds its new row (on
                # PostgreSQL its insert waits for the first to commit, then conflicts).
                racing = asyncio.create_task(ledger.ledger_account(second, ledger.HOUSE))
                await asyncio.sleep(0.3)
                await first.commit()
                found = await racing
                await second.commit()
            async with db.session() as session:
                # And the guests of a fresh room, arriving all at once, are all made.
                async def guest() -> int:
                    async with db.session() as mine:
                        account = await account_store.create_account(mine, grant=1000)
                        await mine.commit()
                        return account.id

                guests = await asyncio.gather(*(guest() for _ in range(8)))
                audit = await ledger.audit(session)
                return made.id, found.id, len(set(guests)), audit
        finally:
            await db.dispose()

    made, found, guests, audit = asyncio.run(run())
    assert found == made
    assert guests == 8
    assert audit == (0, [])
