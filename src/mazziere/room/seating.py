"""Seating: random seats, the draw for the first dealer, balancing and breaking tables.

>>> import random
>>> draw = draw_for_button([1, 4, 6], random.Random(3), Deck.standard())
>>> draw.button in (1, 4, 6), len(draw.cards)
(True, 3)
>>> plan_tables({1: 9, 2: 9, 3: 3}, seats=9).broken  # 21 players fit in 3 tables
()
>>> plan_tables({1: 7, 2: 6, 3: 3}, seats=9).broken  # 16 fit in 2: break the smallest
(3,)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from mazziere.cards import Card, Deck, RandomSource
from mazziere.room.errors import SeatError

T = TypeVar("T")

__all__ = [
    "ButtonDraw",
    "TableMove",
    "TablePlan",
    "draw_for_button",
    "plan_tables",
    "random_seating",
    "tables_needed",
]


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The draw for the first dealer: each seat's card; the highest card takes the button.

    Cards compare as ints: rank first, then suit in the Italian order
    (♥ > ♦ > ♣ > ♠), so a draw never ties.
    """

    cards: tuple[tuple[int, Card], ...]
    button: int


def draw_for_button(seats: Sequence[int], rng: RandomSource, deck: Deck) -> ButtonDraw:
    """Deal one card to each of ``seats`` (in seat order); the highest card is the dealer.

    >>> import random
    >>> d = draw_for_button([2, 5], random.Random(1), Deck.piquet())
    >>> d.button == max(d.cards, key=lambda sc: sc[1])[0]
    True
    >>> draw_for_button([], random.Random(1), Deck.piquet())
    Traceback (most recent call last):
    ...
    mazziere.room.errors.SeatError: the draw for the button needs at least one seat
    """
    if not seats:
        raise SeatError("the draw for the button needs at least one seat")
    if len(set(seats)) != len(seats):
        raise SeatError("a seat drew twice")
    if len(seats) > len(deck):
        raise SeatError(f"{len(seats)} seats cannot draw from {len(deck)} cards")
    shuffled = deck.shuffled(rng)
    cards = tuple(zip(sorted(seats), shuffled, strict=False))
    button = max(cards, key=lambda seat_card: seat_card[1])[0]
    return ButtonDraw(cards, button)


def tables_needed(players: int, seats: int) -> int:
    """How many tables ``players`` need with ``seats`` seats each.

    >>> tables_needed(19, 9), tables_needed(18, 9), tables_needed(0, 9)
    (3, 2, 0)
    """
    if seats < 2:
        raise SeatError(f"a table needs at least 2 seats, not {seats}")
    return -(-players // seats)


def random_seating(
    players: Sequence[str], *, tables: int, seats: int, rng: RandomSource
) -> list[dict[int, str]]:
    """Seat ``players`` at random: ``tables`` tables as even as possible, random seats.

    Seats are numbered from 1.  Returns one ``{seat: player}`` per table.

    >>> import random
    >>> layout = random_seating(list("abcdefghij"), tables=2, seats=6, rng=random.Random(2))
    >>> [len(t) for t in layout], sorted(p for t in layout for p in t.values())
    ([5, 5], ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])
    """
    if tables < 1:
        raise SeatError("seating needs at least one table")
    if len(set(players)) != len(players):
        raise SeatError("a player cannot take two seats")
    if len(players) > tables * seats:
        raise SeatError(f"{len(players)} players do not fit {tables} tables of {seats}")
    order = list(players)
    _shuffle(order, rng)
    layout: list[dict[int, str]] = []
    for table in range(tables):
        members = order[table::tables]
        chosen = list(range(1, seats + 1))
        _shuffle(chosen, rng)
        layout.append(dict(zip(sorted(chosen[: len(members)]), members, strict=True)))
    return layout


def _shuffle(items: list[T], rng: RandomSource) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class TableMove:
    """One player to move from table ``source`` to table ``destination``."""

    source: int
    destination: int


@dataclass(frozen=True, slots=True)
class TablePlan:
    """What to do to the tables of a multi-table event now.

    ``broken`` tables close, their players going where ``moves`` say; the
    other moves balance the tables.
    """

    broken: tuple[int, ...]
    moves: tuple[TableMove, ...]


def plan_tables(counts: Mapping[int, int], *, seats: int, max_difference: int = 1) -> TablePlan:
    """The standard plan for tables holding ``counts`` players (table id -> players).

    1. While the players fit in one table fewer, break a table: the one with
       the fewest players (on a tie, the highest number).  The players of the
       broken tables go one by one to the open table with the fewest players
       (on a tie, the lowest number).
    2. Then, while the biggest table has more than ``max_difference`` players
       more than the smallest, move one player from the biggest (on a tie,
       the lowest number) to the smallest (on a tie, the lowest number).

    >>> plan = plan_tables({1: 9, 2: 6, 3: 9}, seats=9)
    >>> plan.broken, [(m.source, m.destination) for m in plan.moves]
    ((), [(1, 2), (3, 2)])
    >>> plan = plan_tables({1: 5, 2: 4, 3: 4}, seats=9)
    >>> plan.broken, sorted(m.destination for m in plan.moves)
    ((3,), [1, 1, 2, 2])
    """
    if max_difference < 1:
        raise SeatError("tables can be balanced to within 1 player at best")
    if any(n < 0 or n > seats for n in counts.values()):
        raise SeatError(f"a table holds 0 to {seats} players")
    live = dict(counts)
    needed = max(1, tables_needed(sum(live.values()), seats))
    broken: list[int] = []
    moves: list[TableMove] = []
    while len(live) > needed:
        victim = min(live, key=lambda t: (live[t], -t))
        broken.append(victim)
        live.pop(victim)
    for victim in broken:
        for _ in range(counts[victim]):
            target = min(live, key=lambda t: (live[t], t))
            live[target] += 1
            moves.append(TableMove(victim, target))
    while live:
        biggest = min(live, key=lambda t: (-live[t], t))
        smallest = min(live, key=lambda t: (live[t], t))
        if live[biggest] - live[smallest] <= max_difference:
            break
        live[biggest] -= 1
        live[smallest] += 1
        moves.append(TableMove(biggest, smallest))
    return TablePlan(tuple(broken), tuple(moves))
