"""Bot work with plain values in and out, so that it can run in another process (the server's
worker pools, :mod:`thirtyone.server.workers`): the hint for a view — the judge's
(:func:`judge_hint`, in milliseconds) at a table whose values it may show (:func:`judge_refuses`),
else the expert's search (:func:`expert_hint`) — and a bot's move.

Everything here is picklable both ways: a :class:`~thirtyone.views.PlayerView` in, action ids
(:mod:`thirtyone.action_ids`: a bot's move), action notations (``"draw pile"``: a hint's moves),
suit letters and numbers out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import NamedTuple

from thirtyone.action_ids import action_id
from thirtyone.bots.belief import OpponentRead
from thirtyone.bots.expert import Analysis
from thirtyone.bots.expert import Estimate
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.expert import belief_reads
from thirtyone.bots.making import make_bot
from thirtyone.bots.prepare import warming
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.cards import SUITS
from thirtyone.rules import Rules
from thirtyone.views import Phase
from thirtyone.views import PlayerView

if TYPE_CHECKING:  # the judge loads numpy: imported where a judge is asked (`import thirtyone.bots` stays light)
    from thirtyone.bots.judge import JudgeBot
    from thirtyone.bots.judge import Valued

__all__ = [
    "Hint",
    "READ_SHOWN",
    "READ_SEED",
    "expert_hint",
    "judge_hint",
    "judge_analysis",
    "judge_refuses",
    "told_reads",
    "bot_move",
    "start_worker",
    "ready",
]


READ_SHOWN = 0.5
"""How sure a hint must be that an opponent collects a suit (the share of its worlds where that
suit is the opponent's best) to say so."""

READ_SEED = 31
"""The seed of the belief's worlds behind the judge's reads (:func:`judge_analysis`): the same
view always gets the same hint."""


class Hint(NamedTuple):
    """A hint: ``moves``, every legal action's notation and value (in lives: the others' average
    loss minus one's own this round, rounded to 3 places; ``None`` where nothing was weighed), the
    chosen move first and then best first (the judge's: best first; the expert's: its choice, then
    as :class:`~thirtyone.bots.expert.Analysis` orders them), and ``reads``, what it believes of
    the opponents (:func:`told_reads`); ``deals``, the fewest deals a move was valued over
    (``None``: no sampling — the judge's network, a last turn counted exactly, or no search)."""

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


def _unweighed(view: PlayerView) -> Hint | None:
    """The hint where nothing needs weighing (a single legal move, or looking at one's cards first,
    R6.6): that move, with value ``None``, and no reads; ``None`` elsewhere.

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
    return None


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
    unweighed = _unweighed(view)
    if unweighed is not None:
        return unweighed
    analysis = ExpertBot(seed, worlds=1_000_000, seconds=seconds, rollouts=rollouts).analyse(view)
    if min(e.worlds for e in analysis.estimates) < deals:
        analysis = ExpertBot(seed, worlds=deals, seconds=longest, rollouts=rollouts).analyse(view)
    moves: list[tuple[str, float | None]] = [(str(e.action), round(e.mean, 3)) for e in analysis.estimates]
    return Hint(moves, told_reads(analysis.reads), min(e.worlds for e in analysis.estimates))


def judge_refuses(rules: Rules, players: int) -> str | None:
    """Why the judge gives no hints at a ``players``-seat table of ``rules`` — its weights were not
    made for it, or its values were not measured within
    :data:`~thirtyone.bots.judge.VALUE_ERROR_BAR` lives of the exact ones
    (:meth:`~thirtyone.bots.judge.JudgeBot.cannot_value`): the expert hints there —; ``None``
    where it does.

    >>> from thirtyone import Rules
    >>> from thirtyone.bots.judge import JudgeBot
    >>> judge_refuses(Rules.preset("scat"), 4) == JudgeBot().cannot_value(Rules.preset("scat"), 4)
    True
    >>> judge_refuses(Rules.preset("namu"), 4)
    "the judge's weights were made for scat, schwimmen, widow, not namu (give another bot for these rules)"
    """
    return _judge().cannot_value(rules, players)


def _judge() -> JudgeBot:
    """A judge with the shipped weights (its module, which loads numpy, imported on first use)."""
    from thirtyone.bots.judge import JudgeBot

    return JudgeBot()


def _judged(view: PlayerView) -> tuple[Valued, tuple[OpponentRead, ...]]:
    """The judge's values of ``view``'s legal moves and what :data:`~thirtyone.bots.expert.READ_WORLDS`
    worlds of the belief, drawn with :data:`READ_SEED`, say of each opponent
    (:func:`~thirtyone.bots.expert.belief_reads`, as the expert reads on a last turn)."""
    return _judge().values(view), belief_reads(view, random.Random(READ_SEED))


def judge_analysis(view: PlayerView) -> Analysis:
    """The judge's reading of ``view``'s decision in the expert's shape: every legal move valued
    by :meth:`~thirtyone.bots.judge.JudgeBot.values` (a last turn after a knock exactly, R6.2;
    else the network's values), best first (ties: the first legal move), each
    :class:`~thirtyone.bots.expert.Estimate` with the deals it was counted over (0: the network);
    and what the belief's worlds say of each opponent (:data:`READ_SEED`: the same view always
    gets the same analysis).

    Raises:
        JudgeWeightsError: at a table the judge's weights were not made for (:func:`judge_refuses`).
        ValueError: when it is not the view's seat to move.
    """
    start = time.perf_counter()
    valued, reads = _judged(view)
    estimates = tuple(Estimate(m.action, m.value, m.stderr, valued.worlds, m.gap_stderr) for m in valued.moves)
    return Analysis(estimates, time.perf_counter() - start, reads)


def judge_hint(view: PlayerView) -> Hint:
    """The judge's hint for ``view``'s seat, which is to move: every legal move and its value
    (:meth:`~thirtyone.bots.judge.JudgeBot.values`: a last turn after a knock exactly, R6.2, else
    the network's values), best first, the reads it is sure enough of (:func:`told_reads` of the
    belief's worlds drawn with :data:`READ_SEED`), and ``deals`` ``None`` but on a last turn
    counted over sampled deals (their number). Where nothing needs weighing (a single legal move,
    or looking at one's cards first, R6.6) the one move, with value ``None``, and no reads, as
    :func:`expert_hint` has it. The same view always gets the same hint.

    >>> from thirtyone import Game, Rules
    >>> view = Game(Rules.preset("scat"), players=3, seed=4).view(1)
    >>> hint = judge_hint(view)
    >>> sorted(move for move, _ in hint.moves) == sorted(map(str, view.legal_actions)), hint.deals
    (True, None)
    >>> hint == judge_hint(view)
    True

    Raises:
        JudgeWeightsError: at a table the judge's weights were not made for (:func:`judge_refuses`).
        ValueError: when it is not the view's seat to move.
    """
    unweighed = _unweighed(view)
    if unweighed is not None:
        return unweighed
    valued, reads = _judged(view)
    moves: list[tuple[str, float | None]] = [(str(move.action), round(move.value, 3)) for move in valued.moves]
    return Hint(moves, told_reads(reads), valued.worlds if valued.source == "sampled" else None)


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
