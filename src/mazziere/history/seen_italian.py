"""Italian hands seen from one seat: the unknown cards filled so that the rules replay them.

The room's downloads, and the hands ``mazziere play --connect`` saves, write each card the
player did not see as ``??``: the other players' hole cards, their discards and the cards
they drew.  The Italian engine needs every card (who may open depends on them, and so does
the showdown), so :func:`fillings` writes in their place the weakest cards that fit what
happened, taken from the cards the history does not show: a hand shown at the showdown is
made of what was kept and what was drawn, the opener gets the smallest pair that opens,
every other hand a high card.  The caller replays each filling, most likely first, until
one replays and comes out as the outcome the history states (``finishing_stacks`` and the
rest, which a download always has): nothing the player did not see is made known, and all
that the hidden cards decided (who may open, who wins) is checked against what is stated.

>>> from mazziere.rules import find_rules
>>> lines = ["p1 cc", "d dh p1 9hQc9sKdKs", "d dh p2 ??????????", "p1 cc", "p2 cbr 10",
...          "p1 f"]
>>> first = next(fillings(lines, find_rules("italian-classic"), players=2, level=0))
>>> from mazziere.cards import parse_cards
>>> from mazziere.game.italian.rules import can_open
>>> p2 = parse_cards(first[2].split()[-1])  # p2 opened at Jacks: five low cards that open
>>> p1 = parse_cards(lines[1].split()[-1])
>>> can_open(p2, "italian-classic", players=2, level=0), set(p2) & set(p1)
(True, set())
>>> first[:2] == lines[:2] and first[3:] == lines[3:]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product

from mazziere.cards import Card
from mazziere.evaluate import evaluate
from mazziere.game.italian.rules import can_open
from mazziere.history import phh
from mazziere.history.phh import PHHError, glued_cards
from mazziere.rules import Category, RuleSet

__all__ = ["fillings", "has_unknown_cards", "reshuffled"]

LOW_CARDS = 12
"""How many free cards a filled hand is looked for among (792 five-card hands): the lowest
of each rank, then the next of each (:func:`_spread`); low cards of different ranks make
weak hands, which lose the showdowns the history says they lost."""

ALTERNATIVES = 3
"""How many fillings of each seat are tried (the first fits all but a few hands)."""


def has_unknown_cards(lines: Sequence[str]) -> bool:
    """Whether any action writes a card as ``??`` (a hand seen from one seat)."""
    return any("?" in line.split("#", 1)[0] for line in lines)


def reshuffled(lines: Sequence[str], rules: RuleSet, *, players: int) -> bool:
    """Whether the hand deals more cards than its deck holds: the stock ran out and the
    discards were shuffled into a new one.  Which discards came back a seat may not have
    seen, so such a hand is not filled (the engine deals them by the stock's rule).

    >>> from mazziere.rules import find_rules
    >>> reshuffled(["d dh p1 ??????????", "d dh p2 ??????????"], find_rules("italian-32"),
    ...            players=2)
    False
    """
    known: set[Card] = set()
    dealt = sum(
        _read(said[3:], known)[0]
        for said in (line.split("#", 1)[0].split() for line in lines)
        if said[:2] == ["d", "dh"]
    )
    return dealt > len(rules.deck(players))


@dataclass
class _Seat:
    """One player's cards as the history tells them (``None``: unknown)."""

    dealt: int | None = None
    """The index of the line that deals the five cards (unknown ones only are filled)."""
    draws: list[tuple[int, int]] = field(default_factory=list)
    """The lines that deal the new cards of the draw, each with its number of cards."""
    discard: tuple[int, int] | None = None
    """The line of the discards and how many (unknown ones only are filled)."""
    shown: list[Card] | None = None
    """The five cards shown at the showdown."""
    opener: bool = False
    """Whether the player opened (their five cards must open)."""


def fillings(
    lines: Sequence[str],
    rules: RuleSet,
    *,
    players: int,
    level: int,
    parol_pot: bool = False,
) -> Iterator[list[str]]:
    """The actions with every unknown card filled in, the most likely filling first."""
    words = [line.split("#", 1)[0].split() for line in lines]
    known: set[Card] = set()
    seats: dict[int, _Seat] = {}
    unknown: dict[int, _Seat] = {}
    dealt_yet = blind = opened = False
    for index, said in enumerate(words):
        if len(said) < 2:
            continue
        if said[:2] == ["d", "dh"] and len(said) >= 3:
            position = int(said[2][1:]) - 1
            seat = seats.setdefault(position, _Seat())
            count, cards = _read(said[3:], known)
            if seat.dealt is None:
                seat.dealt = index
                dealt_yet = True
                if cards is None:
                    unknown[position] = seat
            elif cards is None:
                seat.draws.append((index, count))
            continue
        if not said[0].startswith("p") or not said[0][1:].isdigit():
            continue
        position = int(said[0][1:]) - 1
        seat = seats.setdefault(position, _Seat())
        if said[1] == "cbr" and not opened:
            opened = True
            blind = not dealt_yet  # a blind opening needs no cards
            seat.opener = dealt_yet and not blind
        elif said[1] == "sd":
            count, cards = _read(said[2:], known)
            if cards is None:
                seat.discard = (index, count)
        elif said[1] == "sm" and len(said) > 2:
            count, cards = _read(said[2:], known)
            seat.shown = cards
    free = [card for card in rules.deck(players) if card not in known]
    order = sorted(unknown)
    choices = [range(ALTERNATIVES)] * len(order)
    for choice in sorted(product(*choices), key=sum):
        filled = list(lines)
        pool = list(free)
        for position, alternative in zip(order, choice, strict=True):
            seat = unknown[position]
            options = _seat_filling(
                seat, pool, rules, players=players, level=level, parol_pot=parol_pot
            )
            chosen = next((o for i, o in enumerate(options) if i == alternative), None)
            if chosen is None:
                break
            first, discards, drawn = chosen
            _write(filled, seat, position, first=first, discards=discards, drawn=drawn)
            for card in (*first, *drawn):
                if card in pool:
                    pool.remove(card)
        else:
            yield filled


def _read(tokens: Sequence[str], known: set[Card]) -> tuple[int, list[Card] | None]:
    """How many cards a line's cards text holds, and the cards (``None``: unknown)."""
    text = "".join(tokens)
    try:
        cards = phh.parse_cards(text) if text else ()
    except PHHError:
        return 0, []  # the replay says what is wrong with it
    if None in cards:
        return len(cards), None
    seen = [card for card in cards if card is not None]
    known.update(seen)
    return len(seen), seen


def _seat_filling(
    seat: _Seat, pool: list[Card], rules: RuleSet, *, players: int, level: int, parol_pot: bool
) -> Iterator[tuple[list[Card], list[Card], list[Card]]]:
    """(five cards dealt, the discards, the new cards) for one seat, most likely first."""
    changed = seat.discard[1] if seat.discard is not None else 0

    def opens(cards: Sequence[Card]) -> bool:
        return not seat.opener or can_open(
            cards, rules, players=players, level=level, parol_pot=parol_pot
        )

    if seat.shown is not None:
        # Shown: what was kept is among the five shown, the rest was drawn.
        for held in combinations(seat.shown, 5 - changed):
            drawn = [card for card in seat.shown if card not in held]
            for thrown in combinations(_spread(pool, held), changed):
                if opens([*held, *thrown]):
                    yield [*held, *thrown], list(thrown), drawn
                    break
        return
    for first in _weak_hands(pool, rules, players, opens):
        # The discards: the opening pair first (a hand that opens and then lost), then the
        # highest cards; the new cards as low as the free cards allow.
        paired = sorted(first, key=lambda c: (sum(o.rank == c.rank for o in first), c.rank))
        discards = paired[::-1][:changed]
        kept = [card for card in first if card not in discards]
        rest = _spread(pool, first)
        if len(rest) < changed:
            return  # the stock ran out and the discards were shuffled in: not filled here
        drawn = next(
            (
                list(new)
                for new in combinations(rest, changed)
                if _weak([*kept, *new], rules, players)
            ),
            rest[:changed],
        )
        yield first, discards, drawn


def _spread(pool: Sequence[Card], taken: Sequence[Card] = ()) -> list[Card]:
    """The first :data:`LOW_CARDS` free cards not ``taken``: the lowest of each rank from the
    lowest rank up, then the second lowest of each, and so on."""
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(pool):
        if card not in taken:
            by_rank.setdefault(card.rank, []).append(card)
    ranks = sorted(by_rank)
    spread = [by_rank[r][depth] for depth in range(4) for r in ranks if depth < len(by_rank[r])]
    return spread[:LOW_CARDS]


def _weak_hands(
    pool: list[Card], rules: RuleSet, players: int, opens: Callable[[Sequence[Card]], bool]
) -> Iterator[list[Card]]:
    """Five free cards: a high card, or the smallest pair that opens (for an opener)."""
    for cards in combinations(_spread(pool), 5):
        if _weak(cards, rules, players) and opens(cards):
            yield list(cards)
    for rank in sorted({card.rank for card in pool}):
        pair = [card for card in pool if card.rank == rank][:2]
        if len(pair) < 2:
            continue
        for rest in combinations(_spread(pool, pair), 3):
            hand = [*pair, *rest]
            if (
                opens(hand)
                and evaluate(hand, rules=rules, players=players).category is Category.PAIR
            ):
                yield hand
                break
    fallback = _spread(pool)[:5]  # too few free cards for a weak hand: any will do, if it fits
    if len(fallback) == 5 and opens(fallback):
        yield fallback


def _weak(cards: Sequence[Card], rules: RuleSet, players: int) -> bool:
    return evaluate(list(cards), rules=rules, players=players).category is Category.HIGH_CARD


def _write(
    lines: list[str],
    seat: _Seat,
    position: int,
    *,
    first: list[Card],
    discards: list[Card],
    drawn: list[Card],
) -> None:
    """Write the seat's filled cards into its lines (the comments go: they named no card)."""
    assert seat.dealt is not None
    lines[seat.dealt] = f"d dh p{position + 1} {glued_cards(first)}"
    if seat.discard is not None:
        lines[seat.discard[0]] = f"p{position + 1} sd {glued_cards(discards)}"
    start = 0
    for index, count in seat.draws:
        lines[index] = f"d dh p{position + 1} {glued_cards(drawn[start : start + count])}"
        start += count
