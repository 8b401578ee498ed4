"""Passwords, session tokens, cross-site request protection and the log-in rate limit.

* Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's
  low-memory profile).
* A session cookie carries a random token; the database keeps only its
  SHA-256, so a leaked database opens no session.  The cookie is HttpOnly and
  SameSite=Lax.
* Cross-site requests: every state-changing request (any method but GET,
  HEAD, OPTIONS) must carry the header ``X-CSRF-Token`` equal to the
  ``mazziere_csrf`` cookie (which a page of another site can neither read nor
  send as a header), and, when the browser says where it comes from, an
  allowed ``Origin``.  :func:`origin_allowed` is the same check for the
  WebSocket handshake.
* Failed log-ins are counted per account name and per client address over a
  sliding window (:class:`LoginLimiter`), and so are the new accounts made
  from an address (:class:`WindowLimit`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "PASSWORD_PROFILES",
    "SESSION_COOKIE",
    "CsrfMiddleware",
    "LoginLimiter",
    "hash_password",
    "hash_token",
    "name_failures_key",
    "new_token",
    "origin_allowed",
    "password_hasher",
    "verify_password",
]

SESSION_COOKIE = "mazziere_session"
CSRF_COOKIE = "mazziere_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

PASSWORD_PROFILES = ("RFC_9106_LOW_MEMORY", "RFC_9106_HIGH_MEMORY", "CHEAPEST")
"""argon2-cffi's parameter profiles; ``CHEAPEST`` is for tests only."""


def password_hasher(profile: str = "RFC_9106_LOW_MEMORY") -> PasswordHasher:
    """An argon2id hasher with one of argon2-cffi's profiles.

    >>> password_hasher("CHEAPEST").time_cost
    1
    """
    if profile not in PASSWORD_PROFILES:
        raise ValueError(f"unknown password profile {profile!r}")
    return PasswordHasher.from_parameters(getattr(profiles, profile))


_hasher = password_hasher()


def hash_password(password: str, hasher: PasswordHasher = _hasher) -> str:
    """The argon2id hash of ``password`` (salted: never the same twice).

    >>> hash_password("secret").startswith("$argon2id$")
    True
    """
    return hasher.hash(password)


def verify_password(password_hash: str, password: str, hasher: PasswordHasher = _hasher) -> bool:
    """Whether ``password`` matches ``password_hash`` (whatever profile made it).

    >>> cheap = password_hasher("CHEAPEST")
    >>> stored = hash_password("secret", cheap)
    >>> verify_password(stored, "secret"), verify_password(stored, "Secret")
    (True, False)
    """
    try:
        return hasher.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A random token (256 bits from the operating system), URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a session token is stored.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    default = 443 if scheme == "https" else 80
    port = parts.port or default
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def origin_allowed(
    origin: str | None, host: str | None, allowed: Iterable[str] = (), *, scheme: str = "http"
) -> bool:
    """Whether a request or WebSocket handshake may come from ``origin``.

    No ``Origin`` header (a program, not a browser page) is allowed: such a
    client sends no cookie of ours by accident.  Otherwise the origin must be
    the server's own (the ``Host`` the request was sent to) or one of
    ``allowed``.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000")
    False
    >>> origin_allowed(None, "127.0.0.1:8000"), origin_allowed("null", "127.0.0.1:8000")
    (True, False)
    >>> origin_allowed("https://poker.example", "10.0.0.2:8000", ["https://poker.example"])
    True
    """
    if origin is None:
        return True
    given = _origin_of(origin)
    if given is None:
        return False
    candidates = {_origin_of(url) for url in allowed}
    if host:
        candidates.add(_origin_of(f"{scheme}://{host}"))
    return given in candidates


def _cookies(headers: Mapping[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name and name not in found:
            found[name] = value
    return found


class CsrfMiddleware:
    """Refuses state-changing HTTP requests without the CSRF header or from another origin.

    The refusal is a JSON error (403, code ``csrf`` or ``bad_origin``) and
    nothing runs.  WebSocket handshakes pass: the WebSocket endpoint checks
    the origin itself with :func:`origin_allowed`.
    """

    def __init__(self, app: ASGIApp, *, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = {
            key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]
        }
        if not origin_allowed(
            headers.get("origin"), headers.get("host"), self.allowed, scheme=scope["scheme"]
        ):
            response = _refusal("bad_origin", "requests from another site are refused")
            await response(scope, receive, send)
            return
        cookie = _cookies(headers).get(CSRF_COOKIE, "")
        header = headers.get(CSRF_HEADER, "")
        if not cookie or not hmac.compare_digest(cookie.encode(), header.encode()):
            response = _refusal(
                "csrf",
                f"send the {CSRF_COOKIE} cookie's value in the X-CSRF-Token header "
                "(GET /api/session gives one)",
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _refusal(code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=403)


def name_failures_key(name: str) -> str:
    """The key the failed log-ins of ``name`` are counted under (whatever its case).

    >>> name_failures_key("Anna")
    'name:anna'
    """
    return f"name:{name.casefold()}"


class WindowLimit:
    """At most ``most`` events in any ``window`` seconds (a sliding window).

    >>> limit = WindowLimit(most=2, window=60)
    >>> limit.retry_after([0.0], now=1.0) is None  # one more may happen now
    True
    >>> limit.retry_after([0.0, 1.0], now=1.0)  # until the first of the two is old
    59.0
    >>> limit.retry_after([0.0, 1.0], now=61.0) is None
    True
    """

    def __init__(self, *, most: int, window: float) -> None:
        self.most = most
        self.window = window

    def retry_after(self, times: Iterable[float], now: float) -> float | None:
        """Seconds to wait before the next event, or ``None`` if it may happen now.

        ``times``: when (seconds) the events counted so far happened.
        """
        recent = sorted(t for t in times if t > now - self.window)
        if len(recent) < self.most:
            return None
        return recent[-self.most] + self.window - now


class LoginLimiter:
    """The log-in rate limit: failed log-ins per account name and per address, over a
    sliding window of ``window`` seconds.

    The failures themselves are rows of the database (``login_failures``), so the
    limit holds across restarts and for every server process of the room; this class
    is the rule that reads them.

    >>> limiter = LoginLimiter(per_name=2, per_address=3, window=60)
    >>> name, address = limiter.keys("Anna", "1.2.3.4")
    >>> name, address
    ('name:anna', 'addr:1.2.3.4')
    >>> failures = {name: [0.0, 1.0], address: [0.0, 1.0]}
    >>> limiter.retry_after(failures, now=1.0)  # the name: until its first failure is old
    59.0
    >>> limiter.retry_after({address: [0.0, 1.0]}, now=1.0) is None  # one attempt left
    True
    >>> limiter.retry_after(failures, now=61.0) is None  # the first failure is out of it
    True
    """

    def __init__(self, *, per_name: int, per_address: int, window: float) -> None:
        self.per_name = WindowLimit(most=per_name, window=window)
        self.per_address = WindowLimit(most=per_address, window=window)
        self.window = window

    def keys(self, name: str, address: str) -> tuple[str, str]:
        """The keys failures are counted under: the name (whatever its case), the address."""
        return name_failures_key(name), f"addr:{address}"

    def retry_after(self, failures: Mapping[str, Iterable[float]], now: float) -> float | None:
        """Seconds to wait before trying again, or ``None`` if a log-in may be tried now.

        ``failures``: the times (seconds) of failed log-ins under each key.
        """
        waits = [
            wait
            for key, times in failures.items()
            if (wait := self._limit(key).retry_after(times, now)) is not None
        ]
        return max(waits) if waits else None

    def _limit(self, key: str) -> WindowLimit:
        return self.per_name if key.startswith("name:") else self.per_address
