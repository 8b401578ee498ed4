"""The browser client in a real browser: Debian's Chromium driven by Playwright.

Each test starts the real ``mazziere serve`` process (a temporary SQLite
database, a free port of 127.0.0.1) and plays through the page as a person
does: "play now" makes a guest and seats them with bots, and the action
buttons the page builds from the legal actions the room sends are clicked
until the hand is over.  Any error in the browser's console fails the test.
Screenshots of each rule set's table are saved under ``tmp/artifacts/``
(``MAZZIERE_ARTIFACTS`` elsewhere), files of the run, not of the repository.

Only Debian's Chromium (``apt-get install chromium``) is used, never a
browser Playwright downloads; where ``/usr/bin/chromium`` is absent the
tests skip and say so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mazziere.server.settings import Settings
from tests.server_process import RunningServer, serve

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(
    os.environ.get("MAZZIERE_ARTIFACTS", Path(__file__).parent.parent / "tmp/artifacts")
)

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's Chromium is not installed (/usr/bin/chromium: apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is missing")


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    folder = tmp_path_factory.mktemp("web")
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", password_profile="CHEAPEST"
    )
    with pytest.MonkeyPatch.context() as patch:
        # Bots act at once; a pause between hands long enough to see the showdown.
        patch.setenv("MAZZIERE_BOT_SECONDS", "0.05")
        patch.setenv("MAZZIERE_NEXT_HAND_SECONDS", "2")
        with serve(settings, folder) as server:
            yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        yield chromium
        chromium.close()


class Page:
    """One person's browser tab, with every console error it showed."""

    def __init__(self, browser: Any, address: str, lang: str = "it") -> None:
        self.context = browser.new_context(locale=lang, viewport={"width": 1280, "height": 860})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.goto(address)
        self.page.wait_for_selector(".play-now")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def labels(self) -> list[str]:
        return [b.inner_text() for b in self.page.query_selector_all(".actions button[data-kind]")]

    def play_hand(self, rules: str, *, timeout: float = 40.0) -> list[str]:
        """Click actions until a winner is shown; the labels of every button offered."""
        page = self.page
        offered: list[str] = []
        deadline = page.evaluate("performance.now()") + timeout * 1000
        opened = False
        while page.evaluate("performance.now()") < deadline:
            if page.query_selector(".seat.winner"):
                return offered
            buttons = {
                b.get_attribute("data-kind"): b
                for b in page.query_selector_all(".actions button[data-kind]")
            }
            if not buttons:
                page.wait_for_timeout(100)
                continue
            offered += [b.inner_text() for b in buttons.values()]
            if "draw" in buttons:
                page.click(".seat.me .card.clickable >> nth=0")
                self.screenshot(f"{rules}-draw")
                page.click(".actions button[data-kind=draw]")
            elif "bet" in buttons and rules == "italian-classic" and not opened:
                opened = True  # open the pot, so that the hand goes to the draw
                buttons["bet"].click()
            else:
                for kind in ("check", "call", "show", "parol", "muck", "all-in", "fold"):
                    if kind in buttons:
                        buttons[kind].click()
                        break
            page.wait_for_timeout(150)
        raise AssertionError(f"no winner shown in {timeout} s; buttons offered: {offered}")


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32", "holdem"])
def test_a_guest_plays_a_hand_against_bots(room: RunningServer, browser: Any, rules: str) -> None:
    person = Page(browser, room.address, "it")
    try:
        person.page.click(f".play-now[data-rules={rules}]")
        person.page.wait_for_selector(".seat.me")
        offered = person.play_hand(rules)
        person.screenshot(f"{rules}-end")
        log = person.page.inner_text(".log")
        assert "vince" in log  # the running log names who won what
        assert offered, "the guest was never asked to act"
        assert all(not label.isidentifier() or label[0].isupper() for label in offered)
    finally:
        person.close()
