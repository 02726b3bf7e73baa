"""Distil the expert into the judge (thirtyone.agents.distill): write the expert's values of every
legal move in chunks, then fit the judge's networks to them.

    # the expert's values: 20 games a chunk, 64 worlds a decision, chunks 0-49 of each table
    nice python examples/distill_judge.py generate --tables scat:2,4 --chunks 50 --games 20 \
        --worlds 64 --out runs/distill
    # the same, on the positions the judge itself reaches: it plays, the expert values (DAgger)
    nice python examples/distill_judge.py generate --tables scat:2,4 --chunks 50 --games 20 \
        --worlds 64 --player judge --out runs/distill
    # fit the shipped judge's networks to them (10% held out and measured each epoch)
    python examples/distill_judge.py fit --data runs/distill --init src/thirtyone/judge/data/judge.npz \
        --epochs 20 --out runs/judge-distilled.npz
    # several folders, one of them shown 4 times an epoch (values of 1,000 worlds among those of 64)
    python examples/distill_judge.py fit --data runs/distill --data runs/distill-e1000:4 \
        --init src/thirtyone/judge/data/judge.npz --epochs 2 --out runs/judge-e1000.npz

``generate`` keeps the chunks already written (run it again after a kill, or with more
``--chunks``, and it goes on); a chunk is 16-20 bytes a decision (the expert's values without the
judge's inputs, made again when it is read), so the costly ones are kept in the repository, under
``data/`` (data/README.md gives their commands); ``fit`` prints the held-out figures of every epoch and writes the
weights and ``OUT.curve.json`` beside them. Needs the ``train`` extra (PyTorch) to fit.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from train_judge import parse_tables  # the same --tables as the trainer's (this folder is on the path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    generate = commands.add_parser("generate", help="write chunks of the expert's values")
    generate.add_argument("--tables", default="scat:2,4", help="preset:sizes;preset:sizes (default scat:2,4)")
    generate.add_argument("--chunks", type=int, default=10, help="chunks of each table (default 10)")
    generate.add_argument("--games", type=int, default=20, help="games a chunk (default 20)")
    generate.add_argument("--worlds", type=int, default=64, help="the expert's worlds a decision (default 64)")
    generate.add_argument("--explore", type=float, default=0.05, help="share of moves drawn at random")
    generate.add_argument("--seed", type=int, default=1)
    generate.add_argument(
        "--player", default=None, help="a bot that plays the moves while the expert values them (DAgger: judge)"
    )
    generate.add_argument("--out", default="runs/distill", help="folder of the chunks")
    fitting = commands.add_parser("fit", help="fit the judge's networks to the chunks")
    fitting.add_argument(
        "--data",
        action="append",
        help="folder of the chunks, FOLDER[:TIMES] to show its decisions TIMES times an epoch; give it again for "
        "more folders (default runs/distill)",
    )
    fitting.add_argument("--init", default="", help="start from these weights (default: new ones)")
    fitting.add_argument("--hidden", default="256,256", help="hidden layers of new networks")
    fitting.add_argument("--epochs", type=int, default=20)
    fitting.add_argument("--lr", type=float, default=1e-3)
    fitting.add_argument("--batch", type=int, default=512)
    fitting.add_argument("--seed", type=int, default=1)
    fitting.add_argument(
        "--regret", type=float, default=0.0, help="weight of the policy's expected regret in its loss (default 0)"
    )
    fitting.add_argument(
        "--suits", action="store_true", help="show each batch with its suits relabelled (thirtyone.agents.suits)"
    )
    fitting.add_argument("--out", default="runs/judge-distilled.npz", help="the weights to write")
    args = parser.parse_args()

    from thirtyone.agents import distill
    from thirtyone.errors import ThirtyOneError

    try:
        if args.command == "generate":
            started = time.perf_counter()
            tables = parse_tables(args.tables)
            for number in range(args.chunks):  # a chunk of every table, then the next: all grow together
                paths = distill.write_chunks(
                    args.out, tables, number + 1, args.games, args.worlds, args.seed, args.explore, args.player
                )
                print(f"[{time.perf_counter() - started:7.0f} s] {len(paths)} chunks in {args.out}", flush=True)
            return 0
        import numpy as np

        from thirtyone.judge.network import JudgeNet

        parts = [_folder(entry) for entry in args.data or ["runs/distill"]]
        read = [distill.read_chunks(folder) for folder, _ in parts]
        targets = distill.Targets.join(read)
        repeat = None
        if any(times > 1 for _, times in parts):
            counts = [np.full(len(part), times, np.int64) for part, (_, times) in zip(read, parts, strict=True)]
            repeat = np.concatenate(counts)
        init = JudgeNet.load(args.init) if args.init else None
        hidden = tuple(int(n) for n in args.hidden.split(","))
        net, curve = distill.fit(
            targets,
            init=init,
            hidden=hidden,
            epochs=args.epochs,
            lr=args.lr,
            batch=args.batch,
            seed=args.seed,
            suits=args.suits,
            repeat=repeat,
            regret=args.regret,
        )
        for figures in curve:
            print(" ".join(f"{name}={value:.4g}" for name, value in figures.items()), flush=True)
        net.meta["command"] = " ".join(["python", *sys.argv])
        net.save(args.out)
        Path(args.out).with_suffix(".curve.json").write_text(json.dumps(curve, indent=1))
        print(f"{len(targets)} decisions; weights in {args.out}")
    except (ThirtyOneError, ValueError) as error:
        print(f"distill_judge.py: error: {error}", file=sys.stderr)
        return 2
    return 0


def _folder(entry: str) -> tuple[str, int]:
    """``FOLDER[:TIMES]`` as the folder and its repeat count (1 by default)."""
    from thirtyone.errors import ArgumentError

    folder, colon, times = entry.rpartition(":")
    if not colon or not times.isdigit():
        return entry, 1
    if int(times) < 1:
        raise ArgumentError(f"--data {entry}: show a folder at least once (FOLDER:1 or more)")
    return folder, int(times)


if __name__ == "__main__":
    sys.exit(main())
