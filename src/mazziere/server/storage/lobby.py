"""Tables and tournaments in the database, checked by the room's own settings classes.

A table row is valid exactly when :func:`cash_settings` builds the room's
:class:`~mazziere.room.cash.CashSettings` from it, and a tournament when
:func:`tournament_settings` builds its
:class:`~mazziere.room.registration.TournamentSettings`: the rules of what a
table or a tournament may be are written once, in :mod:`mazziere.room`.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.cash import CashSettings
from mazziere.room.clock import TimeSettings
from mazziere.room.registration import TournamentSettings
from mazziere.room.structure import Level, Schedule, Stakes
from mazziere.server.storage import ledger
from mazziere.server.storage.models import (
    RoomTable,
    Tournament,
    TournamentLevel,
    TournamentRegistration,
)

__all__ = [
    "DEFAULT_SCHEDULED",
    "DEFAULT_SIT_AND_GOS",
    "DEFAULT_TABLES",
    "TableSpec",
    "TournamentSpec",
    "cash_settings",
    "create_table",
    "create_tournament",
    "new_invite_code",
    "open_default_lobby",
    "open_scheduled",
    "reopen_sit_and_go",
    "start_scheduled",
    "table_stakes",
    "tournament_levels",
    "tournament_settings",
]


@dataclass(frozen=True, kw_only=True)
class TableSpec:
    """What a new cash table is: checked against the room's ``CashSettings``."""

    name: str
    rules: str
    seats: int
    stakes: Stakes
    min_buy_in: int
    max_buy_in: int
    decision_seconds: int = 30
    time_bank_seconds: int = 60
    bots_allowed: bool = True
    hints_allowed: bool = False


@dataclass(frozen=True, kw_only=True)
class TournamentSpec:
    """What a new sit & go is: checked against the room's ``TournamentSettings``."""

    name: str
    rules: str
    buy_in: int
    fee: int
    starting_stack: int
    seats: int
    max_players: int
    level_unit: str = "hands"
    level_length: int = 10
    min_players: int = 2


DEFAULT_TABLES = tuple(
    TableSpec(name=name, rules=rules, seats=seats, stakes=stakes, min_buy_in=low, max_buy_in=high)
    for name, rules, seats, stakes, low, high in (
        ("Hold'em 1/2", "holdem", 6, Stakes(small_blind=1, big_blind=2), 40, 200),
        ("Hold'em 5/10", "holdem", 6, Stakes(small_blind=5, big_blind=10), 200, 1_000),
        ("Classica invito 10", "italian-classic", 5, Stakes(ante=10), 200, 1_000),
        ("Classica invito 50", "italian-classic", 5, Stakes(ante=50), 1_000, 5_000),
        ("32 carte 5/10", "italian-32", 5, Stakes(small_blind=5, big_blind=10), 200, 1_000),
        ("32 carte 25/50", "italian-32", 5, Stakes(small_blind=25, big_blind=50), 1_000, 5_000),
    )
)
"""Cash tables of each rule set at two stakes, opened in an empty database."""

DEFAULT_SIT_AND_GOS = (
    TournamentSpec(
        name="Sit & go Hold'em", rules="holdem", buy_in=100, fee=10, starting_stack=1_500,
        seats=6, max_players=6,
    ),
    TournamentSpec(
        name="Sit & go Classica", rules="italian-classic", buy_in=100, fee=10,
        starting_stack=1_000, seats=4, max_players=4,
    ),
    TournamentSpec(
        name="Sit & go 32 carte", rules="italian-32", buy_in=100, fee=10, starting_stack=2_000,
        seats=4, max_players=4,
    ),
)  # fmt: skip
"""A sit & go of each rule set; a new one opens whenever one starts."""

DEFAULT_SCHEDULED = (
    TournamentSpec(
        name="Torneo Hold'em", rules="holdem", buy_in=200, fee=20, starting_stack=1_500,
        seats=6, max_players=60, min_players=4,
    ),
    TournamentSpec(
        name="Torneo Classica", rules="italian-classic", buy_in=200, fee=20,
        starting_stack=1_000, seats=5, max_players=50, min_players=4,
    ),
    TournamentSpec(
        name="Torneo 32 carte", rules="italian-32", buy_in=200, fee=20, starting_stack=2_000,
        seats=5, max_players=50, min_players=4,
    ),
)  # fmt: skip
"""The lobby's scheduled multi-table tournament of each rule set: registration is open
until its start, which seats every player registered over as many tables as they need
(:func:`open_scheduled`, :func:`start_scheduled`)."""


def table_stakes(table: RoomTable) -> Stakes:
    """The stakes of a table row."""
    return Stakes(small_blind=table.small_blind, big_blind=table.big_blind, ante=table.ante)


def cash_settings(table: RoomTable) -> CashSettings:
    """The room's settings for a table row (raises the room's ``RoomError`` if invalid)."""
    return CashSettings(
        rules=table.rules,
        seats=table.seats,
        stakes=table_stakes(table),
        min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in,
        time=TimeSettings.for_rules(
            table.rules,
            decision_seconds=float(table.decision_seconds),
            time_bank_seconds=float(table.time_bank_seconds),
        ),
        name=table.name,
    )


def new_invite_code() -> str:
    """A code friends type or follow as a link to reach a private table."""
    return secrets.token_urlsafe(9)


async def create_table(
    session: AsyncSession,
    spec: TableSpec,
    *,
    lobby: bool = False,
    host_id: int | None = None,
    approval_required: bool = False,
) -> RoomTable:
    """Add a table (private when it has a host: it gets an invite code)."""
    table = RoomTable(
        name=spec.name,
        rules=spec.rules,
        seats=spec.seats,
        small_blind=spec.stakes.small_blind,
        big_blind=spec.stakes.big_blind,
        ante=spec.stakes.ante,
        min_buy_in=spec.min_buy_in,
        max_buy_in=spec.max_buy_in,
        decision_seconds=spec.decision_seconds,
        time_bank_seconds=spec.time_bank_seconds,
        bots_allowed=spec.bots_allowed,
        hints_allowed=spec.hints_allowed,
        private=host_id is not None,
        lobby=lobby,
        host_id=host_id,
        invite_code=new_invite_code() if host_id is not None else None,
        approval_required=approval_required,
        state="open",
    )
    cash_settings(table)  # the room's own checks
    session.add(table)
    await session.flush()
    return table


def _schedule(spec: TournamentSpec) -> Schedule:
    return Schedule.standard(
        spec.rules,
        starting_stack=spec.starting_stack,
        unit=spec.level_unit,
        length=spec.level_length,
    )


async def create_tournament(
    session: AsyncSession,
    spec: TournamentSpec,
    *,
    lobby: bool = False,
    starts_at: dt.datetime | None = None,
) -> Tournament:
    """Add a tournament with the standard schedule of its rule set, levels stored: a sit &
    go (it starts when full), or a scheduled tournament when it ``starts_at`` a time."""
    settings = TournamentSettings(
        rules=spec.rules,
        buy_in=spec.buy_in,
        fee=spec.fee,
        starting_stack=spec.starting_stack,
        seats=spec.seats,
        min_players=spec.min_players,
        max_players=spec.max_players,
        schedule=_schedule(spec),
        name=spec.name,
        starts_at=None if starts_at is None else 0.0,
    )  # the room's own checks
    return await _store_tournament(session, settings, lobby=lobby, starts_at=starts_at)


async def _store_tournament(
    session: AsyncSession,
    settings: TournamentSettings,
    *,
    lobby: bool,
    starts_at: dt.datetime | None = None,
) -> Tournament:
    assert settings.max_players is not None  # the room caps every field
    tournament = Tournament(
        name=settings.name,
        rules=settings.rule_set.name,
        buy_in=settings.buy_in,
        fee=settings.fee,
        starting_stack=settings.starting_stack,
        seats=settings.seats,
        min_players=settings.min_players,
        max_players=settings.max_players,
        level_unit=settings.schedule.unit.value,
        lobby=lobby,
        starts_at=starts_at,
        state="registering",
    )
    session.add(tournament)
    await session.flush()
    for number, level in enumerate(settings.schedule.levels, start=1):
        session.add(
            TournamentLevel(
                tournament_id=tournament.id,
                number=number,
                small_blind=level.stakes.small_blind,
                big_blind=level.stakes.big_blind,
                ante=level.stakes.ante,
                length=level.length,
            )
        )
    await session.flush()
    return tournament


async def tournament_levels(session: AsyncSession, tournament_id: int) -> list[TournamentLevel]:
    """A tournament's levels in order."""
    rows = await session.scalars(
        select(TournamentLevel)
        .where(TournamentLevel.tournament_id == tournament_id)
        .order_by(TournamentLevel.number)
    )
    return list(rows)


async def tournament_settings(session: AsyncSession, tournament: Tournament) -> TournamentSettings:
    """The room's settings for a tournament row and its stored levels."""
    levels = [
        Level(
            Stakes(small_blind=row.small_blind, big_blind=row.big_blind, ante=row.ante),
            row.length,
        )
        for row in await tournament_levels(session, tournament.id)
    ]
    return TournamentSettings(
        rules=tournament.rules,
        buy_in=tournament.buy_in,
        fee=tournament.fee,
        starting_stack=tournament.starting_stack,
        seats=tournament.seats,
        min_players=tournament.min_players,
        max_players=tournament.max_players,
        schedule=Schedule(levels, unit=tournament.level_unit),
        name=tournament.name,
    )


async def reopen_sit_and_go(session: AsyncSession, started: Tournament) -> Tournament:
    """A new lobby sit & go like ``started`` (which has just filled)."""
    settings = await tournament_settings(session, started)
    return await _store_tournament(session, settings, lobby=True)


async def open_scheduled(
    session: AsyncSession, *, now: dt.datetime, every: dt.timedelta, level_hands: int
) -> list[Tournament]:
    """Open the lobby's next scheduled tournament of each rule set that has none open for
    registration: ``every`` after the last one's start (or from ``now``, if that is past)."""
    opened = []
    for spec in DEFAULT_SCHEDULED:
        of_rules = (
            Tournament.lobby.is_(True),
            Tournament.starts_at.is_not(None),
            Tournament.rules == spec.rules,
        )
        waiting = await session.scalar(
            select(Tournament.id).where(*of_rules, Tournament.state == "registering").limit(1)
        )
        if waiting is not None:
            continue
        last = await session.scalar(select(func.max(Tournament.starts_at)).where(*of_rules))
        starts = now + every if last is None or last + every <= now else last + every
        starts = starts.replace(microsecond=0)
        sized = replace(spec, level_length=level_hands)
        opened.append(await create_tournament(session, sized, lobby=True, starts_at=starts))
    return opened


async def start_scheduled(session: AsyncSession, tournament: Tournament, now: dt.datetime) -> bool:
    """A scheduled tournament whose time has come: it runs if enough players registered
    (``True``), otherwise it is cancelled and every buy-in and fee is refunded."""
    registered = list(
        await session.scalars(
            select(TournamentRegistration.account_id)
            .where(TournamentRegistration.tournament_id == tournament.id)
            .order_by(TournamentRegistration.id)
        )
    )
    if len(registered) >= tournament.min_players:
        tournament.state = "running"
        tournament.started_at = now
        return True
    for account_id in registered:
        wallet = ledger.wallet_key(account_id)
        for amount, source in (
            (tournament.buy_in, ledger.tournament_key(tournament.id)),
            (tournament.fee, ledger.HOUSE),
        ):
            if amount:
                await ledger.move(
                    session, ledger.Kind.REFUND, source, wallet, amount,
                    account_id=account_id, tournament_id=tournament.id,
                )  # fmt: skip
    tournament.state = "cancelled"
    tournament.finished_at = now
    return False


async def open_default_lobby(session: AsyncSession) -> bool:
    """Open :data:`DEFAULT_TABLES` and :data:`DEFAULT_SIT_AND_GOS` if the room has no table
    and no tournament yet; ``True`` if it did."""
    tables = await session.scalar(select(func.count()).select_from(RoomTable))
    tournaments = await session.scalar(select(func.count()).select_from(Tournament))
    if tables or tournaments:
        return False
    for table_spec in DEFAULT_TABLES:
        await create_table(session, table_spec, lobby=True)
    for tournament_spec in DEFAULT_SIT_AND_GOS:
        await create_tournament(session, tournament_spec, lobby=True)
    return True
