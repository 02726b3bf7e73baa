"""How far a bot's decisions are from those of the expert that sees the opponents' hands, heads-up
``scat`` (issue: a much stronger expert, items 2 and 3): a measure of a bot's play on fixed
positions, many times less noisy than a match.

``bench_expert_bounds.py`` showed that the expert's search, given the opponent's true hand at the
turn's decision (knock, or draw from the stock or the pile), wins two games in three against
``expert-v1``: what the expert lacks is what it knows of the opponent's hand. This bench takes
positions at those decisions from games of ``expert-v1`` against itself (``--positions``; the seats
at their turn with a choice), values every legal move there with the *seeing* search (the true
opponent hand in every world, the stock unknown; ``--seeing-worlds`` worlds, no time cap), and
then, for each bot of ``--bots``, asks it for its move and scores its *regret*: the seeing value of
the best move less that of its move, in lives (the expert's utility). A bot whose regret is lower
plays nearer to the seeing expert. It prints, per bot, the mean regret with its 95% interval, the
share of positions where it plays the seeing expert's move, the regret where the seeing expert
knocks and where it draws, how often the bot knocks where the heuristic would, and, for an expert,
how far its estimate of knocking rather than drawing lies from the seeing search's on average (a
belief that misjudges the opponent's strength misjudges it). ``seeing:0.05s`` in ``--bots`` is the
seeing search itself at that budget: the floor of the regret, the noise of a short search. The
positions and their values are kept in ``--cache`` (a pickle), so that bots can be set beside each
other on the same positions in later runs.

Usage: ``python benchmarks/bench_expert_regret.py [--positions N] [--bots expert:0.05s,expert-v1:0.05s]
[--seeing-worlds W] [--seed S] [--jobs N] [--cache PATH]``.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool

from bench_expert_bounds import SeeingExpert
from thirtyone import Game
from thirtyone import Rules
from thirtyone.actions import Action
from thirtyone.actions import Knock
from thirtyone.bots import make_bot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.sim.rng import CounterChance
from thirtyone.views import Phase
from thirtyone.views import PlayerView


@dataclass(frozen=True)
class Spot:
    """A position: the game at a seat's turn, and the seeing search's value of each legal move."""

    game: Game
    seat: int
    values: dict[str, float]

    @property
    def best(self) -> str:
        return max(self.values, key=lambda action: self.values[action])


def turn_decisions(game_seed: int) -> Iterator[tuple[Game, PlayerView, int]]:
    """The turn decisions with a choice of one game of ``expert-v1:150`` against itself, heads-up
    ``scat``: the game (before the move), the seat's view and the decision's number from 1."""
    game = Game(Rules.preset("scat"), 2, chance=CounterChance(game_seed))
    bots = [make_bot("expert-v1:150", game_seed * 10 + seat) for seat in range(2)]
    decision = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        if view.phase is Phase.TURN and len(view.legal_actions) > 1:
            decision += 1
            yield game, view, decision
        game.apply(bots[seat].choose(view, view.legal_actions))


def spots_of_game(task: tuple[int, int, int]) -> list[Spot]:
    """The positions of one game of ``expert-v1`` against itself, each valued by the seeing search."""
    game_seed, every, seeing_worlds = task
    spots = []
    for game, view, decision in turn_decisions(game_seed):
        if decision % every == 0:
            seeing = SeeingExpert(game_seed * 100 + decision, None, game, worlds=seeing_worlds)
            analysis = seeing.analyse(view, view.legal_actions)
            values = {str(estimate.action): estimate.mean for estimate in analysis.estimates}
            spots.append(Spot(game.copy(), view.seat, values))
    return spots


@dataclass(frozen=True)
class Score:
    """One bot at one position: its regret (lives), whether it played the seeing expert's move,
    whether the seeing expert and the heuristic knock there and whether the bot did, and for a bot
    that estimates its moves (the experts) how far its estimate of knocking rather than its best
    draw lies from the seeing search's (lives; ``None`` without a knock or an estimate)."""

    regret: float
    agrees: bool
    seeing_knocks: bool
    heuristic_knocks: bool
    knocks: bool
    knock_bias: float | None


_KNOCK = str(Knock())


def score_of(task: tuple[str, int, Spot]) -> Score:
    """A bot's :class:`Score` at one position."""
    name, seed, spot = task
    view = spot.game.view(spot.seat)
    legal = view.legal_actions
    bot = (
        SeeingExpert(seed, float(name[7:].removesuffix("s")), spot.game)
        if name.startswith("seeing:")
        else make_bot(name, seed)
    )
    bias = None
    if isinstance(bot, ExpertBot):
        analysis = bot.analyse(view, legal)
        action: Action = analysis.best
        estimates = {str(estimate.action): estimate.mean for estimate in analysis.estimates}
        if _KNOCK in estimates:
            seen = spot.values
            draws = [move for move in estimates if move != _KNOCK]
            mine = estimates[_KNOCK] - max(estimates[move] for move in draws)
            bias = mine - (seen[_KNOCK] - max(seen[move] for move in draws))
    else:
        action = bot.choose(view, legal)
    best = spot.best
    heuristic = str(HeuristicBot(seed).choose(view, legal))
    return Score(
        spot.values[best] - spot.values[str(action)],
        str(action) == best,
        best == _KNOCK,
        heuristic == _KNOCK,
        str(action) == _KNOCK,
        bias,
    )


def interval(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.4f} ± {half:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--bots", default="expert:0.05s,expert-v1:0.05s,heuristic")
    parser.add_argument("--seeing-worlds", type=int, default=2000)
    parser.add_argument("--every", type=int, default=3, help="take every n-th turn decision of a game (default 3)")
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default="")
    args = parser.parse_args()
    if args.positions < 2 or args.seeing_worlds < 2 or args.jobs < 1 or args.every < 1:
        parser.error("--positions and --seeing-worlds must be at least 2, --jobs and --every at least 1")
    spots: list[Spot] = []
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as file:
            spots = pickle.load(file)
    if len(spots) < args.positions:
        start = time.perf_counter()
        seed = args.seed + len(spots) * 1000
        with Pool(args.jobs) as pool:
            while len(spots) < args.positions:
                tasks = [(seed + i, args.every, args.seeing_worlds) for i in range(args.jobs * 2)]
                seed += len(tasks)
                for found in pool.map(spots_of_game, tasks):
                    spots += found
        print(f"{len(spots)} positions valued in {time.perf_counter() - start:.0f} s", flush=True)
        if args.cache:
            with open(args.cache, "wb") as file:
                pickle.dump(spots, file)
    spots = spots[: args.positions]
    knocks = sum(spot.best == str(Knock()) for spot in spots)
    print(f"{len(spots)} positions, the seeing expert knocks at {knocks}")
    with Pool(args.jobs) as pool:
        for name in args.bots.split(","):
            start = time.perf_counter()
            scores = pool.map(score_of, [(name, 1000 + i, spot) for i, spot in enumerate(spots)])
            agree = sum(score.agrees for score in scores) / len(scores)
            at_knock = [score.regret for score in scores if score.seeing_knocks]
            at_draw = [score.regret for score in scores if not score.seeing_knocks]
            bar = [score.knocks for score in scores if score.heuristic_knocks]
            biases = [score.knock_bias for score in scores if score.knock_bias is not None]
            print(
                f"{name:18} regret {interval([score.regret for score in scores])}  agrees {agree:.3f}  "
                f"(where the seeing expert knocks {interval(at_knock)}, draws {interval(at_draw)}); "
                f"knocks at {sum(bar)} of the {len(bar)} where the heuristic knocks; "
                f"knock's advantage over its best draw misjudged by {interval(biases)}  "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
