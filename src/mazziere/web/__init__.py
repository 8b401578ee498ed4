"""The browser client: static files of the package, served by ``mazziere serve``.

The page (``static/index.html`` and its ES modules, no build step, nothing
fetched from the internet) talks to the room through the lobby's REST API
and the WebSocket ``/ws``.  :func:`install_web` mounts it at ``/`` and adds
the one call the page needs that the room did not have: the name of a hand
(``/api/describe``), so that the page never ranks hands itself and the
rules of hand values stay written once, in :mod:`mazziere.evaluate`.  The
API's own page, ``/docs``, is Swagger UI served from ``static/vendor`` (not
from a CDN), so that it too loads nothing from the internet.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI(docs_url=None)  # (FastAPI's own /docs loads from a CDN)
>>> install_web(app)
>>> client = TestClient(app)
>>> client.get("/api/describe", params={"rules": "holdem", "cards": "Ah Ad",
...            "board": "Ac Kh Ks 2d 3c", "lang": "en"}).json()["name"]
'full house, aces full of kings'
>>> "<title>Mazziere</title>" in client.get("/").text
True
>>> page = client.get("/docs").text
>>> f"{SWAGGER_UI}/swagger-ui-bundle.js" in page and "https://" not in page
True
>>> client.get(f"{SWAGGER_UI}/swagger-ui.css").status_code
200
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Query
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from mazziere.evaluate import evaluate
from mazziere.rules import UnknownRulesError, find_rules
from mazziere.server.errors import ApiError

__all__ = ["STATIC", "SWAGGER_UI", "install_web", "router"]

STATIC = Path(__file__).parent / "static"
"""The page's files."""

SWAGGER_UI = "/vendor/swagger-ui"
"""Where the vendored Swagger UI is served (static/vendor/swagger-ui/README.md)."""

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
    """Serve the page at ``/`` (after every other route of ``app``), ``/api/describe``, and
    the API's page at ``/docs`` (``app`` made with ``docs_url=None``: FastAPI's own loads
    Swagger UI from a CDN)."""
    app.include_router(router)

    @app.get("/docs", include_in_schema=False)
    async def api_page() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: API",
            swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png",
            # (no validator badge: it is an image from validator.swagger.io)
            swagger_ui_parameters={"validatorUrl": None},
        )

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="web")
