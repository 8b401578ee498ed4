"""What every game shares: actions, errors, records, the stock, betting rounds, pots, awards.

A game (Texas Hold'em in :mod:`mazziere.game.holdem`, Poker all'italiana in
:mod:`mazziere.game.italian`) subclasses :class:`BettingHand` and adds its own
phases (streets and the board, or the draw).  This module knows nothing about
streets, boards or openings: it knows positions, chips, whose turn it is, how
much may be bet, which pots there are and who gets them.

A tiny game played with the core alone: two players, 1 chip antes, one
betting round, then a showdown where position 1 holds the better hand.

>>> class OneRound(BettingHand):
...     def __init__(self, stacks):
...         super().__init__(stacks)
...         for position in range(self.n):
...             self._post_forced(position, 1, kind="ante", live=False)
...         self._begin_round(0, min_bet=2)
...     def _round_over(self):
...         self._begin_showdown(list(range(self.n)))
...     def _can_win(self, position):
...         return position == 1
...     def _pot_winners(self, eligible):
...         return (1,) if 1 in eligible else eligible
>>> hand = OneRound([100, 100])
>>> hand.actor, sorted(kind.value for kind in hand.legal_actions().kinds)
(0, ['all-in', 'bet', 'check', 'fold', 'timeout'])
>>> record = hand.bet(10)
>>> record.position, record.kind.value, record.added, record.to, record.all_in
(0, 'bet', 10, 10, False)
>>> hand.raise_to(15)
Traceback (most recent call last):
...
mazziere.game.core.AmountTooSmallError: raise to at least 20, not 15
>>> hand.call().added
10
>>> hand.is_over, hand.result.stacks, hand.result.payoffs
(True, (89, 111), (-11, 11))
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import compress
from types import MappingProxyType, MethodType
from typing import Any, ClassVar, NamedTuple, TypeVar, dataclass_transform

from mazziere.cards import Card, RandomSource
from mazziere.rules import BettingStructure, OddChipRule

__all__ = [
    "Action",
    "ActionKind",
    "ActionNotOfferedError",
    "AmountTooLargeError",
    "AmountTooSmallError",
    "BetsCollected",
    "BettingHand",
    "CannotBetError",
    "CannotCheckError",
    "CannotMuckError",
    "CannotRaiseError",
    "CardBurned",
    "CardsMucked",
    "CardsShown",
    "DeckExhaustedError",
    "ForcedBet",
    "HandOverError",
    "HandResult",
    "HandSetupError",
    "HoleCardsDealt",
    "IllegalActionError",
    "InvalidAmountError",
    "LegalActions",
    "MinRaiseRule",
    "NotYourTurnError",
    "NothingToCallError",
    "Phase",
    "PlayerActed",
    "Pot",
    "PotAwarded",
    "PotResult",
    "Rake",
    "RakeTaken",
    "Record",
    "Stock",
    "UncalledBetReturned",
    "UndeterminedHandError",
    "WrongPhaseError",
    "build_pots",
    "split_pot",
]

# ---------------------------------------------------------------------- actions


class ActionKind(StrEnum):
    """What a player may do.  Each engine accepts the kinds its game has."""

    FOLD = "fold"
    CHECK = "check"
    """Also "passo" (classic opening round), "busso", "cip": the engine action is a check."""
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    """Raise *to* a total amount for the round (as in PHH's ``cbr``)."""
    ALL_IN = "all-in"
    """Put in the whole stack: a call, bet or raise, whichever it amounts to."""
    PAROL = "parol"
    """Italian poker: a check that counts only if every player still in says it."""
    DRAW = "draw"
    """Italian poker: discard the given cards (none: stand pat, "servito")."""
    SHOW = "show"
    MUCK = "muck"
    TIMEOUT = "timeout"
    """The clock ran out: the engine checks if checking is free, otherwise folds."""


_AMOUNT_KINDS = frozenset({ActionKind.BET, ActionKind.RAISE})


@dataclass(frozen=True, slots=True)
class Action:
    """An action as data: what a table, a bot or a socket passes to :meth:`BettingHand.apply`.

    ``amount`` is the total a bet or raise brings the player's bet to in this
    round; ``cards`` are the discards of a draw.

    >>> Action.raise_to(300)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=300, cards=())
    >>> str(Action.parse("raise 300")), str(Action.parse("all-in")), str(Action.parse("draw Ah 7c"))
    ('raise 300', 'all-in', 'draw Ah 7c')
    >>> Action.parse("bet")
    Traceback (most recent call last):
    ...
    mazziere.game.core.InvalidAmountError: bet needs an amount: 'bet'
    """

    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def fold(cls) -> Action:
        """Fold (pass, in Italian poker's last round)."""
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        """Check (passo, busso, cip)."""
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        """Call (vedo)."""
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, amount: int) -> Action:
        """Bet ``amount`` (open, punto)."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Raise to a total of ``amount`` for the round (rilancio)."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def all_in(cls) -> Action:
        """Put the whole stack in."""
        return cls(ActionKind.ALL_IN)

    @classmethod
    def timeout(cls) -> Action:
        """The player's clock ran out."""
        return cls(ActionKind.TIMEOUT)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``'fold'``, ``'bet 20'``, ``'raise 60'``, ``'draw Ah 7c'``... as ``str`` writes."""
        from mazziere.cards import parse_cards

        words = text.split()
        if not words:
            raise InvalidAmountError("empty action")
        try:
            kind = ActionKind(words[0].lower())
        except ValueError:
            known = ", ".join(k.value for k in ActionKind)
            raise ActionNotOfferedError(f"unknown action {words[0]!r} (known: {known})") from None
        rest = words[1:]
        if kind in _AMOUNT_KINDS:
            if len(rest) != 1 or not rest[0].isdigit():
                raise InvalidAmountError(f"{kind.value} needs an amount: {text!r}")
            return cls(kind, int(rest[0]))
        if kind is ActionKind.DRAW:
            return cls(kind, cards=tuple(parse_cards(" ".join(rest))))
        if rest:
            raise InvalidAmountError(f"{kind.value} takes no argument: {text!r}")
        return cls(kind)

    def __str__(self) -> str:
        if self.amount is not None:
            return f"{self.kind.value} {self.amount}"
        if self.cards:
            return f"{self.kind.value} " + " ".join(map(str, self.cards))
        return self.kind.value

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON.

        >>> Action.bet(20).to_dict()
        {'kind': 'bet', 'amount': 20, 'cards': []}
        """
        return {
            "kind": self.kind.value,
            "amount": self.amount,
            "cards": [str(c) for c in self.cards],
        }


# ----------------------------------------------------------------------- errors


class IllegalActionError(ValueError):
    """An action the hand does not allow now; the message says why.  Nothing changed."""


class HandOverError(IllegalActionError):
    """The hand is over."""


class WrongPhaseError(IllegalActionError):
    """Not the moment for this action (betting during the showdown, say)."""


class NotYourTurnError(IllegalActionError):
    """Another position is to act."""


class ActionNotOfferedError(IllegalActionError):
    """An action this game or this moment does not have."""


class CannotCheckError(IllegalActionError):
    """There is a bet to call."""


class NothingToCallError(IllegalActionError):
    """There is no bet to call: check."""


class CannotBetError(IllegalActionError):
    """There is already a bet in this round: raise."""


class CannotRaiseError(IllegalActionError):
    """No bet or raise is allowed: no bet to raise, betting not reopened, call-or-fold only..."""


class InvalidAmountError(IllegalActionError):
    """An amount that is not a whole number of chips."""


class AmountTooSmallError(IllegalActionError):
    """Below the minimum bet or raise."""


class AmountTooLargeError(IllegalActionError):
    """Above the stack or the pot limit."""


class CannotMuckError(IllegalActionError):
    """The hand could still win: it is shown (cards speak)."""


class HandSetupError(ValueError):
    """Bad parameters for a new hand (stacks, blinds, deck...)."""


class DeckExhaustedError(HandSetupError):
    """The given card order ran out."""


class UndeterminedHandError(ValueError):
    """A pot would be decided by cards nobody knows (a replayed ``????``)."""


# ---------------------------------------------------------------------- records

_T = TypeVar("_T")


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, bool | int | str):
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:  # before tuples: a named tuple says how it is written
        return to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def _fast_init(cls: type[_T]) -> type[_T]:
    """Make a frozen slots dataclass cheaper to build; frozen, eq, repr, fields are unchanged.

    A frozen dataclass fills each field through ``object.__setattr__``, and the
    engine makes a record on every action.  ``cls(...)`` gets an ``__init__``
    that calls the slot descriptors' setters instead (about 40% cheaper), and
    :func:`_builder` gives a faster constructor still, for the engine's hot
    paths: a twin class with the same base and slots but no ``__setattr__`` of
    its own stores the fields plainly, then makes the object an instance of
    ``cls`` (the layouts are the same, so Python allows it); it is frozen from
    then on.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = tuple(f.name for f in fields)
    namespace: dict[str, Any] = {"_cls": cls, "_MISSING": dataclasses.MISSING}
    params = []
    fill = []
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            fill.append(f"    if {f.name} is _MISSING:\n        {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
    header = f"({', '.join(('self', *params))}):\n"
    setters = [f"    _set_{name}(self, {name})" for name in names]
    stores = [f"    self.{name} = {name}" for name in names]
    # the same technique dataclasses uses to write __init__
    exec("def __init__" + header + "\n".join([*fill, *setters] or ["    pass"]), namespace)
    exec(
        "def _build" + header + "\n".join([*fill, *stores, "    self.__class__ = _cls"]), namespace
    )
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    base = cls.__base__ or object
    plain_base = getattr(base, "__setattr__", None) is object.__setattr__
    if not plain_base or cls.__dict__.get("__slots__") != names:
        raise TypeError(f"{cls.__name__}: _fast_init needs a slots dataclass on a plain base")
    twin = type(
        f"{cls.__name__}Builder",
        (base,),
        {"__slots__": names, "__init__": namespace["_build"], "__module__": cls.__module__},
    )
    cls._build = twin  # type: ignore[attr-defined]
    return cls


def _fast_keyword_init(cls: type[_T]) -> type[_T]:
    """Give a frozen, keyword-only slots dataclass an ``__init__`` that fills its slots directly.

    The keyword-only twin of :func:`_fast_init`: the generated
    ``__init__`` goes through ``object.__setattr__`` for each field, the slot
    descriptors' own setters are cheaper, and a setup is made for every hand.
    Everything else (frozen, eq, repr, fields, the keyword-only signature) is unchanged.
    As with :func:`_fast_init`, ``cls._build`` makes one faster still, from all the fields in
    order (positional): a twin class stores them plainly, then the object becomes a
    ``cls``.
    """
    namespace: dict[str, Any] = {"_cls": cls}
    params = []
    lines = []
    names = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        names.append(f.name)
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        lines.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(lines)
    exec(source, namespace)  # the same technique dataclasses uses to write __init__
    stores = [f"    self.{name} = {name}" for name in names]
    exec(
        f"def _build(self, {', '.join(names)}):\n"
        + "\n".join([*stores, "    self.__class__ = _cls"]),
        namespace,
    )
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    if cls.__base__ is not object or cls.__dict__.get("__slots__") != tuple(names):
        raise TypeError(f"{cls.__name__}: _fast_keyword_init needs a slots dataclass on object")
    twin = type(
        f"{cls.__name__}Builder",
        (object,),
        {"__slots__": tuple(names), "__init__": namespace["_build"], "__module__": cls.__module__},
    )
    cls._build = twin  # type: ignore[attr-defined]
    return cls


def _builder(cls: type[_T]) -> Callable[..., _T]:
    """The fast constructor of a class decorated with :func:`_fast_init` (same arguments).

    Records have their own (:func:`_record_builder`).

    >>> _builder(PotResult)(3, (0, 1), (1,), (3,)) == PotResult(3, (0, 1), (1,), (3,))
    True
    """
    build: Callable[..., _T] = cls.__dict__["_build"]
    return build


def _card_text(card: Card | None) -> str:
    return "??" if card is None else str(card)


class Record(tuple[Any, ...]):
    """Base of every record in a hand's log.  Records are immutable and compare by value.

    Each record class is declared like a frozen dataclass and made by
    :func:`as_record` into a tuple with named fields, as a named tuple is: the
    engine makes a record on every action, and a tuple is the cheapest
    immutable object to build and to free.  Unlike a named tuple, a record
    equals only a record of the same class.
    """

    __slots__ = ()
    type: ClassVar[str] = "record"
    _fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True)
        )
        return f"{type(self).__name__}({fields})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)  # copy and pickle call the class with the fields

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``{"type": ..., <fields>}``; cards as text, unknown ``"??"``."""
        data: dict[str, Any] = {"type": self.type}
        for name, value in zip(self._fields, self, strict=True):
            if name == "cards" and isinstance(value, tuple):
                data[name] = [_card_text(c) for c in value]
            elif name == "card":
                data[name] = None if value is None else str(value)
            else:
                data[name] = _plain(value)
        return data

    def seen_by(self, viewer: int | None) -> Record:
        """The record as ``viewer`` (a position, or ``None`` for a spectator) may see it."""
        return self


_R = TypeVar("_R", bound=Record)


@dataclass_transform(frozen_default=True)
def as_record(cls: type[_R]) -> type[_R]:
    """Make a :class:`Record` subclass declared with annotated fields (and defaults) a record.

    The fields become read-only properties over the tuple's items, in order;
    ``ClassVar`` annotations are not fields.

    >>> @as_record
    ... class Example(Record):
    ...     position: int
    ...     all_in: bool = False
    >>> Example(3), Example(3).all_in, Example(3) == (3, False)
    (Example(position=3, all_in=False), False, False)
    """
    names: list[str] = []
    defaults: dict[str, object] = {}
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name, annotation in inspect.get_annotations(cls).items():
        if "ClassVar" in str(annotation):
            continue
        if name in namespace:
            defaults[name] = namespace.pop(name)
        elif defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with")
        names.append(name)
    params = [f"{name}=_default_{name}" if name in defaults else name for name in names]
    code_namespace: dict[str, Any] = {f"_default_{k}": v for k, v in defaults.items()}
    code_namespace["_tuple_new"] = tuple.__new__
    packed = "".join(f"{name}, " for name in names)
    # the same technique dataclasses uses to write __init__
    exec(
        f"def __new__(_cls, {', '.join(params)}):\n    return _tuple_new(_cls, ({packed}))",
        code_namespace,
    )
    new = code_namespace["__new__"]
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    namespace["__new__"] = new
    namespace["__slots__"] = ()
    namespace["_fields"] = tuple(names)
    namespace["__match_args__"] = tuple(names)
    for index, name in enumerate(names):
        namespace[name] = property(operator.itemgetter(index), doc=f"Field {index}: {name}.")
    made = type(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _record_builder(cls: type[_R]) -> Callable[[tuple[Any, ...]], _R]:
    """The engine's constructor of a record: one tuple of every field, in order (C calls only).

    >>> _record_builder(CardsMucked)((3,)) == CardsMucked(3)
    True
    """
    # tuple.__new__ bound to the class as a method: a call is tuple.__new__(cls, fields),
    # a fifth cheaper than through functools.partial.
    builder: Callable[[tuple[Any, ...]], _R] = MethodType(tuple.__new__, cls)
    return builder


@as_record
class ForcedBet(Record):
    """A forced bet posted before the cards: ante, invito, blind, straddle, blind raise...

    ``live`` chips count toward the player's bet in the first betting round;
    dead ones only go into the pot.
    """

    type: ClassVar[str] = "forced_bet"
    position: int
    amount: int
    kind: str
    live: bool
    all_in: bool


@as_record
class HoleCardsDealt(Record):
    """Cards dealt face down to a player; ``None`` is an unknown card (replays)."""

    type: ClassVar[str] = "hole_cards"
    position: int
    cards: tuple[Card | None, ...]

    def seen_by(self, viewer: int | None) -> Record:
        """Others' hole cards are hidden.

        >>> HoleCardsDealt(0, (Card("Ah"), Card("Kd"))).seen_by(1).to_dict()
        {'type': 'hole_cards', 'position': 0, 'cards': ['??', '??']}
        """
        if viewer == self.position:
            return self
        return HoleCardsDealt(self.position, (None,) * len(self.cards))


@as_record
class CardBurned(Record):
    """A card burned by the dealer (nobody sees which)."""

    type: ClassVar[str] = "burn"
    card: Card | None

    def seen_by(self, viewer: int | None) -> Record:
        """Nobody sees a burned card."""
        return CardBurned(None) if self.card is not None else self


@as_record
class PlayerActed(Record):
    """A betting decision: ``added`` chips went in and the player's bet is now ``to``."""

    type: ClassVar[str] = "action"
    position: int
    kind: ActionKind
    added: int
    to: int
    all_in: bool = False
    timed_out: bool = False


@as_record
class UncalledBetReturned(Record):
    """The part of a bet nobody called goes back to its owner."""

    type: ClassVar[str] = "uncalled"
    position: int
    amount: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the positions that may win it."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


@as_record
class BetsCollected(Record):
    """The end of a betting round: bets go to the pots, which are now ``pots``."""

    type: ClassVar[str] = "collect"
    pots: tuple[Pot, ...]


@as_record
class CardsShown(Record):
    """A player's hole cards face up (at the showdown, an all-in, or by choice)."""

    type: ClassVar[str] = "show"
    position: int
    cards: tuple[Card | None, ...]


@as_record
class CardsMucked(Record):
    """A player gave up their cards unseen at the showdown (they win nothing)."""

    type: ClassVar[str] = "muck"
    position: int


@as_record
class RakeTaken(Record):
    """The house's share, taken from the pots before they are awarded."""

    type: ClassVar[str] = "rake"
    amount: int


@as_record
class PotAwarded(Record):
    """Pot number ``pot`` (0 is the main pot) goes to ``winners``, ``shares`` each."""

    type: ClassVar[str] = "award"
    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]


# The engine's own constructors of its records (see _record_builder).
_NEW_FORCED_BET = _record_builder(ForcedBet)
_NEW_PLAYER_ACTED = _record_builder(PlayerActed)
_NEW_UNCALLED_BET_RETURNED = _record_builder(UncalledBetReturned)
_NEW_POT = _builder(Pot)
_NEW_BETS_COLLECTED = _record_builder(BetsCollected)
_NEW_CARDS_SHOWN = _record_builder(CardsShown)
_NEW_CARDS_MUCKED = _record_builder(CardsMucked)
_NEW_POT_AWARDED = _record_builder(PotAwarded)


# ---------------------------------------------------------------- legal actions


class LegalActions(NamedTuple):
    """What the player to act may do now: the engine's answer, and a client's buttons.

    ``to_call`` is what a call adds; a bet or raise brings the player's bet to
    any total from ``min_to`` to ``max_to`` (``min_to`` is the all-in amount
    when the stack is short of a full raise).  (A named tuple: the engine makes
    one for every decision, and a tuple is the cheapest immutable record.)

    >>> legal = LegalActions(2, frozenset({ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE,
    ...                                    ActionKind.ALL_IN}), to_call=2, min_to=4, max_to=100)
    >>> Action.raise_to(4) in legal, Action.raise_to(3) in legal, Action.check() in legal
    (True, False, False)
    """

    position: int | None
    kinds: frozenset[ActionKind] = frozenset()
    to_call: int = 0
    min_to: int = 0
    max_to: int = 0

    @property
    def confirm_fold(self) -> bool:
        """Folding is legal but gives up a free check: a client asks before sending it.

        >>> LegalActions(0, frozenset({ActionKind.FOLD, ActionKind.CHECK})).confirm_fold
        True
        """
        return not self.to_call and ActionKind.FOLD in self.kinds

    def __contains__(self, action: object) -> bool:
        return self.allows(action)

    def allows(self, action: object) -> bool:
        """Whether ``action`` (an :class:`Action`) is legal now; ``action in legal`` says the same.

        >>> LegalActions(0, frozenset({ActionKind.BET}), 0, 10, 50).allows(Action.bet(60))
        False
        """
        if not isinstance(action, Action) or action.kind not in self.kinds:
            return False
        if action.kind in _AMOUNT_KINDS:
            return action.amount is not None and self.min_to <= action.amount <= self.max_to
        return True

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (kinds sorted)."""
        return {
            "position": self.position,
            "kinds": sorted(k.value for k in self.kinds),
            "to_call": self.to_call,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "confirm_fold": self.confirm_fold,
        }


NO_ACTIONS = LegalActions(None)

_K = ActionKind
_CHECK_ONLY = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK})
_CALL_ONLY = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL})
_CALL_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.ALL_IN})
_BET = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.BET, _K.ALL_IN})
_BET_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.BET})
_RAISE = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.RAISE, _K.ALL_IN})
_RAISE_CHECK = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.RAISE, _K.ALL_IN})
"""The big blind's option: nothing to call, a raise allowed."""
_RAISE_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CALL, _K.RAISE})
_RAISE_CHECK_NO_ALL_IN = frozenset({_K.FOLD, _K.TIMEOUT, _K.CHECK, _K.RAISE})
_SHOW_ONLY = frozenset({_K.SHOW, _K.TIMEOUT})
_SHOW_OR_MUCK = frozenset({_K.SHOW, _K.MUCK, _K.TIMEOUT})

# ------------------------------------------------------------------------- pots


def build_pots(
    committed: Sequence[int],
    folded: Sequence[bool],
    dead: Sequence[int] | None = None,
) -> tuple[Pot, ...]:
    """Main and side pots from what each position put in, by all-in levels.

    ``committed[i]`` is what position ``i`` put in (folded players too);
    ``dead`` chips (dead antes and blinds) go to the main pot whoever paid them.
    Each pot may be won by the players still in who matched its level.

    >>> build_pots([50, 100, 100, 30], [False, False, False, True])
    (Pot(amount=180, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2)))
    >>> build_pots([10, 0, 10], [False, True, False], dead=[1, 1, 1])
    (Pot(amount=23, eligible=(0, 2)),)
    """
    live = [i for i in range(len(committed)) if not folded[i]]
    dead_total = sum(dead) if dead else 0
    levels = sorted({committed[i] for i in live})
    total = sum(committed)
    if len(levels) <= 1:  # the common case: nobody still in is all-in for less
        amount = total + dead_total
        return (_NEW_POT(amount, tuple(live)),) if amount else ()
    pots: list[Pot] = []
    if dead_total:
        # Dead money belongs to the main pot, which every player still in may win
        # (even one all-in for nothing but a dead ante).
        pots.append(_NEW_POT(dead_total, tuple(live)))
    below = 0  # chips of every position up to the previous level
    for level in levels:
        upto = sum(c if c < level else level for c in committed)
        amount = upto - below
        below = upto
        if amount:
            eligible = tuple(i for i in live if committed[i] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1] = _NEW_POT(pots[-1].amount + amount, eligible)
            else:
                pots.append(_NEW_POT(amount, eligible))
    # Chips of folded players above every level still contested stay in the top pot.
    if total > below:
        top = pots[-1]
        pots[-1] = _NEW_POT(top.amount + total - below, top.eligible)
    return tuple(pots)


def split_pot(
    amount: int,
    winners: Sequence[int],
    *,
    odd_chip: OddChipRule = OddChipRule.CLOCKWISE_FROM_BUTTON,
    rng: RandomSource | None = None,
) -> tuple[int, ...]:
    """Each winner's share of ``amount`` (in the order of ``winners``).

    Equal shares; the odd chips go one at a time clockwise from the button
    (lowest position first: position 0 sits left of the button) or, with
    ``OddChipRule.RANDOM_WINNER``, to winners drawn at random by ``rng``.

    >>> split_pot(100, [2, 0, 1])
    (33, 34, 33)
    >>> split_pot(101, [4, 1])
    (50, 51)
    >>> import random
    >>> sorted(split_pot(7, [0, 1], odd_chip=OddChipRule.RANDOM_WINNER, rng=random.Random(1)))
    [3, 4]
    """
    count = len(winners)
    if count == 1:
        return (amount,)
    if count == 0:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, count)
    shares = [share] * count
    if odd:
        if odd_chip is OddChipRule.CLOCKWISE_FROM_BUTTON:
            order = sorted(range(count), key=winners.__getitem__)
        else:
            if rng is None:
                raise ValueError("the random odd-chip rule needs a random source")
            order = list(range(count))
            for k in range(odd):  # a partial Fisher-Yates: `odd` distinct winners
                j = rng.randrange(k, count)
                order[k], order[j] = order[j], order[k]
        for k in order[:odd]:
            shares[k] += 1
    return tuple(shares)


@dataclass(frozen=True, kw_only=True)
class Rake:
    """The house's share of a pot: ``percent`` of it, counted in whole ``unit`` steps, capped.

    ``cap_by_players`` (players dealt in -> cap) overrides ``cap``.  With
    ``no_flop_no_drop`` a hand that ends before the flop (Hold'em) or before
    the draw (Italian poker) pays nothing; the game decides which moment that is.

    >>> Rake(percent=Fraction(5, 100), cap=300).amount(2000, players=6)
    100
    >>> italian_32 = Rake(percent=Fraction(5, 100), unit=100, cap_by_players={2: 100, 3: 100,
    ...                   4: 200, 5: 200})
    >>> italian_32.amount(1999, players=3), italian_32.amount(10_000, players=3)
    (95, 100)
    """

    percent: Fraction
    cap: int | None = None
    cap_by_players: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    unit: int = 1
    no_flop_no_drop: bool = True
    _ratio: tuple[int, int] = field(init=False, repr=False, compare=False, default=(0, 1))

    def __post_init__(self) -> None:
        if isinstance(self.percent, float):
            raise HandSetupError("give the rake as a Fraction or Decimal, not a float")
        percent = Fraction(self.percent)
        if not 0 <= percent <= 1:
            raise HandSetupError(f"rake must be between 0 and 1 of the pot, not {percent}")
        object.__setattr__(self, "percent", percent)
        if self.unit < 1 or (self.cap is not None and self.cap < 0):
            raise HandSetupError("rake unit must be at least 1 and the cap not negative")
        # Plain ints for amount(): a Fraction's numerator and denominator are properties.
        object.__setattr__(self, "_ratio", (percent.numerator, percent.denominator))

    def amount(self, pot: int, *, players: int) -> int:
        """The rake on a total pot of ``pot`` chips with ``players`` dealt in."""
        counted = pot // self.unit * self.unit
        numerator, denominator = self._ratio
        rake = counted * numerator // denominator
        cap = self.cap_by_players.get(players, self.cap)
        if cap is not None:
            rake = min(rake, cap)
        return rake


# ------------------------------------------------------------------------ stock


_DRAWS_BY_GETRANDBITS: dict[type, bool] = {}
""":func:`_draws_by_getrandbits`, by the random source's class (asked for every hand)."""


def _draws_by_getrandbits(rng: RandomSource) -> bool:
    """Whether ``rng`` draws below k as ``random.Random`` does: rejection on getrandbits."""
    known = _DRAWS_BY_GETRANDBITS.get(type(rng))
    if known is None:
        randbelow = getattr(type(rng), "_randbelow", None)
        known = _DRAWS_BY_GETRANDBITS[type(rng)] = (
            getattr(randbelow, "__qualname__", "") == "Random._randbelow_with_getrandbits"
            and getattr(randbelow, "__module__", "") == "random"
            and callable(getattr(rng, "getrandbits", None))
        )
    return known


class Stock:
    """The cards still to be dealt: a given order first, then random ones.

    With ``order`` the cards come out in that order (``None`` is an unknown
    card, for replays); after it, or without it, each card is drawn by one
    step of a Fisher-Yates shuffle with ``rng``, so only the cards dealt are
    ever shuffled.

    >>> import random
    >>> from mazziere.cards import Deck, parse_cards
    >>> stock = Stock(Deck.standard(), order=parse_cards("Ah Kd"), rng=random.Random(3))
    >>> stock.draw(), stock.draw(), stock.draw() not in parse_cards("Ah Kd"), len(stock)
    (Card('Ah'), Card('Kd'), True, 49)
    >>> Stock(Deck.standard(), order=parse_cards("Ah")).take(2)
    Traceback (most recent call last):
    ...
    mazziere.game.core.DeckExhaustedError: the given card order ran out after 1 cards
    """

    __slots__ = ("_below", "_dealt", "_getrandbits", "_order", "_remaining", "_rng", "unknown")

    def __init__(
        self,
        cards: Iterable[Card],
        *,
        order: Sequence[Card | None] | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        remaining = list(cards)
        self._order: list[Card | None] = []
        self.unknown = False
        """Whether the given order has unknown cards (``None``): no hand is valued unseen."""
        if order is not None:
            members = set(remaining)
            seen: set[int] = set()
            for card in order:
                if card is None:
                    self._order.append(None)
                    self.unknown = True
                    continue
                if card not in members:
                    raise HandSetupError(f"card {str(card)!r} is not in this game's deck")
                if card in seen:
                    raise HandSetupError(f"card {str(card)!r} appears twice in the card order")
                seen.add(card)
                self._order.append(card)
            remaining = [c for c in remaining if c not in seen]
        self._order.reverse()  # pop() from the end is O(1)
        self._remaining = remaining
        self._rng = rng
        self._dealt = 0
        # random.Random and SystemRandom draw an unbiased index below k with
        # _randbelow (what randrange itself calls) at a third of the cost.
        self._below: Callable[[int], int] | None = None
        # random.Random draws below k by rejection on getrandbits(k.bit_length());
        # take() does the same inline (the same cards for the same seed), saving
        # a Python call per card.
        self._getrandbits: Callable[[int], int] | None = None
        if rng is not None:
            self._below = getattr(rng, "_randbelow", None) or rng.randrange
            if _draws_by_getrandbits(rng):
                self._getrandbits = rng.getrandbits  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self._order) + (len(self._remaining) if self._below is not None else 0)

    def draw(self) -> Card | None:
        """The next card (``None``: a card of the given order that is unknown)."""
        if self._order:
            self._dealt += 1
            return self._order.pop()
        if self._below is None:
            raise DeckExhaustedError(f"the given card order ran out after {self._dealt} cards")
        if not self._remaining:
            raise DeckExhaustedError("no cards left in the stock")
        return self.take(1)[0]

    def take(self, count: int) -> tuple[Card | None, ...]:
        """The next ``count`` cards."""
        below = self._below
        remaining = self._remaining
        if self._order or below is None or len(remaining) < count:
            return tuple([self.draw() for _ in range(count)])
        cards: list[Card | None] = [None] * count
        getrandbits = self._getrandbits
        if getrandbits is not None:
            size = len(remaining)
            bits = size.bit_length()
            low = 1 << (bits - 1)  # below it, size needs a bit less
            for k in range(count):  # draw() and random.Random._randbelow, inlined
                j = getrandbits(bits)
                while j >= size:
                    j = getrandbits(bits)
                cards[k] = remaining[j]
                size -= 1
                # The last card fills the gap; the tail is cut off once, after the loop.
                remaining[j] = remaining[size]
                if size < low:  # bits stays size.bit_length()
                    bits -= 1
                    low >>= 1
            del remaining[size:]
        else:
            for k in range(count):  # draw(), inlined: every deal comes here
                j = below(len(remaining))
                cards[k] = remaining[j]
                remaining[j] = remaining[-1]
                remaining.pop()
        self._dealt += count
        return tuple(cards)

    def add(self, cards: Iterable[Card]) -> None:
        """Put cards back among the random ones (a reshuffle of discards into the stock)."""
        self._remaining.extend(cards)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The cards not yet dealt and not promised by the given order (in no useful order)."""
        return tuple(self._remaining)


# ------------------------------------------------------------------------ rules


class MinRaiseRule(StrEnum):
    """How big the smallest raise is (never less than the round's minimum bet)."""

    LARGEST_INCREMENT = "largest-increment"
    """The largest bet or raise increment of the round so far (the standard rule)."""
    LAST_INCREMENT = "last-increment"
    """The increment of the last bet or raise, even an all-in for less."""
    OPENING_BET = "opening-bet"
    """The size of the round's opening bet, however it was raised since."""


class Phase(StrEnum):
    """Where a hand is.  Games may use only some of these."""

    DEALING = "dealing"
    BETTING = "betting"
    DRAW = "draw"
    SHOWDOWN = "showdown"
    OVER = "over"


@_fast_init
@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at the end: its chips, who could win it, who did and how much each got."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": list(self.shares),
        }


@_fast_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: stacks, payoffs (stack change), pots, rake, cards shown.

    ``extra`` holds what a game hands on to the next hand (Italian poker:
    carried pot, opening level, parol-pot participants and their dues).
    """

    stacks: tuple[int, ...]
    payoffs: tuple[int, ...]
    pots: tuple[PotResult, ...]
    rake: int
    shown: Mapping[int, tuple[Card | None, ...]]
    extra: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "stacks": list(self.stacks),
            "payoffs": list(self.payoffs),
            "pots": [p.to_dict() for p in self.pots],
            "rake": self.rake,
            "shown": {str(k): [_card_text(c) for c in v] for k, v in self.shown.items()},
            "extra": _plain(dict(self.extra)),
        }


_NEW_POT_RESULT = _builder(PotResult)
_NEW_HAND_RESULT = _builder(HandResult)

# ------------------------------------------------------------------------ hands

_NO_EXTRA: Mapping[str, object] = MappingProxyType({})


def _check_amount(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmountError(f"amounts are whole chips (int), not {amount!r}")
    return amount


# Enum members as module constants: reading one off its class costs ten times more.
_ACTIONKIND_ALL_IN = ActionKind.ALL_IN
_ACTIONKIND_BET = ActionKind.BET
_ACTIONKIND_CALL = ActionKind.CALL
_ACTIONKIND_CHECK = ActionKind.CHECK
_ACTIONKIND_FOLD = ActionKind.FOLD
_ACTIONKIND_MUCK = ActionKind.MUCK
_ACTIONKIND_RAISE = ActionKind.RAISE
_ACTIONKIND_SHOW = ActionKind.SHOW
_ACTIONKIND_TIMEOUT = ActionKind.TIMEOUT
_BETTINGSTRUCTURE_NO_LIMIT = BettingStructure.NO_LIMIT
_BETTINGSTRUCTURE_POT_LIMIT = BettingStructure.POT_LIMIT
_MINRAISERULE_LARGEST_INCREMENT = MinRaiseRule.LARGEST_INCREMENT
_MINRAISERULE_LAST_INCREMENT = MinRaiseRule.LAST_INCREMENT
_ODDCHIPRULE_CLOCKWISE_FROM_BUTTON = OddChipRule.CLOCKWISE_FROM_BUTTON
_ODDCHIPRULE_RANDOM_WINNER = OddChipRule.RANDOM_WINNER
_PHASE_BETTING = Phase.BETTING
_PHASE_DEALING = Phase.DEALING
_PHASE_OVER = Phase.OVER
_PHASE_SHOWDOWN = Phase.SHOWDOWN


@functools.cache
def _next_to_act(acting: int) -> tuple[int, ...]:
    """For each position, the first one clockwise after it that can act (itself last).

    ``acting`` has bit ``p`` set when position ``p`` can act (in the hand, with
    chips behind) and bit ``n`` set to tell how many players there are.  A
    position nobody after can act maps to itself.

    >>> _next_to_act(0b1_0101)  # four players; 0 and 2 can act
    (2, 2, 0, 0)
    """
    n = acting.bit_length() - 1
    return tuple(
        next((q for q in ((p + k) % n for k in range(1, n + 1)) if acting >> q & 1), p)
        for p in range(n)
    )


_NOT_ACTED = -1
"""In ``BettingHand._faced``: the player has not acted this betting round."""


class BettingHand(ABC):
    """Base of every hand: positions, stacks, the log, betting rounds, showdown, pots, awards.

    Positions are ``0 .. n-1`` clockwise from the dealer's left; the dealer is
    ``n - 1``.  The public operations follow verify / can / do: ``verify_x``
    raises a precise :class:`IllegalActionError`, ``can_x`` answers, ``x``
    does it and returns the record it appended to :attr:`log`.  An illegal
    action changes nothing.  Every operation takes an optional ``position``:
    given, it must be the position to act.

    A game subclass posts forced bets with :meth:`_post_forced`, starts each
    betting round with :meth:`_begin_round` and is told when it ends by
    :meth:`_round_over`; it calls :meth:`_begin_showdown` and provides
    :meth:`_can_win` and :meth:`_pot_winners`.

    Attributes a subclass and a view may read (never write from outside):
    ``stacks``, ``bets`` (this round), ``committed`` (everything each position
    put in that counts for all-in levels, bets included), ``dead`` (chips in
    the main pot whoever wins), ``folded``, ``hole``, ``shown``, ``actor``,
    ``phase``, ``current_bet``, ``min_bet``, ``min_increment``, ``aggressor``
    (last to bet or raise this round), ``call_only``.
    """

    # Slots: a hand has more attributes than an instance dict shares keys for
    # (30), and every action reads a dozen of them.
    __slots__ = (
        "_acting",
        "_active",
        "_auto_show",
        "_awards",
        "_faced",
        "_legal",
        "_live",
        "_live_positions",
        "_next",
        "_owed",
        "_rake_taken",
        "_show_queue",
        "actor",
        "aggressor",
        "bets",
        "call_only",
        "carried",
        "committed",
        "current_bet",
        "dead",
        "folded",
        "hole",
        "log",
        "min_bet",
        "min_increment",
        "min_raise_rule",
        "mucked",
        "n",
        "odd_chip",
        "phase",
        "rake",
        "result",
        "rng",
        "shown",
        "stacks",
        "starting_stacks",
        "structure",
    )

    structure: BettingStructure
    min_raise_rule: MinRaiseRule
    odd_chip: OddChipRule
    rake: Rake | None

    def __init__(
        self,
        stacks: Sequence[int],
        *,
        structure: BettingStructure = _BETTINGSTRUCTURE_NO_LIMIT,
        min_raise_rule: MinRaiseRule = _MINRAISERULE_LARGEST_INCREMENT,
        odd_chip: OddChipRule = _ODDCHIPRULE_CLOCKWISE_FROM_BUTTON,
        rake: Rake | None = None,
        rng: RandomSource | None = None,
    ) -> None:
        stacks = list(stacks)
        if len(stacks) < 2:
            raise HandSetupError(f"a hand needs at least 2 players, got {len(stacks)}")
        for stack in stacks:
            # type() first: the common case is fast; bool and other int subclasses fall through
            if (
                type(stack) is not int and (isinstance(stack, bool) or not isinstance(stack, int))
            ) or stack <= 0:
                raise HandSetupError(f"stacks are positive whole chips (int), not {stack!r}")
        if odd_chip is _ODDCHIPRULE_RANDOM_WINNER and rng is None:
            raise HandSetupError("the random odd-chip rule needs a random source (rng)")
        n = len(stacks)
        self.n = n
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = stacks
        self.bets: list[int] = [0] * n
        self.committed: list[int] = [0] * n
        self.dead: list[int] = [0] * n
        self.carried = 0
        """Chips in the main pot from before this hand (a pot carried over), nobody's bet."""
        self.folded: list[bool] = [False] * n
        self.hole: list[tuple[Card | None, ...]] = [()] * n
        self.shown: dict[int, tuple[Card | None, ...]] = {}
        self.mucked: set[int] = set()
        self.log: list[Record] = []
        self.actor: int | None = None
        self.phase: Phase = _PHASE_DEALING
        self.structure = structure
        self.min_raise_rule = min_raise_rule
        self.odd_chip = odd_chip
        self.rake = rake
        self.rng = rng
        self.result: HandResult | None = None
        # the current betting round
        self.current_bet = 0
        self.min_bet = 0
        self.min_increment = 0
        self.aggressor: int | None = None
        self.call_only: list[bool] = [False] * n
        self._faced: list[int] = [_NOT_ACTED] * n
        """The bet each player faced when they last acted this round (``_NOT_ACTED``: not yet)."""
        self._live = n  # players not folded
        self._live_positions: tuple[int, ...] | None = tuple(range(n))  # None: to recount
        self._active = n  # players not folded with chips behind
        acting = (2 << n) - 1
        self._acting = acting
        """Bit ``p``: position ``p`` can act (not folded, chips behind); bit ``n``: the count."""
        self._next = _next_to_act(acting)
        """``_next[p]``: the next position after ``p`` clockwise that can act."""
        self._owed = 0
        """How many players still owe an action this round: the next ones that can act."""
        # the showdown
        self._show_queue: list[int] = []
        self._auto_show = False
        self._awards: list[PotResult] = []
        self._rake_taken = 0
        self._legal: LegalActions | None = None
        """The betting options of the player to act, once worked out (``None``: not yet)."""

    # ------------------------------------------------------------ properties

    @property
    def is_over(self) -> bool:
        """True once the pots are awarded."""
        return self.phase is _PHASE_OVER

    @property
    def button(self) -> int:
        """The dealer's position (always the last one)."""
        return self.n - 1

    @property
    def live(self) -> tuple[int, ...]:
        """Positions still in the hand (not folded)."""
        live = self._live_positions
        if live is None:
            folded = self.folded
            live = self._live_positions = tuple(compress(range(self.n), map(operator.not_, folded)))
        return live

    def pots(self, *, include_bets: bool = False) -> tuple[Pot, ...]:
        """The pots collected so far (with this round's bets too if ``include_bets``)."""
        if self._active == self._live and not include_bets:
            # Nobody still in is all-in: everyone still in put in the same, one pot.
            amount = sum(self.committed) - sum(self.bets) + sum(self.dead) + self.carried
            if not amount:
                return ()
            return (_NEW_POT(amount, self.live),)
        if include_bets:
            committed: Sequence[int] = self.committed
        else:
            committed = [c - b for c, b in zip(self.committed, self.bets, strict=True)]
        return build_pots(committed, self.folded, self._dead_money())

    def _dead_money(self) -> Sequence[int]:
        """Chips in the main pot whoever wins: dead posts, and a pot carried into the hand."""
        return [*self.dead, self.carried] if self.carried else self.dead

    @property
    def rake_taken(self) -> int:
        """The house's share taken so far (when the pots are awarded)."""
        return self._rake_taken

    @property
    def total_pot(self) -> int:
        """Every chip in the middle: pots and this round's bets."""
        return sum(self.committed) + sum(self.dead) + self.carried

    # ----------------------------------------------------- subclass hooks

    @abstractmethod
    def _round_over(self) -> None:
        """A betting round ended (bets collected): deal on, draw, or show down."""

    @abstractmethod
    def _can_win(self, position: int) -> bool | None:
        """Whether ``position``'s hand could still win a pot against the hands shown.

        ``None`` when its cards are unknown (replays): it may then be mucked.
        """

    @abstractmethod
    def _pot_winners(self, eligible: tuple[int, ...]) -> tuple[int, ...]:
        """Who wins a pot among ``eligible`` (players who did not muck) at the showdown."""

    def _one_pot_at_showdown(self, pots: Sequence[Pot]) -> bool:
        """Whether a game's one-pass showdown may be used: one pot, nobody all-in,
        nothing shown yet, shortcuts on (the game adds its own conditions)."""
        return (
            len(pots) == 1
            and self._active == self._live
            and not self.shown
            and self._one_pot_shortcuts
        )

    def _rake_applies(self) -> bool:
        """False when no-flop-no-drop spares this hand (the game knows its moment)."""
        return True

    def _on_uncontested(self, winner: int) -> None:
        """Everyone else folded; the pots are awarded already.  Default: the hand ends."""
        self._finish()

    def _apply_other(self, action: Action, position: int | None) -> Record:
        """Actions of a game's own (draw, parol...).  Default: not offered."""
        raise ActionNotOfferedError(f"{action.kind.value} is not an action of this game")

    def _verify_other(self, action: Action, position: int | None) -> None:
        raise ActionNotOfferedError(f"{action.kind.value} is not an action of this game")

    def _legal_other(self) -> LegalActions:
        """Legal actions in a game's own phases."""
        return NO_ACTIONS

    _one_pot_shortcuts: ClassVar[bool] = True
    """Take the short ways through a showdown with one pot (tests turn them off to compare)."""

    def _bet_refused(self, position: int) -> str | None:
        """Why ``position`` may not open the betting of this round (``None``: it may).

        Italian poker: only a player whose cards qualify may open.
        """
        return None

    # -------------------------------------------------------- forced bets

    def _post_forced(
        self, position: int, amount: int, *, kind: str, live: bool = True, levels: bool = True
    ) -> ForcedBet:
        """Post a forced bet of ``amount`` (or the whole stack if short) for ``position``.

        ``live``: it counts as a bet in the first betting round (blinds);
        otherwise it goes straight into the pot (antes).  ``levels``: it counts
        for all-in levels (side pots); otherwise it is dead money in the main
        pot that every player still in may win.
        """
        stack = self.stacks[position]
        paid = amount if amount < stack else stack  # (a conditional: min() costs a call)
        self.stacks[position] = stack - paid
        if live:
            self.bets[position] += paid
        if levels or live:
            self.committed[position] += paid
        else:
            self.dead[position] += paid
        all_in = stack == paid
        if all_in and paid:
            self._stop_acting(position)
        record = _NEW_FORCED_BET((position, paid, kind, live, all_in))
        self.log.append(record)
        return record

    # ---------------------------------------------------- betting rounds

    def _begin_round(
        self,
        first: int,
        *,
        min_bet: int,
        increment: int = 0,
        aggressor: int | None = None,
    ) -> None:
        """Start a betting round; ``first`` is the first position asked (skipping who cannot act).

        Bets already in front of players (live blinds) stand: ``increment`` is
        the raise size they amount to (the big blind pre-flop) and
        ``aggressor`` who made it.  ``min_bet`` is the smallest opening bet.
        """
        n = self.n
        self.phase = _PHASE_BETTING
        bets = self.bets
        # (after the first round no bets stand: a count of zeros is cheaper than max())
        self.current_bet = 0 if bets.count(0) == n else max(bets)
        self.min_bet = min_bet
        self.min_increment = min_bet if min_bet > increment else increment
        self.aggressor = aggressor
        self._faced = [_NOT_ACTED] * n
        self._owed = self._active  # everyone who can act owes an action
        if self._live == 1:  # nobody left to bet against (a game's own flow)
            self._legal = None
            self.actor = None
            self._end_round()
            return
        # The search that follows an action, from the seat before ``first``: it
        # finds the first to act (or ends the round) and works out their options.
        self._after_action((first - 1) % n)

    def _after_action(self, position: int) -> None:
        """Find who acts after ``position`` (every action ends here), or end the round.

        Two players or more are still in (a fold that leaves one ends the round itself).
        At the start of a round everyone who can act owes an action; a check,
        call or fold pays one, and a bet or raise makes every other player who
        can act owe one again.  Those who owe are always the next ones
        clockwise after the last to act, so while any is owed the next to act
        is ``_next[position]``.  A lone player who can act owes nothing once
        their bet is matched.
        """
        self._legal = None  # the next player's options are worked out when asked
        i = self._next[position]
        if not self._owed or (self._active < 2 and self.bets[i] >= self.current_bet):
            self.actor = None
            self._end_round()
            return
        self.actor = i

    def _stop_acting(self, position: int) -> None:
        """``position`` folded or has no chips behind: no more turns for it this hand."""
        self._active -= 1
        acting = self._acting & ~(1 << position)
        self._acting = acting
        self._next = _next_to_act(acting)

    def _act_again(self, position: int) -> None:
        """``position``, all-in, got chips back (an uncalled bet): it can act again."""
        self._active += 1
        acting = self._acting | 1 << position
        self._acting = acting
        self._next = _next_to_act(acting)

    def _return_unmatched(self, owner: int, excess: int) -> None:
        """Give back the ``excess`` chips ``owner`` put in that nobody matched (logged)."""
        if self.stacks[owner] == 0 and not self.folded[owner]:
            self._act_again(owner)  # all-in no more
        self.stacks[owner] += excess
        self.committed[owner] -= excess
        self.log.append(_NEW_UNCALLED_BET_RETURNED((owner, excess)))

    def _end_round(self) -> None:
        """Return the uncalled part of the top bet, collect the bets, tell the game."""
        self.actor = None
        self._legal = None
        bets = self.bets
        ordered = sorted(bets)
        top = ordered[-1]
        if top:
            excess = top - ordered[-2]  # what nobody matched
            if excess:
                owner = bets.index(top)
                bets[owner] -= excess
                self._return_unmatched(owner, excess)
        self.bets = [0] * self.n
        self.current_bet = 0
        pots = self.pots()
        self.log.append(_NEW_BETS_COLLECTED((pots,)))
        if self._live == 1:
            winner = self.folded.index(False)
            self._award([(pot, (winner,)) for pot in pots])
            self._on_uncontested(winner)
        else:
            self._round_over()

    def _check_turn(self, position: int | None) -> int:
        phase = self.phase
        if phase is not _PHASE_BETTING:
            if phase is _PHASE_OVER:
                raise HandOverError("the hand is over")
            raise WrongPhaseError(f"no betting now: the hand is at the {phase.value}")
        actor = self.actor
        assert actor is not None
        if position is not None and position != actor:
            raise NotYourTurnError(f"it is position {actor}'s turn, not {position}'s")
        return actor

    def _options(self, position: int | None) -> LegalActions:
        """The legal actions of the player to act in a betting round (or the precise error
        when it is not ``position``'s turn to bet): what every betting action looks at."""
        legal = self._legal
        if legal is None or legal.position is None or self.phase is not _PHASE_BETTING:
            self._check_turn(position)
            legal = self.legal_actions()
        elif position is not None and position != legal.position:
            self._check_turn(position)  # raises NotYourTurnError
        return legal

    # -------------------------------------------------- who may raise, how much

    def _raise_rule(self, i: int) -> tuple[int, int] | str:
        """The one rule of who may bet or raise and how much: ``(min_to, max_to)`` for
        position ``i`` to act now, or why it may not (every limit structure).

        A player may bet or raise when their stack covers more than a call, the
        table does not hold them to calling (Italian blind openings), the
        betting was reopened to them (an all-in for less than a full raise
        does not, RULES.md 2.6), the game lets them open (Italian openings) and
        someone else could answer.  The smallest bet is the round's minimum
        bet, the smallest raise the current bet plus the minimum increment;
        short of it, the all-in.  No limit: up to the stack; pot limit: up to
        the pot after a call.
        """
        current = self.current_bet
        bets = self.bets
        all_in_to = self.stacks[i] + bets[i]
        if all_in_to <= current:
            return "the stack does not cover more than a call"
        if self.call_only[i]:
            return f"position {i} may only call or fold"
        faced = self._faced[i]
        if faced >= 0 and current - faced < self.min_increment:
            return "an all-in for less than a full raise did not reopen the betting"
        if not current:
            refused = self._bet_refused(i)
            if refused is not None:
                return refused
            if self._active < 2:
                return "every other player is all-in or cannot call more"
            low = self.min_bet
        else:
            folded, stacks = self.folded, self.stacks
            for j in range(self.n):
                if stacks[j] + bets[j] > current and not folded[j] and j != i:
                    break  # j could answer
            else:
                return "every other player is all-in or cannot call more"
            low = current + self.min_increment
        low = min(low, all_in_to)  # all-in for less than a full bet or raise
        if self.structure is _BETTINGSTRUCTURE_POT_LIMIT:
            pot_after_call = self.total_pot + (current - bets[i])
            return low, min(max(current + pot_after_call, low), all_in_to)
        return low, all_in_to

    def _betting_options(self, i: int) -> LegalActions:
        """What position ``i``, to act in a betting round, may do (from :meth:`_raise_rule`)."""
        bet = self.bets[i]
        current = self.current_bet
        to_call = current - bet
        stack = self.stacks[i]
        bounds = self._raise_rule(i)
        if isinstance(bounds, str):
            if not to_call:
                return LegalActions(i, _CHECK_ONLY)
            if stack <= to_call:
                return LegalActions(i, _CALL_ALL_IN, stack)
            return LegalActions(i, _CALL_ONLY, to_call)
        low, high = bounds
        all_in = high == stack + bet
        if not current:
            kinds = _BET if all_in else _BET_NO_ALL_IN
        elif to_call:
            kinds = _RAISE if all_in else _RAISE_NO_ALL_IN
        else:
            kinds = _RAISE_CHECK if all_in else _RAISE_CHECK_NO_ALL_IN
        return LegalActions(i, kinds, to_call, low, high)

    def legal_actions(self) -> LegalActions:
        """What the player to act may do now (nothing when nobody is to act).

        In the showdown: show, and muck when the hand cannot win.  The answer
        is kept until the next action.
        """
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        actor = self.actor
        if phase is _PHASE_BETTING:
            assert actor is not None
            legal = self._legal = self._betting_options(actor)  # kept until the next action
            return legal
        if phase is _PHASE_SHOWDOWN and actor is not None:
            return LegalActions(actor, _SHOW_OR_MUCK if self._muck_allowed(actor) else _SHOW_ONLY)
        if phase is _PHASE_OVER:
            return NO_ACTIONS
        return self._legal_other()

    # fold -----------------------------------------------------------------

    def verify_fold(self, position: int | None = None) -> None:
        """Raise unless the player to act (or ``position``) may fold."""
        self._options(position)

    def can_fold(self, position: int | None = None) -> bool:
        """Whether :meth:`fold` would succeed."""
        try:
            self.verify_fold(position)
        except IllegalActionError:
            return False
        return True

    def fold(self, position: int | None = None, *, timed_out: bool = False) -> PlayerActed:
        """Fold: the player gives up the hand and every pot."""
        i = self._options(position).position
        assert i is not None
        self.folded[i] = True
        self._live -= 1
        self._live_positions = None
        self._owed -= 1
        self._stop_acting(i)
        record = PlayerActed(i, _ACTIONKIND_FOLD, 0, self.bets[i], False, timed_out)
        self.log.append(record)
        if self._live == 1:  # the last one left wins: no one to act
            self._end_round()
        else:
            self._after_action(i)
        return record

    # check ----------------------------------------------------------------

    def _check_options(self, position: int | None) -> LegalActions:
        legal = self._options(position)
        if _ACTIONKIND_CHECK not in legal.kinds:
            i = legal.position
            assert i is not None
            to_call = self.current_bet - self.bets[i]
            raise CannotCheckError(f"cannot check: {to_call} to call (call, raise or fold)")
        return legal

    def verify_check(self, position: int | None = None) -> None:
        """Raise unless the player to act may check (nothing to call)."""
        self._check_options(position)

    def can_check(self, position: int | None = None) -> bool:
        """Whether :meth:`check` would succeed."""
        try:
            self.verify_check(position)
        except IllegalActionError:
            return False
        return True

    def check(self, position: int | None = None, *, timed_out: bool = False) -> PlayerActed:
        """Check (passo, busso, cip): stay in without putting chips in."""
        self._check_options(position)
        return self._check_as(_ACTIONKIND_CHECK, timed_out)

    def _check_as(self, kind: ActionKind, timed_out: bool = False) -> PlayerActed:
        """A check recorded as ``kind``: a game's own check-like action (parol).

        Trusts its caller to have verified that the player to act may check.
        """
        i = self.actor
        assert i is not None
        self._faced[i] = self.current_bet
        self._owed -= 1
        record = PlayerActed(i, kind, 0, self.bets[i], False, timed_out)
        self.log.append(record)
        self._after_action(i)
        return record

    # call -----------------------------------------------------------------

    def _call_options(self, position: int | None) -> LegalActions:
        legal = self._options(position)
        if _ACTIONKIND_CALL not in legal.kinds:
            raise NothingToCallError("nothing to call: check")
        return legal

    def verify_call(self, position: int | None = None) -> None:
        """Raise unless the player to act has a bet to call."""
        self._call_options(position)

    def can_call(self, position: int | None = None) -> bool:
        """Whether :meth:`call` would succeed."""
        try:
            self.verify_call(position)
        except IllegalActionError:
            return False
        return True

    def call(self, position: int | None = None) -> PlayerActed:
        """Call (vedo): match the current bet, or put the whole stack in if it is short."""
        legal = self._call_options(position)
        i = legal.position
        assert i is not None
        added = legal.to_call  # the whole stack when it is short
        stack = self.stacks[i] - added
        self.stacks[i] = stack
        self._owed -= 1
        if not stack:
            self._stop_acting(i)
        to = self.bets[i] + added
        self.bets[i] = to
        self.committed[i] += added
        self._faced[i] = self.current_bet
        record = PlayerActed(i, _ACTIONKIND_CALL, added, to, not stack, False)
        self.log.append(record)
        self._after_action(i)
        return record

    # bet and raise --------------------------------------------------------

    def _wager_options(self, to: object, position: int | None, kind: ActionKind) -> int:
        """Check a bet or raise to ``to`` against the legal actions: the amount, or the
        precise error."""
        legal = self._options(position)
        amount = _check_amount(to)
        if kind in legal.kinds and legal.min_to <= amount <= legal.max_to:
            return amount
        raising = kind is _ACTIONKIND_RAISE
        current = self.current_bet
        if raising and not current:
            raise CannotRaiseError("there is no bet to raise: bet")
        if not raising and current:
            raise CannotBetError(f"there is a bet of {current} already: raise")
        i = legal.position
        assert i is not None
        bounds = self._raise_rule(i)
        if isinstance(bounds, str):
            raise CannotRaiseError(f"cannot {kind.value}: {bounds}")
        word = "raise to" if raising else "bet"
        if amount < legal.min_to:
            raise AmountTooSmallError(f"{word} at least {legal.min_to}, not {amount}")
        all_in_to = self.stacks[i] + self.bets[i]
        limit = "the stack" if legal.max_to == all_in_to else "the pot limit"
        raise AmountTooLargeError(f"{word} at most {legal.max_to} ({limit}), not {amount}")

    def verify_bet(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may open the betting with ``amount``."""
        self._wager_options(amount, position, _ACTIONKIND_BET)

    def can_bet(self, amount: int, position: int | None = None) -> bool:
        """Whether :meth:`bet` would succeed."""
        try:
            self.verify_bet(amount, position)
        except IllegalActionError:
            return False
        return True

    def bet(self, amount: int, position: int | None = None) -> PlayerActed:
        """Open the betting with ``amount`` chips."""
        return self._wager(self._wager_options(amount, position, _ACTIONKIND_BET), _ACTIONKIND_BET)

    def verify_raise_to(self, amount: int, position: int | None = None) -> None:
        """Raise unless the player to act may raise to a total of ``amount``."""
        self._wager_options(amount, position, _ACTIONKIND_RAISE)

    def can_raise_to(self, amount: int, position: int | None = None) -> bool:
        """Whether :meth:`raise_to` would succeed."""
        try:
            self.verify_raise_to(amount, position)
        except IllegalActionError:
            return False
        return True

    def raise_to(self, amount: int, position: int | None = None) -> PlayerActed:
        """Raise, bringing the player's bet this round to a total of ``amount``."""
        to = self._wager_options(amount, position, _ACTIONKIND_RAISE)
        return self._wager(to, _ACTIONKIND_RAISE)

    def _wager(self, to: int, kind: ActionKind) -> PlayerActed:
        """Bet or raise to ``to``.  Trusts its caller to have verified it."""
        i = self.actor
        assert i is not None
        added = to - self.bets[i]
        stack = self.stacks[i] - added
        self.stacks[i] = stack
        self.bets[i] = to
        self.committed[i] += added
        increment = to - self.current_bet
        rule = self.min_raise_rule
        if rule is _MINRAISERULE_LARGEST_INCREMENT:
            self.min_increment = max(self.min_increment, increment)
        elif rule is _MINRAISERULE_LAST_INCREMENT or not self.current_bet:
            # LAST_INCREMENT; or OPENING_BET, where the first bet sets it for the round
            self.min_increment = max(self.min_bet, increment)
        self.current_bet = to
        self.aggressor = i
        self._faced[i] = to
        if stack:
            self._owed = self._active - 1  # every other player who can act owes one again
        else:
            self._stop_acting(i)
            self._owed = self._active
        record = PlayerActed(i, kind, added, to, not stack, False)
        self.log.append(record)
        self._after_action(i)
        return record

    # all-in ---------------------------------------------------------------

    def _all_in_kind(self, position: int | None) -> ActionKind:
        """What an all-in of the player to act amounts to, or the precise error."""
        legal = self._options(position)
        i = legal.position
        assert i is not None
        all_in_to = self.stacks[i] + self.bets[i]
        if all_in_to <= self.current_bet:
            return _ACTIONKIND_CALL
        kind = _ACTIONKIND_RAISE if self.current_bet else _ACTIONKIND_BET
        if _ACTIONKIND_ALL_IN not in legal.kinds:
            self._wager_options(all_in_to, position, kind)  # raises the precise error
        return kind

    def verify_all_in(self, position: int | None = None) -> None:
        """Raise unless the player to act may put their whole stack in."""
        self._all_in_kind(position)

    def can_all_in(self, position: int | None = None) -> bool:
        """Whether :meth:`all_in` would succeed."""
        try:
            self.verify_all_in(position)
        except IllegalActionError:
            return False
        return True

    def all_in(self, position: int | None = None) -> PlayerActed:
        """Put the whole stack in: a call if it does not exceed the bet, else a bet or raise."""
        kind = self._all_in_kind(position)
        if kind is _ACTIONKIND_CALL:
            return self.call(position)
        i = self.actor
        assert i is not None
        return self._wager(self.stacks[i] + self.bets[i], kind)

    # timeout --------------------------------------------------------------

    def verify_timeout(self, position: int | None = None) -> None:
        """Raise unless someone is to act (in betting or at the showdown)."""
        if self.phase is _PHASE_SHOWDOWN and self.actor is not None:
            self._check_show_turn(position)
            return
        if self.phase not in (_PHASE_BETTING, _PHASE_SHOWDOWN, _PHASE_OVER):
            self._verify_other(Action.timeout(), position)
            return
        self._check_turn(position)

    def can_timeout(self, position: int | None = None) -> bool:
        """Whether :meth:`timeout` would succeed."""
        try:
            self.verify_timeout(position)
        except IllegalActionError:
            return False
        return True

    def timeout(self, position: int | None = None) -> Record:
        """The clock ran out: check if free, else fold; at a showdown muck if allowed, else show."""
        self.verify_timeout(position)
        if self.phase is _PHASE_SHOWDOWN:
            actor = self.actor
            assert actor is not None
            return self.muck() if self._muck_allowed(actor) else self.show()
        if self.phase is not _PHASE_BETTING:
            return self._apply_other(Action.timeout(), position)
        i = self.actor
        assert i is not None
        if self.bets[i] >= self.current_bet:
            return self.check(timed_out=True)
        return self.fold(timed_out=True)

    # the showdown ---------------------------------------------------------

    def _begin_showdown(
        self, order: Sequence[int], *, ask: bool = False, auto_show: bool = False
    ) -> None:
        """Players still in, in showdown order, show or muck; then the pots are awarded.

        Hands already shown (all-in) are not asked again.  With ``ask`` each
        player decides (:meth:`show`, :meth:`muck`); with ``auto_show`` too, a
        hand that may not be mucked is shown without asking, so only the
        players who have a choice are asked.  Otherwise cards speak: a hand
        that could win is shown, the others are mucked.
        """
        self.phase = _PHASE_SHOWDOWN
        self._auto_show = auto_show
        self._show_queue = [i for i in order if not self.folded[i] and i not in self.shown]
        if ask:
            self._next_shower()
            return
        for i in self._show_queue:
            if self._can_win(i) is False:
                self._do_muck(i)
            else:
                self._do_show(i)
        self._show_queue = []
        self._showdown_award()

    def _next_shower(self) -> None:
        queue = self._show_queue
        if self._auto_show:
            while queue and not self._muck_allowed(queue[0]):
                self._do_show(queue.pop(0))
        if queue:
            self.actor = queue[0]
            return
        self.actor = None
        self._showdown_award()

    def _do_show(self, i: int) -> CardsShown:
        cards = self.hole[i]
        self.shown[i] = cards
        record = _NEW_CARDS_SHOWN((i, cards))
        self.log.append(record)
        return record

    def _do_muck(self, i: int) -> CardsMucked:
        self.mucked.add(i)
        record = _NEW_CARDS_MUCKED((i,))
        self.log.append(record)
        return record

    def _muck_allowed(self, i: int) -> bool:
        if self.folded[i] or self._live == 1:
            return True  # an uncontested winner may always keep the cards hidden
        return self._can_win(i) is not True

    def _check_show_turn(self, position: int | None) -> int:
        if self.phase is not _PHASE_SHOWDOWN or self.actor is None:
            if self.phase is _PHASE_OVER:
                raise HandOverError("the hand is over")
            raise WrongPhaseError(f"nobody shows now: the hand is at the {self.phase.value}")
        if position is not None and position != self.actor:
            raise NotYourTurnError(f"it is position {self.actor}'s turn to show, not {position}'s")
        return self.actor

    def verify_show(self, position: int | None = None) -> None:
        """Raise unless the player asked at the showdown may show."""
        self._check_show_turn(position)

    def can_show(self, position: int | None = None) -> bool:
        """Whether :meth:`show` would succeed."""
        try:
            self.verify_show(position)
        except IllegalActionError:
            return False
        return True

    def show(self, position: int | None = None) -> CardsShown:
        """Show the hole cards at the showdown."""
        i = self._check_show_turn(position)
        record = self._do_show(i)
        self._show_queue.pop(0)
        self._next_shower()
        return record

    def verify_muck(self, position: int | None = None) -> None:
        """Raise unless the player asked may muck (their hand cannot win)."""
        i = self._check_show_turn(position)
        if not self._muck_allowed(i):
            raise CannotMuckError("this hand can still win a pot: it is shown (cards speak)")

    def can_muck(self, position: int | None = None) -> bool:
        """Whether :meth:`muck` would succeed."""
        try:
            self.verify_muck(position)
        except IllegalActionError:
            return False
        return True

    def muck(self, position: int | None = None) -> CardsMucked:
        """Give the cards up unseen."""
        self.verify_muck(position)
        i = self.actor
        assert i is not None
        record = self._do_muck(i)
        self._show_queue.pop(0)
        self._next_shower()
        return record

    def _offer_show(self, position: int) -> None:
        """Let an uncontested winner choose to show (default: muck); the pots are theirs."""
        self.phase = _PHASE_SHOWDOWN
        self._show_queue = [position]
        self.actor = position

    def _showdown_award(self) -> None:
        if self._live == 1 or self._awards:
            self._finish()  # an uncontested winner's choice: the pots are awarded
            return
        # A mucked hand is out like a folded one, and so is a hand that wins
        # nothing: pots left with the same contenders are one pot, split once
        # (its odd chips are counted once).
        mucked = self.mucked
        if self._active == self._live and self._one_pot_shortcuts:
            # Nobody is all-in: everyone still in put in the same, so there is one
            # pot, and the hands not mucked contend for it (all of them if all mucked).
            live = self.live
            eligible = tuple([i for i in live if i not in mucked]) if mucked else live
            amount = sum(self.committed) + sum(self.dead) + self.carried
            if amount:
                eligible = eligible or live
                self._award([(_NEW_POT(amount, eligible), self._pot_winners(eligible))])
            self._finish()
            return
        if mucked:
            folded = self.folded
            out = [folded[i] or i in mucked for i in range(self.n)]
        else:
            out = self.folded
        if all(out):
            out = self.folded  # everyone mucked: cards speak among them
        pots = build_pots(self.committed, out, self._dead_money())
        pot_winners = self._pot_winners
        winners = [pot_winners(pot.eligible) for pot in pots]
        if len(pots) > 1:
            won = {i for group in winners for i in group}
            losers = [not out[i] and i not in won for i in range(self.n)]
            if any(losers):
                out = [a or b for a, b in zip(out, losers, strict=True)]
                pots = build_pots(self.committed, out, self._dead_money())
                winners = [self._pot_winners(pot.eligible) for pot in pots]
        self._award(list(zip(pots, winners, strict=True)))
        self._finish()

    # awards ---------------------------------------------------------------

    def _award(self, plan: Sequence[tuple[Pot, tuple[int, ...]]]) -> None:
        """Take the rake, then give each pot to its winners (decided beforehand)."""
        amounts = [pot.amount for pot, _ in plan]
        total = sum(amounts)
        rake = 0
        if self.rake is not None and self._rake_applies():
            rake = self.rake.amount(total, players=self.n)
        if rake:
            # Each pot pays its share of the rake, rounded down; the chips left
            # over come from the pots in order, main pot first.
            taken = [rake * a // total for a in amounts]
            short = rake - sum(taken)
            for k in range(len(taken)):
                extra = min(short, amounts[k] - taken[k])
                taken[k] += extra
                short -= extra
            amounts = [a - t for a, t in zip(amounts, taken, strict=True)]
            self._rake_taken = rake
            self.log.append(RakeTaken(rake))
        stacks = self.stacks
        awards, log = self._awards, self.log
        for index, (pot, winners) in enumerate(plan):
            amount = amounts[index]
            # one winner takes it all (no odd chip to place)
            shares = (amount,) if len(winners) == 1 else self._split_pot(index, amount, winners)
            for position, share in zip(winners, shares, strict=True):
                stacks[position] += share
            awards.append(_NEW_POT_RESULT(amount, pot.eligible, winners, shares))
            log.append(_NEW_POT_AWARDED((index, amount, winners, shares)))
        n = self.n
        self.committed = [0] * n
        self.dead = [0] * n
        self.carried = 0

    def _split_pot(self, index: int, amount: int, winners: tuple[int, ...]) -> tuple[int, ...]:
        """The shares of pot ``index`` (after rake) among ``winners``; a game may script the
        odd chips (a replay names who got them)."""
        return split_pot(amount, winners, odd_chip=self.odd_chip, rng=self.rng)

    def _finish(self, extra: Mapping[str, object] | None = None) -> None:
        self.phase = _PHASE_OVER
        self.actor = None
        self._show_queue = []
        stacks = tuple(self.stacks)
        self.result = _NEW_HAND_RESULT(
            stacks,
            tuple(map(operator.sub, stacks, self.starting_stacks)),  # same lengths
            tuple(self._awards),
            self._rake_taken,
            MappingProxyType(dict(self.shown)),
            _NO_EXTRA if not extra else MappingProxyType(dict(extra)),
        )

    # actions as data --------------------------------------------------------

    def verify(self, action: Action, position: int | None = None) -> None:
        """Raise unless ``action`` is legal now (for ``position``, if given)."""
        kind = action.kind
        if kind in _AMOUNT_KINDS and action.amount is None:
            raise InvalidAmountError(f"{kind.value} needs an amount")
        name = _VERIFIERS.get(kind)
        if name is None:
            self._verify_other(action, position)
            return
        verifier = getattr(self, name)
        if kind in _AMOUNT_KINDS:
            verifier(action.amount, position)
        else:
            verifier(position)

    def can(self, action: Action, position: int | None = None) -> bool:
        """Whether :meth:`apply` would succeed."""
        try:
            self.verify(action, position)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, position: int | None = None) -> Record:
        """Do ``action`` (given as data) and return its record."""
        kind = action.kind
        if kind in _AMOUNT_KINDS and action.amount is None:
            raise InvalidAmountError(f"{kind.value} needs an amount")
        name = _DOERS.get(kind)
        if name is None:
            return self._apply_other(action, position)
        doer = getattr(self, name)
        record: Record = doer(action.amount, position) if kind in _AMOUNT_KINDS else doer(position)
        return record

    def records_for(self, viewer: int | None) -> list[Record]:
        """The log as ``viewer`` (a position, ``None`` for a spectator) may see it."""
        return [record.seen_by(viewer) for record in self.log]


_VERIFIERS: dict[ActionKind, str] = {
    _ACTIONKIND_FOLD: "verify_fold",
    _ACTIONKIND_CHECK: "verify_check",
    _ACTIONKIND_CALL: "verify_call",
    _ACTIONKIND_BET: "verify_bet",
    _ACTIONKIND_RAISE: "verify_raise_to",
    _ACTIONKIND_ALL_IN: "verify_all_in",
    _ACTIONKIND_SHOW: "verify_show",
    _ACTIONKIND_MUCK: "verify_muck",
    _ACTIONKIND_TIMEOUT: "verify_timeout",
}
_DOERS: dict[ActionKind, str] = {
    _ACTIONKIND_FOLD: "fold",
    _ACTIONKIND_CHECK: "check",
    _ACTIONKIND_CALL: "call",
    _ACTIONKIND_BET: "bet",
    _ACTIONKIND_RAISE: "raise_to",
    _ACTIONKIND_ALL_IN: "all_in",
    _ACTIONKIND_SHOW: "show",
    _ACTIONKIND_MUCK: "muck",
    _ACTIONKIND_TIMEOUT: "timeout",
}
