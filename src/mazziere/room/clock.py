"""Time, injected: the :class:`Clock` protocol, a manual clock, decision timers and time banks.

The room never reads the time itself: whoever drives a table (the server, a
test, the simulator) passes a clock, and the table asks it for ``now()``
(seconds, any origin, never going back).  A decision has a limit; once it is
used up the player's time bank runs; when both are gone the decision has
expired and the table plays the timeout action (check if free, else fold).

>>> clock = ManualClock()
>>> settings = TimeSettings(decision_seconds=10, time_bank_seconds=20)
>>> bank = TimeBank(settings)
>>> timer = DecisionTimer.start(clock.now(), settings, bank)
>>> timer.deadline
30.0
>>> clock.advance(14)
>>> timer.expired(clock.now()), timer.bank_used(clock.now())
(False, 4.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from mazziere.room.errors import SettingsError
from mazziere.rules import RuleSet, find_rules

__all__ = ["Clock", "DecisionTimer", "ManualClock", "TimeBank", "TimeSettings"]


class Clock(Protocol):
    """Anything with ``now()`` in seconds that never goes back (``time.monotonic`` fits)."""

    def now(self) -> float: ...


class ManualClock:
    """A clock that moves only when told to: for tests and offline simulations.

    >>> clock = ManualClock(100)
    >>> clock.advance(2.5)
    >>> clock.now()
    102.5
    >>> clock.advance(-1)
    Traceback (most recent call last):
    ...
    mazziere.room.errors.SettingsError: a clock never goes back (advance by -1)
    """

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The current time."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the time forward by ``seconds``."""
        if seconds < 0:
            raise SettingsError(f"a clock never goes back (advance by {seconds})")
        self._now += seconds

    def set(self, when: float) -> None:
        """Move the time forward to ``when``.

        >>> clock = ManualClock(5)
        >>> clock.set(3)
        Traceback (most recent call last):
        ...
        mazziere.room.errors.SettingsError: a clock never goes back (from 5.0 to 3)
        """
        if when < self._now:
            raise SettingsError(f"a clock never goes back (from {self._now} to {when})")
        self._now = float(when)


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeSettings:
    """A table's time limits (all in seconds).

    >>> TimeSettings(decision_seconds=0)
    Traceback (most recent call last):
    ...
    mazziere.room.errors.SettingsError: decision_seconds must be positive, not 0
    """

    decision_seconds: float = 15.0
    """Time for each decision before the time bank starts to run."""
    time_bank_seconds: float = 30.0
    """Each player's time bank when they sit down."""
    time_bank_refill_seconds: float = 5.0
    """Added to the bank every ``time_bank_refill_hands`` hands dealt to the player."""
    time_bank_refill_hands: int = 10
    time_bank_max_seconds: float = 60.0
    timeouts_to_sit_out: int = 2
    """Consecutive timeouts after which a player is sat out (0: never)."""
    raise_window_seconds: float | None = None
    """Raising is offered only this long into a decision (italian-32: 10 s)."""

    def __post_init__(self) -> None:
        if not self.decision_seconds > 0:
            raise SettingsError(f"decision_seconds must be positive, not {self.decision_seconds}")
        for name in ("time_bank_seconds", "time_bank_refill_seconds", "time_bank_max_seconds"):
            if getattr(self, name) < 0:
                raise SettingsError(f"{name} must not be negative")
        if self.time_bank_seconds > self.time_bank_max_seconds:
            raise SettingsError("the starting time bank exceeds its maximum")
        if type(self.time_bank_refill_hands) is not int or self.time_bank_refill_hands < 1:
            raise SettingsError("time_bank_refill_hands must be a positive int")
        if type(self.timeouts_to_sit_out) is not int or self.timeouts_to_sit_out < 0:
            raise SettingsError("timeouts_to_sit_out must be a non-negative int")
        if self.raise_window_seconds is not None and not self.raise_window_seconds > 0:
            raise SettingsError("raise_window_seconds must be positive (or None)")

    @classmethod
    def for_rules(cls, rules: str | RuleSet, **overrides: Any) -> TimeSettings:
        """The defaults for ``rules`` (italian-32: the 10-second raise window), then
        ``overrides``.

        >>> TimeSettings.for_rules("italian-32").raise_window_seconds
        10
        >>> TimeSettings.for_rules("holdem", decision_seconds=20).raise_window_seconds is None
        True
        """
        values: dict[str, Any] = {"raise_window_seconds": find_rules(rules).raise_window_seconds}
        values.update(overrides)
        return cls(**values)


class TimeBank:
    """One player's time bank and timeout count at a table.

    >>> bank = TimeBank(TimeSettings(time_bank_seconds=10, time_bank_refill_seconds=5,
    ...                              time_bank_refill_hands=2, time_bank_max_seconds=12))
    >>> for _ in range(4):
    ...     bank.hand_dealt()
    >>> bank.seconds
    12.0
    """

    __slots__ = ("_hands", "seconds", "settings", "timeouts")

    def __init__(self, settings: TimeSettings) -> None:
        self.settings = settings
        self.seconds = float(settings.time_bank_seconds)
        self.timeouts = 0
        self._hands = 0

    def hand_dealt(self) -> None:
        """Count a hand dealt to the player; refill the bank when it is due."""
        self._hands += 1
        if self._hands % self.settings.time_bank_refill_hands == 0:
            self.seconds = float(
                min(
                    self.settings.time_bank_max_seconds,
                    self.seconds + self.settings.time_bank_refill_seconds,
                )
            )

    def spend(self, seconds: float) -> None:
        """Take ``seconds`` out of the bank (never below zero)."""
        self.seconds = max(0.0, self.seconds - seconds)

    def timed_out(self) -> bool:
        """Count a timeout; return whether the player must now be sat out."""
        self.timeouts += 1
        limit = self.settings.timeouts_to_sit_out
        return limit > 0 and self.timeouts >= limit

    def acted(self) -> None:
        """A decision made in time: the count of consecutive timeouts starts again."""
        self.timeouts = 0


@dataclass(frozen=True, slots=True)
class DecisionTimer:
    """The clock of one pending decision."""

    started: float
    decision_seconds: float
    bank_seconds: float
    raise_window_seconds: float | None

    @classmethod
    def start(cls, now: float, settings: TimeSettings, bank: TimeBank) -> DecisionTimer:
        """A decision starting at ``now`` with the player's bank as it is."""
        return cls(now, settings.decision_seconds, bank.seconds, settings.raise_window_seconds)

    @property
    def deadline(self) -> float:
        """When the decision expires, if the player uses the whole bank."""
        return self.started + self.decision_seconds + self.bank_seconds

    def expired(self, now: float) -> bool:
        """Whether the time and the bank are used up at ``now``."""
        return now >= self.deadline

    def bank_used(self, now: float) -> float:
        """How much of the bank a decision made at ``now`` uses."""
        return max(0.0, min(self.bank_seconds, now - self.started - self.decision_seconds))

    def time_left(self, now: float) -> float:
        """Seconds left at ``now`` before the bank starts to run.

        >>> DecisionTimer(0.0, 10.0, 5.0, None).time_left(4.0)
        6.0
        """
        return max(0.0, self.started + self.decision_seconds - now)

    def bank_left(self, now: float) -> float:
        """Seconds of the bank left at ``now``.

        >>> DecisionTimer(0.0, 10.0, 5.0, None).bank_left(12.0)
        3.0
        """
        return self.bank_seconds - self.bank_used(now)

    def remaining(self, now: float) -> float:
        """Seconds left, bank included.

        >>> DecisionTimer(0.0, 10.0, 5.0, None).remaining(12.0)
        3.0
        """
        return max(0.0, self.deadline - now)

    def raise_allowed(self, now: float) -> bool:
        """Whether raising is still offered at ``now`` (italian-32's raise window).

        >>> timer = DecisionTimer(0.0, 15.0, 0.0, 10.0)
        >>> timer.raise_allowed(9.9), timer.raise_allowed(10.0)
        (True, False)
        """
        return self.raise_window_seconds is None or now - self.started < self.raise_window_seconds

    def raise_left(self, now: float) -> float | None:
        """Seconds left at ``now`` in which raising is offered (``None``: no raise window
        runs, raising is offered for the whole decision).

        >>> timer = DecisionTimer(0.0, 15.0, 0.0, 10.0)
        >>> timer.raise_left(4.0), timer.raise_left(12.0)
        (6.0, 0.0)
        >>> DecisionTimer(0.0, 15.0, 0.0, None).raise_left(4.0) is None
        True
        """
        if self.raise_window_seconds is None:
            return None
        return max(0.0, self.started + self.raise_window_seconds - now)
