"""Tournament settings and registration: buy-ins, late registration, start or cancel.

A sit & go starts as soon as it is full.  A scheduled tournament starts at
its time if at least its minimum of players registered; otherwise it is
cancelled and every buy-in and fee is refunded.  Late registration stays open
until the end of a level.  Every buy-in, fee and refund is an entry of the
tournament's money ledger.

>>> from mazziere.room.clock import ManualClock
>>> from mazziere.room.structure import Schedule
>>> settings = TournamentSettings(
...     rules="italian-32", buy_in=1000, fee=100, starting_stack=1500, seats=5,
...     schedule=Schedule.standard("italian-32", starting_stack=1500), min_players=3,
...     starts_at=600.0)
>>> clock = ManualClock()
>>> entries = Registration(settings, clock)
>>> for name in ("ann", "bob"):
...     entries.register(name)
>>> clock.set(600)
>>> entries.start_due()  # two players, three needed
False
>>> entries.state.value, entries.money.balance(Account.player("ann"))
('cancelled', 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from mazziere.room.clock import Clock, TimeSettings
from mazziere.room.errors import (
    NotRegisteredError,
    RegistrationError,
    SettingsError,
    TournamentStateError,
)
from mazziere.room.ledger import Account, EntryKind, Ledger
from mazziere.room.payouts import DEFAULT_PAYOUTS, PayoutTable
from mazziere.room.structure import Schedule
from mazziere.rules import RuleSet, find_rules

__all__ = ["Registration", "TournamentSettings", "TournamentState"]


class TournamentState(StrEnum):
    """Where a tournament is in its life."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """Everything that defines a tournament; ``starts_at=None`` makes it a sit & go.

    Money (``buy_in``, ``fee``) is in cents (or chips for a freeroll's points);
    ``starting_stack`` is in tournament chips.

    >>> TournamentSettings(rules="holdem", buy_in=100, starting_stack=1000, seats=6,
    ...     schedule=Schedule.standard("holdem", starting_stack=1000))
    Traceback (most recent call last):
    ...
    mazziere.room.errors.SettingsError: a sit & go needs max_players (it starts when full)
    """

    rules: RuleSet | str
    buy_in: int
    starting_stack: int
    seats: int
    schedule: Schedule
    fee: int = 0
    min_players: int = 2
    max_players: int | None = None
    starts_at: float | None = None
    late_registration_level: int = 0
    """Registration stays open until the end of this level (0: it closes at the start)."""
    payouts: PayoutTable = DEFAULT_PAYOUTS
    prize_unit: int = 1
    """Prizes are paid in multiples of this (100: whole euros in cents)."""
    time: TimeSettings = field(default_factory=TimeSettings)
    """The clock of its tables; a rule set's own (italian-32's raise window) is always kept."""
    balance_within: int = 1
    """Tables are kept within this many players of each other."""
    name: str = ""

    def __post_init__(self) -> None:
        rules = find_rules(self.rules)
        object.__setattr__(self, "rules", rules)
        if self.time.raise_window_seconds is None and rules.raise_window_seconds is not None:
            # RULES.md §5: italian-32 offers the raise only so long, in tournaments too.
            window = rules.raise_window_seconds
            object.__setattr__(self, "time", replace(self.time, raise_window_seconds=window))
        for label in ("buy_in", "fee"):
            value = getattr(self, label)
            if type(value) is not int or value < 0:
                raise SettingsError(f"{label} must be a non-negative int, not {value!r}")
        if type(self.starting_stack) is not int or self.starting_stack <= 0:
            raise SettingsError(
                f"starting_stack must be a positive int, not {self.starting_stack!r}"
            )
        if type(self.seats) is not int or not 2 <= self.seats <= rules.max_players:
            raise SettingsError(
                f"{rules.name} tables seat 2 to {rules.max_players} players, not {self.seats}"
            )
        if type(self.min_players) is not int or self.min_players < 2:
            raise SettingsError("a tournament needs a minimum of at least 2 players")
        if self.max_players is not None and self.max_players < self.min_players:
            raise SettingsError(
                f"max_players ({self.max_players}) is below min_players ({self.min_players})"
            )
        if self.starts_at is None:
            if self.max_players is None:
                raise SettingsError("a sit & go needs max_players (it starts when full)")
            if self.late_registration_level:
                raise SettingsError("a sit & go has no late registration")
        if type(self.late_registration_level) is not int or self.late_registration_level < 0:
            raise SettingsError("late_registration_level must be a non-negative int")
        if self.balance_within < 1:
            raise SettingsError("tables can be balanced to within 1 player at best")
        largest = self.max_players if self.max_players is not None else self.payouts.max_entrants
        if largest > self.payouts.max_entrants:
            raise SettingsError(
                f"the payout table pays at most {self.payouts.max_entrants} entrants"
            )
        for level in self.schedule.levels:
            level.stakes.check_for(rules)

    @property
    def rule_set(self) -> RuleSet:
        """The rule set (``rules`` as given may be a name)."""
        rules = self.rules
        assert isinstance(rules, RuleSet)
        return rules

    @property
    def sit_and_go(self) -> bool:
        """Whether the tournament starts when full rather than at a time."""
        return self.starts_at is None


class Registration:
    """The players of a tournament before and while late registration is open.

    ``on_start`` is called once when the tournament starts, ``on_late`` for
    each late registration (the runner seats the player); both are optional
    so registration can be used and tested on its own.
    """

    def __init__(
        self,
        settings: TournamentSettings,
        clock: Clock,
        *,
        money: Ledger | None = None,
        on_start: Callable[[], None] | None = None,
        on_late: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.money = money if money is not None else Ledger(settings.name or "tournament")
        self.state = TournamentState.REGISTERING
        self.players: list[str] = []
        """Everyone registered, in order of registration (late ones included)."""
        self.cancel_reason: str | None = None
        self.started_at: float | None = None
        self._on_start = on_start
        self._on_late = on_late
        self._late_open = settings.late_registration_level > 0
        self.current_level = 0
        """The level being played, kept up to date by the runner (0 before the start)."""

    # --- reading ---

    @property
    def prize_pool(self) -> int:
        """The buy-ins collected and not refunded or paid out."""
        return self.money.balance(Account.prize_pool())

    @property
    def late_registration_open(self) -> bool:
        """Whether a player may still register after the start."""
        return (
            self.state is TournamentState.RUNNING
            and self._late_open
            and self.current_level <= self.settings.late_registration_level
        )

    @property
    def accepting(self) -> bool:
        """Whether :meth:`register` would accept a new player now."""
        if self.state is TournamentState.REGISTERING:
            return (
                self.settings.max_players is None or len(self.players) < self.settings.max_players
            )
        return self.late_registration_open and (
            self.settings.max_players is None or len(self.players) < self.settings.max_players
        )

    # --- changing ---

    def register(self, player: str) -> None:
        """Take ``player``'s buy-in and fee; a sit & go that fills up starts at once.

        >>> from mazziere.room.clock import ManualClock
        >>> from mazziere.room.structure import Schedule
        >>> s = TournamentSettings(rules="holdem", buy_in=500, fee=50, starting_stack=1000,
        ...     seats=2, max_players=2, schedule=Schedule.standard("holdem", starting_stack=1000))
        >>> r = Registration(s, ManualClock())
        >>> r.register("ann"); r.register("ann")
        Traceback (most recent call last):
        ...
        mazziere.room.errors.RegistrationError: ann is already registered
        >>> r.register("bob"); r.state.value, r.prize_pool
        ('running', 1000)
        """
        if not isinstance(player, str) or not player.strip():
            raise RegistrationError(f"a player needs a name, not {player!r}")
        if player in self.players:
            raise RegistrationError(f"{player} is already registered")
        if self.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
            raise RegistrationError(f"the tournament is {self.state.value}")
        if self.state is TournamentState.RUNNING and not self.late_registration_open:
            raise RegistrationError("registration is closed")
        if not self.accepting:
            raise RegistrationError(f"the tournament is full ({self.settings.max_players})")
        account = Account.player(player)
        if self.settings.buy_in:
            self.money.transfer(
                EntryKind.BUY_IN, account, Account.prize_pool(), self.settings.buy_in
            )
        if self.settings.fee:
            self.money.transfer(EntryKind.FEE, account, Account.house("fees"), self.settings.fee)
        self.players.append(player)
        if self.state is TournamentState.RUNNING:
            if self._on_late is not None:
                self._on_late(player)
        elif self.settings.sit_and_go and len(self.players) == self.settings.max_players:
            self._start()

    def unregister(self, player: str) -> None:
        """Refund ``player`` before the start.

        >>> from mazziere.room.clock import ManualClock
        >>> from mazziere.room.structure import Schedule
        >>> s = TournamentSettings(rules="holdem", buy_in=500, starting_stack=1000, seats=6,
        ...     max_players=6, schedule=Schedule.standard("holdem", starting_stack=1000))
        >>> r = Registration(s, ManualClock())
        >>> r.register("ann"); r.unregister("ann"); r.prize_pool
        0
        """
        if player not in self.players:
            raise NotRegisteredError(f"{player} is not registered")
        if self.state is not TournamentState.REGISTERING:
            raise RegistrationError("a player can unregister only before the start")
        self._refund(player)
        self.players.remove(player)

    def _refund(self, player: str) -> None:
        account = Account.player(player)
        if self.settings.buy_in:
            self.money.transfer(
                EntryKind.REFUND, Account.prize_pool(), account, self.settings.buy_in
            )
        if self.settings.fee:
            self.money.transfer(
                EntryKind.REFUND, Account.house("fees"), account, self.settings.fee, note="fee"
            )

    def start_due(self) -> bool:
        """For a scheduled tournament: at its time, start it or cancel it; say if it runs.

        Before its time (or for a sit & go) nothing happens.
        """
        if self.state is TournamentState.RUNNING:
            return True
        if self.state is not TournamentState.REGISTERING:
            return False
        starts_at = self.settings.starts_at
        if starts_at is None or self.clock.now() < starts_at:
            return False
        if len(self.players) < self.settings.min_players:
            self.cancel(
                f"{len(self.players)} registered, {self.settings.min_players} needed to start"
            )
            return False
        self._start()
        return True

    def start_now(self) -> None:
        """Start before the scheduled time (the operator's choice); needs the minimum."""
        if self.state is not TournamentState.REGISTERING:
            raise TournamentStateError(f"the tournament is {self.state.value}")
        if len(self.players) < self.settings.min_players:
            raise TournamentStateError(
                f"{len(self.players)} registered, {self.settings.min_players} needed to start"
            )
        self._start()

    def _start(self) -> None:
        self.state = TournamentState.RUNNING
        self.started_at = self.clock.now()
        self.current_level = 1
        if self._on_start is not None:
            self._on_start()

    def close_late_registration(self) -> None:
        """Close late registration for good (the runner calls it after the last late level)."""
        self._late_open = False

    def cancel(self, reason: str) -> None:
        """Cancel before the start and refund every buy-in and fee."""
        if self.state is not TournamentState.REGISTERING:
            raise TournamentStateError(f"a {self.state.value} tournament cannot be cancelled")
        for player in self.players:
            self._refund(player)
        self.state = TournamentState.CANCELLED
        self.cancel_reason = reason
