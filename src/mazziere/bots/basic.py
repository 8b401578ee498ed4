"""The basic bot: plays by hand strength and position, by simple rules.

Hold'em: before the flop, Bill Chen's score of the two cards against a bar
that drops in late position (push or fold when twelve big blinds or fewer
are left); after it, the chance of beating a random hand
(sampled), shaded for each extra opponent, plus flush and straight draws
priced by pot odds.  Italian poker: opens with qualifying hands (the engine
offers the opening only to them), prices calls by the hand's place among the
deck's hands, draws sensibly (keeps pairs and trips, draws to four-card
flushes and straights, stands pat on a straight or better), and after the
draw bets the strong hands, checks the middling ones and says parol or
parole with the weak ones when that is allowed.

>>> import random
>>> from mazziere.bots.base import make_bot
>>> make_bot("basic", random.Random(1)).kind
'basic'
"""

from __future__ import annotations

from mazziere.bots.analysis import (
    chen_score,
    holdem_draws,
    holdem_hand_strength,
    italian_discards,
    italian_percentile,
)
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
from mazziere.game.core import Action, ActionKind, LegalActions
from mazziere.rules import Game

__all__ = ["BasicBot"]


def _sized(legal: LegalActions, pot: int, numerator: int, denominator: int) -> Action:
    """A bet of ``numerator / denominator`` of the pot, or a raise by that much."""
    extra = pot * numerator // denominator
    return raise_or_call(legal, legal.min_to + extra if legal.to_call else extra)


class BasicBot(Bot):
    """Rule-based play for the three rule sets."""

    kind = "basic"

    def _chance(self, percent: int) -> bool:
        return self.rng.randrange(100) < percent

    def act(self, situation: Situation) -> Action:
        """The rule-based choice for this situation."""
        legal = situation.legal
        kinds = legal.kinds
        if ActionKind.DRAW in kinds:
            hole = situation.hole
            return Action(
                ActionKind.DRAW,
                cards=italian_discards(hole, situation.rules, situation.players),
            )
        if ActionKind.MUCK in kinds:
            return Action(ActionKind.MUCK)
        if ActionKind.SHOW in kinds and not kinds & {ActionKind.CHECK, ActionKind.CALL}:
            return Action(ActionKind.SHOW)
        if situation.rules.game is Game.HOLDEM:
            return self._holdem(situation)
        return self._italian(situation)

    # ---------------------------------------------------------------- Hold'em

    def _holdem(self, situation: Situation) -> Action:
        legal = situation.legal
        hole = situation.hole
        board = tuple(c for c in situation.view.board if c is not None)
        big = max(situation.big_bet, 1)
        if not board:
            return self._preflop(situation, chen_score(hole), big)
        opponents = max(1, situation.live_players - 1)
        strength = holdem_hand_strength(hole, board, self.rng, samples=48) ** opponents
        pot = max(situation.pot, big)
        to_call = legal.to_call
        stack = situation.view.stacks[situation.position]
        if strength >= 0.65 and stack <= pot and ActionKind.ALL_IN in legal.kinds:
            return Action.all_in()  # committed: the pot is bigger than what is left
        if strength >= 0.8 and can_wager(legal):
            return _sized(legal, pot, 2, 3)
        if strength >= 0.55:
            if not to_call and can_wager(legal) and self._chance(50):
                return _sized(legal, pot, 1, 2)
            if to_call <= pot // 2:
                return call_or_check(legal)
            return check_or_fold(legal)
        if to_call and strength >= to_call / (pot + to_call) + 0.15:
            return call_or_check(legal)  # the price is right for what the hand is worth now
        flush, straight = holdem_draws(hole, board) if len(board) < 5 else (False, False)
        if flush or straight:
            if to_call * 4 <= pot + to_call:
                return call_or_check(legal)
            if not to_call and can_wager(legal) and self._chance(25):
                return _sized(legal, pot, 1, 2)
        return check_or_fold(legal)

    def _preflop(self, situation: Situation, score: int, big: int) -> Action:
        legal = situation.legal
        players = situation.players
        position = situation.position
        late = position >= players - 2 and players > 2
        blind = position in (0, 1) if players > 2 else True
        bar = 7 if late else 9
        to_call = legal.to_call
        stack = situation.view.stacks[position] + situation.view.bets[position]
        depth = stack // big
        if depth <= 12:
            # Short stacked: push or fold, looser the shorter the stack and the later the seat.
            push = 4 + depth // 2 - (1 if late else 0)
            if to_call > 2 * big:
                push += 2  # calling someone else's push needs more
            if score >= push and ActionKind.ALL_IN in legal.kinds:
                return Action.all_in()
            if score >= push:
                return call_or_check(legal)
            return check_or_fold(legal)
        if score >= 12:
            if to_call > 8 * big and score < 16:
                return call_or_check(legal)
            return raise_or_call(legal, max(3 * big, 3 * (to_call + big)))
        if score >= bar:
            if to_call <= big and can_wager(legal) and (late or score >= 10):
                return raise_or_call(legal, 3 * big)
            if to_call <= 3 * big:
                return call_or_check(legal)
            return check_or_fold(legal)
        if blind and to_call <= big // 2 + 1 and score >= 4:
            return call_or_check(legal)
        return check_or_fold(legal)

    # ---------------------------------------------------------------- Italian

    def _italian(self, situation: Situation) -> Action:
        legal = situation.legal
        kinds = legal.kinds
        hole = situation.hole
        if not hole:
            # A blind opening is offered before the cards: decline, now and then accept.
            if can_wager(legal) and self._chance(10):
                return wager(legal, legal.min_to)
            return check_or_fold(legal)
        percentile = italian_percentile(hole, situation.rules, situation.players)
        after_draw = getattr(situation.view, "betting_round", 0) == 2
        opponents = max(1, situation.live_players - 1)
        # Against several opponents a hand must beat each of them.
        strength = percentile**opponents
        pot = max(situation.pot, situation.big_bet, 1)
        to_call = legal.to_call
        if after_draw:
            strong, medium = 0.75, 0.45
        else:
            strong, medium = 0.7, 0.35
            discards = italian_discards(hole, situation.rules, situation.players)
            if len(discards) == 1 and percentile < 0.8:
                strength = max(strength, 0.4)  # four to a flush or straight: worth a call
        if strength >= strong and can_wager(legal):
            return _sized(legal, pot, 1, 2)
        if strength >= medium:
            if not to_call:
                if can_wager(legal) and not after_draw and self._chance(60):
                    return wager(legal, legal.min_to)  # open (offered only when it qualifies)
                return Action.check() if ActionKind.CHECK in kinds else call_or_check(legal)
            if to_call * 3 <= pot + to_call or strength >= (strong + medium) / 2:
                return call_or_check(legal)
            return check_or_fold(legal)
        if not to_call and ActionKind.PAROL in kinds and self._chance(50):
            return Action(ActionKind.PAROL)
        if to_call and to_call * 6 <= pot and not after_draw:
            return call_or_check(legal)
        return check_or_fold(legal)


BOTS["basic"] = BasicBot
