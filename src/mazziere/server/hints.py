"""Hints for learners at the room's tables: ``GET /api/tables/{id}/hint``.

The browser's option (off by default) asks for the odds of the player's own
decision (:mod:`mazziere.hints`).  The room decides whether they are offered,
on every request: never at a tournament table; at a cash table only while
every other seat is a bot, or at a table whose host allows hints
(``TableConfig.hints_allowed``).  A hint is worked out only at the player's
own decision and only from their seat's view of the hand (their cards, the
board, how many are still in): never another seat's cards, never the stock.
At Poker all'italiana the hint is the draw's, so it ends with the player's draw.
The work runs in a thread, once per decision, so that the tables never wait
for it.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel

from mazziere.hints import Hint, work_out
from mazziere.server import protocol as p
from mazziere.server.accounts import LoggedIn
from mazziere.server.errors import ApiError
from mazziere.server.tables import TableConfig, TableTask

__all__ = ["HintOut", "refusal", "router"]

router = APIRouter(prefix="/api", tags=["hints"])


class HintOut(BaseModel):
    """Whether hints are offered to this player at this table, and the hint of their decision."""

    offered: bool
    reason: str = ""
    """Why they are not offered."""
    hint: dict[str, Any] | None = None
    """At the player's own decision: ``equity`` (Hold'em) or ``options`` (the ways to draw)."""


def refusal(task: TableTask, name: str) -> str:
    """Why ``name`` may not have hints at ``task``'s table ("" when they may)."""
    if task.tournament is not None:
        return "hints are never offered in tournaments"
    if name not in task.seated:
        return "sit at the table first"
    if isinstance(task.config, TableConfig) and task.config.hints_allowed:
        return ""
    others = [seated for other, seated in task.seated.items() if other != name]
    if others and all(seated.bot is not None for seated in others):
        return ""
    return "hints are offered where every other seat is a bot, or where the host allows them"


_worked: dict[tuple[str, str], tuple[int, asyncio.Future[Hint | None]]] = {}
"""The hint of each player's current decision at each table (one piece of work each)."""


def _question(task: TableTask, name: str) -> tuple[str, Any, Any, int, int] | None:
    """What the hint is worked out from: the seat's own view, at its own decision."""
    table = task.table
    decision = table.decision
    hand: Any = table.hand
    if decision is None or hand is None or decision.name != name:
        return None
    view = hand.view(decision.position)
    mine = decision.position
    cards = tuple(c for c in view.hole[mine] if c is not None)
    if getattr(view, "drawn", (None,) * (mine + 1))[mine] is not None:
        cards = ()  # the player has drawn: the ways to change cards are no longer theirs
    board = tuple(c for c in getattr(view, "board", ()) if c is not None)
    opponents = sum(1 for seat, out in enumerate(view.folded) if seat != mine and not out)
    return table.rules.name, cards, board, opponents, hand.n


@router.get("/tables/{table_id}/hint", summary="The odds of your decision (learners)")
async def table_hint(
    table_id: str,
    request: Request,
    viewer: LoggedIn,
    lang: Annotated[Literal["it", "en"], Query()] = "it",
) -> HintOut:
    running = getattr(request.app.state, "play", None)
    if running is None:
        raise ApiError(503, "not_running", "the tables are not open")
    try:
        task = running.service.find(table_id)
    except p.ProtocolError as error:
        raise ApiError(404, "no_table", error.message) from None
    name = running.service.name_at_tables(viewer.account.id, viewer.account.display_name)
    reason = refusal(task, name)
    if reason:
        return HintOut(offered=False, reason=reason)
    question = _question(task, name)
    if question is None:
        return HintOut(offered=True)
    key = (task.id, name)
    known = _worked.get(key)
    if known is None or known[0] != task.action_id:
        rules, cards, board, opponents, players = question
        work = asyncio.ensure_future(
            asyncio.to_thread(
                work_out, rules, cards, board=board, opponents=opponents, players=players
            )
        )
        known = (task.action_id, work)
        _worked[key] = known
    hint = await known[1]
    return HintOut(offered=True, hint=None if hint is None else hint.to_dict(lang))
