"""Start-up: a command that evaluates nothing loads neither the evaluator's tables nor numpy."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

import mazziere
from mazziere.evaluate import _FAST_PATHS, _built_fast_paths

# `mazziere.evaluate` is the function the package exports: the module is this one.
EVALUATE = sys.modules["mazziere.evaluate"]

HEAVY = ("numpy", "rich", "textual", "mazziere.game", "mazziere.room", "mazziere.bots")

PROBE = """
import sys
from mazziere.cli import main
code = main(sys.argv[1:])
from mazziere.evaluate import _built_fast_paths
print(code, _built_fast_paths.cache_info().currsize,
      *[name for name in {heavy!r} if name in sys.modules])
"""


@pytest.mark.parametrize("args", [["--help"], ["compare", "--help"], []])
def test_help_loads_no_table_and_nothing_heavy(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    # The help text first, then: exit code 0, no fast path built, no heavy module loaded.
    assert "Usage: mazziere" in done.stdout
    assert done.stdout.splitlines()[-1] == "0 0"


def test_an_italian_comparison_builds_no_holdem_fast_path() -> None:
    probe = PROBE.format(heavy=("numpy",))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            probe,
            "compare",
            "-r",
            "italian-32",
            "Ah Kh Qh Jh 9h",
            "7c 7d 7h 8s 9s",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.splitlines()[-1] == "0 0"


def test_the_fast_paths_are_built_once_and_shared() -> None:
    from mazziere import holdem_strength7 as from_package
    from mazziere.evaluate import holdem_strength7

    assert from_package is holdem_strength7 is mazziere.holdem_strength7
    assert EVALUATE.holdem_strengths is mazziere.holdem_strengths
    assert _built_fast_paths.cache_info().currsize == 1
    with pytest.raises(AttributeError, match="has no attribute 'holdem_strength6'"):
        _ = EVALUATE.holdem_strength6
    with pytest.raises(AttributeError, match="module 'mazziere' has no attribute 'nothing'"):
        _ = mazziere.nothing


@pytest.mark.parametrize("name", _FAST_PATHS)
def test_the_fast_paths_examples(name: str) -> None:
    # Built on first use, they are no module attribute that --doctest-modules finds.
    function = getattr(EVALUATE, name)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    tests = finder.find(
        function,
        name,
        globs=vars(EVALUATE) | dict(zip(_FAST_PATHS, _built_fast_paths(), strict=True)),
    )
    assert sum(len(test.examples) for test in tests) >= 1
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
