"""examples/train_ppo.py (the rl extra; skipped without it): a tiny run writes weights that load
as a policy and play as ``policy:PATH``, and its learning curve (JSON and chart); ``--plot`` draws
saved runs again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from thirtyone.agents.policy import Policy

pytest.importorskip("sb3_contrib")

TRAIN = Path(__file__).resolve().parents[1] / "examples" / "train_ppo.py"


def test_a_tiny_run_writes_weights_and_a_curve(tmp_path: Path) -> None:
    out, curve = tmp_path / "ppo.npz", tmp_path / "curve"
    tiny = ["--steps", "1024", "--envs", "16", "--n-steps", "32", "--batch", "128", "--epochs", "1", "--hidden", "16"]
    tiny += ["--eval-every", "512", "--eval-games", "8", "--players", "2"]
    done = subprocess.run(
        [sys.executable, str(TRAIN), "--out", str(out), "--curve", str(curve), *tiny],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    policy = Policy.load(out)
    assert (policy.players, policy.w1.shape[1]) == (2, 16)
    data = json.loads(curve.with_suffix(".json").read_text())
    assert [point["steps"] for point in data["points"]][:2] == [0, 512]
    assert all(0 <= point["low"] <= point["win_share"] <= point["high"] <= 1 for point in data["points"])
    assert curve.with_suffix(".png").stat().st_size > 1000
    again = tmp_path / "again"
    done = subprocess.run(
        [sys.executable, str(TRAIN), "--plot", str(curve.with_suffix(".json")), "--curve", str(again)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert again.with_suffix(".png").exists()
