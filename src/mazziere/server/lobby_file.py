"""The operator's lobby: the cash tables, sit & gos and scheduled tournaments a room
offers, written in a TOML file (``MAZZIERE_LOBBY_FILE``, ``mazziere serve --lobby``).

Without a file the room offers :data:`~mazziere.server.storage.lobby.DEFAULT_LOBBY`.
Each entry is checked by the room's own settings classes (the stakes of its rule set,
buy-ins, seats), so a file the room would refuse is refused whole at start, with the
entry named. What a start does with the file is
:func:`mazziere.server.storage.lobby.sync_lobby`'s (docs/server.md, *The lobby file*).

>>> lobby = parse_lobby('''
... [[table]]
... name = "Classica invito 5"
... rules = "italian-classic"
... seats = 5
... ante = 5
... min_buy_in = 100
... max_buy_in = 500
...
... [[sit_and_go]]
... name = "Sit & go del circolo"
... rules = "holdem"
... buy_in = 50
... starting_stack = 1500
... seats = 6
... max_players = 6
... ''')
>>> [t.name for t in lobby.tables], [s.max_players for s in lobby.sit_and_gos]
(['Classica invito 5'], [6])
>>> parse_lobby('[[table]]\\nname = "x"\\nrules = "holdem"\\nseats = 6\\nmin_buy_in = 10\\n'
...             'max_buy_in = 200\\nsmall_blind = 1\\nbig_blind = 2')
Traceback (most recent call last):
...
mazziere.server.lobby_file.LobbyFileError: table 'x': the minimum buy-in is at least 10 times ...
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from mazziere.room.errors import RoomError
from mazziere.room.structure import Stakes
from mazziere.server.storage.lobby import (
    Lobby,
    TableSpec,
    TournamentSpec,
    check_table_spec,
    check_tournament_spec,
)

__all__ = ["LobbyFileError", "parse_lobby", "read_lobby"]

RuleSetName = Literal["holdem", "italian-classic", "italian-32"]


class LobbyFileError(ValueError):
    """The lobby file cannot be read or names something the room refuses (one line)."""


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=40)
    rules: RuleSetName
    seats: int


class _Table(_Entry):
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    min_buy_in: int
    max_buy_in: int
    decision_seconds: int = Field(default=30, ge=5, le=600)
    time_bank_seconds: int = Field(default=60, ge=0, le=3600)
    bots_allowed: bool = True
    hints_allowed: bool = False

    def spec(self) -> TableSpec:
        stakes = Stakes(small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante)
        return TableSpec(
            name=self.name,
            rules=self.rules,
            seats=self.seats,
            stakes=stakes,
            min_buy_in=self.min_buy_in,
            max_buy_in=self.max_buy_in,
            decision_seconds=self.decision_seconds,
            time_bank_seconds=self.time_bank_seconds,
            bots_allowed=self.bots_allowed,
            hints_allowed=self.hints_allowed,
        )


class _Tournament(_Entry):
    buy_in: int
    fee: int = 0
    starting_stack: int
    max_players: int
    min_players: int = 2
    level_hands: int | None = Field(default=None, ge=1, le=1000)
    """Hands of each level (10 unless ``level_minutes`` is given)."""
    level_minutes: int | None = Field(default=None, ge=1, le=120)
    """Minutes of each level instead (one clock for all the tournament's tables)."""
    break_every: int = Field(default=0, ge=0, le=100)
    """A break after every this many levels (0: none), each table pausing on its own."""
    break_minutes: int = Field(default=5, ge=1, le=60)

    @model_validator(mode="after")
    def _one_kind_of_level(self) -> _Tournament:
        if self.level_hands is not None and self.level_minutes is not None:
            raise ValueError("levels last level_hands or level_minutes, not both")
        return self

    def spec(self) -> TournamentSpec:
        return TournamentSpec(
            name=self.name,
            rules=self.rules,
            buy_in=self.buy_in,
            fee=self.fee,
            starting_stack=self.starting_stack,
            seats=self.seats,
            max_players=self.max_players,
            min_players=self.min_players,
            level_unit="hands" if self.level_minutes is None else "minutes",
            level_length=self.level_minutes or self.level_hands or 10,
            break_every=self.break_every,
            break_minutes=self.break_minutes,
        )


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: list[_Table] = []
    sit_and_go: list[_Tournament] = []
    tournament: list[_Tournament] = []
    """Scheduled tournaments: one of each is open for registration, starting every
    ``MAZZIERE_SCHEDULED_EVERY_SECONDS``."""


def parse_lobby(text: str) -> Lobby:
    """The lobby a file's ``text`` describes; :class:`LobbyFileError` (one line) if the
    room would refuse any of it."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LobbyFileError(f"not TOML: {error}") from None
    try:
        file = _File.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = first["loc"]  # ("table", 0, "seats"): the entry by its place in its list
        entry, field = "", ".".join(str(part) for part in where)
        if len(where) > 1 and isinstance(where[1], int):
            kind, index = str(where[0]), where[1]
            listed = data.get(kind)
            found = listed[index] if isinstance(listed, list) else None
            name = found.get("name") if isinstance(found, dict) else None
            entry = f"{kind} {name!r}: " if isinstance(name, str) else f"{kind} {index + 1}: "
            field = ".".join(str(part) for part in where[2:])
        # A check of the entry's own says its words (without pydantic's "Value error, ").
        said = first["ctx"]["error"] if first["type"] == "value_error" else first["msg"]
        raise LobbyFileError(f"{entry}{field}: {said}" if field else f"{entry}{said}") from None
    for kind, entries in (("table", file.table), ("sit_and_go", file.sit_and_go),
                          ("tournament", file.tournament)):  # fmt: skip
        names = [entry.name for entry in entries]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise LobbyFileError(f"{kind} {twice[0]!r} is named twice")
    tables = tuple(entry.spec() for entry in file.table)
    sit_and_gos = tuple(entry.spec() for entry in file.sit_and_go)
    scheduled = tuple(entry.spec() for entry in file.tournament)
    # The room's own checks, each entry named in what it says.
    for table in tables:
        try:
            check_table_spec(table)
        except (RoomError, ValueError) as error:
            raise LobbyFileError(f"table {table.name!r}: {error}") from None
    for kind, specs in (("sit_and_go", sit_and_gos), ("tournament", scheduled)):
        for spec in specs:
            try:
                check_tournament_spec(spec, scheduled=kind == "tournament")
            except (RoomError, ValueError) as error:
                raise LobbyFileError(f"{kind} {spec.name!r}: {error}") from None
    return Lobby(tables=tables, sit_and_gos=sit_and_gos, scheduled=scheduled)


def read_lobby(path: Path | str) -> Lobby:
    """The lobby of the file at ``path`` (:class:`LobbyFileError` if unreadable or refused,
    the file named)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LobbyFileError(f"cannot read the lobby file {file}: {error}") from None
    try:
        return parse_lobby(text)
    except LobbyFileError as error:
        raise LobbyFileError(f"{file}: {error}") from None
