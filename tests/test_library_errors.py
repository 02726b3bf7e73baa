"""Bad input to the library: a typed ValueError subclass with a one-line message, never another
exception, and the game left as it was; plus copying and pickling games."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

from thirtyone import (
    ActionError,
    CardError,
    Game,
    Rules,
    RulesError,
    SeatError,
    ThirtyOneError,
    hand_value,
    parse_action,
    parse_cards,
)
from thirtyone.bots import UnknownBotError, make_bot


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
def test_parse_action_and_make_bot_refuse_non_text(bad):
    with pytest.raises(ActionError, match="an action is an Action or its text"):
        parse_action(bad)
    with pytest.raises(UnknownBotError):
        make_bot(bad)


def test_every_library_error_is_a_value_error():
    for error in (ActionError, CardError, RulesError, SeatError, UnknownBotError):
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


def test_python_dash_m_runs_the_command():
    result = subprocess.run(
        [sys.executable, "-m", "thirtyone", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("thirtyone ")
