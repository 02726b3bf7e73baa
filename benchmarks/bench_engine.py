"""Engine speed, measured in one run (issue: rules engine, item 8).

Prints:
- random legal play through the public API (``legal_actions`` + ``apply``), 4 players, ``scat``,
  in rounds/s and actions/s (target: at least 5,000 rounds/s on one core);
- the same for each preset, and with a ``view()`` of the mover before each action (what a bot pays);
- ``copy()`` of games in the middle of a round, copies/s (what a search pays per world);
- ``hand_value`` evaluations/s (target: at least 1,000,000);
- whole games/s of four ``basic`` bots.

Usage: ``python benchmarks/bench_engine.py [--seconds S]``. Figures vary with the machine; compare
numbers taken in the same run.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import time

from thirtyone import Game
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import hand_value
from thirtyone.bots import make_bot
from thirtyone.bots.runner import play_game


def random_play(rules: Rules, players: int, seconds: float, with_view: bool = False) -> tuple[float, float]:
    """Rounds/s and actions/s of uniformly random legal play for about ``seconds``."""
    rng = random.Random(1)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(rules, players, seed=rng.getrandbits(32))
        while not game.is_over:
            if with_view:
                game.view(game.current_seat or 0)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
        rounds += game.round
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def copies(seconds: float) -> float:
    """``Game.copy()`` calls per second, of 4-player scat games a dozen actions into a round."""
    rng = random.Random(2)
    games = []
    for seed in range(20):
        game = Game(Rules(), 4, seed=seed)
        for _ in range(12):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        games.append(game)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for game in games:
            game.copy()
        calls += len(games)
    return calls / (time.perf_counter() - start)


def hand_values(seconds: float) -> float:
    """``hand_value`` calls per second over all 22,100 hands, scat rules."""
    hands = list(itertools.combinations(full_deck(), 3))
    rules = Rules()
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for hand in hands:
            hand_value(hand, rules)
        calls += len(hands)
    return calls / (time.perf_counter() - start)


def basic_games(seconds: float) -> float:
    """Whole games/s of four ``basic`` bots, scat."""
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(Rules(), [make_bot("basic", games * 4 + seat) for seat in range(4)], seed=games)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    seconds = parser.parse_args().seconds
    print(f"python {platform.python_version()} on {platform.machine()}, one core, {seconds:g} s per figure")
    rounds, actions = random_play(Rules(), 4, seconds)
    print(
        f"random play, scat, 4 players:            {rounds:10,.0f} rounds/s {actions:12,.0f} actions/s"
        f"   (target 5,000 rounds/s: {rounds / 5000:.1f}x)"
    )
    for preset in ("widow", "namu", "schwimmen"):
        rounds, actions = random_play(Rules.preset(preset), 4, seconds / 2)
        label = f"random play, {preset}, 4 players:"
        print(f"{label:<41}{rounds:10,.0f} rounds/s {actions:12,.0f} actions/s")
    rounds, actions = random_play(Rules(), 4, seconds, with_view=True)
    print(f"random play + view() per action, scat:   {rounds:10,.0f} rounds/s {actions:12,.0f} actions/s")
    print(f"copy() in mid-round, scat, 4 players:     {copies(seconds):10,.0f} copies/s")
    evals = hand_values(seconds)
    print(
        f"hand_value:                              {evals:10,.0f} evaluations/s"
        f"   (target 1,000,000: {evals / 1e6:.1f}x)"
    )
    print(f"basic bots, scat, 4 players:             {basic_games(seconds):10,.0f} games/s")


if __name__ == "__main__":
    main()
