"""Random legal play of Italian hands, chained through their carry, with invariant checks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from mazziere.cards import Card
from mazziere.game.core import Action, ActionKind, HoleCardsDealt, RakeTaken
from mazziere.game.italian import Discarded, ItalianHand, StockReshuffled, next_hand


def random_action(hand: ItalianHand, rng: random.Random) -> Action:
    """Any legal action, each kind equally likely (timeouts rarely)."""
    legal = hand.legal_actions()
    kinds = sorted(legal.kinds - {ActionKind.TIMEOUT}, key=lambda k: k.value)
    if not kinds or rng.random() < 0.02:
        return Action.timeout()
    kind = rng.choice(kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(
            kind, rng.choice([legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)])
        )
    if kind is ActionKind.DRAW:
        assert legal.position is not None
        held = list(hand.hole[legal.position])
        return Action(kind, cards=tuple(rng.sample(held, rng.randint(0, legal.max_to))))
    return Action(kind)


def check_cards(hand: ItalianHand) -> None:
    """No card in two hands; no player ever dealt back a card they discarded."""
    held = [c for cards in hand.hole for c in cards]
    assert len(held) == len(set(held)), held
    thrown: dict[int, set[Card]] = {}
    dealt_once: set[Card] = set()
    for record in hand.log:
        if isinstance(record, Discarded):
            thrown.setdefault(record.position, set()).update(record.cards)  # type: ignore[arg-type]
        elif isinstance(record, HoleCardsDealt):
            mine = thrown.get(record.position, set())
            assert not mine & set(record.cards), (record, mine)
            for card in record.cards:
                assert card is not None
                if card in dealt_once:
                    # dealt again: only a discard of somebody else, after a reshuffle
                    assert any(card in cards for cards in thrown.values()), card
                    assert any(isinstance(r, StockReshuffled) for r in hand.log)
                dealt_once.add(card)


@dataclass
class Chain:
    """A table playing hands in a row; chips of every player tracked by player id."""

    rules: str
    players: int
    rng: random.Random
    stakes: dict[str, int]
    chips: dict[int, int] = field(default_factory=dict)
    carried: int = 0
    raked: int = 0
    hands: int = 0
    dead_hands: int = 0
    parol_pots: int = 0
    reshuffles: int = 0
    splits: int = 0

    def __post_init__(self) -> None:
        self.chips = {p: self.rng.randint(5, 300) for p in range(self.players)}
        self.total = sum(self.chips.values())

    def run(self, hands: int, *, after_action: Callable[[ItalianHand], None] | None = None) -> None:
        """Play up to ``hands`` hands, each fed the last one's carry; check chips at each action."""
        seats = list(range(self.players))
        waiting: list[int] = []  # out of a parol pot until it is won
        arguments: dict[str, object] = {}
        for _ in range(hands):
            if len(seats) < 2:
                return
            stacks = [self.chips[s] for s in seats]
            stakes: dict[str, object] = dict(self.stakes)
            if arguments.get("parol_pot") and self.rng.random() < 0.5:
                stakes["invito"] = 0  # a cash table: no invito in a parol pot
                stakes["min_bet"] = 10
            hand = ItalianHand(
                self.rules,
                stacks,
                rng=self.rng,
                ask_show=self.rng.random() < 0.5,
                **stakes,  # type: ignore[arg-type]
                **arguments,  # type: ignore[arg-type]
            )
            in_play = sum(stacks) + hand.setup.carried.pot
            while not hand.is_over:
                hand.apply(random_action(hand, self.rng))
                rake = sum(r.amount for r in hand.log if isinstance(r, RakeTaken))
                assert sum(hand.stacks) + hand.total_pot + rake == in_play, hand.log
                if after_action is not None:
                    after_action(hand)
            check_cards(hand)
            result, carry = hand.result, hand.carry
            assert result is not None
            assert sum(result.stacks) + carry.pot + result.rake == in_play
            self.hands += 1
            self.raked += result.rake
            self.carried = carry.pot
            self.dead_hands += carry.pot > 0 and not carry.parol_pot
            self.parol_pots += carry.parol_pot
            self.reshuffles += any(isinstance(r, StockReshuffled) for r in hand.log)
            self.splits += any(len(p.winners) > 1 for p in result.pots)
            for seat, stack in zip(seats, result.stacks, strict=True):
                self.chips[seat] = stack
            assert sum(self.chips.values()) + self.carried + self.raked == self.total
            plan = next_hand(carry, result.stacks)
            following = [seats[p] for p in plan.seats]
            arguments = dict(plan.arguments)
            if carry.parol_pot:
                waiting += [s for s in seats if s not in following]
            else:
                back = [s for s in waiting if self.chips[s] > 0]
                following += back
                waiting = []
                for key in ("carried_shares", "dead_money"):
                    arguments[key] = (*arguments[key], *[0] * len(back))  # type: ignore[misc]
            seats = following


def each_finished_hand(
    rules: str,
    stakes: dict[str, int],
    check: Callable[[ItalianHand], None],
    *,
    rng: random.Random,
    chains: int,
    hands: int,
) -> None:
    """``chains`` tables of two to five players each play up to ``hands`` hands in a row;
    ``check`` sees every hand once it is over."""
    for chain in range(chains):
        table = Chain(rules, 2 + chain % 4, rng, stakes)
        table.run(hands, after_action=lambda hand: check(hand) if hand.is_over else None)
