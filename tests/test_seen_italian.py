"""Italian hands seen from one seat (the room's downloads, what ``play --connect`` saves):
replayed with the cards the seat did not see filled in, to the outcome the hand states.

Random hands of both Italian rule sets, chained through their carries (dead hands, parol
pots, the opening ladder), each written as the room stores it and then as each of its
players downloads it (``player_view``: every card they did not see is ``??``): every view
replays (``seen_from_one_seat``) to the same finishing stacks, winnings and carry, and a
view whose stated outcome was changed does not.  Without ``seen_from_one_seat`` the view
is refused: its cards would be made up.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from mazziere.cli import main
from mazziere.game.italian import ItalianHand, StockReshuffled
from mazziere.history.phh_italian import PHHError, dumps_italian, loads, replay_italian
from mazziere.server.hands import player_view
from tests.italian_play import each_finished_hand, random_action

STAKES = {"italian-classic": {"invito": 10}, "italian-32": {"buio": 10}}


def check_views(hand: ItalianHand, counts: Counter[str]) -> None:
    text = dumps_italian(hand)
    assert hand.result is not None
    reshuffled = any(isinstance(record, StockReshuffled) for record in hand.log)
    for position in range(hand.n):
        view = loads(player_view(text, position))
        if "??" not in str(view["actions"]):
            continue  # everything was shown (or nobody was dealt): nothing to fill
        if reshuffled:  # which discards came back the seat did not see: not filled
            with pytest.raises(PHHError, match="stock ran out"):
                replay_italian(view, seen_from_one_seat=True)
            counts["reshuffled"] += 1
            continue
        replayed = replay_italian(view, seen_from_one_seat=True)
        assert replayed.result is not None
        assert replayed.result.stacks == hand.result.stacks
        assert replayed.carry == hand.carry
        counts["views"] += 1
        counts["showdowns"] += any(" sm " in line for line in view["actions"])
        with pytest.raises(PHHError, match="every card known"):
            replay_italian(view)
    if hand.result.payoffs.count(0) < hand.n and not reshuffled:  # say another won instead
        view = loads(player_view(text, 0))
        if "??" in str(view["actions"]):
            stacks = list(view["finishing_stacks"])
            stacks.append(stacks.pop(0))
            if stacks != view["finishing_stacks"]:
                with pytest.raises(PHHError, match="no filling"):
                    replay_italian({**view, "finishing_stacks": stacks}, seen_from_one_seat=True)
                counts["refused"] += 1


@pytest.mark.parametrize("rules", ["italian-classic", "italian-32"])
def test_every_seat_s_view_of_random_hands_replays_to_the_same_outcome(rules: str) -> None:
    counts: Counter[str] = Counter()
    check = partial(check_views, counts=counts)
    each_finished_hand(rules, STAKES[rules], check, rng=random.Random(rules), chains=25, hands=8)
    assert counts["views"] > 300 and counts["showdowns"] > 50 and counts["refused"] > 50, counts


def test_a_view_without_its_outcome_is_refused() -> None:
    hand = ItalianHand("italian-classic", [500] * 3, invito=10, rng=random.Random(2))
    hand.check()
    hand.bet(30)
    hand.fold()
    hand.fold()
    view = loads(player_view(dumps_italian(hand), 1))
    assert replay_italian(view, seen_from_one_seat=True).result == hand.result
    untold = {key: value for key, value in view.items() if key != "finishing_stacks"}
    with pytest.raises(PHHError, match="outcome stated"):
        replay_italian(untold, seen_from_one_seat=True)


def test_replay_and_stats_read_a_sitting_saved_from_the_room(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``play --connect`` saves (the room's downloads) replays and counts."""
    rng = random.Random(11)
    saved = 0
    while saved < 6:
        hand = ItalianHand("italian-classic", [500] * 3, invito=10, rng=rng)
        while not hand.is_over:
            hand.apply(random_action(hand, rng))
        text = dumps_italian(hand, extra={"players": ["anna", "bruno", "carla"]})
        if any(isinstance(record, StockReshuffled) for record in hand.log):
            continue
        saved += 1
        (tmp_path / f"hand-{saved:04d}.phh").write_text(player_view(text, 0))
    assert main(["replay", str(tmp_path)]) == 0
    assert "6 hands: 6 replayed, 0 with errors" in capsys.readouterr().out
    assert main(["stats", str(tmp_path), "--player", "anna", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["hands"] == 6
