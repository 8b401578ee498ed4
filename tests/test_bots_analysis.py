"""Card knowledge of the rule-based bot: Chen scores, hand strength, draws, discards."""

from __future__ import annotations

import random

import pytest

from mazziere.bots.analysis import (
    chen_score,
    holdem_draws,
    holdem_hand_strength,
    italian_category,
    italian_discards,
    italian_percentile,
)
from mazziere.cards import Deck, parse_cards
from mazziere.rules import Category, find_rules


@pytest.mark.parametrize(
    ("hole", "score"),
    [("As Ah", 20), ("Ks Kd", 16), ("Ah Kh", 12), ("Ts 9s", 8), ("2c 2d", 5), ("7s 2d", -1)],
)
def test_chen_scores(hole: str, score: int) -> None:
    assert chen_score(parse_cards(hole)) == score


def test_hand_strength_orders_hands() -> None:
    rng = random.Random(3)
    board = parse_cards("Kd 8c 3h")
    top_set = holdem_hand_strength(parse_cards("Ks Kh"), board, rng, samples=400)
    top_pair = holdem_hand_strength(parse_cards("Kc Qh"), board, rng, samples=400)
    nothing = holdem_hand_strength(parse_cards("5s 2d"), board, rng, samples=400)
    assert top_set > 0.98 and top_set > top_pair > 0.7 and nothing < 0.3


def test_draws() -> None:
    assert holdem_draws(parse_cards("Ah 2h"), parse_cards("Kh 9h 4c")) == (True, False)
    assert holdem_draws(parse_cards("Ac 2d"), parse_cards("3h 4s Kc")) == (False, True)
    assert holdem_draws(parse_cards("Ac Kd"), parse_cards("9h 4h 5c 6h")) == (False, False)


@pytest.mark.parametrize(
    ("cards", "rules", "players", "thrown"),
    [
        ("Ah Kh Qh Jh 9h", "italian-32", 4, ""),  # flush: pat
        ("Ac 7s 8d 9c Th", "italian-32", 4, ""),  # the minima straight: pat
        ("Qh Qd Qc 8s 7s", "italian-32", 4, "7s 8s"),  # trips: change two
        ("Qh Qd 8c 8s As", "italian-32", 4, "As"),  # two pair: change the kicker
        ("Ah Ad Kh Qh Jh", "italian-32", 4, "Kh Qh Jh"),  # a pair of aces beats the flush draw
        ("8h 8d Kh Qh Jh", "italian-32", 4, "8d"),  # a low pair in a four-flush: draw the flush
        ("Kh Qh Jh 9h 7s", "italian-32", 4, "7s"),  # four-flush
        ("Th Jd Qc Ks 7s", "italian-32", 4, "7s"),  # four to the massima
        ("Ah 7d 8c 9s Qs", "italian-classic", 4, "Qs"),  # four to the minima (A-7-8-9-10)
        ("Ah Ks Jd 9c 7s", "italian-32", 4, "7s 9c Jd Ks"),  # nothing: keep the ace
    ],
)
def test_italian_discards(cards: str, rules: str, players: int, thrown: str) -> None:
    assert sorted(italian_discards(parse_cards(cards), rules, players)) == sorted(
        parse_cards(thrown)
    )


def test_italian_discards_are_legal_for_every_random_hand() -> None:
    rng = random.Random(9)
    for rules, players in (("italian-classic", 2), ("italian-classic", 6), ("italian-32", 5)):
        deck = list(find_rules(rules).deck(players))
        for _ in range(500):
            hand = rng.sample(deck, 5)
            thrown = italian_discards(hand, rules, players)
            assert len(thrown) <= 4 and set(thrown) <= set(hand)
            if italian_category(hand, rules, players) in (Category.STRAIGHT, Category.FLUSH):
                assert thrown == ()


def test_italian_percentile_orders_categories() -> None:
    low = italian_percentile(parse_cards("Ah Kd 9c 8s 7h"), "italian-32", 4)
    pair = italian_percentile(parse_cards("Jh Jd 9c 8s 7h"), "italian-32", 4)
    trips = italian_percentile(parse_cards("Jh Jd Jc 8s 7h"), "italian-32", 4)
    assert 0 <= low < pair < trips < 1
    assert len(Deck.italian(6)) == 40
