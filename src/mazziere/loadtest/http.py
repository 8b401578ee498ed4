"""A small HTTP/1.1 client over asyncio streams, for the load generator's set-up requests.

The load generator makes tens of thousands of REST calls (a guest account per player, a
private table per table, a request to sit per seat) before the WebSockets open.  A
keep-alive connection per concurrent caller and a cookie jar per player is all it needs;
the room's answers always carry ``Content-Length``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CookieJar", "HttpError", "HttpPool"]

CSRF_COOKIE = "mazziere_csrf"
"""The double-submit cookie the room sets (:mod:`mazziere.server.security`)."""


class HttpError(Exception):
    """The room answered with an error, or the connection failed."""


@dataclass
class CookieJar:
    """One player's cookies (name to value)."""

    values: dict[str, str] = field(default_factory=dict)

    def header(self) -> str:
        """The ``Cookie`` header's value.

        >>> CookieJar({"a": "1", "b": "2"}).header()
        'a=1; b=2'
        """
        return "; ".join(f"{name}={value}" for name, value in self.values.items())

    def take(self, set_cookie: str) -> None:
        """Keep what a ``Set-Cookie`` header sets (an expired cookie is dropped).

        >>> jar = CookieJar()
        >>> jar.take("mazziere_csrf=abc; Path=/; SameSite=lax")
        >>> jar.values
        {'mazziere_csrf': 'abc'}
        >>> jar.take('mazziere_csrf=""; Max-Age=0; Path=/')
        >>> jar.values
        {}
        """
        first, *attributes = set_cookie.split(";")
        name, _, value = first.strip().partition("=")
        expired = any(a.strip().lower() == "max-age=0" for a in attributes)
        if expired:
            self.values.pop(name, None)
        else:
            self.values[name] = value.strip()

    @property
    def csrf(self) -> str:
        """The CSRF token state-changing requests send back."""
        return self.values.get(CSRF_COOKIE, "")


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer


class HttpPool:
    """Keep-alive connections to one ``host:port``, shared by the players' requests."""

    def __init__(self, host: str, port: int, *, size: int = 8, timeout: float = 60.0) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self._idle: list[_Connection] = []
        self._slots = asyncio.Semaphore(size)

    async def close(self) -> None:
        """Close every idle connection."""
        for connection in self._idle:
            connection.writer.close()
        self._idle.clear()

    async def request(
        self, method: str, path: str, jar: CookieJar, body: Any = None
    ) -> tuple[int, Any]:
        """Send one request with ``jar``'s cookies (and its CSRF token); the status and JSON."""
        async with self._slots:
            if self._idle:
                # A connection kept alive may have been closed by the server meanwhile
                # (its keep-alive timeout): then the request is sent again on a new one.
                connection = self._idle.pop()
                try:
                    status, answer, keep = await asyncio.wait_for(
                        self._exchange(connection, method, path, jar, body), self.timeout
                    )
                except (OSError, asyncio.IncompleteReadError):
                    connection.writer.close()
                else:
                    if keep:
                        self._idle.append(connection)
                    else:
                        connection.writer.close()
                    return status, answer
            fresh: _Connection | None = None
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(self.host, self.port), self.timeout
                )
                fresh = _Connection(reader, writer)
                status, answer, keep = await asyncio.wait_for(
                    self._exchange(fresh, method, path, jar, body), self.timeout
                )
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
                if fresh is not None:
                    fresh.writer.close()
                raise HttpError(f"{method} {path}: {type(error).__name__}: {error}") from None
            if keep:
                self._idle.append(fresh)
            else:
                fresh.writer.close()
            return status, answer

    async def _exchange(
        self, connection: _Connection, method: str, path: str, jar: CookieJar, body: Any
    ) -> tuple[int, Any, bool]:
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Connection: keep-alive",
            f"Content-Length: {len(payload)}",
        ]
        if body is not None:
            lines.append("Content-Type: application/json")
        if jar.values:
            lines.append(f"Cookie: {jar.header()}")
        if method not in ("GET", "HEAD"):
            lines.append(f"X-CSRF-Token: {jar.csrf}")
        connection.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        await connection.writer.drain()
        head = await connection.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        length = 0
        keep = True
        for line in header_lines:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            value = value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                jar.take(value)
            elif name == "connection" and value.lower() == "close":
                keep = False
            elif name == "transfer-encoding":
                raise ValueError(f"unexpected transfer encoding {value!r}")
        data = await connection.reader.readexactly(length) if length else b""
        answer = json.loads(data) if data else None
        return status, answer, keep
