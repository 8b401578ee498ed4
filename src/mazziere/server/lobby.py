"""The lobby over REST: tables and tournaments, registration, the room's ledger audit.

Every refusal is an :class:`~mazziere.server.errors.ApiError` raised before
anything is written; money moves only through the ledger
(:mod:`mazziere.server.storage.ledger`), in the same transaction as the
change it pays for.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.rules import RULESETS, UnknownRulesError, find_rules
from mazziere.server.accounts import DbSession, LoggedIn, MaybeLoggedIn, Room
from mazziere.server.context import RoomContext
from mazziere.server.errors import ApiError, RowId
from mazziere.server.storage import ledger, seating
from mazziere.server.storage import lobby as store
from mazziere.server.storage.models import (
    Account,
    RoomTable,
    Seat,
    SeatRequest,
    Tournament,
    TournamentRegistration,
    TournamentStanding,
    WaitingEntry,
)

__all__ = ["LevelOut", "enroll", "levels_out", "router", "seen_tournament", "tournament_out"]

router = APIRouter(prefix="/api", tags=["lobby"])

RulesFilter = Annotated[
    str | None, Query(description=f"Only this rule set: {', '.join(sorted(RULESETS))}.")
]


class StakesOut(BaseModel):
    """A table's forced bets; ``label`` is how the lobby shows them (``1/2``, ``invito 10``)."""

    small_blind: int
    big_blind: int
    ante: int
    label: str


class TableOut(BaseModel):
    """A table as the lobby lists it."""

    id: int
    name: str
    rules: str
    private: bool
    seats: int
    players: int
    bots: int
    stakes: StakesOut
    min_buy_in: int
    max_buy_in: int
    decision_seconds: int
    state: str
    waiting: int
    open_seats: int
    """The seats anyone may take now: the free ones, but those kept for the players of the
    waiting list (one each, first come first)."""
    you_wait: int | None = None
    """Your place on the table's waiting list (1: the first), if you are on it."""
    seat_kept_seconds: int | None = None
    """A free seat is kept for you, for this many seconds still: sit down (the room said so
    with a ``seat_kept`` message too)."""


class TablesOut(BaseModel):
    """The lobby's tables."""

    tables: list[TableOut]


class TournamentOut(BaseModel):
    """A tournament as the lobby lists it."""

    id: int
    name: str
    rules: str
    buy_in: int
    fee: int
    starting_stack: int
    seats: int
    max_players: int
    registered: int
    state: str
    level_unit: str
    you_are_registered: bool = False
    private: bool = False
    """A private sit & go (its host and its players see it: ``/api/private-sit-and-gos``)."""
    you_are_host: bool = False
    """The caller hosts this private sit & go (may start it sooner or cancel it)."""
    starts_at: dt.datetime | None = None
    """A scheduled tournament's start (registration is open until then); ``None``: a sit &
    go, which starts when full."""


class TournamentsOut(BaseModel):
    """The lobby's tournaments."""

    tournaments: list[TournamentOut]


class AuditOut(BaseModel):
    """The room's ledger: the sum of every balance (always 0), accounts that drifted (none)."""

    total: int
    drifted: list[str]
    accounts: int
    entries: int


class RuleSetOut(BaseModel):
    """A rule set the room deals: its name, its title, how many players its table seats, and
    a private table's home game."""

    name: str
    title: str
    min_players: int
    max_players: int
    home_game: dict[str, int] = Field(
        description="A private table's stakes, buy-ins, decision seconds and time bank when "
        "its host gives none (the private page's form starts from them)."
    )


class RuleSetsOut(BaseModel):
    """The rule sets the room deals."""

    rule_sets: list[RuleSetOut]


@router.get("/rule-sets", summary="The rule sets the room deals, and how many each seats")
async def rule_sets() -> RuleSetsOut:
    """From the rules themselves (``mazziere.rules``): what a form of the room offers."""
    return RuleSetsOut(
        rule_sets=[
            RuleSetOut(
                name=rules.name,
                title=rules.title,
                min_players=rules.min_players,
                max_players=rules.max_players,
                home_game=store.home_game(rules.name),
            )
            for _, rules in sorted(RULESETS.items())
        ]
    )


def check_rules(rules: str | None) -> None:
    """Refuse an unknown rule set name (422 ``unknown_rules``)."""
    if rules is not None:
        try:
            find_rules(rules)
        except UnknownRulesError as error:
            raise ApiError(422, "unknown_rules", str(error)) from None


def stakes_out(small_blind: int, big_blind: int, ante: int) -> StakesOut:
    """Stakes with their lobby label.

    >>> stakes_out(0, 0, 10).label, stakes_out(1, 2, 0).label, stakes_out(10, 20, 2).label
    ('invito 10', '1/2', '10/20 ante 2')
    """
    if ante and not big_blind:
        label = f"invito {ante}"
    else:
        label = f"{small_blind}/{big_blind}" + (f" ante {ante}" if ante else "")
    return StakesOut(small_blind=small_blind, big_blind=big_blind, ante=ante, label=label)


async def table_out(
    db: AsyncSession,
    table: RoomTable,
    account_id: int | None = None,
    room: RoomContext | None = None,
) -> TableOut:
    """One table as the lobby shows it (:func:`tables_out`)."""
    (shown,) = await tables_out(db, [table], account_id, room)
    return shown


async def tables_out(
    db: AsyncSession,
    tables: Sequence[RoomTable],
    account_id: int | None = None,
    room: RoomContext | None = None,
) -> list[TableOut]:
    """Tables as the lobby shows them: players, bots and waiting counted; the place of
    ``account_id`` on each waiting list, and the seat kept for them, with the ``room``'s
    time.  Two queries whatever the number of tables: the lobby is read again every few
    seconds by every page that shows it."""
    ids = [table.id for table in tables]
    players: Counter[int] = Counter()
    bots: Counter[int] = Counter()
    for table_id, person, bot in await db.execute(
        select(Seat.table_id, Seat.account_id, Seat.bot).where(Seat.table_id.in_(ids))
    ):
        players[table_id] += person is not None
        bots[table_id] += bot is not None
    waiting = await seating.waiting_lists(db, ids)
    shown = []
    for table in tables:
        queue = waiting[table.id]
        you_wait = kept = None
        if account_id is not None:
            mine = [n for n, e in enumerate(queue, 1) if e.account_id == account_id]
            you_wait = mine[0] if mine else None
            offered = queue[mine[0] - 1].offered_at if mine else None
            if offered is not None and room is not None:
                lapse = dt.timedelta(seconds=room.settings.seat_kept_seconds)
                left = math.ceil((offered + lapse - room.now()).total_seconds())
                kept = left if left > 0 else None
        free = table.seats - players[table.id] - bots[table.id]
        shown.append(
            TableOut(
                id=table.id,
                name=table.name,
                rules=table.rules,
                private=table.private,
                seats=table.seats,
                players=players[table.id],
                bots=bots[table.id],
                stakes=stakes_out(table.small_blind, table.big_blind, table.ante),
                min_buy_in=table.min_buy_in,
                max_buy_in=table.max_buy_in,
                decision_seconds=table.decision_seconds,
                state=table.state,
                waiting=len(queue),
                open_seats=free - min(free, len(queue)),
                you_wait=you_wait,
                seat_kept_seconds=kept,
            )
        )
    return shown


@router.get("/tables", summary="The lobby's cash tables")
async def list_tables(
    db: DbSession,
    room: Room,
    *,
    rules: RulesFilter = None,
    stakes: Annotated[
        str | None, Query(description="Only these stakes: `1/2`, `invito 10`.")
    ] = None,
    min_stake: Annotated[
        int | None, Query(ge=0, description="Big blind or invito at least this.")
    ] = None,
    max_stake: Annotated[
        int | None, Query(ge=0, description="Big blind or invito at most this.")
    ] = None,
    viewer: MaybeLoggedIn = None,
) -> TablesOut:
    """Public tables that are not closed, filtered by rule set and stakes; each says the
    caller's place on its waiting list and the seat kept for them (none for nobody logged
    in)."""
    check_rules(rules)
    query = select(RoomTable).where(RoomTable.private.is_(False), RoomTable.state != "closed")
    if rules is not None:
        query = query.where(RoomTable.rules == rules)
    rows = [
        table
        for table in await db.scalars(query.order_by(RoomTable.id))
        if (min_stake is None or (table.big_blind or table.ante) >= min_stake)
        and (max_stake is None or (table.big_blind or table.ante) <= max_stake)
    ]
    shown = await tables_out(db, rows, viewer.account.id if viewer else None, room)
    if stakes is not None:
        shown = [table for table in shown if table.stakes.label == stakes.strip()]
    return TablesOut(tables=shown)


async def tournament_out(
    db: AsyncSession, tournament: Tournament, account_id: int | None = None
) -> TournamentOut:
    """One tournament as the lobby shows it (:func:`tournaments_out`)."""
    (shown,) = await tournaments_out(db, [tournament], account_id)
    return shown


async def tournaments_out(
    db: AsyncSession, tournaments: Sequence[Tournament], account_id: int | None = None
) -> list[TournamentOut]:
    """Tournaments as the lobby shows them: how many registered, and whether the account
    ``account_id`` did.  Two queries whatever their number (the lobby lists up to 200, and
    every page that shows it reads it every few seconds)."""
    ids = [tournament.id for tournament in tournaments]
    of_these = TournamentRegistration.tournament_id.in_(ids)
    registered: dict[int, int] = {
        tournament_id: count
        for tournament_id, count in await db.execute(
            select(TournamentRegistration.tournament_id, func.count())
            .where(of_these)
            .group_by(TournamentRegistration.tournament_id)
        )
    }
    mine: set[int] = set()
    if account_id is not None:
        mine = set(
            await db.scalars(
                select(TournamentRegistration.tournament_id).where(
                    of_these, TournamentRegistration.account_id == account_id
                )
            )
        )
    return [
        TournamentOut(
            id=tournament.id,
            name=tournament.name,
            rules=tournament.rules,
            buy_in=tournament.buy_in,
            fee=tournament.fee,
            starting_stack=tournament.starting_stack,
            seats=tournament.seats,
            max_players=tournament.max_players,
            registered=registered.get(tournament.id, 0),
            state=tournament.state,
            level_unit=tournament.level_unit,
            you_are_registered=tournament.id in mine,
            private=tournament.private,
            you_are_host=account_id is not None and tournament.host_id == account_id,
            starts_at=tournament.starts_at,
        )
        for tournament in tournaments
    ]


@router.get("/tournaments", summary="The lobby's tournaments")
async def list_tournaments(
    db: DbSession,
    rules: RulesFilter = None,
    state: Annotated[
        str | None, Query(pattern="^(registering|running|finished|cancelled)$")
    ] = None,
    max_buy_in: Annotated[int | None, Query(ge=0, le=10**15)] = None,
    viewer: MaybeLoggedIn = None,
) -> TournamentsOut:
    """Tournaments, newest first, filtered by rule set, state and buy-in; each says whether
    the caller is registered (``you_are_registered``, false for nobody logged in)."""
    check_rules(rules)
    query = select(Tournament).where(Tournament.private.is_(False))
    if rules is not None:
        query = query.where(Tournament.rules == rules)
    if state is not None:
        query = query.where(Tournament.state == state)
    if max_buy_in is not None:
        query = query.where(Tournament.buy_in + Tournament.fee <= max_buy_in)
    rows = await db.scalars(query.order_by(Tournament.id.desc()).limit(200))
    me = viewer.account.id if viewer is not None else None
    return TournamentsOut(tournaments=await tournaments_out(db, list(rows), me))


async def seen_tournament(
    db: AsyncSession, tournament_id: int, account_id: int | None, *, lock: bool = True
) -> Tournament:
    """The tournament, if ``account_id`` may see it (a private sit & go: its host and its
    players), locked for the change to come unless ``lock`` is false; 404 otherwise, so a
    private sit & go's number tells a stranger nothing."""
    query = select(Tournament).where(Tournament.id == tournament_id)
    tournament = await db.scalar(query.with_for_update() if lock else query)
    if tournament is None or not await store.sees_tournament(db, tournament, account_id):
        raise ApiError(404, "no_such_tournament", f"there is no tournament {tournament_id}")
    return tournament


class LevelOut(BaseModel):
    """One level of a tournament's structure (its length in the tournament's unit)."""

    number: int
    small_blind: int
    big_blind: int
    ante: int
    length: int
    break_minutes: int = 0
    """The break that follows this level, in minutes (0: none)."""


class StandingOut(BaseModel):
    """A player's standing: chips while playing, place and prize once out or at the end."""

    player: str
    chips: int
    place: int | None
    prize: int


class TournamentSeatOut(BaseModel):
    """A player at one of a tournament's tables."""

    player: str
    seat: int
    stack: int


class TournamentTableOut(BaseModel):
    """One of a running tournament's tables and who sits there."""

    id: int
    players: list[TournamentSeatOut]
    on_break: bool = False
    """On a break now (levels by hands: each table pauses when it gets there)."""


class TournamentDetailsOut(TournamentOut):
    """A tournament with its levels, its players and their standings."""

    levels: list[LevelOut]
    players: list[str]
    standings: list[StandingOut]
    prize_pool: int
    payouts: list[int] = []
    """The prizes by place, best first: of the field registered (a sit & go's full field
    while it registers: it starts only when full)."""
    tables: list[int] = []
    """The tables its players sit at now."""
    level: int | None = None
    """A running tournament: the level played now (levels by hands: its furthest table's;
    on a break, the level that follows it)."""
    on_break: bool = False
    """A running tournament on a break at every table (a sit & go's one table)."""
    seating: list[TournamentTableOut] = []
    """Those tables with their players and stacks (as of the last command each stored)."""


@router.get("/tables/{table_id}", summary="One table of the lobby")
async def get_table(
    table_id: RowId, db: DbSession, room: Room, viewer: MaybeLoggedIn = None
) -> TableOut:
    """A public table (private tables are reached through their invite)."""
    table = await db.get(RoomTable, table_id)
    if table is None or table.private:
        raise ApiError(404, "no_such_table", f"there is no table {table_id}")
    return await table_out(db, table, viewer.account.id if viewer else None, room)


@router.get("/tournaments/{tournament_id}", summary="One tournament: levels, players, standings")
async def get_tournament(
    tournament_id: RowId, db: DbSession, viewer: MaybeLoggedIn, room: Room
) -> TournamentDetailsOut:
    """Everything the lobby shows about a tournament (a private sit & go: to its host and
    its players)."""
    me = viewer.account.id if viewer is not None else None
    tournament = await seen_tournament(db, tournament_id, me, lock=False)
    summary = await tournament_out(db, tournament, me)
    levels = await levels_out(db, tournament.id)
    players = [
        account.display_name
        for account in await db.scalars(
            select(Account)
            .join(TournamentRegistration, TournamentRegistration.account_id == Account.id)
            .where(TournamentRegistration.tournament_id == tournament.id)
            .order_by(TournamentRegistration.id)
        )
    ]
    rows = list(
        await db.execute(
            select(TournamentStanding, Account)
            .join(Account, Account.id == TournamentStanding.account_id)
            .where(TournamentStanding.tournament_id == tournament.id)
        )
    )
    seating = await _seating(db, tournament, rows) if tournament.state == "running" else []
    # The chips of a player still in are those in front of them at their table now.
    stacks = {seat.player: seat.stack for table in seating for seat in table.players}
    standings = sorted(
        (
            StandingOut(
                player=account.display_name,
                chips=stacks.get(account.display_name, standing.chips)
                if standing.place is None
                else 0,
                place=standing.place,
                prize=standing.prize,
            )
            for standing, account in rows
        ),
        key=lambda s: (s.place is not None, s.place or 0, -s.chips),
    )
    pool = await ledger.balance(db, ledger.tournament_key(tournament.id))
    settings = await store.tournament_settings(db, tournament)
    # A sit & go starts when full: while it registers it pays as a full field will. A
    # scheduled tournament starts with whoever has registered: what they would share now.
    sit_and_go_waiting = tournament.state == "registering" and tournament.starts_at is None
    entrants = summary.max_players if sit_and_go_waiting else summary.registered
    payouts = (
        settings.payouts.prizes(tournament.buy_in * entrants, entrants, unit=settings.prize_unit)
        if entrants
        else []
    )
    playing = (
        room.watcher.tournament_level(tournament.id, [table.id for table in seating])
        if tournament.state == "running"
        else None
    )
    resting = frozenset() if playing is None else playing.tables_on_break
    return TournamentDetailsOut(
        **summary.model_dump(),
        levels=levels,
        players=players,
        standings=standings,
        prize_pool=pool,
        payouts=payouts,
        tables=[table.id for table in seating],
        seating=[table.model_copy(update={"on_break": table.id in resting}) for table in seating],
        level=None if playing is None else playing.level,
        on_break=playing is not None and playing.on_break,
    )


async def levels_out(db: AsyncSession, tournament_id: int) -> list[LevelOut]:
    """A tournament's levels, each with the break after it."""
    return [
        LevelOut(
            number=row.number,
            small_blind=row.small_blind,
            big_blind=row.big_blind,
            ante=row.ante,
            length=row.length,
            break_minutes=row.break_after,
        )
        for row in await store.tournament_levels(db, tournament_id)
    ]


async def _seating(
    db: AsyncSession, tournament: Tournament, standings: list[Any]
) -> list[TournamentTableOut]:
    """A running tournament's tables with players: a sit & go's table (its standings say
    which, from its start: before its first command has stored the seats, without
    players), a multi-table tournament's open tables where players sit."""
    own = {s.table_id for s, _ in standings if s.table_id is not None and s.place is None}
    ids = set(own)
    ids |= set(
        await db.scalars(
            select(RoomTable.id).where(
                RoomTable.tournament_id == tournament.id, RoomTable.state != "closed"
            )
        )
    )
    if not ids:
        return []
    seats = await db.execute(
        select(Seat, Account)
        .join(Account, Account.id == Seat.account_id)
        .where(Seat.table_id.in_(ids))
        .order_by(Seat.table_id, Seat.seat)
    )
    tables: dict[int, list[TournamentSeatOut]] = {table_id: [] for table_id in own}
    for seat, account in seats:
        tables.setdefault(seat.table_id, []).append(
            TournamentSeatOut(player=account.display_name, seat=seat.seat, stack=seat.stack)
        )
    return [TournamentTableOut(id=i, players=players) for i, players in sorted(tables.items())]


@router.post(
    "/tournaments/{tournament_id}/registration",
    status_code=201,
    summary="Register for a tournament (buy-in and fee paid from the wallet)",
)
async def register(
    tournament_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> TournamentOut:
    """Pay the buy-in into the prize pool and the fee to the house; a sit & go that fills
    starts (and a new one like it opens in the lobby).  A private sit & go takes its host
    here, its other players through its invite."""
    tournament = await seen_tournament(db, tournament_id, viewer.account.id)
    await enroll(db, room, tournament, viewer.account)
    out = await tournament_out(db, tournament, viewer.account.id)
    await db.commit()
    await room.watcher.tournament_changed(tournament.id)
    return out


async def enroll(
    db: AsyncSession, room: RoomContext, tournament: Tournament, account: Account
) -> None:
    """Register ``account`` for ``tournament`` (locked), paying its buy-in and fee; a sit &
    go that fills starts.  The caller commits and tells the room's watcher."""
    if tournament.state != "registering":
        raise ApiError(409, "registration_closed", f"the tournament is {tournament.state}")
    if tournament.starts_at is not None and tournament.starts_at <= room.now():
        raise ApiError(409, "registration_closed", "the tournament is starting")
    already = await db.scalar(
        select(TournamentRegistration.id).where(
            TournamentRegistration.tournament_id == tournament.id,
            TournamentRegistration.account_id == account.id,
        )
    )
    if already is not None:
        raise ApiError(409, "already_registered", "you are registered already")
    count = int(
        await db.scalar(
            select(func.count())
            .select_from(TournamentRegistration)
            .where(TournamentRegistration.tournament_id == tournament.id)
        )
        or 0
    )
    if count >= tournament.max_players:
        raise ApiError(409, "tournament_full", "every place is taken")
    wallet = ledger.wallet_key(account.id)
    try:
        if tournament.buy_in:
            await ledger.move(
                db,
                ledger.Kind.BUY_IN,
                wallet,
                ledger.tournament_key(tournament.id),
                tournament.buy_in,
                account_id=account.id,
                tournament_id=tournament.id,
            )
        if tournament.fee:
            await ledger.move(
                db,
                ledger.Kind.FEE,
                wallet,
                ledger.HOUSE,
                tournament.fee,
                account_id=account.id,
                tournament_id=tournament.id,
            )
    except ledger.InsufficientFundsError:
        cost = tournament.buy_in + tournament.fee
        what = "the buy-in and fee" if tournament.fee else "the buy-in"
        await db.rollback()  # the buy-in may have moved before the fee was refused
        raise ApiError(409, "insufficient_funds", f"{what} ({cost}) exceed your balance") from None
    db.add(TournamentRegistration(tournament_id=tournament.id, account_id=account.id))
    await db.flush()
    if tournament.starts_at is None and count + 1 == tournament.max_players:
        tournament.state = "running"
        tournament.started_at = room.now()
        if tournament.lobby:
            await store.reopen_sit_and_go(db, tournament, room.lobby)


@router.delete(
    "/tournaments/{tournament_id}/registration",
    summary="Unregister before the start (buy-in and fee refunded)",
)
async def unregister(
    tournament_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> TournamentOut:
    """Refund the buy-in from the prize pool and the fee from the house."""
    account = viewer.account
    tournament = await seen_tournament(db, tournament_id, account.id)
    registration = await db.scalar(
        select(TournamentRegistration).where(
            TournamentRegistration.tournament_id == tournament.id,
            TournamentRegistration.account_id == account.id,
        )
    )
    if registration is None:
        raise ApiError(409, "not_registered", "you are not registered")
    if tournament.state != "registering":
        raise ApiError(409, "already_started", "the tournament has started: no refund")
    await store.refund_registration(db, tournament, account.id)
    await db.delete(registration)
    await db.flush()
    out = await tournament_out(db, tournament, account.id)
    await db.commit()
    await room.watcher.tournament_changed(tournament.id)
    return out


class WaitingPlace(BaseModel):
    """One place on a waiting list."""

    position: int
    player: str


class WaitingOut(BaseModel):
    """A table's waiting list: who waits, in order, and where you stand (from 1)."""

    table_id: int
    waiting: list[WaitingPlace]
    you: int | None


async def _waiting_out(db: AsyncSession, table_id: int, account_id: int) -> WaitingOut:
    accounts = await seating.waiting_accounts(db, table_id)
    places = []
    for position, waiting_id in enumerate(accounts, start=1):
        account = await db.get(Account, waiting_id)
        assert account is not None
        places.append(WaitingPlace(position=position, player=account.display_name))
    you = accounts.index(account_id) + 1 if account_id in accounts else None
    return WaitingOut(table_id=table_id, waiting=places, you=you)


async def _public_table(db: AsyncSession, table_id: int, *, lock: bool = True) -> RoomTable:
    """The open table ``table_id``, locked for the change to come unless ``lock`` is false
    (a GET reads it in a session that only reads)."""
    query = select(RoomTable).where(RoomTable.id == table_id)
    table = await db.scalar(query.with_for_update() if lock else query)
    if table is None or table.state == "closed":
        raise ApiError(404, "no_such_table", f"there is no table {table_id}")
    return table


@router.get("/tables/{table_id}/waiting-list", summary="A table's waiting list")
async def waiting_list(table_id: RowId, db: DbSession, viewer: LoggedIn) -> WaitingOut:
    """Who waits for a seat, first come first (a private table's: for who was invited)."""
    table = await _public_table(db, table_id, lock=False)
    if table.private and not await _invited(db, table, viewer.account.id):
        raise ApiError(404, "no_such_table", f"there is no table {table_id}")
    return await _waiting_out(db, table.id, viewer.account.id)


async def _invited(db: AsyncSession, table: RoomTable, account_id: int) -> bool:
    """Whether the player hosts the private table or asked to sit at it (with its invite):
    the names on its waiting list are nobody else's business."""
    if table.host_id == account_id:
        return True
    asked = await db.scalar(
        select(SeatRequest.id).where(
            SeatRequest.table_id == table.id, SeatRequest.account_id == account_id
        )
    )
    return asked is not None


@router.post(
    "/tables/{table_id}/waiting-list", status_code=201, summary="Wait for a seat at a full table"
)
async def join_waiting_list(
    table_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> WaitingOut:
    """The first seat that frees up is offered to the first player waiting (every seat is
    taken, or the free ones kept for the players waiting)."""
    table = await _public_table(db, table_id)
    out = await _join_waiting_list(db, room, table, viewer.account.id)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


async def _join_waiting_list(
    db: AsyncSession, room: RoomContext, table: RoomTable, me: int
) -> WaitingOut:
    """Put ``me`` at the end of the full table's waiting list (not committed), or refuse."""
    lapse = room.settings.seat_kept_seconds
    refusal = await seating.sit_refusal(db, table.id, me, lapse_seconds=lapse)
    if refusal is not None and refusal[0] not in ("waiting_list",):
        raise ApiError(403, refusal[0], refusal[1])
    seats = list(await db.scalars(select(Seat).where(Seat.table_id == table.id)))
    if any(seat.account_id == me for seat in seats):
        raise ApiError(409, "already_seated", "you sit at this table")
    if len(seats) < table.seats and refusal is None:  # (a seat kept for another is not free)
        raise ApiError(409, "seat_free", "a seat is free: sit down")
    if me in await seating.waiting_accounts(db, table.id):
        raise ApiError(409, "already_waiting", "you are on the waiting list")
    db.add(WaitingEntry(table_id=table.id, account_id=me, created_at=room.now()))
    await db.flush()
    return await _waiting_out(db, table.id, me)


class PlayNowIn(BaseModel):
    """The game to play now."""

    model_config = ConfigDict(extra="forbid")

    rules: str = Field(description=f"The rule set: {', '.join(sorted(RULESETS))}.")


class PlayNowOut(BaseModel):
    """Where *play now* puts the player: a table to sit at, or the waiting list it joined."""

    table: TableOut
    waiting: bool = Field(
        description="Every table of the game is full: the player is on this one's waiting list "
        "(`table.you_wait`), where a seat comes first."
    )


@router.post("/play-now", summary="A table of a game for the caller, now")
async def play_now(given: PlayNowIn, db: DbSession, room: Room, viewer: LoggedIn) -> PlayNowOut:
    """A table of ``rules`` of the lobby where the caller does not sit yet (a seat more, as
    a room's quick seat gives): a seat kept for them; else the one with a free seat and the
    fewest people, then the lowest stakes (a newcomer plays the bots first); else, every
    table full, the waiting list they are on, or the one where a seat comes first, which
    they join: the most bots for the people waiting (a bot gives its seat up at the end of
    its hand), then the shortest list."""
    check_rules(given.rules)
    me = viewer.account.id
    query = select(RoomTable).where(
        RoomTable.private.is_(False),
        RoomTable.state != "closed",
        RoomTable.rules == given.rules,
    )
    seated_at = set(await db.scalars(select(Seat.table_id).where(Seat.account_id == me)))
    rows = [t for t in await db.scalars(query.order_by(RoomTable.id)) if t.id not in seated_at]
    tables = await tables_out(db, rows, me, room)
    kept = [t for t in tables if t.seat_kept_seconds]
    free = sorted(
        (t for t in tables if t.open_seats > 0),
        key=lambda t: (t.players, t.stakes.big_blind + t.stakes.ante),
    )
    if kept or free:
        return PlayNowOut(table=(kept or free)[0], waiting=False)
    waited = [t for t in tables if t.you_wait is not None]
    if waited:
        return PlayNowOut(table=waited[0], waiting=True)
    if not tables:
        other = "other " if seated_at else ""
        raise ApiError(404, "no_such_table", f"the room has no {other}table of {given.rules}")
    best = min(tables, key=lambda t: (t.waiting - t.bots, t.waiting))
    chosen = await _public_table(db, best.id)
    await _join_waiting_list(db, room, chosen, me)
    (shown,) = await tables_out(db, [chosen], me, room)
    await db.commit()
    await room.watcher.table_changed(chosen.id)
    return PlayNowOut(table=shown, waiting=True)


@router.delete("/tables/{table_id}/waiting-list", summary="Leave a waiting list")
async def leave_waiting_list(
    table_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> WaitingOut:
    """Give up your place."""
    table = await _public_table(db, table_id)
    me = viewer.account.id
    if me not in await seating.waiting_accounts(db, table.id):
        raise ApiError(409, "not_waiting", "you are not on the waiting list")
    await db.run_sync(seating.leave_waiting_list, table.id, me)
    out = await _waiting_out(db, table.id, me)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


@router.get("/ledger/audit", summary="The room's ledger adds up to zero")
async def audit(db: DbSession) -> AuditOut:
    """The sum of every balance and the accounts whose balance differs from their entries."""
    total, drifted = await ledger.audit(db)
    accounts, entries = await ledger.size(db)
    return AuditOut(total=total, drifted=drifted, accounts=accounts, entries=entries)
