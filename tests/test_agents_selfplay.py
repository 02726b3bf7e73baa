"""The judge's self-play trainer (thirtyone.agents.selfplay): MMD's step, the decisions it keeps,
and a run that resumes from its checkpoint exactly as it would have gone on."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("torch")

from thirtyone.agents.selfplay import Batch
from thirtyone.agents.selfplay import EngineTables
from thirtyone.agents.selfplay import TrainConfig
from thirtyone.agents.selfplay import Trainer
from thirtyone.agents.selfplay import VectorTables
from thirtyone.agents.selfplay import target_player
from thirtyone.agents.selfplay import train
from thirtyone.errors import ArgumentError
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import JudgeNet

TINY = {"decisions": 200, "games": 8, "hidden": (8,), "batch": 64}


def test_the_mmd_step_moves_the_policy_to_its_closed_form():
    """One decision, two legal moves worth +1 and -1: the values learn them and the policy learns
    softmax((log π + η q) / (1 + η α)) with a uniform magnet (which then adds nothing)."""
    eta, alpha = 1.0, 0.1
    trainer = Trainer(TrainConfig(eta=eta, alpha=alpha, epochs=300, lr=1e-2, batch=64, hidden=(8,), games=2))
    n = 64
    x = np.zeros((n, INPUT_SIZE), dtype=np.float16)
    x[:, 0] = 1
    mask = np.zeros((n, 79), dtype=bool)
    mask[:, [52, 53]] = True
    logp = np.full((n, 79), -np.inf, dtype=np.float32)
    logp[:, [52, 53]] = math.log(0.5)
    action = np.where(np.arange(n) % 2 == 0, 52, 53)
    reward = np.where(action == 52, 1.0, -1.0).astype(np.float32)
    trainer.learn(Batch(x, mask, action, logp, reward, np.zeros(n, dtype=np.int64)))
    net = trainer.export()
    logits, values = net.forward(x[:1].astype(np.float32))
    assert values[0, 52] == pytest.approx(1.0, abs=0.05)
    assert values[0, 53] == pytest.approx(-1.0, abs=0.05)
    expected = 1 / (1 + math.exp(-2 * eta / (1 + eta * alpha)))  # the closed form's p(52)
    p52 = 1 / (1 + math.exp(logits[0, 53] - logits[0, 52]))
    assert p52 == pytest.approx(expected, abs=0.03)


@pytest.mark.parametrize(("kind", "preset", "players"), [(EngineTables, "mini", 2), (VectorTables, "scat", 3)])
def test_each_decision_keeps_its_rounds_reward_for_its_seat(kind, preset, players):
    tables = kind(preset, players, 4, seed=7)
    rng = np.random.default_rng(1)

    def uniform(x, mask):
        logp = np.where(mask != 0, -np.log(mask.sum(axis=1, keepdims=True)), -np.inf).astype(np.float32)
        noise = rng.random(mask.shape) * (mask != 0)
        return noise.argmax(axis=1), logp

    batch = tables.play(uniform, 300)
    assert len(batch) >= 300
    assert batch.mask[np.arange(len(batch)), batch.action].all()
    assert batch.x.shape == (len(batch), INPUT_SIZE)
    assert set(batch.seat.tolist()) == set(range(players))  # every seat the policy's
    # a round's rewards are the others' average loss minus one's own: bounded, not all zero
    assert np.abs(batch.reward).max() <= 4
    assert np.abs(batch.reward).sum() > 0


def test_a_run_resumes_from_its_checkpoint_as_if_never_stopped(tmp_path):
    whole = train(TrainConfig(iterations=2, **TINY), tmp_path / "whole")
    train(TrainConfig(iterations=1, **TINY), tmp_path / "cut")
    # the same settings but more iterations: refused as other settings, so resume with the same ones
    with pytest.raises(ArgumentError, match="other settings"):
        train(TrainConfig(iterations=3, seed=2, **TINY), tmp_path / "cut")
    config = TrainConfig(iterations=2, **TINY)
    checkpoint = tmp_path / "cut" / "checkpoint.pkl"
    state = checkpoint.read_bytes()
    resumed = Trainer(config)
    import pickle

    resumed.restore(pickle.loads(state))
    assert resumed.iteration == 1
    resumed.iterate()
    again = resumed.export()
    for (w1, b1), (w2, b2) in zip(whole.policy + whole.value, again.policy + again.value, strict=True):
        assert np.array_equal(w1, w2)
        assert np.array_equal(b1, b2)
    saved = JudgeNet.load(tmp_path / "whole" / "judge.npz")
    assert saved.meta["iterations"] == 2
    assert saved.meta["presets"] == ["mini"]
    assert saved.meta["players"] == [2]
    assert (tmp_path / "whole" / "curve.json").exists()


def test_bad_settings_are_refused_naming_them():
    with pytest.raises(ArgumentError, match="decisions is 1 or more"):
        Trainer(TrainConfig(decisions=0))
    with pytest.raises(ArgumentError, match="eta is above 0"):
        Trainer(TrainConfig(eta=-1.0))
    with pytest.raises(ArgumentError, match="at least one table"):
        Trainer(TrainConfig(tables=[]))


def test_imitation_learns_the_heuristics_moves_first():
    config = TrainConfig(tables=[("scat", 3)], iterations=2, imitation=1, decisions=400, games=8, hidden=(32,))
    trainer = Trainer(config)
    assert trainer.imitating
    batch = trainer.play()  # every seat the heuristic: its moves are certain
    assert np.isin(batch.logp, (0.0, -np.inf)).all()
    assert (batch.logp == 0.0).sum() == len(batch)
    figures = trainer.learn(batch)
    assert math.isfinite(figures["entropy"])
    assert figures["entropy"] == 0.0
    trainer.iteration = 1
    assert not trainer.imitating
    with pytest.raises(ArgumentError, match="cannot play mini"):
        Trainer(TrainConfig(tables=[("mini", 2)], iterations=2, imitation=1, games=2))
    with pytest.raises(ArgumentError, match="imitation is 0 to iterations"):
        Trainer(TrainConfig(iterations=2, imitation=3))


@pytest.mark.parametrize("target", ["heuristic", "ppo", "judge"])
def test_a_best_response_learns_only_seat_0_against_a_frozen_target(target, tmp_path):
    if target == "judge":
        path = tmp_path / "target.npz"
        JudgeNet.initial(hidden=(8,), presets=("scat",), players=(4,)).save(path)
        target = f"judge:{path}"
    config = TrainConfig(tables=[("scat", 4)], target=target, iterations=1, decisions=100, games=4, hidden=(8,))
    trainer = Trainer(config)
    batch = trainer.play()
    assert len(batch) >= 100
    assert (batch.seat == 0).all()
    assert batch.mask[np.arange(len(batch)), batch.action].all()
    (tables,) = trainer.tables
    if target == "heuristic":  # the env plays the others: every decision it gives is seat 0's
        assert tables.opponent is None
    else:
        assert tables.opponent is not None
    trainer.learn(batch)


def test_a_frozen_judge_plays_as_the_bot_does_greedy_when_distilled(tmp_path):
    """A best response must face the judge the arena plays: distilled weights move greedily."""
    net = JudgeNet.initial(hidden=(8,), presets=("scat",), players=(2,))
    weights, bias = net.policy[-1]
    bias = bias.copy()
    bias[52], bias[53] = 0.3, 0.0  # draw stock more likely than draw pile, not certain
    net.policy[-1] = (weights, bias)
    sampled, distilled = tmp_path / "sampled.npz", tmp_path / "distilled.npz"
    net.save(sampled)
    net.meta["distilled"] = [{"by": "test"}]
    net.save(distilled)
    rows = 400
    mask = np.repeat(_draw_mask(), rows, axis=0)
    args = (np.zeros((rows, 492), np.float32), np.zeros((rows, INPUT_SIZE), np.float32), mask)
    greedy = target_player(f"judge:{distilled}", 2, seed=1)(*args)
    mixed = target_player(f"judge:{sampled}", 2, seed=1)(*args)
    assert (greedy == 52).all()
    assert set(mixed.tolist()) == {52, 53}


def test_an_unknown_target_is_refused_naming_the_choices():
    with pytest.raises(ArgumentError, match="unknown target 'grandmaster': give random, basic, heuristic, ppo"):
        Trainer(TrainConfig(tables=[("scat", 2)], target="grandmaster", games=2))
    with pytest.raises(ArgumentError, match="cannot play mini"):
        Trainer(TrainConfig(tables=[("mini", 2)], target="heuristic", games=2))


def test_a_run_starts_from_another_runs_weights(tmp_path):
    first = train(TrainConfig(iterations=1, **TINY), tmp_path / "first")
    path = tmp_path / "first" / "judge.npz"
    trainer = Trainer(TrainConfig(iterations=1, init=str(path), alpha=0.01, **TINY))
    started = trainer.export()
    loaded = JudgeNet.load(path)
    for (w1, b1), (w2, b2) in zip(loaded.policy + loaded.value, started.policy + started.value, strict=True):
        assert np.array_equal(w1, w2)
        assert np.array_equal(b1, b2)
    assert not np.array_equal(first.policy[0][0], JudgeNet.initial(hidden=(8,)).policy[0][0])
    with pytest.raises(ArgumentError, match="give the hidden sizes they have"):
        Trainer(TrainConfig(iterations=1, init=str(path), hidden=(16,), games=2))


def test_a_best_response_run_resumes_from_its_checkpoint(tmp_path):
    """The frozen targets pickle with the checkpoint (by name, path and random state, not weights)."""
    config = TrainConfig(tables=[("scat", 2)], target="ppo", iterations=1, decisions=60, games=4, hidden=(8,))
    train(config, tmp_path / "br")
    import pickle

    state = pickle.loads((tmp_path / "br" / "checkpoint.pkl").read_bytes())
    (tables,) = state["tables"]
    assert tables.opponent is not None
    assert tables.opponent(*[np.zeros((1, 492), np.float32), np.zeros((1, INPUT_SIZE), np.float32), _draw_mask()])[
        0
    ] in (52, 53)
    with pytest.raises(ValueError, match="no such file"):
        Trainer(TrainConfig(tables=[("scat", 2)], target="judge:no/such.npz", games=2))


def _draw_mask():
    mask = np.zeros((1, 79), dtype=np.int8)
    mask[0, 52:54] = 1
    return mask


def test_explored_moves_are_legal_and_as_many_as_asked():
    from thirtyone.agents.selfplay import explored

    rng = np.random.default_rng(3)
    mask = np.zeros((4000, 79), dtype=np.int8)
    mask[:, [52, 53]] = 1
    mask[::2, 60] = 1
    chosen = np.full(4000, 52, dtype=np.int64)
    assert (explored(chosen, mask, 0.0, rng) == chosen).all()
    moved = explored(chosen, mask, 0.3, rng)
    assert mask[np.arange(4000), moved].all()
    # a share 0.3 drawn uniformly: 0.3 * (1/2 + 2/3) / 2 of the moves leave id 52
    assert abs((moved != 52).mean() - 0.3 * (1 / 2 + 2 / 3) / 2) < 0.03
    everything = explored(chosen, mask, 0.999, rng)
    assert set(np.unique(everything[::2])) == {52, 53, 60}


def test_dmc_plays_its_values_best_move_and_fits_the_policy_to_it():
    config = TrainConfig(
        tables=[("scat", 3)], method="dmc", explore=0.2, iterations=3, imitation=1, decisions=300, games=8,
        hidden=(16,), epochs=40, lr=1e-2, batch=128,
    )  # fmt: skip
    trainer = Trainer(config)
    batch = trainer.play()  # the heuristic with 20% random moves: not every move is the teacher's one-hot
    trainer.learn(batch)
    trainer.iteration = 1
    import torch

    x = batch.x.astype(np.float32)
    mask = batch.mask.astype(np.int8)
    actions, logp = trainer.act_greedy(x, mask)
    q, logits = (net(torch.from_numpy(x)).detach().numpy() for net in (trainer.model.value, trainer.model.policy))
    assert (actions == np.where(mask != 0, q, -np.inf).argmax(axis=1)).all()
    assert (logp.max(axis=1) == 0.0).all()
    agree = (np.where(mask != 0, logits, -np.inf).argmax(axis=1) == actions).mean()
    assert agree > 0.9  # the policy learned the values' best move (uniform it agreed at random)
    played = trainer.play()  # greedy on the values, 20% explored
    assert len(played) >= 300


def test_a_method_or_exploration_out_of_range_is_refused():
    with pytest.raises(ArgumentError, match="method is mmd or dmc"):
        Trainer(TrainConfig(method="ppo"))
    with pytest.raises(ArgumentError, match="explore is a share"):
        Trainer(TrainConfig(method="dmc", explore=1.0))
    with pytest.raises(ArgumentError, match="explore is the share of random moves of method dmc"):
        Trainer(TrainConfig(explore=0.1))
