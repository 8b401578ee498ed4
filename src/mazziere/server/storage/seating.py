"""Who may sit at a table, the waiting list, and a private table's pending stakes.

The table service asks :func:`sit_refusal` before it seats a player, calls
:func:`leave_waiting_list` once it has (in the transaction of the seat), and
:func:`stakes_taken` when a deal took the host's stakes change; the lobby's
REST calls write what these read (approvals, the waiting list, the host's
stakes change).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from mazziere.room.structure import Stakes
from mazziere.server.storage.models import RoomTable, Seat, SeatRequest, WaitingEntry, utc_now

__all__ = [
    "SEAT_OFFER_SECONDS",
    "keep_free_seats",
    "leave_waiting_list",
    "sit_refusal",
    "stakes_taken",
    "waiting_accounts",
    "waiting_entries",
    "waiting_lists",
    "watch_refusal",
]


SEAT_OFFER_SECONDS = 60.0
"""How long a free seat is kept for a player of the waiting list before they lose their
place (and the seat goes to the next player waiting, or to anyone)."""


async def waiting_accounts(session: AsyncSession, table_id: int) -> list[int]:
    """The accounts on the table's waiting list, first come first."""
    return [entry.account_id for entry in await waiting_entries(session, table_id)]


async def waiting_entries(session: AsyncSession, table_id: int) -> list[WaitingEntry]:
    """The table's waiting list, first come first."""
    return (await waiting_lists(session, [table_id]))[table_id]


async def waiting_lists(
    session: AsyncSession, table_ids: Sequence[int]
) -> dict[int, list[WaitingEntry]]:
    """The waiting list of each table, first come first (one query for them all)."""
    lists: dict[int, list[WaitingEntry]] = {table_id: [] for table_id in table_ids}
    for entry in await session.scalars(
        select(WaitingEntry)
        .where(WaitingEntry.table_id.in_(table_ids))
        .order_by(WaitingEntry.created_at, WaitingEntry.id)
    ):
        lists[entry.table_id].append(entry)
    return lists


async def keep_free_seats(
    session: AsyncSession,
    table: RoomTable,
    *,
    now: dt.datetime | None = None,
    lapse_seconds: float = SEAT_OFFER_SECONDS,
) -> list[WaitingEntry]:
    """The waiting list's places the table's free seats are kept for now, first come first.

    Each free seat is kept for one player of the waiting list, in order, for
    ``lapse_seconds`` (:data:`SEAT_OFFER_SECONDS`) from the moment it is first kept for
    them (``offered_at``); a player who has not sat by then loses their place, and the seat
    is kept for the next.
    """
    moment = now if now is not None else utc_now()
    taken = await session.scalar(
        select(func.count()).select_from(Seat).where(Seat.table_id == table.id)
    )
    free = table.seats - int(taken or 0)
    waiting = await waiting_entries(session, table.id)
    kept: list[WaitingEntry] = []
    lapse = dt.timedelta(seconds=lapse_seconds)
    for entry in waiting:
        if len(kept) >= free:
            break
        if entry.offered_at is None:
            entry.offered_at = moment
        elif entry.offered_at + lapse <= moment:
            await session.delete(entry)  # too late: the place is lost
            continue
        kept.append(entry)
    await session.flush()
    return kept


async def sit_refusal(
    session: AsyncSession,
    table_id: int,
    account_id: int,
    *,
    now: dt.datetime | None = None,
    lapse_seconds: float = SEAT_OFFER_SECONDS,
) -> tuple[str, str] | None:
    """Why ``account_id`` may not take a free seat at the table now, as (code, message);
    ``None`` if they may.

    A closed table seats nobody. A private table seats its host and the players
    the host approved (or every player who asked, when it needs no approval).
    A free seat kept for a player of the waiting list goes to them
    (:func:`keep_free_seats`).
    """
    table = await session.get(RoomTable, table_id)
    if table is None:
        return "no_such_table", f"there is no table {table_id}"
    if table.state == "closed":
        return "table_closed", "the table is closed"
    if not await _invited(session, table, account_id):
        return "not_approved", "the host has not approved you at this table"
    kept = [
        entry.account_id
        for entry in await keep_free_seats(session, table, now=now, lapse_seconds=lapse_seconds)
    ]
    taken = await session.scalar(
        select(func.count()).select_from(Seat).where(Seat.table_id == table_id)
    )
    free = table.seats - int(taken or 0)
    if account_id not in kept and free and len(kept) >= free:
        return "waiting_list", "the free seat goes to the first player on the waiting list"
    return None


async def watch_refusal(
    session: AsyncSession, table_id: int, account_id: int
) -> tuple[str, str] | None:
    """Why ``account_id`` may not watch the table, as (code, message); ``None`` if they may.

    A table of the lobby or of a tournament is open to every spectator; a private
    table's play and chat only to its host and the players the host approved (its
    number is no secret: the numbers of the room's tables follow each other).
    """
    table = await session.get(RoomTable, table_id)
    if table is None:
        return "no_such_table", f"there is no table {table_id}"
    if not await _invited(session, table, account_id):
        return "not_approved", "a private table is watched by its host and the players approved"
    return None


async def _invited(session: AsyncSession, table: RoomTable, account_id: int) -> bool:
    """Whether the player is welcome at the table: any table but a private one, where only
    its host and the players the host approved (or every player who asked, when it needs
    no approval) are."""
    if not table.private or table.host_id == account_id:
        return True
    approved = await session.scalar(
        select(SeatRequest.id).where(
            SeatRequest.table_id == table.id,
            SeatRequest.account_id == account_id,
            SeatRequest.state == "approved",
        )
    )
    return approved is not None


def leave_waiting_list(session: Session, table_id: int, account_id: int) -> None:
    """The player leaves the table's waiting list (the table service calls it once they sit;
    synchronous, as the table service's transactions are: an async session calls it through
    ``run_sync``)."""
    session.execute(
        delete(WaitingEntry).where(
            WaitingEntry.table_id == table_id, WaitingEntry.account_id == account_id
        )
    )


def stakes_taken(session: Session, table_id: int, stakes: Stakes) -> None:
    """A deal took ``stakes`` (the host's change): the table's stakes from now on
    (synchronous, in the table service's transaction).

    The pending change is cleared only if it is the one taken: a change the host
    asked for meanwhile stays pending, and the table takes it at its next deal.
    """
    table = session.get(RoomTable, table_id)
    if table is None:
        return
    table.small_blind, table.big_blind, table.ante = (
        stakes.small_blind, stakes.big_blind, stakes.ante,
    )  # fmt: skip
    if table.next_stakes is not None and Stakes(**table.next_stakes) == stakes:
        table.next_stakes = None
    session.flush()
