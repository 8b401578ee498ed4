"""The operator's lobby file: read and checked at start (one line for what the room would
refuse), and each start makes the lobby offer what it lists without moving anyone's chips
(SQLite and PostgreSQL); a real server started with one offers exactly its tables."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.server.lobby_file import LobbyFileError, parse_lobby, read_lobby
from mazziere.server.settings import Settings
from mazziere.server.storage import accounts as account_store
from mazziere.server.storage import ledger
from mazziere.server.storage import lobby as lobby_store
from mazziere.server.storage.models import RoomTable, Seat, Tournament, TournamentRegistration
from tests.server_db import backend_settings
from tests.server_process import serve
from tests.test_server_storage import on_database

HOLDEM_TABLE = """
[[table]]
name = "Hold'em del circolo"
rules = "holdem"
seats = 6
small_blind = 1
big_blind = 2
min_buy_in = 40
max_buy_in = 200
"""
THREE_SEATS = (
    HOLDEM_TABLE.replace("Hold'em del circolo", "Tre posti").replace("seats = 6", "seats = 3")
    + "decision_seconds = 5\ntime_bank_seconds = 0\n"
)
"""A small table, full with three (the waiting list's tests), whose hands do not wait long
for a player who does not act."""
CLASSICA_TABLE = """
[[table]]
name = "Classica invito 5"
rules = "italian-classic"
seats = 5
ante = 5
min_buy_in = 100
max_buy_in = 500
bots_allowed = false
"""
SIT_AND_GO = """
[[sit_and_go]]
name = "Sit & go del giovedì"
rules = "italian-32"
buy_in = 50
fee = 5
starting_stack = 2000
seats = 4
max_players = 4
"""
TOURNAMENT = """
[[tournament]]
name = "Torneo del circolo"
rules = "holdem"
buy_in = 100
starting_stack = 1500
seats = 6
max_players = 30
min_players = 3
level_hands = 8
"""
FIRST = HOLDEM_TABLE + CLASSICA_TABLE + SIT_AND_GO + TOURNAMENT

# The next season: the Hold'em table's stakes and the tournament's levels changed, the
# Classica table and the sit & go gone, a new table.
SECOND = (
    HOLDEM_TABLE.replace("small_blind = 1\nbig_blind = 2", "small_blind = 2\nbig_blind = 4")
    + """
[[table]]
name = "32 carte 10/20"
rules = "italian-32"
seats = 5
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
"""
    + TOURNAMENT.replace("level_hands = 8", "level_hands = 12")
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[[table]]\nname = 'x'\n", "table 'x': rules: Field required"),
        ("[[tables]]\n", "tables: Extra inputs are not permitted"),
        ("x = [\n", "not TOML: "),
        (
            "[[table]]\nname = 'x'\nrules = 'poker'\nseats = 2\nmin_buy_in = 1\nmax_buy_in = 2",
            "table 'x': rules: Input should be 'holdem', 'italian-classic' or 'italian-32'",
        ),
        (
            FIRST.replace("seats = 5", "seats = 9"),
            "table 'Classica invito 5': italian-classic tables seat 2 to 6 players, not 9",
        ),
        (
            FIRST.replace("min_buy_in = 100", "min_buy_in = 20"),
            "table 'Classica invito 5': the minimum buy-in is at least 10 times the forced "
            "bet (big blind and ante, or invito): 50 here, not 20",
        ),
        (
            FIRST.replace("max_players = 4", "max_players = 1"),
            "sit_and_go 'Sit & go del giovedì': ",
        ),
        (
            FIRST + FIRST.split("[[sit_and_go]]", maxsplit=1)[0],
            "table 'Classica invito 5' is named twice",
        ),
        (
            FIRST.replace("level_hands = 8", "level_hands = 8\nlevel_minutes = 10"),
            "tournament 'Torneo del circolo': levels last level_hands or level_minutes, not both",
        ),
    ],
)
def test_a_file_the_room_would_refuse_is_refused_in_one_line(text: str, said: str) -> None:
    with pytest.raises(LobbyFileError) as refused:
        parse_lobby(text)
    message = str(refused.value)
    assert message.startswith(said), message
    assert "\n" not in message


def test_the_file_is_read_once_per_start_and_named_in_what_it_says(tmp_path: Path) -> None:
    file = tmp_path / "lobby.toml"
    with pytest.raises(LobbyFileError, match=f"cannot read the lobby file {file}"):
        read_lobby(file)
    file.write_text(FIRST.replace("seats = 5", "seats = 9"), encoding="utf-8")
    with pytest.raises(LobbyFileError, match=f"^{file}: table 'Classica invito 5': "):
        read_lobby(file)
    with pytest.raises(ValueError, match="lobby_file"):
        Settings(lobby_file=file)  # refused with the settings, before the room starts


async def _offered(session: AsyncSession) -> tuple[dict[str, RoomTable], dict[str, Tournament]]:
    tables = await session.scalars(select(RoomTable).where(RoomTable.state != "closed"))
    tournaments = await session.scalars(select(Tournament).where(Tournament.state == "registering"))
    return {t.name: t for t in tables}, {t.name: t for t in tournaments}


def test_each_start_makes_the_lobby_what_the_file_says(room_settings: Settings) -> None:
    first, second = parse_lobby(FIRST), parse_lobby(SECOND)
    now = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)
    every = dt.timedelta(hours=1)

    async def work(session: AsyncSession) -> None:
        said = await lobby_store.sync_lobby(session, first)
        scheduled = await lobby_store.open_scheduled(
            session, now=now, every=every, level_hands=None, specs=first.scheduled
        )
        await session.commit()
        assert len(said) == 3 and all(" opened (number " in line for line in said), said
        tables, tournaments = await _offered(session)
        assert sorted(tables) == ["Classica invito 5", "Hold'em del circolo"]
        assert tables["Classica invito 5"].bots_allowed is False
        assert sorted(tournaments) == ["Sit & go del giovedì", "Torneo del circolo"]
        (event,) = scheduled
        levels = await lobby_store.tournament_levels(session, event.id)
        assert {level.length for level in levels} == {8}
        # The same file again: nothing to do.
        assert await lobby_store.sync_lobby(session, first) == []

        # A player sits at the Hold'em table (80 chips there); a bot at the Classica one.
        holdem, classica = tables["Hold'em del circolo"], tables["Classica invito 5"]
        account = await account_store.create_account(session, grant=1000)
        await ledger.move(session, ledger.Kind.BUY_IN, ledger.wallet_key(account.id),
                          ledger.table_key(holdem.id), 80, account_id=account.id)  # fmt: skip
        session.add(Seat(table_id=holdem.id, seat=0, account_id=account.id, stack=80))
        await ledger.move(session, ledger.Kind.BUY_IN, ledger.GRANTS,
                          ledger.table_key(classica.id), 500)  # fmt: skip
        session.add(Seat(table_id=classica.id, seat=2, bot="basic", stack=500))
        await session.commit()

        said = await lobby_store.sync_lobby(session, second)
        await session.commit()
        assert said == [
            f'table "Hold\'em del circolo" (number {holdem.id}) changed in the lobby file: '
            "players sit there, so it stays as it is until a start or a reading of the file finds "
            "it empty",
            f"table 'Classica invito 5' (number {classica.id}) closed: not in the lobby file",
            f"table '32 carte 10/20' opened (number {classica.id + 1})",
            f"sit & go 'Sit & go del giovedì' (number {tournaments['Sit & go del giovedì'].id})"
            " cancelled: not in the lobby file",
            f"tournament 'Torneo del circolo' (number {event.id}) cancelled: changed in the "
            "lobby file",
            f"tournament 'Torneo del circolo' opened (number {event.id + 1})",
        ]
        tables, tournaments = await _offered(session)
        assert sorted(tables) == ["32 carte 10/20", "Hold'em del circolo"]
        assert tables["Hold'em del circolo"].big_blind == 2  # as it was: a player sits there
        # The bot's chips went back to the grants, the table closed empty.
        assert await ledger.balance(session, ledger.table_key(classica.id)) == 0
        assert await session.scalar(select(Seat).where(Seat.table_id == classica.id)) is None
        # The tournament keeps its start, with the file's levels now.
        (replaced,) = tournaments.values()
        assert replaced.starts_at == event.starts_at and replaced.id == event.id + 1
        levels = await lobby_store.tournament_levels(session, replaced.id)
        assert {level.length for level in levels} == {12}
        total, drifted = await ledger.audit(session)
        assert total == 0 and drifted == []

        # The player leaves (their chips back to the wallet): the next start closes the old
        # table and opens the new one.
        await ledger.move(session, ledger.Kind.CASH_OUT, ledger.table_key(holdem.id),
                          ledger.wallet_key(account.id), 80, account_id=account.id)  # fmt: skip
        await session.delete(await session.scalar(select(Seat).where(Seat.table_id == holdem.id)))
        await session.commit()
        said = await lobby_store.sync_lobby(session, second)
        await session.commit()
        assert said[0] == (
            f'table "Hold\'em del circolo" (number {holdem.id}) closed: changed in the lobby file'
        )
        tables, _ = await _offered(session)
        assert tables["Hold'em del circolo"].big_blind == 4
        assert await lobby_store.sync_lobby(session, second) == []

    on_database(room_settings, work)


def test_a_tournament_with_players_goes_on_and_reopens_as_the_file_says(
    room_settings: Settings,
) -> None:
    first = parse_lobby(FIRST)
    renamed = parse_lobby(FIRST.replace("del giovedì", "del venerdì"))

    async def work(session: AsyncSession) -> None:
        await lobby_store.sync_lobby(session, first)
        _, tournaments = await _offered(session)
        thursday = tournaments["Sit & go del giovedì"]
        account = await account_store.create_account(session, grant=1000)
        session.add(TournamentRegistration(tournament_id=thursday.id, account_id=account.id))
        await session.commit()
        said = await lobby_store.sync_lobby(session, renamed)
        await session.commit()
        assert said == [
            f"sit & go 'Sit & go del giovedì' (number {thursday.id}) not in the lobby file: 1 "
            "registered, so it goes on as it is",
            f"sit & go 'Sit & go del venerdì' opened (number {thursday.id + 1})",
        ]
        # Once full it starts; no other of its name opens (the lobby no longer offers it),
        # while the file's own sit & go reopens as the file says.
        assert await lobby_store.reopen_sit_and_go(session, thursday, renamed) is None
        _, tournaments = await _offered(session)
        friday = tournaments["Sit & go del venerdì"]
        again = await lobby_store.reopen_sit_and_go(session, friday, renamed)
        assert again is not None and (again.name, again.buy_in, again.max_players) == (
            "Sit & go del venerdì", 50, 4,
        )  # fmt: skip

    on_database(room_settings, work)


def test_a_room_started_with_a_lobby_file_offers_its_tables(tmp_path: Path) -> None:
    """The real server: ``mazziere serve`` with a lobby file lists the file's tables and
    tournaments, not the default lobby's, and says what it opened."""
    file = tmp_path / "lobby.toml"
    file.write_text(FIRST, encoding="utf-8")
    for settings in backend_settings("sqlite", tmp_path, lobby_file=file):
        with serve(settings, tmp_path) as server, httpx.Client(base_url=server.address) as http:
            listed = http.get("/api/tables").json()["tables"]
            assert sorted(t["name"] for t in listed) == ["Classica invito 5", "Hold'em del circolo"]
            events = http.get("/api/tournaments").json()["tournaments"]
            assert {t["name"] for t in events} == {"Sit & go del giovedì", "Torneo del circolo"}
        assert "lobby file: table 'Classica invito 5' opened" in server.output()


def test_the_example_of_the_docs_is_a_lobby_the_room_takes() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "server.md").read_text(encoding="utf-8")
    section = docs.split("### The lobby file", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    lobby = parse_lobby(example)
    assert [len(lobby.tables), len(lobby.sit_and_gos), len(lobby.scheduled)] == [1, 1, 1]
    assert lobby.scheduled[0].level_length == 8
    assert (lobby.scheduled[0].break_every, lobby.scheduled[0].break_minutes) == (4, 5)
    assert lobby.scheduled[0].level_unit == "hands"
    by_the_clock = parse_lobby(example.replace("level_hands = 8", "level_minutes = 12"))
    assert (by_the_clock.scheduled[0].level_unit, by_the_clock.scheduled[0].level_length) == (
        "minutes", 12,
    )  # fmt: skip


def test_a_tournament_keeps_its_breaks_in_the_database(room_settings: Settings) -> None:
    """A break after every second level, stored with the levels and read back; the same
    file again finds the tournament as it is."""
    lobby = parse_lobby(FIRST.replace("max_players = 4\n", "max_players = 4\nbreak_every = 2\n"))

    async def work(session: AsyncSession) -> None:
        await lobby_store.sync_lobby(session, lobby)
        await session.commit()
        _, tournaments = await _offered(session)
        stored = await lobby_store.tournament_settings(session, tournaments["Sit & go del giovedì"])
        kinds = [type(item).__name__ for item in stored.schedule.items[:7]]
        assert kinds == ["Level", "Level", "Break", "Level", "Level", "Break", "Level"]
        assert stored.schedule.items[2].minutes == 5  # type: ignore[union-attr]
        rows = await lobby_store.tournament_levels(session, tournaments["Sit & go del giovedì"].id)
        assert [row.break_after for row in rows[:4]] == [0, 5, 0, 5]
        assert await lobby_store.sync_lobby(session, lobby) == []

    on_database(room_settings, work)
