"""The bots: always a legal action; the random bot's spread; the basic bot's rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mazziere.bots.base import Situation, make_bot, wager
from mazziere.bots.random_bot import RandomBot
from mazziere.cards import parse_cards
from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.rules import find_rules


def _situation(hand, big: int) -> Situation:  # type: ignore[no-untyped-def]
    position = hand.actor
    return Situation(hand.rules, position, hand.n, hand.view(position), hand.legal_actions(), big)


def _italian_deck(hands: list[str]) -> list:  # type: ignore[type-arg]
    """Five cards per player, dealt one at a time from the dealer's left."""
    cards = [parse_cards(h) for h in hands]
    return [cards[p][i] for i in range(5) for p in range(len(cards))]


@pytest.mark.parametrize("kind", ["random", "basic"])
@pytest.mark.parametrize("rules", ["holdem", "italian-classic", "italian-32"])
def test_bots_always_choose_a_legal_action(kind: str, rules: str) -> None:
    rng = random.Random(5)
    bot = make_bot(kind, rng)
    rule_set = find_rules(rules)
    decisions = 0
    for _ in range(60):
        players = rng.randint(2, rule_set.max_players)
        stacks = [rng.randint(20, 600) for _ in range(players)]
        if rules == "holdem":
            hand = HoldemHand(stacks, blinds=(5, 10), rng=rng)
            big = 10
        elif rules == "italian-classic":
            hand = ItalianHand(rules, stacks, invito=10, rng=rng)
            big = 10
        else:
            hand = ItalianHand(rules, stacks, buio=5, rng=rng)
            big = 10
        while not hand.is_over:
            situation = _situation(hand, big)
            action = bot.act(situation)
            assert action in situation.legal, (action, situation.legal)
            if action.kind is ActionKind.DRAW:
                assert set(action.cards) <= set(situation.hole)
                assert len(action.cards) <= rule_set.draw_max
            hand.apply(action)
            decisions += 1
    assert decisions > 200


def test_random_bot_picks_kinds_uniformly_and_never_times_out() -> None:
    bot = RandomBot(random.Random(1))
    kinds = {
        ActionKind.FOLD,
        ActionKind.CALL,
        ActionKind.RAISE,
        ActionKind.ALL_IN,
        ActionKind.TIMEOUT,
    }
    legal = LegalActions((0, frozenset(kinds), 10, 20, 500))
    counts = Counter(bot.choose_kind(legal) for _ in range(3000))
    assert set(counts) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    assert all(900 < n < 1100 for n in counts.values()), counts
    only_all_in = LegalActions((0, frozenset({ActionKind.FOLD, ActionKind.ALL_IN}), 0, 0, 0))
    assert {bot.choose_kind(only_all_in) for _ in range(50)} == {ActionKind.FOLD, ActionKind.ALL_IN}


def test_random_bot_bet_sizes_are_sane() -> None:
    """The bet sizes the docs give: the minimum 7 times in 20, half the pot 6, the pot 6 and
    everything 1 (on the flop of a pot of 30: 10, 15, 30 or all-in)."""
    rng = random.Random(2)
    sizes: Counter[int | str] = Counter()
    for _ in range(600):
        hand = HoldemHand([1000, 1000, 1000], blinds=(5, 10), rng=rng)
        hand.call()
        hand.call()
        hand.check()
        situation = _situation(hand, 10)
        assert situation.pot == 30 and situation.legal.min_to == 10
        action = RandomBot(rng).act(situation)
        assert action in situation.legal
        if action.kind is ActionKind.BET:
            sizes[action.amount] += 1  # type: ignore[index]
        elif action.kind is ActionKind.ALL_IN:
            sizes["all-in"] += 1
    total = sum(sizes.values())
    assert set(sizes) == {10, 15, 30, "all-in"}
    assert 0.25 < sizes[10] / total < 0.45
    assert 0.2 < sizes[15] / total < 0.4
    assert 0.2 < sizes[30] / total < 0.4
    assert 0.01 < sizes["all-in"] / total < 0.1


def test_wager_clamps_into_the_legal_range() -> None:
    legal = LegalActions((0, frozenset({ActionKind.RAISE, ActionKind.ALL_IN}), 10, 30, 200))
    assert wager(legal, 5) == Action.raise_to(30)
    assert wager(legal, 150) == Action.raise_to(150)
    assert wager(legal, 500) == Action.all_in()
    with pytest.raises(ValueError, match="neither"):
        wager(LegalActions((0, frozenset({ActionKind.CALL}), 10, 0, 0)), 50)


def test_basic_raises_aces_and_folds_seven_deuce() -> None:
    bot = make_bot("basic", random.Random(3))
    # Six players, 100 big blinds; position 2 (first to act) holds the first cards dealt there.
    deck = parse_cards("2c 3c As 4c 5c 6c 7c 8c Ah 9c Tc Jc")
    hand = HoldemHand([1000] * 6, blinds=(5, 10), deck=deck, rng=random.Random(0))
    assert hand.actor == 2
    action = bot.act(_situation(hand, 10))
    assert action.kind in (ActionKind.RAISE, ActionKind.ALL_IN)
    deck = parse_cards("2c 3c 7s 4c 5c 6c Ah 8c 2h 9c Tc Jc")
    hand = HoldemHand([1000] * 6, blinds=(5, 10), deck=deck, rng=random.Random(0))
    assert bot.act(_situation(hand, 10)) == Action.fold()


def test_basic_pushes_a_short_stack() -> None:
    bot = make_bot("basic", random.Random(3))
    deck = parse_cards("2c 3c Ks 4c 5c 6c 7c 8c Kh 9c Tc Jc")
    hand = HoldemHand(
        [1000, 1000, 80, 1000, 1000, 1000], blinds=(5, 10), deck=deck, rng=random.Random(0)
    )
    assert bot.act(_situation(hand, 10)) == Action.all_in()


def test_basic_opens_a_qualifying_hand_and_draws_sensibly() -> None:
    bot = make_bot("basic", random.Random(1))
    deck = _italian_deck(["Ah Ad Ac 9s 8h", "Kh Qd 9c 8s 7h", "Jh Td 9h 7c 8d", "Qh Js Tc Th 7s"])
    opened = 0
    for seed in range(10):
        hand = ItalianHand(
            "italian-classic", [500] * 4, invito=10, deck=deck, rng=random.Random(seed)
        )
        hand.check()  # no blind opening
        action = make_bot("basic", random.Random(seed)).act(_situation(hand, 10))
        assert action.kind in (ActionKind.BET, ActionKind.CHECK)
        opened += action.kind is ActionKind.BET
        if action.kind is ActionKind.CHECK:
            continue
        hand.apply(action)
        while hand.phase.value != "draw":
            hand.apply(
                Action.call() if ActionKind.CALL in hand.legal_actions().kinds else Action.check()
            )
        draw = bot.act(_situation(hand, 10))
        assert draw.kind is ActionKind.DRAW and sorted(draw.cards) == sorted(parse_cards("9s 8h"))
    assert opened >= 5  # trips open more often than not


def test_basic_does_not_open_blind_without_cards_most_of_the_time() -> None:
    checks = 0
    for seed in range(50):
        hand = ItalianHand("italian-classic", [500] * 4, invito=10, rng=random.Random(seed))
        action = make_bot("basic", random.Random(seed)).act(_situation(hand, 10))
        checks += action.kind is ActionKind.CHECK
    assert 35 <= checks < 50


def test_basic_pays_a_cheap_adeguamento_only() -> None:
    bot = make_bot("basic", random.Random(1))
    assert bot.wants_rejoin(20, 500) and not bot.wants_rejoin(200, 500)
