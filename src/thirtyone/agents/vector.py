"""N games stepped at once on the compiled kernels (numba, a dependency of the package): a vector
environment whose actions, observations, masks and rewards are numpy arrays.

>>> import numpy as np
>>> from thirtyone.agents.vector import VectorEnv
>>> env = VectorEnv(8, "scat", players=4)
>>> out = env.reset(seed=1)
>>> out.obs.shape, out.mask.shape, out.agent.shape
((8, 714), (8, 79), (8,))
>>> actions = np.argmax(out.mask, axis=1)            # the lowest legal id of every game
>>> out = env.step(actions)
>>> out.rewards.shape, out.ended.dtype.name
((8, 4), 'int8')

Every game plays exactly as :class:`~thirtyone.agents.table.Table` (and so the PettingZoo and
Gymnasium envs) plays the game of the same seed with the same action ids: the same observations
(:mod:`thirtyone.agents.observation`), masks, seats to move, rewards, terminations and truncations
— the tests hold the two equal step for step.

- :meth:`VectorEnv.reset` deals game 0 of every env: env ``i``'s ``g``-th game has seed
  ``derive(derive(seed, i), g)`` (:mod:`thirtyone.sim.rng`; ``seeds`` gives each env's current
  game's seed, the seed its :class:`~thirtyone.agents.table.Table` would take).
- :meth:`VectorEnv.step` takes one action id per env (``int`` array ``[N]``), and returns a
  :class:`VectorStep`: ``obs`` (``float32 [N, size]``, the seat to move's observation),
  ``mask`` (``int8 [N, 79]``), ``agent`` (``int64 [N]``, the seat to move), ``rewards``
  (``float64 [N, players]``, what the step paid each seat), ``ended`` (``int8 [N]``: 0 the game
  goes on, 1 terminated, 2 truncated at ``max_rounds``) and ``replaced`` (``int8 [N]``, see
  below). A game that ended is replaced at once by the env's next game (auto-reset): the outputs
  are then the new game's, and the rewards its last step's. The arrays are read-only views of
  the env's buffers, which the next step updates in place (the observations only where they
  change): copy what you keep.
- An illegal action id (or one outside 0–78) stops the call with a
  :class:`~thirtyone.sim.errors.SimInputError` naming the env, the id and the legal ids, before any
  game changes (``illegal="raise"``, the default); with ``illegal="mask"`` it is replaced by the
  simulator's ``random`` policy's legal pick and flagged in ``replaced``.
- ``seats`` lets the simulator's policies play some seats (``"random"``, ``"basic"`` or
  ``"heuristic"``, the bots' moves, as :func:`thirtyone.sim.play_games` plays them; ``"easy"`` and
  ``"medium"`` as the bots' levels): after each agent's action they move until an agent's seat is
  to move, so ``agent`` only ever names an agent's seat, and ``rewards`` sum what every seat was
  paid meanwhile (a game the agents are out of is played to its end at once). ``teacher=True``
  fills ``teacher`` (``int64 [N]``) with the id the heuristic would play for the seat to move — a
  legal id, for imitation learning; otherwise it stays -1.
- ``final_seat`` (the seat of the one agent, the others played by policies) keeps that seat's
  observation as its episode ends — the move that puts it out, or ends or cuts its game — in
  :attr:`VectorEnv.final_obs`, the rows of the envs that ended in the step: the observation
  :class:`~thirtyone.agents.table.Table` gives it then (after a game cut at ``max_rounds``, as
  the engine has it: with the next round dealt), for Gymnasium's same-step auto-reset
  (``info["final_obs"]``).
- An env can be pickled or deep-copied (to another process, for a checkpoint): the copy goes on
  exactly as the original would.

>>> env = VectorEnv(4, "scat", 3, seats=["agent", "basic", "heuristic"], teacher=True)
>>> out = env.reset(seed=2)
>>> out.agent.tolist(), bool(out.mask[np.arange(4), out.teacher].all())
([0, 0, 0, 0], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.action_ids import describe_id
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import layout_for
from thirtyone.agents.table import check_seed
from thirtyone.bots.levels import sim_policy
from thirtyone.rules import Rules
from thirtyone.sim import SimUnavailableError
from thirtyone.sim import available
from thirtyone.sim import unavailable_reason
from thirtyone.sim.codes import POLICY_CODES
from thirtyone.sim.errors import SimInputError
from thirtyone.sim.rng import derive

__all__ = ["VectorEnv", "VectorStep", "MAX_ENVS"]

MAX_ENVS = 1 << 20
"""The most games one vector env holds (1,048,576)."""


_Array = npt.NDArray[Any]
_KernelState = tuple[_Array, _Array, _Array, _Array, _Array, _Array, _Array, _Array, _Array, _Array, _Array, _Array]
"""The twelve arrays every step kernel starts with (:meth:`VectorEnv._kernel_state`)."""


class VectorStep(NamedTuple):
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return (see the module)."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    agent: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float64]
    ended: npt.NDArray[np.int8]
    replaced: npt.NDArray[np.int8]
    teacher: npt.NDArray[np.int64]


class VectorEnv:
    """``num_envs`` games of one ruleset, stepped together on the kernels (see the module).
    Options as :class:`~thirtyone.agents.config.EnvConfig`, ``illegal`` (``"raise"`` or ``"mask"``),
    ``seats`` (who plays each seat: ``"agent"``, or a policy of the simulator, ``"random"``,
    ``"basic"``, ``"heuristic"``; default every seat an agent) and ``teacher`` (name the move the
    heuristic would play for the agent to move, in ``teacher``, for imitation).

    Raises:
        SimUnavailableError: without numba.
        ArgumentError: for an unknown option (naming it).
        SimInputError: for a bad ``num_envs`` or ``illegal``.
        UnsupportedRulesError, RulesError: for rules the kernels do not cover, or bad ones.
    """

    def __init__(
        self,
        num_envs: int,
        preset: str | Rules = "scat",
        players: int = 4,
        *,
        illegal: str = "raise",
        seats: Sequence[str] | None = None,
        teacher: bool = False,
        final_seat: int | None = None,
        **options: Any,
    ) -> None:
        if not available():
            raise SimUnavailableError(unavailable_reason())
        from thirtyone.sim import api
        from thirtyone.sim import kernels
        from thirtyone.sim import steps

        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or not 1 <= num_envs <= MAX_ENVS:
            raise SimInputError(f"num_envs is a whole number from 1 to {MAX_ENVS:,}, not {num_envs!r}")
        if illegal not in ("raise", "mask"):
            raise SimInputError(f"illegal is 'raise' or 'mask', not {illegal!r}")
        self.config = config = EnvConfig.make(preset, players, **options)
        self.seats = _seats(seats, config.players)
        if not isinstance(teacher, (bool, np.bool_)):
            raise SimInputError(f"teacher is True or False, not {teacher!r}")
        teacher = bool(teacher)
        if final_seat is not None and (
            isinstance(final_seat, bool)
            or not isinstance(final_seat, int | np.integer)
            or not 0 <= final_seat < config.players
            or self.seats[final_seat] != "agent"
            or self.seats.count("agent") != 1
        ):
            raise SimInputError(
                f"final_seat is the seat of the one agent (the others played by policies), not {final_seat!r} "
                f"with seats {list(self.seats)}"
            )
        self._sp = np.array([-1 if name == "agent" else POLICY_CODES[name] for name in self.seats], dtype=np.int64)
        self.num_envs = n = int(num_envs)
        self.illegal = illegal
        prepared = api._prepared(config.rules, config.players, "random")
        self._prepared = prepared
        layout = layout_for(config.players)
        self.layout = layout
        vp = np.zeros(steps.N_V, dtype=np.int64)
        vp[steps.V_PLAYERS] = config.players
        vp[steps.V_MAX_ROUNDS] = config.max_rounds
        vp[steps.V_WIN] = config.win_reward
        vp[steps.V_LIVES] = config.rules.lives
        vp[steps.V_ILLEGAL] = illegal == "mask"
        vp[steps.V_TEACHER] = teacher
        vp[steps.V_FINAL] = -1 if final_seat is None else int(final_seat)
        self.final_seat = final_seat
        self._vp = vp
        self._aid = steps.ACTION_TABLE
        self._lay = np.append(layout.offsets(), layout.size).astype(np.int64)
        self._w = np.zeros((n, kernels.N_W), dtype=np.int64)
        self._x = np.zeros((n, steps.N_X), dtype=np.int64)
        self.seeds = np.zeros(n, dtype=np.uint64)
        """The seed of each env's current game (its :class:`~thirtyone.agents.table.Table`'s seed)."""
        self._base = np.zeros(n, dtype=np.uint64)
        self._pending = np.zeros((n, config.players), dtype=np.float64)
        self._before = np.zeros(9, dtype=np.int64)
        self._out = VectorStep(
            np.zeros((n, layout.size), dtype=np.float32),
            np.zeros((n, NUM_ACTIONS), dtype=np.int8),
            np.zeros(n, dtype=np.int64),
            np.zeros((n, config.players), dtype=np.float64),
            np.zeros(n, dtype=np.int8),
            np.zeros(n, dtype=np.int8),
            np.full(n, -1, dtype=np.int64),
        )
        self._shown = _read_only(self._out)
        self._final = np.zeros((n, layout.size), dtype=np.float32)
        self._started = False

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_shown"]  # pickled apart, the views would lose their buffers: made again
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._shown = _read_only(self._out)

    @property
    def players(self) -> int:
        """Seats at each table."""
        return self.config.players

    @property
    def final_obs(self) -> npt.NDArray[np.float32]:
        """``float32 [N, size]``, read-only: in the rows of the envs that ended in the last step,
        the observation of ``final_seat`` when its episode ended (see the module); the other rows
        are stale. All zeros without ``final_seat``."""
        view = self._final.view()
        view.flags.writeable = False
        return view

    @property
    def observation_size(self) -> int:
        """Length of one observation."""
        return self.layout.size

    def reset(self, seed: int | None = None) -> VectorStep:
        """Deal every env's first game (see the module); ``seed`` ``None`` draws one at random.

        Raises:
            ArgumentError: for a seed that is not a whole number.
        """
        import secrets

        from thirtyone.sim import steps  # here, not kept: an env holding a module cannot be pickled

        key = secrets.randbits(64) if seed is None else check_seed(seed)
        self._base[:] = np.array([derive(key, i) for i in range(self.num_envs)], dtype=np.uint64)
        self._x[:] = 0
        out = self._out
        steps.reset_kernel(
            *self._kernel_state(),
            out.obs,
            out.mask,
            out.agent,
            out.ended,
            out.teacher,
            self._before,
            self._final,
        )
        out.rewards[:] = 0.0
        out.ended[:] = 0
        out.replaced[:] = 0
        self._started = True
        return self._shown

    def step(self, actions: Any) -> VectorStep:
        """Play ``actions[i]`` (an action id) in env ``i`` for every env (see the module).

        Raises:
            SimInputError: before any game changes, for actions that are not a whole-number array
                of shape ``[num_envs]``, or (``illegal="raise"``) an id that is not legal in its env
                (naming the env, the id and the legal ids); or before :meth:`reset`.
        """
        if not self._started:
            raise SimInputError("call reset() before step()")
        from thirtyone.sim import steps

        array = self._actions(actions)
        out = self._out
        bad = steps.step_kernel(
            *self._kernel_state(),
            array,
            out.obs,
            out.mask,
            out.agent,
            out.rewards,
            out.ended,
            out.replaced,
            out.teacher,
            self._before,
            self._final,
        )
        if bad >= 0:
            number = int(array[bad])
            what = describe_id(number) if 0 <= number < NUM_ACTIONS else "not an action id"
            legal = np.flatnonzero(out.mask[bad]).tolist()
            raise SimInputError(
                f"env {bad}: action id {number} ({what}) is not legal for seat {int(out.agent[bad])} now; "
                f"legal ids: {legal} (no env was stepped; illegal='mask' replaces such ids)"
            )
        return self._shown

    def _kernel_state(self) -> _KernelState:
        """The arguments both kernels (:func:`~thirtyone.sim.steps.reset_kernel`,
        :func:`~thirtyone.sim.steps.step_kernel`) start with, in their order: the rules' tables
        (``const``, ``floats``, ``values``), the env's parameters (``env_params``, ``seat_policies``,
        ``action_table``, ``layout``), and every env's state (``work_rows`` ``[N, N_W]``, ``extras``
        ``[N, N_X]``, ``seeds``, ``base`` and ``pending`` ``[N, players]``), which the kernels
        update in place."""
        prepared = self._prepared
        return (
            prepared.const,
            prepared.floats,
            prepared.table,
            self._vp,
            self._sp,
            self._aid,
            self._lay,
            self._w,
            self._x,
            self.seeds,
            self._base,
            self._pending,
        )

    def _actions(self, actions: Any) -> npt.NDArray[np.int64]:
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError) as error:
            raise SimInputError(f"actions must be an array of {self.num_envs} action ids: {error}") from None
        if array.shape != (self.num_envs,):
            raise SimInputError(f"actions must have shape ({self.num_envs},), one id per env, not {array.shape}")
        if array.dtype.kind not in "iu" or array.dtype == np.bool_:
            raise SimInputError(f"actions are whole-number action ids (0-{NUM_ACTIONS - 1}), not {array.dtype}")
        if array.dtype == np.int64:
            return array
        if array.dtype.kind == "u" and array.size and int(array.max()) >= 2**63:
            raise SimInputError(f"action id {int(array.max())} is out of range (0-{NUM_ACTIONS - 1})")
        return array.astype(np.int64)


def _read_only(buffers: VectorStep) -> VectorStep:
    """Read-only views of the buffers, which the kernels update in place."""
    views: list[Any] = []
    for buffer in buffers:
        view = buffer.view()
        view.flags.writeable = False
        views.append(view)
    return VectorStep(*views)


def _seats(seats: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """Who plays each seat: ``"agent"`` or a simulator policy (``easy`` and ``medium`` as the bots:
    :func:`thirtyone.bots.levels.sim_policy`).

    Raises:
        SimInputError: for not one name per seat, an unknown name, or no agent's seat.
    """
    if seats is None:
        return ("agent",) * players
    if isinstance(seats, str) or len(seats) != players:
        raise SimInputError(f"seats names who plays each of the {players} seats (agent, random, basic, heuristic)")
    names: list[str] = []
    for name in seats:
        key = str(name).strip().lower()
        key = "agent" if key == "agent" else sim_policy(key) or key  # a bot or a level (the registry's)
        if key != "agent" and key not in POLICY_CODES:
            raise SimInputError(f"seat {len(names)}: {name!r} is not agent, random, basic or heuristic")
        names.append(key)
    if "agent" not in names:
        raise SimInputError("seats needs at least one agent's seat")
    return tuple(names)
