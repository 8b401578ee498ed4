"""Start the real ``mazziere serve`` process on a free port of 127.0.0.1, and stop it."""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx

from mazziere.server.requests import WOKE_FOR_NOTHING
from mazziere.server.settings import Settings


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


_PEOPLE = itertools.count(1)


def person_address() -> str:
    """An address of its own for one person of a test (a range kept for tests), sent as
    ``X-Forwarded-For``.

    Every request of the suite comes from 127.0.0.1, whose ``X-Forwarded-For`` the room
    trusts (uvicorn's default: a proxy on the room's machine), so each person has their own
    address, as people behind such a proxy have, and the room's limit on new accounts per
    address counts each person's, at the room's default.
    """
    n = next(_PEOPLE)
    return f"198.18.{n // 250 % 250}.{n % 250 + 1}"


@dataclass
class RunningServer:
    """A ``mazziere serve`` process and what it printed."""

    process: subprocess.Popen[str]
    address: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_for_output(self, text: str, timeout: float = 20.0) -> str:
        """What the server printed, once it holds ``text``: a line logged after the events
        a client already saw (the room tells its clients first, then writes its log)."""
        deadline = time.monotonic() + timeout
        while text not in (output := self.output()):
            assert time.monotonic() < deadline, f"no {text!r} in {timeout} s:\n{output}"
            time.sleep(0.05)
        return output


@contextmanager
def serve(
    settings: Settings,
    folder: Path,
    *,
    timeout: float = 60.0,
    port: int | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[RunningServer]:
    """Run ``mazziere serve`` with ``settings``' database until the block ends (on ``port``,
    or a free one: a room started again where its pages reconnect), with ``env``'s settings
    (``MAZZIERE_...``) on top of the test process's environment."""
    port = free_port() if port is None else port
    child_env = {
        **os.environ,
        **(env or {}),
        "MAZZIERE_PASSWORD_PROFILE": settings.password_profile,
        "MAZZIERE_WARM_UP_BOTS": "false",  # seconds of CPU for each of the suite's servers
        "MAZZIERE_NEW_ACCOUNTS_PER_ADDRESS": str(settings.new_accounts_per_address),
        "XDG_DATA_HOME": str(folder / "data"),
    }
    if settings.database_schema is not None:
        child_env["MAZZIERE_DATABASE_SCHEMA"] = settings.database_schema
    if settings.lobby_file is not None:
        child_env["MAZZIERE_LOBBY_FILE"] = str(settings.lobby_file)
    command = [
        sys.executable, "-m", "mazziere.cli", "serve",
        "--host", "127.0.0.1", "--port", str(port), "--database-url", settings.database_url,
    ]  # fmt: skip
    log = folder / f"serve-{port}.log"
    with log.open("w", encoding="utf-8") as sink:
        process = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.STDOUT, text=True, env=child_env
        )
    address = f"http://127.0.0.1:{port}"
    server = RunningServer(process=process, address=address, log=log)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server stopped at start:\n{server.output()}")
            try:
                if httpx.get(f"{address}/api/session", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the server did not answer in {timeout} s:\n{server.output()}"
                )
            time.sleep(0.2)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # uvicorn's graceful stop
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
    assert WOKE_FOR_NOTHING not in server.output()  # (the room rests and goes on: said only there)
