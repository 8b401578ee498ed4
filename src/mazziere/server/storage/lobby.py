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

from sqlalchemy import delete, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.cash import CashSettings
from mazziere.room.clock import TimeSettings
from mazziere.room.registration import TournamentSettings
from mazziere.room.structure import Break, Level, Schedule, Stakes
from mazziere.server.storage import ledger
from mazziere.server.storage.models import (
    Hand,
    LedgerEntry,
    RoomTable,
    Seat,
    Tournament,
    TournamentLevel,
    TournamentRegistration,
    WaitingEntry,
)

__all__ = [
    "DEFAULT_LOBBY",
    "DEFAULT_SCHEDULED",
    "DEFAULT_SIT_AND_GOS",
    "DEFAULT_TABLES",
    "HOME_GAME_BUY_INS",
    "HOME_GAME_SECONDS",
    "MIN_BUY_IN_BETS",
    "Lobby",
    "TableSpec",
    "TournamentSpec",
    "buy_in_too_small",
    "cancel_tournament",
    "cash_settings",
    "check_table_spec",
    "check_tournament_spec",
    "create_table",
    "create_tournament",
    "home_game",
    "home_game_stakes",
    "idle_private_tables",
    "lobby_tables",
    "new_invite_code",
    "open_default_lobby",
    "open_scheduled",
    "refund_registration",
    "rematch",
    "reopen_sit_and_go",
    "sees_tournament",
    "start_scheduled",
    "sync_lobby",
    "table_spec",
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
    break_every: int = 0
    """A break after every this many levels (0: none), of ``break_minutes``."""
    break_minutes: int = 5


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


@dataclass(frozen=True, kw_only=True)
class Lobby:
    """What the room offers in its lobby: cash tables, sit & gos (a new one opens whenever
    one starts) and scheduled tournaments (one of each open for registration)."""

    tables: tuple[TableSpec, ...]
    sit_and_gos: tuple[TournamentSpec, ...]
    scheduled: tuple[TournamentSpec, ...]


DEFAULT_LOBBY = Lobby(
    tables=DEFAULT_TABLES, sit_and_gos=DEFAULT_SIT_AND_GOS, scheduled=DEFAULT_SCHEDULED
)
"""The lobby of a room without a lobby file."""


def table_stakes(table: RoomTable) -> Stakes:
    """The stakes of a table row."""
    return Stakes(small_blind=table.small_blind, big_blind=table.big_blind, ante=table.ante)


def cash_settings(table: RoomTable) -> CashSettings:
    """The room's settings for a table row (raises the room's ``RoomError`` if invalid)."""
    return _room_settings(table_spec(table))


def table_spec(table: RoomTable) -> TableSpec:
    """What a table row is, as a spec."""
    return TableSpec(
        name=table.name,
        rules=table.rules,
        seats=table.seats,
        stakes=table_stakes(table),
        min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in,
        decision_seconds=table.decision_seconds,
        time_bank_seconds=table.time_bank_seconds,
        bots_allowed=table.bots_allowed,
        hints_allowed=table.hints_allowed,
    )


def _room_settings(spec: TableSpec) -> CashSettings:
    return CashSettings(
        rules=spec.rules,
        seats=spec.seats,
        stakes=spec.stakes,
        min_buy_in=spec.min_buy_in,
        max_buy_in=spec.max_buy_in,
        time=TimeSettings.for_rules(
            spec.rules,
            decision_seconds=float(spec.decision_seconds),
            time_bank_seconds=float(spec.time_bank_seconds),
        ),
        name=spec.name,
    )


HOME_GAME_BUY_INS = (200, 1_000)
"""A private table's buy-ins when its host gives none (twenty to a hundred forced bets)."""

HOME_GAME_SECONDS = (30, 60)
"""A private table's seconds for a decision and its time bank when its host gives none."""


def home_game(rules: str) -> dict[str, int]:
    """Everything a private table of ``rules`` has when its host gives nothing else (the
    private page's form starts from it).

    >>> home_game("italian-32")  # doctest: +NORMALIZE_WHITESPACE
    {'small_blind': 5, 'big_blind': 10, 'ante': 0, 'min_buy_in': 200, 'max_buy_in': 1000,
     'decision_seconds': 30, 'time_bank_seconds': 60}
    """
    forced = {"small_blind": 0, "big_blind": 0, "ante": 0, **home_game_stakes(rules)}
    low, high = HOME_GAME_BUY_INS
    decision, bank = HOME_GAME_SECONDS
    return {**forced, "min_buy_in": low, "max_buy_in": high, "decision_seconds": decision,
            "time_bank_seconds": bank}  # fmt: skip


def home_game_stakes(rules: str) -> dict[str, int]:
    """A private table's forced bets when its host gives none: the invito at
    italian-classic, the blinds (buio and controbuio at italian-32) elsewhere.

    >>> home_game_stakes("italian-classic"), home_game_stakes("holdem")
    ({'ante': 10}, {'small_blind': 5, 'big_blind': 10})
    """
    return {"ante": 10} if rules == "italian-classic" else {"small_blind": 5, "big_blind": 10}


MIN_BUY_IN_BETS = 10
"""A table's minimum buy-in covers at least ten of its forced bets (the big blind and the
ante, or the invito): for less, a player who sat with it would be all-in on the blinds
within a hand or two (the default lobby's tables ask for twenty)."""


def buy_in_too_small(spec: TableSpec) -> str | None:
    """Why ``spec``'s minimum buy-in is too small for its stakes (``None``: it is not).

    >>> spec = TableSpec(name="t", rules="italian-classic", seats=5, stakes=Stakes(ante=10),
    ...                  min_buy_in=50, max_buy_in=500)
    >>> print(buy_in_too_small(spec))  # doctest: +NORMALIZE_WHITESPACE
    the minimum buy-in is at least 10 times the forced bet (big blind and ante,
    or invito): 100 here, not 50
    """
    least = MIN_BUY_IN_BETS * (spec.stakes.big_blind + spec.stakes.ante)
    if spec.min_buy_in >= least:
        return None
    return (
        f"the minimum buy-in is at least {MIN_BUY_IN_BETS} times the forced bet "
        f"(big blind and ante, or invito): {least} here, not {spec.min_buy_in}"
    )


def check_table_spec(spec: TableSpec) -> CashSettings:
    """The room's settings for a table ``spec`` (raises the room's ``RoomError``, or a
    ``ValueError`` for a minimum buy-in too small, if it would refuse it)."""
    too_small = buy_in_too_small(spec)
    if too_small is not None:
        raise ValueError(too_small)
    return _room_settings(spec)


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
        break_every=spec.break_every,
        break_minutes=spec.break_minutes,
    )


def check_tournament_spec(spec: TournamentSpec, *, scheduled: bool) -> TournamentSettings:
    """The room's settings for a tournament ``spec`` with the standard schedule of its rule
    set: a sit & go, or a ``scheduled`` tournament (raises the room's ``RoomError`` if it
    would refuse it)."""
    return TournamentSettings(
        rules=spec.rules,
        buy_in=spec.buy_in,
        fee=spec.fee,
        starting_stack=spec.starting_stack,
        seats=spec.seats,
        min_players=spec.min_players,
        max_players=spec.max_players,
        schedule=_schedule(spec),
        name=spec.name,
        starts_at=0.0 if scheduled else None,
    )


async def create_tournament(
    session: AsyncSession,
    spec: TournamentSpec,
    *,
    lobby: bool = False,
    starts_at: dt.datetime | None = None,
    host_id: int | None = None,
) -> Tournament:
    """Add a tournament with the standard schedule of its rule set, levels stored: a sit &
    go (it starts when full), or a scheduled tournament when it ``starts_at`` a time; a
    private sit & go when it has a host (``host_id``), reached through its invite code."""
    settings = check_tournament_spec(spec, scheduled=starts_at is not None)
    return await _store_tournament(
        session, settings, lobby=lobby, starts_at=starts_at, host_id=host_id
    )


async def _store_tournament(
    session: AsyncSession,
    settings: TournamentSettings,
    *,
    lobby: bool,
    starts_at: dt.datetime | None = None,
    host_id: int | None = None,
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
        private=host_id is not None,
        host_id=host_id,
        invite_code=new_invite_code() if host_id is not None else None,
    )
    session.add(tournament)
    await session.flush()
    rows: list[TournamentLevel] = []
    for item in settings.schedule.items:
        if isinstance(item, Break):  # a schedule starts with a level: the break follows it
            rows[-1].break_after = item.minutes
            continue
        rows.append(
            TournamentLevel(
                tournament_id=tournament.id,
                number=len(rows) + 1,
                small_blind=item.stakes.small_blind,
                big_blind=item.stakes.big_blind,
                ante=item.stakes.ante,
                length=item.length,
                break_after=0,
            )
        )
    session.add_all(rows)
    await session.flush()
    return tournament


async def rematch(session: AsyncSession, tournament: Tournament) -> Tournament:
    """A new private sit & go like ``tournament`` (its rules, buy-in, chips, levels and
    breaks, its places as its host made them: a start with fewer players gave the rest up
    for that game only), with its own invite; ``tournament`` names it as its rematch."""
    settings = await tournament_settings(session, tournament)
    again = await _store_tournament(
        session,
        replace(settings, max_players=tournament.seats),
        lobby=False,
        host_id=tournament.host_id,
    )
    tournament.rematch_id = again.id
    await session.flush()
    return again


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
    items: list[Level | Break] = []
    for row in await tournament_levels(session, tournament.id):
        stakes = Stakes(small_blind=row.small_blind, big_blind=row.big_blind, ante=row.ante)
        items.append(Level(stakes, row.length))
        if row.break_after:
            items.append(Break(row.break_after))
    return TournamentSettings(
        rules=tournament.rules,
        buy_in=tournament.buy_in,
        fee=tournament.fee,
        starting_stack=tournament.starting_stack,
        seats=tournament.seats,
        min_players=tournament.min_players,
        max_players=tournament.max_players,
        schedule=Schedule(items, unit=tournament.level_unit),
        name=tournament.name,
    )


async def reopen_sit_and_go(
    session: AsyncSession, started: Tournament, offered: Lobby | None = None
) -> Tournament | None:
    """A new lobby sit & go like ``started`` (which has just filled); with an operator's
    lobby (``offered``), the one of its name as the lobby offers it now, or none if the
    lobby no longer offers it."""
    if offered is not None:
        spec = next((s for s in offered.sit_and_gos if s.name == started.name), None)
        return None if spec is None else await create_tournament(session, spec, lobby=True)
    settings = await tournament_settings(session, started)
    return await _store_tournament(session, settings, lobby=True)


async def open_scheduled(
    session: AsyncSession,
    *,
    now: dt.datetime,
    every: dt.timedelta,
    level_hands: int | None,
    specs: tuple[TournamentSpec, ...] = DEFAULT_LOBBY.scheduled,
) -> list[Tournament]:
    """Open the lobby's next scheduled tournament of each of ``specs`` (by its name) that
    has none open for registration: ``every`` after the last one's start (or from ``now``,
    if that is past); its levels of ``level_hands`` hands (``None``: the spec's)."""
    opened = []
    for spec in specs:
        of_spec = (
            Tournament.lobby.is_(True),
            Tournament.starts_at.is_not(None),
            Tournament.name == spec.name,
        )
        waiting = await session.scalar(
            select(Tournament.id).where(*of_spec, Tournament.state == "registering").limit(1)
        )
        if waiting is not None:
            continue
        last = await session.scalar(select(func.max(Tournament.starts_at)).where(*of_spec))
        starts = now + every if last is None or last + every <= now else last + every
        starts = starts.replace(microsecond=0)
        sized = spec if level_hands is None else replace(spec, level_length=level_hands)
        opened.append(await create_tournament(session, sized, lobby=True, starts_at=starts))
    return opened


async def idle_private_tables(session: AsyncSession, since: dt.datetime) -> list[RoomTable]:
    """The open private tables made before ``since`` where no person sits and no chip has
    moved since then (its ledger's entries: a buy-in, a hand, a cash-out)."""
    # Each table's own rows, by its index: one look each, not the whole ledger's.
    seated = exists().where(Seat.table_id == RoomTable.id, Seat.account_id.is_not(None))
    moved = exists().where(LedgerEntry.table_id == RoomTable.id, LedgerEntry.created_at >= since)
    return list(
        await session.scalars(
            select(RoomTable)
            .where(
                RoomTable.private.is_(True),
                RoomTable.tournament_id.is_(None),
                RoomTable.state != "closed",
                RoomTable.created_at < since,
                ~seated,
                ~moved,
            )
            .order_by(RoomTable.id)
        )
    )


async def lobby_tables(
    session: AsyncSession, lobby: Lobby
) -> tuple[list[RoomTable], list[tuple[RoomTable, str]]]:
    """The lobby's open tables, and those of them that ``lobby`` withdraws (no longer
    listed, or listed with other settings), each with why."""
    offered = list(
        await session.scalars(
            select(RoomTable).where(RoomTable.lobby.is_(True), RoomTable.state != "closed")
        )
    )
    wanted = {spec.name: spec for spec in lobby.tables}
    withdrawn = [
        (
            table,
            "not in the lobby file" if table.name not in wanted else "changed in the lobby file",
        )
        for table in offered
        if wanted.get(table.name) != table_spec(table)
    ]
    return offered, withdrawn


async def sync_lobby(
    session: AsyncSession, lobby: Lobby, *, close_tables: bool = True
) -> list[str]:
    """Make the lobby offer what ``lobby`` lists (an operator's lobby file, at each start,
    or read again while the room runs); what was done, one line each, for the server's log.
    ``close_tables=False`` (the room running: each table's own task closes it, between its
    commands, :class:`mazziere.server.tables.Close`) leaves every open table as it is.

    What the lobby offers and ``lobby`` does not list, or lists with other settings, is
    withdrawn where that moves no one's chips: a table nobody sits at is closed (bots'
    chips go back to the grants; not while a hand's chips are in a pot), a tournament
    nobody registered for is cancelled. Otherwise it goes on as it is (a later start
    withdraws it once empty), and nothing of the same name opens beside it. What
    ``lobby`` lists and the lobby does not offer is opened; a changed scheduled tournament
    keeps the start of the one it replaces.
    """
    said: list[str] = []
    offered, withdrawn = await lobby_tables(session, lobby)
    present = {table.name for table in offered} - {table.name for table, _ in withdrawn}
    for table, why in withdrawn:
        if close_tables and await _close_if_empty(session, table):
            said.append(f"table {table.name!r} (number {table.id}) closed: {why}")
        else:
            present.add(table.name)
            said.append(
                f"table {table.name!r} (number {table.id}) {why}: players sit there, so it "
                "stays as it is until a start or a reading of the file finds it empty"
            )
    for spec in lobby.tables:
        if spec.name not in present:
            table = await create_table(session, spec, lobby=True)
            said.append(f"table {spec.name!r} opened (number {table.id})")
    for kind, specs, scheduled in (
        ("sit & go", lobby.sit_and_gos, False),
        ("tournament", lobby.scheduled, True),
    ):
        said += await _sync_tournaments(session, kind, specs, scheduled=scheduled)
    return said


async def _sync_tournaments(
    session: AsyncSession, kind: str, specs: tuple[TournamentSpec, ...], *, scheduled: bool
) -> list[str]:
    """:func:`sync_lobby` for the lobby's sit & gos, or its scheduled tournaments."""
    said = []
    when = Tournament.starts_at.is_not(None) if scheduled else Tournament.starts_at.is_(None)
    registering = list(
        await session.scalars(
            select(Tournament)
            .where(Tournament.lobby.is_(True), when, Tournament.state == "registering")
            .order_by(Tournament.id)
            .with_for_update()  # a registration meanwhile waits (the room may be running)
        )
    )
    wanted = {spec.name: spec for spec in specs}
    present: set[str] = set()
    for tournament in registering:
        spec = wanted.get(tournament.name)
        if spec is not None and await _tournament_is(session, tournament, spec):
            present.add(tournament.name)
            continue
        why = "not in the lobby file" if spec is None else "changed in the lobby file"
        players = await session.scalar(
            select(func.count())
            .select_from(TournamentRegistration)
            .where(TournamentRegistration.tournament_id == tournament.id)
        )
        if players:
            present.add(tournament.name)
            said.append(
                f"{kind} {tournament.name!r} (number {tournament.id}) {why}: {players} "
                "registered, so it goes on as it is"
            )
            continue
        tournament.state = "cancelled"
        said.append(f"{kind} {tournament.name!r} (number {tournament.id}) cancelled: {why}")
        if spec is not None and scheduled:  # the same start, with the file's settings
            new = await create_tournament(session, spec, lobby=True, starts_at=tournament.starts_at)
            present.add(spec.name)
            said.append(f"{kind} {spec.name!r} opened (number {new.id})")
    if not scheduled:  # scheduled ones open by the schedule (open_scheduled)
        for spec in specs:
            if spec.name not in present:
                new = await create_tournament(session, spec, lobby=True)
                said.append(f"{kind} {spec.name!r} opened (number {new.id})")
    return said


async def _tournament_is(
    session: AsyncSession, tournament: Tournament, spec: TournamentSpec
) -> bool:
    """Whether ``tournament`` is what ``spec`` makes (its levels included)."""
    stored = await tournament_settings(session, tournament)
    made = check_tournament_spec(spec, scheduled=tournament.starts_at is not None)
    return (
        stored.rule_set.name, stored.buy_in, stored.fee, stored.starting_stack, stored.seats,
        stored.min_players, stored.max_players, stored.schedule.unit, stored.schedule.items,
    ) == (
        made.rule_set.name, made.buy_in, made.fee, made.starting_stack, made.seats,
        made.min_players, made.max_players, made.schedule.unit, made.schedule.items,
    )  # fmt: skip


async def _close_if_empty(session: AsyncSession, table: RoomTable) -> bool:
    """Close ``table`` if no player sits there and no chips are in a pot: its bots leave,
    their chips back to the grants, as a bot leaving does (``True`` if it closed)."""
    seats = list(await session.scalars(select(Seat).where(Seat.table_id == table.id)))
    if any(seat.account_id is not None for seat in seats):
        return False
    playing = await session.scalar(
        select(Hand.id).where(Hand.table_id == table.id, Hand.state == "playing").limit(1)
    )
    key = ledger.table_key(table.id)
    if playing is not None or await ledger.balance(session, key) != sum(s.stack for s in seats):
        return False  # a hand was stopped before its end: the table's rebuild plays it out
    for seat in seats:
        if seat.stack:
            await ledger.move(
                session, ledger.Kind.CASH_OUT, key, ledger.GRANTS, seat.stack, table_id=table.id
            )
        await session.delete(seat)
    await session.execute(delete(WaitingEntry).where(WaitingEntry.table_id == table.id))
    table.state = "closed"
    await session.flush()
    return True


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
    await cancel_tournament(session, tournament, now)
    return False


async def refund_registration(
    session: AsyncSession, tournament: Tournament, account_id: int
) -> None:
    """Give a player registered for ``tournament`` (not started) their buy-in and fee back."""
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


async def sees_tournament(
    session: AsyncSession, tournament: Tournament, account_id: int | None
) -> bool:
    """Whether ``account_id`` (``None``: nobody logged in) may see the tournament: anyone a
    public one, its host and its registered players a private sit & go (its invite shows
    it to the others)."""
    if not tournament.private or (account_id is not None and tournament.host_id == account_id):
        return True
    if account_id is None:
        return False
    registered = await session.scalar(
        select(TournamentRegistration.id).where(
            TournamentRegistration.tournament_id == tournament.id,
            TournamentRegistration.account_id == account_id,
        )
    )
    return registered is not None


async def cancel_tournament(
    session: AsyncSession, tournament: Tournament, now: dt.datetime
) -> None:
    """Cancel a tournament before its start: every registered player refunded."""
    registered = await session.scalars(
        select(TournamentRegistration.account_id)
        .where(TournamentRegistration.tournament_id == tournament.id)
        .order_by(TournamentRegistration.id)
    )
    for account_id in list(registered):
        await refund_registration(session, tournament, account_id)
    tournament.state = "cancelled"
    tournament.finished_at = now


async def open_default_lobby(session: AsyncSession) -> bool:
    """Open :data:`DEFAULT_LOBBY`'s tables and sit & gos if the room has no table and no
    tournament yet; ``True`` if it did."""
    tables = await session.scalar(select(func.count()).select_from(RoomTable))
    tournaments = await session.scalar(select(func.count()).select_from(Tournament))
    if tables or tournaments:
        return False
    for spec in DEFAULT_LOBBY.tables:
        await create_table(session, spec, lobby=True)
    for tournament_spec in DEFAULT_LOBBY.sit_and_gos:
        await create_tournament(session, tournament_spec, lobby=True)
    return True
