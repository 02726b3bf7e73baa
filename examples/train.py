"""Train a small policy for Thirty-One on the vector env, numpy only, and save it as a bot.

    python examples/train.py --out runs/scat.npz              # about a minute of one core's CPU time
    thirtyone arena --bots policy:runs/scat.npz,basic,basic,basic --games 1000 --seed 1

The policy is :class:`thirtyone.agents.policy.Policy`: a one-hidden-layer perceptron over the
observation (and a few card sums derived from it) with a logit per action id, masked to the legal
ids. Training is imitation with DAgger: the vector env (``thirtyone.agents.vector``) plays seat 0
with the policy being trained against the simulator's ``basic`` bots in the other seats, and names
the ``heuristic``'s move for every state the policy reaches (``teacher=True``); the policy learns
that move (cross-entropy, Adam) from a buffer of recent states. At first the teacher's own move is
played with probability ``beta``, which falls to 0, so the states learnt from are the policy's own.

numpy only (no PyTorch): the network is small enough that numpy trains it in about a minute of
CPU time on one core (54 s for the default run here), and the weights play anywhere the game does.
The wall time is what the machine's other work leaves of that core: 281 s on this project's
shared 2-core machine beside three other jobs. Threads are pinned to one (the machine may be
shared): set ``OMP_NUM_THREADS`` yourself to use more.

At the end it reports, from the vector env, how often the policy agrees with the heuristic and the
mean lives it wins per round against ``basic`` (the others' mean loss minus its own), and with
``--arena-games N`` plays N arena games against ``basic`` (share of wins with its 95% interval).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core unless asked otherwise: before numpy starts its threads

import numpy as np  # noqa: E402

from thirtyone.agents.policy import Policy  # noqa: E402
from thirtyone.agents.policy import features  # noqa: E402
from thirtyone.agents.vector import VectorEnv  # noqa: E402


class Adam:
    """Adam over a list of arrays, updated in place."""

    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        scale = self.lr * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= scale * m / (np.sqrt(v) + 1e-8)


def update(policy: Policy, opt: Adam, x: np.ndarray, mask: np.ndarray, target: np.ndarray) -> float:
    """One step of cross-entropy on the masked softmax towards ``target``; returns the loss."""
    hidden, logits = policy.forward(x)
    logits = np.where(mask != 0, logits, -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=1, keepdims=True)
    rows = np.arange(len(target))
    loss = float(-np.log(prob[rows, target] + 1e-12).mean())
    grad = prob
    grad[rows, target] -= 1.0
    grad /= len(target)
    gw2 = hidden.T @ grad
    gb2 = grad.sum(axis=0)
    gh = grad @ policy.w2.T
    gh[hidden <= 0] = 0.0
    gw1 = x.T @ gh
    gb1 = gh.sum(axis=0)
    opt.step([gw1, gb1, gw2, gb2])
    return loss


def evaluate(policy: Policy, preset: str, envs: int, steps: int, seed: int) -> tuple[float, float]:
    """Agreement with the heuristic, and seat 0's lives won per game (the others' mean loss minus
    its own, summed over the rounds), the policy playing greedily against ``basic`` on fresh deals."""
    env = VectorEnv(envs, preset, policy.players, seats=["agent"] + ["basic"] * (policy.players - 1), teacher=True)
    out = env.reset(seed=seed)
    agree = total = games = 0
    won = 0.0
    running = np.zeros(envs)  # seat 0's lives won so far in each env's game: counted once it ends
    for _ in range(steps):
        actions = policy.act(out.obs, out.mask)
        agree += int((actions == out.teacher).sum())
        total += envs
        out = env.step(actions)
        running += out.rewards[:, 0]
        ended = out.ended != 0
        won += float(running[ended].sum())
        games += int(ended.sum())
        running[ended] = 0.0
    return agree / total, won / games if games else float("nan")


def train(args: argparse.Namespace) -> Policy:
    players = args.players
    seats = ["agent"] + ["basic"] * (players - 1)
    env = VectorEnv(args.envs, args.preset, players, seats=seats, teacher=True)
    policy = Policy.initial(players, hidden=args.hidden, seed=args.seed, preset=args.preset)
    opt = Adam([policy.w1, policy.b1, policy.w2, policy.b2], lr=args.lr)
    rng = np.random.default_rng(args.seed)
    size = args.buffer
    inputs = policy.w1.shape[0]
    buf_x = np.zeros((size, inputs), dtype=np.float32)
    buf_m = np.zeros((size, 79), dtype=np.int8)
    buf_t = np.zeros(size, dtype=np.int64)
    filled = at = 0
    out = env.reset(seed=args.seed)
    start = time.perf_counter()
    iterations = args.iterations
    loss = 0.0
    for it in range(iterations):
        beta = max(0.0, 1.0 - it / (0.5 * iterations))  # the teacher drives at first, the policy soon after
        x = features(out.obs, players)
        _, logits = policy.forward(x)
        own = np.where(out.mask != 0, logits, -np.inf).argmax(axis=1)
        actions = np.where(rng.random(args.envs) < beta, out.teacher, own)
        rows = (at + np.arange(args.envs)) % size  # the buffer keeps the newest states
        buf_x[rows], buf_m[rows], buf_t[rows] = x, out.mask, out.teacher
        at = (at + args.envs) % size
        filled = min(filled + args.envs, size)
        out = env.step(actions)
        for _ in range(args.updates):
            pick = rng.integers(0, filled, args.batch)
            loss = update(policy, opt, buf_x[pick], buf_m[pick], buf_t[pick])
        if not args.quiet and (it + 1) % max(iterations // 10, 1) == 0:
            agreement = float((own == buf_t[rows]).mean())
            print(
                f"iteration {it + 1:>6}/{iterations}  loss {loss:.3f}  agrees with the heuristic {agreement:.1%}  "
                f"beta {beta:.2f}  {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return policy


def arena_share(path: str, preset: str, players: int, games: int, seed: int) -> str:
    from thirtyone.arena import LocalBackend
    from thirtyone.arena import make_schedule
    from thirtyone.arena import run_arena
    from thirtyone.arena.stats import wilson_interval
    from thirtyone.rules import Rules

    schedule = make_schedule([f"policy:{path}"] + ["basic"] * (players - 1), games)
    with LocalBackend(jobs=1) as backend:
        summary = run_arena(Rules.preset(preset), schedule, seed=seed, backend=backend).summary
    bot = next(bot for bot in summary.bots if bot.name.startswith("policy"))
    low, high = wilson_interval(bot.wins, bot.games)
    return (
        f"arena against basic: {bot.wins}/{bot.games} games won = {bot.wins / bot.games:.1%} "
        f"(95% interval {low:.1%}-{high:.1%}; fair share {bot.fair_share:.0%})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="policy.npz", help="where to save the weights (.npz)")
    parser.add_argument("--preset", default="scat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=10_000, help="env steps (of all envs at once)")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--updates", type=int, default=1, help="gradient steps per env step")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--buffer", type=int, default=200_000)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-steps", type=int, default=200)
    parser.add_argument("--arena-games", type=int, default=0, help="arena games against basic at the end")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    policy = train(args)
    seconds = time.perf_counter() - start
    policy.save(args.out)
    Policy.load(args.out)  # what was saved loads
    print(f"trained in {seconds:.0f} s; saved {args.out} ({os.path.getsize(args.out) / 1000:.0f} kB)")
    if args.eval_steps > 0:
        agreement, won = evaluate(policy, args.preset, 256, args.eval_steps, seed=args.seed + 1000)
        lives = "no game finished" if np.isnan(won) else f"wins {won:+.2f} lives a game"
        print(f"against basic (vector env): agrees with the heuristic {agreement:.1%}, {lives}")
    if args.arena_games > 0:
        print(arena_share(args.out, args.preset, args.players, args.arena_games, seed=args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
