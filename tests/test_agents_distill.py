"""The expert distilled into the judge (thirtyone.agents.distill): the expert's values kept as it
gives them, chunks a killed run goes on from, and a fit that learns them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("numba")

from thirtyone.action_ids import action_id
from thirtyone.actions import Look
from thirtyone.agents import distill
from thirtyone.agents.suits import relabel
from thirtyone.bots.base import UnknownBotError
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.judge.lastturn import is_last_turn
from thirtyone.judge.lastturn import last_turn
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import MOVE_FEATURES
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import judge_inputs
from thirtyone.judge.observation import encode
from thirtyone.rules import Rules
from thirtyone.sim.rng import derive
from thirtyone.views import Phase


def test_the_first_decision_holds_the_experts_own_values_and_move():
    targets = distill.expert_targets("scat", 3, games=1, seed=7, worlds=8, explore=0.0)
    game = Game(Rules.preset("scat"), 3, seed=derive(7, 100))
    view = game.view(game.current_seat)
    analysis = ExpertBot(derive(7, 1), worlds=8, seconds=None).analyse(view)
    ids = sorted(action_id(view, estimate.action) for estimate in analysis.estimates)
    assert list(np.flatnonzero(targets.mask[0])) == ids
    for estimate in analysis.estimates:
        assert targets.values[0, action_id(view, estimate.action)] == pytest.approx(estimate.mean, abs=1e-6)
    assert targets.best[0] == action_id(view, analysis.best)
    expected = judge_inputs(encode(view)[None, :], 3, Rules.preset("scat"))[0]
    assert np.array_equal(targets.x[0], expected.astype(np.float16))
    assert set(targets.players) == {3}


def test_every_kept_decision_has_a_choice_and_the_experts_move_is_legal():
    targets = distill.expert_targets("schwimmen", 2, games=1, seed=2, worlds=4)
    assert len(targets) > 5
    assert (targets.mask.sum(axis=1) >= 2).all()
    assert targets.mask[np.arange(len(targets)), targets.best].all()
    assert (targets.values[~targets.mask] == 0).all()


def test_the_same_seed_gives_the_same_decisions_and_another_seed_others():
    first = distill.expert_targets("scat", 2, games=1, seed=4, worlds=4)
    again = distill.expert_targets("scat", 2, games=1, seed=4, worlds=4)
    other = distill.expert_targets("scat", 2, games=1, seed=5, worlds=4)
    assert np.array_equal(first.values, again.values)
    assert np.array_equal(first.best, again.best)
    assert first.x.shape != other.x.shape or not np.array_equal(first.x, other.x)


def test_a_killed_run_goes_on_from_the_chunks_it_wrote(tmp_path):
    tables = [("scat", 2)]
    [first] = distill.write_chunks(tmp_path, tables, chunks=1, games=1, worlds=2, seed=3)
    written = first.read_bytes()
    paths = distill.write_chunks(tmp_path, tables, chunks=2, games=1, worlds=2, seed=3)
    assert paths[0] == first
    assert first.read_bytes() == written
    assert paths[1].name == "scat-2-worlds2-0001.npz"
    assert paths[1].exists()
    assert not list(tmp_path.glob("*.partial.npz"))
    joined = distill.read_chunks(tmp_path)
    assert len(joined) == len(distill.Targets.load(paths[0])) + len(distill.Targets.load(paths[1]))


def test_a_chunk_keeps_what_the_expert_gave_and_reads_back_every_input_by_playing_its_games_again(tmp_path):
    tables = [("schwimmen", 3)]
    [path] = distill.write_chunks(tmp_path, tables, chunks=1, games=2, worlds=2, seed=8, explore=0.3)
    made = distill.expert_targets("schwimmen", 3, games=2, seed=derive(derive(8, 0), 0), worlds=2, explore=0.3)
    assert (made.played != made.best).any()  # explored moves: the kept games follow the moves played
    with np.load(path) as data:
        assert "x" not in data.files
    assert path.stat().st_size < 40 * len(made)  # bytes: small enough to keep in the repository
    loaded = distill.Targets.load(path)
    for name in ("x", "mask", "values", "best", "players", "played"):
        assert np.array_equal(getattr(loaded, name), getattr(made, name)), name
    assert loaded.made == made.made


def test_a_chunk_of_another_players_moves_reads_back_the_same(tmp_path):
    made = distill.expert_targets("scat", 2, games=1, seed=9, worlds=2, explore=0.0, player="heuristic")
    assert (made.played != made.best).any()
    made.save(tmp_path / "by.npz")
    assert np.array_equal(distill.Targets.load(tmp_path / "by.npz").x, made.x)


def test_a_chunk_whose_games_no_longer_play_as_kept_is_refused_in_one_line(tmp_path):
    made = distill.expert_targets("scat", 2, games=1, seed=10, worlds=2)
    replace(made, made=dict(made.made, seed=11)).save(tmp_path / "moved.npz")
    with pytest.raises(ArgumentError, match=r"moved\.npz: decision \d+ no longer plays as it was kept"):
        distill.Targets.load(tmp_path / "moved.npz")
    replace(made, made=dict(made.made, games=2)).save(tmp_path / "more.npz")  # a game more than kept
    with pytest.raises(ArgumentError, match=rf"more\.npz: decision {len(made)} no longer plays as it was kept"):
        distill.Targets.load(tmp_path / "more.npz")
    one_more = {name: np.concatenate([getattr(made, name), getattr(made, name)[:1]]) for name in ("mask", "values")}
    one_more |= {name: np.append(getattr(made, name), getattr(made, name)[0]) for name in ("best", "played")}
    replace(made, **one_more).save(tmp_path / "fewer.npz")  # a decision more than its games make
    with pytest.raises(ArgumentError, match=rf"fewer\.npz: its games end after {len(made)} of its {len(made) + 1}"):
        distill.Targets.load(tmp_path / "fewer.npz")


def test_the_chunks_kept_in_the_repository_still_play_as_they_were_kept():
    # data/ keeps hours of the expert's values; a change to the rules or the engine that stops them
    # replaying must be seen here, not when a fit needs them
    folders = sorted((Path(__file__).parents[1] / "data").glob("distill-*"))
    assert folders
    for folder in folders:
        paths = sorted(folder.glob("*.npz"))
        for path in (paths[0], paths[-1]):
            targets = distill.Targets.load(path)
            assert len(targets) > 0
            assert targets.made is not None
            assert targets.x.shape == (len(targets), INPUT_SIZE)


def test_chunks_written_before_the_move_features_load_with_them(tmp_path):
    targets = distill.expert_targets("widow", 2, games=1, seed=5, worlds=2)
    old = distill.Targets(
        targets.x[:, : INPUT_SIZE - MOVE_FEATURES], targets.mask, targets.values, targets.best, targets.players
    )
    old.save(tmp_path / "old.npz")
    loaded = distill.Targets.load(tmp_path / "old.npz")
    assert loaded.x.shape == targets.x.shape
    assert np.array_equal(loaded.x, targets.x)


def test_bad_settings_and_files_are_refused_in_one_line(tmp_path):
    with pytest.raises(ArgumentError, match="at least 1 game"):
        distill.expert_targets("scat", 2, games=0, seed=1, worlds=4)
    with pytest.raises(ArgumentError, match="explore"):
        distill.expert_targets("scat", 2, games=1, seed=1, worlds=4, explore=1.0)
    with pytest.raises(ArgumentError, match="no chunks"):
        distill.read_chunks(tmp_path)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ArgumentError, match=r"junk\.npz: not a file of the expert.s values"):
        distill.read_chunks(tmp_path)


def test_the_fit_learns_the_values_and_the_move_and_exports_weights_that_play():
    targets = distill.expert_targets("scat", 2, games=2, seed=11, worlds=2)
    start = JudgeNet.initial(hidden=(32,), seed=1)
    net, curve = distill.fit(targets, init=start, epochs=20, lr=3e-3, batch=64, held_out=0.0)
    assert curve[-1]["value_loss"] < 0.5 * curve[0]["value_loss"]
    assert curve[-1]["policy_loss"] < curve[0]["policy_loss"]
    assert net.meta["distilled"]["decisions"] == len(targets)
    assert "after" not in net.meta["distilled"]  # fitted from weights never distilled
    assert "value_check" not in net.meta
    again, _ = distill.fit(targets, init=net, epochs=1, lr=1e-3, batch=64, held_out=0.0)
    assert again.meta["distilled"]["epochs"] == 1
    assert again.meta["distilled"]["after"] == net.meta["distilled"]  # the fit before it is kept
    game = Game(Rules.preset("scat"), 2, seed=derive(11, 100))
    view = game.view(game.current_seat)
    judged = net.judge(view)
    assert set(judged.values) == {action_id(view, action) for action in view.legal_actions}


def test_the_held_out_decisions_are_measured_each_epoch():
    targets = distill.expert_targets("scat", 2, games=2, seed=12, worlds=4)
    _net, curve = distill.fit(targets, hidden=(16,), epochs=2, held_out=0.3, presets=("scat",))
    assert [figures["epoch"] for figures in curve] == [1.0, 2.0]
    for figures in curve:
        assert figures["value_rmse"] > 0
        assert 0 <= figures["value_agrees"] <= 1
        assert 0 <= figures["policy_agrees"] <= 1
    with pytest.raises(ArgumentError, match="at least 10 decisions"):
        distill.fit(
            distill.Targets(targets.x[:3], targets.mask[:3], targets.values[:3], targets.best[:3], targets.players[:3])
        )


def test_a_fit_with_the_suits_relabelled_learns_every_suits_version_of_its_decisions():
    targets = distill.expert_targets("scat", 2, games=3, seed=13, worlds=2)
    perm = (2, 3, 1, 0)
    x, mask, _values, best = relabel(targets.x, targets.mask, targets.values, targets.best, perm)
    agrees = {}
    for suits in (False, True):
        net, _ = distill.fit(targets, hidden=(32,), epochs=20, lr=3e-3, batch=64, held_out=0.0, suits=suits)
        assert net.meta["distilled"]["suits"] is suits
        logits, _ = net.forward(x.astype(np.float32))
        agrees[suits] = float((np.where(mask, logits, -np.inf).argmax(axis=1) == best).mean())
    assert agrees[True] > agrees[False] + 0.1  # the other suits' version of each decision, never shown as such
    with pytest.raises(ArgumentError, match="two suits only"):
        distill.fit(targets, presets=("mini",), suits=True)


def test_decisions_repeated_in_the_fit_outweigh_the_others_that_disagree_with_them():
    targets = distill.expert_targets("scat", 2, games=2, seed=14, worlds=2)
    legal = [np.flatnonzero(row) for row in targets.mask]
    pairs = zip(legal, targets.best, strict=True)
    other = np.array([ids[ids != best][0] if len(ids) > 1 else best for ids, best in pairs])
    # the same decisions twice: once with the expert's move, once with another legal move
    others = distill.Targets(targets.x, targets.mask, targets.values, other, targets.players)
    both = distill.Targets.join([targets, others])
    n = len(targets)
    chosen = {}
    for favoured in (0, 1):
        repeat = np.ones(2 * n, np.int64)
        repeat[favoured * n : (favoured + 1) * n] = 6
        net, _ = distill.fit(both, hidden=(32,), epochs=10, lr=3e-3, batch=64, held_out=0.0, repeat=repeat)
        assert net.meta["distilled"]["repeated"] == {"decisions": n, "times": 6}
        logits, _ = net.forward(targets.x.astype(np.float32))
        chosen[favoured] = np.where(targets.mask, logits, -np.inf).argmax(axis=1)
    choice = other != targets.best
    assert (chosen[0] == targets.best)[choice].mean() > 0.8
    assert (chosen[1] == other)[choice].mean() > 0.8
    _, curve = distill.fit(both, hidden=(16,), epochs=1, held_out=0.3, repeat=repeat)
    assert curve[0]["repeated_value_rmse"] > 0  # the repeated held-out decisions measured apart
    assert 0 <= curve[0]["repeated_policy_agrees"] <= 1
    _, curve = distill.fit(both, hidden=(16,), epochs=1, held_out=0.3)
    assert "repeated_value_rmse" not in curve[0]
    with pytest.raises(ArgumentError, match="one repeat count of at least 1"):
        distill.fit(targets, repeat=np.zeros(n, np.int64))
    with pytest.raises(ArgumentError, match="one repeat count of at least 1"):
        distill.fit(targets, repeat=np.ones(n - 1, np.int64))


def test_a_fit_weighing_the_regret_gives_away_fewer_lives_by_the_experts_values():
    targets = distill.expert_targets("scat", 2, games=3, seed=15, worlds=4)
    rows = np.arange(len(targets))
    given_away = {}
    for weight in (0.0, 50.0):
        net, _ = distill.fit(targets, hidden=(32,), epochs=20, lr=3e-3, batch=64, held_out=0.0, regret=weight)
        assert net.meta["distilled"].get("regret", 0.0) == weight
        logits, _ = net.forward(targets.x.astype(np.float32))
        probs = np.exp(logits - logits.max(axis=1, keepdims=True)) * targets.mask
        probs /= probs.sum(axis=1, keepdims=True)
        best = targets.values[rows, targets.best]
        given_away[weight] = float((probs * (best[:, None] - targets.values) * targets.mask).sum(axis=1).mean())
    assert given_away[50.0] < 0.8 * given_away[0.0]  # the costly moves, not every other move alike
    _, curve = distill.fit(targets, hidden=(16,), epochs=1, held_out=0.3)
    assert curve[0]["policy_regret"] >= 0.0  # the expert's move is its values' best
    with pytest.raises(ArgumentError, match="regret=-1"):
        distill.fit(targets, regret=-1.0)


def test_r6_2_a_last_turn_after_a_knock_is_valued_exactly():
    game = Game(Rules.preset("scat"), 3, seed=21)
    while True:  # the heuristic's moves until a seat has its last turn after a knock
        view = game.view(game.current_seat)
        if is_last_turn(view):
            break
        game.apply(HeuristicBot(1).choose(view, view.legal_actions))
    valued, chosen = distill._valued(ExpertBot(1, worlds=4, seconds=None), view)
    turn = last_turn(view)
    assert valued == {action_id(view, move.action): move.value for move in turn.moves}
    assert chosen == turn.best.action


def test_with_a_player_its_moves_are_played_and_the_expert_values_each_position_it_reaches():
    targets = distill.expert_targets("scat", 2, games=1, seed=4, worlds=4, explore=0.0, player="heuristic")
    game, mover = Game(Rules.preset("scat"), 2, seed=derive(4, 100)), HeuristicBot(derive(4, 3))
    rules, expected = Rules.preset("scat"), []
    while (seat := game.current_seat) is not None:
        view = game.view(seat)
        legal = view.legal_actions
        if view.phase is Phase.LOOK or len(legal) == 1:
            game.apply(Look() if view.phase is Phase.LOOK else legal[0])
            continue
        expected.append(judge_inputs(encode(view)[None, :], 2, rules)[0].astype(np.float16))
        game.apply(mover.choose(view, legal))
    assert len(targets) == len(expected)
    assert np.array_equal(targets.x, np.stack(expected))
    own = distill.expert_targets("scat", 2, games=1, seed=4, worlds=4, explore=0.0)
    assert own.x.shape != targets.x.shape or not np.array_equal(own.x, targets.x)
    assert targets.mask[np.arange(len(targets)), targets.best].all()


def test_a_players_chunks_are_named_after_it_beside_the_experts_own(tmp_path):
    paths = distill.write_chunks(tmp_path, [("scat", 2)], chunks=1, games=1, worlds=2, player="expert:8")
    assert [path.name for path in paths] == ["scat-2-worlds2-by-expert_8-0000.npz"]
    with pytest.raises(UnknownBotError):
        distill.write_chunks(tmp_path, [("scat", 2)], chunks=1, games=1, worlds=2, player="no-such-bot")
