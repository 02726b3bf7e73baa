"""Train MaskablePPO (sb3-contrib) on the vector env against three heuristics, write its learning
curve, and save the policy as numpy weights that play as a bot without PyTorch.

    pip install -e '.[rl]'                                   # in a checkout: torch, SB3, sb3-contrib
    nice python examples/train_ppo.py --steps 3000000 --out runs/ppo.npz --curve runs/ppo-curve
    thirtyone arena --bots policy:runs/ppo.npz,heuristic --games 200 --seed 1

- The env is :class:`thirtyone.agents.sb3.ThirtyOneVecEnv`: seat 0 of ``--envs`` games of
  ``--preset`` against the simulator's ``heuristic`` in the other seats, the observation with the
  policy's card sums appended (``features=True``), the reward the lives the seat won or lost.
- The network is the bot's (:class:`thirtyone.agents.policy.Policy`): one hidden layer of
  ``--hidden`` ReLUs for the policy (and one of its own for the value), so that the trained
  policy is saved as the same ``.npz`` and plays with numpy alone. ``--init FILE.npz`` starts the
  policy from such a file (the imitation policy of ``examples/train.py``); without it, from scratch.
- Every ``--eval-every`` steps the greedy policy (the bot's: the legal id of the highest logit)
  plays ``--eval-games`` fresh games on the vector env, one per env, against the same bots: the
  share of games it wins (95% Wilson interval; fair share 1/players) and the lives it wins per
  round (the others' mean loss minus its own). The curve goes to ``--curve`` (``.json`` and a
  matplotlib ``.png``), with the same measures for the simulator's heuristic in seat 0 (the
  teacher's moves) and for random legal moves as lines to compare with.

Threads are pinned to one (the machine may be shared); set ``OMP_NUM_THREADS`` to use more.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core unless asked otherwise: before numpy and torch start threads

from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402

from thirtyone.agents.policy import Policy  # noqa: E402
from thirtyone.agents.vector import VectorEnv  # noqa: E402
from thirtyone.arena.stats import wilson_interval  # noqa: E402

Chooser = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""Actions from (observations, masks, the teacher's ids) of every env."""


def evaluate(choose: Chooser, preset: str, players: int, bots: str, games: int, seed: int) -> dict[str, float]:
    """One game in each of ``games`` envs, seat 0 played by ``choose``: games won and lives won per round.

    Two vector envs play the same games, one with ``win_reward``: the difference of their rewards is
    +1 where seat 0 won and -1 where it was put out (the moves are the same: the observations do
    not show rewards). A round is counted where seat 0 was paid (every round costs someone a life).
    """
    seats = ["agent"] + [bots] * (players - 1)
    plain = VectorEnv(games, preset, players, seats=seats, teacher=True)
    scored = VectorEnv(games, preset, players, seats=seats, teacher=True, win_reward=True)
    out, other = plain.reset(seed=seed), scored.reset(seed=seed)
    live = np.ones(games, dtype=bool)
    wins = lives = rounds = 0.0
    while live.any():
        actions = np.array(choose(out.obs, out.mask, out.teacher))  # a copy: the teacher is a view of a buffer
        out, other = plain.step(actions), scored.step(actions)
        paid = out.rewards[:, 0]
        lives += float(paid[live].sum())
        rounds += float((paid[live] != 0).sum())
        ended = live & (out.ended != 0)
        wins += float(((other.rewards[:, 0] - paid)[ended] > 0.5).sum())
        live &= out.ended == 0
    low, high = wilson_interval(int(wins), games)
    return {"win_share": wins / games, "low": low, "high": high, "lives_per_round": lives / max(rounds, 1.0)}


def to_policy(model: object, players: int, preset: str) -> Policy:
    """The greedy policy of a MaskablePPO ``model`` as numpy weights (its policy net and action head)."""
    net = model.policy  # type: ignore[attr-defined]
    first, head = net.mlp_extractor.policy_net[0], net.action_net
    weights = [t.detach().cpu().numpy().astype(np.float32) for t in (first.weight, first.bias, head.weight, head.bias)]
    return Policy(weights[0].T.copy(), weights[1], weights[2].T.copy(), weights[3], players, preset)


def load_into(model: object, policy: Policy) -> None:
    """Start ``model``'s policy net and action head from ``policy``'s weights."""
    import torch

    net = model.policy  # type: ignore[attr-defined]
    first, head = net.mlp_extractor.policy_net[0], net.action_net
    with torch.no_grad():
        for tensor, array in ((first.weight, policy.w1.T), (first.bias, policy.b1), (head.weight, policy.w2.T)):
            tensor.copy_(torch.from_numpy(np.ascontiguousarray(array)))
        head.bias.copy_(torch.from_numpy(policy.b2))


def chart(
    runs: dict[str, list[dict[str, float]]], baselines: dict[str, dict[str, float]], path: Path, title: str
) -> None:
    """The learning curves as a PNG: win share (with its interval) and lives per round against
    steps, one line per run (label → points) and a grey line per baseline (its figures in the
    legend: random play is far below the axes' range)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    shown: list[float] = []
    for label, points in runs.items():
        steps = [p["steps"] / 1e6 for p in points]
        top.plot(steps, [p["win_share"] for p in points], marker="o", markersize=3, label=label)
        top.fill_between(steps, [p["low"] for p in points], [p["high"] for p in points], alpha=0.2)
        bottom.plot(steps, [p["lives_per_round"] for p in points], marker="o", markersize=3, label=label)
        shown += [p["lives_per_round"] for p in points]
    for (name, base), style in zip(baselines.items(), ("--", ":"), strict=False):
        label = f"{name}: {base['win_share']:.1%}, {base['lives_per_round']:+.2f} lives/round"
        top.axhline(base["win_share"], linestyle=style, color="grey", label=label)
        bottom.axhline(base["lives_per_round"], linestyle=style, color="grey")
    first = next(iter(baselines.values()), None)
    if first is not None:
        shown.append(first["lives_per_round"])
    pad = 0.1 * (max(shown) - min(shown) or 1.0)
    bottom.set_ylim(min(shown) - pad, max(shown) + pad)
    top.set_ylabel("games won (95% interval)")
    top.yaxis.set_major_formatter(PercentFormatter(1.0))
    bottom.set_ylabel("lives won per round")
    bottom.set_xlabel("training steps (millions of the agent's decisions)")
    top.legend(loc="best", fontsize="small")
    top.set_title(title, fontsize="medium")
    top.grid(alpha=0.3)
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_only(paths: list[str], out: Path) -> int:
    """Draw the curves of earlier runs (their ``.json``) in one chart."""
    datas = [json.loads(Path(path).read_text()) for path in paths]
    runs = {}
    for data in datas:
        args = data["args"]
        start = "from the imitation policy" if args.get("init") else "from scratch"
        runs[f"MaskablePPO {start} (lr {args['lr']:g})"] = data["points"]
    chart(runs, datas[0]["baselines"], out.with_suffix(".png"), datas[0]["title"])
    print(f"wrote {out.with_suffix('.png')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="ppo.npz", help="where to save the numpy weights (.npz)")
    parser.add_argument("--curve", default="ppo-curve", help="the learning curve: PATH.json and PATH.png")
    parser.add_argument("--preset", default="scat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", help="the simulator's bot in the other seats")
    parser.add_argument("--steps", type=int, default=2_000_000, help="training steps (the agent's decisions)")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--init", default=None, help="start the policy from these weights (.npz)")
    parser.add_argument("--eval-every", type=int, default=250_000)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", nargs="+", metavar="RUN.json", help="only draw these runs' curves in --curve.png")
    args = parser.parse_args(argv)
    if args.plot:
        return plot_only(args.plot, Path(args.curve))

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from thirtyone.agents.sb3 import ThirtyOneVecEnv

    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    env = ThirtyOneVecEnv(args.envs, args.preset, args.players, bots=args.bots, features=True)
    env.seed(args.seed)
    kwargs = {"net_arch": {"pi": [args.hidden], "vf": [args.hidden]}, "activation_fn": torch.nn.ReLU}
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        ent_coef=args.ent,
        policy_kwargs=kwargs,
        seed=args.seed,
        verbose=0,
    )
    if args.init:
        load_into(model, Policy.load(args.init))

    players, preset, bots = args.players, args.preset, args.bots
    eval_seed = args.seed + 10_000  # fresh deals, the same at every point of the curve

    def greedy(policy: Policy) -> Chooser:
        return lambda obs, mask, teacher: policy.act(obs, mask)

    rng = np.random.default_rng(args.seed)

    def random_moves(obs: np.ndarray, mask: np.ndarray, teacher: np.ndarray) -> np.ndarray:
        return (rng.random(mask.shape) * mask).argmax(axis=1)

    baselines = {
        f"the simulator's {bots} in seat 0": evaluate(
            lambda o, m, t: t, preset, players, bots, args.eval_games, eval_seed
        ),
        "random legal moves": evaluate(random_moves, preset, players, bots, args.eval_games, eval_seed),
    }
    points: list[dict[str, float]] = []
    started = time.perf_counter()

    def measure(steps: int) -> None:
        point = {"steps": steps, "seconds": round(time.perf_counter() - started, 1)}
        point |= evaluate(greedy(to_policy(model, players, preset)), preset, players, bots, args.eval_games, eval_seed)
        points.append(point)
        print(
            f"{steps:>10,} steps  {point['seconds']:>6.0f} s  won {point['win_share']:.1%} "
            f"({point['low']:.1%}-{point['high']:.1%})  {point['lives_per_round']:+.3f} lives/round",
            flush=True,
        )

    class Curve(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.next = args.eval_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += args.eval_every
                measure(self.num_timesteps)
            return True

    for name, base in baselines.items():
        print(f"{name}: won {base['win_share']:.1%}, {base['lives_per_round']:+.3f} lives/round", flush=True)
    measure(0)
    model.learn(args.steps, callback=Curve())
    seconds = time.perf_counter() - started
    if points[-1]["steps"] < model.num_timesteps:
        measure(model.num_timesteps)
    policy = to_policy(model, players, preset)
    policy.save(args.out)
    Policy.load(args.out)  # what was saved loads
    print(f"trained {model.num_timesteps:,} steps in {seconds:.0f} s; saved {args.out}")
    curve = Path(args.curve)
    title = f"MaskablePPO, {preset}, {players} players, seat 0 against {players - 1} × {bots} (simulator)"
    meta = {k: v for k, v in vars(args).items() if k not in ("out", "curve")}
    data = {"title": title, "args": meta, "seconds": round(seconds), "baselines": baselines, "points": points}
    curve.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    chart({"MaskablePPO (greedy)": points}, baselines, curve.with_suffix(".png"), title)
    print(f"wrote {curve.with_suffix('.json')} and {curve.with_suffix('.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
