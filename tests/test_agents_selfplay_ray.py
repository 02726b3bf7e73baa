"""The judge's self-play on a Ray cluster (thirtyone.agents.selfplay_ray), on a local Ray of two
worker processes: the actors' decisions joined in their order, a killed run that resumes exactly,
and an address that cannot be reached refused in one line with the checkpoint kept."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from importlib.util import module_from_spec
from importlib.util import spec_from_file_location
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

from thirtyone.agents.selfplay import Batch
from thirtyone.agents.selfplay import TrainConfig
from thirtyone.agents.selfplay import Trainer
from thirtyone.agents.selfplay import network_policy
from thirtyone.agents.selfplay import play_tables
from thirtyone.agents.selfplay import train
from thirtyone.errors import ArgumentError
from thirtyone.judge.network import JudgeNet

TINY: dict[str, Any] = {"tables": [("mini", 2), ("scat", 3)], "decisions": 120, "games": 4, "hidden": (8,), "batch": 64}


def _example() -> Any:
    spec = spec_from_file_location("train_judge", Path(__file__).parents[1] / "examples" / "train_judge.py")
    assert spec is not None
    assert spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _weights(folder: Path) -> list[np.ndarray]:
    net = JudgeNet.load(folder / "judge.npz")
    return [array for layer in net.policy + net.value for array in layer]


def test_a_ray_run_killed_after_an_iteration_resumes_as_if_never_stopped(local_ray, tmp_path):
    """A run killed in its second iteration, after that iteration's figures and before its
    checkpoint, leaves its folder as the run had it then (copied there, as a killed process
    leaves it: nothing more written); resumed, it ends with the weights and curve of the run
    never stopped."""
    from thirtyone.agents.selfplay_ray import train_on_ray

    def kill_in_second(figures: dict[str, float]) -> None:
        if figures["iteration"] == 2:
            shutil.copytree(tmp_path / "whole", tmp_path / "cut")

    config = TrainConfig(iterations=2, **TINY)
    train_on_ray(config, tmp_path / "whole", "local", 2, report=kill_in_second)
    assert local_ray.is_initialized()  # the test's Ray was used, and left running
    assert json.loads((tmp_path / "cut" / "curve.json").read_text())[-1]["iteration"] == 1
    train_on_ray(config, tmp_path / "cut", "local", 2)
    for whole, cut in zip(_weights(tmp_path / "whole"), _weights(tmp_path / "cut"), strict=True):
        assert np.array_equal(whole, cut)
    curves = [json.loads((tmp_path / name / "curve.json").read_text()) for name in ("whole", "cut")]
    for row_whole, row_cut in zip(*curves, strict=True):
        assert row_whole["reward_mean"] == row_cut["reward_mean"]
        assert row_whole["decisions"] == row_cut["decisions"]


@pytest.mark.parametrize("method", [{"method": "mmd"}, {"method": "dmc", "explore": 0.3}])
def test_the_actors_play_as_the_trainer_would_joined_in_actor_order(local_ray, method):
    """Two actors, a table each: the learner's batch is actor 0's decisions then actor 1's, each
    played with the trainer's policy (sampled, or greedy with exploration) and the actor's source
    seeded from (seed, actors, actor, 0)."""
    from thirtyone.agents.selfplay_ray import RayTrainer

    config = TrainConfig(iterations=1, **method, **TINY)
    trainer = RayTrainer(config, local_ray, 2)
    try:
        batch = trainer.play()
    finally:
        trainer.close()
    alone = Trainer(config)  # the same seed: the same network and tables
    sources = [np.random.default_rng([config.seed, 2, actor, 0]) for actor in range(2)]
    expected = Batch.join(
        [
            play_tables([tables], network_policy(alone.model, config.method, rng), alone.share, config.explore, rng)
            for tables, rng in zip(alone.tables, sources, strict=True)
        ]
    )
    assert len(batch) == len(expected) >= 2 * alone.share
    for name in Batch.__dataclass_fields__:
        assert np.array_equal(getattr(batch, name), getattr(expected, name)), name


def test_an_unreachable_ray_address_is_one_line_exit_2_and_keeps_the_checkpoint(tmp_path, capsys):
    pytest.importorskip("ray")
    args = ["--tables", "mini:2", "--decisions", "60", "--games", "4", "--hidden", "8", "--batch", "64"]
    args += ["--iterations", "1", "--out", str(tmp_path), "--actors", "1"]
    train(TrainConfig(tables=[("mini", 2)], iterations=1, decisions=60, games=4, hidden=(8,), batch=64), tmp_path)
    before = (tmp_path / "checkpoint.pkl").read_bytes()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert _example().main([*args, "--ray-address", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"train_judge.py: error: cannot reach a Ray cluster at 127.0.0.1:{port} (")
    assert err.count("\n") == 1
    assert (tmp_path / "checkpoint.pkl").read_bytes() == before


def test_more_actors_than_tables_are_refused_before_ray_starts(tmp_path):
    from thirtyone.agents.selfplay_ray import train_on_ray

    with pytest.raises(ArgumentError, match=r"actors is 1 to the number of tables \(2\), not 3"):
        train_on_ray(TrainConfig(**TINY), tmp_path, "127.0.0.1:1", 3)
    assert not (tmp_path / "checkpoint.pkl").exists()


def test_a_run_without_a_ray_address_imports_nothing_of_ray(tmp_path):
    """The single-process path stays as it was: Ray is never imported (checked in a fresh process)."""
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['train_judge.py', '--tables', 'mini:2', '--iterations', '1', '--decisions', '40', "
        f"'--games', '2', '--hidden', '8', '--out', {str(tmp_path)!r}]\n"
        "try:\n"
        f"    runpy.run_path({str(Path(__file__).parents[1] / 'examples' / 'train_judge.py')!r}, run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    assert end.code == 0, end.code\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=600)
    assert (tmp_path / "judge.npz").exists()
