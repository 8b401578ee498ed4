"""Shared test settings."""

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from mazziere.server.requests import WOKE_FOR_NOTHING

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _no_clock_wakes_for_nothing(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every test fails if a task of the room logged that its clock woke for nothing again and
    again (a wake no turn acts on: a tick stored at every turn of the loop), which the
    room survives by resting, so that no test would see it otherwise."""
    yield
    said = [record.getMessage() for record in caplog.get_records("call")]
    assert not [line for line in said if WOKE_FOR_NOTHING in line]


# tests/data holds data files and the script that made them, not tests.
collect_ignore_glob = ["data/*"]

# The room's database fixture (SQLite and PostgreSQL) for storage and REST tests.
from tests.server_db import room_settings  # noqa: E402, F401

# The files whose tests wait minutes on the room's clock (marked ``clock``), using little
# CPU: they go to the test processes first.  pytest-xdist orders the files by their number
# of tests, so a file of one such test went last, and the suite waited minutes for it alone
# at the end (docs/testing.md, "The suite's time").  The controller that schedules the files
# never sees the tests' marks, so the files are named here, and each test process checks
# the marks against this list.
WAITS_ON_THE_CLOCK = frozenset({"tests/test_play_mtt_minutes.py"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if (item.get_closest_marker("clock") is not None) != (path in WAITS_ON_THE_CLOCK):
            raise pytest.UsageError(
                f"{item.nodeid}: a test marked clock must be in a file of "
                "WAITS_ON_THE_CLOCK (tests/conftest.py), and only such tests"
            )


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, when it runs
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` with the files of :data:`WAITS_ON_THE_CLOCK` sent first."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ClockFirst(LoadFileScheduling):
        def _assign_work_unit(self, node: Any) -> None:
            for scope in [s for s in self.workqueue if s in WAITS_ON_THE_CLOCK]:
                self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return ClockFirst(config, log)
