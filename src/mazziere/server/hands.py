"""A player's hands over REST: the list, a replay, and downloads with only what they may see.

The table service stores every hand's full history (every card, the seed
revealed at the end). A player who was dealt into a hand downloads it as PHH
(the project's Italian extension for the Italian rule sets) with what that
player saw at the table: their own cards, the board, every action, the cards
shown at the showdown, and the seed and commitment published after the hand.
Other players' hole cards, their discards and new cards in the draw, and the
discards reshuffled into a new stock are written ``??``, as PHH writes an
unknown card.

The replay (``/api/hands/<id>/replay``) gives the hand's stored records, each
as the engine lets that player see it (:meth:`~mazziere.game.records.Record.seen_by`,
the view the table sent them while the hand was played), for the browser's
step-by-step replayer. The text download is PokerStars' format for Hold'em and
the project's Italian text export for Poker all'italiana, both written with
the player as the hero: only their own hole cards and draws, and the cards
shown.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from mazziere.cards import Card
from mazziere.game import holdem as _holdem_records  # noqa: F401  (their record classes)
from mazziere.game import italian as _italian_records  # noqa: F401
from mazziere.game.records import Record
from mazziere.history import phh
from mazziere.history.export import TournamentInfo, buy_in_text, export_text
from mazziere.history.replay import ReplayError
from mazziere.server.accounts import DbSession, LoggedIn, Viewer
from mazziere.server.errors import MAX_ID, ApiError, RowId
from mazziere.server.storage.models import (
    Hand,
    HandAction,
    HandSeat,
    RoomTable,
    Tournament,
    TournamentLevel,
)
from mazziere.server.storage.played import payoffs

__all__ = ["player_view", "records_seen_by", "router"]

router = APIRouter(prefix="/api", tags=["hands"])

# Verbs whose cards only their player may see (until shown with ``sm``).
_PRIVATE_CARDS = {("d", "dh"), ("p", "sd")}
# Commentary that says nothing about cards (anything else is left out).
_SAFE_COMMENTS = re.compile(
    r"(timeout|no blind|blind opening|odd chip|parol: the pot is carried"
    r"|dead hand: the pot is carried)"
)


class HandOut(BaseModel):
    """A hand the player was dealt into."""

    id: int
    table_id: int
    table_name: str = ""
    """The table's name, as the lobby shows it."""
    tournament_id: int | None
    number: int
    rules: str
    seat: int
    stack: int
    state: str
    started_at: dt.datetime
    finished_at: dt.datetime | None
    net: int | None = None
    """What the player won (or lost, negative) in the hand, once it is over."""


class HandsOut(BaseModel):
    """The player's hands, newest first."""

    hands: list[HandOut]


class ReplayOut(BaseModel):
    """A finished hand as one player saw it: its seats and its records in order."""

    id: int
    table_id: int
    table_name: str = ""
    """The table's name, as the lobby shows it."""
    tournament_id: int | None
    number: int
    rules: str
    players: list[str]
    """The players' names by position (the order the hand dealt them)."""
    seats: list[int]
    """Their seats, by position."""
    stacks: list[int]
    """Their chips at the start, by position."""
    you: int
    """The viewer's position."""
    records: list[dict[str, Any]]
    result: dict[str, Any]


def _card_record_classes() -> dict[str, type[Record]]:
    """The record classes that hide some of their cards from some viewers, by type."""
    found: dict[str, type[Record]] = {}
    pending: list[type[Record]] = [Record]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            # A record class proper (the shape as_record made), with a view of its own.
            if "_fields" in sub.__dict__ and sub.seen_by is not Record.seen_by:
                found[sub.type] = sub
    return found


_CARD_RECORDS = _card_record_classes()


def _card(text: object) -> Card | None:
    return None if text is None or text == "??" else Card(str(text))


def records_seen_by(records: list[dict[str, Any]], position: int) -> list[dict[str, Any]]:
    """Stored records (``Record.to_dict()``, every card) as the player at ``position`` saw them.

    The record is made again and asked for its own view, so who may see a card
    stays written once, in the engine.

    >>> records_seen_by([{"type": "hole_cards", "position": 1, "cards": ["Ah", "Kd"]},
    ...                  {"type": "hole_cards", "position": 0, "cards": ["2c", "7d"]},
    ...                  {"type": "action", "position": 1, "kind": "fold", "added": 0}], 0)
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'type': 'hole_cards', 'position': 1, 'cards': ['??', '??']},
     {'type': 'hole_cards', 'position': 0, 'cards': ['2c', '7d']},
     {'type': 'action', 'position': 1, 'kind': 'fold', 'added': 0}]
    """
    seen = []
    for data in records:
        kind = _CARD_RECORDS.get(str(data.get("type")))
        if kind is None:
            seen.append(data)
            continue
        values = []
        for name in kind._fields:
            value = data.get(name)
            if name == "cards":
                value = tuple(_card(card) for card in value or ())
            elif name == "card":
                value = _card(value)
            values.append(value)
        made: Record = kind(tuple(values))  # a record is built from the tuple of its fields
        seen.append(made.seen_by(position).to_dict())
    return seen


def _hidden(cards: str) -> str:
    return "??" * len(phh.parse_cards(cards))


def player_view(history: str, position: int) -> str:
    """The PHH text ``history`` as the player at ``position`` (0 for ``p1``) saw the hand.

    >>> full = '''variant = "NT"
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [100, 100]
    ... actions = ["d dh p1 AsKs", "d dh p2 7h2c", "p2 f # timeout"]
    ... '''
    >>> print(player_view(full, 0).splitlines()[-1])
    actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p2 f # timeout']
    """
    hand = phh.loads(history)
    actions: list[str] = []
    for action in hand.parsed_actions():
        if not action.actor:  # a comment line: kept only if it says nothing about cards
            if action.commentary and _SAFE_COMMENTS.fullmatch(action.commentary):
                actions.append(f"# {action.commentary}")
            continue
        words = [action.actor, action.verb, *action.args]
        kind = ("d" if action.actor == "d" else "p", action.verb)
        if kind in _PRIVATE_CARDS:
            owner = _owner(action)
            if owner != position:
                words = [*words[:-1], _hidden(words[-1])] if _has_cards(action) else words
        text = " ".join(words)
        if action.commentary and _SAFE_COMMENTS.fullmatch(action.commentary):
            text += f" # {action.commentary}"
        actions.append(text)
    fields: dict[str, Any] = dict(hand)
    fields["actions"] = actions
    return phh.dumps(fields)


def _owner(action: phh.PhhAction) -> int | None:
    if action.actor == "d":  # d dh pN cards
        return int(action.args[0][1:]) - 1 if action.args else None
    return action.player


def _has_cards(action: phh.PhhAction) -> bool:
    if action.actor == "d":
        return len(action.args) >= 2
    return len(action.args) >= 1


@router.get("/hands", summary="The hands you were dealt into")
async def my_hands(
    db: DbSession,
    viewer: LoggedIn,
    limit: int = Query(default=50, ge=1, le=500),
    before: int | None = Query(
        default=None, ge=1, le=MAX_ID, description="Only hands older than this id."
    ),
) -> HandsOut:
    """Newest first; page with ``before``."""
    query = (
        select(Hand, HandSeat, RoomTable.name)
        .join(HandSeat, HandSeat.hand_id == Hand.id)
        .join(RoomTable, RoomTable.id == Hand.table_id)
        .where(HandSeat.account_id == viewer.account.id)
    )
    if before is not None:
        query = query.where(Hand.id < before)
    rows = await db.execute(query.order_by(Hand.id.desc()).limit(limit))
    return HandsOut(
        hands=[
            HandOut(
                id=hand.id,
                table_id=hand.table_id,
                table_name=table_name,
                tournament_id=hand.tournament_id,
                number=hand.number,
                rules=hand.rules,
                seat=seat.seat,
                stack=seat.stack,
                state=hand.state,
                started_at=hand.started_at,
                finished_at=hand.finished_at,
                net=_net(hand, seat),
            )
            for hand, seat, table_name in rows
        ]
    )


def _net(hand: Hand, seat: HandSeat) -> int | None:
    """The player's payoff in a finished hand (``None`` while it is played)."""
    won = payoffs(hand)
    return None if won is None else won.get(seat.name)


async def _dealt_hand(db: AsyncSession, hand_id: int, viewer: Viewer) -> tuple[Hand, HandSeat]:
    """A finished hand the viewer was dealt into, and their seat (404 otherwise, 409 if on)."""
    found = await db.execute(
        select(Hand, HandSeat)
        .join(HandSeat, HandSeat.hand_id == Hand.id)
        .where(Hand.id == hand_id, HandSeat.account_id == viewer.account.id)
    )
    row = found.first()
    if row is None:
        raise ApiError(404, "no_such_hand", f"you were not dealt into a hand {hand_id}")
    hand, seat = row
    if hand.state != "finished" or hand.history is None:
        raise ApiError(409, "hand_not_over", "the hand is still being played")
    return hand, seat


def _position(hand: Hand, seat: HandSeat) -> int:
    """The seat's position in the hand (the order of the history's players)."""
    names = phh.loads(_history(hand)).get("players")
    if not isinstance(names, list) or seat.name not in names:
        raise ApiError(500, "history_without_players", "the stored hand does not name its players")
    return names.index(seat.name)


@router.get(
    "/hands/{hand_id}/phh",
    summary="Download a hand as PHH, with only what you saw",
    response_class=PlainTextResponse,
)
async def download_hand(hand_id: RowId, db: DbSession, viewer: LoggedIn) -> PlainTextResponse:
    """The hand's PHH as this player saw it (404 for a hand they were not dealt into)."""
    hand, seat = await _dealt_hand(db, hand_id, viewer)
    text = player_view(_history(hand), _position(hand, seat))
    return _attachment(text, "application/toml", f"hand-{hand.id}.phh")


def _history(hand: Hand) -> str:
    """The finished hand's full PHH (``_dealt_hand`` checked that it has one)."""
    assert hand.history is not None
    return hand.history


def _attachment(text: str, media_type: str, filename: str) -> PlainTextResponse:
    """A download: ``text`` saved by the browser as ``filename``."""
    return PlainTextResponse(
        text,
        media_type=f"{media_type}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/hands/{hand_id}/replay", summary="A hand's records as you saw them, to replay it")
async def replay_hand(hand_id: RowId, db: DbSession, viewer: LoggedIn) -> ReplayOut:
    """Every record of the hand in order, as the table showed them to this player."""
    hand, seat = await _dealt_hand(db, hand_id, viewer)
    position = _position(hand, seat)
    seats = {
        row.name: row
        for row in await db.scalars(select(HandSeat).where(HandSeat.hand_id == hand.id))
    }
    names = [str(name) for name in phh.loads(_history(hand))["players"]]
    stored = await db.scalars(
        select(HandAction).where(HandAction.hand_id == hand.id).order_by(HandAction.number)
    )
    assert hand.result is not None
    table_name = await db.scalar(select(RoomTable.name).where(RoomTable.id == hand.table_id))
    return ReplayOut(
        id=hand.id,
        table_id=hand.table_id,
        table_name=table_name or "",
        tournament_id=hand.tournament_id,
        number=hand.number,
        rules=hand.rules,
        players=names,
        seats=[seats[name].seat if name in seats else 0 for name in names],
        stacks=[seats[name].stack if name in seats else 0 for name in names],
        you=position,
        records=records_seen_by([row.data for row in stored], position),
        result=hand.result,
    )


@router.get(
    "/hands/{hand_id}/text",
    summary="Download a hand as text: PokerStars' for Hold'em, the Italian export otherwise",
    response_class=PlainTextResponse,
)
async def download_text(hand_id: RowId, db: DbSession, viewer: LoggedIn) -> PlainTextResponse:
    """The hand written with this player as the hero (only their own hole cards and draws).

    The same function as ``mazziere export`` writes it with; a tournament's
    hand has the tournament's header (its number, buy-in and fee, the level).
    """
    hand, seat = await _dealt_hand(db, hand_id, viewer)
    hero = _position(hand, seat) + 1
    fields = phh.loads(_history(hand)).replace(hand=hand.id)
    tournament = None
    if hand.tournament_id is not None:
        tournament = await _tournament_info(db, hand.tournament_id)
    else:  # named as the lobby names it ("Table 'Classica invito 10'", not its number)
        name = await db.scalar(select(RoomTable.name).where(RoomTable.id == hand.table_id))
        fields = fields.replace(table=name or fields.get("table", ""))
    try:
        text = export_text(fields, hero=hero, tournament=tournament)
    except (phh.PHHError, ReplayError) as exc:
        raise ApiError(
            500, "history_unreadable", f"the stored hand cannot be written: {exc}"
        ) from None
    return _attachment(text, "text/plain", f"hand-{hand.id}.txt")


async def _tournament_info(db: AsyncSession, tournament_id: int) -> TournamentInfo:
    """The tournament's number, buy-in and levels (its breaks left out), for a hand's header."""
    tournament = await db.get(Tournament, tournament_id)
    if tournament is None:
        raise ApiError(500, "history_unreadable", "the hand's tournament is not stored")
    rows = await db.scalars(
        select(TournamentLevel)
        .where(TournamentLevel.tournament_id == tournament_id)
        .order_by(TournamentLevel.number)
    )
    levels = [
        (Decimal(row.small_blind), Decimal(row.big_blind), Decimal(row.ante))
        for row in rows
        if row.small_blind or row.big_blind or row.ante  # a break has no stakes
    ]
    buy_in = buy_in_text(tournament.buy_in, tournament.fee)
    return TournamentInfo(id=tournament.id, buy_in=buy_in, levels=levels)
