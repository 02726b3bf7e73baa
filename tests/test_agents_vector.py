"""The vector env on the compiled kernels against the PettingZoo AEC env: the same seeds and the
same action ids give the same trajectories — observations, masks, seats to move, rewards,
terminations and truncations, step for step, through auto-resets — and its bad input."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from thirtyone.agents.action_ids import action_id
from thirtyone.agents.pettingzoo import raw_env
from thirtyone.agents.table import Table
from thirtyone.agents.vector import VectorEnv
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.errors import ArgumentError
from thirtyone.sim.errors import SimInputError
from thirtyone.sim.errors import UnsupportedRulesError

CASES: list[tuple[str, int, dict[str, object]]] = [
    ("scat", 4, {}),
    ("widow", 3, {"exchange": "any"}),
    ("namu", 2, {"lives": 1, "grace_life": False}),
    ("schwimmen", 5, {"win_reward": True}),
    ("scat", 6, {"throw_down": True, "min_knock_value": 18, "stock_exhausted": "showdown", "max_turns": 30}),
    ("widow", 4, {"all_pass": "new_widow", "knock_from_round": 2, "three_of_a_kind": "30", "max_rounds": 2}),
    ("scat", 9, {"deck": 52, "three_aces": True, "straight_flush": True, "lives": 1, "win_reward": True}),
    ("schwimmen", 2, {"exchange": "any", "dealer_hand": False, "max_rounds": 1}),
]


class Shadow:
    """One env of the vector env replayed in the PettingZoo AEC env."""

    def __init__(self, preset: str, players: int, options: dict[str, object]) -> None:
        self.env = raw_env(preset, players, **options)

    def reset(self, seed: int) -> None:
        self.env.reset(seed=seed)

    def skip_dead(self) -> None:
        env = self.env
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)

    def check(self, out_obs: np.ndarray, out_mask: np.ndarray, out_agent: int) -> None:
        env = self.env
        agent = env.agent_selection
        assert agent == f"player_{out_agent}"
        seen = env.observe(agent)
        assert np.array_equal(seen["observation"], out_obs), self.where(seen["observation"], out_obs)
        assert np.array_equal(seen["action_mask"], out_mask)

    def where(self, ours: np.ndarray, theirs: np.ndarray) -> str:
        layout = self.env.unwrapped.table.game.players  # type: ignore[union-attr]
        from thirtyone.agents.observation import layout_for

        parts = layout_for(layout)
        differ = [name for name, part in parts.slices.items() if not np.array_equal(ours[part], theirs[part])]
        return f"observations differ in {differ}"

    def step(self, action: int) -> tuple[list[float], int]:
        env = self.env
        env.step(action)
        rewards = [env.rewards.get(agent, 0.0) for agent in env.possible_agents]
        table = env.table
        assert table is not None
        ended = 1 if table.over else 2 if table.truncated else 0
        return rewards, ended


def run_both(preset: str, players: int, options: dict[str, object], seed: int, envs: int, steps: int) -> int:
    """Step a vector env and its shadows with masked random actions; return the games finished."""
    vector = VectorEnv(envs, preset, players, **options)
    out = vector.reset(seed=seed)
    shadows = [Shadow(preset, players, options) for _ in range(envs)]
    for i, shadow in enumerate(shadows):
        shadow.reset(int(vector.seeds[i]))
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(steps):
        for i, shadow in enumerate(shadows):
            shadow.check(out.obs[i], out.mask[i], int(out.agent[i]))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in out.mask], dtype=np.int64)
        out = vector.step(actions)
        for i, shadow in enumerate(shadows):
            rewards, ended = shadow.step(int(actions[i]))
            assert out.rewards[i].tolist() == rewards
            assert int(out.ended[i]) == ended
            if ended:
                finished += 1
                shadow.reset(int(vector.seeds[i]))
            else:
                shadow.skip_dead()
    return finished


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_the_vector_env_plays_the_aec_envs_games(preset: str, players: int, options: dict[str, object]) -> None:
    finished = run_both(preset, players, options, seed=11, envs=4, steps=500)
    assert finished >= 1, "the comparison crossed at least one auto-reset"


@settings(max_examples=12)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**64 - 1))
def test_same_trajectories_for_any_seed(case: tuple[str, int, dict[str, object]], seed: int) -> None:
    preset, players, options = case
    run_both(preset, players, options, seed=seed, envs=2, steps=120)


def test_seeds_are_the_tables_seeds() -> None:
    vector = VectorEnv(3, "scat", 3)
    vector.reset(seed=5)
    again = VectorEnv(3, "scat", 3)
    again.reset(seed=5)
    assert np.array_equal(vector.seeds, again.seeds)
    for i in range(3):
        assert Table(vector.config, int(vector.seeds[i])).seed == int(vector.seeds[i])


def test_an_illegal_action_names_the_env_and_changes_nothing() -> None:
    vector = VectorEnv(3, "scat", 3)
    out = vector.reset(seed=2)
    before = (out.obs.copy(), out.mask.copy(), vector._w.copy())
    actions = np.full(3, 52, dtype=np.int64)
    actions[1] = 0  # discard 2c on a draw turn
    with pytest.raises(SimInputError, match=r"env 1: action id 0 \(discard 2c\) is not legal for seat \d now"):
        vector.step(actions)
    assert np.array_equal(vector._w, before[2])
    assert np.array_equal(out.obs, before[0])
    actions[1] = 79
    with pytest.raises(SimInputError, match="env 1: action id 79 \\(not an action id\\)"):
        vector.step(actions)


def test_illegal_mask_replaces_with_a_legal_pick() -> None:
    vector = VectorEnv(4, "widow", 3, illegal="mask")
    out = vector.reset(seed=3)
    out = vector.step(np.zeros(4, dtype=np.int64))  # discards: never legal on a widow turn
    assert out.replaced.tolist() == [1, 1, 1, 1]
    out = vector.step(np.argmax(out.mask, axis=1))
    assert out.replaced.tolist() == [0, 0, 0, 0]


def test_bad_arrays_and_options() -> None:
    vector = VectorEnv(2, "scat", 3)
    with pytest.raises(SimInputError, match="call reset"):
        vector.step([52, 52])
    vector.reset(seed=1)
    with pytest.raises(SimInputError, match=r"shape \(2,\)"):
        vector.step([52, 52, 52])
    with pytest.raises(SimInputError, match="whole-number action ids"):
        vector.step(np.array([52.0, 52.0]))
    with pytest.raises(SimInputError, match="whole-number action ids"):
        vector.step(np.array([True, False]))
    assert vector.step(np.array([52, 53], dtype=np.int32)).rewards.shape == (2, 3)
    with pytest.raises(SimInputError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(SimInputError, match="illegal is"):
        VectorEnv(2, illegal="ignore")
    with pytest.raises(ArgumentError, match="unknown environment option 'colour'"):
        VectorEnv(2, colour="red")
    with pytest.raises(ArgumentError, match="seed is a whole number"):
        vector.reset(seed="x")  # type: ignore[arg-type]
    assert UnsupportedRulesError is not None


# ---------------------------------------------------------------- seats of the simulator's policies


class BotShadow:
    """One env of a vector env with simulator seats, replayed on a Table whose bot seats play the
    Python bots the kernels copy (basic: BasicBot, heuristic: rollout_action)."""

    def __init__(self, vector: VectorEnv) -> None:
        self.vector = vector
        self.bots = vector.seats
        self.acc = [0.0] * vector.players

    def reset(self, seed: int) -> None:
        self.table = Table(self.vector.config, seed)
        self.play_bots()

    def add(self, rewards: tuple[float, ...]) -> None:
        self.acc = [a + r for a, r in zip(self.acc, rewards, strict=True)]

    def play_bots(self) -> None:
        table = self.table
        while not table.done and self.bots[table.game.current_seat] != "agent":
            game = table.game
            seat = game.current_seat
            legal = game.legal_actions()
            if self.bots[seat] == "basic":
                action = BasicBot(0).choose(game.view(seat), legal)
            else:
                action = rollout_action(game, seat, legal)
            self.add(table.step(action_id(game, action)).rewards)

    def teacher(self) -> int:
        game = self.table.game
        return action_id(game, rollout_action(game, game.current_seat, game.legal_actions()))

    def step(self, action: int) -> tuple[list[float], int]:
        self.add(self.table.step(action).rewards)
        self.play_bots()
        rewards, self.acc = self.acc, [0.0] * self.vector.players
        return rewards, 1 if self.table.over else 2 if self.table.truncated else 0


SEATED: list[tuple[str, tuple[str, ...], dict[str, object]]] = [
    ("scat", ("agent", "basic", "basic", "basic"), {}),
    ("scat", ("heuristic", "agent", "medium", "agent"), {"win_reward": True}),
    ("widow", ("agent", "easy", "heuristic"), {"exchange": "any"}),
    ("schwimmen", ("basic", "agent", "heuristic", "basic", "agent"), {"max_rounds": 3}),
    ("namu", ("AGENT", "heuristic"), {"lives": 1, "grace_life": False}),
]


@pytest.mark.parametrize(("preset", "seats", "options"), SEATED)
def test_simulator_seats_play_the_bots_moves_and_the_teacher_names_the_heuristics(
    preset: str, seats: tuple[str, ...], options: dict[str, object]
) -> None:
    envs = 3
    vector = VectorEnv(envs, preset, len(seats), seats=seats, teacher=True, **options)
    out = vector.reset(seed=7)
    shadows = [BotShadow(vector) for _ in range(envs)]
    for i, shadow in enumerate(shadows):
        shadow.reset(int(vector.seeds[i]))
    rng = np.random.default_rng(7)
    finished = 0
    for _ in range(300):
        for i, shadow in enumerate(shadows):
            table = shadow.table
            seat = int(out.agent[i])
            assert vector.seats[seat] == "agent"
            assert table.seat == seat
            assert np.array_equal(table.observation(seat), out.obs[i])
            assert np.array_equal(table.mask(), out.mask[i])
            assert int(out.teacher[i]) == shadow.teacher()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in out.mask], dtype=np.int64)
        out = vector.step(actions)
        for i, shadow in enumerate(shadows):
            rewards, ended = shadow.step(int(actions[i]))
            assert out.rewards[i].tolist() == pytest.approx(rewards, abs=1e-12)
            assert int(out.ended[i]) == ended
            if ended:
                finished += 1
                shadow.reset(int(vector.seeds[i]))
    assert finished >= 1, "the comparison crossed at least one auto-reset"


def test_random_seats_and_the_teacher_off() -> None:
    vector = VectorEnv(16, "scat", 3, seats=("random", "agent", "random"))
    out = vector.reset(seed=1)
    assert out.teacher.tolist() == [-1] * 16  # not asked for: not computed
    ended = 0
    for _ in range(400):
        assert set(out.agent.tolist()) == {1}
        out = vector.step(out.mask.argmax(axis=1))
        ended += int(np.count_nonzero(out.ended))
    assert ended >= 1
    assert out.teacher.tolist() == [-1] * 16


def test_the_teacher_is_always_legal() -> None:
    vector = VectorEnv(32, "widow", 4, teacher=True, all_pass="new_widow")
    out = vector.reset(seed=4)
    for _ in range(200):
        assert all(out.mask[i, out.teacher[i]] == 1 for i in range(32))
        out = vector.step(out.teacher.copy())


def test_bad_seats_and_teacher() -> None:
    with pytest.raises(SimInputError, match="seats names who plays each of the 3 seats"):
        VectorEnv(2, "scat", 3, seats=("agent", "basic"))
    with pytest.raises(SimInputError, match="seats names who plays each"):
        VectorEnv(2, "scat", 3, seats="agent")
    with pytest.raises(SimInputError, match=r"seat 1: 'expert' is not agent, random, basic or heuristic"):
        VectorEnv(2, "scat", 3, seats=("agent", "expert", "basic"))
    with pytest.raises(SimInputError, match=r"seat 2: 7 is not agent"):
        VectorEnv(2, "scat", 3, seats=("agent", "basic", 7))  # type: ignore[arg-type]
    with pytest.raises(SimInputError, match="at least one agent's seat"):
        VectorEnv(2, "scat", 3, seats=("basic", "basic", "heuristic"))
    with pytest.raises(SimInputError, match="teacher is True or False"):
        VectorEnv(2, "scat", 3, teacher=1)  # type: ignore[arg-type]
    assert VectorEnv(2, "scat", 3, teacher=np.bool_(True), seats=np.array(["agent", "Basic", "easy"])).seats == (
        "agent",
        "basic",
        "basic",
    )


def test_a_pickled_or_copied_env_goes_on_identically() -> None:
    """As Gymnasium's and PettingZoo's envs can be (for vectorising in processes, checkpoints)."""
    vector = VectorEnv(6, "scat", 3, seats=["agent", "basic", "agent"], teacher=True)
    fresh = pickle.loads(pickle.dumps(VectorEnv(3, "scat", 3, seats=["agent"] * 3)))
    assert fresh.reset(seed=5).obs.shape == (3, 3 * 111 + 270)
    out = vector.reset(seed=3)
    for _ in range(30):
        out = vector.step(out.teacher.copy())
    twins = [pickle.loads(pickle.dumps(vector)), copy.deepcopy(vector)]
    for _ in range(60):
        actions = out.teacher.copy()
        out = vector.step(actions)
        for twin in twins:
            step = twin.step(actions)
            for name, mine, theirs in zip(out._fields, out, step, strict=True):
                assert np.array_equal(mine, theirs), name
            assert not step.obs.flags.writeable
            assert np.shares_memory(step.obs, twin._out.obs)
    assert (twins[0].seeds == vector.seeds).all()
