"""The state of a hand every game shares: positions, stacks, the log, forced bets, pots,
the showdown and the awards (:class:`Hand`); the betting is :mod:`mazziere.game.betting`'s."""

from __future__ import annotations

import functools
import operator
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from itertools import compress
from types import MappingProxyType
from typing import Any, ClassVar

from mazziere.cards import Card, RandomSource
from mazziere.game.actions import LegalActions
from mazziere.game.errors import (
    CannotMuckError,
    HandOverError,
    HandSetupError,
    NotYourTurnError,
    WrongPhaseError,
    succeeds,
)
from mazziere.game.pots import HandResult, Pot, PotResult, Rake, build_pots, split_pot
from mazziere.game.records import (
    CardsMucked,
    CardsShown,
    ForcedBet,
    PotAwarded,
    RakeTaken,
    Record,
    UncalledBetReturned,
)
from mazziere.game.view import HandView
from mazziere.rules import BettingStructure, OddChipRule, RuleSet

__all__ = ["Hand", "MinRaiseRule", "Phase", "check_chips"]


class MinRaiseRule(StrEnum):
    """How big the smallest raise is (never less than the round's minimum bet)."""

    LARGEST_INCREMENT = "largest-increment"
    """The largest bet or raise increment of the round so far (the standard rule)."""
    LAST_INCREMENT = "last-increment"
    """The increment of the last bet or raise, even an all-in for less."""
    OPENING_BET = "opening-bet"
    """The size of the round's opening bet, however it was raised since."""


class Phase(StrEnum):
    """Where a hand is.  Games may use only some of these."""

    DEALING = "dealing"
    BETTING = "betting"
    DRAW = "draw"
    SHOWDOWN = "showdown"
    OVER = "over"


_NO_EXTRA: Mapping[str, object] = MappingProxyType({})


def check_chips(name: str, values: Iterable[object], *, signed: bool = False) -> None:
    """Raise :class:`HandSetupError` unless each value is whole chips (an ``int``, not a
    ``bool``), not negative unless ``signed``: the check of every amount of a hand's setup."""
    for value in values:
        # (type() first: plain ints, the common case, take one test)
        if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
            raise HandSetupError(f"{name} are whole chips (int), not {value!r}")
        if value < 0 and not signed:
            raise HandSetupError(f"{name} cannot be negative, got {value}")


@functools.cache
def _next_to_act(acting: int) -> tuple[int, ...]:
    """For each position, the first one clockwise after it that can act (itself last).

    ``acting`` has bit ``p`` set when position ``p`` can act (in the hand, with
    chips behind) and bit ``n`` set to tell how many players there are.  A
    position nobody after can act maps to itself.

    >>> _next_to_act(0b1_0101)  # four players; 0 and 2 can act
    (2, 2, 0, 0)
    """
    n = acting.bit_length() - 1
    return tuple(
        next((q for q in ((p + k) % n for k in range(1, n + 1)) if acting >> q & 1), p)
        for p in range(n)
    )


_NOT_ACTED = -1
"""In ``BettingHand._faced``: the player has not acted this betting round."""

# Enum members as module constants: reading one off its class costs ten times more.
_PHASE_DEALING = Phase.DEALING
_PHASE_OVER = Phase.OVER
_PHASE_SHOWDOWN = Phase.SHOWDOWN
_ODDCHIPRULE_RANDOM_WINNER = OddChipRule.RANDOM_WINNER


class Hand(ABC):
    """What every hand is, whatever its betting: positions, stacks, the log, forced bets,
    pots, the showdown (show or muck) and the awards.  Games subclass
    :class:`~mazziere.game.betting.BettingHand`, which adds the betting rounds.
    """

    # Slots: a hand has more attributes than an instance dict shares keys for
    # (30), and every action reads a dozen of them.
    __slots__ = (
        "_acting",
        "_active",
        "_auto_show",
        "_awards",
        "_bets_need_opening",
        "_faced",
        "_legal",
        "_live",
        "_live_positions",
        "_next",
        "_no_raise",
        "_owed",
        "_rake_taken",
        "_show_queue",
        "actor",
        "aggressor",
        "bets",
        "call_only",
        "carried",
        "committed",
        "current_bet",
        "dead",
        "folded",
        "hole",
        "log",
        "min_bet",
        "min_increment",
        "min_raise_rule",
        "mucked",
        "n",
        "odd_chip",
        "phase",
        "rake",
        "result",
        "rng",
        "shown",
        "stacks",
        "starting_stacks",
        "structure",
    )

    rules: RuleSet
    """The hand's rule set (each game's hand sets it)."""
    structure: BettingStructure
    min_raise_rule: MinRaiseRule
    odd_chip: OddChipRule
    rake: Rake | None

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        structure: BettingStructure = BettingStructure.NO_LIMIT,
        min_raise_rule: MinRaiseRule = MinRaiseRule.LARGEST_INCREMENT,
        odd_chip: OddChipRule = OddChipRule.CLOCKWISE_FROM_BUTTON,
        rake: Rake | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        stacks = list(stacks)
        if len(stacks) < 2:
            raise HandSetupError(f"a hand needs at least 2 players, got {len(stacks)}")
        for stack in stacks:
            # type() first: the common case is fast; bool and other int subclasses fall through
            if (
                type(stack) is not int and (isinstance(stack, bool) or not isinstance(stack, int))
            ) or stack <= 0:
                raise HandSetupError(f"stacks are positive whole chips (int), not {stack!r}")
        if odd_chip is _ODDCHIPRULE_RANDOM_WINNER and rng is None:
            raise HandSetupError("the random odd-chip rule needs a random source (rng)")
        n = len(stacks)
        self.n = n
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = stacks
        self.bets: list[int] = [0] * n
        self.committed: list[int] = [0] * n
        self.dead: list[int] = [0] * n
        self.carried = 0
        """Chips in the main pot from before this hand (a pot carried over), nobody's bet."""
        self.folded: list[bool] = [False] * n
        self.hole: list[tuple[Card | None, ...]] = [()] * n
        self.shown: dict[int, tuple[Card | None, ...]] = {}
        self.mucked: set[int] = set()
        self.log: list[Record] = []
        self.actor: int | None = None
        self.phase: Phase = _PHASE_DEALING
        self.structure = structure
        self.min_raise_rule = min_raise_rule
        self.odd_chip = odd_chip
        self.rake = rake
        self.rng = rng
        self.result: HandResult | None = None
        # the current betting round
        self.current_bet = 0
        self.min_bet = 0
        self.min_increment = 0
        self.aggressor: int | None = None
        self.call_only: list[bool] = [False] * n
        self._faced: list[int] = [_NOT_ACTED] * n
        """The bet each player faced when they last acted this round (``_NOT_ACTED``: not yet)."""
        self._live = n  # players not folded
        self._live_positions: tuple[int, ...] | None = tuple(range(n))  # None: to recount
        self._active = n  # players not folded with chips behind
        acting = (2 << n) - 1
        self._acting = acting
        """Bit ``p``: position ``p`` can act (not folded, chips behind); bit ``n``: the count."""
        self._next = _next_to_act(acting)
        """``_next[p]``: the next position after ``p`` clockwise that can act."""
        self._owed = 0
        """How many players still owe an action this round: the next ones that can act."""
        # the showdown
        self._show_queue: list[int] = []
        self._auto_show = False
        self._awards: list[PotResult] = []
        self._rake_taken = 0
        self._bets_need_opening = False
        """Whether some may not open the betting this round (a game's rule: ``_bet_refused``)."""
        self._no_raise = ""
        """Why the player to act may not bet or raise, when their options say so."""
        self._legal: LegalActions | None = None
        """The betting options of the player to act, once worked out (``None``: not yet)."""

    @property
    def is_over(self) -> bool:
        """True once the pots are awarded."""
        return self.phase is _PHASE_OVER

    @property
    def button(self) -> int:
        """The dealer's position (always the last one)."""
        return self.n - 1

    @property
    def live(self) -> tuple[int, ...]:
        """Positions still in the hand (not folded)."""
        live = self._live_positions
        if live is None:
            folded = self.folded
            live = self._live_positions = tuple(compress(range(self.n), map(operator.not_, folded)))
        return live

    def pots(self, *, include_bets: bool = False) -> tuple[Pot, ...]:
        """The pots collected so far (with this round's bets too if ``include_bets``)."""
        if self._active == self._live and not include_bets:
            # Nobody still in is all-in: everyone still in put in the same, one pot.
            amount = sum(self.committed) - sum(self.bets) + sum(self.dead) + self.carried
            if not amount:
                return ()
            return (Pot(amount, self.live),)
        if include_bets:
            committed: Sequence[int] = self.committed
        else:
            committed = [c - b for c, b in zip(self.committed, self.bets, strict=True)]
        return build_pots(committed, self.folded, self._dead_money())

    def _dead_money(self) -> Sequence[int]:
        """Chips in the main pot whoever wins: dead posts, and a pot carried into the hand."""
        return [*self.dead, self.carried] if self.carried else self.dead

    @property
    def rake_taken(self) -> int:
        """The house's share taken so far (when the pots are awarded)."""
        return self._rake_taken

    @property
    def total_pot(self) -> int:
        """Every chip in the middle: pots and this round's bets."""
        return sum(self.committed) + sum(self.dead) + self.carried

    @abstractmethod
    def _can_win(self, position: int) -> bool | None:
        """Whether ``position``'s hand could still win a pot against the hands shown.

        ``None`` when its cards are unknown (replays): it may then be mucked.
        """

    @abstractmethod
    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        """Who wins a pot among ``eligible`` (players who did not muck) at the showdown."""

    def _one_pot_at_showdown(self, pots: Sequence[Pot]) -> bool:
        """Whether a game's one-pass showdown may be used: one pot, nobody all-in,
        nothing shown yet, shortcuts on (the game adds its own conditions)."""
        return (
            len(pots) == 1
            and self._active == self._live
            and not self.shown
            and self._one_pot_shortcuts
        )

    def _rake_applies(self) -> bool:
        """False when no-flop-no-drop spares this hand (the game knows its moment)."""
        return True

    def _on_uncontested(self, winner: int) -> None:
        """Everyone else folded; the pots are awarded already.  Default: the hand ends."""
        self._finish()

    _one_pot_shortcuts: ClassVar[bool] = True
    """Take the short ways through a showdown with one pot (tests turn them off to compare)."""

    def _post_forced(
        self, position: int, amount: int, *, kind: str, live: bool = True, levels: bool = True
    ) -> ForcedBet:
        """Post a forced bet of ``amount`` (or the whole stack if short) for ``position``.

        ``live``: it counts as a bet in the first betting round (blinds);
        otherwise it goes straight into the pot (antes).  ``levels``: it counts
        for all-in levels (side pots); otherwise it is dead money in the main
        pot that every player still in may win.
        """
        stack = self.stacks[position]
        paid = amount if amount < stack else stack  # (a conditional: min() costs a call)
        self.stacks[position] = stack - paid
        if live:
            self.bets[position] += paid
        if levels or live:
            self.committed[position] += paid
        else:
            self.dead[position] += paid
        all_in = stack == paid
        if all_in and paid:
            self._stop_acting(position)
        record = ForcedBet((position, paid, kind, live, all_in))
        self.log.append(record)
        return record

    def _stop_acting(self, position: int) -> None:
        """``position`` folded or has no chips behind: no more turns for it this hand."""
        self._active -= 1
        acting = self._acting & ~(1 << position)
        self._acting = acting
        self._next = _next_to_act(acting)

    def _act_again(self, position: int) -> None:
        """``position``, all-in, got chips back (an uncalled bet): it can act again."""
        self._active += 1
        acting = self._acting | 1 << position
        self._acting = acting
        self._next = _next_to_act(acting)

    def _return_unmatched(self, owner: int, excess: int) -> None:
        """Give back the ``excess`` chips ``owner`` put in that nobody matched (logged)."""
        if self.stacks[owner] == 0 and not self.folded[owner]:
            self._act_again(owner)  # all-in no more
        self.stacks[owner] += excess
        self.committed[owner] -= excess
        self.log.append(UncalledBetReturned((owner, excess)))

    def _begin_showdown(
        self, order: Sequence[int], *, ask: bool = False, auto_show: bool = False
    ) -> None:
        """Players still in, in showdown order, show or muck; then the pots are awarded.

        Hands already shown (all-in) are not asked again.  With ``ask`` each
        player decides (:meth:`show`, :meth:`muck`); with ``auto_show`` too, a
        hand that may not be mucked is shown without asking, so only the
        players who have a choice are asked.  Otherwise cards speak: a hand
        that could win is shown, the others are mucked.
        """
        self.phase = _PHASE_SHOWDOWN
        self._auto_show = auto_show
        self._show_queue = [i for i in order if not self.folded[i] and i not in self.shown]
        if ask:
            self._next_shower()
            return
        for i in self._show_queue:
            if self._can_win(i) is False:
                self._do_muck(i)
            else:
                self._do_show(i)
        self._show_queue = []
        self._showdown_award()

    def _next_shower(self) -> None:
        queue = self._show_queue
        if self._auto_show:
            while queue and not self._muck_allowed(queue[0]):
                self._do_show(queue.pop(0))
        if queue:
            self.actor = queue[0]
            return
        self.actor = None
        self._showdown_award()

    def _do_show(self, i: int) -> CardsShown:
        cards = self.hole[i]
        self.shown[i] = cards
        record = CardsShown((i, cards))
        self.log.append(record)
        return record

    def _do_muck(self, i: int) -> CardsMucked:
        self.mucked.add(i)
        record = CardsMucked((i,))
        self.log.append(record)
        return record

    def _muck_allowed(self, i: int) -> bool:
        if self.folded[i] or self._live == 1:
            return True  # an uncontested winner may always keep the cards hidden
        return self._can_win(i) is not True

    def _check_show_turn(self, position: int | None) -> int:
        if self.phase is not _PHASE_SHOWDOWN or self.actor is None:
            if self.phase is _PHASE_OVER:
                raise HandOverError("the hand is over")
            raise WrongPhaseError(f"nobody shows now: the hand is at the {self.phase.value}")
        if position is not None and position != self.actor:
            raise NotYourTurnError(f"it is position {self.actor}'s turn to show, not {position}'s")
        return self.actor

    def verify_show(self, position: int | None = None) -> None:
        """Raise unless the player asked at the showdown may show."""
        self._check_show_turn(position)

    def can_show(self, position: int | None = None) -> bool:
        """Whether :meth:`show` would succeed."""
        return succeeds(self.verify_show, position)

    def show(self, position: int | None = None) -> CardsShown:
        """Show the hole cards at the showdown."""
        i = self._check_show_turn(position)
        record = self._do_show(i)
        self._show_queue.pop(0)
        self._next_shower()
        return record

    def verify_muck(self, position: int | None = None) -> None:
        """Raise unless the player asked may muck (their hand cannot win)."""
        i = self._check_show_turn(position)
        if not self._muck_allowed(i):
            raise CannotMuckError("this hand can still win a pot: it is shown (cards speak)")

    def can_muck(self, position: int | None = None) -> bool:
        """Whether :meth:`muck` would succeed."""
        return succeeds(self.verify_muck, position)

    def muck(self, position: int | None = None) -> CardsMucked:
        """Give the cards up unseen."""
        self.verify_muck(position)
        i = self.actor
        assert i is not None
        record = self._do_muck(i)
        self._show_queue.pop(0)
        self._next_shower()
        return record

    def _offer_show(self, position: int) -> None:
        """Let an uncontested winner choose to show (default: muck); the pots are theirs."""
        self.phase = _PHASE_SHOWDOWN
        self._show_queue = [position]
        self.actor = position

    def _showdown_award(self) -> None:
        if self._live == 1 or self._awards:
            self._finish()  # an uncontested winner's choice: the pots are awarded
            return
        # A mucked hand is out like a folded one, and so is a hand that wins
        # nothing: pots left with the same contenders are one pot, split once
        # (its odd chips are counted once).
        mucked = self.mucked
        if self._active == self._live and self._one_pot_shortcuts:
            # Nobody is all-in: everyone still in put in the same, so there is one
            # pot, and the hands not mucked contend for it (all of them if all mucked).
            live = self.live
            eligible = tuple([i for i in live if i not in mucked]) if mucked else live
            amount = sum(self.committed) + sum(self.dead) + self.carried
            if amount:
                eligible = eligible or live
                self._award([(Pot(amount, eligible), self._pot_winners(eligible))])
            self._finish()
            return
        if mucked:
            folded = self.folded
            out = [folded[i] or i in mucked for i in range(self.n)]
        else:
            out = self.folded
        if all(out):
            out = self.folded  # everyone mucked: cards speak among them
        pots = build_pots(self.committed, out, self._dead_money())
        pot_winners = self._pot_winners
        winners = [pot_winners(pot.eligible) for pot in pots]
        if len(pots) > 1:
            won = {i for group in winners for i in group}
            losers = [not out[i] and i not in won for i in range(self.n)]
            if any(losers):
                out = [a or b for a, b in zip(out, losers, strict=True)]
                pots = build_pots(self.committed, out, self._dead_money())
                winners = [self._pot_winners(pot.eligible) for pot in pots]
        self._award(list(zip(pots, winners, strict=True)))
        self._finish()

    def _award(self, plan: Sequence[tuple[Pot, tuple[int, ...]]]) -> None:
        """Take the rake, then give each pot to its winners (decided beforehand)."""
        amounts = [pot.amount for pot, _ in plan]
        total = sum(amounts)
        rake = 0
        if self.rake is not None and self._rake_applies():
            rake = self.rake.amount(total, players=self.n)
        if rake:
            # Each pot pays its share of the rake, rounded down; the chips left
            # over come from the pots in order, main pot first.
            taken = [rake * a // total for a in amounts]
            short = rake - sum(taken)
            for k in range(len(taken)):
                extra = min(short, amounts[k] - taken[k])
                taken[k] += extra
                short -= extra
            amounts = [a - t for a, t in zip(amounts, taken, strict=True)]
            self._rake_taken = rake
            self.log.append(RakeTaken((rake,)))
        stacks = self.stacks
        awards, log = self._awards, self.log
        for index, (pot, winners) in enumerate(plan):
            amount = amounts[index]
            # one winner takes it all (no odd chip to place)
            shares = (amount,) if len(winners) == 1 else self._split_pot(index, amount, winners)
            for position, share in zip(winners, shares, strict=True):
                stacks[position] += share
            awards.append(PotResult(amount, pot.eligible, winners, shares))
            log.append(PotAwarded((index, amount, winners, shares)))
        n = self.n
        self.committed = [0] * n
        self.dead = [0] * n
        self.carried = 0

    def _split_pot(self, index: int, amount: int, winners: tuple[int, ...]) -> tuple[int, ...]:
        """The shares of pot ``index`` (after rake) among ``winners``; a game may script the
        odd chips (a replay names who got them)."""
        return split_pot(amount, winners, odd_chip=self.odd_chip, rng=self.rng)

    def _finish(self, extra: Mapping[str, object] | None = None) -> None:
        self.phase = _PHASE_OVER
        self.actor = None
        self._show_queue = []
        stacks = tuple(self.stacks)
        self.result = HandResult(
            stacks,
            tuple(map(operator.sub, stacks, self.starting_stacks)),  # same lengths
            tuple(self._awards),
            self._rake_taken,
            MappingProxyType(dict(self.shown)),
            _NO_EXTRA if not extra else MappingProxyType(dict(extra)),
        )

    def view(self, viewer: int | None = None) -> HandView:
        """What ``viewer`` (a position, or ``None`` for a spectator) may see now: each
        game's view extends :class:`~mazziere.game.view.HandView`."""
        return HandView(**self._view_fields(viewer))

    def _view_fields(self, viewer: int | None) -> dict[str, Any]:
        """The fields of every view: others' hole cards hidden unless shown."""
        hole = [
            cards if position == viewer or position in self.shown else (None,) * len(cards)
            for position, cards in enumerate(self.hole)
        ]
        legal = self.legal_actions() if viewer is not None and viewer == self.actor else None
        return {
            "viewer": viewer,
            "phase": self.phase,
            "button": self.button,
            "actor": self.actor,
            "stacks": tuple(self.stacks),
            "bets": tuple(self.bets),
            "folded": tuple(self.folded),
            "pots": self.pots(),
            "total_pot": self.total_pot,
            "hole": tuple(hole),
            "legal": legal,
            "result": self.result,
        }

    @abstractmethod
    def legal_actions(self) -> LegalActions:
        """What the player to act may do now (nothing when nobody is to act)."""

    def records_for(self, viewer: int | None) -> list[Record]:
        """The log as ``viewer`` (a position, ``None`` for a spectator) may see it."""
        return [record.seen_by(viewer) for record in self.log]
