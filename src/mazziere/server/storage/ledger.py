"""The ledger in the database: every movement of play money, between two accounts.

A movement takes a positive amount from one ledger account and gives it to
another, in the caller's transaction: the entry row and both balance updates
commit together or not at all.  A movement that would take an account that
may not go negative below zero is refused by the database's CHECK
constraint; :func:`move` turns that refusal into :class:`InsufficientFundsError`
and the caller's transaction is left unchanged (a savepoint is rolled back).

Ledger account keys: ``grants`` (the source of all play money, the only
account that goes negative), ``house`` (fees and rake), ``wallet:<account>``,
``table:<table>`` (chips on a cash table) and ``tournament:<tournament>``
(a prize pool).
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum
from typing import cast

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.storage.models import LedgerAccount, LedgerEntry, utc_now

__all__ = [
    "GRANTS",
    "HOUSE",
    "InsufficientFundsError",
    "Kind",
    "audit",
    "balance",
    "balances_by_kind",
    "check_movement",
    "ledger_account",
    "move",
    "move_between",
    "size",
    "table_key",
    "tournament_key",
    "wallet_key",
]

_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_ENTRIES = cast(Table, LedgerEntry.__table__)

GRANTS = "grants"
HOUSE = "house"


class Kind(StrEnum):
    """What a movement is for."""

    GRANT = "grant"
    TOP_UP = "top-up"
    BUY_IN = "buy-in"
    CASH_OUT = "cash-out"
    FEE = "fee"
    PRIZE = "prize"
    REFUND = "refund"
    RAKE = "rake"


class InsufficientFundsError(Exception):
    """A movement would overdraw an account that may not go negative."""

    def __init__(self, key: str, amount: int) -> None:
        super().__init__(f"{key} cannot pay {amount}")
        self.key = key
        self.amount = amount


def wallet_key(account_id: int) -> str:
    """The ledger key of a player's wallet.

    >>> wallet_key(7)
    'wallet:7'
    """
    return f"wallet:{account_id}"


def table_key(table_id: int) -> str:
    """The ledger key of the chips on a cash table."""
    return f"table:{table_id}"


def tournament_key(tournament_id: int) -> str:
    """The ledger key of a tournament's prize pool."""
    return f"tournament:{tournament_id}"


async def find_account(session: AsyncSession, key: str) -> LedgerAccount | None:
    """The ledger account ``key``, or ``None`` where nothing has moved through it yet (a
    request that only reads must not create it: :func:`ledger_account` does)."""
    found: LedgerAccount | None = await session.scalar(
        select(LedgerAccount).where(LedgerAccount.key == key)
    )
    return found


async def ledger_account(
    session: AsyncSession, key: str, *, owner_id: int | None = None
) -> LedgerAccount:
    """The ledger account ``key``, created (with a zero balance) if it does not exist yet."""
    found = await find_account(session, key)
    if found is not None:
        return found
    account = LedgerAccount(key=key, owner_id=owner_id, balance=0, may_go_negative=key == GRANTS)
    try:
        async with session.begin_nested():
            session.add(account)
    except IntegrityError:
        # Another transaction made it meanwhile (the first guests of a fresh room, all at
        # once, each paid from ``grants``): PostgreSQL let this insert wait for that one's
        # commit, then refused it on the unique key.  Only the savepoint is undone.
        found = await session.scalar(select(LedgerAccount).where(LedgerAccount.key == key))
        if found is None:
            raise
        return found
    return account


async def move(
    session: AsyncSession,
    kind: Kind,
    source: str,
    destination: str,
    amount: int,
    *,
    account_id: int | None = None,
    table_id: int | None = None,
    tournament_id: int | None = None,
    hand_id: int | None = None,
) -> None:
    """Move ``amount`` from ``source`` to ``destination`` (ledger keys), in ``session``.

    ``account_id`` names the player the movement is for; ``table_id``,
    ``tournament_id`` and ``hand_id`` what it belongs to.  Raises
    :class:`InsufficientFundsError` (nothing changed) if ``source`` cannot pay.
    """
    check_movement(source, destination, amount)
    paying = await ledger_account(session, source)
    receiving = await ledger_account(session, destination)
    async with session.begin_nested():
        await session.run_sync(
            lambda sync: move_between(
                sync.connection(),
                kind,
                source=source,
                paying_id=paying.id,
                receiving_id=receiving.id,
                amount=amount,
                account_id=account_id,
                table_id=table_id,
                tournament_id=tournament_id,
                hand_id=hand_id,
            )
        )
    await session.refresh(paying)
    await session.refresh(receiving)


def check_movement(source: str, destination: str, amount: int) -> None:
    """A movement moves a positive int between two different accounts (else ValueError).

    >>> check_movement("grants", "grants", 5)
    Traceback (most recent call last):
    ...
    ValueError: a movement needs two different accounts
    """
    if type(amount) is not int or amount <= 0:
        raise ValueError(f"a movement moves a positive int, not {amount!r}")
    if source == destination:
        raise ValueError("a movement needs two different accounts")


def move_between(
    connection: Connection,
    kind: Kind,
    *,
    source: str,
    paying_id: int,
    receiving_id: int,
    amount: int,
    account_id: int | None = None,
    table_id: int | None = None,
    tournament_id: int | None = None,
    hand_id: int | None = None,
) -> None:
    """The movement itself, in SQLAlchemy Core on a synchronous ``connection`` (the table
    service's group commits write many in one transaction; a session reaches it through
    ``run_sync``, as :func:`move` does): both balances and the entry.

    The paying account is debited first, so the database's CHECK refuses an overdraft
    before anything else is written: :class:`InsufficientFundsError`.
    """
    try:
        connection.execute(_DEBIT, {"account": paying_id, "amount": amount})
    except IntegrityError as exc:
        if "balance_not_negative" in str(exc.orig):
            raise InsufficientFundsError(source, amount) from None
        raise
    connection.execute(_CREDIT, {"account": receiving_id, "amount": amount})
    connection.execute(
        _ENTRY,
        {
            "created_at": utc_now(),
            "kind": Kind(kind).value,
            "from_id": paying_id,
            "to_id": receiving_id,
            "amount": amount,
            "account_id": account_id,
            "table_id": table_id,
            "tournament_id": tournament_id,
            "hand_id": hand_id,
        },
    )


# Made once: a statement built anew each time costs its cache key again (with its values).
_DEBIT = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("account"))
    .values(balance=_ACCOUNTS.c.balance - bindparam("amount"))
)
_CREDIT = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("account"))
    .values(balance=_ACCOUNTS.c.balance + bindparam("amount"))
)
_ENTRY = insert(_ENTRIES)


async def balance(session: AsyncSession, key: str) -> int:
    """The balance of ledger account ``key`` (0 for one that does not exist yet)."""
    value = await session.scalar(select(LedgerAccount.balance).where(LedgerAccount.key == key))
    return int(value or 0)


async def balances(session: AsyncSession, keys: Collection[str]) -> dict[str, int]:
    """The balances of the ledger accounts ``keys``, in one query (0 for one that does not
    exist yet)."""
    found = await session.execute(
        select(LedgerAccount.key, LedgerAccount.balance).where(LedgerAccount.key.in_(keys))
    )
    return {key: 0 for key in keys} | {key: int(amount) for key, amount in found}


async def size(session: AsyncSession) -> tuple[int, int]:
    """How many ledger accounts and movements (entries) there are."""
    accounts = await session.scalar(select(func.count()).select_from(LedgerAccount))
    entries = await session.scalar(select(func.count()).select_from(LedgerEntry))
    return int(accounts or 0), int(entries or 0)


async def balances_by_kind(session: AsyncSession) -> dict[str, int]:
    """The balances added up by the kind of account (its key before ``:``: ``grants``,
    ``house``, ``wallet``, ``table``, ``tournament``): where the room's chips are."""
    totals: dict[str, int] = {}
    for key, amount in await session.execute(select(LedgerAccount.key, LedgerAccount.balance)):
        kind = str(key).partition(":")[0]
        totals[kind] = totals.get(kind, 0) + int(amount)
    return totals


async def audit(session: AsyncSession) -> tuple[int, list[str]]:
    """The sum of all balances (always 0) and the keys whose balance differs from its entries.

    The balances are recomputed from the entries alone, so a balance column
    that drifted from its entries would show in the list (always empty).  It is one
    statement, so it reads one moment of the ledger while money moves: in several, each
    seeing what had committed by then (PostgreSQL's READ COMMITTED), a movement committed
    between them looked like a drift.
    """
    received, paid = (
        select(side.label("id"), func.sum(LedgerEntry.amount).label("amount"))
        .group_by(side)
        .subquery()
        for side in (LedgerEntry.to_id, LedgerEntry.from_id)
    )
    rows = await session.execute(
        select(
            LedgerAccount.key,
            LedgerAccount.balance,
            func.coalesce(received.c.amount, 0) - func.coalesce(paid.c.amount, 0),
        )
        .outerjoin(received, received.c.id == LedgerAccount.id)
        .outerjoin(paid, paid.c.id == LedgerAccount.id)
        .order_by(LedgerAccount.id)
    )
    total = 0
    drifted = []
    for key, balance, from_entries in rows:
        total += int(balance)
        if int(balance) != int(from_entries):
            drifted.append(key)
    return total, drifted
