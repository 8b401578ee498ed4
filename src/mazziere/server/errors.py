"""Errors over REST: always JSON ``{"error": {"code", "message"}}``, never a traceback.

A refused request changes nothing: every handler does its checks before it
writes, and a database refusal rolls the whole transaction back.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from mazziere.server.storage.database import UNAVAILABLE_ERRORS, database_unavailable

__all__ = [
    "MAX_ID",
    "UNAVAILABLE_MESSAGE",
    "ApiError",
    "RowId",
    "error_body",
    "first_line",
    "install_error_handlers",
]

log = logging.getLogger("mazziere.server")

MAX_ID = 2**31 - 1
"""The largest row id (PostgreSQL's ``integer``): a larger one is bad input, not a crash."""
RowId = Annotated[int, Path(ge=1, le=MAX_ID)]
"""A row id in a path (a table, a tournament, a request, a hand)."""

_STATUS_CODES = {
    400: "bad_request",
    401: "not_logged_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid_input",
    429: "rate_limited",
}


class ApiError(Exception):
    """A refusal with an HTTP status, a stable ``code`` and a message for people.

    >>> ApiError(409, "table_full", "every seat is taken").body()
    {'error': {'code': 'table_full', 'message': 'every seat is taken'}}
    """

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """The JSON body of the response."""
        return error_body(self.code, self.message)


UNAVAILABLE_MESSAGE = "the room's database is busy or unreachable: try again in a moment"


def first_line(error: BaseException) -> str:
    """The error's first line, for a log line (SQLAlchemy's messages go on with the
    statement and a link).

    >>> first_line(ValueError("no connection free\\n[SQL: SELECT 1]"))
    'no connection free'
    """
    return (str(error).splitlines() or [type(error).__name__])[0]


def error_body(code: str, message: str, **more: Any) -> dict[str, Any]:
    """The one shape of every error answer."""
    return {"error": {"code": code, "message": message, **more}}


def install_error_handlers(app: FastAPI) -> None:
    """Make every error of ``app`` a JSON answer with a code."""

    async def api_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    async def invalid(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = [
            {
                "where": ".".join(str(part) for part in error["loc"]),
                "problem": error["msg"],
            }
            for error in exc.errors()
        ]
        first = problems[0] if problems else {"where": "request", "problem": "invalid"}
        message = f"{first['where']}: {first['problem']}"
        return JSONResponse(
            error_body("invalid_input", message, problems=problems), status_code=422
        )

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _STATUS_CODES.get(exc.status_code, "error")
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    async def unavailable(request: Request, exc: Exception) -> JSONResponse:
        # Under load or a database outage: one line in the log, and the client told to try
        # again (the transaction was rolled back: nothing changed).
        log.warning(
            "database unavailable on %s %s: %s", request.method, request.url.path, first_line(exc)
        )
        return JSONResponse(
            error_body("storage_unavailable", UNAVAILABLE_MESSAGE),
            status_code=503,
            headers={"Retry-After": "1"},
        )

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            error_body("internal_error", "the server failed; nothing was changed"),
            status_code=500,
        )

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        # The pool's time-out, a lost connection, PostgreSQL's full disk or read-only
        # transaction: unavailable for now.  Any other database error is a bug.
        if database_unavailable(exc):
            return await unavailable(request, exc)
        raise exc  # on to ``unexpected``, as any other exception

    for kind in (*UNAVAILABLE_ERRORS, DBAPIError):
        app.add_exception_handler(kind, database_error)
    app.add_exception_handler(Exception, unexpected)
