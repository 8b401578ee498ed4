"""``mazziere duel``: the JSON of the win rates, the table, and one-line errors."""

from __future__ import annotations

import json

import pytest

from mazziere.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_duel_json_gives_each_bots_rate_and_interval(capsys) -> None:
    args = ["duel", "--rules", "italian-32", "--bots", "basic,random", "--hands", "30"]
    code, out, err = run(capsys, *args, "--json")
    assert code == 0 and out.count("\n") == 1 and err == ""
    payload = json.loads(out)
    first, second = payload["bots"]
    assert (first["name"], second["name"]) == ("basic", "random")
    assert first["per_100"] == -second["per_100"]
    low, high = first["ci95"]
    assert low <= first["per_100"] <= high
    # The unit is the controbuio, the biggest forced bet heads up (docs/bots.md).
    assert payload["deals"] == 15 and payload["unit"] == "controbui"
    code, out, _ = run(capsys, *args)
    assert code == 0 and "95% interval" in out and "15 deals played twice" in out
    assert "controbui per 100 hands" in out and "big blinds" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "strong"], "two bots"),
        (["--bots", "strong,genius"], "unknown bot 'genius'"),
        (["--hands", "1"], "--hands"),
        # Deals come in pairs of hands, and an interval needs two deals.
        (["--hands", "3"], "an even number of hands from 4, not 3"),
        (["--hands", "2"], "an even number of hands from 4, not 2"),
        (["--hands", "20000002"], "--hands must be at most 10000000"),
        (["--rules", "poker"], "unknown rules"),
    ],
)
def test_bad_duels_are_one_line_and_exit_code_2(capsys, args, message) -> None:
    code, out, err = run(capsys, "duel", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
