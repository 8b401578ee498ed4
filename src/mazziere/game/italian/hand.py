"""One hand of Poker all'italiana: the invito and the blinds, the blind opening, the deal,
the opening test and the dead hand, the draw, parol and parole (RULES.md §3-5)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Unpack

from mazziere.cards import Card, RandomSource, Rank
from mazziere.game.core import (
    NO_ACTIONS,
    Action,
    ActionKind,
    ActionNotOfferedError,
    AmountTooLargeError,
    AmountTooSmallError,
    BettingHand,
    CannotBetError,
    CannotRaiseError,
    HandSetupError,
    HoleCardsDealt,
    InvalidAmountError,
    LegalActions,
    MinRaiseRule,
    NotYourTurnError,
    Phase,
    PlayerActed,
    Pot,
    PotAwarded,
    Record,
    WrongPhaseError,
)
from mazziere.game.italian.carry import ItalianCarry
from mazziere.game.italian.draw import CannotDiscardError
from mazziere.game.italian.parol import ItalianParol
from mazziere.game.italian.rules import (
    OpeningTest,
    blind_opening_amounts,
    next_opening_level,
    opening_minimum,
    rejoin_costs,
)
from mazziere.game.italian.setup import (
    Discarded,
    HandStarted,
    ItalianSetup,
    ItalianTable,
    ItalianTerms,
    PotCarried,
    italian_setup,
)
from mazziere.game.italian.stock import DrawStock
from mazziere.game.italian.view import ItalianView
from mazziere.rules import RuleSet, find_rules

__all__ = ["BLIND_NAMES", "CannotDiscardError", "ItalianHand"]

# Enum members as module constants, as in the core: reading one off its class costs
# ten times more, and these are read on every action.
_ACTIONKIND_BET = ActionKind.BET
_ACTIONKIND_CALL = ActionKind.CALL
_ACTIONKIND_CHECK = ActionKind.CHECK
_ACTIONKIND_DRAW = ActionKind.DRAW
_ACTIONKIND_PAROL = ActionKind.PAROL
_ACTIONKIND_RAISE = ActionKind.RAISE
_ACTIONKIND_TIMEOUT = ActionKind.TIMEOUT
_PHASE_BETTING = Phase.BETTING
_PHASE_DEALING = Phase.DEALING
_PHASE_DRAW = Phase.DRAW

_PAROL = frozenset({_ACTIONKIND_PAROL})
_DRAW_KINDS = frozenset({_ACTIONKIND_DRAW, _ACTIONKIND_TIMEOUT})
_BLIND_BET_KINDS = frozenset({_ACTIONKIND_BET, _ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT})
_BLIND_RAISE_KINDS = frozenset({_ACTIONKIND_RAISE, _ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT})

BLIND_NAMES = ("buio", "controbuio", "over")
"""The blind bets from the dealer's left: forced in italian-32, chosen in italian-classic."""


@functools.cache
def _refusal(minimum: Rank, *, bilateral: bool) -> str:
    """Why cards that do not open may not bet."""
    draw = ", or a bilateral straight-flush draw" if bilateral else ""
    return f"these cards do not open: a pair of {minimum.name_it} or better is needed{draw}"


class ItalianHand(ItalianParol):
    """One hand of Poker all'italiana.

    ``rules``: ``"italian-classic"``, ``"italian-32"`` or a house rule set.
    ``invito`` (classic) is every player's ante; ``buio`` (italian-32) the
    smallest blind, the others following from the rule set.  ``min_bet`` is
    the table's minimum opening bet (default: the invito; italian-32: the
    last blind).  ``opening_level`` counts the dead hands since the pot was
    last won; ``parol_pot`` plays a parol pot.  The cards come from ``deck``
    (a card order: the deal one card at a time from the dealer's left, then
    the draw; a card repeated later is dealt again after a reshuffle) and
    then, or otherwise, from ``rng``, which also draws the odd chips of a
    parole split unless ``odd_chips`` names their winners (a replay).

    ``ask_show``: at the showdown the players who may muck are asked, and a
    player who wins uncontested may show; otherwise cards speak.
    """

    # Slots, as in the core: more attributes than an instance dict shares keys for.
    __slots__ = (
        "_all_in_raisers",
        "_blind_base",
        "_blind_lock",
        "_cycle",
        "_draw_max",
        "_first_aggressor",
        "_has_parol",
        "_last_aggressor",
        "_last_first",
        "_last_round_start",
        "_no_last_round",
        "_odd_chips",
        "_opening_test",
        "_opens",
        "_outcome",
        "_stock",
        "_table",
        "ask_show",
        "betting_round",
        "blind_raisers",
        "blinds",
        "drawn",
        "opening",
        "opening_level",
        "parol_pot",
        "ranking",
        "rules",
        "setup",
    )

    setup: ItalianSetup
    _table: ItalianTable
    rules: RuleSet

    def __init__(
        self,
        rules: str | RuleSet,
        stacks: Sequence[int],
        *,
        deck: Sequence[Card] | None = None,
        rng: RandomSource | None = None,
        odd_chips: Sequence[int] | None = None,
        **terms: Unpack[ItalianTerms],
    ) -> None:
        rule_set = find_rules(rules)
        setup, table = italian_setup(rule_set, stacks, **terms)
        self._start(setup, rule_set, table, deck=deck, rng=rng, odd_chips=odd_chips)

    @classmethod
    def from_setup(
        cls,
        setup: ItalianSetup,
        *,
        deck: Sequence[Card] | None = None,
        rng: RandomSource | None = None,
        odd_chips: Sequence[int] | None = None,
    ) -> ItalianHand:
        """A new hand with this setup (the first record of another hand's log, say)."""
        rule_set = find_rules(setup.stakes.rules)
        checked, table = italian_setup(rule_set, setup.stacks, **setup.terms())
        if checked != setup:
            raise HandSetupError(f"this setup is not one of {rule_set.name}: {setup}")
        hand = cls.__new__(cls)
        hand._start(setup, rule_set, table, deck=deck, rng=rng, odd_chips=odd_chips)
        return hand

    def _start(
        self,
        setup: ItalianSetup,
        rule_set: RuleSet,
        table: ItalianTable,
        *,
        deck: Sequence[Card] | None,
        rng: RandomSource | None,
        odd_chips: Sequence[int] | None,
    ) -> None:
        if deck is None and rng is None:
            raise HandSetupError("give a card order (deck) or a random source (rng)")
        if rule_set.parole_splits_pot and rng is None and odd_chips is None:
            raise HandSetupError("a parole split draws odd chips: give rng or odd_chips")
        stakes, carried = setup.stakes, setup.carried
        super().__init__(
            setup.stacks,
            structure=stakes.structure,
            min_raise_rule=MinRaiseRule.LARGEST_INCREMENT,
            odd_chip=rule_set.odd_chip,
            rng=rng if rng is not None else _NO_RANDOM,
        )
        n = self.n
        self._table = table
        if stakes.rake:
            self.rake = table.rake
        self.setup = setup
        self.rules = rule_set
        self.ask_show = stakes.ask_show
        self.ranking = table.ranking
        self.opening_level = carried.opening_level
        self.parol_pot = carried.parol_pot
        self.opening: Rank | None = opening_minimum(
            rule_set, carried.opening_level, parol_pot=carried.parol_pot
        )
        """The smallest pair that opens this hand (``None``: no opening requirement)."""
        self.betting_round = 0
        """0 before the deal, 1 the first betting round, 2 the last."""
        self.blind_raisers: list[int] = []
        self._blind_base = 0
        self.drawn: list[int | None] = [None] * n
        """How many cards each player discarded (``None``: not drawn yet)."""
        self._stock = DrawStock(table.deck, order=deck, rng=rng)
        self._odd_chips = list(odd_chips) if odd_chips is not None else None
        self._opens: list[bool | None] = [None] * n
        self._opening_test: OpeningTest | None = (
            None if self.opening is None else table.opening_tests[self.opening]
        )
        self._strengths: dict[int, int] = {}
        self._all_in_raisers: set[int] = set()
        self._cycle = rule_set.straight_flush_minima_beats_massima
        self._has_parol = rule_set.parol or rule_set.parole_splits_pot
        self._draw_max = rule_set.draw_max
        self._showdown_pots: tuple[Pot, ...] = ()
        self._first_aggressor: int | None = None
        self._last_aggressor: int | None = None
        self._last_first: int = 0
        self._last_round_start = 0
        self._parol_scanned = 0
        self._parol_breaker = None
        self._no_last_round = False
        self._blind_lock = False
        self._outcome = "won"
        self._draw_queue: list[int] = []
        self._late: list[int] = []
        self.blinds: tuple[int, ...] = stakes.blinds
        """The forced blinds from the dealer's left (italian-32: buio, controbuio, over)."""
        self.log.append(HandStarted((setup,)))
        self.carried = carried.pot
        if any(carried.dead_money):
            for position, amount in enumerate(carried.dead_money):
                if amount:
                    self._post_forced(position, amount, kind="dead", live=False, levels=False)
        if stakes.invito:
            for position in range(n):
                if self.stacks[position]:
                    self._post_forced(position, stakes.invito, kind="invito", live=False)
        for position, amount in enumerate(self.blinds):
            if self.stacks[position]:
                self._post_forced(position, amount, kind=BLIND_NAMES[position])
        if any(carried.posts):
            for position, amount in enumerate(carried.posts):
                if amount and self.stacks[position]:
                    self._post_forced(position, amount, kind="post")
        if (
            rule_set.blind_opening_raises
            and carried.opening_level == 0
            and (not carried.parol_pot or rule_set.parol_pot_blind_opening)
            and self._offer_blind(0)
        ):
            return
        self._deal()

    # ------------------------------------------------------------ properties

    @property
    def carry(self) -> ItalianCarry:
        """What the next hand needs (once the hand is over)."""
        if self.result is None:
            raise WrongPhaseError("the hand is not over: nothing to carry yet")
        carry = self.result.extra["carry"]
        assert isinstance(carry, ItalianCarry)
        return carry

    def opens(self, position: int) -> bool:
        """Whether ``position``'s cards may open this hand (always, without an opening test)."""
        if self.opening is None:
            return True
        known = self._opens[position]
        if known is None:
            cards = self.hole[position]
            test = self._opening_test
            assert test is not None  # (there is an opening requirement)
            known = len(cards) == 5 and test(cards)  # type: ignore[arg-type]
            self._opens[position] = known
        return known

    # ---------------------------------------------------------- blind opening

    def _blind_amount(self) -> int:
        """What the next blind raiser must put in: the pot, then double each time."""
        base = self._blind_base
        if base <= 0:  # blind_opening_amounts says why there is no blind opening
            blind_opening_amounts(pot=base, raises=1)
        # The last of blind_opening_amounts(pot=base, raises=len(raisers) + 1, factor=...).
        due: int = base * self.rules.blind_opening_factor ** len(self.blind_raisers)
        return due

    def _offer_blind(self, position: int) -> bool:
        """Ask ``position`` for the next blind raise if the rules and its chips allow."""
        if len(self.blind_raisers) >= min(self.rules.blind_opening_raises, self.n):
            return False
        if position >= self.n:
            return False
        if not self.blind_raisers:
            self._blind_base = self.total_pot
        if self.stacks[position] < self._blind_amount():
            return False
        self.phase = _PHASE_DEALING
        self.actor = position
        return True

    # The blind opening goes through the core's actions (a bet is the buio, a raise the next
    # blind, a check declines): the core's hooks below answer for it before the deal.

    def _verify_blind(self, kind: ActionKind, amount: object, position: int | None) -> int:
        """Check a decision before the deal against the legal actions (the blind, of
        ``min_to`` chips, or a check): what it posts (0: none), or the precise error."""
        legal = self.legal_actions()
        actor = legal.position
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn, not {position}'s")
        if kind in (_ACTIONKIND_CHECK, _ACTIONKIND_TIMEOUT):
            return 0
        due = legal.min_to
        name = BLIND_NAMES[len(self.blind_raisers)]
        if kind is _ACTIONKIND_BET and kind not in legal.kinds:
            raise CannotBetError(f"there is a blind bet already: the {name} raises to {due}")
        if kind is _ACTIONKIND_RAISE and kind not in legal.kinds:
            raise CannotRaiseError(f"there is no blind to raise: the buio bets {due}")
        if kind not in legal.kinds:
            raise ActionNotOfferedError(
                f"before the deal position {actor} may only make the {name} ({due}) or check"
            )
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise InvalidAmountError(f"amounts are whole chips (int), not {amount!r}")
        if amount < due:
            raise AmountTooSmallError(f"the {name} is {due}, not {amount}")
        if amount > due:
            raise AmountTooLargeError(f"the {name} is {due}, not {amount}")
        return due

    def _post_blind(self, due: int, kind: ActionKind) -> PlayerActed:
        """Make a verified decision before the deal: post ``due`` as the next blind, or
        (0) decline it, and deal when nobody else is asked."""
        actor = self.actor
        assert actor is not None
        if not due:
            record = PlayerActed(
                (actor, _ACTIONKIND_CHECK, 0, 0, False, kind is _ACTIONKIND_TIMEOUT)
            )
            self.log.append(record)
            self._deal()
            return record
        # The chips move as a live post; the record is the player's decision.
        forced = self._post_forced(actor, due, kind=BLIND_NAMES[len(self.blind_raisers)])
        self.log.pop()
        record = PlayerActed((actor, kind, due, due, forced.all_in, False))
        self.log.append(record)
        if forced.all_in:
            self._all_in_raisers.add(actor)
        self.blind_raisers.append(actor)
        if not self._offer_blind(actor + 1):
            self._deal()
        return record

    def _options(self, position: int | None, kind: ActionKind | None = None) -> LegalActions:
        if kind is _ACTIONKIND_CHECK and self.phase is _PHASE_DEALING:
            self._verify_blind(kind, None, position)  # a check declines the blind
            return self.legal_actions()
        return BettingHand._options(self, position, kind)

    def _wager_options(self, to: object, position: int | None, kind: ActionKind) -> int:
        if self.phase is _PHASE_DEALING:
            return self._verify_blind(kind, to, position)
        return BettingHand._wager_options(self, to, position, kind)

    def _wager(self, to: int, kind: ActionKind) -> PlayerActed:
        if self.phase is _PHASE_DEALING:
            return self._post_blind(to, kind)
        record = BettingHand._wager(self, to, kind)
        if record.all_in:
            self._all_in_raisers.add(record.position)
        if self._blind_lock and kind is _ACTIONKIND_RAISE:
            # Once the last blind raiser raises again, betting goes on normally.
            self._blind_lock = False
            self.call_only = [False] * self.n
            self._legal = None  # worked out with the lock on
        return record

    def _check_as(self, kind: ActionKind, timed_out: bool = False) -> PlayerActed:
        if self.phase is _PHASE_DEALING:
            return self._post_blind(0, _ACTIONKIND_TIMEOUT if timed_out else kind)
        return BettingHand._check_as(self, kind, timed_out)

    # ------------------------------------------------------------------ deal

    def _deal(self) -> None:
        n = self.n
        cards = self._stock.deal_fresh(5 * n)
        hole = self.hole
        for position in range(n):
            hole[position] = cards[position::n]  # one card at a time from the dealer's left
            self.log.append(HoleCardsDealt((position, hole[position])))
        self.betting_round = 1
        self._bets_need_opening = self.opening is not None
        if self.blind_raisers:
            raisers = self.blind_raisers
            last = raisers[-1]
            amounts = [self.bets[p] for p in raisers]
            increment = max(b - a for a, b in zip([0, *amounts], amounts, strict=False))
            self.call_only = [p != last for p in range(n)]
            self._blind_lock = True
            self._begin_round(
                last + 1, min_bet=self.setup.stakes.min_bet, increment=increment, aggressor=last
            )
        elif self.blinds:
            last = len(self.blinds) - 1
            big = self.blinds[-1]
            self._begin_round(
                last + 1, min_bet=self.setup.stakes.min_bet, increment=big, aggressor=last
            )
        else:
            min_bet = self.setup.stakes.min_bet
            if self.parol_pot and self.rules.parol_pot_min_bet_is_pot:
                min_bet = max(min_bet, self.total_pot)
            self._begin_round(0, min_bet=min_bet)

    def _bet_refused(self, position: int) -> str | None:
        # (asked in the first round of a hand with an opening requirement: the cached answer first)
        assert self.opening is not None
        known = self._opens[position]
        if known or (known is None and self.opens(position)):
            return None
        return _refusal(self.opening, bilateral=self.rules.bilateral_draw_opens)

    # ----------------------------------------------------------- round ends

    def _round_over(self) -> None:
        if self.betting_round == 1:
            self._first_aggressor = self.aggressor
            self._blind_lock = False
            self.call_only = [False] * self.n
            if self.opening is not None and self.aggressor is None and not self.blind_raisers:
                if self._active != self._live:  # somebody still in has no chips behind
                    self._no_last_round = True  # all-in on the invito: no dead hand
                else:
                    self._carry_pot(parol=False)
                    return
            self._begin_draw()
            return
        self._last_aggressor = self.aggressor
        if self._parol_unanimous():
            if self.rules.parol:
                self._carry_pot(parol=True)
            else:
                self._split_by_parole()
            return
        self._showdown()

    def _carry_pot(self, *, parol: bool) -> None:
        self._outcome = "parol" if parol else "dead"
        self.log.append(PotCarried((self.total_pot, parol)))
        self._finish()

    def _split_by_parole(self) -> None:
        plan = [(pot, tuple(p for p in pot.eligible)) for pot in self.pots()]
        self._award(plan)
        self._finish()

    def _split_pot(self, index: int, amount: int, winners: tuple[int, ...]) -> tuple[int, ...]:
        if len(winners) == 1:  # suits break every tie: only parole splits a pot
            return (amount,)
        script = self._odd_chips
        if script is None:
            return super()._split_pot(index, amount, winners)
        share, odd = divmod(amount, len(winners))
        given, self._odd_chips = script[:odd], script[odd:]
        if len(given) < odd or len(set(given)) < odd or not set(given) <= set(winners):
            raise HandSetupError(
                f"pot {index}: {odd} odd chips go to distinct winners among {list(winners)}, "
                f"not {given}"
            )
        return tuple(share + (p in given) for p in winners)

    def _after_draw(self) -> None:
        self.actor = None
        if self._no_last_round:
            self._showdown()
            return
        self.betting_round = 2
        self._bets_need_opening = False
        self._last_round_start = self._parol_scanned = len(self.log)
        if self.blind_raisers:
            first = self.blind_raisers[-1] + 1
        elif self.blinds:
            first = len(self.blinds)
        else:
            assert self._first_aggressor is not None
            first = self._first_aggressor
        # The first to speak opens the showdown if nobody bets; set before the round
        # starts, since it ends at once when at most one player can bet.
        self._last_first = first % self.n
        self._begin_round(first, min_bet=self.setup.stakes.min_bet)
        if self.phase is _PHASE_BETTING and self.actor is not None:
            self._last_first = self.actor

    # ---------------------------------------------------- actions of our own

    def _verify_other(self, action: Action, position: int | None) -> None:
        kind = action.kind
        if kind is _ACTIONKIND_PAROL:
            self.verify_parol(position)
        elif kind is _ACTIONKIND_DRAW:
            self.verify_draw(action.cards, position)
        elif kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DRAW:
            self.verify_draw((), position)
        elif kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DEALING:
            self._verify_blind(kind, None, position)
        else:
            super()._verify_other(action, position)

    def _apply_other(self, action: Action, position: int | None) -> Record:
        kind = action.kind
        if kind is _ACTIONKIND_PAROL:
            return self.parol(position)
        if kind is _ACTIONKIND_DRAW:
            return self.draw(action.cards, position)
        if kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DRAW:
            return self.draw((), position, timed_out=True)
        if kind is _ACTIONKIND_TIMEOUT and self.phase is _PHASE_DEALING:
            return self.check(position, timed_out=True)  # declines the blind
        return super()._apply_other(action, position)

    def _legal_other(self) -> LegalActions:
        actor = self.actor
        if actor is None:
            return NO_ACTIONS
        if self.phase is _PHASE_DRAW:
            return LegalActions((actor, _DRAW_KINDS, 0, 0, self._draw_max))
        due = self._blind_amount()
        kinds = _BLIND_RAISE_KINDS if self.blind_raisers else _BLIND_BET_KINDS
        return LegalActions((actor, kinds, 0, due, due))

    def legal_actions(self) -> LegalActions:
        """The core's legal actions (:meth:`BettingHand.legal_actions`, the rule of who may
        bet or raise), plus parol when it may be said; a fold with nothing to call is
        flagged for confirmation (``confirm_fold``).

        Before the deal (:meth:`_legal_other`): the blind (``min_to`` is its
        amount) or a check.  In the draw: ``draw`` with ``min_to``..``max_to`` cards.
        """
        legal = self._legal
        if legal is None:
            legal = BettingHand.legal_actions(self)  # (super() costs a proxy a decision)
            # (parol is said in the last round only: the cheap test first)
            if (
                self.betting_round == 2
                and not legal.to_call
                and self.phase is _PHASE_BETTING
                and self._has_parol
                and self._parol_blocked() is None
            ):
                kinds = legal.kinds | _PAROL
                legal = self._legal = LegalActions((legal.position, kinds, 0, *legal[3:]))
        return legal

    # ---------------------------------------------------------------- result

    def _finish(self, extra: Mapping[str, object] | None = None) -> None:
        carry = self._carry()
        BettingHand._finish(self, {"carry": carry, **extra} if extra else {"carry": carry})

    def _carry(self) -> ItalianCarry:
        n = self.n
        rules = self.rules
        if self._outcome == "won":
            return self._table.pot_won
        carried = self.setup.carried.shares
        shares = tuple(carried[p] + self.committed[p] + self.dead[p] for p in range(n))
        if self._outcome == "dead":
            level = next_opening_level(rules, self.opening_level, pot_won=False)
            parol_pot = self.parol_pot
            players = tuple(range(n)) if parol_pot else ()
            rejoin = (0,) * n
        else:
            level = self.opening_level
            parol_pot = True
            players = self.live
            rejoin = rejoin_costs(shares, players)
        return ItalianCarry(
            pot=self.total_pot,
            opening_level=level,
            parol_pot=parol_pot,
            shares=shares,
            parol_players=players,
            rejoin=rejoin,
            opening=opening_minimum(rules, level, parol_pot=parol_pot),
        )

    # ---------------------------------------------------------------- replay

    @classmethod
    def from_log(cls, log: Sequence[Record], *, rng: RandomSource | None = None) -> ItalianHand:
        """Rebuild a hand by replaying its log (``rng`` deals on if the hand is not over).

        >>> import random
        >>> hand = ItalianHand("italian-32", [900, 900, 900], buio=50, rng=random.Random(3))
        >>> _ = hand.call(); _ = hand.call(); _ = hand.check(); _ = hand.draw(hand.hole[0][:2])
        >>> copy = ItalianHand.from_log(hand.log, rng=random.Random(0))
        >>> copy.log == hand.log, copy.actor == hand.actor, copy.hole == hand.hole
        (True, True, True)
        """
        if not log or not isinstance(log[0], HandStarted):
            raise HandSetupError("an Italian log starts with its HandStarted record")
        setup = log[0].setup
        n = len(setup.stacks)
        dealt = [r for r in log if isinstance(r, HoleCardsDealt)]
        order: list[Card] = []
        if dealt:
            first = [r.cards for r in dealt[:n]]
            order = [first[p][k] for k in range(5) for p in range(n)]  # type: ignore[misc]
            order += [c for r in dealt[n:] for c in r.cards]  # type: ignore[misc]
        odd_chips = [
            winner
            for r in log
            if isinstance(r, PotAwarded)
            for winner, share in zip(r.winners, r.shares, strict=True)
            if share > min(r.shares)
        ]
        hand = cls.from_setup(setup, deck=order, rng=rng, odd_chips=odd_chips)
        hand._replay(log)
        return hand

    def _replay_record(self, record: Record) -> None:
        if isinstance(record, Discarded):
            if record.timed_out:
                self.timeout(record.position)
            else:
                self.draw(record.cards, record.position)  # type: ignore[arg-type]
        else:
            super()._replay_record(record)

    # ------------------------------------------------------------------ views

    def view(self, viewer: int | None = None) -> ItalianView:
        """What ``viewer`` (a position, or ``None`` for a spectator) may see now.

        >>> import random
        >>> hand = ItalianHand("italian-32", [900, 900], buio=50, rng=random.Random(2))
        >>> mine, spectator = hand.view(0), hand.view(None)
        >>> None in mine.hole[0], mine.hole[1], spectator.legal
        (False, (None, None, None, None, None), None)
        """
        return ItalianView(
            **self._view_fields(viewer),
            rules=self.rules.name,
            betting_round=self.betting_round,
            drawn=tuple(self.drawn),
            opening=self.opening,
            parol_pot=self.parol_pot,
            carried_pot=self.setup.carried.pot,
            blind_raisers=tuple(self.blind_raisers),
        )


class _NoRandom:
    """The random source of a hand that was given none: a replay never needs it."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1, /) -> int:
        raise HandSetupError("this hand has no random source (rng)")


_NO_RANDOM = _NoRandom()
