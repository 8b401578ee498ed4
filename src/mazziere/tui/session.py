"""One sitting of ``mazziere play``: the player and bots at a room table, cash or sit & go.

The table logic is the room's (:class:`~mazziere.room.cash.CashTable`, or a
:class:`~mazziere.room.tournament.Tournament` of one table): it deals, asks
each player in turn, runs the decision clock, settles every pot in its
ledger.  This module seats the players, lets the bots decide, passes the
player's actions to the table, narrates each hand from the records the
player may see (:class:`~mazziere.tui.words.Narrator`), and keeps each
finished hand as a PHH hand history.  It knows nothing about the screen;
time and randomness are injected.

>>> import random
>>> from mazziere.room.clock import ManualClock
>>> session = PlaySession(PlayConfig(rules="italian-32", players=3, seed=1),
...                       clock=ManualClock(), rng=random.Random(1))
>>> session.start_next_hand()
True
>>> while not session.hand_over:
...     if session.my_decision() is not None:
...         session.act(session.timeout_action())
...     else:
...         _ = session.play_bot()
>>> len(session.hands), session.table.ledger.total()
(1, 0)
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text

from mazziere.bots.base import BOTS, Bot, Situation, make_bot
from mazziere.cards import Card, RandomSource
from mazziere.game.core import (
    Action,
    BettingHand,
    IllegalActionError,
    LegalActions,
    Phase,
    Pot,
)
from mazziere.room.cash import CashSettings, CashTable
from mazziere.room.clock import Clock, TimeSettings
from mazziere.room.errors import RoomError, TableStateError
from mazziere.room.plan import HandPlan
from mazziere.room.registration import TournamentSettings, TournamentState
from mazziere.room.structure import ForcedBets, Schedule, Stakes, forced_bets
from mazziere.room.table import Decision, Offer, OfferKind, Seat, SeatStatus, Table
from mazziere.room.tournament import Tournament
from mazziere.rules import RuleSet, find_rules
from mazziere.tui.render import chips
from mazziere.tui.telling import (
    hand_context,
    hand_header,
    hand_notes,
    hand_summary,
    has_drawn,
    my_cards,
    seat_note,
)
from mazziere.tui.words import LANGUAGES, Context, Narrator, Words

__all__ = [
    "HandsFolder",
    "PlayConfig",
    "PlayError",
    "PlaySession",
    "PlayedHand",
    "SeatLine",
    "Snapshot",
    "SystemClock",
    "default_hands_folder",
    "hand_history",
    "new_hands_folder",
    "write_hand",
]

BIG_BET = 10
"""The table's reference bet: invito 10, buio 5 (controbuio 10, over 20), blinds 5/10."""
MY_SEAT = 1
LONGEST_DECISION_SECONDS = 3600
"""The most ``--seconds`` may give a decision: an hour (a longer wait is no clock at all, and
infinity cannot be counted down)."""


class PlayError(ValueError):
    """Settings of ``mazziere play`` that cannot make a game; the message says which."""


@dataclass(frozen=True, kw_only=True)
class PlayConfig:
    """What the player chose on the command line.

    >>> PlayConfig(rules="italian-32", players=6)
    Traceback (most recent call last):
    ...
    mazziere.tui.session.PlayError: italian-32 is played by 2 to 5 players, not 6
    >>> PlayConfig(stack=50)
    Traceback (most recent call last):
    ...
    mazziere.tui.session.PlayError: --stack must be a whole number of chips from 200 to \
1000000, not 50
    """

    rules: str = "italian-classic"
    players: int = 4
    bots: str = "basic"
    stack: int | None = None
    tournament: bool = False
    lang: str = "it"
    seed: int | None = None
    four_colour: bool = False
    decision_seconds: float = 30.0
    hints: bool = False
    """Show the odds at the player's decisions (every other seat is a bot; never a tournament)."""

    def __post_init__(self) -> None:
        try:
            rule_set = find_rules(self.rules)
        except ValueError as error:
            raise PlayError(str(error)) from None
        low, high = rule_set.min_players, rule_set.max_players
        if type(self.players) is not int or not low <= self.players <= high:
            raise PlayError(
                f"{rule_set.name} is played by {low} to {high} players, not {self.players}"
            )
        make_bot("random", random.Random(0))  # loads the registry
        if self.bots not in BOTS:
            raise PlayError(f"unknown bots {self.bots!r} (known: {', '.join(sorted(BOTS))})")
        if self.hints and self.tournament:
            raise PlayError("hints are offered at cash tables only, never in tournaments")
        if self.lang not in LANGUAGES:
            raise PlayError(f"unknown language {self.lang!r} (known: {', '.join(LANGUAGES)})")
        least = 20 * BIG_BET
        stack = self.stack
        if stack is not None and (type(stack) is not int or not least <= stack <= 1_000_000):
            raise PlayError(
                f"--stack must be a whole number of chips from {least} to 1000000, not {stack}"
            )
        if not 0 < self.decision_seconds <= LONGEST_DECISION_SECONDS:  # nan is neither
            raise PlayError(
                f"the decision time (--seconds) must be more than 0 and at most "
                f"{LONGEST_DECISION_SECONDS} seconds, not {self.decision_seconds:g}"
            )

    @property
    def rule_set(self) -> RuleSet:
        """The rule set played."""
        return find_rules(self.rules)

    @property
    def starting_stack(self) -> int:
        """Everyone's chips at the start: ``stack`` or 100 big bets (a tournament: 1500)."""
        if self.stack is not None:
            return self.stack
        return 1500 if self.tournament else 100 * BIG_BET

    def stakes(self) -> Stakes:
        """The cash table's forced bets."""
        if forced_bets(self.rule_set) is ForcedBets.INVITO:
            return Stakes(ante=BIG_BET)
        return Stakes(small_blind=BIG_BET // 2, big_blind=BIG_BET)


@dataclass(slots=True)
class PlayedHand:
    """A finished hand: its log in words, a one-line summary and its PHH hand history."""

    number: int
    names: tuple[str, ...]
    lines: list[Text]
    summary: Text
    phh: str
    stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    table: str = ""
    """A room's table it was played at, when a sitting plays at more than one (a
    tournament's moves): its file then names the table, as hand numbers are the table's."""


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat as the screen shows it."""

    seat: int
    name: str
    stack: int
    bet: int = 0
    cards: tuple[Card | None, ...] = ()
    folded: bool = False
    button: bool = False
    to_act: bool = False
    me: bool = False
    note: str = ""
    won: int = 0
    """What the seat won in the hand just finished."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table as the player sees it now."""

    title: str
    seats: tuple[SeatLine, ...]
    pots: tuple[Pot, ...] = ()
    total_pot: int = 0
    bets: int = 0
    board: tuple[Card | None, ...] | None = None
    my_cards: tuple[Card, ...] = ()
    drawn: bool = False
    """Poker all'italiana: the player has changed their cards (or stood pat) in this hand."""
    phase: Phase | None = None
    in_hand: bool = False
    acting: str | None = None
    """Whose turn it is (a name), if anybody's."""
    seconds_left: float | None = None
    """Seconds left to decide, the time bank included."""
    bank_seconds_left: float | None = None
    """Of those, the time bank's: the decision time runs out first, then the bank."""
    notes: tuple[str, ...] = ()
    legal: LegalActions | None = None
    """The player's legal actions when it is their turn."""
    context: Context | None = None
    my_bet: int = 0
    raise_seconds_left: float | None = None
    """italian-32: how long raising is still offered to the player."""


@dataclass(slots=True)
class _Hand:
    hand: BettingHand
    plan: HandPlan
    number: int
    names: tuple[str, ...]
    me: int | None
    narrator: Narrator
    seen: int = 0
    done: bool = False
    lines: list[Text] = field(default_factory=list)


class PlaySession:
    """The player (``Tu``/``You``, seat 1) and ``players - 1`` bots at a room table.

    ``bots`` replaces the bots by name (``"Bot 2"``...); ``stacks`` gives each
    player's starting chips (the player first); ``deck_source`` is the
    table's source of card orders (see :attr:`~mazziere.room.table.Table.deck_source`).
    """

    def __init__(
        self,
        config: PlayConfig,
        *,
        clock: Clock,
        rng: RandomSource,
        bot_rng: RandomSource | None = None,
        bots: Mapping[str, Bot] | None = None,
        stacks: Sequence[int] | None = None,
        deck_source: Callable[[HandPlan], Sequence[Card] | None] | None = None,
    ) -> None:
        self.config = config
        self.rules = config.rule_set
        self.words = Words(config.lang)
        self.clock = clock
        self.me = self.words.me()
        self.names = (self.me, *(f"Bot {number}" for number in range(2, config.players + 1)))
        if stacks is None:
            stacks = [config.starting_stack] * config.players
        if len(stacks) != config.players or any(type(s) is not int or s <= 0 for s in stacks):
            raise PlayError(f"give {config.players} positive stacks, not {list(stacks)}")
        self.stacks = tuple(stacks)
        brains = dict(bots or {})
        source = bot_rng if bot_rng is not None else rng
        for name in self.names[1:]:
            if name not in brains:
                brains[name] = make_bot(config.bots, source)
        self.bots: dict[str, Bot] = brains
        self.hands: list[PlayedHand] = []
        self.notices: list[Text] = []
        """Lines between hands (rebuys, the parol pot's payments, eliminations, standings), in
        the order they came, for the whole sitting."""
        self.transcript: list[Text] = []
        """Every line of the sitting in order: the hands' logs and the notices between them."""
        self.started = datetime.now()
        self._saving = HandsFolder(self._folder_name, self.words, self._notice)
        self._current: _Hand | None = None
        self._button_draw_told = False
        self._told_finishes: set[str] = set()
        self.event: Tournament | None = None
        self._cash: CashTable | None = None
        time = TimeSettings.for_rules(self.rules, decision_seconds=config.decision_seconds)
        if config.tournament:
            self._open_tournament(rng, time)
        else:
            self._open_cash(rng, time)
        self.deck_source = deck_source
        """Card orders for the next hands, handed to the table at each deal (tests, lessons)."""

    # ------------------------------------------------------------- setting up

    def _open_cash(self, rng: RandomSource, time: TimeSettings) -> None:
        settings = CashSettings(
            rules=self.rules,
            seats=self.config.players,
            stakes=self.config.stakes(),
            min_buy_in=min(self.stacks),
            max_buy_in=max(self.stacks),
            time=time,
            rebuy_seconds=24 * 3600.0,
            name="Mazziere",
            keep_hands=0,
            ask_show=self._asks_show,
        )
        table = CashTable(settings, clock=self.clock, rng=rng)
        for seat, (name, stack) in enumerate(zip(self.names, self.stacks, strict=True), start=1):
            table.sit_down(name, stack, seat=seat, post=True)
        self._cash = table

    def _open_tournament(self, rng: RandomSource, time: TimeSettings) -> None:
        stack = self.stacks[0]
        if len(set(self.stacks)) != 1:
            raise PlayError("a tournament starts everyone with the same stack")
        try:
            schedule = Schedule.standard(
                self.rules, starting_stack=stack, unit="hands", length=10, depth=50
            )
        except RoomError as error:
            raise PlayError(str(error)) from None
        settings = TournamentSettings(
            rules=self.rules,
            buy_in=100,
            starting_stack=stack,
            seats=self.config.players,
            schedule=schedule,
            max_players=self.config.players,
            time=time,
            name="Sit & go",
        )
        event = Tournament(settings, clock=self.clock, rng=rng)
        for name in self.names:
            event.register(name)
        self.event = event
        self._tables = list(event.tables.values())

    # ---------------------------------------------------------------- reading

    @property
    def table(self) -> Table:
        """The table the player sits at (a tournament's only table)."""
        if self._cash is not None:
            return self._cash
        assert self.event is not None
        tables = list(self.event.tables.values())
        if tables:
            self._tables = tables
        return self._tables[0]

    @property
    def is_tournament(self) -> bool:
        """Whether this is a sit & go."""
        return self.event is not None

    @property
    def over(self) -> bool:
        """A tournament that has its winner: nothing more to deal."""
        return self.event is not None and self.event.state is not TournamentState.RUNNING

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.table.in_hand

    @property
    def hand_over(self) -> bool:
        """Whether the last hand dealt is over (true before the first hand too)."""
        return self._current is None or self._current.done

    @property
    def lines(self) -> list[Text]:
        """The running log of the hand being played (or of the last one)."""
        return self._current.lines if self._current is not None else []

    def my_seat(self) -> Seat | None:
        """The player's seat (``None`` once eliminated from a tournament)."""
        table = self.table
        return table.player(self.me) if table.is_seated(self.me) else None

    def my_offer(self) -> Offer | None:
        """A question the table asks the player before the deal (pay to rejoin a parol pot)."""
        return self.table.offers.get(self.me)

    def offer_seconds(self) -> float:
        """Seconds left to answer :meth:`my_offer` (0 when none is open)."""
        offer = self.my_offer()
        return 0.0 if offer is None else max(0.0, offer.timer.deadline - self.clock.now())

    def my_decision(self) -> Decision | None:
        """The table's decision when it is the player's turn."""
        decision = self.table.decision
        return decision if decision is not None and decision.name == self.me else None

    def bot_decision(self) -> Decision | None:
        """The table's decision when a bot must act."""
        decision = self.table.decision
        return decision if decision is not None and decision.name != self.me else None

    def sits_out_next(self) -> bool:
        """The player sits out once this hand is over (sitting in before then takes it back)."""
        seat = self.my_seat()
        return seat is not None and seat.sit_out_next

    def my_status(self) -> SeatStatus | None:
        """Where the player stands at the table (``None``: eliminated)."""
        seat = self.my_seat()
        if seat is None:
            return None
        if seat.away:
            return SeatStatus.SITTING_OUT
        return seat.status

    def my_finish(self) -> int | None:
        """The player's place in the tournament, once they are out (or it is over)."""
        if self.event is None:
            return None
        finish = self.event.finishes.get(self.me)
        return finish.place if finish is not None else None

    # ---------------------------------------------------------------- dealing

    def start_next_hand(self) -> bool:
        """Deal the next hand if the table can; say whether it started.

        Bots answer the table's questions at once; the player's question
        (:meth:`my_offer`) waits for :meth:`answer`.
        """
        if self.over or self.table.in_hand:
            return False
        for _ in range(3):
            self._rebuy_bots()
            if self._deal():
                self._begin_hand()
                return True
            if not self._answer_bot_offers():
                break
        return False

    @property
    def _asks_show(self) -> bool:
        """Poker all'italiana asks a player who may muck at the showdown whether to show
        (RULES.md, Showdown); Hold'em's cards speak."""
        return self.rules.traits.asks_show

    def _deal(self) -> bool:
        if self.event is not None:
            for table in self.event.tables.values():
                table.deck_source = self.deck_source
                table.ask_show = self._asks_show
            return bool(self.event.start_hands())
        self.table.deck_source = self.deck_source
        return self.table.start_hand()

    def _answer_bot_offers(self) -> bool:
        table = self.table
        answered = False
        for offer in list(table.offers.values()):
            if offer.name == self.me:
                continue
            seat = table.player(offer.name)
            if offer.kind is OfferKind.REJOIN:
                accept = self.bots[offer.name].wants_rejoin(offer.amount, seat.stack)
            else:
                accept = True
            table.answer(offer.name, accept)
            answered = True
        return answered

    def answer(self, accept: bool) -> None:
        """The player answers the table's question (:meth:`my_offer`)."""
        offer = self.my_offer()
        if offer is None:
            raise PlayError("the table is not asking you anything")
        self.table.answer(self.me, accept)
        if offer.kind is OfferKind.REJOIN:
            amount = chips(offer.amount)
            self._notice(
                Text(
                    self.words.pick(
                        f"Paghi {amount} e giochi il piatto di parol"
                        if accept
                        else "Non giochi il piatto di parol",
                        f"You pay {amount} and play the parol pot"
                        if accept
                        else "You sit the parol pot out",
                    )
                )
            )

    def _rebuy_bots(self) -> None:
        if self._cash is None:
            return
        for seat in list(self._cash):
            if seat.status is SeatStatus.BUSTED and seat.name != self.me:
                stack = self.stacks[self.names.index(seat.name)]
                self._cash.rebuy(seat.name, stack)
                self._notice(
                    Text(
                        self.words.pick(
                            f"{seat.name} ricompra {chips(stack)}",
                            f"{seat.name} buys in again for {chips(stack)}",
                        ),
                        style="dim",
                    )
                )

    def rebuy(self) -> None:
        """The player, out of chips at a cash table, buys in again for the starting stack."""
        if self._cash is None:
            raise PlayError(
                self.words.pick("in un torneo non si ricompra", "no rebuys in a sit & go")
            )
        seat = self.my_seat()
        if seat is None or seat.status is not SeatStatus.BUSTED:
            raise PlayError(self.words.pick("hai ancora fiches", "you still have chips"))
        self._cash.rebuy(self.me, self.stacks[0])

    def sit_in(self) -> None:
        """The player, sat out after timing out, comes back."""
        seat = self.my_seat()
        if seat is None:
            raise PlayError(self.words.pick("non sei al tavolo", "you are not at the table"))
        table = self.table
        if isinstance(table, CashTable):
            table.sit_in(self.me, post=True)  # post what was missed: dealt in at once
        else:
            table.sit_in(self.me)  # type: ignore[attr-defined]  # a tournament table
        seat.bank.acted()

    def _begin_hand(self) -> None:
        table = self.table
        hand, plan = table.hand, table.plan
        assert hand is not None and plan is not None
        names = tuple(table.seats[s].name for s in plan.seats)
        me = names.index(self.me) if self.me in names else None
        narrator = Narrator(
            self.rules,
            names,
            me=me,
            words=self.words,
            four_colour=self.config.four_colour,
            opening=getattr(hand, "opening", None) is not None,  # (an Italian opening requirement)
        )
        current = _Hand(hand, plan, table.hand_number, names, me, narrator)
        self._current = current
        if not self._button_draw_told and table.button_draw is not None:
            self._button_draw_told = True
            draws = " ".join(
                f"{table.seats[s].name} {card.pretty()}" for s, card in table.button_draw.cards
            )
            dealer = table.seats[table.button_draw.button].name
            self._say(
                current,
                Text(
                    self.words.pick(
                        f"Sorteggio del mazziere: {draws} → {dealer}",
                        f"Draw for the button: {draws} → {dealer}",
                    ),
                    style="dim",
                ),
            )
        self._say(current, self._header(current))
        self._sync()

    def _header(self, current: _Hand) -> Text:
        hand = current.hand
        return hand_header(
            self.words,
            number=current.number,
            dealer=current.names[-1],
            stakes=self.words.stakes(self.table.current_stakes(), self.rules, hand.n),
            carried=int(getattr(hand, "carried", 0)),
            parol_pot=bool(getattr(hand, "parol_pot", False)),
            opening=getattr(hand, "opening", None),
        )

    # ------------------------------------------------------------------ acting

    def play_bot(self) -> bool:
        """The bot whose turn it is acts; say whether one did."""
        decision = self.bot_decision()
        table = self.table
        if decision is None or table.hand is None or table.plan is None:
            return False
        view = table.hand.view(decision.position)
        stakes = table.current_stakes()
        big = max(stakes.big_blind, stakes.ante, 1)
        situation = Situation(
            self.rules, decision.position, table.plan.players, view, decision.legal, big
        )
        action = self.bots[decision.name].act(situation)
        try:
            table.act(decision.name, action)
        except (IllegalActionError, TableStateError):
            # A bot that asks for something illegal (or a raise after italian-32's raise
            # window) loses its turn as if its time ran out.
            table.act(decision.name, Action.timeout())
        self._sync()
        return True

    def act(self, action: Action) -> None:
        """The player's action (raises the engine's or the table's precise error if illegal;
        nothing changes then)."""
        self.table.act(self.me, action)
        self._sync()

    def timeout_action(self) -> Action:
        """What the clock would do for the player (check if free, else fold)."""
        return Action.timeout()

    def tick(self) -> None:
        """Play the timeout action of any decision whose time ran out (the table's clock)."""
        if self.table.in_hand:
            self.table.advance()
            self._sync()

    def finish_tournament(self, *, limit: int = 100_000) -> None:
        """The player is out: the bots play the tournament to its end at once."""
        if self.event is None:
            return
        steps = 0
        while not self.over and steps < limit:
            steps += 1
            if self.table.in_hand:
                if self.my_decision() is not None:
                    self.act(Action.timeout())
                else:
                    self.play_bot()
            elif not self.start_next_hand() and not self._answer_bot_offers():
                advance = getattr(self.clock, "advance", None)
                if advance is None:
                    break  # a real clock: nothing to wait for here
                advance(60)  # a break, on a manual clock
        self._sync()

    # ---------------------------------------------------------------- the log

    def _say(self, current: _Hand, *lines: Text) -> None:
        current.lines.extend(lines)
        self.transcript.extend(lines)

    def _notice(self, *lines: Text) -> None:
        self.notices.extend(lines)
        self.transcript.extend(lines)

    def _sync(self) -> None:
        current = self._current
        if current is None or current.done:
            return
        hand = current.hand
        log = hand.log
        for record in log[current.seen :]:
            self._say(current, *current.narrator.lines(record.seen_by(current.me)))
        current.seen = len(log)
        self._say(current, *current.narrator.settle())
        if hand.is_over:
            self._say(current, *current.narrator.finish())
            current.done = True
            self._finish_hand(current)

    def _finish_hand(self, current: _Hand) -> None:
        hand = current.hand
        result = hand.result
        assert result is not None
        summary = self._summary(current)
        self._say(current, summary)
        self.hands.append(
            PlayedHand(
                number=current.number,
                names=current.names,
                lines=current.lines,
                summary=summary,
                phh=hand_history(hand, current.names, number=current.number, table=self.table.name),
                stacks=result.stacks,
                payoffs=result.payoffs,
            )
        )
        self._write_finished()
        self._after_hand()

    def _summary(self, current: _Hand) -> Text:
        result = current.hand.result
        assert result is not None
        won: dict[int, int] = {}
        for pot in result.pots:
            for winner, share in zip(pot.winners, pot.shares, strict=True):
                won[winner] = won.get(winner, 0) + share
        carry = result.extra.get("carry")
        return hand_summary(
            self.words,
            number=current.number,
            names=current.names,
            me=current.me,
            won=won,
            payoff=result.payoffs[current.me] if current.me is not None else None,
            describe=current.narrator.describe,
            carried=int(getattr(carry, "pot", 0) or 0),
            parol_pot=bool(getattr(carry, "parol_pot", False)),
        )

    def _after_hand(self) -> None:
        words = self.words
        seat = self.my_seat()
        if self.event is not None:
            entrants = self.event.entrants
            for finish in sorted(self.event.finishes.values(), key=lambda f: -f.place):
                if finish.name in self._told_finishes or finish.place == 1:
                    continue
                self._told_finishes.add(finish.name)
                if finish.name == self.me:
                    text = words.pick(
                        f"Sei eliminato: {finish.place}° posto su {entrants}",
                        f"You are out in place {finish.place} of {entrants}",
                    )
                else:
                    text = words.pick(
                        f"{finish.name} è eliminato: {finish.place}° posto",
                        f"{finish.name} is out in place {finish.place}",
                    )
                self._notice(Text(text, style="bold red" if finish.name == self.me else "red"))
            if self.over:
                self._notice(*self.standings())
        elif seat is not None and seat.status is SeatStatus.BUSTED:
            self._notice(
                Text(
                    words.pick(
                        "Hai finito le fiches: [r] per ricomprare",
                        "You are out of chips: [r] to buy in again",
                    ),
                    style="bold red",
                )
            )

    def standings(self) -> list[Text]:
        """The tournament's places and prizes, best first."""
        if self.event is None:
            return []
        words = self.words
        lines = [Text(words.pick("Classifica finale:", "Final standings:"), style="bold")]
        for finish in self.event.standings():
            prize = (
                f" · {words.pick('premio', 'prize')} {chips(finish.prize)}" if finish.prize else ""
            )
            style = "bold green" if finish.name == self.me else ""
            lines.append(Text(f"{finish.place}. {finish.name}{prize}", style=style))
        return lines

    # --------------------------------------------------------------- the screen

    def snapshot(self) -> Snapshot:
        """What the screen shows now."""
        table = self.table
        words = self.words
        current = self._current
        # The blinds of the hand in play, or between hands of the players with chips.
        players = current.hand.n if current is not None and self.in_hand else None
        if players is None:
            players = sum(1 for seat in table if seat.stack > 0)
        stakes = words.stakes(table.current_stakes(), self.rules, players)
        kind = (
            words.pick("torneo sit & go", "sit & go")
            if self.is_tournament
            else words.pick("cash", "cash")
        )
        title = f"{self.rules.name} · {kind} · {stakes}"
        if self.event is not None and not self.over:
            title += words.pick(
                f" · livello {self.event.level()}", f" · level {self.event.level()}"
            )
        if current is None:
            seats = tuple(self._idle_seat(seat) for seat in table)
            return Snapshot(title=title, seats=seats)
        hand = current.hand
        view: Any = hand.view(current.me)
        positions = {seat: p for p, seat in enumerate(current.plan.seats)}
        won: dict[int, int] = {}
        if hand.result is not None:
            for pot in hand.result.pots:
                for winner, share in zip(pot.winners, pot.shares, strict=True):
                    won[winner] = won.get(winner, 0) + share
        lines: list[SeatLine] = []
        for seat in table:
            p = positions.get(seat.seat)
            if p is None or seat.name != current.names[p]:
                lines.append(self._idle_seat(seat))
                continue
            lines.append(
                SeatLine(
                    seat=seat.seat,
                    name=seat.name,
                    stack=view.stacks[p],
                    bet=view.bets[p],
                    cards=tuple(view.hole[p]),
                    folded=view.folded[p],
                    button=p == hand.n - 1,
                    to_act=view.actor == p and not hand.is_over,
                    me=p == current.me,
                    note=self._note(view, p),
                    won=won.get(p, 0),
                )
            )
        # players who left a tournament table mid-session are not in `table` any more
        decision = table.decision
        legal = None
        context = None
        seconds = None
        bank_left = None
        acting = None
        raise_left: float | None = None
        if decision is not None:
            acting = decision.name
            timer = decision.timer
            now = self.clock.now()
            seconds = timer.remaining(now)
            bank_left = timer.bank_seconds - timer.bank_used(now)
            if decision.name == self.me:
                legal = decision.legal
                context = self.context(view)
                window = decision.timer.raise_window_seconds
                if window is not None:
                    left = decision.timer.started + window - self.clock.now()
                    raise_left = left if left > 0 else None
        cards, my_bet = my_cards(view, current.me)
        return Snapshot(
            title=title,
            seats=tuple(lines),
            pots=tuple(view.pots),
            total_pot=view.total_pot,
            bets=sum(view.bets),
            board=tuple(view.board) if hasattr(view, "board") else None,
            my_cards=cards,
            drawn=has_drawn(view, current.me),
            phase=view.phase,
            in_hand=not hand.is_over,
            acting=acting,
            seconds_left=seconds,
            bank_seconds_left=bank_left,
            notes=self._notes(view),
            legal=legal,
            context=context,
            my_bet=my_bet,
            raise_seconds_left=raise_left,
        )

    def context(self, view: Any) -> Context:
        """How to name the actions now (the opening round, the blind opening)."""
        return hand_context(self.rules, view)

    def _idle_seat(self, seat: Seat) -> SeatLine:
        words = self.words
        note = {
            SeatStatus.SITTING_OUT: "sit-out",
            SeatStatus.WAITING: words.pick("in attesa", "waiting"),
            SeatStatus.BUSTED: words.pick("senza fiches", "no chips"),
        }.get(seat.status, "")
        if seat.away:
            note = "sit-out"
        return SeatLine(
            seat=seat.seat, name=seat.name, stack=seat.stack, me=seat.name == self.me, note=note
        )

    def _note(self, view: Any, p: int) -> str:
        return seat_note(self.words, view, p)

    def _notes(self, view: Any) -> tuple[str, ...]:
        return hand_notes(self.words, self.rules, view)

    # ------------------------------------------------------------- histories

    def open_folder(self, base: Path | str | None = None) -> None:
        """Save this sitting's hands under ``base`` (see :meth:`HandsFolder.open`); the hands
        finished already are written at once."""
        self._saving.open(base)
        self._saving.write(self.hands)

    def _folder_name(self) -> str:
        return f"{self.started.strftime('%Y%m%d-%H%M%S')}-{self.rules.name}"

    def _write_finished(self) -> None:
        self._saving.write(self.hands)

    @property
    def folder(self) -> Path | None:
        """Where the finished hands are written as they end (see :meth:`open_folder`)."""
        return self._saving.folder

    def save(self, folder: Path | str | None = None) -> Path | None:
        """Make sure every finished hand is written (under ``folder`` if no place was chosen
        yet, see :meth:`open_folder`); return the sitting's folder, ``None`` when no hand was
        finished (then no folder was made)."""
        return self._saving.save(self.hands, folder)


class HandsFolder:
    """Where a sitting's hand histories go: a new folder of its own under a base folder
    (checked when the sitting starts), made when the first hand is written, each hand
    written as a PHH file as soon as it is known; if the folder fails midway, the whole
    sitting moves to one that works and ``notice`` says where (a hand is never lost).

    ``name`` gives the folder's name (the sitting's start and rule set); both
    ``mazziere play`` and ``mazziere play --connect`` keep their hands this way.
    """

    def __init__(
        self, name: Callable[[], str], words: Words, notice: Callable[[Text], None]
    ) -> None:
        self.name = name
        self.words = words
        self.notice = notice
        self.folder: Path | None = None
        """The sitting's folder, once a hand was written."""
        self.base: Path | None = None
        self._written = 0

    def open(self, base: Path | str | None = None) -> None:
        """Save under ``base`` (default: :func:`default_hands_folder`).

        Called when the sitting starts, so a place where no folder can be made is told
        before any hand is played (:class:`PlayError` says which and why): such a folder is
        made and removed again now.
        """
        if self.base is not None:
            return
        where = Path(base) if base is not None else default_hands_folder()
        try:
            new_hands_folder(where, self.name()).rmdir()
        except OSError as error:
            reason = error.strerror or str(error)
            raise PlayError(f"cannot save the hand histories in {where}: {reason}") from None
        self.base = where

    def write(self, hands: Sequence[PlayedHand]) -> None:
        """Write the hands of ``hands`` (the sitting's, in order) not written yet."""
        if self.base is None or self._written == len(hands):
            return
        try:
            if self.folder is None:
                self.folder = new_hands_folder(self.base, self.name())
            for played in hands[self._written :]:
                write_hand(self.folder, played)
                self._written += 1
        except OSError as error:
            self._move(hands, self.folder or self.base, error)

    def _move(self, hands: Sequence[PlayedHand], failed: Path, error: OSError) -> None:
        import tempfile

        words = self.words
        reason = error.strerror or str(error)
        name = self.name()

        def in_the_default_folder() -> Path:
            return new_hands_folder(default_hands_folder(), name)

        def in_a_temporary_folder() -> Path:
            return Path(tempfile.mkdtemp(prefix=f"mazziere-{name}-"))

        for make in (in_the_default_folder, in_a_temporary_folder):
            try:
                folder = make()
                for played in hands:
                    write_hand(folder, played)
            except OSError:
                continue
            self.folder = folder
            self._written = len(hands)
            self.notice(
                Text(
                    words.pick(
                        f"Non riesco a salvare in {failed} ({reason}): "
                        f"le mani di questa sessione sono ora in {folder}",
                        f"Cannot save in {failed} ({reason}): "
                        f"this sitting's hands are now in {folder}",
                    ),
                    style="bold red",
                )
            )
            return
        # Nowhere to write: the hands stay in memory, and saving on quitting tries again.
        self.folder = self.base = None
        self._written = 0
        self.notice(
            Text(
                words.pick(
                    f"Non riesco a salvare le mani ({reason})",
                    f"Cannot save the hands ({reason})",
                ),
                style="bold red",
            )
        )

    def save(self, hands: Sequence[PlayedHand], base: Path | str | None = None) -> Path | None:
        """Make sure every hand of ``hands`` is written (under ``base`` if no place was
        chosen yet); the folder, ``None`` when there was no hand (then no folder was made)."""
        if not hands:
            return None
        self.open(base)
        self.write(hands)
        return self.folder


def new_hands_folder(base: Path, name: str) -> Path:
    """A new folder ``base/name`` (``name-2``, ``name-3``... when that one exists: sittings
    started in the same second never share one)."""
    base.mkdir(parents=True, exist_ok=True)
    for suffix in itertools.count(1):
        target = base / (name if suffix == 1 else f"{name}-{suffix}")
        try:
            target.mkdir()
        except FileExistsError:
            continue
        return target
    raise AssertionError("unreachable")  # pragma: no cover


def write_hand(folder: Path, played: PlayedHand) -> Path:
    """``played`` as ``hand-NNNN.phh`` (``hand-TABLE-NNNN.phh`` with its table) in ``folder``;
    a file already there is never replaced."""
    table = f"{played.table}-" if played.table else ""
    path = folder / f"hand-{table}{played.number:04d}.phh"
    with path.open("x", encoding="utf-8") as file:
        file.write(played.phh)
    return path


def default_hands_folder() -> Path:
    """Where hand histories go: ``$XDG_DATA_HOME/mazziere/hands`` (``~/.local/share/...``)."""
    import os

    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "mazziere" / "hands"


def hand_history(hand: BettingHand, names: Sequence[str], *, number: int, table: str = "") -> str:
    """A finished hand as PHH text: Hold'em as ``NT``, Poker all'italiana with its extension.

    >>> import random
    >>> from mazziere.game.holdem import HoldemHand
    >>> game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(1))
    >>> _ = game.fold()
    >>> print(hand_history(game, ["ann", "bob"], number=7).splitlines()[0])
    variant = 'NT'
    """
    extra: dict[str, object] = {
        "venue": "Mazziere",
        "table": table or "Mazziere",
        "hand": number,
        "players": list(names),
    }
    from mazziere.history.writers import write_history

    return write_history(hand, extra)


class SystemClock:
    """The real clock of a game being played: seconds that never go back (``time.monotonic``).

    >>> clock = SystemClock()
    >>> clock.now() <= clock.now()
    True
    """

    def now(self) -> float:
        """Seconds since an arbitrary start."""
        return time.monotonic()
