"""The FastAPI application: ``create_app(settings)``.

Its lifespan applies the Alembic migrations, opens the default lobby in an
empty database, then starts the room's services (the table service) and
stops them, in reverse order, when the server stops.

>>> from fastapi.testclient import TestClient
>>> settings = Settings(database_url="sqlite+aiosqlite:///:memory:")
>>> with TestClient(create_app(settings)) as client:
...     tables = client.get("/api/tables").json()["tables"]
>>> sorted({table["rules"] for table in tables})
['holdem', 'italian-32', 'italian-classic']
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from fastapi import FastAPI

from mazziere.server import (
    accounts,
    crash,
    hands,
    hints,
    lobby,
    play,
    player_stats,
    private_sit_and_gos,
    private_tables,
    reports,
)
from mazziere.server.context import RoomContext
from mazziere.server.errors import install_error_handlers
from mazziere.server.lobby_file import read_lobby
from mazziere.server.security import CsrfMiddleware, LoginLimiter, WindowLimit, password_hasher
from mazziere.server.settings import Settings
from mazziere.server.storage.database import open_database
from mazziere.server.storage.lobby import open_default_lobby, sync_lobby
from mazziere.server.storage.models import utc_now
from mazziere.server.ws import add_websocket_route
from mazziere.web import install_web

__all__ = ["RoomService", "create_app", "raise_open_files_limit"]

log = logging.getLogger(__name__)

RoomService = Callable[[FastAPI, RoomContext], AbstractAsyncContextManager[None]]
"""A service that runs while the server runs (the table service is one)."""


def raise_open_files_limit() -> int:
    """Raise the soft limit of open files to the hard one; return the limit now.

    Every player holds a socket: the usual soft limit (1,024) would refuse the
    thousand-and-first player, while the hard limit here is 20,000.
    """
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # not allowed here: keep what there is
            return soft
    return wanted


def create_app(
    settings: Settings | None = None,
    *,
    now: Callable[[], dt.datetime] = utc_now,
    services: Sequence[RoomService] = (),
) -> FastAPI:
    """The room's web application for ``settings`` (default: from the environment).

    ``now`` is the wall clock (tests pass their own); ``services`` run from
    start to stop, each given the app and the room's context.
    """
    settings = settings if settings is not None else Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        crash.arm(settings.test_crash_at)  # tests only: None in production
        db = open_database(settings)
        try:
            await db.upgrade()
            offered = None
            if settings.lobby_file is not None:
                offered = read_lobby(settings.lobby_file)
                async with db.session() as session:
                    for line in await sync_lobby(session, offered):
                        log.info("lobby file: %s", line)
                    await session.commit()
            elif settings.open_default_lobby:
                async with db.session() as session:
                    await open_default_lobby(session)
                    await session.commit()
            room = RoomContext(
                settings=settings,
                db=db,
                limiter=LoginLimiter(
                    per_name=settings.login_attempts_per_account,
                    per_address=settings.login_attempts_per_address,
                    window=settings.login_window_seconds,
                ),
                new_accounts=WindowLimit(
                    most=settings.new_accounts_per_address,
                    window=settings.new_accounts_window_seconds,
                )
                if settings.new_accounts_per_address
                else None,
                hasher=password_hasher(settings.password_profile),
                now=now,
                lobby=offered,
            )
            app.state.room = room
            async with AsyncExitStack() as running:
                for service in services:
                    await running.enter_async_context(service(app, room))
                yield
        finally:
            await db.dispose()

    app = FastAPI(
        title="Mazziere",
        summary="An online poker room: Poker all'italiana and Texas Hold'em No-Limit.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # /docs is the web package's: Swagger UI served by the room itself
        redoc_url=None,  # (ReDoc would load from a CDN)
    )
    app.add_middleware(CsrfMiddleware, allowed_origins=settings.public_origins)
    install_error_handlers(app)
    add_websocket_route(app)
    app.include_router(play.router)
    app.include_router(accounts.router)
    app.include_router(lobby.router)
    app.include_router(private_tables.router)
    app.include_router(private_sit_and_gos.router)
    app.include_router(hands.router)
    app.include_router(player_stats.router)
    app.include_router(hints.router)
    app.include_router(reports.router)

    install_web(app)  # the browser client, at / (after every other route)
    return app
