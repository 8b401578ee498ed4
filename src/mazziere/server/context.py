"""What every request handler reaches: settings, the database, the clock, the limiter."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from argon2 import PasswordHasher
from fastapi import Request
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.security import SAFE_METHODS, LoginLimiter, WindowLimit
from mazziere.server.settings import Settings
from mazziere.server.storage import Database
from mazziere.server.storage.lobby import Lobby
from mazziere.server.storage.models import utc_now

if TYPE_CHECKING:
    from mazziere.server.player_stats import CountedHands
    from mazziere.server.tables import Player

__all__ = [
    "LevelPlayed",
    "RoomContext",
    "TableWatcher",
    "database_session",
    "room_context",
]


class LevelPlayed(NamedTuple):
    """Where a running tournament stands, as its task holds it."""

    level: int
    """The level played now (levels by hands: its furthest table's; on a break, the next)."""
    on_break: bool
    """On a break at every table."""
    tables_on_break: frozenset[int]
    """Its tables on a break now (levels by hands: each pauses when it gets there)."""


class TableWatcher(Protocol):
    """Told when the lobby changed a table in the database (seats, stakes, bots, pause).

    The table service reloads what it needs; the lobby has already committed.
    """

    async def table_changed(self, table_id: int) -> None: ...

    async def tournament_changed(self, tournament_id: int) -> None: ...

    def tournament_level(self, tournament_id: int, table_ids: list[int]) -> LevelPlayed | None: ...

    async def tell(
        self, table_id: int, player: Player, message: BaseModel
    ) -> dict[str, Any] | None: ...

    async def close_table(self, table_id: int, *, by_host: bool) -> tuple[str, str] | None: ...


class _NobodyWatches:
    async def table_changed(self, table_id: int) -> None:
        return None

    async def tell(
        self, table_id: int, player: Player, message: BaseModel
    ) -> dict[str, Any] | None:
        return None

    async def tournament_changed(self, tournament_id: int) -> None:
        return None

    async def close_table(self, table_id: int, *, by_host: bool) -> tuple[str, str] | None:
        return "table_not_running", "the table is not running"

    def tournament_level(self, tournament_id: int, table_ids: list[int]) -> LevelPlayed | None:
        return None


@dataclass
class RoomContext:
    """The server's shared state, built by the app's lifespan."""

    settings: Settings
    db: Database
    limiter: LoginLimiter
    new_accounts: WindowLimit | None
    """New accounts per address (``None``: no limit)."""
    hasher: PasswordHasher
    now: Callable[[], dt.datetime] = utc_now
    watcher: TableWatcher = field(default_factory=_NobodyWatches)
    lobby: Lobby | None = None
    """The operator's lobby (its file, read at start); ``None``: the default lobby."""
    stats_counted: dict[int, CountedHands] = field(default_factory=dict)
    """The hands ``GET /api/stats`` counted, by account, the most recent asker last."""


def room_context(request: Request) -> RoomContext:
    """The room's context (a FastAPI dependency)."""
    context: RoomContext = request.app.state.room
    return context


async def database_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A database session for one request (a FastAPI dependency); the handler commits.

    A request that changes nothing (GET, HEAD, OPTIONS) reads in a session that only reads
    (:meth:`Database.reading`): on SQLite it takes no write lock, so the lobby's pages
    neither wait for the tables' writer nor hold it up, and they still answer while the
    database refuses writes (a full disk), when only what changes state is refused.
    """
    db = room_context(request).db
    sessions = db.reading if request.method in SAFE_METHODS else db.session
    async with sessions() as session:
        yield session
