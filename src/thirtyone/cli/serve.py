"""``thirtyone serve``: run the server (FastAPI on Uvicorn) that lets people play at tables over
the network; see README.md ("Play in the browser") and docs/server-protocol.md.

Every argument is checked before the server starts, and the database is opened and migrated
first: a bad value, a port in use, or a database that cannot be opened is a one-line error (exit
status 2). Needs the ``server`` extra (``pip install 'thirtyone[server]'``).
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import socket
import sys
from collections.abc import Callable

from thirtyone.errors import ThirtyOneError

__all__ = [
    "configure",
    "run",
    "trusted_proxies",
    "ServeError",
    "DEFAULT_PORT",
    "WS_MAX_FRAME",
    "LIMIT_FLAGS",
    "LOOPBACK_PROXY",
]

DEFAULT_PORT = 8031
"""The port ``thirtyone serve`` listens on unless told otherwise."""
WS_MAX_FRAME = 65_536
"""Bytes of the largest WebSocket message Uvicorn reads at all (a larger one closes the connection,
code 1009); messages over the server's 4 KiB limit but under this get an error and are dropped."""


LOOPBACK_PROXY = "127.0.0.1,::1"
"""``--trusted-proxies``' default: a proxy on this machine (loopback, Uvicorn's own default)."""


class ServeError(ThirtyOneError):
    """A ``serve`` argument that cannot be used, a port that cannot be listened on, or a missing extra."""


LIMIT_FLAGS: tuple[tuple[str, type[int] | type[float], str, str], ...] = (
    # (setting, kind, default, help): each is the flag --setting-with-dashes; the defaults are
    # ServerSettings' (docs/server-protocol.md, "Limits"), sized for a 2-core machine
    ("messages_per_second", float, "10", "messages a WebSocket connection may send a second on average (0.1-1000)"),
    ("message_burst", int, "20", "messages a connection may send at once above that rate (1-10000)"),
    ("syncs_per_second", float, "1", "sync and ping messages a connection may send a second (5 at once)"),
    (
        "address_messages_per_second",
        float,
        "200",
        "WebSocket messages all the connections of one client address may send a second (twice that at once)",
    ),
    ("requests_per_second", float, "20", "HTTP requests one client address may make a second (twice that at once)"),
    (
        "connections_per_second",
        float,
        "5",
        "new WebSocket connections one client address may open a second (twice that at once, 10 at least)",
    ),
    ("max_connections", int, "10000", "WebSocket connections in all"),
    ("max_connections_per_address", int, "64", "WebSocket connections from one client address (IPv6: one /64)"),
    ("max_connections_per_table", int, "64", "WebSocket connections to one table, players and spectators"),
    ("max_connections_per_seat", int, "4", "WebSocket connections holding one seat (a person's tabs and devices)"),
    ("max_spectators", int, "32", "spectators watching one table"),
    ("hint_workers", int, "1", "worker processes for the hints, apart from everything else (0: no hints)"),
    ("hint_queue", int, "4", "hints that may wait for a hint worker; more are answered busy at once"),
    (
        "hints_per_round",
        int,
        "5",
        "the expert's hints a seat may ask for in one round, where the judge does not hint "
        "(the judge's hints are not counted)",
    ),
    (
        "hint_wait",
        float,
        "10",
        "seconds a hint may take, its wait for a hint worker included, before it is answered busy (1-600)",
    ),
    ("max_tables", int, "4000", "tables open or being played at once"),
    ("tables_per_minute", float, "2", "tables one client address may create a minute on average"),
    ("table_burst", int, "10", "tables one client address may create at once above that rate"),
    ("open_table_expiry", float, "900", "seconds an open table nobody is connected to waits before it closes"),
    (
        "idle_game_expiry",
        float,
        "3600",
        "seconds a game no person is connected to waits before it is closed (its record kept)",
    ),
)
"""The limits ``serve`` takes as flags, each a field of :class:`~thirtyone.server.ServerSettings`."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``serve``."""
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", default=str(DEFAULT_PORT), help=f"port to listen on (default {DEFAULT_PORT})")
    parser.add_argument(
        "--database-url",
        default="sqlite:///thirtyone.db",
        metavar="URL",
        help="SQLite file (sqlite:///PATH, default sqlite:///thirtyone.db) or PostgreSQL (postgresql://USER:PASS@HOST/DB)",
    )
    parser.add_argument(
        "--bot-delay",
        default="1.0",
        metavar="S",
        help="seconds a bot waits before each turn, thinking included, so people can follow (0-60, default 1)",
    )
    parser.add_argument(
        "--turn-timer",
        default="off",
        metavar="S",
        help="seconds a person has for each action before a legal default is played for them, at every table "
        "(0.1-86400; off or 0: no timer, the default, then --friends-turn-timer)",
    )
    parser.add_argument(
        "--friends-turn-timer",
        default="60",
        metavar="S",
        help="the turn timer of a table with more than one person, where --turn-timer is off (0.1-86400; off or 0: "
        "none; default 60); a table of one person and bots has none",
    )
    parser.add_argument(
        "--timeouts-to-bot",
        default="3",
        metavar="N",
        help="turns in a row the timer plays for a seat before the server plays it at the bots' pace, until its "
        "person is back (0-1000; 0: never; default 3)",
    )
    parser.add_argument(
        "--showdown-timeout",
        default="20",
        metavar="S",
        help="the longest the bots and the turn timer wait for the people to close a round's showdown "
        "(0-600; 0: no wait; default 20)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the server's address as people reach it (https://cards.example.org): the tables' links start with "
        "it, and its pages may connect (default: links are paths, /t/CODE, and only the server's own pages connect)",
    )
    parser.add_argument(
        "--trusted-proxies",
        default=LOOPBACK_PROXY,
        metavar="ADDRESSES",
        help="the reverse proxies whose X-Forwarded-For header names the client's address, as addresses or "
        "networks separated by commas (10.0.0.5,192.168.1.0/24), or none: trust no header, so that no process "
        f"may pose as other addresses (default {LOOPBACK_PROXY}: a proxy on this machine, as Uvicorn has it)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site whose pages may open WebSocket connections (https://friends.example.net); repeatable",
    )
    limits = parser.add_argument_group("limits (docs/server-protocol.md, Limits)")
    for name, _kind, default, words in LIMIT_FLAGS:
        limits.add_argument(
            f"--{name.replace('_', '-')}",
            default=default,
            metavar="S" if name.endswith("expiry") else "N",
            help=f"{words} (default {default})",
        )
    limits.add_argument(
        "--bot-workers",
        metavar="N",
        help="worker processes for the moves of the medium and hard bots and of the levels --bot adds "
        "(1-64; default: one a core of this machine)",
    )
    parser.add_argument(
        "--seed",
        metavar="N",
        help="draw every random choice of the server (salt chains and deals, first dealers, table codes, the bots' "
        "and hints' seeds) from this whole number, so that its tables repeat: for tests and demonstrations only, "
        "whoever knows N knows every deck (default: the system's secure randomness)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"), help="server log"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="LEVEL=BOT",
        help="offer another bot level for seats: LEVEL a new word, BOT any name --bots takes (an installed bot, "
        "module:factory); repeatable, e.g. --bot greedy=mybots.greedy:make_bot",
    )


def bot_levels(specs: list[str]) -> dict[str, str]:
    """The extra bot levels of ``--bot LEVEL=BOT`` options, each bot made once to check it.

    Raises:
        ServeError: for a malformed option, a level that exists already, or a bot that cannot be made.
    """
    from thirtyone.bots import make_bot
    from thirtyone.bots.levels import BOT_INFO
    from thirtyone.bots.levels import LEVEL_INFO

    levels: dict[str, str] = {}
    for spec in specs:
        level, equals, bot = spec.partition("=")
        level, bot = level.strip().lower(), bot.strip()
        if not equals or not level.isidentifier() or not bot:
            raise ServeError(f"--bot {spec!r}: give LEVEL=BOT, such as greedy=mybots.greedy:make_bot")
        if level in LEVEL_INFO or level in BOT_INFO or level in levels:
            raise ServeError(f"--bot {spec!r}: level {level!r} exists already; choose another word")
        try:
            make_bot(bot, 0)
        except ThirtyOneError as error:
            raise ServeError(f"--bot {spec!r}: {error}") from None
        levels[level] = bot
    return levels


def trusted_proxies(text: str) -> list[str]:
    """The addresses and networks of ``--trusted-proxies`` (``"none"``: an empty list), each as
    :mod:`ipaddress` writes it.

    >>> trusted_proxies("127.0.0.1, 10.1.0.0/16,::1"), trusted_proxies("none")
    (['127.0.0.1', '10.1.0.0/16', '::1'], [])

    Raises:
        ServeError: for a word that is neither an address nor a network, or an empty list.
    """
    clean = str(text).strip()
    if clean.lower() == "none":
        return []
    proxies: list[str] = []
    for word in clean.split(","):
        try:
            network = ipaddress.ip_network(word.strip(), strict=False)
        except ValueError:
            raise ServeError(
                f"--trusted-proxies {text!r}: {word.strip()!r} is not an address or a network; give addresses "
                "or networks separated by commas (127.0.0.1,10.0.0.0/8), or none"
            ) from None
        single = network.num_addresses == 1 and "/" not in word
        proxies.append(str(network.network_address) if single else str(network))
    return proxies


def _timer(text: str, what: str) -> float | None:
    """A timer flag's seconds, ``None`` for ``off`` (or ``none``, ``0``)."""
    clean = str(text).strip().lower()
    return None if clean in ("off", "none", "0") else _seconds(clean, what)


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ServeError(f"--{what} {text!r}: give seconds as a number") from None
    if not math.isfinite(value):
        raise ServeError(f"--{what} {text!r}: give seconds as a finite number")
    return value


def _number(text: str, what: str, kind: type[int] | type[float]) -> float:
    try:
        value = kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise ServeError(f"--{what} {text!r}: give {noun}") from None
    if not math.isfinite(value):
        raise ServeError(f"--{what} {text!r}: give a finite number")
    return value


def _whole(text: str, what: str) -> int:
    return int(_number(text, what, int))


# The flags of the server's pace, each with its reader (the setting has the flag's name).
_TIMING_FLAGS: tuple[tuple[str, Callable[[str, str], float | None]], ...] = (
    ("bot_delay", _seconds),
    ("turn_timer", _timer),
    ("friends_turn_timer", _timer),
    ("timeouts_to_bot", _whole),
    ("showdown_timeout", _seconds),
)


def run(args: argparse.Namespace) -> int:
    """Open the database, then serve until interrupted (ctrl+c or SIGTERM); returns 0.

    Raises:
        ServeError: for a bad port or number, a port that cannot be listened on, or no server extra.
        InputError: for a setting out of range.
        DatabaseError: when the database cannot be opened or migrated.
    """
    try:
        port = int(args.port)
    except ValueError:
        raise ServeError(f"--port {args.port!r}: give a whole number from 1 to 65535") from None
    if not 1 <= port <= 65535:
        raise ServeError(f"--port {port}: give a whole number from 1 to 65535")
    timing = {name: read(getattr(args, name), name.replace("_", "-")) for name, read in _TIMING_FLAGS}
    extra_levels = bot_levels(list(args.bot))
    seed = None if args.seed is None else int(_number(args.seed, "seed", int))
    proxies = trusted_proxies(args.trusted_proxies)
    try:
        import uvicorn

        from thirtyone.server import ServerSettings
        from thirtyone.server import create_app
        from thirtyone.server.db_open import describe_url
        from thirtyone.server.door import paced_protocols
        from thirtyone.server.errors import InputError
        from thirtyone.server.errors import SettingError
        from thirtyone.server.randomness import Randomness
    except ImportError as error:
        raise ServeError(
            f"thirtyone serve needs the server extra ({error.name or error} is missing): "
            "pip install 'thirtyone[server]'"
        ) from None
    limits: dict[str, int | float] = {}
    for name, kind, _default, _words in LIMIT_FLAGS:
        value = _number(getattr(args, name), name.replace("_", "-"), kind)
        limits[name] = int(value) if kind is int else value
    if args.bot_workers is not None:  # else the settings' own default: one a core
        limits["bot_workers"] = _whole(args.bot_workers, "bot-workers")
    try:
        settings = ServerSettings(
            database_url=args.database_url,
            public_url=args.public_url,
            allowed_origins=tuple(args.allowed_origin),
            randomness=Randomness(seed),
            **timing,  # type: ignore[arg-type]
            **limits,  # type: ignore[arg-type]
        )
    except SettingError as error:  # named by the setting: name the flag instead
        raise InputError(f"--{error.setting.replace('_', '-')} {error.problem}") from None
    _check_port(args.host, port)
    if extra_levels:  # seats may ask for them by name: the server's tables of levels grow by them
        from thirtyone.server.autoplay import BOT_LEVELS
        from thirtyone.server.service import LEVEL_NAMES

        BOT_LEVELS.update(extra_levels)
        LEVEL_NAMES.update({level: level for level in extra_levels})
    app = create_app(settings=settings)
    app.state.door.proxied = bool(proxies)  # no trusted proxy: the door counts forwarded upgrades too
    shown = args.host if ":" not in args.host else f"[{args.host}]"
    timer = "off" if settings.turn_timer is None else f"{settings.turn_timer:g} s"
    if settings.turn_timer is None and settings.friends_turn_timer is not None:
        timer = f"{settings.friends_turn_timer:g} s with more than one person"
    print(
        f"thirtyone serve: http://{shown}:{port} · database {describe_url(settings.database_url)} · "
        f"bot delay {settings.bot_delay:g} s · turn timer {timer} · "
        f"trusted proxies {','.join(proxies) or 'none'} · "
        f"{'' if seed is None else f'seed {seed}: its deals repeat (tests only) · '}ctrl+c stops",
        file=sys.stderr,
    )
    # no per-message compression: messages are a few KB, and deflating each one cost a fifth of the
    # server's time under load (benchmarks/bench_server.py: 364 → 404 actions/s, 126 → 107 MB)
    # what connections without a seat send is let in a few reads each turn of the event loop
    # (server/door.py): a storm of them costs the tables being played a few milliseconds a turn
    uvicorn.run(
        app,
        host=args.host,
        port=port,
        log_level=args.log_level,
        ws_max_size=WS_MAX_FRAME,
        ws_per_message_deflate=False,
        proxy_headers=bool(proxies),  # no trusted proxy: X-Forwarded-For is never read
        forwarded_allow_ips=proxies,
        **paced_protocols(app.state.door),  # type: ignore[arg-type]
    )
    return 0


def _check_port(host: str, port: int) -> None:
    """Refuse a host that cannot be resolved or a port another program listens on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise ServeError(f"--host {host!r}: {error.strerror or error}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise ServeError(
                f"cannot listen on {host}:{port}: {error.strerror or error} (choose another --port)"
            ) from None
