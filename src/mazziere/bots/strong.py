"""The strong bot: decisions from the odds, not from fixed rules.

Hold'em: each opponent still in holds a range, the top share of the 1,326
holdings by Bill Chen's score, narrowed as they act (a raise before the
flop, a bet or raise after it, a big bet, a call of a raised pot); the bot
works out its equity against those ranges (:func:`~mazziere.odds.holdem_equity`:
exact when the boards are few, else 1,500 sampled deals), calls when the
equity beats the pot odds, bets and raises for value by equity, position
and stack depth (the stack-to-pot ratio decides when to commit), varies its
sizes (half, two thirds, three quarters or all of the pot), and bluffs at a
measured rate: on the flop and turn, when nobody has bet, in position more
often.

Poker all'italiana: before the draw, the strength of the cards is the
chance that, after their best draw (:func:`~mazziere.odds.draw_odds`), they
beat a hand that can open at the current minimum; the bot opens by that
strength and the players still to speak, calls an opening when the
strength beats the pot odds, raises with the best, opens blind at a
measured rate, and draws the cards that give the best chance.  After the
draw it weighs its hand against what each opponent can hold: a hand that
could open, after drawing the number of cards they drew (sampled, with the
basic bot's draw as the model of a player's draw); it bets for value,
checks, says parol or parole with the weak ones, calls by the pot odds and
bluffs at a measured rate, more often against players who drew three or four.

Each decision takes a few milliseconds (``make bench`` prints the p99).

>>> import random
>>> from mazziere.bots.base import make_bot
>>> make_bot("strong", random.Random(1)).kind
'strong'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mazziere.bots.analysis import chen_score, italian_discards
from mazziere.bots.base import (
    BOTS,
    Bot,
    Situation,
    call_or_check,
    can_wager,
    check_or_fold,
    raise_or_call,
    wager,
)
from mazziere.cards import Card, RandomSource, Rank
from mazziere.evaluate import ranking_for
from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.odds.holdem import holdem_equity
from mazziere.odds.italian import DrawOdds, draw_odds
from mazziere.odds.ranges import HandRange
from mazziere.rules import Game, RuleSet, find_rules

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["StrongBot"]

BLUFF_IN_POSITION = 0.18
"""How often the bot bets with little equity when nobody has bet (flop and turn, in position)."""
BLUFF_OUT_OF_POSITION = 0.08
BLIND_OPENING = 0.12
"""How often it opens blind (Italian) when it may."""
ITALIAN_BLUFF = 0.15
"""How often it bets a weak hand after the draw when nobody has bet (more against big draws)."""
HOLDEM_TRIALS = 1_500
HOLDEM_EXACT = 60_000
OPPONENT_SAMPLES = 200
OPPONENT_TRIES = 4_000


# ------------------------------------------------------------------ Hold'em ranges


@functools.cache
def _preflop_order() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """All 1,326 holdings, the strongest first (Chen's score, then the high cards)."""
    combos = [(a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1)]
    combos.sort(key=lambda c: (-chen_score(c), -(c[0] >> 2), -(c[1] >> 2), c))
    return np.array(combos, dtype=np.int64), np.ones(len(combos))


@functools.lru_cache(maxsize=256)
def _top_range(width: float) -> HandRange:
    """The top ``width`` (0 to 1) of the holdings, as a range."""
    combos, weights = _preflop_order()
    count = max(12, math.ceil(width * len(combos)))
    return HandRange(f"top {width:.0%}", combos[:count], weights[:count])


@dataclass(slots=True)
class _HandMemory:
    """What the bot has read of the hand it is in: the width of each opponent's range."""

    key: tuple[Any, ...]
    widths: dict[int, float]


class StrongBot(Bot):
    """Odds-driven play for the three rule sets."""

    kind = "strong"

    def __init__(self, rng: RandomSource) -> None:
        super().__init__(rng)
        self._memory: _HandMemory | None = None
        self._draws: dict[tuple[Any, ...], DrawOdds] = {}

    def _chance(self, probability: float) -> bool:
        return self.rng.randrange(1_000_000) < probability * 1_000_000

    def _numpy_rng(self) -> np.random.Generator:
        return np.random.default_rng(self.rng.randrange(1 << 62))

    def act(self, situation: Situation) -> Action:
        """The odds-driven choice for this situation."""
        legal = situation.legal
        kinds = legal.kinds
        if ActionKind.DRAW in kinds:
            _prepare_italian(situation.rules, situation.players)
            return Action(ActionKind.DRAW, cards=self._italian_draw(situation))
        if ActionKind.MUCK in kinds:
            return Action(ActionKind.MUCK)
        if ActionKind.SHOW in kinds and not kinds & {ActionKind.CHECK, ActionKind.CALL}:
            return Action(ActionKind.SHOW)
        if situation.rules.game is Game.HOLDEM:
            return self._holdem(situation)
        _prepare_italian(situation.rules, situation.players)
        return self._italian(situation)

    # ---------------------------------------------------------------- Hold'em

    def _ranges(self, situation: Situation) -> list[HandRange]:
        """Each live opponent's range, narrowed by what they did (and remembered across streets)."""
        view = situation.view
        board = tuple(c for c in view.board if c is not None)
        key = (situation.hole, view.button, tuple(view.stacks) if not board else None)
        memory = self._memory
        if memory is None or memory.key[:2] != key[:2]:
            memory = self._memory = _HandMemory(key, {})
        big = max(situation.big_bet, 1)
        n = situation.players
        live = [i for i in range(n) if i != situation.position and not view.folded[i]]
        pot_before = view.total_pot - sum(view.bets)
        ranges = []
        for i in live:
            bet = view.bets[i]
            width = 1.0
            if not board:
                big_blind = 0 if n == 2 else 1
                if bet > 6 * big:
                    width = 0.07  # a re-raise
                elif bet > big:
                    width = 0.22  # a raise
                elif bet == big and i != big_blind:
                    width = 0.6  # a limp or a call of the blind
            else:
                if pot_before > 5 * big * (len(live) + 1):
                    width = 0.3  # a raised pot before the flop
                if bet > 0:
                    width *= 0.45 if bet * 4 >= 3 * max(pot_before, 1) else 0.6
            width = min(width, memory.widths.get(i, 1.0))
            memory.widths[i] = width
            ranges.append(_top_range(width))
        return ranges

    def _holdem(self, situation: Situation) -> Action:
        legal = situation.legal
        view = situation.view
        board = [int(c) for c in view.board if c is not None]
        hole = "".join(str(c) for c in situation.hole)
        ranges = self._ranges(situation)
        if not ranges:
            return call_or_check(legal)
        equity = (
            holdem_equity(
                [hole, *ranges],
                board=board,
                trials=HOLDEM_TRIALS,
                exact_limit=HOLDEM_EXACT,
                rng=self._numpy_rng(),
            )
            .players[0]
            .equity
        )
        big = max(situation.big_bet, 1)
        pot = max(situation.pot, big)
        to_call = legal.to_call
        position = situation.position
        stack = view.stacks[position]
        opponents = len(ranges)
        fair = 1 / (opponents + 1)
        live = [i for i in range(situation.players) if not view.folded[i]]
        last = position == max(live) if board else position >= situation.players - 2
        # Stack-to-pot ratio: with little behind, a good hand goes all in.
        committed = stack <= pot * 1.5
        value = fair + (0.22 if opponents == 1 else 0.18) - (0.03 if last else 0.0)
        if to_call:
            price = to_call / (pot + to_call)
            raise_bar = fair + 0.12 if not board else value + 0.08
            if equity >= raise_bar and can_wager(legal):
                if committed and ActionKind.ALL_IN in legal.kinds:
                    return Action.all_in()
                if not board:  # an open raise over the blinds and limpers, or a re-raise
                    opening = to_call <= big
                    target = (
                        3 * big + big * (len(live) - 2)
                        if opening
                        else 3 * view.bets[max(range(len(view.bets)), key=lambda i: view.bets[i])]
                    )
                    return raise_or_call(legal, target)
                return wager(legal, legal.min_to + self._size(pot, equity))
            if equity >= price + 0.03 or (committed and equity >= fair + 0.1):
                return call_or_check(legal)
            return check_or_fold(legal)
        if equity >= (fair + 0.12 if not board else value) and can_wager(legal):
            if committed and equity >= fair + 0.2 and ActionKind.ALL_IN in legal.kinds:
                return Action.all_in()
            if not board:
                return raise_or_call(legal, 3 * big + big * max(0, len(live) - 2))
            return wager(legal, self._size(pot, equity))
        bluff = BLUFF_IN_POSITION if last else BLUFF_OUT_OF_POSITION
        if (
            board
            and len(board) < 5
            and equity < fair
            and opponents == 1
            and can_wager(legal)
            and self._chance(bluff)
        ):
            return wager(legal, pot // 2 + self.rng.randrange(pot // 6 + 1))
        return check_or_fold(legal)

    def _size(self, pot: int, equity: float) -> int:
        """A bet of half the pot to all of it: bigger with more equity, never the same."""
        fractions = (0.5, 0.66, 0.75, 1.0)
        lean = 2 if equity > 0.8 else 1 if equity > 0.65 else 0
        return int(pot * fractions[min(3, lean + self.rng.randrange(2))])

    # ---------------------------------------------------------------- Italian

    def _odds(self, situation: Situation) -> DrawOdds:
        """The draw odds of the bot's cards against an opener at the current minimum (kept)."""
        view = situation.view
        minimum = view.opening or Rank.JACK
        key = (situation.rules.name, situation.players, situation.hole, int(minimum))
        odds = self._draws.get(key)
        if odds is None:
            if len(self._draws) > 64:
                self._draws.clear()
            odds = draw_odds(
                situation.hole, situation.rules, players=situation.players, opener=minimum
            )
            self._draws[key] = odds
        return odds

    def _italian_draw(self, situation: Situation) -> tuple[Card, ...]:
        best = self._odds(situation).options[0]
        limit = situation.legal.max_to
        if len(best.discard) <= limit:
            return best.discard
        return italian_discards(situation.hole, situation.rules, situation.players)[:limit]

    def _italian(self, situation: Situation) -> Action:
        legal = situation.legal
        view = situation.view
        if not situation.hole:
            # A blind opening is offered before the cards: at a measured rate.
            if can_wager(legal) and self._chance(BLIND_OPENING):
                return wager(legal, legal.min_to)
            return check_or_fold(legal)
        after_draw = view.betting_round == 2
        pot = max(situation.pot, situation.big_bet, 1)
        to_call = legal.to_call
        live = [
            i for i in range(len(view.folded)) if i != situation.position and not view.folded[i]
        ]
        if not live:
            return call_or_check(legal)
        if after_draw:
            chance = self._after_draw_chance(situation, live)
            if to_call:
                # A bet or raise after the draw says more than the draw did: the
                # bigger it is against the pot, the stronger the hands it comes from.
                chance **= 1 + 2 * min(to_call / pot, 1.0)
        else:
            best = self._odds(situation).options[0]
            share = best.share ** len(live)
            # Facing a bet: against the bettor's range (an opener's, at the minimum)
            # and each other player still in; else against every player still in.
            if to_call and best.beats_opener is not None:
                chance = best.beats_opener * best.share ** (len(live) - 1)
            else:
                chance = share
        big = max(situation.big_bet, 1)
        if to_call:
            price = to_call / (pot + to_call)
            # Raise the best hands, and stop raising once the pot is big: a raise war
            # is won by the hands that start it.
            if chance >= 0.7 and can_wager(legal) and pot < 12 * big:
                return wager(legal, legal.min_to + pot // 2)
            if chance >= price + 0.05:
                return call_or_check(legal)
            return check_or_fold(legal)
        if can_wager(legal):
            # Opening (offered only to cards that may open) or betting after the
            # draw; later seats, with fewer players left to speak, open wider.
            passed = len([i for i in live if i < situation.position])
            bar = 0.55 if after_draw else 0.3 - 0.05 * passed
            if chance >= bar:
                return wager(legal, self._italian_size(legal, pot, chance))
            if after_draw:
                drew = [view.drawn[i] or 0 for i in live]
                rate = ITALIAN_BLUFF * (1.5 if min(drew) >= 3 else 1.0)
                if len(live) == 1 and chance < 0.3 and self._chance(rate):
                    return wager(legal, legal.min_to + pot // 2)
        if ActionKind.PAROL in legal.kinds and chance < 0.45:
            return Action(ActionKind.PAROL)
        return check_or_fold(legal)

    def _italian_size(self, legal: LegalActions, pot: int, chance: float) -> int:
        extra = pot * (1 + self.rng.randrange(3)) // 4 if chance >= 0.7 else 0
        return legal.min_to + extra

    def _after_draw_chance(self, situation: Situation, live: Sequence[int]) -> float:
        """The chance to beat every live opponent, each a sampled opener who drew as they did."""
        view = situation.view
        rules = situation.rules
        ranking = ranking_for(rules, situation.players)
        ours = ranking.strength(situation.hole)
        minimum = view.opening if rules.opening_ladder else None
        wins = 1.0
        for opponent in live:
            drew = view.drawn[opponent]
            finals = _opponent_finals(
                rules.name, situation.players, drew if drew is not None else 3, minimum
            )
            if finals.size:
                wins *= float(np.searchsorted(finals, ours)) / finals.size
            else:  # a draw the model never makes (standing pat, mostly): fear it
                wins *= 0.2
        return wins


@functools.lru_cache(maxsize=64)
def _opponent_finals(
    rules_name: str, players: int, drew: int, minimum: Rank | None
) -> npt.NDArray[np.int64]:
    """Sorted strengths of sampled final hands of a player who drew ``drew`` cards.

    Five cards dealt at random from the deck, kept only if they could open
    at ``minimum`` (when there is one) and the basic bot's draw changes as
    many cards as the player changed; the new cards come from the rest.  The
    sample is made once per rule set, deck, draw and minimum (the bot's own
    cards are not taken out of it: a small bias, for a decision in
    milliseconds).
    """
    import random

    from mazziere.game.italian.rules import OpeningTest

    rules = find_rules(rules_name)
    ranking = ranking_for(rules, players)
    deck = list(rules.deck(players))
    test = OpeningTest.of(rules, players=players, minimum=minimum) if minimum else None
    rng = random.Random(f"{rules_name} {players} {drew} {minimum}")  # the same sample each run
    finals = []
    for _ in range(OPPONENT_TRIES):
        cards = rng.sample(deck, 5 + drew)
        hand = cards[:5]
        if test is not None and not test(hand):
            continue
        discards = italian_discards(hand, rules, players)
        if len(discards) != drew:
            continue
        kept = [c for c in hand if c not in discards]
        finals.append(ranking.strength(kept + cards[5:]))
        if len(finals) == OPPONENT_SAMPLES:
            break
    return np.sort(np.array(finals, dtype=np.int64))


_PREPARED: set[tuple[str, int]] = set()


def _prepare_italian(rules: RuleSet, players: int) -> None:
    """Build once, before the first decision of a deck, every table the decisions read.

    The tables of the hands that can open at each minimum of the ladder and
    the sampled draws of the opponents take a second or so to build; built
    up front, no decision of a hand waits for them.
    """
    key = (rules.name, players)
    if key in _PREPARED:
        return
    minima = {
        *rules.opening_ladder,
        *([rules.parol_pot_opening] if rules.parol_pot_opening else []),
    }
    deck = list(rules.deck(players))
    for minimum in sorted(minima) or [Rank.JACK]:
        draw_odds(deck[:5], rules, players=players, opener=minimum)
        for drew in range(rules.draw_max + 1):
            _opponent_finals(rules.name, players, drew, minimum if rules.opening_ladder else None)
    _PREPARED.add(key)


def warm_up(rules: str | RuleSet, players: Sequence[int] = ()) -> None:
    """Build now what the strong bot's first decision at a table of ``rules`` would build, and
    the learners' hints with it, for hands of each number of ``players`` in turn (default:
    every number the rule set deals to).

    Hold'em: the holdings in order of strength, the top ranges and the evaluator's first
    boards; Poker all'italiana: each deck's tables (:func:`_prepare_italian`, which the draw
    odds of the hints read too).  Pure computation: a server runs it in a thread at start,
    ``mazziere play``/``duel``/``simulate`` before the first deal with strong bots.

    >>> warm_up("italian-32", [2])
    >>> ("italian-32", 2) in _PREPARED
    True
    """
    rule_set = find_rules(rules)
    counts = list(dict.fromkeys(players)) or sorted(rule_set.deck_lowest_rank, reverse=True)
    if rule_set.game is Game.HOLDEM:
        for width in (1.0, 0.6, 0.3, 0.22, 0.07):
            _top_range(width)
        for board in ([], [0, 5, 10], [0, 5, 10, 15]):  # a Monte Carlo equity, an exact one
            holdem_equity(
                ["AhKh", _top_range(0.22)],
                board=board,
                trials=HOLDEM_TRIALS,
                exact_limit=HOLDEM_EXACT,
                rng=1,
            )
        return
    for count in counts:
        _prepare_italian(rule_set, count)


BOTS["strong"] = StrongBot
