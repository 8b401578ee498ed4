"""Private tables over REST: a home game with a host, an invite code, approvals, settle-up.

The host creates the table (rules, stakes, seats, time limits, bots or not)
and shares its invite code or link; friends ask to sit through it and the
host approves or refuses them (a table can also take everyone who asks).
The host pauses and resumes the table, changes the stakes (from the next
hand), calls bots and sends them away, sees each player's buy-ins,
cash-outs and result at any time, and closes the table once nobody plays
there.  Sitting down and buying in happen at the table itself (the
WebSocket protocol), which asks
:mod:`mazziere.server.storage.seating` who may sit; the running table task
takes the host's pause and stakes as commands of its own (stored, replayed
after a restart), told by the lobby's watcher.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.room.errors import RoomError
from mazziere.room.structure import Stakes
from mazziere.server import protocol as p
from mazziere.server.accounts import DbSession, LoggedIn, Room
from mazziere.server.context import RoomContext
from mazziere.server.errors import ApiError, RowId
from mazziere.server.lobby import StakesOut, TableOut, check_rules, stakes_out, table_out
from mazziere.server.storage import ledger
from mazziere.server.storage import lobby as store
from mazziere.server.storage.models import Account, LedgerEntry, RoomTable, Seat, SeatRequest
from mazziere.server.tables import Player

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["private tables"])


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StakesIn(_Strict):
    """Forced bets: blinds (Hold'em; italian-32's buio and controbuio) or the invito (``ante``)."""

    small_blind: int = Field(default=0, ge=0, le=1_000_000)
    big_blind: int = Field(default=0, ge=0, le=1_000_000)
    ante: int = Field(default=0, ge=0, le=1_000_000)


class NewPrivateTable(StakesIn):
    """What a host chooses for a private table.  A host who gives no forced bets, or no
    buy-ins, gets a home game's (:func:`~mazziere.server.storage.lobby.home_game_stakes`,
    :data:`~mazziere.server.storage.lobby.HOME_GAME_BUY_INS`): the terminal's ``--host``
    gives neither, and the private page's form starts from them (``/api/rule-sets``)."""

    name: str = Field(min_length=1, max_length=40)
    rules: str
    seats: int = Field(ge=2, le=9)
    min_buy_in: int = Field(default=store.HOME_GAME_BUY_INS[0], gt=0, le=100_000_000)
    max_buy_in: int = Field(default=store.HOME_GAME_BUY_INS[1], gt=0, le=100_000_000)
    decision_seconds: int = Field(default=store.HOME_GAME_SECONDS[0], ge=5, le=300)
    time_bank_seconds: int = Field(default=store.HOME_GAME_SECONDS[1], ge=0, le=600)
    bots_allowed: bool = True
    approval_required: bool = True
    hints_allowed: bool = False
    """Whether the players may ask for hints at their own decisions (off by default)."""

    @model_validator(mode="before")
    @classmethod
    def _home_game_stakes(cls, given: Any) -> Any:
        forced = ("small_blind", "big_blind", "ante")
        if (
            isinstance(given, dict)
            and isinstance(given.get("rules"), str)
            and not any(key in given for key in forced)
        ):
            return {**store.home_game_stakes(given["rules"]), **given}
        return given


class RequestIn(_Strict):
    """A request to sit, with the buy-in the player means to bring."""

    buy_in: int = Field(gt=0, le=100_000_000)


class SeatRequestOut(BaseModel):
    """A request to sit at a private table."""

    id: int
    table_id: int
    player: str
    buy_in: int
    state: str
    at: dt.datetime


class PrivateTableOut(TableOut):
    """A private table as its host or an invited player sees it."""

    host: str
    invite_code: str
    invite_link: str
    approval_required: bool
    bots_allowed: bool
    hints_allowed: bool
    bot_seats: list[int] = Field(
        description="The seats where a bot sits (the table's `seats` event names them)."
    )
    next_stakes: StakesOut | None
    you_are_host: bool
    your_request: SeatRequestOut | None


class PrivateTablesOut(BaseModel):
    """The private tables a player hosts or asked to sit at."""

    tables: list[PrivateTableOut]


class SettleUpLine(BaseModel):
    """One player's money at the table: ``result = cashed_out + stack - bought_in``."""

    player: str
    bought_in: int
    cashed_out: int
    stack: int
    result: int


class SettleUpOut(BaseModel):
    """Who owes whom: every player's result.  The players' and the bots' results, the rake
    and the chips in the pot add up to zero."""

    table_id: int
    players: list[SettleUpLine]
    rake: int
    bots: SettleUpLine | None = Field(
        default=None, description="Every bot that sat, as one line (player 'bots')."
    )
    in_pot: int = Field(
        default=0, description="Chips in the hand being played or in a pot carried over."
    )


class BotsIn(_Strict):
    """Bots the host calls to the table's empty seats."""

    count: int = Field(ge=1, le=9)
    kind: Literal["basic", "random", "strong"] = "basic"


class TableAnswer(BaseModel):
    """What the table did with the host's call (``ack``: stored and announced)."""

    type: str
    of: str | None = None


def _stakes(given: StakesIn) -> Stakes:
    return Stakes(small_blind=given.small_blind, big_blind=given.big_blind, ante=given.ante)


async def _request_out(db: AsyncSession, row: SeatRequest) -> SeatRequestOut:
    account = await db.get(Account, row.account_id)
    assert account is not None
    return SeatRequestOut(
        id=row.id,
        table_id=row.table_id,
        player=account.display_name,
        buy_in=row.buy_in,
        state=row.state,
        at=row.created_at,
    )


async def _private_out(
    db: AsyncSession, request: Request, table: RoomTable, account_id: int, room: RoomContext
) -> PrivateTableOut:
    host = await db.get(Account, table.host_id) if table.host_id is not None else None
    mine = await db.scalar(
        select(SeatRequest)
        .where(SeatRequest.table_id == table.id, SeatRequest.account_id == account_id)
        .order_by(SeatRequest.id.desc())
        .limit(1)
    )
    code = table.invite_code or ""
    pending = table.next_stakes
    bot_seats = await db.scalars(
        select(Seat.seat)
        .where(Seat.table_id == table.id, Seat.bot.is_not(None))
        .order_by(Seat.seat)
    )
    return PrivateTableOut(
        **(await table_out(db, table, account_id, room)).model_dump(),
        host=host.display_name if host is not None else "",
        invite_code=code,
        invite_link=str(request.url_for("invite", code=code)),
        approval_required=table.approval_required,
        bots_allowed=table.bots_allowed,
        hints_allowed=table.hints_allowed,
        bot_seats=list(bot_seats),
        next_stakes=stakes_out(**pending) if pending is not None else None,
        you_are_host=table.host_id == account_id,
        your_request=await _request_out(db, mine) if mine is not None else None,
    )


async def _hosted(
    db: AsyncSession, table_id: int, account_id: int, *, lock: bool = True
) -> RoomTable:
    """The private table ``table_id``, which ``account_id`` must host (locked for the change
    to come unless ``lock`` is false: a GET reads it in a session that only reads)."""
    query = select(RoomTable).where(RoomTable.id == table_id)
    table = await db.scalar(query.with_for_update() if lock else query)
    if table is None or not table.private:
        raise ApiError(404, "no_such_table", f"there is no private table {table_id}")
    if table.host_id != account_id:
        raise ApiError(403, "not_the_host", "only the table's host may do this")
    return table


@router.post("/private-tables", status_code=201, summary="Create a private table")
async def create_private_table(
    given: NewPrivateTable, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTableOut:
    """A table only invited players can reach; its host is the creator."""
    check_rules(given.rules)
    spec = store.TableSpec(
        name=given.name,
        rules=given.rules,
        seats=given.seats,
        stakes=_stakes(given),
        min_buy_in=given.min_buy_in,
        max_buy_in=given.max_buy_in,
        decision_seconds=given.decision_seconds,
        time_bank_seconds=given.time_bank_seconds,
        bots_allowed=given.bots_allowed,
        hints_allowed=given.hints_allowed,
    )
    too_small = store.buy_in_too_small(spec)
    if too_small is not None:
        raise ApiError(422, "bad_table", too_small)
    try:
        table = await store.create_table(
            db, spec, host_id=viewer.account.id, approval_required=given.approval_required
        )
    except RoomError as exc:
        raise ApiError(422, "bad_table", str(exc)) from None
    out = await _private_out(db, request, table, viewer.account.id, room)
    await db.commit()
    await room.watcher.table_changed(table.id)  # the table service opens its task
    return out


@router.get("/private-tables", summary="The private tables you host or asked to sit at")
async def my_private_tables(
    request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTablesOut:
    """Newest first."""
    me = viewer.account.id
    asked = select(SeatRequest.table_id).where(SeatRequest.account_id == me)
    rows = await db.scalars(
        select(RoomTable)
        .where(RoomTable.private.is_(True), (RoomTable.host_id == me) | RoomTable.id.in_(asked))
        .order_by(RoomTable.id.desc())
    )
    return PrivateTablesOut(tables=[await _private_out(db, request, t, me, room) for t in rows])


async def _by_code(db: AsyncSession, code: str) -> RoomTable:
    table = await db.scalar(select(RoomTable).where(RoomTable.invite_code == code))
    if table is None:
        raise ApiError(404, "no_such_invite", "this invite code opens no table")
    if table.state == "closed":  # (a friend on its waiting list learns it here)
        raise ApiError(410, "table_closed", f"the table {table.name} is closed")
    return table


@router.get("/invites/{code}", name="invite", summary="The private table an invite opens")
async def see_invite(
    code: str, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTableOut:
    """What the invite code or link leads to (at a full table: the caller's place on its
    waiting list, and the seat kept for them)."""
    return await _private_out(db, request, await _by_code(db, code), viewer.account.id, room)


@router.post("/invites/{code}/requests", status_code=201, summary="Ask to sit at an invited table")
async def ask_to_sit(
    code: str, given: RequestIn, db: DbSession, room: Room, viewer: LoggedIn
) -> SeatRequestOut:
    """Pending until the host approves (approved at once where no approval is needed)."""
    table = await _by_code(db, code)
    me = viewer.account.id
    if table.host_id == me:
        raise ApiError(409, "you_are_the_host", "the host needs no approval")
    if not table.min_buy_in <= given.buy_in <= table.max_buy_in:
        raise ApiError(
            422,
            "bad_buy_in",
            f"the buy-in is between {table.min_buy_in} and {table.max_buy_in}",
        )
    # A request the wallet cannot pay would be approved for a seat the player cannot take.
    if await ledger.balance(db, ledger.wallet_key(me)) < given.buy_in:
        raise ApiError(
            409, "insufficient_funds", f"the buy-in ({given.buy_in}) exceeds your balance"
        )
    open_request = await db.scalar(
        select(SeatRequest).where(
            SeatRequest.table_id == table.id,
            SeatRequest.account_id == me,
            SeatRequest.state.in_(("pending", "approved")),
        )
    )
    if open_request is not None:
        raise ApiError(409, "already_asked", f"your request is {open_request.state}")
    row = SeatRequest(
        table_id=table.id,
        account_id=me,
        buy_in=given.buy_in,
        state="pending" if table.approval_required else "approved",
    )
    db.add(row)
    await db.flush()
    out = await _request_out(db, row)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


@router.get("/private-tables/{table_id}/requests", summary="The requests to sit (host)")
async def list_requests(table_id: RowId, db: DbSession, viewer: LoggedIn) -> list[SeatRequestOut]:
    """Every request, oldest first."""
    table = await _hosted(db, table_id, viewer.account.id, lock=False)
    rows = await db.scalars(
        select(SeatRequest).where(SeatRequest.table_id == table.id).order_by(SeatRequest.id)
    )
    return [await _request_out(db, row) for row in rows]


async def _decide(
    db: AsyncSession, room: Room, table_id: int, request_id: int, *, account_id: int, state: str
) -> SeatRequestOut:
    table = await _hosted(db, table_id, account_id)
    row = await db.get(SeatRequest, request_id)
    if row is None or row.table_id != table.id:
        raise ApiError(404, "no_such_request", f"there is no request {request_id} at this table")
    if row.state != "pending":
        raise ApiError(409, "already_decided", f"the request is {row.state}")
    row.state = state
    await db.flush()
    out = await _request_out(db, row)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


@router.post(
    "/private-tables/{table_id}/requests/{request_id}/approve", summary="Let a player sit (host)"
)
async def approve(
    table_id: RowId, request_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> SeatRequestOut:
    """The player may now take a seat."""
    return await _decide(
        db, room, table_id, request_id, account_id=viewer.account.id, state="approved"
    )


@router.post(
    "/private-tables/{table_id}/requests/{request_id}/refuse", summary="Refuse a player (host)"
)
async def refuse(
    table_id: RowId, request_id: RowId, db: DbSession, room: Room, viewer: LoggedIn
) -> SeatRequestOut:
    """The player may not sit (they may ask again)."""
    return await _decide(
        db, room, table_id, request_id, account_id=viewer.account.id, state="refused"
    )


async def _set_state(
    db: AsyncSession,
    request: Request,
    room: Room,
    table_id: int,
    account_id: int,
    *,
    to: str,
    from_: str,
) -> PrivateTableOut:
    table = await _hosted(db, table_id, account_id)
    if table.state != from_:
        raise ApiError(409, f"not_{from_}", f"the table is {table.state}")
    table.state = to
    await db.flush()
    out = await _private_out(db, request, table, account_id, room)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


@router.post("/private-tables/{table_id}/close", summary="Close the table for good (host)")
async def close(
    table_id: RowId, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTableOut:
    """Once no player sits there: its bots leave (their chips back to the room's grants),
    a pot carried to the next hand goes back to the players who built it (each their
    share, to their wallets), the table closes, and whoever follows it is told (a
    ``closed`` event).  Its settle-up and hands stay readable; its invite opens nothing
    more (410 ``table_closed``), its waiting list is emptied.  Refused (409) while a
    player sits there (``players_seated``) or a hand is played (``hand_playing``), and
    once closed (``table_closed``)."""
    table = await _hosted(db, table_id, viewer.account.id)
    if table.state == "closed":
        raise ApiError(409, "table_closed", "the table is closed")
    await db.commit()  # the row lock is not held while the table works
    try:
        refusal = await room.watcher.close_table(table.id, by_host=True)
    except RuntimeError:  # the room is stopping
        refusal = ("table_not_running", "the room is stopping")
    if refusal is not None:
        raise ApiError(409, *refusal)
    await db.refresh(table)  # closed by the table's own store
    out = await _private_out(db, request, table, viewer.account.id, room)
    await db.commit()
    return out


@router.post("/private-tables/{table_id}/pause", summary="Pause after this hand (host)")
async def pause(
    table_id: RowId, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTableOut:
    """No new hand starts until the host resumes; a hand in progress is played out."""
    return await _set_state(
        db, request, room, table_id, viewer.account.id, to="paused", from_="open"
    )


@router.post("/private-tables/{table_id}/resume", summary="Resume a paused table (host)")
async def resume(
    table_id: RowId, request: Request, db: DbSession, room: Room, viewer: LoggedIn
) -> PrivateTableOut:
    """Hands are dealt again."""
    return await _set_state(
        db, request, room, table_id, viewer.account.id, to="open", from_="paused"
    )


@router.post("/private-tables/{table_id}/stakes", summary="Change the stakes (host)")
async def change_stakes(
    *,
    table_id: RowId,
    given: StakesIn,
    request: Request,
    db: DbSession,
    room: Room,
    viewer: LoggedIn,
) -> PrivateTableOut:
    """The new stakes apply from the next hand (at once while nobody sits)."""
    table = await _hosted(db, table_id, viewer.account.id)
    stakes = _stakes(given)
    try:
        stakes.check_for(table.rules)
    except RoomError as exc:
        raise ApiError(422, "bad_stakes", str(exc)) from None
    taken = await db.scalar(select(func.count()).select_from(Seat).where(Seat.table_id == table.id))
    if taken:
        table.next_stakes = {
            "small_blind": stakes.small_blind,
            "big_blind": stakes.big_blind,
            "ante": stakes.ante,
        }
    else:
        table.small_blind, table.big_blind, table.ante = (
            stakes.small_blind, stakes.big_blind, stakes.ante,
        )  # fmt: skip
        table.next_stakes = None
    await db.flush()
    out = await _private_out(db, request, table, viewer.account.id, room)
    await db.commit()
    await room.watcher.table_changed(table.id)
    return out


async def _tell_table(
    db: AsyncSession, room: Room, table_id: int, viewer: LoggedIn, message: BaseModel
) -> TableAnswer:
    """Hand the host's call to the running table; its refusal is a 409 with its code."""
    await _hosted(db, table_id, viewer.account.id)
    await db.commit()  # the row lock is not held while the table works
    host = Player(viewer.account.id, viewer.account.display_name)
    answer: dict[str, Any] | None = await room.watcher.tell(table_id, host, message)
    if answer is None:
        raise ApiError(409, "table_not_running", "the table is not running")
    if answer["type"] == "error":
        raise ApiError(409, str(answer["code"]), str(answer["message"]))
    return TableAnswer(type=answer["type"], of=answer.get("of"))


@router.post("/private-tables/{table_id}/bots", summary="Call bots to the empty seats (host)")
async def add_bots(
    table_id: RowId, given: BotsIn, db: DbSession, room: Room, viewer: LoggedIn
) -> TableAnswer:
    """Each bot buys in for the table's maximum from the room's grants."""
    message = p.AddBots(table=str(table_id), count=given.count, kind=given.kind)
    return await _tell_table(db, room, table_id, viewer, message)


@router.delete("/private-tables/{table_id}/bots/{name}", summary="Send a bot away (host)")
async def remove_bot(
    table_id: RowId, name: str, db: DbSession, room: Room, viewer: LoggedIn
) -> TableAnswer:
    """The bot leaves between hands (at once if no hand is playing); its chips go back."""
    if not 0 < len(name) <= 40:
        raise ApiError(422, "invalid_input", "a bot's name has 1 to 40 characters")
    message = p.RemoveBot(table=str(table_id), name=name)
    return await _tell_table(db, room, table_id, viewer, message)


@router.get("/private-tables/{table_id}/settle-up", summary="Each player's buy-ins and result")
async def settle_up(table_id: RowId, db: DbSession, viewer: LoggedIn) -> SettleUpOut:
    """For the host and every player who sat: bought in, cashed out, chips now, result."""
    table = await db.get(RoomTable, table_id)
    if table is None or not table.private:
        raise ApiError(404, "no_such_table", f"there is no private table {table_id}")
    table_account = await ledger.find_account(db, ledger.table_key(table.id))  # GET: no create
    table_ledger_id = None if table_account is None else table_account.id
    # Bots are the key 0 (no account has it).
    bought: dict[int, int] = {}
    cashed: dict[int, int] = {}
    rake = 0
    for entry in await db.scalars(select(LedgerEntry).where(LedgerEntry.table_id == table.id)):
        who = entry.account_id or 0
        if entry.kind == ledger.Kind.RAKE:
            rake += entry.amount
        elif entry.to_id == table_ledger_id:
            bought[who] = bought.get(who, 0) + entry.amount
        elif entry.from_id == table_ledger_id:
            cashed[who] = cashed.get(who, 0) + entry.amount
    stacks: dict[int, int] = {}
    for seat in await db.scalars(select(Seat).where(Seat.table_id == table.id)):
        who = seat.account_id or 0
        stacks[who] = stacks.get(who, 0) + seat.stack
    on_table = await ledger.balance(db, ledger.table_key(table.id))
    bots = _settle_line("bots", bought.pop(0, 0), cashed.pop(0, 0), stacks.pop(0, 0))
    players = sorted(set(bought) | set(cashed) | set(stacks))
    me = viewer.account.id
    if me != table.host_id and me not in players:
        raise ApiError(403, "not_at_the_table", "only the host and the players see the settle-up")
    lines = []
    for account_id in players:
        account = await db.get(Account, account_id)
        assert account is not None
        lines.append(
            _settle_line(
                account.display_name,
                bought.get(account_id, 0),
                cashed.get(account_id, 0),
                stacks.get(account_id, 0),
            )
        )
    return SettleUpOut(
        table_id=table.id,
        players=lines,
        rake=rake,
        bots=bots if bots.bought_in else None,
        in_pot=on_table - sum(line.stack for line in [*lines, bots]),
    )


def _settle_line(player: str, bought_in: int, cashed_out: int, stack: int) -> SettleUpLine:
    return SettleUpLine(
        player=player,
        bought_in=bought_in,
        cashed_out=cashed_out,
        stack=stack,
        result=cashed_out + stack - bought_in,
    )
