"""What the table service sets for the whole process while the room runs, and gives back."""

from __future__ import annotations

import sys

from fastapi.testclient import TestClient

from mazziere.server.app import create_app
from mazziere.server.play import LOCK_HANDOVER_SECONDS, table_service
from mazziere.server.settings import Settings


def test_the_interpreter_lock_changes_hands_sooner_while_the_room_runs(
    room_settings: Settings,
) -> None:
    # The database writer's thread asks for the lock after every statement: at the default
    # 5 ms a busy loop made each group commit wait tens of ms (docs/benchmarks-changelog.md).
    before = sys.getswitchinterval()
    assert before > LOCK_HANDOVER_SECONDS
    with TestClient(create_app(room_settings, services=[table_service])):
        assert sys.getswitchinterval() == LOCK_HANDOVER_SECONDS
    assert sys.getswitchinterval() == before
