"""Players' reports of other players: made at the tables (``POST /api/reports``), read by
the operator (``mazziere db reports``) before deciding (``mazziere db suspend``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from mazziere.server.storage.accounts import account_shown_as
from mazziere.server.storage.models import Account, PlayerReport

__all__ = [
    "REPORTS_AN_HOUR",
    "REPORT_WINDOW",
    "AlreadyReportedError",
    "ReportLine",
    "TooManyReportsError",
    "report",
    "reports",
]

REPORT_WINDOW = dt.timedelta(hours=1)
"""In this time a player reports the same player once (one complaint, not a flood of them),
and makes at most :data:`REPORTS_AN_HOUR` reports."""

REPORTS_AN_HOUR = 10
"""The reports one player may make in :data:`REPORT_WINDOW`, whoever they report."""


class AlreadyReportedError(Exception):
    """The reporter reported that player less than :data:`REPORT_WINDOW` ago."""


class TooManyReportsError(Exception):
    """The reporter made :data:`REPORTS_AN_HOUR` reports in :data:`REPORT_WINDOW`."""


async def report(
    session: AsyncSession,
    reporter: Account,
    shown: str,
    reason: str,
    *,
    table: int | None,
    now: dt.datetime,
) -> PlayerReport:
    """``reporter`` reports the player the tables show as ``shown``.  ``LookupError`` if
    there is none, ``ValueError`` for oneself, :class:`AlreadyReportedError` if reported
    by the same player within :data:`REPORT_WINDOW`, :class:`TooManyReportsError` after
    :data:`REPORTS_AN_HOUR` reports in it."""
    reported = await account_shown_as(session, shown)
    if reported.id == reporter.id:
        raise ValueError("you cannot report yourself")
    since = now - REPORT_WINDOW
    recent = list(
        await session.scalars(
            select(PlayerReport.reported_id).where(
                PlayerReport.reporter_id == reporter.id, PlayerReport.created_at > since
            )
        )
    )
    if reported.id in recent:
        raise AlreadyReportedError(reported.display_name)
    if len(recent) >= REPORTS_AN_HOUR:
        raise TooManyReportsError(reporter.display_name)
    made = PlayerReport(
        reporter_id=reporter.id,
        reported_id=reported.id,
        table_id=table,
        reason=reason,
        created_at=now,
    )
    session.add(made)
    await session.flush()
    return made


@dataclass(frozen=True, slots=True)
class ReportLine:
    """A report as the operator reads it."""

    at: dt.datetime
    reporter: str
    reported: str
    table: int | None
    reason: str

    def __str__(self) -> str:
        """One line.

        >>> at = dt.datetime(2026, 12, 6, 21, 10, tzinfo=dt.UTC)
        >>> print(ReportLine(at, "bruno", "anna", 3, "insults"))
        2026-12-06 21:10 UTC · bruno reported anna at table 3: insults
        >>> print(ReportLine(at, "bruno", "anna", None, "insults"))
        2026-12-06 21:10 UTC · bruno reported anna: insults
        """
        where = f" at table {self.table}" if self.table is not None else ""
        return (
            f"{self.at:%Y-%m-%d %H:%M} UTC · {self.reporter} reported {self.reported}{where}: "
            f"{self.reason}"
        )


async def reports(
    session: AsyncSession, *, player: str | None = None, last: int = 50
) -> list[ReportLine]:
    """The ``last`` reports (of ``player``, shown as the tables show them), oldest first.
    ``LookupError`` if no account is shown as ``player``."""
    reporter, reported = aliased(Account), aliased(Account)
    query = (
        select(PlayerReport, reporter, reported)
        .join(reporter, reporter.id == PlayerReport.reporter_id)
        .join(reported, reported.id == PlayerReport.reported_id)
        .order_by(PlayerReport.id.desc())
        .limit(last)
    )
    if player is not None:
        account = await account_shown_as(session, player)
        query = query.where(PlayerReport.reported_id == account.id)
    rows = (await session.execute(query)).all()
    return [
        ReportLine(made.created_at, by.display_name, of.display_name, made.table_id, made.reason)
        for made, by, of in reversed(rows)
    ]
