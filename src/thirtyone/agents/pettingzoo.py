"""Thirty-One as a PettingZoo AEC environment (``pip install -e '.[agents]'`` in a checkout).

>>> from thirtyone.agents.pettingzoo import env
>>> game = env(preset="schwimmen", players=3)
>>> game.reset(seed=7)
>>> observation, reward, termination, truncation, info = game.last()
>>> game.agent_selection, observation["observation"].shape, int(observation["action_mask"].sum()) > 0
('player_1', (603,), True)

Importing this module registers the environment, so that PettingZoo's registry finds it:
``pettingzoo.make("aec", "thirtyone/ThirtyOne-v0", preset="widow", players=5)``.

- Agents ``player_0`` … ``player_{n-1}`` are the seats. Any preset, rule option (as keywords:
  ``lives=5``, ``three_of_a_kind="30.5"``), 2–9 players, ``win_reward`` and ``max_rounds``
  (:class:`~thirtyone.agents.config.EnvConfig`); an unknown option is refused at once.
- ``observe(agent)`` is ``{"observation": float32 [size], "action_mask": int8 [79]}``: the
  observation tensor of :mod:`thirtyone.agents.observation` (from that seat's view only) and the
  mask of :mod:`thirtyone.agents.action_ids` (all 0 unless it is that agent's move).
- Rewards (:mod:`thirtyone.agents.table`): when a round ends, every seat dealt in gets the
  others' mean lives lost minus its own; with ``win_reward``, -1 when put out and +1 for the winner. A seat put out
  is terminated (and steps once more with ``None``, as PettingZoo's dead agents do); when the game
  is over every agent is terminated; at ``max_rounds`` every agent is truncated.
- ``reset(seed=s)`` deals the game :class:`~thirtyone.sim.rng.CounterChance` deals for ``s``
  (the vector env's game of that seed); without a seed, a random one (``infos[agent]["seed"]``
  says which).
- :func:`env` wraps :class:`raw_env` in PettingZoo's usual wrappers: an illegal action ends the
  game with -1 for the agent that played it (``TerminateIllegalWrapper``), an id outside 0–78 is an
  assertion (``AssertOutOfBoundsWrapper``), and the order of calls is enforced. The raw env raises
  the engine's :class:`~thirtyone.refusals.IllegalActionError` and changes nothing.
- ``render()`` (``render_mode="ansi"`` or ``"human"``) writes the table as the current agent may see it.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from thirtyone.errors import missing_extra

try:
    import pettingzoo
    from gymnasium import spaces
    from pettingzoo.utils import wrappers
except ImportError as error:  # the agents extra is not installed
    raise missing_extra(error, "agents") from None

from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import layout_for
from thirtyone.agents.table import Table
from thirtyone.errors import ArgumentError

__all__ = ["env", "raw_env", "ENV_ID", "describe_table"]

ENV_ID = "thirtyone/ThirtyOne-v0"
"""The id this environment has in PettingZoo's registry."""

Observation = dict[str, npt.NDArray[Any]]


class raw_env(pettingzoo.AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name for the unwrapped env
    """The unwrapped AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "thirtyone_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, preset: str = "scat", players: int = 4, *, render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ArgumentError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.config = EnvConfig.make(preset, players, **options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.config.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = layout_for(self.config.players).size
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.table: Table | None = None

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Discrete(NUM_ACTIONS)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        table = Table(self.config, secrets.randbits(64) if seed is None else seed)
        self.table = table
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"seed": table.seed} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._agent(table.seat)

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation and action mask (all 0 unless it is to move).

        Raises:
            ArgumentError: for an agent that is not one of ``possible_agents``, or before :meth:`reset`.
        """
        try:
            seat = self._seats[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise ArgumentError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None
        table = self._table()
        mask = table.mask() if table.seat == seat else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": table.observation(seat), "action_mask": mask}

    def _table(self) -> Table:
        if self.table is None:
            raise ArgumentError("call reset() before using the environment")
        return self.table

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        if action is None:
            raise ArgumentError(f"{agent} is to move: give an action id (0-{NUM_ACTIONS - 1}), not None")
        step = table.step(action)  # refuses an illegal id with the game unchanged
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = step.rewards[self._seats[other]]
        for seat in step.eliminated:
            self.terminations[self.possible_agents[seat]] = True
        if step.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif step.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent(table.seat)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = describe_table(self._table(), self._seats[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table = None


def describe_table(table: Table, seat: int) -> str:
    """The table as seat ``seat`` sees it, in a few lines of text."""
    view = table.view(seat)
    lines = [f"round {view.round}, dealer {view.dealer}, {view.phase.value}, seat {view.current_seat} to move"]
    if view.discard_top is not None:
        lines.append(f"discard pile: {view.discard_top} ({view.discard_size} cards), stock {view.stock_size}")
    if view.widow is not None:
        lines.append(f"widow: {' '.join(map(str, view.widow))}, stock {view.stock_size}")
    lines.append(f"seat {seat} holds: {' '.join(map(str, view.hand)) if view.hand else '(unseen)'}")
    lines.append("lives: " + " ".join(f"{status.seat}:{status.lives}" for status in view.seats))
    return "\n".join(lines)


def env(preset: str = "scat", players: int = 4, **options: Any) -> pettingzoo.AECEnv[str, Observation, int]:
    """The AEC environment in PettingZoo's usual wrappers (illegal action: the game ends with -1
    for the agent that played it; see the module). Options as :class:`raw_env`."""
    wrapped: pettingzoo.AECEnv[str, Observation, int] = raw_env(preset, players, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


pettingzoo.register("aec", ENV_ID, entry_point=env)
