"""Solve Mini Thirty-One with OpenSpiel's CFR+ and write the table the bot ``mini-eq`` plays.

    nice python examples/solve_mini.py --out src/thirtyone/agents/data/mini-eq.npz

The game is ``python_thirtyone`` with the preset ``mini`` (two players, one round, at most three
turns, the 8-card deck 9 Q K A of hearts and spades; seat 1 deals, so seat 0 plays first):
:func:`thirtyone.agents.solve.mini_params`. Its tree is walked once through the OpenSpiel game
and loaded as an EFG game; OpenSpiel's CFR+ runs on it until the average policy's NashConv is at
most ``--target`` lives (checked every ``--check-every`` iterations) or ``--minutes`` are spent.
The policy is kept at the information sets its own play reaches, rounded to 255ths, and the
NashConv of that rounded table — what the bot plays — is measured and written into the table.

It prints the tree's size, NashConv as it falls, and the table's size and NashConv; ``--max-turns``
solves the mini rules with another turn limit (to measure how the tree grows; the bot plays the
preset's three), ``--tree FILE`` keeps the walked tree for the next run (and for
``examples/mini_yardstick.py``).
"""

from __future__ import annotations

import argparse
import sys
import time

from thirtyone.agents.mini import FORMAT
from thirtyone.agents.mini import EquilibriumTable
from thirtyone.agents.solve import kept_tree
from thirtyone.agents.solve import mini_params
from thirtyone.agents.solve import nash_conv
from thirtyone.agents.solve import reachable
from thirtyone.agents.solve import solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="mini-eq.npz", help="where to write the table (.npz)")
    parser.add_argument("--target", type=float, default=0.002, help="NashConv to reach, lives (default 0.002)")
    parser.add_argument("--minutes", type=float, default=30.0, help="time limit of CFR+ (default 30)")
    parser.add_argument("--check-every", type=int, default=25, help="iterations between NashConv checks")
    parser.add_argument("--max-turns", type=int, default=None, help="another max_turns for the mini rules")
    parser.add_argument("--tree", default=None, help="keep the walked tree in this file (.json.gz) and read it again")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    options = {} if args.max_turns is None else {"max_turns": args.max_turns}
    params = mini_params(**options)
    tree = kept_tree(params, args.tree)
    nodes = ", ".join(f"{count:,} {kind}" for kind, count in tree.nodes.items())
    print(f"tree: {nodes} nodes; {tree.infosets:,} information sets; walked in {tree.seconds:.0f} s", flush=True)

    def report(iterations: int, seconds: float, gap: float) -> None:
        print(f"CFR+ {iterations:>6} iterations  {seconds:7.1f} s  NashConv {gap:.5f}", flush=True)

    result = solve(tree, target=args.target, seconds=60 * args.minutes, check_every=args.check_every, report=report)
    full = EquilibriumTable.from_policy(result.policy, {})
    rounded = {key: full.policy(key, len(probs)) or probs for key, probs in result.policy.items()}
    played = {key: rounded[key] for key in reachable(tree, rounded)}  # what its own play reaches
    gap = nash_conv(tree, played)
    meta = {
        "format": FORMAT,
        "params": params,
        "iterations": result.iterations,
        "nash_conv_average_policy": result.nash_conv,
        "nash_conv": gap,
        "infosets": tree.infosets,
    }
    table = EquilibriumTable.from_policy(played, meta)
    table.save(args.out)
    total = time.perf_counter() - started
    print(
        f"table: {len(table.keys):,} information sets (of {tree.infosets:,}); NashConv {gap:.5f} lives after "
        f"rounding to 255ths; written to {args.out}; {total / 60:.1f} minutes in all"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
