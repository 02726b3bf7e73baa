"""``judge``: the learned judge as a bot — it plays the policy of the network shipped with the
package (:mod:`thirtyone.judge.network`, trained by self-play: ``examples/train_judge.py``), with
numpy alone, in well under a millisecond a move.

It samples its move from the policy's probabilities with its own seeded random source (an
equilibrium's play is mixed: a player who always did the same would be read), so the same seed
plays the same game; ``greedy=True`` always plays the most probable move instead. A last turn
after a knock it plays by its exact value (:mod:`thirtyone.judge.lastturn`), as the expert does.
It plays the presets and table sizes its weights were made for (``cannot_play`` says why not,
before a game).

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

from thirtyone.action_ids import action_from_id
from thirtyone.actions import Action
from thirtyone.bots.base import SeededBot
from thirtyone.judge.lastturn import is_last_turn
from thirtyone.judge.lastturn import last_turn
from thirtyone.judge.network import Judged
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import JudgeWeightsError
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = ["JudgeBot", "SHIPPED", "shipped_judge"]

SHIPPED = Path(__file__).resolve().parent.parent / "judge" / "data" / "judge.npz"
"""The judge's weights shipped with the package."""


@functools.cache
def shipped_judge() -> JudgeNet:
    """The shipped weights (read once a process)."""
    return JudgeNet.load(SHIPPED)


class JudgeBot(SeededBot):
    """The judge's policy as a bot (see the module); ``greedy`` plays the most probable move."""

    name = "judge"

    def __init__(self, seed: int | None = None, greedy: bool = False, net: JudgeNet | None = None) -> None:
        super().__init__(seed)
        self.greedy = greedy
        self.net = net if net is not None else shipped_judge()

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
        """Why the weights cannot play this table (``None``: they can)."""
        why = self.net.fits(rules, players)
        return None if why is None else f"the judge's weights were {why} (give another bot for these rules)"

    def judge(self, view: PlayerView) -> Judged:
        """The network's probabilities and values of ``view``'s legal actions."""
        return self.net.judge(view)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The policy's move (sampled, or the most probable one when greedy); on a last turn
        after a knock the move of the highest exact value.

        Raises:
            JudgeWeightsError: at a table the weights were not made for.
        """
        if is_last_turn(view):
            return last_turn(view).best.action
        judged = self.net.judge(view)
        if self.greedy:
            return action_from_id(view, judged.best)
        ids = sorted(judged.probabilities)
        pick = self.rng.random()
        for number in ids:
            pick -= judged.probabilities[number]
            if pick < 0:
                return action_from_id(view, number)
        return action_from_id(view, ids[-1])
