"""Accounts and sessions in the database; the starting grant and the daily top-up.

Every function works in the caller's session and leaves the commit to it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.storage import ledger
from mazziere.server.storage.models import Account, AccountOpening, LoginFailure, Session

__all__ = [
    "NAME_PATTERN",
    "NameTakenError",
    "account_by_name",
    "account_openings",
    "accounts_with_sessions",
    "add_account_opening",
    "add_login_failure",
    "claim_daily_top_up",
    "clear_login_failures",
    "create_account",
    "end_every_session",
    "end_session",
    "grant_chips",
    "login_failures",
    "name_problem",
    "password_problem",
    "reset_password",
    "session_account",
    "set_password",
    "start_session",
    "take_name",
]

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,19}")
"""A player's name: 3 to 20 letters, digits, ``_``, ``.`` or ``-``, starting with a letter.

``guest-...`` is taken by nobody: such names start with ``guest`` and a dash
would make them look like a guest's."""


class NameTakenError(Exception):
    """The name is taken (names are unique whatever their case)."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None``.

    >>> name_problem("anna"), name_problem("x")
    (None, 'a name has 3 to 20 letters, digits, _ . or -, starting with a letter')
    >>> name_problem("guest-12")
    'names starting with guest- are kept for guests'
    """
    if not NAME_PATTERN.fullmatch(name):
        return "a name has 3 to 20 letters, digits, _ . or -, starting with a letter"
    if name.casefold().startswith("guest-"):
        return "names starting with guest- are kept for guests"
    return None


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be an account's new password, or ``None``.

    >>> password_problem("short"), password_problem("long enough")
    ('a password has 8 to 200 characters', None)
    """
    if not 8 <= len(password) <= 200:
        return "a password has 8 to 200 characters"
    return None


async def account_by_name(session: AsyncSession, name: str) -> Account | None:
    """The account named ``name`` (whatever its case), if any."""
    return await session.scalar(select(Account).where(Account.name_key == name.casefold()))


GUEST_NAME = re.compile(r"guest-([1-9][0-9]{0,17})")
"""How a guest is shown at the tables: ``guest-<id>``."""


async def account_shown_as(session: AsyncSession, shown: str) -> Account:
    """The account the tables show as ``shown``: a registered name (whatever its case) or a
    guest's ``guest-<id>``.  ``LookupError`` if there is none."""
    guest = GUEST_NAME.fullmatch(shown)
    if guest is not None:
        account = await session.get(Account, int(guest.group(1)))
        if account is not None and account.name is None:
            return account
    else:
        account = await account_by_name(session, shown)
        if account is not None:
            return account
    raise LookupError(f"no account is named {shown!r}")


async def create_account(
    session: AsyncSession,
    *,
    grant: int,
    name: str | None = None,
    password_hash: str | None = None,
) -> Account:
    """A new account (a guest without ``name``) with its wallet and the starting ``grant``."""
    if name is not None and await account_by_name(session, name) is not None:
        raise NameTakenError(name)
    account = Account(
        name=name,
        name_key=name.casefold() if name is not None else None,
        password_hash=password_hash,
    )
    session.add(account)
    await session.flush()
    await ledger.ledger_account(session, ledger.wallet_key(account.id), owner_id=account.id)
    if grant > 0:
        await ledger.move(
            session,
            ledger.Kind.GRANT,
            ledger.GRANTS,
            ledger.wallet_key(account.id),
            grant,
            account_id=account.id,
        )
    return account


async def take_name(session: AsyncSession, account: Account, name: str, password_hash: str) -> None:
    """A guest takes a name and a password: the same account, wallet and hands."""
    other = await account_by_name(session, name)
    if other is not None and other.id != account.id:
        raise NameTakenError(name)
    account.name = name
    account.name_key = name.casefold()
    account.password_hash = password_hash
    await session.flush()


async def start_session(
    session: AsyncSession,
    account: Account,
    *,
    token_hash: str,
    csrf_token: str,
    now: dt.datetime,
    days: int,
) -> Session:
    """Record a new session of ``account`` (the cookie's token is stored as its hash);
    the account's expired sessions are forgotten."""
    await session.execute(
        delete(Session).where(Session.account_id == account.id, Session.expires_at <= now)
    )
    row = Session(
        token_hash=token_hash,
        account_id=account.id,
        csrf_token=csrf_token,
        created_at=now,
        expires_at=now + dt.timedelta(days=days),
    )
    session.add(row)
    await session.flush()
    return row


async def session_account(
    session: AsyncSession, token_hash: str, *, now: dt.datetime
) -> tuple[Session, Account] | None:
    """The live session with this token hash and its account, or ``None``: one query (every
    socket that opens asks, and under load players come back many times a second)."""
    found = (
        await session.execute(
            select(Session, Account)
            .join(Account, Account.id == Session.account_id)
            .where(Session.token_hash == token_hash)
        )
    ).first()
    if found is None or found.Session.expires_at <= now:
        return None
    if found.Account.suspended_at is not None:  # a log-in that raced its suspension
        return None
    return found.Session, found.Account


async def end_session(session: AsyncSession, token_hash: str) -> None:
    """Forget a session (log out)."""
    await session.execute(delete(Session).where(Session.token_hash == token_hash))


async def end_every_session(session: AsyncSession, account_id: int) -> None:
    """Forget every session of the account (its password changed)."""
    await session.execute(delete(Session).where(Session.account_id == account_id))


async def accounts_with_sessions(
    session: AsyncSession, account_ids: Iterable[int], *, now: dt.datetime
) -> set[int]:
    """Which of ``account_ids`` still have a session that has not expired, their account not
    suspended (asked 500 at a time: a database takes only so many values in one query)."""
    wanted = sorted(set(account_ids))
    live: set[int] = set()
    for start in range(0, len(wanted), 500):
        some = wanted[start : start + 500]
        live.update(
            await session.scalars(
                select(Session.account_id)
                .join(Account, Account.id == Session.account_id)
                .where(
                    Session.account_id.in_(some),
                    Session.expires_at > now,
                    Account.suspended_at.is_(None),
                )
                .distinct()
            )
        )
    return live


async def set_password(session: AsyncSession, account: Account, password_hash: str) -> None:
    """The account's new password (its hash)."""
    account.password_hash = password_hash
    await session.flush()


async def reset_password(
    session: AsyncSession, name: str, password_hash: str, *, failures_key: str
) -> Account:
    """The operator gives the account named ``name`` a new password (a player who forgot
    theirs: the room has no e-mail to send one): every session of the account ends and the
    failed log-ins counted under ``failures_key`` (the name's) are cleared.
    ``LookupError`` if no account has the name."""
    account = await account_by_name(session, name)
    if account is None:
        raise LookupError(f"no account is named {name!r}")
    await set_password(session, account, password_hash)
    await end_every_session(session, account.id)
    await clear_login_failures(session, failures_key)
    return account


async def suspend(session: AsyncSession, shown: str, why: str, *, now: dt.datetime) -> Account:
    """The operator suspends the account the tables show as ``shown`` (chat abuse, a shared
    account...): every session of it ends and it cannot log in until :func:`reinstate`; its
    chips stay where they are.  ``LookupError`` if there is no such account, ``ValueError``
    if it is suspended already."""
    account = await account_shown_as(session, shown)
    if account.suspended_at is not None:
        raise ValueError(f"{account.display_name} is suspended already: {account.suspended_why}")
    account.suspended_at = now
    account.suspended_why = why
    await end_every_session(session, account.id)
    return account


async def reinstate(session: AsyncSession, shown: str) -> Account:
    """The operator lifts the suspension of the account shown as ``shown``: it may log in
    again.  ``LookupError`` if there is no such account, ``ValueError`` if it is not
    suspended."""
    account = await account_shown_as(session, shown)
    if account.suspended_at is None:
        raise ValueError(f"{account.display_name} is not suspended")
    account.suspended_at = None
    account.suspended_why = None
    return account


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as the operator's list shows them (``mazziere db players``)."""

    name: str
    guest: bool
    balance: int
    """The wallet's chips (not those at a table or in a tournament)."""
    joined: dt.datetime
    suspended_at: dt.datetime | None
    suspended_why: str | None

    def __str__(self) -> str:
        """One line.

        >>> day = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
        >>> print(PlayerRow("anna", False, 12_340, day, None, None))
        anna · balance 12,340 · joined 2026-12-01
        >>> print(PlayerRow("guest-7", True, 0, day, day, "spam"))
        guest-7 (guest) · balance 0 · joined 2026-12-01 · suspended 2026-12-01: spam
        """
        line = f"{self.name}{' (guest)' if self.guest else ''} · balance {self.balance:,}"
        line += f" · joined {self.joined:%Y-%m-%d}"
        if self.suspended_at is not None:
            line += f" · suspended {self.suspended_at:%Y-%m-%d}: {self.suspended_why}"
        return line


async def players(
    session: AsyncSession, *, guests: bool = False, suspended: bool = False, last: int = 50
) -> list[PlayerRow]:
    """The room's ``last`` newest players, newest first: the registered ones (and the
    guests with ``guests``), or only the suspended ones."""
    query = select(Account).order_by(Account.id.desc()).limit(last)
    if not guests:
        query = query.where(Account.password_hash.is_not(None))
    if suspended:
        query = query.where(Account.suspended_at.is_not(None))
    found = list(await session.scalars(query))
    wallets = await ledger.balances(session, [ledger.wallet_key(a.id) for a in found])
    return [
        PlayerRow(
            name=account.display_name,
            guest=account.is_guest,
            balance=wallets[ledger.wallet_key(account.id)],
            joined=account.created_at,
            suspended_at=account.suspended_at,
            suspended_why=account.suspended_why,
        )
        for account in found
    ]


async def grant_chips(
    session: AsyncSession, name: str, amount: int, *, take_back: bool = False
) -> tuple[Account, int]:
    """The operator gives ``amount`` play chips to the account shown as ``name``, from the
    room's grants (a club's prize, a mistake put right), or with ``take_back`` returns them
    there from its wallet; the account and its balance after.  ``LookupError`` if no
    account has the name; :class:`~mazziere.server.storage.ledger.InsufficientFundsError`
    (nothing moved) if the wallet holds less than what is taken back."""
    account = await account_shown_as(session, name)
    wallet = ledger.wallet_key(account.id)
    source, destination = (wallet, ledger.GRANTS) if take_back else (ledger.GRANTS, wallet)
    await ledger.move(
        session, ledger.Kind.GRANT, source, destination, amount, account_id=account.id
    )
    return account, await ledger.balance(session, wallet)


async def claim_daily_top_up(
    session: AsyncSession, account: Account, *, amount: int, today: dt.date
) -> bool:
    """Give ``amount`` to ``account`` once per (UTC) day; ``False`` if already given today."""
    if amount <= 0:
        return False
    # One UPDATE decides: two requests at once cannot both claim the day.
    claimed = await session.execute(
        update(Account)
        .where(
            Account.id == account.id,
            or_(Account.last_top_up.is_(None), Account.last_top_up != today),
        )
        .values(last_top_up=today)
        .execution_options(synchronize_session=False)
    )
    if getattr(claimed, "rowcount", 0) != 1:
        return False
    account.last_top_up = today
    await ledger.move(
        session,
        ledger.Kind.TOP_UP,
        ledger.GRANTS,
        ledger.wallet_key(account.id),
        amount,
        account_id=account.id,
    )
    return True


async def login_failures(
    session: AsyncSession, keys: tuple[str, ...], *, since: dt.datetime
) -> dict[str, list[dt.datetime]]:
    """The failed log-ins under each of ``keys`` after ``since``."""
    found: dict[str, list[dt.datetime]] = {key: [] for key in keys}
    rows = await session.execute(
        select(LoginFailure.key, LoginFailure.at).where(
            LoginFailure.key.in_(keys), LoginFailure.at > since
        )
    )
    for key, at in rows:
        found[key].append(at)
    return found


async def add_login_failure(
    session: AsyncSession, keys: tuple[str, ...], *, at: dt.datetime, forget_before: dt.datetime
) -> None:
    """Count a failed log-in under each key; forget failures older than the window."""
    await session.execute(delete(LoginFailure).where(LoginFailure.at <= forget_before))
    session.add_all(LoginFailure(key=key, at=at) for key in keys)
    await session.flush()


async def clear_login_failures(session: AsyncSession, key: str) -> None:
    """A good password clears the failures of its name (not of its address)."""
    await session.execute(delete(LoginFailure).where(LoginFailure.key == key))


async def account_openings(
    session: AsyncSession, address: str, *, since: dt.datetime
) -> list[dt.datetime]:
    """When the accounts made from ``address`` after ``since`` were made."""
    rows = await session.scalars(
        select(AccountOpening.at).where(
            AccountOpening.address == address, AccountOpening.at > since
        )
    )
    return list(rows)


async def add_account_opening(
    session: AsyncSession, address: str, *, at: dt.datetime, forget_before: dt.datetime
) -> None:
    """Count a new account made from ``address``; forget those older than the window."""
    await session.execute(delete(AccountOpening).where(AccountOpening.at <= forget_before))
    session.add(AccountOpening(address=address, at=at))
    await session.flush()
