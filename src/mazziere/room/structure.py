"""Stakes and tournament structures: levels of blinds, antes and invito, and breaks.

:class:`Stakes` are the forced bets of one table, whatever the game:

* ``holdem``: ``small_blind``, ``big_blind`` and an optional ``ante``;
* ``italian-classic``: ``ante`` is the invito (every player's entry to the
  hand); the minimum opening bet is the invito unless ``min_bet`` says
  otherwise;
* ``italian-32``: ``small_blind`` is the buio, ``big_blind`` the controbuio
  (twice the buio), and the over (with four or five players) is twice the
  controbuio.

A :class:`Schedule` lists levels and breaks; levels last a number of minutes
or a number of hands.  Past its last level a schedule stays on the last one.

>>> schedule = Schedule.standard("holdem", starting_stack=1500, unit="hands", length=10)
>>> schedule.level(1).stakes
Stakes(small_blind=15, big_blind=30, ante=0)
>>> [schedule.level(n).stakes.big_blind for n in (2, 3, 4)]
[40, 60, 100]
>>> schedule.at_hands(25).number  # hands 21..30 are level 3
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from mazziere.room.errors import ScheduleError
from mazziere.rules import Game, RuleSet, find_rules

__all__ = [
    "Break",
    "ForcedBets",
    "Level",
    "LevelUnit",
    "Schedule",
    "SchedulePoint",
    "Stakes",
    "forced_bets",
    "nice_amount",
]


class ForcedBets(StrEnum):
    """Which forced bets a table of a rule set takes before the deal."""

    BLINDS = "blinds"
    """Small and big blind, optionally an ante from everyone (Hold'em)."""
    INVITO = "invito"
    """The invito from everyone, no blinds (italian-classic)."""
    BUIO = "buio"
    """Buio, controbuio and, with enough players, the over (italian-32)."""


def forced_bets(rules: str | RuleSet) -> ForcedBets:
    """The forced bets of ``rules``, read from its data.

    >>> [forced_bets(r).value for r in ("holdem", "italian-classic", "italian-32")]
    ['blinds', 'invito', 'buio']
    """
    rule_set = find_rules(rules)
    if rule_set.uses_invito:
        return ForcedBets.INVITO
    if rule_set.forced_blinds:
        return ForcedBets.BUIO
    if rule_set.game is Game.HOLDEM:
        return ForcedBets.BLINDS
    raise ScheduleError(f"{rule_set.name} has neither an invito nor blinds")


@dataclass(frozen=True, kw_only=True, slots=True)
class Stakes:
    """The forced bets of a table (see the module's docstring for each game).

    >>> Stakes(small_blind=5, big_blind=10)
    Stakes(small_blind=5, big_blind=10, ante=0)
    >>> Stakes(big_blind=-1)
    Traceback (most recent call last):
    ...
    mazziere.room.errors.ScheduleError: stakes must be non-negative ints: big_blind=-1
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    min_bet: int | None = field(default=None, repr=False)
    """The smallest bet (Italian opening bet); ``None`` means the game's default."""

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ScheduleError(f"stakes must be non-negative ints: {name}={value!r}")
        if self.min_bet is not None and (type(self.min_bet) is not int or self.min_bet <= 0):
            raise ScheduleError(f"min_bet must be a positive int, not {self.min_bet!r}")

    def check_for(self, rules: str | RuleSet) -> None:
        """Raise :class:`ScheduleError` unless these stakes fit ``rules``.

        >>> Stakes(ante=10).check_for("holdem")
        Traceback (most recent call last):
        ...
        mazziere.room.errors.ScheduleError: holdem needs a big blind of at least 1
        >>> Stakes(small_blind=5, big_blind=10).check_for("italian-classic")
        Traceback (most recent call last):
        ...
        mazziere.room.errors.ScheduleError: italian-classic uses an invito (ante) and no blinds
        """
        rule_set = find_rules(rules)
        kind = forced_bets(rule_set)
        if kind is ForcedBets.INVITO:
            if self.small_blind or self.big_blind:
                raise ScheduleError(f"{rule_set.name} uses an invito (ante) and no blinds")
            if self.ante < 1:
                raise ScheduleError(f"{rule_set.name} needs an invito (ante) of at least 1")
            return
        if self.big_blind < 1:
            raise ScheduleError(f"{rule_set.name} needs a big blind of at least 1")
        if self.small_blind > self.big_blind:
            raise ScheduleError(
                f"the small blind ({self.small_blind}) exceeds the big blind ({self.big_blind})"
            )
        if kind is ForcedBets.BUIO:
            if self.small_blind < 1 or self.big_blind != 2 * self.small_blind:
                raise ScheduleError(
                    f"{rule_set.name}: the controbuio is twice the buio "
                    f"(got {self.small_blind}/{self.big_blind})"
                )
            if self.ante:
                raise ScheduleError(f"{rule_set.name} has no ante")

    def scaled(self, numerator: int, denominator: int = 1) -> Stakes:
        """These stakes times ``numerator / denominator``, rounded to nice amounts.

        >>> Stakes(small_blind=10, big_blind=20, ante=2).scaled(3, 2)
        Stakes(small_blind=15, big_blind=30, ante=3)
        """
        return Stakes(
            small_blind=nice_amount(self.small_blind * numerator / denominator),
            big_blind=nice_amount(self.big_blind * numerator / denominator),
            ante=nice_amount(self.ante * numerator / denominator),
        )

    def describe(self, rules: str | RuleSet, players: int | None = None) -> str:
        """The stakes in the words of ``rules``; with ``players`` (at the table), only the
        blinds a hand of that many takes.

        >>> Stakes(small_blind=5, big_blind=10, ante=1).describe("holdem")
        'blinds 5/10, ante 1'
        >>> Stakes(ante=10).describe("italian-classic")
        'invito 10'
        >>> Stakes(small_blind=5, big_blind=10).describe("italian-32")
        'buio 5, controbuio 10, over 20'
        >>> Stakes(small_blind=5, big_blind=10).describe("italian-32", players=3)
        'buio 5, controbuio 10'
        """
        kind = forced_bets(rules)
        if kind is ForcedBets.INVITO:
            return f"invito {self.ante}"
        if kind is ForcedBets.BUIO:
            units = _blinds_taken(find_rules(rules), players)
            return ", ".join(
                f"{name} {self.small_blind * unit}"
                for name, unit in zip(_BLIND_NAMES, units, strict=False)
            )
        text = f"blinds {self.small_blind}/{self.big_blind}"
        return text + (f", ante {self.ante}" if self.ante else "")


_BLIND_NAMES = ("buio", "controbuio", "over")
"""The forced blinds of italian-32, in the order they are posted."""


def _blinds_taken(rule_set: RuleSet, players: int | None) -> tuple[int, ...]:
    """The forced blinds (in buios) of a hand of ``players``: the over only with four or five
    (a table waiting for a second player: heads up's); without ``players``, every blind."""
    ladders = rule_set.forced_blinds
    if players is None:
        return max(ladders.values(), key=len)
    return ladders[min(max(players, min(ladders)), max(ladders))]


_NICE_STEPS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)


def nice_amount(amount: float) -> int:
    """``amount`` rounded to the nearest of 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30...

    >>> [nice_amount(x) for x in (0, 0.4, 7.5, 13, 33, 170, 2600)]
    [0, 1, 8, 12, 30, 150, 2500]
    """
    if amount <= 0:
        return 0
    if amount < 10:
        steps = (1, 2, 3, 4, 5, 6, 8, 10)
        return min(steps, key=lambda s: (abs(s - amount), s))
    scale = 1
    while amount >= 100 * scale:
        scale *= 10
    return min((s * scale for s in _NICE_STEPS), key=lambda s: (abs(s - amount), s))


class LevelUnit(StrEnum):
    """What a level's length counts."""

    MINUTES = "minutes"
    HANDS = "hands"


@dataclass(frozen=True, slots=True)
class Level:
    """A level of play: its stakes and its length (minutes or hands, per the schedule)."""

    stakes: Stakes
    length: int


@dataclass(frozen=True, slots=True)
class Break:
    """A pause between levels, always in minutes."""

    minutes: int


@dataclass(frozen=True, slots=True)
class SchedulePoint:
    """Where a tournament stands in its schedule.

    ``number`` is the level number (1 for the first level; during a break,
    the number of the level that follows it); ``remaining`` is what is left of
    the level or break, in its unit (seconds for time, hands for hands).
    """

    index: int
    number: int
    stakes: Stakes
    on_break: bool
    remaining: float


@dataclass(frozen=True, init=False)
class Schedule:
    """Levels and breaks in order; the last level lasts for ever.

    >>> Schedule([Level(Stakes(big_blind=2, small_blind=1), 0)])
    Traceback (most recent call last):
    ...
    mazziere.room.errors.ScheduleError: level 1 has length 0; lengths are positive ints
    """

    items: tuple[Level | Break, ...]
    unit: LevelUnit

    def __init__(
        self, items: Sequence[Level | Break], unit: LevelUnit | str = LevelUnit.MINUTES
    ) -> None:
        try:
            level_unit = LevelUnit(unit)
        except ValueError:
            raise ScheduleError(f"a level lasts 'minutes' or 'hands', not {unit!r}") from None
        items = tuple(items)
        if not any(isinstance(item, Level) for item in items):
            raise ScheduleError("a schedule needs at least one level")
        if isinstance(items[0], Break):
            raise ScheduleError("a schedule starts with a level, not a break")
        number = 0
        for item in items:
            if isinstance(item, Level):
                number += 1
                if type(item.length) is not int or item.length <= 0:
                    raise ScheduleError(
                        f"level {number} has length {item.length!r}; lengths are positive ints"
                    )
            elif type(item.minutes) is not int or item.minutes <= 0:
                raise ScheduleError(f"a break after level {number} must last a positive int")
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "unit", level_unit)

    @classmethod
    def standard(
        cls,
        rules: str | RuleSet,
        *,
        starting_stack: int,
        unit: LevelUnit | str = LevelUnit.MINUTES,
        length: int = 10,
        levels: int = 20,
        depth: int = 50,
        growth: tuple[int, int] = (3, 2),
        ante_from: int = 4,
        break_every: int = 0,
        break_minutes: int = 5,
    ) -> Schedule:
        """A usual schedule for ``rules``: the first level ``depth`` big bets deep.

        Each level multiplies the stakes by ``growth`` (3/2 by default) with
        nice rounding; Hold'em adds an ante of about one eighth of the big
        blind, as nicely rounded (30 at 250, not 31), from level ``ante_from``
        (0: never).  A break of ``break_minutes``
        follows every ``break_every`` levels (0: no breaks).

        >>> s = Schedule.standard("italian-classic", starting_stack=1000, unit="hands", length=5)
        >>> [s.level(n).stakes.ante for n in (1, 2, 3)]
        [20, 30, 40]
        >>> s = Schedule.standard("holdem", starting_stack=1500, unit="hands", length=3)
        >>> [s.level(n).stakes.ante for n in (5, 6, 7, 11)]
        [20, 30, 40, 200]
        >>> s = Schedule.standard("italian-32", starting_stack=2000)
        >>> s.level(1).stakes
        Stakes(small_blind=20, big_blind=40, ante=0)
        """
        rule_set = find_rules(rules)
        if type(starting_stack) is not int or starting_stack < 2 * depth:
            raise ScheduleError(f"a starting stack of {starting_stack!r} is too small")
        if levels < 1:
            raise ScheduleError("a schedule needs at least one level")
        numerator, denominator = growth
        if numerator <= denominator or denominator <= 0:
            raise ScheduleError("growth must be a fraction above 1")
        base = starting_stack / depth
        items: list[Level | Break] = []
        previous = 0
        for number in range(1, levels + 1):
            amount = nice_amount(base)
            if amount <= previous:
                amount = nice_amount(previous * 1.2 + 1)
            previous = amount
            if forced_bets(rule_set) is ForcedBets.INVITO:
                stakes = Stakes(ante=amount)
            elif forced_bets(rule_set) is ForcedBets.BUIO:
                half = max(1, amount // 2)
                stakes = Stakes(small_blind=half, big_blind=2 * half)
            else:
                ante = nice_amount(amount / 8) if ante_from and number >= ante_from else 0
                stakes = Stakes(small_blind=max(1, amount // 2), big_blind=amount, ante=ante)
            items.append(Level(stakes, length))
            if break_every and number % break_every == 0 and number < levels:
                items.append(Break(break_minutes))
            base = base * numerator / denominator
        return cls(items, unit)

    # --- reading ---

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels without the breaks."""
        return tuple(item for item in self.items if isinstance(item, Level))

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the last, the last.

        >>> Schedule([Level(Stakes(ante=5), 3)], "hands").level(9).stakes.ante
        5
        """
        levels = self.levels
        if number < 1:
            raise ScheduleError(f"levels are numbered from 1, not {number}")
        return levels[min(number, len(levels)) - 1]

    def _number_at(self, index: int) -> int:
        return sum(1 for item in self.items[: index + 1] if isinstance(item, Level)) + (
            1 if isinstance(self.items[index], Break) else 0
        )

    def _stakes_at(self, index: int) -> Stakes:
        for item in self.items[index:]:
            if isinstance(item, Level):
                return item.stakes
        return self.levels[-1].stakes  # pragma: no cover - a schedule never ends on a break

    def stakes_after(self, index: int) -> Stakes | None:
        """The stakes of the first level after item ``index`` (``None``: the last level,
        which lasts for ever).

        >>> s = Schedule([Level(Stakes(ante=5), 10), Break(5), Level(Stakes(ante=10), 10)])
        >>> s.stakes_after(0).ante, s.stakes_after(2)
        (10, None)
        """
        for item in self.items[index + 1 :]:
            if isinstance(item, Level):
                return item.stakes
        return None

    def at_seconds(self, elapsed: float) -> SchedulePoint:
        """Where a schedule by minutes stands ``elapsed`` seconds after the start.

        During a break, ``stakes`` are those of the level after it.

        >>> s = Schedule([Level(Stakes(ante=5), 10), Break(5), Level(Stakes(ante=10), 10)])
        >>> p = s.at_seconds(12 * 60)
        >>> p.on_break, p.number, p.stakes.ante, p.remaining
        (True, 2, 10, 180.0)
        """
        if self.unit is not LevelUnit.MINUTES:
            raise ScheduleError("this schedule counts hands, not minutes")
        if elapsed < 0:
            raise ScheduleError(f"elapsed time must not be negative, got {elapsed}")
        start = 0.0
        for index, item in enumerate(self.items):
            seconds = 60.0 * (item.length if isinstance(item, Level) else item.minutes)
            is_last = index == len(self.items) - 1
            if elapsed < start + seconds or is_last:
                remaining = float("inf") if is_last else start + seconds - elapsed
                return SchedulePoint(
                    index,
                    self._number_at(index),
                    self._stakes_at(index),
                    isinstance(item, Break),
                    remaining,
                )
            start += seconds
        raise AssertionError("unreachable")  # pragma: no cover

    def at_hands(self, played: int) -> SchedulePoint:
        """The level of the next hand after ``played`` hands (a schedule by hands).

        Breaks are not counted in hands: the caller pauses for them (see
        :meth:`breaks_between`).

        >>> s = Schedule([Level(Stakes(ante=5), 2), Break(5), Level(Stakes(ante=10), 2)], "hands")
        >>> [s.at_hands(n).stakes.ante for n in range(5)]
        [5, 5, 10, 10, 10]
        """
        if self.unit is not LevelUnit.HANDS:
            raise ScheduleError("this schedule counts minutes, not hands")
        if played < 0:
            raise ScheduleError(f"hands played must not be negative, got {played}")
        start = 0
        levels = [(i, item) for i, item in enumerate(self.items) if isinstance(item, Level)]
        for position, (index, level) in enumerate(levels):
            is_last = position == len(levels) - 1
            if played < start + level.length or is_last:
                remaining = float("inf") if is_last else float(start + level.length - played)
                return SchedulePoint(index, position + 1, level.stakes, False, remaining)
            start += level.length
        raise AssertionError("unreachable")  # pragma: no cover

    def breaks_between(self, before: int, after: int) -> int:
        """Minutes of break between item ``before`` and item ``after`` (indices).

        >>> s = Schedule([Level(Stakes(ante=5), 2), Break(5), Level(Stakes(ante=10), 2)], "hands")
        >>> s.breaks_between(0, 2), s.breaks_between(2, 2)
        (5, 0)
        """
        return sum(
            item.minutes for item in self.items[before + 1 : after] if isinstance(item, Break)
        )
