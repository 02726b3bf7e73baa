"""How much a knock decision learned from many positions adds to the expert's, heads-up ``scat``
(issue: a much stronger expert, items 2 and 3).

``bench_expert_regret.py`` found that more than half of the expert's regret is at the knock: it
misses knocks that the seeing search (the true opponent hand in every world) makes. This bench asks
whether that knock can be learned from public information instead of read through the belief's
model of the opponent. It takes every turn decision with a knock among the choices from games of
``expert-v1:150`` against itself (``--games`` games from ``--seed``), and records:

- what the seat sees: its hand's value, the turn, what the opponent did this round (stock draws,
  pile takes, its known cards and their best suit, the pile card it last left and the card it last
  threw, how many suits it threw), the lives, the gains a pile or stock draw promise, whether the
  heuristic knocks, and the belief's worlds' opponent (its mean hand value, its spread, its chance
  to beat the seat's hand; 100 worlds);
- the expert's estimates of each move (``--expert-worlds`` worlds, no time cap) and its move;
- the seeing search's value of each move (``--seeing-worlds`` worlds).

The learned decision knocks when a model of the seeing search's *knock advantage* (its value of
knocking less that of its best draw) says it is positive, and otherwise draws as the expert does.
Where that advantage is a function of the features, a model fitted to it by least squares is the
best knock decision those features allow (each position's seeing value is an unbiased sample of
the knock's worth given the features). Models, fitted and scored on different games (5 folds by
game): a line in the expert's own estimate of the knock's advantage (a recalibration of the
expert), and gradient-boosted trees (scikit-learn's ``HistGradientBoostingRegressor``) on the
public features, on the public features with the expert's estimates, and on everything. Each line
gives the regret against the seeing search (lives a decision; the expert's own move beside it,
paired on the same positions) and how often the model knocks; the first lines give the expert's and
the heuristic's regret and the regret of a decision that knows when to knock (the seeing search's
knock, the expert's draw otherwise), the part of the regret that is the knock's.

The fit needs numpy and scikit-learn (``pip install scikit-learn``; not a dependency of the
project, and the positions are collected without it). ``--cache`` keeps the positions (plain
data, a pickle). Usage: ``python benchmarks/bench_knock_model.py [--games N] [--seed S]
[--jobs N] [--cache PATH] [--expert-worlds W] [--seeing-worlds W]``.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import statistics
import time
from multiprocessing import Pool
from typing import Any

from bench_expert_bounds import SeeingExpert
from bench_expert_regret import interval
from bench_expert_regret import turn_decisions
from thirtyone import Rules
from thirtyone.actions import PILE
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Knock
from thirtyone.bots.belief import Belief
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import sample_position
from thirtyone.bots.hands import best_with
from thirtyone.bots.hands import half_value
from thirtyone.bots.hands import stock_draw_value
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.knowledge import Knowledge
from thirtyone.events import Acted
from thirtyone.events import RoundStarted
from thirtyone.scoring import half_points
from thirtyone.views import PlayerView

RULES = Rules.preset("scat")
TABLE = half_points(RULES)
KNOCK = str(Knock())
DRAWS = ("draw stock", "draw pile")
BELIEF_WORLDS = 100

Row = dict[str, Any]


def features(view: PlayerView) -> dict[str, float]:
    """What the seat of ``view`` sees at its turn, heads-up, as named numbers (points, counts, lives)."""
    seat = view.seat
    opponent = next(other for other in view.active_seats if other != seat)
    knowledge = Knowledge.from_view(view)
    known = knowledge.known[opponent]
    suits: dict[str, int] = {}
    for card in known:
        suits[card.suit] = suits.get(card.suit, 0) + card.points
    stock = pile_takes = 0
    left_points = left_suited = thrown_points = thrown_suited = 0
    pile: list = []
    for event in view.history:
        if isinstance(event, RoundStarted):
            stock = pile_takes = 0
            pile = [] if event.upcard is None else [event.upcard]
        elif isinstance(event, Acted) and isinstance(event.action, Draw):
            from_pile = event.action.source == PILE
            if event.seat == opponent:
                pile_takes += from_pile
                stock += not from_pile
                left = pile[-1] if pile and not from_pile else None
                left_points = left.points if left else 0
                left_suited = int(left is not None and left.suit in suits)
            if from_pile and pile:
                pile.pop()
        elif isinstance(event, Acted) and isinstance(event.action, Discard):
            pile.append(event.action.card)
            if event.seat == opponent:
                thrown_points, thrown_suited = event.action.card.points, int(event.action.card.suit in suits)
    hand = view.hand
    assert hand is not None
    mine = half_value(hand, RULES)
    top = knowledge.pile[-1] if knowledge.pile else None
    rng = random.Random(view.turn)
    complete = Belief(view, knowledge).pools(rng, BELIEF_WORLDS).complete
    theirs = [
        half_value(sample_position(view, knowledge, 0, rng, complete).hands[opponent], RULES) / 2
        for _ in range(BELIEF_WORLDS)
    ]
    return {
        "value": mine / 2,
        "turn": view.turn,
        "opponent_stock_draws": stock,
        "opponent_pile_takes": pile_takes,
        "opponent_known": len(known),
        "opponent_known_best_suit": max(suits.values(), default=0),
        "opponent_left_points": left_points,
        "opponent_left_suited": left_suited,
        "opponent_threw_points": thrown_points,
        "opponent_threw_suited": thrown_suited,
        "opponent_suits_thrown": len({card.suit for card in knowledge.discarded[opponent]}),
        "pile_gain": 0.0 if top is None else (best_with(hand, top, TABLE) - mine) / 2,
        "stock_gain": (stock_draw_value(hand, knowledge.unseen, TABLE) - mine) / 2,
        "remaining": view.seats[seat].remaining,
        "opponent_remaining": view.seats[opponent].remaining,
        "stock_size": view.stock_size,
        "belief_opponent_value": statistics.fmean(theirs),
        "belief_opponent_spread": statistics.pstdev(theirs),
        "belief_opponent_beats": sum(value > mine / 2 for value in theirs) / len(theirs),
    }


def rows_of_game(task: tuple[int, int, int]) -> list[Row]:
    """The decisions of one game of ``expert-v1:150`` against itself where a knock is a choice."""
    game_seed, expert_worlds, seeing_worlds = task
    rows = []
    decision = 0
    for game, view, _ in turn_decisions(game_seed):
        legal = view.legal_actions
        if Knock() in legal:
            decision += 1
            seed = game_seed * 1000 + decision
            analysis = ExpertBot(seed, worlds=expert_worlds, seconds=None).analyse(view, legal)
            seeing = SeeingExpert(seed + 500, None, game, worlds=seeing_worlds).analyse(view, legal)
            rows.append(
                {
                    "game": game_seed,
                    "features": features(view),
                    "heuristic_knocks": HeuristicBot(seed).choose(view, legal) == Knock(),
                    "expert": {str(estimate.action): estimate.mean for estimate in analysis.estimates},
                    "expert_move": str(analysis.best),
                    "seeing": {str(estimate.action): estimate.mean for estimate in seeing.estimates},
                }
            )
    return rows


def knock_advantage(values: dict[str, float]) -> float:
    """The value of knocking less that of the best draw (lives)."""
    return values[KNOCK] - max(value for move, value in values.items() if move != KNOCK)


def regret(row: Row, move: str) -> float:
    return max(row["seeing"].values()) - row["seeing"][move]


def expert_draw(row: Row) -> str:
    """The expert's move where it draws; its best-estimated draw where it knocks."""
    if row["expert_move"] != KNOCK:
        return str(row["expert_move"])
    return max((move for move in row["expert"] if move in DRAWS), key=lambda move: row["expert"][move])


def learned_regret(rows: list[Row], advantages: Any) -> list[float]:
    """The regret of knocking where ``advantages`` (one a row) are positive and drawing as the expert elsewhere."""
    return [
        regret(row, KNOCK if advantage > 0 else expert_draw(row))
        for row, advantage in zip(rows, advantages, strict=True)
    ]


def line(label: str, regrets: list[float], more: str = "") -> None:
    print(f"{label:60} regret {interval(regrets)}{more}", flush=True)


def fit(rows: list[Row]) -> None:
    """Fit and score the models (5 folds by game); print one line each."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingRegressor

    names = list(rows[0]["features"])
    public = np.array([[row["features"][name] for name in names] + [row["heuristic_knocks"]] for row in rows], float)
    estimates = np.array(
        [[knock_advantage(row["expert"])] + [row["expert"].get(move, np.nan) for move in DRAWS] for row in rows], float
    )
    belief_columns = [names.index(name) for name in names if name.startswith("belief_")]
    without_belief = np.delete(public, belief_columns, axis=1)
    target = np.array([knock_advantage(row["seeing"]) for row in rows])
    fold = np.array([row["game"] % 5 for row in rows])
    expert = [regret(row, row["expert_move"]) for row in rows]
    games = len({row["game"] for row in rows})
    print(f"{len(rows)} decisions of {games} games; the seeing search knocks at {np.mean(target > 0):.3f}")
    line("the expert (its own move)", expert)
    heuristic = [1.0 if row["heuristic_knocks"] else -1.0 for row in rows]
    line("the heuristic's knock, the expert's draw", learned_regret(rows, heuristic))
    line("knowing when to knock (the seeing knock, the expert's draw)", learned_regret(rows, target))
    models = {
        "a line in the expert's knock estimate": (estimates[:, :1], "line"),
        "trees on the public features (no belief, no search)": (without_belief, "trees"),
        "trees on the public features and the belief's opponent": (public, "trees"),
        "trees on the public features and the expert's estimates": (np.hstack([without_belief, estimates]), "trees"),
        "trees on everything": (np.hstack([public, estimates]), "trees"),
    }
    for label, (inputs, kind) in models.items():
        predicted = np.zeros(len(rows))
        for k in range(5):
            train, test = fold != k, fold == k
            if kind == "line":
                design = np.hstack([np.ones((len(rows), 1)), inputs])
                weights, *_ = np.linalg.lstsq(design[train], target[train], rcond=None)
                predicted[test] = design[test] @ weights
            else:
                model = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05, min_samples_leaf=40)
                model.fit(inputs[train], target[train])
                predicted[test] = model.predict(inputs[test])
        learned = learned_regret(rows, predicted)
        gain = [a - b for a, b in zip(learned, expert, strict=True)]
        line(label, learned, f", less the expert's {interval(gain)}; knocks at {np.mean(predicted > 0):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default="")
    parser.add_argument("--expert-worlds", type=int, default=200)
    parser.add_argument("--seeing-worlds", type=int, default=600)
    args = parser.parse_args()
    if args.games < 5 or args.jobs < 1 or args.expert_worlds < 2 or args.seeing_worlds < 2:
        parser.error("--games must be at least 5, --jobs at least 1, the worlds at least 2")
    rows: list[Row] = []
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as file:
            rows = pickle.load(file)
    games = {row["game"] for row in rows}
    todo = [seed for seed in range(args.seed, args.seed + args.games) if seed not in games]
    if todo:
        start = time.perf_counter()
        with Pool(args.jobs) as pool:
            for found in pool.imap_unordered(
                rows_of_game, [(seed, args.expert_worlds, args.seeing_worlds) for seed in todo]
            ):
                rows += found
        print(f"{len(todo)} games' decisions valued in {time.perf_counter() - start:.0f} s", flush=True)
        if args.cache:
            with open(args.cache, "wb") as file:
                pickle.dump(rows, file)
    chosen = set(range(args.seed, args.seed + args.games))
    fit([row for row in rows if row["game"] in chosen])


if __name__ == "__main__":
    main()
