"""Italian rules that do not depend on betting: opening, ladder, forced bets, rake, the stock."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazziere.cards import Card, Deck, Rank, parse_cards
from mazziere.evaluate import ranking_for
from mazziere.game.italian.rules import (
    InvalidStakesError,
    blind_opening_amounts,
    can_open,
    draw_deals,
    forced_blinds,
    is_bilateral_straight_flush_draw,
    missed_blind_post,
    new_player_post,
    next_opening_level,
    opening_minimum,
    opening_reason,
    rake,
    rejoin_costs,
)
from mazziere.game.italian.stock import DrawStock, StockError
from mazziere.rules import Category, find_rules

CLASSIC = find_rules("italian-classic")
I32 = find_rules("italian-32")


# ------------------------------------------------------------------ opening


@pytest.mark.parametrize(
    ("hand", "level", "opens"),
    [
        ("J♥ J♦ 9♣ 8♠ 7♠", 0, True),
        ("J♥ J♦ 9♣ 8♠ 7♠", 1, False),
        ("Q♥ Q♦ 9♣ 8♠ 7♠", 1, True),
        ("Q♥ Q♦ 9♣ 8♠ 7♠", 2, False),
        ("A♥ A♦ 9♣ 8♠ 7♠", 2, True),
        ("K♥ K♦ 9♣ 8♠ 7♠", 2, True),
        ("8♥ 8♦ 7♣ 7♠ A♠", 2, True),
        ("8♥ 9♥ 10♥ J♥ K♠", 2, True),
        ("7♥ 8♥ 9♥ 10♥ K♠", 2, True),
        ("J♥ Q♥ K♥ A♥ 8♠", 0, False),
        ("A♥ 7♥ 8♥ 9♥ K♠", 0, False),
        ("10♥ 10♦ 9♣ 8♠ 7♠", 0, False),
        ("A♥ K♦ Q♣ J♠ 9♠", 0, False),
        ("8♥ 9♥ J♥ Q♥ 7♠", 0, False),  # an inside draw is not bilateral
        ("A♣ 7♠ 8♦ 9♣ 10♥", 2, True),  # the minima straight
        ("K♥ Q♥ 10♥ 9♥ 7♥", 2, True),  # a flush
    ],
)
def test_rules_md_opening_checks(hand: str, level: int, opens: bool) -> None:
    assert can_open(parse_cards(hand), CLASSIC, players=4, level=level) is opens


def test_opening_reasons_name_the_hand() -> None:
    assert opening_reason(parse_cards("Kh Kd Kc 8s 7s"), CLASSIC, players=4, level=2) == (
        "three of a kind"
    )
    assert opening_reason(parse_cards("Jh Jd 9c 8s 7s"), CLASSIC, players=4, level=0) == (
        "pair of jacks"
    )
    assert opening_reason(parse_cards("Jh Jd 9c 8s 7s"), I32, players=4, level=0) == (
        "no opening requirement"
    )


def test_parol_pot_opens_at_kings() -> None:
    queens = parse_cards("Qh Qd 9c 8s 7s")
    assert can_open(queens, CLASSIC, players=4, level=0)
    assert not can_open(queens, CLASSIC, players=4, level=0, parol_pot=True)
    assert can_open(parse_cards("8h 9h Th Jh Ks"), CLASSIC, players=4, level=0, parol_pot=True)


def test_ladder_goes_up_sticks_at_kings_and_resets_when_won() -> None:
    level = 0
    seen = []
    for _ in range(5):
        seen.append(opening_minimum(CLASSIC, level))
        level = next_opening_level(CLASSIC, level, pot_won=False)
    assert seen == [Rank.JACK, Rank.QUEEN, Rank.KING, Rank.KING, Rank.KING]
    assert next_opening_level(CLASSIC, level, pot_won=True) == 0
    assert opening_minimum(I32, 3) is None
    assert next_opening_level(I32, 0, pot_won=False) == 0
    with pytest.raises(ValueError, match="cannot be -1"):
        opening_minimum(CLASSIC, -1)


def _in_sequence(run: tuple[Card, ...], lowest: int) -> bool:
    """Four ranks in a row, the ace playing high or just below the deck's lowest rank."""
    for ace in (Rank.ACE, lowest - 1):
        ranks = sorted(ace if c.rank == Rank.ACE else c.rank for c in run)
        if ranks == list(range(ranks[0], ranks[0] + 4)):
            return True
    return False


def _completions(run: tuple[Card, ...], deck: Deck, players: int) -> int:
    """How many cards of the deck make a straight flush with these four (brute force)."""
    if not _in_sequence(run, deck.lowest_rank):
        return 0
    ranking = ranking_for(CLASSIC, players)
    return sum(
        1
        for card in deck
        if card not in run
        and ranking.category(ranking.strength([*run, card])) == Category.STRAIGHT_FLUSH
    )


@pytest.mark.parametrize("players", range(2, 7))
def test_bilateral_draw_against_brute_force(players: int) -> None:
    """Every four cards of one suit, in every classic deck: two-ended iff two cards complete it."""
    deck = CLASSIC.deck(players)
    lowest = deck.lowest_rank
    for suit in range(4):
        suited = [c for c in deck if c.suit == suit]
        for run in itertools.combinations(suited, 4):
            other = next(c for c in deck if c.suit != suit)
            expected = _completions(run, deck, players) >= 2
            assert is_bilateral_straight_flush_draw([*run, other], lowest) is expected, run


@given(st.integers(2, 6), st.randoms(use_true_random=False))
def test_can_open_matches_its_definition(players: int, rng: random.Random) -> None:
    deck = list(CLASSIC.deck(players))
    hand = rng.sample(deck, 5)
    level = rng.randrange(3)
    ranking = ranking_for(CLASSIC, players)
    category = ranking.category(ranking.strength(hand))
    counts = {r: sum(1 for c in hand if c.rank == r) for r in {c.rank for c in hand}}
    minimum = [Rank.JACK, Rank.QUEEN, Rank.KING][level]
    expected = (
        CLASSIC.category_order.index(category) < CLASSIC.category_order.index(Category.PAIR)
        or (category == Category.PAIR and max(r for r, n in counts.items() if n == 2) >= minimum)
        or _completions_any(hand, players)
    )
    assert can_open(hand, CLASSIC, players=players, level=level) is expected


def _completions_any(hand: list[Card], players: int) -> bool:
    deck = CLASSIC.deck(players)
    return any(
        len({c.suit for c in run}) == 1 and _completions(run, deck, players) >= 2
        for run in itertools.combinations(hand, 4)
    )


# ------------------------------------------------------------- forced bets


def test_blind_opening_is_pot_then_double_then_double() -> None:
    assert blind_opening_amounts(pot=60, raises=3) == (60, 120, 240)
    with pytest.raises(InvalidStakesError):
        blind_opening_amounts(pot=0, raises=1)


def test_italian_32_forced_blinds_by_player_count() -> None:
    assert forced_blinds(I32, buio=25, players=2) == (25, 50)
    assert forced_blinds(I32, buio=25, players=3) == (25, 50)
    assert forced_blinds(I32, buio=25, players=4) == (25, 50, 100)
    assert forced_blinds(I32, buio=25, players=5) == (25, 50, 100)
    assert forced_blinds(CLASSIC, buio=25, players=5) == ()
    with pytest.raises(InvalidStakesError):
        forced_blinds(I32, buio=0, players=3)


def test_missed_blinds() -> None:
    # missed buio: the controbuio; buio and controbuio: controbuio + buio (dead);
    # all three: over + buio + controbuio (dead).
    assert missed_blind_post(I32, buio=50, players=4, missed=1) == (100, 0)
    assert missed_blind_post(I32, buio=50, players=4, missed=2) == (100, 50)
    assert missed_blind_post(I32, buio=50, players=4, missed=3) == (200, 150)
    assert missed_blind_post(I32, buio=50, players=3, missed=2) == (100, 50)
    with pytest.raises(InvalidStakesError, match="2 blinds to miss, not 3"):
        missed_blind_post(I32, buio=50, players=3, missed=3)
    assert missed_blind_post(CLASSIC, buio=50, players=3, missed=1) == (0, 0)
    assert new_player_post(I32, buio=50, players=5) == 200
    assert new_player_post(I32, buio=50, players=2) == 100


def test_rake_five_cents_per_whole_dollar_capped_by_players() -> None:
    assert [rake(p, I32, players=2) for p in (0, 99, 100, 199, 200, 1999, 2000, 2100)] == [
        0,
        0,
        5,
        5,
        10,
        95,
        100,
        100,
    ]
    assert rake(3999, I32, players=4) == 195
    assert rake(4000, I32, players=5) == 200
    assert rake(10**9, I32, players=4) == 200
    assert rake(10**9, I32, players=3) == 100
    assert rake(10**9, CLASSIC, players=3) == 0


def test_rejoin_costs() -> None:
    assert rejoin_costs([40, 40, 40], parol_players=[0, 1, 2]) == (0, 0, 0)
    assert rejoin_costs([50, 10, 50, 0], parol_players=[0, 2]) == (0, 40, 0, 50)
    assert rejoin_costs([10, 10], parol_players=[]) == (0, 0)


# ----------------------------------------------------------------------- draw


def test_fourth_card_after_everyone_in_clockwise_order() -> None:
    assert draw_deals([(2, 4), (3, 1), (0, 4), (1, 0)], fourth_late=True) == [
        (2, 3),
        (3, 1),
        (0, 3),
        (2, 1),
        (0, 1),
    ]
    assert draw_deals([(2, 4), (3, 1)], fourth_late=False) == [(2, 4), (3, 1)]


def test_stock_reshuffles_others_discards_only() -> None:
    stock = DrawStock(parse_cards("As Ks"), rng=random.Random(3))
    stock.discard(0, parse_cards("7h 8h 9h"))
    stock.discard(1, parse_cards("7c 8c"))
    cards, events = stock.deal(1, 4)
    assert set(cards[:2]) == set(parse_cards("As Ks"))
    assert set(cards[2:]) <= set(parse_cards("7h 8h 9h"))
    assert [e.position for e in events] == [1]
    assert set(events[0].cards) == set(parse_cards("7h 8h 9h"))
    # p1's leftover discard is in the new stock; p2's own are still on the pile.
    assert set(stock.discards) == set(parse_cards("7c 8c"))
    assert len(stock.reshuffled) == 1


def test_stock_passes_over_a_late_drawers_own_discards() -> None:
    # p1 threw four (three dealt, the fourth due later); p2 needs a reshuffle,
    # which takes p1's discards; p1's fourth card must not be one of them.
    stock = DrawStock(parse_cards("As Ks Qs"), rng=random.Random(5))
    stock.discard(0, parse_cards("7h 8h 9h Th"))
    assert set(stock.deal(0, 3)[0]) == set(parse_cards("As Ks Qs"))
    stock.discard(1, parse_cards("7c"))
    stock.deal(1, 1)  # a reshuffle of p1's four discards
    stock.discard(2, parse_cards("7d 8d"))
    fourth, events = stock.deal(0, 1)
    assert fourth[0] in parse_cards("7c 7d 8d")
    assert events and set(events[0].cards) <= set(parse_cards("7c 7d 8d"))


def _order(text: str) -> list[Card]:
    return [Card(word) for word in text.split()]


def test_replayed_order_is_checked_against_the_rule() -> None:
    deck = parse_cards("As Ks Qs Js")
    stock = DrawStock(deck, order=_order("As Ks Qs Js Ks"))
    stock.deal_fresh(2)
    stock.discard(0, parse_cards("Ks"))
    with pytest.raises(StockError, match="cannot come back"):
        stock.deal(0, 3)
    stock = DrawStock(deck, order=_order("As Ks Qs Js As"))
    stock.deal_fresh(2)
    stock.discard(0, parse_cards("As"))
    cards, events = stock.deal(1, 3)
    assert cards == parse_cards("Qs Js As") and events[0].cards == (Card("As"),)
    stock = DrawStock(deck, order=_order("As Ks Qs Js Ks"))
    stock.deal_fresh(4)
    with pytest.raises(StockError, match="dealt twice"):
        stock.deal(1, 1)
    with pytest.raises(StockError, match="known cards"):
        DrawStock(deck, order=[None])  # type: ignore[list-item]
    with pytest.raises(StockError, match="not in this game's deck"):
        DrawStock(deck, order=parse_cards("2c"))


def test_stock_without_random_source_cannot_reshuffle() -> None:
    stock = DrawStock([], rng=None)
    stock.discard(0, parse_cards("7h"))
    with pytest.raises(StockError, match="no random source"):
        stock.deal(1, 1)


@given(st.integers(2, 6), st.randoms(use_true_random=False), st.data())
def test_draw_never_returns_own_discards(
    players: int, rng: random.Random, data: st.DataObject
) -> None:
    """A whole classic draw with random discards, fourth cards late: no card twice, no card
    back to the player who threw it, every card accounted for."""
    deck = CLASSIC.deck(players).shuffled(rng)
    hands = {p: deck[p * 5 : p * 5 + 5] for p in range(players)}
    in_hand = sorted(data.draw(st.sets(st.integers(0, players - 1), min_size=1)))
    stock = DrawStock(CLASSIC.deck(players), order=deck[: players * 5], rng=rng)
    stock.deal_fresh(players * 5)
    thrown: dict[int, set[Card]] = {p: set() for p in in_hand}
    late = []
    for p in in_hand:
        count = data.draw(st.integers(0, 4))
        discards = rng.sample(hands[p], count)
        thrown[p].update(discards)
        hands[p] = [c for c in hands[p] if c not in discards]
        stock.discard(p, discards)
        now = 3 if count == 4 else count
        if count == 4:
            late.append(p)
        cards, _ = stock.deal(p, now)
        assert not set(cards) & thrown[p]
        hands[p] += cards
    for p in late:  # the fourth cards, after everyone, clockwise
        cards, _ = stock.deal(p, 1)
        assert not set(cards) & thrown[p]
        hands[p] += cards
    held = [c for p in in_hand for c in hands[p]]
    assert all(len(hands[p]) == 5 for p in in_hand)
    assert len(held) == len(set(held))
    folded = [c for p in range(players) if p not in in_hand for c in hands[p]]
    assert len(set(held + folded)) == len(held + folded)
    assert stock.fresh_left == len(deck) - players * 5 - sum(
        1 for c in held if c not in deck[: players * 5] and stock.owner(c) is None
    )
