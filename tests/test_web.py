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

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mazziere.server.settings import Settings
from tests.server_process import RunningServer, free_port, person_address, serve
from tests.test_lobby_file import CLASSICA_TABLE, HOLDEM_TABLE, THREE_SEATS, TOURNAMENT

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
def web_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The room's settings: a SQLite database of its own (the operator's commands use it)."""
    folder = tmp_path_factory.mktemp("web")
    return Settings(
        database_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", password_profile="CHEAPEST"
    )


def own_room(folder: Path) -> Settings:
    """The settings of a test's room of its own: a SQLite database in ``folder``."""
    return Settings(
        database_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", password_profile="CHEAPEST"
    )


@pytest.fixture(scope="module")
def room(web_settings: Settings) -> Iterator[RunningServer]:
    with pytest.MonkeyPatch.context() as patch:
        # Bots act at once; a pause between hands long enough to see the showdown; the
        # sockets' sessions checked every second (an operator's suspension is seen soon).
        patch.setenv("MAZZIERE_BOT_SECONDS", "0.05")
        patch.setenv("MAZZIERE_NEXT_HAND_SECONDS", "2")
        patch.setenv("MAZZIERE_SESSION_CHECK_SECONDS", "1")
        folder = Path(web_settings.database_url.removeprefix("sqlite+aiosqlite:///")).parent
        with serve(web_settings, folder) as server:
            yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        yield chromium
        chromium.close()


def person_context(browser: Any, *, address: str | None = None, **options: Any) -> Any:
    """A browser context for one person: cookies of their own, and an address of their own
    (``address``, or a new one: :func:`tests.server_process.person_address`)."""
    forwarded = {"X-Forwarded-For": address or person_address()}
    return browser.new_context(extra_http_headers=forwarded, **options)


class SentFrames:
    """Every WebSocket frame a page sends, to leave its table before it closes."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[str | bytes] = []
        page.on(
            "websocket",
            # (a lambda: Playwright cannot take a builtin method as a listener)
            lambda socket: socket.on("framesent", lambda frame: self.frames.append(frame)),  # noqa: PLW0108
        )

    def leave_table(self) -> None:
        """Press *leave* on the table on screen, if seated there, and wait for the room to be
        sent the leave. A page closed at once may take the message with it unsent: its seat
        stays, its clock runs at each of its turns, and the table's hands wait for it (a
        clean-clone run: a later test's player got no turn in 90 s)."""
        page = self.page
        leave = page.locator("button.leave")
        if not (leave.count() and page.locator(".seat.me").count()):
            return
        before = len(self.frames)
        leave.click()
        page.wait_for_selector(".play-now")
        deadline = time.monotonic() + 2  # (a tournament's seat is kept: nothing is sent)
        while time.monotonic() < deadline and not any(
            '"leave"' in str(frame) for frame in self.frames[before:]
        ):
            page.wait_for_timeout(20)


class Page:
    """One person's browser tab, with every console error it showed."""

    def __init__(self, browser: Any, address: str, lang: str = "it") -> None:
        self.context = person_context(browser, locale=lang, viewport={"width": 1280, "height": 860})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.sent = SentFrames(self.page)
        self.page.goto(address)
        self.page.wait_for_selector(".play-now")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def close(self) -> None:
        self.sent.leave_table()
        self.context.close()
        assert self.errors == [], self.errors

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def labels(self) -> list[str]:
        labels: list[str] = self.page.eval_on_selector_all(
            ".actions button[data-kind]", "bs => bs.map(b => b.innerText)"
        )
        return labels

    def cards(self, seat: str = ".seat.me") -> list[str]:
        """The cards a seat shows on this page ("??" face down)."""
        shown: list[str] = self.page.eval_on_selector_all(
            f"{seat} .card", "cards => cards.map(c => c.dataset.card ?? '??')"
        )
        return shown

    def act_once(self, rules: str) -> list[str]:
        """Click one action if the page offers some; the labels of the buttons offered."""
        page = self.page
        offered = page.eval_on_selector_all(
            ".actions button[data-kind]", "bs => bs.map(b => [b.dataset.kind, b.innerText])"
        )
        buttons = dict(offered)
        labels = [label for _, label in offered]
        # italian-classic: open the pot when one may, so that the hand goes to the draw.
        opens = rules == "italian-classic" and "call" not in buttons
        order = ("draw", "bet", "check", "call", "show", "parol", "muck", "all-in", "fold")
        kind = next((k for k in order if k in buttons and (k != "bet" or opens)), None)
        try:
            if kind == "draw":
                page.click(".seat.me .card.clickable >> nth=0", timeout=2000)  # "Cambio 1 carta"
                self.screenshot(f"{rules}-draw")
            if kind is not None:
                page.click(f".actions button[data-kind={kind}]", timeout=2000)
        except sync_api.TimeoutError:
            return []  # the turn was over (the clock, or the page moved on)
        return labels

    def play_hand(self, rules: str, *, timeout: float = 40.0) -> list[str]:
        """Click actions until the log says who won; the labels of every button offered."""
        page = self.page
        offered: list[str] = []
        wins = len(page.query_selector_all(".log p.win"))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(page.query_selector_all(".log p.win")) > wins:
                if page.locator(".seat.winner:not(.me) .cards .card[data-card]").count():
                    # A showdown: the room names the winning hand; keep a picture of it.
                    with contextlib.suppress(sync_api.TimeoutError):
                        page.wait_for_selector(".seat.winner .handname", timeout=3000)
                        self.screenshot(f"{rules}-showdown")
                return offered
            offered += self.act_once(rules)
            page.wait_for_timeout(150)
        raise AssertionError(f"no winner shown in {timeout} s; buttons offered: {offered}")


ITALIAN_VERBS = {
    *("Passo", "Esco", "Apri", "Buio", "Controbuio", "Over", "Busso", "Cip", "Parol", "Parole"),
    *("Punto", "Rilancio", "Vedo", "Servito", "Cambio", "Mostro", "Non", "All-in"),
}

ENGLISH_VERBS = {"Fold", "Check", "Call", "Bet", "Raise", "All-in", "Show", "Muck"}


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32", "holdem"])
def test_a_guest_plays_a_hand_against_bots(room: RunningServer, browser: Any, rules: str) -> None:
    person = Page(browser, room.address, "it")
    try:
        person.page.click(f".play-now[data-rules={rules}]")
        person.page.wait_for_selector(".seat.me")
        offered: list[str] = []
        for _ in range(4):  # the bots may fold to the guest's blind before they act
            offered += person.play_hand(rules)
            if offered:
                break
        person.screenshot(f"{rules}-end")
        won = person.page.inner_text(".log p.win >> nth=0")
        # Who won what ("vincete": a pot split with the guest, "Bot-1 e tu vincete 30", with
        # each one's share after it: "Tu e bot-2 vincete 64, 32 a testa").
        assert re.fullmatch(r"\S.* (vince|vinci|vincono|vincete) \d+(,? .*)?", won), won
        assert offered, "the guest was never asked to act"
        # The buttons speak Italian, as the rules name the actions.
        verbs = {label.split(" ")[0] for label in offered}
        assert verbs <= ITALIAN_VERBS, verbs - ITALIAN_VERBS
    finally:
        person.close()


def wait_for_my_turn(person: Page, timeout: float = 30.0) -> list[str]:
    person.page.wait_for_selector(".actions button[data-kind]", timeout=timeout * 1000)
    return person.labels()


def test_a_reload_mid_hand_goes_on_at_the_same_decision(room: RunningServer, browser: Any) -> None:
    person = Page(browser, room.address, "en")
    try:
        person.page.click(".play-now[data-rules=holdem]")
        before = wait_for_my_turn(person)
        cards = person.cards()
        assert len(cards) == 2 and "??" not in cards
        person.page.reload()
        person.page.wait_for_selector(".seat.me")
        after = wait_for_my_turn(person)
        again = person.cards()
        assert after == before  # the same decision, in English
        assert {label.split(" ")[0] for label in after} <= ENGLISH_VERBS, after
        person.page.click("#lang")  # the switch: the same buttons in Italian
        italian = {label.split(" ")[0] for label in person.labels()}
        assert italian <= ITALIAN_VERBS and italian & {"Vedo", "Busso", "Passo"}, italian
        assert again == cards  # the same hole cards, face up again
        offered = person.play_hand("holdem")
        assert offered
        # The header's balance follows the chips: the buy-in out of it, and the cash-out
        # back in once the player has left.
        wallet = person.page.evaluate("fetch('/api/wallet').then(r => r.json())")
        assert [e["kind"] for e in wallet["entries"]].count("buy-in") == 1, wallet
        person.page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {wallet['balance']}')"
        )
        table = person.page.evaluate("location.hash").removeprefix("#table/")
        person.page.click("button.leave")
        person.page.wait_for_selector(".play-now")
        # A leave in the middle of a hand (the next one is dealt two seconds after the last)
        # takes effect at its end: the player's cards are folded at their turn and the bots
        # play it out.  The seat is gone in the transaction of the cash-out; a player who
        # lost every chip is cashed out nothing, and the ledger has no entry for that.
        deadline = time.monotonic() + 30
        while person.page.evaluate(f"fetch('/api/tables/{table}').then(r => r.json())")["players"]:
            assert time.monotonic() < deadline, "the seat was never given up"
            person.page.wait_for_timeout(200)
        wallet = person.page.evaluate("fetch('/api/wallet').then(r => r.json())")
        moved = sum(e["amount"] for e in wallet["entries"] if e["kind"] in ("buy-in", "cash-out"))
        assert wallet["balance"] == Settings().starting_grant + moved, wallet
        person.page.wait_for_function(
            f"document.querySelector('#who .me').innerText.endsWith(' {wallet['balance']}')"
        )
    finally:
        person.close()


def test_sitting_out_asked_during_a_hand_shows_until_it_happens_and_can_be_undone(
    room: RunningServer, browser: Any
) -> None:
    """The button said "Salto le prossime mani" still after a click during a hand (the room
    waits for the hand's end, and told nobody): now it says what will happen, a reload keeps
    it, a click takes it back, and once the hand is over the player sits out."""
    person = Page(browser, room.address, "it")
    page = person.page
    pending = "button.sit-out.pending >> text=Salterai le prossime mani · annulla"
    try:
        page.click(".play-now[data-rules=holdem]")
        wait_for_my_turn(person)
        page.click("button.sit-out")
        page.wait_for_selector(pending)
        assert page.get_attribute("button.sit-out", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector(pending)  # the player's own seat, in the snapshot
        page.click("button.sit-out")
        page.wait_for_selector("button.sit-out:not(.pending) >> text=Salto le prossime mani")
        page.click("button.sit-out")
        page.wait_for_selector(pending)
        # The hand played out checking or folding (calling everything, a player bought in
        # for 40 big blinds went broke once, and a broke player is not sitting out).
        wins = page.locator(".log p.win").count()
        deadline = time.monotonic() + 40
        while page.locator(".log p.win").count() <= wins:
            assert time.monotonic() < deadline, "the hand never ended"
            for kind in ("check", "fold"):
                button = page.locator(f".actions button[data-kind={kind}]:not([data-confirm])")
                if button.count():
                    with contextlib.suppress(sync_api.TimeoutError):
                        button.first.click(timeout=2000)
                    break
            page.wait_for_timeout(150)
        page.wait_for_selector("button.sit-out:not(.pending) >> text=Torno al gioco")
        assert page.inner_text(".seat.me .status") == "salta le mani"
    finally:
        person.close()


# Counts the notes the page plays (each chime is two), through the browser's own audio.
COUNT_NOTES = """
window.notesPlayed = 0;
const makeOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.notesPlayed += 1;
  return makeOscillator.call(this);
};
"""


def test_a_turn_at_a_table_not_on_screen_is_said_and_chimed(
    room: RunningServer, browser: Any
) -> None:
    """A player seated at a table who looks at the lobby is told when the room waits for
    them there (a line under the header linking to the table with its clock, the lobby's
    list of their tables, the tab's title) and hears a chime, unless they turned it off."""
    person = Page(browser, room.address, "it")
    page = person.page
    try:
        page.add_init_script(COUNT_NOTES)
        page.reload()
        page.click(".play-now[data-rules=holdem]")
        wait_for_my_turn(person)
        name = page.inner_text(".tablewrap h2").split(" · ")[0]
        assert page.is_hidden("#turns")  # the table on screen is not listed above itself
        assert page.title() == "(1) Tocca a te · Mazziere"
        for sound in (True, False):
            # Act, and at once (before the bots can act) go to the lobby, seated still.
            page.evaluate(ACT_AND_GO_TO_THE_LOBBY)
            page.wait_for_selector(".my-tables")
            page.wait_for_selector("#turns a", timeout=30_000)
            strip = page.inner_text("#turns")
            assert re.fullmatch(rf"Tocca a te:\s+{re.escape(name)} \d+ s", strip), strip
            assert page.title() == "(1) Tocca a te · Mazziere"
            assert page.inner_text(".my-tables li .your-turn") == " · Tocca a te"
            assert page.evaluate("window.notesPlayed") == 2, sound  # one chime, sound on
            page.click("#turns a")
            wait_for_my_turn(person)
            assert page.is_hidden("#turns")
            if sound:  # turned off, and kept in the browser
                page.uncheck(".controls input.sound")
                assert page.evaluate("localStorage.getItem('mazziere.sound')") == "0"
    finally:
        person.close()


def three_seats_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """A room whose lobby is one Hold'em table of three seats (the waiting list's tests):
    its bots quick, its hands 0.5 s apart, a seat kept 60 s."""
    lobby = tmp_path / "lobby.toml"
    lobby.write_text(THREE_SEATS, encoding="utf-8")
    monkeypatch.setenv("MAZZIERE_SEAT_KEPT_SECONDS", "60")
    monkeypatch.setenv("MAZZIERE_BOT_SECONDS", "0.05")
    monkeypatch.setenv("MAZZIERE_NEXT_HAND_SECONDS", "0.5")
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        password_profile="CHEAPEST",
        lobby_file=lobby,
    )


HOLD_BACK_THE_LOBBY = """() => {
    const fetched = window.fetch;
    window.fetch = (url, ...rest) => fetched(url, ...rest).then((answer) =>
        String(url).includes("/api/tables")
            ? new Promise((resolve) => setTimeout(() => resolve(answer), 1500)) : answer);
    document.dispatchEvent(new Event("visibilitychange"));  // the page reads the lobby
}"""


HOLD_BACK_THE_LOBBY_UNTIL_KEPT = """() => {
    const fetched = window.fetch;
    const since = performance.now();  // (at most 20 s: a socket's message missed is not a hang)
    window.fetch = (url, ...rest) => fetched(url, ...rest).then((answer) =>
        String(url).includes("/api/tables") ? new Promise((resolve) => {
            const wait = () => document.querySelector("#turns .kept-seat")
                    || performance.now() - since > 20000
                ? setTimeout(() => { window.heldBackAnswered = true; resolve(answer); }, 100)
                : setTimeout(wait, 50);
            wait();
        }) : answer);
    document.dispatchEvent(new Event("visibilitychange"));  // the page reads the lobby
}"""


def test_a_full_tables_waiting_list_from_the_lobby_to_the_seat_kept(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table is full (Anna, Carla and Dario, by its link): Bruno's lobby offers its
    waiting list, and says his place on it.  The room is stopped and started again (Bruno's
    page, at no table, opens its socket again).  Anna leaves; wherever Bruno's page is, a
    line under the header says the seat is his, with its seconds, and chimes; a reload still
    says so (the room's lobby does); he sits from the line."""
    settings = three_seats_room(tmp_path, monkeypatch)
    port = free_port()
    people: list[Page] = []
    try:
        with serve(settings, tmp_path, port=port) as server:
            people += [Page(browser, server.address, "it") for _ in range(4)]
            anna, carla, dario, bruno = people
            table = anna.page.evaluate("fetch('/api/tables').then(r => r.json())")["tables"][0]
            for person in (anna, carla, dario):  # by the table's link: no bots called
                person.page.goto(f"{server.address}/#sit/{table['id']}")
                person.page.wait_for_selector(".seat.me")
            page = bruno.page
            page.add_init_script(COUNT_NOTES)
            page.reload()
            page.wait_for_selector("tr[data-table] button.wait")
            assert page.is_hidden("tr[data-table] button.sit")  # no seat to sit at
            page.click("tr[data-table] button.wait")
            page.wait_for_selector("tr[data-table] button.unwait")
            assert page.inner_text("tr[data-table] button.unwait") == "Esci dalla lista (1°)"
            assert page.inner_text("tr[data-table] .waiting") == " · 1 in attesa"
            assert page.is_hidden("#turns")
        welcomed: list[object] = []  # Bruno's page's socket, opened again, welcomed
        page.on(
            "websocket",
            lambda socket: socket.on(
                "framereceived",
                lambda frame: welcomed.append(frame) if '"welcome"' in str(frame) else None,
            ),
        )
        with serve(settings, tmp_path, port=port):
            anna.page.wait_for_selector(".seat.me")  # back at the table
            deadline = time.monotonic() + 30
            while not welcomed and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert welcomed, "Bruno's page did not open its socket again"
            # A lobby read asked for before the seat frees, its answer held back until the
            # room has said the seat is Bruno's: it does not take the seat back (the next
            # read gave it again, with a second chime: seen in a full run of the suite).
            page.evaluate(HOLD_BACK_THE_LOBBY_UNTIL_KEPT)
            anna.page.click("button.leave")
            anna.page.wait_for_selector(".play-now")
            # Told as the seat frees (at once, or at the end of a hand Anna was dealt into:
            # nobody acts at this table, each decision runs out in 5 s).
            page.wait_for_selector("#turns .kept-seat", timeout=60_000)
            page.wait_for_function("window.heldBackAnswered", timeout=25_000)
            page.wait_for_timeout(300)  # the held answer read; then the lobby read again
            page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
            page.wait_for_timeout(700)
            strip = page.inner_text("#turns")
            assert re.fullmatch(r"Un posto è tuo a Tre posti: Siedi \d+ s", strip), strip
            assert page.evaluate("window.notesPlayed") == 2  # one chime
            assert page.inner_text("tr[data-table] button.sit.kept").startswith(
                "Siedi: il posto è tuo"
            )
            page.reload()  # the room's lobby says it to a page opened again
            page.wait_for_selector("#turns .kept-seat")
            # A lobby read on its way as he sits (its answer held back here, as a slow
            # network would) says the seat is still kept: the taken seat is not kept again.
            page.evaluate(HOLD_BACK_THE_LOBBY)
            page.click("#turns .kept-seat button")
            page.wait_for_selector(".seat.me")
            page.wait_for_timeout(2_500)  # the lobby's answer came meanwhile, and hands dealt
            assert page.is_hidden("#turns")
            listed = page.evaluate("fetch('/api/tables').then(r => r.json())")["tables"][0]
            assert (listed["waiting"], listed["you_wait"], listed["players"]) == (0, None, 3)
            closing, people = people, []
            for person in closing:  # while the room runs (its sockets then close quietly)
                # Each try of a socket, and each read of the lobby, while the room was down.
                refused = (
                    "WebSocket connection to ",
                    "Failed to load resource: net::ERR_CONNECTION_",
                )
                person.errors = [e for e in person.errors if not e.startswith(refused)]
                person.close()
    finally:
        for person in people:
            person.context.close()  # the test failed: its own error says why


def test_play_now_at_full_tables_waits_where_a_bot_gives_its_seat_up(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room's one Hold'em table is full (Anna and two bots): Bruno's *Gioca ora* puts him
    on its waiting list and says so; a bot leaves at the end of its hand, the seat is kept
    for Bruno, and he sits from the line under the header."""
    settings = three_seats_room(tmp_path, monkeypatch)
    with serve(settings, tmp_path) as server:
        anna, bruno = Page(browser, server.address, "it"), Page(browser, server.address, "it")
        try:
            anna.page.click(".play-now[data-rules=holdem]")  # she sits, and calls two bots
            anna.page.wait_for_function(
                "document.querySelectorAll('.seat[data-name]').length === 3"
            )
            anna.page.click("button.sit-out")  # the bots' hands go quickly without her
            page = bruno.page
            page.click(".play-now[data-rules=holdem]")
            # The note says where he waits; a bot's hand can end, and the seat be kept for
            # him, before the page has read the lobby (the whole suite at once on a slow
            # machine): then the line under the header says it instead.
            page.wait_for_selector(".lobby-note, #turns .kept-seat")
            if page.is_visible(".lobby-note"):
                assert page.inner_text(".lobby-note").startswith(
                    "Tutti i tavoli sono pieni: sei in lista d'attesa a Tre posti (1°)."
                )
            assert page.is_hidden(".lobby-problem")
            page.wait_for_selector("#turns .kept-seat", timeout=60_000)
            assert page.is_hidden(".lobby-note")  # said above now: the seat is his
            page.click("#turns .kept-seat button")
            page.wait_for_selector(".seat.me")
            seated = page.eval_on_selector_all(
                ".seat[data-name]", "ss => ss.map(s => s.dataset.name)"
            )
            assert len(seated) == 3 and sum(name.startswith("bot-") for name in seated) == 1
        finally:
            anna.close()
            bruno.close()


ACT_AND_GO_TO_THE_LOBBY = """() => {
  const bar = ".actions button[data-kind=check], .actions button[data-kind=call]";
  (document.querySelector(bar) ?? document.querySelector(".actions button[data-kind]")).click();
  document.getElementById("home").click();
}"""


def test_two_browsers_at_one_table_each_see_only_their_own_cards(
    room: RunningServer, browser: Any
) -> None:
    anna, bruno = Page(browser, room.address, "it"), Page(browser, room.address, "it")
    try:
        anna.page.click(".play-now[data-rules=italian-32]")
        anna.page.wait_for_selector(".seat.me")
        table = anna.page.evaluate("location.hash")
        bruno.page.goto(room.address + "/" + table.replace("#table/", "#sit/"))
        bruno.page.wait_for_selector(".seat.me")
        names = {
            person: person.page.get_attribute(".seat.me", "data-name") for person in (anna, bruno)
        }
        anna_seat, bruno_seat = (f'.seat[data-name="{names[p]}"]' for p in (anna, bruno))
        # Play on (both clicking) until Anna holds a betting decision of a hand that dealt
        # both of them in.  Nobody's cards are shown before the showdown, and the table waits
        # for her meanwhile: both pages then show the same moment of the same hand, and no
        # card can be face up for a reason of the game (a showdown) while they are read.
        # Bruno may wait for the blinds to come to him; on a loaded machine (the whole suite
        # in two workers, each server with its table store's writer) 60 s ran out once with
        # hands being played.
        # Calling every raise of the bots, either may lose every chip: then they buy in again
        # (once a run, Anna went broke in her third hand and was never dealt in again).
        deadline = time.monotonic() + 90
        while True:
            for person in (anna, bruno):
                rebuy_when_broke(person)
            offered = {b.split("|")[0] for b in buttons(anna)}
            dealt_both = len(anna.cards()) == 5 and len(bruno.cards()) == 5
            if offered and not offered & {"show", "muck"} and dealt_both:
                # Her decision is on the page; Bruno's cards may come a moment later on a
                # busy machine (she acted meanwhile, and the moment was gone).
                with contextlib.suppress(sync_api.TimeoutError):
                    anna.page.wait_for_function(
                        f"document.querySelectorAll('{bruno_seat} .card').length === 5",
                        timeout=3000,
                    )
                if len(anna.cards(bruno_seat)) == 5:
                    break
            assert time.monotonic() < deadline, (
                "never dealt in together at Anna's decision",
                [p.page.eval_on_selector_all(".log p", "ps => ps.map(p => p.innerText)")[-25:]
                 for p in (anna, bruno)],
            )  # fmt: skip
            bruno.act_once("italian-32")
            if offered:
                anna.act_once("italian-32")
            anna.page.wait_for_timeout(100)
        hand = anna.page.inner_text(".log p.head >> nth=-1")
        # Bruno's page has come to the same moment: his five cards, Anna's five, this hand.
        sync_api.expect(bruno.page.locator(".log p.head").last).to_have_text(hand)
        sync_api.expect(bruno.page.locator(f"{anna_seat} .cards .card")).to_have_count(5)
        sync_api.expect(bruno.page.locator(".seat.me .cards .card")).to_have_count(5)
        for me, other, other_seat in ((anna, bruno, bruno_seat), (bruno, anna, anna_seat)):
            mine, theirs = me.cards(), me.cards(other_seat)
            assert "??" not in mine  # my own cards face up
            assert theirs == ["??"] * 5  # the other's face down
            assert not set(mine) & set(other.cards())  # and they are not the other's
        anna.screenshot("two-browsers-anna")
    finally:
        anna.close()
        bruno.close()


def rebuy_when_broke(person: Page) -> None:
    """Click "Ricarica a ..." (buy in again) if the person's seat has no chip left."""
    stack = person.page.locator(".seat.me .stack")
    if stack.count() and stack.first.inner_text().strip() == "0":
        with contextlib.suppress(sync_api.TimeoutError):
            person.page.click("button:has-text('Ricarica a')", timeout=2000)


def buttons(person: Page) -> list[str]:
    """The action buttons offered now, as "kind|label"."""
    offered: list[str] = person.page.eval_on_selector_all(
        ".actions button[data-kind]", "bs => bs.map(b => b.dataset.kind + '|' + b.innerText)"
    )
    return offered


def test_sign_up_log_out_and_log_in(room: RunningServer, browser: Any) -> None:
    person = Page(browser, room.address, "en")
    page = person.page
    try:

        def submit(button: str, name: str = "carla", password: str = "correct horse") -> None:
            page.fill("dialog input[name=name]", name)
            page.fill("dialog input[name=password]", password)
            page.click(f"dialog button:text-is('{button}')")

        page.click("button.account")
        submit("Sign up")
        page.wait_for_selector("#who .logout")
        assert page.inner_text("#who .me").startswith("carla · balance ")
        page.click("#who .logout")
        page.wait_for_selector("#who button.account")
        page.click("button.account")
        submit("Log in", password="wrong")
        page.wait_for_selector("dialog .error:not(:empty)")  # refused, said in the dialog
        # The browser logs the refused request itself: that one error is the expected one.
        assert person.errors == [
            "Failed to load resource: the server responded with a status of 401 (Unauthorized)"
        ]
        person.errors.clear()
        submit("Log in")
        page.wait_for_selector("#who .logout")
        assert page.inner_text("#who .me").startswith("carla · ")
    finally:
        person.close()


@pytest.mark.parametrize(
    ("width", "height", "lang"),
    [(1366, 650, "en"), (1280, 800, "en"), (390, 664, "en"), (390, 664, "it")],
    ids=["laptop", "desktop", "phone", "phone-it"],
)
def test_at_the_players_turn_their_cards_and_buttons_are_in_the_window(
    room: RunningServer, browser: Any, width: int, height: int, lang: str
) -> None:
    """A laptop's window, a desktop's and a phone's (in Italian the phone's bar of buttons
    takes three rows, not two): at the player's turn their seat, their cards and the buttons
    all show, nothing to scroll to.  (At 75vh the felt pushed the
    buttons below the window at both desktop sizes, and on the phone the seat and the
    buttons were below the header, the title and the felt.)"""
    context = person_context(browser, locale=lang, viewport={"width": width, "height": height})
    page = context.new_page()
    sent = SentFrames(page)
    try:
        page.goto(room.address)
        page.wait_for_selector(".play-now")
        # Pressed where it is, the page not scrolled (a click of Playwright's would scroll it).
        page.eval_on_selector(".play-now[data-rules=holdem]", "button => button.click()")
        page.wait_for_selector(".actions[role=toolbar] button", timeout=60_000)
        page.wait_for_timeout(300)  # (the page brings the seat into view on the next frame)
        seat, bar = (
            page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")
            for selector in (".seat.me", ".actions[role=toolbar]")
        )
        cards = page.locator(".seat.me .card")
        assert cards.count() == 2
        assert seat["top"] >= 0 and seat["bottom"] <= bar["top"], (seat, bar)
        assert bar["bottom"] <= height, (bar, height)
    finally:
        sent.leave_table()
        context.close()


def test_the_line_of_turns_above_the_table_leaves_the_seat_in_the_window(
    room: RunningServer, browser: Any
) -> None:
    """At two tables in a laptop's window (1280x800), the player acts at one while the other
    waits too: the line under the header that says so pushes the table down, and the seat
    comes back above the bar of buttons (its last line was under the bar: 729 > 724)."""
    person = Page(browser, room.address, "it")
    page = person.page
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        page.click("#home")
        page.click(".play-now[data-rules=italian-32]")
        deadline = time.monotonic() + 60
        while not (page.is_visible("#turns a") and page.is_visible(".actions button[data-kind]")):
            assert time.monotonic() < deadline, "the two tables never waited for the player at once"
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)  # (the page brings the seat into view on the next frame)
        seat, bar = (
            page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")
            for selector in (".seat.me", ".actions[role=toolbar]")
        )
        assert seat["bottom"] <= bar["top"] and bar["bottom"] <= 800, (seat, bar)
    finally:
        person.sent.leave_table()  # this table, then the other (no seat left to the clock)
        with contextlib.suppress(sync_api.Error):
            page.click(".my-tables a.my-table", timeout=10_000)
            page.wait_for_selector(".seat.me", timeout=10_000)
        person.close()


def test_a_suspended_player_is_logged_out_and_told_the_reason(
    room: RunningServer, browser: Any, web_settings: Settings
) -> None:
    """The operator suspends a player whose page is open (Italian): the page is logged out
    and says so; logging in again is refused with the operator's reason, in the dialog."""
    person = Page(browser, room.address, "it")
    page = person.page
    try:
        page.click("#who button.account")
        page.fill("dialog input[name=name]", "ettore")
        page.fill("dialog input[name=password]", "correct horse")
        page.click("dialog button:text-is('Registrati')")
        page.wait_for_selector("#who .logout")
        suspended = subprocess.run(
            [sys.executable, "-m", "mazziere.cli", "db", "suspend", "ettore",
             "--reason", "linguaggio offensivo", "--database-url", web_settings.database_url],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert suspended.returncode == 0, suspended.stderr
        page.wait_for_selector("#who .session-ended")
        assert page.inner_text("#who .session-ended") == (
            "La sessione è finita (una nuova password, l'account sospeso o scaduta): "
            "accedi di nuovo."
        )
        page.click("#who button.account")
        page.fill("dialog input[name=name]", "ettore")
        page.fill("dialog input[name=password]", "correct horse")
        page.click("dialog button:text-is('Accedi')")
        page.wait_for_selector("dialog .error:not(:empty)")
        assert page.inner_text("dialog .error") == (
            "Questo account è sospeso dalla sala: linguaggio offensivo"
        )
        assert person.errors == [
            "Failed to load resource: the server responded with a status of 403 (Forbidden)"
        ]
        person.errors.clear()
    finally:
        person.close()


def test_a_password_changed_on_one_device_logs_the_other_out(
    room: RunningServer, browser: Any
) -> None:
    """The phone, at a table, signs up and changes the password; the laptop, logged in to the
    same account and following the same table, is logged out and told why; the phone plays on."""
    phone, laptop = Page(browser, room.address, "en"), Page(browser, room.address, "it")
    try:
        page = phone.page
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        page.click("#who button.account:text-is('Sign up')")
        page.fill("dialog input[name=name]", "elena")
        page.fill("dialog input[name=password]", "correct horse")
        page.click("dialog button:text-is('Save')")
        page.wait_for_selector("#who .password")
        other = laptop.page
        other.click("#who button.account")
        other.fill("dialog input[name=name]", "elena")
        other.fill("dialog input[name=password]", "correct horse")
        other.click("dialog button:text-is('Accedi')")
        other.wait_for_selector("#who .logout")
        other.click(".my-tables a.my-table")  # the lobby leads to the table the account plays
        other.wait_for_selector(".seat.me")

        header_height = page.evaluate("document.querySelector('header').offsetHeight")
        page.click("#who .password")
        boxes = page.locator("dialog.password-dialog input[type=password]")
        boxes.nth(0).fill("correct horse")
        boxes.nth(1).fill("battery staple")
        boxes.nth(2).fill("battery stapler")
        page.click("dialog button:text-is('Change')")
        assert page.inner_text("dialog .error") == "The two new passwords differ."
        boxes.nth(2).fill("battery staple")
        page.click("dialog button:text-is('Change')")
        page.wait_for_selector("#who .account-said:has-text('every other session is closed')")
        # The note floats under the header: the header keeps its one line at a laptop's width.
        assert page.evaluate("document.querySelector('header').offsetHeight") == header_height

        other.wait_for_selector("#who .session-ended")
        assert other.inner_text("#who .session-ended") == (
            "La password è stata cambiata: accedi di nuovo."
        )
        assert other.locator("#who .logout").count() == 0
        other.wait_for_selector(".play-now")  # back to the lobby, as after a log-out
        assert other.evaluate("fetch('/api/account').then(r => r.status)") == 401
        # The browser logs that refused request itself: the one error expected.
        assert laptop.errors == [
            "Failed to load resource: the server responded with a status of 401 (Unauthorized)"
        ]
        laptop.errors.clear()
        other.click("#who button.account")  # and in again with the new password
        other.fill("dialog input[name=name]", "elena")
        other.fill("dialog input[name=password]", "battery staple")
        other.click("dialog button:text-is('Accedi')")
        other.wait_for_selector("#who .logout")
        assert other.locator("#who .session-ended").count() == 0

        # The phone's socket came back with its new session: a hand is played to its winner
        # (play_hand fails if the log never says one).
        phone.play_hand("holdem")
        assert page.evaluate("fetch('/api/account').then(r => r.json()).then(a => a.name)") == (
            "elena"
        )
    finally:
        laptop.close()
        phone.close()


def test_a_guest_signs_up_and_keeps_their_chips(room: RunningServer, browser: Any) -> None:
    """A guest at a table signs up from the header (one line at 1280 px, in English too):
    the account keeps its chips under the name chosen, and the dialog says that the table
    knows them by their guest name until they leave the seat."""
    person = Page(browser, room.address, "en")
    page = person.page
    try:
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        header = page.eval_on_selector("header", "h => h.getBoundingClientRect().height")
        assert header < 60, f"the header wraps: {header} px"
        assert page.inner_text("#who .me").startswith("guest-")
        balance = "fetch('/api/account').then((r) => r.json()).then((a) => a.balance)"
        before = page.evaluate(balance)  # the buy-in paid (the header may not say it yet)
        guest = page.inner_text("#who .me").split(" ")[0]
        page.click("#who button.account:text-is('Sign up')")
        assert "its chips stay yours" in page.inner_text("dialog")
        # Seated, the guest is told the table knows them by their guest name until they
        # leave the seat (as the room does: docs/server.md, decision 3).
        assert page.inner_text("dialog .seated-as") == (
            f"At the tables where you sit now you stay {guest} until you leave the seat: "
            "the new name is yours from the next one."
        )
        page.fill("dialog input[name=name]", "dario")
        page.fill("dialog input[name=password]", "correct horse")
        page.click("dialog button:text-is('Save')")
        page.wait_for_selector("#who .logout")
        page.wait_for_function(
            f"document.querySelector('#who .me').innerText === 'dario · balance {before}'"
        )
        assert page.evaluate(balance) == before
        assert person.errors == []
    finally:
        person.close()


def test_the_sit_and_go_lobby_registers_and_unregisters(room: RunningServer, browser: Any) -> None:
    person = Page(browser, room.address, "en")
    page = person.page
    try:
        row = page.locator(".tournaments tr[data-tournament]").first
        row.locator("button.register").click()  # a guest is made, the buy-in paid
        row.locator("button.unregister").wait_for()
        paid = int(page.inner_text("#who .me").rsplit(" ", 1)[1])
        row.locator("button.unregister").click()  # and refunded
        row.locator("button.register").wait_for()
        page.wait_for_function(f"!document.querySelector('#who .me').innerText.endsWith(' {paid}')")
        refunded = int(page.inner_text("#who .me").rsplit(" ", 1)[1])
        assert refunded > paid
    finally:
        person.close()


# Two tables and a scheduled Hold'em tournament: no game of italian-32.
CLUB_LOBBY = HOLDEM_TABLE + CLASSICA_TABLE + TOURNAMENT


@contextlib.contextmanager
def club_room(tmp_path: Path) -> Iterator[RunningServer]:
    """A room started with a club's lobby file, ``tmp_path / "lobby.toml"`` (no italian-32)."""
    lobby = tmp_path / "lobby.toml"
    lobby.write_text(CLUB_LOBBY, encoding="utf-8")
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        password_profile="CHEAPEST",
        lobby_file=lobby,
    )
    with serve(settings, tmp_path) as server:
        yield server


def test_a_club_lobby_shows_only_the_games_it_offers(browser: Any, tmp_path: Path) -> None:
    """A room started with a lobby file (no italian-32 there): the lobby has no section, no
    'play now' and no filter for a game without tables or tournaments."""
    with club_room(tmp_path) as server:
        person = Page(browser, server.address, "en")
        page = person.page
        try:
            shown = page.eval_on_selector_all(
                ".lobby section[data-rules]", "ss => ss.map(s => s.dataset.rules)"
            )
            assert shown == ["italian-classic", "holdem"]
            filters = page.eval_on_selector_all(".filters button", "bs => bs.map(b => b.innerText)")
            assert filters == ["All", "Poker all'italiana (classic)", "Texas Hold'em No-Limit"]
            rows = page.eval_on_selector_all(
                "section[data-rules] tbody tr td:first-child", "cs => cs.map(c => c.innerText)"
            )
            assert rows == ["Classica invito 5", "Hold'em del circolo"]
            assert page.inner_text(".tournaments tbody td >> nth=0").startswith(
                "Torneo del circolo"
            )
            page.click(".play-now[data-rules=italian-classic]")
            page.wait_for_selector(".seat.me")
            assert page.inner_text("h2").startswith("Classica invito 5 · ")
        finally:
            person.close()


def test_a_table_the_lobby_file_withdraws_says_so_to_its_spectator(
    browser: Any, tmp_path: Path
) -> None:
    """The operator's lobby file read again (``kill -HUP``) withdraws the table a visitor
    watches: the page says the table is closed, and offers no seat there any more."""
    with club_room(tmp_path) as server:
        person = Page(browser, server.address, "en")
        page = person.page
        try:
            row = page.locator("tr", has_text="Classica invito 5")
            row.locator("button.watch").click()
            page.wait_for_selector(".felt")
            assert page.inner_text("h2").startswith("Classica invito 5")
            assert page.locator(".table-closed").count() == 0
            assert page.locator("button.sit-down").count() == 1  # a free seat, offered
            lobby = tmp_path / "lobby.toml"
            lobby.write_text(HOLDEM_TABLE, encoding="utf-8")  # the next season: no Classica
            server.process.send_signal(signal.SIGHUP)
            notice = page.locator(".table-closed")
            notice.wait_for(timeout=30_000)
            assert notice.inner_text() == "The table is closed: no more hands here."
            assert page.locator("button.sit-down").count() == 0
            server.wait_for_output("closed: not in the lobby file")
        finally:
            person.close()


def test_a_closed_private_tables_page_follows_no_table_after_a_restart(
    browser: Any, tmp_path: Path
) -> None:
    """The host's page of a table closed before the room was started again: it says the
    table is closed and asks the room to follow nothing (a closed table has no task: the
    watch it sent was refused, ``no_table``)."""
    settings = own_room(tmp_path)
    port = free_port()
    with serve(settings, tmp_path, port=port) as server:
        host = Page(browser, server.address, "en")
        page = host.page
        page.click("#pages a[href='#private']")
        page.click("form.create-private button[type=submit]")
        page.wait_for_selector("input.invite-link")
        private_page = page.evaluate("location.hash")
        page.click("button.ask-close")
        page.click("button.close-table")
        page.wait_for_selector(".closed-note")
        kept = host.context.storage_state()
        host.context.close()
    with serve(settings, tmp_path, port=port) as server:
        context = person_context(browser, storage_state=kept)
        try:
            again = context.new_page()
            received: list[str] = []
            again.on(
                "websocket",
                # (a lambda: Playwright cannot take a builtin method as a listener)
                lambda ws: ws.on("framereceived", lambda frame: received.append(frame)),  # noqa: PLW0108
            )
            again.goto(f"{server.address}/{private_page}")
            again.wait_for_selector(".closed-note")
            again.wait_for_timeout(1500)  # a watch would have had its answer
            assert [f for f in received if '"error"' in str(f)] == []
        finally:
            context.close()
