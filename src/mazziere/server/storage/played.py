"""The tables and the hands they played, as the operator reads them: who sits where now
(``mazziere db tables``: before a restart, say), who played which hands, with whom, and
what each won or lost (``mazziere db hands``), and a hand's whole history with every card
(``mazziere db hand``), to look into a player's report (collusion, chips passed on)
before deciding on it (``mazziere db suspend``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.history import phh
from mazziere.server.storage import ledger
from mazziere.server.storage.accounts import account_shown_as
from mazziere.server.storage.models import Account, Hand, HandSeat, RoomTable, Seat

__all__ = ["PlayedHand", "TableNow", "hand_history", "payoffs", "played_hands", "tables_now"]


@dataclass(frozen=True, slots=True)
class TableNow:
    """An open table as it stands: what kind, who sits where with how many chips, the hand
    being played (``None``: none), and a cash table's chips (its ledger account: the seats'
    and a pot's; ``None`` for a tournament's table, whose chips are the tournament's)."""

    id: int
    name: str
    rules: str
    kind: str
    seats: tuple[tuple[int, str, int, bool], ...]
    playing: int | None
    chips: int | None

    def __str__(self) -> str:
        """The table as the operator reads it.

        >>> print(TableNow(3, "Hold'em 1/2", "holdem", "cash",
        ...       ((1, "anna", 200, False), (4, "bot (basic)", 190, True)), 12, 392))
        ... # doctest: +NORMALIZE_WHITESPACE
        table 3 (Hold'em 1/2) · holdem, cash · seat 1 anna 200, seat 4 bot (basic) 190
        sitting out · hand 12 being played · chips at the table 392
        >>> print(TableNow(9, "Torneo · table 9", "italian-32", "tournament 2", (), None, None))
        table 9 (Torneo · table 9) · italian-32, tournament 2 · nobody sits
        """
        sitting = ", ".join(
            f"seat {seat} {name} {stack}{' sitting out' if out else ''}"
            for seat, name, stack, out in self.seats
        )
        parts = [
            f"table {self.id} ({self.name})",
            f"{self.rules}, {self.kind}",
            sitting or "nobody sits",
        ]
        if self.playing is not None:
            parts.append(f"hand {self.playing} being played")
        if self.chips is not None and (self.seats or self.chips):
            parts.append(f"chips at the table {self.chips}")
        return " · ".join(parts)


async def tables_now(session: AsyncSession, *, empty: bool = False) -> list[TableNow]:
    """The open tables where someone sits (every open table with ``empty``), by number."""
    tables = list(
        await session.scalars(
            select(RoomTable).where(RoomTable.state != "closed").order_by(RoomTable.id)
        )
    )
    seats: dict[int, list[tuple[Seat, Account | None]]] = {}
    for seat, account in await session.execute(
        select(Seat, Account)
        .outerjoin(Account, Account.id == Seat.account_id)
        .where(Seat.table_id.in_([table.id for table in tables]))
        .order_by(Seat.seat)
    ):
        seats.setdefault(seat.table_id, []).append((seat, account))
    playing = dict(
        (await session.execute(select(Hand.table_id, Hand.number).where(Hand.state == "playing")))
        .tuples()
        .all()
    )
    chips = await ledger.balances(session, [ledger.table_key(table.id) for table in tables])
    found = []
    for table in tables:
        sitting = seats.get(table.id, [])
        if not sitting and not empty:
            continue
        cash = table.tournament_id is None
        found.append(
            TableNow(
                id=table.id,
                name=table.name,
                rules=table.rules,
                kind=(
                    f"tournament {table.tournament_id}"
                    if not cash
                    else "private"
                    if table.private
                    else "cash"
                ),
                seats=tuple(
                    (
                        seat.seat,
                        account.display_name if account is not None else f"bot ({seat.bot})",
                        seat.stack,
                        seat.sitting_out,
                    )
                    for seat, account in sitting
                ),
                playing=playing.get(table.id),
                chips=chips[ledger.table_key(table.id)] if cash else None,
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand: where, when it ended, and each player's result (``None`` while it is
    played, or for a hand voided after a failure: its chips went back)."""

    id: int
    table_id: int
    table_name: str
    number: int
    rules: str
    state: str
    finished_at: dt.datetime | None
    results: tuple[tuple[str, int | None], ...]

    def __str__(self) -> str:
        """The hand as the operator reads it.

        >>> at = dt.datetime(2026, 12, 6, 21, 5, tzinfo=dt.UTC)
        >>> print(PlayedHand(41, 3, "Hold'em 1/2", 12, "holdem", "finished", at,
        ...                  (("anna", 40), ("bruno", -38), ("bot-2", -2))))
        2026-12-06 21:05 UTC · hand 41 · table 3 (Hold'em 1/2) #12 · anna +40, bruno -38, bot-2 -2
        >>> print(PlayedHand(42, 3, "Hold'em 1/2", 13, "holdem", "playing", None,
        ...                  (("anna", None), ("bruno", None))))
        being played · hand 42 · table 3 (Hold'em 1/2) #13 · anna, bruno
        """
        when = (
            self.finished_at.strftime("%Y-%m-%d %H:%M UTC")
            if self.finished_at is not None
            else {"playing": "being played"}.get(self.state, self.state)
        )
        results = ", ".join(
            name if result is None else f"{name} {result:+d}" for name, result in self.results
        )
        where = f"table {self.table_id} ({self.table_name}) #{self.number}"
        return f"{when} · hand {self.id} · {where} · {results}"


async def played_hands(
    session: AsyncSession,
    *,
    player: str | None = None,
    with_player: str | None = None,
    table: int | None = None,
    last: int = 20,
) -> list[PlayedHand]:
    """The ``last`` hands dealt (to ``player``, as the tables show them; to ``with_player``
    too; at ``table``), oldest first.  ``LookupError`` for a player the room does not know."""
    query = select(Hand, RoomTable.name).join(RoomTable, RoomTable.id == Hand.table_id)
    for shown in (player, with_player):
        if shown is not None:
            account = await account_shown_as(session, shown)
            dealt = select(HandSeat.hand_id).where(HandSeat.account_id == account.id)
            query = query.where(Hand.id.in_(dealt))
    if table is not None:
        query = query.where(Hand.table_id == table)
    rows = (await session.execute(query.order_by(Hand.id.desc()).limit(last))).all()
    seats: dict[int, list[HandSeat]] = {}
    for seat in await session.scalars(
        select(HandSeat).where(HandSeat.hand_id.in_([hand.id for hand, _ in rows]))
    ):
        seats.setdefault(seat.hand_id, []).append(seat)
    return [
        PlayedHand(
            id=hand.id,
            table_id=hand.table_id,
            table_name=name,
            number=hand.number,
            rules=hand.rules,
            state=hand.state,
            finished_at=hand.finished_at,
            results=_results(hand, seats.get(hand.id, [])),
        )
        for hand, name in reversed(rows)
    ]


def payoffs(hand: Hand) -> dict[str, int] | None:
    """Each player's payoff in a finished hand, by name, in the order of its history (whose
    players the result's payoffs follow); ``None`` while it is played or once voided."""
    if hand.state != "finished" or hand.history is None or hand.result is None:
        return None
    players = phh.loads(hand.history).get("players")
    won = hand.result.get("payoffs")
    if not (isinstance(players, list) and isinstance(won, list) and len(players) == len(won)):
        return None
    return {str(name): int(payoff) for name, payoff in zip(players, won, strict=True)}


def _results(hand: Hand, seats: list[HandSeat]) -> tuple[tuple[str, int | None], ...]:
    """:func:`payoffs`, or the seats' names alone, in seat order, while the hand is played
    or once voided."""
    won = payoffs(hand)
    if won is not None:
        return tuple(won.items())
    return tuple((seat.name, None) for seat in sorted(seats, key=lambda seat: seat.seat))


async def hand_history(session: AsyncSession, hand_id: int) -> str:
    """Hand ``hand_id``'s whole history as the room stored it (PHH: every card, the seed
    revealed).  ``LookupError`` for no such hand, ``ValueError`` for one without a history
    (being played, or voided)."""
    hand = await session.get(Hand, hand_id)
    if hand is None:
        raise LookupError(f"no hand {hand_id}")
    if hand.history is None:
        why = "is being played" if hand.state == "playing" else f"was {hand.state}"
        raise ValueError(f"hand {hand_id} {why}: it has no history")
    return hand.history
