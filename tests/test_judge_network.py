"""The judge's network at play time (thirtyone.judge.network): its inputs, its reading of a view,
and its weights file (saved, loaded, refused in one line)."""

from __future__ import annotations

import numpy as np
import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.action_ids import action_id
from thirtyone.action_ids import legal_ids
from thirtyone.cards import Card
from thirtyone.judge.network import CARD_SUMS
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import MOVE_FEATURES
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import JudgeWeightsError
from thirtyone.judge.network import judge_inputs
from thirtyone.judge.network import rules_features
from thirtyone.judge.network import with_move_features
from thirtyone.judge.observation import encode
from thirtyone.judge.observation import layout_for

WIDE = layout_for(9)


def test_inputs_lay_every_table_out_for_nine_seats():
    for players in (2, 4, 9):
        game = Game(Rules.preset("scat"), players=players, seed=players)
        obs = encode(game.view(game.current_seat))[None, :]
        x = judge_inputs(obs, players, game.rules)
        assert x.shape == (1, INPUT_SIZE)
        layout = layout_for(players)
        for name, where in layout.slices.items():
            wide = WIDE.slices[name]
            placed = x[0, wide.start : wide.start + (where.stop - where.start)]
            assert np.array_equal(placed, obs[0, where]), name
            assert not x[0, wide.start + (where.stop - where.start) : wide.stop].any(), name
        sizes = x[0, WIDE.size + CARD_SUMS : WIDE.size + CARD_SUMS + 8]
        assert sizes.tolist() == [1.0 if n == players else 0.0 for n in range(2, 10)]


def test_inputs_tell_the_presets_and_the_lives_apart():
    features = {name: rules_features(Rules.preset(name)).tobytes() for name in ("scat", "widow", "schwimmen", "mini")}
    assert len(set(features.values())) == 4
    assert not np.array_equal(rules_features(Rules.preset("scat", lives=5)), rules_features(Rules.preset("scat")))


def test_card_sums_are_the_hands_points_by_suit():
    game = Game(Rules.preset("scat"), players=3, seed=11)
    view = game.view(game.current_seat)
    x = judge_inputs(encode(view)[None, :], 3, game.rules)
    own = x[0, WIDE.size : WIDE.size + 4] * 31
    for suit in range(4):
        points = sum(card.points for card in view.hand if int(card) % 4 == suit)
        assert own[suit] == pytest.approx(points)


def test_a_judged_view_gives_a_policy_and_a_value_for_every_legal_action():
    net = JudgeNet.initial(hidden=(32,), seed=3, presets=("widow",), players=(3,))
    game = Game(Rules.preset("widow"), players=3, seed=5)
    for _ in range(12):
        if game.is_over:
            break
        view = game.view(game.current_seat)
        judged = net.judge(view)
        assert sorted(judged.probabilities) == sorted(legal_ids(game))
        assert sorted(judged.values) == sorted(legal_ids(game))
        assert sum(judged.probabilities.values()) == pytest.approx(1.0)
        assert judged.best in judged.probabilities
        game.apply(game.legal_actions()[0])


def test_weights_refuse_a_table_they_were_not_made_for(tmp_path):
    path = tmp_path / "judge.npz"
    JudgeNet.initial(hidden=(8,), presets=("scat",), players=(2, 3)).save(path)
    net = JudgeNet.load(path)
    game = Game(Rules.preset("scat"), players=4, seed=1)
    with pytest.raises(JudgeWeightsError, match=r"judge\.npz'.*tables of 2, 3 players, not 4"):
        net.judge(game.view(0))
    game = Game(Rules.preset("schwimmen"), players=2, seed=1)
    with pytest.raises(JudgeWeightsError, match="made for scat, not schwimmen"):
        net.judge(game.view(game.current_seat))


def test_saved_weights_load_and_judge_alike(tmp_path):
    net = JudgeNet.initial(hidden=(16, 8), seed=9, presets=("scat",), players=(4,))
    path = tmp_path / "judge.npz"
    net.save(path)
    loaded = JudgeNet.load(path)
    game = Game(Rules.preset("scat"), players=4, seed=2)
    x = judge_inputs(encode(game.view(0))[None, :], 4, game.rules)
    for mine, theirs in zip(net.forward(x), loaded.forward(x), strict=True):
        assert np.allclose(mine, theirs, atol=2e-2)  # float16 in the file
    assert loaded.meta["presets"] == ["scat"]
    assert loaded.meta["path"] == str(path)


def test_a_file_that_is_not_a_judges_weights_is_refused_in_one_line(tmp_path):
    text = tmp_path / "notes.npz"
    text.write_text("not weights")
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("thirtyone-policy-1"), w1=np.zeros(3))
    wrong = tmp_path / "wrong.npz"
    net = JudgeNet.initial(hidden=(4,))
    net.policy[0] = (np.zeros((10, 4), dtype=np.float32), net.policy[0][1])
    net.save(wrong)
    broken = tmp_path / "broken.npz"
    np.savez(broken, format=np.array("thirtyone-judge-1"), meta=np.array("{}"))
    cases = {
        tmp_path / "missing.npz": "no such file",
        tmp_path: "not a file",
        text: "not a .npz file of judge weights",
        other: "not a judge's weights \\(format 'thirtyone-policy-1'",
        wrong: f"inputs of 10 entries, not {INPUT_SIZE}",
        broken: "broken weights",
    }
    for path, words in cases.items():
        with pytest.raises(JudgeWeightsError, match=words) as caught:
            JudgeNet.load(path)
        assert "\n" not in str(caught.value)
        assert str(path) in str(caught.value)
        assert isinstance(caught.value, ValueError)


def _best_suit(cards: tuple[Card, ...]) -> int:
    points = [0] * 4
    for card in cards:
        points[card.suit] += card.points
    return max(points)


@pytest.mark.parametrize(
    "rules", [Rules.preset("scat"), Rules.preset("schwimmen"), Rules.preset("widow").replace(exchange="any")]
)
def test_the_move_features_give_the_hand_each_move_leaves(rules: Rules) -> None:
    """For every legal move that leaves a known hand of three (a discard, knock, pass, keep, an
    exchange of one, two or all face-up cards), its features are that hand's best suit's points
    (/ 31) and whether it is three of a kind, as the engine deals it after the move."""
    import random

    checked: set[int] = set()
    for seed in range(4):
        game = Game(rules, players=2 + seed % 3, seed=seed)
        moves = random.Random(seed)
        while not game.is_over and len(game.round_events()) < 400:
            if game.is_chance():
                game.chance_step()
                continue
            view = game.view(game.current_seat)
            features = judge_inputs(encode(view)[None, :], view.players, rules)[0, INPUT_SIZE - MOVE_FEATURES :]
            for action in view.legal_actions:
                number = action_id(view, action)
                after = game.copy()
                after.apply(action)
                hand = after.hand(view.seat)
                unknown = number in (52, 53, 58) or (number == 55 and view.widow_face_down)  # a card unseen
                if after.view(view.seat).round != view.round or hand is None or unknown:
                    continue
                assert features[number] == pytest.approx(_best_suit(hand) / 31), (action, hand)
                assert features[79 + number] == (len({card.rank for card in hand}) == 1), (action, hand)
                checked.add(number)
            game.apply(moves.choice(view.legal_actions))
    assert 54 in checked  # knock
    assert checked & set(range(52)) or checked & set(range(61, 70))  # discards, exchanges


def test_inputs_and_weights_of_before_the_move_features_are_completed() -> None:
    """Weights made before the move features load with zero weights for them (the same outputs),
    and inputs written then get them computed (distillation chunks)."""
    game = Game(Rules.preset("widow"), players=3, seed=8)
    x = judge_inputs(encode(game.view(game.current_seat))[None, :], 3, game.rules)
    assert np.array_equal(with_move_features(x[:, : INPUT_SIZE - MOVE_FEATURES]), x)
    assert with_move_features(x) is x
    assert x[0, INPUT_SIZE - MOVE_FEATURES :].any()


def test_weights_of_before_the_move_features_play_as_they_did(tmp_path) -> None:
    net = JudgeNet.initial(hidden=(8,), seed=3)
    old = JudgeNet(
        [(net.policy[0][0][: INPUT_SIZE - MOVE_FEATURES], net.policy[0][1]), *net.policy[1:]],
        [(net.value[0][0][: INPUT_SIZE - MOVE_FEATURES], net.value[0][1]), *net.value[1:]],
        net.meta,
    )
    old.save(tmp_path / "old.npz")
    loaded = JudgeNet.load(tmp_path / "old.npz")
    assert loaded.policy[0][0].shape == (INPUT_SIZE, 8)
    assert not loaded.policy[0][0][INPUT_SIZE - MOVE_FEATURES :].any()
    x = np.random.default_rng(1).random((5, INPUT_SIZE), dtype=np.float32)
    before = [
        _mlp_of(old.policy, x[:, : INPUT_SIZE - MOVE_FEATURES]),
        _mlp_of(old.value, x[:, : INPUT_SIZE - MOVE_FEATURES]),
    ]
    after = loaded.forward(x)
    for was, now in zip(before, after, strict=True):
        assert np.allclose(was, now, atol=2e-2)  # the file keeps float16


def _mlp_of(layers, x):
    for number, (weights, bias) in enumerate(layers):
        x = x @ weights + bias
        if number < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x
