"""Betting rounds: whose turn it is, the one rule of who may bet or raise and how much,
and every betting action (:class:`BettingHand`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from mazziere.game.actions import (
    _AMOUNT_KINDS,
    _BET,
    _BET_NO_ALL_IN,
    _CALL_ALL_IN,
    _CALL_ONLY,
    _CHECK_ONLY,
    _RAISE,
    _RAISE_CHECK,
    _RAISE_CHECK_NO_ALL_IN,
    _RAISE_NO_ALL_IN,
    _SHOW_ONLY,
    _SHOW_OR_MUCK,
    NO_ACTIONS,
    Action,
    ActionKind,
    LegalActions,
)
from mazziere.game.errors import (
    ActionNotOfferedError,
    AmountTooLargeError,
    AmountTooSmallError,
    CannotBetError,
    CannotCheckError,
    CannotRaiseError,
    HandOverError,
    HandSetupError,
    InvalidAmountError,
    NothingToCallError,
    NotYourTurnError,
    WrongPhaseError,
    succeeds,
)
from mazziere.game.hand import _NOT_ACTED, Hand, MinRaiseRule, Phase
from mazziere.game.records import BetsCollected, CardsMucked, CardsShown, PlayerActed, Record
from mazziere.rules import BettingStructure

__all__ = ["BettingHand"]


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmountError(f"amounts are whole chips (int), not {amount!r}")
    return amount


# Enum members as module constants: reading one off its class costs ten times more.
_ACTIONKIND_ALL_IN = ActionKind.ALL_IN
_ACTIONKIND_BET = ActionKind.BET
_ACTIONKIND_CALL = ActionKind.CALL
_ACTIONKIND_CHECK = ActionKind.CHECK
_ACTIONKIND_FOLD = ActionKind.FOLD
_ACTIONKIND_MUCK = ActionKind.MUCK
_ACTIONKIND_RAISE = ActionKind.RAISE
_ACTIONKIND_SHOW = ActionKind.SHOW
_ACTIONKIND_TIMEOUT = ActionKind.TIMEOUT
_BETTINGSTRUCTURE_POT_LIMIT = BettingStructure.POT_LIMIT
_MINRAISERULE_LARGEST_INCREMENT = MinRaiseRule.LARGEST_INCREMENT
_MINRAISERULE_LAST_INCREMENT = MinRaiseRule.LAST_INCREMENT
_PHASE_BETTING = Phase.BETTING
_PHASE_OVER = Phase.OVER
_PHASE_SHOWDOWN = Phase.SHOWDOWN


class BettingHand(Hand):
    """Base of every game's hand: a :class:`~mazziere.game.hand.Hand` with betting rounds.

    Positions are ``0 .. n-1`` clockwise from the dealer's left; the dealer is
    ``n - 1``.  The public operations follow verify / can / do: ``verify_x``
    raises a precise :class:`IllegalActionError`, ``can_x`` answers, ``x``
    does it and returns the record it appended to :attr:`log`.  An illegal
    action changes nothing.  Every operation takes an optional ``position``:
    given, it must be the position to act.

    A game subclass posts forced bets with :meth:`_post_forced`, starts each
    betting round with :meth:`_begin_round` and is told when it ends by
    :meth:`_round_over`; it calls :meth:`_begin_showdown` and provides
    :meth:`_can_win` and :meth:`_pot_winners`.

    Attributes a subclass and a view may read (never write from outside):
    ``stacks``, ``bets`` (this round), ``committed`` (everything each position
    put in that counts for all-in levels, bets included), ``dead`` (chips in
    the main pot whoever wins), ``folded``, ``hole``, ``shown``, ``actor``,
    ``phase``, ``current_bet``, ``min_bet``, ``min_increment``, ``aggressor``
    (last to bet or raise this round), ``call_only``.
    """

    __slots__ = ()

    @abstractmethod
    def _round_over(self) -> None:
        """A betting round ended (bets collected): deal on, draw, or show down."""

    def _apply_other(self, action: Action, position: int | None) -> Record:
        """Actions of a game's own (draw, parol...).  Default: not offered."""
        raise ActionNotOfferedError(f"{action.kind.value} is not an action of this game")

    def _verify_other(self, action: Action, position: int | None) -> None:
        raise ActionNotOfferedError(f"{action.kind.value} is not an action of this game")

    def _legal_other(self) -> LegalActions:
        """Legal actions in a game's own phases."""
        return NO_ACTIONS

    def _bet_refused(self, position: int) -> str | None:
        """Why ``position`` may not open the betting of this round (``None``: it may); asked
        only while ``_bets_need_opening`` is set.

        Italian poker: only a player whose cards qualify may open.
        """
        return None

    def _begin_round(
        self,
        first: int,
        *,
        min_bet: int,
        increment: int = 0,
        aggressor: int | None = None,
    ) -> None:
        """Start a betting round; ``first`` is the first position asked (skipping who cannot act).

        Bets already in front of players (live blinds) stand: ``increment`` is
        the raise size they amount to (the big blind pre-flop) and
        ``aggressor`` who made it.  ``min_bet`` is the smallest opening bet.
        """
        n = self.n
        self.phase = _PHASE_BETTING
        bets = self.bets
        # (after the first round no bets stand: a count of zeros is cheaper than max())
        self.current_bet = 0 if bets.count(0) == n else max(bets)
        self.min_bet = min_bet
        self.min_increment = min_bet if min_bet > increment else increment
        self.aggressor = aggressor
        self._faced = [_NOT_ACTED] * n
        self._owed = self._active  # everyone who can act owes an action
        if self._live == 1:  # nobody left to bet against (a game's own flow)
            self._legal = None
            self.actor = None
            self._end_round()
            return
        # The search that follows an action, from the seat before ``first``: it
        # finds the first to act (or ends the round) and works out their options.
        self._after_action((first - 1) % n)

    def _after_action(self, position: int) -> None:
        """Find who acts after ``position`` (every action ends here), or end the round.

        Two players or more are still in (a fold that leaves one ends the round itself).
        At the start of a round everyone who can act owes an action; a check,
        call or fold pays one, and a bet or raise makes every other player who
        can act owe one again.  Those who owe are always the next ones
        clockwise after the last to act, so while any is owed the next to act
        is ``_next[position]``.  A lone player who can act owes nothing once
        their bet is matched.
        """
        self._legal = None  # the next player's options are worked out when asked
        i = self._next[position]
        if not self._owed or (self._active < 2 and self.bets[i] >= self.current_bet):
            self.actor = None
            self._end_round()
            return
        self.actor = i

    def _end_round(self) -> None:
        """Return the uncalled part of the top bet, collect the bets, tell the game."""
        self.actor = None
        self._legal = None
        bets = self.bets
        ordered = sorted(bets)
        top = ordered[-1]
        if top:
            excess = top - ordered[-2]  # what nobody matched
            if excess:
                owner = bets.index(top)
                bets[owner] -= excess
                self._return_unmatched(owner, excess)
        self.bets = [0] * self.n
        self.current_bet = 0
        pots = self.pots()
        self.log.append(BetsCollected((pots,)))
        if self._live == 1:
            winner = self.folded.index(False)
            self._award([(pot, (winner,)) for pot in pots])
            self._on_uncontested(winner)
        else:
            self._round_over()

    def _check_turn(self, position: int | None) -> int:
        phase = self.phase
        if phase is not _PHASE_BETTING:
            if phase is _PHASE_OVER:
                raise HandOverError("the hand is over")
            raise WrongPhaseError(f"no betting now: the hand is at the {phase.value}")
        actor = self.actor
        assert actor is not None
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn, not {position}'s")
        return actor

    def _options(self, position: int | None, kind: ActionKind | None = None) -> LegalActions:
        """The legal actions of the player to act in a betting round, which every betting
        action looks at: the precise error unless it is ``position``'s turn to bet and
        ``kind`` (if given) is offered."""
        legal = self._legal
        if legal is None or legal.position is None or self.phase is not _PHASE_BETTING:
            self._check_turn(position)
            legal = self.legal_actions()
        elif position is not None and position != legal.position:
            self._check_turn(position)  # raises NotYourTurnError
        if kind is not None and kind not in legal.kinds:
            if kind is _ACTIONKIND_CHECK:
                to_call = self.current_bet - self.bets[self.actor]  # type: ignore[index]
                raise CannotCheckError(f"cannot check: {to_call} to call (call, raise or fold)")
            raise NothingToCallError("nothing to call: check")  # (fold is always offered)
        return legal

    def legal_actions(self) -> LegalActions:
        """What the player to act may do now (nothing when nobody is to act); every action
        looks at it, and the answer is kept until the next action.

        In a betting round this is the one rule of who may bet or raise and how
        much (every limit structure).  A player may bet or raise when their
        stack covers more than a call, the table does not hold them to calling
        (Italian blind openings), the betting was reopened to them (an all-in
        for less than a full raise does not, RULES.md 2.6), the game lets them
        open (Italian openings) and someone else could answer.  The smallest
        bet is the round's minimum bet, the smallest raise the current bet plus
        the minimum increment; short of it, the all-in.  No limit: up to the
        stack; pot limit: up to the pot after a call.  When the player may not
        bet or raise, why is kept in ``_no_raise`` (for the precise error).

        In the showdown: show, and muck when the hand cannot win; in a game's
        own phases, what the game says (:meth:`_legal_other`).
        """
        legal = self._legal
        if legal is not None:
            return legal
        i = self.actor
        if self.phase is not _PHASE_BETTING or i is None:
            return self._legal_outside_betting()
        current = self.current_bet
        bets, stacks = self.bets, self.stacks
        bet, stack = bets[i], stacks[i]
        to_call = current - bet
        all_in_to = stack + bet
        faced = self._faced[i]
        why: str | None = None
        if all_in_to <= current:
            why = "the stack does not cover more than a call"
        elif self.call_only[i]:
            why = f"position {i} may only call or fold"
        elif faced >= 0 and current - faced < self.min_increment:
            why = "an all-in for less than a full raise did not reopen the betting"
        elif not current:
            if self._bets_need_opening:
                why = self._bet_refused(i)
            if why is None and self._active < 2:
                why = "every other player is all-in or cannot call more"
        else:
            folded = self.folded
            for j in range(self.n):
                if stacks[j] + bets[j] > current and not folded[j] and j != i:
                    break  # j could answer
            else:
                why = "every other player is all-in or cannot call more"
        if why is not None:
            self._no_raise = why
            if not to_call:
                legal = LegalActions((i, _CHECK_ONLY, 0, 0, 0))
            elif stack <= to_call:
                legal = LegalActions((i, _CALL_ALL_IN, stack, 0, 0))
            else:
                legal = LegalActions((i, _CALL_ONLY, to_call, 0, 0))
        else:
            low = current + self.min_increment if current else self.min_bet
            if low > all_in_to:  # noqa: PLR1730 (all-in for less than a full bet or raise)
                low = all_in_to
            high = all_in_to
            if self.structure is _BETTINGSTRUCTURE_POT_LIMIT:
                pot_after_call = self.total_pot + to_call
                high = min(max(current + pot_after_call, low), all_in_to)
            all_in = high == all_in_to
            if not current:
                kinds = _BET if all_in else _BET_NO_ALL_IN
            elif to_call:
                kinds = _RAISE if all_in else _RAISE_NO_ALL_IN
            else:
                kinds = _RAISE_CHECK if all_in else _RAISE_CHECK_NO_ALL_IN
            legal = LegalActions((i, kinds, to_call, low, high))
        self._legal = legal  # kept until the next action
        return legal

    def _legal_outside_betting(self) -> LegalActions:
        phase = self.phase
        actor = self.actor
        if phase is _PHASE_SHOWDOWN and actor is not None:
            kinds = _SHOW_OR_MUCK if self._muck_allowed(actor) else _SHOW_ONLY
            return LegalActions((actor, kinds, 0, 0, 0))
        if phase is _PHASE_OVER:
            return NO_ACTIONS
        return self._legal_other()

    def verify_fold(self, position: int | None = None) -> None:
        """Raise unless the player to act (or ``position``) may fold."""
        self._options(position)

    def can_fold(self, position: int | None = None) -> bool:
        """Whether :meth:`fold` would succeed."""
        return succeeds(self.verify_fold, position)

    def fold(self, position: int | None = None, *, timed_out: bool = False) -> PlayerActed:
        """Fold: the player gives up the hand and every pot."""
        i = self._options(position).position
        assert i is not None
        self.folded[i] = True
        self._live -= 1
        self._live_positions = None
        self._owed -= 1
        self._stop_acting(i)
        record = PlayerActed((i, _ACTIONKIND_FOLD, 0, self.bets[i], False, timed_out))
        self.log.append(record)
        if self._live == 1:  # the last one left wins: no one to act
            self._end_round()
        else:
            self._after_action(i)
        return record

    def verify_check(self, position: int | None = None) -> None:
        """Raise unless the player to act may check (nothing to call)."""
        self._options(position, _ACTIONKIND_CHECK)

    def can_check(self, position: int | None = None) -> bool:
        """Whether :meth:`check` would succeed."""
        return succeeds(self.verify_check, position)

    def check(self, position: int | None = None, *, timed_out: bool = False) -> PlayerActed:
        """Check (passo, busso, cip): stay in without putting chips in."""
        self._options(position, _ACTIONKIND_CHECK)
        return self._check_as(_ACTIONKIND_CHECK, timed_out)

    def _check_as(self, kind: ActionKind, timed_out: bool = False) -> PlayerActed:
        """A check recorded as ``kind``: a game's own check-like action (parol).

        Trusts its caller to have verified that the player to act may check.
        """
        i = self.actor
        assert i is not None
        self._faced[i] = self.current_bet
        self._owed -= 1
        record = PlayerActed((i, kind, 0, self.bets[i], False, timed_out))
        self.log.append(record)
        self._after_action(i)
        return record

    def verify_call(self, position: int | None = None) -> None:
        """Raise unless the player to act has a bet to call."""
        self._options(position, _ACTIONKIND_CALL)

    def can_call(self, position: int | None = None) -> bool:
        """Whether :meth:`call` would succeed."""
        return succeeds(self.verify_call, position)

    def call(self, position: int | None = None) -> PlayerActed:
        """Call (vedo): match the current bet, or put the whole stack in if it is short."""
        legal = self._options(position, _ACTIONKIND_CALL)
        i = legal.position
        assert i is not None
        added = legal.to_call  # the whole stack when it is short
        stack = self.stacks[i] - added
        self.stacks[i] = stack
        self._owed -= 1
        if not stack:
            self._stop_acting(i)
        to = self.bets[i] + added
        self.bets[i] = to
        self.committed[i] += added
        self._faced[i] = self.current_bet
        record = PlayerActed((i, _ACTIONKIND_CALL, added, to, not stack, False))
        self.log.append(record)
        self._after_action(i)
        return record

    def _wager_options(self, to: object, position: int | None, kind: ActionKind) -> int:
        """Check a bet or raise to ``to`` against the legal actions: the amount, or the
        precise error."""
        legal = self._options(position)
        amount = _check_amount(to)
        if kind in legal.kinds and legal.min_to <= amount <= legal.max_to:
            return amount
        raising = kind is _ACTIONKIND_RAISE
        current = self.current_bet
        if raising and not current:
            raise CannotRaiseError("there is no bet to raise: bet")
        if not raising and current:
            raise CannotBetError(f"there is a bet of {current} already: raise")
        if _ACTIONKIND_BET not in legal.kinds and _ACTIONKIND_RAISE not in legal.kinds:
            raise CannotRaiseError(f"cannot {kind.value}: {self._no_raise}")
        i = legal.position
        assert i is not None
        word = "raise to" if raising else "bet"
        if amount < legal.min_to:
            raise AmountTooSmallError(f"{word} at least {legal.min_to}, not {amount}")
        all_in_to = self.stacks[i] + self.bets[i]
        limit = "the stack" if legal.max_to == all_in_to else "the pot limit"
        raise AmountTooLargeError(f"{word} at most {legal.max_to} ({limit}), not {amount}")

    def verify_bet(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may open the betting with ``amount``."""
        self._wager_options(amount, position, _ACTIONKIND_BET)

    def can_bet(self, amount: int, position: int | None = None) -> bool:
        """Whether :meth:`bet` would succeed."""
        return succeeds(self.verify_bet, amount, position)

    def bet(self, amount: int, position: int | None = None) -> PlayerActed:
        """Open the betting with ``amount`` chips."""
        return self._wager(self._wager_options(amount, position, _ACTIONKIND_BET), _ACTIONKIND_BET)

    def verify_raise_to(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may raise to a total of ``amount``."""
        self._wager_options(amount, position, _ACTIONKIND_RAISE)

    def can_raise_to(self, amount: int, position: int | None = None) -> bool:
        """Whether :meth:`raise_to` would succeed."""
        return succeeds(self.verify_raise_to, amount, position)

    def raise_to(self, amount: int, position: int | None = None) -> PlayerActed:
        """Raise, bringing the player's bet this round to a total of ``amount``."""
        to = self._wager_options(amount, position, _ACTIONKIND_RAISE)
        return self._wager(to, _ACTIONKIND_RAISE)

    def _wager(self, to: int, kind: ActionKind) -> PlayerActed:
        """Bet or raise to ``to``.  Trusts its caller to have verified it."""
        i = self.actor
        assert i is not None
        added = to - self.bets[i]
        stack = self.stacks[i] - added
        self.stacks[i] = stack
        self.bets[i] = to
        self.committed[i] += added
        increment = to - self.current_bet
        rule = self.min_raise_rule
        if rule is _MINRAISERULE_LARGEST_INCREMENT:
            self.min_increment = max(self.min_increment, increment)
        elif rule is _MINRAISERULE_LAST_INCREMENT or not self.current_bet:
            # LAST_INCREMENT; or OPENING_BET, where the first bet sets it for the round
            self.min_increment = max(self.min_bet, increment)
        self.current_bet = to
        self.aggressor = i
        self._faced[i] = to
        if stack:
            self._owed = self._active - 1  # every other player who can act owes one again
        else:
            self._stop_acting(i)
            self._owed = self._active
        record = PlayerActed((i, kind, added, to, not stack, False))
        self.log.append(record)
        self._after_action(i)
        return record

    def _all_in_kind(self, position: int | None) -> ActionKind:
        """What an all-in of the player to act amounts to, or the precise error."""
        legal = self._options(position)
        i = legal.position
        assert i is not None
        all_in_to = self.stacks[i] + self.bets[i]
        if all_in_to <= self.current_bet:
            return _ACTIONKIND_CALL
        kind = _ACTIONKIND_RAISE if self.current_bet else _ACTIONKIND_BET
        if _ACTIONKIND_ALL_IN not in legal.kinds:
            self._wager_options(all_in_to, position, kind)  # raises the precise error
        return kind

    def verify_all_in(self, position: int | None = None) -> None:
        """Raise unless the player to act may put their whole stack in."""
        self._all_in_kind(position)

    def can_all_in(self, position: int | None = None) -> bool:
        """Whether :meth:`all_in` would succeed."""
        return succeeds(self.verify_all_in, position)

    def all_in(self, position: int | None = None) -> PlayerActed:
        """Put the whole stack in: a call if it does not exceed the bet, else a bet or raise."""
        kind = self._all_in_kind(position)
        if kind is _ACTIONKIND_CALL:
            return self.call(position)
        i = self.actor
        assert i is not None
        return self._wager(self.stacks[i] + self.bets[i], kind)

    def verify_timeout(self, position: int | None = None) -> None:
        """Raise unless someone is to act (in betting or at the showdown)."""
        if self.phase is _PHASE_SHOWDOWN and self.actor is not None:
            self._check_show_turn(position)
            return
        if self.phase not in (_PHASE_BETTING, _PHASE_SHOWDOWN, _PHASE_OVER):
            self._verify_other(Action.timeout(), position)
            return
        self._check_turn(position)

    def can_timeout(self, position: int | None = None) -> bool:
        """Whether :meth:`timeout` would succeed."""
        return succeeds(self.verify_timeout, position)

    def timeout(self, position: int | None = None) -> Record:
        """The clock ran out: check if free, else fold; at a showdown muck if allowed, else show."""
        self.verify_timeout(position)
        if self.phase is _PHASE_SHOWDOWN:
            actor = self.actor
            assert actor is not None
            return self.muck() if self._muck_allowed(actor) else self.show()
        if self.phase is not _PHASE_BETTING:
            return self._apply_other(Action.timeout(), position)
        i = self.actor
        assert i is not None
        if self.bets[i] >= self.current_bet:
            return self.check(timed_out=True)
        return self.fold(timed_out=True)

    def verify(self, action: Action, position: int | None = None) -> None:
        """Raise unless ``action`` is legal now (for ``position``, if given)."""
        kind = action.kind
        if kind in _AMOUNT_KINDS and action.amount is None:
            raise InvalidAmountError(f"{kind.value} needs an amount")
        name = _VERIFIERS.get(kind)
        if name is None:
            self._verify_other(action, position)
            return
        verifier = getattr(self, name)
        if kind in _AMOUNT_KINDS:
            verifier(action.amount, position)
        else:
            verifier(position)

    def can(self, action: Action, position: int | None = None) -> bool:
        """Whether :meth:`apply` would succeed."""
        return succeeds(self.verify, action, position)

    def apply(self, action: Action, position: int | None = None) -> Record:
        """Do ``action`` (given as data) and return its record."""
        kind = action.kind
        if kind in _AMOUNT_KINDS and action.amount is None:
            raise InvalidAmountError(f"{kind.value} needs an amount")
        name = _DOERS.get(kind)
        if name is None:
            return self._apply_other(action, position)
        doer = getattr(self, name)
        record: Record = doer(action.amount, position) if kind in _AMOUNT_KINDS else doer(position)
        return record

    # replays ---------------------------------------------------------------

    def _replay(self, log: Sequence[Record]) -> None:
        """Make the decisions of ``log`` (a hand's log from its first record) again, and
        check that they make the same log."""
        for record in log[1:]:
            self._replay_record(record)
        if self.log != list(log):
            raise HandSetupError("the log does not replay to itself")

    def _replay_record(self, record: Record) -> None:
        """Make again the decision ``record`` stands for (a game adds its own)."""
        if isinstance(record, PlayerActed):
            if record.timed_out:
                self.timeout(record.position)
            elif record.kind is _ACTIONKIND_BET:
                self.bet(record.to, record.position)
            elif record.kind is _ACTIONKIND_RAISE:
                self.raise_to(record.to, record.position)
            else:
                getattr(self, record.kind.value)(record.position)
        elif (
            isinstance(record, CardsShown | CardsMucked)
            and self.phase is _PHASE_SHOWDOWN
            and self.actor == record.position
        ):
            self.show() if isinstance(record, CardsShown) else self.muck()


_VERIFIERS: dict[ActionKind, str] = {
    _ACTIONKIND_FOLD: "verify_fold",
    _ACTIONKIND_CHECK: "verify_check",
    _ACTIONKIND_CALL: "verify_call",
    _ACTIONKIND_BET: "verify_bet",
    _ACTIONKIND_RAISE: "verify_raise_to",
    _ACTIONKIND_ALL_IN: "verify_all_in",
    _ACTIONKIND_SHOW: "verify_show",
    _ACTIONKIND_MUCK: "verify_muck",
    _ACTIONKIND_TIMEOUT: "verify_timeout",
}
_DOERS: dict[ActionKind, str] = {
    _ACTIONKIND_FOLD: "fold",
    _ACTIONKIND_CHECK: "check",
    _ACTIONKIND_CALL: "call",
    _ACTIONKIND_BET: "bet",
    _ACTIONKIND_RAISE: "raise_to",
    _ACTIONKIND_ALL_IN: "all_in",
    _ACTIONKIND_SHOW: "show",
    _ACTIONKIND_MUCK: "muck",
    _ACTIONKIND_TIMEOUT: "timeout",
}
