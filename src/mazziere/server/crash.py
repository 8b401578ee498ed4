"""Crash points: named moments where a test has the server kill itself (SIGKILL); and a
database that refuses writes (:func:`refuse_writes_while`).

A room must survive being killed at any moment without losing or making a chip.  To
check it at the moments that matter most, the server knows a few named points (below);
``MAZZIERE_TEST_CRASH_AT=point`` (or ``point@n``: the n-th time the point is reached, the
first by default) arms one of them when the server starts, and the process kills itself
with SIGKILL when it gets there: no ``finally``, no tidying up, exactly like a power cut
of the process.  ``tests/test_crash_points.py`` starts the real server with each point
armed, plays until it dies, starts it again without it and checks the room
(docs/reliability.md, "Crash points").

Unarmed (production) a point costs one attribute read:

>>> arm(None)
>>> reached("seed-stored")  # nothing happens
>>> arm("mid-draw@3")
>>> ARMED.point, ARMED.times
('mid-draw', 3)
>>> arm("lunch")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: no crash point 'lunch' (known: seed-stored, mid-betting, ...)
>>> arm(None)
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

__all__ = ["ARMED", "POINTS", "arm", "parse", "reached", "refuse_writes_while"]

POINTS: dict[str, str] = {
    "seed-stored": "a hand was dealt and its seed, set-up and seats committed; nobody has "
    "heard of the deal yet",
    "mid-betting": "an action was committed in the middle of a betting round (someone is "
    "still to act in it); it has not been announced",
    "mid-draw": "a player's draw was committed while others are still to draw; it has not "
    "been announced",
    "pot-awarded": "inside the transaction that ends a hand: the hand's result is written, "
    "its ledger movements (rake, cash-outs, prizes) not yet, nothing committed",
    "between-tournament-hands": "a tournament hand's end was committed (eliminations, "
    "prizes); the next hand is not dealt and nobody has heard of the end",
    "level-change": "a tournament's tick dealt the first hand of a new level; killed before "
    "the deal is stored",
    "table-break": "a multi-table tournament broke a table: the command that closed it and "
    "moved its players committed, nobody told of the moves yet",
}
"""Each crash point and the moment it stands for."""


class _Armed:
    """The armed point (``point`` is ``None`` when none is, as in production)."""

    __slots__ = ("count", "point", "server_pid", "times")

    def __init__(self) -> None:
        self.point: str | None = None
        self.times = 1
        self.count = 0
        self.server_pid: int | None = None
        """Set in a child of the server (the table store's writer): the server dies too."""


ARMED = _Armed()
"""What is armed: a hook checks ``ARMED.point`` before working out whether it is there."""


def parse(spec: str) -> tuple[str, int]:
    """``point`` or ``point@n`` as (point, n).

    >>> parse("pot-awarded@2")
    ('pot-awarded', 2)
    >>> parse("seed-stored@0")
    Traceback (most recent call last):
    ...
    ValueError: a crash point fires at its first time or later: 'seed-stored@0'
    """
    name, _, count = spec.strip().partition("@")
    if name not in POINTS:
        raise ValueError(f"no crash point {name!r} (known: {', '.join(POINTS)})")
    try:
        times = int(count) if count else 1
    except ValueError:
        raise ValueError(f"not a crash point: {spec!r} (point or point@n)") from None
    if times < 1:
        raise ValueError(f"a crash point fires at its first time or later: {spec!r}")
    return name, times


def arm(spec: str | None) -> None:
    """Arm the point ``spec`` (``None``: none), counting from zero again."""
    ARMED.point, ARMED.times = (None, 1) if spec is None else parse(spec)
    ARMED.count = 0


def reached(point: str) -> None:
    """The server is at ``point``: if it is the armed one, at its n-th time, die now."""
    if ARMED.point != point:
        return
    ARMED.count += 1
    if ARMED.count < ARMED.times:
        return
    # The line the test (and whoever reads the log) looks for; then no tidying up at all.
    print(f"crash point {point} reached (time {ARMED.count}): killing the server", flush=True)
    sys.stderr.flush()
    if ARMED.server_pid is not None:
        os.kill(ARMED.server_pid, signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)


def refuse_writes_while(engine: Engine, flag: Path) -> None:
    """Tests only: while the file ``flag`` exists, every connection ``engine`` hands out is
    read-only, so the database refuses writes as a full disk or a read-only file would.

    SQLite: ``PRAGMA query_only`` (its ``BEGIN IMMEDIATE`` then fails: "attempt to write a
    readonly database"); PostgreSQL: ``SET TRANSACTION READ ONLY`` (each write fails:
    "cannot execute INSERT in a read-only transaction").  The errors are the databases'
    own; only the switch, set each time a connection leaves the pool (and on SQLite as each
    transaction begins: the table service's writer keeps its connection), is the test's.
    """
    sqlite = engine.dialect.name == "sqlite"

    def checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        refusing = flag.exists()
        if not sqlite and not refusing:
            return
        cursor = dbapi_connection.cursor()
        if sqlite:
            cursor.execute(f"PRAGMA query_only={int(refusing)}")
        else:
            # The driver begins the connection's next transaction with this statement, and
            # the one who took the connection goes on in that transaction.
            cursor.execute("SET TRANSACTION READ ONLY")
        cursor.close()

    event.listen(engine, "checkout", checkout)
    if sqlite:

        def begin(connection: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.startswith("BEGIN"):  # set before the room's BEGIN, which it refuses
                checkout(connection.connection.dbapi_connection, None, None)

        event.listen(engine, "before_cursor_execute", begin)
