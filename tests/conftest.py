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

# The longest test files, with their seconds (the sum of their tests' times in a JUnit
# report of `make test`, three processes, 2026-12-06, a machine whose loop of
# `for i in range(10**7): s += i*i` took 1.2 s of CPU). Only the order of the files comes
# from these figures: a file missing here, or slower since, is still run, only later.
LONG_FILES = {
    "test_web_pages.py": 228,
    "test_evaluate_exhaustive.py": 152,
    "test_web.py": 151,
    "test_web_table.py": 139,
    "test_crash_points.py": 134,
    "test_fuzz_protocol.py": 119,
    "test_play_private.py": 103,
    "test_room_simulation.py": 103,
    "test_tui_watch.py": 88,
    "test_tui_connect.py": 85,
    "test_db_operator.py": 85,
    "test_play_waiting_list.py": 84,
    "test_web_private_sit_and_go.py": 77,
    "test_cli_room.py": 77,
    "test_db_hands.py": 76,
    "test_play_mtt.py": 71,
    "test_holdem_differential.py": 71,
    "test_loadtest.py": 64,
    "test_db_backup.py": 57,
    "test_pokerstars.py": 56,
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files are shared between processes in the order they are collected (`make
    test` turns off pytest-xdist's own order, by number of tests), so the order decides
    how long the last process works alone at the end.  Tests that mostly wait on the
    room's clock (``clock``) go first, so that their wait (two and a half minutes)
    overlaps the rest; then the longest files, longest first; then the others, which fill
    the end evenly."""
    items.sort(
        key=lambda item: (
            item.get_closest_marker("clock") is None,
            -LONG_FILES.get(item.path.name, 0),
        )
    )
