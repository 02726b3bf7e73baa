"""Getting the expert ready before anyone waits for it: the compiled simulator its rollouts run on.

The expert (the ``hard`` bot, hints) plays its rollouts on :mod:`thirtyone.sim`, whose numba
kernels compile on their first use after installing (up to half a minute; later processes load
them from numba's disk cache in about a second). :func:`load_simulator` loads them, once per
process; :func:`warm_up_simulator` does it on a thread of its own. The terminal game and the
server both use these (``thirtyone.tui.prepare``, ``thirtyone.server.autoplay``).
"""

from __future__ import annotations

import logging
import threading

from thirtyone.rules import Rules

__all__ = ["load_simulator", "warm_up_simulator", "WARM_UP_THREAD"]

log = logging.getLogger("thirtyone")

WARM_UP_THREAD = "thirtyone-warm-up"
"""The name of :func:`warm_up_simulator`'s thread."""

_loading = threading.Lock()
_loaded = False
_warming = threading.Lock()
_warmed = False


def load_simulator(rules: Rules | None = None) -> None:
    """Load the compiled kernels the expert's rollouts use for ``rules`` (default: the default
    rules; the kernels are the same for every ruleset), compiling them the first time after
    installing, once per process; a later call returns at once, a call while another thread loads
    them waits for it. Without numba, or for rules the simulator does not cover (the expert then
    plays its rollouts on the engine), there is nothing to load.

    Raises:
        Exception: whatever loading the simulator raised (the expert then falls back on its own).
    """
    global _loaded
    from thirtyone import sim  # imports numba: on the preparing thread, never a screen's or a loop's

    if not sim.available():
        return
    from thirtyone.sim.params import check_covered

    try:
        check_covered(rules or Rules())
    except sim.UnsupportedRulesError:
        return
    with _loading:
        if _loaded:
            return
        from thirtyone.bots.expert import ExpertBot
        from thirtyone.engine import Game

        game = Game(Rules(), 2, seed=0)  # the kernels are the same for every ruleset and table size
        seat = game.current_seat
        assert seat is not None
        ExpertBot(0, worlds=2, seconds=None, rollouts="sim").analyse(game.view(seat))
        _loaded = True


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


def _warm_up() -> None:
    try:
        load_simulator()
    except Exception:  # the expert falls back to the engine's rollouts; the server goes on
        log.exception("the compiled simulator could not be loaded")
