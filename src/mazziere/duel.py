"""Two bots head to head with duplicate deals: each deal is played twice, seats swapped.

In the second playing the same cards go to the same seats and the bots sit
the other way round, so the luck of the cards cancels out and what is left
is how the bots play.  Each deal starts from fresh stacks (100 big bets);
an Italian deal that ends with the pot carried (a dead hand, a parol pot)
goes on with the next hand, the button moved, until a pot is won (at most
eight hands).  A bot's result is its chips won per 100 hands in big bets
(Hold'em: big blinds; italian-classic: inviti; italian-32: controbui, the
controbuio being the biggest forced bet heads up), with a 95% confidence
interval from the spread of the pairs of playings (normal approximation).

Pure: the cards of every deal come from a seeded generator, the bots get
their own seeded generators; no clock is read.

>>> report = duel("holdem", ("basic", "random"), hands=40, seed=1)
>>> [b.name for b in report.bots], report.hands, report.deals
(['basic', 'random'], 40, 20)
>>> report.bots[0].per_100 == -report.bots[1].per_100
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mazziere.bots.base import Bot, Situation, make_bot
from mazziere.cards import Card
from mazziere.game.core import Action
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand, next_hand
from mazziere.rules import Game, RuleSet, find_rules

__all__ = ["FEWEST_HANDS", "BotResult", "DuelReport", "check_hands", "duel"]

STACK_IN_BIG_BETS = 100
FEWEST_HANDS = 4
"""Two deals, each played twice: the fewest whose spread gives a confidence interval."""
MAX_CHAIN = 8
_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's win rate per 100 hands, in big bets, and its 95% confidence interval."""

    name: str
    per_100: float
    ci95: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"name": self.name, "per_100": self.per_100, "ci95": list(self.ci95)}


@dataclass(frozen=True, slots=True)
class DuelReport:
    """The duel's result: both bots, how many hands and deals, and the unit."""

    rules: str
    bots: tuple[BotResult, ...]
    hands: int
    deals: int
    unit: str
    big_bet: int

    def to_dict(self) -> dict[str, Any]:
        """What ``mazziere duel --json`` prints."""
        return {
            "rules": self.rules,
            "bots": [b.to_dict() for b in self.bots],
            "hands": self.hands,
            "deals": self.deals,
            "unit": self.unit,
            "big_bet": self.big_bet,
        }


@dataclass(frozen=True, slots=True)
class _Stakes:
    big_bet: int
    unit: str
    invito: int = 0
    buio: int = 0


def _stakes(rules: RuleSet) -> _Stakes:
    if rules.game is Game.HOLDEM:
        return _Stakes(2, "big blinds")
    if rules.uses_invito:
        return _Stakes(10, "inviti", invito=10)
    # Heads up the biggest forced bet is the controbuio (the over needs four players).
    blinds = rules.forced_blinds.get(2, (1, 2))
    return _Stakes(5 * max(blinds), "controbui", buio=5)


def _decks(rules: RuleSet, players: int, seed: int, deal: int) -> Callable[[int], list[Card]]:
    """The card order of each hand of one deal (the same in both playings)."""

    def deck(hand: int) -> list[Card]:
        return rules.deck(players).shuffled(random.Random(f"{seed}:{deal}:{hand}"))

    return deck


def _play(hand: Any, rules: RuleSet, seats: Sequence[Bot], big_bet: int) -> None:
    """Ask the bot to act until the hand is over (an action it may not take times out)."""
    while not hand.is_over:
        position = hand.actor
        legal = hand.legal_actions()
        situation = Situation(rules, position, hand.n, hand.view(position), legal, big_bet)
        action = seats[position].act(situation)
        hand.apply(action if hand.can(action) else Action.timeout())


def _one_playing(
    rules: RuleSet,
    bots: Sequence[Bot],
    stakes: _Stakes,
    decks: Callable[[int], list[Card]],
    seed: str,
) -> tuple[list[int], int]:
    """Chips won by each bot (bot i starts in position i) and the hands it took."""
    n = len(bots)
    start = STACK_IN_BIG_BETS * stakes.big_bet
    rng = random.Random(seed)  # odd chips of a split parole pot: the same in both playings
    if rules.game is Game.HOLDEM:
        holdem = HoldemHand([start] * n, blinds=(1, 2), deck=decks(0), rng=rng)
        _play(holdem, rules, bots, stakes.big_bet)
        assert holdem.result is not None
        return list(holdem.result.payoffs), 1
    # Italian: play on while the pot is carried; ``order[p]`` is the bot in position p.
    order = list(range(n))
    stacks = [start] * n
    arguments: dict[str, Any] = {}
    played = 0
    while True:
        hand = ItalianHand(
            rules,
            stacks,
            invito=stakes.invito,
            buio=stakes.buio,
            rake=False,
            deck=decks(played),
            rng=rng,
            **arguments,
        )
        played += 1
        _play(hand, rules, [bots[b] for b in order], stakes.big_bet)
        assert hand.result is not None and hand.carry is not None
        final = list(hand.result.stacks)
        carry = hand.carry
        if carry.pot and played < MAX_CHAIN:
            following = next_hand(carry, final)
            if len(following.seats) == n:
                order = [order[p] for p in following.seats]
                stacks = list(following.stacks)
                arguments = dict(following.arguments)
                continue
        if carry.pot:  # the deal stops with a pot carried: it goes back to who put it in
            final = [s + share for s, share in zip(final, carry.shares, strict=True)]
        won = [0] * n
        for position, bot in enumerate(order):
            won[bot] = final[position] - start
        return won, played


def check_hands(hands: int) -> None:
    """A ``ValueError`` unless a duel can play ``hands`` hands: deals come in pairs of hands
    (each played twice, seats swapped), and an interval needs two deals.

    >>> check_hands(3)
    Traceback (most recent call last):
    ...
    ValueError: a duel plays each deal twice, seats swapped: an even number of hands from 4, not 3
    """
    if hands % 2 or hands < FEWEST_HANDS:
        raise ValueError(
            "a duel plays each deal twice, seats swapped: an even number of hands from "
            f"{FEWEST_HANDS}, not {hands}"
        )


def duel(
    rules: str | RuleSet,
    bots: Sequence[str] = ("strong", "basic"),
    *,
    hands: int = 20_000,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> DuelReport:
    """Play ``hands`` hands (``hands // 2`` deals, each twice) between two bots, heads up
    (:func:`check_hands` says which numbers of hands a duel can play).

    ``progress`` is called with the hands played after each deal.
    """
    rule_set = find_rules(rules)
    if len(bots) != 2:
        raise ValueError(f"a duel is between two bots, not {len(bots)}")
    check_hands(hands)
    players = 2
    rule_set.check_players(players)
    stakes = _stakes(rule_set)
    # Each bot keeps one generator for the whole duel, seeded from the duel's seed.
    first, second = (
        make_bot(name, random.Random(f"{seed}:bot:{i}")) for i, name in enumerate(bots)
    )
    results: list[float] = []
    lengths: list[int] = []
    for deal in range(hands // 2):
        decks = _decks(rule_set, players, seed, deal)
        won_a, played_a = _one_playing(rule_set, [first, second], stakes, decks, f"{seed}:{deal}")
        won_b, played_b = _one_playing(rule_set, [second, first], stakes, decks, f"{seed}:{deal}")
        results.append((won_a[0] + won_b[1]) / stakes.big_bet)
        lengths.append(played_a + played_b)
        if progress is not None:
            progress(2)
    deals = len(results)
    played = sum(lengths)
    rate = sum(results) / played  # big bets per hand
    residuals = [x - rate * h for x, h in zip(results, lengths, strict=True)]
    spread = statistics.stdev(residuals) / (played / deals) / math.sqrt(deals)  # deals >= 2
    low, high = 100 * (rate - _Z95 * spread), 100 * (rate + _Z95 * spread)
    per_100 = 100 * rate
    return DuelReport(
        rule_set.name,
        (
            BotResult(bots[0], per_100, (low, high)),
            BotResult(bots[1], -per_100, (-high, -low)),
        ),
        played,
        deals,
        stakes.unit,
        stakes.big_bet,
    )
