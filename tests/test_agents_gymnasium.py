"""The Gymnasium environment (one seat against bots): Gymnasium's check_env, the registry,
rewards, episode ends, illegal ids and bad options."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from thirtyone.agents.gymnasium import ENV_ID
from thirtyone.agents.gymnasium import ThirtyOneEnv
from thirtyone.bots import UnknownBotError
from thirtyone.errors import ArgumentError
from thirtyone.refusals import IllegalActionError


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"preset": "widow", "players": 5, "bots": "heuristic", "seat": 2},
        {"preset": "schwimmen", "players": 3, "bots": ["random", "basic"], "render_mode": "ansi"},
        {"preset": "scat", "players": 2, "throw_down": True, "lives": 1, "win_reward": True},
    ],
)
def test_gymnasium_check_env_passes(options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings too
        check_env(gymnasium.make(ENV_ID, **options).unwrapped)


def run_episode(env: ThirtyOneEnv, seed: int) -> tuple[float, bool, bool, int]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, terminated, truncated, steps


def test_an_episode_is_the_seats_game() -> None:
    env = ThirtyOneEnv("scat", 3, bots="basic")
    for seed in range(5):
        total, terminated, truncated, _ = run_episode(env, seed)
        table = env.table
        assert table is not None
        assert terminated
        assert not truncated
        assert table.game.is_over or table.game.is_out(0)
        assert -env.config.full <= total <= 2 * env.config.full
    assert env.action_masks().sum() == 0
    with pytest.raises(ArgumentError, match="episode is over"):
        env.step(52)


def test_seeded_episodes_repeat() -> None:
    a, b = ThirtyOneEnv("widow", 4, bots="heuristic"), ThirtyOneEnv("widow", 4, bots="heuristic")
    assert run_episode(a, 9) == run_episode(b, 9)
    assert a.table is not None
    assert b.table is not None
    assert a.table.seed == b.table.seed


def test_truncated_at_max_rounds() -> None:
    env = ThirtyOneEnv("scat", 4, bots="random", max_rounds=1)
    _, terminated, truncated, _ = run_episode(env, 3)
    assert truncated
    assert not terminated


def test_illegal_ids() -> None:
    env = ThirtyOneEnv("scat", 3)
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = ThirtyOneEnv("scat", 3, illegal="raise")
    _observation, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"R4\.1"):
        strict.step(0)
    with pytest.raises(ValueError, match="action id is a whole number"):
        strict.step(99)
    assert np.array_equal(strict.step(52)[0][: 52 * 5].sum() > 0, True)


def test_bad_options() -> None:
    with pytest.raises(ArgumentError, match="seat is the agent's seat"):
        ThirtyOneEnv(players=3, seat=3)
    with pytest.raises(ArgumentError, match="illegal is"):
        ThirtyOneEnv(illegal="ignore")
    with pytest.raises(UnknownBotError, match="unknown bot"):
        ThirtyOneEnv(bots="grandmaster")
    with pytest.raises(ArgumentError, match="unknown environment option"):
        ThirtyOneEnv(colour="red")
    with pytest.raises(ArgumentError, match="call reset"):
        ThirtyOneEnv().step(52)


def test_a_fresh_process_makes_the_env_by_its_module_qualified_id() -> None:
    """``import thirtyone.agents`` does not register the id; naming the module in it does (docs/agents.md)."""
    script = (
        "import gymnasium, thirtyone.agents\n"
        "try:\n"
        f"    gymnasium.make({ENV_ID!r})\n"
        "except gymnasium.error.NamespaceNotFound:\n"
        "    print('not registered')\n"
        f"env = gymnasium.make('thirtyone.agents.gymnasium:{ENV_ID}', players=3)\n"
        "print(env.reset(seed=1)[0].shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split("\n")[:2] == ["not registered", "(603,)"]


@pytest.mark.parametrize(("preset", "players"), [("scat", 3), ("widow", 4)])
def test_a_reset_with_a_vector_envs_seed_plays_its_game(preset: str, players: int) -> None:
    """docs/agents.md: reset(seed=s) with a vector env's game seed plays that very game (``info["seed"]``
    is ``s``); against ``basic`` (which the simulator plays exactly) the trajectories are equal."""
    from thirtyone.agents.vector import VectorEnv

    vector = VectorEnv(3, preset, players, seats=["agent"] + ["basic"] * (players - 1))
    out = vector.reset(seed=4)
    seeds = [int(seed) for seed in vector.seeds]
    envs = [ThirtyOneEnv(preset, players, bots="basic") for _ in seeds]
    for i, (env, seed) in enumerate(zip(envs, seeds, strict=True)):
        observation, info = env.reset(seed=seed)
        assert info["seed"] == seed
        assert np.array_equal(observation, out.obs[i])
        assert np.array_equal(info["action_mask"], out.mask[i])
    rng = np.random.default_rng(4)  # seed 4: the masked random agent's moves
    live = [True] * len(envs)
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in out.mask])
        out = vector.step(actions)
        for i, env in enumerate(envs):
            if not live[i]:
                continue
            observation, reward, terminated, truncated, info = env.step(int(actions[i]))
            assert float(reward) == out.rewards[i, 0]
            assert (terminated, truncated) == (out.ended[i] == 1, out.ended[i] == 2)
            if terminated or truncated:
                live[i] = False
            else:
                assert np.array_equal(observation, out.obs[i])
