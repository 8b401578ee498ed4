"""`mazziere export --tournament`: tournament hands as PokerStars writes them, read by pokerkit.

A sit & go's hands at three levels (the last with an ante) are exported with
the tournament's number, buy-in and levels; pokerkit's PokerStars parser
(given the ante and straddle lines, as the import reads) reads every one
back to our finishing stacks, and each first line is the header PokerStars
writes for that level.
"""

from __future__ import annotations

import random
import re
import warnings
from collections import Counter
from pathlib import Path

import pytest

from mazziere.cli import main
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.history.export import TournamentInfo, buy_in_text, export_text, parse_levels
from mazziere.history.holdem import to_phh
from mazziere.history.phh import PHHError, dumps_many, loads
from mazziere.history.phh_italian import dumps_italian
from mazziere.importing import parser_class
from tests.random_play import play_randomly
from tests.test_pokerstars import _same_but_odd_chips

LEVELS = [(10, 20, 0), (15, 30, 0), (25, 50, 5)]
HANDS = 120


def _tournament_hands(count: int, seed: int) -> list[HoldemHand]:
    """A sit & go's hands: 2-9 players, the level rising every 40 hands."""
    rng = random.Random(seed)
    hands = []
    for index in range(count):
        small, big, ante = LEVELS[min(index * len(LEVELS) // count, len(LEVELS) - 1)]
        n = rng.choice([2, 3, 6, 9])
        stacks = [rng.choice([rng.randint(40, 300), rng.randint(300, 3000)]) for _ in range(n)]
        hand = HoldemHand(stacks, blinds=(small, big), ante=ante, antes_dead=True, rng=rng)
        play_randomly(hand, rng, wager_odds=0.25, fold_odds=0.3)
        hands.append(hand)
    return hands


def _write(hands: list[HoldemHand], path: Path) -> None:
    phh = [
        to_phh(hand, players=[f"player{i + 1}" for i in range(hand.n)]).replace(hand=1000 + k)
        for k, hand in enumerate(hands)
    ]
    path.write_text(dumps_many(phh, numbers=list(range(1, len(phh) + 1))))


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [history] = list(parser_class("pokerstars")()(text, error_status=True))
    return [int(s) for s in list(history)[-1].stacks]


def test_cli_export_of_a_tournament_reads_back_in_pokerkit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = _tournament_hands(HANDS, seed=5)
    path = tmp_path / "sit-and-go.phhs"
    _write(hands, path)
    args = ["export", str(path), "--tournament", "4242", "--buy-in", "$10+$1"]
    assert main([*args, "--levels", "10/20, 15/30, 25/50/5", "--hero", "1"]) == 0
    texts = capsys.readouterr().out.split("\n\n\n")
    assert len(texts) == HANDS
    levels: Counter[str] = Counter()
    for hand, text in zip(hands, texts, strict=True):
        first, table = text.splitlines()[:2]
        found = re.fullmatch(
            r"PokerStars Hand #\d+: Tournament #4242, \$10\.00\+\$1\.00 USD Hold'em No Limit"
            r" - Level (I|II|III) \((\d+)/(\d+)\)",
            first,
        )
        assert found is not None, first
        level = {"I": 0, "II": 1, "III": 2}[found[1]]
        assert (int(found[2]), int(found[3])) == LEVELS[level][:2]
        levels[found[1]] += 1
        assert table.startswith("Table '4242 Mazziere' ")
        assert "in chips)" in text and "$" not in text.split("\n", 1)[1]  # chips, not money
        assert ("posts the ante 5" in text) == (level == 2)
        assert _same_but_odd_chips(hand, _pokerkit_stacks(text)), text
    assert levels == {"I": 40, "II": 40, "III": 40}


def test_without_levels_the_stakes_are_numbered_as_they_come(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = _tournament_hands(6, seed=6)
    path = tmp_path / "hands.phhs"
    _write(hands[2:] + hands[:2], path)  # level 2 first, then 3, then 1
    assert main(["export", str(path), "--tournament", "9", "--buy-in", "0+0"]) == 0
    firsts = [t.splitlines()[0] for t in capsys.readouterr().out.split("\n\n\n")]
    assert [f.split(" - Level ")[1] for f in firsts] == [
        "I (15/30)",
        "I (15/30)",
        "II (25/50)",
        "II (25/50)",
        "III (10/20)",
        "III (10/20)",
    ]
    assert firsts[0].startswith("PokerStars Hand #1000: Tournament #9, Freeroll  Hold'em No Limit")


def test_a_hand_at_no_level_is_named_and_bad_options_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = _tournament_hands(3, seed=7)
    path = tmp_path / "hands.phhs"
    _write(hands, path)
    assert main(["export", str(path), "--tournament", "9", "--levels", "10/20"]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("Tournament #9, Freeroll") == 1
    assert captured.err.splitlines() == [
        "mazziere: error: hand [2]: no level of tournament #9 has the stakes 15/30",
        "mazziere: error: hand [3]: no level of tournament #9 has the stakes 25/50 ante 5",
    ]
    for options, error in [
        (["--levels", "10/20"], "--buy-in and --levels need --tournament"),
        (["--tournament", "9", "--levels", "10-20"], "a level is SMALL/BIG or SMALL/BIG/ANTE"),
        (["--tournament", "9", "--buy-in", "ten"], "--buy-in is BUY-IN+FEE"),
        (["--tournament", "9", "--buy-in", "$10+€1"], "--buy-in is BUY-IN+FEE"),
        (["--tournament", "-5"], "a tournament's number is a whole number from 1, not -5"),
        (["--tournament", "0"], "a tournament's number is a whole number from 1, not 0"),
    ]:
        assert main(["export", str(path), *options]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith("mazziere: error: ") and error in err and err.count("\n") == 1


def test_an_italian_tournament_hand_says_its_tournament_and_level() -> None:
    rng = random.Random(3)
    game = ItalianHand("italian-classic", [500] * 4, invito=20, rng=rng)
    play_randomly(game, rng)
    hand = loads(dumps_italian(game, extra={"hand": 3, "players": ["a", "b", "c", "d"]}))
    info = TournamentInfo(id=5, buy_in=buy_in_text(100, 10), levels=parse_levels("0/0/10,0/0/20"))
    first, table = export_text(hand, tournament=info).splitlines()[:2]
    assert first.startswith(
        "Mazziere Hand #3: Tournament #5, 100+10 Poker all'italiana italian-classic (invito 20)"
        " - Level II"
    )
    assert table.startswith("Table '5 Mazziere' ")
    with pytest.raises(PHHError, match="PokerStars has no Poker all'italiana"):
        export_text(hand, format="pokerstars")
