"""How far each bot is from the equilibrium of Mini Thirty-One: the yardstick of the bots' strength.

    nice python examples/mini_yardstick.py --tree mini-tree.json.gz --keep mini-bots
    nice python examples/mini_yardstick.py --bots expert:200 --tree mini-tree.json.gz --keep mini-bots --worst 20

The game is the one ``examples/solve_mini.py`` solves (``python_thirtyone`` with
:func:`thirtyone.agents.solve.mini_params`: the preset ``mini``, one round, seat 0 plays first and
seat 1 deals), and the equilibrium is the shipped table the bot ``mini-eq`` plays; with
``--max-turns`` it is the mini rules with another turn limit, solved here with CFR+ to ``--target``.
Each bot's strategy is tabulated on the whole game (:func:`thirtyone.agents.solve.bot_policy`): the
bot is asked once, from its seat's view only, at every information set its own play reaches against
any play of the other seat, in each seat. A bot that samples or searches is measured as the one pure
strategy it played, seeded by ``--seed``; ``random`` is measured as what it is, uniform at every
set, and ``mini-eq`` as its table. Then, exactly, on the whole tree (OpenSpiel's NashConv, best
responses and expected returns; lives a game, each game a win +1, a loss -1 or a tie 0):

- ``NashConv``: what best responses to the bot win against it, summed over the two seats (0 at an
  equilibrium); ``exploitability`` is half of it: what a best response wins a game against it, on
  average over the seats;
- ``BR vs first`` / ``BR vs dealer``: what a best response wins against it when it plays first /
  when it deals;
- ``vs mini-eq``: the bot's expected lives a game against the equilibrium, on average over the two
  seats (the equilibrium against itself: 0);
- ``sets``: the information sets its strategy was tabulated at; ``seconds``: the time that took;
- then where it loses: at each set its own play meets, the equilibrium's value of its own move there
  less the value of the bot's move (each followed by the equilibrium's play, against the
  equilibrium; after a move the equilibrium never plays, by the best play against it:
  :func:`thirtyone.agents.solve.complete_policy`), weighted by how often the bot's play meets the
  set (lives a game, :func:`thirtyone.agents.solve.deviation_costs`, for each seat's sets in
  turn; they add up to what it loses against the equilibrium in its two seats together), added up by seat,
  what the bot played (``mixed`` where no move has more than half) and what the equilibrium plays
  most there; and the costliest sets.

A row is printed as soon as its bot is measured, then where it loses; the whole table again at the
end. A bot that cannot play the mini rules (it raises or plays no legal move) gets a row that says
so. ``--tree FILE`` keeps the walked tree (several minutes of one core for the preset) for the next
run, as ``examples/solve_mini.py --tree`` does; ``--keep DIR`` keeps each bot's tabulated strategy
(``DIR/NAME.json.gz``) and reads it again in a run of the same game and seed. Win shares heads-up
against the equilibrium, with 95% intervals, come from the arena:
``thirtyone arena --preset mini --players 2 --bots BOT,mini-eq --games 2000 --seed 1``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from thirtyone.action_ids import DRAW_STOCK
from thirtyone.action_ids import describe_id
from thirtyone.agents.mini import default_table
from thirtyone.agents.solve import Policy
from thirtyone.agents.solve import Tree
from thirtyone.agents.solve import best_response_values
from thirtyone.agents.solve import bot_policy
from thirtyone.agents.solve import complete_policy
from thirtyone.agents.solve import deviation_costs
from thirtyone.agents.solve import expected_values
from thirtyone.agents.solve import kept_tree
from thirtyone.agents.solve import mini_params
from thirtyone.agents.solve import nash_conv
from thirtyone.agents.solve import reachable
from thirtyone.agents.solve import solve
from thirtyone.agents.solve import table_policy
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.runner import BotError

BOTS = "mini-eq,random,basic,heuristic,expert:10,expert:50,expert-v1:50,ismcts:100,ppo"
EQUILIBRIUM = "mini-eq"
UNIFORM = "random"
SEATS = ("first", "dealer")
HEADER = (
    "| bot | NashConv | exploitability | BR vs first | BR vs dealer | vs mini-eq | sets | seconds |\n"
    "|---|---|---|---|---|---|---|---|"
)


def kind(number: int) -> str:
    """A move's kind in words: ``discard`` for any card, else the id's name (``draw pile``, ``knock``)."""
    return "discard" if number < DRAW_STOCK else describe_id(number)


def report_costs(tree: Tree, policy: Policy, equilibrium: Policy, worst: int) -> None:
    """Print where ``policy`` loses against ``equilibrium``: its costs added up by seat, its move's
    kind and the equilibrium's, and its ``worst`` costliest information sets."""
    legal = {key: ids for player in range(2) for key, ids in zip(tree.keys[player], tree.legal[player], strict=True)}
    costs: list[tuple[float, str, list[float], list[float]]] = []
    for seat in range(2):
        # deviation_costs walks the policy against itself: with the other seat's sets left out
        # (uniform), the walk follows every move of the other seat, as the equilibrium may play it
        own = {key: probs for key, probs in policy.items() if key.startswith(f"p{seat};")}
        costs += [cost for cost in deviation_costs(tree, own, equilibrium) if cost[1].startswith(f"p{seat};")]
    costs.sort(key=lambda cost: -cost[0])
    by_kind: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for cost, key, mine, theirs in costs:
        ids = legal[key]
        played = kind(ids[max(range(len(ids)), key=lambda k: mine[k])]) if max(mine) > 0.5 else "mixed"
        best = kind(ids[max(range(len(ids)), key=lambda k: theirs[k])])
        by_kind[SEATS[int(key[1])], played, best][0] += cost
        by_kind[SEATS[int(key[1])], played, best][1] += 1
    total = sum(cost for cost, *_ in costs)
    print(f"  costs added up: {total:.4f} lives a game over {len(costs):,} sets; by seat, its move / mini-eq's:")
    for (side, played, best), (cost, sets) in sorted(by_kind.items(), key=lambda item: -item[1][0]):
        print(f"    {cost:8.4f}  {side:6} {played} / {best} ({int(sets):,} sets)")
    print("  costliest sets (lives a game; each move: its probability / mini-eq's):")
    for cost, key, mine, theirs in costs[:worst]:
        moves = " · ".join(
            f"{describe_id(number)} {p:.2f}/{q:.2f}" for number, p, q in zip(legal[key], mine, theirs, strict=True)
        )
        print(f"    {cost:8.4f}  {key}\n              {moves}", flush=True)


def strategy(tree: Tree, name: str, bot: Bot, keep: Path | None, stamp: dict[str, Any]) -> tuple[Policy, float]:
    """The bot's tabulated strategy and the seconds tabulating it took (read from ``keep`` when a
    run of the same game and seed left it there, else tabulated and left there).

    Raises:
        BotError: when the bot cannot play the game.
    """
    path = None if keep is None else keep / f"{re.sub(r'[^A-Za-z0-9.-]+', '_', name)}.json.gz"
    if path is not None and path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as file:
            kept = json.load(file)
        if kept["stamp"] == stamp:
            return kept["policy"], kept["seconds"]
    started = time.perf_counter()
    policy = {} if name == UNIFORM else bot_policy(tree, bot)  # the empty policy is uniform everywhere
    seconds = time.perf_counter() - started
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wt", encoding="utf-8") as file:
            json.dump({"stamp": stamp, "seconds": seconds, "policy": policy}, file)
    return policy, seconds


def measure(tree: Tree, name: str, policy: Policy, equilibrium: Policy, seconds: float) -> str:
    """The table's row of the bot ``name`` playing ``policy``."""
    gap = nash_conv(tree, policy)
    against_dealer, against_first = best_response_values(tree, policy)  # a best response in seat 0 plays first
    as_first = expected_values(tree, policy, equilibrium)[0]
    as_dealer = expected_values(tree, equilibrium, policy)[1]
    sets = "all" if not policy else f"{len(policy):,}"
    return (
        f"| `{name}` | {gap:.4f} | {gap / 2:.4f} | {against_first:+.4f} | {against_dealer:+.4f} "
        f"| {(as_first + as_dealer) / 2:+.4f} | {sets} | {seconds:.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=BOTS, help=f"comma separated (default {BOTS}); {EQUILIBRIUM}: the table")
    parser.add_argument("--seed", type=int, default=1, help="the bots' seed (default 1)")
    parser.add_argument("--worst", type=int, default=10, help="costliest information sets shown a bot (default 10)")
    parser.add_argument("--tree", default=None, help="keep the walked tree in this file (.json.gz) and read it again")
    parser.add_argument("--keep", type=Path, default=None, help="keep each bot's strategy in this folder")
    parser.add_argument("--max-turns", type=int, default=None, help="the mini rules with another turn limit")
    parser.add_argument("--target", type=float, default=0.001, help="NashConv to solve --max-turns to (lives)")
    args = parser.parse_args(argv)

    names = args.bots.split(",")
    try:  # every name checked before the long work
        bots = {name: make_bot(name, args.seed) for name in names if name != EQUILIBRIUM}
    except UnknownBotError as error:
        parser.error(str(error))
    params = mini_params() if args.max_turns is None else mini_params(max_turns=args.max_turns)
    tree = kept_tree(params, args.tree)
    print(f"tree: {tree.infosets:,} information sets, walked in {tree.seconds:.0f} s", flush=True)
    started = time.perf_counter()
    if args.max_turns is None:
        played = table_policy(tree, default_table())
        print(f"{EQUILIBRIUM}: the shipped table, {len(played):,} sets", flush=True)
    else:
        result = solve(tree, target=args.target, check_every=10)
        played = {key: result.policy[key] for key in reachable(tree, result.policy)}
        print(f"{EQUILIBRIUM}: CFR+, {result.iterations} iterations, {result.seconds:.0f} s", flush=True)
    equilibrium_seconds = time.perf_counter() - started
    equilibrium = complete_policy(tree, played)  # the best play after a move that leaves its path
    first, _ = expected_values(tree, equilibrium, equilibrium)
    print(f"{EQUILIBRIUM} against itself: {first:+.4f} lives a game to the first player\n\n{HEADER}", flush=True)
    rows: list[str] = []
    for name in names:
        bot = bots.get(name)
        if bot is None:
            rows.append(measure(tree, name, played, equilibrium, equilibrium_seconds))
            print(rows[-1], flush=True)
            continue
        try:
            policy, seconds = strategy(tree, name, bot, args.keep, {"params": params, "seed": args.seed})
        except BotError as error:
            rows.append(f"| `{name}` | cannot play the mini rules: {error} |")
            print(rows[-1], flush=True)
            continue
        rows.append(measure(tree, name, policy, equilibrium, seconds))
        print(rows[-1], flush=True)
        if args.worst > 0:
            report_costs(tree, policy, equilibrium, args.worst)
    print(f"\n{HEADER}", *rows, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
