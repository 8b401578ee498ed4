"""Player statistics on hand-made hands whose figures are worked out by hand (docs/stats.md)."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazziere.cards import parse_cards
from mazziere.cli import main
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand
from mazziere.history.holdem import to_phh
from mazziere.history.phh import dumps_many, loads, loads_many
from mazziere.history.phh_italian import dumps_italian
from mazziere.history.stats import PlayerStats, StatsBook

# ann holds aces, bob 7-2, cat kings; the board gives nobody more.
DECK = parse_cards("Ah 7c Kh Ad 2d Kd 2s 3s 8c 9d 2h Tc 3h 4h")
NAMES = ["ann", "bob", "cat"]  # small blind, big blind, button


def _holdem_hands() -> list[HoldemHand]:
    one = HoldemHand([100] * 3, blinds=(1, 2), deck=DECK)
    one.raise_to(6)  # cat opens
    one.raise_to(18)  # ann 3-bets
    one.fold()  # bob faces two raises: no 3-bet chance
    one.call()  # cat
    one.bet(20)  # flop: ann bets, cat calls
    one.call()
    one.check()  # turn: ann checks, cat bets, ann calls
    one.bet(30)
    one.call()
    one.check()  # river: both check; ann's aces win
    one.check()
    two = HoldemHand([100] * 3, blinds=(1, 2), deck=DECK)
    two.fold()  # cat
    two.call()  # ann limps
    two.check()  # bob
    two.check()  # flop: ann checks, bob bets, ann folds
    two.bet(4)
    two.fold()
    three = HoldemHand([100] * 3, blinds=(1, 2), deck=DECK)
    three.raise_to(6)  # cat opens; ann folds facing one raise; bob calls facing one
    three.fold()
    three.call()
    three.check()  # flop: bob checks, cat bets, bob raises, cat calls
    three.bet(8)
    three.raise_to(24)
    three.call()
    three.bet(70)  # turn: bob all-in, cat calls; cat's kings win
    three.call()
    for hand in (one, two, three):
        assert hand.is_over
    return [one, two, three]


HOLDEM_EXPECTED = {
    "ann": {
        "hands": 3, "vpip": 2 / 3, "pfr": 1 / 3, "three_bet": 1 / 2, "aggression_factor": 1.0,
        "went_to_showdown": 1 / 2, "won_at_showdown": 1.0, "net": "67",
    },
    "bob": {
        "hands": 3, "vpip": 1 / 3, "pfr": 0.0, "three_bet": 0.0, "aggression_factor": None,
        "went_to_showdown": 1 / 2, "won_at_showdown": 0.0, "net": "-100",
    },
    "cat": {
        "hands": 3, "vpip": 2 / 3, "pfr": 2 / 3, "three_bet": None, "aggression_factor": 2 / 3,
        "went_to_showdown": 1.0, "won_at_showdown": 0.5, "net": "33",
    },
}  # fmt: skip


def _italian_hands() -> list[ItalianHand]:
    def play(script: str, seed: int, **arguments: object) -> ItalianHand:
        hand = ItalianHand(
            "italian-classic", [500] * 3, invito=10, rng=random.Random(seed), **arguments
        )  # type: ignore[arg-type]
        for step in script.split(","):
            name, *amount = step.split()
            if name == "draw":
                hand.draw(tuple(hand.hole[hand.actor or 0][: int(amount[0])]))
            else:
                getattr(hand, name)(*map(int, amount))
        assert hand.is_over
        return hand

    return [
        # anna opens blind (30); bruno calls, carla folds; anna changes 2, bruno 3;
        # bruno says parol, anna bets 20, bruno calls and mucks: anna wins.
        play("bet 30,check,call,fold,check,draw 2,draw 3,parol,bet 20,call", 11),
        # nobody opens: a dead hand
        play("check,check,check,check", 12),
        # a parol pot (60 carried in): carla opens 90, anna calls, bruno folds;
        # anna changes 1, carla stands pat; both check; anna wins.
        play(
            "check,check,bet 90,call,fold,draw 1,draw 0,check,check",
            1,
            parol_pot=True,
            carried_pot=60,
        ),
    ]


ITALIAN_EXPECTED = {
    "ann": {
        "hands": 3, "vpip": 2 / 3, "pfr": 1 / 3, "aggression_factor": None,
        "went_to_showdown": 1.0, "won_at_showdown": 1.0, "net": "230",
        "italian": {
            "open_rate": 0.0, "blind_open_rate": 1 / 3, "cards_per_draw": 1.5,
            "parol_rate": 0.0, "parol_pot_hands": 1, "parol_pot_net": "170",
        },
    },
    "bob": {
        "hands": 3, "vpip": 1 / 3, "pfr": 0.0, "aggression_factor": 0.0,
        "went_to_showdown": 1.0, "won_at_showdown": 0.0, "net": "-80",
        "italian": {
            "open_rate": 0.0, "blind_open_rate": 0.0, "cards_per_draw": 3.0,
            "parol_rate": 1 / 3, "parol_pot_hands": 1, "parol_pot_net": "-10",
        },
    },
    "cat": {
        "hands": 3, "vpip": 1 / 3, "pfr": 1 / 3, "aggression_factor": None,
        "went_to_showdown": 1.0, "won_at_showdown": 0.0, "net": "-120",
        "italian": {
            "open_rate": 1 / 3, "blind_open_rate": 0.0, "cards_per_draw": 0.0,
            "parol_rate": 0.0, "parol_pot_hands": 1, "parol_pot_net": "-100",
        },
    },
}  # fmt: skip


def _matches(got: dict[str, object], expected: dict[str, object]) -> None:
    for key, value in expected.items():
        if isinstance(value, dict):
            inner = got[key]
            assert isinstance(inner, dict)
            _matches(inner, value)
        elif isinstance(value, float):
            assert got[key] == pytest.approx(value), key
        else:
            assert got[key] == value, key


def test_holdem_figures_worked_out_by_hand() -> None:
    book = StatsBook()
    for hand in _holdem_hands():
        book.add(hand, NAMES)
    for name, expected in HOLDEM_EXPECTED.items():
        _matches(book.players[name].to_dict(), expected)
    assert book.players["ann"].net_per_100 == Decimal(6700) / 3


def test_italian_figures_worked_out_by_hand() -> None:
    book = StatsBook()
    for hand in _italian_hands():
        book.add(hand, NAMES)
    for name, expected in ITALIAN_EXPECTED.items():
        _matches(book.players[name].to_dict(), expected)
    assert book.players["bob"].three_bet is None  # a Hold'em figure


def _files(tmp_path: Path) -> tuple[Path, Path]:
    holdem = tmp_path / "holdem.phhs"
    holdem.write_text(dumps_many([to_phh(h, players=NAMES) for h in _holdem_hands()]))
    italian = tmp_path / "italian"
    italian.mkdir()
    for number, hand in enumerate(_italian_hands()):
        (italian / f"{number}.phh").write_text(dumps_italian(hand, extra={"players": NAMES}))
    return holdem, italian


def test_cli_stats_json_from_files_and_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holdem, italian = _files(tmp_path)
    assert main(["stats", str(holdem), "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    for name, expected in HOLDEM_EXPECTED.items():
        _matches(players[name], expected)
    assert main(["stats", str(italian), "--json", "--player", "bob"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in payload["players"]] == ["bob"]
    _matches(payload["players"][0], ITALIAN_EXPECTED["bob"])
    # both at once: six hands each
    assert main(["stats", str(holdem), str(italian), "--json"]) == 0
    players = {p["name"]: p for p in json.loads(capsys.readouterr().out)["players"]}
    assert players["ann"]["hands"] == 6 and players["ann"]["net"] == "297"


def test_cli_stats_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    holdem, italian = _files(tmp_path)
    assert main(["stats", str(holdem), str(italian)]) == 0
    out = capsys.readouterr().out
    assert "VPIP" in out and "parol" in out
    assert "6 hands read from 4 files" in out
    ann = next(line for line in out.splitlines() if "ann" in line)
    assert "67%" in ann  # VPIP 4/6


def test_cli_stats_tables_fit_an_80_column_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    holdem, italian = _files(tmp_path)
    assert main(["stats", str(holdem), str(italian), "--player", "ann"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    # Every figure is there, whole: the Italian ones in a table of their own.
    for figure in ("VPIP", "net/100", "opens", "blind opens", "cards/draw", "parol-pot net"):
        assert any(figure in line for line in lines), figure
    assert sum(line.startswith("│ ann ") for line in lines) == 2


def test_cli_stats_reports_unreadable_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holdem, _ = _files(tmp_path)
    broken = tmp_path / "broken.phhs"
    broken.write_text(holdem.read_text() + "\n[4]\nvariant = 'NT'\n")
    assert main(["stats", str(broken), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["hands"] == 3
    assert "broken.phhs [4]: missing field 'antes'" in captured.err
    assert main(["stats", str(holdem), "--player", "zoe"]) == 2
    assert "no hand of 'zoe'" in capsys.readouterr().err


def test_add_phh_knows_players_by_name() -> None:
    book = StatsBook()
    hand = _holdem_hands()[1]
    book.add_phh(loads(dumps_many([to_phh(hand)]).split("\n", 1)[1]))
    assert set(book.players) == {"p1", "p2", "p3"}
    assert book.players["p2"].net == 2


def test_the_handhq_sample_counts_every_seat_and_nets_to_zero() -> None:
    book = StatsBook()
    sections = loads_many((Path(__file__).parent / "data" / "handhq-sample.phhs").read_text())
    seats = 0
    for section in sections:
        assert section.hand is not None
        book.add_phh(section.hand)  # unknown (inf) stacks too: payoffs are exact
        seats += len(section.hand["starting_stacks"])
    assert sum(p.hands for p in book.players.values()) == seats
    assert sum(p.net for p in book.players.values()) == 0
    for p in book.players.values():
        assert p.pfr_hands <= p.vpip_hands <= p.hands
        assert p.showdowns_won <= p.showdowns <= p.saw_flop <= p.hands


@given(
    seeds=st.lists(st.integers(0, 2**16), min_size=1, max_size=8),
    rules=st.sampled_from(["holdem", "italian-classic", "italian-32"]),
)
@settings(max_examples=40)
def test_figures_hand_by_hand_merged_are_the_figures_of_all_the_hands(
    seeds: list[int], rules: str
) -> None:
    """The room counts a window of hands one hand at a time and adds the counts up
    (``PlayerStats.merge``): that must give what one book over all the hands gives."""
    from tests import italian_play, pokerkit_oracle

    hands: list[HoldemHand | ItalianHand] = []
    for seed in seeds:
        rng = random.Random(seed)
        hand: HoldemHand | ItalianHand
        if rules == "holdem":
            hand = HoldemHand([200] * 3, blinds=(1, 2), rng=random.Random(seed))
            while not hand.is_over:
                hand.apply(pokerkit_oracle.random_action(hand, rng))
        else:
            stakes = {"invito": 10} if rules == "italian-classic" else {"buio": 5}
            hand = ItalianHand(rules, [1_000] * 3, **stakes, rng=random.Random(seed))
            while not hand.is_over:
                hand.apply(italian_play.random_action(hand, rng))
        hands.append(hand)
    whole = StatsBook()
    for hand in hands:
        whole.add(hand, NAMES)
    for name in NAMES:
        merged = PlayerStats(name)
        for hand in hands:
            one = StatsBook()
            one.add(hand, NAMES)
            merged.merge(one.players[name])
        assert merged == whole.players[name]
