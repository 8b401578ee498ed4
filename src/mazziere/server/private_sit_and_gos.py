"""Private sit & gos over REST: a tournament among friends, reached through its invite.

A host chooses the game (rule set, players, buy-in, starting chips, levels by
hands or minutes, breaks) and shares the invite code or link; friends register
through it, paying the buy-in like at any sit & go, and it starts when its
last place is taken.  The host may start it sooner with whoever registered (two
at least) or cancel it before it starts, every buy-in refunded.  The room
keeps no fee.  It is not listed in the lobby: its page, its table and its
players' hands are for its host and its players only (its number tells a
stranger nothing: :func:`mazziere.server.lobby.seen_tournament`).  Once it
runs it is a sit & go like the lobby's, played, stored and rebuilt the same
way.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.errors import RoomError
from mazziere.server.accounts import DbSession, LoggedIn, Room
from mazziere.server.errors import ApiError, RowId
from mazziere.server.lobby import (
    LevelOut,
    TournamentOut,
    check_rules,
    enroll,
    levels_out,
    seen_tournament,
    tournament_out,
)
from mazziere.server.storage import lobby as store
from mazziere.server.storage.models import Account, Tournament, TournamentRegistration

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["private sit & gos"])

MIN_PLAYERS = 2
"""A private sit & go starts with two players at least (its host's early start included)."""


class NewPrivateSitAndGo(BaseModel):
    """What a host chooses for a private sit & go (played at one table)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    rules: str
    players: int = Field(ge=MIN_PLAYERS, le=9, description="Its places: it starts when full.")
    buy_in: int = Field(default=100, ge=0, le=100_000_000)
    starting_stack: int = Field(default=1_000, gt=0, le=100_000_000)
    level_unit: Literal["hands", "minutes"] = "hands"
    level_length: int = Field(default=10, ge=1, le=120)
    break_every: int = Field(default=0, ge=0, le=20, description="Levels between breaks; 0: none.")
    break_minutes: int = Field(default=5, ge=1, le=60)
    host_plays: bool = Field(default=True, description="Register the host (buy-in paid) at once.")


class PrivateSitAndGoOut(TournamentOut):
    """A private sit & go as its host, its players or an invited player sees it."""

    host: str
    invite_code: str
    invite_link: str
    players: list[str] = Field(description="The registered players, first come first.")
    levels: list[LevelOut] = Field(description="Its levels (stakes, length, break after).")
    rematch_id: int | None = Field(
        default=None, description="Its rematch, once over: the same sit & go again."
    )
    rematch_invite_code: str | None = Field(
        default=None, description="The rematch's invite, for its players to register."
    )


class PrivateSitAndGosOut(BaseModel):
    """The private sit & gos a player hosts or registered for."""

    sit_and_gos: list[PrivateSitAndGoOut]


async def _out(
    db: AsyncSession, request: Request, tournament: Tournament, account_id: int
) -> PrivateSitAndGoOut:
    host = await db.get(Account, tournament.host_id) if tournament.host_id is not None else None
    players = await db.scalars(
        select(Account)
        .join(TournamentRegistration, TournamentRegistration.account_id == Account.id)
        .where(TournamentRegistration.tournament_id == tournament.id)
        .order_by(TournamentRegistration.id)
    )
    code = tournament.invite_code or ""
    again = await db.get(Tournament, tournament.rematch_id) if tournament.rematch_id else None
    return PrivateSitAndGoOut(
        **(await tournament_out(db, tournament, account_id)).model_dump(),
        host=host.display_name if host is not None else "",
        invite_code=code,
        invite_link=str(request.url_for("sit_and_go_invite", code=code)),
        players=[account.display_name for account in players],
        levels=await levels_out(db, tournament.id),
        rematch_id=again.id if again is not None else None,
        rematch_invite_code=again.invite_code if again is not None else None,
    )


async def _private(
    db: AsyncSession, tournament_id: int, account_id: int, *, lock: bool = True
) -> Tournament:
    """The private sit & go ``tournament_id`` as ``account_id`` may see it (404 otherwise)."""
    tournament = await seen_tournament(db, tournament_id, account_id, lock=lock)
    if not tournament.private:
        raise ApiError(404, "no_such_tournament", f"there is no private sit & go {tournament_id}")
    return tournament


async def _hosted(db: AsyncSession, tournament_id: int, account_id: int) -> Tournament:
    """The private sit & go ``tournament_id``, locked, which ``account_id`` must host, still
    taking registrations."""
    tournament = await _private(db, tournament_id, account_id)
    if tournament.host_id != account_id:
        raise ApiError(403, "not_the_host", "only the sit & go's host may do this")
    if tournament.state != "registering":
        raise ApiError(409, "registration_closed", f"the sit & go is {tournament.state}")
    return tournament


async def _by_code(db: AsyncSession, code: str, *, lock: bool = False) -> Tournament:
    query = select(Tournament).where(Tournament.invite_code == code)
    tournament = await db.scalar(query.with_for_update() if lock else query)
    if tournament is None:
        raise ApiError(404, "no_such_invite", "this invite code opens no sit & go")
    return tournament


@router.post("/private-sit-and-gos", status_code=201, summary="Create a private sit & go")
async def create_private_sit_and_go(
    given: NewPrivateSitAndGo, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """A sit & go only invited players can reach; its host is the creator, who plays in it
    too unless ``host_plays`` is false."""
    check_rules(given.rules)
    spec = store.TournamentSpec(
        name=given.name,
        rules=given.rules,
        buy_in=given.buy_in,
        fee=0,
        starting_stack=given.starting_stack,
        seats=given.players,
        max_players=given.players,
        min_players=MIN_PLAYERS,
        level_unit=given.level_unit,
        level_length=given.level_length,
        break_every=given.break_every,
        break_minutes=given.break_minutes,
    )
    try:
        tournament = await store.create_tournament(db, spec, host_id=viewer.account.id)
    except RoomError as exc:
        raise ApiError(422, "bad_tournament", str(exc)) from None
    if given.host_plays:
        await enroll(db, room, tournament, viewer.account)
    out = await _out(db, request, tournament, viewer.account.id)
    await db.commit()
    return out


@router.get("/private-sit-and-gos", summary="The private sit & gos you host or registered for")
async def my_private_sit_and_gos(
    request: Request, db: DbSession, viewer: LoggedIn
) -> PrivateSitAndGosOut:
    """Newest first (the last 50)."""
    me = viewer.account.id
    registered = select(TournamentRegistration.tournament_id).where(
        TournamentRegistration.account_id == me
    )
    rows = await db.scalars(
        select(Tournament)
        .where(
            Tournament.private.is_(True),
            (Tournament.host_id == me) | Tournament.id.in_(registered),
        )
        .order_by(Tournament.id.desc())
        .limit(50)
    )
    return PrivateSitAndGosOut(sit_and_gos=[await _out(db, request, t, me) for t in rows])


@router.get("/private-sit-and-gos/{tournament_id}", summary="One private sit & go (host, players)")
async def get_private_sit_and_go(
    tournament_id: RowId, request: Request, db: DbSession, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """Its invite and its players; its levels and standings are at ``/api/tournaments/{id}``."""
    tournament = await _private(db, tournament_id, viewer.account.id, lock=False)
    return await _out(db, request, tournament, viewer.account.id)


@router.get(
    "/sit-and-go-invites/{code}",
    name="sit_and_go_invite",
    summary="The private sit & go an invite opens",
)
async def see_invite(
    code: str, request: Request, db: DbSession, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """What the invite code or link leads to."""
    return await _out(db, request, await _by_code(db, code), viewer.account.id)


@router.post(
    "/sit-and-go-invites/{code}/registration",
    status_code=201,
    summary="Register for an invited private sit & go (buy-in paid from the wallet)",
)
async def register_invited(
    code: str, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """Pay the buy-in into its prize pool; the last place taken starts it."""
    tournament = await _by_code(db, code, lock=True)
    await enroll(db, room, tournament, viewer.account)
    out = await _out(db, request, tournament, viewer.account.id)
    await db.commit()
    await room.watcher.tournament_changed(tournament.id)
    return out


@router.post(
    "/private-sit-and-gos/{tournament_id}/start",
    summary="Start now with the players registered (host)",
)
async def start_now(
    tournament_id: RowId, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """The places not taken are given up: it is played, and pays, as a sit & go of the
    players registered (two at least)."""
    tournament = await _hosted(db, tournament_id, viewer.account.id)
    registered = int(
        await db.scalar(
            select(func.count())
            .select_from(TournamentRegistration)
            .where(TournamentRegistration.tournament_id == tournament.id)
        )
        or 0
    )
    if registered < MIN_PLAYERS:
        raise ApiError(
            409,
            "not_enough_players",
            f"{registered} registered: a sit & go starts with {MIN_PLAYERS} at least",
        )
    tournament.max_players = registered
    tournament.state = "running"
    tournament.started_at = room.now()
    out = await _out(db, request, tournament, viewer.account.id)
    await db.commit()
    await room.watcher.tournament_changed(tournament.id)
    return out


@router.post(
    "/private-sit-and-gos/{tournament_id}/cancel",
    summary="Cancel before the start, every buy-in refunded (host)",
)
async def cancel(
    tournament_id: RowId, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateSitAndGoOut:
    """Nobody has played yet: each player registered gets their buy-in back."""
    tournament = await _hosted(db, tournament_id, viewer.account.id)
    await store.cancel_tournament(db, tournament, room.now())
    out = await _out(db, request, tournament, viewer.account.id)
    await db.commit()
    await room.watcher.tournament_changed(tournament.id)
    return out


@router.post(
    "/private-sit-and-gos/{tournament_id}/rematch",
    status_code=201,
    summary="The same sit & go again, for the same friends (host)",
)
async def rematch(
    tournament_id: RowId,
    request: Request,
    response: Response,
    *,
    db: DbSession,
    room: Room,
    viewer: LoggedIn,
) -> PrivateSitAndGoOut:
    """Once it is over (finished or cancelled): a new private sit & go like it, with its own
    invite, which its page shows its players (``rematch_invite_code``); the host registered
    in it if they played in this one.  Asked again: the rematch made (200)."""
    me = viewer.account
    tournament = await _private(db, tournament_id, me.id)
    if tournament.host_id != me.id:
        raise ApiError(403, "not_the_host", "only the sit & go's host may do this")
    if tournament.rematch_id is not None:
        response.status_code = 200
        made = await db.get(Tournament, tournament.rematch_id)
        assert made is not None  # a foreign key
        return await _out(db, request, made, me.id)
    if tournament.state not in ("finished", "cancelled"):
        raise ApiError(
            409, "not_over", f"the sit & go is {tournament.state}: its rematch follows its end"
        )
    played = await db.scalar(
        select(TournamentRegistration.id).where(
            TournamentRegistration.tournament_id == tournament.id,
            TournamentRegistration.account_id == me.id,
        )
    )
    again = await store.rematch(db, tournament)
    if played is not None:
        await enroll(db, room, again, me)
    out = await _out(db, request, again, me.id)
    await db.commit()
    return out
