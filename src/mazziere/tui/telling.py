"""What the terminal table says about a hand, from a view of it: the words both clients share.

A local game (:class:`~mazziere.tui.session.PlaySession`, the engine's own
view) and a room's table (:class:`~mazziere.tui.remote.RemoteSession`, the
hand rebuilt from the records the room sent, :class:`~mazziere.tui.seen.SeenHand`)
name the actions, note each seat and head and sum up each hand with these
functions, so the two screens say the same thing the same way.  ``view`` is
anything with the attributes of the engine's hand views (``phase``,
``folded``, ``stacks``; Italian hands ``drawn``, ``opening``,
``betting_round``, ``blind_raisers``, ``parol_pot``; Hold'em ``street``).

>>> from mazziere.tui.words import Words
>>> hand_summary(Words("en"), number=3, names=["ann", "bob"], me=1, won={0: 40},
...              payoff=-20, describe=lambda position: "a pair of aces").plain
'Hand 3: ann wins 40 (a pair of aces); your result -20'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from mazziere.cards import Card, Rank
from mazziere.game.core import Phase
from mazziere.rules import RuleSet
from mazziere.tui.render import chips
from mazziere.tui.words import Context, Words

__all__ = [
    "hand_context",
    "hand_header",
    "hand_notes",
    "hand_summary",
    "has_drawn",
    "my_cards",
    "seat_note",
]


def hand_context(rules: RuleSet, view: Any) -> Context:
    """How to name the actions now (the opening round, the blind opening)."""
    if not rules.traits.italian_terms:
        return Context(rules)
    blind = None
    if view.phase is Phase.DEALING:
        blind = len(view.blind_raisers)
    return Context(
        rules,
        # A blind opening opened the pot: no opening cards are needed after the deal.
        opening_round=view.betting_round == 1
        and view.opening is not None
        and not view.blind_raisers,
        blind=blind,
        last_round=view.betting_round == 2,
    )


def my_cards(view: Any, me: int | None) -> tuple[tuple[Card, ...], int]:
    """The player's cards (those they can see) and bet, in ``view`` (none for a spectator)."""
    if me is None:
        return (), 0
    return tuple(c for c in view.hole[me] if c is not None), view.bets[me]


def has_drawn(view: Any, me: int | None) -> bool:
    """Whether the player at ``me`` has drawn in ``view`` (Poker all'italiana; Hold'em never)."""
    drawn = getattr(view, "drawn", None)
    return me is not None and drawn is not None and drawn[me] is not None


def seat_note(words: Words, view: Any, p: int) -> str:
    """What the seat at position ``p`` did that its line shows: folded, all-in, the draw."""
    if view.folded[p]:
        return words.pick("passa", "folded")
    if not view.stacks[p] and view.phase is not Phase.OVER:
        return "all-in"
    drawn = getattr(view, "drawn", None)
    if drawn is not None and drawn[p] is not None:
        count = drawn[p]
        if not count:
            return words.pick("servito", "stood pat")
        return words.pick(f"cambia {count}", f"drew {count}")
    return ""


def hand_notes(words: Words, rules: RuleSet, view: Any) -> tuple[str, ...]:
    """Where the hand is: a parol pot, the opening, the street, the draw, the last round."""
    notes: list[str] = []
    opening = getattr(view, "opening", None)
    if getattr(view, "parol_pot", False):
        notes.append(words.pick("Piatto di parol", "Parol pot"))
    if (
        opening is not None
        and getattr(view, "betting_round", 0) <= 1
        and view.phase is not Phase.DRAW
    ):
        notes.append(words.pick(f"Apertura: {opening.name_it}", f"Opening: {opening.name_it}"))
    street = getattr(view, "street", None)
    if street is not None:
        notes.append(str(street.value).capitalize())
    round_number = getattr(view, "betting_round", None)
    if rules.traits.draw and view.phase is Phase.DRAW:
        notes.append(words.pick("Cambio carte", "Draw"))
    elif round_number == 2 and view.phase is Phase.BETTING:
        notes.append(words.pick("Secondo giro", "Last round"))
    return tuple(notes)


def hand_header(
    words: Words,
    *,
    number: int,
    dealer: str,
    stakes: str,
    carried: int,
    parol_pot: bool,
    opening: Rank | None,
) -> Text:
    """The log's first line of a hand: its number, the dealer, the stakes, what it carries."""
    text = words.pick(
        f"— Mano {number} · mazziere {dealer} · {stakes} —",
        f"— Hand {number} · dealer {dealer} · {stakes} —",
    )
    line = Text(text, style="bold cyan")
    if parol_pot:
        line.append(
            words.pick(
                f"\nPiatto di parol ({chips(carried)}): apertura minima K, "
                "puntata minima il piatto",
                f"\nParol pot ({chips(carried)}): open with kings or better, "
                "the smallest bet is the pot",
            ),
            style="bold magenta",
        )
    elif carried:
        line.append(
            words.pick(
                f"\nNel piatto restano {chips(carried)} dalla mano precedente",
                f"\n{chips(carried)} carried in the pot from the last hand",
            ),
            style="magenta",
        )
    if opening is not None and not parol_pot:
        line.append(
            words.pick(
                f"\nApertura minima: coppia di {opening.name_it}",
                f"\nOpening: a pair of {opening.name_it} or better",
            ),
            style="magenta",
        )
    return line


def hand_summary(
    words: Words,
    *,
    number: int,
    names: Sequence[str],
    me: int | None,
    won: Mapping[int, int],
    payoff: int | None,
    describe: Callable[[int], str | None],
    carried: int = 0,
    parol_pot: bool = False,
) -> Text:
    """The hand in one line: who won what (and with which hand), the pot carried, the
    player's result.  ``won``: chips won by position; ``carried``: the pot left on the
    table when nobody won it."""
    parts: list[str] = []
    if carried and not won:
        if parol_pot:
            parts.append(
                words.pick(
                    f"piatto di parol da {chips(carried)}", f"a parol pot of {chips(carried)}"
                )
            )
        else:
            parts.append(
                words.pick(
                    f"piatto morto, {chips(carried)} restano in tavola",
                    f"dead hand, {chips(carried)} stay on the table",
                )
            )
    for position, amount in sorted(won.items(), key=lambda pa: -pa[1]):
        name = words.me() if position == me else names[position]
        described = describe(position)
        verb = words.pick(
            "vinci" if position == me else "vince",
            "win" if position == me else "wins",
        )
        text = f"{name} {verb} {chips(amount)}"
        if described:
            text += f" ({described})"
        parts.append(text)
    if me is not None and payoff is not None:
        sign = "+" if payoff > 0 else ""
        parts.append(
            words.pick(f"il tuo saldo {sign}{chips(payoff)}", f"your result {sign}{chips(payoff)}")
        )
    title = words.pick(f"Mano {number}", f"Hand {number}")
    return Text(f"{title}: " + "; ".join(parts), style="bold yellow")
