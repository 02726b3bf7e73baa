"""The server's settings: :class:`ServerSettings`, checked on creation."""

from __future__ import annotations

import math
from dataclasses import dataclass

from thirtyone.server.errors import InputError

__all__ = ["ServerSettings", "DEFAULT_DATABASE_URL", "DEFAULT_BOT_DELAY", "MAX_BOT_DELAY", "MAX_TURN_TIMER"]

DEFAULT_DATABASE_URL = "sqlite:///thirtyone.db"
"""An SQLite file ``thirtyone.db`` in the current folder."""
DEFAULT_BOT_DELAY = 1.0
"""Seconds a bot waits before each of its turns, thinking included, so that people can follow."""
MAX_BOT_DELAY = 60.0
"""The longest bot delay, seconds."""
MIN_TURN_TIMER = 0.1
"""The shortest turn timer, seconds."""
MAX_TURN_TIMER = 86_400.0
"""The longest turn timer, seconds (a day)."""


@dataclass(frozen=True)
class ServerSettings:
    """How the server runs.

        ``database_url`` is an SQLAlchemy URL (``sqlite:///PATH`` or ``postgresql://USER:PASS@HOST/DB``);
        ``bot_delay`` the seconds a bot waits before each turn (0–60; 0 plays at once); ``turn_timer`` the
        seconds a person has for each action before the server plays a legal default for them
        (1–86400, ``None``: off). The limits: ``max_message_bytes`` per WebSocket message (UTF-8),
        ``messages_per_second`` on average and ``message_burst`` at once per connection,
        ``max_body_bytes`` per HTTP request body, ``hello_timeout`` seconds for a new connection to say
        hello, ``send_queue`` messages waiting for a slow client before it is disconnected. On PostgreSQL,
    where several processes may serve the same tables (:mod:`thirtyone.server.cluster`), a process
    holds a table's lease for ``lease_seconds`` (0.5–3600) and renews it every ``lease_renew`` seconds
    (less than half the lease, so that one missed renewal does not lose it).

        Raises:
            InputError: for a value out of range (the message names the setting).
    """

    database_url: str = DEFAULT_DATABASE_URL
    bot_delay: float = DEFAULT_BOT_DELAY
    turn_timer: float | None = None
    max_message_bytes: int = 4096
    messages_per_second: float = 10.0
    message_burst: int = 20
    max_body_bytes: int = 16_384
    hello_timeout: float = 10.0
    send_queue: int = 256
    lease_seconds: float = 10.0
    lease_renew: float = 3.0

    def __post_init__(self) -> None:
        if not isinstance(self.database_url, str) or not self.database_url.strip():
            raise InputError("database_url: give an SQLAlchemy URL such as sqlite:///thirtyone.db")
        _check_range("bot_delay", self.bot_delay, 0.0, MAX_BOT_DELAY, "seconds")
        if self.turn_timer is not None:
            _check_range("turn_timer", self.turn_timer, MIN_TURN_TIMER, MAX_TURN_TIMER, "seconds (or off)")
        _check_range("max_message_bytes", self.max_message_bytes, 256, 1 << 20, "bytes")
        _check_range("messages_per_second", self.messages_per_second, 0.1, 1000.0, "messages a second")
        _check_range("message_burst", self.message_burst, 1, 10_000, "messages")
        _check_range("max_body_bytes", self.max_body_bytes, 1024, 1 << 22, "bytes")
        _check_range("hello_timeout", self.hello_timeout, 0.1, 600.0, "seconds")
        _check_range("send_queue", self.send_queue, 8, 100_000, "messages")
        _check_range("lease_seconds", self.lease_seconds, 0.5, 3600.0, "seconds")
        _check_range("lease_renew", self.lease_renew, 0.1, self.lease_seconds / 2, "seconds (under half the lease)")


def _check_range(name: str, value: float, low: float, high: float, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"{name} must be a number from {low:g} to {high:g} {unit}, not {value!r}")
    if not low <= value <= high:
        raise InputError(f"{name} must be from {low:g} to {high:g} {unit}, not {value:g}")
