"""Shared test settings."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
settings.load_profile("default")

# tests/data holds data files and the script that made them, not tests.
collect_ignore_glob = ["data/*"]

# The room's database fixture (SQLite and PostgreSQL) for storage and REST tests.
from tests.server_db import room_settings  # noqa: E402, F401

# The longest files (`make test` lists the slowest tests) start first: the two test processes
# each take whole files (`--dist loadfile`), and a long file started near the end kept one of
# them busy alone for its last two or three minutes. The other files keep their order.
LONGEST_FIRST = (
    "test_play_moments.py",
    "test_play_no_leak.py",
    "test_holdem_differential.py",
    "test_crash_points.py",
    "test_fuzz_protocol.py",
    "test_pokerstars.py",
    "test_play_mtt.py",
    "test_evaluate_exhaustive.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
