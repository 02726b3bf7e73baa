"""Chance as a step of the game (R3.1, R3.2, R4.3, R5.2): with ``explicit_chance=True`` the game
stops at the first dealer, each deal and each reshuffle until ``deal()`` gives the outcome; the
move that ends a round settles it there, and the next deal is a step of its own. Without it the
game's chance source takes each step at once, and both ways give the same game."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from helpers import deck_order
from helpers import snapshot
from thirtyone import ArgumentError
from thirtyone import CardError
from thirtyone import ChanceStep
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Position
from thirtyone import Reshuffled
from thirtyone import RoundEnded
from thirtyone import RoundStarted
from thirtyone import Rules
from thirtyone import SeatError
from thirtyone import SeededChance
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.views import Phase

SCAT = Rules.preset("scat")


def explicit(rules: Rules = SCAT, players: int = 3, seed: int = 1) -> Game:
    return Game(rules, players, seed=seed, explicit_chance=True)


def play_until_chance(game: Game, rng: random.Random) -> None:
    """Random legal moves until a chance step is due or the game is over."""
    while not game.is_chance() and not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


# ---------------------------------------------------------------------------- the steps


def test_r3_1_the_first_chance_step_is_the_first_dealer():
    game = explicit()
    assert game.is_chance()
    assert game.phase is Phase.CHANCE
    assert game.chance_step == ChanceStep("dealer", 1, seats=(0, 1, 2))
    assert game.current_seat is None
    assert game.legal_actions() == ()
    assert game.round == 0
    assert game.round_logs == []


def test_r3_2_the_deal_is_a_step_of_its_own_dealt_from_the_given_order():
    game = explicit()
    game.deal(1)
    assert game.dealer == 1
    assert game.chance_step == ChanceStep("deal", 1, cards=full_deck(52))
    order = deck_order(SCAT, 3, 1, {2: "As Kd Td", 0: "2c 3d 4h", 1: "5s 6c 7d"}, upcard="9h", stock="Qc")
    game.deal(order)
    assert not game.is_chance()
    assert (game.round, game.dealer, game.current_seat, game.phase) == (1, 1, 2, Phase.TURN)
    assert sorted(game.hand(2)) == sorted(parse_cards("As Kd Td"))
    assert game.discard_pile == parse_cards("9h")
    assert game.round_logs[0].deck == tuple(order)


def test_r3_2_deal_without_an_order_asks_the_games_source():
    a, b = explicit(seed=9), Game(SCAT, 3, seed=9)
    a.deal()
    a.deal()
    assert a.round_logs[0].deck == b.round_logs[0].deck
    assert a.dealer == b.dealer


def test_the_move_that_ends_a_round_settles_it_and_leaves_the_table_as_it_ended():
    game = explicit(seed=3)
    game.deal()
    game.deal()
    play_until_chance(game, random.Random(3))
    if game.is_over:
        pytest.skip("seed 3 ended the game in one round")
    assert game.chance_step is not None
    assert game.chance_step.kind == "deal"
    assert game.chance_step.round == game.round + 1
    result = game.last_result
    assert result is not None
    assert result.round == game.round
    assert isinstance(game.events[-1], RoundEnded)
    hands = tuple(game.hand(seat) for seat in range(3))
    assert all(len(hand) == 3 for hand in hands)  # the ended round's table, not the next deal
    assert all(game.view(seat).hand == hands[seat] for seat in range(3))
    assert game.current_seat is None
    assert game.legal_actions() == ()
    dealer = game.dealer
    game.deal()
    assert isinstance(game.round_events()[0], RoundStarted)
    assert game.round == result.round + 1
    assert game.dealer == game.next_seat(dealer) or game.is_chance()


def test_r4_3_a_reshuffle_is_a_chance_step_and_the_draw_waits_for_it():
    game = explicit(seed=5)
    game.deal()
    game.deal()
    while True:  # draw from the stock and throw that card until the stock is empty
        seat = game.current_seat
        if game.stock_size == 0 and game.phase is Phase.TURN:
            break
        game.apply("draw stock")
        if game.is_chance() or game.round != 1:
            pytest.fail("the round ended before the stock ran out")
        game.apply(f"discard {game.hand(seat)[-1]}")
    pile = game.discard_pile
    drawer = game.current_seat
    game.apply("draw stock")
    step = game.chance_step
    assert step == ChanceStep("reshuffle", 1, 1, pile[:-1])
    assert game.current_seat is None
    before = len(game.round_logs[0].actions)  # the draw is logged once it is done
    order = sorted(step.cards, reverse=True)
    game.deal(order)
    assert game.round_logs[0].reshuffles == [tuple(order)]
    assert len(game.round_logs[0].actions) == before + 1
    assert game.current_seat == drawer
    assert game.phase is Phase.DISCARD
    assert game.hand(drawer)[-1] == order[0]
    assert game.discard_pile == pile[-1:]
    assert sum(isinstance(event, Reshuffled) for event in game.events) == 1


def test_r5_2_a_31_on_the_deal_ends_the_round_and_the_next_deal_is_due():
    game = explicit()
    game.deal(0)
    game.deal(deck_order(SCAT, 3, 0, {1: "Ah Kh Qh"}))
    assert game.last_result is not None
    assert game.last_result.end == "dealt_blitz"
    assert game.chance_step == ChanceStep("deal", 2, cards=full_deck(52))
    assert game.round == 1
    assert game.dealer == 0
    game.deal()
    assert (game.round, game.dealer) == (2, 1)


# ---------------------------------------------------------------------------- the same game


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(["scat", "widow", "namu", "schwimmen"]))
def test_explicit_chance_from_the_source_plays_the_same_game(seed, preset):
    rules = Rules.preset(preset, lives=1)
    auto, steps = Game(rules, 3, seed=seed), Game(rules, 3, seed=seed, explicit_chance=True)
    rng = random.Random(seed)
    while not auto.is_over:
        while steps.is_chance():
            steps.deal()
        assert steps.current_seat == auto.current_seat
        legal = auto.legal_actions()
        assert steps.legal_actions() == legal
        action = legal[rng.randrange(len(legal))]
        auto.apply(action)
        steps.apply(action)
    while steps.is_chance():  # a 31 on the last deal may end the game
        steps.deal()
    assert steps.is_over
    assert steps.events == auto.events
    assert steps.round_logs == auto.round_logs
    assert steps.standings == auto.standings


def test_copies_and_pickles_keep_a_due_step():
    game = explicit()
    game.deal(2)
    twin, thawed = game.copy(), pickle.loads(pickle.dumps(game))
    for other in (twin, thawed, copy.deepcopy(game)):
        assert other.chance_step == game.chance_step
        other.deal(list(full_deck(52)))
        assert other.hand(0)
        assert not game.round_logs


def test_from_position_with_explicit_chance_stops_at_the_next_deal():
    game = Game(SCAT, 3, seed=2)
    position = game.position()
    resumed = Game.from_position(position, seed=2, explicit_chance=True)
    rng = random.Random(2)
    play_until_chance(resumed, rng)
    if not resumed.is_over:
        assert resumed.chance_step is not None
        assert resumed.chance_step.kind in ("deal", "reshuffle")


# ---------------------------------------------------------------------------- refusals


def test_a_move_while_a_chance_step_is_due_is_refused_and_changes_nothing():
    game = explicit()
    before = snapshot(game)
    for move in ("draw stock", "knock"):
        with pytest.raises(IllegalActionError) as refused:
            game.apply(move)
        assert (refused.value.code, refused.value.rule) == ("chance_due", "R3.2")
    with pytest.raises(IllegalActionError, match="chance_step"):
        game.position()
    assert snapshot(game) == before


def test_a_deal_when_none_is_due_is_refused_and_changes_nothing():
    game = explicit()
    game.deal()
    game.deal()
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as refused:
        game.deal(list(full_deck(52)))
    assert (refused.value.code, refused.value.rule) == ("no_chance_due", "R3.2")
    assert refused.value.legal == game.legal_actions()
    with pytest.raises(IllegalActionError):
        Game(SCAT, 3, seed=1).deal()
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("outcome", "error"),
    [
        (list(full_deck(52))[:-1], CardError),  # one card short
        ([*list(full_deck(52))[:-1], full_deck(52)[0]], CardError),  # a card twice
        (list(full_deck(32)), CardError),  # the wrong deck
        (3, ArgumentError),  # a seat for a deal
        ("As Kd", ArgumentError),  # text, not cards
        ([0] * 52, ArgumentError),  # numbers, not cards
    ],
)
def test_a_deal_order_that_is_not_the_decks_permutation_is_refused(outcome, error):
    game = explicit()
    game.deal(0)
    before = snapshot(game)
    with pytest.raises(error):
        game.deal(outcome)
    assert snapshot(game) == before


@pytest.mark.parametrize("outcome", [3, -1, 1.5, "1", list(full_deck(52))])
def test_r3_1_a_first_dealer_that_is_not_a_seat_is_refused(outcome):
    game = explicit()
    before = snapshot(game)
    with pytest.raises(SeatError, match="first dealer"):
        game.deal(outcome)
    assert snapshot(game) == before


def test_r4_3_a_reshuffle_order_of_other_cards_is_refused():
    rules = SCAT
    hands = ("9s 8d 2h", "Ah Kh 2c", "As Ks 3d")
    held = parse_cards(" ".join(hands))
    pile = tuple(card for card in full_deck() if card not in held)
    position = Position(
        rules=rules, dealer=2, to_move=0, phase=Phase.TURN, hands=tuple(map(parse_cards, hands)), stock=(),
        discard_pile=pile,
    )  # fmt: skip
    game = Game.from_position(position, seed=1, explicit_chance=True)
    game.apply("draw stock")
    before = snapshot(game)
    with pytest.raises(CardError, match="reshuffle"):
        game.deal(list(pile))  # the pile's top card belongs to the pile
    assert snapshot(game) == before
    game.deal(list(pile[:-1]))
    assert game.hand(0)[-1] == pile[0]


def test_explicit_chance_is_a_bool():
    with pytest.raises(ArgumentError, match="explicit_chance"):
        Game(SCAT, 3, explicit_chance="yes")  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 104), draws=st.integers(0, 3))
def test_r3_2_seeded_chance_shuffles_as_random_does(seed, size, draws):
    """SeededChance shuffles a plain random.Random itself (faster): the same orders as
    random.shuffle, and the generator left in the same state, so seeded games and records stay
    the same."""
    cards = [card for deck in (full_deck(52), full_deck(52)) for card in deck][:size]
    chance, reference = SeededChance(seed), random.Random(seed)
    for number in range(draws + 1):
        expected = list(cards)
        reference.shuffle(expected)
        assert chance.reshuffle_order(cards, 1, number) == expected
    assert chance.rng.getstate() == reference.getstate()


def test_seeded_chance_leaves_another_generator_to_shuffle_itself():
    class Counting(random.Random):
        shuffles = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.shuffles += 1
            super().shuffle(x)

    order = SeededChance(Counting(5)).deal_order(full_deck(32), 1)
    expected = list(full_deck(32))
    random.Random(5).shuffle(expected)
    assert (order, Counting.shuffles) == (expected, 1)
