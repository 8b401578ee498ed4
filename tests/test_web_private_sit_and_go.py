"""Private sit & gos among friends in a real browser (Debian's Chromium driven by Playwright).

The room is tests/test_web_pages.py's (one real ``mazziere serve`` for the module, its own
database).  A host creates a private sit & go with the private page's form, copies the
invite address from the sit & go's page, and friends, each in their own browser, open it
and register: the last place taken starts it and every browser reaches the table, named by
the sit & go.  The host starts one early with two of its three places taken, and cancels
another, every buy-in refunded.  An unknown invite says so; the pages fit a phone in both
languages.  Any console error fails the test (the 404 the browser logs of an unknown invite
aside).
"""

from __future__ import annotations

import re
import time
from typing import Any

from mazziere.server.settings import Settings
from tests.server_process import RunningServer
from tests.test_web import sync_api
from tests.test_web_pages import (
    Opponent,
    Tab,
    browser,
    database,
    refuse_writes,
    room,
    tournament_id,
)

# The room and Debian's Chromium, shared with tests/test_web_pages.py (module fixtures: this
# module has its own room).
__all__ = ["browser", "database", "refuse_writes", "room"]

GRANT = Settings().starting_grant
FORM = "form.create-sit-and-go"


def create_sit_and_go(host: Tab, name: str, rules: str, **fields: int | bool | str) -> int:
    """The host creates a private sit & go with the private page's form (``fields`` by name:
    numbers typed, boxes checked, texts chosen, in this order); its number, from the address
    of the sit & go's page it opens."""
    page = host.page
    page.click("#pages a[href='#private']")
    page.wait_for_selector(FORM)
    page.fill(f"{FORM} input[name=name]", name)
    page.select_option(f"{FORM} select[name=rules]", rules)
    for field, value in fields.items():
        if isinstance(value, bool):
            page.set_checked(f"{FORM} input[name={field}]", value)
        elif isinstance(value, str):
            page.select_option(f"{FORM} select[name={field}]", value)
        else:
            page.fill(f"{FORM} input[name={field}]", str(value))
    page.click(f"{FORM} button[type=submit]")
    page.wait_for_selector(".tournament-state[data-state=registering]")
    page.wait_for_selector("input.invite-link")
    return tournament_id(page)


def balance_is(person: Tab, amount: int) -> None:
    """The header's balance comes to ``amount`` (the page reads it again after a move)."""
    person.page.wait_for_function(
        f"document.querySelector('#who .me')?.innerText.endsWith(' {amount}')", timeout=15_000
    )


def register_through(person: Tab, link: str) -> None:
    """``person`` opens the invite address and registers."""
    person.page.goto(link)
    person.page.click("button.register-sit-and-go")


def stranger_sees_nothing(browser: Any, room: RunningServer, tid: int) -> None:
    """Someone not invited who types the sit & go's address is told there is no such
    tournament, once (the page does not keep asking)."""
    stranger = Tab(browser, room.address, "it")
    asked: list[str] = []
    stranger.page.on(
        "request", lambda r: asked.append(r.url) if f"/api/tournaments/{tid}" in r.url else None
    )
    try:
        stranger.go(f"#tournament/{tid}", ".page .error")
        stranger.page.wait_for_timeout(4_000)  # a poll would have asked again by now
        assert stranger.page.inner_text(".page .error") == "Torneo non trovato."
        assert len(asked) == 1, asked
        stranger.errors = [e for e in stranger.errors if "404" not in e]  # the answer logged
    finally:
        stranger.close()


def test_friends_fill_a_private_sit_and_go_and_each_reaches_its_table(
    room: RunningServer, browser: Any
) -> None:
    host = Tab(browser, room.address, "en")
    first, second = Tab(browser, room.address, "it"), Tab(browser, room.address, "en")
    page = host.page
    try:
        tid = create_sit_and_go(
            host, "Friday freeroll", "holdem", players=3, buy_in=150, starting_stack=500,
            level_length=5,
        )  # fmt: skip
        link = page.input_value("input.invite-link")
        assert re.fullmatch(re.escape(room.address) + r"/#sitgo/\S+", link), link
        assert page.inner_text(".places-left").startswith("2 players to come"), link
        assert page.inner_text(".private-sit-and-go") == (
            "Your private sit & go: only those you invite see it."
        )
        balance_is(host, GRANT - 150)  # the host plays: the buy-in paid at once
        host_name = page.inner_text("dd.host")
        # Not in the lobby's list.
        listed = page.evaluate("fetch('/api/tournaments').then(r => r.json())")["tournaments"]
        assert tid not in [t["id"] for t in listed]
        stranger_sees_nothing(browser, room, tid)
        # The first friend opens the invite (a visitor: a guest is made), in Italian.
        first.page.goto(link)
        first.page.wait_for_selector("button.register-sit-and-go")
        assert first.page.inner_text("h2") == "Friday freeroll · Texas Hold'em No-Limit"
        assert first.page.inner_text(".page > p >> nth=0") == (
            f"{host_name} ti invita al suo sit & go privato."
        )
        assert first.page.inner_text("dd.buy-in") == "150"
        assert first.page.inner_text("dd.starting-stack") == "500"
        assert first.page.inner_text("dd.level-length").startswith(
            "5 mani per livello, il primo a bui "
        )
        assert first.page.inner_text(".places-left") == "Posti liberi: 2."
        entrants = first.page.eval_on_selector_all(".entrants li", "ls => ls.map(l => l.innerText)")
        assert entrants == [host_name], entrants
        first.page.click("button.register-sit-and-go")
        first.page.wait_for_selector("button.unregister")  # on the sit & go's page
        assert tournament_id(first.page) == tid
        balance_is(first, GRANT - 150)
        page.wait_for_selector(".places-left >> text=One player to come")  # the host's page
        # The second friend takes the last place: it starts, and each browser goes to the table.
        register_through(second, link)
        for person in (second, first, host):
            person.page.wait_for_selector(".seat.me", timeout=20_000)
        assert len({p.page.evaluate("location.hash") for p in (host, first, second)}) == 1
        assert page.locator(".seat[data-name]").count() == 3
        # The table is named by the sit & go, says its level, and keeps its players.
        for person, table in ((host, "table"), (first, "tavolo"), (second, "table")):
            person.page.wait_for_function(
                "document.querySelector('.tablewrap h2')?.innerText"
                f".startsWith('Friday freeroll · {table} ')"
            )
        page.wait_for_selector(".level[data-level='1']")
        assert page.inner_text("button.leave") == "Back to the lobby"
        page.click("button.leave")  # the seat kept: its page leads back to the table
        page.wait_for_selector(".play-now")
        host.go(f"#tournament/{tid}", ".tournament-state[data-state=running]")
        page.click("button.go-table")
        page.wait_for_selector(".seat.me")
        host.screenshot("private-sit-and-go-table")
    finally:
        for person in (host, first, second):
            person.close()


def test_the_host_starts_with_two_of_three_places_taken(room: RunningServer, browser: Any) -> None:
    host, friend = Tab(browser, room.address, "it"), Tab(browser, room.address, "en")
    page = host.page
    try:
        tid = create_sit_and_go(host, "Subito", "italian-classic", players=3, buy_in=0)
        link = page.input_value("input.invite-link")
        # Alone, the host cannot start it: said in the page, in Italian.
        page.click("button.start-now")
        refusal = page.locator(".page .error")
        refusal.wait_for()
        assert refusal.inner_text() == "Per iniziare servono almeno due iscritti."
        host.errors = [e for e in host.errors if "409" not in e]  # the browser logs the refusal
        register_through(friend, link)
        friend.page.wait_for_selector("button.unregister")
        page.wait_for_selector(".entrants li >> nth=1")  # the host's page sees the friend
        page.click("button.start-now")
        for person in (host, friend):
            person.page.wait_for_selector(".seat.me", timeout=20_000)
        assert page.locator(".seat[data-name]").count() == 2
        host.go(f"#tournament/{tid}", ".tournament-state[data-state=running]")
        assert page.inner_text(".entrants-count") == "2/2"  # the place left given up
        assert page.locator("button.start-now").count() == 0
        balance_is(host, GRANT)  # no buy-in, no fee
    finally:
        host.close()
        friend.close()


def test_the_host_cancels_and_every_buy_in_is_refunded(room: RunningServer, browser: Any) -> None:
    host = Tab(browser, room.address, "en")
    first, second = Tab(browser, room.address, "it"), Tab(browser, room.address, "en")
    page = host.page
    try:
        tid = create_sit_and_go(
            host, "Rinviato", "italian-32", players=3, buy_in=250, level_unit="minutes",
            level_length=3, breaks=True, break_every=2, break_minutes=4, host_plays=False,
        )  # fmt: skip
        link = page.input_value("input.invite-link")
        levels = page.eval_on_selector_all(".levels tbody tr", "rs => rs.map(r => r.innerText)")
        assert levels[0].split()[-2:] == ["3", "minutes"], levels
        assert levels[2].split()[-3:] == ["Break", "4", "minutes"], levels  # after level 2
        assert page.locator("button.unregister").count() == 0  # the host does not play
        balance_is(host, GRANT)
        for friend in (first, second):
            register_through(friend, link)
            friend.page.wait_for_selector("button.unregister")
            balance_is(friend, GRANT - 250)
        # The second friend changes their mind: refunded, back on the invite.
        second.page.click("button.unregister")
        second.page.wait_for_selector("button.register-sit-and-go")
        assert second.page.evaluate("location.hash") == link.split("/", 3)[3]
        balance_is(second, GRANT)
        # The host cancels it (asked twice): every buy-in refunded, said on each page.
        page.wait_for_function("document.querySelectorAll('.entrants li').length === 1")
        page.click("button.cancel-sit-and-go")
        page.click("button.keep")  # not yet
        page.click("button.cancel-sit-and-go")
        page.click("button.confirm-cancel")
        page.wait_for_selector(".tournament-state[data-state=cancelled]")
        assert page.locator("input.invite-link").count() == 0
        first.page.wait_for_selector(".tournament-state[data-state=cancelled]", timeout=10_000)
        assert first.page.inner_text(".tournament-state") == "annullato"
        balance_is(first, GRANT)
        wallet = first.page.evaluate("fetch('/api/wallet').then(r => r.json())")
        assert wallet["balance"] == GRANT, wallet
        balance_is(host, GRANT)
        # The host's list says so.
        host.go("#private", f"ul.private-sit-and-gos li[data-sit-and-go='{tid}']")
        row = page.locator(f"ul.private-sit-and-gos li[data-sit-and-go='{tid}']")
        assert row.get_attribute("data-state") == "cancelled"
        assert "Rinviato" in row.inner_text() and "you host it" in row.inner_text()
        # The invite no longer registers anybody.
        second.page.reload()
        second.page.wait_for_selector(".page .closed")
        assert second.page.locator("button.register-sit-and-go").count() == 0
        # The host proposes it again: the rematch, the same sit & go with a new invite, which
        # the friend still on the old page is offered and registers for.
        host.go(f"#tournament/{tid}", "button.make-rematch")
        page.click("button.make-rematch")
        page.wait_for_function(
            f"location.hash.startsWith('#tournament/') && !location.hash.endsWith('/{tid}')"
        )
        page.wait_for_selector(".tournament-state[data-state=registering]")
        rematch = tournament_id(page)
        assert page.input_value("input.invite-link") != link
        offered = first.page.locator("a.to-rematch")
        offered.wait_for(timeout=10_000)  # the page asks again every 3 s
        assert offered.inner_text().endswith("propone la rivincita: iscriviti")
        offered.click()
        first.page.click("button.register-sit-and-go")
        first.page.wait_for_selector("button.unregister")
        assert tournament_id(first.page) == rematch
        balance_is(first, GRANT - 250)
        host.go(f"#tournament/{tid}", "a.to-rematch")  # the host's way to it from the old one
    finally:
        for person in (host, first, second):
            person.close()


def test_an_unknown_invite_says_so_and_the_pages_fit_a_phone(
    room: RunningServer, browser: Any
) -> None:
    person = Tab(browser, room.address, "it", phone=True)
    page = person.page

    def fits() -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url
        # Every control says what it is: a text, a label or an ARIA label.
        unnamed = page.eval_on_selector_all(
            "main button, main input, main select, main a",
            """els => els.filter(e => !(e.innerText || '').trim()
                && !e.getAttribute('aria-label') && !e.closest('label')
                && e.type !== 'hidden').map(e => e.outerHTML)""",
        )
        assert unnamed == [], (page.url, unnamed)

    try:
        person.go("#sitgo/not-a-code", ".page .error")
        error = page.locator(".page .error")
        assert error.inner_text() == "Questo codice d'invito non apre nessun sit & go."
        fits()
        page.click("#lang")
        sync_api.expect(error).to_have_text("This invite code opens no sit & go.")
        page.click("#lang")
        # The private page's form, in Italian, at phone width (breaks asked for too).
        person.go("#private", FORM)
        page.set_checked(f"{FORM} input[name=breaks]", True)
        page.wait_for_selector(f"{FORM} input[name=break_every]:enabled")
        fits()
        create_sit_and_go(person, "Al telefono", "italian-32", players=4)
        fits()
        link = page.input_value("input.invite-link")
        page.goto(link)  # the host on their own invite: a way to its page
        page.wait_for_selector("a.to-sit-and-go")
        assert page.inner_text("main p >> nth=0") == "Il tuo sit & go privato."
        fits()
        page.click("#lang")
        page.wait_for_selector("a.to-sit-and-go >> text=You are registered: go to the sit & go")
        fits()
        person.screenshot("private-sit-and-go-invite-phone")
        person.errors = [e for e in person.errors if "404" not in e]  # the unknown invite's
    finally:
        person.close()


def test_a_host_who_does_not_play_watches_to_the_end_and_is_told_who_won(
    room: RunningServer, browser: Any
) -> None:
    host, friend = Tab(browser, room.address, "it"), Tab(browser, room.address, "en")
    opponent = Opponent(room)
    page = host.page
    try:
        tid = create_sit_and_go(
            host, "Guardo io", "holdem", players=2, starting_stack=300, level_length=2,
            host_plays=False,
        )  # fmt: skip
        code = page.input_value("input.invite-link").rsplit("/", 1)[1]
        register_through(friend, page.input_value("input.invite-link"))
        friend.page.wait_for_selector("button.unregister")
        joined = opponent.person.post(f"/api/sit-and-go-invites/{code}/registration")
        assert joined.status_code == 201, joined.text
        friend.page.wait_for_selector(".seat.me", timeout=20_000)
        # The host follows its table from its page, every card face down.
        page.wait_for_selector(".tournament-tables button.watch", timeout=15_000)
        page.click(".tournament-tables button.watch")
        page.wait_for_selector(".seat[data-name]")
        assert page.locator(".seat.me").count() == 0
        opponent.start()
        deadline = time.monotonic() + 90
        while opponent.person.http.get(f"/api/tournaments/{tid}").json()["state"] != "finished":
            assert time.monotonic() < deadline, "the sit & go did not end"
            friend.act(("all-in", "call", "check", "show", "muck"))
            friend.page.wait_for_timeout(200)
        # Watching, the host is told it is over and who won, and no level or hand is to come.
        notice = page.locator(".tournament-over")
        notice.wait_for(timeout=15_000)
        standings = opponent.person.http.get(f"/api/tournaments/{tid}").json()["standings"]
        winner = next(s for s in standings if s["place"] == 1)
        said = f"Torneo finito: vince {winner['player']}, premio {winner['prize']}"
        assert notice.locator("p").inner_text() == said
        assert page.locator(".level").count() == 0
        assert "In attesa della prossima mano" not in page.inner_text("main")
        # The rematch from the table: the host's button in the notice; the friend at the
        # table is offered it there as soon as it is made, and registers through its invite.
        host.screenshot("private-sit-and-go-watched-end")
        friend.page.wait_for_selector(".tournament-over")
        assert friend.page.locator(".tournament-over .to-rematch").count() == 0
        page.click(".tournament-over button.make-rematch")
        page.wait_for_function(f"!location.hash.endsWith('/{tid}')")
        page.wait_for_selector(".tournament-state[data-state=registering]")
        rematch = tournament_id(page)
        offered = friend.page.locator(".tournament-over a.to-rematch")
        offered.wait_for(timeout=10_000)  # the table asks every 3 s
        assert offered.inner_text().endswith("offers a rematch: register")
        offered.click()
        friend.page.click("button.register-sit-and-go")
        friend.page.wait_for_selector("button.unregister")
        assert tournament_id(friend.page) == rematch
    finally:
        opponent.done()
        host.close()
        friend.close()


def test_the_forms_offer_the_seats_each_rule_set_has(room: RunningServer, browser: Any) -> None:
    """The private page's forms take their limits from the room's rule sets: as many players
    as a table of the chosen rule set seats, a number already typed brought within them."""
    person = Tab(browser, room.address, "en")
    page = person.page
    players = f"{FORM} input[name=players]"
    seats = "form.create-private input[name=seats]"
    try:
        person.go("#private", FORM)
        assert page.get_attribute(players, "max") == "6"  # italian-classic, the default
        page.fill(players, "6")
        page.select_option(f"{FORM} select[name=rules]", "italian-32")
        assert (page.get_attribute(players, "max"), page.input_value(players)) == ("5", "5")
        page.select_option(f"{FORM} select[name=rules]", "holdem")
        assert page.get_attribute(players, "max") == "9"
        page.fill(players, "9")
        assert page.evaluate(f"document.querySelector('{FORM}').checkValidity()")
        page.select_option("form.create-private select[name=rules]", "italian-32")
        assert (page.get_attribute(seats, "max"), page.input_value(seats)) == ("5", "5")
        page.select_option("form.create-private select[name=rules]", "holdem")
        assert page.get_attribute(seats, "max") == "9"
        page.fill(seats, "10")
        assert not page.evaluate("document.querySelector('form.create-private').checkValidity()")
    finally:
        person.close()
