"""The seeds of the suite's random sessions (the checkpoints', the sit & go's, the
multi-table tournaments'): a few in every run, and as many more as ``MAZZIERE_SESSION_SEEDS``
asks for (``MAZZIERE_SESSION_SEEDS=200 make test`` plays 200 more of each, a hunt for rare
cases that the suite's own few would take years of runs to meet)."""

from __future__ import annotations

import os

FIRST_MORE_SEED = 100


def more_seeds() -> list[int]:
    """The seeds asked for beyond the suite's own (none unless the environment says so)."""
    wanted = os.environ.get("MAZZIERE_SESSION_SEEDS", "").strip()
    if not wanted:
        return []
    if not wanted.isdigit():
        raise ValueError(f"MAZZIERE_SESSION_SEEDS is a number of seeds, not {wanted!r}")
    return list(range(FIRST_MORE_SEED, FIRST_MORE_SEED + int(wanted)))
