"""PokerStars text export: pokerkit's own PokerStars parser reads our hands back to our stacks.

pokerkit 0.7.7's parser reads no antes (its ante pattern matches nothing) and
no straddles (it reads ``posts small blind`` and ``posts big blind`` only):
:func:`test_the_stock_parser_cannot_judge_antes_or_straddles` shows what it
makes of them.  Hands with antes or straddles are read by the same parser
given the two standard lines, ``posts the ante X`` and ``posts straddle X``
(:func:`mazziere.importing.parser_class`, what ``mazziere import`` reads
with); pokerkit then plays the hand, and it must end as ours did.  The same
hands go to pokerkit as PHH too, with no change at all to pokerkit.  The
parser also needs the blinds posted (a small blind all-in with the ante
leaves it no big blind to read): the random blinds have more chips than the
ante.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import random
import re
import warnings
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pokerkit
import pytest
from pokerkit.notation import PokerStarsParser

from mazziere.cards import parse_cards
from mazziere.cli import main
from mazziere.game.core import BetsCollected, PotAwarded, Rake
from mazziere.game.holdem import HoldemHand
from mazziere.history.holdem import holdem_from_phh, to_phh
from mazziere.history.phh import dumps, dumps_many, loads_many
from mazziere.history.pokerstars import (
    HandHeader,
    Tournament,
    header_from_phh,
    to_pokerstars,
    to_pokerstars_many,
)
from mazziere.importing import parser_class
from tests.pokerkit_oracle import memoized_pokerkit
from tests.random_play import play_randomly

HANDS = 2000
SAMPLE = Path(__file__).parent / "data" / "handhq-sample.phhs"


READER = parser_class("pokerstars")
"""pokerkit's PokerStars parser given the ante and straddle lines (as ``mazziere import``)."""


def _blinds(rng: random.Random, n: int) -> list[int]:
    """1/2, and from 4 players one or two straddles now and then (4, then 8)."""
    straddles = rng.choice([0, 0, 0, 1, 1, 2]) if n >= 4 else 0
    blinds = [1, 2, 4, 8][: 2 + straddles]
    return blinds + [0] * (n - len(blinds))


def _random_hand(rng: random.Random, counts: Counter[str]) -> tuple[HoldemHand, HandHeader]:
    n = rng.choice([2, 2, 3, 4, 5, 6, 6, 7, 8, 9])
    ante = rng.choice([0, 0, 0, 1, 2])
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(20, 400)]) for _ in range(n)]
    blinds = _blinds(rng, n)
    for blind in (0, 1):
        stacks[blind] = max(stacks[blind], ante + 1)
    hand = HoldemHand(stacks, blinds=blinds, ante=ante, antes_dead=True, rng=rng)
    play_randomly(hand, rng, wager_odds=0.25, fold_odds=0.3)
    kind = rng.random()
    header = HandHeader(hand_id=rng.randrange(10**9), hero=rng.choice([None, *range(n)]))
    if kind < 0.3:
        header = HandHeader(hand_id=header.hand_id, unit=Decimal("0.01"), currency="$")
        counts["cents"] += 1
    elif kind < 0.5:
        header = HandHeader(
            hand_id=header.hand_id, tournament=Tournament(id=77, buy_in="$10+$1", level=3)
        )
        counts["tournament"] += 1
    counts["heads-up"] += n == 2
    counts["antes"] += bool(ante)
    counts["straddles"] += len([b for b in blinds if b]) > 2
    counts["antes and straddles"] += bool(ante) and len([b for b in blinds if b]) > 2
    result = hand.result
    assert result is not None
    counts["all-in"] += 0 in result.stacks or any(s == 0 for s in hand.stacks)
    counts["side pots"] += len({p.eligible for p in result.pots}) > 1 or _side_pots(hand)
    counts["split pots"] += any(len(p.winners) > 1 for p in result.pots)
    counts["showdowns"] += len(result.shown) >= 2
    return hand, header


def _side_pots(hand: HoldemHand) -> bool:
    return sum(isinstance(r, PotAwarded) for r in hand.log) > 1


def _same_but_odd_chips(hand: HoldemHand, theirs: list[int]) -> bool:
    """pokerkit's stacks are ours, but for where each split pot's odd chips went.

    RULES.md §1 gives a split pot's odd chips one at a time clockwise from the
    button; pokerkit gives them all to the first winner in its own order of
    the pot's players.  A player may differ from us by no more than the odd
    chips of the split pots they won; the chips add up either way.
    """
    result = hand.result
    assert result is not None
    ours = result.stacks
    collected = [r for r in hand.log if isinstance(r, BetsCollected)]
    pots = len(collected[-1].pots) if collected else 1
    slack = [0] * hand.n
    for award in (r for r in hand.log if isinstance(r, PotAwarded)):
        if len(award.winners) > 1:
            for winner in award.winners:
                slack[winner] += pots * (len(award.winners) - 1)
    differences = [t - o for t, o in zip(theirs, ours, strict=True)]
    return sum(differences) == 0 and all(
        abs(d) <= allowed for d, allowed in zip(differences, slack, strict=True)
    )


def _pokerkit_read(text: str, *, unit: Decimal, parser: Any = READER) -> Any:
    """pokerkit's hand history of the text, amounts in chips (pokerkit's parse_value hook)."""

    def chips(raw: str) -> int:
        value = Decimal(raw.replace(",", "")) / unit
        assert value == int(value), raw
        return int(value)

    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")  # pokerkit warns, and prints a traceback, when it fails
        histories = list(parser()(text, parse_value=chips, error_status=True))
    assert len(histories) == 1
    return histories[0]


def _pokerkit_stacks(text: str, *, unit: Decimal) -> list[int]:
    """The finishing stacks pokerkit reaches from the text."""
    return list(list(_pokerkit_read(text, unit=unit))[-1].stacks)


def _same_actions(hand: HoldemHand, history: Any) -> bool:
    """The text gave pokerkit our hand: its set-up, and our actions in order.

    Dealing and showing are left aside (the text has only the hero's cards and
    those shown); an all-in ante or blind is read as what was posted; pokerkit adds a
    check by the one player left with chips (RULES.md asks for none), so ours
    are its actions less such checks.
    """
    phh = to_phh(hand)
    setup = hand.setup
    antes = [min(a, s) for a, s in zip(setup.stakes.antes, setup.stacks, strict=True)]
    left = [s - a for s, a in zip(setup.stacks, antes, strict=True)]
    blinds = [min(b, s) for b, s in zip(setup.stakes.blinds, left, strict=True)]
    if hand.n == 2:  # PHH lists heads-up posts the other way round
        antes.reverse()
        blinds.reverse()
    if list(history.antes) != antes or list(history.blinds_or_straddles) != blinds:
        return False
    if list(history.starting_stacks) != phh["starting_stacks"]:
        return False

    def betting(actions: Any) -> list[str]:
        return [a for a in actions if not a.startswith("d dh") and " sm" not in a]

    ours, theirs = betting(phh["actions"]), betting(history.actions)
    extra = list(theirs)
    for action in ours:
        while extra and extra[0] != action:
            if not extra[0].endswith(" cc"):
                return False
            extra.pop(0)
        if not extra:
            return False
        extra.pop(0)
    return all(a.endswith(" cc") for a in extra)


def test_pokerkit_reads_random_exported_hands_back_to_our_finishing_stacks() -> None:
    rng = random.Random(2026)
    counts: Counter[str] = Counter()
    with memoized_pokerkit():
        for _ in range(HANDS):
            hand, header = _random_hand(rng, counts)
            text = to_pokerstars(hand, header)
            history = _pokerkit_read(text, unit=Decimal(header.unit))
            assert _same_actions(hand, history), (history.actions, text)
            theirs = list(list(history)[-1].stacks)
            assert _same_but_odd_chips(hand, theirs), (theirs, text)
            counts["odd chips elsewhere"] += theirs != list(hand.stacks)
    # The random hands do reach every case the check is about.
    assert counts["heads-up"] > HANDS // 10, counts
    assert counts["antes"] > HANDS // 5, counts
    assert counts["straddles"] > HANDS // 6 and counts["antes and straddles"] > HANDS // 40, counts
    assert counts["all-in"] > HANDS // 5, counts
    assert counts["side pots"] > HANDS // 20, counts
    assert counts["split pots"] > HANDS // 100, counts
    assert counts["showdowns"] > HANDS // 5, counts
    assert counts["cents"] > HANDS // 5 and counts["tournament"] > HANDS // 10, counts


def _antes_or_straddles(count: int, seed: int) -> list[tuple[HoldemHand, HandHeader]]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    hands = []
    while len(hands) < count:
        hand, header = _random_hand(rng, counts)
        if any(hand.setup.stakes.antes) or len([b for b in hand.setup.stakes.blinds if b]) > 2:
            hands.append((hand, header))
    return hands


def test_the_stock_parser_cannot_judge_antes_or_straddles() -> None:
    """What pokerkit 0.7.7's parser, unchanged, makes of our antes and straddles.

    Antes: it reads none, so every player keeps the ante and the winner takes
    a pot short of them (or an all-in that the ante made is no longer one,
    and the hand cannot be played).  Straddles: it reads none, so the
    straddler's check or call of the straddle is a check facing a bet that
    pokerkit cannot play ("Unable to repair").
    """
    outcomes: Counter[str] = Counter()
    for hand, header in _antes_or_straddles(150, seed=11):
        text = to_pokerstars(hand, header)
        straddled = len([b for b in hand.setup.stakes.blinds if b]) > 2
        kind = "straddles" if straddled else "antes"
        try:
            history = _pokerkit_read(text, unit=Decimal(header.unit), parser=PokerStarsParser)
        except ValueError:
            outcomes[f"{kind}: unreadable"] += 1
            continue
        assert not any(history.antes)  # no ante is ever read
        assert len([b for b in history.blinds_or_straddles if b > 0]) <= 2  # nor any straddle
        stacks = list(list(history)[-1].stacks)
        outcomes[f"{kind}: {'right' if stacks == list(hand.stacks) else 'wrong'} stacks"] += 1
    assert outcomes["straddles: unreadable"] > 20 and not outcomes["straddles: right stacks"]
    assert outcomes["antes: wrong stacks"] > 10 * outcomes["antes: right stacks"], outcomes
    # and with the two lines, every one of them is read and ends as ours (the test above)


def test_pokerkit_plays_the_same_hands_from_their_phh() -> None:
    """The same hands as PHH, which pokerkit reads unchanged: its finishing stacks are ours."""
    with memoized_pokerkit():
        for hand, _ in _antes_or_straddles(300, seed=12):
            text = dumps(to_phh(hand))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                history = pokerkit.HandHistory.loads(text)
                theirs = list(list(history)[-1].stacks)
            assert _same_but_odd_chips(hand, [int(s) for s in theirs]), (theirs, text)


def test_many_hands_in_one_file_are_all_read() -> None:
    rng = random.Random(3)
    counts: Counter[str] = Counter()
    hands = [_random_hand(rng, counts) for _ in range(20)]
    plain = [
        (hand, header)
        for hand, header in hands
        if not any(hand.setup.stakes.antes) and len([b for b in hand.setup.stakes.blinds if b]) == 2
    ]
    text = to_pokerstars_many(plain)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = list(PokerStarsParser()(text, error_status=True))
    assert len(histories) == len(plain) > 5
    assert [h.hand for h in histories] == [header.hand_id for _, header in plain]


def _scripted() -> HoldemHand:
    """Four players, side pots: p4 all-in for 50, p1 all-in for 30, p3 calls; rake 5%."""
    deck = "Ah Ad 7c 2s Kh Kd 7d 3s  9c Qs Jh Tc  8s 4h  5c 6h"
    hand = HoldemHand(
        [30, 200, 300, 50],
        blinds=(1, 2),
        ante=1,
        antes_dead=True,
        deck=parse_cards(deck),
        rake=Rake(percent=Fraction(5, 100), cap=3),
    )
    hand.raise_to(10)  # p3
    hand.all_in()  # p4, to 49
    hand.all_in()  # p1, 29 more: to 29 (all-in, less than the bet)
    hand.fold()  # p2
    hand.call()  # p3
    return hand


def test_a_scripted_hand_is_written_as_pokerstars_writes_it() -> None:
    hand = _scripted()
    header = HandHeader(
        hand_id=9001,
        table="Roma",
        names=("anna", "bruno", "carla", "dario"),
        seats=(2, 4, 5, 9),
        max_seats=9,
        time=datetime.datetime(2026, 12, 1, 10, 30, 5, tzinfo=datetime.UTC),
        unit=Decimal("0.05"),
        currency="€",
        hero=0,
    )
    assert to_pokerstars(hand, header) == EXPECTED_SCRIPTED


EXPECTED_SCRIPTED = """\
PokerStars Hand #9001: Hold'em No Limit (€0.05/€0.10 EUR) - 2026/12/01 10:30:05 UTC
Table 'Roma' 9-max Seat #9 is the button
Seat 2: anna (€1.50 in chips)
Seat 4: bruno (€10 in chips)
Seat 5: carla (€15 in chips)
Seat 9: dario (€2.50 in chips)
anna: posts the ante €0.05
bruno: posts the ante €0.05
carla: posts the ante €0.05
dario: posts the ante €0.05
anna: posts small blind €0.05
bruno: posts big blind €0.10
*** HOLE CARDS ***
Dealt to anna [Ah Kh]
carla: raises €0.40 to €0.50
dario: raises €1.95 to €2.45 and is all-in
anna: calls €1.40 and is all-in
bruno: folds
carla: calls €1.95
*** FLOP *** [Qs Jh Tc]
*** TURN *** [Qs Jh Tc] [4h]
*** RIVER *** [Qs Jh Tc 4h] [6h]
*** SHOW DOWN ***
dario: shows [2s 3s] (high card Queen)
anna: shows [Ah Kh] (a flush, Ace high)
carla: shows [7c 7d] (a pair of Sevens)
anna collected €4.50 from main pot
carla collected €2 from side pot
*** SUMMARY ***
Total pot €6.65 Main pot €4.50. Side pot €2. | Rake €0.15
Board [Qs Jh Tc 4h 6h]
Seat 2: anna (small blind) showed [Ah Kh] and won (€4.50) with a flush, Ace high
Seat 4: bruno (big blind) folded before Flop
Seat 5: carla showed [7c 7d] and won (€2) with a pair of Sevens
Seat 9: dario (button) showed [2s 3s] and lost with high card Queen
"""


def test_straddles_and_dead_posts_are_written() -> None:
    hand = HoldemHand([100] * 5, blinds=(1, 2, 4, -2, 0), rng=random.Random(5))
    while not hand.is_over:
        hand.fold() if hand.legal_actions().to_call else hand.check()
    text = to_pokerstars(hand)
    assert "p3: posts straddle 4\np4: posts big blind 2\n" in text


@pytest.mark.parametrize(
    ("header", "error"),
    [
        (HandHeader(names=("a", "b")), "a 3-player hand needs 3 names and 3 seats"),
        (HandHeader(names=("a", "b: c", "d")), "a player's name cannot be 'b: c'"),
        (HandHeader(names=("a", "a", "d")), "names and seats must be different"),
        (HandHeader(seats=(1, 3, 2)), "the seats must go round the table"),
    ],
)
def test_bad_headers_are_refused(header: HandHeader, error: str) -> None:
    hand = HoldemHand([100] * 3, rng=random.Random(1))
    hand.fold()
    hand.fold()
    with pytest.raises(ValueError, match=re.escape(error)):
        to_pokerstars(hand, header)


def test_an_unfinished_hand_is_refused() -> None:
    with pytest.raises(ValueError, match="only a finished hand"):
        to_pokerstars(HoldemHand([100] * 3, rng=random.Random(1)))


def test_the_handhq_sample_exported_is_read_back_by_pokerkit_to_our_replay() -> None:
    """Real hands (names, seats out of order, cents, dates): pokerkit reads our replay's end."""
    checked = 0
    for section in loads_many(SAMPLE.read_text()):
        hand = section.hand
        assert hand is not None
        if any(not Decimal(s).is_finite() for s in hand["starting_stacks"]):
            continue  # an unknown stack: nothing to export
        game, unit = holdem_from_phh(hand)
        text = to_pokerstars(game, header_from_phh(hand, unit=unit, hero=1))
        assert _same_but_odd_chips(game, _pokerkit_stacks(text, unit=unit)), text
        checked += 1
    assert checked == 210  # the 36 others have an unknown (inf) stack


def test_cli_export_pokerstars(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(4))
    game.fold()
    path = tmp_path / "hand.phh"
    path.write_text(dumps(to_phh(game, players=["ann", "bob"]).replace(hand=5)))
    assert main(["export", str(path), "--format", "pokerstars", "--hero", "bob"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PokerStars Hand #5: Hold'em No Limit (1/2)\n")
    assert f"Dealt to bob [{' '.join(map(str, game.hole[1]))}]" in out
    assert "ann" in out and "Dealt to ann" not in out


def test_cli_export_names_what_it_cannot_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(4))
    game.fold()
    good = dumps(to_phh(game))
    path = tmp_path / "hands.phhs"
    path.write_text(f"[1]\n{good}\n[2]\nvariant = 'NT'\n")
    assert main(["export", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("PokerStars Hand #1:")
    assert captured.err == "mazziere: error: hand [2]: missing field 'antes'\n"
    path.write_text("[2]\nvariant = 'NT'\n")
    assert main(["export", str(path)]) == 2
    assert "holds no hand to export: [2]: missing field 'antes'" in capsys.readouterr().err
    assert main(["export", str(path), "--format", "html"]) == 2
    assert "--format must be pokerstars or text" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "none.phh")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_export_numbers_hands_that_have_no_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Trackers tell hands apart by their number: a file's hands without one get their place."""
    hands = []
    for seed in (1, 2):
        game = HoldemHand([100, 100], blinds=(1, 2), rng=random.Random(seed))
        game.fold()
        hands.append(to_phh(game))
    path = tmp_path / "hands.phhs"
    path.write_text(dumps_many(hands, numbers=[7, 8]))
    assert main(["export", str(path)]) == 0
    firsts = [line for line in capsys.readouterr().out.splitlines() if "PokerStars Hand" in line]
    assert [line.split(":")[0] for line in firsts] == ["PokerStars Hand #7", "PokerStars Hand #8"]
