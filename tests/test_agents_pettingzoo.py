"""The PettingZoo AEC environment: PettingZoo's own api_test and seed_test for every preset and
several options and table sizes, the registry, rewards in lives, eliminations and truncation,
and bad input (illegal ids through PettingZoo's wrapper, and raised by the raw env)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test
from pettingzoo.test import seed_test

from thirtyone.agents.pettingzoo import ENV_ID
from thirtyone.agents.pettingzoo import env
from thirtyone.agents.pettingzoo import raw_env
from thirtyone.errors import ArgumentError
from thirtyone.refusals import IllegalActionError

CASES = [
    ("scat", 4, {}),
    ("widow", 5, {"exchange": "any"}),
    ("namu", 2, {"lives": 1, "grace_life": False}),
    ("schwimmen", 3, {"win_reward": True}),
    ("scat", 9, {"throw_down": True, "min_knock_value": 15}),
    ("schwimmen", 8, {"max_rounds": 3}),
]


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_pettingzoo_api_test_passes(preset: str, players: int, options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on dict observations, as for its own card games
        api_test(env(preset, players, **options), num_cycles=400)


@pytest.mark.parametrize(("preset", "players", "options"), CASES[:4])
def test_pettingzoo_seed_test_passes(preset: str, players: int, options: dict[str, object]) -> None:
    seed_test(lambda: env(preset, players, **options), num_cycles=300)


def test_the_registry_makes_it() -> None:
    made = pettingzoo.make("aec", ENV_ID, preset="widow", players=3)
    made.reset(seed=1)
    assert made.possible_agents == ["player_0", "player_1", "player_2"]
    assert made.unwrapped.config.rules.mode == "widow"


def play(game: pettingzoo.AECEnv, seed: int) -> dict[str, float]:
    """Play a whole game with random legal moves; the rewards each agent was paid."""
    rng = random.Random(seed)
    paid = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        paid[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
    return paid


def test_rewards_are_lives_and_sum_to_zero() -> None:
    game = raw_env("scat", 4)
    game.reset(seed=3)
    table = game.table
    assert table is not None
    paid = play(game, 3)
    assert sum(paid.values()) == pytest.approx(0.0, abs=1e-9)
    winner = table.game.winner
    assert winner is not None
    assert max(paid, key=paid.__getitem__) == f"player_{winner}"
    assert not game.agents, "every agent stepped out"


def test_win_reward_adds_plus_and_minus_one() -> None:
    plain, bonus = raw_env("scat", 3), raw_env("scat", 3, win_reward=True)
    plain.reset(seed=8)
    bonus.reset(seed=8)
    assert plain.table is not None
    assert bonus.table is not None
    a, b = play(plain, 1), play(bonus, 1)
    winner = f"player_{plain.table.game.winner}"
    for agent in a:
        assert b[agent] == pytest.approx(a[agent] + (1.0 if agent == winner else -1.0))


def test_a_seat_put_out_is_terminated_and_steps_out() -> None:
    game = raw_env("scat", 4, lives=1, grace_life=False)
    game.reset(seed=2)
    rng = random.Random(0)
    while game.agents:
        agent = game.agent_selection
        if game.terminations[agent]:
            table = game.table
            assert table is not None
            assert table.game.is_out(int(agent.split("_")[1])) or table.game.is_over
            game.step(None)
            assert agent not in game.agents
            continue
        mask = game.observe(agent)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))


def test_max_rounds_truncates() -> None:
    game = raw_env("scat", 4, max_rounds=1)
    game.reset(seed=4)
    play(game, 4)
    table = game.table
    assert table is not None
    assert table.truncated
    assert not table.over
    assert table.rounds == 1


def test_illegal_actions() -> None:
    wrapped = env("scat", 3)
    wrapped.reset(seed=5)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(0)  # discard 2c on a draw turn: illegal
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1
    raw = raw_env("scat", 3)
    raw.reset(seed=5)
    assert raw.table is not None
    before = raw.observe(raw.agent_selection)["observation"].copy()
    with pytest.raises(IllegalActionError, match=r"R4\.1"):
        raw.step(0)
    assert np.array_equal(raw.observe(raw.agent_selection)["observation"], before)
    with pytest.raises(ArgumentError, match="give an action id"):
        raw.step(None)
    with pytest.raises(ValueError, match="action id is a whole number"):
        raw.step(79)
    wrapped = env("scat", 3)
    wrapped.reset(seed=5)
    with pytest.raises(AssertionError):
        wrapped.step(79)


def test_bad_options_are_refused_at_once() -> None:
    with pytest.raises(ArgumentError, match="unknown environment option 'colour'"):
        env(colour="red")
    with pytest.raises(ArgumentError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ArgumentError, match="call reset"):
        raw_env().observe("player_0")
    three = raw_env(players=3)
    three.reset(seed=1)
    for agent in ("player_9", "player_-1", 0, ["player_0"]):
        with pytest.raises(ArgumentError, match=r"^no agent .*: the agents are player_0, player_1, player_2$"):
            three.observe(agent)  # type: ignore[arg-type]


def test_render_shows_the_current_agents_table() -> None:
    game = raw_env("widow", 3, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert isinstance(text, str)
    assert "holds" in text
    assert "lives" in text
