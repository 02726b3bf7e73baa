"""``ismcts``: OpenSpiel's Information-Set MCTS (its Python ``ISMCTSBot``) playing Thirty-One as
an arena bot, on the game ``python_thirtyone`` (``pip install 'thirtyone[openspiel]'``).

>>> from thirtyone.bots import make_bot
>>> bot = make_bot("ismcts:30", seed=1)       # 30 simulations a move, deterministic for a seed
>>> bot.name, bot.simulations, bot.seconds
('ismcts', 30, None)

The bot sees its :class:`~thirtyone.views.PlayerView` only. For each decision it builds the
search's root from a world sampled consistently with that view, and gives the search a resampler
that draws a fresh such world (the expert's sampler, :func:`thirtyone.bots.expert.sample_position`)
for every simulation, so the tree is built over worlds the seat cannot tell apart. The search
looks to the end of the current round; a leaf is valued by playing the round out with the
heuristic policy for every seat (:func:`thirtyone.bots.heuristic.rollout_action`, on the compiled
simulator when it is installed), in lives: the others' mean loss minus one's own.

Budget, as the expert's: ``ismcts:200`` runs 200 simulations a decision (deterministic for a
seed), ``ismcts:0.5s`` searches for half a second; plain ``ismcts`` runs up to 1,000 and stops at 1 s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from thirtyone.errors import missing_extra

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts
except ImportError as error:  # the openspiel extra is not installed
    raise missing_extra(error, "openspiel") from None

from thirtyone.actions import Action
from thirtyone.actions import Look
from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import action_id
from thirtyone.agents.openspiel import ThirtyOneGame
from thirtyone.agents.openspiel import ThirtyOneState
from thirtyone.agents.openspiel import state_from_position
from thirtyone.agents.table import round_rewards
from thirtyone.bots.base import SeededBot
from thirtyone.bots.expert import _passes
from thirtyone.bots.expert import sample_position
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.knowledge import Knowledge
from thirtyone.engine import Game
from thirtyone.rules import OPTIONS
from thirtyone.rules import Rules
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["IsmctsBot", "HeuristicEvaluator", "make_bot", "DEFAULT_SIMULATIONS", "DEFAULT_SECONDS"]

DEFAULT_SIMULATIONS = 1000
"""Simulations a decision by default (with the time cap)."""
DEFAULT_SECONDS = 1.0
"""Time cap of a decision by default, in seconds."""
UCT_C = 2.0
"""The exploration constant of the search (lives are the unit of value)."""


class HeuristicEvaluator:
    """OpenSpiel's evaluator interface for the search: ``evaluate(state)`` plays the state's round
    out with the heuristic for every seat and returns each player's returns so far plus that
    round's rewards; ``prior(state)`` is uniform over the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._sim: bool | None = None

    def prior(self, state: ThirtyOneState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]

    def evaluate(self, state: ThirtyOneState) -> np.ndarray[Any, Any]:
        returns = np.array(state.returns(), dtype=np.float64)
        game = state._game
        if state.is_terminal() or game is None:
            return returns
        position = game.position()
        before = position.remaining_losses()
        seat = game.current_seat
        assert seat is not None
        first = rollout_action(game, seat, game.legal_actions())
        after = self._play_out(position, first)
        total: np.ndarray[Any, Any] = returns + np.array(round_rewards(before, after))
        return total

    def _play_out(self, position: Any, first: Action) -> tuple[int, ...]:
        """Each seat's remaining losses when the position's round ends, after ``first``."""
        if self._sim is None:
            from thirtyone import sim

            self._sim = not sim.cannot_play(position.rules)
        if self._sim:
            from thirtyone import sim

            batch = sim.rollout([position], [first], seed=self.rng.getrandbits(63))
            return tuple(int(left) for left in batch.remaining[0])
        game = Game.from_position(position, seed=self.rng.getrandbits(32), rounds=1)
        game.apply(first)
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            game.apply(rollout_action(game, seat, game.legal_actions()))
        result = game.round_logs[0].result
        assert result is not None
        return result.remaining


class _Search(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a time budget besides its count of simulations."""

    def __init__(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self.simulations_run = 0

    def run_search(self, state: Any) -> Any:
        if self._seconds is None:
            self.simulations_run = self._max_simulations
            return super().run_search(state)
        deadline = time.perf_counter() + self._seconds
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        key = self.get_state_key(state)
        done = 0
        while done < self._max_simulations and (done < 2 or time.perf_counter() < deadline):
            sampled = self.sample_root_state(state)
            assert key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            done += 1
        self.simulations_run = done
        return self.get_final_policy(state, self._root_node)


_GAMES: dict[tuple[Rules, int], ThirtyOneGame] = {}


def game_for(rules: Rules, players: int) -> ThirtyOneGame:
    """The ``python_thirtyone`` game of these rules (made once)."""
    key = (rules, players)
    game = _GAMES.get(key)
    if game is None:
        preset, diff = rules.nearest_preset()
        options = "+".join(f"{name}:{OPTIONS[name].format(value)}" for name, value in diff.items())
        game = ThirtyOneGame({"players": players, "preset": preset, "options": options})
        assert game.config.rules == rules
        _GAMES[key] = game
    return game


class IsmctsBot(SeededBot):
    """OpenSpiel's ISMCTS with heuristic rollouts (see the module): ``simulations`` a decision,
    ``seconds`` its time cap (``None``: none, deterministic for a seed)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int = DEFAULT_SIMULATIONS,
        seconds: float | None = DEFAULT_SECONDS,
    ) -> None:
        super().__init__(seed)
        self.simulations = simulations
        self.seconds = seconds
        self._numpy = np.random.RandomState(self.rng.getrandbits(32))
        self.evaluator = HeuristicEvaluator(self.rng.getrandbits(63))

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.LOOK:
            return Look()
        game = game_for(view.rules, view.players)
        knowledge = Knowledge.from_view(view)
        passes = _passes(view)

        def world(state: Any = None, player: Any = None) -> ThirtyOneState:
            return state_from_position(game, sample_position(view, knowledge, passes, self.rng))

        search = _Search(
            game,
            self.evaluator,
            UCT_C,
            self.simulations,
            random_state=self._numpy,
            seconds=self.seconds,
        )
        search.set_resampler(world)
        number = int(search.step(world()))
        action = action_from_id(view, number)
        if action not in legal:  # pragma: no cover - the search plays the root's legal ids
            raise pyspiel.SpielError(f"ISMCTS chose {action}, which is not legal")
        assert action_id(view, action) == number
        return action


def make_bot(seed: int | None = None, budget: str | None = None) -> IsmctsBot:
    """The factory of ``ismcts`` (entry point ``thirtyone.bots``): ``budget`` ``"200"`` (simulations)
    or ``"0.5s"`` (seconds), as the expert's.

    Raises:
        UnknownBotError: for a bad budget.
    """
    from thirtyone.bots import MAX_EXPERT_SECONDS
    from thirtyone.bots import MAX_EXPERT_WORLDS
    from thirtyone.bots import UnknownBotError

    if budget is None:
        return IsmctsBot(seed)
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= MAX_EXPERT_SECONDS:
                raise ValueError
            return IsmctsBot(seed, simulations=MAX_EXPERT_WORLDS, seconds=seconds)
        simulations = int(budget)
        if not 1 <= simulations <= MAX_EXPERT_WORLDS:
            raise ValueError
        return IsmctsBot(seed, simulations=simulations, seconds=None)
    except ValueError:
        raise UnknownBotError(
            f"bad ismcts budget {budget!r}: give 1 to {MAX_EXPERT_WORLDS:,} simulations per decision (ismcts:200) "
            f"or more than 0 and up to {MAX_EXPERT_SECONDS:,.0f} seconds (ismcts:0.5s)"
        ) from None
