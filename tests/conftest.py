"""Shared test settings."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
settings.load_profile("default")

# tests/data holds data files and the script that made them, not tests.
collect_ignore_glob = ["data/*"]

# The room's database fixture (SQLite and PostgreSQL) for storage and REST tests.
from tests.server_db import room_settings  # noqa: E402, F401
