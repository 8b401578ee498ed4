"""The seeds of the suite's random sessions (the checkpoints', the sit & go's, the
multi-table tournaments'): a few in every run, and as many more as ``MAZZIERE_SESSION_SEEDS``
asks for (``MAZZIERE_SESSION_SEEDS=200 make test`` plays 200 more of each, a hunt for rare
cases that the suite's own few would take years of runs to meet), from seed 100 or from
``MAZZIERE_SESSION_FIRST_SEED`` (at least 100), so that hunts one after another each meet
new sessions."""

from __future__ import annotations

import os
import random

import pytest

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


class _SeededSecrets:
    """What the tables take from :mod:`secrets` (a seat chosen at random, a bots' generator's
    seed), drawn from a seed instead."""

    def __init__(self, chance: random.Random) -> None:
        self._chance = chance

    def randbelow(self, below: int) -> int:
        return self._chance.randrange(below)

    def randbits(self, bits: int) -> int:
        return self._chance.getrandbits(bits)


def same_session_for(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The room's random draws of a session (each hand's deck seed, a seat picked for a player
    who names none, a bots' generator) from ``seed``: a session played again is the same
    session, so a hunt's failure is replayed by its seed, and the suite's own seeds play as
    much every time.  (The room's own draws stay the system's everywhere else.)"""
    from mazziere.server import tables, tournaments

    chance = random.Random(f"room {seed}")
    for module in (tables, tournaments):
        monkeypatch.setattr(module, "new_seed", lambda: chance.randbytes(32))
    monkeypatch.setattr(tables, "secrets", _SeededSecrets(chance))
