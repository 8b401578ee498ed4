"""A player's hands over REST: the list, and each one as PHH with only what they may see.

The table service stores every hand's full history (every card, the seed
revealed at the end). A player who was dealt into a hand downloads it as PHH
(the project's Italian extension for the Italian rule sets) with what that
player saw at the table: their own cards, the board, every action, the cards
shown at the showdown, and the seed and commitment published after the hand.
Other players' hole cards, their discards and new cards in the draw, and the
discards reshuffled into a new stock are written ``??``, as PHH writes an
unknown card.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel
from sqlalchemy import select

from mazziere.history import phh
from mazziere.server.accounts import DbSession, LoggedIn
from mazziere.server.errors import MAX_ID, ApiError, RowId
from mazziere.server.storage.models import Hand, HandSeat

__all__ = ["player_view", "router"]

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
    tournament_id: int | None
    number: int
    rules: str
    seat: int
    stack: int
    state: str
    started_at: dt.datetime
    finished_at: dt.datetime | None


class HandsOut(BaseModel):
    """The player's hands, newest first."""

    hands: list[HandOut]


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
        select(Hand, HandSeat)
        .join(HandSeat, HandSeat.hand_id == Hand.id)
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
                tournament_id=hand.tournament_id,
                number=hand.number,
                rules=hand.rules,
                seat=seat.seat,
                stack=seat.stack,
                state=hand.state,
                started_at=hand.started_at,
                finished_at=hand.finished_at,
            )
            for hand, seat in rows
        ]
    )


@router.get(
    "/hands/{hand_id}/phh",
    summary="Download a hand as PHH, with only what you saw",
    response_class=PlainTextResponse,
)
async def download_hand(hand_id: RowId, db: DbSession, viewer: LoggedIn) -> PlainTextResponse:
    """The hand's PHH as this player saw it (404 for a hand they were not dealt into)."""
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
    names = phh.loads(hand.history).get("players")
    if not isinstance(names, list) or seat.name not in names:
        raise ApiError(500, "history_without_players", "the stored hand does not name its players")
    text = player_view(hand.history, names.index(seat.name))
    return PlainTextResponse(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="hand-{hand.id}.phh"'},
    )
