"""The room's databases for tests: every storage and REST test runs on SQLite and PostgreSQL.

The ``room_settings`` fixture gives server settings for a fresh, empty
database: a SQLite file in the test's temporary folder, or a schema of its
own on the PostgreSQL server at 127.0.0.1:5432 (database ``test``, trust
auth), dropped after the test.  Where PostgreSQL does not answer, its runs
are skipped and say why.  ``MAZZIERE_TEST_POSTGRES`` overrides the server's
URL (``postgresql+asyncpg://user@host:port/database``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from mazziere.server.settings import Settings

POSTGRES_URL = os.environ.get(
    "MAZZIERE_TEST_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ("sqlite", "postgresql")

_postgres_problem: list[str | None] = []


def asyncpg_dsn(url: str) -> str:
    """``url`` as asyncpg itself takes it (SQLAlchemy's names its driver)."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _run_sql(statement: str) -> None:
    import asyncpg

    connection = await asyncio.wait_for(asyncpg.connect(asyncpg_dsn(POSTGRES_URL)), timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used here, or ``None`` (asked once per run)."""
    if not _postgres_problem:
        try:
            asyncio.run(_run_sql("SELECT 1"))
        except Exception as exc:  # any failure to connect means: skip, saying why
            _postgres_problem.append(
                f"PostgreSQL at {POSTGRES_URL} does not answer: {type(exc).__name__}: {exc}"
            )
        else:
            _postgres_problem.append(None)
    return _postgres_problem[0]


def backend_settings(backend: str, folder: Path, **overrides: object) -> Iterator[Settings]:
    """Settings for an empty database of ``backend``; PostgreSQL's schema is dropped after.

    Passwords are hashed with argon2-cffi's cheapest profile (still argon2id):
    the room's own costs a second per hash on this machine.
    """
    overrides.setdefault("password_profile", "CHEAPEST")
    if backend == "sqlite":
        yield Settings(database_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", **overrides)  # type: ignore[arg-type]
        return
    problem = postgres_problem()
    if problem is not None:
        pytest.skip(problem)
    schema = f"mazziere_test_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        yield Settings(database_url=POSTGRES_URL, database_schema=schema, **overrides)  # type: ignore[arg-type]
    finally:
        asyncio.run(_run_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


def writing_in_the_loop(settings: Settings) -> Settings:
    """``settings`` with the tables' writes done in the app's own event loop.

    For the tests of routes, in the test's process: the room's writer process
    (the default) takes 2 s to start and stop there, 0.3 s without it, and these
    tests are many.  The tests of the real server (``mazziere serve``) keep it.
    """
    return settings.model_copy(update={"table_writer": "loop"})


@pytest.fixture(params=BACKENDS)
def room_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    """Server settings on a fresh database, once on SQLite and once on PostgreSQL."""
    yield from backend_settings(request.param, tmp_path)
