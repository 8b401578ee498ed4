"""Cards, parsing and decks."""

import random

import pytest

from mazziere.cards import (
    CARDS,
    Card,
    CardError,
    CardNotInDeckError,
    Deck,
    DuplicateCardError,
    Rank,
    Suit,
    UnknownCardError,
    format_cards,
    parse_cards,
)


@pytest.mark.parametrize("text", ["Ah", "AH", "ah", "A♥", "A♡"])
def test_ace_of_hearts_spellings(text: str) -> None:
    assert Card(text) is Card(51)
    assert str(Card(text)) == "Ah"


@pytest.mark.parametrize("text", ["Th", "10h", "10♥", "T♥", "th"])
def test_ten_spellings(text: str) -> None:
    assert Card(text).rank == Rank.TEN
    assert Card(text).suit == Suit.HEARTS


def test_every_card_round_trips_through_text_and_int() -> None:
    assert len(set(CARDS)) == 52
    for card in CARDS:
        assert Card(str(card)) is card
        assert Card(card.pretty()) is card
        assert Card(int(card)) is card
        assert eval(repr(card)) is card


def test_int_order_is_rank_then_italian_suit() -> None:
    # Come Quando Fuori Piove: hearts > diamonds > clubs > spades.
    assert Card("Ah") > Card("Ad") > Card("Ac") > Card("As") > Card("Kh")


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Ah Kd Tc", ["Ah", "Kd", "Tc"]),
        ("AhKdTc", ["Ah", "Kd", "Tc"]),
        ("A♥ 10♦ 9♣", ["Ah", "Td", "9c"]),
        ("A♥,10♦, 9♣", ["Ah", "Td", "9c"]),
        ("  10h10d ", ["Th", "Td"]),
        ("", []),
    ],
)
def test_parse_cards(text: str, cards: list[str]) -> None:
    assert [str(c) for c in parse_cards(text)] == cards


@pytest.mark.parametrize(
    ("text", "error", "named"),
    [
        ("Ah Xx", UnknownCardError, "'Xx'"),
        ("Ah 1h", UnknownCardError, "'1h'"),
        ("Ah 11h", UnknownCardError, "'11h'"),
        ("Ah Kd Ah", DuplicateCardError, "'Ah'"),
        ("AhAh", DuplicateCardError, "'Ah'"),
        ("AhZz", UnknownCardError, "'Zz'"),
    ],
)
def test_parse_errors_name_the_card(text: str, error: type[CardError], named: str) -> None:
    with pytest.raises(error) as info:
        parse_cards(text)
    assert named in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_rejects_out_of_range_ints() -> None:
    for bad in (-1, 52, True):
        with pytest.raises(UnknownCardError):
            Card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "lowest", "size"), [(2, 9, 24), (3, 8, 28), (4, 7, 32), (5, 6, 36), (6, 5, 40)]
)
def test_italian_deck_by_players(players: int, lowest: int, size: int) -> None:
    deck = Deck.italian(players)
    assert deck.lowest_rank == lowest
    assert len(deck) == size == len(set(deck))
    assert all(card.rank >= lowest for card in deck)
    assert Card("Ah") in deck
    assert Card.from_rank_suit(lowest - 1, Suit.HEARTS) not in deck


def test_italian_deck_player_limits() -> None:
    for players in (1, 7):
        with pytest.raises(ValueError, match="2 to 6"):
            Deck.italian(players)


def test_piquet_and_standard_decks() -> None:
    assert [str(c) for c in Deck.piquet()][:4] == ["7s", "7c", "7d", "7h"]
    assert len(Deck.standard()) == 52


def test_deck_check_names_the_card() -> None:
    with pytest.raises(CardNotInDeckError, match="'6d'"):
        Deck.piquet().check(parse_cards("Ah 6d"))


def test_shuffle_is_a_permutation_and_repeatable_with_a_seed() -> None:
    deck = Deck.standard()
    first = deck.shuffled(random.Random(42))
    assert sorted(first) == list(deck)
    assert first == deck.shuffled(random.Random(42))
    assert first != deck.shuffled(random.Random(43))


def test_shuffle_is_unbiased_on_a_small_deck() -> None:
    # Every card of a 24-card deck lands on top about equally often.
    rng = random.Random(5)
    deck = Deck.italian(2)
    tops = [deck.shuffled(rng)[0] for _ in range(24_000)]
    counts = [tops.count(card) for card in deck]
    assert min(counts) > 800 and max(counts) < 1200


def test_format_cards() -> None:
    cards = parse_cards("Ah Td 2s")
    assert format_cards(cards) == "Ah Td 2s"
    assert format_cards(cards, pretty=True) == "A♥ 10♦ 2♠"
