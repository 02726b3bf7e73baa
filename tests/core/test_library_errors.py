"""Bad input to the library: a typed ValueError subclass with a one-line message, never another
exception, and the game left as it was; plus copying and pickling games."""

from __future__ import annotations

import pickle
import random

import pytest

from thirtyone import ActionError
from thirtyone import ArgumentError
from thirtyone import Card
from thirtyone import CardError
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import PositionError
from thirtyone import Rules
from thirtyone import RulesError
from thirtyone import ScriptedChance
from thirtyone import SeatError
from thirtyone import SeededChance
from thirtyone import ThirtyOneError
from thirtyone import full_deck
from thirtyone import hand_value
from thirtyone import parse_action
from thirtyone import parse_cards


@pytest.mark.parametrize("text", [None, 5, ["As"], b"As"])
def test_card_text_must_be_a_string(text):
    with pytest.raises(CardError, match="must be a string"):
        parse_cards(text)


@pytest.mark.parametrize(
    ("cards", "rules", "error", "message"),
    [
        (["As", "Ks", "Qs"], Rules(), CardError, r"not text: use parse_cards\('As Ks Qs'\)"),
        ("As Ks Qs", Rules(), CardError, "not text"),
        (parse_cards("As Ks Ks"), Rules(), CardError, "three different cards of the 52-card deck, not 'As Ks Ks'"),
        (parse_cards("As Ks"), Rules(), CardError, "not 'As Ks'"),
        (parse_cards("2s Ks Qs"), Rules.preset("schwimmen"), CardError, "32-card deck"),
        (None, Rules(), CardError, "not None"),
        (parse_cards("As Ks Qs"), "scat", RulesError, "rules must be a Rules"),
    ],
)
def test_hand_value_explains_bad_hands(cards, rules, error, message):
    with pytest.raises(error, match=message):
        hand_value(cards, rules)


def test_game_takes_a_preset_name_and_refuses_anything_else():
    assert Game("schwimmen", 3, seed=1).rules == Rules.preset("schwimmen")
    with pytest.raises(RulesError, match="rules must be a Rules or a preset name"):
        Game(5)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown preset 'bridge'"):
        Game("bridge")


@pytest.mark.parametrize("seat", [-1, 4, "0", None, True, 1.0])
def test_view_of_a_seat_not_in_the_game(seat):
    game = Game(Rules(), 4, seed=1)
    with pytest.raises(SeatError, match="is not in this 4-player game: seats are 0-3"):
        game.view(seat)


@pytest.mark.parametrize("action", [None, 5, object(), ("draw", "stock")])
def test_apply_of_something_that_is_not_an_action(action):
    game = Game(Rules(), 3, seed=1)
    before = game.position()
    with pytest.raises(ActionError, match="not an action"):
        game.apply(action)
    assert game.position() == before


def test_apply_for_a_seat_not_in_the_game():
    game = Game(Rules(), 3, seed=1)
    with pytest.raises(SeatError):
        game.apply("draw stock", seat=7)


@pytest.mark.parametrize("bad", [None, 3])
def test_parse_action_refuses_non_text(bad):
    with pytest.raises(ActionError, match="an action is an Action or its text"):
        parse_action(bad)


def test_every_library_error_is_a_value_error():
    for error in (ActionError, CardError, RulesError, SeatError, ArgumentError, PositionError, IllegalActionError):
        assert issubclass(error, ThirtyOneError)
        assert issubclass(error, ValueError)


def test_a_copy_goes_on_like_the_original_and_independently():
    game = Game(Rules.preset("widow"), 4, seed=5)
    twin = game.copy()
    rng = random.Random(3)
    for _ in range(40):
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        twin.apply(action)
    assert twin.events == game.events
    assert twin.position() == game.position()
    before = twin.position()
    game.apply(game.legal_actions()[0])
    assert twin.position() == before


def test_a_game_pickles_small_and_unpickles_whole():
    game = Game(Rules(), 4, seed=2)
    game.apply("draw stock")
    data = pickle.dumps(game)
    assert len(data) < 20_000  # the shared hand-value table is not in it
    again = pickle.loads(data)
    assert again.position() == game.position()
    assert again.legal_actions() == game.legal_actions()


SEAT_METHODS = ("hand", "hand_value", "remaining", "lives", "on_grace", "is_out", "next_seat", "known_cards",
                "unseen_by", "events_for", "view")  # fmt: skip


@pytest.mark.parametrize("method", SEAT_METHODS)
@pytest.mark.parametrize("seat", [-1, 3, "0", None, True, 1.0])
def test_every_seat_method_refuses_a_seat_not_in_the_game(method, seat):
    game = Game(Rules(), 3, seed=1)
    with pytest.raises(SeatError, match=r"is not in this 3-player game: seats are 0-2"):
        getattr(game, method)(seat)


def test_a_hand_of_four_cards_has_no_value_yet():
    game = Game(Rules(), 3, seed=1)
    game.apply("draw stock")
    with pytest.raises(SeatError, match="holds 4 cards, not three"):
        game.hand_value(game.current_seat)


@pytest.mark.parametrize("seed", [[1], "7", 1.5, True])
def test_a_seed_must_be_a_whole_number(seed):
    with pytest.raises(ArgumentError, match=r"^seed is a whole number \(or None for a random game\), not "):
        Game(Rules(), 3, seed=seed)


@pytest.mark.parametrize("rounds", [0, -1, 1.0, True, "1"])
def test_from_position_needs_one_round_or_more(rounds):
    position = Game(Rules(), 3, seed=1).position()
    with pytest.raises(ArgumentError, match=r"^rounds is a whole number of rounds, 1 or more"):
        Game.from_position(position, rounds=rounds)


@pytest.mark.parametrize(
    ("field", "value", "wanted"),
    [
        ("dealer", "1", "Position.dealer is a seat number, not '1'"),
        ("to_move", 1.0, "Position.to_move is a seat number, not 1.0"),
        ("phase", "turn", "Position.phase is a Phase, not 'turn'"),
        ("rules", "scat", "Position.rules is a Rules, not 'scat'"),
        ("hands", ("As Ks Qs",) * 3, "Position.hands is a tuple of hands, each a tuple of Cards"),
        ("stock", (5, 6), "Position.stock is a tuple of Cards, not (5, 6)"),
        ("widow_face_up", 1, "Position.widow_face_up is True or False, not 1"),
        ("remaining", (3, 3, "3"), "Position.remaining is None or a count per seat"),
        ("knocker", "0", "Position.knocker is None or a seat number, not '0'"),
        ("taken_from_pile", 7, "Position.taken_from_pile is None or a Card, not 7"),
        ("looked", (1, 1, 1), "Position.looked is None or a bool per seat"),
        ("round", None, "Position.round is a whole number from 1, not None"),
    ],
)
def test_a_position_with_a_field_of_the_wrong_type_is_refused(field, value, wanted):
    import dataclasses

    position = dataclasses.replace(Game(Rules(), 3, seed=1).position(), **{field: value})
    with pytest.raises(PositionError) as refused:
        Game.from_position(position)
    assert str(refused.value).startswith(wanted)


def test_a_position_with_more_remaining_losses_than_the_rules_give_is_refused():
    import dataclasses

    position = Game(Rules(), 3, seed=1).position()  # scat: 3 lives and the grace, 4 losses
    with pytest.raises(PositionError, match=r"remaining needs 3 counts from 0 to 4 \(lives plus the grace life"):
        Game.from_position(dataclasses.replace(position, remaining=(4, 5, 4)))


def test_numpy_integers_are_whole_numbers_everywhere():
    np = pytest.importorskip("numpy")
    game = Game("scat", np.int64(3), seed=np.int64(3))
    assert (game.players, type(game.players)) == (3, int)
    assert game.view(np.int64(1)).seat == 1
    assert type(game.view(np.int64(1)).seat) is int
    game.apply("draw stock", seat=np.int64(game.current_seat))
    assert type(Rules.preset("scat", lives=np.int64(3)).lives) is int
    assert Game.from_position(game.position(), rounds=np.int64(1)).current_seat == game.current_seat


@pytest.mark.parametrize(
    ("make", "wanted"),
    [
        (lambda: SeededChance(1.5), "seed is a whole number, a random.Random or None, not 1.5"),
        (lambda: SeededChance("x"), "seed is a whole number, a random.Random or None, not 'x'"),
        (lambda: ScriptedChance("x", []), "first_dealer is a seat number, not 'x'"),
        (lambda: ScriptedChance(0, "As Ks"), "decks is a list of card orders"),
        (lambda: Game("scat", 3, chance="x"), "chance must be a Chance (such as SeededChance(7)), not 'x'"),
        (lambda: Game("scat", 3, seed=1, chance=SeededChance(2)), "give a seed or a chance, not both"),
    ],
)
def test_chances_are_checked(make, wanted):
    with pytest.raises(ArgumentError) as refused:
        make()
    assert str(refused.value).startswith(wanted)


def test_a_card_is_an_index_not_a_bool_or_text():
    with pytest.raises(CardError, match="no card has index True"):
        Card(True)
    with pytest.raises(CardError, match=r"for text such as 'As' use Card\.parse\('As'\)"):
        Card("As")  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"full_deck takes a deck size, 52, 32 or 8 \(such as rules\.deck\)"):
        full_deck(Rules())  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [lambda: Game(Rules(), 2, seed=-1), lambda: SeededChance(-7)])
def test_issue40_a_negative_seed_is_refused_as_the_command_line_and_the_server_refuse_it(make):
    """Issue 40, item 7: ``Game(rules, 2, seed=-1)`` dealt the games of seed 1 (Python's random
    source takes a seed's size, not its sign) while ``thirtyone play --seed -1`` and the server
    refuse it: one policy, a one-line ArgumentError."""
    with pytest.raises(ArgumentError, match=r"^seed is a whole number from 0, not -\d+: a seed.s sign") as info:
        make()
    assert "\n" not in str(info.value)
