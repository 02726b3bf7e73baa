"""Speed of :mod:`thirtyone.sim` against the reference engine, measured in one run (issue: fast simulation).

Prints:

- for each preset, whole games of one policy through the engine and through ``sim.play_games``:
  rounds/s, actions/s and the ratio (target: at least 100x);
- single rounds through ``sim.iter_rounds`` for each policy, 4 players, ``scat`` (target for
  ``basic``: at least 1,000,000 rounds/s on one core);
- memory: the peak resident size of a fresh process that streams 10^5 rounds and of one that
  streams 10^6 (flat: the stream holds one chunk at a time);
- the start of a second process: import, load the cached kernels, play ten rounds (target: under 2 s);
- with ``--numpy``: a vectorised-numpy prototype of one draw-mode turn of the basic policy over a
  batch, the measurement behind the choice of numba (see :mod:`thirtyone.sim`).

Usage: ``python benchmarks/bench_sim.py [--seconds S] [--numpy]``. Figures vary with the machine
and its load; compare the numbers of one run.
"""

from __future__ import annotations

import argparse
import platform
import random
import subprocess
import sys
import time

import numpy as np

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.rules import PRESETS
from thirtyone.scoring import half_points
from thirtyone.sim import RoundTotals
from thirtyone.sim import iter_rounds
from thirtyone.sim import play_games
from thirtyone.sim.api import warm_up
from thirtyone.sim.errors import UnsupportedRulesError
from thirtyone.sim.params import check_covered


def engine_games(rules: Rules, players: int, policy: str, seconds: float) -> tuple[float, float]:
    """Rounds/s and actions/s of whole games through the engine with ``policy`` in every seat."""
    rng = random.Random(1)
    bot = BasicBot(0)
    rounds = actions = 0
    start = time.perf_counter()
    while rounds == 0 or time.perf_counter() - start < seconds:
        game = Game(rules, players, seed=rng.getrandbits(32))
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            legal = game.legal_actions()
            if policy == "basic":
                action = bot.choose(game.view(seat), legal)
            elif policy == "heuristic":
                action = rollout_action(game, seat, legal)
            else:
                action = legal[rng.randrange(len(legal))]
            game.apply(action)
            actions += 1
        rounds += game.round
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def sim_games(rules: Rules, players: int, policy: str, seconds: float) -> tuple[float, float]:
    """Rounds/s and actions/s of whole games through ``sim.play_games``."""
    rounds = actions = seed = 0
    start = time.perf_counter()
    while rounds == 0 or time.perf_counter() - start < seconds:
        batch = play_games(rules, players, policy, range(seed, seed + 4096))
        seed += 4096
        rounds += int(batch.rounds.sum())
        actions += int(batch.actions.sum())
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def sim_rounds(rules: Rules, players: int, policy: str, count: int) -> tuple[float, float]:
    """Rounds/s and actions/s of ``count`` single rounds streamed through ``sim.iter_rounds``."""
    totals = RoundTotals(players)
    start = time.perf_counter()
    for chunk in iter_rounds(rules, players, count, policy, seed=1):
        totals.add(chunk)
    elapsed = time.perf_counter() - start
    return totals.rounds / elapsed, totals.actions / elapsed


_STREAM = (
    "import resource, sys\n"
    "from thirtyone import Rules\n"
    "from thirtyone.sim import RoundTotals, iter_rounds\n"
    "totals = RoundTotals(4)\n"
    "for chunk in iter_rounds(Rules(), 4, int(sys.argv[1]), 'basic', seed=3):\n"
    "    totals.add(chunk)\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
)


def stream_peak_mb(count: int) -> float:
    """Peak resident memory (MB) of a fresh process that streams ``count`` rounds into totals."""
    result = subprocess.run([sys.executable, "-c", _STREAM, str(count)], capture_output=True, text=True, check=True)
    return int(result.stdout.strip()) / 1024


def second_start() -> float:
    """Seconds for a new process to import the simulator, load its cached kernels and play ten rounds."""
    code = "from thirtyone import Rules, sim\nsim.play_rounds(Rules(), 4, rounds=10)\n"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def numpy_turns(batch: int = 100_000, turns: int = 20) -> float:
    """Round-turns/s of a vectorised-numpy prototype of one basic draw-mode turn (draw the pile's
    top card when it helps, else the stock's; discard to the best three, fewest points on ties),
    applied to ``batch`` rounds at once; no knocks, blitz checks, reshuffles or seat rotation."""
    table = np.array(half_points(Rules()), dtype=np.int16).reshape(52, 52, 52)
    points = np.array([(2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)[card >> 2] for card in range(52)])
    rng = np.random.default_rng(1)
    decks = np.argsort(rng.random((batch, 52)), axis=1)
    hands = decks[:, :3].copy()
    top = decks[:, 3].copy()
    pointer = np.full(batch, 4)
    rows = np.arange(batch)
    drop = np.array([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])
    start = time.perf_counter()
    for _ in range(turns):
        a, b, c = hands[:, 0], hands[:, 1], hands[:, 2]
        value = table[a, b, c]
        taking = np.maximum(np.maximum(table[a, b, top], table[a, c, top]), table[b, c, top])
        from_pile = taking > value
        drawn = np.where(from_pile, top, decks[rows, np.minimum(pointer, 51)])
        pointer += ~from_pile
        four = np.concatenate([hands, drawn[:, None]], axis=1)
        kept = np.stack([table[four[:, i], four[:, j], four[:, k]] for i, j, k in drop], axis=1)
        key = kept.astype(np.int64) * 10_000 - points[four] * 100 + four
        key[:, 3] = np.where(from_pile, -(10**9), key[:, 3])  # R4.2: not the card just taken
        out = np.argmax(key, axis=1)
        top = four[rows, out]
        hands = np.stack([four[rows, drop[out, 0]], four[rows, drop[out, 1]], four[rows, drop[out, 2]]], axis=1)
    return batch * turns / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per timed figure (default 3)")
    parser.add_argument("--numpy", action="store_true", help="also time the vectorised-numpy prototype")
    args = parser.parse_args()
    seconds = args.seconds
    start = time.perf_counter()
    warm_up()
    print(f"python {platform.python_version()} on {platform.machine()}, one core, {seconds:g} s per figure")
    print(f"kernels loaded (compiled on a machine's first run) in {time.perf_counter() - start:.2f} s")
    print("whole games, 4 players, basic in every seat:")
    for preset in PRESETS:
        rules = Rules.preset(preset)
        try:
            check_covered(rules)
        except UnsupportedRulesError as error:  # the mini deck (deck=8) is the engine's alone
            print(f"  {preset:<10} {error}")
            continue
        engine = engine_games(rules, 4, "basic", seconds)
        fast = sim_games(rules, 4, "basic", seconds)
        print(
            f"  {preset:<10} engine {engine[0]:9,.0f} rounds/s {engine[1]:11,.0f} actions/s | "
            f"sim {fast[0]:11,.0f} rounds/s {fast[1]:13,.0f} actions/s | {fast[0] / engine[0]:6,.0f}x"
        )
    rules = Rules()
    print("single rounds, 4 players, scat, 1,000,000 rounds streamed:")
    for policy in ("basic", "random", "heuristic"):
        rounds, actions = sim_rounds(rules, 4, policy, 1_000_000)
        note = f"   (target 1,000,000: {rounds / 1e6:.2f}x)" if policy == "basic" else ""
        print(f"  {policy:<10} {rounds:11,.0f} rounds/s {actions:13,.0f} actions/s{note}")
    low, high = stream_peak_mb(100_000), stream_peak_mb(1_000_000)
    print(f"peak resident memory streaming 10^5 rounds: {low:.0f} MB; 10^6 rounds: {high:.0f} MB")
    print(f"second process (import, load the cached kernels, play 10 rounds): {second_start():.2f} s (target < 2 s)")
    if args.numpy:
        rate = numpy_turns()
        print(
            f"vectorised numpy prototype, one basic draw-mode turn over 100,000 rounds: {rate:,.0f} round-turns/s "
            f"(a 4-player scat round is about 10.5 turns: at best {rate / 10.5:,.0f} rounds/s before knocks, "
            "blitzes and reshuffles)"
        )


if __name__ == "__main__":
    main()
