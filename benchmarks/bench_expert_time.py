"""The expert's time per decision over whole games at its default budget (issue: bots, item 6).

Plays ``--games`` games of ``--bot`` (default ``expert`` at its default budget: up to 1,000 worlds,
at most 1 s a decision; ``--bot expert-v1:200`` for another) against three ``heuristic`` bots,
4 players, ``scat``, and prints the number of its decisions that needed a search (forced moves
are instant and not counted) with the mean, median, p99 and maximum seconds per decision.

Usage: ``python benchmarks/bench_expert_time.py [--games G] [--seed S] [--bot B]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="expert")
    args = parser.parse_args()
    times: list[float] = []
    for number in range(args.games):
        game = Game(Rules(), 4, seed=args.seed + number)
        bots = [make_bot(args.bot, number)] + [make_bot("heuristic", number * 10 + seat) for seat in (1, 2, 3)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            start = time.perf_counter()
            action = bots[seat].choose(view, view.legal_actions)
            if seat == 0 and len(view.legal_actions) > 1:
                times.append(time.perf_counter() - start)
            game.apply(action)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(
        f"{len(times)} {args.bot} decisions in {args.games} games: mean {statistics.fmean(times):.3f} s, "
        f"median {statistics.median(times):.3f} s, p99 {p99:.3f} s, max {times[-1]:.3f} s"
    )


if __name__ == "__main__":
    main()
