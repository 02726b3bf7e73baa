"""The moves nobody at the table sends: its bots, and the turn timer for an absent person.

After every change the table calls :meth:`Autoplay.schedule`: the waiting bot or timer is
cancelled, and the next one starts if a bot is to move (after ``bot_delay`` seconds a turn; the
discard that finishes a turn shows at once) or a person is and the table has a turn timer
(``turn_timer``, or ``friends_turn_timer`` at a table of more than one person). A person who has
not acted in time gets :func:`default_action` played for them (the ``basic`` bot's choice, which
the engine checks like any other action: never the card just taken from the pile, R4.2); a turn
the timer has begun is finished after :data:`TIMER_FOLLOW_UP` seconds. Every such move goes
through the table's own ``act``, source ``bot`` or ``timer``, like a person's.

After ``timeouts_to_bot`` turns in a row that the timer played for a seat
(:func:`timeouts_in_a_row`) the seat is away: its turns are played at the bots' pace instead of a
whole timer each (whether or not anyone is connected, and after a restart too: the count is read
from the table's history), until its person plays or says they are back (:meth:`Autoplay.back`).

When a round ends, the bots and the timer first wait for the showdown to be read: until every
person connected when it ended (and still connected, and not away) has closed it
(:meth:`Autoplay.close_showdown`), at most ``showdown_timeout`` seconds (docs/server-protocol.md,
"The showdown's pace"). What the table shows of all this is :meth:`Autoplay.pace`.

On PostgreSQL only the process that holds the table's lease runs them
(:mod:`thirtyone.server.cluster`); another asks for the lease (the table's ``claim``) instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Protocol

from thirtyone.action_ids import action_from_id
from thirtyone.actions import Action
from thirtyone.bots import Bot
from thirtyone.bots import make_bot
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.levels import LEVEL_SPECS
from thirtyone.bots.levels import TABLE_EXPERT_SECONDS
from thirtyone.bots.levels import THINKING_LEVELS
from thirtyone.bots.prepare import warm_up_simulator
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.bots.work import bot_move
from thirtyone.engine import Game
from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connections
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import DatabaseError
from thirtyone.server.errors import ServerError
from thirtyone.server.history import ActionData
from thirtyone.server.history import TableHistory
from thirtyone.server.history import ended_rounds
from thirtyone.server.rows import OPEN
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import TableData
from thirtyone.server.serialize import JSON
from thirtyone.server.workers import WorkerPool
from thirtyone.text import error_line
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = [
    "Autoplay",
    "AutoplayTable",
    "Pace",
    "default_action",
    "table_turn_timer",
    "thinks",
    "timeouts_in_a_row",
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


def thinks(level: str) -> bool:
    """Whether a seat of ``level`` plays on the bot workers rather than on the event loop: the
    registry's levels that take thought (``medium``, ``hard``), and every level ``serve --bot``
    added, whose bot's time a move the server cannot know (the judge counts a last turn exactly in
    7-13 ms, and a stall of the event loop is every table's). An unknown level plays ``easy``.

    >>> thinks("hard"), thinks("easy"), thinks("no such level")
    (True, False, False)
    """
    return level in THINKING_LEVELS or (level in BOT_LEVELS and level not in LEVEL_SPECS)


def _follows_up(previous: ActionData | None, seat: int, round: int) -> bool:
    """Whether a move of ``seat`` in round ``round`` goes on with a turn the timer began: the
    action before it (``previous``) is the timer's, for the same seat, in the same round."""
    return previous is not None and previous.source == "timer" and previous.seat == seat and previous.round == round


def _is_away(timeouts: int, limit: int, timer: float | None) -> bool:
    return limit > 0 and timer is not None and timeouts >= limit


def table_turn_timer(settings: ServerSettings, data: TableData) -> float | None:
    """A table's turn timer, seconds: ``settings.turn_timer`` if set, else
    ``settings.friends_turn_timer`` at a table with more than one person (human seat); ``None``: none."""
    if settings.turn_timer is not None:
        return settings.turn_timer
    people = sum(1 for seat in data.seats if seat.kind == "human")
    return settings.friends_turn_timer if people > 1 else None


def timeouts_in_a_row(actions: Sequence[ActionData], seat: int, since: int = 0) -> int:
    """How many of ``seat``'s turns in a row the turn timer began: counting back from the newest of
    ``actions`` (stored, in seq order) to the seat's last own (``player``) action or to seq
    ``since`` (when its person said they were back), each ``timer`` action of the seat that does
    not go on with a turn the timer began (the discard after the timer drew for them)."""
    count = 0
    for at in range(len(actions) - 1, -1, -1):
        action = actions[at]
        if action.seq <= since:
            break
        if action.seat != seat:
            continue
        if action.source == "player":
            break
        if action.source == "timer" and not _follows_up(actions[at - 1] if at else None, seat, action.round):
            count += 1
    return count


@dataclass(frozen=True)
class Pace:
    """What the table shows of the moves nobody sends (TABLE's keys): its ``turn_timer`` (seconds,
    ``None``: none), the ``deadline`` when the timer plays (Unix seconds, ``None``: no timer runs),
    ``showdown`` (``{"round", "waiting", "until"}`` while the bots and the timer wait for the people
    to close a round's showdown, else ``None``), each seat's ``timeouts`` in a row and whether it is
    ``away``, and ``timeouts_to_bot``."""

    turn_timer: float | None
    deadline: float | None
    showdown: JSON | None
    timeouts: tuple[int, ...]
    away: tuple[bool, ...]
    timeouts_to_bot: int

    @classmethod
    def still(cls, settings: ServerSettings, data: TableData) -> Pace:
        """The pace of a table where nothing runs yet (no deadline, no showdown, no timeouts)."""
        players = data.players
        return cls(
            table_turn_timer(settings, data), None, None, (0,) * players, (False,) * players, settings.timeouts_to_bot
        )


@dataclass
class _Reading:
    """Round ``round``'s showdown, being read by the people connected when it ended (``readers``,
    seats), of whom ``closed`` have closed it; the wait ends at the latest at ``ends`` (the event
    loop's clock; ``until`` on the wall clock, Unix seconds), or once ``over``."""

    round: int
    readers: frozenset[int]
    ends: float
    until: float
    closed: set[int] = field(default_factory=set)
    over: bool = False


class AutoplayTable(Protocol):
    """What :class:`Autoplay` reads and calls of its table (:class:`~thirtyone.server.runner.TableRunner`):
    the stored ``data``, the ``history`` and the ``game``, the table's ``lock``, whether it is ``stopped``, whether
    this process holds its lease (``leased``) and how to ask for it (``claim``), its
    ``connections`` in this process, ``act``, and ``tell_table`` (everyone hears the TABLE anew)."""

    code: str
    lock: asyncio.Lock
    stopped: bool
    leased: bool
    claim: Callable[[], None] | None
    connections: Connections

    @property
    def data(self) -> TableData: ...

    @property
    def history(self) -> TableHistory: ...

    @property
    def game(self) -> Game | None: ...

    async def act(self, seat: int, action: Action | str | int, seq: int, source: str = "player") -> int: ...

    def tell_table(self) -> None: ...


class Autoplay:
    """The bots and the turn timer of ``table``, with ``settings``' ``bot_delay``, turn timers,
    ``timeouts_to_bot`` and ``showdown_timeout``: at most one waiting task at a time. ``deadline``
    is when the turn timer plays (Unix seconds; ``None`` when it does not run). The ``medium`` and
    ``hard`` bots think on ``bots`` (a pool of worker processes; without one, on a thread of this
    process), and so do the levels ``serve --bot`` added (:func:`thinks`); the others play on
    the event loop. A table with a ``hard`` bot that is open or being played starts
    :func:`~thirtyone.bots.prepare.warm_up_simulator` in the process where the hard bot thinks."""

    def __init__(self, table: AutoplayTable, settings: ServerSettings, bots: WorkerPool | None = None) -> None:
        self.table = table
        self.settings = settings
        self.bots = bots
        self.deadline: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, Bot] = {}
        self._reading: _Reading | None = None
        self._holding = False  # the waiting task waits for the showdown to be read
        self._back: dict[int, int] = {}  # seat: the seq at which its person said they were back
        data = table.data
        if any(seat.level == "hard" for seat in data.seats) and data.status in (OPEN, PLAYING):
            if bots is None or bots.kind == "thread":
                warm_up_simulator()
            else:
                bots.prestart()

    # ------------------------------------------------------------------------------ what the table shows

    def turn_timer(self) -> float | None:
        """The table's turn timer, seconds (:func:`table_turn_timer`); ``None``: none."""
        return table_turn_timer(self.settings, self.table.data)

    def timeouts(self, seat: int) -> int:
        """The turns in a row the timer played for ``seat`` (0 for a bot's seat, and since its
        person said they were back)."""
        data = self.table.data
        if data.seats[seat].kind != "human":
            return 0
        return timeouts_in_a_row(self.table.history.actions, seat, self._back.get(seat, 0))

    def away(self, seat: int) -> bool:
        """Whether ``seat`` is away: the table has a timer, and it played ``timeouts_to_bot`` of
        the seat's turns in a row."""
        return _is_away(self.timeouts(seat), self.settings.timeouts_to_bot, self.turn_timer())

    def pace(self) -> Pace:
        """What the table shows of its bots, timer and showdown (:class:`Pace`)."""
        players = range(self.table.data.players)
        timeouts = tuple(self.timeouts(seat) for seat in players)
        limit = self.settings.timeouts_to_bot
        timer = self.turn_timer()
        reading = self._reading
        showdown = None
        if self._holding and reading is not None:
            waiting = self._waiting(reading)
            showdown = {"round": reading.round, "waiting": waiting, "until": reading.until}
        return Pace(
            turn_timer=timer,
            deadline=self.deadline,
            showdown=showdown,
            timeouts=timeouts,
            away=tuple(_is_away(count, limit, timer) for count in timeouts),
            timeouts_to_bot=limit,
        )

    @property
    def holding(self) -> bool:
        """Whether the bots and the timer wait for a showdown to be read."""
        return self._holding

    # ------------------------------------------------------------------------------ what people say

    def close_showdown(self, seat: int, number: int | None = None) -> bool:
        """``seat``'s person has closed the showdown of round ``number`` (``None``: whichever is
        being read, as their own move says). Returns whether that changed anything: a close of
        another round, a second one or one after the wait is over changes nothing. The caller
        schedules anew when it did."""
        reading = self._reading
        if reading is None or reading.over or seat in reading.closed or number not in (None, reading.round):
            return False
        reading.closed.add(seat)
        return seat in reading.readers

    def back(self, seat: int) -> bool:
        """``seat``'s person is back: the timer's turns before now no longer count (the seat is not
        away). Returns whether that changed anything (the timer had played for the seat); the
        caller schedules anew when it did."""
        if self.timeouts(seat) == 0:
            return False
        self._back[seat] = self.table.data.seq
        return True

    # ------------------------------------------------------------------------------ scheduling

    def schedule(self) -> None:
        """After each change (under the table's lock): cancel the waiting bot or timer, and start
        the next one if a bot is to move (after ``bot_delay``) or a person is and the table has a
        turn timer — once the last showdown has been read; without the lease, ask for it instead."""
        table = self.table
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        self.deadline = None
        self._holding = False
        game = table.game
        if table.stopped or table.data.status != PLAYING or game is None or game.is_over:
            self._reading = None
            return
        self._note_showdown()
        seat = game.current_seat
        assert seat is not None
        seq = table.data.seq
        kind = table.data.seats[seat].kind
        timer = self.turn_timer()
        automatic = kind == "bot" or timer is not None
        if automatic and not table.leased:  # another process runs this table's bots and timer, or will
            if table.claim is not None:
                table.claim()
            return
        if not automatic:
            return
        wait = self._showdown_left()
        if wait is not None:
            self._holding = True
            self._task = asyncio.create_task(self._showdown_wait(wait), name=f"showdown {table.code}")
        elif kind == "bot":
            self._task = asyncio.create_task(self._bot_turn(seat, seq), name=f"bot {table.code}/{seat}")
        elif timer is not None:
            seconds = timer
            last = table.history.last_action
            if self.away(seat):  # played for them at the bots' pace
                seconds = 0.0 if game.phase is Phase.DISCARD else self.settings.bot_delay
            elif _follows_up(last, seat, game.round):
                seconds = min(seconds, TIMER_FOLLOW_UP)  # the same absent player's turn goes on: finish it
            self.deadline = round(time.time() + seconds, 3)
            self._task = asyncio.create_task(self._timer(seat, seq, seconds), name=f"timer {table.code}/{seat}")

    def _note_showdown(self) -> None:
        """Begin the wait for the last round's showdown when it has just ended (no action stored
        since): its readers are the people connected now and not away."""
        timeout = self.settings.showdown_timeout
        ended = ended_rounds(self.table.game)
        latest = ended[-1] if ended else None
        if latest is None or timeout <= 0:
            self._reading = None
            return
        if self._reading is not None and self._reading.round == latest:
            return
        data = self.table.data
        last = self.table.history.last_action
        if last is not None and last.round > latest:  # played on already (seen after a restart)
            self._reading = None
            return
        connected = self.table.connections.connected(data.players)
        readers = frozenset(
            seat.seat
            for seat in data.seats
            if seat.kind == "human" and connected[seat.seat] and not self.away(seat.seat)
        )
        ends = asyncio.get_running_loop().time() + timeout
        self._reading = _Reading(latest, readers, ends, round(time.time() + timeout, 3))

    def _waiting(self, reading: _Reading) -> list[int]:
        """The seats whose people still read ``reading``'s showdown, in seat order."""
        connected = self.table.connections.connected(self.table.data.players)
        return [
            seat
            for seat in sorted(reading.readers)
            if connected[seat] and seat not in reading.closed and not self.away(seat)
        ]

    def _showdown_left(self) -> float | None:
        """Seconds the wait for the showdown may still last (``None``: it is over)."""
        reading = self._reading
        if reading is None or reading.over:
            return None
        left = reading.ends - asyncio.get_running_loop().time()
        if left <= 0 or not self._waiting(reading):
            reading.over = True
            return None
        return left

    async def _showdown_wait(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        table = self.table
        async with table.lock:
            if self._task is not asyncio.current_task() or table.stopped:
                return
            if self._reading is not None:
                self._reading.over = True  # the timeout passed
            self.schedule()
            table.tell_table()

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
            bot = make_bot(BOT_LEVELS.get(level, "basic"), self.settings.randomness.seed_for_bot())
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
        level = self.table.data.seats[seat].level or "easy"
        try:
            if thinks(level):
                spec = BOT_LEVELS[level]
                seed = self.settings.randomness.seed_for_bot()
                if self.bots is None:
                    move = await asyncio.to_thread(bot_move, spec, seed, view)
                else:
                    move = await self.bots.run(bot_move, spec, seed, view)
                chosen = move if isinstance(move, BotFailure) else action_from_id(view, move)  # the worker's id
            else:
                chosen = choose(self._bot(seat), view)  # the one bot turn: checked, a failure as data
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the worker pool, not the bot: it died, or the bot could not be made
            chosen = BotFailure(seat, level, None, f"could not move: {error_line(error)}")
        if isinstance(chosen, BotFailure):
            log.warning("table %s: %s; it plays a default", self.table.code, chosen)
            action = default_action(view)
        else:
            action = chosen
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
            stored = await table.act(seat, action, seq, source)
            log.debug("table %s: the %s of seat %d played %s as seq %d", table.code, source, seat, action, stored)
        except DatabaseError:
            await asyncio.sleep(RETRY_SECONDS)
            async with table.lock:
                if table.data.seq == seq and (self._task is None or self._task is asyncio.current_task()):
                    self.schedule()
        except ServerError as error:  # stale: someone acted first; the new state scheduled what follows
            log.debug("table %s: %s's %s was not played: %s", table.code, source, action, error)
