"""The new expert against today's (``expert-v1``) and OpenSpiel's ISMCTS at equal time per decision,
on duplicate deals (issue: a much stronger expert, item 4).

Each target is a line: the new expert in seat 1 against copies of the other bot, its win share with
the 95% Wilson interval, the fair share and whether the target is met (the interval above the
fair share, and the share at least the issue's figure where it names one):

- 4-player ``scat`` against three ``expert-v1``: at least 30%, interval above 25% (2,000 games);
- heads-up ``scat`` against ``expert-v1``: at least 55%, interval above 50% (2,000 games);
- 4-player ``widow`` and ``schwimmen`` against three ``expert-v1``: interval above 25% (1,000 each);
- 4-player ``scat`` against three ``ismcts`` (needs the openspiel extra): interval above 25%;
- heads-up ``scat`` at the hard bot's own budget, 0.4 s a move (300 games).

Budgets are time (``expert:0.05s``), so figures depend on the machine and on what else it runs:
run it on an otherwise idle machine. ``--scale`` multiplies every game count (0.1 for a first look);
``--only`` picks targets by number. Usage: ``python benchmarks/bench_expert_targets.py [--scale F]
[--seconds S] [--jobs N] [--only 1,2]``.
"""

from __future__ import annotations

import argparse
import math

from bench_strength import arena_row

TARGETS = [
    # (preset, players, the other bot, games, the share to reach)
    ("scat", 4, "expert-v1", 2000, 0.30),
    ("scat", 2, "expert-v1", 2000, 0.55),
    ("widow", 4, "expert-v1", 1000, None),
    ("schwimmen", 4, "expert-v1", 1000, None),
    ("scat", 4, "ismcts", 1000, None),
    ("scat", 2, "expert-v1", 300, None),
]
HARD_SECONDS = 0.4
"""The hard bot's budget, for the last target."""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count (default 1)")
    parser.add_argument("--seconds", type=float, default=0.05, help="seconds a decision (default 0.05)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="targets by number, comma separated (default: all)")
    args = parser.parse_args()
    if args.scale <= 0 or args.seconds <= 0:
        parser.error("--scale and --seconds must be positive")
    chosen = {int(n) for n in args.only.split(",") if n.strip()} or set(range(1, len(TARGETS) + 1))
    for number, (preset, players, other, games, share) in enumerate(TARGETS, start=1):
        if number not in chosen:
            continue
        seconds = HARD_SECONDS if number == len(TARGETS) else args.seconds
        strong, weak = f"expert:{seconds:g}s", f"{other}:{seconds:g}s"
        count = max(players, math.ceil(games * args.scale))
        result = arena_row(preset, players, strong, weak, count, args.jobs, args.seed)
        row = result.row
        low, high, fair = row["win_share_low"], row["win_share_high"], row["fair_share"]
        met = low > fair and (share is None or row["win_share"] >= share)
        goal = f"≥ {share:.0%}, " if share is not None else ""
        print(
            f"{number}. {preset:<9} {players}p  {strong} vs {weak}  {result.games} games  "
            f"share {row['win_share']:.3f}  95% [{low:.3f}, {high:.3f}]  target {goal}interval > {fair:.2f}: "
            f"{'met' if met else 'NOT met'}  ({result.seconds:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
