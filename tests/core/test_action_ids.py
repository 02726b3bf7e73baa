"""The one action space (thirtyone.action_ids): every action has an id 0–78, the same for every
preset and option; an exchange's id names places of the sorted hand and widow."""

from __future__ import annotations

import random

import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.action_ids import ACTION_NAMES
from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.action_ids import action_from_id
from thirtyone.action_ids import action_id
from thirtyone.action_ids import describe_id
from thirtyone.action_ids import legal_ids
from thirtyone.action_ids import num_distinct_actions
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import Knock
from thirtyone.cards import Card
from thirtyone.errors import ActionError
from thirtyone.refusals import IllegalActionError

PRESETS = ("scat", "widow", "namu", "schwimmen")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_action_has_its_own_id_and_back(preset: str) -> None:
    rules = Rules.preset(preset, exchange="any") if preset != "scat" and preset != "namu" else Rules.preset(preset)
    assert num_distinct_actions(rules) == NUM_ACTIONS
    rng = random.Random(7)
    game = Game(rules, 3, seed=7)
    for _ in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        ids = legal_ids(game)
        assert len(set(ids)) == len(legal)
        assert all(0 <= number < NUM_ACTIONS for number in ids)
        assert [action_from_id(game, number) for number in ids] == list(legal)
        view = game.view(game.current_seat)
        assert legal_ids(view) == ids  # the view names the same ids as the game
        game.apply(legal[rng.randrange(len(legal))])


def test_ids_are_the_documented_ones() -> None:
    assert NUM_ACTIONS == len(ACTION_NAMES) == 79
    assert ACTION_NAMES[0] == "discard 2c"
    assert ACTION_NAMES[51] == "discard As"
    assert ACTION_NAMES[52:61] == (
        "draw stock", "draw pile", "knock", "exchange all", "pass", "keep", "take widow", "look", "throw down",
    )  # fmt: skip
    assert describe_id(61) == "exchange hand card 0 for widow card 0"
    assert describe_id(78) == "exchange two: keep hand card 2, leave widow card 2"
    game = Game(Rules.preset("scat"), 3, seed=1)
    assert action_id(game, Discard(Card.parse("Td"))) == int(Card.parse("Td"))
    assert action_id(game, Draw("pile")) == 53
    assert action_id(game, Knock()) == 54


def test_exchange_ids_name_places_in_the_sorted_hand_and_widow() -> None:
    rules = Rules.preset("widow", exchange="any")
    game = Game(rules, 3, seed=4)
    while not game.widow_face_up:
        game.apply("pass")
    hand = sorted(game.hand(game.current_seat))
    widow = sorted(game.widow)
    assert action_from_id(game, 61 + 3 * 2 + 0) == Exchange(hand[2], widow[0])
    assert action_from_id(game, 70 + 3 * 1 + 2) == Exchange([hand[0], hand[2]], [widow[0], widow[1]])
    for number in legal_ids(game):
        assert action_id(game, action_from_id(game, number)) == number


def test_bad_ids_and_actions_are_refused_clearly() -> None:
    game = Game(Rules.preset("scat"), 3, seed=1)
    for bad in (-1, 79, 2.0, "52", True, None):
        with pytest.raises(ActionError, match="action id is a whole number from 0 to 78"):
            action_from_id(game, bad)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="needs a hand of three cards and a face-up widow"):
        action_from_id(game, 61)
    with pytest.raises(ActionError, match="not an action"):
        action_id(game, "knock")  # type: ignore[arg-type]
    widow = Game(Rules.preset("widow"), 3, seed=2)
    with pytest.raises(IllegalActionError) as refused:
        action_id(widow, Exchange(Card.parse("As"), Card.parse("Ks")))
    assert refused.value.code in ("exchange_not_in_hand", "exchange_not_in_widow")
