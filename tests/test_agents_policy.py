"""The trained policy as a bot: ``examples/train.py`` (a tiny run) writes weights that load as
``policy:PATH`` in make_bot, simulate, play and the arena and play legal moves; bad paths and
files are one clear error (``PolicyError``, a ValueError), the CLI's a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from cli_helpers import cli_error_line
from thirtyone import Game
from thirtyone import Rules
from thirtyone.agents.policy import EXTRA
from thirtyone.agents.policy import Policy
from thirtyone.agents.policy import PolicyBot
from thirtyone.agents.policy import PolicyError
from thirtyone.agents.policy import features
from thirtyone.agents.policy import make_bot
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot as make_any_bot
from thirtyone.bots.runner import play_game
from thirtyone.bots.runner import simulate
from thirtyone.tui.settings import PlaySettings

pytest.importorskip("numba")

TRAIN = Path(__file__).resolve().parents[1] / "examples" / "train.py"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy from a tiny run of examples/train.py (a few seconds)."""
    out = tmp_path_factory.mktemp("policy") / "tiny.npz"
    tiny = ["--iterations", "30", "--envs", "32", "--batch", "64", "--buffer", "4096", "--hidden", "16"]
    result = subprocess.run(
        [sys.executable, str(TRAIN), "--out", str(out), *tiny, "--eval-steps", "5", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "trained in" in result.stdout
    return out


def test_a_tiny_training_run_writes_a_policy_that_loads(trained: Path) -> None:
    policy = Policy.load(trained)
    assert policy.players == 4
    assert policy.preset == "scat"
    assert policy.w1.shape == (policy.obs_size + EXTRA, 16)
    assert trained.stat().st_size < 200_000


def test_the_policy_bot_plays_legal_moves_everywhere_bots_are_named(trained: Path) -> None:
    name = f"policy:{trained}"
    bot = make_any_bot(name, seed=1)
    assert isinstance(bot, PolicyBot)
    game = play_game(Rules.preset("scat"), [bot, make_any_bot("basic", 2), make_any_bot("heuristic", 3), bot], seed=5)
    assert game.is_over  # play_game raises BotError on an illegal move
    stats = simulate(Rules.preset("scat"), [name, "basic", "basic", "basic"], games=4, seed=1)
    assert stats.games == 4
    assert PlaySettings.create(Rules.preset("scat"), 4, f"{name},basic").bots[0] == name


def test_the_policy_plays_any_rules_legally_at_its_table_size(trained: Path) -> None:
    bot = make_bot(None, str(trained))
    for preset in ("widow", "schwimmen"):
        game = Game(Rules.preset(preset), 4, seed=3)
        for _ in range(60):
            if game.is_over:
                break
            legal = game.legal_actions()
            action = bot.choose(game.view(game.current_seat), legal)
            assert action in legal
            game.apply(action)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 9))
def test_act_is_the_best_legal_logit(seed: int, players: int) -> None:
    rng = np.random.default_rng(seed)
    policy = Policy.initial(players, hidden=8, seed=seed)
    obs = rng.random((5, policy.obs_size), dtype=np.float32)
    mask = (rng.random((5, 79)) < 0.1).astype(np.int8)
    mask[np.arange(5), rng.integers(0, 79, 5)] = 1  # at least one legal id a row
    chosen = policy.act(obs, mask)
    logits = policy.logits(obs)
    assert features(obs, players).shape == (5, policy.obs_size + EXTRA)
    for row in range(5):
        assert mask[row, chosen[row]] == 1
        assert logits[row, chosen[row]] == logits[row][mask[row] == 1].max()


def test_a_table_of_another_size_is_refused(trained: Path) -> None:
    bot = make_bot(None, str(trained))
    game = Game(Rules.preset("scat"), 3, seed=1)
    with pytest.raises(PolicyError, match=r"plays 4-player tables, not 3-player ones"):
        bot.choose(game.view(game.current_seat), game.legal_actions())


def _save(path: Path, **entries: object) -> Path:
    np.savez(path, **entries)  # type: ignore[arg-type]
    return path


def test_bad_paths_and_files_are_one_clear_error(tmp_path: Path, trained: Path) -> None:
    good = dict(np.load(trained))
    text = tmp_path / "notes.npz"
    text.write_text("not weights")
    cases = {
        str(tmp_path / "missing.npz"): "no such file",
        str(tmp_path): "not a file",
        str(text): "not a policy file",
        str(_save(tmp_path / "other.npz", a=np.zeros(3))): "not a policy file of format",
        str(_save(tmp_path / "shape.npz", **{**good, "w2": np.zeros((3, 3))})): r"broken weights \(w2 has shape",
        str(_save(tmp_path / "nan.npz", **{**good, "b2": np.full(79, np.nan)})): r"broken weights \(b2 is not finite",
        str(_save(tmp_path / "nop.npz", **{k: v for k, v in good.items() if k != "w1"})): "broken weights",
        str(_save(tmp_path / "seats.npz", **{**good, "players": np.array(12)})): r"broken weights \(players 12",
        str(_save(tmp_path / "pickled.npz", **{**good, "w1": np.array([object()], dtype=object)})): "not a policy file",
    }
    for path, message in cases.items():
        with pytest.raises(PolicyError, match=message) as caught:
            make_any_bot(f"policy:{path}")
        assert "\n" not in str(caught.value)
        assert isinstance(caught.value, ValueError)
        assert isinstance(caught.value, UnknownBotError)
    with pytest.raises(PolicyError, match=r"needs the path of its weights: policy:PATH"):
        make_any_bot("policy")


def test_the_cli_says_what_is_wrong_with_a_policy(
    tmp_path: Path, trained: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "gone.npz"
    line = cli_error_line(capsys, ["arena", "--bots", f"policy:{missing},basic", "--games", "4", "--seed", "1"])
    assert "no such file" in line
    line = cli_error_line(capsys, ["simulate", "--bots", f"policy:{tmp_path},basic", "--games", "2"])
    assert "not a file" in line
    from thirtyone.cli import main

    status = main(["arena", "--bots", f"policy:{trained},basic,basic,basic", "--games", "4", "--seed", "1"])
    assert status == 0
    assert "policy" in capsys.readouterr().out


def test_a_file_that_is_not_a_policy_says_how_to_make_one_not_numpys_pickle_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.npz"
    Policy.initial(players=2, hidden=4, seed=1).save(good)
    entries = dict(np.load(good))
    text = tmp_path / "notes.txt"
    text.write_text("these are my notes, not weights\n")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    broken_zip = tmp_path / "broken.npz"
    broken_zip.write_bytes(b"PK\x03\x04 not really a zip")
    pickled = _save(tmp_path / "pickled.npz", **{**entries, "w1": np.array([object()], dtype=object)})
    for path in (text, empty, broken_zip, pickled):
        expected = (
            f"policy {str(path)!r}: not a policy file saved by thirtyone (a .npz); "
            "make one with python examples/train.py --out FILE.npz (or Policy.save)"
        )
        with pytest.raises(PolicyError) as caught:
            make_any_bot(f"policy:{path}")
        assert str(caught.value) == expected
        assert "allow_pickle" not in str(caught.value)
        line = cli_error_line(capsys, ["simulate", "--bots", f"policy:{path},basic", "--players", "2", "--games", "1"])
        assert line == f"thirtyone: error: {expected}"
    other = _save(tmp_path / "other.npz", a=np.zeros(3))
    with pytest.raises(PolicyError, match=r"not a policy file of format .*make one with python examples/train.py"):
        make_any_bot(f"policy:{other}")


def test_weights_of_another_observation_shape_say_so_in_one_line(tmp_path: Path) -> None:
    policy = Policy.initial(players=4, hidden=8, seed=1)
    policy.w1 = np.zeros((500, 8), dtype=np.float32)  # not the 714 + 14 inputs of a 4-player table
    policy.save(tmp_path / "other.npz")
    with pytest.raises(PolicyError, match=r"observations of 486 entries, not 714 \(a 4-player table's;") as caught:
        Policy.load(tmp_path / "other.npz")
    assert "\n" not in str(caught.value)


def test_a_stable_baselines3_model_file_is_not_a_policy(tmp_path: Path) -> None:
    import zipfile

    model = tmp_path / "ppo.zip"
    with zipfile.ZipFile(model, "w") as archive:  # what MaskablePPO.save writes
        archive.writestr("data", '{"policy_class": "MaskableActorCriticPolicy"}')
        archive.writestr("policy.pth", b"\x80\x02")
        archive.writestr("_stable_baselines3_version", "2.9.2")
    with pytest.raises(
        PolicyError, match=r"a Stable-Baselines3 model, not a policy's weights; .*train_ppo\.py"
    ) as caught:
        Policy.load(model)
    assert "\n" not in str(caught.value)
