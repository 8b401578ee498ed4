"""RULES.md §6 golden cases and the ranking examples of the seeds."""

import copy
import pickle

import pytest

from mazziere.cards import CardNotInDeckError, DuplicateCardError, WrongCardCountError
from mazziere.evaluate import StraightFlushClass, best_hands, evaluate, winners
from mazziere.rules import Category

# hand A, hand B, players dealt in, classic winner, italian-32 winner
GOLDEN = [
    ("K♥Q♥J♥9♥7♥", "A♣A♠A♦K♣K♠", 4, "A", "A"),
    ("K♥Q♥10♥9♥8♥", "A♠K♠J♠9♠8♠", 4, "A", "B"),
    ("A♠7♠8♠9♠10♠", "A♥K♥Q♥J♥10♥", 4, "A", "B"),
    ("A♣7♠8♦9♣10♥", "K♥K♠K♦Q♣J♠", 4, "A", "A"),
    ("A♣7♠8♦9♣10♥", "K♥K♠K♦Q♣J♠", 5, "B", "A"),
    ("A♥7♣8♣9♣10♣", "A♠7♦8♦9♦10♦", 4, "B", "B"),
    ("K♥K♦J♣J♠9♠", "K♣K♠J♥J♦9♦", 4, "B", "B"),
    ("J♥J♦A♣9♠8♠", "J♣J♠A♦9♥8♥", 4, "B", "B"),
]


@pytest.mark.parametrize(("a", "b", "players", "classic", "i32"), GOLDEN)
def test_golden_cases(a: str, b: str, players: int, classic: str, i32: str) -> None:
    expected = {"A": [0], "B": [1]}
    assert winners([a, b], rules="italian-classic", players=players) == expected[classic]
    assert winners([a, b], rules="italian-32") == expected[i32]
    # The same through HandValue comparisons.
    va, vb = (evaluate(h, rules="italian-classic", players=players) for h in (a, b))
    assert (va > vb) == (classic == "A") and (vb > va) == (classic == "B")


def test_minima_beats_massima_but_the_order_is_a_cycle() -> None:
    minima, media, massima = (
        evaluate(h, rules="italian-classic", players=4)
        for h in ("A♠ 7♠ 8♠ 9♠ 10♠", "K♦ Q♦ J♦ 10♦ 9♦", "A♥ K♥ Q♥ J♥ 10♥")
    )
    assert [v.straight_flush_class for v in (minima, media, massima)] == [
        StraightFlushClass.MINIMA,
        StraightFlushClass.MEDIA,
        StraightFlushClass.MASSIMA,
    ]
    assert minima > massima > media > minima
    # All three in one pot: top rank then suit (RULES.md §4 decision).
    assert best_hands([minima, media, massima]) == [2]
    assert best_hands([media, minima]) == [0]


def test_italian_32_straight_flush_is_linear() -> None:
    minima, massima = (
        evaluate(h, rules="italian-32") for h in ("A♠ 7♠ 8♠ 9♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥")
    )
    assert massima > minima


# --- seed 000 (italian-classic): the examples of its "Punteggi" section ---
SEED_000_CATEGORIES = [
    ("A♥ K♠ 10♠ 8♦ 7♣", Category.HIGH_CARD, 4),
    ("Q♣ Q♠ 9♦ 9♣ 8♥", Category.TWO_PAIR, 4),
    ("A♦ J♥ J♣ J♠ 8♠", Category.THREE_OF_A_KIND, 4),
    ("K♣ Q♥ J♠ 10♦ 9♥", Category.STRAIGHT, 4),
    ("J♥ J♦ J♣ 6♠ 6♣", Category.FULL_HOUSE, 5),
    ("A♦ K♦ J♦ 9♦ 8♦", Category.FLUSH, 4),
    ("Q♥ Q♦ Q♣ Q♠ 7♣", Category.FOUR_OF_A_KIND, 4),
    ("K♠ Q♠ J♠ 10♠ 9♠", Category.STRAIGHT_FLUSH, 4),
    ("10♦ 9♦ 8♠ 7♣ A♥", Category.STRAIGHT, 4),  # the minima with four players
    ("A♠ K♦ Q♣ J♥ 10♦", Category.STRAIGHT, 4),  # the massima
]


@pytest.mark.parametrize(("hand", "category", "players"), SEED_000_CATEGORIES)
def test_seed_000_categories(hand: str, category: Category, players: int) -> None:
    assert evaluate(hand, rules="italian-classic", players=players).category == category


def test_seed_000_examples() -> None:
    # "K♥ Q♥ 10♥ 9♥ 8♥ batte A♠ K♠ J♠ 9♠ 8♠"
    assert winners(["K♥ Q♥ 10♥ 9♥ 8♥", "A♠ K♠ J♠ 9♠ 8♠"], rules="italian-classic", players=4) == [0]
    # NB.2: "la scala minima di picche è superiore alla massima di cuori"
    assert winners(["A♠ 7♠ 8♠ 9♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥"], rules="italian-classic", players=4) == [
        0
    ]
    # Straights: top card, then the suits from the top card.
    assert winners(["K♣ Q♥ J♠ 10♦ 9♥", "K♥ Q♣ J♦ 10♠ 9♣"], rules="italian-classic", players=4) == [
        1
    ]
    # Minima 10-9-8-7-A is the lowest straight.
    assert winners(["10♦ 9♦ 8♠ 7♣ A♥", "J♣ 10♣ 9♠ 8♥ 7♥"], rules="italian-classic", players=4) == [
        1
    ]
    # High card: ranks first, then suits from the highest card.
    assert winners(["A♥ K♠ 10♠ 8♦ 7♣", "A♦ K♥ 10♥ 8♥ 7♥"], rules="italian-classic", players=4) == [
        0
    ]
    assert winners(["A♦ K♠ 10♠ 8♦ 7♣", "A♥ K♥ J♥ 8♥ 7♠"], rules="italian-classic", players=4) == [1]
    # Two pair: pairs, then the fifth card's rank, then its suit.
    assert winners(["Q♣ Q♠ 9♦ 9♣ 8♥", "Q♥ Q♦ 9♥ 9♠ 8♦"], rules="italian-classic", players=4) == [0]
    # Flushes of one suit compare ranks (36 cards: two diamond flushes).
    flush = evaluate("A♦ K♦ J♦ 9♦ 8♦", rules="italian-classic", players=5)
    assert flush > evaluate("Q♦ J♦ 9♦ 8♦ 6♦", rules="italian-classic", players=5)
    assert flush < evaluate("Q♥ J♥ 9♥ 8♥ 6♥", rules="italian-classic", players=5)


# --- seed 002 (Hold'em): its ranking examples; suits never matter ---
SEED_002_PAIRS = [
    ("7♠ 8♠ 9♠ 10♠ J♠", "2♠ 3♠ 4♠ 5♠ 6♠"),
    ("K♠ K♦ K♥ Q♥ Q♠", "J♠ J♥ J♦ Q♦ Q♣"),
    ("A♠ 5♠ 7♠ 9♠ J♠", "K♥ 5♥ 7♥ 9♥ J♥"),
    ("7♠ 8♥ 9♥ 10♠ J♣", "A♠ 2♥ 3♥ 4♠ 5♣"),
    ("J♠ J♥ Q♠ Q♦ A♣", "J♣ J♦ Q♥ Q♠ 9♣"),  # the seed repeats Q♠: compare one by one
]


@pytest.mark.parametrize(("better", "worse"), SEED_002_PAIRS)
def test_seed_002_examples(better: str, worse: str) -> None:
    assert evaluate(better) > evaluate(worse)


def test_seed_002_categories() -> None:
    assert evaluate("10♠ J♠ Q♠ K♠ A♠").category == Category.STRAIGHT_FLUSH
    assert evaluate("A♠ 2♥ 3♥ 4♠ 5♣").category == Category.STRAIGHT
    assert evaluate("K♠ K♣ K♥ Q♥ Q♠").category == Category.FULL_HOUSE
    # Hold'em: the full house beats the flush (the reverse of Italian poker).
    assert evaluate("K♠ K♣ K♥ Q♥ Q♠") > evaluate("A♠ 5♠ 7♠ 9♠ J♠")


# --- seed 003 (Hold'em): the steel wheel is the lowest straight flush; ties split ---
def test_seed_003_examples() -> None:
    assert evaluate("A♥ 2♥ 3♥ 4♥ 5♥") < evaluate("2♣ 3♣ 4♣ 5♣ 6♣")
    assert evaluate("A♥ 2♥ 3♥ 4♥ 5♥").category == Category.STRAIGHT_FLUSH
    # Equal hands split whatever the suits.
    assert winners(["A♥ K♥", "A♠ K♦"], board="Q♣ J♦ 10♠ 2♥ 3♣") == [0, 1]
    assert winners(["2♥ 3♥", "2♠ 3♦"], board="A♣ A♦ K♠ K♥ Q♣") == [0, 1]
    # The fifth card (kicker) decides between equal two pairs.
    assert winners(["A♥ 4♥", "Q♠ 3♦"], board="K♣ K♦ 7♠ 7♥ 2♣") == [0]


def test_best_five_of_seven() -> None:
    value = evaluate("Ah Kh", board="Qh Jh 2c 3d Th")
    assert value.category == Category.STRAIGHT_FLUSH
    assert [str(c) for c in value.cards] == ["Ah", "Kh", "Qh", "Jh", "Th"]
    wheel = evaluate("Ah 2d", board="3c 4s 5h Kd Kc")
    assert [str(c) for c in wheel.cards] == ["5h", "4s", "3c", "2d", "Ah"]


def test_names() -> None:
    assert evaluate("Kh Qh Th 9h 8h", rules="italian-32").describe() == "colore di cuori"
    assert evaluate("Jh Jd Ac 9s 8s", rules="italian-32").describe("en") == "pair of jacks"
    assert evaluate("Ah Ad Ac Kh Ks").describe("it") == "full di A con K"
    value = evaluate("A♠ 7♠ 8♠ 9♠ 10♠", rules="italian-classic", players=4)
    assert value.describe() == "scala reale minima di picche"
    assert (value.category.value, value.name_it) == ("straight_flush", "scala reale")


def test_bad_hands_are_precise_errors() -> None:
    with pytest.raises(WrongCardCountError, match="exactly 5"):
        evaluate("Ah Kh Qh Jh", rules="italian-32")
    with pytest.raises(WrongCardCountError, match="5 to 7"):
        evaluate("Ah Kh Qh Jh")
    with pytest.raises(CardNotInDeckError, match="'6h'"):
        evaluate("Ah Kh Qh Jh 6h", rules="italian-32")
    with pytest.raises(CardNotInDeckError, match="'8h'"):
        evaluate("Ah Kh Qh Jh 8h", rules="italian-classic", players=2)
    with pytest.raises(DuplicateCardError, match="'Ah'"):
        winners(["Ah Kh", "Ah Qd"], board="2c 3c 4c 5d 9s")


def test_hand_values_are_immutable_and_hashable() -> None:
    a = evaluate("Ah Kh Qh Jh Th")
    b = evaluate("As Ks Qs Js Ts")
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.strength = 1  # type: ignore[misc]
    with pytest.raises(ValueError, match="different"):
        _ = a < evaluate("Ah Kh Qh Jh Th", rules="italian-32")


def test_hand_values_copy_and_pickle_as_the_same_value() -> None:
    value = evaluate("9h 9d 9c Ah As", rules="italian-classic", players=5)
    for copied in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert copied == value and hash(copied) == hash(value)
        assert (copied.cards, copied.category, copied.rules) == (
            value.cards,
            value.category,
            value.rules,
        )
        assert not copied < value and not value < copied  # the same ranking: comparable
    assert len(pickle.dumps(value)) < 1000  # the ranking's tables do not travel with it
