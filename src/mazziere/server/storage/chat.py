"""What was said at the tables, as the tables stored it: for the operator who reads a
complaint (``mazziere db chat``) before deciding on it (``mazziere db suspend``)."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.storage.models import RoomTable, TableCommand

__all__ = ["SaidLine", "said_lines"]


@dataclass(frozen=True, slots=True)
class SaidLine:
    """One chat line: where, when (``None`` for lines stored before the time was kept), who
    said what."""

    table_id: int
    table_name: str
    seq: int
    at: dt.datetime | None
    name: str
    text: str

    def __str__(self) -> str:
        """The line as the operator reads it.

        >>> at = dt.datetime(2026, 12, 6, 21, 5, tzinfo=dt.UTC)
        >>> print(SaidLine(3, "Classica invito 10", 41, at, "anna", "ciao"))
        2026-12-06 21:05 UTC · table 3 (Classica invito 10) · anna: ciao
        >>> print(SaidLine(3, "Classica invito 10", 7, None, "anna", "ciao\x1b[2J"))
        time not kept · table 3 (Classica invito 10) · anna: ciao?[2J
        """
        when = self.at.strftime("%Y-%m-%d %H:%M UTC") if self.at is not None else "time not kept"
        # A line stored before the room refused control characters must not drive the
        # operator's terminal (an escape sequence clearing it, say): each is shown as "?".
        text = "".join("?" if unicodedata.category(c) == "Cc" else c for c in self.text)
        return f"{when} · table {self.table_id} ({self.table_name}) · {self.name}: {text}"


async def said_lines(
    session: AsyncSession,
    *,
    player: str | None = None,
    table: int | None = None,
    last: int = 50,
) -> list[SaidLine]:
    """The ``last`` chat lines said at the tables (by ``player``, whatever its case; at
    ``table``), oldest first."""
    said_by = TableCommand.data["name"].as_string()
    query = (
        select(TableCommand, RoomTable.name)
        .join(RoomTable, RoomTable.id == TableCommand.table_id)
        .where(TableCommand.kind == "chat")
    )
    if player is not None:
        query = query.where(func.lower(said_by) == player.casefold())
    if table is not None:
        query = query.where(TableCommand.table_id == table)
    lines = [
        SaidLine(
            table_id=command.table_id,
            table_name=name,
            seq=command.seq,
            at=(
                dt.datetime.fromtimestamp(command.data["said_at"], dt.UTC)
                if "said_at" in command.data
                else None
            ),
            name=str(command.data["name"]),
            text=str(command.data["text"]),
        )
        for command, name in (await session.execute(query)).all()
    ]
    lines.sort(key=_in_order)
    return lines[-last:] if last > 0 else []


def _in_order(line: SaidLine) -> tuple[float, int, int]:
    """Lines by their time; those stored before the time was kept first, table by table."""
    if line.at is None:
        return (float("-inf"), line.table_id, line.seq)
    return (line.at.timestamp(), 0, line.seq)
