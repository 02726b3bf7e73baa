"""The server's settings: :class:`ServerSettings`, checked on creation."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from urllib.parse import urlsplit

from thirtyone.server.errors import InputError
from thirtyone.server.errors import SettingError
from thirtyone.server.randomness import Randomness

__all__ = [
    "ServerSettings",
    "DEFAULT_DATABASE_URL",
    "DEFAULT_BOT_DELAY",
    "MAX_BOT_DELAY",
    "MAX_TURN_TIMER",
    "DEFAULT_FRIENDS_TURN_TIMER",
    "DEFAULT_SHOWDOWN_TIMEOUT",
    "MAX_SHOWDOWN_TIMEOUT",
    "MAX_WORKERS",
    "machine_cores",
]

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
DEFAULT_FRIENDS_TURN_TIMER = 60.0
"""Seconds a person has for each action at a table with more than one person, by default: generous,
so that only someone who left is played for."""
DEFAULT_SHOWDOWN_TIMEOUT = 20.0
"""The longest the bots and the turn timer wait for people to close a round's showdown, seconds."""
MAX_SHOWDOWN_TIMEOUT = 600.0
"""The longest showdown timeout, seconds."""
MAX_WORKERS = 64
"""The most bot worker processes."""


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform says it, else the
    machine's), at most :data:`MAX_WORKERS`: the bot workers' default, one per core.

    >>> 1 <= machine_cores() <= MAX_WORKERS
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


@dataclass(frozen=True)
class ServerSettings:
    """How the server runs, and every limit it keeps (docs/server-protocol.md, "Limits"; each is a
    ``thirtyone serve`` flag). The defaults are sized for a small machine (2 cores): a few
    thousand tables being played at a person's pace.

    The game: ``database_url`` is an SQLAlchemy URL (``sqlite:///PATH`` or
    ``postgresql://USER:PASS@HOST/DB``); ``bot_delay`` the seconds a bot waits before each turn
    (0–60; 0 plays at once); ``turn_timer`` the seconds a person has for each action before the
    server plays a legal default for them, at every table (0.1–86400, ``None``: off, then
    ``friends_turn_timer``); ``friends_turn_timer`` the same at a table with more than one person
    (0.1–86400, ``None``: off; a table of one person and bots has none); ``timeouts_to_bot`` the
    turns in a row the timer plays for a seat before the seat is away, played by the server at
    the bots' pace until its person is back (0–1000, 0: never); ``showdown_timeout`` the longest
    the bots and the timer wait for the people to close a round's showdown (0–600 seconds, 0: no
    wait; docs/server-protocol.md, "The showdown's pace").

    Messages: ``max_message_bytes`` per WebSocket message (UTF-8), ``messages_per_second`` on
    average and ``message_burst`` at once per connection, ``syncs_per_second`` for the cheap
    messages (``sync``, ``ping``) per connection (a burst of 5), ``address_messages_per_second``
    (and a burst of twice that) for all the connections of one client address together;
    ``max_body_bytes`` per HTTP request body, ``requests_per_second`` (and a burst of twice that)
    HTTP requests per client address; ``hello_timeout`` seconds for a new connection to say hello,
    ``send_queue`` messages waiting for a slow client before it is disconnected.

    Connections: ``connections_per_second`` new ones from one client address (a burst of twice that,
    10 at least; more are refused at the handshake), ``max_connections`` in all,
    ``max_connections_per_address`` from one client
    address (IPv6: one /64), ``max_connections_per_table``, ``max_connections_per_seat`` (tabs of
    one person), ``max_spectators`` per table.

    Hints: ``hint_workers`` processes work out the hints (apart from everything else), ``hint_queue``
    more may wait for one (beyond that a hint is answered ``busy``), each seat has at most one in
    flight and, where the judge does not hint (:func:`~thirtyone.bots.work.judge_refuses`),
    ``hints_per_round`` of the expert's a round (the judge's take milliseconds: one at every
    decision); a hint not worked out within ``hint_wait`` seconds, its wait for a worker included,
    is answered ``busy``. ``bot_workers`` processes play the
    moves of the ``medium`` and ``hard`` bots and of the levels ``serve --bot`` adds (1–64; by
    default one a core, :func:`machine_cores`).
    ``worker_kind`` is ``process`` (the default) or ``thread`` (the same process: for tests).

    Tables: ``max_tables`` open or being played at once, ``tables_per_minute`` created per client
    address on average (``table_burst`` at once); an open table nobody is connected to closes after
    ``open_table_expiry`` seconds, a game no person is connected to after ``idle_game_expiry``
    seconds (its record kept).

    On PostgreSQL, where several processes may serve the same tables
    (:mod:`thirtyone.server.cluster`), a process holds a table's lease for ``lease_seconds``
    (0.5–3600) and renews it every ``lease_renew`` seconds (less than half the lease, so that one
    missed renewal does not lose it).

    Addresses: ``public_url`` is the server's address as people reach it
    (``https://cards.example.org``, or with a path prefix, ``https://example.org/cards``; no
    trailing slash needed): the tables' links (``share_url``) start with it, and it is an origin
    whose pages may connect. Without it the links are paths (``/t/K7QW2M``), relative to the
    address the page was loaded from, and never the request's ``Host``, which a client writes.
    ``allowed_origins`` are the other sites (``https://friends.example.net``) whose pages may open
    WebSocket connections; a page of this server itself always may (its ``Origin`` is the ``Host``
    it connects to), and a client that sends no ``Origin`` (no browser page) too.

    ``randomness`` is where every random choice of the server comes from (salt chains, first
    dealers, table codes, the bots' and hints' seeds: :class:`~thirtyone.server.randomness.Randomness`),
    the system's secure randomness unless given: a seeded one (``Randomness(seed=7)``) makes a
    test's tables and deals repeat.

    ``freeze_gc`` keeps the garbage collector's pauses short (:mod:`thirtyone.server.memory`; off in
    tests that start many servers in one process).

    Raises:
        InputError: for a value out of range (a :class:`~thirtyone.server.errors.SettingError`,
            which names the setting, as for a public URL or an origin that is not one), a database
            URL that is not text or an unknown worker kind.
    """

    database_url: str = DEFAULT_DATABASE_URL
    bot_delay: float = DEFAULT_BOT_DELAY
    turn_timer: float | None = None
    friends_turn_timer: float | None = DEFAULT_FRIENDS_TURN_TIMER
    timeouts_to_bot: int = 3
    showdown_timeout: float = DEFAULT_SHOWDOWN_TIMEOUT
    max_message_bytes: int = 4096
    messages_per_second: float = 10.0
    message_burst: int = 20
    syncs_per_second: float = 1.0
    address_messages_per_second: float = 200.0
    max_body_bytes: int = 16_384
    requests_per_second: float = 20.0
    hello_timeout: float = 10.0
    send_queue: int = 256
    connections_per_second: float = 5.0
    max_connections: int = 10_000
    max_connections_per_address: int = 64
    max_connections_per_table: int = 64
    max_connections_per_seat: int = 4
    max_spectators: int = 32
    hint_workers: int = 1
    hint_queue: int = 4
    hints_per_round: int = 5
    hint_wait: float = 10.0
    bot_workers: int = field(default_factory=machine_cores)
    worker_kind: str = "process"
    max_tables: int = 4000
    tables_per_minute: float = 2.0
    table_burst: int = 10
    open_table_expiry: float = 900.0
    idle_game_expiry: float = 3600.0
    lease_seconds: float = 10.0
    lease_renew: float = 3.0
    public_url: str | None = None
    allowed_origins: tuple[str, ...] = ()
    freeze_gc: bool = True
    randomness: Randomness = field(default_factory=Randomness, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.database_url, str) or not self.database_url.strip():
            raise InputError("database_url: give an SQLAlchemy URL such as sqlite:///thirtyone.db")
        _check_range("bot_delay", self.bot_delay, 0.0, MAX_BOT_DELAY, "seconds")
        if self.turn_timer is not None:
            _check_range("turn_timer", self.turn_timer, MIN_TURN_TIMER, MAX_TURN_TIMER, "seconds (or off)")
        if self.friends_turn_timer is not None:
            _check_range(
                "friends_turn_timer", self.friends_turn_timer, MIN_TURN_TIMER, MAX_TURN_TIMER, "seconds (or off)"
            )
        _check_int("timeouts_to_bot", self.timeouts_to_bot, 0, 1000, "turns (0: never)")
        _check_range("showdown_timeout", self.showdown_timeout, 0.0, MAX_SHOWDOWN_TIMEOUT, "seconds (0: no wait)")
        _check_range("max_message_bytes", self.max_message_bytes, 256, 1 << 20, "bytes")
        _check_range("messages_per_second", self.messages_per_second, 0.1, 1000.0, "messages a second")
        _check_range("message_burst", self.message_burst, 1, 10_000, "messages")
        _check_range("syncs_per_second", self.syncs_per_second, 0.01, 1000.0, "messages a second")
        _check_range(
            "address_messages_per_second", self.address_messages_per_second, 1.0, 1_000_000.0, "messages a second"
        )
        _check_range("max_body_bytes", self.max_body_bytes, 1024, 1 << 22, "bytes")
        _check_range("requests_per_second", self.requests_per_second, 0.1, 1_000_000.0, "requests a second")
        _check_range("hello_timeout", self.hello_timeout, 0.1, 600.0, "seconds")
        _check_range("send_queue", self.send_queue, 8, 100_000, "messages")
        _check_range("connections_per_second", self.connections_per_second, 0.1, 1_000_000.0, "connections a second")
        _check_int("max_connections", self.max_connections, 1, 1_000_000, "connections")
        _check_int("max_connections_per_address", self.max_connections_per_address, 1, 1_000_000, "connections")
        _check_int("max_connections_per_table", self.max_connections_per_table, 1, 100_000, "connections")
        _check_int("max_connections_per_seat", self.max_connections_per_seat, 1, 1000, "connections")
        _check_int("max_spectators", self.max_spectators, 0, 100_000, "connections")
        _check_int("hint_workers", self.hint_workers, 0, 64, "workers (0: no hints)")
        _check_int("hint_queue", self.hint_queue, 0, 10_000, "hints")
        _check_int("hints_per_round", self.hints_per_round, 0, 1000, "hints")
        _check_range("hint_wait", self.hint_wait, 1.0, 600.0, "seconds")
        _check_int("bot_workers", self.bot_workers, 1, MAX_WORKERS, "workers")
        if self.worker_kind not in ("process", "thread"):
            raise InputError(f"worker_kind must be process or thread, not {self.worker_kind!r}")
        _check_int("max_tables", self.max_tables, 1, 10_000_000, "tables")
        _check_range("tables_per_minute", self.tables_per_minute, 0.01, 1_000_000.0, "tables a minute")
        _check_int("table_burst", self.table_burst, 1, 1_000_000, "tables")
        _check_range("open_table_expiry", self.open_table_expiry, 1.0, 31_536_000.0, "seconds")
        _check_range("idle_game_expiry", self.idle_game_expiry, 1.0, 31_536_000.0, "seconds")
        _check_range("lease_seconds", self.lease_seconds, 0.5, 3600.0, "seconds")
        _check_range("lease_renew", self.lease_renew, 0.1, self.lease_seconds / 2, "seconds (under half the lease)")
        if self.public_url is not None:  # frozen: the checked forms replace what was given
            object.__setattr__(self, "public_url", _checked_url("public_url", self.public_url, path=True))
        object.__setattr__(self, "allowed_origins", _checked_origins(self.allowed_origins))
        if not isinstance(self.randomness, Randomness):
            raise SettingError("randomness", f"must be a Randomness (Randomness(seed=7)), not {self.randomness!r}")

    def web_origins(self) -> frozenset[str]:
        """The origins (``scheme://host[:port]``, lower case) whose pages may connect besides this
        server's own: :attr:`allowed_origins` and :attr:`public_url`'s."""
        public = () if self.public_url is None else (_origin(self.public_url),)
        return frozenset((*self.allowed_origins, *public))

    def limits_json(self) -> dict[str, float | int]:
        """The limits a client should know (``welcome`` and ``/api/presets`` send them)."""
        return {
            "max_message_bytes": self.max_message_bytes,
            "messages_per_second": self.messages_per_second,
            "message_burst": self.message_burst,
            "syncs_per_second": self.syncs_per_second,
            "hints_per_round": self.hints_per_round,
            "max_connections_per_seat": self.max_connections_per_seat,
        }


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _checked_url(name: str, value: object, *, path: bool) -> str:
    """``value`` as an http(s) URL of a host, lower-cased up to its path, without a trailing slash
    (with ``path``, a path prefix may follow the host; else nothing may)."""
    example = "https://cards.example.org" if path else "https://friends.example.net"
    if not isinstance(value, str):
        raise SettingError(name, f"must be an http:// or https:// address such as {example}, not {value!r}")
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.query
        or parts.fragment
        or (not path and parts.path not in ("", "/"))
    ):
        what = "an http:// or https:// address" if path else "an origin: http:// or https://, a host and a port"
        raise SettingError(name, f"must be {what}, such as {example}, not {value!r}")
    clean = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
    return clean + (parts.path.rstrip("/") if path else "")


def _checked_origins(values: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise SettingError(
            "allowed_origins", f"must be a list of origins such as https://friends.example.net, not {values!r}"
        )
    return tuple(_checked_url("allowed_origins", value, path=False) for value in values)


def _check_int(name: str, value: int, low: int, high: int, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingError(name, f"must be a whole number from {low} to {high} {unit}, not {value!r}")
    _check_range(name, value, low, high, unit)


def _check_range(name: str, value: float, low: float, high: float, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SettingError(name, f"must be a number from {_shown(low)} to {_shown(high)} {unit}, not {value!r}")
    if not low <= value <= high:
        raise SettingError(name, f"must be from {_shown(low)} to {_shown(high)} {unit}, not {_shown(value)}")


def _shown(number: float) -> str:
    """A number as a person writes it: ``1000000``, ``0.5``, ``86400``."""
    return str(int(number)) if float(number).is_integer() else f"{number:g}"
