"""Bot strength, measured on duplicate deals with the arena (issue: bots that play well, item 5).

For each ruleset, the stronger bot plays against copies of the weaker one: ``heuristic`` against
three ``basic`` (or one, heads-up) and ``expert`` against ``heuristic``. Each line gives the
stronger bot's win share, its 95% Wilson interval and the fair share, its mean place and where the
arena's rating ranks it; the target is an interval entirely above the fair share (and rank 1).

Usage: ``python benchmarks/bench_strength.py [--games G] [--expert-games G] [--expert expert:40]
[--jobs N] [--only heuristic|expert]``. Expert games are slow (every expert decision samples worlds
and plays the round out in each), so they get their own, smaller count.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any
from typing import NamedTuple

CONFIGS = [("scat", 4), ("widow", 4), ("schwimmen", 4), ("scat", 2)]


class ArenaResult(NamedTuple):
    """The strong bot's row of the arena's summary, its rank by rating (1: best) among the
    ``rated`` bots, the games finished and the seconds the run took."""

    row: dict[str, Any]
    rank: int
    rated: int
    games: int
    seconds: float


def arena_row(preset: str, players: int, strong: str, weak: str, games: int, jobs: int, seed: int) -> ArenaResult:
    """``strong`` against ``players - 1`` copies of ``weak`` on duplicate deals (``thirtyone arena
    --json``)."""
    bots = ",".join([strong] + [weak] * (players - 1))
    command = [sys.executable, "-m", "thirtyone", "arena", "--bots", bots, "--players", str(players)]
    command += ["--games", str(games), "--preset", preset, "--jobs", str(jobs), "--seed", str(seed), "--json"]
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    summary = json.loads(output)
    names = [bot["bot"] for bot in summary["results"]]  # best rating first
    return ArenaResult(
        summary["results"][names.index(strong)], names.index(strong) + 1, len(names), summary["games_finished"], seconds
    )


def measure(preset: str, players: int, strong: str, weak: str, games: int, jobs: int, seed: int) -> str:
    row, rank, rated, finished, seconds = arena_row(preset, players, strong, weak, games, jobs, seed)
    low, high = row["win_share_low"], row["win_share_high"]
    verdict = "above fair share" if low > row["fair_share"] else "NOT significant"
    return (
        f"{preset:<9} {players}p  {strong:>12} vs {weak:<9} {finished:>5} games  "
        f"share {row['win_share']:.3f}  95% [{low:.3f}, {high:.3f}]  fair {row['fair_share']:.3f}  "
        f"{verdict}  place {row['mean_place']:.2f}  rated {rank} of {rated}  ({seconds:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--expert-games", type=int, default=200)
    parser.add_argument("--expert", default="expert:40", help="the expert and its budget (default expert:40)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["heuristic", "expert"], default=None)
    args = parser.parse_args()
    for preset, players in CONFIGS:
        if args.only in (None, "heuristic"):
            print(measure(preset, players, "heuristic", "basic", args.games, args.jobs, args.seed), flush=True)
        if args.only in (None, "expert"):
            print(
                measure(preset, players, args.expert, "heuristic", args.expert_games, args.jobs, args.seed), flush=True
            )


if __name__ == "__main__":
    main()
