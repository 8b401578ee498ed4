"""End to end: the real ``mazziere serve`` process, spoken to over HTTP on 127.0.0.1.

Registration, log-in, a refused cross-site call, the lobby, a tournament
registration paid through the ledger and refunded, players racing for the
last places of a sit & go (the lobby's, and a private one's through its invite), and
the ledger adding up to zero, on SQLite and
on PostgreSQL; and no log line for each socket opened.
"""

from __future__ import annotations

import json
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.sync.client import connect

from mazziere.cli import GRACEFUL_STOP_SECONDS
from mazziere.server.settings import Settings
from tests.server_process import serve


class Browser:
    """An HTTP client with its own cookies that sends the CSRF header like the page does."""

    def __init__(self, address: str) -> None:
        self.http = httpx.Client(base_url=address, timeout=10)
        assert self.http.get("/api/session").status_code == 200

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.http.close()

    def post(self, path: str, body: Any = None) -> httpx.Response:
        token = self.http.cookies.get("mazziere_csrf") or ""
        return self.http.post(path, json=body, headers={"X-CSRF-Token": token})

    def delete(self, path: str) -> httpx.Response:
        token = self.http.cookies.get("mazziere_csrf") or ""
        return self.http.delete(path, headers={"X-CSRF-Token": token})

    def get(self, path: str) -> Any:
        answer = self.http.get(path)
        assert answer.status_code == 200, answer.text
        return answer.json()


def test_the_real_server_registers_logs_in_and_pays_a_tournament_through_the_ledger(
    room_settings: Settings, tmp_path: Path
) -> None:
    with (
        serve(room_settings, tmp_path) as server,
        Browser(server.address) as anna,
        Browser(server.address) as bruno,
    ):
        # A cross-site form post carries no CSRF header: refused, nothing created.
        forged = anna.http.post("/api/register", json={"name": "anna", "password": "long secret"})
        assert forged.status_code == 403
        assert forged.json()["error"]["code"] == "csrf"
        assert anna.get("/api/ledger/audit")["entries"] == 0

        registered = anna.post("/api/register", {"name": "anna", "password": "long secret"})
        assert registered.status_code == 201, registered.text
        assert registered.json()["account"]["balance"] == 10_000
        assert anna.post("/api/logout").status_code == 200
        wrong = anna.post("/api/login", {"name": "anna", "password": "not it"})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "bad_credentials")
        assert anna.post("/api/login", {"name": "anna", "password": "long secret"}).status_code == (
            200
        )

        tables = anna.get("/api/tables")["tables"]
        assert len(tables) == 6
        assert {t["rules"] for t in anna.get("/api/tables?rules=italian-32")["tables"]} == {
            "italian-32"
        }
        registering = anna.get("/api/tournaments?rules=holdem&state=registering")["tournaments"]
        # The lobby's sit & go (it starts when full) and its scheduled tournament (at a time).
        (sit_and_go,) = [t for t in registering if t["starts_at"] is None]
        assert [t["starts_at"] is not None for t in registering].count(True) == 1, registering

        joined = anna.post(f"/api/tournaments/{sit_and_go['id']}/registration")
        assert joined.status_code == 201, joined.text
        assert joined.json()["registered"] == 1
        entries = anna.get("/api/wallet")["entries"]
        assert [(e["kind"], e["amount"]) for e in entries[:2]] == [("fee", -10), ("buy-in", -100)]
        assert anna.get("/api/account")["balance"] == 10_000 - 110

        assert bruno.post("/api/guest").status_code == 201
        assert bruno.post(f"/api/tournaments/{sit_and_go['id']}/registration").status_code == 201
        left = bruno.delete(f"/api/tournaments/{sit_and_go['id']}/registration")
        assert left.status_code == 200
        assert bruno.get("/api/account")["balance"] == 10_000
        assert [e["kind"] for e in bruno.get("/api/wallet")["entries"][:2]] == ["refund", "refund"]

        audit = anna.get("/api/ledger/audit")
        assert (audit["total"], audit["drifted"]) == (0, [])
        # grant x2, buy-in + fee x2, refund x2
        assert audit["entries"] == 8

        # Six players race for the four places of a sit & go: four get in, and pay.
        (race,) = [
            t
            for t in anna.get("/api/tournaments?rules=italian-classic&state=registering")[
                "tournaments"
            ]
            if t["starts_at"] is None
        ]
        players = [Browser(server.address) for _ in range(6)]
        try:
            for player in players:
                assert player.post("/api/guest").status_code == 201
            with ThreadPoolExecutor(len(players)) as pool:
                answers = list(
                    pool.map(
                        lambda p: p.post(f"/api/tournaments/{race['id']}/registration"), players
                    )
                )
            codes = sorted(a.status_code for a in answers)
            assert codes == [201] * 4 + [409] * 2, [a.text for a in answers]
            balances = sorted(p.get("/api/account")["balance"] for p in players)
            assert balances == [10_000 - 110] * 4 + [10_000] * 2
        finally:
            for player in players:
                player.http.close()
        started = anna.get(f"/api/tournaments/{race['id']}")
        assert (started["state"], started["registered"], started["prize_pool"]) == (
            "running",
            4,
            400,
        )
        # Six friends race through a private sit & go's invite for its three places.
        made = anna.post(
            "/api/private-sit-and-gos",
            {"name": "Tre posti", "rules": "holdem", "players": 3, "host_plays": False},
        )
        assert made.status_code == 201, made.text
        invite = f"/api/sit-and-go-invites/{made.json()['invite_code']}/registration"
        friends = [Browser(server.address) for _ in range(6)]
        try:
            for friend in friends:
                assert friend.post("/api/guest").status_code == 201
            with ThreadPoolExecutor(len(friends)) as pool:
                answers = list(pool.map(lambda p: p.post(invite), friends))
            codes = sorted(a.status_code for a in answers)
            assert codes == [201] * 3 + [409] * 3, [a.text for a in answers]
            balances = sorted(f.get("/api/account")["balance"] for f in friends)
            assert balances == [10_000 - 100] * 3 + [10_000] * 3  # no fee
        finally:
            for friend in friends:
                friend.http.close()
        full = anna.get(f"/api/private-sit-and-gos/{made.json()['id']}")
        assert (full["state"], full["registered"]) == ("running", 3)
        audit = anna.get("/api/ledger/audit")
        assert (audit["total"], audit["drifted"]) == (0, [])
        assert server.process.poll() is None
    assert f"Mazziere room at {server.address}/" in server.output()
    assert "Traceback" not in server.output()


def test_the_room_logs_no_line_for_each_socket_opened(
    room_settings: Settings, tmp_path: Path
) -> None:
    """Thousands of players coming back after a dropped socket would fill the log with one
    line each: without ``--access-log``, neither uvicorn's nor websockets' line is kept."""
    with serve(room_settings, tmp_path) as server, Browser(server.address) as guest:
        assert guest.post("/api/guest").status_code == 201
        cookies = "; ".join(f"{name}={value}" for name, value in guest.http.cookies.items())
        address = server.address.replace("http://", "ws://") + "/ws"
        for _ in range(3):
            with connect(address, additional_headers={"Cookie": cookies}) as socket:
                welcome = json.loads(socket.recv(timeout=10))
                assert welcome["type"] == "welcome", welcome
        assert guest.get("/api/account")["guest"] is True  # the room still answers
    output = server.output()
    assert "Traceback" not in output
    assert "connection open" not in output, output
    assert '"WebSocket /ws"' not in output, output


def test_ctrl_c_twice_stops_the_room_at_once_in_one_line_and_it_starts_again(
    room_settings: Settings, tmp_path: Path
) -> None:
    """An operator who presses Ctrl-C again while the room waits for a socket to close has
    it stop at once: one line says so, no traceback (uvicorn's of the cancelled start-up task
    was printed), and the room starts again on its database with the player's account as it
    was."""
    with serve(room_settings, tmp_path) as server, Browser(server.address) as guest:
        assert guest.post("/api/guest").status_code == 201
        account = guest.get("/api/account")
        cookies = "; ".join(f"{name}={value}" for name, value in guest.http.cookies.items())
        port = int(server.address.rsplit(":", 1)[1])
        # A log-in whose body never comes: the room's stop waits for its answer (uvicorn:
        # "Waiting for connections to close"), as it would for a slow client's.
        with socket.create_connection(("127.0.0.1", port)) as slow:
            token = guest.http.cookies.get("mazziere_csrf") or ""
            slow.sendall(
                f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n"
                f"X-CSRF-Token: {token}\r\nCookie: {cookies}\r\n\r\n".encode()
            )
            # Once another request is answered, the room has read that head (its socket was
            # ready first): it waits for the body.
            assert guest.get("/api/account") == account
            server.process.send_signal(signal.SIGINT)
            server.wait_for_output("Waiting for connections to close")
            server.process.send_signal(signal.SIGINT)
            assert server.process.wait(timeout=30) == 0
        output = server.output()
    assert "Traceback" not in output, output
    assert "mazziere: stopped at once (Ctrl-C twice)" in output, output
    with serve(room_settings, tmp_path) as again:
        answer = httpx.get(f"{again.address}/api/account", cookies=dict(guest.http.cookies))
        assert answer.status_code == 200, answer.text
        assert answer.json() == account


def test_one_ctrl_c_stops_the_room_even_while_a_request_never_ends(tmp_path: Path) -> None:
    """A client that never sends its request's body does not hold the room's stop: the
    request is cut after the stop's wait, the room's own shut-down runs, without a traceback
    (SQLite only: the stop is uvicorn's and the room's, the same on either database)."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", password_profile="CHEAPEST"
    )
    with serve(settings, tmp_path) as server, Browser(server.address) as guest:
        assert guest.post("/api/guest").status_code == 201
        port = int(server.address.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(
                f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n"
                f"X-CSRF-Token: {guest.http.cookies.get('mazziere_csrf')}\r\n"
                f"Cookie: {'; '.join(f'{k}={v}' for k, v in guest.http.cookies.items())}"
                "\r\n\r\n".encode()
            )
            assert guest.get("/api/session")  # the room has read that head
            stopped = time.monotonic()
            server.process.send_signal(signal.SIGINT)
            assert server.process.wait(timeout=GRACEFUL_STOP_SECONDS + 30) == 0
            waited = time.monotonic() - stopped
        output = server.output()
    assert GRACEFUL_STOP_SECONDS - 1 < waited < GRACEFUL_STOP_SECONDS + 30, waited
    assert "Waiting for connections to close" in output, output
    assert "Application shutdown complete" in output, output  # the room's own shut-down
    assert "Traceback" not in output, output
    assert "stopped at once" not in output, output
