"""The vector env as a Stable-Baselines3 ``VecEnv`` (``pip install -e '.[rl]'``), which sb3-contrib's
``MaskablePPO`` trains on directly: one seat of ``num_envs`` games against the simulator's bots.

>>> from thirtyone.agents.sb3 import ThirtyOneVecEnv
>>> venv = ThirtyOneVecEnv(8, "scat", players=4, bots="heuristic")
>>> venv.reset().shape, venv.env_method("action_masks")[0].shape
((8, 714), (79,))

It is :class:`thirtyone.agents.gymnasium.ThirtyOneVectorEnv` (same options: ``bots``, ``seat``,
``illegal``, ``features``, rule options) in SB3's conventions:

- ``reset()`` takes the seed given by ``seed(s)`` (SB3's way: the first env's seed is the vector
  env's seed, the others are derived from it) and returns the observations (``float32 [N, size]``).
- ``step(actions)`` returns observations, rewards (``float32 [N]``, lives), ``dones`` (``bool [N]``:
  terminated or truncated) and one info dict per env, holding ``"seed"`` (the env's current game's
  seed) and, where a game was cut at ``max_rounds``, ``"TimeLimit.truncated": True``. The games
  reset in the same step; no ``"terminal_observation"`` is given (the seat has no move left in a
  game that ended), so SB3 does not bootstrap a truncated game's value.
- ``env_method("action_masks")`` gives each env's legal ids (``int8 [79]`` each): what
  ``MaskablePPO`` reads (``has_attr("action_masks")`` is true).
- An illegal id raises :class:`~thirtyone.sim.errors.SimInputError` (``illegal="raise"``), so a
  policy that ignores the masks stops at once; ``illegal="mask"`` plays a random legal id instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.errors import missing_extra

try:
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn
except ImportError as error:  # the rl extra is not installed
    raise missing_extra(error, "rl") from None

from thirtyone.agents.gymnasium import ThirtyOneVectorEnv
from thirtyone.errors import ArgumentError

__all__ = ["ThirtyOneVecEnv"]


class ThirtyOneVecEnv(VecEnv):
    """``num_envs`` games of one seat against the simulator's bots as an SB3 ``VecEnv`` (see the
    module; the options are :class:`~thirtyone.agents.gymnasium.ThirtyOneVectorEnv`'s).

    Raises:
        as :class:`~thirtyone.agents.gymnasium.ThirtyOneVectorEnv`.
    """

    def __init__(
        self,
        num_envs: int = 256,
        preset: str = "scat",
        players: int = 4,
        **options: Any,
    ) -> None:
        # copy=True: SB3 holds a step's observations past the next step, which would overwrite them in place
        self.env = ThirtyOneVectorEnv(num_envs, preset, players, copy=True, **options)
        self.render_mode = None
        super().__init__(self.env.num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: npt.NDArray[Any] | None = None

    def reset(self) -> VecEnvObs:
        seed = self._seeds[0]
        self._reset_seeds()
        self._reset_options()
        observations, info = self.env.reset(seed=seed)
        self.reset_infos = [{"seed": int(s)} for s in info["seed"]]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise ArgumentError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        observations, rewards, terminated, truncated, info = self.env.step(np.asarray(actions).reshape(-1))
        infos: list[dict[str, Any]] = [{"seed": int(s)} for s in info["seed"]]
        for i in np.flatnonzero(truncated):
            infos[i]["TimeLimit.truncated"] = True
        return observations, rewards.astype(np.float32), terminated | truncated, infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Every env's legal ids now (``int8 [N, 79]``)."""
        return self.env.action_masks()

    def close(self) -> None:
        """Nothing to release: the games live in this process's arrays."""

    def _rows(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of the (one, shared) vector env, once per env asked for."""
        value = getattr(self, attr_name) if attr_name == "render_mode" else getattr(self.env, attr_name)
        return [value for _ in self._rows(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the shared vector env (it is one object for every env)."""
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each env's row of the masks; any other method of the vector env
        is called once and its result given to every env asked for."""
        rows = self._rows(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """No env is wrapped in a Gymnasium wrapper: all ``False``."""
        return [False for _ in self._rows(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the next :meth:`reset` (every env's games are derived from it)."""
        self._seeds = [seed] + [None] * (self.num_envs - 1)
        return self._seeds

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return [int(index) for index in indices]
