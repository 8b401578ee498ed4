"""The server's settings: one pydantic-settings class.

Every field can be set in the environment as ``MAZZIERE_<FIELD>`` (for
example ``MAZZIERE_DATABASE_URL``), in an optional file of ``KEY=value`` lines
(``Settings.from_file``), or passed directly; the command line's options win
over both.

>>> settings = Settings(database_url="sqlite+aiosqlite:///:memory:", port=8123)
>>> settings.address
'http://127.0.0.1:8123/'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from mazziere.server.checkpoints import CHECKPOINT_EVERY_HANDS

__all__ = ["Settings", "default_database_url", "user_data_folder"]


def user_data_folder() -> Path:
    """The user's data folder for Mazziere: ``$XDG_DATA_HOME/mazziere`` (``~/.local/share/...``)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "mazziere"


def default_database_url() -> str:
    """The default database: a SQLite file ``room.db`` in the user's data folder."""
    return f"sqlite+aiosqlite:///{user_data_folder() / 'room.db'}"


class Settings(BaseSettings):
    """Everything the room can be told at start; amounts are play-money chips."""

    model_config = SettingsConfigDict(
        env_prefix="MAZZIERE_", extra="forbid", validate_default=True, frozen=True
    )

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    database_url: str = Field(default_factory=default_database_url)
    """A SQLAlchemy async URL: ``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://...``."""
    database_schema: str | None = None
    """PostgreSQL only: keep every table in this schema (created if missing)."""
    database_pool_size: int = Field(default=5, ge=1)
    """Connections the server keeps open to the database (the lobby's and the log-ins')."""
    database_pool_overflow: int = Field(default=10, ge=0)
    """Connections it may open beyond those at a busy moment."""
    database_pool_timeout: float = Field(default=30.0, gt=0)
    """Seconds a request waits for a free connection; then it is refused as the database
    being unavailable (HTTP 503, ``storage_unavailable``; a socket closed with 1013)."""
    sqlite_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"
    """SQLite only: ``NORMAL`` (a commit survives the server's crash; the write-ahead log
    is synced at checkpoints) or ``FULL`` (every commit synced to the disk, slower)."""
    public_origins: list[str] = Field(default_factory=list)
    """Extra origins allowed to call the API and open WebSockets (besides the server's own)."""
    cookie_secure: bool = False
    """Send the session cookie only over HTTPS (set behind a TLS proxy)."""
    session_days: int = Field(default=30, ge=1)
    starting_grant: int = Field(default=10_000, ge=0)
    """Play money given to every new account, guests included."""
    daily_top_up: int = Field(default=2_000, ge=0)
    """Play money an account may claim once per (UTC) day."""
    login_attempts_per_account: int = Field(default=5, ge=1)
    login_attempts_per_address: int = Field(default=20, ge=1)
    login_window_seconds: float = Field(default=300.0, gt=0)
    """Failed log-ins counted over this window for the two limits above."""
    new_accounts_per_address: int = Field(default=20, ge=0)
    """New accounts (guests and registrations) one address may make over the window below;
    0: no limit (a load test's bots, all on one machine)."""
    new_accounts_window_seconds: float = Field(default=3_600.0, gt=0)
    password_profile: Literal["RFC_9106_LOW_MEMORY", "RFC_9106_HIGH_MEMORY", "CHEAPEST"] = (
        "RFC_9106_LOW_MEMORY"
    )
    """argon2id parameters (argon2-cffi's profiles); ``CHEAPEST`` only in tests."""
    open_default_lobby: bool = True
    """Open the default tables and sit & gos when the database has none (without a lobby
    file)."""
    lobby_file: Path | None = None
    """The operator's lobby: a TOML file of the cash tables, sit & gos and scheduled
    tournaments the room offers, made so at each start (docs/server.md, *The lobby
    file*); without it the room offers its default lobby."""
    ws_messages_per_second: float = Field(default=50.0, gt=0)
    """Messages a WebSocket may send a second on average (more are refused: rate_limited)."""
    ws_message_burst: int = Field(default=100, ge=1)
    """Messages a WebSocket may send at once before the average above applies."""
    ws_connections_per_account: int = Field(default=5, ge=1)
    """WebSockets one account may have open at once."""
    session_check_seconds: float = Field(default=15.0, gt=0)
    """How often the room closes the sockets of accounts left with no session (ended by
    ``mazziere db reset-password``, or expired): a socket checks its session when it opens."""
    bot_seconds: float = Field(default=0.8, ge=0)
    """How long a bot takes to act (0 in tests)."""
    warm_up_bots: bool = True
    """Build the strong bot's tables in the background at start (``mazziere serve``), so its
    first decision at each deck does not hold the tables up (server/warm.py)."""
    checkpoint_hands: int = Field(default=CHECKPOINT_EVERY_HANDS, ge=0)
    """A cash table writes its state down every this many hands, so that a restart replays
    at most that many of its hands (0: never; server/checkpoints.py)."""
    next_hand_seconds: float = Field(default=2.0, ge=0)
    """The pause between the end of a hand and the next deal."""
    seat_kept_seconds: float = Field(default=60.0, gt=0)
    """How long a free seat is kept for the first player of a table's waiting list, who is
    told so (they lose their place if they have not sat by then)."""
    private_table_idle_days: float = Field(default=7.0, ge=0)
    """A private table where no person sits and no chip has moved for this many days is
    closed, as its host would (its bots leave): a table its host forgot keeps no bots and
    no task for ever.  0: never."""
    scheduled_every_seconds: int = Field(default=3_600, ge=0)
    """The lobby's scheduled multi-table tournaments of each rule set start this often
    (the next one opens as one starts); 0: the room opens none."""
    scheduled_level_hands: int = Field(default=10, ge=1)
    """The length of a level of the default lobby's scheduled tournaments, in hands (a lobby
    file gives each tournament's)."""
    table_writer: Literal["process", "loop"] = "process"
    """Where the table service's group commits are written: ``process``, a child process of
    the server's (the database's share of each action on another core), or ``loop``, the
    server's own event loop.  An in-memory database is always written on the loop (a child
    could not see it)."""
    test_crash_at: str | None = None
    """Tests only: the crash point armed at start, ``point`` or ``point@n`` (the server
    kills itself there: :mod:`mazziere.server.crash`); never set in production."""

    test_refuse_writes_while: Path | None = None
    """Tests only: while this file exists the room's database transactions are read-only
    (the database refuses writes: :func:`mazziere.server.crash.refuse_writes_while`)."""

    @field_validator("database_url")
    @classmethod
    def _room_database(cls, url: str) -> str:
        from mazziere.server.storage.database import room_database_url

        return room_database_url(url)  # refused at start, in one line, not deep in a driver

    @field_validator("lobby_file")
    @classmethod
    def _readable_lobby(cls, path: Path | None) -> Path | None:
        if path is not None:
            from mazziere.server.lobby_file import read_lobby

            read_lobby(path)  # a file the room would refuse is refused at start, in one line
        return path

    @field_validator("test_crash_at")
    @classmethod
    def _known_crash_point(cls, spec: str | None) -> str | None:
        if spec is not None:
            from mazziere.server.crash import parse

            parse(spec)  # a misspelt point is refused at start, not silently never reached
        return spec

    @property
    def address(self) -> str:
        """The address to open in a browser."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @classmethod
    def from_file(cls, path: Path | str | None, **overrides: Any) -> Settings:
        """Settings from the environment, an optional ``KEY=value`` file, then ``overrides``.

        Keys in the file are the environment's (``MAZZIERE_PORT=8001``).  A
        missing file is an error, never silently ignored.
        """
        given = {key: value for key, value in overrides.items() if value is not None}
        if path is None:
            return cls(**given)
        file = Path(path)
        if not file.is_file():
            raise ValueError(f"settings file not found: {file}")
        _check_settings_file(file)
        return cls(_env_file=file, **given)  # type: ignore[call-arg]


def _check_settings_file(file: Path) -> None:
    """A ``ValueError`` naming the first line of ``file`` that is not ``KEY=value``.

    pydantic-settings reads the file with python-dotenv, which only logs a
    warning for a line it cannot parse and skips it (and takes a line without
    ``=`` as a key without a value): a room would start on settings other than
    those written.  The file is read here with the same parser, first.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     file = Path(folder) / "room.env"
    ...     _ = file.write_text("MAZZIERE_PORT=8001\\n\\n# the host\\nGARBAGE LINE\\n")
    ...     _check_settings_file(file)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../room.env, line 4: not a KEY=value line: 'GARBAGE LINE'
    """
    import io

    from dotenv.parser import parse_stream  # python-dotenv: pydantic-settings' own reader

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the settings file {file}: {error}") from None
    for statement in parse_stream(io.StringIO(text)):
        if statement.error or (statement.key is not None and statement.value is None):
            written = statement.original.string
            # A statement's text starts with the blank lines before it.
            blank = written[: len(written) - len(written.lstrip())]
            line = statement.original.line + blank.count("\n")
            raise ValueError(f"{file}, line {line}: not a KEY=value line: {written.strip()!r}")
