"""The page and its connection to the room, in Debian's Chromium (as ``test_web``): the room
killed and started again, a connection gone silent or cut, a session gone meanwhile, a tab
over the account's limit of sockets, a click that finds no room.  Each says what happened,
in the page's language, and the page comes back by itself where it can."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path
from typing import Any

from tests import test_web
from tests.server_process import RunningServer, free_port, serve
from tests.test_web import Page, own_room, wait_for_my_turn

# The same server and browser fixtures as the other browser tests (one of each per module).
room = test_web.room
web_settings = test_web.web_settings
browser = test_web.browser


def room_was_down(console_error: str) -> bool:
    """Whether a line of the browser's console is its own for a request the room could not
    answer: refused while it was down, or cut when it was killed with the request on its way."""
    return "ERR_CONNECTION_REFUSED" in console_error or "ERR_CONNECTION_RESET" in console_error


def test_a_room_killed_mid_hand_is_said_and_its_page_goes_on_at_the_same_decision(
    browser: Any, tmp_path: Path
) -> None:
    """The room is killed (SIGKILL) while a player's page waits on their decision: the page
    says at once that the room is not heard (its table is the last one the room told, not
    the room's), and once the room is started again on the same address the page comes back
    by itself to the same decision and cards, the chips where they were, and the hand plays
    on. Only the browser's own lines for each refused try are in its console."""
    settings = own_room(tmp_path)
    port = free_port()

    def chips(person: Page) -> int:
        """The player's wallet and stack at the table (less what they bet in this hand)."""
        wallet = person.page.evaluate("fetch('/api/wallet').then(r => r.json())")["balance"]
        stack = person.page.inner_text(".seat.me .stack")
        return int(wallet) + int(stack)

    environment = {
        "MAZZIERE_BOT_SECONDS": "0.5",
        "MAZZIERE_NEXT_HAND_SECONDS": "2",
    }
    with serve(settings, tmp_path, port=port, env=environment) as server:
        person = Page(browser, server.address, "en")
        page = person.page
        page.click(".play-now[data-rules=holdem]")
        before = wait_for_my_turn(person)
        cards = person.cards()
        assert page.locator("#offline").is_hidden()
        held = chips(person)
        server.process.kill()
        server.process.wait(timeout=10)
        page.wait_for_selector("#offline", state="visible", timeout=5000)
        assert page.inner_text("#offline") == "Connection lost: reconnecting…"
        page.click("#lang")  # said in the page's language
        assert page.inner_text("#offline") == "Connessione persa: mi ricollego…"
        page.click("#lang")
    with serve(settings, tmp_path, port=port, env=environment):
        page.wait_for_selector("#offline", state="hidden", timeout=30_000)
        assert wait_for_my_turn(person) == before
        assert person.cards() == cards
        assert chips(person) == held
        assert person.play_hand("holdem")
        refused = [e for e in person.errors if room_was_down(e)]
        assert refused, "the page never tried the room while it was down"
        person.errors = [e for e in person.errors if e not in refused]
        person.close()


def test_a_click_while_the_room_is_down_is_said_and_works_once_it_is_back(
    browser: Any, tmp_path: Path
) -> None:
    """The room goes down while a visitor reads the lobby: their "play now" finds no room.
    The page says the room is not heard (not a silent click, nor an error of the page's),
    asks again by itself until the room is back, then says nothing more, and the same
    click seats them."""
    settings = own_room(tmp_path)
    port = free_port()
    with serve(settings, tmp_path, port=port) as server:
        person = Page(browser, server.address, "it")
        page = person.page
        server.process.kill()
        server.process.wait(timeout=10)
    page.click(".play-now[data-rules=holdem]")
    page.wait_for_selector("#offline", state="visible", timeout=5000)
    assert page.inner_text("#offline") == "Connessione persa: mi ricollego…"
    assert page.locator(".felt").count() == 0
    with serve(settings, tmp_path, port=port):
        page.wait_for_selector("#offline", state="hidden", timeout=30_000)
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me .card", timeout=30_000)
        refused = [e for e in person.errors if room_was_down(e)]
        assert refused, "the page never asked the room while it was down"
        person.errors = [e for e in person.errors if e not in refused]
        person.close()


class FreezingProxy:
    """A TCP relay to the room on 127.0.0.1 whose connections can go silent at once, open
    but carrying nothing either way: a phone that changed networks, a Wi-Fi gone (no
    close ever reaches either end). Connections made after :meth:`freeze` carry on."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.frozen: set[socket.socket] = set()
        self.live: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def freeze(self) -> None:
        with self.lock:
            self.frozen |= self.live

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.live |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if source in self.frozen:
                    continue  # read and lost: the other end never hears of it
                sink.sendall(data)
        if source not in self.frozen:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def cut(self) -> None:
        """Close every connection made so far at both ends, as a router that went down."""
        with self.lock:
            for connection in self.live:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for connection in self.live:
                connection.close()


def test_a_connection_gone_silent_is_found_said_and_opened_again(
    room: RunningServer, browser: Any
) -> None:
    """The page's connection stops carrying anything, with no close at either end (the
    network changed under a phone): the page notices within about twenty seconds (a quiet
    socket asks the room whether it is there), says so, and comes back over a new
    connection to the same decision and cards."""
    proxy = FreezingProxy(int(room.address.rsplit(":", 1)[1]))
    person = Page(browser, proxy.address, "en")
    try:
        page = person.page
        page.click(".play-now[data-rules=holdem]")
        before = wait_for_my_turn(person)
        cards = person.cards()
        proxy.freeze()
        frozen_at = time.monotonic()
        page.wait_for_selector("#offline", state="visible", timeout=30_000)
        noticed = time.monotonic() - frozen_at
        assert noticed < 25, noticed
        page.wait_for_selector("#offline", state="hidden", timeout=30_000)
        # Back before the room's clock ran out (30 s and the time bank): the same decision.
        assert wait_for_my_turn(person) == before
        assert person.cards() == cards
        assert person.play_hand("holdem")
    finally:
        person.close()
        proxy.close()


def test_a_session_gone_while_the_connection_was_down_is_said_not_tried_forever(
    room: RunningServer, browser: Any
) -> None:
    """The page's connection drops while its session cookie is gone (expired, or cleared):
    the socket it opens again is refused for want of a session (close code 4401).  The page
    says the session ended and shows the log-in, once, instead of "reconnecting" for ever
    against a room that will go on refusing it."""
    proxy = FreezingProxy(int(room.address.rsplit(":", 1)[1]))
    person = Page(browser, proxy.address, "en")
    page = person.page
    opened: list[str] = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    try:
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        person.context.clear_cookies()
        proxy.cut()
        page.wait_for_selector(".session-ended", timeout=15_000)
        assert page.inner_text(".session-ended").startswith("your session ended")
        assert page.locator("#offline").is_hidden()
        assert page.locator(".felt").count() == 0  # the lobby, as after a log-out
        assert page.locator("#who button.account").count() == 1  # "Log in or sign up"
        tries = len(opened)
        # The try after the cut was the first since the last welcome (after 0.75 to 1.25 s):
        # a page that went on trying would try next within 1.5 to 2.5 s.
        page.wait_for_timeout(3_000)
        assert len(opened) == tries, opened
    finally:
        person.context.close()
        proxy.close()
    # Without its cookie, a request the page made meanwhile (a hint at its turn) was refused:
    # the browser's own line for that answer is the one line expected.
    unexpected = [e for e in person.errors if "status of 401 (Unauthorized)" not in e]
    assert unexpected == [], unexpected


def test_a_tab_over_the_accounts_connections_says_so_and_comes_in_when_one_closes(
    browser: Any, tmp_path: Path
) -> None:
    """The room takes so many sockets of one account at once (here one): the tab over the
    limit says to close another tab of the room, not that the connection is lost, and keeps
    trying; once the first tab is closed it comes in by itself, at the player's table."""
    settings = own_room(tmp_path)
    environment = {
        "MAZZIERE_BOT_SECONDS": "0.5",
        "MAZZIERE_WS_CONNECTIONS_PER_ACCOUNT": "1",
    }
    with serve(settings, tmp_path, env=environment) as server:
        person = Page(browser, server.address, "en")
        first = person.page
        first.click(".play-now[data-rules=holdem]")
        first.wait_for_selector(".seat.me")
        second = person.context.new_page()
        second.on("console", person._console)
        second.goto(server.address)
        second.wait_for_selector("#offline", state="visible", timeout=15_000)
        assert second.inner_text("#offline") == (
            "Too many connections open for this account: close another tab of the room."
            " Reconnecting…"
        )
        second.click("#lang")  # said in the page's language
        assert second.inner_text("#offline").startswith("Troppe connessioni aperte")
        second.click("#lang")
        first.close()
        second.wait_for_selector("#offline", state="hidden", timeout=30_000)
        second.wait_for_selector("a.my-table", timeout=15_000)
        second.click("a.my-table")
        second.wait_for_selector(".seat.me .card", timeout=30_000)
        person.context.close()
        assert person.errors == [], person.errors
