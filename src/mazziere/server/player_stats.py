"""A player's own statistics over REST: ``GET /api/stats``.

The trackers' figures (docs/stats.md: VPIP, PFR, 3-bet, AF, WTSD, W$SD, the
result per 100 hands, and Poker all'italiana's own) over the player's most
recent finished hands, one set per game: each rule set, its cash tables and
its tournaments apart (a tournament's chips are not the wallet's, so their
results per 100 hands cannot be added up).  They are counted by
:class:`~mazziere.history.stats.StatsBook`, the library behind ``mazziere
stats``, on each hand's stored history, so the room and the command count
alike.  Only the player's own figures are given: the hand's other players are
counted under names nobody sees, and the figures come from the actions, the
showdowns and the payoffs, never from a card that was not shown.

Replaying a thousand hands takes a fraction of a second, so the work runs in
a thread (the tables never wait for it), and a player's answer is kept until
another of their hands ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel
from sqlalchemy import select

from mazziere.history import phh
from mazziere.history.replay import ReplayError
from mazziere.history.stats import StatsBook
from mazziere.server.accounts import DbSession, LoggedIn, Room
from mazziere.server.storage.models import Hand, HandSeat

__all__ = ["GameStats", "StatsOut", "count", "router"]

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["hands"])

YOU = "you"
"""The name the player's own seat is counted under (the others': ``other-<position>``)."""

_KEPT_ANSWERS = 4096
"""Players whose last answer the room keeps (the oldest is forgotten first)."""


class GameStats(BaseModel):
    """The player's figures at one game: a rule set's cash tables, or its tournaments."""

    rules: str
    tournament: bool
    stats: dict[str, Any]
    """``PlayerStats.to_dict()`` without the name: the counts, the figures (shares from 0
    to 1, ``None`` where nothing was counted; amounts as text) and, at Poker
    all'italiana, ``italian``."""


class StatsOut(BaseModel):
    """The player's statistics over their most recent finished hands."""

    hands: int
    """The hands counted."""
    limit: int
    """At most this many of the most recent finished hands are counted."""
    skipped: int
    """Hands whose history could not be replayed (none, unless a history is damaged)."""
    games: list[GameStats]
    """Most hands first."""


def count(hands: Sequence[tuple[str, bool, str, str]], limit: int) -> StatsOut:
    """The figures of the player who sat as ``name`` in each ``(rules, tournament, name,
    history)``.

    >>> import random
    >>> from mazziere.game.holdem import HoldemHand
    >>> from mazziere.history.holdem import to_phh
    >>> hand = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(3))
    >>> _ = hand.raise_to(6); _ = hand.fold()  # the button raises, the big blind folds
    >>> history = phh.dumps(to_phh(hand, players=["ann", "bob"]))
    >>> out = count([("holdem", False, "bob", history)], limit=10)
    >>> out.hands, out.games[0].stats["pfr"], out.games[0].stats["net"]
    (1, 1.0, '2')
    >>> "ann" in str(out)
    False
    """
    books: dict[tuple[str, bool], StatsBook] = {}
    skipped = 0
    for rules, tournament, name, history in hands:
        try:
            hand = phh.loads(history)
            players = hand.get("players")
            if not isinstance(players, list) or name not in players:
                raise phh.PHHError("the history does not name the player")
            names = [YOU if player == name else f"other-{i}" for i, player in enumerate(players)]
            books.setdefault((rules, tournament), StatsBook()).add_phh(hand, names)
        except (phh.PHHError, ReplayError, ValueError) as error:
            skipped += 1
            log.warning("a stored hand of %s could not be counted: %s", rules, error)
    games = [
        GameStats(
            rules=rules,
            tournament=tournament,
            stats={k: v for k, v in book.players[YOU].to_dict().items() if k != "name"},
        )
        for (rules, tournament), book in books.items()
        if YOU in book.players
    ]
    games.sort(key=lambda game: -int(game.stats["hands"]))
    return StatsOut(hands=len(hands) - skipped, limit=limit, skipped=skipped, games=games)


@router.get("/stats", summary="Your statistics over your most recent hands")
async def my_stats(
    db: DbSession,
    viewer: LoggedIn,
    room: Room,
    limit: int = Query(default=1000, ge=1, le=5000, description="How many recent hands."),
) -> StatsOut:
    """VPIP, PFR, 3-bet, AF, WTSD, W$SD, the result per 100 hands and Poker all'italiana's
    own figures, per rule set, cash and tournaments apart (docs/stats.md)."""
    account_id = viewer.account.id
    rows = (
        await db.execute(
            select(Hand.id, Hand.rules, Hand.tournament_id, Hand.history, HandSeat.name)
            .join(HandSeat, HandSeat.hand_id == Hand.id)
            .where(
                HandSeat.account_id == account_id,
                Hand.state == "finished",
                Hand.history.is_not(None),
            )
            .order_by(Hand.id.desc())
            .limit(limit)
        )
    ).all()
    key = (rows[0].id if rows else 0, len(rows), limit)
    kept = room.stats_kept.get(account_id)
    if kept is not None and kept[0] == key:
        return kept[1]
    hands = [(r.rules, r.tournament_id is not None, r.name, str(r.history)) for r in rows]
    answer = await asyncio.to_thread(count, hands, limit)
    room.stats_kept.pop(account_id, None)
    room.stats_kept[account_id] = (key, answer)
    while len(room.stats_kept) > _KEPT_ANSWERS:
        room.stats_kept.pop(next(iter(room.stats_kept)))
    return answer
