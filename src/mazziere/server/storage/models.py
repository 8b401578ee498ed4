"""The room's database: SQLAlchemy 2 models (the Alembic migrations create them).

Amounts are play-money chips, always ints.  Times are stored in UTC.

The ledger is double-entry by construction: one row of ``ledger_entries``
moves a positive amount from one ledger account to another, so the balances
of all accounts add up to zero at every commit.  Each account keeps its
balance in a column updated in the same transaction as the entry; a CHECK
constraint on that column refuses any movement that would leave an account
that may not go negative (a player's wallet, a table, a prize pool, the
house) below zero: the database itself, not only the code, keeps every
balance honest.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Account",
    "AccountOpening",
    "Base",
    "Hand",
    "HandAction",
    "HandSeat",
    "LedgerAccount",
    "LedgerEntry",
    "LoginFailure",
    "PlayerReport",
    "RoomTable",
    "Seat",
    "SeatRequest",
    "Session",
    "TableCheckpoint",
    "TableCommand",
    "Tournament",
    "TournamentLevel",
    "TournamentRegistration",
    "TournamentStanding",
    "UTCDateTime",
    "WaitingEntry",
    "utc_now",
]

# Constraint names that Alembic can find again on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utc_now() -> dt.datetime:
    """The current time, timezone-aware, in UTC."""
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timestamp stored in UTC and always read back timezone-aware.

    SQLite keeps no time zone, PostgreSQL does: this type makes both give the
    same aware ``datetime``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(dt.UTC)

    def process_result_value(
        self, value: dt.datetime | None, dialect: Dialect
    ) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    """The declarative base: one metadata, named constraints."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: dict[Any, Any] = {  # noqa: RUF012 (SQLAlchemy reads it)
        dt.datetime: UTCDateTime(),
        int: Integer(),
        dict[str, Any]: JSON(),
        list[Any]: JSON(),
    }


Chips = BigInteger


# --- accounts and sessions -------------------------------------------------------------


class Account(Base):
    """A player: a guest (no name, no password) or a registered player."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str | None] = mapped_column(String(32), unique=True)
    """Registered name; guests have none until they take one."""
    name_key: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The name folded to lower case: names are unique whatever their case."""
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    last_top_up: Mapped[dt.date | None] = mapped_column(Date)
    """The UTC day of the last daily top-up."""
    suspended_at: Mapped[dt.datetime | None] = mapped_column(default=None)
    """When the room's operator suspended the account (``mazziere db suspend``): it cannot
    log in, and has no session, until reinstated."""
    suspended_why: Mapped[str | None] = mapped_column(String(200), default=None)
    """The reason the operator gave, told to the player who tries to log in."""

    @property
    def is_guest(self) -> bool:
        """A guest has no password yet."""
        return self.password_hash is None

    @property
    def display_name(self) -> str:
        """The name shown at tables: the registered name, or ``guest-<id>``."""
        return self.name if self.name is not None else f"guest-{self.id}"


class LoginFailure(Base):
    """A failed log-in, counted under the name and under the address (the rate limit)."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(80), index=True)
    """``name:<name, casefolded>`` or ``addr:<address>``."""
    at: Mapped[dt.datetime] = mapped_column(index=True)


class AccountOpening(Base):
    """A new account made from an address (the limit on new accounts per address); kept only
    as long as the limit's window, then forgotten."""

    __tablename__ = "account_openings"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(80), index=True)
    at: Mapped[dt.datetime] = mapped_column(index=True)


class Session(Base):
    """A logged-in browser: the cookie carries a token, the database only its hash."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    expires_at: Mapped[dt.datetime]


class PlayerReport(Base):
    """A player's report of another (abuse in the chat, collusion...), for the operator to
    read (``mazziere db reports``) and act on (``mazziere db suspend``)."""

    __tablename__ = "player_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    reported_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[int | None] = mapped_column(Integer)
    """Where it happened, if the reporter said (a table's number, kept as given)."""
    reason: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now, index=True)


# --- the ledger -------------------------------------------------------------------------


class LedgerAccount(Base):
    """One account of the ledger: a wallet, a table, a prize pool, the house, the grants."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("may_go_negative OR balance >= 0", name="balance_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    """``wallet:<account id>``, ``table:<id>``, ``tournament:<id>``, ``house``, ``grants``."""
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="RESTRICT"))
    balance: Mapped[int] = mapped_column(Chips, default=0)
    may_go_negative: Mapped[bool] = mapped_column(Boolean, default=False)
    """Only the source of play money (``grants``) may go negative."""


class LedgerEntry(Base):
    """One movement: ``amount`` (> 0) from one ledger account to another."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("from_id <> to_id", name="two_accounts"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    kind: Mapped[str] = mapped_column(String(16))
    """grant, top-up, buy-in, cash-out, fee, prize, refund, rake."""
    from_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    to_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(Chips)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), index=True)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    """The player this movement is for (the settle-up view reads it)."""


# --- tables -------------------------------------------------------------------------------


class RoomTable(Base):
    """A cash table: a lobby table or a private one with a host and an invite code."""

    __tablename__ = "tables"
    __table_args__ = (
        CheckConstraint("seats >= 2", name="seats"),
        CheckConstraint("min_buy_in > 0 AND min_buy_in <= max_buy_in", name="buy_in"),
        CheckConstraint("state IN ('open', 'paused', 'closed')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    rules: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int]
    small_blind: Mapped[int] = mapped_column(Chips, default=0)
    big_blind: Mapped[int] = mapped_column(Chips, default=0)
    ante: Mapped[int] = mapped_column(Chips, default=0)
    """The invito at italian-classic tables."""
    min_buy_in: Mapped[int] = mapped_column(Chips)
    max_buy_in: Mapped[int] = mapped_column(Chips)
    decision_seconds: Mapped[int] = mapped_column(default=30)
    time_bank_seconds: Mapped[int] = mapped_column(default=60)
    bots_allowed: Mapped[bool] = mapped_column(Boolean, default=True)
    hints_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether a private table's host lets its players ask for hints (never a tournament)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    lobby: Mapped[bool] = mapped_column(Boolean, default=False)
    """One of the tables the room opens by itself."""
    host_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    invite_code: Mapped[str | None] = mapped_column(String(32), unique=True)
    approval_required: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(8), default="open")
    next_stakes: Mapped[dict[str, Any] | None]
    """A stakes change the host asked for, applied before the next hand."""
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    """A table of a multi-table tournament (migration 0004; a sit & go's table has none)."""
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)


class Seat(Base):
    """A taken seat: a player (with the chips they brought) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_seats_table_seat"),
        UniqueConstraint("table_id", "account_id", name="uq_seats_table_account"),
        CheckConstraint("(account_id IS NULL) <> (bot IS NULL)", name="player_or_bot"),
        CheckConstraint("stack >= 0", name="stack"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    bot: Mapped[str | None] = mapped_column(String(16))
    """The bot's kind (``basic``, ``random``) for a bot's seat."""
    stack: Mapped[int] = mapped_column(Chips, default=0)
    """The chips in front of the seat between hands (the table service keeps it)."""
    sitting_out: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[dt.datetime] = mapped_column(default=utc_now)


class SeatRequest(Base):
    """A request to sit at a private table whose host approves who sits."""

    __tablename__ = "seat_requests"
    __table_args__ = (
        CheckConstraint("state IN ('pending', 'approved', 'refused')", name="state"),
        CheckConstraint("buy_in > 0", name="buy_in"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    buy_in: Mapped[int] = mapped_column(Chips)
    state: Mapped[str] = mapped_column(String(8), default="pending")
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)


class WaitingEntry(Base):
    """A player waiting for a seat at a full table, in order of arrival."""

    __tablename__ = "waiting_list"
    __table_args__ = (UniqueConstraint("table_id", "account_id", name="uq_waiting_table_account"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    offered_at: Mapped[dt.datetime | None]
    """When a free seat was first kept for this player (who loses their place if they do
    not take it in time)."""


class TableCommand(Base):
    """One command the table service applied to a table, in order: a rebuild replays them."""

    __tablename__ = "table_commands"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True)
    """1, 2, 3...: the order the commands were applied in."""
    kind: Mapped[str] = mapped_column(String(24))
    at: Mapped[float] = mapped_column(Float)
    """The table's clock when the command was applied (seconds)."""
    data: Mapped[dict[str, Any]]


class TableCheckpoint(Base):
    """A cash table's state after one of its commands (its ``seq``), so that a rebuild
    replays only the commands after it: one row a table, the latest
    (:mod:`mazziere.server.checkpoints`).  A cache: without it, or with one another version
    of the room's code wrote, the table is rebuilt from its first command."""

    __tablename__ = "table_checkpoints"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int]
    """The last command the state has applied (``table_commands.seq``)."""
    version: Mapped[str] = mapped_column(String(64))
    """The room's code that wrote it (:func:`mazziere.server.checkpoints.code_version`)."""
    state: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[dt.datetime]


# --- tournaments -------------------------------------------------------------------------


class Tournament(Base):
    """A sit & go (starts when full) or a scheduled tournament (``starts_at``)."""

    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("buy_in >= 0 AND fee >= 0", name="money"),
        CheckConstraint("min_players >= 2 AND min_players <= max_players", name="players"),
        CheckConstraint(
            "state IN ('registering', 'running', 'finished', 'cancelled')", name="state"
        ),
        CheckConstraint("level_unit IN ('hands', 'minutes')", name="level_unit"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    rules: Mapped[str] = mapped_column(String(32))
    buy_in: Mapped[int] = mapped_column(Chips)
    """Into the prize pool."""
    fee: Mapped[int] = mapped_column(Chips, default=0)
    """To the house."""
    starting_stack: Mapped[int] = mapped_column(Chips)
    seats: Mapped[int]
    """Seats per table."""
    min_players: Mapped[int] = mapped_column(default=2)
    max_players: Mapped[int]
    level_unit: Mapped[str] = mapped_column(String(8), default="hands")
    starts_at: Mapped[dt.datetime | None]
    """``None``: a sit & go."""
    lobby: Mapped[bool] = mapped_column(Boolean, default=False)
    """A lobby sit & go: a new one opens when this one starts."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """A private sit & go: reached through its invite, seen by its host and its players."""
    host_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    invite_code: Mapped[str | None] = mapped_column(String(32), unique=True)
    rematch_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    """A private sit & go's rematch: the next one its host made of it, for its players."""
    state: Mapped[str] = mapped_column(String(12), default="registering")
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    started_at: Mapped[dt.datetime | None]
    finished_at: Mapped[dt.datetime | None]


class TournamentLevel(Base):
    """One level of a tournament's structure (a break has no stakes)."""

    __tablename__ = "tournament_levels"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    small_blind: Mapped[int] = mapped_column(Chips, default=0)
    big_blind: Mapped[int] = mapped_column(Chips, default=0)
    ante: Mapped[int] = mapped_column(Chips, default=0)
    length: Mapped[int]
    """Hands or minutes, by the tournament's ``level_unit``."""
    break_after: Mapped[int] = mapped_column(default=0, server_default="0")
    """Minutes of the break that follows this level (0: none)."""


class TournamentRegistration(Base):
    """A player registered for a tournament (removed again on unregistering)."""

    __tablename__ = "tournament_registrations"
    __table_args__ = (
        UniqueConstraint("tournament_id", "account_id", name="uq_registrations_player"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    registered_at: Mapped[dt.datetime] = mapped_column(default=utc_now)


class TournamentStanding(Base):
    """A player's place, chips and prize in a tournament (the table service keeps it)."""

    __tablename__ = "tournament_standings"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    chips: Mapped[int] = mapped_column(Chips, default=0)
    place: Mapped[int | None]
    prize: Mapped[int] = mapped_column(Chips, default=0)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    eliminated_at: Mapped[dt.datetime | None]


# --- hands ---------------------------------------------------------------------------------


class Hand(Base):
    """One hand: enough to rebuild it (rule set, seats, set-up, secret seed, actions)."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
        CheckConstraint("state IN ('playing', 'finished', 'voided')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    number: Mapped[int]
    """The hand's number at its table, from 1."""
    rules: Mapped[str] = mapped_column(String(32))
    seed: Mapped[str] = mapped_column(String(128))
    """The secret seed (hex) that orders the deck; revealed only after the hand."""
    commitment: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the seed, published before the deal."""
    setup: Mapped[dict[str, Any]]
    """What the engine needs to deal the hand again (stacks, button, stakes, carry...)."""
    result: Mapped[dict[str, Any] | None]
    history: Mapped[str | None] = mapped_column(Text)
    """The hand's full history (PHH, seed revealed), written when it ends."""
    state: Mapped[str] = mapped_column(String(8), default="playing")
    started_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
    finished_at: Mapped[dt.datetime | None]


class HandSeat(Base):
    """Who was dealt into a hand, at which seat (a player's hand list reads it)."""

    __tablename__ = "hand_seats"

    hand_id: Mapped[int] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(40))
    stack: Mapped[int] = mapped_column(Chips)
    """Chips at the start of the hand."""


class HandAction(Base):
    """One action of a hand, in order: committed before its events are sent."""

    __tablename__ = "hand_actions"

    hand_id: Mapped[int] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    """0, 1, 2...: the order the actions were applied in."""
    seat: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]]
    """The action's arguments (amount, cards changed...)."""
    created_at: Mapped[dt.datetime] = mapped_column(default=utc_now)
