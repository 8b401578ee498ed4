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

Each hand is replayed once: its own figures are kept by hand id (the counts
add up, :meth:`PlayerStats.merge`), so after another hand ends only that hand
is read from the database and replayed, and the window's figures are summed
again.  The work runs in a thread (the tables never wait for it); the room
keeps the counted hands of its most recent askers, up to a bound on how many
hands it holds in all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel
from sqlalchemy import select

from mazziere.history import phh
from mazziere.history.replay import ReplayError
from mazziere.history.stats import PlayerStats, StatsBook
from mazziere.server.accounts import DbSession, LoggedIn, Room
from mazziere.server.storage.models import Hand, HandSeat

__all__ = ["CountedHands", "GameStats", "StatsOut", "count", "count_hand", "router"]

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["hands"])

YOU = "you"
"""The name the player's own seat is counted under (the others': ``other-<position>``)."""

KEPT_HANDS = 100_000
"""Hands whose figures the room keeps, all players together (a few hundred bytes each):
past it, the players who asked longest ago are forgotten first (and counted again if they
ask again)."""

Game = tuple[str, bool]
"""A game's figures are counted apart: (rules, tournament)."""


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


@dataclass
class CountedHands:
    """One player's hands counted for ``GET /api/stats``: each hand's own figures by hand
    id (``None``: its history could not be replayed), and the last answer with the window
    it counted."""

    hands: dict[int, tuple[Game, PlayerStats | None]] = field(default_factory=dict)
    window: tuple[int, int, int] | None = None
    """(newest hand id, hands, limit) of ``answer``."""
    answer: StatsOut | None = None


def count_hand(name: str, history: str) -> PlayerStats:
    """The figures of one stored hand for the player who sat in it as ``name`` (counted
    under :data:`YOU`; the others under names nobody sees).  Raises
    :class:`~mazziere.history.phh.PHHError`, :class:`~mazziere.history.replay.ReplayError`
    or :class:`ValueError` for a history that cannot be replayed."""
    hand = phh.loads(history)
    players = hand.get("players")
    if not isinstance(players, list) or name not in players:
        raise phh.PHHError("the history does not name the player")
    book = StatsBook()
    book.add_phh(
        hand, [YOU if player == name else f"other-{i}" for i, player in enumerate(players)]
    )
    return book.players[YOU]


def _counted(rules: str, name: str, history: str) -> PlayerStats | None:
    try:
        return count_hand(name, history)
    except (phh.PHHError, ReplayError, ValueError) as error:
        log.warning("a stored hand of %s could not be counted: %s", rules, error)
        return None


def _summed(window: Sequence[tuple[Game, PlayerStats | None]], limit: int) -> StatsOut:
    """The answer for the hands of ``window``, each with its own figures, most recent first."""
    totals: dict[Game, PlayerStats] = {}
    skipped = 0
    for game, figures in window:
        if figures is None:
            skipped += 1
        else:
            totals.setdefault(game, PlayerStats(YOU)).merge(figures)
    games = [
        GameStats(
            rules=rules,
            tournament=tournament,
            stats={k: v for k, v in total.to_dict().items() if k != "name"},
        )
        for (rules, tournament), total in totals.items()
    ]
    games.sort(key=lambda game: -int(game.stats["hands"]))
    return StatsOut(hands=len(window) - skipped, limit=limit, skipped=skipped, games=games)


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
    window = [
        ((rules, tournament), _counted(rules, name, history))
        for rules, tournament, name, history in hands
    ]
    return _summed(window, limit)


def _count_window(
    rows: Sequence[tuple[int, Game]],
    kept: dict[int, tuple[Game, PlayerStats | None]],
    new: Sequence[tuple[int, str, str, str]],
    limit: int,
) -> tuple[dict[int, tuple[Game, PlayerStats | None]], StatsOut]:
    """The window's hands (``rows``: id and game, most recent first) with their figures,
    those of ``new`` hands (id, rules, name, history) replayed, the rest ``kept``; and the
    answer."""
    replayed = {hand_id: _counted(rules, name, history) for hand_id, rules, name, history in new}
    window = {
        hand_id: (game, replayed[hand_id]) if hand_id in replayed else kept[hand_id]
        for hand_id, game in rows
    }
    return window, _summed(list(window.values()), limit)


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
            select(Hand.id, Hand.rules, Hand.tournament_id, HandSeat.name)
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
    window = (rows[0].id if rows else 0, len(rows), limit)
    kept = room.stats_counted.pop(account_id, None) or CountedHands()
    room.stats_counted[account_id] = kept  # (the most recent asker last)
    if kept.window == window and kept.answer is not None:
        return kept.answer
    # A finished hand's history never changes: only the hands not counted yet are read.
    names = {r.id: r.name for r in rows}
    missing = [r.id for r in rows if r.id not in kept.hands]
    new: list[tuple[int, str, str, str]] = []
    if missing:
        stored = await db.execute(
            select(Hand.id, Hand.rules, Hand.history).where(Hand.id.in_(missing))
        )
        new = [(r.id, r.rules, names[r.id], str(r.history)) for r in stored]
    games = [(r.id, (r.rules, r.tournament_id is not None)) for r in rows]
    hands, answer = await asyncio.to_thread(_count_window, games, kept.hands, new, limit)
    room.stats_counted[account_id] = CountedHands(hands, window, answer)
    _forget_beyond(room.stats_counted, KEPT_HANDS)
    return answer


def _forget_beyond(counted: dict[int, CountedHands], bound: int) -> None:
    """Forget the players who asked longest ago while more than ``bound`` hands are kept
    (the most recent asker is kept whatever their count).

    >>> hands = lambda n: CountedHands({i: (("holdem", False), None) for i in range(n)})
    >>> counted = {7: hands(3), 8: hands(4), 9: hands(5)}
    >>> _forget_beyond(counted, 9); list(counted)
    [8, 9]
    >>> _forget_beyond(counted, 2); list(counted)
    [9]
    """
    total = sum(len(player.hands) for player in counted.values())
    while total > bound and len(counted) > 1:
        total -= len(counted.pop(next(iter(counted))).hands)
