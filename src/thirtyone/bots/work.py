"""Bot work with plain values in and out, so that it can run in another process (the server's
worker pools, :mod:`thirtyone.server.workers`): the expert's hint for a view, and a bot's move.

Everything here is picklable both ways: a :class:`~thirtyone.views.PlayerView` in, action ids
(:mod:`thirtyone.action_ids`: a bot's move), action notations (``"draw pile"``: a hint's moves),
suit letters and numbers out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Sequence
from typing import NamedTuple

from thirtyone.action_ids import action_id
from thirtyone.bots.belief import OpponentRead
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.making import make_bot
from thirtyone.bots.prepare import warming
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.cards import SUITS
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["Hint", "READ_SHOWN", "expert_hint", "told_reads", "bot_move", "start_worker", "ready"]


READ_SHOWN = 0.5
"""How sure the expert must be that an opponent collects a suit (the share of its worlds where
that suit is the opponent's best) for a hint to say so."""


class Hint(NamedTuple):
    """The expert's hint: ``moves``, every legal action's notation and estimate, the expert's
    choice first and then best first (as :class:`~thirtyone.bots.expert.Analysis` orders them;
    in lives: the others' mean loss minus one's own this round, rounded to 3 places; ``None``
    where no search was needed), and ``reads``, what it believes of the opponents
    (:func:`told_reads`); ``deals``, the fewest deals a move was valued over (``None``: no search)."""

    moves: list[tuple[str, float | None]]
    reads: list[tuple[int, str, float]]
    deals: int | None = None


def told_reads(reads: Sequence[OpponentRead]) -> list[tuple[int, str, float]]:
    """The reads a hint says: each opponent the expert is at least :data:`READ_SHOWN` sure
    collects a suit, as ``(seat, suit letter, probability rounded to 2 places)``, surest first
    ("Ben probably collects hearts")."""
    told = [read for read in reads if read.probability >= READ_SHOWN]
    told.sort(key=lambda read: (-read.probability, read.seat))
    return [(read.seat, SUITS[read.suit], round(read.probability, 2)) for read in told]


def expert_hint(
    view: PlayerView, seed: int, seconds: float, rollouts: Rollouts = "engine", deals: int = 0, longest: float = 0.0
) -> Hint:
    """The expert's hint for ``view``'s seat, which is to move, searching ``seconds`` at most;
    when that valued a move over fewer than ``deals`` deals (a busy or cold process), it searches
    again for ``deals`` deals, ``longest`` seconds at most, so that the values are not a few
    deals' noise. Where no search is needed (a single legal move, or looking at one's cards first,
    R6.6) the one move, with value ``None``, and no reads.

    Raises:
        ValueError: when it is not the view's seat to move.
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has no move now")
    if len(legal) == 1:
        return Hint([(str(legal[0]), None)], [])
    if view.phase is Phase.LOOK:
        return Hint([(next(str(action) for action in legal if str(action) == "look"), None)], [])
    analysis = ExpertBot(seed, worlds=1_000_000, seconds=seconds, rollouts=rollouts).analyse(view)
    if min(e.worlds for e in analysis.estimates) < deals:
        analysis = ExpertBot(seed, worlds=deals, seconds=longest, rollouts=rollouts).analyse(view)
    moves: list[tuple[str, float | None]] = [(str(e.action), round(e.mean, 3)) for e in analysis.estimates]
    return Hint(moves, told_reads(analysis.reads), min(e.worlds for e in analysis.estimates))


def bot_move(spec: str, seed: int, view: PlayerView) -> int | BotFailure:
    """The move (its id, :func:`~thirtyone.action_ids.action_id`) the bot named ``spec``
    (:func:`~thirtyone.bots.make_bot`), seeded with ``seed``, plays in ``view`` — one of
    ``view.legal_actions`` —, or the :class:`~thirtyone.bots.turn.BotFailure` that says why it gave
    none (:func:`~thirtyone.bots.turn.choose`, without its exception: what crosses to the server is
    plain data).

    An expert plays its rollouts on the engine while this process warms its kernels up
    (:func:`~thirtyone.bots.prepare.warming`; a worker starts that as it starts): the first move
    of a fresh server waits on no compiler (half a minute after installing).

    Raises:
        UnknownBotError: for a bad ``spec``.
    """
    bot = make_bot(spec, seed)
    if isinstance(bot, ExpertBot):
        bot.simulator_ready = lambda: not warming()
    action = choose(bot, view)
    if isinstance(action, BotFailure):
        return dataclasses.replace(action, error=None)
    return action_id(view, action)


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
