"""PHH for Texas Hold'em No-Limit (variant ``NT``): replay a hand history, write one of ours.

Amounts are exact: every amount of a hand is scaled to whole chips by the
hand's smallest decimal unit (``0.25`` and ``1.50`` -> quarters), played as
ints and scaled back.  PHH conventions followed: heads-up, ``antes`` and
``blinds_or_straddles`` are given small blind first and applied reversed (the
first player is the big blind); a negative blind is posted but does not
decide who acts first; an unknown stack ``inf`` is played as a stack that
never runs out and finishes as ``inf``; ``ante_trimming_status = false`` (the
default) makes the antes dead money in the main pot.  Cards shown anywhere in
the hand (``pN sm AhKd``) are the player's hole cards from the deal on;
unknown cards (``????``) that would decide a pot make the hand an error.
A check that pokerkit records after the betting is over (the only player
left with chips, whose bet is already the largest) changes nothing and is
accepted, once; any other action after the end is refused.

>>> from mazziere.history.phh import loads
>>> hand = loads('''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AhAd', 'd dh p2 ????', 'p2 cbr 6', 'p1 cbr 100', 'p2 cc',
...            'd db 2c3c4d', 'd db 9s', 'd db Ks', 'p2 sm 7h7s', 'p1 sm AhAd']
... ''')
>>> outcome = replay_nt(hand)
>>> [str(s) for s in outcome.finishing_stacks], [str(p) for p in outcome.payoffs]
(['200', '0'], ['100', '-100'])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from mazziere.cards import Card, CardError
from mazziere.game.core import (
    ActionKind,
    BetsCollected,
    CardsMucked,
    CardsShown,
    DeckExhaustedError,
    ForcedBet,
    HandSetupError,
    HoleCardsDealt,
    IllegalActionError,
    Phase,
    PlayerActed,
    Record,
    UndeterminedHandError,
)
from mazziere.game.holdem import BoardDealt, HoldemHand
from mazziere.history.phh import PhhAction, PHHError, PhhHand, parse_cards
from mazziere.history.replay import Outcome, ReplayError
from mazziere.rules import HOLDEM, WrongPlayerCountError

__all__ = ["holdem_from_phh", "replay_nt", "to_phh"]

PHH_HOLDEM = dataclasses.replace(HOLDEM, max_players=22)
"""Hold'em as hand histories record it: up to 22 players (52 cards: two each and a board)."""

_REQUIRED = ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")


def _decimal(value: object, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise ReplayError(f"{what} must be a number, not {value!r}")
    return Decimal(value)


def _amount(text: str, what: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ReplayError(f"{what}: bad amount {text!r}") from None
    if not value.is_finite() or value < 0:
        raise ReplayError(f"{what}: bad amount {text!r}")
    return value


class _Units:
    """Exact conversion between the file's amounts and int chips."""

    def __init__(self, amounts: Sequence[Decimal]) -> None:
        places = 0
        for amount in amounts:
            if amount.is_finite():
                exponent = amount.as_tuple().exponent
                assert isinstance(exponent, int)
                places = max(places, -exponent)
        self.places = places
        self.scale = 10**places

    def chips(self, amount: Decimal) -> int:
        scaled = amount.scaleb(self.places)
        chips = int(scaled)
        if chips != scaled:  # cannot happen: the scale fits every amount
            raise ReplayError(f"amount {amount} is not a whole number of units")
        return chips

    def amount(self, chips: int) -> Decimal:
        return Decimal(chips).scaleb(-self.places)


def _player(text: str, n: int) -> int:
    if not text.startswith("p") or not text[1:].isdigit() or not 1 <= int(text[1:]) <= n:
        raise ReplayError(f"no player {text!r} in a {n}-player hand")
    return int(text[1:]) - 1


def _hole_cards(
    actions: Sequence[PhhAction], n: int
) -> tuple[list[tuple[Card | None, ...]], list[tuple[Card | None, ...]]]:
    """Each player's hole cards (completed by any cards shown later) and the board deals."""
    dealt: dict[int, tuple[Card | None, ...]] = {}
    shown: dict[int, tuple[Card | None, ...]] = {}
    boards: list[tuple[Card | None, ...]] = []
    for action in actions:
        if action.actor == "d" and action.verb == "dh":
            if len(action.args) != 2:
                raise ReplayError(f"bad deal {action.text!r}")
            player = _player(action.args[0], n)
            if player in dealt:
                raise ReplayError(f"p{player + 1} is dealt twice")
            dealt[player] = parse_cards(action.args[1])
        elif action.actor == "d" and action.verb == "db":
            if len(action.args) != 1:
                raise ReplayError(f"bad deal {action.text!r}")
            boards.append(parse_cards(action.args[0]))
        elif action.verb == "sm" and action.args and action.args[0] != "-":
            player = _player(action.actor, n)
            cards = parse_cards(action.args[0])
            before = shown.get(player, (None,) * len(cards))
            if len(before) == len(cards):
                cards = tuple(c if c is not None else b for c, b in zip(cards, before, strict=True))
            shown[player] = cards
    hole: list[tuple[Card | None, ...]] = []
    for player in range(n):
        cards = dealt.get(player, (None, None))
        if len(cards) != 2:
            raise ReplayError(f"p{player + 1} is dealt {len(cards)} cards, not 2")
        reveal = [c for c in shown.get(player, ()) if c is not None]
        known = [c for c in cards if c is not None]
        if any(c not in reveal for c in known) and len(reveal) == 2:
            raise ReplayError(f"p{player + 1} shows cards other than those dealt")
        extra = iter(c for c in reveal if c not in known)
        hole.append(tuple(c if c is not None else next(extra, None) for c in cards))
    return hole, boards


def replay_nt(hand: PhhHand) -> Outcome:
    """Replay a no-limit Texas Hold'em hand history; raise :class:`ReplayError` if it cannot be."""
    game, units, infinite = _replayed(hand)
    result = game.result
    assert result is not None
    finishing = tuple(
        Decimal("Infinity") if i in infinite else units.amount(s)
        for i, s in enumerate(result.stacks)
    )
    payoffs = tuple(units.amount(p) for p in result.payoffs)
    return Outcome(finishing, payoffs)


def holdem_from_phh(hand: PhhHand, *, unknown_stacks: bool = False) -> tuple[HoldemHand, Decimal]:
    """The hand replayed in our engine, and a chip's value in the file's units.

    Raises :class:`ReplayError` if it cannot be replayed, or if a stack is
    unknown (``inf``) unless ``unknown_stacks``: then such a stack is played
    as one that never runs out (its payoff is exact, its stacks are not).

    >>> from mazziere.history.phh import loads
    >>> game, unit = holdem_from_phh(loads('''variant = 'NT'
    ... antes = [0, 0]
    ... blinds_or_straddles = [0.50, 1]
    ... min_bet = 1
    ... starting_stacks = [100, 100]
    ... actions = ['d dh p1 AhKh', 'd dh p2 7c2d', 'p2 f']
    ... '''))
    >>> game.result.stacks, unit
    ((10050, 9950), Decimal('0.01'))
    """
    game, units, infinite = _replayed(hand)
    if infinite and not unknown_stacks:
        raise ReplayError(f"p{min(infinite) + 1}'s stack is unknown (inf)")
    return game, units.amount(1)


def _replayed(hand: PhhHand) -> tuple[HoldemHand, _Units, set[int]]:
    for name in _REQUIRED:
        if name not in hand:
            raise ReplayError(f"missing field {name!r}")
    starting = [_decimal(v, "a starting stack") for v in _list(hand, "starting_stacks")]
    n = len(starting)
    antes = [_decimal(v, "an ante") for v in _list(hand, "antes")]
    blinds = [_decimal(v, "a blind") for v in _list(hand, "blinds_or_straddles")]
    min_bet = _decimal(hand["min_bet"], "min_bet")
    if len(antes) != n or len(blinds) != n:
        raise ReplayError(f"antes and blinds_or_straddles need {n} entries, one per player")
    if any(s <= 0 or s.is_nan() for s in starting):
        raise ReplayError("starting stacks must be positive (inf when unknown)")
    if any(not a.is_finite() or a < 0 for a in antes) or any(not b.is_finite() for b in blinds):
        raise ReplayError("antes must be finite and not negative, blinds finite")
    trimming = hand.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise ReplayError("ante_trimming_status must be true or false")
    try:
        actions = hand.parsed_actions()
        hole, boards = _hole_cards(actions, n)
    except PHHError as exc:
        raise ReplayError(str(exc)) from None
    bets: list[tuple[int, Decimal]] = []
    for index, action in enumerate(actions):
        if action.verb == "cbr":
            if len(action.args) != 1:
                raise ReplayError(f"action {index + 1} {action.text!r}: one amount, please")
            bets.append((index, _amount(action.args[0], f"action {index + 1}")))
    units = _Units([*starting, *antes, *blinds, min_bet, *(amount for _, amount in bets)])
    finite = [units.chips(s) for s in starting if s.is_finite()]
    everything = sum(finite) + sum(units.chips(amount) for _, amount in bets)
    # An unknown stack plays as one nobody can exhaust in this hand.
    stand_in = 10 * (everything + sum(units.chips(abs(b)) for b in blinds)) + 10**9
    infinite = {i for i, s in enumerate(starting) if not s.is_finite()}
    stacks = [stand_in if i in infinite else units.chips(s) for i, s in enumerate(starting)]
    per_blind = [units.chips(b) if b >= 0 else -units.chips(-b) for b in blinds]
    per_ante = [units.chips(a) for a in antes]
    if n == 2:  # PHH writes heads-up forced bets small blind first; the big blind is p1
        per_ante.reverse()
    deck: list[Card | None] = [h[0] for h in hole] + [h[1] for h in hole]
    for board in boards:
        deck.append(None)  # the burn card
        deck.extend(board)
    try:
        game = HoldemHand(
            stacks,
            blinds=per_blind,
            ante=per_ante,
            min_bet=units.chips(min_bet),
            deck=deck,
            antes_dead=not trimming,
            ask_show=True,
            rules=PHH_HOLDEM,
        )
        _play(game, actions, units, n)
    except DeckExhaustedError:
        raise ReplayError("incomplete: the actions stop before the hand ends") from None
    except (IllegalActionError, HandSetupError, WrongPlayerCountError, CardError) as exc:
        raise ReplayError(str(exc)) from None
    except UndeterminedHandError as exc:
        raise ReplayError(f"showdown with unknown hole cards: {exc}") from None
    if not game.is_over:
        raise ReplayError("incomplete: the actions stop before the hand ends")
    for record in game.log:
        if (
            isinstance(record, PlayerActed | ForcedBet)
            and record.all_in
            and record.position in infinite
        ):
            raise ReplayError(f"p{record.position + 1}'s unknown (inf) stack ran out")
    return game, units, infinite


def _list(hand: PhhHand, name: str) -> list[Any]:
    value = hand[name]
    if not isinstance(value, list):
        raise ReplayError(f"{name} must be an array")
    return value


class _NoOpCheck:
    """Who may make the check that changes nothing, pokerkit's habit, right now (or ``None``).

    pokerkit 0.7.7 asks the only player left with chips to check when everyone
    else in the hand is all-in and that player's bet is already the largest (a
    big blind whose opponents are all-in for less): the betting is over and
    our engine asks nothing, but pokerkit's PHH records the check.  It is
    accepted once, as the next player action after the betting round it
    belongs to; any other action after the end is refused as before.
    """

    def __init__(self, n: int) -> None:
        self.bets = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        self.read = 0
        self.position: int | None = None

    def update(self, log: Sequence[Record]) -> None:
        """Read the new records: did a betting round just end with one player able to act?"""
        self.position = None
        for record in log[self.read :]:
            if isinstance(record, ForcedBet):
                if record.live:
                    self.bets[record.position] += record.amount
                self.all_in[record.position] |= record.all_in
            elif isinstance(record, PlayerActed):
                if record.kind is ActionKind.FOLD:
                    self.folded[record.position] = True
                else:
                    self.bets[record.position] = record.to
                    self.all_in[record.position] |= record.all_in
            elif isinstance(record, BetsCollected):
                if self.position is None:
                    self.position = self._lone_player()
                self.bets = [0] * len(self.bets)
        self.read = len(log)

    def _lone_player(self) -> int | None:
        live = [i for i, folded in enumerate(self.folded) if not folded]
        able = [i for i in live if not self.all_in[i]]
        if len(live) < 2 or len(able) != 1:
            return None
        lone = able[0]
        return lone if self.bets[lone] == max(self.bets[i] for i in live) else None


def _play(game: HoldemHand, actions: Sequence[PhhAction], units: _Units, n: int) -> None:
    board_seen = 0
    pending: dict[int, PhhAction] = {}
    no_op_check = _NoOpCheck(n)
    no_op_check.update(game.log)
    for index, action in enumerate(actions):
        where = f"action {index + 1} {action.text.strip()!r}"
        if not action.verb:
            continue
        try:
            if action.actor == "d":
                if action.verb == "db":
                    board_seen += len(action.args[0]) // 2
                    if len(game.board) < board_seen:
                        raise ReplayError(f"{where}: board dealt before the betting round ended")
                elif action.verb != "dh":
                    raise ReplayError(f"{where}: not a dealer action of hold'em")
                continue
            player = _player(action.actor, n)
            verb = action.verb
            lone = no_op_check.position
            no_op_check.position = None
            if (
                verb == "cc"
                and not action.args
                and player == lone
                and not (game.can_check(player) or game.can_call(player))
            ):
                continue  # pokerkit's check that changes nothing (see _NoOpCheck)
            if verb == "f":
                game.fold(player)
            elif verb == "cc":
                if game.phase is Phase.BETTING and game.bets[player] < game.current_bet:
                    game.call(player)
                else:
                    game.check(player)
            elif verb == "cbr":
                to = units.chips(_amount(action.args[0], where))
                if game.phase is Phase.BETTING and not game.current_bet:
                    game.bet(to, player)
                elif (
                    game.phase is Phase.BETTING
                    and to <= game.current_bet
                    and to == game.stacks[player] + game.bets[player]
                ):
                    game.call(player)  # an all-in for no more than the bet is a call
                else:
                    game.raise_to(to, player)
            elif verb == "sm":
                if game.phase is Phase.SHOWDOWN:
                    pending[player] = action
                    _decide_shows(game, pending)
            else:
                raise ReplayError(f"{where}: {verb!r} is not an action of no-limit hold'em")
        except IllegalActionError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        no_op_check.update(game.log)
    _decide_shows(game, pending, finish=True)


def _decide_shows(game: HoldemHand, pending: dict[int, PhhAction], *, finish: bool = False) -> None:
    """Showdown decisions in our order; those the file does not give: muck if allowed, else show."""
    while game.phase is Phase.SHOWDOWN and game.actor is not None:
        decision = pending.pop(game.actor, None)
        if decision is None:
            if not finish:
                return
            game.timeout()
        elif decision.args:
            game.show()
        else:
            game.muck()


# ---------------------------------------------------------------- writing


def _phh_cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def to_phh(hand: HoldemHand, *, unit: Decimal | int = 1, **fields: Any) -> PhhHand:
    """One of our hands as a PHH hand history (variant ``NT``); ``unit`` is a chip's value.

    Extra ``fields`` (``venue``, ``players``, ``table``...) follow the required ones.

    >>> import random
    >>> from mazziere.history.phh import dumps
    >>> game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(1))
    >>> _ = game.fold()
    >>> print(dumps(to_phh(game, unit=Decimal("0.01"))), end="")
    variant = 'NT'
    ante_trimming_status = true
    antes = [0, 0]
    blinds_or_straddles = [0.01, 0.02]
    min_bet = 0.02
    starting_stacks = [1, 1]
    actions = ['d dh p1 4sAs', 'd dh p2 Js3s', 'p2 f']
    """
    setup = hand.setup
    scale = Decimal(unit)

    def amount(chips: int) -> int | Decimal:
        value = chips * scale
        return int(value) if value == value.to_integral_value() else value

    antes = [amount(a) for a in setup.stakes.antes]
    blinds = [amount(b) for b in setup.stakes.blinds]
    if hand.n == 2:
        antes.reverse()
        blinds.reverse()
    actions: list[str] = []
    for record in hand.log:
        if isinstance(record, HoleCardsDealt):
            actions.append(f"d dh p{record.position + 1} {_phh_cards(record.cards)}")
        elif isinstance(record, BoardDealt):
            actions.append(f"d db {_phh_cards(record.cards)}")
        elif isinstance(record, PlayerActed):
            who = f"p{record.position + 1}"
            if record.kind is ActionKind.FOLD:
                actions.append(f"{who} f")
            elif record.kind in (ActionKind.CHECK, ActionKind.CALL):
                actions.append(f"{who} cc")
            else:
                actions.append(f"{who} cbr {amount(record.to)}")
        elif isinstance(record, CardsShown):
            actions.append(f"p{record.position + 1} sm {_phh_cards(record.cards)}")
        elif isinstance(record, CardsMucked):
            actions.append(f"p{record.position + 1} sm")
    return PhhHand(
        {
            "variant": "NT",
            "ante_trimming_status": not setup.stakes.antes_dead,
            "antes": antes,
            "blinds_or_straddles": blinds,
            "min_bet": amount(setup.stakes.min_bet),
            "starting_stacks": [amount(s) for s in setup.stacks],
            "actions": actions,
            **fields,
        }
    )
