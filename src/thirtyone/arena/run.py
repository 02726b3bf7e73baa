"""Running an arena: cut the schedule into tasks, run them on a backend, and count the results in
``(deal, rotation)`` order as they come back, so that the statistics are the same for any backend
and any number of workers. An interruption (Ctrl-C, or SIGTERM in the command's
:func:`~thirtyone.cli.stopping.stopping`) or a backend failure ends the run early with the
statistics of the games finished so far, marked partial; an interruption waits while a game is
counted (:func:`~thirtyone.arena.interrupts.held`), so that none is counted in part.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass

from thirtyone.arena.backends import Backend
from thirtyone.arena.backends import BackendError
from thirtyone.arena.interrupts import held
from thirtyone.arena.play import GameResult
from thirtyone.arena.play import Task
from thirtyone.arena.schedule import Schedule
from thirtyone.arena.stats import Summary
from thirtyone.arena.stats import Tally
from thirtyone.rules import Rules

__all__ = ["ArenaOutcome", "InOrder", "make_tasks", "run_arena", "MAX_TASK_GAMES", "TASKS_PER_WORKER"]

MAX_TASK_GAMES = 100
"""The most games in one task (a task is the unit of scheduling, progress and loss on failure)."""

TASKS_PER_WORKER = 8
"""Tasks per worker aimed at, so that workers finish together."""


def make_tasks(rules: Rules, schedule: Schedule, seed: int, workers: int, engine: str = "reference") -> list[Task]:
    """The schedule's games cut in order into tasks of at most :data:`MAX_TASK_GAMES` games, about
    :data:`TASKS_PER_WORKER` per worker (tasks never change results, only how work is shared), each
    played by ``engine`` (``"reference"`` or ``"sim"``)."""
    games = schedule.games
    size = max(1, min(MAX_TASK_GAMES, math.ceil(games / (max(1, workers) * TASKS_PER_WORKER))))
    return [
        Task(rules, schedule.bots, seed, start, min(start + size, games), engine) for start in range(0, games, size)
    ]


class InOrder:
    """Feeds results to ``consume`` in ``(deal, rotation)`` order (game index ``deal * players +
    rotation``), holding back those that arrive before their predecessors."""

    def __init__(self, players: int, consume: Callable[[GameResult], None]) -> None:
        self._players = players
        self._consume = consume
        self._waiting: dict[int, GameResult] = {}
        self.next = 0
        """The index of the next game to pass on."""
        self.received = 0
        """Results received so far."""

    def add(self, results: Iterable[GameResult]) -> None:
        """Take results in any order; pass on every one whose predecessors have all been passed on."""
        for result in results:
            self._waiting[result.deal * self._players + result.rotation] = result
            self.received += 1
        while self.next in self._waiting:
            self._consume(self._waiting.pop(self.next))
            self.next += 1

    def flush(self) -> None:
        """Pass on everything held back, in order, skipping the games that never came (a partial run)."""
        for index in sorted(self._waiting):
            self._consume(self._waiting.pop(index))
            self.next = index + 1


@dataclass(frozen=True)
class ArenaOutcome:
    """The end of a run: its ``summary``; ``interrupted`` when Ctrl-C stopped it; ``error`` the
    backend's one-line failure, if any. The summary is partial when either is set."""

    summary: Summary
    interrupted: bool = False
    error: str | None = None

    @property
    def complete(self) -> bool:
        """True when every scheduled game was played."""
        return not self.summary.partial


def run_arena(
    rules: Rules,
    schedule: Schedule,
    seed: int,
    backend: Backend,
    *,
    on_game: Callable[[GameResult], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    engine: str = "reference",
) -> ArenaOutcome:
    """Play every game of ``schedule`` with ``rules`` and arena ``seed`` on a started ``backend``.

    ``on_game(result)`` sees every result in ``(deal, rotation)`` order (for files); ``on_progress(n)``
    is called with the number of games just received (for progress bars). A ``KeyboardInterrupt``
    or a :class:`~thirtyone.arena.backends.BackendError` ends the run early: the outcome then holds
    the statistics of the games received so far, marked partial. Nothing else is caught. ``engine``
    ``"sim"`` plays the games with the compiled simulator (bots ``random`` and ``basic`` only).
    """
    tally = Tally(schedule)

    def consume(result: GameResult) -> None:
        with held():  # counted whole or not at all, whenever Ctrl-C comes
            tally.add(result)
            if on_game is not None:
                on_game(result)

    order = InOrder(schedule.seats, consume)

    def on_results(results: list[GameResult]) -> None:
        order.add(results)
        if on_progress is not None:
            on_progress(len(results))

    workers = backend.start()
    interrupted, error = False, None
    try:
        backend.run(make_tasks(rules, schedule, seed, workers, engine), on_results)
    except KeyboardInterrupt:
        interrupted = True
    except BackendError as failure:
        error = str(failure)
    order.flush()
    partial = interrupted or error is not None or order.received < schedule.games
    return ArenaOutcome(tally.summary(partial=partial), interrupted, error)
