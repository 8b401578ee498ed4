"""A table's deck source: the next hands dealt from a given card order, then from the rng."""

from __future__ import annotations

from mazziere.cards import parse_cards
from mazziere.game.core import HoleCardsDealt
from mazziere.room.plan import HandPlan
from tests.room_helpers import holdem_table, italian_table, passive, play_hand


def _hole_by_name(table) -> dict[str, str]:  # type: ignore[no-untyped-def]
    assert table.hand is not None and table.plan is not None
    cards: dict[str, str] = {}
    for record in table.hand.log:
        if isinstance(record, HoleCardsDealt):
            name = table.seats[table.plan.seats[record.position]].name
            cards[name] = " ".join(str(c) for c in record.cards)
    return cards


def test_an_italian_table_deals_the_given_cards_by_seat() -> None:
    table = italian_table("italian-32", seats=3)
    for name in ("ann", "bob", "cal"):
        table.sit_down(name, 1000, post=True)
    wanted = {
        "ann": parse_cards("Ah Ad Ac Kh Kd"),
        "bob": parse_cards("7h 8h 9h Th Jh"),
        "cal": parse_cards("7s 8c 9d Ts Qc"),
    }
    plans: list[HandPlan] = []

    def deck(plan: HandPlan) -> list:  # type: ignore[type-arg]
        plans.append(plan)
        hands = [wanted[table.seats[seat].name] for seat in plan.seats]
        # One card at a time from the dealer's left, as the engine deals.
        return [hands[p][k] for k in range(5) for p in range(len(hands))]

    table.deck_source = deck
    assert table.start_hand()
    assert len(plans) == 1
    assert _hole_by_name(table) == {
        "ann": "Ah Ad Ac Kh Kd",
        "bob": "7h 8h 9h Th Jh",
        "cal": "7s 8c 9d Ts Qc",
    }
    play_hand(table, passive)
    assert table.ledger.total() == 0


def test_a_holdem_table_deals_the_order_then_goes_on_with_its_rng() -> None:
    table = holdem_table(seats=2)
    table.sit_down("ann", 500, post=True)
    table.sit_down("bob", 500, post=True)
    table.deck_source = lambda plan: parse_cards("Ah Kd")  # only the first two cards
    assert table.start_hand()
    first = [c for r in table.hand.log if isinstance(r, HoleCardsDealt) for c in r.cards]  # type: ignore[union-attr]
    assert [str(c) for c in first[:1]] == ["Ah"]
    assert len(set(first)) == 4
    play_hand(table, passive)
    table.deck_source = None
    assert table.start_hand()  # the next hand is shuffled as usual
