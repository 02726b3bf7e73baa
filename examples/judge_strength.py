"""Measure the judge and write docs/strength.json: each figure with its games, 95% interval, seed and
the command that made it (arena runs on duplicate deals: every deal in every rotation of the seats).

    python examples/judge_strength.py --set heuristic --games 400            # every preset, 4 players and heads-up
    python examples/judge_strength.py --set expert --games 200 --expert expert:20
    python examples/judge_strength.py --set mini --yardstick runs/mini        # exact NashConv of the shipped judge
    python examples/judge_strength.py --set speed                             # time per decision
    python examples/judge_strength.py --set values --stamp                    # values against exact last turns
    python examples/judge_strength.py --set exploit --games 400               # trained best responses (below)

Exploitability (``--set exploit``) needs a best response trained against each target first, the same
budget for each (the target frozen in every seat but the learner's)::

    for target in heuristic ppo judge; do
        nice python examples/train_judge.py --tables scat:4 --target $target --iterations 60 \
            --decisions 12000 --games 64 --hidden 128,128 --eta 1 --alpha 0.05 --magnet-every 10 \
            --out runs/br-$target
    done

Each run adds or replaces its entries (by name) in the file; the others stay.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

STRENGTH = Path(__file__).resolve().parent.parent / "docs" / "strength.json"
SHIPPED_WEIGHTS = Path(__file__).resolve().parent.parent / "src" / "thirtyone" / "judge" / "data" / "judge.npz"
PRESETS = ("scat", "widow", "schwimmen")


def arena(name: str, bots: list[str], players: int, games: int, seed: int, preset: str, jobs: int) -> dict[str, Any]:
    """Play one arena run through the command line and keep the judge's figures."""
    command = [
        "thirtyone", "arena", "--bots", ",".join(bots), "--players", str(players), "--games", str(games),
        "--seed", str(seed), "--preset", preset, "--jobs", str(jobs), "--json",
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    judge = next(row for row in result["results"] if row["bot"] == bots[0])
    others = [row for row in result["results"] if row["bot"] != bots[0]]
    return {
        "name": name,
        "kind": "arena",
        "preset": preset,
        "players": players,
        "bots": bots,
        "games": judge["games"],
        "seed": seed,
        "won": judge["win_share"],
        "interval": [judge["win_share_low"], judge["win_share_high"]],
        "fair_share": judge["fair_share"],
        "lives_per_round": judge["lives_per_round"],
        "others_lives_per_round": [row["lives_per_round"] for row in others],
        "seconds": round(time.perf_counter() - started, 1),
        "command": shlex.join(command[:-1]),
    }


def mini(yardstick: str) -> dict[str, Any]:
    """Exact NashConv of the shipped judge in the mini game (whole tree)."""
    from thirtyone.agents.exploitability import MiniYardstick
    from thirtyone.bots.judge import JudgeBot
    from thirtyone.rules import Rules

    network = JudgeBot().judge_for(Rules.preset("mini"), 2)  # the shipped network made for the mini game
    measured = MiniYardstick(yardstick).measure(network)
    return {
        "name": "mini NashConv",
        "kind": "nash_conv",
        "preset": "mini",
        "players": 2,
        "nash_conv": measured["nash_conv"],
        "br_first": measured["br_first"],
        "br_dealer": measured["br_dealer"],
        "command": f"python examples/judge_strength.py --set mini --yardstick {yardstick}",
    }


def speed(seed: int) -> list[dict[str, Any]]:
    """CPU time per decision of the judge bot over seeded games of each preset at 4 seats: all its
    decisions, those its network plays, and the last turns it counts exactly."""
    from thirtyone import Game
    from thirtyone import Rules
    from thirtyone.bots.judge import JudgeBot
    from thirtyone.judge import is_last_turn

    rows = []
    for preset in PRESETS:
        times: dict[str, list[float]] = {"all": [], "network": [], "last turn": []}
        for number in range(20):
            game = Game(Rules.preset(preset), players=4, seed=seed + number)
            bots = [JudgeBot(seed=seed + number * 4 + seat) for seat in range(4)]
            while not game.is_over:
                view = game.view(game.current_seat)
                last = is_last_turn(view)
                started = time.process_time()
                action = bots[view.seat].choose(view, view.legal_actions)
                spent = time.process_time() - started
                times["all"].append(spent)
                times["last turn" if last else "network"].append(spent)
                game.apply(action)
        for part, spent in times.items():
            spent.sort()
            rows.append(
                {
                    "name": f"time per decision, {preset}, 4 players, {part}",
                    "kind": "speed",
                    "preset": preset,
                    "players": 4,
                    "decisions": len(spent),
                    "mean_ms": round(1000 * statistics.fmean(spent), 3),
                    "p99_ms": round(1000 * spent[int(0.99 * (len(spent) - 1))], 3),
                    "command": f"python examples/judge_strength.py --set speed --seed {seed}",
                }
            )
    return rows


def values(weights: str, seed: int, positions: int) -> list[dict[str, Any]]:
    """How far the network's values are from the exact ones where those are known: on the last
    turns after a knock (R6.2) of heuristic games in each preset at 2-4 seats, the best move by its
    values against the exact best (agreement), and the root mean square error of every move's gap
    to the best (lives). The bots read these figures before they show the network's values
    (:meth:`thirtyone.bots.judge.JudgeBot.cannot_value`)."""
    from thirtyone import Game
    from thirtyone import Rules
    from thirtyone.action_ids import action_id
    from thirtyone.bots.judge import shipped_judge
    from thirtyone.bots.making import make_bot
    from thirtyone.judge import NotALastTurnError
    from thirtyone.judge import is_last_turn
    from thirtyone.judge import last_turn
    from thirtyone.judge.network import JudgeNet

    net = JudgeNet.load(weights) if weights else shipped_judge()
    rows = []
    for preset in PRESETS:
        for players in (2, 3, 4):
            heuristic = make_bot("heuristic", seed)
            agree, gaps, found, deal = 0, [], 0, 0
            while found < positions:
                deal += 1
                game = Game(Rules.preset(preset), players=players, seed=seed * 100_000 + deal)
                while not game.is_over and found < positions:
                    view = game.view(game.current_seat)
                    if len(view.legal_actions) > 1 and is_last_turn(view):
                        try:
                            exact = last_turn(view).values
                        except NotALastTurnError:
                            exact = {}
                        if exact:
                            found += 1
                            judged = net.judge(view).values
                            mine = {action: judged[action_id(view, action)] for action in exact}
                            best, guess = max(exact, key=exact.get), max(mine, key=mine.get)
                            agree += exact[guess] >= exact[best] - 1e-9
                            gaps += [(mine[a] - mine[guess]) - (exact[a] - exact[best]) for a in exact]
                    game.apply(heuristic.choose(view, view.legal_actions))
            rows.append(
                {
                    "name": f"judge's values on last turns, {preset}, {players} players",
                    "kind": "values",
                    "preset": preset,
                    "players": players,
                    "positions": found,
                    "best_agrees": round(agree / found, 4),
                    "gap_rmse": round(statistics.fmean(gap * gap for gap in gaps) ** 0.5, 4),
                    "weights": weights or "shipped",
                    "command": f"python examples/judge_strength.py --set values --positions {positions} --seed {seed}",
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def stamp(weights: str, rows: list[dict[str, Any]]) -> None:
    """Write the values' check into the weights' description (``meta["value_check"]``): its worst
    gap error and agreement over the positions measured, and the command."""
    from thirtyone.judge.network import JudgeNet

    net = JudgeNet.load(weights)
    net.meta["value_check"] = {
        "gap_rmse": max(row["gap_rmse"] for row in rows),
        "best_agrees": min(row["best_agrees"] for row in rows),
        "positions": sum(row["positions"] for row in rows),
        "command": rows[0]["command"],
    }
    net.save(weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("heuristic", "expert", "mini", "speed", "exploit", "values"), required=True)
    parser.add_argument("--runs", default="runs", help="folder of the best responses' runs (--set exploit)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--expert", default="expert", help="the expert's name and budget (expert, expert:20)")
    parser.add_argument("--yardstick", default="runs/mini", help="folder of the mini game's tree")
    parser.add_argument("--out", default=str(STRENGTH))
    parser.add_argument("--weights", default="", help="--set values: these weights (default the shipped ones)")
    parser.add_argument("--positions", type=int, default=150, help="--set values: last turns a table")
    parser.add_argument("--stamp", action="store_true", help="--set values: write the check into the weights")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.set == "heuristic":
        for preset in PRESETS:
            for players in (4, 2):
                bots = ["judge", "heuristic"]
                name = f"judge vs heuristic, {preset}, {players} players"
                rows.append(arena(name, bots, players, args.games, args.seed, preset, args.jobs))
                print(json.dumps(rows[-1]), flush=True)
    elif args.set == "expert":
        for players in (2, 4):
            name = f"judge vs {args.expert}, scat, {players} players"
            rows.append(arena(name, ["judge", args.expert], players, args.games, args.seed, "scat", args.jobs))
            print(json.dumps(rows[-1]), flush=True)
    elif args.set == "exploit":
        for target in ("heuristic", "ppo", "judge"):
            response = f"judge:{args.runs}/br-{target}/judge.npz"
            name = f"best response vs {target}, scat, 4 players"
            rows.append(arena(name, [response, target], 4, args.games, args.seed, "scat", args.jobs))
            print(json.dumps(rows[-1]), flush=True)
    elif args.set == "mini":
        rows.append(mini(args.yardstick))
    elif args.set == "values":
        rows.extend(values(args.weights, args.seed, args.positions))
        if args.stamp:
            stamp(args.weights or str(SHIPPED_WEIGHTS), rows)
    else:
        rows.extend(speed(args.seed))
    path = Path(args.out)
    kept = json.loads(path.read_text()) if path.exists() else {"figures": []}
    names = {row["name"] for row in rows}
    kept["figures"] = [row for row in kept["figures"] if row["name"] not in names] + rows
    kept["about"] = (
        "The judge's strength: arena runs on duplicate deals (won: share of games won, interval: 95% Wilson), "
        "exact NashConv in the mini game (lives a game), time per decision (CPU). Made by examples/judge_strength.py."
    )
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
