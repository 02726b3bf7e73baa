"""Speed of the agent environments, measured in one run (issue: agent environments).

Prints agent steps per second (one step = one action of the seat to move), on one core, with a
masked random policy, for:

- the PettingZoo AEC env (``thirtyone.agents.pettingzoo``), raw and in PettingZoo's wrappers,
  the policy picking from ``observe()["action_mask"]`` in Python;
- PettingZoo's own ``performance_benchmark`` on the wrapped env (its turns per second);
- the vector env on the compiled kernels (``thirtyone.agents.vector``) with ``N`` games, the
  policy chosen in numpy from the mask array: ``argmax(uniform(N, 79) * mask)`` (target: at least
  1,000,000 agent steps/s), and the kernels' step alone (the first legal id, no random numbers).

Usage: ``python benchmarks/bench_agents.py [--seconds S] [--envs N] [--preset NAME] [--players P]
[--no-pettingzoo-benchmark]``. Figures vary with the machine and its load; compare the numbers
of one run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import time

import numpy as np

from thirtyone.agents.pettingzoo import env as pettingzoo_env
from thirtyone.agents.pettingzoo import raw_env
from thirtyone.agents.vector import VectorEnv


def aec_steps(game: object, seconds: float) -> float:
    """Agent steps/s of an AEC env under a masked random policy (dead agents' steps not counted)."""
    rng = np.random.default_rng(1)
    steps = 0
    game.reset(seed=1)  # type: ignore[attr-defined]
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in game.agent_iter():  # type: ignore[attr-defined]
            observation, _, termination, truncation, _ = game.last()  # type: ignore[attr-defined]
            if termination or truncation:
                game.step(None)  # type: ignore[attr-defined]
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))  # type: ignore[attr-defined]
            steps += 1
            del agent
        game.reset()  # type: ignore[attr-defined]
    return steps / (time.perf_counter() - start)


def vector_steps(env: VectorEnv, seconds: float, policy: str) -> float:
    """Agent steps/s of the vector env: ``policy`` ``random`` (masked uniform, in numpy) or ``first``."""
    rng = np.random.default_rng(1)
    out = env.reset(seed=1)
    uniform = np.empty((env.num_envs, out.mask.shape[1]), dtype=np.float32)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            if policy == "random":
                rng.random(dtype=np.float32, out=uniform)
                uniform *= out.mask
                actions = uniform.argmax(axis=1)
            else:
                actions = out.mask.argmax(axis=1)
            out = env.step(actions)
        steps += 50 * env.num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=2048)
    parser.add_argument("--preset", default="scat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-pettingzoo-benchmark", action="store_true")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(f"preset {args.preset}, {args.players} players, masked random policy, one core")
    vector = VectorEnv(args.envs, args.preset, args.players)
    vector.reset(seed=0)
    vector.step(vector.reset(seed=0).mask.argmax(axis=1))  # load (or compile) the kernels first
    raw = aec_steps(raw_env(args.preset, args.players), args.seconds)
    wrapped = aec_steps(pettingzoo_env(args.preset, args.players), args.seconds)
    fast = vector_steps(vector, args.seconds, "random")
    bare = vector_steps(vector, args.seconds, "first")
    print(f"{'environment':<52} {'agent steps/s':>15}")
    print(f"{'PettingZoo AEC env, raw':<52} {raw:>15,.0f}")
    print(f"{'PettingZoo AEC env, wrapped (env())':<52} {wrapped:>15,.0f}")
    print(f"{f'vector env, {args.envs} games, random in numpy':<52} {fast:>15,.0f}")
    print(f"{f'vector env, {args.envs} games, first legal id':<52} {bare:>15,.0f}")
    print(f"vector env / AEC env (raw): {fast / raw:,.0f}x")
    if not args.no_pettingzoo_benchmark:
        from pettingzoo.test import performance_benchmark

        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            performance_benchmark(pettingzoo_env(args.preset, args.players))
        turns = next(line for line in text.getvalue().splitlines() if "turns per second" in line)
        print(f"pettingzoo.test.performance_benchmark (wrapped env): {float(turns.split()[0]):,.0f} turns per second")


if __name__ == "__main__":
    main()
