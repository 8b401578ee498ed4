"""The table in a real browser: pre-actions, the fold confirmation, the showdown, the
moments of each game played by people, the phone, the keyboard and the labels.

Each moment is brought about by people at one table of the real ``mazziere serve``
(no bots, no seeded deck: the room deals from its CSPRNG as always, and nothing in it
lets a client choose cards): they open when the room offers the opening, change four
cards, say parol or parole together, and at Hold'em a short stack and a middle one go
all-in against a deep one for side pots.  Any error in a browser's console fails the
test; screenshots of each moment are saved under ``tmp/artifacts/`` (files of the run).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests import test_web
from tests.server_process import RunningServer, serve
from tests.test_web import Page, SentFrames, own_room, person_context, sync_api

# The same server and browser fixtures as the other browser tests (one of each per module).
room = test_web.room
web_settings = test_web.web_settings
browser = test_web.browser


def table_named(room: RunningServer, name: str) -> str:
    import httpx2 as httpx

    tables = httpx.get(room.address + "/api/tables", timeout=10).json()["tables"]
    return str(next(t["id"] for t in tables if t["name"] == name))


def seat_people(
    room: RunningServer, browser: Any, table: str, count: int, lang: str = "en"
) -> list[Page]:
    """``count`` people sit at ``table`` through its shared link (no bots called)."""
    people = []
    for _ in range(count):
        person = Page(browser, room.address, lang)
        person.page.goto(f"{room.address}/#sit/{table}")
        person.page.wait_for_selector(".seat.me")
        people.append(person)
    return people


def buttons(person: Page) -> dict[str, str]:
    """The action buttons offered now: kind -> label."""
    offered = person.page.eval_on_selector_all(
        ".actions button[data-kind]", "bs => bs.map(b => [b.dataset.kind, b.innerText])"
    )
    return dict(offered)


def log(person: Page) -> list[str]:
    lines: list[str] = person.page.eval_on_selector_all(".log p", "ps => ps.map(p => p.innerText)")
    return lines


def this_hand(person: Page) -> list[str]:
    """The log's lines since the current hand began."""
    lines = log(person)
    starts = [i for i, line in enumerate(lines) if line.startswith("Hand #")]
    return lines[starts[-1] :] if starts else lines


def hand_number(person: Page) -> int:
    starts = [line for line in log(person) if line.startswith("Hand #")]
    return int(starts[-1].split("#")[1]) if starts else 0


def said_in_this_hand(person: Page, text: str, timeout: float = 10.0) -> None:
    """Wait until the current hand's log has the line ``text``."""
    deadline = time.monotonic() + timeout
    while text not in this_hand(person):
        assert time.monotonic() < deadline, (text, this_hand(person))
        person.page.wait_for_timeout(100)


def click(person: Page, kind: str) -> bool:
    try:
        person.page.click(f".actions button[data-kind={kind}]", timeout=2000)
    except sync_api.TimeoutError:
        return False
    return True


def play_until(
    people: list[Page],
    choose: Callable[[Page, dict[str, str]], str | None],
    done: Callable[[], bool],
    *,
    timeout: float = 90.0,
) -> None:
    """Each person whose turn it is plays ``choose``'s answer, until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            for person in people:  # the story so far, for the failure's report
                print("\n".join(["----", *log(person)[-60:]]))
            raise AssertionError("the moment never came (the logs are printed above)")
        for person in people:
            offered = buttons(person)
            kind = choose(person, offered) if offered else None
            if kind is not None:
                click(person, kind)
        people[0].page.wait_for_timeout(100)


def close_all(people: list[Page]) -> None:
    errors = []
    for person in people:
        try:
            person.close()
        except AssertionError as error:
            errors.append(error)
    assert not errors, errors


def mark_and_draw(person: Page, count: int) -> None:
    cards = person.page.locator(".seat.me .card.clickable")
    for index in range(count):
        cards.nth(index).click(timeout=2000)
    person.page.click(".actions button[data-kind=draw]", timeout=2000)


# ------------------------------------------------------------- the Italian moments


def test_italian_classic_an_opening_a_draw_of_four_and_a_parol_pot(
    room: RunningServer, browser: Any
) -> None:
    people = seat_people(room, browser, table_named(room, "Classica invito 50"), 2)
    try:
        # Every label of a carried pot drawn in the middle of the table, as it is drawn.
        people[0].page.evaluate(
            """() => { window.carriedSeen = [];
              new MutationObserver((records) => { for (const record of records)
                for (const node of record.addedNodes) {
                  if (!(node instanceof Element)) continue;
                  for (const pot of node.querySelectorAll('.pot.carried'))
                    window.carriedSeen.push(pot.textContent); } })
              .observe(document.getElementById('main'), { childList: true, subtree: true }); }"""
        )
        pictures: set[str] = set()

        def choose(person: Page, offered: dict[str, str]) -> str | None:
            if "draw" in offered:
                mark_and_draw(person, 4)
                if "draw" not in pictures:
                    pictures.add("draw")
                    person.screenshot("table-italian-classic-draw-four")
                return None
            if "parol" in offered:
                return "parol"  # after the draw: both say parol
            blind = offered.get("bet", "").split(" ")[0] in ("Buio", "Controbuio", "Over")
            # The room offers the opening only to cards that qualify; nobody opens the first
            # hand, whose pot is carried without being a parol pot.
            opening = "bet" in offered and not blind and "call" not in offered
            if opening and "Nobody opens: the pot of" in "\n".join(log(person)):
                return "bet"
            for kind in ("call", "check", "muck", "show"):
                if kind in offered:
                    return kind
            return "fold"

        def everything() -> bool:
            text = "\n".join(log(people[0]))
            carried = text.find("Parol: the pot of")
            return bool(
                "Nobody opens: the pot of" in text
                and re.search(r"opens? for \d+", text)
                and re.search(r"draws? 4", text)
                and carried >= 0
                and re.search(r"\nParol pot: \d+", text[carried:])  # the next hand plays it
            )

        play_until(people, choose, everything, timeout=150)
        people[0].screenshot("table-italian-classic-parol-pot")
        # The parol pot's hand opens at Kings, whatever the hands before.
        assert people[0].page.inner_text(".centre .opening") == "Opening: Kings or better"
        text = "\n".join(log(people[0]))
        assert re.search(r"\S+ (says|say) parol", text), text
        # Between hands the middle names the pot carried: a parol pot only after everyone's
        # parol, the pot of a hand nobody opened is a carried pot (it once said parol too).
        labels = set(people[0].page.evaluate("window.carriedSeen"))
        kinds = {re.sub(r": \d+$", "", label) for label in labels}
        assert kinds == {"Parol pot", "Carried pot"}, labels
    finally:
        close_all(people)


def test_italian_classic_says_the_opening_minimum_as_it_rises(
    room: RunningServer, browser: Any
) -> None:
    """Nobody opens, hand after hand: the middle of the table says the pair that opens,
    Jacks, then Queens, then Kings (it once said only the pot carried, and a player offered
    no opening could not tell why)."""
    people = seat_people(room, browser, table_named(room, "Classica invito 10"), 2)
    try:
        people[0].page.evaluate(
            """() => { window.openingSeen = [];
              new MutationObserver(() => {
                const said = document.querySelector('.centre .opening')?.textContent;
                if (said && window.openingSeen.at(-1) !== said) window.openingSeen.push(said); })
              .observe(document.getElementById('main'), { childList: true, subtree: true }); }"""
        )

        def choose(person: Page, offered: dict[str, str]) -> str | None:
            return "check" if "check" in offered else None  # never open, blind or not

        def kings() -> bool:
            return "Opening: Kings or better" in people[0].page.evaluate("window.openingSeen")

        play_until(people, choose, kings, timeout=90)
        people[0].screenshot("table-italian-classic-opening-kings")
        seen = people[0].page.evaluate("window.openingSeen")
        assert seen == [f"Opening: {rank} or better" for rank in ("Jacks", "Queens", "Kings")], seen
        # In Italian too, as the rules page names the ladder.
        people[1].page.click("#lang")
        assert people[1].page.inner_text(".centre .opening") == "Apertura: Re o meglio"
    finally:
        close_all(people)


def test_italian_32_a_draw_of_four_and_a_parole_split(room: RunningServer, browser: Any) -> None:
    people = seat_people(room, browser, table_named(room, "32 carte 25/50"), 2)
    try:

        def choose(person: Page, offered: dict[str, str]) -> str | None:
            if "draw" in offered:
                mark_and_draw(person, 4)
                return None
            for kind in ("parol", "check", "call", "muck", "show"):
                if kind in offered:
                    return kind
            return "fold"

        def split() -> bool:  # "Anna and you win 40" (it once said "Anna, You win 40")
            return any(re.search(r"\S and \S+ win \d+", line) for line in log(people[0]))

        play_until(people, choose, split, timeout=120)
        people[0].page.wait_for_selector(".showdown p", timeout=5000)
        people[0].screenshot("table-italian-32-parole-split")
        # Two people at the table: no hints offered to either.
        assert all(p.page.locator(".controls input.hints").count() == 0 for p in people)
        assert people[0].page.locator(".opening").count() == 0  # no opening requirement here
        text = "\n".join(log(people[0]))
        assert re.search(r"draws? 4", text), text
        assert re.search(r"(says|say) parole", text), text
        # Both players named as winners in the middle of the table.
        banner = people[0].page.inner_text(".showdown")
        assert " win " in banner, banner
        # Each one's share said once, and a hand's name once (not "two pair, two pair").
        assert re.search(r" win \d+(, \d+ each| \(.+ \d+, .+ \d+\))", banner), banner
        made = banner.split(" · ", 1)[1].split("; ") if " · " in banner else []
        assert len(made) == len(set(made)), banner
    finally:
        close_all(people)


def test_italian_32_the_raise_leaves_the_bar_when_its_window_shuts(
    room: RunningServer, browser: Any
) -> None:
    people = seat_people(room, browser, table_named(room, "32 carte 25/50"), 2)
    try:
        offered_a_raise: list[Page] = []

        def choose(person: Page, offered: dict[str, str]) -> str | None:
            if "raise" in offered:
                offered_a_raise.append(person)
                return None
            if "draw" in offered:
                mark_and_draw(person, 0)
                return None
            return next((k for k in ("check", "parol", "call", "muck") if k in offered), "fold")

        play_until(people, choose, lambda: bool(offered_a_raise), timeout=60)
        person = offered_a_raise[0]
        seen = time.monotonic()
        # Ten seconds to raise (RULES.md), counted down beside the raise; then the bar
        # offers the rest, without a reload.
        raise_clock = person.page.locator("[data-raise-clock]")
        seconds_left: list[int] = []
        while "raise" in buttons(person):
            assert time.monotonic() - seen < 12.0, buttons(person)
            told = raise_clock.all_inner_texts()
            if told and told[0]:
                seconds_left.append(int(re.findall(r"\d+", told[0])[-1]))
                if len(seconds_left) == 1:
                    person.screenshot("table-italian-32-raise-window-open")
            person.page.wait_for_timeout(200)
        assert seconds_left and seconds_left[0] <= 10, seconds_left
        assert seconds_left == sorted(seconds_left, reverse=True), seconds_left
        assert seconds_left[-1] < seconds_left[0], seconds_left
        assert raise_clock.count() == 0  # gone with the raise
        offered = buttons(person)
        assert "fold" in offered and ("call" in offered or "check" in offered), offered
        # An all-in for more than the call would be a raise: gone with it (the room's own
        # offer after the window, told with the turn).
        stack = int(person.page.inner_text(".seat.me .stack"))
        owed = int(offered["call"].split()[-1]) if "call" in offered else 0
        assert ("all-in" in offered) == (stack <= owed), offered
        person.screenshot("table-italian-32-raise-window-shut")
        waited = time.monotonic() - seen
        kind = "call" if "call" in offered else "check"
        said = re.compile(rf"\b{kind}s?\b")  # "You call 25"

        def told() -> int:
            return sum(bool(said.search(line)) for line in this_hand(person))

        before = told()
        assert click(person, kind)
        deadline = time.monotonic() + 10
        while told() == before:  # the room took the call the bar offered
            assert time.monotonic() < deadline, this_hand(person)
            person.page.wait_for_timeout(100)
        assert person.page.locator(".error").count() == 0
        assert waited > 1.0  # the bar did not drop the raise at once
    finally:
        close_all(people)


def test_the_words_of_an_italian_page_at_the_table(room: RunningServer, browser: Any) -> None:
    """On an Italian page the log says Hold'em's blinds in Italian (it once said "small
    blind"), italian-32's check as its button does, "cip" (the log said "bussi"), and the
    pre-action "pass, or fold if anyone opens" of italian-classic is "Passo / Esco" (it was
    "Passo / Passo"); the lobby heads its tournaments "Torneo" (it said "Tavolo")."""
    person = Page(browser, room.address, "it")
    try:
        assert person.page.inner_text(".tournaments th >> nth=0") == "Torneo"
        person.page.click(".play-now[data-rules=holdem]")
        person.page.wait_for_selector(".log p >> text=/^\\S+: grande buio \\d+$/")
        blinds = [line for line in log(person) if "buio" in line or "blind" in line]
        assert all(re.fullmatch(r"\S+: (piccolo|grande) buio \d+", line) for line in blinds), blinds
    finally:
        person.close()

    people = seat_people(room, browser, table_named(room, "32 carte 25/50"), 2, "it")
    try:
        labels: set[str] = set()

        def passive(person: Page, offered: dict[str, str]) -> str | None:
            labels.update(offered.values())
            if "draw" in offered:
                mark_and_draw(person, 0)
                return None
            return next((k for k in ("check", "call", "parol", "muck") if k in offered), "fold")

        def checked() -> bool:
            return any(re.search(r" (dice|dici) cip$", line) for line in log(people[0]))

        play_until(people, passive, checked, timeout=60)
        assert "Cip" in labels, labels
        said = [line for line in log(people[0]) if re.search(r"cip|buss", line)]
        assert said and all(re.fullmatch(r"\S+ (dice|dici) cip", line) for line in said), said
    finally:
        close_all(people)

    people = seat_people(room, browser, table_named(room, "Classica invito 10"), 2, "it")
    try:
        waiting = None
        deadline = time.monotonic() + 60
        while waiting is None:  # the other one's turn to pass or open, both dealt in
            assert time.monotonic() < deadline, "nobody was asked to open"
            offered = [buttons(person) for person in people]
            dealt = all(len(person.cards()) == 5 for person in people)
            for person, other, theirs in ((*people, offered[0]), (*people[::-1], offered[1])):
                if "check" not in theirs:
                    continue
                if not dealt:
                    click(person, "check")  # before the deal: no blind opening
                elif not buttons(other):
                    waiting = other
            people[0].page.wait_for_timeout(100)
        pre = waiting.page.locator(".preactions label")
        pre.first.wait_for()
        said = [label.strip() for label in pre.all_inner_texts()]
        assert said == ["Passo / Esco", "Passo", "Vedo qualsiasi puntata"], said
    finally:
        close_all(people)


# ------------------------------------------------ Hold'em: pre-actions, side pots


def my_bet(person: Page) -> int:
    text = person.page.inner_text(".seat.me .bet")
    return int(text.split()[-1]) if text.strip() else 0


def totals(person: Page) -> dict[str, int]:
    """Each seat's chips (stack plus what it has in front of it) as ``person`` sees them."""
    seats: list[list[str]] = person.page.eval_on_selector_all(
        ".seat[data-name]",
        "ss => ss.map(s => [s.dataset.name, s.querySelector('.stack').innerText,"
        " s.querySelector('.bet').innerText])",
    )
    return {
        name: int(stack) + (int(bet.split()[-1]) if bet.strip() else 0)
        for name, stack, bet in seats
    }


def wait_for_turn(people: list[Page], timeout: float = 30.0) -> Page:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for person in people:
            if buttons(person):
                return person
        people[0].page.wait_for_timeout(100)
    raise AssertionError("nobody was asked to act")


def tick(person: Page, pre: str) -> None:
    box = person.page.locator(f".preactions input[data-pre={pre}]")
    box.check(timeout=3000)


def test_holdem_pre_actions_and_an_all_in_with_side_pots(room: RunningServer, browser: Any) -> None:
    table = table_named(room, "Hold'em 5/10")
    people = seat_people(room, browser, table, 2)
    try:
        # A third player comes in while the first hand is played, and tops up to the
        # table's maximum while waiting: a deep stack against two short ones.
        deep = seat_people(room, browser, table, 1)[0]
        people.append(deep)
        deep.page.click(".controls button:has-text('Top up to 1000')", timeout=20000)

        def three_dealt() -> bool:
            return all(len(p.cards()) == 2 for p in people) and bool(
                all(len(p.cards(f'.seat[data-name="{n}"]')) == 2 for p in people for n in names)
            )

        names = [p.page.get_attribute(".seat.me", "data-name") for p in people]

        def passive(person: Page, offered: dict[str, str]) -> str | None:
            for kind in ("check", "call", "muck", "show"):
                if kind in offered:
                    return kind
            return "fold"

        def until_three(person: Page, offered: dict[str, str]) -> str | None:
            # The hand that deals all three is left to the scenario below, from its start.
            return None if three_dealt() else passive(person, offered)

        play_until(people, until_three, three_dealt, timeout=60)

        # Preflop, three-handed: the button acts first, then the small and big blinds.
        first = wait_for_turn(people)
        small = next(p for p in people if p is not first and my_bet(p) == 5)
        big = next(p for p in people if p not in (first, small))
        tick(big, "check")  # nothing to call yet
        tick(small, "call")  # "Call 5"
        assert "check" in buttons(first) or "call" in buttons(first)
        first.page.fill(".actions input.amount", "40")
        first.page.dispatch_event(".actions input.amount", "change")
        assert click(first, "raise")
        # The raise changed the bet: the small blind's "call 5" and the big blind's
        # "check" are cleared; the small blind is asked, nothing was played for them.
        small.page.wait_for_selector(".actions button[data-kind=call]", timeout=10000)
        assert not any(line.startswith("You call") for line in this_hand(small))
        # ("call" is offered only once the raise reached the big blind's page; "call any"
        # was there before it too: waiting for it raced the raise.)
        big.page.wait_for_selector(".preactions input[data-pre=call]", timeout=5000)
        assert big.page.locator(".preactions input[data-pre=check]").count() == 0
        assert big.page.locator(".preactions input:checked").count() == 0
        tick(big, "call-any")
        assert click(small, "call")
        # The big blind's turn comes and "call any" plays it at once.
        said_in_this_hand(big, "You call 30")
        # The flop: the small blind speaks first; the others chose check/fold ahead.
        small.page.wait_for_selector(".actions button[data-kind=bet]", timeout=15000)
        tick(big, "check-fold")
        tick(first, "check-fold")
        first.screenshot("table-holdem-pre-actions")
        assert click(small, "bet")
        for folder in (big, first):
            said_in_this_hand(folder, "You fold")

        # Then all-in until a hand ends with a side pot: the shortest stack and the
        # middle one all-in, the deep one calls (passive hands first while two short
        # stacks are equal).
        # The middle of the table shows the pots as they are made: watch every drawing, in
        # what each one added (the messages of a batch are drawn one after another in one
        # task, so the page as the observer finds it holds only the batch's last drawing).
        people[0].page.evaluate(
            """() => { window.potsSeen = [];
              new MutationObserver((records) => { for (const record of records)
                for (const node of record.addedNodes) {
                  if (!(node instanceof Element)) continue;
                  const pots = [...node.querySelectorAll('.pot')];
                  if (pots.some(p => p.classList.contains('side')))
                    window.potsSeen.push(pots.map(p => p.textContent)); } })
              .observe(document.getElementById('main'), { childList: true, subtree: true }); }"""
        )

        def side_pot() -> bool:
            return bool(people[0].page.evaluate("window.potsSeen.length"))

        shoving: dict[int, bool] = {}

        def shove(person: Page, offered: dict[str, str]) -> str | None:
            hand = hand_number(person)
            if hand not in shoving:
                chips = sorted(totals(person).values())
                shoving[hand] = len(chips) == 3 and chips[0] < chips[1]
            if not shoving[hand]:
                return passive(person, offered)
            if person is deep:
                return "call" if "call" in offered else passive(person, offered)
            if "all-in" in offered:
                return "all-in"
            sizing = next((k for k in ("raise", "bet") if k in offered), None)
            if sizing is not None:
                person.page.click(".actions button:text-is('All-in')", timeout=2000)
                return sizing
            return "call" if "call" in offered else passive(person, offered)

        play_until(people, shove, side_pot, timeout=120)
        people[0].screenshot("table-holdem-side-pots")
        pots = people[0].page.evaluate("window.potsSeen[0]")
        assert re.fullmatch(r"Pot: \d+", pots[0]) and re.fullmatch(r"Side pot: \d+", pots[1]), pots
        # The hand's awards in the log name their pot: the main pot as "Pot", a side pot
        # with its number (the main pot was once "Pot 0"); a split pot says the shares
        # ("A and B win 1300, 650 each (Pot)", "A and you win 41 (A 21, you 20) (Pot)": a run
        # once failed when the side pot's hand split its main pot and the player whose log
        # was read went out with it).
        labelled = re.compile(r".* wins? \d+(, \d+ each| \([^)]*\))? \((Pot|Side pot \d+)\)")
        play_until(
            people,
            shove,
            lambda: any(labelled.fullmatch(line) for line in log(people[0])),
            timeout=60,
        )
        assert not [line for line in log(people[0]) if re.search(r"\(Pot \d", line)]
    finally:
        close_all(people)


# ----------------------------------------------------- the fold, the showdown


def test_a_free_fold_is_confirmed_and_the_showdown_highlights_the_winning_hand(
    room: RunningServer, browser: Any
) -> None:
    person = Page(browser, room.address, "en")
    page = person.page
    try:
        page.click(".play-now[data-rules=holdem]")
        page.wait_for_selector(".seat.me")
        top_up = page.locator(".controls button:has-text('Top up')")
        confirmed = False
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, log(person)[-20:]
            offered = buttons(person)
            if not confirmed and "check" in offered and "fold" in offered:
                click(person, "fold")
                page.wait_for_selector("[data-confirm=fold]", timeout=3000)
                assert "fold anyway" in page.inner_text(".actions [role=alert]")
                assert not any(line == "You fold" for line in log(person))
                page.keyboard.press("Escape")  # thought better of it
                page.wait_for_selector("[data-confirm=fold]", state="detached", timeout=3000)
                page.keyboard.press("c")  # and checks, from the keyboard
                said_in_this_hand(person, "You check")
                confirmed = True
            elif page.inner_text(".seat.me .stack").strip() == "0" and top_up.count():
                top_up.click()  # broke: buy in again (all in, a stack of 0 is offered none)
            elif offered:
                for kind in ("check", "call", "show", "muck", "fold"):
                    if kind in offered and click(person, kind):
                        break
            if confirmed and page.locator(".seat.winner .card.best").count() >= 1:
                break
            page.wait_for_timeout(100)
        # The winning hand: named in the seat and in the middle, its cards highlighted.
        page.wait_for_selector(".showdown p", timeout=5000)
        person.screenshot("table-holdem-showdown")
        banner = page.inner_text(".showdown")
        assert re.search(r"wins? \d+.* · \S", banner), banner
        best = page.locator(".card.best").count()
        assert best >= 5, best  # the five cards of the hand, the winner's and the board's
        assert page.locator(".seat.winner .handname").count() >= 1
    finally:
        person.close()


def test_a_spectator_watches_a_cash_table_from_the_lobby_and_sits_down(
    room: RunningServer, browser: Any
) -> None:
    """From the lobby a cash table can be watched (the hand being played told from its start,
    every hole card face down, on the page and in every frame the spectator's socket
    receives), then a free seat taken from there."""
    import json

    table = table_named(room, "Hold'em 5/10")
    people = seat_people(room, browser, table, 2)
    spectator = Page(browser, room.address, "it")
    frames: list[str] = []

    def keep(payload: str) -> None:  # a function of its own: Playwright cannot wrap a builtin
        frames.append(payload)

    spectator.page.on("websocket", lambda ws: ws.on("framereceived", keep))
    try:
        spectator.page.click(
            'section[data-rules=holdem] tr:has(td:text-is("Hold\'em 5/10")) .watch'
        )
        spectator.page.wait_for_function(
            "document.querySelectorAll('.seat[data-name] .cards .card').length === 4"
        )
        assert spectator.page.locator(".seat.me").count() == 0
        assert spectator.cards(".seat[data-name]") == ["??"] * 4
        # The log tells the hand from its start (a first look was a snapshot alone: an
        # empty log until the next hand).
        assert re.fullmatch(r"Mano n\. \d+", spectator.page.inner_text(".log p >> nth=0"))
        assert spectator.page.inner_text("button.leave") == "Torna alla sala"  # not seated
        spectator.screenshot("table-spectator")
        messages = []
        for frame in frames:
            message = json.loads(frame)
            messages += message["messages"] if message["type"] == "batch" else [message]
        dealt = [m["record"] for m in messages if m.get("record", {}).get("type") == "hole_cards"]
        snapshots = [m for m in messages if m["type"] == "snapshot"]
        assert snapshots and all(m["turn"] is None or m["turn"]["legal"] is None for m in snapshots)
        hidden = [
            card
            for snapshot in snapshots
            for cards in (snapshot["state"]["game"] or {}).get("hole", [])
            for card in cards or []
        ] + [card for record in dealt for card in record["cards"]]
        assert len(hidden) >= 4 and set(hidden) == {"??"}, hidden  # the 4 cards it drew
        # A free seat is one click from where they watch.
        spectator.page.click("button.sit-down")
        spectator.page.wait_for_selector(".seat.me", timeout=10000)
        assert spectator.page.inner_text("button.leave") == "Lascia il tavolo"
    finally:
        close_all([spectator, *people])


def test_a_player_whose_connection_is_gone_is_said_disconnected_at_their_seat(
    room: RunningServer, browser: Any
) -> None:
    """The second player's tab closes: the first sees them *disconnected* at their seat (they
    may not answer, and their clock runs), and no more once they are back."""
    table = table_named(room, "Hold'em 5/10")
    anna, bruno = seat_people(room, browser, table, 2)
    try:
        name = bruno.page.get_attribute(".seat.me", "data-name")
        said = f'.seat[data-name="{name}"] .status:has-text("disconnected")'
        assert anna.page.locator(said).count() == 0
        bruno.page.close()
        bruno.page = bruno.context.new_page()  # (blank until he comes back)
        bruno.sent = SentFrames(bruno.page)  # (his leave at the end goes from this tab)
        anna.page.wait_for_selector(said, timeout=10_000)
        anna.screenshot("table-disconnected")
        bruno.page.goto(f"{room.address}/#table/{table}")
        bruno.page.wait_for_selector(".seat.me")
        anna.page.wait_for_selector(said, state="detached", timeout=10_000)
    finally:
        close_all([anna, bruno])


def test_a_second_tab_at_the_table_asks_about_hints_once_not_for_each_event_told_again(
    browser: Any, tmp_path: Path
) -> None:
    """A tab opened on a table where the player sits hears the table's recent events told
    again, among them every change of the seats: the hints are asked about one question at a
    time, not once per change (dozens at once; each one a refusal, logged by the browser as
    an error, when the session ended meanwhile).  A room of its own: its table's every event
    is still kept, so all of them are told again (the module's room has played for long)."""
    import json

    settings = own_room(tmp_path)
    environment = {
        "MAZZIERE_BOT_SECONDS": "0.05",
        "MAZZIERE_NEXT_HAND_SECONDS": "1",
    }
    with serve(settings, tmp_path, env=environment) as room:
        person = Page(browser, room.address, "en")
        try:
            person.page.click(".play-now[data-rules=holdem]")
            person.page.wait_for_selector(".seat.me")
            for _ in range(3):
                person.play_hand("holdem")
            tab = person.context.new_page()  # the same browser: the same session
            errors: list[str] = []
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            asked: list[str] = []
            tab.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)
            frames: list[str] = []

            def keep(payload: str) -> None:  # Playwright cannot wrap a builtin
                frames.append(payload)

            tab.on("websocket", lambda ws: ws.on("framereceived", keep))
            tab.goto(room.address)
            tab.click(".my-tables a.my-table")
            tab.wait_for_selector(".seat.me")
            tab.wait_for_timeout(1500)  # the questions the events told again would ask
            messages = []
            for frame in frames:
                message = json.loads(frame)
                messages += message["messages"] if message["type"] == "batch" else [message]
            told = [m for m in messages if m["type"] == "seats"]
            opened_at = next(m["seq"] for m in messages if m["type"] == "snapshot")
            again = [m for m in told if m["seq"] <= opened_at]  # told again on opening
            live = len(told) - len(again)  # played meanwhile (a bot acts every 50 ms)
            # (Without one question at a time: one each, 1 + 4 + live at least.)
            assert len(again) >= 4, f"{len(again)} changes told again: a test of nothing"
            # One question on opening the table, one for the changes told again and one
            # more if they came while it was on its way; at most one more for each change
            # played live meanwhile.
            assert 1 <= len(asked) <= 3 + live, (len(asked), len(again), live)
            assert errors == []
            tab.close()
        finally:
            # No seat to leave for a later test: the room is this test's own, stopped
            # next (and with bots acting every 50 ms the table is drawn again too often
            # for Playwright's click on "leave" to find it still: it timed out once).
            person.context.close()
        assert person.errors == []


# ------------------------------------------- the phone, the keyboard, the labels


def unnamed_controls(page: Any) -> list[str]:
    """The table's controls that a screen reader could not name."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
              'main button, main input, main select, main [role=button], main [tabindex]')]
            .filter(el => {
              const label = el.getAttribute('aria-label') || el.innerText?.trim()
                || (el.labels && el.labels.length && el.labels[0].innerText.trim());
              return !label;
            }).map(el => el.outerHTML.slice(0, 120))"""
    )
    return found


@pytest.mark.parametrize("rules", ["italian-32", "holdem"])
def test_at_phone_width_nothing_is_cut_and_the_bar_works(
    room: RunningServer, browser: Any, rules: str
) -> None:
    person = Page(browser, room.address, "it")
    person.context.close()
    person.context = person_context(
        browser, locale="it", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    person.page = person.context.new_page()
    person.page.on("console", person._console)
    person.page.on("pageerror", lambda error: person.errors.append(f"page error: {error}"))
    person.sent = SentFrames(person.page)
    page = person.page
    try:
        page.goto(room.address)
        page.click(f".play-now[data-rules={rules}]")
        page.wait_for_selector(".actions button[data-kind]", timeout=30000)
        person.screenshot(f"table-{rules}-phone")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # no horizontal scroll
        boxes = page.eval_on_selector_all(
            ".seat, .actions button, .board .card, .seat .card",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [e.className.baseVal ?? e.className, r.left, r.right]; })",
        )
        cut = [box for box in boxes if box[1] < 0 or box[2] > 390]
        assert not cut, cut
        assert unnamed_controls(page) == []
        # The bar is usable by touch: tap buttons until the hand moves on.
        offered = buttons(person)
        kind = next(k for k in ("check", "call", "draw", "fold") if k in offered)
        mine = [line for line in log(person) if line.startswith("Tu ")]
        page.tap(f".actions button[data-kind={kind}]")
        deadline = time.monotonic() + 10
        while len([line for line in log(person) if line.startswith("Tu ")]) == len(mine):
            assert time.monotonic() < deadline, "the tap did not act"
            page.wait_for_timeout(100)
    finally:
        person.close()


def test_keyboard_shortcuts_are_listed_and_work(room: RunningServer, browser: Any) -> None:
    person = Page(browser, room.address, "en")
    try:
        keyboard_hand(person)
    finally:
        person.close()


def keyboard_hand(person: Page) -> None:
    """Play at italian-32 with the keys only, up to a draw of two marked cards."""
    page = person.page
    page.click(".play-now[data-rules=italian-32]")
    page.wait_for_selector(".seat.me")
    page.click(".shortcuts summary")
    # The table is drawn anew at its next event: the list the player opened stays open.
    # When the first decision is the player's own, nothing else happens until they act (the
    # clock ticks without a redraw): a key moves the hand on, and so brings the next event.
    page.evaluate("document.querySelector('.shortcuts').dataset.before = 'yes'")
    deadline = time.monotonic() + 30
    while page.locator(".shortcuts[data-before]").count():
        assert time.monotonic() < deadline, "the table was not drawn again"
        offered = buttons(person)
        if "draw" in offered:
            page.keyboard.press("1")  # marked and unmarked: drawn twice, nothing changed
            page.keyboard.press("1")
        elif offered:
            page.keyboard.press(key_to_go_on(offered))
        page.wait_for_timeout(300)
    assert page.is_visible(".shortcuts dl")
    listed = page.inner_text(".shortcuts dl")
    for key in ("F", "C", "B", "A", "P", "D", "1–5", "Esc"):
        assert re.search(rf"(^|\n){re.escape(key)}\s", listed), (key, listed)
    deadline = time.monotonic() + 90
    drew = False
    while not drew:
        assert time.monotonic() < deadline, log(person)[-20:]
        offered = buttons(person)
        if "draw" in offered:
            # Keys 1 and 2 mark two cards; D draws them.
            page.keyboard.press("1")
            page.keyboard.press("2")
            page.wait_for_selector(".seat.me .card.marked >> nth=1", timeout=3000)
            pressed = page.eval_on_selector_all(
                ".seat.me .card.clickable", "cs => cs.map(c => c.getAttribute('aria-pressed'))"
            )
            assert pressed[:2] == ["true", "true"], pressed
            assert "Change 2 cards" in buttons(person)["draw"]
            page.keyboard.press("d")
            said_in_this_hand(person, "You draw 2")
            drew = True
        elif offered:
            page.keyboard.press(key_to_go_on(offered))
            page.wait_for_timeout(300)
        else:
            page.wait_for_timeout(100)
    assert unnamed_controls(page) == []


def key_to_go_on(offered: dict[str, str]) -> str:
    """The key of the cheapest way on: c checks or calls, p says parole, f folds (asked to
    confirm when checking is free: f again)."""
    return "c" if {"check", "call"} & set(offered) else "p" if "parol" in offered else "f"


# ------------------------------------------------------------ hints for learners


@pytest.mark.parametrize("rules", ["holdem", "italian-32"])
def test_hints_are_an_option_against_bots_and_show_the_odds(
    room: RunningServer, browser: Any, rules: str
) -> None:
    person = Page(browser, room.address, "en")
    page = person.page
    try:
        page.click(f".play-now[data-rules={rules}]")
        page.wait_for_selector(".controls input.hints")  # every other seat is a bot
        assert not page.is_checked(".controls input.hints")  # off by default
        page.wait_for_selector(".actions button[data-kind]", timeout=30000)
        assert page.locator(".hint").count() == 0
        page.check(".controls input.hints")
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, log(person)[-20:]
            offered = buttons(person)
            if rules == "holdem" and offered:
                hint = page.wait_for_selector(".hint", timeout=10000).inner_text()
                assert re.fullmatch(
                    r"Hint: equity \d+\.\d% against \d opponents? \(any two cards\)", hint
                ), hint
                break
            if "draw" in offered:
                # The ways to change, best first; one click marks that way's cards.
                option = page.wait_for_selector(".hint .hint-option", timeout=10000)
                discard = option.get_attribute("data-discard") or ""
                assert re.match(r"(change \S+( \S+)*|stand pat): \S", option.inner_text())
                option.click()
                marked = page.eval_on_selector_all(
                    ".seat.me .card.marked", "cs => cs.map(c => c.dataset.card)"
                )
                assert sorted(marked) == sorted(discard.split()), (marked, discard)
                person.screenshot("table-italian-32-hint")
                click(person, "draw")
                break
            if offered:
                if rules != "holdem":
                    # Before the draw: the best way to change, with what it makes.
                    hint = page.wait_for_selector(".hint", timeout=10000).inner_text()
                    assert re.fullmatch(r"Hint:\s+(change \S+( \S+)*|stand pat): \S.*%", hint), hint
                for kind in ("check", "call", "parol", "fold"):
                    if kind in offered and click(person, kind):
                        break
            page.wait_for_timeout(150)
        person.screenshot(f"table-{rules}-hint")
    finally:
        person.close()
