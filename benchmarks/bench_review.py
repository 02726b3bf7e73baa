"""The review's time (issue 32 item 1, issue 43 item 3): ``thirtyone review`` of a 10-round
four-player game, every seat, on one core — valued by the judge (the default: the issue asks for
under 1 s) or, with ``--valuer expert``, by the expert at the default budget (issue 32 asked for at
most 30 s).

The game is the first from ``--seed`` on whose four ``heuristic`` bots play ``scat`` for exactly
``--rounds`` rounds (10). What the first decision loads is timed apart (the judge's weights; the
expert's compiled rollouts, which a first run on a machine compiles: about half a minute); then the
record is reviewed, every seat, by ``--valuer`` (the expert at ``--budget``, the review's default)
and the seconds (on the clock, and the process's own CPU time: the same on an idle machine, less
on a busy one), decisions, milliseconds a decision and the decisions by the source of their values
are printed. The process is pinned to one core where the system allows it.

The judge values only where its weights' values were measured accurate enough
(:meth:`~thirtyone.bots.judge.JudgeBot.cannot_value`; else the expert does, and the line says why);
``--assume-checked`` times the judge's review as it will be with weights that pass, by stamping a
check on the shipped ones in this process (its values, not their accuracy, are what is timed).

Usage: ``python benchmarks/bench_review.py [--seed S] [--rounds R] [--valuer judge|expert] [--budget B]
[--assume-checked]``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.judge import VALUE_ERROR_BAR
from thirtyone.bots.judge import shipped_judge
from thirtyone.bots.review import DEFAULT_WORLDS
from thirtyone.bots.review import VALUERS
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
    parser.add_argument("--valuer", choices=VALUERS, default=VALUERS[0])
    parser.add_argument("--budget", default=str(DEFAULT_WORLDS))
    parser.add_argument("--assume-checked", action="store_true", help="time the judge as if its values passed")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    worlds, seconds, rollouts = budget_from_text(args.budget)
    if args.assume_checked:
        shipped_judge().meta["value_check"] = {"gap_rmse": VALUE_ERROR_BAR, "positions": 0, "command": "assumed"}
    game, seed = game_of(args.rounds, args.seed)
    record = GameRecord.from_game(game, ["Ann", "Ben", "Cy", "Dee"])
    start = time.perf_counter()
    warm = Reviewer(record, worlds=2, rollouts=rollouts, valuer=args.valuer)  # loads the weights or the kernels
    next(warm.decisions())
    loaded = time.perf_counter() - start
    reviewer = Reviewer(record, worlds=worlds, seconds=seconds, rollouts=rollouts, valuer=args.valuer)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in reviewer.decisions():
        pass
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    review = reviewer.review()
    accuracy = ", ".join(f"{review.names[s.seat]} {s.accuracy:.0%}" for s in review.summaries if s.accuracy is not None)
    sources = Counter(decision.source for decision in review.decisions)
    by = ", ".join(f"{count} {source}" for source, count in sources.most_common())
    valuer = "the judge" if review.valuer == "judge" else f"the expert at budget {args.budget}"
    if review.fallback is not None:
        valuer += f" ({review.fallback})"
    print(
        f"game seed {seed}: {args.rounds} rounds, 4 players, {reviewer.total} decisions ({by}); "
        f"first decision (loading) {loaded:.1f} s\n"
        f"review by {valuer}: {took:.2f} s on one core ({cpu:.2f} s of its time), "
        f"{took / reviewer.total * 1000:.1f} ms a decision (accuracy {accuracy})"
    )


if __name__ == "__main__":
    main()
