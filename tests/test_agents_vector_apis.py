"""The vector env in the standard APIs: a ``gymnasium.vector.VectorEnv`` (spaces, seeds, masks,
the same games as the vector env and as the one-seat Gymnasium env, illegal ids) and a
Stable-Baselines3 ``VecEnv`` that sb3-contrib's MaskablePPO trains on (skipped without the ``rl``
extra)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from thirtyone.agents.gymnasium import ENV_ID
from thirtyone.agents.gymnasium import ThirtyOneEnv
from thirtyone.agents.gymnasium import ThirtyOneVectorEnv
from thirtyone.agents.policy import EXTRA
from thirtyone.agents.vector import VectorEnv
from thirtyone.bots import UnknownBotError
from thirtyone.errors import ArgumentError
from thirtyone.sim.errors import SimInputError

pytest.importorskip("numba")


def masked_random(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1), dtype=np.int64)


def test_it_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    venv = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode="vector_entry_point", players=3, bots="basic")
    assert isinstance(venv.unwrapped, gymnasium.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    observations, info = venv.reset(seed=3)
    assert venv.observation_space.contains(observations)
    assert observations.shape == (6, 603)
    rng = np.random.default_rng(3)  # seed 3: the masked random moves
    for _ in range(40):
        actions = masked_random(rng, info["action_mask"])
        assert venv.action_space.contains(actions)
        observations, rewards, terminated, truncated, info = venv.step(actions)
        assert venv.observation_space.contains(observations)
        assert rewards.shape == terminated.shape == truncated.shape == (6,)
        assert np.array_equal(info["action_mask"], venv.unwrapped.action_masks())


@pytest.mark.parametrize(("preset", "players", "seat"), [("scat", 4, 0), ("widow", 3, 2)])
def test_it_plays_the_vector_envs_games_for_its_seat(preset: str, players: int, seat: int) -> None:
    seats = ["heuristic"] * players
    seats[seat] = "agent"
    raw = VectorEnv(8, preset, players, seats=seats)
    venv = ThirtyOneVectorEnv(8, preset, players, bots="heuristic", seat=seat)
    out = raw.reset(seed=9)
    observations, info = venv.reset(seed=9)
    rng = np.random.default_rng(9)  # seed 9: the masked random moves
    ended = 0
    for _ in range(300):
        assert np.array_equal(observations, out.obs)
        assert np.array_equal(info["action_mask"], out.mask)
        assert np.array_equal(info["seed"], raw.seeds)
        actions = masked_random(rng, out.mask)
        out = raw.step(actions)
        observations, rewards, terminated, truncated, info = venv.step(actions)
        assert np.array_equal(rewards, out.rewards[:, seat])
        put_out = venv.env.final_obs[:, raw.layout.slices["out"].start] == 1  # in the seat's own slot
        assert np.array_equal(terminated, (out.ended == 1) | ((out.ended == 2) & put_out))
        assert np.array_equal(truncated, (out.ended == 2) & ~put_out)
        ended += int(out.ended.astype(bool).sum())
    assert ended > 0, "the comparison crossed an auto-reset"


@pytest.mark.parametrize(
    ("n", "players", "seat", "options"),
    [
        (8, 3, 0, {"lives": 1}),  # put out while the game goes on, or the game over
        (8, 4, 2, {"lives": 1, "win_reward": True}),
        (8, 3, 1, {"max_rounds": 2}),  # cut at max_rounds, and put out then cut (terminated)
        (64, 2, 1, {"lives": 1}),  # three of the 64 games won by the seat
    ],
)
def test_the_same_step_auto_reset_is_a_sync_vector_envs(
    n: int, players: int, seat: int, options: dict[str, object]
) -> None:
    """Gymnasium's own SyncVectorEnv of the one-seat env (same-step auto-reset), dealt the same
    games: the same observations, rewards, ends, masks and info keys, and where an episode ends
    (put out, game over, cut at max_rounds) the same final_obs and final_info, with their masks.
    Each env is compared through its first game (the sync env deals the next from its own
    generator); seed 4, masked random moves."""
    venv = ThirtyOneVectorEnv(n, "scat", players, bots="heuristic", seat=seat, **options)
    observations, info = venv.reset(seed=4)
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: ThirtyOneEnv("scat", players, bots="heuristic", seat=seat, **options)] * n,
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    theirs, their_info = sync.reset(seed=[int(game) for game in info["seed"]])
    assert np.array_equal(observations, theirs)
    first = np.ones(n, dtype=bool)  # still in its first game
    rng = np.random.default_rng(4)
    while first.any():
        actions = masked_random(rng, info["action_mask"])
        their_actions = np.where(first, actions, masked_random(rng, their_info["action_mask"]))
        observations, rewards, terminated, truncated, info = venv.step(actions)
        theirs, their_rewards, their_terminated, their_truncated, their_info = sync.step(their_actions)
        assert np.array_equal(rewards[first], their_rewards[first])
        assert np.array_equal(terminated[first], their_terminated[first])
        assert np.array_equal(truncated[first], their_truncated[first])
        ended = first & (terminated | truncated)
        going = first & ~ended
        assert np.array_equal(observations[going], theirs[going])
        assert np.array_equal(info["action_mask"][going], their_info["action_mask"][going])
        assert np.array_equal(info["seed"][going], their_info["seed"][going])
        if ended.any():
            assert set(info) == set(their_info)
            assert set(info["final_info"]) == set(their_info["final_info"])
            for key in ("_final_obs", "_final_info"):
                assert np.array_equal(info[key][first], their_info[key][first])
            final, their_final = info["final_info"], their_info["final_info"]
            for row in np.flatnonzero(ended):
                assert np.array_equal(info["final_obs"][row], their_info["final_obs"][row])
                assert np.array_equal(final["action_mask"][row], their_final["action_mask"][row])
                assert int(final["seed"][row]) == int(their_final["seed"][row])
                assert final["_seed"][row]
                assert their_final["_seed"][row]
            assert all(info["final_obs"][row] is None for row in np.flatnonzero(~info["_final_obs"]))
        for key in ("_action_mask", "_seed"):
            assert info[key].all()
            assert their_info[key].all()
        first &= ~ended


def test_a_vector_game_seed_is_the_one_seat_envs_game() -> None:
    venv = ThirtyOneVectorEnv(3, "scat", 4, bots="basic")
    observations, info = venv.reset(seed=12)
    for i, seed in enumerate(info["seed"]):
        observation, single = ThirtyOneEnv("scat", 4, bots="basic").reset(seed=int(seed))
        assert single["seed"] == int(seed)
        assert np.array_equal(observation, observations[i])


def test_features_copies_and_views() -> None:
    venv = ThirtyOneVectorEnv(4, "scat", 4, features=True)
    observations, _ = venv.reset(seed=1)
    assert observations.shape == (4, 714 + EXTRA)
    assert venv.single_observation_space.contains(observations[0])
    fast = ThirtyOneVectorEnv(4, "scat", 4, copy=False)
    observations, info = fast.reset(seed=1)
    assert not observations.flags.writeable  # the buffers, updated in place by the next step
    kept = observations.copy()
    fast.step(info["action_mask"].argmax(axis=1))
    assert not np.array_equal(kept, observations)
    copied = ThirtyOneVectorEnv(4, "scat", 4)
    observations, info = copied.reset(seed=1)
    kept = observations.copy()
    copied.step(info["action_mask"].argmax(axis=1))
    assert np.array_equal(kept, observations)


def test_illegal_ids_and_bad_options() -> None:
    venv = ThirtyOneVectorEnv(3, "scat", 3)
    _, info = venv.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[2] = 0  # discard 2c on a draw turn
    with pytest.raises(SimInputError, match=r"env 2: action id 0 \(discard 2c\) is not legal"):
        venv.step(actions)
    masked = ThirtyOneVectorEnv(3, "scat", 3, illegal="mask")
    masked.reset(seed=2)
    _, _, _, _, info = masked.step(np.zeros(3, dtype=np.int64))
    assert info["replaced"].tolist() == [True, True, True]
    with pytest.raises(SimInputError, match="not agent, random, basic or heuristic"):
        ThirtyOneVectorEnv(2, bots="expert")
    with pytest.raises(UnknownBotError, match="unknown bot"):
        ThirtyOneVectorEnv(2, bots="grandmaster")
    with pytest.raises(ArgumentError, match="seat is the agent's seat"):
        ThirtyOneVectorEnv(2, players=3, seat=3)
    with pytest.raises(ArgumentError, match="seed is one whole number"):
        venv.reset(seed=[1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(SimInputError, match="call reset"):
        ThirtyOneVectorEnv(2).action_masks()


def test_an_illegal_id_changes_no_game() -> None:
    venv = ThirtyOneVectorEnv(3, "scat", 3)
    _, info = venv.reset(seed=2)
    legal = info["action_mask"].argmax(axis=1)
    state = venv.env._w.copy()
    with pytest.raises(SimInputError):
        venv.step(np.array([legal[0], legal[1], 0]))
    assert np.array_equal(venv.env._w, state)
    twin = ThirtyOneVectorEnv(3, "scat", 3)
    twin.reset(seed=2)
    assert np.array_equal(venv.step(legal)[0], twin.step(legal)[0])


# ---------------------------------------------------------------- Stable-Baselines3 / sb3-contrib


def test_maskable_ppo_trains_on_the_sb3_vec_env() -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from sb3_contrib.common.maskable.utils import is_masking_supported

    from thirtyone.agents.sb3 import ThirtyOneVecEnv

    torch.set_num_threads(1)
    env = ThirtyOneVecEnv(16, "scat", 4, bots="heuristic", features=True)
    env.seed(5)
    assert is_masking_supported(env)
    observations = env.reset()
    assert observations.shape == (16, 714 + EXTRA)
    assert get_action_masks(env).shape == (16, 79)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=5, policy_kwargs={"net_arch": [16]}
    )
    model.learn(total_timesteps=512)  # two rollouts of 16 steps in 16 games, and their updates
    assert model.num_timesteps >= 512
    observations = env.reset()
    for _ in range(20):
        masks = get_action_masks(env)
        actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
        assert masks[np.arange(16), actions].all()
        observations, rewards, _dones, infos = env.step(actions)
        assert rewards.dtype == np.float32
        assert len(infos) == 16
        assert all("seed" in info for info in infos)


def test_the_sb3_vec_env_refuses_illegal_ids_and_repeats_its_seed() -> None:
    pytest.importorskip("stable_baselines3")
    from thirtyone.agents.sb3 import ThirtyOneVecEnv

    a, b = ThirtyOneVecEnv(4, "widow", 3), ThirtyOneVecEnv(4, "widow", 3)
    a.seed(8)
    b.seed(8)
    assert np.array_equal(a.reset(), b.reset())
    with pytest.raises(SimInputError, match="is not legal"):
        a.step(np.zeros(4, dtype=np.int64))  # discards: never legal on a widow turn
    assert a.get_attr("render_mode") == [None] * 4
    assert a.env_is_wrapped(gymnasium.Wrapper) == [False] * 4
    assert len(a.env_method("action_masks", indices=[1, 3])) == 2


def test_a_final_seat_is_the_one_agents() -> None:
    with pytest.raises(SimInputError, match="final_seat is the seat of the one agent"):
        VectorEnv(2, "scat", 3, final_seat=0)  # every seat an agent
    with pytest.raises(SimInputError, match="final_seat is the seat of the one agent"):
        VectorEnv(2, "scat", 3, seats=["agent", "basic", "basic"], final_seat=1)
    env = VectorEnv(2, "scat", 3, seats=["agent", "basic", "basic"], final_seat=0)
    assert not env.final_obs.flags.writeable
