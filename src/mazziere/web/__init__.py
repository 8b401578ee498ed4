"""The browser client: static files of the package, served by ``mazziere serve``.

The page (``static/index.html`` and its ES modules, no build step, nothing
fetched from the internet) talks to the room through the lobby's REST API
and the WebSocket ``/ws``.  :func:`install_web` mounts it at ``/`` and adds
the one call the page needs that the room did not have: the name of a hand
(``/api/describe``), so that the page never ranks hands itself and the
rules of hand values stay written once, in :mod:`mazziere.evaluate`.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> install_web(app)
>>> client = TestClient(app)
>>> client.get("/api/describe", params={"rules": "holdem", "cards": "Ah Ad",
...            "board": "Ac Kh Ks 2d 3c", "lang": "en"}).json()["name"]
'full house, aces full of kings'
>>> "<title>Mazziere</title>" in client.get("/").text
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Query
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from mazziere.evaluate import evaluate
from mazziere.rules import UnknownRulesError, find_rules
from mazziere.server.errors import ApiError

__all__ = ["STATIC", "install_web", "router"]

STATIC = Path(__file__).parent / "static"
"""The page's files."""

router = APIRouter(prefix="/api", tags=["client"])


class HandName(BaseModel):
    """A hand in words, as the dealer announces it, and the five cards that make it."""

    name: str
    cards: list[str]


@router.get("/describe", summary="The name of a hand (the showdown's words)")
async def describe(
    rules: Annotated[str, Query(description="The rule set.")],
    cards: Annotated[str, Query(description="The player's cards, space-separated.")],
    board: Annotated[str, Query(description="Hold'em: the board.")] = "",
    players: Annotated[int | None, Query(ge=2, le=10, description="Players dealt in.")] = None,
    lang: Annotated[Literal["it", "en"], Query()] = "it",
) -> HandName:
    try:
        find_rules(rules)
    except UnknownRulesError as error:
        raise ApiError(422, "unknown_rules", str(error)) from None
    try:
        value = evaluate(cards, rules=rules, players=players, board=board or None)
    except ValueError as error:
        raise ApiError(422, "bad_cards", str(error)) from None
    return HandName(name=value.describe(lang), cards=[str(card) for card in value.cards])


def install_web(app: FastAPI) -> None:
    """Serve the page at ``/`` (after every other route of ``app``) and ``/api/describe``."""
    app.include_router(router)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="web")
