"""Where the table service keeps its tables: the database (SQLAlchemy, SQLite or PostgreSQL).

One :class:`~mazziere.server.tables.Batch` is one transaction: the command
(``table_commands``: what a rebuild replays), the chips it moved (ledger
entries: buy-ins, top-ups, cash-outs, rake), the hand it dealt (``hands``
with the secret seed and its commitment, ``hand_seats``), each record of the
hand in order (``hand_actions``), the hand's result and full history when it
ends, and the seats as they are now (``seats``, read by the lobby).
"""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select

from mazziere.room.structure import Stakes
from mazziere.server.storage import Database, seating
from mazziere.server.storage import ledger as db_ledger
from mazziere.server.storage.models import (
    Hand,
    HandAction,
    HandSeat,
    RoomTable,
    Seat,
    TableCommand,
    Tournament,
    TournamentStanding,
    utc_now,
)
from mazziere.server.tables import Batch, HostControls, StoredCommand, TableStore

__all__ = ["DatabaseTableStore"]


class DatabaseTableStore(TableStore):
    """The table service's store in the room's database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._next: dict[int, int] = {}
        self._hands: dict[tuple[int, int], int] = {}

    async def load(self, table_id: int) -> list[StoredCommand]:
        """Every command of the table, in the order it was applied."""
        async with self.db.session() as session:
            rows = await session.scalars(
                select(TableCommand)
                .where(TableCommand.table_id == table_id)
                .order_by(TableCommand.seq)
            )
            commands = [StoredCommand(row.kind, row.at, dict(row.data)) for row in rows]
        self._next[table_id] = len(commands) + 1
        return commands

    async def wallet(self, account_id: int) -> int:
        """The balance of the player's wallet."""
        async with self.db.session() as session:
            return await db_ledger.balance(session, db_ledger.wallet_key(account_id))

    async def sit_refusal(self, table_id: int, account_id: int) -> tuple[str, str] | None:
        """:func:`mazziere.server.storage.seating.sit_refusal`."""
        async with self.db.session() as session:
            return await seating.sit_refusal(session, table_id, account_id)

    async def controls(self, table_id: int) -> HostControls | None:
        """A private table's pause and wanted stakes, as its host set them."""
        async with self.db.session() as session:
            row = await session.get(RoomTable, table_id)
            if row is None or not row.private:
                return None
            wanted = row.next_stakes or {
                "small_blind": row.small_blind,
                "big_blind": row.big_blind,
                "ante": row.ante,
            }
            return HostControls(paused=row.state == "paused", stakes=Stakes(**wanted))

    async def commit(self, table_id: int, batch: Batch) -> None:
        """Write the batch in one transaction (or nothing, raising)."""
        async with self.db.session() as session:
            seq = self._next.get(table_id)
            if seq is None:
                top = await session.scalar(
                    select(func.max(TableCommand.seq)).where(TableCommand.table_id == table_id)
                )
                seq = int(top or 0) + 1
            command = batch.command
            await session.execute(
                insert(TableCommand),
                [
                    {
                        "table_id": table_id,
                        "seq": seq,
                        "kind": command.kind,
                        "at": command.at,
                        "data": command.data,
                    }
                ],
            )
            hand_id: int | None = None
            start = batch.hand_start
            if start is not None:
                hand = Hand(
                    table_id=table_id,
                    number=start.number,
                    rules=start.rules,
                    seed=start.seed,
                    commitment=start.commitment,
                    setup=start.setup,
                    state="playing",
                )
                session.add(hand)
                await session.flush()
                hand_id = hand.id
                self._hands[(table_id, start.number)] = hand.id
                for seat in start.seats:
                    session.add(
                        HandSeat(
                            hand_id=hand.id,
                            seat=seat["seat"],
                            account_id=seat["account"],
                            bot=seat["bot"],
                            name=seat["name"],
                            stack=seat["stack"],
                        )
                    )
            actions = []
            for number, index, record in batch.records:
                hand_id = await self._hand_id(session, table_id, number)
                actions.append(
                    {
                        "hand_id": hand_id,
                        "number": index,
                        "seat": None,
                        "kind": str(record.get("type", "record"))[:24],
                        "data": record,
                        "created_at": utc_now(),
                    }
                )
            if actions:
                await session.execute(insert(HandAction), actions)
            end = batch.hand_end
            if end is not None:
                found = await self._hand_id(session, table_id, end.number)
                hand_id = found
                ended = await session.get(Hand, found)
                assert ended is not None
                ended.result = end.result
                ended.history = end.history
                ended.state = "finished"
                ended.finished_at = utc_now()
            for move in batch.moves:
                await db_ledger.move(
                    session,
                    db_ledger.Kind(move.kind),
                    move.source,
                    move.destination,
                    move.amount,
                    account_id=move.account_id,
                    table_id=table_id,
                    hand_id=hand_id,
                )
            if batch.seats is not None:
                await self._seats(session, table_id, batch)
            if batch.standings is not None:
                await self._standings(session, table_id, batch.standings)
            if batch.stakes is not None:
                await seating.stakes_taken(session, table_id, batch.stakes)
            if command.kind == "sit" and command.data.get("account") is not None:
                await seating.leave_waiting_list(session, table_id, int(command.data["account"]))
            await session.commit()
        self._next[table_id] = seq + 1

    async def _hand_id(self, session: object, table_id: int, number: int) -> int:
        known = self._hands.get((table_id, number))
        if known is not None:
            return known
        from sqlalchemy.ext.asyncio import AsyncSession

        assert isinstance(session, AsyncSession)
        found = await session.scalar(
            select(Hand.id).where(Hand.table_id == table_id, Hand.number == number)
        )
        assert found is not None, f"hand {number} of table {table_id} was never stored"
        self._hands[(table_id, number)] = int(found)
        return int(found)

    async def _seats(self, session: object, table_id: int, batch: Batch) -> None:
        from sqlalchemy.ext.asyncio import AsyncSession

        assert isinstance(session, AsyncSession)
        await session.execute(delete(Seat).where(Seat.table_id == table_id))
        rows = [
            {
                "table_id": table_id,
                "seat": seat["seat"],
                "account_id": seat["account"],
                "bot": seat["bot"],
                "stack": seat["stack"],
                "sitting_out": seat["status"] == "sitting-out",
                "joined_at": utc_now(),
            }
            for seat in batch.seats or ()
        ]
        if rows:
            await session.execute(insert(Seat), rows)

    async def _standings(
        self, session: object, table_id: int, standings: list[dict[str, object]]
    ) -> None:
        """A tournament that ended: places and prizes, the tournament finished, its table
        closed."""
        from sqlalchemy.ext.asyncio import AsyncSession

        assert isinstance(session, AsyncSession)
        now = utc_now()
        tournament_id = None
        for finish in standings:
            tournament_id = int(str(finish["tournament"]))
            row = await session.get(
                TournamentStanding, (tournament_id, int(str(finish["account"])))
            )
            if row is None:
                row = TournamentStanding(
                    tournament_id=tournament_id, account_id=int(str(finish["account"]))
                )
                session.add(row)
            row.place = int(str(finish["place"]))
            row.prize = int(str(finish["prize"]))
            row.chips = 0
            row.eliminated_at = None if row.place == 1 else now
        if tournament_id is not None:
            tournament = await session.get(Tournament, tournament_id)
            if tournament is not None:
                tournament.state = "finished"
                tournament.finished_at = now
        table = await session.get(RoomTable, table_id)
        if table is not None:
            table.state = "closed"
