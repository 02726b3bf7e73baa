"""Card values are checked at the door: an action holds real Cards whatever integer type it was
built from (int, numpy.int64 from thirtyone.sim's arrays), and the rules never compare cards by
identity — R4.2 holds in every form. Bad field types are refused by the action's constructor. Every
action but an exchange is made once, so equal actions are the same object."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from helpers import snapshot
from thirtyone import Action
from thirtyone import ActionError
from thirtyone import Card
from thirtyone import CardError
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Look
from thirtyone import Pass
from thirtyone import Rules
from thirtyone import TakeWidow
from thirtyone import ThrowDown
from thirtyone import parse_action
from thirtyone import parse_cards

Form = Callable[[int], object]
BARE = (Knock, ExchangeAll, Pass, Keep, TakeWidow, Look, ThrowDown)


def forms() -> list[tuple[str, Form]]:
    found: list[tuple[str, Form]] = [("Card", Card), ("int", int)]
    try:
        import numpy as np
    except ImportError:  # the core's tests also run without numpy
        return found
    return [*found, ("numpy.int64", np.int64)]


def rebuilt(action: Action, form: Form) -> Action:
    """The same action with its cards given in another form (``Card``, ``int``, ``numpy.int64``)."""
    if isinstance(action, Discard):
        return Discard(form(int(action.card)))  # type: ignore[arg-type]
    if isinstance(action, Exchange):
        give = tuple(form(int(card)) for card in action.give)
        take = tuple(form(int(card)) for card in action.take)
        return Exchange(give, take)  # type: ignore[arg-type]
    return action


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["scat", "widow", "schwimmen"]))
def test_property_every_legal_action_in_every_card_form_plays_the_same_game(seed: int, preset: str) -> None:
    kinds = forms()
    games = [Game(Rules.preset(preset, exchange="any") if preset == "widow" else preset, 3, seed=seed) for _ in kinds]
    policy = random.Random(seed)
    for _ in range(150):
        if games[0].is_over:
            break
        legal = games[0].legal_actions()
        action = legal[policy.randrange(len(legal))]
        for game, (_, form) in zip(games, kinds, strict=True):
            played = rebuilt(action, form)
            assert played == action
            game.apply(played)
        for game in games[1:]:
            assert game.events == games[0].events
            assert game.discard_pile == games[0].discard_pile
            assert all(type(card) is Card for card in game.discard_pile + game.widow)
        assert all(type(card) is Card for event in games[0].events for card in getattr(event, "received", None) or ())


@pytest.mark.parametrize(("name", "form"), forms())
def test_r4_2_the_card_just_taken_is_refused_in_every_form(name: str, form: Form) -> None:
    game = Game(Rules.preset("scat"), 3, seed=5)
    game.apply(Draw("pile"))
    taken = game.taken_from_pile
    assert taken is not None
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.2") as refused:
        game.apply(Discard(form(int(taken))))  # type: ignore[arg-type]
    assert refused.value.code == "discard_taken_card"
    assert refused.value.cards == (taken,)
    assert snapshot(game) == before
    assert Discard(form(int(taken))) not in game.legal_actions()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "wanted"),
    [
        (2.0, "Discard.card is a Card or its index 0-51, not 2.0"),
        (True, "Discard.card is a Card or its index 0-51, not True"),
        (52, "Discard.card is a Card or its index 0-51, not 52"),
        (-1, "Discard.card is a Card or its index 0-51, not -1"),
        ("Td", "Discard.card is a Card, not the text 'Td': use Card.parse('Td') or parse_action"),
        (None, "Discard.card is a Card or its index 0-51, not None"),
    ],
)
def test_a_discard_of_something_that_is_no_card_is_refused(value: object, wanted: str) -> None:
    with pytest.raises(CardError) as refused:
        Discard(value)  # type: ignore[arg-type]
    assert str(refused.value) == wanted


def test_an_exchange_of_something_that_is_no_card_is_refused() -> None:
    with pytest.raises(CardError, match=r"^Exchange\.give is a Card or its index 0-51, not 1\.5$"):
        Exchange(1.5, Card(3))  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"^Exchange\.take is a Card, not the text 'Ah'"):
        Exchange(Card(3), "Ah")  # type: ignore[arg-type]
    assert Exchange([3, 7], (Card(9), 11)) == Exchange((Card(3), Card(7)), (Card(9), Card(11)))  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="each card once"):
        Exchange(3, 3)  # type: ignore[arg-type]


def test_a_card_not_in_the_deck_is_refused_by_the_rules_and_changes_nothing() -> None:
    game = Game(Rules.preset("schwimmen"), 3, seed=2)  # 32 cards: 7 to ace
    game.apply("keep")
    two = parse_cards("2c")[0]
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Exchange(two, game.widow[0]))
    assert refused.value.code == "exchange_not_in_hand"
    assert refused.value.rule == "R7.1"
    assert snapshot(game) == before


def test_a_draw_from_nowhere_is_refused() -> None:
    with pytest.raises(ActionError, match="draw from 'stock' or 'pile', not 'deck'"):
        Draw("deck")  # type: ignore[arg-type]


def test_every_action_but_an_exchange_is_made_once() -> None:
    """Equal actions are the same object (so `in legal` compares them in C), whichever way they
    are made; they hash as their fields do, and copies, pickles and replace give the same object."""
    made = [Draw("stock"), Draw("pile"), Discard(Card(7)), *(kind() for kind in BARE)]
    again = [Draw("stock"), parse_action("draw pile"), Discard(7), *(kind() for kind in BARE)]
    assert all(one is other for one, other in zip(made, again, strict=True))
    assert len(set(map(id, made))) == len(made)
    for action in made:
        fields = tuple(getattr(action, field.name) for field in dataclasses.fields(action))
        assert hash(action) == hash(fields)
        assert copy.copy(action) is copy.deepcopy(action) is pickle.loads(pickle.dumps(action)) is action
    assert dataclasses.replace(Draw("stock"), source="pile") is Draw("pile")
    assert dataclasses.replace(Discard(Card(7)), card=Card(9)) is Discard(9)
    assert Exchange(3, 7) == Exchange(Card(3), Card(7))  # exchanges are values as before
    with pytest.raises(ActionError, match=r"^Knock\(\) takes no arguments, not \(1, x=2\): write Knock\(\)$"):
        Knock(1, x=2)  # type: ignore[call-arg]
