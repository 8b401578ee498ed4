"""Every rule of RULES.md §4-5 as a hand history in tests/data/italian (one readable file each).

A file either plays a hand to its end and states the outcome (stacks,
winnings, rake, what the next hand inherits), which the replay checks, or
ends with an action the rules forbid, named by ``_expect_error``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mazziere.history.phh_italian import PHHError, dumps_italian, loads, replay_italian

DATA = Path(__file__).parent / "data" / "italian"
FILES = sorted(DATA.glob("*.phh"))
DOCS = Path(__file__).parent.parent / "docs" / "phh-italian.md"


def test_there_is_a_scenario_for_every_phase_and_bullet() -> None:
    prefixes = {path.name.split("_")[0] for path in FILES}
    # §4.1-4.9 (4.3, the deal, and 4.10, tournaments, are in test_italian_hand.py) and §5.
    assert {"c41", "c42", "c44", "c45", "c46", "c47", "c48", "c49", "i32"} <= prefixes
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_scenario(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# RULES.md §"), "each file opens with the rule it shows"
    fields = loads(text)
    expected_error = fields.get("_expect_error")
    if expected_error is not None:
        with pytest.raises(PHHError, match=re.escape(expected_error)):
            replay_italian(fields)
        return
    assert {"finishing_stacks", "winnings"} <= set(fields), "a played hand states its outcome"
    hand = replay_italian(fields)
    assert hand.is_over
    # Written back and read again, the hand is the same hand.
    again = replay_italian(loads(dumps_italian(hand)))
    assert again.log == hand.log
    assert again.result == hand.result


def test_a_wrong_outcome_is_caught() -> None:
    fields = loads((DATA / "c44_dead_hand.phh").read_text(encoding="utf-8"))
    fields = fields.replace(finishing_stacks=[500, 480, 490, 490])
    with pytest.raises(PHHError, match="'finishing_stacks' is"):
        replay_italian(fields)
    fields = loads((DATA / "c44_dead_hand.phh").read_text(encoding="utf-8")).replace(
        _next_opening="K"
    )
    with pytest.raises(PHHError, match="'_next_opening' is"):
        replay_italian(fields)


def test_the_documented_examples_replay() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    first, second = (loads(block) for block in blocks)
    assert replay_italian(first).result.stacks == (910, 1650, 450, 990)  # type: ignore[union-attr]
    assert replay_italian(second).result.rake == 35  # type: ignore[union-attr]
    same_as_files = {
        "c42_blind_opening.phh": first,
        "i32_parole_split.phh": second,
    }
    for name, fields in same_as_files.items():
        file_fields = loads((DATA / name).read_text(encoding="utf-8"))
        strip = [re.sub(r"\s+#.*", "", a) for a in fields["actions"]]
        assert [re.sub(r"\s+#.*", "", a) for a in file_fields["actions"]] == strip


def test_mazziere_replay_plays_italian_histories(capsys: pytest.CaptureFixture[str]) -> None:
    from mazziere.cli import main

    path = DATA / "i32_parole_split.phh"
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "hands": [
            {
                "file": str(path),
                "hand": None,
                "players": [],
                "finishing_stacks": ["5022", "4900", "5021", "5022"],
                "payoffs": ["22", "-100", "21", "22"],
                "error": None,
            }
        ]
    }
    # A file whose only hand breaks a rule holds no valid hand: bad input.
    assert main(["replay", str(DATA / "c45_at_most_four_cards.phh")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "at most 4 cards may be changed" in err
