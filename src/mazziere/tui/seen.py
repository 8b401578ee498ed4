"""A hand as one seat saw it in the room: rebuilt from the records the room sent that seat.

The terminal client of a room (``mazziere play --connect``) has no engine
hand: the room sends each seat the records of the hand's log as that seat
may see them (``Record.seen_by(position)`` as JSON), and nothing else about
the cards.  :func:`record_from_dict` reads one such record back into the
engine's :class:`~mazziere.game.records.Record` (so the terminal's
:class:`~mazziere.tui.words.Narrator` tells it as it tells a local hand),
and :class:`SeenHand` keeps the running state those records give: stacks,
bets, folds, the cards shown or dealt to the seat (``None`` for every card
it may not see), the board, the pot, the draw.  It never deals, evaluates
or guesses a card: what it holds is what the records said.

>>> hand = SeenHand("holdem", number=1, names=["ann", "bob"], seats=[2, 5], button=5, me=1)
>>> for data in [
...     {"type": "start", "setup": {"stacks": [100, 100]}},
...     {"type": "forced_bet", "position": 0, "amount": 1, "kind": "small_blind",
...      "live": True, "all_in": False},
...     {"type": "forced_bet", "position": 1, "amount": 2, "kind": "big_blind",
...      "live": True, "all_in": False},
...     {"type": "hole_cards", "position": 0, "cards": ["??", "??"]},
...     {"type": "hole_cards", "position": 1, "cards": ["Ah", "Kd"]},
...     {"type": "action", "position": 0, "kind": "call", "added": 1, "to": 2,
...      "all_in": False, "timed_out": False},
... ]:
...     _ = hand.apply(data)
>>> hand.stacks, hand.bets, hand.total_pot, hand.hole
([98, 98], [2, 2], 4, [[None, None], [Card('Ah'), Card('Kd')]])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mazziere.cards import Card, Rank
from mazziere.game.core import (
    ActionKind,
    BetsCollected,
    CardBurned,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HoleCardsDealt,
    Phase,
    PlayerActed,
    Pot,
    PotAwarded,
    RakeTaken,
    Record,
    UncalledBetReturned,
)
from mazziere.game.holdem import BoardDealt, Street
from mazziere.game.italian import Discarded, PotCarried, StockReshuffled
from mazziere.game.italian.rules import opening_minimum
from mazziere.rules import RuleSet, find_rules

__all__ = ["RecordError", "SeenHand", "record_from_dict"]


class RecordError(ValueError):
    """A record from the room that is not one of the engine's (the message says why)."""


def _card(text: object) -> Card | None:
    if text is None or text == "??":
        return None
    return Card(str(text))


def _cards(values: object) -> tuple[Card | None, ...]:
    if not isinstance(values, list | tuple):
        raise RecordError(f"cards are a list, not {values!r}")
    return tuple(_card(value) for value in values)


def _ints(values: object) -> tuple[int, ...]:
    if not isinstance(values, list | tuple):
        raise RecordError(f"a list of numbers, not {values!r}")
    return tuple(int(value) for value in values)


def _pots(values: object) -> tuple[Pot, ...]:
    if not isinstance(values, list | tuple):
        raise RecordError(f"pots are a list, not {values!r}")
    return tuple(Pot(int(pot["amount"]), _ints(pot["eligible"])) for pot in values)


_RECORDS: dict[str, type[Record]] = {
    cls.type: cls
    for cls in (
        ForcedBet,
        HoleCardsDealt,
        CardBurned,
        PlayerActed,
        UncalledBetReturned,
        BetsCollected,
        CardsShown,
        CardsMucked,
        RakeTaken,
        PotAwarded,
        BoardDealt,
        Discarded,
        StockReshuffled,
        PotCarried,
    )
}
"""Every record a seat receives, by its ``type`` (the hand's first, ``start``, is read apart)."""

_FIELDS: dict[str, Callable[[Any], Any]] = {
    "cards": _cards,
    "card": _card,
    "pots": _pots,
    "winners": _ints,
    "shares": _ints,
    "street": Street,
}
"""How a field's JSON becomes the record's value (other fields are numbers, flags, words)."""


def record_from_dict(data: Mapping[str, Any]) -> Record:
    """The engine's record that ``data`` (``Record.to_dict()``) was made from.

    >>> record_from_dict({"type": "action", "position": 1, "kind": "raise", "added": 20,
    ...                   "to": 30, "all_in": False, "timed_out": False})
    PlayerActed(position=1, kind=<ActionKind.RAISE: 'raise'>, added=20, to=30, all_in=False, \
timed_out=False)
    >>> record_from_dict({"type": "discard", "position": 0, "cards": ["??", "??"],
    ...                   "timed_out": False}).cards
    (None, None)
    >>> record_from_dict({"type": "shuffle"})
    Traceback (most recent call last):
    ...
    mazziere.tui.seen.RecordError: unknown record 'shuffle'
    """
    kind = data.get("type")
    cls = _RECORDS.get(str(kind))
    if cls is None:
        raise RecordError(f"unknown record {kind!r}")
    values: list[Any] = []
    try:
        for name in cls._fields:
            value = data[name]  # every field is written (a missing one: KeyError)
            if name in _FIELDS:
                value = _FIELDS[name](value)
            elif name == "kind" and cls is PlayerActed:
                value = ActionKind(value)
            values.append(value)
        return cls(tuple(values))
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"bad {kind} record: {error}") from None


class SeenHand:
    """One hand as the seat at position ``me`` (``None``: a spectator) saw it.

    ``names`` and ``seats`` are by position (0: the dealer's left), as the
    room's ``hand_started`` gives them; ``button`` is the dealer's seat.
    Feed it the hand's records in order with :meth:`apply`; a
    :meth:`restore` starts it again from the room's view of the hand
    instead (a snapshot after a reconnection).
    """

    def __init__(
        self,
        rules: str | RuleSet,
        *,
        number: int,
        names: Sequence[str],
        seats: Sequence[int],
        button: int | None,
        me: int | None,
    ) -> None:
        self.rules = find_rules(rules) if isinstance(rules, str) else rules
        # The draw game's own state: the opening minimum, blind openings, the draw, parol.
        self.draw_game = self.rules.traits.draw
        self.number = number
        self.names = list(names)
        self.seats = list(seats)
        self.button = button
        self.me = me
        n = len(self.names)
        self.n = n
        self.stacks = [0] * n
        self.bets = [0] * n
        self.folded = [False] * n
        self.hole: list[list[Card | None]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.pots: tuple[Pot, ...] = ()
        self.total_pot = 0
        self.carried = 0
        self.phase = Phase.DEALING
        self.betting_round = 0
        """0 before the deal, then 1; 2 after an Italian hand's draw."""
        self.street: Street | None = None
        self.drawn: list[int | None] = [None] * n
        self.opening: Rank | None = None
        """The smallest pair that opens (Italian hands with an opening requirement)."""
        self.parol_pot = False
        self.blind_raisers: list[int] = []
        self.log: list[Record] = []
        """The records applied, as this seat saw them."""
        self.result: dict[str, Any] | None = None
        """The room's result once the hand ended."""

    @property
    def is_over(self) -> bool:
        """Whether the room said the hand ended."""
        return self.result is not None

    # ------------------------------------------------------------- records

    def apply(self, data: Mapping[str, Any]) -> Record | None:
        """Apply one record (JSON, as the room sent it); return it as the engine's record
        (``None`` for the hand's first record, its set-up)."""
        if data.get("type") == "start":
            self._start(data.get("setup") or {})
            return None
        record = record_from_dict(data)
        self._apply(record)
        self.log.append(record)
        return record

    def _start(self, setup: Mapping[str, Any]) -> None:
        stacks = [int(s) for s in setup.get("stacks") or ()]
        if len(stacks) == self.n:
            self.stacks = stacks
        self.carried = int(setup.get("carried_pot") or 0)
        self.total_pot = self.carried
        self.parol_pot = bool(setup.get("parol_pot"))
        if self.draw_game:
            level = int(setup.get("opening_level") or 0)
            self.opening = opening_minimum(self.rules, level, parol_pot=self.parol_pot)
        else:
            self.phase = Phase.BETTING
            self.street = Street.PREFLOP
            self.betting_round = 1

    def _apply(self, record: Record) -> None:
        if isinstance(record, ForcedBet):
            p = record.position
            self.stacks[p] -= record.amount
            if record.live:
                self.bets[p] += record.amount
            self.total_pot += record.amount
        elif isinstance(record, HoleCardsDealt):
            self.hole[record.position].extend(record.cards)
            if self.betting_round == 0:
                self.betting_round = 1
                self.phase = Phase.BETTING
        elif isinstance(record, PlayerActed):
            self._acted(record)
        elif isinstance(record, UncalledBetReturned):
            p = record.position
            self.stacks[p] += record.amount
            self.bets[p] = max(0, self.bets[p] - record.amount)
            self.total_pot -= record.amount
        elif isinstance(record, BetsCollected):
            self.pots = record.pots
            self.bets = [0] * self.n
            if self.draw_game and self.betting_round == 1 and self._still_in() > 1:
                self.phase = Phase.DRAW
        elif isinstance(record, BoardDealt):
            self.board.extend(card for card in record.cards if card is not None)
            self.street = record.street
        elif isinstance(record, Discarded):
            self._discarded(record)
        elif isinstance(record, CardsShown):
            self.hole[record.position] = list(record.cards)
            self.phase = Phase.SHOWDOWN
        elif isinstance(record, CardsMucked):
            self.phase = Phase.SHOWDOWN
        elif isinstance(record, PotAwarded):
            for winner, share in zip(record.winners, record.shares, strict=True):
                self.stacks[winner] += share

    def _acted(self, record: PlayerActed) -> None:
        p = record.position
        self.stacks[p] -= record.added
        self.bets[p] += record.added
        self.total_pot += record.added
        if record.kind is ActionKind.FOLD:
            self.folded[p] = True
        if (
            self.draw_game
            and self.betting_round == 0
            and record.kind in (ActionKind.BET, ActionKind.RAISE)
        ):
            self.blind_raisers.append(p)

    def _discarded(self, record: Discarded) -> None:
        p = record.position
        self.drawn[p] = len(record.cards)
        held = self.hole[p]
        if p == self.me and None not in record.cards:
            for card in record.cards:
                if card in held:
                    held.remove(card)
        else:
            del held[: len(record.cards)]
        drawing = [i for i in range(self.n) if not self.folded[i]]
        if all(self.drawn[i] is not None for i in drawing):
            self.phase = Phase.BETTING
            self.betting_round = 2

    def _still_in(self) -> int:
        return sum(1 for folded in self.folded if not folded)

    # ------------------------------------------------------------ snapshots

    def restore(self, game: Mapping[str, Any]) -> None:
        """Take the room's view of the hand for this seat (``HandView.to_dict()``) as it is.

        The log starts again from here (what came before is the room's to replay).
        """
        self.stacks = [int(s) for s in game.get("stacks") or self.stacks]
        self.bets = [int(b) for b in game.get("bets") or self.bets]
        self.folded = [bool(f) for f in game.get("folded") or self.folded]
        self.hole = [list(_cards(cards or [])) for cards in game.get("hole") or ()] or self.hole
        self.board = [c for c in _cards(game.get("board") or []) if c is not None]
        self.pots = _pots(game.get("pots") or [])
        self.total_pot = int(game.get("total_pot") or 0)
        self.phase = Phase(game.get("phase", self.phase.value))
        if game.get("street") is not None:
            self.street = Street(game["street"])
        if self.draw_game:
            self.betting_round = int(game.get("betting_round") or 0)
            self.drawn = [None if d is None else int(d) for d in game.get("drawn") or self.drawn]
            self.parol_pot = bool(game.get("parol_pot"))
            self.carried = int(game.get("carried_pot") or 0)
            self.blind_raisers = [int(p) for p in game.get("blind_raisers") or ()]
            opening = game.get("opening")
            self.opening = _rank_named(opening) if opening is not None else None
        else:
            self.betting_round = 1


def _rank_named(name: object) -> Rank | None:
    """The rank an Italian view names (``Rank.name_it``: ``"J"``, ``"10"``...)."""
    for rank in Rank:
        if rank.name_it == name:
            return rank
    return None
