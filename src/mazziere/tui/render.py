"""Cards and chips as Rich text: suit symbols and colours, face-down backs, big cards.

Two-colour decks paint hearts and diamonds red; the four-colour deck paints
diamonds blue and clubs green, so a flush is never misread.

>>> from mazziere.cards import Card
>>> card_text(Card("Th")).plain, card_text(None).plain
('10♥', '░░')
>>> card_style(Card("Kd"), four_colour=True)
'bold blue on white'
>>> print("\\n".join(line.plain for line in big_cards([Card("Ah"), Card("Td")])))
╭───╮ ╭───╮
│A  │ │10 │
│ ♥ │ │ ♦ │
│  A│ │ 10│
╰───╯ ╰───╯
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from mazziere.cards import Card, Suit

__all__ = [
    "BACK_STYLE",
    "big_cards",
    "card_style",
    "card_text",
    "cards_text",
    "chips",
    "empty_slots",
    "header",
    "wrap_keeping_amounts",
]

_TWO_COLOURS = {
    Suit.HEARTS: "red",
    Suit.DIAMONDS: "red",
    Suit.CLUBS: "black",
    Suit.SPADES: "black",
}
_FOUR_COLOURS = {
    Suit.HEARTS: "red",
    Suit.DIAMONDS: "blue",
    Suit.CLUBS: "green",
    Suit.SPADES: "black",
}
BACK_STYLE = "bright_white on blue"
"""A face-down card."""


def card_style(card: Card, *, four_colour: bool = False) -> str:
    """The Rich style of a card's face: its suit's colour on a white card.

    >>> card_style(Card("2s"))
    'bold black on white'
    """
    colours = _FOUR_COLOURS if four_colour else _TWO_COLOURS
    return f"bold {colours[card.suit]} on white"


def card_text(card: Card | None, *, four_colour: bool = False) -> Text:
    """One card as a small chip of text (``None``: face down).

    >>> card_text(Card("As")).plain
    'A♠'
    """
    if card is None:
        return Text("░░", style=BACK_STYLE)
    return Text(card.pretty(), style=card_style(card, four_colour=four_colour))


def cards_text(cards: Sequence[Card | None], *, four_colour: bool = False) -> Text:
    """Cards side by side, one space apart.

    >>> cards_text([Card("Ah"), None]).plain
    'A♥ ░░'
    """
    return Text(" ").join(card_text(c, four_colour=four_colour) for c in cards)


def big_cards(
    cards: Sequence[Card | None],
    *,
    four_colour: bool = False,
    dimmed: Sequence[bool] = (),
    compact: bool = False,
) -> list[Text]:
    """Cards drawn as five-line boxes side by side (``None``: face down); ``dimmed`` cards are
    greyed (a card marked for the draw); ``compact`` boxes have three lines.

    >>> [line.plain for line in big_cards([None])]
    ['╭───╮', '│░░░│', '│░░░│', '│░░░│', '╰───╯']
    >>> [line.plain for line in big_cards([Card("Td"), Card("As")], compact=True)]
    ['╭───╮ ╭───╮', '│10♦│ │A♠ │', '╰───╯ ╰───╯']
    """
    if compact:
        return _boxes(cards, _small_face, four_colour=four_colour, dimmed=dimmed)
    return _boxes(cards, _big_face, four_colour=four_colour, dimmed=dimmed)


def _big_face(card: Card) -> list[str]:
    rank = card.rank.name_it
    return [f"{rank:<3}", f" {card.suit.symbol} ", f"{rank:>3}"]


def _small_face(card: Card) -> list[str]:
    return [f"{card.pretty():<3}"]


def _boxes(
    cards: Sequence[Card | None],
    face_of: Callable[[Card], list[str]],
    *,
    four_colour: bool,
    dimmed: Sequence[bool],
) -> list[Text]:
    """Cards side by side, each in a box of its face's rows (backs for hidden cards)."""
    rows = len(face_of(Card(0)))
    lines = [Text() for _ in range(rows + 2)]
    for index, card in enumerate(cards):
        if index:
            for line in lines:
                line.append(" ")
        dim = index < len(dimmed) and dimmed[index]
        if card is None:
            face = ["░░░"] * rows
            style = BACK_STYLE
        else:
            face = face_of(card)
            style = card_style(card, four_colour=four_colour)
        if dim:
            style = "grey50 on grey23"
        frame = "grey50" if dim else "white"
        lines[0].append("╭───╮", style=frame)
        for row, text in enumerate(face, start=1):
            lines[row].append("│", style=frame)
            lines[row].append(text, style=style)
            lines[row].append("│", style=frame)
        lines[-1].append("╰───╯", style=frame)
    return lines


def empty_slots(count: int, *, compact: bool = False) -> list[Text]:
    """Dim outlines where cards are still to come (the board before the river).

    >>> [line.plain for line in empty_slots(2)][0]
    '┌ ─ ┐ ┌ ─ ┐'
    """
    rows = ["┌ ─ ┐", "     ", "│   │", "     ", "└ ─ ┘"]
    if compact:
        rows = [rows[0], rows[1], rows[4]]
    lines = [Text() for _ in rows]
    for index in range(count):
        for line, row in zip(lines, rows, strict=True):
            if index:
                line.append(" ")
            line.append(row, style="grey42")
    return lines


def header(title: str, width: int) -> Text:
    """The screen's top line: the game's name, then the table's ``title`` (rules, table,
    stakes...), the name left out where the line has no room for both (``width``: 0 before
    the screen is laid out); a title longer still ends in an ellipsis, never on a second line.

    >>> header("italian-32 · cash · buio 5, controbuio 10", 78).plain
    'Mazziere · italian-32 · cash · buio 5, controbuio 10'
    >>> header("italian-32 · 32 carte 5/10 · buio 5, controbuio 10, over 20 · guest-12", 78).plain
    'italian-32 · 32 carte 5/10 · buio 5, controbuio 10, over 20 · guest-12'
    """
    line = Text(f"Mazziere · {title}", style="bold", no_wrap=True, overflow="ellipsis")
    if width and line.cell_len > width:
        line = Text(title, style="bold", no_wrap=True, overflow="ellipsis")
    return line


def chips(amount: int) -> str:
    """An amount of chips, thousands set apart by a space as Italians write them.

    >>> chips(1500), chips(20), chips(-1250)
    ('1 500', '20', '-1 250')
    """
    text = f"{abs(amount):,}".replace(",", " ")
    return ("-" if amount < 0 else "") + text


_AMOUNT = re.compile(r"\d{1,3}(?: \d{3})+")
_GLUE = "\ue000"
"""Stands for the space inside an amount while a line is wrapped (a private-use character:
never in the text itself, one cell wide, not a space Rich may break at)."""


def wrap_keeping_amounts(line: Text, width: int, console: Console) -> list[Text]:
    """``line`` wrapped to ``width`` cells between words, never inside an amount (``2 215``).

    >>> console = Console(width=40)
    >>> [t.plain for t in wrap_keeping_amounts(Text("vince il piatto (2 215)"), 20, console)]
    ['vince il piatto ', '(2 215)']
    """
    glued = line.copy()
    glued.plain = _AMOUNT.sub(lambda m: m.group().replace(" ", _GLUE), line.plain)
    pieces = list(glued.wrap(console, width))
    for piece in pieces:
        piece.plain = piece.plain.replace(_GLUE, " ")
    return pieces
