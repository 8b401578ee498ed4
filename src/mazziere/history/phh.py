"""PHH, the Poker Hand History format (uoftcprg/phh-std): read and write ``.phh`` and ``.phhs``.

A ``.phh`` file is one hand in TOML; a ``.phhs`` file holds many, in sections
``[1]``, ``[2]``...  Amounts stay exact: TOML floats are read as
:class:`~decimal.Decimal` (never binary floats) and written back as they were,
so reading and writing a file gives the same text.

>>> text = '''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [0.50, 1]
... min_bet = 1
... starting_stacks = [100, inf]
... actions = ['d dh p1 AhKh', 'd dh p2 ????', 'p2 cbr 3.25 # a raise', 'p1 f']
... '''
>>> hand = loads(text)
>>> hand.variant, hand["blinds_or_straddles"], hand["starting_stacks"][1]
('NT', [Decimal('0.50'), 1], Decimal('Infinity'))
>>> dumps(hand) == text
True
>>> [str(a) for a in hand.parsed_actions()]
['d dh p1 AhKh', 'd dh p2 ????', 'p2 cbr 3.25 # a raise', 'p1 f']
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from mazziere.cards import Card, UnknownCardError

__all__ = [
    "PHHError",
    "PhhAction",
    "PhhHand",
    "Section",
    "dumps",
    "dumps_many",
    "format_amount",
    "loads",
    "loads_many",
    "parse_cards",
]

FIELD_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
)
"""Where the required fields go when we write a hand of our own (optional ones follow)."""


class PHHError(ValueError):
    """A PHH text that does not follow the format; the message says where."""


# ------------------------------------------------------------------ hands


class PhhHand(Mapping[str, Any]):
    """One hand: its fields in file order, values as TOML gives them (floats as Decimal).

    >>> hand = PhhHand({"variant": "NT", "antes": [0, 0]})
    >>> hand["variant"], list(hand), "min_bet" in hand
    ('NT', ['variant', 'antes'], False)
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self._fields = dict(fields)

    def __getitem__(self, key: str) -> Any:
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        return f"PhhHand({self._fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhhHand) and _same(self._fields, other._fields)

    __hash__ = None  # type: ignore[assignment]

    @property
    def variant(self) -> str:
        """The variant code (``'NT'`` for no-limit Texas Hold'em)."""
        value = self._fields.get("variant")
        if not isinstance(value, str):
            raise PHHError("the hand has no variant")
        return value

    def replace(self, **fields: Any) -> PhhHand:
        """A copy with some fields set (a new field goes last)."""
        return PhhHand({**self._fields, **fields})

    def parsed_actions(self) -> list[PhhAction]:
        """The ``actions`` field, each parsed (no-ops and comments included)."""
        actions = self._fields.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise PHHError("actions must be an array of strings")
        return [PhhAction.parse(a) for a in actions]


def _same(a: object, b: object) -> bool:
    """Equal values of the same TOML types (``1`` and ``1.0`` differ, as in the file)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Decimal):
        return str(a) == str(b)
    return a == b


# ---------------------------------------------------------------- actions

_ACTOR = re.compile(r"^(d|p[1-9][0-9]*)$")
_CARDS = re.compile(r"^(?:[2-9TJQKA?][cdhs?])+$")


def parse_cards(text: str) -> tuple[Card | None, ...]:
    """PHH cards: two characters each, glued (``'AhKd'``); ``'??'`` is an unknown card.

    >>> parse_cards("Ah??Td")
    (Card('Ah'), None, Card('Td'))
    """
    if not _CARDS.match(text):
        raise PHHError(f"bad cards {text!r}")
    cards: list[Card | None] = []
    for k in range(0, len(text), 2):
        pair = text[k : k + 2]
        if "?" in pair:
            cards.append(None)
        else:
            try:
                cards.append(Card(pair))
            except UnknownCardError as exc:
                raise PHHError(f"bad card {pair!r}") from exc
    return tuple(cards)


def glued_cards(cards: Sequence[Card | None]) -> str:
    """The inverse of :func:`parse_cards`: ``None`` (an unknown card) is ``'??'``.

    >>> glued_cards(parse_cards("Ah??Td"))
    'Ah??Td'
    """
    return "".join("??" if card is None else str(card) for card in cards)


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``: actor (``'d'`` or ``'p3'``), verb, arguments, commentary.

    >>> action = PhhAction.parse("p2 cbr 7.50 # big")
    >>> action.player, action.verb, action.args, action.commentary
    (1, 'cbr', ('7.50',), 'big')
    >>> PhhAction.parse("  # burn card exposed").verb
    ''
    """

    actor: str
    verb: str
    args: tuple[str, ...] = ()
    commentary: str | None = None
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> PhhAction:
        """Read one action notation."""
        body, hash_, comment = text.partition("#")
        commentary = comment.strip() if hash_ else None
        words = body.split()
        if not words:
            return cls("", "", (), commentary, text)
        if len(words) < 2 or not _ACTOR.match(words[0]):
            raise PHHError(f"bad action {text!r}")
        return cls(words[0], words[1], tuple(words[2:]), commentary, text)

    @property
    def player(self) -> int | None:
        """The 0-based position of a player actor (``p1`` is 0); ``None`` for the dealer."""
        return int(self.actor[1:]) - 1 if self.actor.startswith("p") else None

    def __str__(self) -> str:
        return self.text or " ".join([self.actor, self.verb, *self.args])


# ------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class Section:
    """One hand of a ``.phhs`` file: its number and the hand, or why it could not be read."""

    number: int | None
    hand: PhhHand | None
    error: str | None = None


_HEADER = re.compile(r"^\[([^\]\n]*)\][ \t]*(?:#.*)?$", re.MULTILINE)


def loads(text: str) -> PhhHand:
    """Read one hand (a ``.phh`` file)."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}") from None
    for key, value in data.items():
        if isinstance(value, dict):
            raise PHHError(f"unexpected table [{key}] in a single-hand file")
    return PhhHand(data)


def loads_many(text: str) -> list[Section]:
    """Read a ``.phhs`` file: one :class:`Section` per ``[n]`` section, in file order.

    A section that cannot be read comes back with its ``error``; the others
    are still read.  A text without sections is one hand.

    >>> sections = loads_many("[1]\\nvariant = 'NT'\\n\\n[2]\\nvariant = \\n")
    >>> sections[0].hand.variant, sections[1].number, sections[1].error is not None
    ('NT', 2, True)
    """
    headers = list(_HEADER.finditer(text))
    if not headers:
        if text.strip() == "":
            return []
        try:
            return [Section(None, loads(text))]
        except PHHError as exc:
            return [Section(None, None, str(exc))]
    if text[: headers[0].start()].strip() and not _only_comments(text[: headers[0].start()]):
        raise PHHError("text before the first [n] section")
    sections: list[Section] = []
    for header, following in zip(headers, [*headers[1:], None], strict=True):
        name = header.group(1).strip().strip("'\"")
        body = text[header.end() : following.start() if following else len(text)]
        number = int(name) if name.isdigit() else None
        try:
            sections.append(Section(number, loads(body)))
        except PHHError as exc:
            sections.append(Section(number, None, f"section [{name}]: {exc}"))
    return sections


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


# ------------------------------------------------------------ writing

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _basic_string(name)


def _basic_string(text: str) -> str:
    escaped = []
    for char in text:
        if char in '"\\':
            escaped.append("\\" + char)
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif char == "\r":
            escaped.append("\\r")
        elif _CONTROL.match(char):
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _string(text: str) -> str:
    if _CONTROL.search(text):
        return _basic_string(text)
    if "'" not in text:
        return f"'{text}'"
    if "'''" not in text and not text.endswith("'") and not text.startswith("\n"):
        return f"'''{text}'''"
    return _basic_string(text)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = str(value)
        return text if any(c in text for c in ".eE") else text + ".0"
    if isinstance(value, float):
        raise PHHError("amounts are written from Decimal or int, never float")
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise PHHError(f"cannot write a {type(value).__name__} in PHH")


def dumps(hand: Mapping[str, Any]) -> str:
    """One hand as PHH text (fields in their order, one ``key = value`` line each)."""
    return "".join(f"{_key(key)} = {_value(value)}\n" for key, value in hand.items())


def dumps_many(hands: Sequence[Mapping[str, Any]], *, numbers: Sequence[int] | None = None) -> str:
    """Hands as a ``.phhs`` text: sections ``[1]``, ``[2]``... separated by a blank line.

    >>> print(dumps_many([{"variant": "NT"}, {"variant": "NT"}]), end="")
    [1]
    variant = 'NT'
    <BLANKLINE>
    [2]
    variant = 'NT'
    """
    numbers = list(numbers) if numbers is not None else list(range(1, len(hands) + 1))
    if len(numbers) != len(hands):
        raise PHHError("one section number per hand")
    return "\n".join(
        f"[{number}]\n{dumps(hand)}" for number, hand in zip(numbers, hands, strict=True)
    )


# ------------------------------------------------------------ amounts

_CENT = Decimal("0.01")


def format_amount(value: Decimal | int) -> str:
    """An amount as exact text: two decimals when it is a whole cent, else all its digits.

    >>> format_amount(Decimal("200.3")), format_amount(-1), format_amount(Decimal("0.125"))
    ('200.30', '-1.00', '0.125')
    >>> format_amount(Decimal("-0")), format_amount(Decimal("Infinity"))
    ('0.00', 'inf')
    """
    amount = value if isinstance(value, Decimal) else Decimal(value)
    if amount.is_infinite():
        return "inf" if amount > 0 else "-inf"
    cents = amount.quantize(_CENT)
    if cents != amount:
        return format(amount.normalize(), "f")
    if cents == 0:
        cents = abs(cents)
    return format(cents, "f")
