"""Bots playing offline: cash sessions and tournaments, on a manual clock.

Used by ``mazziere simulate`` and by the test suite.  A cash session churns
like a real table (players sit out and come back, leave, join, top up,
rebuy, time out, lose the connection) while bots play; a tournament runs to
a single winner.  Both check the ledger as they go.

>>> report = simulate_cash("italian-32", players=4, hands=30, seed=1)
>>> report.hands, report.ledger_total
(30, 0)
>>> result = simulate_tournament("holdem", players=6, seed=2)
>>> sorted(result.places.values()) == list(range(1, 7)), result.ledger_total
(True, 0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mazziere.bots.base import Bot, Situation, make_bot
from mazziere.room.cash import CashSettings, CashTable
from mazziere.room.clock import ManualClock, TimeSettings
from mazziere.room.errors import RoomError
from mazziere.room.ledger import Account
from mazziere.room.registration import TournamentSettings, TournamentState
from mazziere.room.structure import ForcedBets, Schedule, Stakes, forced_bets
from mazziere.room.table import OfferKind, SeatStatus, Table
from mazziere.room.tournament import Tournament
from mazziere.rules import RuleSet, find_rules

__all__ = [
    "CashReport",
    "TournamentReport",
    "default_stakes",
    "play_until_done",
    "simulate_cash",
    "simulate_tournament",
]

Progress = Callable[[int], None]
"""Called with the number of hands (or tournaments) just completed."""


@dataclass(slots=True)
class CashReport:
    """What a cash session did."""

    rules: str
    hands: int = 0
    seconds: float = 0.0
    showdowns: int = 0
    timeouts: int = 0
    decisions: int = 0
    rake: int = 0
    carried: int = 0
    """Chips left in the pot when the session ended (an italian-classic carried pot)."""
    joins: int = 0
    leaves: int = 0
    sit_outs: int = 0
    rebuys: int = 0
    ledger_total: int = 0
    ledger_entries: int = 0
    won: dict[str, int] = field(default_factory=dict)
    """Chips each player won (negative: lost), money in and out of the table."""
    bots: dict[str, str] = field(default_factory=dict)
    """Each player's bot kind."""

    @property
    def hands_per_second(self) -> float:
        """Hands dealt per second of wall time."""
        return self.hands / self.seconds if self.seconds else 0.0


@dataclass(slots=True)
class TournamentReport:
    """What one or more tournaments did."""

    rules: str
    tournaments: int = 0
    hands: int = 0
    seconds: float = 0.0
    showdowns: int = 0
    decisions: int = 0
    ledger_total: int = 0
    places: dict[str, int] = field(default_factory=dict)
    """The last tournament's places."""
    prizes: dict[str, int] = field(default_factory=dict)
    """Prize money won by each player over all the tournaments."""
    bots: dict[str, str] = field(default_factory=dict)
    winners: dict[str, int] = field(default_factory=dict)
    """Tournaments won by each bot kind."""
    entrants: list[int] = field(default_factory=list)
    """Each tournament's number of players."""

    @property
    def hands_per_second(self) -> float:
        """Hands dealt per second of wall time."""
        return self.hands / self.seconds if self.seconds else 0.0


def default_stakes(rules: str | RuleSet, big: int = 10) -> Stakes:
    """Usual stakes for ``rules`` around a big bet of ``big``.

    >>> default_stakes("italian-classic"), default_stakes("italian-32", 20)
    (Stakes(small_blind=0, big_blind=0, ante=10), Stakes(small_blind=10, big_blind=20, ante=0))
    """
    kind = forced_bets(rules)
    if kind is ForcedBets.INVITO:
        return Stakes(ante=big)
    return Stakes(small_blind=big // 2, big_blind=big)


def _big_bet(table: Table) -> int:
    stakes = table.current_stakes()
    return max(stakes.big_blind, stakes.ante, 1)


def _act(table: Table, bots: dict[str, Bot]) -> None:
    decision = table.decision
    assert decision is not None and table.hand is not None and table.plan is not None
    view = table.hand.view(decision.position)
    situation = Situation(
        table.rules, decision.position, table.plan.players, view, decision.legal, _big_bet(table)
    )
    action = bots[decision.name].act(situation)
    table.act(decision.name, action)


def _answer_offers(table: Table, bots: dict[str, Bot], rng: random.Random) -> None:
    for offer in list(table.offers.values()):
        bot = bots[offer.name]
        if offer.kind is OfferKind.REJOIN:
            accept = bot.wants_rejoin(offer.amount, table.player(offer.name).stack)
        else:
            accept = rng.randrange(20) != 0
        table.answer(offer.name, accept)


def play_until_done(
    table: Table,
    bots: dict[str, Bot],
    clock: ManualClock,
    rng: random.Random,
    *,
    timeout_percent: int = 0,
) -> None:
    """Play ``table``'s current hand to its end; now and then let a decision time out.

    >>> from mazziere.room.cash import CashSettings, CashTable
    >>> clock, rng = ManualClock(), random.Random(3)
    >>> table = CashTable(CashSettings(rules="holdem", seats=3, stakes=default_stakes("holdem"),
    ...                   min_buy_in=100, max_buy_in=500), clock=clock, rng=rng)
    >>> for name in ("a", "b"):
    ...     _ = table.sit_down(name, 500)
    >>> table.start_hand()
    True
    >>> play_until_done(table, {n: make_bot("random", rng) for n in "ab"}, clock, rng)
    >>> table.in_hand, table.chips_on_table()
    (False, 1000)
    """
    while table.in_hand:
        _step(table, bots, clock, rng, timeout_percent)


def _step(
    table: Table, bots: dict[str, Bot], clock: ManualClock, rng: random.Random, timeout_percent: int
) -> None:
    """One decision at ``table``: a bot acts after a few seconds, or lets its time run out."""
    decision = table.decision
    assert decision is not None
    if timeout_percent and rng.randrange(100) < timeout_percent:
        clock.set(max(clock.now(), decision.timer.deadline))
        table.advance()
        return
    clock.advance(1 + rng.randrange(4))
    if decision.timer.expired(clock.now()):
        table.advance()  # the other tables took its time
        return
    _act(table, bots)


def simulate_cash(
    rules: str | RuleSet,
    *,
    players: int,
    hands: int,
    seed: int | None = None,
    bots: Sequence[str] = ("basic", "random"),
    churn: bool = True,
    stakes: Stakes | None = None,
    progress: Progress | None = None,
) -> CashReport:
    """Deal ``hands`` hands at one cash table of ``rules`` with ``players`` bots.

    With ``churn`` players sit out and come back, leave and are replaced,
    top up, rebuy or leave when broke, time out and disconnect, at random.

    >>> report = simulate_cash("holdem", players=3, hands=20, seed=4, churn=False)
    >>> report.hands, report.ledger_total
    (20, 0)
    >>> sum(report.won.values()) + report.rake + report.carried
    0
    """
    rule_set = find_rules(rules)
    rng = random.Random(seed)
    clock = ManualClock()
    table_stakes = stakes or default_stakes(rule_set)
    big = max(table_stakes.big_blind, table_stakes.ante)
    seats = max(players, min(rule_set.max_players, players + (1 if churn else 0)))
    settings = CashSettings(
        rules=rule_set,
        seats=seats,
        stakes=table_stakes,
        min_buy_in=40 * big,
        max_buy_in=200 * big,
        time=TimeSettings.for_rules(rule_set, decision_seconds=15, timeouts_to_sit_out=3),
        rebuy_seconds=30,
        keep_hands=0,
        name="sim",
    )
    table = CashTable(settings, clock=clock, rng=rng)
    report = CashReport(rules=rule_set.name)
    brains: dict[str, Bot] = {}
    # A pool of regulars a little larger than the table: they come and go.
    pool = [f"bot{i}" for i in range(1, players + (3 if churn else 1))]
    for index, name in enumerate(pool):
        kind = bots[index % len(bots)]
        brains[name] = make_bot(kind, rng)
        report.bots[name] = kind

    def join() -> None:
        away = [name for name in pool if not table.is_seated(name)]
        if not away or not table.empty_seats():
            return
        name = away[rng.randrange(len(away))]
        buy_in = rng.randint(settings.min_buy_in, settings.max_buy_in)
        table.sit_down(name, buy_in, post=rng.randrange(2) == 0)
        report.joins += 1

    for _ in range(players):
        join()
    started = time.perf_counter()
    idle = 0
    while report.hands < hands:
        if churn:
            _churn(table, rng, report, join, players)
        if not table.start_hand():
            if table.offers:
                _answer_offers(table, brains, rng)
                continue
            idle += 1
            clock.advance(31)  # let rebuy offers run out, bring players back
            for seat in list(table):
                if seat.status is SeatStatus.SITTING_OUT:
                    table.sit_in(seat.name, post=rng.randrange(2) == 0)
            if len(table) < 2:
                join()
            if idle > 1000:
                raise RoomError("the cash table stopped dealing")
            continue
        play_until_done(table, brains, clock, rng, timeout_percent=2 if churn else 0)
        report.hands += 1
        if progress is not None:
            progress(1)
        if churn:
            for seat in list(table):
                if seat.status is SeatStatus.BUSTED:
                    if rng.randrange(3):
                        table.rebuy(seat.name, settings.min_buy_in)
                        report.rebuys += 1
                    else:
                        table.leave(seat.name)
                        report.leaves += 1
    report.seconds = time.perf_counter() - started
    for seat in list(table):
        table.leave(seat.name)
    table.ledger.check()
    report.showdowns = table.stats.showdowns
    report.timeouts = table.stats.timeouts
    report.decisions = table.stats.decisions
    report.rake = table.ledger.balance(Account.house("rake"))
    report.carried = table.ledger.balance(table.pot_account)
    report.ledger_total = table.ledger.total()
    report.ledger_entries = len(table.ledger)
    for name in report.bots:
        report.won[name] = table.ledger.balance(Account.player(name))
    return report


def _churn(
    table: CashTable,
    rng: random.Random,
    report: CashReport,
    join: Callable[[], None],
    players: int,
) -> None:
    seated = list(table)
    roll = rng.randrange(100)
    if roll < 3 and seated:
        seat = seated[rng.randrange(len(seated))]
        if seat.status not in (SeatStatus.SITTING_OUT, SeatStatus.BUSTED):
            table.sit_out(seat.name)
            report.sit_outs += 1
    elif roll < 9:
        for seat in seated:
            if seat.status is SeatStatus.SITTING_OUT:
                table.sit_in(seat.name, post=rng.randrange(2) == 0)
                break
    elif roll < 11 and len(seated) > 2:
        table.leave(seated[rng.randrange(len(seated))].name)
        report.leaves += 1
    elif roll < 15 and table.empty_seats() and len(seated) < players + 1:
        join()
    elif roll < 17 and seated:
        seat = seated[rng.randrange(len(seated))]
        room = table.settings.max_buy_in - seat.stack
        if room > 0 and seat.status is not SeatStatus.BUSTED:
            table.top_up(seat.name, rng.randint(1, room))
    elif roll < 19 and seated:
        seat = seated[rng.randrange(len(seated))]
        if seat.connected:
            table.disconnect(seat.name)
        else:
            table.reconnect(seat.name)
    if len(table) < 2:
        join()


def _tournament_settings(
    rule_set: RuleSet, players: int, rng: random.Random, *, quick: bool
) -> TournamentSettings:
    seats_choices = [s for s in (2, 3, 4, 5, 6, 9) if s <= rule_set.max_players]
    seats = seats_choices[rng.randrange(len(seats_choices))] if quick else rule_set.max_players
    unit = "hands" if rng.randrange(2) else "minutes"
    stack = rng.choice((300, 500, 800)) if quick else 1500
    depth = 20 if quick else 50
    length = rng.choice((4, 6, 8)) if unit == "hands" else rng.choice((2, 3, 5))
    schedule = Schedule.standard(
        rule_set,
        starting_stack=stack,
        unit=unit,
        length=length,
        depth=depth,
        break_every=rng.choice((0, 3)),
        break_minutes=2,
    )
    return TournamentSettings(
        rules=rule_set,
        buy_in=rng.choice((0, 500, 1000, 2500)),
        fee=rng.choice((0, 50)),
        starting_stack=stack,
        seats=seats,
        schedule=schedule,
        max_players=players,
        min_players=2,
        time=TimeSettings.for_rules(rule_set, decision_seconds=10, timeouts_to_sit_out=2),
        prize_unit=rng.choice((1, 5)),
        name="sim",
    )


def simulate_tournament(
    rules: str | RuleSet,
    *,
    players: int,
    seed: int | None = None,
    count: int = 1,
    bots: Sequence[str] = ("basic", "random"),
    quick: bool = True,
    players_max: int | None = None,
    progress: Progress | None = None,
) -> TournamentReport:
    """Run ``count`` sit & go tournaments of ``rules`` to a single winner.

    With ``quick`` each has random settings (table size, levels by minutes
    or hands, short stacks, breaks, buy-ins) and between ``players`` and
    ``players_max`` entrants.

    >>> report = simulate_tournament("italian-32", players=4, players_max=5, count=2, seed=1)
    >>> report.tournaments, report.ledger_total, all(4 <= n <= 5 for n in report.entrants)
    (2, 0, True)
    """
    rule_set = find_rules(rules)
    rng = random.Random(seed)
    report = TournamentReport(rules=rule_set.name)
    started = time.perf_counter()
    for _ in range(count):
        entrants = rng.randint(players, players_max) if players_max else players
        settings = _tournament_settings(rule_set, entrants, rng, quick=quick)
        clock = ManualClock()
        event = Tournament(settings, clock=clock, rng=rng)
        brains: dict[str, Bot] = {}
        for number in range(1, entrants + 1):
            name = f"bot{number}"
            kind = bots[(number - 1) % len(bots)]
            brains[name] = make_bot(kind, rng)
            report.bots[name] = kind
            event.register(name)
        _run_tournament(event, brains, clock, rng)
        if event.state is not TournamentState.FINISHED:
            raise RoomError("the tournament did not finish")
        _check_tournament(event, entrants)
        report.tournaments += 1
        report.entrants.append(entrants)
        report.hands += event.hands_dealt
        report.ledger_total += event.money.total() + event.chips.total()
        report.places = {f.name: f.place for f in event.standings()}
        for finish in event.standings():
            report.prizes[finish.name] = report.prizes.get(finish.name, 0) + finish.prize
            if finish.place == 1:
                kind = report.bots[finish.name]
                report.winners[kind] = report.winners.get(kind, 0) + 1
        report.showdowns += sum(t.stats.showdowns for t in event.every_table())
        report.decisions += sum(t.stats.decisions for t in event.every_table())
        if progress is not None:
            progress(1)
    report.seconds = time.perf_counter() - started
    return report


def _check_tournament(event: Tournament, entrants: int) -> None:
    """Raise :class:`RoomError` unless ``event`` ended as it must: places 1..n, every chip
    with the winner, the prize pool paid out, both ledgers balanced."""
    places = sorted(f.place for f in event.standings())
    if places != list(range(1, entrants + 1)):
        raise RoomError(f"places {places} for {entrants} entrants")
    if event.money.balance(Account.prize_pool()) != 0:
        raise RoomError("the prize pool was not paid out")
    winner = event.standings()[0].name
    issued = -event.chips.balance(Account.bank())
    if event.chips.balance(Account.stack(winner)) != issued:
        raise RoomError("the winner does not hold every chip")
    event.money.check()
    event.chips.check()


def _run_tournament(
    event: Tournament, bots: dict[str, Bot], clock: ManualClock, rng: random.Random
) -> None:
    idle = 0
    while event.state is TournamentState.RUNNING:
        tables = event.start_hands()
        if not tables:
            offered = False
            for table in event:
                if table.offers:
                    _answer_offers(table, bots, rng)
                    offered = True
            if not offered:
                clock.advance(30)  # a break, or a table waiting for its players
                idle += 1
                if idle > 10_000:
                    raise RoomError("the tournament stopped dealing")
            continue
        for table in tables:
            # Now and then a player steps away, and comes back a few hands later.
            if rng.randrange(50) == 0 and len(table):
                seats = list(table)
                seat = seats[rng.randrange(len(seats))]
                if seat.away:
                    table.sit_in(seat.name)
                else:
                    table.sit_out(seat.name)
        # The tables play at the same time: one decision at each in turn.
        while tables:
            for table in tables:
                _step(table, bots, clock, rng, 1)
            tables = [t for t in tables if t.in_hand]
        for table in event:
            for seat in table:
                if seat.away and rng.randrange(4) == 0:
                    table.sit_in(seat.name)
