"""What every table shares: seats, the button, hands, decisions on the clock, the ledger.

A :class:`Table` deals hands of its rule set one after another.  Between
hands it plans the next one (:mod:`mazziere.room.plan`); during a hand it
tells who must decide (:attr:`Table.decision`), takes their action
(:meth:`Table.act`), plays the timeout action when their time and time bank
run out (:meth:`Table.advance`), and acts at once for players who are away;
at the end of a hand it records every chip movement in the ledger and checks
that the ledger agrees with the chips on the table.

Cash tables (:class:`~mazziere.room.cash.CashTable`) and tournament tables
(:class:`~mazziere.room.tournament.TournamentTable`) add who may sit, who is
dealt in and what happens to a player without chips.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mazziere.cards import Card, RandomSource
from mazziere.game.core import (
    Action,
    ActionKind,
    BettingHand,
    LegalActions,
    Phase,
    Rake,
    Record,
)
from mazziere.room.clock import Clock, DecisionTimer, TimeBank, TimeSettings
from mazziere.room.errors import LedgerMismatchError, SeatError, TableStateError
from mazziere.room.games import NO_CARRY, Carry, HandSpec, carry_of, new_hand
from mazziere.room.ledger import Account, EntryKind, Ledger, Movement
from mazziere.room.plan import Candidate, Entry, HandPlan, missed_blinds, plan_hand
from mazziere.room.seating import ButtonDraw, draw_for_button
from mazziere.room.structure import ForcedBets, Stakes, forced_bets
from mazziere.rules import RuleSet, find_rules

__all__ = ["Decision", "HandSummary", "Offer", "OfferKind", "Seat", "SeatStatus", "Table"]


class SeatStatus(StrEnum):
    """Where a seated player stands."""

    PLAYING = "playing"
    """In the rotation: dealt into every hand."""
    WAITING = "waiting"
    """Coming in: waiting for the last blind, or posting at the next chance."""
    SITTING_OUT = "sitting-out"
    BUSTED = "busted"
    """No chips (cash): may rebuy until the offer runs out."""


@dataclass(slots=True, eq=False)
class Seat:
    """A seated player and everything the table keeps about them."""

    name: str
    seat: int
    stack: int
    bank: TimeBank
    status: SeatStatus = SeatStatus.PLAYING
    entry: Entry | None = None
    new: bool = False
    missed: frozenset[int] = frozenset()
    sit_out_next: bool = False
    leave_after_hand: bool = False
    away: bool = False
    """Acts at once when it is their turn (a tournament player sitting out, a leaver)."""
    connected: bool = True
    auto_post: bool = True
    """italian-classic cash games: post the invito without being asked."""
    busted_at: float | None = None
    sat_out_at: float | None = None
    """When the player last began sitting out (a cash table frees a seat left so too long)."""

    def to_dict(self, *, own: bool = False) -> dict[str, Any]:
        """Plain data for JSON; ``own``: for the seat's player, who sees as well whether
        they sit out from the next hand (asked for during this one, or timed out too often),
        which is theirs to know, and to take back, before it shows."""
        data = {
            "name": self.name,
            "seat": self.seat,
            "stack": self.stack,
            "status": self.status.value,
            "away": self.away,
            "connected": self.connected,
            "time_bank": self.bank.seconds,
        }
        if own:
            data["sit_out_next"] = self.sit_out_next
        return data


@dataclass(frozen=True, slots=True)
class Decision:
    """A player the table is waiting for: who, what they may do, and their clock."""

    name: str
    seat: int
    position: int
    legal: LegalActions
    timer: DecisionTimer

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "name": self.name,
            "seat": self.seat,
            "position": self.position,
            "legal": self.legal.to_dict(),
            "started": self.timer.started,
            "deadline": self.timer.deadline,
        }


class OfferKind(StrEnum):
    """What a player is asked between hands."""

    INVITO = "invito"
    """italian-classic cash games: post the invito or sit out."""
    REJOIN = "rejoin"
    """Pay the adeguamento to take part in a parol pot, or sit the hand out."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A question to a player before the deal, with its clock (no answer: no)."""

    name: str
    kind: OfferKind
    amount: int
    timer: DecisionTimer

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "amount": self.amount,
            "deadline": self.timer.deadline,
        }


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand: who sat where, and what happened (the engine's log and result)."""

    number: int
    button: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    stakes: Stakes
    log: tuple[Record, ...]
    payoffs: tuple[int, ...]
    rake: int
    showdown: bool
    carried: int = 0


@dataclass(slots=True)
class _Stats:
    hands: int = 0
    showdowns: int = 0
    timeouts: int = 0
    decisions: int = 0
    won: dict[str, int] = field(default_factory=dict)


class Table(abc.ABC):
    """Seats, button and hands of one table; the base of cash and tournament tables.

    ``ledger`` records every chip movement (the table's own for a cash game,
    the tournament's chip ledger for a tournament table); ``pot_account`` is
    this table's pot in it.
    """

    def __init__(
        self,
        *,
        rules: str | RuleSet,
        seats: int,
        clock: Clock,
        rng: RandomSource,
        ledger: Ledger,
        time: TimeSettings | None = None,
        name: str = "",
        rake: Rake | None = None,
        ask_show: bool = False,
        keep_hands: int = 20,
    ) -> None:
        rule_set = find_rules(rules)
        if type(seats) is not int or not rule_set.min_players <= seats <= rule_set.max_players:
            raise SeatError(
                f"{rule_set.name} tables seat {rule_set.min_players} to "
                f"{rule_set.max_players} players, not {seats!r}"
            )
        self.rules = rule_set
        self.seat_count = seats
        self.clock = clock
        self.rng = rng
        self.ledger = ledger
        self.time = time if time is not None else TimeSettings()
        self.name = name
        self.rake = rake
        self.ask_show = ask_show
        self.keep_hands = keep_hands
        self.pot_account = Account.pot(name)
        self.seats: dict[int, Seat] = {}
        self.button: int | None = None
        self.button_draw: ButtonDraw | None = None
        self.hand: BettingHand | None = None
        self.plan: HandPlan | None = None
        self.hand_number = 0
        self.history: list[HandSummary] = []
        self.carry: Carry = NO_CARRY
        self.stats = _Stats()
        self._blind_seats: tuple[int, ...] = ()
        self._names: tuple[str, ...] = ()
        self._stakes = Stakes()
        self._timer: DecisionTimer | None = None
        self._timer_key: tuple[int, int] | None = None
        self._settled = True
        self._decision: Decision | None = None
        """The current decision as the engine gave it (one per timer)."""
        self.offers: dict[str, Offer] = {}
        """Questions waiting for an answer before the next deal (:meth:`answer`)."""
        self._answers: dict[str, bool] = {}
        self._asks_invito = False
        self.deck_source: Callable[[HandPlan], Sequence[Card] | None] | None = None
        """Where the next hands' cards come from: ``None`` deals every card from :attr:`rng`;
        a function of the hand's plan returns a card order to deal first (or ``None``), the
        rng dealing on after it -- for tests, lessons and demonstrations of a given deal."""

    # ------------------------------------------------------------------ reading

    def __iter__(self) -> Iterator[Seat]:
        return iter(sorted(self.seats.values(), key=lambda s: s.seat))

    def __len__(self) -> int:
        return len(self.seats)

    def player(self, name: str) -> Seat:
        """The seat of player ``name``."""
        for seat in self.seats.values():
            if seat.name == name:
                return seat
        raise SeatError(f"{name} is not seated at table {self.name or '?'}")

    def is_seated(self, name: str) -> bool:
        """Whether ``name`` sits at this table."""
        return any(seat.name == name for seat in self.seats.values())

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.hand is not None and not self.hand.is_over

    def dealt_in(self, name: str) -> bool:
        """Whether ``name`` was dealt into the hand being played."""
        return self.in_hand and name in self._names

    def empty_seats(self) -> list[int]:
        """Seat numbers nobody sits in."""
        return [s for s in range(1, self.seat_count + 1) if s not in self.seats]

    def chips_on_table(self) -> int:
        """Every chip in stacks and in the middle (the pot, carried or in play)."""
        return sum(s.stack for s in self.seats.values()) + self.ledger.balance(self.pot_account)

    @property
    def decision(self) -> Decision | None:
        """The player the table is waiting for now (``None`` between hands)."""
        hand = self.hand
        if hand is None or hand.is_over or hand.actor is None:
            return None
        position = hand.actor
        timer = self._current_timer()
        cached = self._decision
        if cached is None or cached.timer is not timer:
            legal = hand.legal_actions()
            seat_number = self.plan.seats[position] if self.plan is not None else -1
            cached = Decision(self._names[position], seat_number, position, legal, timer)
            self._decision = cached
        if timer.raise_window_seconds is None:
            return cached
        return dataclasses.replace(cached, legal=self._filtered(cached.legal, timer))

    def view(self, name: str | None = None) -> dict[str, Any]:
        """What ``name`` (``None``: a spectator) may see: the table and the hand as data."""
        position = None
        if name is not None and self.in_hand and name in self._names:
            position = self._names.index(name)
        hand_view = None
        if self.hand is not None:
            view = getattr(self.hand, "view", None)
            if view is not None:
                hand_view = view(position).to_dict()
        decision = self.decision
        return {
            "table": self.name,
            "rules": self.rules.name,
            "hand": self.hand_number,
            "button": self.button,
            "stakes": self._stakes.describe(self.rules),
            "seats": [s.to_dict(own=s.name == name) for s in self],
            "positions": list(self.plan.seats) if self.plan is not None else [],
            "game": hand_view,
            "decision": None if decision is None else decision.to_dict(),
            "carried_pot": self.carry.pot,
            "parol_pot": self.carry.parol_pot,
            "offers": [o.to_dict() for o in self.offers.values()],
        }

    # ------------------------------------------------------------ to override

    @abc.abstractmethod
    def current_stakes(self) -> Stakes:
        """The stakes of the next hand."""

    @abc.abstractmethod
    def _candidates(self) -> dict[int, Candidate]:
        """Who may be dealt into the next hand."""

    def _after_hand(self, summary: HandSummary) -> None:  # noqa: B027 - optional hook
        """Busts, leavers, rebuys or eliminations once a hand is settled (default: none)."""

    def _sit_out(self, seat: Seat) -> None:
        """``seat`` is dealt in no more from now on (until it comes back)."""
        seat.status = SeatStatus.SITTING_OUT
        seat.sat_out_at = self.clock.now()

    def _timed_out_too_often(self, seat: Seat) -> None:
        """A player reached the table's limit of consecutive timeouts."""
        seat.sit_out_next = True

    # --------------------------------------------------------------- seating

    def _seat_player(self, name: str, seat: int | None, stack: int) -> Seat:
        if not isinstance(name, str) or not name.strip():
            raise SeatError(f"a player needs a name, not {name!r}")
        if self.is_seated(name):
            raise SeatError(f"{name} is already seated")
        if seat is None:
            empty = self.empty_seats()
            if not empty:
                raise SeatError(f"table {self.name or '?'} is full")
            seat = empty[self.rng.randrange(len(empty))]
        if type(seat) is not int or not 1 <= seat <= self.seat_count:
            raise SeatError(f"seats are numbered 1 to {self.seat_count}, not {seat!r}")
        if seat in self.seats:
            raise SeatError(f"seat {seat} is taken by {self.seats[seat].name}")
        record = Seat(name=name, seat=seat, stack=stack, bank=TimeBank(self.time))
        self.seats[seat] = record
        return record

    def _unseat(self, seat: Seat) -> None:
        del self.seats[seat.seat]

    # ------------------------------------------------------------ the hand

    def start_hand(self) -> bool:
        """Deal the next hand if at least two players can play; say whether it started.

        The first hand's dealer is chosen by a draw; after it the button
        moves one player left.  When players must first answer an offer (post
        the invito, pay to rejoin a parol pot: see :attr:`offers`), nothing is
        dealt until they answer or their time runs out; call again then.
        """
        if self.in_hand:
            raise TableStateError("a hand is being played")
        stakes = self.current_stakes()
        dead: dict[int, int] = {}
        if self.carry.parol_pot:
            parol = self._parol_participants()
            if parol is None:
                return False
            candidates, dead = parol
        else:
            candidates = self._candidates()
            if self._asks_invito:
                candidates_or_none = self._invito_answers(candidates, stakes)
                if candidates_or_none is None:
                    return False
                candidates = candidates_or_none
        if len([c for c in candidates.values() if c.entry is None]) < 2:
            # Not enough players in the rotation: whoever is coming in plays at once.
            candidates = {s: Candidate(s) for s in candidates}
        if len(candidates) < 2:
            return False
        button = None
        if self.button is None or not any(c.entry is None for c in candidates.values()):
            regulars = sorted(s for s, c in candidates.items() if c.entry is None)
            self.button_draw = draw_for_button(regulars, self.rng, self.rules.deck(len(regulars)))
            button = self.button_draw.button
        plan = plan_hand(
            self.rules,
            stakes,
            candidates,
            previous_button=self.button,
            button=button,
            table_seats=self.seat_count,
        )
        if plan is None:
            return False
        if dead:
            plan = dataclasses.replace(
                plan,
                dead=tuple(d + dead.get(s, 0) for s, d in zip(plan.seats, plan.dead, strict=True)),
            )
        self._start(plan, stakes)
        return True

    # --------------------------------------------------------------- offers

    def _collect(self, needed: dict[str, tuple[OfferKind, int]]) -> dict[str, bool] | None:
        """The answers to ``needed`` offers, or ``None`` while some are still open."""
        now = self.clock.now()
        for name, (kind, amount) in needed.items():
            if name not in self.offers and name not in self._answers:
                timer = DecisionTimer(now, self.time.decision_seconds, 0.0, None)
                self.offers[name] = Offer(name, kind, amount, timer)
        for name in list(self.offers):
            if name not in needed:
                del self.offers[name]
            elif self.offers[name].timer.expired(now):
                self._answers[name] = False
                del self.offers[name]
        if self.offers:
            return None
        answers = {name: self._answers.get(name, False) for name in needed}
        self._answers.clear()
        return answers

    def answer(self, name: str, accept: bool) -> None:
        """``name`` answers their offer: post the invito, pay to rejoin a parol pot."""
        if name not in self.offers:
            raise TableStateError(f"{name} has nothing to answer")
        del self.offers[name]
        self._answers[name] = bool(accept)

    def _invito_answers(
        self, candidates: dict[int, Candidate], stakes: Stakes
    ) -> dict[int, Candidate] | None:
        """italian-classic cash games: each player posts the invito or sits out; players with
        the auto-post option are not asked."""
        asked = {
            self.seats[s].name: (OfferKind.INVITO, stakes.ante)
            for s in candidates
            if not self.seats[s].auto_post
        }
        answers = self._collect(asked)
        if answers is None:
            return None
        for name, accepted in answers.items():
            if not accepted:
                seat = self.player(name)
                self._sit_out(seat)
                del candidates[seat.seat]
        return candidates

    def _parol_participants(self) -> tuple[dict[int, Candidate], dict[int, int]] | None:
        """Who plays a parol pot: the parol players, and those with a right to it who pay to
        rejoin (asked; passed automatically if they cannot pay).  ``None`` while asking."""
        carry = self.carry
        playing: list[Seat] = []
        asked: dict[str, tuple[OfferKind, int]] = {}
        for seat in self.seats.values():
            if seat.stack <= 0 or seat.status is SeatStatus.BUSTED:
                continue
            if seat.name in carry.parol_players:
                playing.append(seat)
            elif seat.name in carry.rejoin:
                cost = carry.rejoin[seat.name]
                if cost == 0:
                    playing.append(seat)
                elif cost <= seat.stack and not (seat.away or seat.leave_after_hand):
                    asked[seat.name] = (OfferKind.REJOIN, cost)
        answers = self._collect(asked)
        if answers is None:
            return None
        dead: dict[int, int] = {}
        for name, accepted in answers.items():
            if accepted:
                seat = self.player(name)
                playing.append(seat)
                dead[seat.seat] = asked[name][1]
        if len(playing) < 2:
            # Too few left for the parol pot: it stays in the middle as a carried pot that
            # the next hand plays normally (docs/room.md).
            self.carry = dataclasses.replace(carry, parol_pot=False, parol_players=(), rejoin={})
            return self._candidates(), {}
        return {seat.seat: Candidate(seat.seat) for seat in playing}, dead

    def _start(self, plan: HandPlan, stakes: Stakes) -> None:
        away = [
            s.seat
            for s in self.seats.values()
            if s.seat not in plan.seats and s.status is not SeatStatus.WAITING
        ]
        if self._blind_seats and plan.blind_seats:
            for seat_number, missed in missed_blinds(
                self._blind_seats, plan.blind_seats, away, self.seat_count
            ).items():
                seat = self.seats[seat_number]
                seat.missed = seat.missed | missed
        self._blind_seats = plan.blind_seats
        self.button = plan.button
        self.plan = plan
        self._stakes = stakes
        self.hand_number += 1
        seats = [self.seats[s] for s in plan.seats]
        self._names = tuple(s.name for s in seats)
        for seat in seats:
            if seat.status is SeatStatus.WAITING:
                # Dealt in: in the rotation from now on (an entry post or the last blind
                # settles anything missed).
                seat.status = SeatStatus.PLAYING
                seat.entry = None
                seat.new = False
                seat.missed = frozenset()
            seat.bank.hand_dealt()
        spec = HandSpec(
            rules=self.rules,
            stacks=tuple(s.stack for s in seats),
            blinds=plan.blinds,
            blind_positions=tuple(plan.position_of(s) for s in plan.blind_seats),
            dead=plan.dead,
            ante=plan.ante,
            min_bet=stakes.min_bet,
            rng=self.rng,
            rake=self.rake,
            ask_show=self.ask_show,
            carried_pot=self.ledger.balance(self.pot_account),
            carried_shares=tuple(self.carry.shares.get(s.name, 0) for s in seats),
            opening=self.carry.opening,
            parol_pot=self.carry.parol_pot,
            tournament=self._is_tournament(),
            deck=self.deck_source(plan) if self.deck_source is not None else None,
        )
        self.hand = new_hand(spec)
        self._settled = False
        self._stacks_before = spec.stacks
        self._timer = None
        self._timer_key = None
        self._auto_play()

    def _is_tournament(self) -> bool:
        return False

    # ----------------------------------------------------------- decisions

    def _current_timer(self) -> DecisionTimer:
        hand = self.hand
        assert hand is not None and hand.actor is not None
        key = (hand.actor, len(hand.log))
        if self._timer is None or self._timer_key != key:
            seat = self.player(self._names[hand.actor])
            self._timer = DecisionTimer.start(self.clock.now(), self.time, seat.bank)
            self._timer_key = key
        return self._timer

    def _filtered(self, legal: LegalActions, timer: DecisionTimer) -> LegalActions:
        """The engine's legal actions less what the clock no longer allows (italian-32's
        raise window)."""
        if timer.raise_allowed(self.clock.now()):
            return legal
        return self.without_raise(legal)

    def without_raise(self, legal: LegalActions) -> LegalActions:
        """``legal`` less the raise, and an all-in that would be one: what stands once
        italian-32's raise window has shut (a client is told it ahead, to show it then)."""
        if ActionKind.RAISE not in legal.kinds:
            return legal
        kinds = set(legal.kinds)
        kinds.discard(ActionKind.RAISE)
        assert self.hand is not None and legal.position is not None
        position = legal.position
        if self.hand.stacks[position] > legal.to_call:
            kinds.discard(ActionKind.ALL_IN)  # all-in would be a raise
        return LegalActions((legal.position, frozenset(kinds), legal.to_call, 0, 0))

    def act(self, name: str, action: Action) -> Record:
        """Player ``name`` does ``action``; the table then acts for anyone away.

        Raises :class:`TableStateError` when it is not their turn and the
        engine's :class:`~mazziere.game.core.IllegalActionError` when the
        action is not legal; either way nothing changes.
        """
        decision = self.decision
        if decision is None:
            raise TableStateError("nobody is to act at this table now")
        if decision.name != name:
            raise TableStateError(f"it is {decision.name}'s turn, not {name}'s")
        if not decision.legal.allows(action):
            hand = self.hand
            assert hand is not None
            hand.verify(action)  # the engine says precisely what is wrong...
            raise TableStateError("the time to raise has run out")  # ...or the clock does
        assert self.hand is not None
        now = self.clock.now()
        record = self.hand.apply(action)
        seat = self.player(name)
        seat.bank.spend(decision.timer.bank_used(now))
        if action.kind is not ActionKind.TIMEOUT:
            seat.bank.acted()
        self.stats.decisions += 1
        self._auto_play()
        return record

    def advance(self) -> list[Record]:
        """Play the timeout action for a decision whose time ran out; return what happened.

        Also finishes a hand whose remaining decisions belong to players away.
        """
        records: list[Record] = []
        while True:
            decision = self.decision
            if decision is None or not decision.timer.expired(self.clock.now()):
                break
            hand = self.hand
            assert hand is not None
            seat = self.player(decision.name)
            seat.bank.spend(decision.timer.bank_seconds)
            records.append(hand.apply(Action.timeout()))
            self.stats.timeouts += 1
            if seat.bank.timed_out():
                self._timed_out_too_often(seat)
            records.extend(self._auto_play())
        return records

    def _auto_action(self, legal: LegalActions) -> Action:
        """What the table plays for a player away: fold at once, or the timeout action when
        folding is not offered (the classic opening round's passo, a showdown)."""
        if ActionKind.FOLD in legal.kinds:
            return Action.fold()
        if ActionKind.MUCK in legal.kinds:
            return Action(ActionKind.MUCK)
        return Action.timeout()

    def _auto_play(self) -> list[Record]:
        records: list[Record] = []
        hand = self.hand
        while hand is not None and not hand.is_over and hand.actor is not None:
            seat = self.player(self._names[hand.actor])
            if not (seat.away or seat.leave_after_hand or seat.status is SeatStatus.SITTING_OUT):
                break
            records.append(hand.apply(self._auto_action(hand.legal_actions())))
        if hand is not None and hand.is_over and not self._settled:
            self._settled = True
            self._settle()
        elif hand is not None and hand.actor is not None:
            self._current_timer()  # the next decision's clock starts now
        return records

    # ------------------------------------------------------------ the end

    def _settle(self) -> None:
        """Record the hand in the ledger, update the stacks, check that both agree."""
        hand = self.hand
        plan = self.plan
        assert hand is not None and hand.result is not None and plan is not None
        result = hand.result
        names = self._names
        won = [0] * len(names)
        for pot_result in result.pots:
            for position, share in zip(pot_result.winners, pot_result.shares, strict=True):
                won[position] += share
        moves: list[Movement] = []
        pot = self.pot_account
        for position, name in enumerate(names):
            put_in = self._stacks_before[position] - result.stacks[position] + won[position]
            if put_in < 0:
                raise LedgerMismatchError(
                    f"{name} put in {put_in} chips in hand {self.hand_number}"
                )
            if put_in:
                moves.append(Movement(EntryKind.BET, Account.stack(name), pot, put_in))
        if result.rake:
            moves.append(Movement(EntryKind.RAKE, pot, Account.house("rake"), result.rake))
        for position, name in enumerate(names):
            if won[position]:
                moves.append(Movement(EntryKind.AWARD, pot, Account.stack(name), won[position]))
        self.ledger.transfer_all(moves, hand=self.hand_number)
        carry = carry_of(hand, names, self.carry)
        if self.ledger.balance(pot) != carry.pot:
            raise LedgerMismatchError(
                f"hand {self.hand_number}: the pot account holds {self.ledger.balance(pot)}, "
                f"the hand carries {carry.pot}"
            )
        self.carry = carry
        for position, name in enumerate(names):
            seat = self.player(name)
            seat.stack = result.stacks[position]
            if self.ledger.balance(Account.stack(name)) != seat.stack:
                raise LedgerMismatchError(
                    f"hand {self.hand_number}: {name} holds {seat.stack}, the ledger says "
                    f"{self.ledger.balance(Account.stack(name))}"
                )
            self.stats.won[name] = self.stats.won.get(name, 0) + result.payoffs[position]
        showdown = len([p for p in range(len(names)) if not hand.folded[p]]) > 1
        self.stats.hands += 1
        self.stats.showdowns += showdown
        summary = HandSummary(
            number=self.hand_number,
            button=plan.button,
            seats=plan.seats,
            names=names,
            stakes=self._stakes,
            log=tuple(hand.log),
            payoffs=result.payoffs,
            rake=result.rake,
            showdown=showdown,
            carried=carry.pot,
        )
        if self.keep_hands:
            self.history.append(summary)
            del self.history[: -self.keep_hands]
        self._timer = None
        self._timer_key = None
        self._after_hand(summary)

    # --------------------------------------------------------- connections

    def disconnect(self, name: str) -> None:
        """``name`` lost the connection: the clock runs as for anyone (timeouts, then sit out)."""
        self.player(name).connected = False

    def reconnect(self, name: str) -> None:
        """``name`` is back."""
        self.player(name).connected = True

    def uses_blinds(self) -> bool:
        """Whether this game has blinds (and so waiting for the big blind or the over)."""
        return forced_bets(self.rules) is not ForcedBets.INVITO

    def phase(self) -> Phase | None:
        """The phase of the hand being played (``None`` between hands)."""
        return None if self.hand is None or self.hand.is_over else self.hand.phase
