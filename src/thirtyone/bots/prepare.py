"""Getting the expert ready before anyone waits for it: the compiled simulator its rollouts run on.

The expert (the ``hard`` bot, hints) plays its rollouts on :mod:`thirtyone.sim`, whose numba
kernels compile on their first use after installing (half a minute on a busy machine); numba
keeps them in its disk cache (``cache=True``), so that later processes load them in about a
second. The cache lives beside the package's sources (``thirtyone/sim/__pycache__``) when that
folder is writable, as in a virtual environment, else in the user's cache folder
(``~/.cache/numba`` on Linux), or under ``NUMBA_CACHE_DIR`` when that is set.

:func:`load_simulator` loads them, once per process; :func:`warm_up_simulator` does it on a
thread of its own; :func:`compile_apart` compiles them in a child process, so that a compile
never holds this process's interpreter while the expert searches on the engine meanwhile (the
terminal game, :mod:`thirtyone.tui.prepare`). The server uses :func:`warm_up_simulator`
(:mod:`thirtyone.server.autoplay`).
"""

from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
import threading
from typing import Literal

from thirtyone.rules import Rules

__all__ = [
    "load_simulator",
    "simulator_loaded",
    "compile_apart",
    "warm_up_simulator",
    "warming",
    "SimulatorState",
    "WARM_UP_THREAD",
    "COMPILE_COMMAND",
]

SimulatorState = Literal["loaded", "unavailable", "not_covered"]
"""What :func:`load_simulator` found: the kernels are loaded; numba (or numpy) is not installed;
or the rules have an option the kernels do not play (the expert plays those on the engine)."""

COMPILE_COMMAND = (sys.executable, "-c", "from thirtyone.bots.prepare import load_simulator; load_simulator()")
"""The child process of :func:`compile_apart`: this Python, loading (the first time: compiling
and caching) the kernels."""

log = logging.getLogger("thirtyone")

WARM_UP_THREAD = "thirtyone-warm-up"
"""The name of :func:`warm_up_simulator`'s thread."""

_loading = threading.Lock()
_loaded = False
_warming = threading.Lock()
_warmed = False


def load_simulator(rules: Rules | None = None) -> SimulatorState:
    """Load the compiled kernels the expert's rollouts use for ``rules`` (default: the default
    rules; the kernels are the same for every ruleset), compiling them the first time after
    installing, once per process; a later call returns at once, a call while another thread loads
    them waits for it. Without numba, or for rules the simulator does not cover (the expert then
    plays its rollouts on the engine), there is nothing to load. Returns what it found
    (:data:`SimulatorState`).

    Raises:
        Exception: whatever loading the simulator raised (the expert then falls back on its own).
    """
    global _loaded
    from thirtyone import sim  # imports numba: on the preparing thread, never a screen's or a loop's

    if not sim.available():
        return "unavailable"
    if sim.cannot_play(rules or Rules()):
        return "not_covered"
    with _loading:
        if _loaded:
            return "loaded"
        from thirtyone.bots.expert import ExpertBot
        from thirtyone.engine import Game

        game = Game(Rules(), 2, seed=0)  # the kernels are the same for every ruleset and table size
        seat = game.current_seat
        assert seat is not None
        ExpertBot(0, worlds=2, seconds=None, rollouts="sim").analyse(game.view(seat))
        _loaded = True
    return "loaded"


def simulator_loaded() -> bool:
    """True once :func:`load_simulator` has loaded the kernels in this process."""
    return _loaded


def compile_apart() -> subprocess.Popen[bytes] | None:
    """Start :data:`COMPILE_COMMAND`: a child process that compiles the kernels into numba's cache
    (or finds them there), so that :func:`load_simulator` here then only loads them (about a
    second) and the compile never holds this process's interpreter. Its output goes nowhere (a
    screen may be drawing); wait for it, or kill it to stop. ``None`` when there is nothing to
    compile: numba is not installed, or this process has loaded the kernels already.

    Raises:
        OSError: when the child cannot be started (then load here instead).
    """
    if _loaded or importlib.util.find_spec("numba") is None:
        return None
    return subprocess.Popen(
        COMPILE_COMMAND,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # the terminal's ctrl+c and hang-up are the game's to handle
    )


def warm_up_simulator() -> None:
    """Once per process, in the background (a daemon thread, :data:`WARM_UP_THREAD`):
    :func:`load_simulator`, so that the expert's first move does not wait for its kernels. A
    failure is logged; the expert falls back on the engine's rollouts."""
    global _warmed
    with _warming:
        if _warmed:
            return
        _warmed = True
    threading.Thread(target=_warm_up, name=WARM_UP_THREAD, daemon=True).start()


def warming() -> bool:
    """True from :func:`warm_up_simulator`'s start until the kernels are loaded (for good, if
    loading failed): an expert asked to move meanwhile plays its rollouts on the engine rather than
    wait for the compiler (:func:`thirtyone.bots.work.bot_move`)."""
    return _warmed and not _loaded


def _warm_up() -> None:
    try:
        load_simulator()
    except Exception:  # the expert falls back to the engine's rollouts; the server goes on
        log.exception("the compiled simulator could not be loaded")
