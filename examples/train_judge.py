"""Train the judge by self-play (magnetic mirror descent, :mod:`thirtyone.agents.selfplay`): every
seat played by the learning policy, a checkpoint after every iteration, resumable.

    pip install torch==2.13.0 && pip install -e '.[train,openspiel]'
    # the mini game, measured exactly (NashConv on the whole tree) every 5 iterations:
    nice python examples/train_judge.py --tables mini:2 --out runs/judge-mini --yardstick runs/mini
    # the full game, every preset at every table size, from the heuristic's moves:
    nice python examples/train_judge.py --tables scat,widow,schwimmen:2-9 --imitation 20 --out runs/judge
    # deep Monte-Carlo: what each move is worth while the heuristic plays on, then greedy self-play:
    nice python examples/train_judge.py --tables scat,widow,schwimmen:2-9 --method dmc --explore 0.1 \
        --imitation 40 --out runs/judge-dmc
    # a best response to a frozen player (seat 0 learns, the others are the target):
    nice python examples/train_judge.py --tables scat:4 --target heuristic --out runs/br-heuristic
    python examples/train_judge.py --plot runs/judge-mini/curve.json --chart docs/charts/judge-mini
    # the same run on a Ray cluster (pip install -e '.[train,distributed]' on every node): 8 actors
    # play the tables, this process learns (--ray-address auto: the cluster `ray start` began here,
    # HOST:PORT another's head, local: a Ray started for the run)
    nice python examples/train_judge.py --tables scat,widow,schwimmen:2-9 --imitation 20 --out runs/judge \
        --ray-address auto --actors 8

A run killed mid-way goes on from its last iteration when started again with the same settings
and ``--out`` (on Ray: exactly so with the same ``--actors``). The weights (``judge.npz``) play
with numpy alone. Bad settings, or a Ray address that cannot be reached, are one line on stderr
and exit status 2, the folder's checkpoint kept.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS


def parse_tables(text: str) -> list[tuple[str, int]]:
    """``scat,widow:2-9`` -> every (preset, players) pair; ``mini:2``; ``scat:2,4`` (sizes and ranges of
    sizes, comma separated); sizes default to 2-9; parts joined by ``;``."""
    tables: list[tuple[str, int]] = []
    for part in text.split(";"):
        presets, _, sizes = part.partition(":")
        for preset in presets.split(","):
            for size in (sizes or f"{MIN_PLAYERS}-{MAX_PLAYERS}").split(","):
                low, _, high = size.partition("-")
                tables += [(preset.strip(), players) for players in range(int(low), int(high or low) + 1)]
    return tables


def _offset(curve_path: Path) -> float:
    """Decisions played before a run's first iteration: those of the weights it started from (--init)."""
    weights = curve_path.parent / "judge.npz"
    if not weights.exists():
        return 0.0
    from thirtyone.judge.network import JudgeNet

    init = JudgeNet.load(weights).meta.get("config", {}).get("init", "")
    return float(JudgeNet.load(init).meta.get("decisions", 0)) if init and Path(init).exists() else 0.0


def plot(curves: list[str], chart: str) -> None:
    """Draw NashConv (where measured) and the policy's entropy against decisions played, one line a
    run (a run started from another's weights goes on from that run's decisions)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    kept = {}
    for curve_path in curves:
        path = Path(curve_path)
        curve = json.loads(path.read_text())
        offset = _offset(path)
        label = path.parent.name
        kept[label] = {"offset_decisions": offset, "curve": curve}
        measured = [row for row in curve if "nash_conv" in row]
        if measured:
            xs = [(offset + row["decisions"]) / 1e6 for row in measured]
            axes[0].plot(xs, [row["nash_conv"] for row in measured], "o-", markersize=3, label=label)
        axes[1].plot(
            [(offset + row["decisions"]) / 1e6 for row in curve], [row["entropy"] for row in curve], label=label
        )
    axes[0].axhline(0.05, color="grey", linestyle="--", linewidth=1, label="target 0.05")
    axes[0].axhline(0.463, color="tab:red", linestyle=":", linewidth=1, label="expert:50 (0.463)")
    axes[0].axhline(0.235, color="tab:orange", linestyle=":", linewidth=1, label="ismcts:100 (0.235)")
    axes[0].set_yscale("log")
    axes[0].set_ylabel("NashConv (lives a game)")
    axes[0].legend(fontsize=7)
    axes[0].set_xlabel("decisions played (millions)")
    axes[1].set_xlabel("decisions played (millions)")
    axes[1].set_ylabel("policy entropy (nats a decision)")
    axes[1].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(f"{chart}.png", dpi=110)
    Path(f"{chart}.json").write_text(json.dumps(kept, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="mini:2", help="presets:sizes, e.g. mini:2 or scat,widow,schwimmen:2-9")
    parser.add_argument("--out", default="runs/judge", help="folder of the run (checkpoint, weights, curve)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=20_000, help="decisions played per iteration")
    parser.add_argument("--games", type=int, default=256, help="games of each table played side by side")
    parser.add_argument("--hidden", default="256,256", help="hidden layers of each network")
    parser.add_argument("--eta", type=float, default=1.0, help="MMD's step size")
    parser.add_argument("--alpha", type=float, default=0.05, help="the magnet's weight")
    parser.add_argument("--magnet-every", type=int, default=10, help="iterations between magnet moves")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--imitation", type=int, default=0, help="first iterations: learn the heuristic's moves")
    parser.add_argument(
        "--target", default="", help="train a best response to this frozen player (heuristic, ppo, judge)"
    )
    parser.add_argument("--init", default="", help="start from these weights (a judge.npz of another run)")
    parser.add_argument("--method", default="mmd", help="mmd (magnetic mirror descent) or dmc (deep Monte-Carlo)")
    parser.add_argument("--explore", type=float, default=0.0, help="dmc: the share of moves played at random")
    parser.add_argument("--ray-address", help="self-play on this Ray cluster: auto, HOST:PORT or local")
    parser.add_argument("--actors", type=int, default=2, help="with --ray-address: the Ray actors that play")
    parser.add_argument("--yardstick", help="folder of the mini game's tree: measure NashConv there")
    parser.add_argument("--evaluate-every", type=int, default=5)
    parser.add_argument("--plot", nargs="+", help="draw these curve.json files instead of training (with --chart)")
    parser.add_argument("--chart", default="runs/judge-curve", help="where --plot writes NAME.png and NAME.json")
    args = parser.parse_args(argv)
    if args.plot:
        plot(args.plot, args.chart)
        return 0
    from thirtyone.agents.selfplay import TrainConfig
    from thirtyone.agents.selfplay import train

    config = TrainConfig(
        tables=parse_tables(args.tables),
        iterations=args.iterations,
        decisions=args.decisions,
        games=args.games,
        hidden=tuple(int(n) for n in args.hidden.split(",")),
        eta=args.eta,
        alpha=args.alpha,
        magnet_every=args.magnet_every,
        lr=args.lr,
        batch=args.batch,
        epochs=args.epochs,
        seed=args.seed,
        imitation=args.imitation,
        target=args.target,
        init=args.init,
        method=args.method,
        explore=args.explore,
    )
    evaluate = None
    if args.yardstick:
        from thirtyone.agents.exploitability import MiniYardstick

        evaluate = MiniYardstick(args.yardstick).measure
    started = time.perf_counter()

    def report(figures: dict[str, float]) -> None:
        shown = " ".join(f"{name}={value:.4g}" for name, value in figures.items())
        print(f"[{time.perf_counter() - started:7.0f} s] {shown}", flush=True)

    from thirtyone.errors import ThirtyOneError

    options: dict[str, Any] = {"evaluate": evaluate, "evaluate_every": args.evaluate_every, "report": report}
    try:
        if args.ray_address is None:
            train(config, args.out, **options)
        else:
            from thirtyone.agents.selfplay_ray import train_on_ray

            train_on_ray(config, args.out, args.ray_address, args.actors, **options)
    except ThirtyOneError as error:
        print(f"train_judge.py: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
