"""Helpers for REST tests: a test client that speaks the room's CSRF protocol, and the
messages of its WebSockets one at a time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
from fastapi.testclient import TestClient

from mazziere.server.protocol import unbatch
from mazziere.server.security import CSRF_COOKIE


class RoomClient:
    """A browser of the room: keeps its own cookies and sends the CSRF header.

    Several browsers share one running test client (one event loop for the
    app), each bringing its cookie jar to its requests.
    """

    def __init__(self, client: TestClient) -> None:
        self.http = client
        self.jar = httpx.Cookies()
        self.get("/api/session")

    @property
    def csrf(self) -> str:
        return self.jar.get(CSRF_COOKIE) or ""

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        if method not in ("GET", "HEAD"):
            kwargs["headers"] = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        self.http.cookies = self.jar
        try:
            return self.http.request(method, path, **kwargs)
        finally:
            self.jar = self.http.cookies

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, json: Any = None, **kwargs: Any) -> Any:
        return self.request("POST", path, json=json, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)

    def guest(self) -> dict[str, Any]:
        answer = self.post("/api/guest")
        assert answer.status_code == 201, answer.text
        account: dict[str, Any] = answer.json()["account"]
        return account

    def register(self, name: str, password: str = "correct horse") -> dict[str, Any]:
        answer = self.post("/api/register", {"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        account: dict[str, Any] = answer.json()["account"]
        return account

    def audit(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.get("/api/ledger/audit").json()
        return answer


def error_code(answer: Any) -> str:
    """The error code of a refused request."""
    code: str = answer.json()["error"]["code"]
    return code


def inbox(ws: Any) -> Iterator[dict[str, Any]]:
    """Every message the room sends on the test client's socket ``ws``, in order, one at a
    time (a batch's one by one); ``next`` raises what ``receive_text`` raises (a close)."""
    while True:
        yield from unbatch(json.loads(ws.receive_text()))
