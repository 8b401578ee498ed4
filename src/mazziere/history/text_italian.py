"""A text hand history of Poker all'italiana in the spirit of PokerStars' (docs/text-export.md).

There is no standard for the Italian game, so this one keeps PokerStars'
shape (header, seats, posts, sections marked ``*** ... ***``, the summary)
and names the game's own moves: the invito, the blind opening before the
deal, parol, the draw (``changes 2`` / ``stands pat``), a dead or parol pot
carried to the next hand.  :class:`~mazziere.history.pokerstars.HandHeader`
gives the names, seats and the hero, whose cards (and draws) are written.

>>> import random
>>> from mazziere.game.italian import ItalianHand
>>> hand = ItalianHand("italian-classic", [500] * 3, invito=10, rng=random.Random(2))
>>> _ = hand.check()  # no blind opening: the cards are dealt
>>> _ = hand.bet(30); _ = hand.fold(); _ = hand.fold()
>>> print(to_text_italian(hand, HandHeader(hand_id=7, names=("anna", "bruno", "carla"), hero=1)))
Mazziere Hand #7: Poker all'italiana italian-classic (invito 10) - opening J
Table 'Mazziere' 3-max Seat #3 is the button
Seat 1: anna (500 in chips)
Seat 2: bruno (500 in chips)
Seat 3: carla (500 in chips)
anna: posts the invito 10
bruno: posts the invito 10
carla: posts the invito 10
*** BLIND ***
anna: no blind
*** DEAL ***
Dealt to bruno [9c Qc 8s 8h Tc]
*** OPENING ***
anna: opens 30
bruno: folds
carla: folds
Uncalled bet (30) returned to anna
anna collected 30 from pot
anna: doesn't show hand
*** SUMMARY ***
Total pot 30 | Rake 0
Seat 1: anna collected (30)
Seat 2: bruno folded in the opening
Seat 3: carla (button) folded in the opening
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Iterable

from mazziere.evaluate import evaluate
from mazziere.game.core import (
    ActionKind,
    BetsCollected,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RakeTaken,
    UncalledBetReturned,
)
from mazziere.game.italian import Discarded, ItalianHand, PotCarried, StockReshuffled
from mazziere.history.pokerstars import HandHeader, _cards, _Seating

__all__ = ["HandHeader", "to_text_italian", "to_text_italian_many"]

_POSTS = {"invito": "the invito", "dead": "a dead", "post": "the buio"}


class _ItalianWriter:
    def __init__(self, hand: ItalianHand, header: HandHeader) -> None:
        if not hand.is_over:
            raise ValueError("only a finished hand can be written as a text history")
        self.hand = hand
        self.header = header
        self.seating = _Seating(hand.n, header)
        self.lines: list[str] = []
        self.phase = "BLIND"
        self.ends: dict[int, str] = {}

    def name(self, position: int) -> str:
        return self.seating.names[position]

    def money(self, chips: int) -> str:
        return self.seating.money(chips)

    def write(self) -> str:
        hand, header = self.hand, self.header
        setup = hand.setup
        rules = hand.rules
        title = f"Poker all'italiana {rules.name} (invito {setup.stakes.invito})"
        if setup.stakes.buio:
            title = f"Poker all'italiana {rules.name} (buio {setup.stakes.buio})"
        opening = ""
        if rules.opening_ladder:
            ladder = rules.opening_ladder
            opening = (
                f" - opening {ladder[min(setup.carried.opening_level, len(ladder) - 1)].symbol}"
            )
        if setup.carried.parol_pot:
            opening += " - parol pot"
        table = None
        if header.tournament is not None:  # as PokerStars: the tournament, then the game
            title = header.tournament.line(title)
            table = f"{header.tournament.id} {header.table}"
        first = f"Mazziere Hand #{header.hand_id}: {title}{opening}{self.seating.when()}"
        self.lines.append(first)
        self.lines.extend(self.seating.table_lines(setup.stacks, hand.button, table))
        if setup.carried.pot:
            self.lines.append(f"Carried pot {self.money(setup.carried.pot)}")
        self.body()
        self.summary()
        return "\n".join(self.lines) + "\n"

    def body(self) -> None:
        hand = self.hand
        bets = [0] * hand.n
        shows: list[str] = []
        collected: list[str] = []
        awards = sum(isinstance(r, PotAwarded) for r in hand.log)
        dealt: set[int] = set()
        blind_section = False
        for record in hand.log:
            if isinstance(record, ForcedBet):
                what = _POSTS.get(record.kind, record.kind)
                line = f"{self.name(record.position)}: posts {what} {self.money(record.amount)}"
                if record.live:
                    bets[record.position] += record.amount
                self.lines.append(line + (" and is all-in" if record.all_in else ""))
            elif isinstance(record, HoleCardsDealt):
                self.deal(record, dealt)
            elif isinstance(record, PlayerActed):
                if not dealt and not blind_section:
                    self.lines.append("*** BLIND ***")
                    blind_section = True
                elif dealt and self.phase == "DEAL":
                    self.section("OPENING")
                elif self.phase == "DRAW":
                    self.section("FINAL BETTING")
                self.action(record, bets, before_deal=not dealt)
            elif isinstance(record, Discarded):
                if self.phase != "DRAW":
                    self.section("DRAW")
                self.discard(record)
            elif isinstance(record, StockReshuffled):
                self.lines.append(f"Reshuffle: {len(record.cards)} discards make a new stock")
            elif isinstance(record, UncalledBetReturned):
                self.lines.append(
                    f"Uncalled bet ({self.money(record.amount)}) returned to "
                    f"{self.name(record.position)}"
                )
            elif isinstance(record, BetsCollected):
                bets = [0] * hand.n
            elif isinstance(record, CardsShown):
                cards = [c for c in record.cards if c is not None]
                described = evaluate(cards, rules=hand.rules, players=hand.n).describe("en")
                shows.append(f"{self.name(record.position)}: shows [{_cards(cards)}] ({described})")
            elif isinstance(record, CardsMucked):
                if len(hand.live) > 1:  # the uncontested winner "doesn't show hand"
                    shows.append(f"{self.name(record.position)}: mucks hand")
            elif isinstance(record, PotAwarded):
                collected.extend(self.seating.collected(record, awards))
            elif isinstance(record, PotCarried):
                why = "parol" if record.parol else "dead hand"
                collected.append(f"{why}: the pot ({self.money(record.amount)}) is carried")
        showdown = len(hand.live) > 1 and bool(shows)
        if showdown:
            self.lines.append("*** SHOW DOWN ***")
        self.lines.extend(shows)
        self.lines.extend(collected)
        if len(hand.live) == 1 and hand.live[0] not in hand.shown and awards:
            self.lines.append(f"{self.name(hand.live[0])}: doesn't show hand")

    def section(self, name: str) -> None:
        self.phase = name
        self.lines.append(f"*** {name} ***")

    def deal(self, record: HoleCardsDealt, dealt: set[int]) -> None:
        hero = self.header.hero
        if not dealt:
            self.section("DEAL")
        first = record.position not in dealt
        dealt.add(record.position)
        if record.position != hero:
            return
        cards = _cards(record.cards)
        if first:
            self.lines.append(f"Dealt to {self.name(hero)} [{cards}]")
        else:
            self.lines.append(f"Drawn by {self.name(hero)} [{cards}]")

    def action(self, record: PlayerActed, bets: list[int], *, before_deal: bool) -> None:
        who = self.name(record.position)
        if record.timed_out:
            self.lines.append(f"{who} has timed out")
        kind = record.kind
        top = max(bets)
        all_in = " and is all-in" if record.all_in else ""
        blind = " blind" if before_deal else ""
        if kind is ActionKind.FOLD:
            line = f"{who}: folds"
            self.ends[record.position] = f"folded in the {self.phase.lower()}"
        elif kind is ActionKind.PAROL:
            line = f"{who}: says parol"
        elif kind is ActionKind.CHECK:
            line = f"{who}: no blind" if before_deal else f"{who}: checks"
        elif kind is ActionKind.CALL:
            line = f"{who}: calls {self.money(record.added)}{all_in}"
        elif not top or kind is ActionKind.BET:
            verb = "opens" if self.phase in ("BLIND", "OPENING") else "bets"
            line = f"{who}: {verb}{blind} {self.money(record.to)}{all_in}"
        else:
            line = (
                f"{who}: raises{blind} {self.money(record.to - top)} to "
                f"{self.money(record.to)}{all_in}"
            )
        if kind not in (ActionKind.FOLD, ActionKind.PAROL):
            bets[record.position] = record.to
        self.lines.append(line)

    def discard(self, record: Discarded) -> None:
        who = self.name(record.position)
        count = len(record.cards)
        if record.timed_out:
            self.lines.append(f"{who} has timed out")
        if not count:
            self.lines.append(f"{who}: stands pat")
        elif record.position == self.header.hero:
            self.lines.append(f"{who}: changes {count} [{_cards(record.cards)}]")
        else:
            self.lines.append(f"{who}: changes {count}")

    def summary(self) -> None:
        hand = self.hand
        awarded = [r.amount for r in hand.log if isinstance(r, PotAwarded)]
        rake = sum(r.amount for r in hand.log if isinstance(r, RakeTaken))
        self.lines.append("*** SUMMARY ***")
        self.lines.append(self.seating.total_line(awarded, rake))
        carry = hand.carry
        if carry.pot:
            parol = ", a parol pot" if carry.parol_pot else ""
            opening = f", opening {carry.opening.symbol}" if carry.opening is not None else ""
            self.lines.append(f"Next hand: pot {self.money(carry.pot)}{opening}{parol}")
        won = self.seating.winnings(hand.log)
        for position in self.seating.by_seat():
            self.lines.append(
                self.seating.seat_label(position, hand.button) + " " + self.end(position, won)
            )

    def end(self, position: int, won: list[int]) -> str:
        hand = self.hand
        if position in self.ends:
            return self.ends[position]
        shown = hand.shown.get(position) if position in hand.shown else None
        if shown is not None and all(c is not None for c in shown):
            cards = [c for c in shown if c is not None]
            described = evaluate(cards, rules=hand.rules, players=hand.n).describe("en")
            result = f"won ({self.money(won[position])})" if won[position] else "lost"
            return f"showed [{_cards(cards)}] and {result} with {described}"
        if won[position]:
            return f"collected ({self.money(won[position])})"
        if hand.result is not None and not any(isinstance(r, PotAwarded) for r in hand.log):
            return "in the carried pot"
        return "mucked"


def to_text_italian(hand: ItalianHand, header: HandHeader | None = None) -> str:
    """The finished Italian hand as a text hand history (ends with a newline)."""
    return _ItalianWriter(hand, header or HandHeader()).write()


def to_text_italian_many(hands: Iterable[tuple[ItalianHand, HandHeader]]) -> str:
    """Several hands, separated by two blank lines."""
    return "\n\n".join(to_text_italian(hand, header) for hand, header in hands)
