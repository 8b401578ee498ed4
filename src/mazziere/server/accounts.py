"""Accounts over REST: guests, registration, log-in and log-out, the wallet.

A visitor's page first asks ``GET /api/session``: it answers who is logged
in (nobody yet) and sets the CSRF cookie whose value every state-changing
call sends back in the ``X-CSRF-Token`` header.  ``POST /api/guest`` then
makes a guest account with the starting grant, which can later take a name
and a password (``POST /api/account/name``) and keeps its chips and hands.
New accounts, guests and registrations, are limited per address (the room's
``new_accounts_per_address`` over ``new_accounts_window_seconds``): each comes
with the starting grant.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.context import RoomContext, database_session, room_context
from mazziere.server.errors import ApiError
from mazziere.server.security import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SAFE_METHODS,
    SESSION_COOKIE,
    hash_password,
    hash_token,
    new_token,
    verify_password,
)
from mazziere.server.storage import accounts as store
from mazziere.server.storage import ledger
from mazziere.server.storage.models import Account, LedgerEntry, Session
from mazziere.server.ws import end_connections

__all__ = [
    "AccountOut",
    "Viewer",
    "account_from_cookies",
    "current_viewer",
    "optional_viewer",
    "router",
]

router = APIRouter(prefix="/api", tags=["accounts"])

DbSession = Annotated[AsyncSession, Depends(database_session)]
Room = Annotated[RoomContext, Depends(room_context)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Strict):
    """A name and a password."""

    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class PasswordChange(_Strict):
    """The password the account has, and the one it takes."""

    current_password: str = Field(min_length=1, max_length=200)
    new_password: str = Field(min_length=1, max_length=200)


class AccountOut(BaseModel):
    """An account as its owner sees it."""

    id: int
    name: str
    guest: bool
    balance: int


class SessionOut(BaseModel):
    """Who is logged in, and the token to send in the ``X-CSRF-Token`` header."""

    account: AccountOut | None
    csrf_token: str


class EntryOut(BaseModel):
    """One ledger movement of the wallet (``amount`` > 0 received, < 0 paid)."""

    id: int
    at: dt.datetime
    kind: str
    amount: int
    table_id: int | None
    tournament_id: int | None


class WalletOut(BaseModel):
    """The balance, whether today's top-up is still there, the last movements."""

    balance: int
    top_up_available: bool
    daily_top_up: int
    entries: list[EntryOut]


@dataclass(frozen=True)
class Viewer:
    """The logged-in account of a request and its session."""

    account: Account
    session: Session


async def account_from_cookies(
    db: AsyncSession, cookies: dict[str, str], *, now: dt.datetime
) -> Viewer | None:
    """The account whose session cookie is in ``cookies`` (the WebSocket endpoint uses it)."""
    token = cookies.get(SESSION_COOKIE)
    if not token:
        return None
    found = await store.session_account(db, hash_token(token), now=now)
    if found is None:
        return None
    return Viewer(account=found[1], session=found[0])


async def optional_viewer(request: Request, db: DbSession, room: Room) -> Viewer | None:
    """The logged-in account, or ``None`` (a FastAPI dependency).

    On a state-changing request the CSRF header must also be this session's
    own token (the middleware has already checked it against the cookie).
    """
    viewer = await account_from_cookies(db, dict(request.cookies), now=room.now())
    if (
        viewer is not None
        and request.method not in SAFE_METHODS
        and request.headers.get(CSRF_HEADER) != viewer.session.csrf_token
    ):
        raise ApiError(403, "csrf", "this CSRF token is not the session's: ask GET /api/session")
    return viewer


async def current_viewer(viewer: Annotated[Viewer | None, Depends(optional_viewer)]) -> Viewer:
    """The logged-in account (a FastAPI dependency); 401 ``not_logged_in`` without one."""
    if viewer is None:
        raise ApiError(401, "not_logged_in", "log in, or start as a guest (POST /api/guest)")
    return viewer


LoggedIn = Annotated[Viewer, Depends(current_viewer)]
MaybeLoggedIn = Annotated[Viewer | None, Depends(optional_viewer)]


async def account_out(db: AsyncSession, account: Account) -> AccountOut:
    """The account as its owner sees it, with the wallet's balance."""
    balance = await ledger.balance(db, ledger.wallet_key(account.id))
    return AccountOut(
        id=account.id, name=account.display_name, guest=account.is_guest, balance=balance
    )


def _set_cookies(response: Response, room: RoomContext, token: str, csrf: str) -> None:
    settings = room.settings
    age = settings.session_days * 86_400
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=age,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        path="/",
    )
    _set_csrf_cookie(response, room, csrf)


def _set_csrf_cookie(response: Response, room: RoomContext, csrf: str) -> None:
    # Not HttpOnly: the page reads it and sends it back in the X-CSRF-Token header.
    response.set_cookie(
        CSRF_COOKIE,
        csrf,
        max_age=room.settings.session_days * 86_400,
        httponly=False,
        samesite="lax",
        secure=room.settings.cookie_secure,
        path="/",
    )


async def _new_session(
    db: AsyncSession, response: Response, room: RoomContext, account: Account
) -> SessionOut:
    token, csrf = new_token(), new_token()
    await store.start_session(
        db,
        account,
        token_hash=hash_token(token),
        csrf_token=csrf,
        now=room.now(),
        days=room.settings.session_days,
    )
    out = SessionOut(account=await account_out(db, account), csrf_token=csrf)
    await db.commit()
    _set_cookies(response, room, token, csrf)
    return out


async def _drop_session(db: AsyncSession, viewer: Viewer | None) -> None:
    if viewer is not None:
        await store.end_session(db, viewer.session.token_hash)


def _check_new_credentials(credentials: Credentials) -> None:
    problem = store.name_problem(credentials.name)
    if problem is not None:
        raise ApiError(422, "bad_name", problem)
    _check_new_password(credentials.password)


def _check_new_password(password: str) -> None:
    problem = store.password_problem(password)
    if problem is not None:
        raise ApiError(422, "bad_password", problem)


async def _refuse_while_limited(db: AsyncSession, room: RoomContext, keys: tuple[str, str]) -> None:
    """429 while the failed log-ins under ``keys`` are over the limit (``LoginLimiter``)."""
    limiter = room.limiter
    now = room.now()
    since = now - dt.timedelta(seconds=limiter.window)
    failures = await store.login_failures(db, keys, since=since)
    wait = limiter.retry_after(
        {key: [(at - since).total_seconds() for at in times] for key, times in failures.items()},
        now=limiter.window,  # seconds from the window's start
    )
    if wait is not None:
        raise ApiError(
            429,
            "rate_limited",
            f"too many failed log-ins: try again in {int(wait) + 1} s",
            headers={"Retry-After": str(int(wait) + 1)},
        )


async def _count_failure(db: AsyncSession, room: RoomContext, keys: tuple[str, str]) -> None:
    """Count a wrong password under ``keys``, even though the answer will be an error."""
    now = room.now()
    since = now - dt.timedelta(seconds=room.limiter.window)
    await store.add_login_failure(db, keys, at=now, forget_before=since)
    await db.commit()


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _refuse_new_account_while_limited(
    db: AsyncSession, room: RoomContext, request: Request
) -> None:
    """429 while the address has made as many new accounts as the window allows."""
    limit = room.new_accounts
    if limit is None:
        return
    since = room.now() - dt.timedelta(seconds=limit.window)
    made = await store.account_openings(db, _address(request), since=since)
    wait = limit.retry_after(
        [(at - since).total_seconds() for at in made],
        now=limit.window,  # seconds from the window's start
    )
    if wait is not None:
        minutes = math.ceil(wait / 60)
        raise ApiError(
            429,
            "too_many_accounts",
            f"too many new accounts from this address: try again in {minutes} min, or log in",
            headers={"Retry-After": str(math.ceil(wait))},
        )


async def _count_new_account(db: AsyncSession, room: RoomContext, request: Request) -> None:
    """Count the account just made against its address (committed with it)."""
    if room.new_accounts is None:
        return
    now = room.now()
    await store.add_account_opening(
        db,
        _address(request),
        at=now,
        forget_before=now - dt.timedelta(seconds=room.new_accounts.window),
    )


@router.get("/session", summary="Who is logged in; sets the CSRF cookie")
async def get_session(
    request: Request, response: Response, db: DbSession, room: Room, viewer: MaybeLoggedIn
) -> SessionOut:
    """The logged-in account (or none) and the CSRF token for state-changing calls."""
    if viewer is not None:
        return SessionOut(
            account=await account_out(db, viewer.account), csrf_token=viewer.session.csrf_token
        )
    csrf = request.cookies.get(CSRF_COOKIE) or new_token()
    _set_csrf_cookie(response, room, csrf)
    return SessionOut(account=None, csrf_token=csrf)


@router.post("/guest", status_code=201, summary="Start as a guest (a play-money account)")
async def create_guest(
    request: Request, response: Response, db: DbSession, room: Room, viewer: MaybeLoggedIn
) -> SessionOut:
    """A new guest account with the starting grant, logged in at once."""
    if viewer is not None:
        raise ApiError(409, "already_logged_in", "log out first")
    await _refuse_new_account_while_limited(db, room, request)
    account = await store.create_account(db, grant=room.settings.starting_grant)
    await _count_new_account(db, room, request)
    return await _new_session(db, response, room, account)


@router.post("/register", status_code=201, summary="Register a name and a password")
async def register(
    *,
    credentials: Credentials,
    request: Request,
    response: Response,
    db: DbSession,
    room: Room,
    viewer: MaybeLoggedIn,
) -> SessionOut:
    """A new registered account with the starting grant, logged in (any other session ends)."""
    _check_new_credentials(credentials)
    await _refuse_new_account_while_limited(db, room, request)
    try:
        account = await store.create_account(
            db,
            grant=room.settings.starting_grant,
            name=credentials.name,
            password_hash=hash_password(credentials.password, room.hasher),
        )
    except store.NameTakenError:
        raise ApiError(409, "name_taken", f"the name {credentials.name} is taken") from None
    await _count_new_account(db, room, request)
    await _drop_session(db, viewer)
    return await _new_session(db, response, room, account)


@router.post("/login", summary="Log in")
async def login(
    *,
    credentials: Credentials,
    request: Request,
    response: Response,
    db: DbSession,
    room: Room,
    viewer: MaybeLoggedIn,
) -> SessionOut:
    """Log in by name and password; failures are limited per name and per address."""
    keys = room.limiter.keys(credentials.name, _address(request))
    await _refuse_while_limited(db, room, keys)
    account = await store.account_by_name(db, credentials.name)
    if (
        account is None
        or account.password_hash is None
        or not verify_password(account.password_hash, credentials.password, room.hasher)
    ):
        await _count_failure(db, room, keys)
        raise ApiError(401, "bad_credentials", "wrong name or password")
    await store.clear_login_failures(db, keys[0])
    if account.suspended_at is not None:  # told only to who knows the password
        raise ApiError(
            403,
            "account_suspended",
            f"this account is suspended by the room: {account.suspended_why}",
        )
    await _drop_session(db, viewer)
    return await _new_session(db, response, room, account)


@router.post("/logout", summary="Log out")
async def logout(
    response: Response, db: DbSession, room: Room, viewer: LoggedIn
) -> dict[str, bool]:
    """End this session: the session cookie is cleared, a fresh CSRF token is given."""
    await _drop_session(db, viewer)
    await db.commit()
    response.delete_cookie(SESSION_COOKIE, path="/")
    _set_csrf_cookie(response, room, new_token())
    return {"logged_out": True}


@router.post("/account/password", summary="Change the password; every other session ends")
async def change_password(
    *,
    change: PasswordChange,
    request: Request,
    response: Response,
    db: DbSession,
    room: Room,
    viewer: LoggedIn,
) -> SessionOut:
    """The account takes a new password, given its current one (a wrong one counts as a
    failed log-in).  Every session of the account ends, this one included: this browser
    gets a new session at once, every other device must log in again, and the account's
    open sockets are closed (this browser opens its own again)."""
    account = viewer.account
    if account.is_guest or account.password_hash is None:
        raise ApiError(409, "no_password", "a guest has no password yet: take a name first")
    keys = room.limiter.keys(account.display_name, _address(request))
    await _refuse_while_limited(db, room, keys)
    if not verify_password(account.password_hash, change.current_password, room.hasher):
        await _count_failure(db, room, keys)
        raise ApiError(401, "bad_credentials", "wrong password")
    _check_new_password(change.new_password)
    await store.clear_login_failures(db, keys[0])  # a good password clears the name's count
    await store.set_password(db, account, hash_password(change.new_password, room.hasher))
    await store.end_every_session(db, account.id)
    answer = await _new_session(db, response, room, account)  # (commits)
    running = getattr(request.app.state, "play", None)
    if running is not None:
        at_tables = running.service.name_at_tables(account.id, account.display_name)
        for name in {account.display_name, at_tables}:
            end_connections(running.bus, name, "the password was changed: log in again")
    return answer


@router.get("/account", summary="The logged-in account")
async def get_account(db: DbSession, viewer: LoggedIn) -> AccountOut:
    """The account and its balance."""
    return await account_out(db, viewer.account)


@router.post("/account/name", summary="A guest takes a name and a password")
async def take_name(
    credentials: Credentials, db: DbSession, room: Room, viewer: LoggedIn
) -> AccountOut:
    """The guest keeps the same account (chips, seats, hands) under a name."""
    if not viewer.account.is_guest:
        raise ApiError(409, "not_a_guest", "this account already has a name")
    _check_new_credentials(credentials)
    try:
        await store.take_name(
            db, viewer.account, credentials.name, hash_password(credentials.password, room.hasher)
        )
    except store.NameTakenError:
        raise ApiError(409, "name_taken", f"the name {credentials.name} is taken") from None
    out = await account_out(db, viewer.account)
    await db.commit()
    return out


async def _entries(db: AsyncSession, wallet_id: int) -> list[EntryOut]:
    """The wallet's last 50 movements, newest first (paid out negative)."""
    rows = await db.scalars(
        select(LedgerEntry)
        .where(or_(LedgerEntry.from_id == wallet_id, LedgerEntry.to_id == wallet_id))
        .order_by(LedgerEntry.id.desc())
        .limit(50)
    )
    return [
        EntryOut(
            id=row.id,
            at=row.created_at,
            kind=row.kind,
            amount=row.amount if row.to_id == wallet_id else -row.amount,
            table_id=row.table_id,
            tournament_id=row.tournament_id,
        )
        for row in rows
    ]


async def _wallet(db: AsyncSession, room: RoomContext, account: Account) -> WalletOut:
    # Found, not created: GET /api/wallet only reads (every account has had its wallet since
    # it was made; one that has none is shown empty).
    wallet = await ledger.find_account(db, ledger.wallet_key(account.id))
    today = room.now().date()
    return WalletOut(
        balance=0 if wallet is None else wallet.balance,
        top_up_available=account.last_top_up != today and room.settings.daily_top_up > 0,
        daily_top_up=room.settings.daily_top_up,
        entries=[] if wallet is None else await _entries(db, wallet.id),
    )


@router.get("/wallet", summary="The play-money balance and its last movements")
async def get_wallet(db: DbSession, room: Room, viewer: LoggedIn) -> WalletOut:
    """The balance and the last 50 ledger movements of the wallet."""
    return await _wallet(db, room, viewer.account)


@router.post("/wallet/top-up", summary="Claim today's top-up")
async def top_up(db: DbSession, room: Room, viewer: LoggedIn) -> WalletOut:
    """Once per UTC day, ``daily_top_up`` chips from the room."""
    given = await store.claim_daily_top_up(
        db, viewer.account, amount=room.settings.daily_top_up, today=room.now().date()
    )
    if not given:
        raise ApiError(409, "top_up_taken", "today's top-up has been claimed: come back tomorrow")
    await db.commit()
    return await _wallet(db, room, viewer.account)
