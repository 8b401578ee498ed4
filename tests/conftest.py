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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that mostly wait on the room's clock (``clock``) go first: with the test files
    shared between processes in the order they are collected, one process waits while the
    other works, instead of a last file waiting alone at the end (two and a half minutes)."""
    items.sort(key=lambda item: item.get_closest_marker("clock") is None)
