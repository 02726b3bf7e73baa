"""The OpenSpiel game python_thirtyone: pyspiel.random_sim_test for several rulesets, its type and
info from the parameters, explicit chance (hands dealt as sets), strings that hide what a player
may not know, the perfect-recall information state (string and tensor), resampling, the
terminal-reward mode and OpenSpiel's MCTSBot, shimmy's PettingZoo wrapper and its mended form;
and the arena bot ismcts (OpenSpiel's ISMCTSBot)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

from thirtyone import Card
from thirtyone import Rules
from thirtyone.agents.ismcts import IsmctsBot
from thirtyone.agents.openspiel import SHORT_NAME
from thirtyone.agents.openspiel import ThirtyOneState
from thirtyone.agents.openspiel import shimmy_env
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot
from thirtyone.bots.runner import play_game
from thirtyone.errors import ArgumentError
from thirtyone.errors import RulesError
from thirtyone.refusals import IllegalActionError


def information_tensor(observer: object, state: object, player: int) -> np.ndarray:
    """``state.information_state_tensor(player)`` as pyspiel makes it (PyObserver::WriteTensor: the
    info-state observer's ``set_from``, then its ``dict``'s arrays one after another), as float32,
    without pyspiel's copy into a list of Python floats: 200,000 to 300,000 of them for a whole
    game of a preset, 13 ms a call, and as much again for ``np.asarray`` of it. ``observer`` is
    ``game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))``, as pyspiel's own;
    the tests compare it with the public call every so often."""
    observer.set_from(state, player)  # type: ignore[attr-defined]
    return np.concatenate([np.ravel(part) for part in observer.dict.values()])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "lives": 1},
        {"players": 2, "preset": "widow", "options": "exchange:any"},
        {"players": 4, "preset": "schwimmen", "win_reward": True, "lives": 1},
        {"players": 2, "lives": 1, "options": "grace_life:off+throw_down:on+max_turns:20"},
        {"players": 5, "preset": "namu", "lives": 1, "max_rounds": 2},
        {"players": 2, "preset": "mini", "max_rounds": 1, "first_dealer": 1},
        {"players": 2, "preset": "mini", "terminal_rewards": True},
        {"players": 2, "max_rounds": 3},
        {"players": 3, "preset": "widow", "max_rounds": 3, "terminal_rewards": True},
        {"players": 2, "lives": 1, "max_rounds": 4, "terminal_rewards": True},
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
    assert game.observation_tensor_shape() == [52 * 11 + 21 + 10]
    slots, rounds = 2 * 200 + 3 + 1, 2 * 3 * 4
    per_round = 104 + 53 * 3 + 131 * slots + 3 * slots
    assert game.information_state_tensor_shape() == [52 * 11 + 21 + 10 + 3 + rounds * per_round]
    mini = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini", "max_rounds": 1})
    assert mini.information_state_tensor_shape() == [1901]  # 492 + 2 + 104 + 106 + 9 * 133
    assert mini.max_game_length() == 9
    terminal = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini", "terminal_rewards": True})
    assert terminal.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
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
    with pytest.raises((ArgumentError, RuntimeError), match=r"first_dealer is -1 .* or a seat, 0 to 1, not 2"):
        pyspiel.load_game(SHORT_NAME, {"players": 2, "first_dealer": 2})
    with pytest.raises((ArgumentError, RuntimeError), match=r"R2\.1: 4 players need 14 cards"):
        pyspiel.load_game(SHORT_NAME, {"preset": "mini"})


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
    while state.is_chance_node():  # the three hands, drawn as sets, then the upcard: not the stock
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        if count == 9:  # the upcard: any card left
            assert len(outcomes) == 52 - 9
        state.apply_action(outcomes[0][0])
        count += 1
    assert count == 10
    assert state.current_player() == 2, "dealer 1 deals, seat 2 opens"
    assert state._game.hand(2) == tuple(Card(i) for i in (0, 1, 2)), "seat 2 is dealt the first set: 2c 2d 2h"


def test_a_stock_card_is_dealt_by_chance_when_it_is_drawn() -> None:
    """As OpenSpiel's gin_rummy: the draw from the stock is a move, then a chance node over every
    card of the stock (uniform); the card is the one the player gets. The deal decides no stock card."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = deal_to(game.new_initial_state(), [])
    stock = set(range(52)) - {int(card) for seat in range(3) for card in state._game.hand(seat)}
    stock -= {int(card) for card in state._game.discard_pile}
    player = state.current_player()
    state.apply_action(52)  # draw from the stock
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert {card for card, _ in outcomes} == stock
    assert len(stock) == 42
    assert all(p == pytest.approx(1 / 42) for _, p in outcomes)
    card = max(stock)
    state.apply_action(card)
    assert state.current_player() == player
    assert Card(card) in state._game.hand(player)
    assert f"draw stock +{Card(card)}" in state.information_state_string(player)
    assert f"draw stock +{Card(card)}" not in state.information_state_string((player + 1) % 3)


def test_a_new_widow_is_dealt_by_chance_from_the_stock() -> None:
    """R7.3 (all pass, new widow): the pass that brings a new widow is followed by chance nodes that
    draw it from the stock as a set, lowest card first; the widow is the cards drawn."""
    from thirtyone.actions import Pass
    from thirtyone.events import NewWidow

    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "preset": "schwimmen", "options": "max_turns:30"})
    rng = random.Random(6)
    found = 0
    while found < 3:
        state = game.new_initial_state()
        while not state.is_terminal() and found < 3:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            for action in state.legal_actions():
                child = state.child(action)
                engine = child._game
                if not isinstance(child._pending, Pass):
                    continue
                stock = engine.stock_size
                assert child.is_chance_node()
                assert engine.chance_step is None
                assert len(child.chance_outcomes()) == stock - 2, "the set's lowest card: any but the two highest"
                drawn = []
                while child.is_chance_node():
                    card = rng.choice(child.chance_outcomes())[0]
                    drawn.append(Card(card))
                    child.apply_action(card)
                news = [event for event in engine.round_events() if isinstance(event, NewWidow)]
                widow = list(engine.widow)  # a last card that can only be one is placed without a node
                assert list(news[-1].widow) == widow == sorted(widow)
                assert widow[: len(drawn)] == drawn
                assert engine.stock_size == stock - 3
                found += 1
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_each_hand_is_dealt_as_a_set_and_every_deal_is_equally_likely() -> None:
    """The mini deal, walked exactly: 56 first hands × 10 second hands × 2 upcards (the last card
    is the stock), each with chance 1/1120; hands drawn lowest card first. (One round: two 31s
    dealt cost nobody a life, R5.2, and a second round would be dealt.)"""
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini", "first_dealer": 1, "max_rounds": 1})
    deals: dict[tuple[object, ...], float] = {}

    def walk(state: ThirtyOneState, chance: float) -> None:
        if not state.is_chance_node():
            engine = state._game
            key = (engine.hand(0), engine.hand(1), engine.discard_pile)
            deals[key] = deals.get(key, 0.0) + chance
            return
        for outcome, p in state.chance_outcomes():
            assert p > 0
            walk(state.child(outcome), chance * p)

    walk(game.new_initial_state(), 1.0)
    assert len(deals) == 56 * 10 * 2
    assert all(chance == pytest.approx(1 / 1120) for chance in deals.values())
    assert all(list(hand) == sorted(hand) for hands in deals for hand in hands[:2])


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
    for outcome, why in [
        (7, "card 3s was placed already"),
        (5, "card 3d is below the card drawn before it for this set"),
        (52, "a card is an index from 0 to 51"),
    ]:
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
    [{"players": 3, "options": "max_turns:30"}, {"players": 4, "preset": "widow", "options": "max_turns:30"},
     {"players": 3, "preset": "schwimmen", "options": "max_turns:30"},
     {"players": 2, "options": "throw_down:on+stock_exhausted:showdown+max_turns:30"},
     {"players": 2, "preset": "mini", "max_rounds": 1}],
)  # fmt: skip
def test_resampling_keeps_every_players_information_state(params: dict[str, object]) -> None:
    """For every player, to move or not, at 400 decision nodes of each ruleset (2,000 in all): the
    resampled state gives that player the same information-state string, observation string and
    tensors."""
    game = pyspiel.load_game(SHORT_NAME, params)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    checked = 0
    while checked < 400:
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
                tensor = information_tensor(observer, state, player)
                assert np.array_equal(information_tensor(observer, twin, player), tensor)
                if checked % 20 == 0:  # pyspiel's own call, a list of Python floats, now and then
                    public = state.information_state_tensor(player)
                    assert np.array_equal(tensor, public)
                    assert twin.information_state_tensor(player) == public
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


def deal_to(state: ThirtyOneState, wanted: list[int]) -> ThirtyOneState:
    """Chance outcomes taken from ``wanted`` where offered (else the first offered) until a decision."""
    while state.is_chance_node():
        offered = [outcome for outcome, _ in state.chance_outcomes()]
        state.apply_action(next((card for card in wanted if card in offered), offered[0]))
    return state


def test_the_two_of_clubs_shows_in_the_observation_string() -> None:
    """Card 0 (2c) on the pile or taken from it was shown as '-': it is false in a test of truth."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "first_dealer": 1})
    state = deal_to(game.new_initial_state(), [*range(4, 10), 0])  # hands 3c-4d, then 2c is the upcard
    assert state._game.discard_pile == (Card(0),)
    assert "pile 2c (1)" in state.observation_string(0)
    state.apply_action(53)  # draw the pile
    assert "taken 2c" in state.observation_string(0)
    assert "0 draw pile +2c" in state.information_state_string(1)


def test_terminal_rewards_pay_the_returns_at_the_end_only() -> None:
    params = {"players": 3, "lives": 1, "options": "max_turns:12"}
    per_round = pyspiel.load_game(SHORT_NAME, params)
    at_end = pyspiel.load_game(SHORT_NAME, {**params, "terminal_rewards": True})
    rng = random.Random(21)
    for _ in range(5):
        a, b = per_round.new_initial_state(), at_end.new_initial_state()
        while not a.is_terminal():
            outcomes = a.chance_outcomes() if a.is_chance_node() else [(action, 1.0) for action in a.legal_actions()]
            action = rng.choice(outcomes)[0]
            a.apply_action(action)
            b.apply_action(action)
            if not b.is_terminal():
                assert b.rewards() == b.returns() == [0.0, 0.0, 0.0]
        assert b.is_terminal()
        assert b.rewards() == b.returns() == a.returns()


def test_openspiels_mcts_bot_plays_the_terminal_reward_game() -> None:
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(3))
    per_round = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini"})
    with pytest.raises(ValueError, match="terminal rewards"):
        mcts.MCTSBot(per_round, 2.0, 20, evaluator)
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini", "terminal_rewards": True})
    bot = mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=np.random.RandomState(4))
    rng = np.random.RandomState(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
            else:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        assert sum(state.returns()) == 0.0


@pytest.mark.parametrize(
    "params",
    [{"players": 2, "preset": "mini", "max_rounds": 1}, {"players": 2, "preset": "mini", "lives": 2},
     {"players": 3, "lives": 1, "options": "max_turns:8"},
     {"players": 2, "preset": "widow", "lives": 1, "options": "exchange:any+max_turns:8"},
     {"players": 3, "preset": "schwimmen", "lives": 1, "options": "max_turns:8"},
     {"players": 2, "lives": 1, "options": "throw_down:on+max_turns:6"}],
)  # fmt: skip
def test_the_information_state_tensor_has_perfect_recall(params: dict[str, object]) -> None:
    """Seeded random games (seed 8): equal information-state strings give equal tensors and equal
    tensors equal strings, for every player at every node; in the mini game many nodes share one."""
    game = pyspiel.load_game(SHORT_NAME, params)
    rng = random.Random(8)
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    shape = game.information_state_tensor_shape()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    visits = 0
    for _ in range(60):
        state = game.new_initial_state()
        while True:
            if not state.is_chance_node():
                for player in range(game.num_players()):
                    text = state.information_state_string(player)
                    tensor = information_tensor(observer, state, player)
                    if visits % 20 == 0:  # pyspiel's own call, a list of Python floats, now and then
                        assert np.array_equal(tensor, state.information_state_tensor(player))
                    assert list(tensor.shape) == shape
                    raw = tensor.tobytes()
                    visits += 1
                    assert by_string.setdefault(text, raw) == raw, text
                    assert by_tensor.setdefault(raw, text) == text, text
            if state.is_terminal():
                break
            outcomes = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
            choice = rng.choice(outcomes)
            state.apply_action(choice[0] if isinstance(choice, tuple) else choice)
    if params.get("preset") == "mini":  # small enough that the games meet the same states again
        assert len(by_string) < visits


def test_the_information_state_tensor_names_its_parts() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "preset": "mini", "max_rounds": 1, "first_dealer": 1})
    state = deal_to(game.new_initial_state(), [])
    state.apply_action(52)  # seat 0 draws from the stock
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, 0)
    parts = observer.dict
    assert parts["action"].shape == (1, 9, 79)
    assert parts["cards"].shape == (1, 9, 52)
    assert parts["action"][0, 0, 52] == 1.0
    assert parts["actor"][0, 0, 0] == 1.0
    drawn = state._game.hand(0)[-1]
    assert parts["cards"][0, 0, drawn] == 1.0, "its own stock card, seen"
    assert parts["dealt"][0].sum() == 3
    assert parts["dealt"][0, drawn] == 0.0
    observer.set_from(state, 1)
    assert parts["actor"][0, 0, 1] == 1.0, "seats counted from the observer"
    assert parts["cards"][0, 0].sum() == 0, "another's stock card, unseen"


def sum_rewards(env: object, rng: np.random.Generator) -> tuple[dict[str, float], bool]:
    """Play one game of an AEC env with random legal ids; each agent's rewards summed, and
    whether any agent was truncated."""
    total = dict.fromkeys(env.possible_agents, 0.0)  # type: ignore[attr-defined]
    truncated = False
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        _, reward, termination, truncation, info = env.last()  # type: ignore[attr-defined]
        total[agent] += reward
        truncated |= truncation
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return total, truncated


def test_shimmys_own_wrapper_has_the_faults_the_docs_name() -> None:
    """shimmy 2.0 as it is: a game passed as env= is reloaded with the default parameters, and the
    summed rewards differ from returns() (the last rewards are paid again). If this test fails,
    shimmy mended them: docs/agents.md and shimmy_env can say so."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "lives": 1})
    with pytest.raises(KeyError):
        OpenSpielCompatibilityV0(env=game).reset(seed=1)
    env = OpenSpielCompatibilityV0(game_name=SHORT_NAME, config={"players": 3, "lives": 1})
    differ = 0
    for seed in range(10):
        env.reset(seed=seed)
        total, _ = sum_rewards(env, np.random.default_rng(seed))
        differ += not np.allclose(list(total.values()), env.game_state.returns())
    assert differ == 10


@pytest.mark.parametrize(
    "params", [{"players": 3, "lives": 1}, {"players": 2, "preset": "mini", "max_rounds": 1}, {"players": 2}]
)
def test_the_mended_shimmy_env_sums_to_the_returns(params: dict[str, object]) -> None:
    """30 seeded games (seeds 0-29): each agent's summed rewards are the game's returns(), and no
    game is cut short (the mini game has 9 decisions at most, and its chance nodes do not count)."""
    env = shimmy_env(pyspiel.load_game(SHORT_NAME, params))
    for seed in range(30):
        env.reset(seed=seed)
        total, truncated = sum_rewards(env, np.random.default_rng(seed))
        assert not truncated
        assert env.game_state.is_terminal()
        assert list(total.values()) == pytest.approx(env.game_state.returns())


def test_the_mended_shimmy_env_passes_pettingzoos_api_test() -> None:
    env = shimmy_env(pyspiel.load_game(SHORT_NAME, {"players": 3, "lives": 1}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)


def observer(game: object, perfect: bool, private: object, public: bool = True) -> object:
    """The observer an outside researcher makes: open_spiel.python.observation.make_observation."""
    from open_spiel.python.observation import make_observation

    kind = pyspiel.IIGObservationType(perfect_recall=perfect, public_info=public, private_info=private)
    return make_observation(game, kind)


@pytest.mark.parametrize("perfect", [False, True])
def test_the_observer_honours_the_private_information_type(perfect: bool) -> None:
    """As kuhn_poker's observer: SINGLE_PLAYER is the default (its own hand), NONE no hand at all
    (the same for every player, and for every deal of the hidden cards), ALL_PLAYERS every hand;
    public_info=False keeps the hand only. Three players, after a draw from the stock."""
    none, single, every = (
        pyspiel.PrivateInfoType.NONE,
        pyspiel.PrivateInfoType.SINGLE_PLAYER,
        pyspiel.PrivateInfoType.ALL_PLAYERS,
    )
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "max_rounds": 2})
    state = deal_to(game.new_initial_state(), [])
    drawer = state.current_player()
    state.apply_action(52)  # draw from the stock
    state = deal_to(state, [51])  # the As
    hands = [state._game.hand(seat) for seat in range(3)]
    seen = observer(game, perfect, single)
    hidden = observer(game, perfect, none)
    told = observer(game, perfect, every)
    own = observer(game, perfect, single, public=False)
    strings = []
    for player in range(3):
        for obs in (seen, hidden, told, own):
            obs.set_from(state, player)  # type: ignore[attr-defined]
        default = state.information_state_string(player) if perfect else state.observation_string(player)
        tensor = state.information_state_tensor(player) if perfect else state.observation_tensor(player)
        assert seen.string_from(state, player) == default  # type: ignore[attr-defined]
        assert np.array_equal(seen.tensor, tensor)  # type: ignore[attr-defined]
        text = hidden.string_from(state, player)  # type: ignore[attr-defined]
        assert "hand" not in hidden.dict  # type: ignore[attr-defined]
        assert "dealt" not in hidden.dict  # type: ignore[attr-defined]
        assert "hand" not in text
        assert "+As" not in text, "the card drawn from the stock is private"
        strings.append(text.split(";" if perfect else ", ", 1)[1])
        assert told.dict["hands"].shape == (3, 52)  # type: ignore[attr-defined]
        for k in range(3):
            seat = (player + k) % 3
            assert set(np.flatnonzero(told.dict["hands"][k])) == {int(card) for card in hands[seat]}  # type: ignore[attr-defined]
            assert " ".join(map(str, sorted(hands[seat]))) in told.string_from(state, player)  # type: ignore[attr-defined]
        assert set(np.flatnonzero(own.dict["hand"])) == {int(card) for card in hands[player]}  # type: ignore[attr-defined]
        assert set(own.dict) == ({"hand", "dealt"} if perfect else {"hand"})  # type: ignore[attr-defined]
        assert own.string_from(state, player).endswith(" ".join(map(str, sorted(hands[player]))))  # type: ignore[attr-defined]
        assert ("+As" in told.string_from(state, player)) == perfect  # type: ignore[attr-defined]
        assert ("+As" in default) == (perfect and player == drawer)
    assert strings[0] == strings[1] == strings[2], "without hands every player observes the same"
    twin = state.resample_from_infostate((drawer + 1) % 3, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert twin._game.hand(drawer) != state._game.hand(drawer)
    hidden.set_from(state, drawer)  # type: ignore[attr-defined]
    before = hidden.tensor.copy()  # type: ignore[attr-defined]
    hidden.set_from(twin, drawer)  # type: ignore[attr-defined]
    assert np.array_equal(hidden.tensor, before), "a deal of the hidden cards changes nothing public"  # type: ignore[attr-defined]
