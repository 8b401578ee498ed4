"""What a hand of Poker all'italiana hands on to the next: its carry, and who plays next."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mazziere.cards import Rank

__all__ = ["ItalianCarry", "NextHand", "next_hand"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ItalianCarry:
    """What the next hand needs from this one; the table layer maps positions to seats.

    ``pot``: chips carried (0 when the pot was won).  ``opening_level``: dead
    hands in a row (the ladder's step).  ``parol_pot``: the next hand plays a
    parol pot.  ``shares[i]``: chips of position ``i`` in the carried pot.
    ``parol_players``: who may play the parol pot without paying; ``rejoin[i]``
    what position ``i`` must pay to take part (the adeguamento).
    """

    pot: int
    opening_level: int
    parol_pot: bool
    shares: tuple[int, ...]
    parol_players: tuple[int, ...]
    rejoin: tuple[int, ...]
    opening: Rank | None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "pot": self.pot,
            "opening_level": self.opening_level,
            "opening": self.opening.name_it if self.opening is not None else None,
            "parol_pot": self.parol_pot,
            "shares": list(self.shares),
            "parol_players": list(self.parol_players),
            "rejoin": list(self.rejoin),
        }


@dataclass(frozen=True)
class NextHand:
    """Who plays the next hand, and the arguments it needs, from the last hand's carry.

    ``seats`` are positions of the last hand in the next hand's position
    order (the button has moved one seat left); ``stacks`` theirs before the
    next hand; ``arguments`` go to :class:`ItalianHand` with the table's
    stakes; ``passed`` were left out of a parol pot (they could not pay the
    adeguamento, or chose not to).
    """

    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    arguments: Mapping[str, object]
    passed: tuple[int, ...]


def next_hand(
    carry: ItalianCarry, stacks: Sequence[int], *, declined: Iterable[int] = ()
) -> NextHand:
    """The next hand after one that ended with ``carry`` and ``stacks`` (positions of that hand).

    The button moves one seat left.  Players without chips sit out.  A parol
    pot is played by the parol players and by those who pay their
    adeguamento (``carry.rejoin``) unless they are in ``declined``; a player
    who cannot pay it is passed automatically.

    >>> carry = ItalianCarry(pot=100, opening_level=0, parol_pot=True, shares=(40, 10, 40, 10),
    ...                      parol_players=(0, 2), rejoin=(0, 30, 0, 30), opening=Rank.KING)
    >>> plan = next_hand(carry, [500, 20, 300, 600])
    >>> plan.seats, plan.passed, plan.arguments["dead_money"], plan.arguments["carried_shares"]
    ((2, 3, 0), (1,), (0, 30, 0), (40, 10, 40))
    """
    n = len(stacks)
    if len(carry.shares) != n:
        raise ValueError(f"the carry is for {len(carry.shares)} players, not {n}")
    refused = set(declined)
    order = [*range(1, n), 0]
    seats: list[int] = []
    passed: list[int] = []
    for position in order:
        if stacks[position] <= 0:
            continue
        if carry.parol_pot:
            if position in carry.parol_players:
                seats.append(position)
            elif carry.shares[position] and (
                position in refused or stacks[position] < carry.rejoin[position]
            ):
                passed.append(position)
            elif carry.shares[position]:
                seats.append(position)
            continue
        seats.append(position)
    dead = tuple(carry.rejoin[p] if carry.parol_pot else 0 for p in seats)
    arguments: dict[str, object] = {
        "opening_level": carry.opening_level,
        "parol_pot": carry.parol_pot,
        "carried_pot": carry.pot,
        "carried_shares": tuple(carry.shares[p] for p in seats),
        "dead_money": dead,
    }
    return NextHand(
        seats=tuple(seats),
        stacks=tuple(stacks[p] for p in seats),
        arguments=MappingProxyType(arguments),
        passed=tuple(passed),
    )
