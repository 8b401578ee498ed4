"""Player statistics from hand histories: the trackers' figures, and Poker all'italiana's own.

:class:`StatsBook` reads finished hands (:meth:`StatsBook.add`) and keeps
per-player counts; :class:`PlayerStats` turns them into the usual figures.
The definitions (docs/stats.md) are those trackers use:

* **VPIP**: hands in which the player put chips in voluntarily before the
  flop (a call, bet or raise; blinds and checks do not count) / hands.
* **PFR**: hands with a bet or raise before the flop / hands.
* **3-bet** (Hold'em): re-raises before the flop when facing exactly one
  raise / times the player acted facing exactly one raise.
* **AF** (aggression factor): bets and raises after the flop / calls after
  the flop (``None`` without a call).
* **WTSD** (went to showdown): showdowns / hands in which the player saw the
  flop (Italian: took part in the draw).
* **W$SD** (won at showdown): showdowns in which the player won chips /
  showdowns.
* **net per 100**: the player's result per 100 hands, in the file's units.

Poker all'italiana adds **opens** (hands in which the player made the
opening bet after the deal / hands), **blind opens** (opened before the
deal / hands), **cards changed** (cards thrown per draw), **parol** (hands
in which the player said parol / hands) and the **parol-pot winnings** (the
net result over the parol-pot hands played).

>>> import random
>>> from mazziere.game.holdem import HoldemHand
>>> hand = HoldemHand([100, 100, 100], blinds=(1, 2), rng=random.Random(1))
>>> _ = hand.raise_to(6); _ = hand.raise_to(18); _ = hand.fold(); _ = hand.fold()
>>> book = StatsBook()
>>> book.add(hand, ["ann", "bob", "cat"])
>>> cat, ann = book.players["cat"], book.players["ann"]
>>> cat.vpip, cat.pfr, ann.three_bet, ann.net_per_100
(1.0, 1.0, 1.0, Decimal('800'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any, cast

from mazziere.game.core import (
    ActionKind,
    BettingHand,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    Record,
)
from mazziere.game.holdem import BoardDealt
from mazziere.game.italian import Discarded, ItalianHand
from mazziere.history.phh import PHHError, PhhHand

__all__ = ["PlayerStats", "StatsBook"]

_WAGERS = (ActionKind.BET, ActionKind.RAISE)


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


@dataclass
class PlayerStats:
    """One player's counts over the hands read; the figures are properties (``None``: no chance)."""

    name: str
    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    three_bets: int = 0
    three_bet_chances: int = 0
    aggressive_actions: int = 0
    calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    net: Decimal = Decimal(0)
    italian_hands: int = 0
    opens: int = 0
    blind_opens: int = 0
    draws: int = 0
    cards_changed: int = 0
    parol_hands: int = 0
    parol_pot_hands: int = 0
    parol_pot_net: Decimal = Decimal(0)

    def merge(self, other: PlayerStats) -> None:
        """Add ``other``'s counts to these: the figures of two sets of hands are those of
        their union, so a window of hands can be counted one hand at a time.

        >>> one, two = PlayerStats("ann", hands=1, vpip_hands=1), PlayerStats("x", hands=1)
        >>> one.merge(two)
        >>> one.name, one.hands, one.vpip
        ('ann', 2, 0.5)
        """
        for counter in fields(self):
            if counter.name != "name":
                name = counter.name
                setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def vpip(self) -> float | None:
        """Hands with chips put in voluntarily before the flop (or before the draw) / hands."""
        return _share(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        """Hands with a bet or raise before the flop (or before the draw) / hands."""
        return _share(self.pfr_hands, self.hands)

    @property
    def three_bet(self) -> float | None:
        """Re-raises facing exactly one raise before the flop / times faced with one."""
        return _share(self.three_bets, self.three_bet_chances)

    @property
    def aggression_factor(self) -> float | None:
        """(Bets + raises) / calls after the flop (or after the draw); ``None`` without a call."""
        return _share(self.aggressive_actions, self.calls)

    @property
    def went_to_showdown(self) -> float | None:
        """Showdowns / hands in which the player saw the flop (or the draw)."""
        return _share(self.showdowns, self.saw_flop)

    @property
    def won_at_showdown(self) -> float | None:
        """Showdowns won (any chips) / showdowns."""
        return _share(self.showdowns_won, self.showdowns)

    @property
    def net_per_100(self) -> Decimal | None:
        """The net result per 100 hands, in the files' units."""
        return self.net * 100 / self.hands if self.hands else None

    @property
    def open_rate(self) -> float | None:
        """Italian hands the player opened after the deal / Italian hands."""
        return _share(self.opens, self.italian_hands)

    @property
    def blind_open_rate(self) -> float | None:
        """Italian hands the player opened blind, before the deal / Italian hands."""
        return _share(self.blind_opens, self.italian_hands)

    @property
    def cards_per_draw(self) -> float | None:
        """Cards changed per draw (standing pat counts as a draw of none)."""
        return _share(self.cards_changed, self.draws)

    @property
    def parol_rate(self) -> float | None:
        """Italian hands in which the player said parol / Italian hands."""
        return _share(self.parol_hands, self.italian_hands)

    def to_dict(self) -> dict[str, Any]:
        """The counts and the figures, as plain data (amounts as text)."""
        figures = {
            "vpip": self.vpip,
            "pfr": self.pfr,
            "three_bet": self.three_bet,
            "aggression_factor": self.aggression_factor,
            "went_to_showdown": self.went_to_showdown,
            "won_at_showdown": self.won_at_showdown,
            "net_per_100": _text(self.net_per_100),
        }
        counts: dict[str, Any] = {
            "hands": self.hands,
            "vpip_hands": self.vpip_hands,
            "pfr_hands": self.pfr_hands,
            "three_bets": self.three_bets,
            "three_bet_chances": self.three_bet_chances,
            "aggressive_actions": self.aggressive_actions,
            "calls": self.calls,
            "saw_flop": self.saw_flop,
            "showdowns": self.showdowns,
            "showdowns_won": self.showdowns_won,
            "net": _text(self.net),
        }
        out: dict[str, Any] = {"name": self.name, **counts, **figures}
        if self.italian_hands:
            out["italian"] = {
                "hands": self.italian_hands,
                "opens": self.opens,
                "blind_opens": self.blind_opens,
                "draws": self.draws,
                "cards_changed": self.cards_changed,
                "parol_hands": self.parol_hands,
                "parol_pot_hands": self.parol_pot_hands,
                "open_rate": self.open_rate,
                "blind_open_rate": self.blind_open_rate,
                "cards_per_draw": self.cards_per_draw,
                "parol_rate": self.parol_rate,
                "parol_pot_net": _text(self.parol_pot_net),
            }
        return out


def _text(value: Decimal | None) -> str | None:
    if value is None:
        return None
    text = f"{value.quantize(Decimal('0.01')) if value != value.to_integral_value() else value:f}"
    return text


class StatsBook:
    """Per-player statistics over the hands added, players known by name."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerStats] = {}

    def _player(self, name: str) -> PlayerStats:
        stats = self.players.get(name)
        if stats is None:
            stats = self.players[name] = PlayerStats(name)
        return stats

    def add_phh(self, hand: PhhHand, names: Sequence[str] | None = None) -> None:
        """Count a PHH hand (Hold'em or Poker all'italiana), replayed in our engine.

        Players are known by ``names`` (by position) if given, else by the
        ``players`` field (``p1``, ``p2``... without it).  Raises
        :class:`~mazziere.history.replay.ReplayError` or
        :class:`~mazziere.history.phh.PHHError` if the hand cannot be replayed.
        """
        from mazziere.history.holdem import holdem_from_phh
        from mazziere.history.phh_italian import replay_italian

        players = hand.get("players")
        variant = hand.variant
        game: BettingHand
        unit: Decimal | int = 1
        if variant == "NT":
            game, unit = holdem_from_phh(hand, unknown_stacks=True)  # payoffs are exact
        elif variant in ("NIC", "PIC", "NI32", "PI32"):
            game = replay_italian(hand, seen_from_one_seat=True)
        else:
            raise PHHError(f"variant {variant!r}: no statistics for it")
        if not game.is_over:
            raise PHHError("the history stops before the end of the hand")
        if names is None:
            if isinstance(players, list) and len(players) == game.n:
                names = [str(p) for p in players]
            else:
                names = [f"p{i + 1}" for i in range(game.n)]
        self.add(game, names, unit=unit)

    def add(self, hand: BettingHand, names: Sequence[str], *, unit: Decimal | int = 1) -> None:
        """Count one finished hand; ``names`` by position, ``unit`` a chip's value."""
        result = hand.result
        if result is None:
            raise ValueError("only a finished hand can be counted")
        if len(names) != hand.n:
            raise ValueError(f"a {hand.n}-player hand needs {hand.n} names")
        players = [self._player(name) for name in names]
        won = [0] * hand.n
        for record in hand.log:
            if isinstance(record, PotAwarded):
                for winner, share in zip(record.winners, record.shares, strict=True):
                    won[winner] += share
        traits = hand.rules.traits
        saw_later = self._second_part(hand)
        raises = 0
        voluntary: set[int] = set()
        raised: set[int] = set()
        faced_one: set[int] = set()
        later = False
        for record in hand.log:
            if record is saw_later:
                later = True
            if not isinstance(record, PlayerActed):
                continue
            who = players[record.position]
            kind = record.kind
            if kind is ActionKind.ALL_IN:
                kind = ActionKind.RAISE
            if not later:
                if raises == 1 and traits.three_bets and record.position not in faced_one:
                    faced_one.add(record.position)
                    who.three_bet_chances += 1
                    who.three_bets += kind in _WAGERS
                if kind in _WAGERS or kind is ActionKind.CALL:
                    voluntary.add(record.position)
                if kind in _WAGERS:
                    raised.add(record.position)
                    raises += 1
            elif later:
                if kind in _WAGERS:
                    who.aggressive_actions += 1
                elif kind is ActionKind.CALL:
                    who.calls += 1
        live = set(hand.live)
        showdown = len(live) > 1 and any(won)  # (a dead hand carries its pot: no showdown)
        saw: set[int] = set()
        if saw_later is not None:
            index = hand.log.index(saw_later)
            folded_before = {
                r.position
                for r in hand.log[:index]
                if isinstance(r, PlayerActed) and r.kind is ActionKind.FOLD
            }
            saw = set(range(hand.n)) - folded_before
        scale = Decimal(unit)
        for position, who in enumerate(players):
            who.hands += 1
            who.vpip_hands += position in voluntary
            who.pfr_hands += position in raised
            who.saw_flop += position in saw
            if showdown and position in live:
                who.showdowns += 1
                who.showdowns_won += won[position] > 0
            who.net += result.payoffs[position] * scale
        if traits.draw:  # (Poker all'italiana's own figures)
            self._italian(cast(ItalianHand, hand), players, scale)

    @staticmethod
    def _second_part(hand: BettingHand) -> Record | None:
        """The record that ends the first betting round's part of the hand, if it came.

        Hold'em: the flop (before it, the preflop decisions).  Poker
        all'italiana: the first discard (before it, the blind opening and the
        opening round).
        """
        marker: type = BoardDealt if hand.rules.traits.board else Discarded
        return next((r for r in hand.log if isinstance(r, marker)), None)

    @staticmethod
    def _italian(hand: ItalianHand, players: list[PlayerStats], scale: Decimal) -> None:
        result = hand.result
        assert result is not None
        dealt = False
        opened = False
        said_parol: set[int] = set()
        for record in hand.log:
            if isinstance(record, HoleCardsDealt):
                dealt = True
            elif isinstance(record, PlayerActed):
                if record.kind is ActionKind.PAROL:
                    said_parol.add(record.position)
                elif record.kind in _WAGERS and not opened:
                    opened = True
                    if dealt:
                        players[record.position].opens += 1
                    else:
                        players[record.position].blind_opens += 1
            elif isinstance(record, Discarded):
                players[record.position].draws += 1
                players[record.position].cards_changed += len(record.cards)
        parol_pot = hand.setup.carried.parol_pot
        for position, who in enumerate(players):
            who.italian_hands += 1
            who.parol_hands += position in said_parol
            if parol_pot:
                who.parol_pot_hands += 1
                who.parol_pot_net += result.payoffs[position] * scale
