"""The server's errors: each a :class:`ServerError` with a one-line message for the client, an HTTP
status and a short machine-readable ``code``. A refused request is also a
:class:`~thirtyone.errors.ThirtyOneError` (a ``ValueError``: the client sent what cannot be done);
a failure of the server's environment — the database, a worker process, stored data that no longer
replays — is an :class:`UnavailableError`, a :class:`~thirtyone.errors.ThirtyOneRuntimeError`
(a ``RuntimeError``: nothing the client sent was wrong, and trying again may help).

Over HTTP an error is answered as ``{"error": MESSAGE, "code": CODE}`` with its status; over a
WebSocket as ``{"type": "error", "code": CODE, "message": MESSAGE}`` to that client only.
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar

from thirtyone.errors import ThirtyOneError
from thirtyone.errors import ThirtyOneRuntimeError

__all__ = [
    "ServerError",
    "InputError",
    "SettingError",
    "NotFoundError",
    "ConflictError",
    "RefusedError",
    "AuthError",
    "UnavailableError",
    "DatabaseError",
    "TooLargeError",
    "LimitError",
]


class ServerError(Exception):
    """Base class of the server's errors: ``message``, ``code`` (e.g. ``"table_full"``) and
    ``status`` (HTTP)."""

    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "bad_request"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code


class InputError(ServerError, ThirtyOneError):
    """A request or message the server cannot accept as it is: bad options, a bad name, a bad seat
    list, malformed JSON, an action that cannot be read (HTTP 422)."""

    status = 422
    default_code = "bad_input"


class SettingError(InputError):
    """A server setting out of its range: ``setting`` names it (``turn_timer``) and ``problem`` says
    what it takes (``must be from 0.1 to 86400 seconds (or off), not -5``), so that a face can name
    it its own way (``thirtyone serve`` names the flag, ``--turn-timer``)."""

    def __init__(self, setting: str, problem: str) -> None:
        super().__init__(f"{setting} {problem}")
        self.setting = setting
        self.problem = problem


class NotFoundError(ServerError, ThirtyOneError):
    """No table has that code (HTTP 404)."""

    status = 404
    default_code = "not_found"


class ConflictError(ServerError, ThirtyOneError):
    """The table is in no state for the request: full, closed, not over yet (HTTP 409)."""

    status = 409
    default_code = "conflict"


class RefusedError(ConflictError):
    """An action the rules forbid (HTTP 409; code ``not_your_turn`` or ``illegal_action``), with the
    engine's refusal as data in ``refusal`` (see ``serialize.refusal_json``): clients put that in
    their own words, never the message."""

    def __init__(self, message: str, code: str, refusal: dict[str, Any]) -> None:
        super().__init__(message, code)
        self.refusal = refusal


class AuthError(ServerError, ThirtyOneError):
    """A token that opens no seat of the table, or no token where one is needed (HTTP 403)."""

    status = 403
    default_code = "bad_token"


class UnavailableError(ServerError, ThirtyOneRuntimeError):
    """The server's environment failed, not the request: stored data that does not replay
    (``damaged``), a worker that died or an expert that failed (``no_hint``), no free table code
    (``busy``). Nothing was changed (HTTP 503)."""

    status = 503
    default_code = "damaged"


class DatabaseError(UnavailableError):
    """The database cannot be opened or written; nothing was changed (HTTP 503)."""

    default_code = "database"


class TooLargeError(ServerError, ThirtyOneError):
    """A request body or message over the size limit (HTTP 413)."""

    status = 413
    default_code = "too_large"


class LimitError(ServerError, ThirtyOneError):
    """Over a limit: too many connections, requests, tables or hints (HTTP 429). Nothing changed;
    the message says which limit and what to do."""

    status = 429
    default_code = "rate_limited"
