"""The moves nobody at the table sends: its bots, and the turn timer for an absent person.

After every change the table calls :meth:`Autoplay.schedule`: the waiting bot or timer is
cancelled, and the next one starts if a bot is to move (after ``bot_delay`` seconds a turn; the
discard that finishes a turn shows at once) or a person is and the turn timer is on. A person who
has not acted in time gets :func:`default_action` played for them (the ``basic`` bot's choice,
which the engine checks like any other action: never the card just taken from the pile, R4.2); a
turn the timer has begun is finished after :data:`TIMER_FOLLOW_UP` seconds. Every such move goes
through the table's own ``act``, source ``bot`` or ``timer``, like a person's.

On PostgreSQL only the process that holds the table's lease runs them
(:mod:`thirtyone.server.cluster`); another asks for the lease (the table's ``claim``) instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Protocol

from thirtyone.actions import Action, parse_action
from thirtyone.bots import Bot, make_bot
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.levels import LEVEL_SPECS, TABLE_EXPERT_SECONDS, THINKING_LEVELS
from thirtyone.bots.prepare import warm_up_simulator
from thirtyone.bots.work import bot_move
from thirtyone.engine import Game
from thirtyone.server.config import ServerSettings
from thirtyone.server.errors import ConflictError, DatabaseError, ServerError
from thirtyone.server.store import OPEN, PLAYING, TableData
from thirtyone.server.workers import WorkerPool
from thirtyone.views import Phase, PlayerView

__all__ = [
    "Autoplay",
    "AutoplayTable",
    "default_action",
    "BOT_LEVELS",
    "THINKING_LEVELS",
    "HARD_SECONDS",
    "RETRY_SECONDS",
    "TIMER_FOLLOW_UP",
]

log = logging.getLogger("thirtyone.server")

HARD_SECONDS = TABLE_EXPERT_SECONDS
"""Seconds the ``hard`` bot (the expert) searches a move (the registry's
:data:`~thirtyone.bots.levels.TABLE_EXPERT_SECONDS`, the ``hard`` level's budget)."""
BOT_LEVELS: dict[str, str] = dict(LEVEL_SPECS)
"""Bot levels a seat may have, and the bot that plays each (:func:`thirtyone.bots.make_bot`): the
registry's levels (:data:`thirtyone.bots.levels.LEVEL_SPECS`), and those ``serve --bot`` adds."""
TIMER_FOLLOW_UP = 1.0
"""Seconds the turn timer waits for the rest of a turn it has begun for an absent player (after
drawing for them, the discard), instead of a whole turn timer again."""
RETRY_SECONDS = 2.0
"""After a failed database write, seconds before a bot or the turn timer tries again."""


def default_action(view: PlayerView) -> Action:
    """The action the turn timer plays for an absent player: the ``basic`` bot's choice, which is one
    of ``view.legal_actions`` (so never the card just taken from the pile, R4.2).

    Raises:
        ConflictError: when the view's seat has no move.
    """
    legal = view.legal_actions
    if not legal:
        raise ConflictError(f"seat {view.seat} has no move now", code="not_your_turn")
    choice = BasicBot(0).choose(view, legal)
    return choice if choice in legal else legal[0]


class AutoplayTable(Protocol):
    """What :class:`Autoplay` reads and calls of its table (:class:`~thirtyone.server.runner.TableRunner`):
    the stored ``data`` and the ``game``, the table's ``lock``, whether it is ``stopped``, whether
    this process holds its lease (``leased``) and how to ask for it (``claim``), and ``act``."""

    code: str
    data: TableData
    game: Game | None
    lock: asyncio.Lock
    stopped: bool
    leased: bool
    claim: Callable[[], None] | None

    async def act(self, seat: int, text: str, seq: int, source: str = "player") -> int: ...


class Autoplay:
    """The bots and the turn timer of ``table``, with ``settings``' ``bot_delay`` and
    ``turn_timer``: at most one waiting task at a time. ``deadline`` is when the turn timer plays
    (Unix seconds; ``None`` when it does not run). The ``medium`` and ``hard`` bots think on
    ``bots`` (a pool of worker processes; without one, on a thread of this process). A table with
    a ``hard`` bot that is open or being played starts
    :func:`~thirtyone.bots.prepare.warm_up_simulator` in the process where the hard bot thinks."""

    def __init__(self, table: AutoplayTable, settings: ServerSettings, bots: WorkerPool | None = None) -> None:
        self.table = table
        self.settings = settings
        self.bots = bots
        self.deadline: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, Bot] = {}
        data = table.data
        if any(seat.level == "hard" for seat in data.seats) and data.status in (OPEN, PLAYING):
            if bots is None or bots.kind == "thread":
                warm_up_simulator()
            else:
                bots.prestart()

    def schedule(self) -> None:
        """After each change (under the table's lock): cancel the waiting bot or timer, and start
        the next one if a bot is to move (after ``bot_delay``) or a person is and the turn timer is
        on; without the lease, ask for it instead."""
        table = self.table
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        self.deadline = None
        game = table.game
        if table.stopped or table.data.status != PLAYING or game is None or game.is_over:
            return
        seat = game.current_seat
        assert seat is not None
        seq = table.data.seq
        kind = table.data.seats[seat].kind
        automatic = kind == "bot" or self.settings.turn_timer is not None
        if automatic and not table.leased:  # another process runs this table's bots and timer, or will
            if table.claim is not None:
                table.claim()
            return
        if kind == "bot":
            self._task = asyncio.create_task(self._bot_turn(seat, seq), name=f"bot {table.code}/{seat}")
        elif self.settings.turn_timer is not None:
            seconds = self.settings.turn_timer
            last = table.data.actions[-1] if table.data.actions else None
            if last is not None and last.source == "timer" and last.seat == seat:
                seconds = min(seconds, TIMER_FOLLOW_UP)  # the same absent player's turn goes on: finish it
            self.deadline = round(time.time() + seconds, 3)
            self._task = asyncio.create_task(self._timer(seat, seq, seconds), name=f"timer {table.code}/{seat}")

    async def stop(self) -> None:
        """Cancel the waiting bot or timer, and wait for it to end."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.table.data.seats[seat].level or "easy"
            bot = make_bot(BOT_LEVELS.get(level, "basic"), secrets.randbits(64))
            self._bots[seat] = bot
        return bot

    async def _bot_turn(self, seat: int, seq: int) -> None:
        game = self.table.game
        if game is None:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.0 if game.phase is Phase.DISCARD else self.settings.bot_delay  # a turn shows at once
        view = game.view(seat)
        legal = view.legal_actions
        level = self.table.data.seats[seat].level or "easy"
        try:
            if level in THINKING_LEVELS:
                spec = BOT_LEVELS.get(level, "basic")
                if self.bots is None:
                    notation = await asyncio.to_thread(bot_move, spec, secrets.randbits(64), view)
                else:
                    notation = await self.bots.run(bot_move, spec, secrets.randbits(64), view)
                action = parse_action(notation)
            else:
                action = self._bot(seat).choose(view, legal)
            if action not in legal:
                raise ValueError(f"the bot chose {action}, which is not legal")
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("table %s: the bot of seat %d failed (%r); it plays a default", self.table.code, seat, error)
            action = default_action(view)
        rest = delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        await self._play_for(seat, seq, action, "bot")

    async def _timer(self, seat: int, seq: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        game = self.table.game
        if game is None or self.table.data.seq != seq:
            return
        await self._play_for(seat, seq, default_action(game.view(seat)), "timer")

    async def _play_for(self, seat: int, seq: int, action: Action, source: str) -> None:
        table = self.table
        try:
            stored = await table.act(seat, str(action), seq, source)
            log.debug("table %s: the %s of seat %d played %s as seq %d", table.code, source, seat, action, stored)
        except DatabaseError:
            await asyncio.sleep(RETRY_SECONDS)
            async with table.lock:
                if table.data.seq == seq and (self._task is None or self._task is asyncio.current_task()):
                    self.schedule()
        except ServerError as error:  # stale: someone acted first; the new state scheduled what follows
            log.debug("table %s: %s's %s was not played: %s", table.code, source, action, error)
