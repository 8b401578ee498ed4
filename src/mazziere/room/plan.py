"""Who is dealt into the next hand, where the button goes, who posts what.

This is the table's bookkeeping between hands, kept apart from the table so
that every rule can be tested on its own:

* **The button moves one seat left each hand among the players in the game**
  (RULES.md §1, seed 001): it goes to the next player clockwise who is dealt
  in as a regular.  Seats of players sitting out are skipped (a *moving*
  button, not a dead one; ``docs/room.md`` says why).
* **Blinds** follow the button: in Hold'em the small and big blind (heads-up
  the button posts the small blind), in italian-32 the buio, controbuio and,
  with four or more players, the over.  italian-classic has no blinds.
* **Coming in** (a new player, or one back after missing blinds): a player
  either *waits* for the last blind (the big blind, the over) to reach their
  seat, or *posts* to be dealt in at once: a new player posts the last blind;
  a returning one posts what they missed (Hold'em: the big blind live and the
  small blind dead; italian-32: RULES.md §5).  Nobody comes in on the button
  or in an earlier blind than the last one: they wait one more hand there.
* **Missed blinds**: a player sitting out whose seat a blind passes over
  misses it; :func:`missed_blinds` says which.

>>> from mazziere.room.structure import Stakes
>>> regulars = {1: Candidate(1), 3: Candidate(3), 5: Candidate(5)}
>>> plan = plan_hand("holdem", Stakes(small_blind=5, big_blind=10), regulars, previous_button=1)
>>> plan.button, plan.seats, plan.blinds
(3, (5, 1, 3), (5, 10, 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from mazziere.game.italian.rules import forced_blinds, missed_blind_post
from mazziere.room.errors import TableStateError
from mazziere.room.structure import ForcedBets, Stakes, forced_bets
from mazziere.rules import RuleSet, find_rules

__all__ = [
    "Candidate",
    "Entry",
    "HandPlan",
    "blind_amounts",
    "blind_positions",
    "missed_blinds",
    "missed_post",
    "plan_hand",
]


class Entry(StrEnum):
    """How a player who is not yet in the rotation comes in."""

    WAIT = "wait"
    """Wait until the last blind (big blind, over) reaches the seat."""
    POST = "post"
    """Post now and be dealt in at once (not on the button or an earlier blind)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player who may be dealt into the next hand.

    ``entry`` is ``None`` for a regular (in the rotation); for a player coming
    in it says whether they wait or post.  ``missed`` holds the indices of
    the blinds they missed (0 = small blind / buio, 1 = big blind /
    controbuio, 2 = over); a new player has ``new=True``.
    """

    seat: int
    entry: Entry | None = None
    missed: frozenset[int] = frozenset()
    new: bool = False


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The next hand: seats by position (0 = left of the button; the button last).

    ``blinds`` are the live forced bets by position (blinds, and the live
    part of an entry post); ``dead`` the dead money by position (a missed
    small blind, the dead part of italian-32's missed blinds); ``ante`` is
    every player's ante or invito.  ``blind_seats`` is the seat of each blind
    in order (small first), for the missed-blind bookkeeping; ``entered``
    the seats whose wait or post ends with this hand; ``skipped`` the seats
    that wanted to post but must wait a hand (on the button or an early blind).
    """

    button: int
    seats: tuple[int, ...]
    blinds: tuple[int, ...]
    dead: tuple[int, ...]
    ante: int
    blind_seats: tuple[int, ...]
    entered: tuple[int, ...] = ()
    skipped: tuple[int, ...] = field(default=())

    @property
    def players(self) -> int:
        """How many are dealt in."""
        return len(self.seats)

    def position_of(self, seat: int) -> int:
        """The position of ``seat`` in this hand."""
        return self.seats.index(seat)


def blind_amounts(rules: str | RuleSet, stakes: Stakes, players: int) -> tuple[int, ...]:
    """The blinds of a hand with ``players`` dealt in, smallest first.

    >>> from mazziere.room.structure import Stakes
    >>> blind_amounts("italian-32", Stakes(small_blind=5, big_blind=10), 4)
    (5, 10, 20)
    >>> blind_amounts("italian-32", Stakes(small_blind=5, big_blind=10), 3)
    (5, 10)
    >>> blind_amounts("italian-classic", Stakes(ante=10), 4)
    ()
    """
    rule_set = find_rules(rules)
    kind = forced_bets(rule_set)
    if kind is ForcedBets.INVITO:
        return ()
    if kind is ForcedBets.BUIO:
        return forced_blinds(rule_set, buio=stakes.small_blind, players=players)
    return (stakes.small_blind, stakes.big_blind)


def blind_positions(rules: str | RuleSet, players: int) -> tuple[int, ...]:
    """The position of each blind, smallest first.

    Hold'em heads-up: the button (position 1) posts the small blind.

    >>> blind_positions("holdem", 2), blind_positions("holdem", 6), blind_positions("italian-32", 5)
    ((1, 0), (0, 1), (0, 1, 2))
    """
    rule_set = find_rules(rules)
    kind = forced_bets(rule_set)
    if kind is ForcedBets.INVITO:
        return ()
    if kind is ForcedBets.BUIO:
        return tuple(range(len(rule_set.forced_blinds.get(players, ()))))
    return (1, 0) if players == 2 else (0, 1)


def missed_post(
    rules: str | RuleSet, stakes: Stakes, players: int, missed: frozenset[int]
) -> tuple[int, int]:
    """``(live, dead)`` a returning player posts for the blinds they missed.

    Hold'em: the big blind live if they missed it, the small blind dead if
    they missed it.  italian-32 (RULES.md §5): one blind missed, the
    controbuio; two, the controbuio plus the buio dead; three, the over plus
    buio and controbuio dead.

    >>> from mazziere.room.structure import Stakes
    >>> missed_post("holdem", Stakes(small_blind=5, big_blind=10), 6, frozenset({0, 1}))
    (10, 5)
    >>> s = Stakes(small_blind=50, big_blind=100)
    >>> [missed_post("italian-32", s, 5, frozenset(range(k))) for k in (0, 1, 2, 3)]
    [(0, 0), (100, 0), (100, 50), (200, 150)]
    """
    if not missed:
        return (0, 0)
    rule_set = find_rules(rules)
    kind = forced_bets(rule_set)
    if kind is ForcedBets.BUIO:
        blinds = blind_amounts(rule_set, stakes, players)
        return missed_blind_post(
            rule_set, buio=stakes.small_blind, players=players, missed=min(len(missed), len(blinds))
        )
    if kind is ForcedBets.BLINDS:
        return (stakes.big_blind if 1 in missed else 0, stakes.small_blind if 0 in missed else 0)
    return (0, 0)


def _clockwise(seats: Sequence[int], start: int, table_seats: int) -> list[int]:
    """``seats`` in clockwise order starting from the first at or after ``start``."""
    return sorted(seats, key=lambda s: (s - start) % (table_seats + 1))


def plan_hand(
    rules: str | RuleSet,
    stakes: Stakes,
    candidates: Mapping[int, Candidate],
    *,
    previous_button: int | None = None,
    button: int | None = None,
    table_seats: int = 10,
) -> HandPlan | None:
    """Plan the next hand, or ``None`` when fewer than two players can be dealt in.

    The button goes to ``button`` if given (the first hand, after the draw),
    else to the first regular clockwise after ``previous_button``.  Seats are
    numbered from 1 to ``table_seats``.

    >>> from mazziere.room.structure import Stakes
    >>> stakes = Stakes(small_blind=5, big_blind=10)
    >>> people = {1: Candidate(1), 2: Candidate(2, Entry.WAIT, new=True), 4: Candidate(4),
    ...           6: Candidate(6)}
    >>> plan = plan_hand("holdem", stakes, people, previous_button=6)
    >>> plan.button, plan.seats  # seat 2 is the small blind slot: it waits
    (1, (4, 6, 1))
    >>> plan_hand("holdem", stakes, people, previous_button=1).seats  # 2 would be UTG: wait
    (6, 1, 4)
    >>> plan_hand("holdem", stakes, people, previous_button=4).seats  # 2 is the big blind
    (1, 2, 4, 6)
    """
    rule_set = find_rules(rules)
    regulars = sorted(seat for seat, c in candidates.items() if c.entry is None)
    if not regulars:
        return None
    if button is not None:
        if button not in regulars:
            raise TableStateError(f"the button must go to a player in the game, not seat {button}")
        new_button = button
    elif previous_button is None:
        raise TableStateError("the first hand needs a button drawn")
    else:
        new_button = _clockwise(regulars, previous_button + 1, table_seats)[0]
    others = [s for s in candidates if s != new_button]
    order = _clockwise(others, new_button + 1, table_seats)  # left of the button first
    if not blind_positions(rule_set, 2):
        # No blinds (italian-classic): whoever comes in is dealt in at once.
        dealt = set(order)
        skipped: set[int] = set()
    else:
        dealt, skipped = _settle_entries(rule_set, candidates, order, new_button)
    lineup = [s for s in order if s in dealt] + [new_button]
    n = len(lineup)
    if n < 2:
        return None
    positions = blind_positions(rule_set, n)
    amounts = blind_amounts(rule_set, stakes, n)
    blinds = [0] * n
    dead = [0] * n
    for position, amount in zip(positions, amounts, strict=True):
        blinds[position] = amount
    last_blind = positions[-1] if positions else None
    entered: list[int] = []
    for position, seat in enumerate(lineup):
        candidate = candidates[seat]
        if candidate.entry is None:
            continue
        entered.append(seat)
        if position == last_blind:
            continue  # the last blind pays for the entry and for anything missed
        if candidate.new:
            blinds[position] = amounts[-1] if amounts else 0
        else:
            live, dead_part = missed_post(rule_set, stakes, n, candidate.missed)
            blinds[position] = live
            dead[position] = dead_part
    blind_seats = tuple(lineup[p] for p in positions)
    return HandPlan(
        button=new_button,
        seats=tuple(lineup),
        blinds=tuple(blinds),
        dead=tuple(dead),
        ante=stakes.ante,
        blind_seats=blind_seats,
        entered=tuple(entered),
        skipped=tuple(sorted(skipped)),
    )


def _settle_entries(
    rules: RuleSet, candidates: Mapping[int, Candidate], order: Sequence[int], button: int
) -> tuple[set[int], set[int]]:
    """Who of ``order`` is dealt in: regulars, posters off the early blinds, waiters on the
    last blind.  Each change can move the others' positions, so repeat until stable."""
    dealt = {s for s in order if candidates[s].entry is not Entry.WAIT}
    waiting = [s for s in order if candidates[s].entry is Entry.WAIT]
    skipped: set[int] = set()
    given_up: set[int] = set()
    for _ in range(2 * len(order) + 2):
        lineup = [s for s in order if s in dealt] + [button]
        positions = blind_positions(rules, len(lineup))
        early, last = set(positions[:-1]), positions[-1]
        misplaced = next(
            (
                seat
                for index, seat in enumerate(lineup[:-1])
                if (candidates[seat].entry is Entry.POST and index in early)
                or (candidates[seat].entry is Entry.WAIT and index != last)
            ),
            None,
        )
        if misplaced is not None:
            dealt.discard(misplaced)
            if candidates[misplaced].entry is Entry.POST:
                skipped.add(misplaced)
            else:
                given_up.add(misplaced)
            continue
        arriving = None
        for seat in waiting:
            if seat in dealt or seat in given_up:
                continue
            trial = [s for s in order if s in dealt or s == seat] + [button]
            if trial.index(seat) == blind_positions(rules, len(trial))[-1]:
                arriving = seat
                break
        if arriving is None:
            break
        dealt.add(arriving)
    return dealt, skipped


def missed_blinds(
    previous: Sequence[int], current: Sequence[int], away: Sequence[int], table_seats: int
) -> dict[int, frozenset[int]]:
    """Which blinds each seat in ``away`` missed when the blinds moved from ``previous`` to
    ``current`` (seats of each blind, smallest first): every seat a blind passed over.

    >>> missed_blinds((2, 3), (5, 6), away=[4], table_seats=6)
    {4: frozenset({0, 1})}
    >>> missed_blinds((2, 3), (3, 5), away=[4], table_seats=6)  # only the big blind passed
    {4: frozenset({1})}
    """
    missed: dict[int, set[int]] = {}
    away_set = set(away)
    for index, (before, after) in enumerate(zip(previous, current, strict=False)):
        seat = before
        for _ in range(table_seats):
            seat = seat % table_seats + 1
            if seat == after:
                break
            if seat in away_set:
                missed.setdefault(seat, set()).add(index)
        else:
            continue
    return {seat: frozenset(indices) for seat, indices in sorted(missed.items())}
