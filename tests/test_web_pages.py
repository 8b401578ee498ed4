"""The browser client's pages in a real browser (Debian's Chromium driven by Playwright).

One real ``mazziere serve`` process serves every test of this module; its
database is made beforehand with the default lobby and one quick sit & go
(two players, Hold'em, 200 chips: a test-only tournament in the test's own
database, nothing of the room's defaults changes).  The pages are driven as
a person drives them: a private table created, its link opened by a friend
in another browser, approved and played at, the settle-up read; the sit &
go registered for, played to its end and its prizes read; a hand played and
then replayed step by step and downloaded; the rules of each game, in
Italian and English, at phone width.  Any console error fails the test.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx2 as httpx
import pytest

from mazziere.server.settings import Settings
from tests.server_process import RunningServer, person_address, serve
from tests.test_web import ARTIFACTS, SentFrames, browser, person_context, sync_api

__all__ = ["browser"]  # the browser fixture, Debian's Chromium, shared with tests/test_web.py

QUICK = "Sit & go lampo"


def prepare(url: str) -> None:
    """The room's database: migrated, the default lobby, and one quick two-player sit & go."""
    from mazziere.server.storage import Database
    from mazziere.server.storage.lobby import TournamentSpec, create_tournament, open_default_lobby

    async def run() -> None:
        db = Database(url)
        try:
            await db.upgrade()
            async with db.session() as session:
                await open_default_lobby(session)
                spec = TournamentSpec(
                    name=QUICK, rules="holdem", buy_in=100, fee=10, starting_stack=200,
                    seats=2, max_players=2, level_length=2,
                )  # fmt: skip
                await create_tournament(session, spec)
                await session.commit()
        finally:
            await db.dispose()

    asyncio.run(run())


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The room's database (SQLite): prepared, then served by :func:`room`."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('web-pages-db') / 'room.db'}"
    prepare(url)
    return url


@pytest.fixture(scope="module")
def refuse_writes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """While this file exists the room's database refuses every write (a test-only setting,
    as a full disk or a read-only file would)."""
    return tmp_path_factory.mktemp("web-pages-refusal") / "refuse-writes"


@pytest.fixture(scope="module")
def room(
    tmp_path_factory: pytest.TempPathFactory, database: str, refuse_writes: Path
) -> Iterator[RunningServer]:
    folder = tmp_path_factory.mktemp("web-pages")
    settings = Settings(database_url=database, password_profile="CHEAPEST")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAZZIERE_TEST_REFUSE_WRITES_WHILE", str(refuse_writes))
        patch.setenv("MAZZIERE_BOT_SECONDS", "0.05")
        patch.setenv("MAZZIERE_NEXT_HAND_SECONDS", "1")
        with serve(settings, folder) as server:
            yield server


class Tab:
    """One person's browser, with every console error it showed."""

    def __init__(
        self,
        browser: Any,
        address: str,
        lang: str = "en",
        *,
        phone: bool = False,
        comes_from: str | None = None,
    ) -> None:
        """``address``: the room's; ``comes_from``: the person's (a new one if not given)."""
        size = {"width": 390, "height": 800} if phone else {"width": 1280, "height": 860}
        self.context = person_context(browser, address=comes_from, locale=lang, viewport=size)
        self.page = self.context.new_page()
        self.address = address
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.sent = SentFrames(self.page)
        self.page.goto(address)
        self.page.wait_for_selector(".play-now")

    def go(self, hash_: str, selector: str) -> None:
        self.page.evaluate(f"location.hash = {hash_!r}")
        self.page.wait_for_selector(selector)

    def balance(self) -> int:
        return int(self.page.inner_text("#who .me").rsplit(" ", 1)[1])

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def act(self, order: tuple[str, ...]) -> bool:
        """Click the first offered action of ``order``; whether one was clicked."""
        offered = self.page.eval_on_selector_all(
            ".actions button[data-kind]", "bs => bs.map(b => b.dataset.kind)"
        )
        for kind in order:
            if kind in offered:
                if kind == "draw":
                    with contextlib.suppress(sync_api.TimeoutError):
                        self.page.click(".seat.me .card.clickable >> nth=0", timeout=1000)
                with contextlib.suppress(sync_api.TimeoutError):
                    self.page.click(f".actions button[data-kind={kind}]", timeout=1000)
                    return True
        return False

    def close(self) -> None:
        self.sent.leave_table()
        self.context.close()
        assert self.errors == [], self.errors


def seated(browser: Any, room: RunningServer, lang: str, rules: str) -> Tab:
    """A guest who pressed "play now" for ``rules`` and sits with bots."""
    person = Tab(browser, room.address, lang)
    person.page.click(f".play-now[data-rules={rules}]")
    person.page.wait_for_selector(".seat.me")
    return person


PASSIVE = ("draw", "check", "call", "show", "muck", "fold")


def test_the_rules_pages_in_italian_and_english_at_phone_width(
    room: RunningServer, browser: Any
) -> None:
    person = Tab(browser, room.address, "it", phone=True)
    page = person.page
    try:
        page.click("#pages a[href='#rules']")  # from the lobby
        page.wait_for_selector("article.rules[data-rules=italian-classic]")
        text = page.inner_text("article.rules")
        for words in ("Colore", "Full", "Jack → Donne → Re", "Parol", "controbuio", "11 − n"):
            assert words in text, words
        # The hand ranking is drawn with the client's cards, highest first: flush above full.
        names = page.eval_on_selector_all(".ranking .hand-name", "ns => ns.map(n => n.innerText)")
        assert names.index("Colore") < names.index("Full")
        assert page.locator(".ranking li >> nth=0 >> svg.card[data-card]").count() == 5
        decks = page.eval_on_selector_all(".decks tbody tr", "rs => rs.map(r => r.innerText)")
        assert [d.split()[-1] for d in decks] == ["24", "28", "32", "36", "40"]
        person.screenshot("rules-classic-phone")
        page.click("a.rules-link[href='#rules/italian-32']")
        page.wait_for_selector("article.rules[data-rules=italian-32]")
        assert "Parole" in page.inner_text("article.rules")
        page.click("#lang")  # the switch: English
        page.wait_for_selector("article.rules >> text=Forced bets")
        page.click("a.rules-link[href='#rules/holdem']")
        page.wait_for_selector("article.rules[data-rules=holdem]")
        names = page.eval_on_selector_all(".ranking .hand-name", "ns => ns.map(n => n.innerText)")
        assert names.index("Full house") < names.index("Flush")  # Hold'em's order
        assert "A-2-3-4-5 is the lowest straight" in page.inner_text("article.rules")
        # Nothing wider than the phone's screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        person.close()


def test_a_held_table_says_so_in_italian_and_goes_on(
    room: RunningServer, refuse_writes: Path, browser: Any
) -> None:
    """The database refuses writes at a player's turn: the table is held, said on the page;
    another player's message meanwhile is refused (storage_unavailable), said in Italian
    (the player who acted waits for their action to be stored); once the database takes
    writes again the table goes on with the action stored."""
    person = seated(browser, room, "it", "holdem")
    page = person.page
    other = Tab(browser, room.address, "it")
    try:
        table = page.evaluate("location.hash").removeprefix("#table/")
        other.go(f"#sit/{table}", ".seat.me")
        page.wait_for_selector(".actions button[data-kind]", timeout=30_000)  # my turn
        refuse_writes.touch()
        try:
            assert person.act(("check", "call", "fold"))
            for someone in (person, other):
                held = someone.page.locator("p.held")
                held.wait_for()
                assert held.inner_text().startswith("Il tavolo è fermo"), held.inner_text()
            other.page.click(".controls button.sit-out")  # a message to the held table
            refusal = other.page.locator("p.error[data-code=storage_unavailable]")
            refusal.wait_for()
            assert refusal.inner_text() == (
                "Il tavolo è fermo finché la sala non riesce a salvare: niente è cambiato, "
                "riprova quando riparte."
            )
            person.screenshot("table-held")
        finally:
            refuse_writes.unlink()
        page.locator("p.held").wait_for(state="detached", timeout=30_000)  # stored: on it goes
        page.wait_for_selector(".log p >> text=/^Tu (bussi|vedi|passi)/")
        # The pages' own requests meanwhile (the session, the balance, the hints) only read:
        # they were answered, so the browser logged no refused request (each tab's errors
        # are checked as it closes).
    finally:
        other.close()
        person.close()


def test_the_rules_are_reachable_from_the_table(room: RunningServer, browser: Any) -> None:
    person = seated(browser, room, "en", "italian-32")
    page = person.page
    try:
        page.click("#pages a[href='#rules']")
        page.wait_for_selector("article.rules[data-rules=italian-32]")  # the table's own game
        page.go_back()
        page.wait_for_selector(".seat.me")
        page.click("button.leave")
        try:
            page.wait_for_selector(".play-now")
        except sync_api.TimeoutError:
            # Once in a clean-clone run the lobby never came back (and no leave was stored):
            # a redraw between the press and the release lost the click (the test below
            # shows it).  Should it come back, what the page showed and said tells why.
            raise AssertionError(
                ("no lobby after leaving", page.evaluate("location.hash"), person.errors,
                 page.inner_text("body")[:500])
            ) from None  # fmt: skip
    finally:
        person.close()


REDRAW = "import('./app.js').then((client) => client.render())"
"""What every message of a table asks of the page, asked at once rather than by chance."""


def _wait_until_left(page: Any, table: str, why: str) -> None:
    """Until nobody is seated at ``table``, as the room's REST route says (a player leaving
    mid-hand goes at its end), for 30 s at most; ``why`` fails the test after that."""
    deadline = time.monotonic() + 30
    while page.evaluate(f"fetch('/api/tables/{table}').then((r) => r.json())")["players"]:
        assert time.monotonic() < deadline, why
        time.sleep(0.2)


def test_the_lobby_follows_the_room_and_keeps_the_focus(room: RunningServer, browser: Any) -> None:
    """The lobby on screen is read again every few seconds: a table another player sits at
    shows them without a reload, and a player on the keyboard keeps the focus on the
    button they were on as the lobby is drawn again."""
    watcher, player = Tab(browser, room.address, "en"), Tab(browser, room.address, "en")
    try:
        page = watcher.page
        tables = page.evaluate("fetch('/api/tables').then(r => r.json())")["tables"]
        empty = next(t for t in tables if t["players"] + t["bots"] == 0 and not t["private"])
        row = f"tr[data-table='{empty['id']}']"
        page.focus(f"{row} button.watch")
        player.page.click(f"{row} button.sit")  # she sits, and calls two bots
        player.page.wait_for_selector(".seat.me")
        page.wait_for_function(
            f"document.querySelector(\"{row} td:nth-child(4)\").innerText.startsWith('3 (2 bot)')",
            timeout=30_000,
        )
        assert page.evaluate("document.activeElement.dataset.keep") == f"watch-{empty['id']}"
    finally:
        player.close()
        watcher.close()


def test_a_click_held_across_a_redraw_is_not_lost(room: RunningServer, browser: Any) -> None:
    """A press and a release with the table's events in between (bots act every 50 ms
    here): the page redrew the table between them, the press's button was gone, the click
    lost, and the player stayed at the table they had left."""
    person = seated(browser, room, "en", "italian-32")
    page = person.page
    try:
        table = page.evaluate("location.hash").split("/")[1]
        page.hover("button.leave")
        page.mouse.down()
        page.evaluate(REDRAW)
        page.wait_for_timeout(300)  # and some of the bots' events
        page.mouse.up()
        page.wait_for_selector(".play-now", timeout=10_000)
        _wait_until_left(page, table, "the player is still seated")
    finally:
        person.close()


def test_leaving_while_the_connection_is_down_still_leaves(
    room: RunningServer, browser: Any
) -> None:
    """A player leaves while their socket is down (closed here as a dropped network would):
    the leave waits for the next socket instead of being dropped with the lobby shown."""
    person = seated(browser, room, "en", "holdem")
    page = person.page
    try:
        table = page.evaluate("location.hash").split("/")[1]
        page.evaluate("import('./app.js').then((client) => client.app.ws.close())")
        page.click("button.leave")
        page.wait_for_selector(".play-now")
        _wait_until_left(page, table, "the leave was lost with the socket")
    finally:
        person.close()


def test_leaving_while_the_lobby_cannot_be_fetched_still_shows_the_lobby(
    room: RunningServer, browser: Any
) -> None:
    """The lobby's list fails to come (a network blip): the player is in the lobby as last
    seen, not left on the table's page."""
    person = seated(browser, room, "en", "holdem")
    page = person.page
    try:
        page.route("**/api/tables", lambda route: route.abort())
        page.click("button.leave")
        page.wait_for_selector(".play-now")
        page.unroute("**/api/tables")
        # The browser reports the refused request itself; nothing else may be an error.
        person.errors = [e for e in person.errors if "net::ERR_FAILED" not in e]
    finally:
        person.close()


def test_a_chat_line_typed_across_redraws_is_kept_whole(room: RunningServer, browser: Any) -> None:
    """The page is drawn anew at each of the table's events: the chat field lost its focus
    and what was typed, and the next letters went to the table's shortcuts (f folds)."""
    person = seated(browser, room, "en", "italian-classic")
    page = person.page
    try:
        page.click("input[data-keep=chat]")
        for part in ("forza ragazzi", ", buona fortuna", " a tutti"):
            page.keyboard.type(part, delay=20)
            page.evaluate(REDRAW)
        assert page.input_value("input[data-keep=chat]") == "forza ragazzi, buona fortuna a tutti"
        page.keyboard.press("Enter")
        page.wait_for_selector(".log p >> text=forza ragazzi, buona fortuna a tutti")
        assert page.input_value("input[data-keep=chat]") == ""
    finally:
        person.close()


def test_the_api_page_loads_nothing_from_the_internet(room: RunningServer, browser: Any) -> None:
    """``/docs``: Swagger UI, served by the room itself, lists the API's operations with
    every request to anywhere but the room refused."""
    person = Tab(browser, room.address, "en")
    page = person.page
    outside: list[str] = []

    def only_the_room(route: Any) -> None:
        if route.request.url.startswith(room.address):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    try:
        page.route("**/*", only_the_room)
        page.goto(room.address + "/docs")
        # (each operation by its summary: Swagger UI breaks paths with zero-width spaces)
        page.wait_for_selector(".opblock-summary-description >> text=Your statistics over")
        assert page.locator(".opblock").count() > 40  # the room's operations, each listed
        assert page.title() == "Mazziere: API"
        assert outside == []
    finally:
        person.close()


def test_a_player_mutes_anothers_chat_and_hears_them_again(
    room: RunningServer, browser: Any
) -> None:
    """Bruno mutes Anna's chat from one of her lines: her lines leave his log, new ones do
    not show, and the choice holds after a reload; his own lines and the game's go on. He
    unmutes her from the note beside the chat field. Anna's page is not touched."""
    anna = seated(browser, room, "en", "holdem")
    bruno = Tab(browser, room.address, "en")
    try:
        table = anna.page.evaluate("location.hash")
        bruno.page.goto(room.address + "/" + table.replace("#table/", "#sit/"))
        bruno.page.wait_for_selector(".seat.me")
        her = anna.page.get_attribute(".seat.me", "data-name")

        def chat(person: Tab, text: str) -> None:
            person.page.fill("input[data-keep=chat]", text)
            person.page.press("input[data-keep=chat]", "Enter")

        def lines(person: Tab) -> list[str]:
            """The chat's lines in the person's log (the game's lines are not chat)."""
            texts: list[str] = person.page.eval_on_selector_all(
                ".log p.chat", "ps => ps.map(p => p.innerText)"
            )
            return texts

        chat(anna, "ciao a tutti")
        bruno.page.wait_for_selector(f".log p >> text={her}: ciao a tutti")
        bruno.screenshot("chat-before-mute")
        assert "null" not in bruno.page.inner_text(".tablewrap")  # nothing muted: no note
        assert anna.page.locator(".log button.mute").count() == 0  # not on her own lines
        bruno.page.click(f'.log button.mute[data-name="{her}"] >> nth=0')
        bruno.page.wait_for_selector(f'.muted-players button.unmute[data-name="{her}"]')
        assert not [line for line in lines(bruno) if line.startswith(f"{her}:")]
        chat(anna, "ancora io")
        chat(bruno, "non ti sento")
        anna.page.wait_for_selector(".log p >> text=non ti sento")
        bruno.page.wait_for_selector(".log p >> text=non ti sento")  # after hers, in order
        assert not [line for line in lines(bruno) if line.startswith(f"{her}:")]
        assert any(line == f"{her}: ancora io" for line in lines(anna))
        bruno.page.reload()
        bruno.page.wait_for_selector(".seat.me")
        bruno.page.wait_for_selector(f'.muted-players button.unmute[data-name="{her}"]')
        chat(anna, "mi senti ora?")
        anna.page.wait_for_selector(".log p >> text=mi senti ora?")
        chat(bruno, "ancora no")
        bruno.page.wait_for_selector(".log p >> text=ancora no")
        assert not [line for line in lines(bruno) if line.startswith(f"{her}:")]
        bruno.screenshot("chat-muted")
        bruno.page.click(f'.muted-players button.unmute[data-name="{her}"]')
        assert bruno.page.locator(".muted-players").count() == 0
        chat(anna, "eccomi")
        bruno.page.wait_for_selector(f".log p >> text={her}: eccomi")
    finally:
        anna.close()
        bruno.close()


def test_a_player_reports_another_from_a_chat_line(
    room: RunningServer, browser: Any, database: str
) -> None:
    """Bruno reports Anna from one of her lines (in Italian): asked why, the report is sent
    and said in his log; a second one within the hour is refused in his log; the operator
    reads it with ``mazziere db reports``."""
    anna = seated(browser, room, "en", "holdem")
    bruno = Tab(browser, room.address, "it")
    try:
        table = anna.page.evaluate("location.hash")
        bruno.page.goto(room.address + "/" + table.replace("#table/", "#sit/"))
        bruno.page.wait_for_selector(".seat.me")
        her = anna.page.get_attribute(".seat.me", "data-name")
        anna.page.fill("input[data-keep=chat]", "siete tutti polli")
        anna.page.press("input[data-keep=chat]", "Enter")
        bruno.page.wait_for_selector(f".log p >> text={her}: siete tutti polli")
        assert anna.page.locator(".log button.report").count() == 0  # not on her own lines
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept("insulti in chat")

        bruno.page.on("dialog", answer)
        bruno.page.click(f'.log button.report[data-name="{her}"] >> nth=0')
        bruno.page.wait_for_selector(f".log p >> text=Hai segnalato {her}")
        assert asked == [f"Perché segnali {her}?"]
        bruno.page.click(f'.log button.report[data-name="{her}"] >> nth=0')
        bruno.page.wait_for_selector(".log p >> text=Hai già segnalato questo giocatore")
        assert bruno.errors == [
            "Failed to load resource: the server responded with a status of 409 (Conflict)"
        ]
        bruno.errors.clear()
        read = subprocess.run(
            [sys.executable, "-m", "mazziere.cli", "db", "reports", "--player", her,
             "--database-url", database],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert read.returncode == 0, read.stderr
        (line,) = read.stdout.splitlines()
        bruno_name = bruno.page.get_attribute(".seat.me", "data-name")
        where = table.removeprefix("#table/")
        assert line.endswith(
            f" UTC · {bruno_name} reported {her} at table {where}: insulti in chat"
        )
    finally:
        anna.close()
        bruno.close()


def test_an_amount_typed_across_a_redraw_keeps_its_focus(room: RunningServer, browser: Any) -> None:
    """The amount field stays the same while the decision does, but a redraw took it out of
    the page and its focus with it: the digits typed next went elsewhere."""
    person = seated(browser, room, "en", "holdem")
    page = person.page
    try:
        # The player's turn to bet or raise. A turn that offers neither (say, a bot's all-in
        # to call) is answered passively: left to run out, it would use up the wait.
        deadline = time.monotonic() + 90  # generous: the machine may be busy
        while not page.query_selector("input.amount"):
            assert time.monotonic() < deadline, "no turn offered an amount"
            person.act(PASSIVE)
            page.wait_for_timeout(200)
        most = page.get_attribute("input.amount", "max")  # typed in two goes, a redraw between
        assert most is not None and len(most) >= 2
        page.click("input.amount")
        page.keyboard.press("Control+A")
        page.keyboard.type(most[0])
        page.evaluate(REDRAW)
        page.keyboard.type(most[1:])
        # A table's event redraws the page after the last digit too (seen under load: the
        # field's change then fired inside the redraw, and Enter changed nothing more, so
        # the button stayed at the smallest raise, and would have raised that).
        page.evaluate(REDRAW)
        assert page.input_value("input.amount") == most
        assert page.evaluate("document.activeElement.dataset.keep") == "amount"
        page.keyboard.press("Enter")  # the amount chosen: the button says it
        sizing = page.inner_text(".actions button[data-kind=raise], .actions button[data-kind=bet]")
        assert most in sizing, sizing
    finally:
        person.close()


def test_the_daily_top_up_is_claimed_from_the_header(room: RunningServer, browser: Any) -> None:
    """A guest claims the day's top-up where the balance is (the page once had no way to):
    the chips come, said with the balance; a second claim is told when the next one comes."""
    person = Tab(browser, room.address, "it")
    page = person.page
    try:
        assert page.locator("#who button.top-up").count() == 0  # a visitor has no wallet
        person.go("#hands", ".page h2")  # a guest is made
        grant, top_up = Settings().starting_grant, Settings().daily_top_up
        assert person.balance() == grant
        page.click("#who button.top-up")
        said = page.locator("#who .top-up-said")
        sync_api.expect(said).to_have_text(f"Ricarica presa: +{top_up} fiches.")
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {grant + top_up}')"
        )
        page.click("#who button.top-up")
        # The weekday as the browser writes it: "lunedì" (the browser's \w is ASCII: five
        # Italian weekdays in seven failed to match it).
        sync_api.expect(said).to_have_text(
            re.compile(r"La ricarica di oggi è già stata presa: la prossima da \S+ \d\d:\d\d\.")
        )
        wallet = page.evaluate("fetch('/api/wallet').then(r => r.json())")
        assert (wallet["balance"], wallet["top_up_available"]) == (grant + top_up, False), wallet
        assert person.balance() == grant + top_up
        # Sitting nowhere, taking a name is said as keeping the account, nothing of a seat.
        page.click("#who button.account:text-is('Registrati')")
        sync_api.expect(page.locator("dialog")).to_contain_text("restano tuoi")
        assert page.locator("dialog .seated-as").count() == 0
    finally:
        person.close()


def create_private_table(host: Tab, name: str, rules: str, **fields: int | bool) -> int:
    """The host creates a private table with the page's form (``fields``: the form's numbers
    and boxes by name); its id, the number at the end of the address."""
    page = host.page
    page.click("#pages a[href='#private']")
    page.wait_for_selector("form.create-private")
    page.fill("form.create-private input[name=name]", name)
    page.select_option("form.create-private select[name=rules]", rules)
    for field, value in fields.items():
        if isinstance(value, bool):
            page.set_checked(f"form.create-private input[name={field}]", value)
        else:
            page.fill(f"form.create-private input[name={field}]", str(value))
    page.click("form.create-private button[type=submit]")
    page.wait_for_selector("input.invite-link")
    return tournament_id(page)


def full_of_bots(host: Tab, name: str, **fields: int | bool) -> tuple[int, str]:
    """A private table of two seats that takes whoever has its invite, both seats the host's
    bots: its id and its invite link."""
    page = host.page
    table_id = create_private_table(
        host, name, "holdem", seats=2, approval_required=False, **fields
    )
    link = page.input_value("input.invite-link")
    for _ in range(2):
        page.click("button.add-bot")
    page.wait_for_function("document.querySelectorAll('ul.bots li[data-bot]').length === 2")
    return table_id, link


def test_the_private_table_form_starts_from_the_home_game_and_keeps_what_was_typed(
    room: RunningServer, browser: Any
) -> None:
    """The form shows the room's home game of the rules chosen (``/api/rule-sets``: the
    values the API gives a table created without them); refused by the room, it keeps
    what the host typed (it once came back with every field at its default)."""
    host = Tab(browser, room.address, "en")
    try:
        page = host.page
        page.click("#pages a[href='#private']")
        page.wait_for_selector("form.create-private")
        form = "form.create-private"

        def shown(*names: str) -> list[str]:
            return [page.input_value(f"{form} [name={name}]") for name in names]

        clock = ("min_buy_in", "max_buy_in", "decision_seconds", "time_bank_seconds")
        sets = page.evaluate("fetch('/api/rule-sets').then((r) => r.json())")["rule_sets"]
        home = {r["name"]: r["home_game"] for r in sets}
        classic = home["italian-classic"]
        assert shown("ante", *clock) == [str(classic[k]) for k in ("ante", *clock)]
        page.select_option(f"{form} select[name=rules]", "holdem")
        assert shown("small_blind", "big_blind") == ["5", "10"]
        page.fill(f"{form} input[name=name]", "Alta")
        page.fill(f"{form} input[name=small_blind]", "50")
        page.fill(f"{form} input[name=big_blind]", "100")
        page.set_checked(f"{form} input[name=approval_required]", False)
        page.click(f"{form} button[type=submit]")  # 200 is not ten big blinds of 100
        page.wait_for_selector(f"{form} >> text=at least 10 times the forced bet")
        assert shown("name", "rules", "small_blind", "big_blind", "min_buy_in") == [
            "Alta", "holdem", "50", "100", "200"
        ]  # fmt: skip
        assert not page.is_checked(f"{form} input[name=approval_required]")
        assert host.errors == [  # the browser's own line for the refusal, and nothing else
            "Failed to load resource: the server responded with a status of 422 "
            "(Unprocessable Entity)"
        ]
        host.errors.clear()
        page.fill(f"{form} input[name=min_buy_in]", "1000")
        page.click(f"{form} button[type=submit]")
        page.wait_for_selector("input.invite-link")
        assert page.inner_text(".stakes-now") == "50/100"
    finally:
        host.close()


def test_a_private_table_from_creation_to_the_settle_up(room: RunningServer, browser: Any) -> None:
    host, friend = Tab(browser, room.address, "en"), Tab(browser, room.address, "it")
    try:
        page = host.page
        create_private_table(
            host, "Thursday game", "holdem", small_blind=1, big_blind=2, seats=4,
            min_buy_in=100, max_buy_in=400,
        )  # fmt: skip
        link = page.input_value("input.invite-link")
        assert re.fullmatch(re.escape(room.address) + r"/#invite/\S+", link), link
        assert page.inner_text(".stakes-now") == "1/2"
        own_page = page.evaluate("location.hash")
        page.click("button.sit-host")  # the host sits down first
        page.wait_for_selector(".seat.me")
        host.go(own_page, "input.invite-link")
        # The friend opens the link and asks to sit.
        friend.page.goto(link)
        friend.page.wait_for_selector("form.ask-to-sit")
        assert "Thursday game" in friend.page.inner_text("h2")
        friend.page.fill("form.ask-to-sit input[name=buy_in]", "300")
        asking = friend.page.locator("form.ask-to-sit button[type=submit]")
        sync_api.expect(asking).to_have_text("Chiedi di sederti")  # the host approves here
        asking.click()
        friend.page.wait_for_selector("text=aspetta che l'host ti accetti")
        # The host sees the request and approves it; the friend's page lets them sit.
        page.wait_for_selector("table.requests tr .approve", timeout=30_000)
        page.click("table.requests tr .approve")
        page.wait_for_selector("table.requests .request-state >> text=approved")
        friend.page.wait_for_selector("button.sit-invited", timeout=30_000)
        assert friend.page.inner_text("button.sit-invited") == "Siediti con 300"
        friend.page.click("button.sit-invited")
        friend.page.wait_for_selector(".seat.me")
        # The host changes the stakes: from the next hand, said on the page.
        page.fill("form.change-stakes input[name=small_blind]", "2")
        page.fill("form.change-stakes input[name=big_blind]", "4")
        page.click("form.change-stakes button[type=submit]")
        page.wait_for_selector(".stakes-now >> text=2/4 from the next hand")
        # They play a hand against each other.
        page.click("button.go-table")
        page.wait_for_selector(".seat.me")
        deadline = time.monotonic() + 90  # generous: the machine may be busy
        while not page.query_selector(".log p.win"):
            assert time.monotonic() < deadline, "no hand was played"
            for person in (host, friend):
                person.act(PASSIVE)
            page.wait_for_timeout(200)
        # The settle-up: each player's buy-in and result, the results adding up to zero.
        page.click("#pages a[href='#private']")
        page.click("ul.private-tables a")
        page.wait_for_selector("table.settle-up")
        page.wait_for_function("document.querySelectorAll('table.settle-up tbody tr').length === 2")
        rows = page.eval_on_selector_all(
            "table.settle-up tbody tr",
            "rs => rs.map(r => [...r.cells].map(c => c.innerText))",
        )
        bought = {row[0]: int(row[1]) for row in rows}
        assert sorted(bought.values()) == [200, 300], rows  # the host's default and the friend's
        for row in rows:
            assert int(row[4]) == int(row[2]) + int(row[3]) - int(row[1]), row
        # The results, the rake and the chips in a hand being played add up to zero.
        table_id = own_page.rsplit("/", 1)[1]
        settle = page.evaluate(
            f"fetch('/api/private-tables/{table_id}/settle-up').then(r => r.json())"
        )
        results = sum(line["result"] for line in settle["players"])
        assert results + settle["rake"] + settle.get("in_pot", 0) == 0, settle
        host.screenshot("private-table-host")
        # Pause and resume, said on the page.
        page.click("button.pause")
        page.wait_for_selector(".table-state >> text=paused")
        page.click("button.resume")
        page.wait_for_selector(".table-state >> text=open")
        # A stranger without the right code finds nothing.
        friend.page.evaluate("location.hash = '#invite/not-a-code'")
        friend.page.wait_for_selector(".page .error")
        # The room's refusal (no_such_invite) said in the page's language, Italian.
        assert friend.page.inner_text(".page .error") == (
            "Questo codice d'invito non apre nessun tavolo."
        )
        friend.errors = [e for e in friend.errors if "404" not in e]  # the browser logs the 404
    finally:
        host.close()
        friend.close()


def test_the_host_sends_a_bot_away_and_the_balance_follows_the_chips(
    room: RunningServer, browser: Any
) -> None:
    """On an Italian page: the host's panel lists the bots, each with its button to send it
    away; the header's balance drops at the buy-in and comes back at the cash-out; the room's
    refusal of a top-up the balance cannot pay is said in Italian."""
    host = Tab(browser, room.address, "it")
    page = host.page
    grant = Settings().starting_grant
    low, high = grant * 4 // 10, grant * 2  # a buy-in of 2 x low; a top-up beyond the balance
    try:
        table_id = create_private_table(
            host, "Bot e saldo", "holdem", seats=3, small_blind=10, big_blind=20,
            min_buy_in=low, max_buy_in=high,
        )  # fmt: skip
        assert host.balance() == grant
        # The host calls a bot without sitting: it is listed with its button, and sent away.
        page.click("button.add-bot")
        bot = page.locator("ul.bots li[data-bot]")
        bot.wait_for()
        name = bot.get_attribute("data-bot")
        # Bots play only with people: alone at the table they deal nothing, and it says so.
        state = page.locator(".table-state")
        sync_api.expect(state).to_have_text("aperto · i bot aspettano che si sieda qualcuno")
        send_away = bot.locator("button.remove-bot")
        assert send_away.get_attribute("aria-label") == f"Manda via il bot {name}"
        send_away.click()
        page.locator("ul.bots").wait_for(state="detached")  # nobody plays: it left at once
        mine = page.evaluate("fetch('/api/private-tables').then(r => r.json())")["tables"]
        table = next(t for t in mine if t["id"] == table_id)
        assert (table["bots"], table["bot_seats"]) == (0, []), table
        sync_api.expect(state).to_have_text("aperto")
        # The host sits: the header's balance drops by the buy-in.
        page.click("button.sit-host")
        page.wait_for_selector(".seat.me")
        buy_in = min(high, 2 * low, grant)
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {grant - buy_in}')"
        )
        # A top-up to the maximum is more than the balance: refused, said in Italian.
        page.click(f"button:text-is('Ricarica a {high}')")
        refusal = page.locator("p.error[data-code=refused]")
        refusal.wait_for()
        assert refusal.inner_text() == (
            "Ricarica rifiutata: il saldo non basta o supera il buy-in massimo."
        )
        assert host.balance() == grant - buy_in
        # Leaving cashes the chips out: the balance is back.
        page.click("button.leave")
        page.wait_for_selector(".play-now")
        page.wait_for_function(f"document.querySelector('#who .me').innerText.endsWith(' {grant}')")
    finally:
        host.close()


def test_the_host_closes_the_table_for_good(room: RunningServer, browser: Any) -> None:
    """On an Italian page: closing is asked twice (a host may think again); closed, the
    host's bots have left with their chips, the page says so and keeps the accounts only,
    and the list of private tables says it is closed.  A friend on the full table's waiting
    list is told on the invite's page that it closed (the page went on waiting)."""
    host, friend = Tab(browser, room.address, "it"), Tab(browser, room.address, "it")
    page = host.page
    try:
        table_id, link = full_of_bots(
            host, "Ultima sera", small_blind=1, big_blind=2, min_buy_in=100, max_buy_in=400
        )
        friend.page.goto(link)
        friend.page.fill("form.ask-to-sit input[name=buy_in]", "200")
        friend.page.click("form.ask-to-sit button[type=submit]")
        friend.page.click("button.wait")
        sync_api.expect(friend.page.locator(".waiting-place")).to_contain_text("sei 1°")
        page.click("button.ask-close")
        sync_api.expect(page.locator("button.close-table")).to_have_text("Sì, chiudi per sempre")
        page.click("button.keep-open")  # thought again: nothing happened
        page.locator("button.ask-close").wait_for()
        sync_api.expect(page.locator(".table-state")).to_contain_text("aperto")
        page.click("button.ask-close")
        page.click("button.close-table")
        sync_api.expect(page.locator(".table-state")).to_have_text("chiuso")
        assert page.inner_text(".closed-note").startswith("Il tavolo è chiuso")
        for gone in ("input.invite-link", ".host-controls", "form.change-stakes", "ul.bots"):
            assert page.locator(gone).count() == 0, gone
        # The bot bought in and went with its chips: its line of the accounts is at zero.
        bots = page.locator("table.settle-up tr[data-player=bot] td")
        sync_api.expect(bots.last).to_have_text("0")
        mine = page.evaluate("fetch('/api/private-tables').then(r => r.json())")["tables"]
        table = next(t for t in mine if t["id"] == table_id)
        assert (table["state"], table["bots"]) == ("closed", 0), table
        page.click("#pages a[href='#private']")
        listed = page.locator("ul.private-tables li", has_text="Ultima sera")
        sync_api.expect(listed.locator(".closed")).to_have_text("chiuso")
        told = friend.page.locator(".page p.error")
        sync_api.expect(told).to_have_text("Il tavolo è chiuso.")
        assert friend.page.locator(".waiting-place, button.unwait").count() == 0
        gone = "Failed to load resource: the server responded with a status of 410 (Gone)"
        assert friend.errors and set(friend.errors) == {gone}, friend.errors  # (each look)
        friend.errors.clear()
    finally:
        host.close()
        friend.close()


def test_reopening_the_site_leads_back_to_the_tables_in_play(
    room: RunningServer, browser: Any
) -> None:
    """A player seated at a cash table (a hand in play with the bots) and at a private table
    closes the page and opens the site again: the lobby lists their tables, each a link back
    to it, named by its name (the lobby once showed no sign of them, and a private table was
    "Table 30")."""
    person = seated(browser, room, "en", "holdem")
    page = person.page
    try:
        cash = page.inner_text(".tablewrap h2").split(" · ")[0]
        create_private_table(
            person, "Back again", "italian-classic", min_buy_in=100, max_buy_in=500
        )
        page.click("button.sit-host")
        page.wait_for_selector(".seat.me")
        page.goto("about:blank")
        page.goto(room.address)
        page.wait_for_selector(".play-now")
        links = page.locator(".my-tables a.my-table")
        sync_api.expect(links).to_have_text([cash, "Back again"])
        person.screenshot("lobby-your-tables")
        links.nth(1).click()
        sync_api.expect(page.locator(".tablewrap h2")).to_have_text(
            "Back again · Poker all'italiana (classic) · invito 10"
        )
        page.click("#home")
        links.nth(0).click()
        page.wait_for_selector(".seat.me")
        assert page.inner_text(".tablewrap h2").startswith(f"{cash} · Texas Hold'em")
    finally:
        person.close()


def test_the_host_chooses_their_buy_in(room: RunningServer, browser: Any) -> None:
    """The host sits at their private table with the buy-in they type, within the table's
    limits (it was always twice the minimum)."""
    host = Tab(browser, room.address, "en")
    page = host.page
    try:
        create_private_table(host, "Mia", "holdem", min_buy_in=100, max_buy_in=1000)
        amount = page.locator("input[name=host_buy_in]")
        assert amount.input_value() == "200"  # twice the minimum, unless the host chooses
        amount.fill("1500")
        page.click("button.sit-host")
        sync_api.expect(page.locator(".page .error")).to_have_text(
            "The buy-in is from 100 to 1000."
        )
        amount.fill("750")
        page.click("button.sit-host")
        sync_api.expect(page.locator(".seat.me .stack")).to_have_text("750")
        grant = Settings().starting_grant
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {grant - 750}')"
        )
    finally:
        host.close()


def test_the_players_see_the_pause_and_the_next_stakes_at_the_table(
    room: RunningServer, browser: Any
) -> None:
    """The host pauses a private table and changes its stakes: the other player's table says
    so (it once said only "waiting for the next hand"), after a reload too, and its title
    says the table's name and stakes, the new ones once the host resumes."""
    host, friend = Tab(browser, room.address, "en"), Tab(browser, room.address, "it")
    try:
        page = host.page
        create_private_table(
            host, "Ritorno", "italian-classic", seats=3, min_buy_in=100, max_buy_in=1000,
            approval_required=False,
        )  # fmt: skip
        own_page = page.evaluate("location.hash")
        link = page.input_value("input.invite-link")
        page.click("button.sit-host")
        page.wait_for_selector(".seat.me")
        friend.page.goto(link)
        friend.page.fill("form.ask-to-sit input[name=buy_in]", "300")
        button = friend.page.locator("form.ask-to-sit button[type=submit]")
        sync_api.expect(button).to_have_text("Siediti")  # no approval to ask for here:
        button.click()  # the one click sits the friend down
        friend.page.wait_for_selector(".seat.me", timeout=30_000)
        title = friend.page.locator(".tablewrap h2")
        sync_api.expect(title).to_have_text("Ritorno · Poker all'italiana (classico) · invito 10")
        # A hand is dealt; the host pauses the table from their page, then plays it out.
        friend.page.wait_for_selector(".log p.head", timeout=30_000)
        host.go(own_page, "button.pause")
        page.click("button.pause")
        page.wait_for_selector("button.resume")
        page.click("button.go-table")
        note = friend.page.locator("p.table-state")
        deadline = time.monotonic() + 90  # generous: the machine may be busy
        while note.all_inner_texts() != ["In pausa: il tavolo riprende quando l'host lo decide."]:
            assert time.monotonic() < deadline, note.all_inner_texts()
            for person in (host, friend):
                person.act(PASSIVE)
            page.wait_for_timeout(200)
        assert "Tavolo in pausa." in friend.page.inner_text(".actions")
        # The stakes change: from the next hand, said at the table, and after a reload.
        host.go(own_page, "form.change-stakes")
        page.fill("form.change-stakes input[name=ante]", "0")  # no invito: refused, and
        page.click("form.change-stakes button[type=submit]")  # what was typed stays there
        page.wait_for_selector("p.error >> text=needs an invito")
        assert page.input_value("form.change-stakes input[name=ante]") == "0"
        assert host.errors == [
            "Failed to load resource: the server responded with a status of 422 "
            "(Unprocessable Entity)"
        ]
        host.errors.clear()
        page.fill("form.change-stakes input[name=ante]", "25")
        page.click("form.change-stakes button[type=submit]")
        page.wait_for_selector(".stakes-now >> text=from the next hand")
        paused_then = (
            "In pausa: il tavolo riprende quando l'host lo decide. Dalla prossima mano: invito 25."
        )
        sync_api.expect(note).to_have_text(paused_then)
        friend.page.reload()
        friend.page.wait_for_selector(".seat.me")
        sync_api.expect(note).to_have_text(paused_then)
        sync_api.expect(title).to_have_text("Ritorno · Poker all'italiana (classico) · invito 10")
        friend.screenshot("private-table-paused")
        # The host resumes: the next hand is dealt at the new stakes.
        host.go(own_page, "button.resume")
        page.click("button.resume")
        sync_api.expect(title).to_have_text(
            "Ritorno · Poker all'italiana (classico) · invito 25", timeout=30_000
        )
        sync_api.expect(note).to_have_count(0)
    finally:
        host.close()
        friend.close()


def test_a_top_up_between_hands_shows_at_the_seat(room: RunningServer, browser: Any) -> None:
    """The host of a paused table tops up after a hand: the seat shows the new stack (it
    once showed the finished hand's stack until the next hand), the balance pays for it."""
    host = Tab(browser, room.address, "en")
    page = host.page
    try:
        create_private_table(host, "Ricarica", "holdem", seats=2, min_buy_in=100, max_buy_in=1000)
        own_page = page.evaluate("location.hash")
        page.click("button.sit-host")
        page.wait_for_selector(".seat.me")
        host.go(own_page, "button.add-bot")
        page.click("button.add-bot")
        page.click("button.go-table")
        page.wait_for_selector(".log p.head", timeout=30_000)  # a hand is dealt
        host.go(own_page, "button.pause")
        page.click("button.pause")
        page.wait_for_selector("button.resume")
        page.click("button.go-table")
        deadline = time.monotonic() + 60
        while not page.query_selector("p.table-state >> text=Paused by the host"):
            assert time.monotonic() < deadline, "the hand was never over"
            host.act(PASSIVE)
            page.wait_for_timeout(200)
        stack = int(page.inner_text(".seat.me .stack"))
        balance = host.balance()
        assert stack < 1000, stack
        page.click(".controls button:text-is('Top up to 1000')")
        sync_api.expect(page.locator(".seat.me .stack")).to_have_text("1000")
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {balance - (1000 - stack)}')"
        )
    finally:
        host.close()


def shover(person: Any, turn: dict[str, Any]) -> dict[str, Any] | None:
    """A sit & go opponent that pushes: all-in whenever it may."""
    if "all-in" in turn["legal"]["kinds"]:
        return {"kind": "all-in"}
    return None


class Opponent(threading.Thread):
    """A scripted player over a real WebSocket (tests/play_room.py's Person), in a thread."""

    def __init__(self, room: RunningServer) -> None:
        super().__init__(daemon=True)
        from tests.play_room import Person, Room

        port = urlparse(room.address).port
        assert port is not None
        self.person = Person(Room(url="", folder=Path("."), port=port), 5)
        self.stop = threading.Event()
        self.started_play = threading.Event()

    def run(self) -> None:
        asyncio.run(self._play())

    def done(self) -> None:
        """Stop playing, and close the player's connections."""
        self.stop.set()
        if self.is_alive():
            self.join(10)
        self.person.close()

    async def _play(self) -> None:
        person = self.person
        await person.connect()
        while not self.stop.is_set():
            for welcome in person.seen("welcome"):
                for table in welcome["tables"]:
                    if table not in person.plays:
                        person.plays.add(table)
                        person.scripted[table] = shover
                        await person.send(type="resume", table=table, last_seq=0)
                        self.started_play.set()
            await asyncio.sleep(0.1)
        await person.disconnect()


def test_a_sit_and_go_from_the_lobby_to_its_prizes(room: RunningServer, browser: Any) -> None:
    person = Tab(browser, room.address, "en")
    page = person.page
    opponent = Opponent(room)
    try:
        page.click(f".tournaments a.tournament-link >> text={QUICK}")
        page.wait_for_selector(".tournament-state[data-state=registering]")
        levels = page.eval_on_selector_all(".levels tbody tr", "rs => rs.map(r => r.innerText)")
        assert levels[0].split() == ["1", "2/4", "2", "hands"], levels[0]
        assert page.eval_on_selector_all(".payouts td", "ts => ts.map(t => t.innerText)") == [
            "1°", "200",
        ]  # fmt: skip
        before = Settings().starting_grant  # a visitor: a guest is made to register
        page.click("button.register")
        page.wait_for_selector("button.unregister")
        assert person.balance() == before - 110  # the buy-in and the fee
        name = page.inner_text(".entrants li")
        tid = tournament_id(page)
        answer = opponent.person.post(f"/api/tournaments/{tid}/registration")
        assert answer.status_code == 201, answer.text
        # Full: it starts, and the page takes the player to the tournament's table.
        page.wait_for_selector(".seat.me", timeout=15_000)
        # The table says its level and what comes next (levels of two hands: one left).
        following = levels[1].split()[1]
        level_note = f"Level 1: blinds 2/4. Next level (blinds {following}) in 1 hand."
        page.wait_for_selector(".level[data-level='1']")
        assert page.inner_text(".level") == level_note
        # The table is named by its tournament (its number alone said nothing).
        page.wait_for_function(
            f"document.querySelector('h2').innerText.startsWith('{QUICK} · table ')"
        )
        watching(browser, room, tid)  # while the player holds their first decision
        # A tournament keeps its players to the end: the table's button takes the player to
        # the lobby, the seat kept, and the tournament's page back to their table.
        assert page.inner_text("button.leave") == "Back to the lobby"
        page.click("button.leave")
        page.wait_for_selector(".play-now")
        person.go(f"#tournament/{tid}", "button.go-table")
        assert page.inner_text(".current-level") == "Playing now: level 1."
        assert page.inner_text(".levels tr.current td >> nth=0") == "1"
        page.click("button.go-table")
        page.wait_for_selector(".seat.me")
        assert page.inner_text(".level") == level_note  # from the table's snapshot
        opponent.start()
        assert opponent.started_play.wait(10)
        deadline = time.monotonic() + 90
        while not finished(opponent, tid):
            assert time.monotonic() < deadline, "the sit & go did not end"
            person.act(("call", "check", "all-in", "show", "muck"))
            page.wait_for_timeout(200)
        person.screenshot("sit-and-go-end")
        page.wait_for_selector(".tournament-over")
        assert page.query_selector(".level") is None  # no more levels for the player
        # At the table still, the header's balance has the prize in it (the player's seat
        # and the other's changed when it ended: the page read the balance again).
        ended = opponent.person.http.get(f"/api/tournaments/{tid}").json()
        prize = next(s["prize"] for s in ended["standings"] if s["player"] == name)
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {before - 110 + prize}')"
        )
        person.go(f"#tournament/{tid}", ".tournament-state[data-state=finished]")
        standings = page.eval_on_selector_all(
            ".standings tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.innerText))"
        )
        assert [row[0] for row in standings] == ["1", "2"], standings
        prizes = {row[1]: int(row[3]) for row in standings}
        assert sorted(prizes.values()) == [0, 200]
        assert name in prizes
        assert prizes[name] == prize
        assert person.balance() == before - 110 + prize  # the same on the tournament's page
        person.screenshot("sit-and-go-prizes")
    finally:
        opponent.done()
        person.close()


def watching(browser: Any, room: RunningServer, tid: int) -> None:
    """A spectator watches the running sit & go's table from its page: every card face down."""
    spectator = Tab(browser, room.address, "en")
    try:
        spectator.go(f"#tournament/{tid}", ".tournament-state[data-state=running]")
        spectator.page.click(".tournament-tables button.watch")
        spectator.page.wait_for_function(
            "document.querySelectorAll('.seat[data-name] .cards .card').length === 4"
        )
        assert spectator.page.locator(".seat.me").count() == 0  # not seated
        seen = spectator.page.eval_on_selector_all(
            ".seat .card", "cs => cs.map(c => c.dataset.card ?? '??')"
        )
        assert seen == ["??"] * 4, seen
        spectator.page.click("button.leave")
        spectator.page.wait_for_selector(".play-now")
    finally:
        spectator.close()


def tournament_id(page: Any) -> int:
    return int(page.evaluate("location.hash").rsplit("/", 1)[1])


def finished(opponent: Opponent, tid: int) -> bool:
    answer = opponent.person.http.get(f"/api/tournaments/{tid}").json()
    return bool(answer["state"] == "finished")


def test_a_hand_is_replayed_step_by_step_and_downloaded(room: RunningServer, browser: Any) -> None:
    person = seated(browser, room, "it", "italian-classic")
    page = person.page
    try:
        deadline = time.monotonic() + 60
        carried: set[int] = set()
        while True:  # until a hand the player was dealt into was won (not carried: nobody
            # opened, which is the end of many a hand of italian-classic)
            hand_id = won_hand(page, carried)
            if hand_id is not None:
                break
            assert time.monotonic() < deadline, "no hand was won"
            person.act(("draw", "bet", "check", "call", "show", "muck", "fold"))
            page.wait_for_timeout(200)
        page.click("#pages a[href='#hands']")
        row = page.locator(f"table.hands tbody tr[data-hand='{hand_id}']")
        row.locator("a.replay").wait_for()
        assert "Poker all'italiana (classico)" in row.inner_text()
        # Above the list, the player's own statistics over the same finished hands (both
        # asked at once: a hand ending between the two answers is asked again).
        for _ in range(5):
            game = page.locator(".stats-game[data-game='italian-classic-cash']")
            heading = game.locator("h4").inner_text()
            counted = int(re.search(r"— (\d+) man", heading)[1])  # type: ignore[index]
            if counted == page.locator("table.hands a.replay").count():
                break
            page.reload()
            row.locator("a.replay").wait_for()
        else:
            raise AssertionError(f"the statistics never counted the list's hands: {heading}")
        assert heading.startswith("Poker all'italiana (classico) · cash — ") and counted >= 1
        figures = dict(zip(
            game.locator("dt").all_inner_texts(), game.locator("dd").all_inner_texts(), strict=True
        ))  # fmt: skip
        assert list(figures)[:6] == ["VPIP", "PFR", "AF", "WTSD", "W$SD", "Per 100 mani"]
        assert "3-bet" not in figures and "Aperture" in figures and "Al buio" in figures
        assert "Parol" not in figures  # (the classic rules have none)
        person.screenshot("hands-statistics")
        assert re.fullmatch(r"\d+%", figures["VPIP"]), figures
        # In the page's language: "-2352,94", "+12.500" in Italian (the room sends "-2352.94").
        assert re.fullmatch(r"[+-]?\d+(\.\d{3})*(,\d+)?", figures["Per 100 mani"]), figures
        # On a phone the page fits, the hands' list scrolling in its own box (with hands in
        # it the page was 463 px wide at 390).
        page.set_viewport_size({"width": 390, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1280, "height": 860})
        # The table by its name (it was once "Tavolo 3"), in the list and the replay's title.
        replay = page.evaluate(f"fetch('/api/hands/{hand_id}/replay').then(r => r.json())")
        assert row.inner_text().startswith(f"{replay['table_name']} · #"), row.inner_text()
        row.locator("a.replay").click()
        page.wait_for_selector(".replay-table")
        assert replay["table_name"] in page.locator("h2").first.inner_text()
        steps = int(page.inner_text(".replay-text").split("/")[1].split(" ")[0])
        assert steps > 3
        # Step through: the player's own five cards face up, the others' face down.
        for _ in range(steps):
            page.click(".replay-controls .next")
        me = page.eval_on_selector_all(
            ".replay-seat.me .card", "cs => cs.map(c => c.dataset.card ?? '??')"
        )
        assert len(me) == 5 and "??" not in me, me
        shown = {int(p) for p in replay["result"]["shown"]}
        for position in range(len(replay["players"])):
            if position == replay["you"] or position in shown:
                continue
            cards = page.eval_on_selector_all(
                f".replay-seat[data-position='{position}'] .card",
                "cs => cs.map(c => c.dataset.card ?? '??')",
            )
            assert set(cards) <= {"??"}, (position, cards)  # never another's hidden card
        log = page.eval_on_selector_all(".replay-log li", "ls => ls.map(l => l.innerText)")
        assert len(log) == steps
        assert any(re.search(r"vinc[ei]", line) for line in log), log
        page.keyboard.press("ArrowLeft")  # the keyboard steps back
        page.wait_for_function(
            f"!document.querySelector('.replay-text').innerText.startsWith('{steps}/')"
        )
        person.screenshot("replay")
        # The downloads: PHH with only what the player saw, and the Italian text.
        with page.expect_download() as download:
            page.click(f"a[href='/api/hands/{hand_id}/phh']")
        assert download.value.suggested_filename == f"hand-{hand_id}.phh"
        text = page.evaluate(f"fetch('/api/hands/{hand_id}/text').then(r => r.text())")
        assert text.startswith(f"Mazziere Hand #{hand_id}:"), text[:60]
        page.click("#lang")
        page.wait_for_selector(".replay-controls[aria-label='Steps of the hand']")
    finally:
        person.close()


def replay_of(
    number: int, rules: str, players: list[str], you: int, records: list[dict[str, Any]]
) -> dict[str, Any]:
    """A hand as ``GET /api/hands/<id>/replay`` gives it (its id its number too), with these
    records."""
    return {
        "id": number, "table_id": 1, "table_name": "Prova", "tournament_id": None,
        "number": number,
        "rules": rules, "players": players, "seats": list(range(1, len(players) + 1)),
        "stacks": [500] * len(players), "you": you, "records": records, "result": {},
    }  # fmt: skip


def record(type_: str, position: int, **fields: Any) -> dict[str, Any]:
    """A record of the hand's log, as the room sends it (an action by its kind)."""
    if type_ in ("fold", "check", "call", "bet", "raise"):
        return {"type": "action", "position": position, "kind": type_, "all_in": False,
                "timed_out": False, **fields}  # fmt: skip
    return {"type": type_, "position": position, **fields}


def posted(position: int, kind: str, amount: int) -> dict[str, Any]:
    """A forced bet of the hand's log (a blind, the invito...)."""
    return record("forced_bet", position, amount=amount, kind=kind, live=True, all_in=False)


HOLDEM_SPLIT = replay_of(901, "holdem", ["Anna", "Hhh1", "Bruno"], 0, [
    posted(0, "small_blind", 3),
    posted(1, "big_blind", 6),
    record("hole_cards", 0, cards=["Ah", "Kh"]),
    record("hole_cards", 1, cards=["??", "??"]),
    record("hole_cards", 2, cards=["??", "??"]),
    record("call", 2, added=6, to=6),
    record("call", 0, added=3, to=6),
    record("check", 1, added=0, to=6),
    {"type": "collect", "pots": [{"amount": 18, "eligible": [0, 1, 2]}]},
    {"type": "board", "street": "flop", "cards": ["2c", "3d", "7h"]},
    record("show", 0, cards=["Ah", "Kh"]),
    record("show", 2, cards=["As", "Kd"]),
    record("muck", 1),
    {"type": "award", "pot": 0, "amount": 18, "winners": [2, 0], "shares": [9, 9]},
])  # fmt: skip

ITALIAN_32_DRAW = replay_of(902, "italian-32", ["Anna", "Bruno"], 1, [
    posted(0, "buio", 5),
    posted(1, "controbuio", 10),
    record("hole_cards", 0, cards=["??"] * 5),
    record("hole_cards", 1, cards=["7c", "8c", "Ah", "Ad", "Kh"]),
    record("call", 0, added=5, to=10),
    record("check", 1, added=0, to=10),
    {"type": "collect", "pots": [{"amount": 20, "eligible": [0, 1]}]},
    record("discard", 0, cards=["??", "??"], timed_out=False),
    record("discard", 1, cards=["7c"], timed_out=False),
    record("muck", 0),
    {"type": "award", "pot": 0, "amount": 20, "winners": [1], "shares": [20]},
])  # fmt: skip


def test_the_replay_and_the_refusals_speak_as_the_table_does(
    room: RunningServer, browser: Any
) -> None:
    """The replay conjugates as the table's log does ("Tu non mostri", "You draw 1", "You
    win 20": it said "Tu: non mostra", "You: draws 1", "You: wins 20"), names the blinds in
    Italian and two winners with the player in one sentence ("Bruno e tu vincete 18", once
    "Bruno, Tu: vince 18"); a refusal of the room keeps the numbers it gave, in Italian."""
    person = Tab(browser, room.address, "it")
    page = person.page
    try:
        replays = {"901": HOLDEM_SPLIT, "902": ITALIAN_32_DRAW}
        page.route(
            re.compile(r".*/api/hands/90[12]/replay$"),
            lambda route: route.fulfill(json=replays[route.request.url.split("/")[-2]]),
        )

        def steps(number: int) -> list[str]:
            # The replay of that hand (the one before stays until it has come).
            person.go(f"#hand/{number}", f".page h2 >> text=#{number}")
            page.click(".replay-controls .last")
            said: list[str] = page.eval_on_selector_all(
                ".replay-log li", "ls => ls.map(l => l.innerText)"
            )
            return said

        italian = steps(901)
        for line in ("Tu: piccolo buio 3", "Hhh1: grande buio 6", "Tu vedi 3", "Hhh1 bussa",
                     "Tu mostri A♥ K♥", "Hhh1 non mostra", "Bruno e tu vincete 18"):  # fmt: skip
            assert line in italian, (line, italian)
        italian = steps(902)
        for line in ("Anna: buio 5", "Tu: controbuio 10", "Tu dici cip", "Anna cambia 2 carte",
                     "Tu cambi 1 carta", "Anna non mostra", "Tu vinci 20"):  # fmt: skip
            assert line in italian, (line, italian)
        page.click("#lang")
        english = steps(902)
        for line in ("You check", "Anna draws 2", "You draw 1", "Anna mucks", "You win 20"):
            assert line in english, (line, english)
        english = steps(901)
        for line in ("You: small blind 3", "You show A♥ K♥", "Bruno and you win 18"):
            assert line in english, (line, english)
        page.click("#lang")
        # A private table the rules do not allow: the seats italian-classic has, in Italian
        # (the room's own refusal: the form's limit, which says the same, lifted).
        page.click("#pages a[href='#private']")
        page.wait_for_selector("form.create-private")
        page.evaluate("document.querySelector('form.create-private').noValidate = true")
        page.fill("form.create-private input[name=seats]", "9")
        page.click("form.create-private button[type=submit]")
        refusal = page.locator(".page .error")
        sync_api.expect(refusal).to_have_text("Un tavolo di questo gioco ha da 2 a 6 posti, non 9.")
        person.errors = [e for e in person.errors if "422" not in e]  # the browser logs the 422
    finally:
        person.close()


class Field(threading.Thread):
    """Scripted players over real WebSockets (tests/play_room.py's Person), in a thread: each
    pushes all-in whenever it may, and plays at whichever table the tournament moves it to."""

    def __init__(self, room: RunningServer, count: int) -> None:
        super().__init__(daemon=True)
        from tests.play_room import Person, Room

        port = urlparse(room.address).port
        assert port is not None
        self.people = [
            Person(Room(url="", folder=Path("."), port=port), 20 + k) for k in range(count)
        ]
        self.stop = threading.Event()
        self.answered: set[tuple[str, int]] = set()
        """The turns (table, id) taken up from a snapshot."""

    def run(self) -> None:
        asyncio.run(self._play())

    def close(self) -> None:
        """The scripted players stopped and disconnected."""
        self.stop.set()
        if self.is_alive():
            self.join(10)
        for someone in self.people:
            someone.close()

    async def _play(self) -> None:
        for person in self.people:
            await person.connect()
        while not self.stop.is_set():
            for person in self.people:
                tables = [t for w in person.seen("welcome") for t in w["tables"]]
                tables += [m["table"] for m in person.seen("moved")]
                for table in tables:
                    if table not in person.plays:
                        person.plays.add(table)
                        person.scripted[table] = shover
                        await person.send(type="resume", table=table, last_seq=0)
                # A snapshot (moved, or resumed) may carry this person's waiting turn.
                for message in person.seen("snapshot"):
                    turn = message.get("turn")
                    if not turn or turn["name"] != person.name or not turn["legal"]:
                        continue
                    if (message["table"], turn["action_id"]) not in self.answered:
                        self.answered.add((message["table"], turn["action_id"]))
                        await person._react(turn)
            await asyncio.sleep(0.1)
        for person in self.people:
            await person.disconnect()


def test_a_multi_table_tournament_takes_the_player_to_the_final_table(
    room: RunningServer, database: str, browser: Any
) -> None:
    """Six players in a scheduled tournament of five-seat tables: two tables of three, and
    the first player out leaves five, who fit at the final table, drawn afresh: everyone is
    moved there.  The browser's player folds to every bet (never the one out); five scripted
    players over WebSockets push all-in.  The tournament's page lists its tables and who sits
    at each; the table page follows the move.  A spectator of a table broken up is told so,
    not left at an empty table said to wait for players, and watches the final table from
    there in one click."""
    field = Field(room, 5)
    person = Tab(browser, room.address, "en")
    page = person.page
    spectator = Tab(browser, room.address, "en")
    tid = scheduled(database, seconds=8)  # the time to register everyone, and some
    try:
        person.go(f"#tournament/{tid}", ".tournament-state[data-state=registering]")
        assert page.locator(".starts-at").count() == 1
        page.click("button.register")
        page.wait_for_selector("button.unregister")
        for someone in field.people:
            answer = someone.post(f"/api/tournaments/{tid}/registration")
            assert answer.status_code == 201, answer.text
        # At its time it starts, and the page takes the player to their table.
        page.wait_for_selector(".seat.me", timeout=30_000)
        first = page.evaluate("location.hash")
        # Its page lists its two tables, three players at each, each a click to watch (the
        # others are not there yet: nobody is out before they are).
        spectator.go(f"#tournament/{tid}", ".tournament-state[data-state=running]")
        tables = spectator.page.locator(".tournament-tables > li[data-table]")
        sync_api.expect(tables).to_have_count(2)
        sync_api.expect(
            spectator.page.locator(".tournament-tables .table-players li")
        ).to_have_count(6)
        assert spectator.page.locator(".tournament-tables button.watch").count() == 2
        spectator.page.click(".tournament-tables button.watch >> nth=0")
        spectator.page.wait_for_selector(".seat[data-name]")
        field.start()  # the others connect now: their welcome names their tables
        # The player folds to every bet until the tournament moves them.
        deadline = time.monotonic() + 60
        while not page.locator(".log p.moved").count():
            assert time.monotonic() < deadline, "nobody was moved"
            person.act(("check", "draw", "muck", "fold"))
            page.wait_for_timeout(200)
        said = page.inner_text(".log p.moved")
        final = re.fullmatch(r"The final table: you sit at table (\d+), seat (\d+)", said)
        assert final, said
        # The page went with them: the final table, their seat there.
        page.wait_for_function(f"location.hash === '#table/{final[1]}'")
        assert first != f"#table/{final[1]}"
        page.wait_for_selector(".seat.me")
        assert page.get_attribute(".seat.me", "data-seat") == final[2]
        person.screenshot("tournament-final-table")
        # The spectator's table was broken up too (everyone went to the final table).
        watched = spectator.page
        closed = watched.locator(".table-closed")
        sync_api.expect(closed).to_contain_text("This table was broken up", timeout=10_000)
        assert not watched.locator("text=Waiting for more players").count()
        assert not watched.locator("p.level").count()  # no level to come there
        spectator.screenshot("tournament-table-broken-watched")
        watched.click(f".table-closed button.watch[data-table='{final[1]}']")
        watched.wait_for_function(f"location.hash === '#table/{final[1]}'")
        me = page.get_attribute(".seat.me", "data-name")
        watched.wait_for_selector(f".seat[data-name='{me}']")
        assert not watched.locator(".seat.me, .table-closed").count()
        # Its page lists the one table left (it reads it every 3 s).
        spectator.go(f"#tournament/{tid}", ".tournament-state[data-state=running]")
        sync_api.expect(
            spectator.page.locator(".tournament-tables > li[data-table]")
        ).to_have_count(1, timeout=10_000)
    finally:
        field.close()
        spectator.close()
        person.close()


def scheduled(url: str, seconds: float) -> int:
    """A scheduled Italian tournament (32 cards, five seats, six places) of this test's
    own, starting in ``seconds``: its id."""
    return made(
        url, seconds, name="Torneo lampo", rules="italian-32", buy_in=100, fee=10,
        starting_stack=400, seats=5, max_players=6, min_players=4, level_length=2,
    )  # fmt: skip


def sit_and_go(url: str, name: str, seats: int) -> int:
    """A Hold'em sit & go of this test's own, for ``seats`` players at one table: its id."""
    return made(
        url, None, name=name, rules="holdem", buy_in=100, fee=10, starting_stack=200,
        seats=seats, max_players=seats, level_length=2,
    )  # fmt: skip


def made(url: str, seconds: float | None, state: str | None = None, **spec: Any) -> int:
    """A tournament made in the room's database (starting in ``seconds``; ``None``: a sit &
    go, when full; put in ``state`` if given): its id."""
    from mazziere.server.storage import Database
    from mazziere.server.storage.lobby import TournamentSpec, create_tournament

    async def run() -> int:
        db = Database(url)
        try:
            async with db.session() as session:
                start = (
                    None
                    if seconds is None
                    else dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)
                )
                tournament = await create_tournament(
                    session, TournamentSpec(**spec), starts_at=start
                )
                tournament.state = state or tournament.state
                await session.commit()
                return int(tournament.id)
        finally:
            await db.dispose()

    # In a thread of its own: Playwright's event loop runs in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result()


ORDINAL = r"(\d+)(?:st|nd|rd|th)"


def test_a_sit_and_go_player_is_told_their_place_and_prize_at_the_table(
    room: RunningServer, database: str, browser: Any
) -> None:
    """A four-seat sit & go registered for from the lobby: its table has four seats and
    the tournament's controls, even when the room's first answer at the start did not list
    it yet; when the player is out, or the tournament over, the table says their place and
    prize (as the standings have them), in its log too, with the way to the tournament."""
    tid = sit_and_go(database, "Sit & go a quattro", 4)
    field = Field(room, 3)
    person = Tab(browser, room.address, "en")
    page = person.page
    answers = {"count": 0}

    def early(route: Any) -> None:
        # The first answer about the tournament comes before its tables are stored.
        answer = route.fetch()
        answers["count"] += 1
        body = answer.json()
        if answers["count"] == 1:
            body["tables"], body["seating"] = [], []
        route.fulfill(response=answer, json=body)

    page.route(f"**/api/tournaments/{tid}", early)
    try:
        page.click(f"tr[data-tournament='{tid}'] button.register")
        page.wait_for_selector(f"tr[data-tournament='{tid}'] button.unregister")
        for someone in field.people[:3]:
            answer = someone.post(f"/api/tournaments/{tid}/registration")
            assert answer.status_code == 201, answer.text
        page.wait_for_selector(".seat.me", timeout=15_000)
        sync_api.expect(page.locator(".seat")).to_have_count(4)  # not 6: no free seat drawn
        assert page.locator(".seat.empty").count() == 0
        sync_api.expect(page.locator("button.leave")).to_have_text("Back to the lobby")
        assert answers["count"] >= 1
        name = page.get_attribute(".seat.me", "data-name")
        field.start()
        deadline = time.monotonic() + 90
        while not page.locator(".tournament-over").count():
            assert time.monotonic() < deadline, "the player was never told how it ended"
            person.act(("call", "check", "all-in", "show", "muck"))
            page.wait_for_timeout(200)
        said = page.inner_text(".tournament-over p")
        standings = field.people[0].http.get(f"/api/tournaments/{tid}").json()["standings"]
        mine = next(s for s in standings if s["player"] == name)
        if mine["place"] == 1:
            assert said == f"The tournament is over: you won, prize {mine['prize']}", said
        else:
            paid = f"prize {mine['prize']}" if mine["prize"] else "no prize"
            told = re.fullmatch(
                rf"(?:The tournament is over: you|You) finished {ORDINAL}, (.*)", said
            )
            assert told, said
            assert (int(told[1]), told[2]) == (mine["place"], paid), said
        assert page.inner_text(".log p.over") == said
        assert page.locator(".actions >> text=Waiting for the next hand").count() == 0
        page.click("#lang")  # in Italian too
        italian = page.inner_text(".tournament-over p")
        assert italian.startswith(
            "Torneo finito: hai vinto!"
            if mine["place"] == 1
            else ("Sei fuori: ", "Torneo finito: ")
        ), italian
        page.click("#lang")
        page.click(".tournament-over button.to-tournament")
        page.wait_for_selector(f".standings tr[data-player='{name}']")
        person.screenshot("sit-and-go-told")
    finally:
        field.close()
        person.close()


def test_the_lobby_says_which_tournaments_run_and_which_were_cancelled(
    room: RunningServer, database: str, browser: Any
) -> None:
    cancelled = made(
        database, 3600, state="cancelled", name="Torneo annullato", rules="holdem", buy_in=10,
        fee=1, starting_stack=200, seats=4, max_players=8, min_players=4, level_length=2,
    )  # fmt: skip
    person = Tab(browser, room.address, "it")
    page = person.page
    try:
        state = f"tr[data-tournament='{cancelled}'] .lobby-state"
        assert page.inner_text(state) == "annullato"
        page.click("#lang")
        assert page.inner_text(state) == "cancelled"
    finally:
        person.close()


def test_a_tournament_shows_the_prize_pool_of_its_players(
    room: RunningServer, database: str, browser: Any
) -> None:
    """Registering: the pool is the buy-ins paid so far (as the room says), not a full
    field's, and the page says that the prizes depend on the field at the start."""
    tid = scheduled(database, seconds=3600)
    person = Tab(browser, room.address, "en")
    page = person.page
    try:
        person.go(f"#tournament/{tid}", ".tournament-state[data-state=registering]")
        assert page.inner_text(".prize-pool") == "0"
        page.click("button.register")
        page.wait_for_selector("button.unregister")
        sync_api.expect(page.locator(".prize-pool")).to_have_text("100")  # one buy-in of 100
        assert "depend on the players at the start" in page.inner_text(".payouts-note")
    finally:
        person.close()


def test_a_player_waiting_in_a_reloaded_lobby_is_taken_to_the_table(
    room: RunningServer, database: str, browser: Any
) -> None:
    """Registered, then the site reloaded: the lobby still watches the sit & go, and takes
    the player to its table when it starts."""
    tid = sit_and_go(database, "Sit & go dopo la ricarica", 2)
    opponent = Opponent(room)
    person = Tab(browser, room.address, "en")
    page = person.page
    try:
        page.click(f"tr[data-tournament='{tid}'] button.register")
        page.wait_for_selector(f"tr[data-tournament='{tid}'] button.unregister")
        page.reload()
        page.wait_for_selector(f"tr[data-tournament='{tid}'] button.unregister")
        answer = opponent.person.post(f"/api/tournaments/{tid}/registration")
        assert answer.status_code == 201, answer.text
        page.wait_for_selector(".seat.me", timeout=15_000)
        sync_api.expect(page.locator(".seat")).to_have_count(2)
        assert page.inner_text("button.leave") == "Back to the lobby"
    finally:
        opponent.person.close()
        person.close()


def test_a_refused_registration_is_said_in_the_page(
    room: RunningServer, database: str, browser: Any
) -> None:
    tid = made(
        database, 3600, name="Torneo dei ricchi", rules="holdem", buy_in=10**9, fee=1,
        starting_stack=200, seats=4, max_players=8, min_players=4, level_length=2,
    )  # fmt: skip
    person = Tab(browser, room.address, "it")
    page = person.page
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.click(f"tr[data-tournament='{tid}'] button.register")
        said = page.inner_text(".lobby-problem", timeout=5000)
        assert said.startswith("Il saldo non basta"), said  # the room's refusal, in Italian
        sync_api.expect(page.locator(".lobby-problem")).to_be_in_viewport()  # far up the lobby
        assert dialogs == []  # no browser alert
        page.click("#lang")  # in English too
        sync_api.expect(page.locator(".lobby-problem")).not_to_have_text(said)
        assert page.locator(f"tr[data-tournament='{tid}'] button.register").count() == 1
        # The browser logs the refused request itself; nothing else went wrong.
        person.errors = [e for e in person.errors if "409" not in e]
    finally:
        person.close()


def won_hand(page: Any, carried: set[int]) -> int | None:
    """A finished hand of the player's that somebody won; those found carried are added to
    ``carried`` (and not read again)."""
    found: dict[str, Any] = page.evaluate(
        """async (carried) => {
            const hands = (await (await fetch('/api/hands')).json()).hands;
            const more = [];
            for (const hand of hands) {
                if (hand.state !== 'finished' || carried.includes(hand.id)) continue;
                const replay = await (await fetch(`/api/hands/${hand.id}/replay`)).json();
                if (replay.records.some((r) => r.type === 'award')) return { won: hand.id, more };
                more.push(hand.id);
            }
            return { won: null, more };
        }""",
        sorted(carried),
    )
    carried.update(found["more"])
    won: int | None = found["won"]
    return won


PAGES = {
    "#": (".play-now", "Play now", "Gioca ora"),  # the lobby
    "#private": ("form.create-private", "Private tables", "Tavoli privati"),
    "#hands": (".page h2", "Your hands", "Le tue mani"),
    "#tournament/1": (".levels", "Structure", "Struttura"),
    "#rules/italian-classic": ("article.rules", "The opening ladder", "La scala delle aperture"),
    "#invite/no-such-code": (".page .error", "Invite", "Invito"),
}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_page_fits_a_phone_in_both_languages(
    room: RunningServer, browser: Any, lang: str
) -> None:
    person = Tab(browser, room.address, lang, phone=True)
    page = person.page
    other = "en" if lang == "it" else "it"
    try:
        for address, (selector, english, italian) in PAGES.items():
            person.go(address, selector)
            words = {"en": english, "it": italian}
            page.wait_for_selector(f"main >> text={words[lang]}")  # the browser's language
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, address
            page.click("#lang")  # and the other one after the switch
            page.wait_for_selector(f"main >> text={words[other]}")
            assert page.evaluate("document.documentElement.lang") == other
            page.click("#lang")
            page.wait_for_selector(f"main >> text={words[lang]}")
            # Every control says what it is: a text, a label or an ARIA label.
            unnamed = page.eval_on_selector_all(
                "main button, main input, main select, main a",
                """els => els.filter(e => !(e.innerText || '').trim()
                    && !e.getAttribute('aria-label') && !e.closest('label')
                    && e.type !== 'hidden').map(e => e.outerHTML)""",
            )
            assert unnamed == [], (address, unnamed)
        person.screenshot(f"pages-phone-{lang}")
        # The browser logs the refused invite itself; nothing else went wrong.
        person.errors = [e for e in person.errors if "404" not in e]
    finally:
        person.close()


def open_sit_and_go(database: str, name: str, **schedule: int | str) -> int:
    """A two-player Hold'em sit & go opened in the room's database (its number)."""
    from mazziere.server.storage import Database
    from mazziere.server.storage.lobby import TournamentSpec, create_tournament

    async def open_one() -> int:
        db = Database(database)
        try:
            async with db.session() as session:
                spec = TournamentSpec(
                    name=name, rules="holdem", buy_in=10, fee=0, starting_stack=200, seats=2,
                    max_players=2, **schedule,
                )  # fmt: skip
                tournament = await create_tournament(session, spec)
                await session.commit()
                return tournament.id
        finally:
            await db.dispose()

    # Playwright's loop runs in this thread: the database is reached from another.
    with concurrent.futures.ThreadPoolExecutor(1) as other:
        return other.submit(lambda: asyncio.run(open_one())).result()


def test_a_tournament_table_the_room_had_not_listed_yet_is_known_by_its_levels(
    room: RunningServer, database: str, browser: Any
) -> None:
    """A tournament lists its tables once their seats are stored (a multi-table one's are
    seated by its first command): a page that asked before took its table for a cash table
    (named by its number, 'Leave the table', no place told at the end). The table's level
    events say it is a tournament's: the page asks again. The room's first answers here
    are given as they were in that moment, without the table; everything else is the
    room's own."""
    import json

    tid = open_sit_and_go(database, "Sit & go in ritardo", level_length=2)
    person = Tab(browser, room.address, "en")
    page = person.page
    opponent = Opponent(room)
    hidden = {"left": 3}

    def early(route: Any) -> None:
        answer = route.fetch()
        details = answer.json()
        if details.get("state") == "running" and hidden["left"] > 0:
            hidden["left"] -= 1
            details.update(tables=[], seating=[], level=None)
        route.fulfill(response=answer, body=json.dumps(details))

    try:
        page.route(f"**/api/tournaments/{tid}", early)
        person.go(f"#tournament/{tid}", ".tournament-state[data-state=registering]")
        answer = opponent.person.post(f"/api/tournaments/{tid}/registration")
        assert answer.status_code == 201, answer.text
        page.click("button.register")  # the last seat: to the table
        page.wait_for_selector(".seat.me", timeout=15_000)
        page.wait_for_function(
            "document.querySelector('h2').innerText.startsWith('Sit & go in ritardo · table ')"
        )
        assert hidden["left"] == 0  # the page was answered without the table
        assert page.inner_text("button.leave") == "Back to the lobby"  # a tournament keeps you
    finally:
        opponent.done()
        person.close()


def at_its_page(browser: Any, room: RunningServer, tid: int) -> tuple[Tab, Opponent, list[str]]:
    """A player at a sit & go's page, its other player (not yet registered), its levels."""
    person = Tab(browser, room.address, "en")
    person.go(f"#tournament/{tid}", ".tournament-state[data-state=registering]")
    levels: list[str] = person.page.eval_on_selector_all(
        ".levels tbody tr", "rs => rs.map(r => r.innerText)"
    )
    return person, Opponent(room), levels


def test_a_level_by_minutes_is_counted_down_at_the_table(
    room: RunningServer, database: str, browser: Any
) -> None:
    """Levels of one minute: the table says when the next level comes, and counts it down."""
    tid = open_sit_and_go(database, "Sit & go a tempo", level_unit="minutes", level_length=1)
    person, opponent, levels = at_its_page(browser, room, tid)
    page = person.page
    try:
        assert levels[0].split() == ["1", "2/4", "1", "minute"], levels
        answer = opponent.person.post(f"/api/tournaments/{tid}/registration")
        assert answer.status_code == 201, answer.text
        page.click("button.register")
        page.wait_for_selector(".level[data-level='1']", timeout=15_000)

        def left() -> int:
            said = page.inner_text(".level")
            match = re.fullmatch(
                r"Level 1: blinds 2/4\. Next level \(blinds 3/6\) in (\d):(\d\d)\.", said
            )
            assert match is not None, said
            return 60 * int(match[1]) + int(match[2])

        first = left()
        assert 50 <= first <= 60, first
        page.wait_for_timeout(3_100)
        assert first - 4 <= left() <= first - 2
    finally:
        opponent.done()
        person.close()


def test_a_sit_and_go_break_is_counted_down_at_the_table(
    room: RunningServer, database: str, browser: Any
) -> None:
    """Levels of one hand, a one-minute break after each: the tournament's page lists the
    break, and after the first hand the table says it is on a break and counts it down."""
    tid = open_sit_and_go(database, "Sit & go con pausa", level_length=1, break_every=1,
                          break_minutes=1)  # fmt: skip
    person, opponent, levels = at_its_page(browser, room, tid)
    page = person.page
    try:
        assert levels[0].split() == ["1", "2/4", "1", "hand"], levels
        assert levels[1].split() == ["Break", "1", "minute"], levels
        # The other registers first: the player's registration fills it, and the page takes
        # them to the table it started (it waited for a start it had made itself).
        answer = opponent.person.post(f"/api/tournaments/{tid}/registration")
        assert answer.status_code == 201, answer.text
        page.click("button.register")
        page.wait_for_selector(".seat.me", timeout=15_000)
        page.wait_for_function(  # (before the first deal: 'Next level (blinds 3/6) in 1 hand')
            "document.querySelector('.level').innerText.startsWith("
            "'Level 1: blinds 2/4. Last hand of the level; then blinds 3/6.')"
        )
        opponent.start()  # it goes all in: the player folds, and the first level is over
        deadline = time.monotonic() + 60
        while not page.query_selector(".level:has-text('Break')"):
            assert time.monotonic() < deadline, page.inner_text(".level")
            person.act(("fold", "check"))
            page.wait_for_timeout(200)

        def left(said: str) -> int:
            match = re.fullmatch(
                r"Break: play resumes in (\d):(\d\d), level 2 \(blinds 3/6\)\.", said
            )
            assert match is not None, said
            return 60 * int(match[1]) + int(match[2])

        first = left(page.inner_text(".level"))
        assert 50 <= first <= 60, first
        page.wait_for_timeout(3_100)  # the page counts it down itself (every half second)
        assert first - 4 <= left(page.inner_text(".level")) <= first - 2
        person.go(f"#tournament/{tid}", ".current-level")  # its page says so too
        assert page.inner_text(".current-level") == "On a break: play resumes at level 2."
    finally:
        opponent.done()
        person.close()


def test_an_invito_left_unanswered_goes_when_its_time_is_up(
    room: RunningServer, browser: Any
) -> None:
    """With "Invito automatico" off, the room asks before each hand; the question counts its
    seconds down, is asked again after a reload (the choice kept: a reload showed it on and
    posted), is said under the header while the player looks elsewhere, and once its time
    is up (the room sat the player out) it leaves the page: it stayed, and a late "Sì" was
    refused."""
    host = Tab(browser, room.address, "it")
    page = host.page
    try:
        create_private_table(
            host, "Invito a tempo", "italian-classic", seats=3, decision_seconds=15,
            time_bank_seconds=0,
        )  # fmt: skip
        page.click("button.add-bot")
        page.locator("ul.bots li[data-bot]").wait_for()
        page.click("button.sit-host")
        page.wait_for_selector(".seat.me")
        page.uncheck(".controls label.toggle input:not(.sound):not(.hints)")
        offer = page.locator(".actions.offer")
        deadline = time.monotonic() + 90  # the hand being played ends (the host plays it)
        while not offer.count():
            assert time.monotonic() < deadline, "the room never asked for the invito"
            host.act(PASSIVE)
            page.wait_for_timeout(200)
        said = offer.locator("span >> nth=0").inner_text()
        assert re.fullmatch(r"Metti l.invito di \d+\? ([1-9]|1[0-5]) s", said), said
        # A reload asks again, with the time left, and the choice is still off.
        page.reload()
        offer.wait_for()
        auto_post = page.locator(".controls label.toggle input:not(.sound):not(.hints)")
        assert not auto_post.is_checked()
        # Looking at the lobby meanwhile, the player is told the table waits for them.
        page.click("#home")
        page.click("#turns a >> text=Invito a tempo")
        offer.wait_for()
        offer.wait_for(state="detached", timeout=20_000)
        page.wait_for_selector("button.sit-out >> text=Torno al gioco")
        assert page.inner_text(".seat.me .status") == "salta le mani"  # as the others see it
        assert page.inner_text(".actions .note") == "Salti le mani: «Torno al gioco» per rientrare."
        host.screenshot("invito-sat-out")
        assert not page.locator("p.error").count()
    finally:
        host.close()


def test_a_friend_waits_at_a_full_private_table_and_sits_at_the_seat_kept(
    room: RunningServer, browser: Any
) -> None:
    """A private table of two that takes whoever has its invite, both seats the host's bots:
    the friend's invite page says it is full and offers its waiting list (its "sit down" was
    once refused by the room, with no way to wait), then their place; the host sends a bot
    away, and the friend's page and the line under its header say the seat is kept for them:
    one click seats them, with the buy-in they chose."""
    host, friend = Tab(browser, room.address, "en"), Tab(browser, room.address, "en")
    try:
        page = host.page
        _, link = full_of_bots(host, "Full house", min_buy_in=100, max_buy_in=1000)
        friend.page.goto(link)
        friend.page.wait_for_selector("form.ask-to-sit")
        friend.page.fill("form.ask-to-sit input[name=buy_in]", "300")
        friend.page.click("form.ask-to-sit button[type=submit]")
        friend.page.wait_for_selector("text=The table is full.")
        friend.page.click("button.wait")
        waiting = friend.page.locator(".waiting-place")
        sync_api.expect(waiting).to_contain_text("you are number 1 on its waiting list")
        sync_api.expect(friend.page.locator("button.unwait")).to_have_text("Leave the list (#1)")
        # The host's page says a friend waits; a seat frees: kept for the friend, who is told
        # on the page and under its header.
        sync_api.expect(page.locator(".seats-taken")).to_have_text("2/2 (2 bot) · 1 waiting")
        page.click("ul.bots li[data-bot] button.remove-bot >> nth=0")
        kept = friend.page.locator("button.sit-invited.kept")
        kept.wait_for(timeout=30_000)
        assert kept.inner_text().startswith("Sit down with 300 · the seat is yours"), (
            kept.inner_text()
        )
        strip = friend.page.locator("#turns .kept-seat")
        sync_api.expect(strip).to_contain_text("A seat is yours at Full house:")
        kept.click()
        friend.page.wait_for_selector(".seat.me")
        grant = Settings().starting_grant  # the buy-in chosen left the balance
        friend.page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {grant - 300}')"
        )
        sync_api.expect(strip).to_have_count(0)
    finally:
        host.close()
        friend.close()


def test_a_visitor_from_an_address_out_of_new_accounts_is_told_and_plays_once_logged_in(
    room: RunningServer, browser: Any
) -> None:
    """An address (a club's, say) that made the room's twenty new accounts this hour: a
    visitor from it who presses play now is told why nothing happens and that logging in
    works (the page once dropped the room's refusal: no word, no table); signing up is
    refused as well and said in the dialog; a page of a player's own says it needs an
    account; logged in, play now seats them."""
    club = person_address()
    with httpx.Client(base_url=room.address, headers={"X-Forwarded-For": club}) as rest:

        def new_account(path: str, body: dict[str, str] | None = None) -> None:
            rest.cookies.clear()  # another person of the club
            csrf = rest.get("/api/session").json()["csrf_token"]
            made = rest.post(path, json=body, headers={"X-CSRF-Token": csrf})
            assert made.status_code == 201, made.text

        new_account("/api/register", {"name": "Nadia", "password": "club night"})
        for _ in range(19):
            new_account("/api/guest")
        table = rest.get("/api/tables").json()["tables"][0]
    person = Tab(browser, room.address, "it", phone=True, comes_from=club)
    page = person.page
    refusal = page.locator("#who .no-guest")
    said = "Troppi nuovi account da questo indirizzo: riprova tra 60 min, o accedi."
    try:
        # A table's shared link, opened afresh: no seat without an account; the lobby (the
        # page was once left blank) and the reason.
        page.goto("about:blank")
        page.goto(f"{room.address}/#sit/{table['id']}")
        sync_api.expect(refusal).to_have_text(said)
        sync_api.expect(page.locator(".play-now").first).to_be_visible()
        # A player's own page (the hands) says it needs an account (it showed itself empty:
        # "no hand yet: go and play!").
        person.go("#hands", ".needs-account")
        assert page.locator("table.hands, .page h2").count() == 0
        page.goto(room.address)  # a fresh page, the refusal not yet said
        page.wait_for_selector(".play-now")
        page.click(".play-now[data-rules=holdem]")  # far down the lobby on a phone
        sync_api.expect(refusal).to_have_text(said)
        sync_api.expect(refusal).to_be_in_viewport()  # brought into view
        assert page.locator(".seat.me").count() == 0
        assert person.sent.frames == []  # no socket was opened, nothing asked of a table
        page.click("#who button.account")  # "Accedi o registrati"
        dialog = page.locator("dialog.account-dialog")
        dialog.locator("input[name=name]").fill("Ottavia")
        dialog.locator("input[name=password]").fill("club night")
        dialog.locator("button", has_text="Registrati").click()
        sync_api.expect(dialog.locator("p.error")).to_have_text(
            "Troppi nuovi account da questo indirizzo: riprova tra 60 min, o accedi."
        )
        dialog.locator("input[name=name]").fill("Nadia")
        dialog.locator("button.primary").click()  # "Accedi"
        sync_api.expect(page.locator("#who .me")).to_contain_text("Nadia")
        sync_api.expect(refusal).to_have_count(0)
        person.go("#hands", ".page h2")  # the hands page is theirs now
        assert page.locator(".needs-account").count() == 0
        person.go("#", ".play-now")
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        # The browser logs the refused requests themselves; nothing else went wrong.
        person.errors = [e for e in person.errors if "429" not in e]
    finally:
        person.close()
