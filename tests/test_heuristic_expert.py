"""The heuristic and expert bots: what they know, what they decide, and that they stay legal."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from helpers import scripted_game
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Phase
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.bots import make_bot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import _passes
from thirtyone.bots.expert import sample_position
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.heuristic import knock_bar
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.heuristic import stock_draw_value
from thirtyone.bots.knowledge import Knowledge
from thirtyone.scoring import half_points


def random_games(preset, count, players=4):
    for seed in range(count):
        game = Game(Rules.preset(preset), players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            yield game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", ["scat", "widow", "schwimmen"])
def test_knowledge_rebuilds_the_discard_pile_and_the_unseen_cards(preset):
    for game in random_games(preset, 6):
        seat = game.current_seat
        view = game.view(seat)
        if view.hand is None:
            continue
        knowledge = Knowledge.from_view(view)
        if game.rules.mode == "draw":
            assert knowledge.pile == game.discard_pile
        else:
            assert knowledge.set_aside == game.discard_pile
        assert set(knowledge.unseen) == set(game.unseen_by(seat))
        hidden = {card for other in game.active_seats if other != seat for card in game.hand(other)}
        hidden -= {card for other in game.active_seats for card in game.known_cards(other)}
        assert hidden <= set(knowledge.unseen)
        assert not set(knowledge.unseen) & set(game.hand(seat))


def test_stock_draw_value_is_the_exact_mean_of_the_best_three_of_four():
    rules = Rules()
    table = half_points(rules)
    hand = parse_cards("Kh 9h 2c")
    unseen = parse_cards("Ah 3d 7s Qh 2h")
    expected = sum(max(table[a * 2704 + b * 52 + c] for a, b, c in combinations((*hand, d), 3)) for d in unseen)
    assert stock_draw_value(hand, unseen, table) == expected / len(unseen)


def heuristic_choice(game):
    view = game.view(game.current_seat)
    return HeuristicBot(0).choose(view, view.legal_actions)


def test_heuristic_takes_the_pile_card_when_it_beats_the_stock_on_average():
    assert heuristic_choice(scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="Ah")) == Draw("pile")  # 30
    assert heuristic_choice(scripted_game(Rules(), 3, 0, {1: "Kh 9h 2c"}, upcard="3d")) == Draw("stock")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r5_1_heuristic_takes_a_pile_card_that_makes_31_rather_than_knock(players):
    """2♥ Q♣ A♣ (21, above every first-turn knock bar) with 10♣ on the pile: the pile card makes
    31. The bot and the rollouts' copy both take it; they used to knock past it (issue 41)."""
    game = scripted_game(Rules(), players, 0, {1: "2h Qc Ac"}, upcard="Tc")
    view = game.view(1)
    assert Knock() in view.legal_actions
    assert HeuristicBot(0).choose(view, view.legal_actions) == Draw("pile")
    assert rollout_action(game, 1, game.legal_actions()) == Draw("pile")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r5_1_heuristic_takes_a_widow_card_that_makes_31_rather_than_knock(players):
    """A♣ K♣ 9♣ (30) with Q♣ in the face-up widow: the exchange makes 31; the heuristic used to
    knock before it looked at the widow, as it did past a pile card (issue 41)."""
    game = scripted_game(Rules.preset("widow"), players, 0, {0: "Ac Kc 9c"}, widow="Qc 9d 7s")
    while game.current_seat != 0:
        game.apply("pass")
    view = game.view(0)
    assert Knock() in view.legal_actions
    assert str(HeuristicBot(0).choose(view, view.legal_actions)) == "exchange 9c for Qc"
    assert str(rollout_action(game, 0, game.legal_actions())) == "exchange 9c for Qc"


def test_heuristic_does_not_feed_the_next_player_a_suit_it_collects():
    game = scripted_game(Rules(), 3, 1, {2: "Jd 2d 3c", 0: "7c 8d 4h", 1: "Ah Kh 5s"}, upcard="Qs", stock="4d 5c")
    game.apply("draw pile")  # seat 2 takes the Q♠: it collects spades
    game.apply("discard 2d")
    game.apply("draw stock")  # seat 0
    game.apply("discard 4d")
    game.apply("draw stock")  # seat 1 draws 5♣: throwing 5♠ or 5♣ keeps A♥ K♥ (21)
    assert game.current_seat == 1
    assert heuristic_choice(game) == Discard(parse_cards("5c")[0])


def test_heuristic_never_knocks_when_every_opponent_is_known_to_be_higher():
    game = scripted_game(Rules(), 2, 1, {0: "2d 3c 4h", 1: "Ah 9h 2c"}, upcard="As", stock="Ks 7d")
    game.apply("draw pile")  # seat 0 takes A♠
    game.apply("discard 2d")
    game.apply("draw stock")  # seat 1 draws K♠ and throws it
    game.apply("discard Ks")
    game.apply("draw pile")  # seat 0 takes K♠: known to hold 21 in spades at least
    game.apply("discard 3c")
    view = game.view(1)
    assert Knock() in view.legal_actions
    assert view.hand_value == 20
    assert knock_bar(game.rules, game.turn, 2, 1, game.remaining(1)) <= 40  # 20 would do, but for what it knows
    assert HeuristicBot(0).choose(view, view.legal_actions) != Knock()


def test_heuristic_knock_bar_rises_with_the_turn_and_the_last_life():
    rules = Rules()
    assert knock_bar(rules, 0, 4, 1, 4) <= knock_bar(rules, 12, 4, 1, 4) <= knock_bar(rules, 24, 4, 1, 4)
    assert knock_bar(rules, 12, 4, 1, 1) > knock_bar(rules, 12, 4, 1, 4)
    assert knock_bar(rules, 12, 4, 3, 4) > knock_bar(rules, 12, 4, 1, 4)
    assert knock_bar(rules, 0, 4, 1, 4) >= 2 * 20  # never on a first turn with a weak hand


@pytest.mark.parametrize("preset", ["scat", "widow", "namu", "schwimmen"])
def test_rollout_action_is_always_legal(preset):
    for game in random_games(preset, 4):
        seat = game.current_seat
        legal = game.legal_actions()
        assert rollout_action(game, seat, legal) in legal


@pytest.mark.parametrize("preset", ["scat", "widow", "schwimmen"])
def test_sampled_worlds_agree_with_the_view(preset):
    rng = random.Random(5)
    checked = 0
    for game in random_games(preset, 4, players=3):
        seat = game.current_seat
        view = game.view(seat)
        if view.hand is None or view.phase is Phase.LOOK:
            continue
        knowledge = Knowledge.from_view(view)
        position = sample_position(view, knowledge, _passes(view), rng)
        position.check()
        true = game.position()
        assert position.hands[seat] == true.hands[seat]
        assert position.discard_pile == true.discard_pile
        assert position.passes == true.passes
        assert (position.widow == true.widow) == (view.widow is not None or true.widow == position.widow)
        for other in range(3):
            assert set(game.known_cards(other)) <= set(position.hands[other])
        assert len(position.stock) == len(true.stock)
        checked += 1
    assert checked > 50


def test_expert_explains_every_legal_action_and_is_deterministic():
    game = Game(Rules(), 4, seed=3)
    view = game.view(game.current_seat)
    first = ExpertBot(7, worlds=30, seconds=None).analyse(view)
    again = ExpertBot(7, worlds=30, seconds=None).analyse(view)
    assert {estimate.action for estimate in first.estimates} == set(view.legal_actions)
    assert all(estimate.worlds == 30 for estimate in first.estimates)
    assert [(e.action, e.mean) for e in first.estimates] == [(e.action, e.mean) for e in again.estimates]
    assert first.estimates[0].mean >= first.estimates[-1].mean
    assert str(first.estimates[0]).startswith(str(first.best))


def test_expert_takes_the_card_that_makes_31():
    game = scripted_game(Rules(), 3, 0, {1: "Ah Kh 2c"}, upcard="Qh")
    view = game.view(1)
    assert ExpertBot(1, worlds=20, seconds=None).choose(view, view.legal_actions) == Draw("pile")


def test_expert_time_cap_is_kept():
    game = Game(Rules.preset("widow"), 4, seed=2)
    game.apply("pass")
    view = game.view(game.current_seat)
    analysis = ExpertBot(1, worlds=100_000, seconds=0.05).analyse(view)
    assert analysis.seconds < 1.0
    assert 2 <= analysis.estimates[0].worlds < 100_000


def test_expert_refuses_to_analyse_out_of_turn():
    game = Game(Rules(), 3, seed=1)
    other = (game.current_seat + 1) % 3
    with pytest.raises(ValueError, match="no move to analyse"):
        ExpertBot(1, worlds=2).analyse(game.view(other))


def test_levels_play_a_whole_game():
    from thirtyone.bots.runner import play_game

    bots = [make_bot("easy", 1), make_bot("medium", 2), make_bot("hard:4", 3)]
    game = play_game(Rules.preset("schwimmen"), bots, seed=4)
    assert game.is_over


def test_expert_rollouts_on_the_simulator_and_the_engine_agree_on_the_obvious():
    pytest.importorskip("numba")
    game = scripted_game(Rules(), 3, 0, {1: "Ah Kh 2c"}, upcard="Qh")
    view = game.view(1)
    for rollouts in ("sim", "engine"):
        analysis = ExpertBot(1, worlds=40, seconds=None, rollouts=rollouts).analyse(view)
        assert analysis.best == Draw("pile")  # it makes 31
        assert analysis.estimates[0].mean > 0.9  # the others lose a life each, it loses none


def test_expert_on_the_simulator_is_deterministic_for_a_seed():
    pytest.importorskip("numba")
    game = Game(Rules.preset("widow"), 4, seed=6)
    game.apply("pass")
    view = game.view(game.current_seat)
    first = ExpertBot(3, worlds=32, seconds=None, rollouts="sim").analyse(view)
    again = ExpertBot(3, worlds=32, seconds=None, rollouts="sim").analyse(view)
    assert [(e.action, e.mean) for e in first.estimates] == [(e.action, e.mean) for e in again.estimates]


def test_expert_rollouts_can_be_named():
    assert make_bot("expert:20:engine").rollouts == "engine"
    assert make_bot("hard:0.5s:sim").rollouts == "sim"
    assert make_bot("expert:20").rollouts == "auto"
    with pytest.raises(ValueError, match="bad expert rollouts"):
        make_bot("expert:20:gpu")
