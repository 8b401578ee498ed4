"""Provably fair deals: the seed's stream, the deck it orders, and `verify` on honest and
tampered hand histories."""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import pytest

from mazziere.bots.base import Situation, make_bot
from mazziere.cli import main
from mazziere.fair import (
    DECK_LABEL,
    FairnessError,
    FairRandom,
    commitment,
    deck_order,
    new_seed,
    verify,
)
from mazziere.game.core import Phase
from mazziere.game.holdem import HoldemHand
from mazziere.game.italian import ItalianHand, StockReshuffled
from mazziere.history.holdem import to_phh
from mazziere.history.phh import dumps
from mazziere.history.phh_italian import dumps_italian
from mazziere.rules import find_rules


def seed_of(number: int) -> bytes:
    return hashlib.sha256(f"test seed {number}".encode()).digest()


def test_the_stream_is_sha256_in_counter_mode() -> None:
    seed = seed_of(1)
    first = hashlib.sha256(DECK_LABEL + b"\x00" + seed + (0).to_bytes(8, "big")).digest()
    second = hashlib.sha256(DECK_LABEL + b"\x00" + seed + (1).to_bytes(8, "big")).digest()
    rng = FairRandom(seed)
    assert rng.getrandbits(256) == int.from_bytes(first, "big")
    assert rng.getrandbits(12) == int.from_bytes(second[:2], "big") >> 4
    assert FairRandom(seed, b"other").getrandbits(256) != int.from_bytes(first, "big")


def test_randrange_and_shuffle_use_the_stream_alone() -> None:
    seed = seed_of(2)
    a, b = FairRandom(seed), FairRandom(seed)
    assert [a.randrange(37) for _ in range(50)] == [b.randrange(37) for _ in range(50)]
    assert all(0 <= a.random() < 1 for _ in range(100))
    copy = FairRandom(seed)
    copy.setstate(a.getstate())
    assert copy.getrandbits(64) == a.getrandbits(64)


def test_the_deck_is_each_cards_once_and_differs_by_seed() -> None:
    for rules, players in (("holdem", 6), ("italian-classic", 4), ("italian-32", 5)):
        deck = find_rules(rules).deck(players)
        order, _ = deck_order(seed_of(3), rules, players=players)
        assert sorted(order) == sorted(deck)
        assert order != deck_order(seed_of(4), rules, players=players)[0]


def test_new_seeds_come_from_the_csprng() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(len(s) == 32 for s in seeds)


# ------------------------------------------------------------ hands to check


def play(hand: HoldemHand | ItalianHand, rules: str, rng: random.Random) -> None:
    """Bots play the hand out through the engine's public calls."""
    bots = [make_bot("basic" if p % 2 else "random", rng) for p in range(hand.n)]
    rule_set = find_rules(rules)
    while not hand.is_over:
        position = hand.actor
        assert position is not None
        legal = hand.legal_actions()
        situation = Situation(rule_set, position, hand.n, hand.view(position), legal, 20)
        hand.apply(bots[position].act(situation), position)


def italian_history(seed: bytes, rules: str, players: int, rng: random.Random) -> tuple[str, Any]:
    order, stream = deck_order(seed, rules, players=players)
    if rules == "italian-classic":
        hand = ItalianHand(rules, [2000] * players, invito=20, deck=order, rng=stream)
    else:
        hand = ItalianHand(rules, [2000] * players, buio=20, deck=order, rng=stream)
    play(hand, rules, rng)
    extra = {"_seed": seed.hex(), "_commitment": commitment(seed)}
    return dumps_italian(hand, extra=extra), hand


def holdem_history(seed: bytes, players: int, rng: random.Random) -> str:
    order, stream = deck_order(seed, "holdem", players=players)
    hand = HoldemHand([500] * players, blinds=(5, 10), deck=order, rng=stream)
    play(hand, "holdem", rng)
    return dumps(to_phh(hand, _seed=seed.hex(), _commitment=commitment(seed)))


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32"])
def test_honest_italian_hands_verify(rules: str) -> None:
    rng = random.Random(5)
    for number in range(30):
        text, hand = italian_history(seed_of(number), rules, 2 + number % 4, rng)
        report = verify(text)
        dealt = sum(
            len(c) for r in hand.log if type(r).__name__ == "HoleCardsDealt" for c in [r.cards]
        )
        assert report.cards_checked == dealt
        assert report.cards_hidden == 0


def reshuffled_hand() -> tuple[str, ItalianHand]:
    """An italian-classic hand whose draw ran the stock out (found by trying seeds)."""
    rng = random.Random(6)
    for number in range(2000):
        seed = seed_of(1000 + number)
        order, stream = deck_order(seed, "italian-classic", players=6)
        hand = ItalianHand("italian-classic", [2000] * 6, invito=20, deck=order, rng=stream)
        while not hand.is_over and hand.phase is not Phase.DRAW:
            legal = hand.legal_actions()
            if hand.can_bet(legal.min_to or 20):
                hand.bet(legal.min_to or 20)
            elif hand.can_call():
                hand.call()
            else:
                hand.check()
        if hand.is_over:
            continue
        while hand.phase is Phase.DRAW:
            position = hand.actor
            assert position is not None
            hand.draw(hand.hole[position][:4], position)  # everybody draws four
        if any(isinstance(r, StockReshuffled) for r in hand.log):
            play(hand, "italian-classic", rng)
            extra = {"_seed": seed.hex(), "_commitment": commitment(seed)}
            return dumps_italian(hand, extra=extra), hand
    raise AssertionError("no seed ran the stock out")


def test_cards_dealt_after_a_reshuffle_are_checked() -> None:
    text, _ = reshuffled_hand()
    report = verify(text)
    assert report.reshuffled_checked > 0
    assert "after a reshuffle" in report.describe()


def test_a_tampered_reshuffled_card_is_caught() -> None:
    text, _ = reshuffled_hand()
    lines = text.splitlines()
    # The last deal with two cards or more came from the reshuffled stock: swap two of them.
    for index in reversed(range(len(lines))):
        match = re.search(r'"d dh p\d ((?:..){2,})"', lines[index])
        if match:
            cards = match.group(1)
            lines[index] = lines[index].replace(cards, cards[2:4] + cards[:2] + cards[4:])
            break
    assert match
    with pytest.raises(FairnessError, match="after the reshuffle"):
        verify("\n".join(lines) + "\n")


def test_honest_holdem_hands_verify() -> None:
    rng = random.Random(7)
    for number in range(30):
        report = verify(holdem_history(seed_of(number), 2 + number % 8, rng))
        assert report.cards_checked >= 2 * (2 + number % 8)


def test_hidden_cards_are_skipped_not_trusted() -> None:
    rng = random.Random(8)
    text = holdem_history(seed_of(50), 4, rng)
    # The history another player downloads: p2's cards hidden.
    hidden = re.sub(r"'d dh p2 (....)'", "'d dh p2 ????'", text)
    report = verify(hidden)
    assert report.cards_hidden == 2
    assert report.cards_checked == verify(text).cards_checked - 2


@pytest.mark.parametrize(
    ("tamper", "error"),
    [
        (
            lambda t: re.sub(
                r"_seed = '(.)", lambda m: "_seed = '" + "0f"[m.group(1) == "0"], t, count=1
            ),
            "commitment",
        ),
        (
            lambda t: re.sub(
                r"_commitment = '(.)",
                lambda m: "_commitment = '" + "0f"[m.group(1) == "0"],
                t,
                count=1,
            ),
            "commitment",
        ),
        (lambda t: t.replace("_seed", "_sead"), "no _seed"),
        (lambda t: re.sub(r"_seed = '[0-9a-f]*'", "_seed = 'zz'", t), "not hex"),
        (lambda t: re.sub(r"_seed = '[0-9a-f]*'", "_seed = 'abcd'", t), "2 bytes"),
        (lambda t: t.replace("variant = 'NT'", "variant = 'FT'"), "variant"),
    ],
)
def test_a_wrong_seed_or_commitment_is_caught(tamper: Any, error: str) -> None:
    text = holdem_history(seed_of(60), 3, random.Random(9))
    with pytest.raises(FairnessError, match=error):
        verify(tamper(text))


def test_swapped_or_replaced_cards_are_caught() -> None:
    text = holdem_history(seed_of(70), 3, random.Random(10))
    p1 = re.search(r"'d dh p1 (....)'", text)
    p2 = re.search(r"'d dh p2 (....)'", text)
    assert p1 and p2
    swapped = text.replace(p1.group(0), "@1").replace(p2.group(0), "@2")
    swapped = swapped.replace("@1", f"'d dh p1 {p2.group(1)}'").replace(
        "@2", f"'d dh p2 {p1.group(1)}'"
    )
    with pytest.raises(FairnessError, match="card 1 dealt"):
        verify(swapped)


# -------------------------------------------------------------------- the CLI


def test_verify_deck_command(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "hand.phh"
    text, _ = italian_history(seed_of(80), "italian-32", 4, random.Random(11))
    good.write_text(text)
    assert main(["verify-deck", str(good)]) == 0
    out, err = capsys.readouterr()
    assert "matches the seed" in out and not err
    bad = tmp_path / "bad.phh"
    bad.write_text(re.sub(r'_commitment = "(.)', '_commitment = "x', text))
    for path in (bad, tmp_path / "missing.phh"):
        assert main(["verify-deck", str(path)]) == 2
        out, err = capsys.readouterr()
        assert not out and err.count("\n") == 1 and err.startswith("mazziere: error:")
