"""Speed of the heuristic policy where it is played: the ``heuristic`` bot on views, the expert's
rollouts on the engine (:func:`~thirtyone.bots.heuristic.rollout_action`), and the expert's search
with either kind of rollout, measured in one run (issue: a much stronger expert, item 1).

Prints, for ``scat`` and ``widow`` (4 players):

- whole games/s of four ``heuristic`` bots (each move a ``PlayerView`` and ``HeuristicBot.choose``),
  and their decisions/s;
- rounds/s of rounds played out on the engine with ``rollout_action`` in every seat from positions
  taken in the middle of rounds (what ``expert:N:engine`` does in each sampled world), and decisions/s;
- ms per decision of ``expert:40:engine`` and of ``expert:200`` (simulator rollouts, when numba is
  installed) over a fixed set of views, deterministic budgets (no time cap).

Every figure is the best of ``--repeat`` measurements of ``--seconds`` of this process's CPU time
each (CPU time, and the best: the figures least disturbed by other load on the machine).

Usage: ``python benchmarks/bench_bots.py [--seconds S] [--repeat R]``. Figures vary with the
machine; compare the numbers of one run (or of two trees run one after the other:
``PYTHONPATH=OTHER/src python benchmarks/bench_bots.py``).
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.position import Position
from thirtyone.views import PlayerView


def best_of(repeat: int, measure: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    """The highest rates of ``repeat`` measurements."""
    runs = [measure() for _ in range(repeat)]
    return max(run[0] for run in runs), max(run[1] for run in runs)


def heuristic_games(rules: Rules, seconds: float) -> tuple[float, float]:
    """Games/s and decisions/s of four ``HeuristicBot`` through views."""
    games = decisions = 0
    start = time.process_time()
    while games == 0 or time.process_time() - start < seconds:
        game = Game(rules, 4, seed=games)
        bots = [HeuristicBot(games * 4 + seat) for seat in range(4)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            game.apply(bots[seat].choose(view, view.legal_actions))
            decisions += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def mid_round_positions(rules: Rules, count: int) -> list[Position]:
    """Positions a few turns into rounds of 4-player games played by the heuristic."""
    rng = random.Random(7)
    positions: list[Position] = []
    while len(positions) < count:
        game = Game(rules, 4, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 16)):
            seat = game.current_seat
            assert seat is not None
            game.apply(rollout_action(game, seat, game.legal_actions()))
            if game.round > 1 or game.is_over:
                break
        if game.round == 1 and not game.is_over:
            positions.append(game.position())
    return positions


def rollouts(positions: list[Position], seconds: float) -> tuple[float, float]:
    """Rounds/s and decisions/s of rounds played out from ``positions`` with ``rollout_action``."""
    rounds = decisions = 0
    start = time.process_time()
    while rounds == 0 or time.process_time() - start < seconds:
        for index, position in enumerate(positions):
            game = Game.from_position(position, seed=index, rounds=1)
            log = game.round_logs[0]
            while log.result is None:
                seat = game.current_seat
                assert seat is not None
                game.apply(rollout_action(game, seat, game.legal_actions()))
                decisions += 1
            rounds += 1
    elapsed = time.process_time() - start
    return rounds / elapsed, decisions / elapsed


def decision_views(rules: Rules, count: int) -> list[PlayerView]:
    """Views of seat 0 with more than one legal action, from heuristic games."""
    rng = random.Random(11)
    views: list[PlayerView] = []
    while len(views) < count:
        game = Game(rules, 4, seed=rng.getrandbits(32))
        while not game.is_over and len(views) < count:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            if seat == 0 and len(view.legal_actions) > 1 and rng.random() < 0.3:
                views.append(view)
            game.apply(rollout_action(game, seat, game.legal_actions()))
    return views


def expert_ms(spec: str, views: list[PlayerView], seconds: float) -> tuple[float, float]:
    """Milliseconds per decision of ``spec`` over ``views`` (as a rate pair: decisions/s, and 0)."""
    bot = make_bot(spec, 1)
    assert isinstance(bot, ExpertBot)
    bot.seconds = None  # the worlds alone: deterministic work
    bot.choose(views[0], views[0].legal_actions)  # loads the simulator's rollout kernel first
    done = 0
    start = time.process_time()
    while done == 0 or time.process_time() - start < seconds:
        for view in views:
            bot.choose(view, view.legal_actions)
            done += 1
    return done / (time.process_time() - start), 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per figure, the best kept (default 3)")
    args = parser.parse_args()
    seconds, repeat = args.seconds, args.repeat
    print(f"python {platform.python_version()} on {platform.machine()}, one core, best of {repeat} x {seconds:g} s")
    try:
        from thirtyone import sim

        with_sim = sim.available()
        if with_sim:
            sim.api.warm_up()
    except ImportError:
        with_sim = False
    for preset in ("scat", "widow"):
        rules = Rules.preset(preset)
        games, decisions = best_of(repeat, lambda rules=rules: heuristic_games(rules, seconds))
        print(f"{preset:<6} heuristic bots, 4 players:     {games:8,.1f} games/s  {decisions:10,.0f} decisions/s")
        positions = mid_round_positions(rules, 200)
        rounds, decisions = best_of(repeat, lambda positions=positions: rollouts(positions, seconds))
        print(f"{preset:<6} engine rollouts (rollout_action): {rounds:6,.0f} rounds/s {decisions:10,.0f} decisions/s")
        views = decision_views(rules, 20)
        specs = ["expert:40:engine"] + (["expert:200"] if with_sim else [])
        for spec in specs:
            rate, _ = best_of(repeat, lambda spec=spec, views=views: expert_ms(spec, views, seconds))
            print(f"{preset:<6} {spec:<17} {1000 / rate:22.1f} ms/decision")


if __name__ == "__main__":
    main()
