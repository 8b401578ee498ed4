"""The REST equivalent of ``mazziere verify-deck``: a history posted, its check answered."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from mazziere.fair import verify
from mazziere.server.app import create_app
from mazziere.server.settings import Settings
from tests.server_client import RoomClient
from tests.test_fair import italian_history, seed_of


def test_post_verify_deck() -> None:
    settings = Settings(database_url="sqlite+aiosqlite:///:memory:", password_profile="CHEAPEST")
    text, _ = italian_history(seed_of(90), "italian-classic", 4, random.Random(12))
    tampered = re.sub(r'_seed = "(.)', lambda m: '_seed = "' + "0f"[m.group(1) == "0"], text)
    with TestClient(create_app(settings)) as client:
        browser = RoomClient(client)
        headers = {"content-type": "text/plain"}
        good = browser.post("/api/verify-deck", content=text, headers=headers)
        assert good.status_code == 200, good.text
        answer = good.json()
        assert answer["fair"] is True
        assert answer["cards_checked"] == verify(text).cards_checked > 20  # deal and draw
        bad = browser.post("/api/verify-deck", content=tampered, headers=headers).json()
        assert bad["fair"] is False and "commitment" in bad["message"]
