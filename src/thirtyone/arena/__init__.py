"""The arena: a fair, reproducible way to say which bot strategy is better.

Bots play *duplicate* deals: each deal once per rotation of the bot list through the seats, so
every bot plays every seat on the same cards (:mod:`~thirtyone.arena.schedule`). A bot that fails
ends only its game, which is saved for replay (:mod:`~thirtyone.arena.play`). Results are counted
in a fixed order into wins against the fair share with 95% Wilson intervals, places, lives,
knocks and openskill ratings (:mod:`~thirtyone.arena.stats`), on any backend: this process, local
worker processes or Ray (:mod:`~thirtyone.arena.backends`), with the same numbers for the same seed
(:mod:`~thirtyone.arena.run`). :mod:`~thirtyone.arena.report` makes the table and the files.

Ratings (openskill's Plackett-Luce model) are kept per *seat-player*: each entry of the bot list,
which the rotations move through the seats, is one player, and each finished game is one match of
all of them ranked by their places. A bot name's rating is the mean μ of its seat-players with
their root-mean-square σ (:func:`~thirtyone.arena.stats.pooled_rating`): the rating of one seat it
plays, so a name that holds more seats is not favoured (rating each name as one team by its
best-placed seat was: three ``basic`` seats outranked a ``heuristic`` that won above its fair
share with the better mean place). Bots are listed best ordinal (μ − 3σ) first.

>>> from thirtyone.rules import Rules
>>> schedule = make_schedule(["basic", "random"], games=6)
>>> with LocalBackend(jobs=1) as backend:
...     outcome = run_arena(Rules.preset("scat"), schedule, seed=3, backend=backend)
>>> summary = outcome.summary
>>> summary.finished, summary.partial, sum(bot.wins for bot in summary.bots)
(6, False, 6)
"""

from __future__ import annotations

from thirtyone.arena.backends import Backend
from thirtyone.arena.backends import BackendError
from thirtyone.arena.backends import LocalBackend
from thirtyone.arena.backends import RayBackend
from thirtyone.arena.backends import make_backend
from thirtyone.arena.backends import worker_count
from thirtyone.arena.play import Failure
from thirtyone.arena.play import GameResult
from thirtyone.arena.play import Task
from thirtyone.arena.play import play_game_safely
from thirtyone.arena.play import play_safely
from thirtyone.arena.play import play_task
from thirtyone.arena.run import ArenaOutcome
from thirtyone.arena.run import run_arena
from thirtyone.arena.schedule import ArenaError
from thirtyone.arena.schedule import Schedule
from thirtyone.arena.schedule import bot_seed
from thirtyone.arena.schedule import deal_seed
from thirtyone.arena.schedule import make_schedule
from thirtyone.arena.schedule import seating
from thirtyone.arena.stats import BotStats
from thirtyone.arena.stats import Rating
from thirtyone.arena.stats import Summary
from thirtyone.arena.stats import Tally
from thirtyone.arena.stats import pooled_rating
from thirtyone.arena.stats import summarize
from thirtyone.arena.stats import wilson_interval

__all__ = [
    "ArenaError",
    "ArenaOutcome",
    "Backend",
    "BackendError",
    "BotStats",
    "Failure",
    "GameResult",
    "LocalBackend",
    "RayBackend",
    "Rating",
    "Schedule",
    "Summary",
    "Tally",
    "Task",
    "bot_seed",
    "deal_seed",
    "make_backend",
    "make_schedule",
    "play_game_safely",
    "play_safely",
    "play_task",
    "pooled_rating",
    "run_arena",
    "seating",
    "summarize",
    "wilson_interval",
    "worker_count",
]
