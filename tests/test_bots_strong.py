"""The strong bot and the duel: legal play, odds-driven choices, duplicate deals."""

from __future__ import annotations

import random

import pytest

from mazziere.bots.base import BOTS, Bot, Situation, call_or_check, make_bot
from mazziere.cards import parse_cards
from mazziere.duel import duel
from mazziere.game.core import Action, ActionKind, Phase
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.rules import find_rules
from mazziere.simulation import simulate_cash


@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_strong_bots_play_a_cash_session_and_no_chip_is_lost(rules: str) -> None:
    report = simulate_cash(
        find_rules(rules), players=3, hands=12, seed=4, bots=["strong", "basic", "random"]
    )
    assert report.hands == 12 and report.ledger_total == 0


def situation(hand, rules: str = "holdem") -> Situation:
    position = hand.actor
    return Situation(
        find_rules(rules), position, hand.n, hand.view(position), hand.legal_actions(), 2
    )


def holdem_deal(first: str, second: str, board: str = "2c 7d 9s Jh 3c") -> list:
    """A card order giving position 0 ``first`` and position 1 ``second`` (one at a time)."""
    a, b = parse_cards(first), parse_cards(second)
    rest = parse_cards(board)
    used = {*a, *b, *rest}
    burns = [c for c in parse_cards("4s 5s 6s") if c not in used]
    return [a[0], b[0], a[1], b[1], burns[0], *rest[:3], burns[1], rest[3], burns[2], rest[4]]


def test_aces_raise_and_seven_deuce_folds_to_a_shove() -> None:
    bot = make_bot("strong", random.Random(1))
    # Heads up the button (position 1) posts the small blind and speaks first.
    hand = HoldemHand([200, 200], blinds=(1, 2), deck=holdem_deal("Kd Qc", "As Ah"))
    action = bot.act(situation(hand))
    assert action.kind in (ActionKind.RAISE, ActionKind.ALL_IN)
    hand = HoldemHand([200, 200], blinds=(1, 2), deck=holdem_deal("7h 2d", "As Ah"))
    hand.all_in()  # the aces shove
    assert bot.act(situation(hand)).kind is ActionKind.FOLD


def test_the_nuts_bet_on_the_river() -> None:
    bot = make_bot("strong", random.Random(2))
    deal = holdem_deal("Ah Kh", "8c 8d", board="Qh Jh Th 2c 3d")  # a royal flush for position 0
    hand = HoldemHand([400, 400], blinds=(1, 2), deck=deal)
    hand.call()  # the button completes the small blind
    hand.check()
    while sum(c is not None for c in hand.view(None).board) < 5:
        hand.check()
    assert hand.actor == 0  # the big blind speaks first after the flop
    assert bot.act(situation(hand)).kind in (ActionKind.BET, ActionKind.ALL_IN)


def test_the_draw_is_the_option_with_the_best_odds() -> None:
    hand = ItalianHand(
        "italian-32",
        [500, 500],
        buio=5,
        rng=random.Random(0),
        deck=parse_cards("Jh Ad Jd Ac 9c Kd 8s Kc 7s Qd") + parse_cards("7h 8h 9h Th Qh Ks Qs"),
    )
    while hand.phase is not Phase.DRAW:
        hand.apply(call_or_check(hand.legal_actions()))
    bot = make_bot("strong", random.Random(3))
    seen = situation(hand, "italian-32")
    action = bot.act(seen)
    assert action.kind is ActionKind.DRAW
    # Position 0 (left of the dealer) draws first: it keeps the jacks and changes three.
    assert seen.hole == tuple(parse_cards("Jh Jd 9c 8s 7s"))
    assert set(action.cards) == set(parse_cards("9c 8s 7s"))


class Caller(Bot):
    """Checks or calls, always: two of them, seats swapped on the same cards, break even."""

    kind = "caller"

    def act(self, situation: Situation) -> Action:
        if ActionKind.DRAW in situation.legal.kinds:
            return Action(ActionKind.DRAW, cards=())
        return call_or_check(situation.legal)


@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_a_duel_replays_each_deal_with_the_seats_swapped(monkeypatch, rules: str) -> None:
    monkeypatch.setitem(BOTS, "caller", Caller)
    make_bot("random", random.Random(0))
    report = duel(rules, ("caller", "caller"), hands=40, seed=3)
    # The same cards to the same seats and the same play: each pair of playings cancels.
    assert report.bots[0].per_100 == 0 and report.bots[0].ci95 == (0.0, 0.0)
    assert report.deals == 20 and report.hands >= 40


def test_a_duel_is_repeatable_zero_sum_and_reports_an_interval() -> None:
    first = duel("italian-32", ("basic", "random"), hands=60, seed=9)
    again = duel("italian-32", ("basic", "random"), hands=60, seed=9)
    assert first == again
    strong, weak = first.bots
    assert strong.per_100 == -weak.per_100
    assert strong.ci95[0] <= strong.per_100 <= strong.ci95[1]
    assert first.to_dict()["bots"][0] == {
        "name": "basic",
        "per_100": strong.per_100,
        "ci95": list(strong.ci95),
    }
    with pytest.raises(ValueError, match="two bots"):
        duel("holdem", ("basic",), hands=10)


def _built() -> tuple[int, int, int]:
    """How many tables the strong bot and the draw odds have built in this process."""
    from mazziere.bots import strong
    from mazziere.odds import italian

    return (
        strong._opponent_finals.cache_info().misses,
        strong._preflop_order.cache_info().misses,
        len(italian._CACHE),
    )


@pytest.mark.parametrize("rules", ["holdem", "italian-32"])
def test_after_the_warm_up_no_decision_builds_a_table(rules: str) -> None:
    from mazziere.bots.strong import warm_up

    warm_up(rules, [2])
    before = _built()
    duel(rules, ("strong", "basic"), hands=6, seed=5)  # heads up: the decks of two players
    assert _built() == before


def test_the_server_builds_the_bots_tables_as_it_starts(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mazziere serve``'s warm-up service: for the rule sets and sizes of the room's tables,
    in a thread, before the tables deal (here one italian-32 table of two seats)."""
    import asyncio
    import time

    from fastapi.testclient import TestClient

    from mazziere.bots import strong
    from mazziere.server.app import create_app
    from mazziere.server.settings import Settings
    from mazziere.server.storage import Database
    from mazziere.server.storage.models import RoomTable
    from mazziere.server.warm import warm_up_bots

    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        open_default_lobby=False,
        password_profile="CHEAPEST",
    )

    async def one_table() -> None:
        db = Database(settings.database_url)
        await db.upgrade()
        async with db.session() as session:
            session.add(
                RoomTable(
                    name="Due", rules="italian-32", seats=2, small_blind=5, big_blind=10,
                    min_buy_in=100, max_buy_in=400,
                )
            )  # fmt: skip
            await session.commit()
        await db.dispose()

    asyncio.run(one_table())
    strong._PREPARED.discard(("italian-32", 2))  # as in a new process
    said = ""
    with TestClient(create_app(settings, services=[warm_up_bots])):
        for _ in range(600):
            said += capsys.readouterr().out
            if "Bots ready" in said:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the bots' tables were not built in a minute")
    assert said.startswith("Bots ready: italian-32 (2-2 players) in "), said
    assert ("italian-32", 2) in strong._PREPARED
