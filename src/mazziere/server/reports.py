"""A player reports another to the room's operator: ``POST /api/reports``.

The report (who, where, why) is stored for the operator, who reads the reports
(``mazziere db reports``) and what was said (``mazziere db chat``) before deciding
(``mazziere db suspend``).  A player reports the same player once an hour, and
makes at most ten reports an hour.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, Field

from mazziere.server.accounts import DbSession, LoggedIn, Room
from mazziere.server.errors import ApiError
from mazziere.server.storage import reports as store

__all__ = ["ReportIn", "ReportOut", "router"]

router = APIRouter(prefix="/api", tags=["reports"])


class ReportIn(BaseModel):
    """Who is reported (as the tables show them), where, and why."""

    player: Annotated[str, Field(min_length=1, max_length=40)]
    table: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class ReportOut(BaseModel):
    """The report, received."""

    id: int
    player: str


@router.post("/reports", status_code=201, summary="Report a player to the room's operator")
async def make_report(body: ReportIn, db: DbSession, room: Room, viewer: LoggedIn) -> ReportOut:
    """Report a player (insults in the chat, collusion...): the operator reads it."""
    reason = " ".join(body.reason.split())
    if not reason:
        raise ApiError(422, "bad_report", "say why you report the player")
    try:
        made = await store.report(
            db, viewer.account, body.player, reason, table=body.table, now=room.now()
        )
    except LookupError:
        raise ApiError(404, "no_such_player", f"no player is named {body.player}") from None
    except ValueError as refused:
        raise ApiError(422, "bad_report", str(refused)) from None
    except store.AlreadyReportedError:
        raise ApiError(
            409, "already_reported", f"you reported {body.player} less than an hour ago"
        ) from None
    except store.TooManyReportsError:
        raise ApiError(
            429, "rate_limited", f"at most {store.REPORTS_AN_HOUR} reports an hour"
        ) from None
    await db.commit()
    return ReportOut(id=made.id, player=body.player)
