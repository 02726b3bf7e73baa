"""Action text notation: ``str(action)`` and ``parse_action`` are inverse for every action type."""

from __future__ import annotations

import pytest

from thirtyone import ActionError
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Look
from thirtyone import Pass
from thirtyone import TakeWidow
from thirtyone import ThrowDown
from thirtyone import full_deck
from thirtyone import parse_action
from thirtyone import parse_cards


def c(text: str) -> Card:
    return Card.parse(text)


SIMPLE = [
    (Draw("stock"), "draw stock"),
    (Draw("pile"), "draw pile"),
    (Knock(), "knock"),
    (ExchangeAll(), "exchange all"),
    (Pass(), "pass"),
    (Keep(), "keep"),
    (TakeWidow(), "take widow"),
    (Look(), "look"),
    (ThrowDown(), "throw down"),
    (Discard(c("Td")), "discard Td"),
    (Exchange(c("Td"), c("Ah")), "exchange Td for Ah"),
]


@pytest.mark.parametrize(("action", "text"), SIMPLE, ids=[text for _, text in SIMPLE])
def test_notation_str_and_parse_are_inverse(action, text):
    assert str(action) == text
    assert parse_action(text) == action
    assert parse_action(str(action)) == action
    assert type(parse_action(text)) is type(action)


def test_notation_draw_default_source_is_stock():
    assert Draw() == Draw("stock")


@pytest.mark.parametrize("card", full_deck(52), ids=str)
def test_notation_discard_every_card_round_trips(card):
    action = Discard(card)
    assert str(action) == f"discard {card}"
    assert parse_action(str(action)) == action
    assert parse_action(f"discard {card.pretty}") == action


def test_notation_exchange_one_card_every_pair_sample():
    deck = full_deck(52)
    for give in deck[::5]:
        for take in deck[1::7]:
            if give == take:
                continue
            action = Exchange(give, take)
            assert action.give == (give,)
            assert action.take == (take,)
            assert parse_action(str(action)) == action


def test_notation_exchange_two_cards():
    action = Exchange((c("Td"), c("9h")), (c("Ah"), c("Kh")))
    assert action.give == tuple(sorted(parse_cards("Td 9h")))
    assert action.take == tuple(sorted(parse_cards("Ah Kh")))
    text = str(action)
    assert text == "exchange 9h Td for Kh Ah"
    assert parse_action(text) == action
    # the order of the cards on either side does not matter
    assert parse_action("exchange Td 9h for Ah Kh") == action
    assert Exchange((c("9h"), c("Td")), (c("Kh"), c("Ah"))) == action


def test_notation_exchange_bare_card_equals_one_tuple():
    assert Exchange(c("Td"), c("Ah")) == Exchange((c("Td"),), (c("Ah"),))


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("DRAW STOCK", Draw("stock")),
        ("  draw   pile ", Draw("pile")),
        ("Knock", Knock()),
        ("Throw Down", ThrowDown()),
        ("Take Widow", TakeWidow()),
        ("EXCHANGE ALL", ExchangeAll()),
        ("discard 10h", Discard(c("Th"))),
        ("Discard td", Discard(c("Td"))),
        ("discard K♠", Discard(c("Ks"))),
        ("exchange 10♦ for A♥", Exchange(c("Td"), c("Ah"))),
        ("Exchange td FOR ah", Exchange(c("Td"), c("Ah"))),
        ("exchange 9h, Td for Ah, Kh", Exchange((c("9h"), c("Td")), (c("Ah"), c("Kh")))),
    ],
)
def test_notation_case_spacing_and_card_forms_are_free(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly",
        "draw",
        "draw deck",
        "draw stock pile",
        "discard",
        "discard Zz",
        "discard As Kd",
        "discard 1s",
        "knock knock",
        "exchange",
        "exchange Td",
        "exchange Td for",
        "exchange for Ah",
        "exchange Td for Ah Kh",
        "exchange Td 9h for Ah",
        "exchange Td for Td",
        "exchange Td 9h Jc for Ah Kh Qh",
        "exchange Td Td for Ah Kh",
        "exchange Xx for Ah",
        "exchange all three",
        "pass on",
        "take",
        "throw",
        "look look",
    ],
)
def test_notation_bad_text_raises_action_error(text):
    with pytest.raises(ActionError) as info:
        parse_action(text)
    assert "\n" not in str(info.value)


def test_notation_unknown_word_lists_the_forms():
    with pytest.raises(ActionError, match="cannot read action 'fly'") as info:
        parse_action("fly")
    for form in ("draw stock", "draw pile", "discard", "knock", "exchange", "pass", "keep", "take widow", "look"):
        assert form in str(info.value)


def test_notation_bad_card_names_the_card():
    with pytest.raises(ActionError, match="Zz"):
        parse_action("discard Zz")


def test_notation_bad_draw_source():
    with pytest.raises(ActionError, match="deck"):
        Draw("deck")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("give", "take"),
    [
        ((), ()),
        ((c("Td"),), ()),
        ((c("Td"), c("9h")), (c("Ah"),)),
        ((c("Td"), c("9h"), c("8c")), (c("Ah"), c("Kh"), c("Qh"))),
        (c("Td"), c("Td")),
        ((c("Td"), c("9h")), (c("Td"), c("Kh"))),
    ],
)
def test_notation_bad_exchange_values(give, take):
    with pytest.raises(ActionError):
        Exchange(give, take)


def test_notation_actions_are_hashable_values():
    assert len({parse_action(text) for _, text in SIMPLE}) == len(SIMPLE)
    assert parse_action("knock") == Knock()
    assert hash(parse_action("discard Td")) == hash(Discard(c("Td")))


@pytest.mark.parametrize("kind", [Knock, Pass, ExchangeAll, Keep, TakeWidow, Look, ThrowDown])
def test_actions_with_nothing_to_choose_refuse_arguments_as_bad_input(kind):
    with pytest.raises(ActionError, match=rf"^{kind.__name__}\(\) takes no arguments, not \(1\)"):
        kind(1)
    with pytest.raises(ActionError, match="takes no arguments"):
        kind(seat=2)
    assert kind() == kind()
    assert hash(kind()) == hash(kind())
