"""Rule sets as data."""

import dataclasses

import pytest

from mazziere.evaluate import winners
from mazziere.rules import (
    ITALIAN_32,
    RULESETS,
    Category,
    FlushOrder,
    UnknownRulesError,
    WrongPlayerCountError,
    find_rules,
    register_rules,
    unregister_rules,
)


def test_three_rule_sets_by_name() -> None:
    assert set(RULESETS) >= {"holdem", "italian-classic", "italian-32"}
    for name in ("holdem", "italian-classic", "italian-32"):
        assert find_rules(name).name == name


def test_unknown_rules() -> None:
    with pytest.raises(UnknownRulesError, match="'omaha'"):
        find_rules("omaha")


def test_player_limits() -> None:
    assert (find_rules("holdem").min_players, find_rules("holdem").max_players) == (2, 9)
    assert find_rules("italian-classic").max_players == 6
    assert find_rules("italian-32").max_players == 5
    with pytest.raises(WrongPlayerCountError):
        find_rules("italian-classic").deck(7)


def test_differences_are_parameters() -> None:
    holdem, classic, i32 = (find_rules(n) for n in ("holdem", "italian-classic", "italian-32"))
    assert holdem.category_order.index(Category.FULL_HOUSE) < holdem.category_order.index(
        Category.FLUSH
    )
    for italian in (classic, i32):
        assert italian.category_order.index(Category.FLUSH) < italian.category_order.index(
            Category.FULL_HOUSE
        )
        assert italian.suits_break_ties
    assert classic.flush_order == FlushOrder.SUIT_THEN_RANKS
    assert i32.flush_order == FlushOrder.RANKS_THEN_SUIT
    assert classic.straight_flush_minima_beats_massima
    assert not i32.straight_flush_minima_beats_massima
    assert [len(classic.deck(n)) for n in range(2, 7)] == [24, 28, 32, 36, 40]
    assert {len(i32.deck(n)) for n in range(2, 6)} == {32}


def test_a_house_rule_is_a_new_rule_set_not_an_if() -> None:
    # A house that plays the 32-card deck with the classic flush rule.
    house = register_rules(
        dataclasses.replace(
            ITALIAN_32, name="house-suit-flush", flush_order=FlushOrder.SUIT_THEN_RANKS
        )
    )
    try:
        hands = ["K♥ Q♥ 10♥ 9♥ 8♥", "A♠ K♠ J♠ 9♠ 8♠"]
        assert winners(hands, rules="italian-32") == [1]
        assert winners(hands, rules=house) == [0]
        assert winners(hands, rules="house-suit-flush") == [0]
    finally:
        unregister_rules("house-suit-flush")
