"""Whole-deck checks: Hold'em against treys, Italian against a simple evaluator."""

import itertools
import random
from collections import Counter

import numpy as np
import pytest
import treys
from hypothesis import given
from hypothesis import strategies as st

from mazziere.cards import CARDS, Card, Deck
from mazziere.evaluate import (
    RANK_KEYS_5,
    RANK_KEYS_7,
    evaluate,
    evaluate_batch,
    holdem_strength5,
    holdem_strength7,
    ranking_for,
)
from mazziere.rules import find_rules

from .italian_oracle import compare as oracle_compare
from .italian_oracle import describe as oracle_describe

HOLDEM_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}


def _unique_sums(keys: tuple[int, ...], size: int) -> bool:
    sums = set()
    count = 0
    for combo in itertools.combinations_with_replacement(range(len(keys)), size):
        if max(Counter(combo).values()) <= 4:
            sums.add(sum(keys[i] for i in combo))
            count += 1
    return len(sums) == count


def test_rank_keys_tell_every_multiset_apart() -> None:
    assert _unique_sums(RANK_KEYS_7, 7)
    assert _unique_sums(RANK_KEYS_5, 5)


def test_holdem_every_five_card_hand() -> None:
    ranking = ranking_for("holdem")
    strengths = Counter(holdem_strength5(h) for h in itertools.combinations(range(52), 5))
    assert len(strengths) == 7462 == ranking.size
    categories: Counter[str] = Counter()
    for strength, count in strengths.items():
        categories[ranking.category(strength).value] += count
    assert dict(categories) == HOLDEM_COUNTS
    assert sum(categories.values()) == 2_598_960


def test_holdem_seven_cards_ordered_as_treys_orders_them() -> None:
    rng = random.Random(20261129)
    evaluator = treys.Evaluator()
    treys_card = [treys.Card.new(str(c)) for c in CARDS]
    pairs = 100_000
    disagreements = 0
    for _ in range(pairs):
        cards = rng.sample(range(52), 9)
        board = cards[4:]
        a, b = cards[:2] + board, cards[2:4] + board
        ours = (holdem_strength7(a) > holdem_strength7(b)) - (
            holdem_strength7(a) < holdem_strength7(b)
        )
        ta = evaluator.evaluate([treys_card[c] for c in a[:2]], [treys_card[c] for c in board])
        tb = evaluator.evaluate([treys_card[c] for c in b[:2]], [treys_card[c] for c in board])
        theirs = (ta < tb) - (ta > tb)  # treys: lower is better
        disagreements += ours != theirs
    assert disagreements == 0


def test_holdem_seven_cards_of_every_suit_mix_agree_with_rich_api() -> None:
    # The fast path tells flushes by a seven-bit suit sum that some other
    # mixes share; every mix, flush or not, must come out as the rich API says.
    rng = random.Random(7)
    mixes = [m for m in itertools.product(range(8), repeat=4) if sum(m) == 7]
    assert len(mixes) == 120
    for mix in mixes:
        for _ in range(40):
            cards = [
                rank * 4 + suit
                for suit, count in enumerate(mix)
                for rank in rng.sample(range(13), count)
            ]
            rng.shuffle(cards)
            assert holdem_strength7(cards) == evaluate(cards).strength


def test_holdem_six_cards_and_rich_api_agree_with_fast_path() -> None:
    rng = random.Random(6)
    for _ in range(2000):
        cards = [CARDS[i] for i in rng.sample(range(52), 7)]
        value = evaluate(cards)
        assert value.strength == holdem_strength7(cards)
        assert holdem_strength5(value.cards) == value.strength
        six = cards[:6]
        assert evaluate(six).strength == max(
            holdem_strength5(five) for five in itertools.combinations(six, 5)
        )


ITALIAN_DECKS = [("classic", "italian-classic", n) for n in range(2, 7)] + [
    ("32", "italian-32", None)
]


@pytest.mark.parametrize(("profile", "rules", "players"), ITALIAN_DECKS)
def test_italian_category_counts_match_the_simple_evaluator(
    profile: str, rules: str, players: int | None
) -> None:
    ranking = ranking_for(rules, players)
    deck = find_rules(rules).deck(players)
    names = [str(c) for c in CARDS]
    fast: Counter[str] = Counter()
    slow: Counter[str] = Counter()
    for hand in itertools.combinations(deck, 5):
        fast[ranking.category(ranking.strength(hand)).value] += 1
        slow[oracle_describe([names[c] for c in hand], deck.lowest_rank, profile)[0]] += 1
    assert fast == slow
    assert sum(fast.values()) == len(list(itertools.combinations(range(len(deck)), 5)))


@pytest.mark.parametrize(("profile", "rules", "players"), ITALIAN_DECKS)
def test_italian_random_pairs_agree_with_the_simple_evaluator(
    profile: str, rules: str, players: int | None
) -> None:
    # A seed of its own for each deck, the same in every run (str's hash() changes between
    # processes: a disagreement found once could not be found again).
    rng = random.Random(f"{rules}-{players}")
    deck = list(find_rules(rules).deck(players))
    lowest = find_rules(rules).lowest_rank(players)
    names = [str(c) for c in CARDS]
    disagreements = 0
    for _ in range(100_000):
        cards = rng.sample(deck, 10)
        a, b = cards[:5], cards[5:]
        ours = evaluate(a, rules=rules, players=players)
        theirs = evaluate(b, rules=rules, players=players)
        mine = (ours > theirs) - (ours < theirs)
        expected = oracle_compare([names[c] for c in a], [names[c] for c in b], lowest, profile)
        disagreements += mine != expected
        assert mine != 0  # suits break every tie: two different hands never tie
    assert disagreements == 0


def test_italian_straight_flushes_exhaustively() -> None:
    # The rare part: every pair of straight flushes in every classic deck.
    for players in range(2, 7):
        deck = Deck.italian(players)
        names = [str(c) for c in CARDS]
        ranking = ranking_for("italian-classic", players)
        flushes = [
            hand
            for hand in itertools.combinations(deck, 5)
            if ranking.category(ranking.strength(hand)).value == "straight_flush"
        ]
        values = [evaluate(h, rules="italian-classic", players=players) for h in flushes]
        for (a, va), (b, vb) in itertools.product(zip(flushes, values, strict=False), repeat=2):
            mine = (va > vb) - (va < vb)
            assert mine == oracle_compare(
                [names[c] for c in a], [names[c] for c in b], deck.lowest_rank, "classic"
            )


@pytest.mark.parametrize(
    ("rules", "players", "size"),
    [
        ("holdem", None, 7),
        ("holdem", None, 5),
        ("holdem", None, 6),
        ("italian-32", None, 5),
        ("italian-classic", 3, 5),
        ("italian-classic", 6, 5),
    ],
)
def test_batch_agrees_with_single_calls(rules: str, players: int | None, size: int) -> None:
    rng = np.random.default_rng(7)
    deck = np.array(list(find_rules(rules).deck(players)))
    hands = np.array([rng.choice(deck, size, replace=False) for _ in range(20_000)], dtype=np.uint8)
    strengths = evaluate_batch(hands, rules=rules, players=players)
    ranking = ranking_for(rules, players)
    assert strengths.dtype == np.int32
    assert strengths.tolist() == [ranking.strength(h.tolist()) for h in hands]


hand7 = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@given(hand7, hand7, hand7)
def test_holdem_order_is_total(a: list[int], b: list[int], c: list[int]) -> None:
    va, vb, vc = (evaluate(h) for h in (a, b, c))
    assert (va < vb) + (va == vb) + (va > vb) == 1
    if va <= vb <= vc:
        assert va <= vc


piquet = st.lists(st.integers(20, 51), min_size=5, max_size=5, unique=True)


@given(piquet, piquet, piquet)
def test_italian_32_order_is_total_and_strict(a: list[int], b: list[int], c: list[int]) -> None:
    va, vb, vc = (evaluate(h, rules="italian-32") for h in (a, b, c))
    assert (va < vb) + (va == vb) + (va > vb) == 1
    if not set(a) & set(b):  # two hands of one deal never tie
        assert va != vb
    if va < vb < vc:
        assert va < vc


@given(hand7, st.randoms(use_true_random=False))
def test_holdem_permutation_gives_the_same_value(hand: list[int], rng: random.Random) -> None:
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert evaluate(hand) == evaluate(shuffled)
    assert holdem_strength7(hand) == holdem_strength7(shuffled)


@given(st.integers(2, 6), st.data())
def test_italian_permutation_gives_the_same_value(players: int, data: st.DataObject) -> None:
    deck = list(Deck.italian(players))
    hand = data.draw(st.lists(st.sampled_from(deck), min_size=5, max_size=5, unique=True))
    shuffled = data.draw(st.permutations(hand))
    assert evaluate(hand, rules="italian-classic", players=players) == evaluate(
        shuffled, rules="italian-classic", players=players
    )


def test_card_objects_and_plain_ints_evaluate_alike() -> None:
    hand = [Card("Ah"), Card("Kd"), Card("Qs"), Card("Jc"), Card("9h")]
    assert ranking_for("italian-32").strength(hand) == ranking_for("italian-32").strength(
        [int(c) for c in hand]
    )
