"""benchmarks/odds.py on tiny sizes: the parts that need no peer print their figures."""

from __future__ import annotations

import pytest

from benchmarks.odds import bot_decisions, italian_draws


def test_the_italian_draws_and_the_bots_decisions_print_their_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    italian_draws(1, 2)
    bot_decisions(4)
    out = capsys.readouterr().out
    assert "italian-classic, 40 cards" in out and "median" in out
    for rules in ("holdem", "italian-classic", "italian-32"):
        assert f"   {rules:<16} wall" in out and f"   {rules:<16} CPU " in out
    assert out.count("p99") == 6
    assert out.count("load average") == 5  # the Italian draws, the bots, and each rule set
