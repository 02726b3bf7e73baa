"""The table service: creating tables, the lobby, and the runners of the tables being served.

A table is created open, with its rules (a preset and any options, R8), its seats (2–9, each a
person or a bot of a level), a host token and its salt chain, whose commitment is published at
once (:mod:`thirtyone.server.fair`); people join its human seats by name, each with a client seed;
when the last one is taken the game starts. :meth:`TableService.runner` gives the one
:class:`~thirtyone.server.runner.TableRunner` of a table, loading it from the database on first use;
on start every table being played is loaded and its bots and timers go on. On PostgreSQL the
service's :class:`~thirtyone.server.cluster.Cluster` lets several processes serve the same tables.

Creating a table costs the event loop little, so that a flood of creations does not slow the
tables being played: its salt chain (2,048 hashes) is worked out on a thread, the tables open are
counted from the database at most once every :data:`COUNT_SECONDS`, and the new table's runner
is made from what was just stored, not read back.

Tables have a budget too: each client address creates ``tables_per_minute`` (``table_burst`` at
once), at most ``max_tables`` are open or being played, and a sweep every
:data:`SWEEP_SECONDS` marks the tables with someone connected as seen, closes the open tables
nobody came to for ``open_table_expiry`` seconds and the games no person was connected to for
``idle_game_expiry`` seconds (their records kept), and forgets the runners of tables nobody is
connected to that have nothing to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from typing import Any

from thirtyone.bots import BOT_NAMES
from thirtyone.bots.levels import LEVEL_INFO
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import OPTIONS
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules
from thirtyone.server.autoplay import BOT_LEVELS
from thirtyone.server.cluster import Cluster
from thirtyone.server.config import ServerSettings
from thirtyone.server.db_store import CLOSED
from thirtyone.server.db_store import FINISHED
from thirtyone.server.db_store import OPEN
from thirtyone.server.db_store import PLAYING
from thirtyone.server.db_store import SeatData
from thirtyone.server.db_store import Store
from thirtyone.server.db_store import TableData
from thirtyone.server.db_threads import Database
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import InputError
from thirtyone.server.errors import LimitError
from thirtyone.server.errors import NotFoundError
from thirtyone.server.errors import ServerError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.fair import new_chain
from thirtyone.server.hints import Hints
from thirtyone.server.kept_reviews import Reviews
from thirtyone.server.limits import CODE_ALPHABET
from thirtyone.server.limits import CODE_LENGTH
from thirtyone.server.limits import MAX_SEATS
from thirtyone.server.limits import MIN_SEATS
from thirtyone.server.limits import Buckets
from thirtyone.server.limits import hash_token
from thirtyone.server.limits import new_token
from thirtyone.server.limits import normalize_code
from thirtyone.server.memory import CollectorPolicy
from thirtyone.server.messages import heading_json
from thirtyone.server.names import check_display_name
from thirtyone.server.rows import new_table
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.workers import WorkerPool

__all__ = [
    "TableService",
    "SeatRequest",
    "LEVEL_NAMES",
    "SWEEP_SECONDS",
    "COUNT_SECONDS",
    "LOBBY_PAGE",
    "MAX_LOBBY_PAGE",
    "summary",
]

log = logging.getLogger("thirtyone.server")

LEVEL_NAMES = {name: name for name in LEVEL_INFO} | {
    level.bot: name for name, level in LEVEL_INFO.items() if level.bot not in LEVEL_INFO
}
"""The bot levels a seat may ask for (the levels of :data:`thirtyone.bots.levels.LEVEL_INFO`, or
their bots' own names: ``basic`` is ``easy``), and the level stored."""
SWEEP_SECONDS = 30.0
"""How often the tables with someone connected are marked seen and idle tables are closed."""
COUNT_SECONDS = 1.0
"""How long a count of the tables open or being played is used (with this process's creations
since added) before the database is asked again: a flood of creations reads it once a second,
not once each. Another process's creations within that second are not in it, so with several
processes ``max_tables`` may be passed by what they create in a second."""
LOBBY_PAGE = 50
"""Tables in a page of the lobby unless asked for fewer or more."""
MAX_LOBBY_PAGE = 100
"""The most tables a page of the lobby gives."""


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new table: ``kind`` ``human`` or ``bot``, and a bot's ``level``."""

    kind: str = "human"
    level: str | None = None


class TableService:
    """Tables and their runners, over ``store`` with ``settings``."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings
        self.db = Database(store)
        self.hints = Hints(settings)
        self.bots = WorkerPool("bot", settings.bot_workers, 10_000, settings.worker_kind, warm=True)
        self.reviews = Reviews(settings, self.db, store)
        self._runners: dict[str, TableRunner] = {}
        self._loading = asyncio.Lock()
        self._creations = Buckets(settings.tables_per_minute / 60, settings.table_burst)
        self._counted: tuple[float, int] | None = None  # (when, tables open or being played then)
        self._counting = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.collector = CollectorPolicy() if settings.freeze_gc else None
        self.cluster = Cluster(self.db, settings, self._runners)

    # ------------------------------------------------------------------------------ tables

    async def create(
        self,
        preset: str,
        options: Mapping[str, Any],
        seats: Sequence[SeatRequest],
        name: str | None = None,
        address: str = "unknown",
        *,
        public: bool = False,
        hints: bool = True,
    ) -> JSON:
        """Create an open table for a client at ``address``; with ``name`` its creator takes the
        first human seat at once (without a seed: to give one after seeing the table's
        commitment, create without ``name`` and join). Its salt chain's commitment is in the
        table's information at once. A ``public`` table is listed in the lobby; a private one
        (the default) is reached by its code or link only. ``hints``: whether the players may ask
        the expert for hints.

        Returns ``{"code", "host_token", "table"}`` and, with ``name``, ``"seat"`` and ``"token"``.

        Raises:
            InputError: for an unknown preset or option, a bad value, options that contradict each
                other, fewer than 2 or more than 9 seats (or more than the deck can deal, R2.1), a
                seat that is neither human nor a bot of a known level, no human seat, or a bad name.
            LimitError: when ``address`` has created its tables for now (``rate_limited``), or the
                server has ``max_tables`` open or being played (``too_many_tables``).
            DatabaseError: when the table could not be stored.
        """
        rules = _rules(preset, options)
        stored_seats = _seats(seats)
        try:
            rules.check_players(len(stored_seats))
        except ThirtyOneError as error:
            raise InputError(str(error)) from None
        if name is not None:
            check_display_name(name, [seat.name for seat in stored_seats])
        if not isinstance(public, bool) or not isinstance(hints, bool):
            raise InputError("public and hints are true or false")
        settings = self.settings
        if not self._creations.allow(address):
            raise LimitError(
                f"too many new tables from your address: at most {settings.table_burst} at once and "
                f"{settings.tables_per_minute:g} a minute; join one, or try again in a minute",
                "rate_limited",
            )
        if await self._active_tables() >= settings.max_tables:
            raise LimitError(
                f"the server has {settings.max_tables} tables open or being played, its limit: join one of the open "
                "tables, or try again later",
                "too_many_tables",
            )
        host_token = new_token()
        chain = await asyncio.to_thread(new_chain, settings.randomness)  # 2,048 hashes: not on the event loop
        for _ in range(20):
            data = new_table(
                settings.randomness.table_code(),
                rules,
                stored_seats,
                hash_token(host_token),
                chain,
                public=public,
                hints=hints,
            )
            if await self.db.write(self.store.create, data):
                break
        else:  # pragma: no cover - 20 collisions among 887 million codes
            raise UnavailableError("could not find a free table code; try again", "busy")
        if self._counted is not None:
            self._counted = (self._counted[0], self._counted[1] + 1)
        runner = self._keep(TableRunner(data, self.db, self.settings, self.bots))  # what was stored: no read
        created: JSON = {"code": data.code, "host_token": host_token}
        if name is not None:
            seat, token = await runner.join(name)
            created.update(seat=seat, token=token)
        created["table"] = runner.table_json()
        return created

    async def _active_tables(self) -> int:
        """Tables open or being played, as last counted from the database (at most
        :data:`COUNT_SECONDS` ago) with this process's creations since.

        Raises:
            DatabaseError: when the database cannot be read.
        """
        async with self._counting:  # a burst of creations waits for one read
            counted = self._counted
            if counted is None or time.monotonic() - counted[0] >= COUNT_SECONDS:
                counted = self._counted = (time.monotonic(), await self.db.read(self.store.count))
            return counted[1]

    async def lobby(self, status: str = OPEN, limit: int = LOBBY_PAGE, offset: int = 0) -> JSON:
        """A page of the tables with ``status`` (``open``: those with a free seat, fullest first,
        then newest; ``playing``, to watch, and ``finished``: newest first): at most ``limit``
        (1–100) from the ``offset``-th on. Returns ``{"tables", "offset", "limit", "next"}``,
        ``next`` the offset of the next page (``null`` on the last).

        Raises:
            InputError: for another status, limit or offset.
        """
        if status not in (OPEN, PLAYING, FINISHED):
            raise InputError(f"status must be {OPEN}, {PLAYING} or {FINISHED}, not {status!r}")
        if not 1 <= limit <= MAX_LOBBY_PAGE:
            raise InputError(f"limit must be from 1 to {MAX_LOBBY_PAGE}, not {limit}")
        if not 0 <= offset <= 1_000_000:
            raise InputError(f"offset must be from 0 to 1000000, not {offset}")
        tables = await self.db.read(self.store.lobby, status, limit + 1, offset)
        more = len(tables) > limit
        return {
            "tables": [summary(table) for table in tables[:limit]],
            "offset": offset,
            "limit": limit,
            "next": offset + limit if more else None,
        }

    async def runner(self, code: str) -> TableRunner:
        """The runner of table ``code`` (any case, dashes and spaces ignored), loaded on first use.

        Raises:
            NotFoundError: when no table has that code.
            DatabaseError: when the database cannot be read.
        """
        clean = normalize_code(code) if isinstance(code, str) else ""
        if len(clean) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in clean):
            raise NotFoundError(f"no table has the code {code!r}: a code is {CODE_LENGTH} letters and digits")
        runner = self._runners.get(clean)
        if runner is not None:
            return runner
        async with self._loading:
            runner = self._runners.get(clean)
            if runner is None:
                runner = await TableRunner.open(clean, self.db, self.settings, self.bots)
                if runner is None:
                    raise NotFoundError(f"no table has the code {clean!r}")
                self._keep(runner)
                if self.store.shared:  # a change notified while it was loading found no runner: catch up now
                    await runner.sync()
            return runner

    async def close(self, code: str, host_token: str) -> JSON:
        """Close table ``code`` with its host token; returns its table information.

        Raises:
            NotFoundError, AuthError, ConflictError, DatabaseError: as
                :meth:`TableRunner.close <thirtyone.server.runner.TableRunner.close>` says.
        """
        runner = await self.runner(code)
        await runner.close(host_token)
        return runner.table_json()

    async def record(self, code: str) -> tuple[str, str]:
        """The game record of a finished or closed table: ``(code, TOML text)``.

        Raises:
            NotFoundError: for an unknown code.
            ConflictError: while the game is being played (its decks are still secret) or when a
                table was closed before its game started.
        """
        runner = await self.runner(code)
        data = runner.data
        if data.record is None:
            if data.status in (OPEN, PLAYING):
                raise ConflictError(
                    f"table {runner.code} is {data.status}: its record is kept when the game is over "
                    "(until then its decks are secret)",
                    "not_over",
                )
            raise ConflictError(
                f"table {runner.code} was closed before its game started: it has no record", "no_record"
            )
        return runner.code, data.record

    async def review(self, code: str) -> tuple[str, str | None]:
        """The expert's review of a finished or closed table's game (:mod:`thirtyone.server.kept_reviews`):
        ``(code, JSON text)``, or ``(code, None)`` while it is being made (the first request starts it).

        Raises:
            NotFoundError, ConflictError: as :meth:`record` (no such table; no record yet or ever).
            UnavailableError: when the last try to make it failed (``damaged``, ``busy``).
            DatabaseError: when the database cannot be read.
        """
        clean, record = await self.record(code)
        return clean, await self.reviews.review(clean, record)

    # ------------------------------------------------------------------------------ life cycle

    async def startup(self) -> None:
        """Resume every table being played: load it, and let its bots and timers go on (on
        PostgreSQL: start the cluster's listener and leases; a table's bots and timer then run in
        the process that holds its lease). A table that cannot be resumed is logged and left alone;
        the others are served. The bot workers start now, each warming the compiled simulator the
        ``hard`` bot searches with (:meth:`WorkerPool.prestart`), so that the first move of a fresh
        server waits neither for a process's start nor for a compiler."""
        self.bots.prestart()
        self.db.start()
        await self.cluster.start()
        for code in await self.db.read(self.store.codes, PLAYING):
            try:
                runner = await self.runner(code)
                await runner.start()
            except ServerError as error:
                log.error("table %s is not resumed: %s", code, error)
        if self.collector is not None:
            self.collector.start()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="thirtyone sweep")

    async def shutdown(self) -> None:
        """Stop every runner (bots, timers, connections), the sweep and the workers, and on
        PostgreSQL the listener, giving back the leases."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        await self.cluster.stop()
        runners = list(self._runners.values())
        self._runners.clear()
        for runner in runners:
            await runner.stop()
        self.hints.close()
        self.bots.close()
        await self.reviews.close()
        await self.db.stop()
        self.db.close()
        if self.collector is not None:
            self.collector.stop()

    def _keep(self, runner: TableRunner) -> TableRunner:
        """Serve ``runner`` (its table's one runner in this process) from now on."""
        runner.claim = self.cluster.wake
        self._runners[runner.code] = runner
        return runner

    def release(self, runner: TableRunner) -> None:
        """Forget a finished or closed table's runner once nobody is connected (it loads again when asked)."""
        if not runner.connections and runner.data.status in (FINISHED, CLOSED):
            self._forget(runner)

    def _forget(self, runner: TableRunner) -> None:
        if self._runners.get(runner.code) is runner:
            del self._runners[runner.code]
            self.hints.forget(runner.code)

    # ------------------------------------------------------------------------------ idle tables

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            if self.collector is not None:
                self.collector.tick()
            try:
                await self.sweep()
            except ServerError as error:
                log.warning("the sweep of idle tables failed: %s", error)
            except Exception:  # a bug must not stop the sweeps
                log.exception("the sweep of idle tables failed")

    async def sweep(self, now: datetime | None = None) -> None:
        """Mark the tables someone is connected to as seen (a person, for a game; anyone, for an
        open table); close the open tables nobody was seen at for ``open_table_expiry`` seconds
        (``expired``) and the games no person was seen at for ``idle_game_expiry`` seconds
        (``abandoned``, their records kept); forget the runners nobody is connected to that wait
        for nothing (an open table, a finished one). ``now`` defaults to the clock.

        Raises:
            DatabaseError: when the database cannot be read or written.
        """
        now = now or _now()
        runners = list(self._runners.values())
        seen = [
            runner.code
            for runner in runners
            if runner.people_connected() or (runner.data.status == OPEN and runner.has_visitors())
        ]
        await self.db.write(self.store.touch, seen, now)
        for runner in runners:
            if runner.code in seen:
                runner.data.seen_at = now
        expired = await self.db.write(self.store.expire_open, now - timedelta(seconds=self.settings.open_table_expiry))
        for code in expired:
            served = self._runners.get(code)
            if served is not None:
                await served.sync()
        before = now - timedelta(seconds=self.settings.idle_game_expiry)
        for code in await self.db.read(self.store.idle, PLAYING, before):
            runner = await self.runner(code)
            if await runner.expire("abandoned", before):
                log.info("table %s: closed, no person was connected to its game for a long time", code)
        for runner in list(self._runners.values()):
            idle = not runner.connections and not runner.lock.locked()
            if idle and runner.data.status in (OPEN, FINISHED, CLOSED):
                self._forget(runner)


def _rules(preset: str, options: Mapping[str, Any]) -> Rules:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InputError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    for key, value in options.items():
        if key not in OPTIONS:
            raise InputError(f"unknown option {key!r}: options are {', '.join(OPTIONS)}")
        if value is not None and not isinstance(value, str | int | float | bool):
            raise InputError(f"option {key}: give text, a number or true/false, not {type(value).__name__}")
    try:
        return Rules.preset(preset, **dict(options))
    except ThirtyOneError as error:
        raise InputError(str(error)) from None
    except (TypeError, ValueError) as error:
        raise InputError(f"bad rule options: {error}") from None


def _seats(seats: Sequence[SeatRequest]) -> list[SeatData]:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise InputError(f"R2.1: a table has {MIN_SEATS} to {MAX_SEATS} seats, not {len(seats)}")
    out: list[SeatData] = []
    for index, seat in enumerate(seats):
        if seat.kind == "human":
            if seat.level is not None:
                raise InputError(f"seat {index}: a human seat has no level")
            out.append(SeatData(index, "human", None, None))
        elif seat.kind == "bot":
            level = LEVEL_NAMES.get((seat.level or "easy").strip().lower())
            if level is None or level not in BOT_LEVELS:
                raise InputError(
                    f"seat {index}: unknown bot level {seat.level!r}: choose one of {', '.join(LEVEL_INFO)}"
                )
            out.append(SeatData(index, "bot", level, BOT_NAMES[index]))
        else:
            raise InputError(f"seat {index}: a seat is 'human' or 'bot', not {seat.kind!r}")
    if all(seat.kind == "bot" for seat in out):
        raise InputError("a table needs at least one human seat")
    return out


def summary(table: TableData) -> JSON:
    """A table as the lobby lists it: code, status, preset, rules in words (and as data: the
    options that differ from the preset), seats (no tokens)."""
    free = [s.seat for s in table.seats if not s.taken]
    return {
        **heading_json(table, Rules(**table.options)),
        "players": table.players,
        "free_seats": free,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name, "taken": s.taken} for s in table.seats
        ],
        "seated": table.seated,
        "created_at": table.created_at.isoformat(),
        "share_path": f"/t/{table.code}",
    }


def _now() -> datetime:
    return datetime.now(UTC)
