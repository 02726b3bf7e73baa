"""Bot work with plain values in and out, so that it can run in another process (the server's
worker pools, :mod:`thirtyone.server.workers`): the expert's hint for a view, and a bot's move.

Everything here is picklable both ways: a :class:`~thirtyone.views.PlayerView` in, action
notations (``"draw pile"``) and numbers out.
"""

from __future__ import annotations

import contextlib
import os

from thirtyone.bots import make_bot
from thirtyone.bots.expert import ExpertBot, Rollouts
from thirtyone.views import Phase, PlayerView

__all__ = ["hint_moves", "bot_move", "start_worker", "ready"]


def hint_moves(
    view: PlayerView, seed: int, seconds: float, rollouts: Rollouts = "engine"
) -> list[tuple[str, float | None]]:
    """The expert's hint for ``view``'s seat, which is to move: every legal action's notation and
    estimate, best first (in lives: the others' mean loss minus one's own this round, rounded to
    3 places), searching ``seconds`` at most. Where no search is needed (a single legal move, or
    looking at one's cards first, R6.6) the one move, with value ``None``.

    Raises:
        ValueError: when it is not the view's seat to move.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has no move now")
    if len(legal) == 1:
        return [(str(legal[0]), None)]
    if view.phase is Phase.LOOK:
        return [(next(str(action) for action in legal if str(action) == "look"), None)]
    bot = ExpertBot(seed, worlds=1_000_000, seconds=seconds, rollouts=rollouts)
    analysis = bot.analyse(view)
    return [(str(estimate.action), round(estimate.mean, 3)) for estimate in analysis.estimates]


def bot_move(spec: str, seed: int, view: PlayerView) -> str:
    """The move (its notation) the bot named ``spec`` (:func:`~thirtyone.bots.make_bot`), seeded
    with ``seed``, plays in ``view``; always one of ``view.legal_actions``.

    Raises:
        ValueError: when the bot chose an action that is not legal, or it is not the view's move.
        UnknownBotError: for a bad ``spec``.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has no move now")
    action = make_bot(spec, seed).choose(view, legal)
    if action not in legal:
        raise ValueError(f"the bot chose {action}, which is not legal")
    return str(action)


def start_worker(niceness: int = 10, warm: bool = False) -> None:
    """A worker process's start: a lower priority than the server's own, so that the work it is
    given never takes a core from the server's event loop; with ``warm``, the compiled simulator
    the expert's rollouts use is loaded in the background (:func:`~thirtyone.bots.prepare.warm_up_simulator`)."""
    with contextlib.suppress(AttributeError, OSError):  # not every platform lowers priority
        os.nice(niceness)
    if warm:
        from thirtyone.bots.prepare import warm_up_simulator

        warm_up_simulator()


def ready() -> bool:
    """Nothing: a job that starts a worker (and its warm-up) before real work comes."""
    return True
