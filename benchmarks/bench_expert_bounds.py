"""How far the expert's kind of search can go against ``expert-v1``: two bounds, heads-up ``scat``
on the arena's duplicate deals (issue: a much stronger expert, items 2 to 4).

- **Perfect inference.** ``seeing``: the expert whose worlds deal every opponent its true hand
  (the stock stays unknown). No belief can read the opponents better, so its share is the most
  that better inference can give this search at the same time a decision.
- **More time.** ``expert`` at ``--times`` times the time a decision of ``expert-v1``: what a
  faster implementation of the same search (more worlds at the same budget) could give.
- **Where inference pays.** ``seeing-turns``: the true hands only at the turn's decision (knock,
  or draw from the stock or the pile), the belief's worlds at the discard.

The deals and bot seeds are those of ``thirtyone arena --seed S`` (:func:`deal_seed`,
:func:`bot_seed`), so a line can be set beside an arena run on the same deals. Budgets are
time: run it on an otherwise idle machine. Usage: ``python benchmarks/bench_expert_bounds.py
[--games N] [--seconds S] [--times K] [--seed S] [--jobs N] [--only 1,2]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from multiprocessing import Pool

from thirtyone import Game
from thirtyone import Rules
from thirtyone.arena.schedule import bot_seed
from thirtyone.arena.schedule import deal_seed
from thirtyone.arena.schedule import seating
from thirtyone.arena.stats import wilson_interval
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.expert import DEFAULT_WORLDS
from thirtyone.bots.expert import Completion
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.knowledge import Knowledge
from thirtyone.cards import Card
from thirtyone.sim.rng import CounterChance
from thirtyone.views import Phase
from thirtyone.views import PlayerView


class SeeingExpert(ExpertBot):
    """The expert with the opponents' true hands in every world (it reads them from ``game``);
    with ``turns_only``, only at the turn's decision (knock or draw), and its own belief's worlds
    at the discard."""

    name = "seeing"

    def __init__(
        self, seed: int, seconds: float | None, game: Game, turns_only: bool = False, worlds: int = DEFAULT_WORLDS
    ) -> None:
        super().__init__(seed, worlds=worlds, seconds=seconds)
        self.game = game
        self.turns_only = turns_only

    def _completion(self, view: PlayerView, knowledge: Knowledge) -> Completion | None:
        if self.turns_only and view.phase is Phase.DISCARD:
            return super()._completion(view, knowledge)
        hands = self.game.position().hands

        def complete(
            seat: int, known: tuple[Card, ...], unseen: list[Card], rng: random.Random
        ) -> tuple[tuple[Card, ...], list[Card]]:
            hand = hands[seat]
            return hand, [card for card in unseen if card not in hand]

        return complete


Task = tuple[str, tuple[str, ...], int, int, int]


def play(task: Task) -> bool:
    """Whether the first bot of the list won game ``(deal, rotation)``."""
    preset, bots, seed, deal, rotation = task
    names = seating(bots, rotation)
    game = Game(Rules.preset(preset), len(names), chance=CounterChance(deal_seed(seed, deal)))
    players: list[Bot] = []
    for index, name in enumerate(names):
        bot_name, _, budget = name.partition(":")
        seat_seed = bot_seed(seed, deal, rotation, index)
        if bot_name in ("seeing", "seeing-turns"):
            players.append(SeeingExpert(seat_seed, float(budget.removesuffix("s")), game, bot_name == "seeing-turns"))
        else:
            players.append(make_bot(name, seat_seed))
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        game.apply(players[seat].choose(view, view.legal_actions))
    assert game.winner is not None
    return names[game.winner] == bots[0]


def measure(strong: str, weak: str, games: int, seed: int, jobs: int) -> str:
    """``strong`` against ``weak`` over ``games`` games (rounded up to even), as one line."""
    bots = (strong, weak)
    tasks = [("scat", bots, seed, deal, rotation) for deal in range(math.ceil(games / 2)) for rotation in (0, 1)]
    start = time.perf_counter()
    with Pool(jobs) as pool:
        wins = sum(pool.imap_unordered(play, tasks))
    low, high = wilson_interval(wins, len(tasks))
    return (
        f"scat 2p  {strong} vs {weak}  {len(tasks)} games  share {wins / len(tasks):.3f}  "
        f"95% [{low:.3f}, {high:.3f}]  ({time.perf_counter() - start:.0f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=0.05, help="expert-v1's seconds a decision (default 0.05)")
    parser.add_argument("--times", type=float, default=4.0, help="the expert's time, in expert-v1's (default 4)")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="lines by number, comma separated (default: all)")
    args = parser.parse_args()
    if args.games < 2 or args.seconds <= 0 or args.times <= 0 or args.jobs < 1:
        parser.error("--games must be at least 2, --seconds and --times positive, --jobs at least 1")
    chosen = {int(n) for n in args.only.split(",") if n.strip()} or {1, 2, 3}
    weak = f"expert-v1:{args.seconds:g}s"
    lines = [f"seeing:{args.seconds:g}s", f"expert:{args.seconds * args.times:g}s", f"seeing-turns:{args.seconds:g}s"]
    for number, strong in enumerate(lines, start=1):
        if number in chosen:
            print(f"{number}. {measure(strong, weak, args.games, args.seed, args.jobs)}", flush=True)


if __name__ == "__main__":
    main()
