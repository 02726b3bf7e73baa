"""The judge as a bot (thirtyone.bots.judge): legal moves from the policy, the same game for the same
seed, and a table its weights were not made for refused up front."""

from __future__ import annotations

import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.action_ids import action_id
from thirtyone.bots.judge import JudgeBot
from thirtyone.judge.network import JudgeNet

NET = JudgeNet.initial(hidden=(16,), seed=2, presets=("scat", "schwimmen"), players=(2, 3, 4))


def _play(seed: int, greedy: bool = False) -> list[str]:
    game = Game(Rules.preset("schwimmen"), players=3, seed=seed)
    bots = [JudgeBot(seed=seed + seat, greedy=greedy, net=NET) for seat in range(3)]
    moves = []
    while not game.is_over and len(moves) < 300:
        seat = game.current_seat
        view = game.view(seat)
        action = bots[seat].choose(view, view.legal_actions)
        assert action in view.legal_actions
        moves.append(str(action))
        game.apply(action)
    return moves


def test_the_judge_plays_legal_moves_and_the_same_game_for_the_same_seed():
    assert _play(5) == _play(5)
    assert _play(5) != _play(6)


def test_greedy_plays_the_most_probable_move():
    bot = JudgeBot(seed=1, greedy=True, net=NET)
    game = Game(Rules.preset("scat"), players=4, seed=9)
    view = game.view(game.current_seat)
    judged = bot.judge(view)
    chosen = bot.choose(view, view.legal_actions)
    assert judged.probabilities[judged.best] == max(judged.probabilities.values())
    assert action_id(view, chosen) == judged.best


def test_weights_distilled_from_the_expert_play_their_most_probable_move_under_any_seed():
    distilled = JudgeNet(NET.policy, NET.value, {**NET.meta, "distilled": {"decisions": 1}})
    game = Game(Rules.preset("scat"), players=4, seed=9)
    view = game.view(game.current_seat)
    best = JudgeBot(seed=1, net=distilled).judge(view).best
    moves = {action_id(view, JudgeBot(seed=seed, net=distilled).choose(view, view.legal_actions)) for seed in range(20)}
    assert moves == {best}
    sampled = {action_id(view, JudgeBot(seed=seed, net=NET).choose(view, view.legal_actions)) for seed in range(20)}
    assert len(sampled) > 1  # the same weights undistilled sample their moves


def test_a_table_the_weights_were_not_made_for_is_refused_before_the_game():
    bot = JudgeBot(seed=1, net=NET)
    assert bot.cannot_play(Rules.preset("scat"), 4) is None
    assert "not widow" in bot.cannot_play(Rules.preset("widow"), 4)
    assert "tables of 2, 3, 4 players, not 7" in bot.cannot_play(Rules.preset("scat"), 7)


def test_a_last_turn_is_played_by_its_exact_value():
    from thirtyone.judge import last_turn

    for seed in range(6):
        game = Game(Rules.preset("scat"), players=2, seed=seed)
        game.apply("knock")
        view = game.view(game.current_seat)
        bot = JudgeBot(seed=seed, net=NET)
        assert bot.choose(view, view.legal_actions) == last_turn(view).best.action


def test_the_shipped_weights_load_and_play_every_table_they_were_made_for():
    """CI never trains: it checks that the shipped networks load, describe themselves and play."""
    from thirtyone.bots.judge import SHIPPED
    from thirtyone.bots.judge import shipped_judges

    full, mini = shipped_judges()
    assert [path.exists() for path in SHIPPED] == [True, True]
    assert full.meta["presets"] == ["scat", "schwimmen", "widow"]
    assert full.meta["players"] == [2, 3, 4, 5, 6, 7, 8, 9]
    assert mini.meta["presets"] == ["mini"]
    bot = JudgeBot(seed=3)
    assert bot.judge_for(Rules.preset("mini"), 2) is mini
    assert bot.judge_for(Rules.preset("widow", lives=5), 6) is full
    for preset, players in (
        ("scat", 9),
        ("widow", 2),
        ("schwimmen", 8),
        ("mini", 2),
        (
            "scat",
            4,
        ),
    ):
        assert bot.cannot_play(Rules.preset(preset), players) is None
        game = Game(Rules.preset(preset), players=players, seed=players)
        for _ in range(40):
            if game.is_over:
                break
            view = game.view(game.current_seat)
            game.apply(bot.choose(view, view.legal_actions))
    assert "not namu" in bot.cannot_play(Rules.preset("namu"), 4)


def test_a_last_turn_the_empty_stock_could_cut_short_is_played_by_the_network():
    """An arena game of the judge heads-up stopped here: a last turn with no card in the stock
    (R4.3: a draw may reshuffle) is not counted exactly, and the judge raised instead of playing."""
    from pathlib import Path

    from thirtyone.judge import NotALastTurnError
    from thirtyone.judge import is_last_turn
    from thirtyone.judge import last_turn
    from thirtyone.record import GameRecord

    record = Path(__file__).parent / "data" / "judge-last-turn-empty-stock.toml"
    game = GameRecord.loads(record.read_text(encoding="utf-8")).replay()
    view = game.view(game.current_seat)
    assert is_last_turn(view)
    assert view.stock_size == 0
    with pytest.raises(NotALastTurnError, match=r"R4\.3"):
        last_turn(view)
    assert JudgeBot(seed=1).choose(view, view.legal_actions) in view.legal_actions


def test_values_give_every_legal_move_best_first_the_network_mid_round_and_exact_on_a_last_turn():
    bot = JudgeBot(seed=1, net=NET)
    game = Game(Rules.preset("scat"), players=3, seed=9)
    view = game.view(game.current_seat)
    valued = bot.values(view)
    assert valued.source == "network"
    assert valued.worlds == 0
    assert {move.action for move in valued.moves} == set(view.legal_actions)
    values = [move.value for move in valued.moves]
    assert values == sorted(values, reverse=True)
    judged = bot.judge(view)
    assert valued.best.value == max(judged.values.values())
    assert JudgeBot(seed=99, net=NET).values(view) == valued  # no seed in a value

    from thirtyone.judge import last_turn

    game = Game(Rules.preset("scat"), players=2, seed=3)
    game.apply("knock")
    view = game.view(game.current_seat)
    valued = bot.values(view)
    exact = last_turn(view)
    assert valued.source == "exact"
    assert valued.worlds == exact.worlds
    assert {move.action: move.value for move in valued.moves} == exact.values
    assert valued.best.action == exact.best.action


def test_the_networks_values_are_shown_only_once_checked_within_the_bar():
    import dataclasses

    from thirtyone.bots.judge import VALUE_ERROR_BAR

    scat = Rules.preset("scat")
    assert "never checked" in JudgeBot(seed=1, net=NET).cannot_value(scat, 4)
    assert "not widow" in JudgeBot(seed=1, net=NET).cannot_value(Rules.preset("widow"), 4)  # cannot play it at all

    def checked(rmse: float) -> JudgeNet:
        return dataclasses.replace(NET, meta={**NET.meta, "value_check": {"gap_rmse": rmse, "positions": 1350}})

    assert JudgeBot(seed=1, net=checked(VALUE_ERROR_BAR)).cannot_value(scat, 4) is None
    refused = JudgeBot(seed=1, net=checked(1.167)).cannot_value(scat, 4)
    assert "1.17 lives from the exact ones" in refused
    assert "1350 positions" in refused
