"""The bots' pace in the terminal game: one turn at a time, so that a person can follow them.

Each bot turn shows whole after ``delay`` seconds (its draw and its discard together: the rest
of a turn already begun plays on without another pause); with ``fast`` the bots play at once.
The pause is the event loop's own (:meth:`asyncio.loop.call_later`), which keeps any delay from 0
on: Textual's one-shot timer divides by zero for 0 seconds and never fires for one of a few
nanoseconds, which froze ``--delay 0`` and ``--delay 1e-9``.
A bot that searches (an expert) chooses on a thread of its own (:func:`~thirtyone.tui.threads.off_thread`),
its thinking counted in the pause, so the screen never freezes; a choice made for a position
that play has left meanwhile (another game) is thrown away. Every choice is the one bot turn's
(:func:`thirtyone.bots.turn.choose`): a bot that fails is a :class:`~thirtyone.bots.turn.BotFailure`
handed to the screen, which says so and stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from textual.app import App

from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.tui.session import BotTurn
from thirtyone.tui.session import PlaySession
from thirtyone.tui.session import Position
from thirtyone.tui.threads import off_thread

__all__ = ["BotPacing"]


class BotPacing:
    """When and where the bots of ``session`` play, for ``app`` (its timers and workers).

    ``show()`` is called once a turn that waited has been played (the app shows it and moves the
    game on), ``fail(failure)`` when a bot fails, and ``waiting()`` says whether the bots are
    still to move on the screen (not while a showdown shows, or after a failure). ``delay`` is
    the pause of a turn in seconds, thinking included; ``fast`` plays every turn at once.
    """

    def __init__(
        self,
        app: App[None],
        session: PlaySession,
        *,
        delay: float,
        fast: bool,
        show: Callable[[], None],
        fail: Callable[[BotFailure], None],
        waiting: Callable[[], bool],
    ) -> None:
        self.app = app
        self.session = session
        self.delay = delay
        self.fast = fast
        """True while the bots play at once (``--fast``, or ``f``)."""
        self._show = show
        self._fail = fail
        self._waiting = waiting
        self._timer: asyncio.TimerHandle | None = None
        self._thinking: Position | None = None  # the position a bot is choosing its move for

    @property
    def thinking(self) -> bool:
        """True while a searching bot is choosing its move on its thread."""
        return self._thinking is not None

    def toggle(self) -> bool:
        """Switch between fast and paced bots (``f``); returns ``fast``."""
        self.fast = not self.fast
        return self.fast

    def cancel(self) -> None:
        """Stop the pause of a turn, if one runs (the screen moves on, or quits)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def reset(self) -> None:
        """Forget every turn under way (another game): a search still running is thrown away."""
        self.cancel()
        self._thinking = None

    def play(self) -> bool:
        """A bot is to move: play its whole turn now and return ``True`` (the caller shows it and
        goes on), or start what it waits for — the pause, or its search — and return ``False``
        (``show()`` follows once it has been played). ``False`` also when a bot failed."""
        session = self.session
        if session.bot_thinks():  # an expert: it chooses on a thread of its own
            if self._thinking != session.position:
                self._start_thinking()
            return False
        if not self.fast and not session.turn_continues():
            # handed to the app's messages once the pause is over, as Textual's own timers do
            self._timer = asyncio.get_running_loop().call_later(self.delay, self.app.call_next, self.end_pause)
            return False
        return self._play_turn()

    def end_pause(self) -> None:
        """End the pause of the bot to move (its timer does once ``delay`` has passed; a test
        that chooses its pace, after :meth:`cancel`): play its whole turn and show it, while the
        bots are still to move on the screen."""
        self._timer = None
        if self._waiting() and self._play_turn():
            self._show()

    def _play_turn(self) -> bool:
        """Play the rest of the turn of the bot to move (a draw and its discard: one pause a
        turn); ``False`` when the bot failed."""
        session = self.session
        seat = session.game.current_seat
        failure = session.bot_move()
        while failure is None and session.game.current_seat == seat and session.turn_continues():
            failure = session.bot_move()  # the same bot: it does not search either
        if failure is not None:
            self._fail(failure)
            return False
        return True

    def _start_thinking(self) -> None:
        turn = self.session.bot_turn()
        self._thinking = turn.position
        self.app.run_worker(self._think(turn), name=f"seat {turn.seat} thinks", group="bots", exit_on_error=False)

    async def _think(self, turn: BotTurn) -> None:
        """Let a searching bot play its turn, choosing each move on a thread (a draw, then its
        discard, shown together), wait out the rest of the pause (the thinking counts toward it;
        none when fast, or for the rest of a turn already shown), then show it — unless play has
        moved on meanwhile (another game): then the choice is stale. While the expert's
        preparation is under way the bot searches on the engine
        (:attr:`~thirtyone.bots.expert.ExpertBot.simulator_ready`), never waiting for the compiler."""
        session = self.session
        loop = asyncio.get_running_loop()
        start = loop.time()
        pace = not session.turn_continues()
        while True:
            choice = await off_thread(partial(choose, turn.bot, turn.view))
            if self._thinking != turn.position:
                return  # play has moved on (another game): the choice is stale
            failure = session.play_bot(turn, choice)
            if failure is not None:
                self._thinking = None
                self._fail(failure)
                return
            if not (session.game.current_seat == turn.seat and session.turn_continues()):
                break
            turn = session.bot_turn()  # the same turn goes on: the same bot chooses its discard unseen
            self._thinking = turn.position
        self._thinking = None
        played = session.position
        while pace and not self.fast and (left := self.delay - (loop.time() - start)) > 0:
            await asyncio.sleep(min(left, 0.05))  # short steps: pressing f ends the wait
            if session.position != played:
                return  # shown and moved on meanwhile (f)
        if session.position == played and self._waiting():
            self._show()
