"""PokerStars text hand histories of our Hold'em hands, the format trackers import.

:func:`to_pokerstars` writes one finished :class:`~mazziere.game.holdem.HoldemHand`
as PokerStars writes a hand: the header (cash or tournament), the seats, the
antes and blinds posted, the hero's hole cards, each street's actions with
their amounts, uncalled bets returned, the showdown, who collected what, and
the summary with the pot, its side pots, the rake and each seat's end.
:class:`HandHeader` says what the hand itself does not know (names, seats,
hand number, table, time, the chip's money value, the hero, the tournament).

>>> import random
>>> from mazziere.game.holdem import HoldemHand
>>> hand = HoldemHand([200, 200, 200], blinds=(1, 2), rng=random.Random(7))
>>> _ = hand.raise_to(6); _ = hand.fold(); _ = hand.fold()
>>> header = HandHeader(hand_id=42, names=("anna", "bruno", "carla"), hero=2)
>>> print(to_pokerstars(hand, header))
PokerStars Hand #42: Hold'em No Limit (1/2)
Table 'Mazziere' 3-max Seat #3 is the button
Seat 1: anna (200 in chips)
Seat 2: bruno (200 in chips)
Seat 3: carla (200 in chips)
anna: posts small blind 1
bruno: posts big blind 2
*** HOLE CARDS ***
Dealt to carla [8c 3s]
carla: raises 4 to 6
anna: folds
bruno: folds
Uncalled bet (4) returned to carla
carla collected 5 from pot
carla: doesn't show hand
*** SUMMARY ***
Total pot 5 | Rake 0
Seat 1: anna (small blind) folded before Flop
Seat 2: bruno (big blind) folded before Flop
Seat 3: carla (button) collected (5)
<BLANKLINE>

Straddles are written ``posts straddle``; antes ``posts the ante``.  Hands
are separated by two blank lines (:func:`to_pokerstars_many`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from mazziere.cards import Card, Rank
from mazziere.evaluate import evaluate
from mazziere.game.core import (
    ActionKind,
    BetsCollected,
    CardsMucked,
    CardsShown,
    ForcedBet,
    PlayerActed,
    PotAwarded,
    RakeTaken,
    UncalledBetReturned,
)
from mazziere.game.holdem import BoardDealt, HoldemHand, Street
from mazziere.rules import Category

__all__ = [
    "CURRENCY_CODES",
    "HandHeader",
    "Tournament",
    "describe_pokerstars",
    "header_from_phh",
    "roman",
    "to_pokerstars",
    "to_pokerstars_many",
]

CURRENCY_CODES = {"$": "USD", "€": "EUR", "£": "GBP"}
"""The ISO code PokerStars writes after amounts in a currency symbol."""
_RANK_NAMES = {
    Rank.TWO: ("Deuce", "Deuces"),
    Rank.THREE: ("Three", "Threes"),
    Rank.FOUR: ("Four", "Fours"),
    Rank.FIVE: ("Five", "Fives"),
    Rank.SIX: ("Six", "Sixes"),
    Rank.SEVEN: ("Seven", "Sevens"),
    Rank.EIGHT: ("Eight", "Eights"),
    Rank.NINE: ("Nine", "Nines"),
    Rank.TEN: ("Ten", "Tens"),
    Rank.JACK: ("Jack", "Jacks"),
    Rank.QUEEN: ("Queen", "Queens"),
    Rank.KING: ("King", "Kings"),
    Rank.ACE: ("Ace", "Aces"),
}
_STREET_NAMES = {Street.FLOP: "Flop", Street.TURN: "Turn", Street.RIVER: "River"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Tournament:
    """A tournament hand's header: its number, the buy-in as written, the level (from 1).

    ``buy_in`` as PokerStars writes it: ``$10.00+$1.00 USD``, ``1000+100`` for
    chips, ``Freeroll`` (:func:`mazziere.history.export.buy_in_text` makes it).
    """

    id: int
    buy_in: str = "Freeroll"
    level: int = 1

    def line(self, game: str) -> str:
        """``Tournament #T, BUY-IN GAME - Level L``, as the first line of a hand says it.

        >>> Tournament(id=7, buy_in="$10.00+$1.00 USD", level=4).line("Hold'em No Limit")
        "Tournament #7, $10.00+$1.00 USD Hold'em No Limit - Level IV"
        >>> Tournament(id=7).line("Hold'em No Limit")  # PokerStars' two spaces after Freeroll
        "Tournament #7, Freeroll  Hold'em No Limit - Level I"
        """
        space = "  " if self.buy_in == "Freeroll" else " "
        return f"Tournament #{self.id}, {self.buy_in}{space}{game} - Level {roman(self.level)}"


_ROMAN: tuple[tuple[int, str], ...] = (
    *((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L")),
    *((40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")),
)


def roman(number: int) -> str:
    """A level number as PokerStars writes it, in Roman numerals.

    >>> roman(1), roman(4), roman(14), roman(40)
    ('I', 'IV', 'XIV', 'XL')
    """
    if number < 1:
        raise ValueError(f"a level is numbered from 1, not {number}")
    out = ""
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out += letters * count
    return out


@dataclass(frozen=True, kw_only=True, slots=True)
class HandHeader:
    """What a PokerStars history states that the hand does not know.

    ``names`` and ``seats`` go by position (default ``p1``... and seats 1...);
    seats must go round the table in the positions' order.  ``unit`` is a
    chip's value in ``currency`` (``Decimal("0.01")`` and ``"$"`` for a cent
    game); ``hero`` is the position whose hole cards are written (``None``:
    nobody's, as a spectator sees it).  ``time`` is written when given: an
    aware time in UTC, a naive one as it is, followed by ``time_zone``.
    """

    hand_id: int = 1
    table: str = "Mazziere"
    names: Sequence[str] | None = None
    seats: Sequence[int] | None = None
    max_seats: int | None = None
    time: datetime.datetime | None = None
    time_zone: str = "UTC"
    unit: Decimal | int = 1
    currency: str = ""
    hero: int | None = None
    tournament: Tournament | None = None


def _rank_name(rank: Rank, plural: bool = False) -> str:
    return _RANK_NAMES[rank][plural]


def describe_pokerstars(cards: Sequence[Card]) -> str:
    """A hand in PokerStars' words (two hole cards and the board: five to seven cards, or two).

    >>> from mazziere.cards import parse_cards
    >>> describe_pokerstars(parse_cards("Ah Ad Kc Ks 2h 7d 9c"))
    'two pair, Aces and Kings'
    >>> describe_pokerstars(parse_cards("Th 9h 8h 7h 6h"))
    'a straight flush, Six to Ten'
    >>> describe_pokerstars(parse_cards("7c 7d"))
    'a pair of Sevens'
    """
    if len(cards) < 5:
        ranks = sorted((card.rank for card in cards), reverse=True)
        if len(ranks) >= 2 and ranks[0] == ranks[1]:
            return f"a pair of {_rank_name(ranks[0], True)}"
        return f"high card {_rank_name(ranks[0])}"
    value = evaluate(cards, rules="holdem")
    best = [card.rank for card in value.cards]
    category = value.category
    if category is Category.HIGH_CARD:
        return f"high card {_rank_name(best[0])}"
    if category is Category.PAIR:
        return f"a pair of {_rank_name(best[0], True)}"
    if category is Category.TWO_PAIR:
        return f"two pair, {_rank_name(best[0], True)} and {_rank_name(best[2], True)}"
    if category is Category.THREE_OF_A_KIND:
        return f"three of a kind, {_rank_name(best[0], True)}"
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        low = best[-1] if best[0] != Rank.ACE or best[1] == Rank.KING else Rank.ACE
        high = best[0] if low != Rank.ACE else best[1]
        if category is Category.STRAIGHT_FLUSH and high == Rank.ACE:
            return "a Royal Flush"
        kind = "a straight flush" if category is Category.STRAIGHT_FLUSH else "a straight"
        return f"{kind}, {_rank_name(low)} to {_rank_name(high)}"
    if category is Category.FLUSH:
        return f"a flush, {_rank_name(best[0])} high"
    if category is Category.FULL_HOUSE:
        return f"a full house, {_rank_name(best[0], True)} full of {_rank_name(best[3], True)}"
    return f"four of a kind, {_rank_name(best[0], True)}"


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(str(card) for card in cards if card is not None)


class _Seating:
    """The names, seats and money of a header, checked, and the lines both text formats share."""

    def __init__(self, n: int, header: HandHeader) -> None:
        self.header = header
        self.names = (
            list(header.names) if header.names is not None else [f"p{i + 1}" for i in range(n)]
        )
        self.seats = list(header.seats) if header.seats is not None else list(range(1, n + 1))
        if len(self.names) != n or len(self.seats) != n:
            raise ValueError(f"a {n}-player hand needs {n} names and {n} seats")
        for name in self.names:
            if not name or name != name.strip() or any(c in name for c in ":\n[]"):
                raise ValueError(f"a player's name cannot be {name!r} in a text hand history")
        if len(set(self.names)) != n or len(set(self.seats)) != n:
            raise ValueError("names and seats must be different for each player")
        order = sorted(range(n), key=self.seats.__getitem__)
        start = order.index(0)
        if order[start:] + order[:start] != list(range(n)):
            raise ValueError("the seats must go round the table in the positions' order")
        self.unit = Decimal(header.unit)
        self.currency = header.currency

    def money(self, chips: int) -> str:
        value = chips * self.unit
        if self.currency:
            text = f"{value:.2f}" if value != value.to_integral_value() else f"{value:.0f}"
            return f"{self.currency}{text}"
        return f"{value.normalize():f}" if value else "0"

    def when(self) -> str:
        moment = self.header.time
        if moment is None:
            return ""
        zone = self.header.time_zone
        if moment.tzinfo is not None:
            moment, zone = moment.astimezone(datetime.UTC), "UTC"
        return f" - {moment:%Y/%m/%d %H:%M:%S} {zone}"

    def table_lines(
        self, stacks: Sequence[int], button: int, table: str | None = None
    ) -> list[str]:
        n = len(stacks)
        seats = self.header.max_seats or max(n, *self.seats)
        name = self.header.table if table is None else table
        lines = [f"Table '{name}' {seats}-max Seat #{self.seats[button]} is the button"]
        lines.extend(
            f"Seat {self.seats[p]}: {self.names[p]} ({self.money(stacks[p])} in chips)"
            for p in self.by_seat()
        )
        return lines

    def by_seat(self) -> list[int]:
        """Positions in the order of their seat numbers, as the seat lists go."""
        return sorted(range(len(self.seats)), key=self.seats.__getitem__)

    def collected(self, record: PotAwarded, pots: int) -> list[str]:
        if pots == 1:
            where = "pot"
        elif record.pot == 0:
            where = "main pot"
        elif pots == 2:
            where = "side pot"
        else:
            where = f"side pot-{record.pot}"
        return [
            f"{self.names[winner]} collected {self.money(share)} from {where}"
            for winner, share in zip(record.winners, record.shares, strict=True)
            if share
        ]

    def total_line(self, pots: Sequence[int], rake: int) -> str:
        total = f"Total pot {self.money(sum(pots) + rake)}"
        if len(pots) == 2:
            total += f" Main pot {self.money(pots[0])}. Side pot {self.money(pots[1])}."
        elif len(pots) > 2:
            total += f" Main pot {self.money(pots[0])}."
            total += "".join(
                f" Side pot-{i} {self.money(amount)}." for i, amount in enumerate(pots[1:], 1)
            )
        return f"{total} | Rake {self.money(rake)}"

    def winnings(self, log: Iterable[object]) -> list[int]:
        won = [0] * len(self.names)
        for record in log:
            if isinstance(record, PotAwarded):
                for winner, share in zip(record.winners, record.shares, strict=True):
                    won[winner] += share
        return won

    def seat_label(self, position: int, button: int, role: str = "") -> str:
        if position == button:
            role = " (button)" + role
        return f"Seat {self.seats[position]}: {self.names[position]}{role}"


class _Writer:
    def __init__(self, hand: HoldemHand, header: HandHeader) -> None:
        if not hand.is_over:
            raise ValueError("only a finished hand can be written as a PokerStars history")
        self.hand = hand
        self.header = header
        self.seating = _Seating(hand.n, header)
        self.names = self.seating.names
        self.seats = self.seating.seats
        self.money = self.seating.money
        self.lines: list[str] = []

    def name(self, position: int) -> str:
        return self.names[position]

    def header_lines(self) -> None:
        hand, header = self.hand, self.header
        setup = hand.setup
        n = hand.n
        blinds = setup.stakes.blinds
        pair = sorted(max(b, 0) for b in blinds[:2])  # heads-up: big blind first
        small, big = pair if n == 2 else (max(blinds[0], 0), max(blinds[1], 0))
        stakes = f"{self.money(small)}/{self.money(big or setup.stakes.min_bet)}"
        when = self.seating.when()
        game = "Hold'em No Limit"
        table = None
        if header.tournament is not None:
            t = header.tournament
            first = f"PokerStars Hand #{header.hand_id}: {t.line(game)} ({stakes}){when}"
            table = f"{t.id} {header.table}"
        else:
            code = CURRENCY_CODES.get(self.seating.currency)
            stakes_text = f"({stakes} {code})" if code else f"({stakes})"
            first = f"PokerStars Hand #{header.hand_id}: {game} {stakes_text}{when}"
        self.lines.append(first)
        self.lines.extend(self.seating.table_lines(setup.stacks, hand.button, table))

    def body(self) -> None:
        hand = self.hand
        bets = [0] * hand.n
        shows: list[str] = []
        collected: list[str] = []
        dealt = False
        awards = [r for r in hand.log if isinstance(r, PotAwarded)]
        for record in hand.log:
            if isinstance(record, ForcedBet):
                amount = self.money(record.amount)
                what = {
                    "ante": "the ante",
                    "small_blind": "small blind",
                    "straddle": "straddle",
                }.get(record.kind, "big blind")
                line = f"{self.name(record.position)}: posts {what} {amount}"
                if record.live:
                    bets[record.position] += record.amount
                self.lines.append(line + (" and is all-in" if record.all_in else ""))
            elif isinstance(record, PlayerActed):
                if not dealt:
                    self.hole_cards()
                    dealt = True
                self.action(record, bets)
            elif isinstance(record, BoardDealt):
                if not dealt:
                    self.hole_cards()
                    dealt = True
                self.street(record)
            elif isinstance(record, UncalledBetReturned):
                self.lines.append(
                    f"Uncalled bet ({self.money(record.amount)}) returned to "
                    f"{self.name(record.position)}"
                )
            elif isinstance(record, BetsCollected):
                bets = [0] * hand.n
            elif isinstance(record, CardsShown):
                cards = [c for c in record.cards if c is not None]
                described = describe_pokerstars([*cards, *self.board()])
                shows.append(f"{self.name(record.position)}: shows [{_cards(cards)}] ({described})")
            elif isinstance(record, CardsMucked):
                if len(hand.live) > 1:  # the uncontested winner "doesn't show hand"
                    shows.append(f"{self.name(record.position)}: mucks hand")
            elif isinstance(record, PotAwarded):
                collected.extend(self.seating.collected(record, len(awards)))
        if not dealt:
            self.hole_cards()
        showdown = len(hand.live) > 1
        if showdown:
            self.lines.append("*** SHOW DOWN ***")
        self.lines.extend(shows)
        self.lines.extend(collected)
        if not showdown:
            winner = hand.live[0]
            if winner not in hand.shown:
                self.lines.append(f"{self.name(winner)}: doesn't show hand")

    def board(self) -> list[Card]:
        return [c for c in self.hand.board if c is not None]

    def hole_cards(self) -> None:
        self.lines.append("*** HOLE CARDS ***")
        hero = self.header.hero
        if hero is not None and all(c is not None for c in self.hand.hole[hero]):
            # (cards a replayed history does not know are not written)
            self.lines.append(f"Dealt to {self.name(hero)} [{_cards(self.hand.hole[hero])}]")

    def action(self, record: PlayerActed, bets: list[int]) -> None:
        who = self.name(record.position)
        if record.timed_out:
            self.lines.append(f"{who} has timed out")
        kind = record.kind
        top = max(bets)
        if kind is ActionKind.ALL_IN:
            kind = (
                ActionKind.CALL
                if record.to <= top
                else ActionKind.BET
                if not top
                else ActionKind.RAISE
            )
        all_in = " and is all-in" if record.all_in else ""
        if kind is ActionKind.FOLD:
            line = f"{who}: folds"
        elif kind is ActionKind.CHECK:
            line = f"{who}: checks"
        elif kind is ActionKind.CALL:
            line = f"{who}: calls {self.money(record.added)}{all_in}"
        elif kind is ActionKind.BET or not top:
            line = f"{who}: bets {self.money(record.to)}{all_in}"
        else:
            line = f"{who}: raises {self.money(record.to - top)} to {self.money(record.to)}{all_in}"
        if kind is not ActionKind.FOLD:
            bets[record.position] = record.to
        self.lines.append(line)

    def street(self, record: BoardDealt) -> None:
        board = self.hand.board
        new = len(record.cards)
        seen = [c for c in board if c is not None]
        index = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}[record.street]
        before = _cards(seen[: index - new])
        cards = _cards(record.cards)
        name = record.street.name
        if before:
            self.lines.append(f"*** {name} *** [{before}] [{cards}]")
        else:
            self.lines.append(f"*** {name} *** [{cards}]")

    def summary(self) -> None:
        hand = self.hand
        pots = [r.amount for r in hand.log if isinstance(r, PotAwarded)]
        rake = sum(r.amount for r in hand.log if isinstance(r, RakeTaken))
        self.lines.append("*** SUMMARY ***")
        self.lines.append(self.seating.total_line(pots, rake))
        if self.board():
            self.lines.append(f"Board [{_cards(self.board())}]")
        won = self.seating.winnings(hand.log)
        folded_on = self.folds()
        for position in self.seating.by_seat():
            self.lines.append(
                self.seating.seat_label(position, hand.button, self.role(position))
                + " "
                + self.end(position, won[position], folded_on.get(position))
            )

    def role(self, position: int) -> str:
        """The blind a player posted, as the summary names it (the button is named apart)."""
        hand = self.hand
        if position == hand.button and hand.n == 2:
            return " (small blind)"
        kinds = {
            r.kind
            for r in hand.log
            if isinstance(r, ForcedBet) and r.position == position and r.kind != "ante"
        }
        if position != hand.button and "small_blind" in kinds:
            return " (small blind)"
        if "big_blind" in kinds:
            return " (big blind)"
        return ""

    def folds(self) -> dict[int, str]:
        street = "before Flop"
        out: dict[int, str] = {}
        for record in self.hand.log:
            if isinstance(record, BoardDealt):
                street = f"on the {_STREET_NAMES[record.street]}"
            elif isinstance(record, PlayerActed) and record.kind is ActionKind.FOLD:
                out[record.position] = street
        return out

    def end(self, position: int, won: int, folded: str | None) -> str:
        hand = self.hand
        if folded is not None:
            return f"folded {folded}"
        shown = hand.shown.get(position) if position in hand.shown else None
        if shown is not None and all(c is not None for c in shown):
            cards = [c for c in shown if c is not None]
            described = describe_pokerstars([*cards, *self.board()])
            if won:
                return f"showed [{_cards(cards)}] and won ({self.money(won)}) with {described}"
            return f"showed [{_cards(cards)}] and lost with {described}"
        if won:
            return f"collected ({self.money(won)})"
        return "mucked"


def to_pokerstars(hand: HoldemHand, header: HandHeader | None = None) -> str:
    """The finished hand as a PokerStars text hand history (ends with a newline)."""
    writer = _Writer(hand, header or HandHeader())
    writer.header_lines()
    writer.body()
    writer.summary()
    return "\n".join(writer.lines) + "\n"


def to_pokerstars_many(hands: Iterable[tuple[HoldemHand, HandHeader]]) -> str:
    """Several hands, separated by two blank lines as PokerStars files are."""
    return "\n\n".join(to_pokerstars(hand, header) for hand, header in hands)


def header_from_phh(
    fields: Mapping[str, Any],
    *,
    unit: Decimal | int = 1,
    hero: str | int | None = None,
    tournament: Tournament | None = None,
) -> HandHeader:
    """The header that a PHH hand's optional fields give (``players``, ``table``, ``hand``...).

    ``hero`` is a player's name (as in ``players``) or a position from 1;
    ``tournament``, the hand's tournament header.

    >>> header = header_from_phh({"players": ["ann", "bob"], "hand": 7, "year": 2026,
    ...                           "month": 12, "day": 1}, hero="bob")
    >>> header.names, header.hand_id, header.hero, str(header.time)
    (('ann', 'bob'), 7, 1, '2026-12-01 00:00:00')
    """
    names = fields.get("players")
    players = tuple(str(name) for name in names) if isinstance(names, list) else None
    seats = fields.get("seats")
    time = None
    if all(isinstance(fields.get(k), int) for k in ("year", "month", "day")):
        clock = fields.get("time")
        time = datetime.datetime(
            fields["year"],
            fields["month"],
            fields["day"],
            *((clock.hour, clock.minute, clock.second) if isinstance(clock, datetime.time) else ()),
        )
    position: int | None = None
    if isinstance(hero, int):
        position = hero - 1
    elif hero is not None:
        if hero.isdigit():
            position = int(hero) - 1
        elif players is not None and hero in players:
            position = players.index(hero)
        else:
            raise ValueError(f"no player {hero!r} in the hand")
    count = len(fields.get("starting_stacks") or players or ())
    if position is not None and not 0 <= position < count:
        raise ValueError(f"no player {hero!r} in the hand")
    symbol = fields.get("currency_symbol")
    zone = fields.get("time_zone_abbreviation")
    return HandHeader(
        hand_id=fields["hand"] if isinstance(fields.get("hand"), int) else 1,
        table=str(fields.get("table", "Mazziere")),
        names=players,
        seats=tuple(seats) if isinstance(seats, list) else None,
        max_seats=fields["seat_count"] if isinstance(fields.get("seat_count"), int) else None,
        time=time,
        time_zone=zone if isinstance(zone, str) and zone else "UTC",
        unit=unit,
        currency=symbol if isinstance(symbol, str) and tournament is None else "",
        hero=position,
        tournament=tournament,
    )
