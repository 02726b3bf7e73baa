"""Thirty-One as a Gymnasium environment for one seat against bots in the others
(``pip install 'thirtyone[agents]'``).

>>> from thirtyone.agents.gymnasium import ThirtyOneEnv
>>> env = ThirtyOneEnv("scat", players=3, bots="basic")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum()) > 0
((603,), True)
>>> observation, reward, terminated, truncated, info = env.step(52)   # draw from the stock
>>> terminated, truncated
(False, False)

Importing this module registers it: ``gymnasium.make("thirtyone/ThirtyOne-v0", bots="heuristic")``
(``import thirtyone.agents`` does not; in a fresh process name the module in the id:
``gymnasium.make("thirtyone.agents.gymnasium:thirtyone/ThirtyOne-v0")``).

- The agent plays ``seat`` (default 0); every other seat is a bot (:func:`thirtyone.bots.make_bot`:
  ``random``, ``basic``, ``heuristic``, ``expert:50`` …), one name for all or one per other seat,
  seeded from the episode's seed. Any preset, rule option, 2–9 players, ``win_reward`` and
  ``max_rounds`` as :class:`~thirtyone.agents.config.EnvConfig` takes them.
- The observation is the seat's tensor (:mod:`thirtyone.agents.observation`), ``Box(0, 1, float32)``;
  the action an id of :mod:`thirtyone.agents.action_ids`, ``Discrete(79)``. ``info["action_mask"]``
  (and :meth:`ThirtyOneEnv.action_masks`, as sb3-contrib's MaskablePPO asks) gives the legal ids.
- ``reset(seed=s)`` deals the game of seed ``s`` (``info["seed"]`` is ``s``, the seed a
  :class:`~thirtyone.agents.table.Table`, the PettingZoo env and the vector env's ``seeds`` name a
  game by); a reset without a seed deals the next game of the generator that ``s`` seeded.
- The reward of a step is what the agent's seat was paid (:mod:`thirtyone.agents.table`) from its
  action until its next move, bots' moves included. The episode ends (``terminated``) when the
  game is over or the seat is put out, and is truncated at ``max_rounds``.
- An illegal id ends the episode with reward -1 (``illegal="terminate"``, the default, as
  PettingZoo's wrapper does) or raises the engine's :class:`~thirtyone.errors.IllegalActionError`
  with nothing changed (``illegal="raise"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # the agents extra is not installed: say how to install it
    kind = ModuleNotFoundError if isinstance(error, ModuleNotFoundError) else ImportError
    raise kind(f"{error} (pip install 'thirtyone[agents]')", name=error.name) from None

from thirtyone.agents.action_ids import NUM_ACTIONS, action_id
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import layout_for
from thirtyone.agents.pettingzoo import describe_table  # (which says the same without PettingZoo)
from thirtyone.agents.table import Table, check_seed
from thirtyone.bots import Bot, make_bot, parse_bot_list
from thirtyone.bots.runner import bot_action
from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError

__all__ = ["ThirtyOneEnv", "ENV_ID"]

ENV_ID = "thirtyone/ThirtyOne-v0"
"""The id this environment has in Gymnasium's registry."""

Observation = npt.NDArray[np.float32]


class ThirtyOneEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a Thirty-One table against bots (see the module).

    Raises:
        ArgumentError: for an unknown option, a seat outside the table, a bad ``illegal`` or ``render_mode``.
        UnknownBotError: for an unknown bot name, or more names than bot seats.
        RulesError: for a bad preset or rule option.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(
        self,
        preset: str = "scat",
        players: int = 4,
        *,
        bots: str | Sequence[str] = "basic",
        seat: int = 0,
        illegal: str = "terminate",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.config = EnvConfig.make(preset, players, **options)
        count = self.config.players
        place = whole_number(seat)
        if place is None or not 0 <= place < count:
            raise ArgumentError(f"seat is the agent's seat, 0 to {count - 1}, not {seat!r}")
        if illegal not in ("terminate", "raise"):
            raise ArgumentError(f"illegal is 'terminate' or 'raise', not {illegal!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ArgumentError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        text = bots if isinstance(bots, str) else ",".join(bots)
        self.bot_names = parse_bot_list(text, count - 1)
        self.seat = place
        self.illegal = illegal
        self.render_mode = render_mode
        size = layout_for(count).size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.table: Table | None = None
        self._bots: dict[int, Bot] = {}
        self._carry = 0.0
        self._ended = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # the seed is the game's (as the vector env's `seeds` and PettingZoo's reset take it); the
        # games after it are drawn from the generator it seeds
        game_seed = int(self.np_random.integers(2**63)) if seed is None else check_seed(seed)
        self.table = Table(self.config, game_seed)
        self._ended = False
        others = [s for s in range(self.config.players) if s != self.seat]
        self._bots = {s: make_bot(name, game_seed + s + 1) for s, name in zip(others, self.bot_names, strict=True)}
        self._carry = self._pay(self.table.pending)
        done = self._play_bots()
        if done:  # the bots ended the agent's game before its first move: deal another
            return self.reset(options=options)
        return self._observation(), self._info()

    def _pay(self, rewards: Sequence[float]) -> float:
        return float(rewards[self.seat])

    def _play_bots(self) -> bool:
        """Let the bots move until it is the agent's turn; True when the agent's game ended."""
        table = self._table()
        while not table.done and table.seat != self.seat:
            seat = table.seat
            assert seat is not None
            view = table.view(seat)
            step = table.step(action_id(view, bot_action(self._bots[seat], view)))
            self._carry += self._pay(step.rewards)
            if self.seat in step.eliminated:
                return True
        return table.done

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        table = self._table()
        if self._ended or table.done or table.seat != self.seat:
            raise ArgumentError("the episode is over: call reset()")
        number = whole_number(action)
        if number is None or not 0 <= number < NUM_ACTIONS or not table.mask()[number]:
            if self.illegal == "raise":
                table.step(action)  # raises, naming the rule; the game is unchanged
            self._carry = 0.0
            self._ended = True
            return self._observation(), -1.0, True, False, self._info(illegal=True)
        step = table.step(number)
        self._carry += self._pay(step.rewards)
        out = self.seat in step.eliminated
        done = out or self._play_bots()
        reward, self._carry = self._carry, 0.0
        self._ended = done
        terminated = done and (table.over or self._out())
        truncated = done and not terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def _out(self) -> bool:
        return self._table().game.is_out(self.seat)

    def _observation(self) -> Observation:
        return self._table().observation(self.seat)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        table = self._table()
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seed": table.seed}
        if illegal:
            info["illegal_action"] = True
        return info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal ids of the agent's move now (all 0 once the episode is over)."""
        table = self._table()
        if self._ended or table.done or table.seat != self.seat:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return table.mask()

    def _table(self) -> Table:
        if self.table is None:
            raise ArgumentError("call reset() before using the environment")
        return self.table

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = describe_table(self._table(), self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(ENV_ID, entry_point=ThirtyOneEnv)
