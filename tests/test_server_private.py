"""Private tables, the waiting list and the hand downloads over REST, on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mazziere.game.core import HoleCardsDealt
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import Discarded, ItalianHand
from mazziere.history import phh
from mazziere.history.holdem import to_phh
from mazziere.history.phh_italian import dumps_italian
from mazziere.room.structure import Stakes
from mazziere.server.app import create_app
from mazziere.server.settings import Settings
from mazziere.server.storage import ledger, seating
from mazziere.server.storage.models import Hand, HandSeat, Seat, utc_now
from tests.italian_play import random_action
from tests.server_client import RoomClient, error_code

HOME_GAME = {
    "name": "Giovedì",
    "rules": "italian-classic",
    "seats": 5,
    "ante": 10,
    "min_buy_in": 200,
    "max_buy_in": 1_000,
}


@pytest.fixture
def app_client(room_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(room_settings)) as client:
        yield client


def on_app(client: TestClient, work: Any) -> Any:
    """Run ``work(session)`` on the app's own event loop and database, committing after."""

    async def run() -> Any:
        async with client.app.state.room.db.session() as session:  # type: ignore[attr-defined]
            result = await work(session)
            await session.commit()
            return result

    assert client.portal is not None
    return client.portal.call(run)


def test_a_host_who_gives_no_stakes_or_buy_ins_gets_a_home_games(app_client: TestClient) -> None:
    """The terminal's ``--host`` gives a name, the rules and the seats only: the table has the
    room's home-game stakes of its rules and buy-ins of 200 to 1,000; stakes given are kept
    as given (none filled in beside them)."""
    host = RoomClient(app_client)
    host.guest()
    made = {}
    for rules in ("italian-classic", "italian-32", "holdem"):
        answer = host.post("/api/private-tables", {"name": "Casa", "rules": rules, "seats": 3})
        assert answer.status_code == 201, answer.text
        made[rules] = answer.json()
    forced = {r: (t["stakes"]["small_blind"], t["stakes"]["big_blind"], t["stakes"]["ante"])
              for r, t in made.items()}  # fmt: skip
    assert forced == {"italian-classic": (0, 0, 10), "italian-32": (5, 10, 0), "holdem": (5, 10, 0)}
    assert {(t["min_buy_in"], t["max_buy_in"]) for t in made.values()} == {(200, 1_000)}
    # The room's rule sets say the same home game (the private page's form starts from it).
    said = {r["name"]: r["home_game"] for r in host.get("/api/rule-sets").json()["rule_sets"]}
    for rules, table in made.items():
        home = said[rules]
        assert (home["small_blind"], home["big_blind"], home["ante"]) == forced[rules]
        assert (home["min_buy_in"], home["max_buy_in"], home["decision_seconds"]) == (
            table["min_buy_in"], table["max_buy_in"], table["decision_seconds"]
        )  # fmt: skip
    given = {"name": "Alta", "rules": "holdem", "seats": 3, "small_blind": 50, "big_blind": 100}
    too_small = host.post("/api/private-tables", given)  # 200 is not ten big blinds of 100
    assert error_code(too_small) == "bad_table", too_small.text
    answer = host.post("/api/private-tables", {**given, "min_buy_in": 2_000, "max_buy_in": 9_000})
    assert answer.status_code == 201, answer.text
    assert answer.json()["stakes"]["small_blind"] == 50


def test_a_host_creates_a_private_table_friends_ask_and_the_host_decides(
    app_client: TestClient,
) -> None:
    host, friend, stranger = (RoomClient(app_client) for _ in range(3))
    host.register("Ospite")
    friend.register("Amico")
    stranger.register("Estraneo")
    created = host.post("/api/private-tables", HOME_GAME)
    assert created.status_code == 201, created.text
    table = created.json()
    assert (table["private"], table["you_are_host"], table["host"]) == (True, True, "Ospite")
    assert table["invite_link"].endswith(f"/api/invites/{table['invite_code']}")
    assert all(t["id"] != table["id"] for t in host.get("/api/tables").json()["tables"])

    seen = friend.get(f"/api/invites/{table['invite_code']}").json()
    assert (seen["id"], seen["you_are_host"], seen["your_request"]) == (table["id"], False, None)
    asked = friend.post(f"/api/invites/{table['invite_code']}/requests", {"buy_in": 500})
    assert asked.status_code == 201
    assert asked.json()["state"] == "pending"
    twice = friend.post(f"/api/invites/{table['invite_code']}/requests", {"buy_in": 500})
    assert error_code(twice) == "already_asked"
    too_much = stranger.post(f"/api/invites/{table['invite_code']}/requests", {"buy_in": 5_000})
    assert error_code(too_much) == "bad_buy_in"
    stranger.post(f"/api/invites/{table['invite_code']}/requests", {"buy_in": 300})
    assert error_code(friend.get(f"/api/invites/{'x' * 12}")) == "no_such_invite"

    requests = host.get(f"/api/private-tables/{table['id']}/requests").json()
    assert [(r["player"], r["state"]) for r in requests] == [
        ("Amico", "pending"),
        ("Estraneo", "pending"),
    ]
    not_host = friend.post(
        f"/api/private-tables/{table['id']}/requests/{requests[0]['id']}/approve"
    )
    assert (not_host.status_code, error_code(not_host)) == (403, "not_the_host")
    base = f"/api/private-tables/{table['id']}/requests"
    assert host.post(f"{base}/{requests[0]['id']}/approve").json()["state"] == "approved"
    assert host.post(f"{base}/{requests[1]['id']}/refuse").json()["state"] == "refused"
    assert error_code(host.post(f"{base}/{requests[1]['id']}/approve")) == "already_decided"

    ids = [a["id"] for a in _accounts(host, friend, stranger)]
    refusals = on_app(app_client, lambda s: _refusals(s, table["id"], ids))
    assert refusals == [None, None, "not_approved"]
    watching = on_app(app_client, lambda s: _refusals(s, table["id"], ids, watch=True))
    assert watching == [None, None, "not_approved"]  # watched by whom the host let sit
    mine = friend.get("/api/private-tables").json()["tables"]
    assert [(t["id"], t["your_request"]["state"]) for t in mine] == [(table["id"], "approved")]


def _accounts(*browsers: RoomClient) -> list[dict[str, Any]]:
    return [b.get("/api/account").json() for b in browsers]


async def _refusals(
    session: Any,
    table_id: int,
    accounts: list[int],
    now: dt.datetime | None = None,
    *,
    watch: bool = False,
) -> list[str | None]:
    found = [
        await seating.watch_refusal(session, table_id, a)
        if watch
        else await seating.sit_refusal(session, table_id, a, now=now)
        for a in accounts
    ]
    return [None if f is None else f[0] for f in found]


async def _free_a_seat(session: Any, table_id: int) -> None:
    seat = await session.scalar(select(Seat).where(Seat.table_id == table_id).limit(1))
    await session.delete(seat)


def test_a_table_without_approval_takes_everyone_who_asks(app_client: TestClient) -> None:
    host, friend = RoomClient(app_client), RoomClient(app_client)
    host.guest()
    me = friend.guest()
    table = host.post("/api/private-tables", {**HOME_GAME, "approval_required": False}).json()
    asked = friend.post(f"/api/invites/{table['invite_code']}/requests", {"buy_in": 200})
    assert asked.json()["state"] == "approved"
    assert on_app(app_client, lambda s: _refusals(s, table["id"], [me["id"]])) == [None]


def test_a_minimum_buy_in_under_ten_forced_bets_is_refused(app_client: TestClient) -> None:
    """50/100 with buy-ins of 10 to 20 made every hand an all-in on the blinds."""
    host = RoomClient(app_client)
    host.guest()
    blinds = {**HOME_GAME, "rules": "holdem", "ante": 0, "small_blind": 50, "big_blind": 100}
    short = host.post("/api/private-tables", {**blinds, "min_buy_in": 10, "max_buy_in": 20})
    assert (short.status_code, error_code(short)) == (422, "bad_table")
    assert "1000 here, not 10" in short.json()["error"]["message"]
    invito = host.post("/api/private-tables", {**HOME_GAME, "min_buy_in": 99})  # invito 10
    assert error_code(invito) == "bad_table"
    assert host.get("/api/private-tables").json()["tables"] == []
    enough = host.post("/api/private-tables", {**blinds, "min_buy_in": 1000, "max_buy_in": 5000})
    assert enough.status_code == 201, enough.text


def test_a_request_the_wallet_cannot_pay_is_refused(app_client: TestClient) -> None:
    """Asked for more than the balance, it would be approved for a seat never taken (the
    player could not ask again while it stood)."""
    host, friend = RoomClient(app_client), RoomClient(app_client)
    host.guest()
    friend.guest()
    balance = friend.get("/api/wallet").json()["balance"]
    table = host.post("/api/private-tables", {**HOME_GAME, "max_buy_in": 2 * balance}).json()
    invite = f"/api/invites/{table['invite_code']}/requests"
    too_much = friend.post(invite, {"buy_in": balance + 1})
    assert (too_much.status_code, error_code(too_much)) == (409, "insufficient_funds")
    assert host.get(f"/api/private-tables/{table['id']}/requests").json() == []
    assert friend.post(invite, {"buy_in": balance}).status_code == 201  # all of it will do


def test_the_host_pauses_resumes_and_changes_the_stakes(app_client: TestClient) -> None:
    host, friend = RoomClient(app_client), RoomClient(app_client)
    host.guest()
    friend.guest()
    table = host.post("/api/private-tables", HOME_GAME).json()
    path = f"/api/private-tables/{table['id']}"
    assert host.post(f"{path}/pause").json()["state"] == "paused"
    assert error_code(host.post(f"{path}/pause")) == "not_open"
    assert error_code(friend.post(f"{path}/resume")) == "not_the_host"
    assert host.post(f"{path}/resume").json()["state"] == "open"

    bad = host.post(f"{path}/stakes", {"small_blind": 5, "big_blind": 10})
    assert (bad.status_code, error_code(bad)) == (422, "bad_stakes")
    # Nobody sits: the new stakes apply at once.
    changed = host.post(f"{path}/stakes", {"ante": 20}).json()
    assert (changed["stakes"]["label"], changed["next_stakes"]) == ("invito 20", None)

    # Somebody sits: they wait for the next hand, which the table service takes.
    sit(app_client, table["id"], friend)
    pending = host.post(f"{path}/stakes", {"ante": 50}).json()
    assert (pending["stakes"]["label"], pending["next_stakes"]["label"]) == (
        "invito 20",
        "invito 50",
    )
    on_app(app_client, lambda s: s.run_sync(seating.stakes_taken, table["id"], Stakes(ante=50)))
    after = host.get(f"/api/invites/{table['invite_code']}").json()
    assert (after["stakes"]["label"], after["next_stakes"]) == ("invito 50", None)


def sit(client: TestClient, table_id: int, browser: RoomClient, buy_in: int = 500) -> None:
    """What the table service does when a player sits: the buy-in and the seat row."""
    account = browser.get("/api/account").json()["id"]
    on_app(client, lambda session: _sit(session, table_id, account, buy_in))


async def _sit(session: Any, table_id: int, account: int, buy_in: int) -> None:
    await ledger.move(
        session, ledger.Kind.BUY_IN, ledger.wallet_key(account), ledger.table_key(table_id),
        buy_in, account_id=account, table_id=table_id,
    )  # fmt: skip
    seat = len(
        list(await session.scalars(Seat.__table__.select().where(Seat.table_id == table_id)))
    )
    session.add(Seat(table_id=table_id, seat=seat, account_id=account, stack=buy_in))
    await session.run_sync(seating.leave_waiting_list, table_id, account)


def test_the_settle_up_shows_buy_ins_cash_outs_and_results(app_client: TestClient) -> None:
    host, anna, bruno = (RoomClient(app_client) for _ in range(3))
    host.register("Casa")
    anna.register("Anna")
    bruno.register("Bruno")
    table = host.post("/api/private-tables", HOME_GAME).json()
    sit(app_client, table["id"], anna, 500)
    sit(app_client, table["id"], bruno, 300)
    bruno_id = bruno.get("/api/account").json()["id"]

    async def play_and_leave(session: Any) -> None:
        # Bruno's 300 went to Anna; Bruno cashes out nothing, Anna stays with 800.
        (anna_seat,) = [
            s
            for s in await session.scalars(select(Seat).where(Seat.table_id == table["id"]))
            if s.stack == 500
        ]
        anna_seat.stack = 800
        await session.execute(
            Seat.__table__.delete().where(Seat.table_id == table["id"], Seat.account_id == bruno_id)
        )

    on_app(app_client, play_and_leave)
    settle = anna.get(f"/api/private-tables/{table['id']}/settle-up").json()
    lines = {line["player"]: line for line in settle["players"]}
    assert lines["Anna"] == {
        "player": "Anna", "bought_in": 500, "cashed_out": 0, "stack": 800, "result": 300,
    }  # fmt: skip
    assert lines["Bruno"]["result"] == -300
    stranger = RoomClient(app_client)
    stranger.guest()
    refused = stranger.get(f"/api/private-tables/{table['id']}/settle-up")
    assert error_code(refused) == "not_at_the_table"


def test_a_full_table_has_a_waiting_list_in_order(app_client: TestClient) -> None:
    browsers = [RoomClient(app_client) for _ in range(4)]
    for browser in browsers:
        browser.guest()
    (table,) = browsers[0].get("/api/tables?stakes=5/10&rules=holdem").json()["tables"]
    early = browsers[0].post(f"/api/tables/{table['id']}/waiting-list")
    assert error_code(early) == "seat_free"
    for n in range(table["seats"]):  # the table fills (with bots, as the table service seats them)
        on_app(app_client, lambda s, n=n: _bot(s, table["id"], n))
    for browser in browsers[:3]:
        assert browser.post(f"/api/tables/{table['id']}/waiting-list").status_code == 201
    listing = browsers[3].get(f"/api/tables/{table['id']}/waiting-list").json()
    assert [w["position"] for w in listing["waiting"]] == [1, 2, 3]
    assert listing["you"] is None
    assert browsers[1].get(f"/api/tables/{table['id']}/waiting-list").json()["you"] == 2
    assert browsers[0].delete(f"/api/tables/{table['id']}/waiting-list").status_code == 200
    ids = [b.get("/api/account").json()["id"] for b in browsers]
    # A seat frees up: it is kept for the first player waiting.
    on_app(app_client, lambda s: _free_a_seat(s, table["id"]))
    refusals = on_app(app_client, lambda s: _refusals(s, table["id"], ids))
    assert refusals == ["waiting_list", None, "waiting_list", "waiting_list"]
    # Not taken in time: the first player waiting loses their place to the next.
    later = utc_now() + dt.timedelta(seconds=seating.SEAT_OFFER_SECONDS + 1)
    refusals = on_app(app_client, lambda s: _refusals(s, table["id"], ids, now=later))
    assert refusals == ["waiting_list", "waiting_list", None, "waiting_list"]
    listing = browsers[2].get(f"/api/tables/{table['id']}/waiting-list").json()
    assert [w["position"] for w in listing["waiting"]] == [1]
    assert listing["you"] == 1
    assert (
        browsers[3].get("/api/tables?stakes=5/10&rules=holdem").json()["tables"][0]["waiting"] == 1
    )


def test_play_now_picks_a_free_seat_then_the_list_where_a_seat_comes_first(
    app_client: TestClient,
) -> None:
    """``POST /api/play-now``, the one rule behind the browser's *Gioca ora* and the
    terminal's ``--rules``: a free seat at the table with the fewest people, then the lowest
    stakes; every table full, the waiting list with the most bots for the people waiting
    (a bot gives its seat up), then the shortest, joined once."""
    anna, bruno, carla, dario = (RoomClient(app_client) for _ in range(4))
    for browser in (anna, bruno, carla, dario):
        browser.guest()
    low, high = anna.get("/api/tables?rules=holdem").json()["tables"]  # 1/2, then 5/10
    assert (low["stakes"]["label"], high["stakes"]["label"]) == ("1/2", "5/10")

    def play_now(browser: RoomClient) -> tuple[int, bool, int | None]:
        answer = browser.post("/api/play-now", json={"rules": "holdem"})
        assert answer.status_code == 200, answer.text
        chosen = answer.json()
        return chosen["table"]["id"], chosen["waiting"], chosen["table"]["you_wait"]

    assert play_now(anna) == (low["id"], False, None)  # both empty: the lower stakes
    bruno_id = bruno.get("/api/account").json()["id"]
    on_app(app_client, lambda s: _sit(s, low["id"], bruno_id, 100))
    assert play_now(anna) == (high["id"], False, None)  # fewer people, though dearer
    assert play_now(bruno) == (high["id"], False, None)  # a seat more: not where they sit
    # Every seat taken: the 1/2 with Bruno and bots, the 5/10 with bots only, two waiting.
    for n in range(1, low["seats"]):
        on_app(app_client, lambda s, n=n: _bot(s, low["id"], n))
    for n in range(high["seats"]):
        on_app(app_client, lambda s, n=n: _bot(s, high["id"], n))
    for browser in (carla, dario):
        assert browser.post(f"/api/tables/{high['id']}/waiting-list").status_code == 201
    # 1/2: 5 bots, nobody waiting; 5/10: 6 bots, 2 waiting: a seat comes first at the 1/2.
    assert play_now(anna) == (low["id"], True, 1)
    assert play_now(anna) == (low["id"], True, 1)  # on its list already: not joined twice
    assert anna.get(f"/api/tables/{low['id']}/waiting-list").json()["you"] == 1
    assert error_code(anna.post("/api/play-now", json={"rules": "omaha"})) == "unknown_rules"
    extra = anna.post("/api/play-now", json={"rules": "holdem", "table": 1})
    assert error_code(extra) == "invalid_input"
    seated = bruno.post("/api/play-now", json={"rules": "holdem"})  # at the 1/2: the 5/10's list
    assert seated.json()["table"]["id"] == high["id"] and seated.json()["waiting"]
    stranger = RoomClient(app_client)
    assert stranger.post("/api/play-now", json={"rules": "holdem"}).status_code == 401


async def _bot(session: Any, table_id: int, seat: int) -> None:
    session.add(Seat(table_id=table_id, seat=seat, bot="basic", stack=1_000))


def _italian_hand_with_a_draw() -> ItalianHand:
    for seed in range(200):
        rng = random.Random(seed)
        hand = ItalianHand("italian-32", [1_000] * 4, buio=5, rng=random.Random(seed))
        while not hand.is_over:
            hand.apply(random_action(hand, rng))
        drew = [r for r in hand.log if isinstance(r, Discarded) and r.cards]
        if len({r.position for r in drew}) >= 2:
            return hand
    raise AssertionError("no hand with two players drawing")


def test_a_player_downloads_their_hand_with_only_what_they_saw(app_client: TestClient) -> None:
    anna, bruno = RoomClient(app_client), RoomClient(app_client)
    anna.register("Anna")
    bruno.register("Bruno")
    ids = [b.get("/api/account").json()["id"] for b in (anna, bruno)]
    hand = _italian_hand_with_a_draw()
    names = ["Anna", "Bruno", "bot-1", "bot-2"]
    history = dumps_italian(hand, extra={"players": names, "_seed": "ab" * 32})
    table = anna.get("/api/tables?rules=italian-32").json()["tables"][0]

    async def store(session: Any) -> int:
        row = Hand(
            table_id=table["id"], number=1, rules="italian-32", seed="ab" * 32,
            commitment="c" * 64, setup={}, result={}, history=history, state="finished",
        )  # fmt: skip
        session.add(row)
        await session.flush()
        for position, name in enumerate(names):
            session.add(
                HandSeat(
                    hand_id=row.id, seat=position, name=name, stack=1_000,
                    account_id=ids[position] if position < 2 else None,
                    bot=None if position < 2 else "basic",
                )
            )  # fmt: skip
        return int(row.id)

    hand_id = on_app(app_client, store)
    listed = anna.get("/api/hands").json()["hands"]
    assert [(h["id"], h["seat"], h["state"]) for h in listed] == [(hand_id, 0, "finished")]
    answer = anna.get(f"/api/hands/{hand_id}/phh")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    mine = phh.loads(answer.text)
    shown = {
        line.split()[0]
        for line in mine["actions"]
        if " sm " in f"{line} " and len(line.split()) > 2
    }
    for record in hand.log:
        if isinstance(record, HoleCardsDealt):
            cards = "".join(str(c) for c in record.cards)
            visible = record.position == 0
            assert (cards in answer.text) is visible or f"p{record.position + 1}" in shown
        if isinstance(record, Discarded) and record.cards and record.position != 0:
            line = f"p{record.position + 1} sd {''.join(str(c) for c in record.cards)}"
            assert line not in answer.text
    assert "reshuffle" not in answer.text
    assert mine["players"] == names
    assert "????" in answer.text
    # Bruno gets his own view; a stranger gets nothing.
    assert bruno.get(f"/api/hands/{hand_id}/phh").text != answer.text
    stranger = RoomClient(app_client)
    stranger.guest()
    assert error_code(stranger.get(f"/api/hands/{hand_id}/phh")) == "no_such_hand"
    assert stranger.get("/api/hands").json()["hands"] == []


def test_a_holdem_download_hides_the_folded_hole_cards() -> None:
    from mazziere.server.hands import player_view

    hand = HoldemHand([200, 200, 200], blinds=(1, 2), rng=random.Random(7))
    hand.fold()
    hand.fold()
    text = phh.dumps(to_phh(hand, players=["a", "b", "c"]))
    holes = [r for r in hand.log if isinstance(r, HoleCardsDealt)]
    for position in range(3):
        view = player_view(text, position)
        for record in holes:
            cards = "".join(str(c) for c in record.cards)
            assert (cards in view) is (record.position == position)


def test_the_host_chooses_whether_hints_are_allowed(app_client: TestClient) -> None:
    from mazziere.server.play import table_config
    from mazziere.server.storage.models import RoomTable

    host = RoomClient(app_client)
    host.register("Maestra")
    plain = host.post("/api/private-tables", HOME_GAME).json()
    taught = host.post("/api/private-tables", {**HOME_GAME, "hints_allowed": True}).json()
    assert (plain["hints_allowed"], taught["hints_allowed"]) == (False, True)

    async def configs(session: Any) -> list[bool]:
        rows = [await session.get(RoomTable, t["id"]) for t in (plain, taught)]
        return [table_config(row).hints_allowed for row in rows]

    # The running table reads the host's choice from the stored row.
    assert on_app(app_client, configs) == [False, True]
