"""The table service: creating tables, the lobby, and the runners of the tables being served.

A table is created open, with its rules (a preset and any options, R8), its seats (2–9, each a
person or a bot of a level) and a host token; people join its human seats by name; when the last
one is taken the game starts. :meth:`TableService.runner` gives the one
:class:`~thirtyone.server.runner.TableRunner` of a table, loading it from the database on first use;
on start every table being played is loaded and its bots and timers go on. On PostgreSQL the
service's :class:`~thirtyone.server.cluster.Cluster` lets several processes serve the same tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from thirtyone.errors import ThirtyOneError
from thirtyone.rules import OPTIONS, PRESETS, Rules
from thirtyone.server.autoplay import BOT_LEVELS, BOT_NAMES
from thirtyone.server.cluster import Cluster
from thirtyone.server.config import ServerSettings
from thirtyone.server.errors import ConflictError, InputError, NotFoundError, ServerError
from thirtyone.server.limits import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_SEATS,
    MIN_SEATS,
    hash_token,
    new_code,
    new_token,
    normalize_code,
)
from thirtyone.server.names import check_display_name
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.store import CLOSED, FINISHED, OPEN, PLAYING, SeatData, Store, TableData, run_db

__all__ = ["TableService", "SeatRequest", "LEVEL_NAMES", "summary"]

log = logging.getLogger("thirtyone.server")

LEVEL_NAMES = {"easy": "easy", "medium": "medium", "hard": "hard", "random": "random"} | {
    "basic": "easy",
    "heuristic": "medium",
    "expert": "hard",
}
"""The bot levels a seat may ask for (the levels, or the bots' own names), and the level stored."""


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
        self._runners: dict[str, TableRunner] = {}
        self._loading = asyncio.Lock()
        self.cluster = Cluster(store, settings, self._runners)

    # ------------------------------------------------------------------------------ tables

    async def create(
        self,
        preset: str,
        options: Mapping[str, Any],
        seats: Sequence[SeatRequest],
        name: str | None = None,
        *,
        public: bool = False,
        hints: bool = True,
    ) -> JSON:
        """Create an open table; with ``name`` its creator takes the first human seat at once. A
        ``public`` table is listed in the lobby; a private one (the default) is reached by its code
        or link only. ``hints``: whether the players may ask the expert for hints.

        Returns ``{"code", "host_token", "table"}`` and, with ``name``, ``"seat"`` and ``"token"``.

        Raises:
            InputError: for an unknown preset or option, a bad value, options that contradict each
                other, fewer than 2 or more than 9 seats (or more than the deck can deal, R2.1), a
                seat that is neither human nor a bot of a known level, no human seat, or a bad name.
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
        host_token = new_token()
        for _ in range(20):
            data = TableData(
                code=new_code(),
                status=OPEN,
                preset=rules.nearest_preset()[0],
                options=rules.options(),
                players=len(stored_seats),
                host_token_hash=hash_token(host_token),
                seats=stored_seats,
                created_at=_now(),
                public=public,
                hints=hints,
            )
            if await run_db(self.store.create, data):
                break
        else:  # pragma: no cover - 20 collisions among 887 million codes
            raise ServerError("could not find a free table code; try again", "busy")
        created: JSON = {"code": data.code, "host_token": host_token}
        if name is not None:
            runner = await self.runner(data.code)
            seat, token = await runner.join(name)
            created.update(seat=seat, token=token)
        runner = await self.runner(data.code)
        created["table"] = runner.table_json()
        return created

    async def lobby(self, status: str = OPEN, limit: int = 100) -> list[JSON]:
        """Tables with ``status`` (``open``: those with a free seat; ``playing``: to watch), newest
        first, at most ``limit`` (1–500).

        Raises:
            InputError: for another status or limit.
        """
        if status not in (OPEN, PLAYING, FINISHED):
            raise InputError(f"status must be {OPEN}, {PLAYING} or {FINISHED}, not {status!r}")
        if not 1 <= limit <= 500:
            raise InputError(f"limit must be from 1 to 500, not {limit}")
        tables = await run_db(self.store.lobby, status, limit)
        return [summary(table) for table in tables]

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
                runner = await TableRunner.open(clean, self.store, self.settings)
                if runner is None:
                    raise NotFoundError(f"no table has the code {clean!r}")
                runner.claim = self.cluster.wake
                self._runners[clean] = runner
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

    # ------------------------------------------------------------------------------ life cycle

    async def startup(self) -> None:
        """Resume every table being played: load it, and let its bots and timers go on (on
        PostgreSQL: start the cluster's listener and leases; a table's bots and timer then run in
        the process that holds its lease). A table that cannot be resumed is logged and left alone;
        the others are served."""
        await self.cluster.start()
        for code in await run_db(self.store.codes, PLAYING):
            try:
                runner = await self.runner(code)
                await runner.start()
            except ServerError as error:
                log.error("table %s is not resumed: %s", code, error)

    async def shutdown(self) -> None:
        """Stop every runner (bots, timers, connections), and on PostgreSQL the listener, giving
        back the leases."""
        await self.cluster.stop()
        runners = list(self._runners.values())
        self._runners.clear()
        for runner in runners:
            await runner.stop()

    def release(self, runner: TableRunner) -> None:
        """Forget a finished or closed table's runner once nobody is connected (it loads again when asked)."""
        if not runner.connections and runner.data.status in (FINISHED, CLOSED):
            self._runners.pop(runner.code, None)


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
                    f"seat {index}: unknown bot level {seat.level!r}: choose one of easy, medium, hard, random"
                )
            out.append(SeatData(index, "bot", level, BOT_NAMES[index]))
        else:
            raise InputError(f"seat {index}: a seat is 'human' or 'bot', not {seat.kind!r}")
    if all(seat.kind == "bot" for seat in out):
        raise InputError("a table needs at least one human seat")
    return out


def summary(table: TableData) -> JSON:
    """A table as the lobby lists it: code, status, preset, rules in words, seats (no tokens)."""
    free = [s.seat for s in table.seats if not s.taken]
    rules = Rules(**table.options)
    return {
        "code": table.code,
        "status": table.status,
        "preset": table.preset,
        "describe": rules.describe(),
        "players": table.players,
        "free_seats": free,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name, "taken": s.taken} for s in table.seats
        ],
        "created_at": table.created_at.isoformat(),
        "share_path": f"/t/{table.code}",
    }


def _now() -> datetime:
    return datetime.now(UTC)
