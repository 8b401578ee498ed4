"""The Italian draw's odds against brute force written with the single-hand evaluator."""

from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.cards import CardNotInDeckError, DuplicateCardError, Rank, parse_cards
from mazziere.evaluate import best_hands, evaluate, ranking_for
from mazziere.game.italian.rules import can_open
from mazziere.odds.combinatorics import combinations
from mazziere.odds.italian import draw_odds
from mazziere.rules import find_rules


def beats(ours, theirs, rules, players) -> bool:
    """Whether five cards beat five others, by the rule book (the straight-flush cycle too)."""
    ranking = ranking_for(rules, players)
    if ranking.straight_flush_class(ranking.strength(ours)) and ranking.straight_flush_class(
        ranking.strength(theirs)
    ):
        values = [
            evaluate(ours, rules=rules, players=players),
            evaluate(theirs, rules=rules, players=players),
        ]
        return best_hands(values) == [0]
    return ranking.strength(ours) > ranking.strength(theirs)


def brute_force(hand, rules, players, discard, *, target=None, dead=()):
    """Categories and the chance to beat ``target`` after changing ``discard``, card by card."""
    rule_set = find_rules(rules)
    ranking = ranking_for(rule_set, players)
    known = set(hand) | set(dead) | set(target or ())
    unseen = [c for c in rule_set.deck(players) if c not in known]
    keep = [c for c in hand if c not in discard]
    categories: Counter[str] = Counter()
    wins = total = 0
    for new in itertools.combinations(unseen, len(discard)):
        final = [*keep, *new]
        categories[ranking.category(ranking.strength(final)).value] += 1
        if target is not None:
            wins += beats(final, target, rule_set, players)
        total += 1
    return {k: v / total for k, v in categories.items()}, wins / total, total


CASES = [
    ("J♥J♦9♣8♠7♠", "italian-classic", 4),
    ("A♠7♠8♠9♠K♥", "italian-classic", 4),  # four to the minima straight flush
    ("K♥Q♥J♥10♥9♦", "italian-32", None),
    ("Ah Ad 9c 9s 7h", "italian-32", None),
    ("Kh Qd 9c Ts Jh", "italian-classic", 2),  # a 24-card deck
    ("6h 7h 8h 9h Ks", "italian-classic", 5),  # 36 cards: flushes of one suit compare ranks
]


@pytest.mark.parametrize(("hand", "rules", "players"), CASES)
def test_every_option_is_the_brute_force_enumeration(hand, rules, players) -> None:
    cards = parse_cards(hand)
    odds = draw_odds(cards, rules, players=players)
    assert len(odds.options) == 31
    assert len({frozenset(o.discard) for o in odds.options}) == 31
    rng = random.Random(hand)
    for option in [*rng.sample(odds.options, 5), odds.option(())]:
        expected, _, total = brute_force(cards, rules, players, option.discard)
        assert option.draws == total
        assert sum(option.categories.values()) == pytest.approx(1.0)
        got = {k: v for k, v in option.categories.items() if v}
        assert got == pytest.approx(expected, abs=1e-12)
        assert list(option.categories) == [c.value for c in find_rules(rules).category_order]


@pytest.mark.parametrize(
    ("hand", "target", "rules", "players"),
    [
        ("J♥J♦9♣8♠7♠", "Q♥Q♦A♣8♦7♦", "italian-classic", 4),
        ("9♠10♠J♠Q♠8h", "A♦5♦6♦7♦8♦", "italian-classic", 6),  # a media against the minima
        ("K♥Q♥J♥10♥9♦", "Ac Ad As Kc Kd", "italian-32", None),
    ],
)
def test_the_chance_to_beat_a_known_hand_is_exact(hand, target, rules, players) -> None:
    cards, against = parse_cards(hand), parse_cards(target)
    odds = draw_odds(cards, rules, players=players, beat=against)
    scores = [o.beats_hand for o in odds.options]
    assert scores == sorted(scores, reverse=True)  # ranked by it
    for option in odds.options[:3] + odds.options[-2:]:
        _, wins, _ = brute_force(cards, rules, players, option.discard, target=against)
        assert option.beats_hand == pytest.approx(wins, abs=1e-12)


def test_the_minima_straight_flush_beats_the_massima_in_italian_classic() -> None:
    # Drawing to A-7-8-9 of spades against a royal flush of hearts: only the minima wins.
    odds = draw_odds("A♠7♠8♠9♠K♦", "italian-classic", players=4, beat="A♥K♥Q♥J♥10♥")
    best = odds.options[0]
    assert best.discard_text == "K♦"
    assert best.beats_hand == pytest.approx(1 / 22)  # the 10♠ among the 22 cards unseen
    same = draw_odds("A♠7♠8♠9♠K♦", "italian-32", beat="A♥K♥Q♥J♥10♥")
    assert same.options[0].beats_hand == 0.0


def test_the_chance_to_beat_an_opener_counts_the_hands_that_open() -> None:
    rules, players = find_rules("italian-classic"), 2  # 24 cards: small enough to count
    cards = parse_cards("Kh Qd 9c Ts Jh")
    odds = draw_odds(cards, rules, players=players, opener=Rank.JACK)
    unseen = [c for c in rules.deck(players) if c not in cards]
    openers = [
        h for h in itertools.combinations(unseen, 5) if can_open(h, rules, players=players, level=0)
    ]
    ranking = ranking_for(rules, players)
    plain = sorted(ranking.strength(h) for h in openers)
    flushes = [h for h in openers if ranking.straight_flush_class(ranking.strength(h))]
    for discard in [(), (cards[1],), (cards[0], cards[4])]:
        keep = [c for c in cards if c not in discard]
        wins = total = 0
        for new in itertools.combinations(unseen, len(discard)):
            final = [*keep, *new]
            strength = ranking.strength(final)
            if ranking.straight_flush_class(strength):  # the cycle: ask the rule book
                wins += len(openers) - len(flushes)
                wins += sum(beats(final, h, rules, players) for h in flushes)
            else:
                wins += bisect.bisect_left(plain, strength)
            total += len(openers)
        assert odds.option(discard).beats_opener == pytest.approx(wins / total, abs=1e-12)


def test_share_is_the_part_of_the_deck_a_pat_hand_beats() -> None:
    rules, players = find_rules("italian-classic"), 2
    for hand in ("Kh Qd 9c Ts Jh", "Ah Ad As 9c 9d", "9h Th Jh Qh Kh"):
        cards = parse_cards(hand)
        hands = list(itertools.combinations(rules.deck(players), 5))
        expected = sum(beats(cards, h, rules, players) for h in hands) / len(hands)
        assert draw_odds(cards, rules, players=players).option(()).share == pytest.approx(expected)


def test_bad_hands_are_refused() -> None:
    with pytest.raises(CardNotInDeckError):
        draw_odds("J♥J♦9♣8♠6♠", "italian-classic", players=4)  # no sixes in 32 cards
    with pytest.raises(DuplicateCardError):
        draw_odds("J♥J♦9♣8♠7♠", "italian-32", beat="J♥ Q♦ A♣ 8♦ 7♦")
    with pytest.raises(ValueError, match="5 cards"):
        draw_odds("J♥J♦9♣8♠", "italian-32")
    with pytest.raises(ValueError, match="has no draw"):
        draw_odds("J♥J♦9♣8♠7♠", "holdem")


def after_draw_brute_force(cards, rules, players, minimum, drew, discards):  # noqa: PLR0917
    """The chance to beat the opener after they changed ``drew`` cards, hand by hand.

    Every hand of the unseen cards that opens at ``minimum`` and that the
    model changes ``drew`` cards of, then every set of ``drew`` new cards
    from the unseen cards not in it; our final hands: every draw of ours.
    """
    import numpy as np

    from mazziere.evaluate import evaluate_batch
    from mazziere.odds.discards import italian_discards

    rule_set = find_rules(rules)
    ranking = ranking_for(rule_set, players)
    unseen = [c for c in rule_set.deck(players) if c not in cards]
    blocks = []
    for hand in itertools.combinations(unseen, 5):
        if not can_open(hand, rule_set, players=players, level=int(minimum) - int(Rank.JACK)):
            continue
        thrown = italian_discards(hand, rule_set, players)
        if len(thrown) != drew:
            continue
        keep = [c for c in hand if c not in thrown]
        rest = np.array([c for c in unseen if c not in hand])
        new = rest[combinations(len(rest), drew)]  # the table is itertools' (test_odds_holdem)
        blocks.append(np.hstack([np.tile(keep, (len(new), 1)), new.reshape(len(new), drew)]))
    theirs = np.vstack(blocks)  # every final hand of theirs, once per (hand, new cards)
    their_strengths = evaluate_batch(theirs, rules=rule_set, players=players)
    # Their straight flushes, asked of the rule book one by one (the cycle).
    classes = {s: ranking.straight_flush_class(s) for s in set(their_strengths.tolist())}
    flushes = [
        theirs[i].tolist()
        for i in np.flatnonzero([classes[s] is not None for s in their_strengths.tolist()])
    ]
    results = {}
    for discard in discards:
        keep = [c for c in cards if c not in discard]
        wins = total = 0
        for new in itertools.combinations(unseen, len(discard)):
            final = [*keep, *new]
            ours = ranking.strength(final)
            if ranking.straight_flush_class(ours):  # beats every other hand, and these?
                wins += len(theirs) - len(flushes)
                wins += sum(beats(final, h, rule_set, players) for h in flushes)
            else:
                wins += int((their_strengths < ours).sum())
            total += len(theirs)
        results[tuple(discard)] = wins / total
    return results


@pytest.mark.parametrize(
    ("hand", "drew"),
    [
        ("Kh Qd 9c Ts Jh", 3),  # a straight against a pair that changed three
        ("Ah Ad 9c 9s Kh", 1),  # two pair against two pair
        ("Qh Qd Qc 9s Th", 2),  # trips against trips
        ("9h Th Jh Qh Ad", 0),  # four to a straight flush against the hands that stood pat
    ],
)
def test_the_chance_to_beat_the_opener_after_their_draw_is_the_enumeration(hand, drew) -> None:
    rules, players = "italian-classic", 2  # 24 cards: small enough to count
    cards = parse_cards(hand)
    odds = draw_odds(cards, rules, players=players, opener=Rank.JACK, opener_drew=drew)
    scores = [o.beats_opener_after_draw for o in odds.options]
    assert scores == sorted(scores, reverse=True)  # ranked by it
    checked = [(), (cards[4],), (cards[3], cards[4])]
    expected = after_draw_brute_force(cards, rules, players, Rank.JACK, drew, checked)
    for discard, chance in expected.items():
        assert odds.option(discard).beats_opener_after_draw == pytest.approx(chance, abs=1e-12)
    assert "beats_opener_after_draw" in odds.options[0].to_dict()


def test_known_answers_of_the_opener_after_their_draw() -> None:
    rules, players = "italian-classic", 4
    # Only a straight flush beats the minima straight flush of hearts (the
    # media ones), and an opener who kept a pair and changed three cannot make one.
    best = draw_odds("A♥7♥8♥9♥10♥", rules, players=players, opener=Rank.JACK, opener_drew=3)
    assert best.option(()).beats_opener_after_draw == 1.0
    # Standing pat with ace high against an opener who stood pat (a straight or better).
    weak = draw_odds("A♣K♦Q♠9♥7♣", rules, players=players, opener=Rank.JACK, opener_drew=0)
    assert weak.option(()).beats_opener_after_draw == 0.0
    # Four aces, standing pat, against openers who changed two: trips (the model
    # changes two cards of no other opening hand), which can make four of a kind
    # of a lower rank at best.
    quads = draw_odds("A♣A♦A♠A♥7♣", rules, players=players, opener=Rank.JACK, opener_drew=2)
    assert quads.option(()).beats_opener_after_draw == 1.0
    # Nobody who opens changes four cards: the question has no answer.
    with pytest.raises(ValueError, match="changes 4 cards"):
        draw_odds("A♣K♦Q♠9♥7♣", rules, players=players, opener=Rank.JACK, opener_drew=4)
    with pytest.raises(ValueError, match="opener_drew needs opener"):
        draw_odds("A♣K♦Q♠9♥7♣", rules, players=players, opener_drew=1)
    with pytest.raises(ValueError, match="from 0 to 4 \\(the most a player may change\\)"):
        draw_odds("A♣K♦Q♠9♥7♣", rules, players=players, opener=Rank.JACK, opener_drew=5)


@settings(max_examples=8, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([0, 1, 2]))
def test_after_the_draw_every_hand_gets_the_enumerations_chances(
    rng: random.Random, drew: int
) -> None:
    rules, players = find_rules("italian-classic"), 2
    cards = rng.sample(list(rules.deck(players)), 5)
    try:
        odds = draw_odds(cards, rules, players=players, opener=Rank.JACK, opener_drew=drew)
    except ValueError:  # our cards leave no opener who changes that many
        # Then the enumeration finds none either.
        with pytest.raises(ValueError):
            after_draw_brute_force(cards, rules, players, Rank.JACK, drew, [()])
        return
    assert all(0.0 <= o.beats_opener_after_draw <= 1.0 for o in odds.options)
    discard = tuple(rng.sample(cards, rng.randint(0, 2)))
    expected = after_draw_brute_force(cards, rules, players, Rank.JACK, drew, [discard])
    assert odds.option(discard).beats_opener_after_draw == pytest.approx(
        expected[discard], abs=1e-12
    )
