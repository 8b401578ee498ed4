"""Tournaments: sit & go and scheduled multi-table events, from registration to prizes.

The :class:`Tournament` owns two ledgers: ``money`` (buy-ins, fees, prizes,
refunds) and ``chips`` (starting stacks handed out by the bank, every pot of
every table).  Both always sum to zero; at the end the prize pool is paid out
to the last chip and the winner holds every chip handed out.

It seats players at random with equal stacks, draws each table's first
dealer, raises the stakes by its schedule (minutes or hands), pauses for
breaks, eliminates players at the end of a hand (italian-classic: not while
they have chips in a parol pot), gives finishing places and prizes, balances
and breaks tables, and forms the final table.  The hands themselves are
played by whoever drives the tables (the server, a test, the simulator):
:meth:`Tournament.start_hands` deals a hand at every table that can play,
and each table's :attr:`~mazziere.room.table.Table.decision` says who must act.

>>> import random
>>> from mazziere.room.clock import ManualClock
>>> settings = TournamentSettings(
...     rules="holdem", buy_in=1000, starting_stack=500, seats=6, max_players=3,
...     schedule=Schedule.standard("holdem", starting_stack=500, unit="hands", length=5))
>>> event = Tournament(settings, clock=ManualClock(), rng=random.Random(2))
>>> for name in ("ann", "bob", "cal"):
...     event.register(name)
>>> event.state.value, len(event.tables), event.chips.balance(Account.bank())
('running', 1, -1500)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from mazziere.cards import RandomSource
from mazziere.room.clock import Clock
from mazziere.room.errors import TournamentStateError
from mazziere.room.games import Carry
from mazziere.room.icm import icm_deal
from mazziere.room.ledger import Account, EntryKind, Ledger
from mazziere.room.payouts import split_prize_pool
from mazziere.room.plan import Candidate
from mazziere.room.registration import Registration, TournamentSettings, TournamentState
from mazziere.room.seating import TableMove, plan_tables, random_seating, tables_needed
from mazziere.room.structure import ForcedBets, LevelUnit, Schedule, Stakes, forced_bets
from mazziere.room.table import HandSummary, Seat, Table

__all__ = [
    "Finish",
    "LevelClock",
    "Schedule",
    "Tournament",
    "TournamentSettings",
    "TournamentState",
    "TournamentTable",
]


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's result: place (1 is the winner) and prize."""

    name: str
    place: int
    prize: int
    hand: int
    """The tournament hand count when the player finished."""


@dataclass(frozen=True, slots=True)
class LevelClock:
    """Where a table stands in its tournament's schedule, as its players are told.

    ``number`` and ``stakes`` are the level being played (during a break: the level
    that follows it); ``next_stakes`` those of the level after it (``None`` on a
    break, and at the last level, which lasts for ever). ``seconds_left`` is what is
    left of a break or of a level counted in minutes; ``hands_left``, of a level
    counted in hands, the hands still to be dealt at it (the one playing not
    counted). Each is ``None`` where it does not apply or the level never ends.
    """

    number: int
    stakes: Stakes
    next_stakes: Stakes | None
    on_break: bool
    seconds_left: float | None
    hands_left: int | None


class TournamentTable(Table):
    """A table of a tournament: stakes from the schedule, every player dealt in (a player
    away posts and folds at once; italian-classic: forfeits the invito), no rebuys."""

    def __init__(self, tournament: Tournament, number: int) -> None:
        settings = tournament.settings
        super().__init__(
            rules=settings.rule_set,
            seats=settings.seats,
            clock=tournament.clock,
            rng=tournament.rng,
            ledger=tournament.chips,
            time=settings.time,
            name=f"table-{number}",
            keep_hands=tournament.keep_hands,
        )
        self.tournament = tournament
        self.number = number
        self.level_hands = 0
        """Hands dealt at this table (levels by hands count them)."""
        self.paused_until: float | None = None
        self.schedule_index: int | None = None
        """The schedule item of the last hand dealt here (levels by hands)."""
        self.closing = False
        """Marked to be broken: no new hand starts here."""

    def current_stakes(self) -> Stakes:
        """The stakes the schedule gives this table now."""
        return self.tournament.stakes_for(self)

    def _is_tournament(self) -> bool:
        return True

    def _timed_out_too_often(self, seat: Seat) -> None:
        seat.away = True

    def sit_out(self, name: str) -> None:
        """``name`` is away: their hands are played at once (blinds posted, then fold)."""
        self.player(name).away = True

    def sit_in(self, name: str) -> None:
        """``name`` is back at the table."""
        seat = self.player(name)
        seat.away = False
        seat.bank.acted()

    def _candidates(self) -> dict[int, Candidate]:
        with_chips = [seat for seat in self.seats.values() if seat.stack > 0]
        if self._forfeits_invito(with_chips):
            with_chips = [seat for seat in with_chips if not seat.away]
        return {seat.seat: Candidate(seat.seat) for seat in with_chips}

    def _forfeits_invito(self, with_chips: list[Seat]) -> bool:
        """italian-classic: players away forfeit the invito and are not dealt in, as long as
        two players present can play; otherwise they are dealt in and act at once."""
        return (
            forced_bets(self.rules) is ForcedBets.INVITO
            and not self.carry.parol_pot
            and any(seat.away for seat in with_chips)
            and sum(1 for seat in with_chips if not seat.away) >= 2
        )

    def start_hand(self) -> bool:
        """Deal if the table may play now (not paused, not closing, two players)."""
        if self.closing or self.tournament.state is not TournamentState.RUNNING:
            return False
        now = self.clock.now()
        if self.paused_until is not None:
            if now < self.paused_until:
                return False
            self.paused_until = None
        if not self.tournament.may_deal(self):
            return False
        self._forfeit_invitos()
        if not super().start_hand():
            return False
        self.level_hands += 1
        self.tournament.hands_dealt += 1
        return True

    def _forfeit_invitos(self) -> None:
        """italian-classic tournaments: the invito is taken from players away too, who are
        then not dealt in: it stays in the pot, and gives them a right to a parol pot."""
        with_chips = [seat for seat in self.seats.values() if seat.stack > 0]
        if not self._forfeits_invito(with_chips):
            return
        away = [seat for seat in with_chips if seat.away]
        invito = self.current_stakes().ante
        shares = dict(self.carry.shares)
        added = 0
        for seat in away:
            paid = min(invito, seat.stack)
            self.ledger.transfer(
                EntryKind.BET,
                Account.stack(seat.name),
                self.pot_account,
                paid,
                hand=self.hand_number + 1,
                note="invito of a player away",
            )
            seat.stack -= paid
            shares[seat.name] = shares.get(seat.name, 0) + paid
            added += paid
        carry = self.carry
        self.carry = Carry(
            pot=carry.pot + added,
            opening=carry.opening,
            parol_pot=carry.parol_pot,
            shares=shares,
            rejoin=carry.rejoin,
        )

    def _after_hand(self, summary: HandSummary) -> None:
        self.tournament.hand_finished(self, summary)

    # --- where players move from and to ---

    def _after_seat(self, seat: int, seats: list[int]) -> list[int]:
        return sorted(seats, key=lambda s: (s - seat - 1) % self.seat_count)

    def next_to_pay(self) -> Seat:
        """The player who will post the biggest blind next hand (the one moved to balance):
        the first player after the last big blind; italian-classic: left of the next dealer."""
        occupied = sorted(self.seats)
        if self._blind_seats:
            return self.seats[self._after_seat(self._blind_seats[-1], occupied)[0]]
        if self.button is not None:
            order = self._after_seat(self.button, occupied)
            return self.seats[order[1] if len(order) > 1 else order[0]]
        return self.seats[occupied[self.rng.randrange(len(occupied))]]

    def worst_empty_seat(self) -> int:
        """Where a player moved here sits: the first empty seat after the last big blind, so
        they pay the big blind as soon as possible (random at a table that has not dealt)."""
        empty = self.empty_seats()
        if not empty:
            raise TournamentStateError(f"{self.name} is full")
        if self._blind_seats:
            return self._after_seat(self._blind_seats[-1], empty)[0]
        return empty[self.rng.randrange(len(empty))]

    def take(self, name: str, stack: int, seat: int | None = None) -> Seat:
        """Seat ``name`` (their stack stays in their ledger account)."""
        return self._seat_player(name, seat, stack)

    def release(self, name: str) -> Seat:
        """Unseat ``name`` (moved elsewhere or eliminated)."""
        seat = self.player(name)
        self._unseat(seat)
        return seat


class Tournament:
    """A sit & go or a scheduled multi-table tournament."""

    def __init__(
        self,
        settings: TournamentSettings,
        *,
        clock: Clock,
        rng: RandomSource,
        keep_hands: int = 0,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.rng = rng
        self.keep_hands = keep_hands
        name = settings.name or "tournament"
        self.money = Ledger(f"{name} money")
        self.chips = Ledger(f"{name} chips")
        self.registration = Registration(
            settings, clock, money=self.money, on_start=self._start, on_late=self._seat_late
        )
        self.tables: dict[int, TournamentTable] = {}
        self._every_table: list[TournamentTable] = []
        self.finishes: dict[str, Finish] = {}
        self.hands_dealt = 0
        self._next_table = 1
        self._eliminated = 0
        self._entrants_final = False
        self._prizes: list[int] = []
        self._unpaid: list[tuple[list[str], int]] = []
        self._final_table_pending = False
        self.final_table: int | None = None
        self.table_opened: Callable[[TournamentTable], None] | None = None
        """Told of each table as it opens, before anyone sits or a hand is dealt there (who
        drives the tables gives it its cards and its own random source)."""

    # ------------------------------------------------------------ reading

    @property
    def state(self) -> TournamentState:
        """Registering, running, finished or cancelled."""
        return self.registration.state

    @property
    def entrants(self) -> int:
        """Everyone who registered (late registrations included)."""
        return len(self.registration.players)

    def players_left(self) -> list[str]:
        """The players still in, by table."""
        return [s.name for t in self.tables.values() for s in t]

    def __iter__(self) -> Iterator[TournamentTable]:
        return iter(self.tables.values())

    def stakes_for(self, table: TournamentTable) -> Stakes:
        """The stakes of ``table``'s next hand."""
        schedule = self.settings.schedule
        if schedule.unit is LevelUnit.HANDS:
            return schedule.at_hands(table.level_hands).stakes
        return schedule.at_seconds(self._elapsed()).stakes

    def level_clock(self, table: TournamentTable, now: float) -> LevelClock:
        """Where ``table`` stands in the schedule at ``now`` (the tournament's clock).

        >>> import random
        >>> from mazziere.room.clock import ManualClock
        >>> settings = TournamentSettings(
        ...     rules="holdem", buy_in=10, starting_stack=500, seats=6, max_players=2,
        ...     schedule=Schedule.standard("holdem", starting_stack=500, unit="hands", length=2))
        >>> event = Tournament(settings, clock=ManualClock(), rng=random.Random(2))
        >>> for name in ("ann", "bob"):
        ...     event.register(name)
        >>> table = next(iter(event))
        >>> clock = event.level_clock(table, 0.0)
        >>> clock.number, clock.stakes.big_blind, clock.next_stakes.big_blind, clock.hands_left
        (1, 10, 15, 2)
        >>> event.start_hands() and event.level_clock(table, 0.0).hands_left  # one playing
        1
        """
        schedule = self.settings.schedule
        if schedule.unit is LevelUnit.MINUTES:
            started = self.registration.started_at
            point = schedule.at_seconds(0.0 if started is None else max(0.0, now - started))
            return LevelClock(
                number=point.number,
                stakes=point.stakes,
                next_stakes=None if point.on_break else schedule.stakes_after(point.index),
                on_break=point.on_break,
                seconds_left=None if point.remaining == float("inf") else point.remaining,
                hands_left=None,
            )
        if table.paused_until is not None and now < table.paused_until:
            # A break between levels counted in hands: this table's own pause.
            point = schedule.at_hands(table.level_hands)
            return LevelClock(
                point.number, point.stakes, None, True, table.paused_until - now, None
            )
        # The hand playing was counted when it was dealt: its level is the one before it.
        playing = schedule.at_hands(table.level_hands - (1 if table.in_hand else 0))
        following = schedule.at_hands(table.level_hands)
        if playing.remaining == float("inf"):
            hands_left = None
        elif following.index != playing.index:
            hands_left = 0
        else:
            hands_left = int(following.remaining)
        return LevelClock(
            number=playing.number,
            stakes=playing.stakes,
            next_stakes=schedule.stakes_after(playing.index),
            on_break=False,
            seconds_left=None,
            hands_left=hands_left,
        )

    def level_played(self, now: float) -> int:
        """The level played at ``now``: the furthest table's level clock (a hand playing
        is at the level it was dealt at; on a break, the level that follows it)."""
        clocks = [self.level_clock(table, now).number for table in self]
        return max(clocks, default=self.level())

    def on_break(self, now: float) -> bool:
        """Whether every table is on a break at ``now`` (a sit & go's one table; levels
        by minutes break everywhere at once, levels by hands table by table)."""
        tables = list(self)
        return bool(tables) and all(self.level_clock(t, now).on_break for t in tables)

    def level(self) -> int:
        """The level of the next hand (the furthest table's, when levels count hands)."""
        schedule = self.settings.schedule
        if self.state is not TournamentState.RUNNING:
            return self.registration.current_level
        if schedule.unit is LevelUnit.HANDS:
            return max((schedule.at_hands(t.level_hands).number for t in self), default=1)
        return schedule.at_seconds(self._elapsed()).number

    def _elapsed(self) -> float:
        started = self.registration.started_at
        return 0.0 if started is None else self.clock.now() - started

    def every_table(self) -> list[TournamentTable]:
        """Every table the tournament used, closed ones included (for their statistics)."""
        return list(self._every_table)

    def standings(self) -> list[Finish]:
        """Every finish so far, best place first."""
        return sorted(self.finishes.values(), key=lambda f: f.place)

    # ---------------------------------------------------------- registering

    def register(self, player: str) -> None:
        """Register ``player`` (see :class:`~mazziere.room.registration.Registration`)."""
        self.registration.register(player)

    def unregister(self, player: str) -> None:
        """Unregister ``player`` before the start, with a refund."""
        self.registration.unregister(player)

    def start_due(self) -> bool:
        """Start (or cancel) a scheduled tournament whose time has come."""
        return self.registration.start_due()

    # ------------------------------------------------------------ starting

    def _new_table(self) -> TournamentTable:
        table = TournamentTable(self, self._next_table)
        self.tables[self._next_table] = table
        self._every_table.append(table)
        self._next_table += 1
        if self.table_opened is not None:
            self.table_opened(table)
        return table

    def _issue_chips(self, name: str) -> None:
        self.chips.transfer(
            EntryKind.CHIPS, Account.bank(), Account.stack(name), self.settings.starting_stack
        )

    def _start(self) -> None:
        players = list(self.registration.players)
        count = tables_needed(len(players), self.settings.seats)
        layout = random_seating(players, tables=count, seats=self.settings.seats, rng=self.rng)
        for seating in layout:
            table = self._new_table()
            for seat, name in seating.items():
                self._issue_chips(name)
                table.take(name, self.settings.starting_stack, seat)
        if count == 1:
            self.final_table = next(iter(self.tables))
        if not self.registration.late_registration_open:
            self._finalize_entrants()

    def _seat_late(self, name: str) -> None:
        self._issue_chips(name)
        open_tables = [t for t in self if not t.closing and t.empty_seats()]
        if open_tables:
            table = min(open_tables, key=lambda t: (len(t), t.number))
        else:
            table = self._new_table()
            self.final_table = None
        seats = table.empty_seats()
        table.take(name, self.settings.starting_stack, seats[self.rng.randrange(len(seats))])
        self._rebalance()

    def _finalize_entrants(self) -> None:
        if self._entrants_final:
            return
        self._entrants_final = True
        self.registration.close_late_registration()
        pool = self.registration.prize_pool
        entrants = self.entrants
        self._prizes = self.settings.payouts.prizes(pool, entrants, unit=self.settings.prize_unit)
        unpaid, self._unpaid = self._unpaid, []
        for group, eliminated_before in unpaid:
            self._place(group, entrants - eliminated_before - len(group) + 1)

    # -------------------------------------------------------------- playing

    @property
    def final_table_forming(self) -> bool:
        """Down to one table: it is drawn afresh once every hand is over, and no table deals
        until then."""
        return self._final_table_pending

    def may_deal(self, table: TournamentTable) -> bool:
        """Whether ``table`` may start a hand now (not during a break or while the final
        table is being formed)."""
        if self._final_table_pending:
            return False
        schedule = self.settings.schedule
        if schedule.unit is LevelUnit.MINUTES:
            point = schedule.at_seconds(self._elapsed())
            if point.on_break:
                return False
            self._level_reached(point.number)
            return True
        point = schedule.at_hands(table.level_hands)
        if table.schedule_index is not None and point.index > table.schedule_index:
            pause = schedule.breaks_between(table.schedule_index, point.index)
            table.schedule_index = point.index
            if pause:
                # A break between levels counted in hands: this table pauses on its own.
                table.paused_until = self.clock.now() + 60 * pause
                return False
        table.schedule_index = point.index
        self._level_reached(point.number)
        return True

    def _level_reached(self, number: int) -> None:
        self.registration.current_level = max(self.registration.current_level, number)
        if (
            not self._entrants_final
            and self.registration.current_level > self.settings.late_registration_level
        ):
            self._finalize_entrants()

    def start_hands(self, waiting: Collection[int] = ()) -> list[TournamentTable]:
        """Deal a hand at every table that can play, but the tables numbered in ``waiting``
        (still showing their last hand); return the tables now in a hand."""
        if self.state is not TournamentState.RUNNING:
            return []
        if self._final_table_pending:
            self._form_final_table()
        for table in list(self.tables.values()):
            if not table.in_hand and table.number not in waiting:
                table.start_hand()
        return [t for t in self.tables.values() if t.in_hand]

    def hand_finished(self, table: TournamentTable, summary: HandSummary) -> None:
        """A hand ended at ``table``: eliminate the players left without chips, balance."""
        out = []
        for position, name in enumerate(summary.names):
            seat = table.player(name)
            if seat.stack > 0:
                continue
            if table.carry.parol_pot and table.carry.shares.get(name, 0) > 0:
                continue  # chips in a parol pot: in until it is won
            out.append((position, name))
        for seat in list(table):
            if (
                seat.stack == 0
                and seat.name not in summary.names
                and not (table.carry.parol_pot and table.carry.shares.get(seat.name, 0) > 0)
            ):
                out.append((len(summary.names), seat.name))
        if out:
            starting = {name: self._start_stack(summary, name) for _, name in out}
            # Busted in the same hand: the bigger stack at the start finishes higher.
            ordered = sorted(out, key=lambda pn: (-starting[pn[1]], pn[0]))
            names = [name for _, name in ordered]
            for name in names:
                table.release(name)
            self._eliminate(names, [starting[n] for n in names])
        if len(self.players_left()) <= 1:
            self._finish()
            return
        self._rebalance()

    def _start_stack(self, summary: HandSummary, name: str) -> int:
        if name not in summary.names:
            return 0
        position = summary.names.index(name)
        return -summary.payoffs[position]

    def _eliminate(self, names: list[str], starting: list[int]) -> None:
        eliminated_before = self._eliminated
        self._eliminated += len(names)
        # Players with equal stacks at the start of the hand share their places' prizes.
        groups: list[list[str]] = []
        previous = None
        for name, stack in zip(names, starting, strict=True):
            if groups and stack == previous:
                groups[-1].append(name)
            else:
                groups.append([name])
            previous = stack
        offset = 0
        for group in groups:
            if self._entrants_final:
                best = self.entrants - eliminated_before - len(names) + 1 + offset
                self._place(group, best)
            else:
                self._unpaid.append((group, eliminated_before + len(names) - offset - len(group)))
            offset += len(group)

    def _place(self, group: list[str], best: int) -> None:
        """Give ``group`` the places from ``best`` down, sharing their prizes equally."""
        prizes = [self._prize(best + i) for i in range(len(group))]
        total = sum(prizes)
        shares = split_prize_pool(total, [1] * len(group)) if total else [0] * len(group)
        for i, name in enumerate(group):
            prize = shares[i]
            if prize:
                self.money.transfer(
                    EntryKind.PRIZE, Account.prize_pool(), Account.player(name), prize
                )
            self.finishes[name] = Finish(name, best + i, prize, self.hands_dealt)

    def _prize(self, place: int) -> int:
        return self._prizes[place - 1] if place <= len(self._prizes) else 0

    def _finish(self) -> None:
        self._finalize_entrants()
        left = self.players_left()
        if left:
            winner = left[0]
            home = next(t for t in self if t.is_seated(winner))
            for table in self:
                pot = self.chips.balance(table.pot_account)
                if pot:
                    # Chips still in a carried pot go to the last player standing.
                    self.chips.transfer(
                        EntryKind.AWARD,
                        table.pot_account,
                        Account.stack(winner),
                        pot,
                        note="carried pot to the winner",
                    )
                    home.player(winner).stack += pot
            self._place([winner], 1)
        self.registration.state = TournamentState.FINISHED

    # ---------------------------------------------------------------- deals

    def _check_deal_possible(self) -> list[Seat]:
        if self.state is not TournamentState.RUNNING:
            raise TournamentStateError(f"the tournament is {self.state.value}")
        if any(t.in_hand for t in self):
            raise TournamentStateError("a deal is made between hands")
        if any(self.chips.balance(t.pot_account) for t in self):
            raise TournamentStateError("a deal waits until the carried pot is won")
        self._finalize_entrants()
        return [s for t in self for s in t]

    def deal_offer(self) -> dict[str, int]:
        """What each player left would get in an ICM deal of the prizes still to pay.

        Malmuth-Harville on the stacks (:mod:`mazziere.room.icm`), rounded to
        the prize unit so that the amounts pay out exactly the prizes left.
        """
        seats = self._check_deal_possible()
        prizes = [self._prize(place) for place in range(1, len(seats) + 1)]
        amounts = icm_deal([s.stack for s in seats], prizes, unit=self.settings.prize_unit)
        return {seat.name: amount for seat, amount in zip(seats, amounts, strict=True)}

    def accept_deal(self, amounts: dict[str, int] | None = None) -> None:
        """End the tournament with a deal: ``amounts`` (default: the ICM offer) are paid,
        places go by chip count, and the chips go back to the bank."""
        seats = self._check_deal_possible()
        offer = amounts if amounts is not None else self.deal_offer()
        remaining = sum(self._prize(place) for place in range(1, len(seats) + 1))
        if set(offer) != {s.name for s in seats}:
            raise TournamentStateError("a deal names every player left, and only them")
        if any(type(a) is not int or a < 0 for a in offer.values()):
            raise TournamentStateError("a deal pays non-negative int amounts")
        if sum(offer.values()) != remaining:
            raise TournamentStateError(
                f"a deal must pay out the {remaining} left in prizes, not {sum(offer.values())}"
            )
        ordered = sorted(seats, key=lambda s: (-s.stack, s.name))
        for place, seat in enumerate(ordered, start=1):
            amount = offer[seat.name]
            if amount:
                self.money.transfer(
                    EntryKind.PRIZE,
                    Account.prize_pool(),
                    Account.player(seat.name),
                    amount,
                    note="deal",
                )
            self.finishes[seat.name] = Finish(seat.name, place, amount, self.hands_dealt)
            if seat.stack:
                self.chips.transfer(
                    EntryKind.CHIPS,
                    Account.stack(seat.name),
                    Account.bank(),
                    seat.stack,
                    note="deal",
                )
                seat.stack = 0
        self.registration.state = TournamentState.FINISHED

    # ----------------------------------------------------------- balancing

    def _rebalance(self) -> None:
        if self.state is not TournamentState.RUNNING or len(self.tables) <= 1:
            return
        for table in self:
            table.closing = False
        if any(self.chips.balance(t.pot_account) for t in self):
            # italian-classic: a pot carried to the next hand (a dead hand, a parol pot)
            # belongs to its table's players; nobody moves until it is won.
            return
        counts = {number: len(table) for number, table in self.tables.items()}
        plan = plan_tables(
            counts, seats=self.settings.seats, max_difference=self.settings.balance_within
        )
        for number in plan.broken:
            self.tables[number].closing = True
        if len(self.tables) - len(plan.broken) == 1:
            # Down to one table: the final table is drawn afresh once every hand is over.
            self._final_table_pending = True
            self._form_final_table()
            return
        for move in plan.moves:
            self._move(move)
        for number in plan.broken:
            table = self.tables[number]
            if not len(table) and not table.in_hand:
                self._close(table)

    def _move(self, move: TableMove) -> None:
        source = self.tables[move.source]
        destination = self.tables[move.destination]
        if source.in_hand or not len(source) or not destination.empty_seats():
            return  # the source table finishes its hand first; the next plan moves them
        seat = source.next_to_pay()
        if seat.stack == 0:
            return
        source.release(seat.name)
        moved = destination.take(seat.name, seat.stack, destination.worst_empty_seat())
        moved.away = seat.away
        moved.bank = seat.bank

    def _close(self, table: TournamentTable) -> None:
        pot = self.chips.balance(table.pot_account)
        if pot:
            raise TournamentStateError(f"{table.name} cannot close with {pot} chips in its pot")
        del self.tables[table.number]

    def _form_final_table(self) -> None:
        if any(t.in_hand for t in self):
            return
        if any(self.chips.balance(t.pot_account) for t in self):
            # italian-classic: a carried pot is played out at its own table first.
            self._final_table_pending = False
            return
        players = [(s.name, s.stack, s.away, t.level_hands) for t in self for s in t]
        hands = max(t.level_hands for t in self)
        for table in list(self.tables.values()):
            for seat in list(table):
                table.release(seat.name)
            del self.tables[table.number]
        final = self._new_table()
        final.level_hands = hands
        names = [name for name, _, _, _ in players]
        layout = random_seating(names, tables=1, seats=self.settings.seats, rng=self.rng)[0]
        by_name = {name: (stack, away) for name, stack, away, _ in players}
        for seat_number, name in layout.items():
            stack, away = by_name[name]
            final.take(name, stack, seat_number).away = away
        self.final_table = final.number
        self._final_table_pending = False
