"""Thirty-One as a Gymnasium environment for one seat against bots in the others
(``pip install -e '.[agents]'`` in a checkout).

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
- ``reset(seed=s)`` deals the game of seed ``s`` (``info["seed"]`` is ``s``, a ``numpy.uint64``:
  the seed a :class:`~thirtyone.agents.table.Table`, the PettingZoo env and the vector env's
  ``seeds`` name a game by); a reset without a seed deals the next game of the generator that
  ``s`` seeded.
- The reward of a step is what the agent's seat was paid (:mod:`thirtyone.agents.table`) from its
  action until its next move, bots' moves included. The episode ends (``terminated``) when the
  game is over or the seat is put out, and is truncated at ``max_rounds``.
- An illegal id ends the episode with reward -1 (``illegal="terminate"``, the default, as
  PettingZoo's wrapper does) or raises the engine's :class:`~thirtyone.refusals.IllegalActionError`
  with nothing changed (``illegal="raise"``).

:class:`ThirtyOneVectorEnv` is the same seat in ``num_envs`` games at once, a
``gymnasium.vector.VectorEnv`` on the compiled kernels (:class:`~thirtyone.agents.vector.VectorEnv`);
``gymnasium.make_vec(ENV_ID, num_envs=1024, vectorization_mode="vector_entry_point")`` makes one.

>>> venv = ThirtyOneVectorEnv(4, "scat", players=3, bots="heuristic")
>>> observations, info = venv.reset(seed=1)
>>> observations.shape, info["action_mask"].shape, venv.action_space
((4, 603), (4, 79), MultiDiscrete([79 79 79 79]))
>>> observations, rewards, terminated, truncated, info = venv.step(info["action_mask"].argmax(axis=1))
>>> rewards.dtype.name, terminated.dtype.name, info["seed"].shape
('float64', 'bool', (4,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import SupportsFloat

import numpy as np
import numpy.typing as npt

from thirtyone.errors import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # the agents extra is not installed
    raise missing_extra(error, "agents") from None

from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.action_ids import action_id
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import layout_for
from thirtyone.agents.pettingzoo import describe_table  # (which says the same without PettingZoo)
from thirtyone.agents.table import Table
from thirtyone.agents.table import check_seed
from thirtyone.agents.vector import VectorStep
from thirtyone.bots import Bot
from thirtyone.bots import make_bot
from thirtyone.bots import parse_bot_list
from thirtyone.bots.runner import bot_action
from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError

if TYPE_CHECKING:
    from thirtyone.agents.vector import VectorEnv

__all__ = ["ThirtyOneEnv", "ThirtyOneVectorEnv", "ENV_ID"]

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
        """Let the bots move until it is the agent's turn; True when the agent's game ended. Each
        move is a step of the agents' table (:meth:`Table.step <thirtyone.agents.table.Table.step>`:
        the table loop's :func:`~thirtyone.table_loop.play`, and the rewards it pays)."""
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
        # numpy's uint64: Gymnasium's vector envs batch a Python int as int64, and half the seeds are above it
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seed": np.uint64(table.seed)}
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


class ThirtyOneVectorEnv(gymnasium.vector.VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """The seat ``seat`` of ``num_envs`` games against the simulator's bots, a Gymnasium vector env
    on the compiled kernels (see the module; ``pip install -e '.[agents]'``).

    - ``bots``: the other seats, as :class:`ThirtyOneEnv` names them, but only the bots the
      simulator plays: ``random``, ``basic``, ``heuristic`` (``easy``, ``medium``).
    - ``reset(seed=s)``: env ``i``'s ``g``-th game has seed ``derive(derive(s, i), g)``;
      ``info["seed"]`` (``uint64 [N]``) gives each env's current game's seed, which
      :class:`ThirtyOneEnv` (``reset(seed=...)``) deals as the same game. ``seed=None`` draws one.
    - ``step(actions)`` (``int [N]``, an action id per env) returns observations
      (``float32 [N, size]``; ``size + 14`` with ``features=True``: the card sums of
      :func:`thirtyone.agents.policy.features` appended), rewards (``float64 [N]``: what the seat
      was paid, in lives, from its action to its next move, the bots' moves included: a round's
      rewards arrive with the step that ends it), ``terminated`` and ``truncated`` (``bool [N]``:
      the game is over or the seat put out, or the game cut at ``max_rounds`` with the seat in,
      as :class:`ThirtyOneEnv` says) and ``info`` with ``"action_mask"`` (``int8
      [N, 79]``, also :meth:`action_masks`), ``"seed"`` and, with ``illegal="mask"``,
      ``"replaced"`` (``bool [N]``).
    - Auto-reset in the same step (``metadata["autoreset_mode"]`` is ``SAME_STEP``), as
      Gymnasium's own vector envs do it: where the seat's episode ended (its game over or cut, or
      the seat put out), the outputs are already the env's next game's, and ``info`` holds the
      episode's last ones: ``"final_obs"`` (an object array, the final observation where
      ``info["_final_obs"]`` is true, ``None`` elsewhere: what :class:`ThirtyOneEnv` returns at
      its last step) and ``"final_info"`` (the last step's info: ``"action_mask"`` all 0 and the
      ended game's ``"seed"``, each with its ``_`` mask), with ``info["_final_info"]``. Each key of
      ``info`` has its mask (``"_action_mask"``, ``"_seed"``: every env), as Gymnasium's
      ``SyncVectorEnv`` of :class:`ThirtyOneEnv` gives them.
    - An illegal id (outside ``info["action_mask"]``) raises
      :class:`~thirtyone.sim.errors.SimInputError` naming the env, the id and the legal ids, and no
      game changes (``illegal="raise"``, the default); ``illegal="mask"`` plays a random legal id
      instead and flags it in ``info["replaced"]``.
    - ``copy=False`` returns the observations and masks as read-only views of buffers that the
      next step updates in place (fastest; copy what you keep); ``copy=True`` (the default) copies.

    Raises:
        SimInputError: for a bad ``num_envs``, ``illegal``, or a bot the simulator does not play.
        UnknownBotError: for an unknown bot name, or more names than bot seats.
        ArgumentError: for an unknown option or a seat outside the table.
        SimUnavailableError: without numba.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(
        self,
        num_envs: int = 1024,
        preset: str = "scat",
        players: int = 4,
        *,
        bots: str | Sequence[str] = "basic",
        seat: int = 0,
        illegal: str = "raise",
        features: bool = False,
        copy: bool = True,
        **options: Any,
    ) -> None:
        from thirtyone.agents.vector import VectorEnv

        config = EnvConfig.make(preset, players, **options)
        count = config.players
        place = whole_number(seat)
        if place is None or not 0 <= place < count:
            raise ArgumentError(f"seat is the agent's seat, 0 to {count - 1}, not {seat!r}")
        if not isinstance(features, bool) or not isinstance(copy, bool):
            raise ArgumentError(f"features and copy are True or False, not {features!r} and {copy!r}")
        names = parse_bot_list(bots if isinstance(bots, str) else ",".join(bots), count - 1)
        seats = [*names[:place], "agent", *names[place:]]
        self.env: VectorEnv = VectorEnv(
            num_envs,
            config.rules,
            count,
            illegal=illegal,
            seats=seats,
            win_reward=config.win_reward,
            max_rounds=config.max_rounds,
            final_seat=place,
        )
        self.num_envs = self.env.num_envs
        self.seat = place
        self.features = features
        self.copy = copy
        size = self.env.observation_size
        if features:
            from thirtyone.agents.policy import EXTRA

            high = np.concatenate([np.ones(size, np.float32), np.full(EXTRA, 2.0, np.float32)])
            self.single_observation_space = spaces.Box(0.0, high, dtype=np.float32)
        else:
            self.single_observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: npt.NDArray[np.int8] | None = None
        self._out_flag = layout_for(count).slices["out"].start
        """Where an observation says that its own seat is out (slot 0 of ``out``)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal every env's first game (see the class).

        Raises:
            ArgumentError: for a seed that is not one whole number (a list of seeds: give one).
        """
        if seed is not None and not isinstance(seed, int | np.integer):
            raise ArgumentError(
                f"seed is one whole number for all the envs (env i's games are derived from it), not {seed!r}"
            )
        out = self.env.reset(seed=seed)
        return self._observations(out.obs), self._info(out)

    def step(
        self, actions: Any
    ) -> tuple[Observation, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        played = self.env.seeds.copy()  # the games this step plays: an auto-reset deals others
        out = self.env.step(actions)
        rewards: npt.NDArray[np.float64] = out.rewards[:, self.seat].copy()
        # a seat put out in a game then cut at max_rounds: its episode ended (terminated), as ThirtyOneEnv's
        put_out = self.env.final_obs[:, self._out_flag] == 1.0
        terminated = (out.ended == 1) | ((out.ended == 2) & put_out)
        truncated = (out.ended == 2) & ~put_out
        return self._observations(out.obs), rewards, terminated, truncated, self._info(out, played)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal ids of every env's move now (``int8 [N, 79]``), as sb3-contrib asks.

        Raises:
            SimInputError: before :meth:`reset`.
        """
        if self._mask is None:
            from thirtyone.sim.errors import SimInputError

            raise SimInputError("call reset() before action_masks()")
        return self._mask

    def _observations(self, obs: Observation) -> Observation:
        if self.features:
            from thirtyone.agents.policy import features

            return features(obs, self.env.players)
        return obs.copy() if self.copy else obs

    def _info(self, out: VectorStep, played: npt.NDArray[np.uint64] | None = None) -> dict[str, Any]:
        """The step's ``info`` (see the class): ``played`` holds the seeds of the games the step
        played, for the final info of those that ended."""
        self._mask = out.mask.copy() if self.copy else out.mask
        every = np.ones(self.num_envs, dtype=np.bool_)
        info: dict[str, Any] = {"action_mask": self._mask, "_action_mask": every, "seed": self.env.seeds.copy()}
        info["_seed"] = every.copy()
        if self.env.illegal == "mask":
            info["replaced"], info["_replaced"] = out.replaced.astype(bool), every.copy()
        ended = out.ended != 0
        if played is None or not ended.any():
            return info
        rows = np.flatnonzero(ended)
        final = np.full(self.num_envs, None, dtype=object)
        for row, observation in zip(rows, self._observations(self.env.final_obs[rows]), strict=True):
            final[row] = observation
        last: dict[str, Any] = {"action_mask": np.zeros_like(out.mask), "_action_mask": ended}
        last["seed"], last["_seed"] = np.where(ended, played, 0).astype(np.uint64), ended.copy()
        if self.env.illegal == "mask":
            last["replaced"], last["_replaced"] = np.where(ended, out.replaced, 0).astype(bool), ended.copy()
        info.update(final_obs=final, _final_obs=ended.copy(), final_info=last, _final_info=ended.copy())
        return info


gymnasium.register(ENV_ID, entry_point=ThirtyOneEnv, vector_entry_point=ThirtyOneVectorEnv)
