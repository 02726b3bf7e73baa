from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # tests/support and the helpers, on every xdist worker too

collect_ignore = ["data"]
"""tests/data/ holds what tests read, and the scripts that made it with the code of their own commit
(server-0004/make.py imports that commit's test_server_support): nothing to collect, no doctest."""

# No time limit on an example: a loaded CI machine made slow examples fail on their speed, and
# speed is measured in benchmarks/, not asserted in tests.
settings.register_profile("thirtyone", deadline=None)
settings.load_profile("thirtyone")


@pytest.fixture(autouse=True, scope="session")
def _history_elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test keeps a game in the user's own history (``thirtyone play`` keeps each finished
    game under ``$XDG_DATA_HOME``: thirtyone.tui.history); the programs tests start inherit it."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    yield
    patch.undo()


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt, as in a terminal, for this test: a suite started in the
    background (``cmd &`` without job control) inherits SIGINT ignored, and Python then sets no
    handler of its own, so a test of what Ctrl-C does would see nothing happen."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server whose bots play at once, one for each browser test module
    (see support.web.running_server)."""
    from support.web import running_server  # only the browser tests start one

    with running_server(tmp_path_factory.mktemp(request.module.__name__)) as base:
        yield base


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """A local Ray of 2 CPUs (no dashboard) for each module that runs on Ray (the arena's backend, the
    judge's trainer); skips without Ray."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one for each browser test module."""
    from playwright.sync_api import sync_playwright  # only the browser tests need Playwright

    from support.web import ARGS
    from support.web import CHROMIUM

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


_COMPILE_KERNELS = """
import numpy as np
from thirtyone.agents.vector import VectorEnv
from thirtyone.bots.prepare import load_simulator
from thirtyone.sim import kernels
from thirtyone.sim.api import warm_up

with kernels.compiling():
    print("compiling", flush=True)
    warm_up()  # play_rounds_kernel, play_games_kernel
    load_simulator()  # the expert's rollouts: first_legal_kernel, rollout_kernel
    env = VectorEnv(2, "scat", 2)  # the vector env's reset_kernel and step_kernel
    env.step(env.reset(seed=0).mask.argmax(axis=1))
    kernels.rng_words(np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(1, np.uint64))
    kernels.shuffle_words(np.zeros(kernels.N_W, np.int64), 2, np.uint64(0))
"""
"""What the kernels' compiler (:func:`pytest_configure`) runs: every kernel the tests call, with
the argument types they call it with, compiled into numba's disk cache (or loaded from it)."""

_KERNEL_COMPILER = pytest.StashKey[Any]()


def pytest_configure(config: pytest.Config) -> None:
    """In the controller of a run on several workers (``pytest -n``): compile the simulator's
    kernels once, in a process of its own, while the workers start and run other tests; a worker
    that needs a kernel meanwhile waits for it and loads it from the cache
    (:func:`thirtyone.sim.kernels.compiling`), where each worker compiled every kernel itself
    before (a minute or more each on a cold cache)."""
    import importlib.util
    import subprocess

    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if importlib.util.find_spec("numba") is None:
        return
    compiler = subprocess.Popen(
        [sys.executable, "-c", _COMPILE_KERNELS],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert compiler.stdout is not None
    compiler.stdout.readline()  # it holds the cache now: the workers, which start after this hook, wait for it
    config.stash[_KERNEL_COMPILER] = compiler


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the kernels' compiler if the run ended before it did (what it saved stays cached)."""
    compiler = config.stash.get(_KERNEL_COMPILER, None)
    if compiler is not None:
        compiler.terminate()
        compiler.communicate()  # and close its pipe
