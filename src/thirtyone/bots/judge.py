"""``judge``: the learned judge as a bot — it plays the policy of the network shipped with the
package (:mod:`thirtyone.judge.network`, trained by self-play: ``examples/train_judge.py``), with
numpy alone, in well under a millisecond a move.

It samples its move from the policy's probabilities with its own seeded random source (an
equilibrium's play is mixed: a player who always did the same would be read), so the same seed
plays the same game; ``greedy=True`` always plays the most probable move instead, and so do
weights distilled from the expert (``meta["distilled"]``, :mod:`thirtyone.agents.distill`: their
policy's probabilities say how sure the network is of the expert's move, not a mixed play). A last turn
after a knock it plays by its exact value (:mod:`thirtyone.judge.lastturn`), as the expert does.
It plays the presets and table sizes its weights were made for (``cannot_play`` says why not,
before a game): the package ships two networks, one for the full game (``scat``, ``widow`` and
``schwimmen`` at every table size) and one for the solved mini game (:data:`SHIPPED`), and each
table is played by the one made for it.

>>> from thirtyone import Game, Rules
>>> bot = JudgeBot(seed=1)
>>> game = Game(Rules.preset("scat"), players=3, seed=4)
>>> view = game.view(game.current_seat)
>>> bot.choose(view, view.legal_actions) in view.legal_actions
True
>>> bot.cannot_play(Rules.preset("namu"), 3)
"the judge's weights were made for scat, schwimmen, widow, not namu (give another bot for these rules)"
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from thirtyone.action_ids import action_from_id
from thirtyone.actions import Action
from thirtyone.bots.base import SeededBot
from thirtyone.judge.lastturn import LastTurnMove
from thirtyone.judge.lastturn import NotALastTurnError
from thirtyone.judge.lastturn import is_last_turn
from thirtyone.judge.lastturn import last_turn
from thirtyone.judge.network import Judged
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import JudgeWeightsError
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = ["JudgeBot", "Valued", "counted_values", "SHIPPED", "VALUE_ERROR_BAR", "shipped_judge", "shipped_judges"]

_DATA = Path(__file__).resolve().parent.parent / "judge" / "data"

SHIPPED = (_DATA / "judge.npz", _DATA / "judge-mini.npz")
"""The judge's weights shipped with the package: the full game's, then the mini game's."""

VALUE_ERROR_BAR = 0.05
"""The most error (lives, root mean square) the network's values may have, measured against the
exact values of last turns (``python examples/judge_strength.py --set values --stamp``, kept in the
weights' ``meta["value_check"]``), for the hint and the review to show them: the review's
inaccuracy bar, so that no mark comes from the network's error alone. Above it (or unmeasured)
the expert values those decisions; last turns are counted exactly either way."""


@functools.cache
def shipped_judges() -> tuple[JudgeNet, ...]:
    """The shipped weights, in the order of :data:`SHIPPED` (read once a process)."""
    return tuple(JudgeNet.load(path) for path in SHIPPED)


def shipped_judge() -> JudgeNet:
    """The full game's shipped weights."""
    return shipped_judges()[0]


class Valued(NamedTuple):
    """Every legal move of a decision valued by the judge, best first (ties: the first legal move):
    each a :class:`~thirtyone.judge.lastturn.LastTurnMove` (value in lives: the others' average
    loss minus the seat's own this round, R2.3; the standard errors 0 but where a last turn was
    sampled). ``source`` says how: ``"exact"`` (a last turn counted over every deal),
    ``"sampled"`` (a last turn counted over ``worlds`` sampled deals of a fixed seed: the same
    values for the same view) or ``"network"`` (the values the network learned, ``worlds`` 0)."""

    moves: tuple[LastTurnMove, ...]
    source: str
    worlds: int

    @property
    def best(self) -> LastTurnMove:
        """The move of the highest value."""
        return self.moves[0]


def counted_values(view: PlayerView) -> Valued | None:
    """The values of a last turn after a knock (R6.2) counted (:func:`~thirtyone.judge.lastturn.last_turn`),
    best first (ties: the first legal move), ``exact`` or ``sampled`` (a fixed seed's deals): the
    same for the same view whatever the seed, and needing no weights. ``None`` for any other
    decision, or where a reshuffle (R4.3) or the turn limit (R6.7) could cut the last turn short.

    >>> from thirtyone import Game
    >>> counted_values(Game("scat", players=2, seed=4).view(1)) is None  # the first turn
    True
    """
    if not is_last_turn(view):
        return None
    try:
        turn = last_turn(view)
    except NotALastTurnError:
        return None
    order = {action: number for number, action in enumerate(view.legal_actions)}
    moves = sorted(turn.moves, key=lambda move: (-move.value, order[move.action]))
    return Valued(tuple(moves), "exact" if turn.exact else "sampled", turn.worlds)


class JudgeBot(SeededBot):
    """The judge's policy as a bot (see the module); ``greedy`` plays the most probable move;
    ``net`` plays those weights alone instead of the shipped ones."""

    name = "judge"

    def __init__(self, seed: int | None = None, greedy: bool = False, net: JudgeNet | None = None) -> None:
        super().__init__(seed)
        self.greedy = greedy
        self.nets = (net,) if net is not None else shipped_judges()

    @property
    def net(self) -> JudgeNet:
        """The first of its networks (the full game's, when it plays the shipped ones)."""
        return self.nets[0]

    def judge_for(self, rules: Rules, players: int) -> JudgeNet:
        """The network that plays a ``players``-seat table of ``rules`` (the first that fits; else
        the first, which then refuses the table)."""
        return next((net for net in self.nets if net.fits(rules, players) is None), self.nets[0])

    @classmethod
    def from_file(cls, seed: int | None, path: str) -> JudgeBot:
        """The bot ``judge:PATH``: weights of your own (``examples/train_judge.py`` writes them).

        Raises:
            JudgeWeightsError: for a file :meth:`JudgeNet.load` refuses (or no path).
        """
        if not path:
            raise JudgeWeightsError("bot 'judge:PATH' needs the path of its weights (judge plays the shipped ones)")
        return cls(seed, net=JudgeNet.load(path))

    def cannot_play(self, rules: Rules, players: int) -> str | None:
        """Why no network of the bot can play this table (``None``: one can)."""
        why = self.judge_for(rules, players).fits(rules, players)
        return None if why is None else f"the judge's weights were {why} (give another bot for these rules)"

    def value_error(self, rules: Rules, players: int) -> float | None:
        """The measured error of the values of the network that plays this table, in lives (the root
        mean square error of the gap between two moves' values against exact last turns, kept in
        its weights' ``meta["value_check"]``), or ``None`` where it was never measured."""
        check = self.judge_for(rules, players).meta.get("value_check")
        if not isinstance(check, dict) or not isinstance(check.get("gap_rmse"), int | float):
            return None
        return float(check["gap_rmse"])

    def cannot_value(self, rules: Rules, players: int) -> str | None:
        """Why the network's values are not shown at this table (``None``: they may be): it cannot
        play it (:meth:`cannot_play`), or its values' measured error (:meth:`value_error`) is above
        :data:`VALUE_ERROR_BAR` or was never measured.

        >>> JudgeBot().cannot_value(Rules.preset("scat"), 4)  # doctest: +ELLIPSIS
        "the judge's values are ... lives from the exact ones on last turns (...): the expert values this table"
        """
        why = self.cannot_play(rules, players)
        if why is not None:
            return why
        error = self.value_error(rules, players)
        if error is None:
            return "the judge's values were never checked against exact ones: the expert values this table"
        if error > VALUE_ERROR_BAR:
            positions = self.judge_for(rules, players).meta["value_check"].get("positions", "?")
            return (
                f"the judge's values are {error:.2f} lives from the exact ones on last turns "
                f"(root mean square, {positions} positions; {VALUE_ERROR_BAR} at most): "
                "the expert values this table"
            )
        return None

    def judge(self, view: PlayerView) -> Judged:
        """The probabilities and values of ``view``'s legal actions, by the network made for its table."""
        return self.judge_for(view.rules, view.players).judge(view)

    def values(self, view: PlayerView) -> Valued:
        """Every legal move of ``view`` (the seat to move) valued: a last turn after a knock (R6.2)
        by its exact value (:mod:`thirtyone.judge.lastturn`), any other decision by the network's
        values. The same view always gets the same values, whatever the seed.

        Raises:
            JudgeWeightsError: at a table the weights were not made for.
            ValueError: when it is not the view's seat to move.
        """
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has no move now")
        counted = counted_values(view)
        if counted is not None:
            return counted
        order = {action: number for number, action in enumerate(legal)}
        judged = self.judge(view)
        valued = [
            LastTurnMove(action_from_id(view, number), value, 0.0, 0.0) for number, value in judged.values.items()
        ]
        valued.sort(key=lambda move: (-move.value, order[move.action]))
        return Valued(tuple(valued), "network", 0)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The policy's move (sampled, or the most probable one when greedy or distilled); on a last turn
        after a knock the move of the highest exact value.

        Raises:
            JudgeWeightsError: at a table the weights were not made for.
        """
        if is_last_turn(view):
            try:
                return last_turn(view).best.action
            except NotALastTurnError:
                pass  # a reshuffle (R4.3) or the turn limit (R6.7) could cut it short: the network plays it
        net = self.judge_for(view.rules, view.players)
        judged = net.judge(view)
        if self.greedy or net.greedy:
            return action_from_id(view, judged.best)
        ids = sorted(judged.probabilities)
        pick = self.rng.random()
        for number in ids:
            pick -= judged.probabilities[number]
            if pick < 0:
                return action_from_id(view, number)
        return action_from_id(view, ids[-1])
