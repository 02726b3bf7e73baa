"""The judge's hint's time (issue 43, item 2: hints at once, under 50 ms): every decision with a
choice (more than one legal move, not a look, R6.6) of ``--games`` games of ``heuristic`` bots, for
each preset the judge plays and each table size, answered by :func:`thirtyone.bots.work.judge_hint`
(timed even where the judge may not show its values yet, :func:`~thirtyone.bots.work.judge_refuses`:
the line says so).

Prints, for each preset and table size, the decisions met and the hint's milliseconds — mean,
p99 and maximum — both by the clock (``wall``: what a person waits, on a busy machine too) and as
this process's processor time (``cpu``: the work itself, however busy the machine is); then the
same for its two parts, the judge's values (:meth:`~thirtyone.bots.judge.JudgeBot.values`, exact
on a last turn after a knock) and the belief's reads of the opponents
(:func:`~thirtyone.bots.expert.belief_reads`, ``--reads`` worlds; the hint reads
:data:`~thirtyone.bots.expert.READ_WORLDS`); and the whole run's figures. The first hint of the
run (the weights read from disk) is not counted.

Usage: ``python benchmarks/bench_hint.py [--games G] [--seed S] [--players 2,3,4] [--reads W]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.expert import READ_WORLDS
from thirtyone.bots.expert import belief_reads
from thirtyone.bots.judge import JudgeBot
from thirtyone.bots.work import READ_SEED
from thirtyone.bots.work import judge_hint
from thirtyone.bots.work import judge_refuses
from thirtyone.views import Phase
from thirtyone.views import PlayerView

PRESETS = ("scat", "widow", "schwimmen", "mini")


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Seconds ``work`` took by the clock and in this process's processor time."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"mean {1000 * statistics.fmean(ordered):5.1f}  p99 {1000 * p99:5.1f}  max {1000 * ordered[-1]:5.1f}"


def decisions(preset: str, players: int, games: int, seed: int) -> list[PlayerView]:
    """Every decision with a choice of ``games`` games of heuristic bots (seeds from ``seed``)."""
    views = []
    for number in range(games):
        game = Game(Rules.preset(preset), players, seed=seed + number)
        bots = [make_bot("heuristic", number * 10 + seat) for seat in range(players)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            if len(view.legal_actions) > 1 and view.phase is not Phase.LOOK:
                views.append(view)
            game.apply(bots[seat].choose(view, view.legal_actions))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--reads", type=int, default=READ_WORLDS, help="worlds of the belief timed for the reads")
    args = parser.parse_args()
    judge = JudgeBot()
    everything: dict[str, list[float]] = {"wall": [], "cpu": []}
    first = True
    for preset in PRESETS:
        for players in (int(text) for text in args.players.split(",")):
            why = judge.cannot_play(Rules.preset(preset), players)
            if why is not None:
                print(f"{preset} {players} players: no judge's hint ({why})")
                continue
            shown = judge_refuses(Rules.preset(preset), players)
            if shown is not None:  # timed all the same: the judge's cost, whatever its weights' error
                print(f"{preset} {players} players: the expert hints there for now ({shown})")
            times: dict[str, list[float]] = {name: [] for name in ("wall", "cpu", "values", "reads")}
            for view in decisions(preset, players, args.games, args.seed):
                if first:  # the weights are read from disk once a process
                    judge_hint(view)
                    first = False
                wall, cpu = timed(lambda: judge_hint(view))  # noqa: B023 (called at once)
                times["wall"].append(wall)
                times["cpu"].append(cpu)
                times["values"].append(timed(lambda: judge.values(view))[1])  # noqa: B023
                reads = timed(lambda: belief_reads(view, random.Random(READ_SEED), args.reads))[1]  # noqa: B023
                times["reads"].append(reads)
            if not times["wall"]:
                print(f"{preset} {players} players: no decision with a choice")
                continue
            everything["wall"] += times["wall"]
            everything["cpu"] += times["cpu"]
            print(
                f"{preset} {players} players: {len(times['wall'])} hints (ms)\n"
                f"    wall {figures(times['wall'])}\n     cpu {figures(times['cpu'])}\n"
                f"  values {figures(times['values'])}   (cpu)\n"
                f"   reads {figures(times['reads'])}   (cpu, {args.reads} worlds)"
            )
    print(
        f"all: {len(everything['wall'])} hints (ms)\n    wall {figures(everything['wall'])}\n"
        f"     cpu {figures(everything['cpu'])}"
    )


if __name__ == "__main__":
    main()
