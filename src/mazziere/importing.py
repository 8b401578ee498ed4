"""Hand histories of other rooms, read through pokerkit's parsers, as PHH that our engine replays.

pokerkit (``pip install pokerkit==0.7.7``) is needed here and only here: it
reads PokerStars, Full Tilt, iPoker, Ongame, PartyPoker and Absolute Poker
hand histories of no-limit Hold'em.  Each hand is read on its own, so one
that pokerkit cannot read is reported with pokerkit's reason and the others
go on; each hand read is written as PHH (pokerkit's notation) and replayed
in our engine, which must reach the finishing stacks the source's actions
give (as pokerkit plays them; a split pot's odd chips may go to another of
its winners, RULES.md §1).
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from mazziere.history.phh import PHHError, PhhHand, dumps, loads
from mazziere.history.replay import replay_hand

__all__ = [
    "POKERSTARS_POSTS",
    "SOURCES",
    "ImportReport",
    "ImportedHand",
    "PokerkitMissingError",
    "import_histories",
    "parser_class",
]

SOURCES = {
    "pokerstars": "PokerStarsParser",
    "fulltilt": "FullTiltPokerParser",
    "ipoker": "IPokerNetworkParser",
    "ongame": "OngameNetworkParser",
    "partypoker": "PartyPokerParser",
    "absolute": "AbsolutePokerParser",
}
"""The formats read, by name, and the pokerkit parser that reads each."""


POKERSTARS_POSTS = {
    "ANTE_POSTING": r"(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)",
    "BLIND_OR_STRADDLE_POSTING": (
        r"(?P<player>.+): posts (?P<kind>small blind|big blind|straddle)"
        r" \D?(?P<blind_or_straddle>[0-9.]+)"
    ),
}
"""The PokerStars posts pokerkit 0.7.7's parser does not read, as the import reads them.

Its ante pattern matches nothing, so antes are lost (each player keeps the
ante, the winner collects a smaller pot); its blind pattern reads ``posts
small blind`` and ``posts big blind`` only, so a straddle is lost too (the
straddler then checks or calls a bet they seem not to face, and pokerkit
cannot repair the hand).  The import gives the parser the format's standard
``posts the ante X`` and ``posts straddle X`` lines; nothing else changes.
"""


def parser_class(source: str) -> Any:
    """pokerkit's parser class for ``source`` (a name of :data:`SOURCES`), as the import reads it.

    PokerStars' is given :data:`POKERSTARS_POSTS`.  pokerkit makes a post by
    any player after the first two (in its order, from the small blind) a
    dead one: a player back from missing the blinds posts ``big blind`` out
    of turn, and that is right for them; a straddle is live and acts last
    before the flop, so its sign is turned once more before pokerkit's turn.
    """
    notation = _pokerkit()
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r} (known: {', '.join(SOURCES)}, auto)")
    base = getattr(notation, SOURCES[source])
    if source != "pokerstars":
        return base
    posts = {name: re.compile(pattern) for name, pattern in POKERSTARS_POSTS.items()}
    straddle = posts["BLIND_OR_STRADDLE_POSTING"]

    def parse_blinds_or_straddles(self: Any, s: str, parse_value: Any) -> Any:
        amounts = base._parse_blinds_or_straddles(self, s, parse_value)
        for line in s.splitlines():
            if (found := straddle.search(line)) and found["kind"] == "straddle":
                amounts[found["player"]] = -amounts[found["player"]]
        return amounts

    return type(
        base.__name__,
        (base,),
        {**posts, "_parse_blinds_or_straddles": parse_blinds_or_straddles},
    )


class PokerkitMissingError(ImportError):
    """pokerkit is not installed: importing other rooms' histories needs it."""


@dataclass(frozen=True, slots=True)
class ImportedHand:
    """One hand of the source: its PHH, or why it could not be imported."""

    number: int
    """The hand's place in the source, from 1."""
    title: str
    """The source's first line of the hand (its number, its stakes)."""
    hand: PhhHand | None = None
    error: str | None = None


@dataclass
class ImportReport:
    """The hands of one source, in order; ``source`` is the format they were read as."""

    source: str
    hands: list[ImportedHand] = field(default_factory=list)

    @property
    def imported(self) -> list[PhhHand]:
        return [h.hand for h in self.hands if h.hand is not None]

    @property
    def failed(self) -> list[ImportedHand]:
        return [h for h in self.hands if h.hand is None]


def _pokerkit() -> Any:
    try:
        import pokerkit.notation
    except ImportError:
        raise PokerkitMissingError(
            "importing hand histories needs pokerkit: pip install pokerkit==0.7.7"
        ) from None
    return pokerkit.notation


def _chunks(parser: Any, text: str) -> list[str]:
    # pokerkit's patterns end a hand at two blank lines: make sure the last one has them.
    return [str(chunk) for chunk in re.findall(parser.HAND, text + "\n\n\n")]


def _guess(notation: Any, text: str) -> str:
    counts = {name: len(_chunks(getattr(notation, cls), text)) for name, cls in SOURCES.items()}
    best = max(counts, key=counts.__getitem__)
    if not counts[best]:
        raise ValueError("no hand history that pokerkit reads (" + ", ".join(SOURCES) + ")")
    return best


def _reason(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__ or exc
    text = str(cause).strip() or type(cause).__name__
    if isinstance(cause, KeyError):
        text = f"no {text} in the hand"
    return text.splitlines()[0]


def import_histories(text: str, source: str = "auto") -> ImportReport:
    """Read every hand of ``text`` (``source``: a name of :data:`SOURCES`, or ``"auto"``).

    Raises :class:`PokerkitMissingError` without pokerkit, ``ValueError`` for
    an unknown source or a text with no hand of it.
    """
    notation = _pokerkit()
    if source == "auto":
        source = _guess(notation, text)
    parser = parser_class(source)
    report = ImportReport(source)
    chunks = _chunks(parser, text)
    if not chunks:
        raise ValueError(f"no {source} hand history in the text")
    for number, chunk in enumerate(chunks, start=1):
        title = chunk.strip().splitlines()[0] if chunk.strip() else ""
        report.hands.append(_import_one(parser, chunk, number, title))
    return report


def _import_one(parser: Any, chunk: str, number: int, title: str) -> ImportedHand:
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")  # pokerkit warns, and prints a traceback, per hand
            # the hand's own pattern ends it at two blank lines (Full Tilt's, Ongame's...)
            histories = list(parser()(chunk + "\n\n\n", error_status=True))
            if len(histories) != 1:
                return ImportedHand(number, title, error="pokerkit reads no hand in it")
            phh = loads(histories[0].dumps())
            phh = phh.replace(actions=_shows(phh.get("actions", [])))
            # pokerkit's own play of the hand as written: the stacks ours must reach
            final = list(_pokerkit().HandHistory.loads(dumps(phh)))[-1]
    except (ValueError, KeyError, IndexError, AssertionError) as exc:
        return ImportedHand(number, title, error=f"pokerkit cannot read it: {_reason(exc)}")
    except PHHError as exc:  # pragma: no cover - pokerkit's own PHH is valid TOML
        return ImportedHand(number, title, error=f"pokerkit writes PHH we cannot read: {exc}")
    outcome = replay_hand(phh)
    if outcome.error is not None:
        return ImportedHand(number, title, error=f"our engine cannot replay it: {outcome.error}")
    theirs = [Decimal(s) for s in final.stacks]
    ours = list(outcome.finishing_stacks)
    if not _same_but_odd_chips(ours, theirs, phh):
        shown = ", ".join(f"{o}/{t}" for o, t in zip(ours, theirs, strict=True))
        return ImportedHand(
            number,
            title,
            error=f"our replay's stacks differ from the source's (ours/theirs: {shown})",
        )
    return ImportedHand(number, title, hand=phh)


_UNKNOWN_SHOW = re.compile(r"^(p\d+) sm \?+\s*$")


def _shows(actions: list[str]) -> list[str]:
    """pokerkit's ``pN sm ????`` lines made what the source says.

    pokerkit "shows" unknown cards at a showdown for a player whose cards its
    parser did not read there: when the source dealt that player's cards
    face up (iPoker writes a showdown's cards in the deal), the player
    showed them; when it shows them later (after an all-in's run-out), that
    show stands; otherwise the source says the player mucked.  Each player
    shows or mucks once.
    """
    dealt: dict[str, str] = {}
    shown: dict[str, int] = {}
    for index, action in enumerate(actions):
        words = action.split()
        if words[:2] == ["d", "dh"] and len(words) > 3 and "?" not in words[3]:
            dealt[words[2]] = words[3]
        elif len(words) == 3 and words[1] == "sm" and "?" not in words[2]:
            shown.setdefault(words[0], index)
    out: list[str] = []
    done: set[str] = set()
    for index, action in enumerate(actions):
        unknown = _UNKNOWN_SHOW.match(action)
        if unknown is None:
            out.append(action)
            continue
        player = unknown[1]
        if player in done or shown.get(player, -1) > index:
            continue
        done.add(player)
        out.append(f"{player} sm {dealt[player]}" if player in dealt else f"{player} sm")
    return out


def _same_but_odd_chips(ours: list[Decimal], theirs: list[Decimal], phh: PhhHand) -> bool:
    """Equal, or equal but for where a split pot's odd chips went (each a smallest unit)."""
    if ours == theirs:
        return True
    if sum(ours) != sum(theirs):
        return False
    amounts = [Decimal(v) for v in (*phh["starting_stacks"], *phh["blinds_or_straddles"])]
    places = max(-int(a.as_tuple().exponent) for a in amounts if a.is_finite())
    unit = Decimal(1).scaleb(-places)
    return all(abs(o - t) <= unit * (len(ours) - 1) for o, t in zip(ours, theirs, strict=True))
