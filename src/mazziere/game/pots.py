"""Pots: main and side pots by all-in levels, their split, the rake, and a hand's result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from mazziere.cards import Card, RandomSource
from mazziere.game.errors import HandSetupError
from mazziere.game.records import _card_text, _plain
from mazziere.rules import OddChipRule

__all__ = ["HandResult", "Pot", "PotResult", "Rake", "build_pots", "split_pot"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the positions that may win it."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(
    committed: Sequence[int],
    folded: Sequence[bool],
    dead: Sequence[int] | None = None,
) -> tuple[Pot, ...]:
    """Main and side pots from what each position put in, by all-in levels.

    ``committed[i]`` is what position ``i`` put in (folded players too);
    ``dead`` chips (dead antes and blinds) go to the main pot whoever paid them.
    Each pot may be won by the players still in who matched its level.

    >>> build_pots([50, 100, 100, 30], [False, False, False, True])
    (Pot(amount=180, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2)))
    >>> build_pots([10, 0, 10], [False, True, False], dead=[1, 1, 1])
    (Pot(amount=23, eligible=(0, 2)),)
    """
    live = [i for i in range(len(committed)) if not folded[i]]
    dead_total = sum(dead) if dead else 0
    levels = sorted({committed[i] for i in live})
    total = sum(committed)
    if len(levels) <= 1:  # the common case: nobody still in is all-in for less
        amount = total + dead_total
        return (Pot(amount, tuple(live)),) if amount else ()
    pots: list[Pot] = []
    if dead_total:
        # Dead money belongs to the main pot, which every player still in may win
        # (even one all-in for nothing but a dead ante).
        pots.append(Pot(dead_total, tuple(live)))
    below = 0  # chips of every position up to the previous level
    for level in levels:
        upto = sum(c if c < level else level for c in committed)
        amount = upto - below
        below = upto
        if amount:
            eligible = tuple(i for i in live if committed[i] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
    # Chips of folded players above every level still contested stay in the top pot.
    if total > below:
        top = pots[-1]
        pots[-1] = Pot(top.amount + total - below, top.eligible)
    return tuple(pots)


def split_pot(
    amount: int,
    winners: Sequence[int],
    *,
    odd_chip: OddChipRule = OddChipRule.CLOCKWISE_FROM_BUTTON,
    rng: RandomSource | None = None,
) -> tuple[int, ...]:
    """Each winner's share of ``amount`` (in the order of ``winners``).

    Equal shares; the odd chips go one at a time clockwise from the button
    (lowest position first: position 0 sits left of the button) or, with
    ``OddChipRule.RANDOM_WINNER``, to winners drawn at random by ``rng``.

    >>> split_pot(100, [2, 0, 1])
    (33, 34, 33)
    >>> split_pot(101, [4, 1])
    (50, 51)
    >>> import random
    >>> sorted(split_pot(7, [0, 1], odd_chip=OddChipRule.RANDOM_WINNER, rng=random.Random(1)))
    [3, 4]
    """
    count = len(winners)
    if count == 1:
        return (amount,)
    if count == 0:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, count)
    shares = [share] * count
    if odd:
        if odd_chip is OddChipRule.CLOCKWISE_FROM_BUTTON:
            order = sorted(range(count), key=winners.__getitem__)
        else:
            if rng is None:
                raise ValueError("the random odd-chip rule needs a random source")
            order = list(range(count))
            for k in range(odd):  # a partial Fisher-Yates: `odd` distinct winners
                j = rng.randrange(k, count)
                order[k], order[j] = order[j], order[k]
        for k in order[:odd]:
            shares[k] += 1
    return tuple(shares)


@dataclass(frozen=True, kw_only=True)
class Rake:
    """The house's share of a pot: ``percent`` of it, counted in whole ``unit`` steps, capped.

    ``cap_by_players`` (players dealt in -> cap) overrides ``cap``.  With
    ``no_flop_no_drop`` a hand that ends before the flop (Hold'em) or before
    the draw (Italian poker) pays nothing; the game decides which moment that is.

    >>> Rake(percent=Fraction(5, 100), cap=300).amount(2000, players=6)
    100
    >>> italian_32 = Rake(percent=Fraction(5, 100), unit=100, cap_by_players={2: 100, 3: 100,
    ...                   4: 200, 5: 200})
    >>> italian_32.amount(1999, players=3), italian_32.amount(10_000, players=3)
    (95, 100)
    """

    percent: Fraction
    cap: int | None = None
    cap_by_players: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    unit: int = 1
    no_flop_no_drop: bool = True
    _ratio: tuple[int, int] = field(init=False, repr=False, compare=False, default=(0, 1))

    def __post_init__(self) -> None:
        if isinstance(self.percent, float):
            raise HandSetupError("give the rake as a Fraction or Decimal, not a float")
        percent = Fraction(self.percent)
        if not 0 <= percent <= 1:
            raise HandSetupError(f"rake must be between 0 and 1 of the pot, not {percent}")
        object.__setattr__(self, "percent", percent)
        if self.unit < 1 or (self.cap is not None and self.cap < 0):
            raise HandSetupError("rake unit must be at least 1 and the cap not negative")
        # Plain ints for amount(): a Fraction's numerator and denominator are properties.
        object.__setattr__(self, "_ratio", (percent.numerator, percent.denominator))

    def amount(self, pot: int, *, players: int) -> int:
        """The rake on a total pot of ``pot`` chips with ``players`` dealt in."""
        counted = pot // self.unit * self.unit
        numerator, denominator = self._ratio
        rake = counted * numerator // denominator
        cap = self.cap_by_players.get(players, self.cap)
        if cap is not None:
            rake = min(rake, cap)
        return rake


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at the end: its chips, who could win it, who did and how much each got."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": list(self.shares),
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: stacks, payoffs (stack change), pots, rake, cards shown.

    ``extra`` holds what a game hands on to the next hand (Italian poker:
    carried pot, opening level, parol-pot participants and their dues).
    """

    stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    pots: tuple[PotResult, ...]
    rake: int
    shown: Mapping[int, tuple[Card | None, ...]]
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "stacks": list(self.stacks),
            "payoffs": list(self.payoffs),
            "pots": [p.to_dict() for p in self.pots],
            "rake": self.rake,
            "shown": {str(k): [_card_text(c) for c in v] for k, v in self.shown.items()},
            "extra": _plain(dict(self.extra)),
        }
