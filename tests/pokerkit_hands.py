"""Random no-limit Hold'em hands played by pokerkit itself, for the tests that read what it writes.

pokerkit deals the cards we give it (a shuffled deck from our own ``rng``,
so a seed repeats a hand) and its players pick among the actions pokerkit
offers.  A raise is only made where both rule books allow it: pokerkit 0.7.7
reopens the betting to a player who already acted after any short all-in;
RULES.md §2.6 only after a full raise more than when they last acted.  A
player who already acted in the round raises only when facing at least the
round's largest increment so far more than their bet.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass

import pokerkit

from mazziere.cards import Deck
from tests.pokerkit_oracle import _AUTOMATIONS  # the same dealer chores automated


@dataclass
class PokerkitHand:
    """A finished pokerkit hand: the game, its state, and the PHH text pokerkit writes for it."""

    game: pokerkit.NoLimitTexasHoldem
    state: pokerkit.State
    lone_checks: int = 0
    """Checks pokerkit asked of the only player left with chips, with nothing to call."""

    def phh(self) -> str:
        history = pokerkit.HandHistory.from_game_state(self.game, self.state)
        return str(history.dumps())

    @property
    def stacks(self) -> list[int]:
        return list(self.state.stacks)


def random_pokerkit_hand(rng: random.Random) -> PokerkitHand:
    """One random hand (2-9 players, short and deep stacks, antes, straddles) to its end."""
    n = rng.choice([2, 2, 3, 3, 4, 5, 6, 7, 8, 9])
    stacks = [
        rng.choice([rng.randint(1, 4), rng.randint(1, 30), rng.randint(20, 400)]) for _ in range(n)
    ]
    if rng.random() < 0.25:
        stacks[rng.randrange(n)] = 1  # all-in with a blind or the ante: others may face nothing
    antes = rng.choice([0, 0, 1, 2])
    blinds: tuple[int, ...] = (1, 2)
    if n >= 3 and rng.random() < 0.15:
        blinds = (1, 2, 4)  # a straddle
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = pokerkit.NoLimitTexasHoldem(
            _AUTOMATIONS, False, antes, blinds, 2, mode=pokerkit.Mode.CASH_GAME
        )
        state = game(stacks, n)
        cards = iter(Deck.standard().shuffled(rng))
        increment = max(blinds)
        acted: set[int] = set()
        street = state.street_index
        lone_checks = 0
        while state.status:
            if state.street_index != street:
                street, increment, acted = state.street_index, 2, set()
            if state.can_deal_hole():
                state.deal_hole(str(next(cards)))
            elif state.can_burn_card():
                state.burn_card(str(next(cards)))
            elif state.can_deal_board():
                count = state.street.board_dealing_count
                state.deal_board("".join(str(next(cards)) for _ in range(count)))
            else:
                lone_checks += _lone(state)
                increment = _act(state, rng, acted, increment)
    return PokerkitHand(game, state, lone_checks)


def _lone(state: pokerkit.State) -> bool:
    """Is the player to act the only one in the hand with chips, with nothing to call?"""
    actor = state.actor_index
    others = [i for i, live in enumerate(state.statuses) if live and i != actor]
    return not state.checking_or_calling_amount and all(not state.stacks[i] for i in others)


def _act(state: pokerkit.State, rng: random.Random, acted: set[int], increment: int) -> int:
    """One random decision of the player to act; returns the round's largest increment."""
    actor = state.actor_index
    assert actor is not None
    top = max(state.bets)
    may_raise = state.can_complete_bet_or_raise_to() and (
        actor not in acted or top - state.bets[actor] >= increment
    )
    acted.add(actor)
    roll = rng.random()
    if state.checking_or_calling_amount and roll < 0.15:
        state.fold()
    elif may_raise and roll > 0.7:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        assert low is not None and high is not None
        to = rng.choice([low, high, rng.randint(low, high)])
        state.complete_bet_or_raise_to(to)
        increment = max(increment, to - top)
    else:
        state.check_or_call()
    return increment


def stacks_with_our_odd_chips(hand: PokerkitHand) -> list[int]:
    """pokerkit's finishing stacks with each split pot's odd chips given our way.

    pokerkit gives every odd chip of a split pot to the first winner; RULES.md §1
    gives them one at a time clockwise from the button (from position 0 up).
    """
    stacks = list(hand.state.stacks)
    for operation in hand.state.operations:
        if not isinstance(operation, pokerkit.ChipsPushing):
            continue
        winners = [i for i, amount in enumerate(operation.amounts) if amount]
        total = sum(operation.amounts)
        share, odd = divmod(total, len(winners))
        for rank, winner in enumerate(winners):
            stacks[winner] += share + (rank < odd) - operation.amounts[winner]
    return stacks
