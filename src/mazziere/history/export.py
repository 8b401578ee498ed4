"""One PHH hand written as a text hand history: PokerStars' for Hold'em, ours for the Italian game.

:func:`export_text` is what ``mazziere export`` prints for each hand and what
the room's text downloads serve: Hold'em (``NT``) as PokerStars writes it
(:mod:`.pokerstars`), Poker all'italiana as the project's text export
(:mod:`.text_italian`), with the header the PHH's own fields give (names,
seats, table, hand number, time, currency), the hero's hole cards, and a
tournament's header when the hand is one (:class:`TournamentInfo`: its
number, its buy-in, and the levels that tell each hand's level from its
stakes).

>>> import random
>>> from mazziere.game.holdem import HoldemHand
>>> from mazziere.history.holdem import to_phh
>>> game = HoldemHand([1500, 1500], blinds=(10, 20), rng=random.Random(2))
>>> _ = game.fold()
>>> hand = to_phh(game, players=["ann", "bob"]).replace(hand=12)
>>> sit_and_go = TournamentInfo(id=31, buy_in=buy_in_text(10, 1, "$"), levels=parse_levels("10/20"))
>>> print(export_text(hand, tournament=sit_and_go).splitlines()[0])
PokerStars Hand #12: Tournament #31, $10.00+$1.00 USD Hold'em No Limit - Level I (10/20)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from mazziere.history.phh import PHHError, PhhHand
from mazziere.history.pokerstars import Tournament, header_from_phh, to_pokerstars

__all__ = [
    "FORMATS",
    "ITALIAN_VARIANTS",
    "TournamentInfo",
    "buy_in_text",
    "export_text",
    "hand_stakes",
    "levels_seen",
    "parse_levels",
]

FORMATS = {"NT": "pokerstars", "NIC": "text", "PIC": "text", "NI32": "text", "PI32": "text"}
"""The text format of each PHH variant: PokerStars' for Hold'em, ours for the Italian game."""

ITALIAN_VARIANTS = frozenset(code for code, name in FORMATS.items() if name == "text")

Stakes = tuple[Decimal, Decimal, Decimal]
"""A level's forced bets: small blind, big blind, ante (italian-classic: the invito as the
ante; italian-32: the buio as the small blind and the controbuio as the big one)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentInfo:
    """A tournament, for the headers of its hands.

    ``buy_in`` is written as it stands (:func:`buy_in_text` makes PokerStars'
    ``$10.00+$1.00 USD``); ``levels`` are the structure's stakes in order, the
    first being level 1: a hand's level is the first whose stakes are the
    hand's.

    >>> TournamentInfo(id=0, buy_in="Freeroll")
    Traceback (most recent call last):
    ...
    ValueError: a tournament's number is a whole number from 1, not 0
    """

    id: int
    buy_in: str
    levels: Sequence[Stakes] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        # Trackers file hands under "Tournament #N": a number, never 0 or negative.
        if type(self.id) is not int or self.id < 1:
            raise ValueError(f"a tournament's number is a whole number from 1, not {self.id}")

    def level_of(self, hand: PhhHand) -> int:
        """The level (from 1) whose stakes are the hand's; PHHError when none is.

        A level matches on what the hand's game uses: Hold'em's blinds and
        ante, italian-classic's invito (the ante), italian-32's blinds.
        """
        stakes = hand_stakes(hand)
        used = _USED.get(hand.variant, (True, True, True))
        for number, level in enumerate(self.levels, start=1):
            if all(a == b for a, b, u in zip(level, stakes, used, strict=True) if u):
                return number
        raise PHHError(f"no level of tournament #{self.id} has the stakes {_show(stakes)}")


_USED = {
    "NIC": (False, False, True),
    "PIC": (False, False, True),
    "NI32": (True, True, False),
    "PI32": (True, True, False),
}
"""The parts of a level's stakes each Italian variant uses (Hold'em: all three)."""


def _show(stakes: Stakes) -> str:
    small, big, ante = (f"{v.normalize():f}" for v in stakes)
    text = f"{small}/{big}" if stakes[0] or stakes[1] else ""
    if stakes[2]:
        text += f"{' ' if text else ''}ante {ante}"
    return text or "none"


def buy_in_text(buy_in: Decimal | int, fee: Decimal | int, currency: str = "") -> str:
    """A buy-in as PokerStars writes it: ``$10.00+$1.00 USD``, ``1000+100`` in chips, ``Freeroll``.

    >>> buy_in_text(Decimal("20"), Decimal("0.80"), "$"), buy_in_text(1000, 100), buy_in_text(0, 0)
    ('$20.00+$0.80 USD', '1000+100', 'Freeroll')
    """
    from mazziere.history.pokerstars import CURRENCY_CODES

    if not buy_in and not fee:
        return "Freeroll"
    if currency:
        code = CURRENCY_CODES.get(currency, "")
        text = f"{currency}{Decimal(buy_in):.2f}+{currency}{Decimal(fee):.2f}"
        return f"{text} {code}" if code else text
    return f"{buy_in}+{fee}"


def parse_levels(text: str) -> list[Stakes]:
    """``"10/20,15/30,25/50/5"``: levels as SMALL/BIG[/ANTE], comma-separated (``ValueError``).

    >>> [tuple(map(str, level)) for level in parse_levels("10/20, 15/30/5")]
    [('10', '20', '0'), ('15', '30', '5')]
    """
    levels: list[Stakes] = []
    for part in text.split(","):
        try:
            values = [Decimal(n) for n in part.strip().split("/")]
        except ArithmeticError:  # not a number: the error below
            values = []
        if len(values) not in (2, 3) or any(not v.is_finite() or v < 0 for v in values):
            raise ValueError(f"a level is SMALL/BIG or SMALL/BIG/ANTE, not {part.strip()!r}")
        levels.append((values[0], values[1], values[2] if len(values) == 3 else Decimal(0)))
    return levels


def hand_stakes(hand: PhhHand) -> Stakes:
    """The hand's forced bets as a level gives them: small blind, big blind, ante.

    Read from the PHH's ``blinds_or_straddles`` (the first two, whichever way
    round heads-up lists them) and ``antes`` (the largest): Hold'em's blinds
    and ante, italian-classic's invito as the ante, italian-32's buio and
    controbuio as the blinds.

    >>> from mazziere.history.phh import loads
    >>> italian = "variant = 'NIC'\\nantes = [10, 10, 10]\\nblinds_or_straddles = [0, 0, 0]"
    >>> hand_stakes(loads(italian))
    (Decimal('0'), Decimal('0'), Decimal('10'))
    """
    try:
        blinds = [Decimal(str(b)) for b in hand.get("blinds_or_straddles") or [0, 0]]
        antes = [Decimal(str(a)) for a in hand.get("antes") or [0]]
    except (ArithmeticError, ValueError):
        raise PHHError("blinds_or_straddles and antes must be amounts") from None
    small, big = sorted(max(b, Decimal(0)) for b in [*blinds[:2], Decimal(0)][:2])
    return (small, big, max(antes))


def levels_seen(hands: Iterable[PhhHand]) -> list[Stakes]:
    """The stakes of the hands in the order they first appear: a tournament's levels when no
    structure is given (the first stakes are level 1, the next different ones level 2...)."""
    seen: list[Stakes] = []
    for hand in hands:
        try:
            stakes = hand_stakes(hand)
        except PHHError:
            continue  # the hand's own export names the problem
        if stakes not in seen:
            seen.append(stakes)
    return seen


def export_text(
    hand: PhhHand,
    *,
    hero: str | int | None = None,
    number: int | None = None,
    tournament: TournamentInfo | None = None,
    format: str | None = None,
) -> str:
    """The hand as text, in its variant's format (ends with a newline).

    ``hero``: whose hole cards are written (a name of ``players`` or a
    position from 1); ``number``: the hand number when the PHH has none;
    ``format``: ``"pokerstars"`` or ``"text"`` to insist on one (a hand of
    the other game is then refused).  Raises :class:`PHHError` (or a replay
    error, a ``ValueError``) for a hand that cannot be written.
    """
    from mazziere.history.holdem import holdem_from_phh
    from mazziere.history.phh_italian import replay_italian
    from mazziere.history.text_italian import to_text_italian

    wanted = FORMATS.get(hand.variant)
    if wanted is None:
        raise PHHError(f"variant {hand.variant!r} cannot be exported")
    if format is not None and format != wanted:
        if wanted == "pokerstars":
            raise PHHError("a Hold'em hand is written with --format pokerstars")
        raise PHHError("PokerStars has no Poker all'italiana: use --format text")
    if number is not None and not isinstance(hand.get("hand"), int):
        hand = hand.replace(hand=number)
    header_tournament = None
    if tournament is not None:
        level = tournament.level_of(hand)
        header_tournament = Tournament(id=tournament.id, buy_in=tournament.buy_in, level=level)
    if wanted == "pokerstars":
        game, unit = holdem_from_phh(hand)
        header = header_from_phh(hand, unit=unit, hero=hero, tournament=header_tournament)
        return to_pokerstars(game, header)
    italian = replay_italian(hand)
    header = header_from_phh(hand, hero=hero, tournament=header_tournament)
    return to_text_italian(italian, header)
