"""The Italian text export (docs/text-export.md): each move written, no card leaked."""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from mazziere.cli import main
from mazziere.game.core import ActionKind, CardsShown, PlayerActed, PotAwarded
from mazziere.game.italian import Discarded, ItalianHand
from mazziere.history.phh_italian import dumps_italian
from mazziere.history.pokerstars import HandHeader
from mazziere.history.text_italian import to_text_italian
from tests.italian_play import each_finished_hand

STAKES = {
    "italian-classic": {"invito": 10},
    "italian-32": {"buio": 10, "min_bet": 10},
}


def _check(hand: ItalianHand, counts: Counter[str], rng: random.Random) -> None:
    hero = rng.randrange(hand.n)
    names = [f"player{i}" for i in range(hand.n)]
    text = to_text_italian(hand, HandHeader(names=names, hero=hero))
    lines = text.splitlines()
    # Every decision and every draw has its line, in order.
    moves = [r for r in hand.log if isinstance(r, PlayerActed | Discarded)]
    written = [
        line
        for line in lines
        if re.match(r"player\d+: (?!posts|shows|mucks|doesn't)", line) and "collected" not in line
    ]
    assert len(written) == len(moves), text
    for record, line in zip(moves, written, strict=True):
        assert line.startswith(f"player{record.position}: "), (line, record)
        if isinstance(record, PlayerActed) and record.kind is ActionKind.PAROL:
            assert line.endswith("says parol")
            counts["parol"] += 1
        if isinstance(record, Discarded):
            counts["draws"] += 1
    # No card is written but the hero's and those shown.
    shown = {c for r in hand.log if isinstance(r, CardsShown) for c in r.cards}
    seen = set(re.findall(r"\b(?:[2-9TJQKA][shdc])\b", text))
    allowed = {str(c) for c in shown} | {
        str(c)
        for r in hand.log
        if getattr(r, "position", None) == hero
        for c in getattr(r, "cards", ())
        if c is not None
    }
    assert seen <= allowed, (seen - allowed, text)
    # What was collected is what the pots paid.
    paid = sum(r.amount for r in hand.log if isinstance(r, PotAwarded))
    collected = sum(int(m) for m in re.findall(r"^player\d+ collected (\d+)", text, re.M))
    assert collected == paid, text
    counts["hands"] += 1
    counts["carried"] += "is carried" in text
    counts["showdowns"] += "*** SHOW DOWN ***" in text


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32"])
def test_random_italian_hands_are_written_whole(rules: str) -> None:
    rng = random.Random(rules)
    counts: Counter[str] = Counter()
    check = partial(_check, counts=counts, rng=rng)
    each_finished_hand(rules, STAKES[rules], check, rng=rng, chains=60, hands=10)
    # 422 italian-classic hands (35 carried pots), 353 italian-32 hands
    assert counts["hands"] > 300, counts
    assert counts["draws"] > 300 and counts["showdowns"] > 100 and counts["parol"] > 3, counts
    if rules == "italian-classic":
        assert counts["carried"] > 20, counts


def test_cli_export_text_of_an_italian_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = ItalianHand("italian-classic", [500] * 3, invito=10, rng=random.Random(2))
    hand.check()
    hand.bet(30)
    hand.fold()
    hand.fold()
    path = tmp_path / "hand.phh"
    path.write_text(dumps_italian(hand, extra={"players": ["anna", "bruno", "carla"]}))
    assert main(["export", str(path), "--format", "text", "--hero", "1"]) == 0
    out = capsys.readouterr().out
    assert out == to_text_italian(hand, HandHeader(names=("anna", "bruno", "carla"), hero=0))
    assert main(["export", str(path)]) == 2
    assert "PokerStars has no Poker all'italiana: use --format text" in capsys.readouterr().err
