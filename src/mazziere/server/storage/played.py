"""The hands the tables played, as the operator reads them: who played which hands, with
whom, and what each won or lost (``mazziere db hands``), and a hand's whole history with
every card (``mazziere db hand``), to look into a player's report (collusion, chips passed
on) before deciding on it (``mazziere db suspend``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.history import phh
from mazziere.server.storage.accounts import account_shown_as
from mazziere.server.storage.models import Hand, HandSeat, RoomTable

__all__ = ["PlayedHand", "hand_history", "payoffs", "played_hands"]


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
