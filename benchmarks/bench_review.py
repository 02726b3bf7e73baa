"""The review's time (issue 32 item 1): ``thirtyone review`` of a 10-round four-player game at the
default budget, every seat, on one core (the issue asks for at most 30 s).

The game is the first from ``--seed`` on whose four ``heuristic`` bots play ``scat`` for exactly
``--rounds`` rounds (10). The compiled rollouts are loaded first and timed apart (a first run on a
machine compiles them: about half a minute); then the record is reviewed, every seat, at
``--budget`` (the review's default) and the seconds, decisions and seconds a decision are printed.
The process is pinned to one core where the system allows it.

Usage: ``python benchmarks/bench_review.py [--seed S] [--rounds R] [--budget B]``.
"""

from __future__ import annotations

import argparse
import os
import time

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.review import DEFAULT_WORLDS
from thirtyone.bots.review import Reviewer
from thirtyone.bots.runner import play_game
from thirtyone.cli.review import budget_from_text
from thirtyone.record import GameRecord


def game_of(rounds: int, seed: int) -> tuple[Game, int]:
    """The first game from ``seed`` on that lasts exactly ``rounds`` rounds, and its seed."""
    while True:
        bots = [make_bot("heuristic", seed * 10 + seat) for seat in range(4)]
        game = play_game(Rules.preset("scat"), bots, seed=seed)
        if len(game.round_logs) == rounds:
            return game, seed
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--budget", default=str(DEFAULT_WORLDS))
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    worlds, seconds, rollouts = budget_from_text(args.budget)
    game, seed = game_of(args.rounds, args.seed)
    record = GameRecord.from_game(game, ["Ann", "Ben", "Cy", "Dee"])
    start = time.perf_counter()
    warm = Reviewer(record, worlds=2, rollouts=rollouts)  # its first decision loads (or compiles) the kernels
    next(warm.decisions())
    loaded = time.perf_counter() - start
    reviewer = Reviewer(record, worlds=worlds, seconds=seconds, rollouts=rollouts)
    start = time.perf_counter()
    for _ in reviewer.decisions():
        pass
    took = time.perf_counter() - start
    review = reviewer.review()
    accuracy = ", ".join(f"{review.names[s.seat]} {s.accuracy:.0%}" for s in review.summaries if s.accuracy is not None)
    print(
        f"game seed {seed}: {args.rounds} rounds, 4 players, {reviewer.total} decisions; "
        f"kernels loaded in {loaded:.1f} s\n"
        f"review at budget {args.budget}: {took:.1f} s on one core, {took / reviewer.total * 1000:.0f} ms a decision "
        f"(accuracy {accuracy})"
    )


if __name__ == "__main__":
    main()
