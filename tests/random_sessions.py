"""The seeds of the suite's random sessions (the checkpoints', the sit & go's, the
multi-table tournaments'): a few in every run, and as many more as ``MAZZIERE_SESSION_SEEDS``
asks for (``MAZZIERE_SESSION_SEEDS=200 make test`` plays 200 more of each, a hunt for rare
cases that the suite's own few would take years of runs to meet), from seed 100 or from
``MAZZIERE_SESSION_FIRST_SEED`` (at least 100), so that hunts one after another each meet
new sessions."""

from __future__ import annotations

import os

FIRST_MORE_SEED = 100


def _number(name: str) -> int | None:
    wanted = os.environ.get(name, "").strip()
    if not wanted:
        return None
    if not wanted.isdigit():
        raise ValueError(f"{name} is a number, not {wanted!r}")
    return int(wanted)


def more_seeds() -> list[int]:
    """The seeds asked for beyond the suite's own (none unless the environment says so)."""
    count = _number("MAZZIERE_SESSION_SEEDS")
    if not count:
        return []
    first = max(FIRST_MORE_SEED, _number("MAZZIERE_SESSION_FIRST_SEED") or FIRST_MORE_SEED)
    return list(range(first, first + count))
