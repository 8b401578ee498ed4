"""Who may sit at a table, the waiting list, and a private table's pending stakes.

The table service asks :func:`sit_refusal` before it seats a player, calls
:func:`leave_waiting_list` once it has (in the transaction of the seat), and
:func:`stakes_taken` when a deal took the host's stakes change; the lobby's
REST calls write what these read (approvals, the waiting list, the host's
stakes change).
"""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.structure import Stakes
from mazziere.server.storage.models import RoomTable, SeatRequest, WaitingEntry

__all__ = ["leave_waiting_list", "sit_refusal", "stakes_taken", "waiting_accounts"]


async def waiting_accounts(session: AsyncSession, table_id: int) -> list[int]:
    """The accounts on the table's waiting list, first come first."""
    rows = await session.scalars(
        select(WaitingEntry.account_id)
        .where(WaitingEntry.table_id == table_id)
        .order_by(WaitingEntry.created_at, WaitingEntry.id)
    )
    return list(rows)


async def sit_refusal(
    session: AsyncSession, table_id: int, account_id: int
) -> tuple[str, str] | None:
    """Why ``account_id`` may not take a free seat at the table now, as (code, message);
    ``None`` if they may.

    A closed table seats nobody. A private table seats its host and the players
    the host approved (or every player who asked, when it needs no approval).
    A free seat goes to the first player on the waiting list.
    """
    table = await session.get(RoomTable, table_id)
    if table is None:
        return "no_such_table", f"there is no table {table_id}"
    if table.state == "closed":
        return "table_closed", "the table is closed"
    if table.private and table.host_id != account_id:
        approved = await session.scalar(
            select(SeatRequest.id).where(
                SeatRequest.table_id == table_id,
                SeatRequest.account_id == account_id,
                SeatRequest.state == "approved",
            )
        )
        if approved is None:
            return "not_approved", "the host has not approved you at this table"
    waiting = await waiting_accounts(session, table_id)
    if waiting and waiting[0] != account_id:
        return "waiting_list", "the free seat goes to the first player on the waiting list"
    return None


async def leave_waiting_list(session: AsyncSession, table_id: int, account_id: int) -> None:
    """The player leaves the table's waiting list (the table service calls it once they sit)."""
    await session.execute(
        delete(WaitingEntry).where(
            WaitingEntry.table_id == table_id, WaitingEntry.account_id == account_id
        )
    )


async def stakes_taken(session: AsyncSession, table_id: int, stakes: Stakes) -> None:
    """A deal took ``stakes`` (the host's change): the table's stakes from now on.

    The pending change is cleared only if it is the one taken: a change the host
    asked for meanwhile stays pending, and the table takes it at its next deal.
    """
    table = await session.get(RoomTable, table_id)
    if table is None:
        return
    table.small_blind, table.big_blind, table.ante = (
        stakes.small_blind, stakes.big_blind, stakes.ante,
    )  # fmt: skip
    if table.next_stakes is not None and Stakes(**table.next_stakes) == stakes:
        table.next_stakes = None
    await session.flush()
