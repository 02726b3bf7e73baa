"""The OpenSpiel game python_thirtyone: pyspiel.random_sim_test for several rulesets, its type and
info from the parameters, explicit chance, strings that hide what a player may not know,
resampling, shimmy's PettingZoo wrapper; and the arena bot ismcts (OpenSpiel's ISMCTSBot)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from thirtyone import Rules
from thirtyone.agents.ismcts import IsmctsBot
from thirtyone.agents.openspiel import SHORT_NAME, ThirtyOneState
from thirtyone.bots import UnknownBotError, make_bot
from thirtyone.bots.runner import play_game
from thirtyone.errors import ArgumentError, IllegalActionError, RulesError


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "lives": 1},
        {"players": 2, "preset": "widow", "options": "exchange:any"},
        {"players": 4, "preset": "schwimmen", "win_reward": True, "lives": 1},
        {"players": 2, "lives": 1, "options": "grace_life:off+throw_down:on+max_turns:20"},
        {"players": 5, "preset": "namu", "lives": 1, "max_rounds": 2},
    ],
)
def test_random_sim_test_passes(params: dict[str, object]) -> None:
    game = pyspiel.load_game(SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_type_and_info_follow_the_parameters() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "preset": "scat"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert game.num_distinct_actions() == 79
    assert game.max_chance_outcomes() == 52
    assert game.max_game_length() == 2 * 3 * 4 * (2 * 200 + 3 + 1)  # max_rounds * (2 max_turns + players + 1)
    assert (game.min_utility(), game.max_utility()) == (-4.0, 8.0)
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [52 * 11 + 21 + 10]
    general = pyspiel.load_game(
        SHORT_NAME, {"players": 2, "win_reward": True, "max_rounds": 5, "options": "max_turns:9"}
    )
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert general.max_game_length() == 5 * (2 * 9 + 2 + 1)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game(SHORT_NAME, {"colour": "red"})
    with pytest.raises((ArgumentError, RuntimeError), match="name:value"):
        pyspiel.load_game(SHORT_NAME, {"options": "exchange=any"})
    with pytest.raises((RulesError, RuntimeError), match="unknown preset"):
        pyspiel.load_game(SHORT_NAME, {"preset": "bridge"})


def play_to_decision(state: ThirtyOneState, rng: random.Random, moves: int) -> ThirtyOneState:
    """Random chance and moves until ``moves`` decisions were made (or the game ended)."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            assert sum(chances) == pytest.approx(1.0)
            state.apply_action(rng.choices(outcomes, chances)[0])
            continue
        if made == moves:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state


def test_chance_is_explicit() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [1 / 3] * 3
    state.apply_action(1)
    count = 0
    while state.is_chance_node():  # the deck, card by card; the last one is placed without a node
        assert len(state.chance_outcomes()) == 52 - count
        state.apply_action(state.chance_outcomes()[0][0])
        count += 1
    assert count == 51
    assert state.current_player() == 2, "dealer 1 deals, seat 2 opens"


def snapshot(state: ThirtyOneState) -> tuple[object, ...]:
    outcomes = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
    return state.history(), str(state), outcomes, state.rewards(), state.returns(), state._drawn


def test_chance_outcomes_not_offered_are_refused_and_change_nothing() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    before = snapshot(state)
    with pytest.raises(ArgumentError, match=r"chance outcome 5 is not offered: the first dealer is a seat, 0 to 2"):
        state.apply_action(5)
    assert snapshot(state) == before
    state.apply_action(0)
    state.apply_action(7)
    before = snapshot(state)
    for outcome, why in [(7, "card 3s was placed already"), (52, "a card is an index from 0 to 51")]:
        with pytest.raises(ArgumentError, match=f"chance outcome {outcome} is not offered: {why}"):
            state.apply_action(outcome)
        assert snapshot(state) == before
    play_to_decision(state, random.Random(2), 0)  # the deal goes on from where it was
    assert state.current_player() in range(3)


def test_an_illegal_id_changes_nothing() -> None:
    state = play_to_decision(pyspiel.load_game(SHORT_NAME, {"players": 3}).new_initial_state(), random.Random(5), 1)
    state._rewards = [1.0, -0.5, -0.5]  # as after a move that ended a round
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"R4\.1"):
        state.apply_action(0)  # a discard before drawing
    assert snapshot(state) == before


def test_strings_hide_what_a_player_may_not_know() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    rng = random.Random(4)
    for moves in (0, 3, 9, 25):
        state = play_to_decision(game.new_initial_state(), rng, moves)
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(5):
            twin = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.observation_string(player) == state.observation_string(player)
            assert twin.legal_actions() == state.legal_actions()
            assert np.array_equal(twin.observation_tensor(player), state.observation_tensor(player))
        other = (player + 1) % 3
        hand = " ".join(map(str, state._game.hand(other)))  # type: ignore[union-attr]
        assert hand not in state.observation_string(player)


@pytest.mark.parametrize(
    "params",
    [{"players": 3}, {"players": 4, "preset": "widow"}, {"players": 3, "preset": "schwimmen"},
     {"players": 2, "options": "throw_down:on+stock_exhausted:showdown"}],
)  # fmt: skip
def test_resampling_keeps_every_players_information_state(params: dict[str, object]) -> None:
    """For every player, to move or not, at thousands of decision nodes: the resampled state gives
    that player the same information-state string, observation string and tensor."""
    game = pyspiel.load_game(SHORT_NAME, params)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    while checked < 1000:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            for player in range(game.num_players()):
                twin = state.resample_from_infostate(player, sampler)
                assert twin.information_state_string(player) == state.information_state_string(player)
                assert twin.observation_string(player) == state.observation_string(player)
                assert np.array_equal(twin.observation_tensor(player), state.observation_tensor(player))
                assert twin.current_player() == state.current_player()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))


def test_rewards_arrive_on_the_move_that_ends_the_round() -> None:
    from thirtyone.agents.table import round_rewards
    from thirtyone.events import RoundEnded

    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "lives": 2})
    rng = random.Random(3)
    rounds = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            engine = state._game
            seen, before = len(engine.events), [engine.remaining(seat) for seat in range(3)]
            chance = state.is_chance_node()
            if chance:
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            ended = [event for event in engine.events[seen:] if isinstance(event, RoundEnded)]
            if not ended:
                if not chance:
                    assert state.rewards() == [0.0, 0.0, 0.0]
                continue
            if chance:  # a 31 on the deal: added to what the move before the deal paid
                continue
            rounds += len(ended)
            expected, left = [0.0] * 3, before
            for event in ended:
                for seat, reward in enumerate(round_rewards(left, event.result.remaining)):
                    expected[seat] += reward
                left = list(event.result.remaining)
            assert state.rewards() == pytest.approx(expected)
    assert rounds > 4


def test_shimmy_makes_a_pettingzoo_env_of_it() -> None:
    env = OpenSpielCompatibilityV0(game_name=SHORT_NAME, config={"players": 2, "lives": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)


def test_ismcts_plays_through_the_arena_bot() -> None:
    bot = make_bot("ismcts:12", seed=3)
    assert isinstance(bot, IsmctsBot)
    game = play_game(Rules.preset("scat", lives=1), [bot, make_bot("basic", 1), make_bot("heuristic", 2)], seed=7)
    assert game.is_over
    again = make_bot("ismcts:12", seed=3)
    replay = play_game(Rules.preset("scat", lives=1), [again, make_bot("basic", 1), make_bot("heuristic", 2)], seed=7)
    assert replay.events == game.events, "a count budget is deterministic for a seed"


def test_ismcts_time_budget_and_widow_mode() -> None:
    bot = make_bot("ismcts:0.05s", seed=1)
    assert isinstance(bot, IsmctsBot)
    assert bot.seconds == 0.05
    game = play_game(Rules.preset("widow", lives=1), [bot, make_bot("basic", 1)], seed=2)
    assert game.is_over


def test_ismcts_budgets_are_checked() -> None:
    for bad in ("ismcts:0", "ismcts:lots", "ismcts:-1s", "ismcts:99999s"):
        with pytest.raises(UnknownBotError, match="bad ismcts budget"):
            make_bot(bad)
