"""Speed of the agent environments, measured in one run (issue: agent environments).

Prints agent steps per second (one step = one action of the seat to move), on one core, with a
masked random policy, for:

- the PettingZoo AEC env (``thirtyone.agents.pettingzoo``), raw and in PettingZoo's wrappers,
  the policy picking from ``observe()["action_mask"]`` in Python;
- PettingZoo's own ``performance_benchmark`` on the wrapped env (its turns per second);
- the vector env on the compiled kernels (``thirtyone.agents.vector``) with ``N`` games, the
  policy chosen in numpy from the mask array: ``argmax(uniform(N, 79) * mask)`` (target: at least
  1,000,000 agent steps/s), and the kernels' step alone (the first legal id, no random numbers);
- the same games through the Gymnasium vector env (``thirtyone.agents.gymnasium.ThirtyOneVectorEnv``,
  one agent seat against the simulator's ``basic``), handing out its buffers (``copy=False``) and
  copying them (``copy=True``, its default).

Usage: ``python benchmarks/bench_agents.py [--seconds S] [--envs N (1024)] [--preset NAME] [--players P]
[--no-pettingzoo-benchmark]``. Figures vary with the machine and its load; compare the numbers
of one run. Each is given overall and for the best quarter-second slice (on a shared machine the
least disturbed). Run it on one core: ``NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 taskset -c 0 …``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import time

for _name in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core: before numpy and numba start their thread pools

import numpy as np  # noqa: E402

from thirtyone.agents.gymnasium import ThirtyOneVectorEnv  # noqa: E402
from thirtyone.agents.pettingzoo import env as pettingzoo_env  # noqa: E402
from thirtyone.agents.pettingzoo import raw_env  # noqa: E402
from thirtyone.agents.vector import VectorEnv  # noqa: E402


class Rate:
    """Steps counted in slices of about ``SLICE`` seconds: the overall rate and the best slice's
    (the machine is shared: the best slice is the figure least disturbed by other work)."""

    SLICE = 0.25

    def __init__(self) -> None:
        self.steps = 0
        self.total = 0.0
        self.best = 0.0
        self._start = self._mark = time.perf_counter()
        self._at = 0

    def add(self, steps: int) -> None:
        self.steps += steps
        now = time.perf_counter()
        if now - self._mark >= self.SLICE:
            self.best = max(self.best, (self.steps - self._at) / (now - self._mark))
            self._mark, self._at = now, self.steps
        self.total = now - self._start

    @property
    def overall(self) -> float:
        return self.steps / self.total if self.total else 0.0


def aec_steps(game: object, seconds: float) -> Rate:
    """Agent steps/s of an AEC env under a masked random policy (dead agents' steps not counted)."""
    rng = np.random.default_rng(1)
    rate = Rate()
    game.reset(seed=1)  # type: ignore[attr-defined]
    while rate.total < seconds:
        for agent in game.agent_iter():  # type: ignore[attr-defined]
            observation, _, termination, truncation, _ = game.last()  # type: ignore[attr-defined]
            if termination or truncation:
                game.step(None)  # type: ignore[attr-defined]
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))  # type: ignore[attr-defined]
            rate.add(1)
            del agent
        game.reset()  # type: ignore[attr-defined]
    return rate


def vector_steps(env: VectorEnv, seconds: float, policy: str) -> Rate:
    """Agent steps/s of the vector env: ``policy`` ``random`` (masked uniform, in numpy) or ``first``."""
    rng = np.random.Generator(np.random.SFC64(1))  # numpy's fastest bit generator: noise is most of the cost
    out = env.reset(seed=1)
    uniform = np.empty((env.num_envs, out.mask.shape[1]), dtype=np.float32)
    rate = Rate()
    while rate.total < seconds:
        for _ in range(10):
            if policy == "random":
                rng.random(dtype=np.float32, out=uniform)  # uniform noise, 0 on illegal ids: argmax is a
                uniform *= out.mask  # uniform pick among the legal ones
                actions = uniform.argmax(axis=1)
            else:
                actions = out.mask.argmax(axis=1)
            out = env.step(actions)
        rate.add(10 * env.num_envs)
    return rate


def gymnasium_steps(env: ThirtyOneVectorEnv, seconds: float) -> Rate:
    """Agent steps/s of the Gymnasium vector env under the masked random policy in numpy."""
    rng = np.random.Generator(np.random.SFC64(1))
    _, info = env.reset(seed=1)
    uniform = np.empty((env.num_envs, info["action_mask"].shape[1]), dtype=np.float32)
    rate = Rate()
    while rate.total < seconds:
        for _ in range(10):
            rng.random(dtype=np.float32, out=uniform)
            uniform *= info["action_mask"]
            _, _, _, _, info = env.step(uniform.argmax(axis=1))
        rate.add(10 * env.num_envs)
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=1024)
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
    gym_views = gymnasium_steps(ThirtyOneVectorEnv(args.envs, args.preset, args.players, copy=False), args.seconds)
    gym_copies = gymnasium_steps(ThirtyOneVectorEnv(args.envs, args.preset, args.players), args.seconds)
    print(f"{'environment':<52} {'agent steps/s':>15} {'best slice':>15}")
    rows = [
        ("PettingZoo AEC env, raw", raw),
        ("PettingZoo AEC env, wrapped (env())", wrapped),
        (f"vector env, {args.envs} games, random in numpy", fast),
        (f"vector env, {args.envs} games, first legal id", bare),
        (f"Gymnasium vector env, {args.envs} games, copy=False", gym_views),
        (f"Gymnasium vector env, {args.envs} games, copy=True", gym_copies),
    ]
    for label, rate in rows:
        print(f"{label:<52} {rate.overall:>15,.0f} {rate.best:>15,.0f}")
    print(f"vector env (random in numpy) / AEC env (raw): {fast.overall / raw.overall:,.0f}x")
    target = "meets" if fast.overall >= 1_000_000 else "best slice meets" if fast.best >= 1_000_000 else "misses"
    print(f"target 1,000,000 agent steps/s on one core: {target}")
    if not args.no_pettingzoo_benchmark:
        from pettingzoo.test import performance_benchmark

        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            performance_benchmark(pettingzoo_env(args.preset, args.players))
        turns = next(line for line in text.getvalue().splitlines() if "turns per second" in line)
        print(f"pettingzoo.test.performance_benchmark (wrapped env): {float(turns.split()[0]):,.0f} turns per second")


if __name__ == "__main__":
    main()
