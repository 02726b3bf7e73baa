"""Positions: taking one from a game and resuming from it plays on exactly as the game did."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from thirtyone import Card
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Phase
from thirtyone import Position
from thirtyone import PositionError
from thirtyone import Rules
from thirtyone import ScriptedChance
from thirtyone import parse_cards
from thirtyone.chance import DuplicateChance

PRESETS = ["scat", "widow", "namu", "schwimmen"]


def play_out(game: Game, rng: random.Random, limit: int = 5000) -> list:
    actions = []
    while not game.is_over and len(actions) < limit:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        game.apply(action)
    return actions


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 60),
    throw_down=st.booleans(),
)
def test_resuming_from_a_position_replays_the_same_game(preset, players, seed, cut, throw_down):
    rules = Rules.preset(preset, throw_down=throw_down and preset in ("scat", "namu"))
    original = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if original.is_over:
            break
        legal = original.legal_actions()
        original.apply(legal[rng.randrange(len(legal))])
    if original.is_over:
        return
    position = original.position()
    round_number = original.round
    used = len(original.round_logs[-1].reshuffles)
    start = len(original.events)
    rest = play_out(original, rng)
    decks = [log.deck for log in original.round_logs]
    reshuffles = [list(log.reshuffles) for log in original.round_logs]
    reshuffles[round_number - 1] = reshuffles[round_number - 1][used:]
    chance = ScriptedChance(original.round_logs[0].dealer, decks, reshuffles)
    resumed = Game.from_position(position, chance=chance)
    assert resumed.legal_actions() == Game.from_position(position).legal_actions()
    for action in rest:
        resumed.apply(action)
    assert resumed.is_over
    assert resumed.events == original.events[start:]
    if 0 not in position.remaining_losses():  # a position does not say in which order the out went out
        assert resumed.standings == original.standings
    assert resumed.winner == original.winner


def test_position_keeps_the_card_taken_from_the_pile_r4_2():
    game = Game(Rules(), 3, seed=4)
    game.apply("draw pile")
    taken = game.view(game.current_seat).taken_from_pile
    resumed = Game.from_position(game.position())
    assert resumed.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        resumed.apply(f"discard {taken}")


def test_position_keeps_the_knock_and_the_final_turns_r6_2():
    game = Game(Rules(), 4, seed=6)
    knocker = game.current_seat
    game.apply("knock")
    resumed = Game.from_position(game.position(), rounds=1)  # this round only: no next deal to blitz at once
    assert resumed.knocker == knocker
    for _ in range(3):  # three last turns, then the showdown (a 31 drawn ends it at once, R5.3)
        if resumed.is_over:
            break
        resumed.apply("draw stock")
        resumed.apply(resumed.legal_actions()[0])
    assert resumed.is_over
    assert resumed.last_result is not None
    assert resumed.last_result.end in ("knock", "blitz")
    assert resumed.last_result.round == 1


def test_a_set_up_position_plays():
    rules = Rules()
    hands = (parse_cards("Ad Kd 2c"), parse_cards("7h 8h 9s"), parse_cards("3c 4d 5s"))
    used = {card for hand in hands for card in hand} | {parse_cards("Qd")[0]}
    stock = tuple(card for card in map(Card, range(52)) if card not in used)
    game = Game.from_position(
        Position(rules, dealer=2, to_move=0, phase=Phase.TURN, hands=hands, stock=stock, discard_pile=parse_cards("Qd"))
    )
    game.apply("draw pile")
    game.apply("discard 2c")  # Ad Kd Qd: 31
    assert game.last_result.end == "blitz"
    assert game.last_result.blitz == (0,)


def base_position() -> Position:
    return Game(Rules(), 3, seed=1).position()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stock": ()}, "every card of the 52-card deck must be in one place"),
        ({"to_move": 5}, "seat 5"),
        ({"knocker": 1, "to_move": 1}, "knocker 1 must be another seat"),
        ({"phase": Phase.OVER}, "inside a round"),
        ({"phase": Phase.DISCARD}, "holds 3 cards"),
        ({"widow": parse_cards("2c 3c 4c")}, None),
        ({"remaining": (0, 0, 3)}, "at least two seats"),
        ({"looked": (True,)}, "looked needs one entry per seat"),
        ({"turn": -1}, r"turn counts the turns completed: 0 to 199 \(max_turns\), not -1"),
        ({"turn": 200}, r"turn counts the turns completed: 0 to 199 \(max_turns\), not 200"),
        ({"passes": 1}, r"passes counts the passes in a row \(R7\.3\): 0 to 0 in draw mode"),
        ({"round": 0}, "round counts from 1, not 0"),
        ({"stock": ()}, r"in one place \(hands, stock, discard pile, widow\): missing [2-9TJQKA]"),
        ({"remaining": (4, 4)}, "hands gives 3 seats but remaining 2: give one entry per seat in each"),
    ],
)
def test_impossible_positions_are_refused(change, message):
    position = replace(base_position(), **change)
    with pytest.raises(PositionError, match=message):
        Game.from_position(position)


def test_position_of_a_finished_game_is_refused():
    game = Game(Rules(), 2, seed=3)
    play_out(game, random.Random(3))
    with pytest.raises(IllegalActionError, match="over"):
        game.position()


def test_every_chance_source_is_exported_from_the_package_as_the_readme_says():
    import thirtyone
    from thirtyone import chance

    sources = set(chance.__all__) - {"check_permutation"}
    assert sources == {"Chance", "ChanceStep", "ChanceKind", "SeededChance", "ScriptedChance", "DuplicateChance"}
    assert sources <= set(thirtyone.__all__)
    assert all(getattr(thirtyone, name) is getattr(chance, name) for name in sources)
    assert all(hasattr(thirtyone, name) for name in thirtyone.__all__)


def test_duplicate_chance_deals_round_r_the_same_whatever_happened_before():
    a, b = DuplicateChance(7), DuplicateChance(7)
    deck = list(map(Card, range(52)))
    assert a.first_dealer(4) == b.first_dealer(4)
    assert a.deal_order(deck, 3) == b.deal_order(deck, 3)
    assert a.deal_order(deck, 2) != a.deal_order(deck, 3)
    assert a.reshuffle_order(deck[:10], 2, 1) == b.reshuffle_order(deck[:10], 2, 1)
    assert a.reshuffle_order(deck[:10], 2, 1) == a.reshuffle_order(deck[:10], 2, 1)  # the engine numbers them
    assert a.reshuffle_order(deck[:10], 2, 1) != a.reshuffle_order(deck[:10], 2, 2)  # the second reshuffle differs
    assert DuplicateChance(8).deal_order(deck, 1) != a.deal_order(deck, 1)
    game = Game(Rules(), 4, chance=DuplicateChance(7))
    play_out(game, random.Random(1))
    other = Game(Rules(), 4, chance=DuplicateChance(7))
    play_out(other, random.Random(2))
    assert game.round_logs[0].deck == other.round_logs[0].deck
    assert game.round_logs[1].deck == other.round_logs[1].deck


def test_rounds_stops_a_resumed_game_after_its_round():
    game = Game(Rules(), 3, seed=8)
    resumed = Game.from_position(game.position(), seed=1, rounds=1)
    rng = random.Random(2)
    play_out(resumed, rng)
    assert resumed.is_over
    assert resumed.winner is None
    assert resumed.round == 1
    assert resumed.last_result is not None
    assert resumed.last_result.round == 1
    assert resumed.legal_actions() == ()
