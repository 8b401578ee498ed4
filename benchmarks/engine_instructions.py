"""The engine's cost in machine instructions a hand, repeatable on a loaded machine.

Run under callgrind, which counts only inside ``itertools.starmap``'s step
(the one call that plays the hands; the imports, the tables built on first
use and a few warm-up hands are not counted)::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out --collect-atstart=no \\
        --toggle-collect=starmap_next .venv/bin/python -m benchmarks.engine_instructions \\
        italian-32

The instructions it reports ("Collected") divided by the hands (300) are the
figure of docs/benchmarks.md.  The hands are the engine benchmark's (its
random hand player of the rule set, the ``loose`` policy, seed 1); the
actions they made are printed, so that two engines compared this way are
seen to play the same hands.  Without valgrind it only plays them.

>>> main(["holdem", "5"])  # doctest: +ELLIPSIS
holdem: 5 hands, ... actions
"""

from __future__ import annotations

import itertools
import sys

from benchmarks.engine import RANDOM_HAND_PLAYERS
from benchmarks.policy import LOOSE

HANDS = 300
SEED = 1
WARM_UP = 20
"""Hands played before counting (another seed): the tables made on first use are built."""


def main(argv: list[str]) -> None:
    """``RULES [HANDS]``: play the hands inside one ``starmap`` step and print the actions."""
    if not argv or argv[0] not in RANDOM_HAND_PLAYERS or len(argv) > 2:
        raise SystemExit(f"usage: RULES [HANDS], RULES one of {', '.join(RANDOM_HAND_PLAYERS)}")
    play = RANDOM_HAND_PLAYERS[argv[0]]
    hands = int(argv[1]) if len(argv) > 1 else HANDS
    play(WARM_UP, 12345, LOOSE)
    (actions,) = itertools.starmap(play, [(hands, SEED, LOOSE)])
    print(f"{argv[0]}: {hands} hands, {actions} actions")


if __name__ == "__main__":
    main(sys.argv[1:])
