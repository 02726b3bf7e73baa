"""The one narrator (thirtyone.narration): which sentence (catalog key) each move, loss, round end
and refusal gets, and the facts it names as data, told to one seat; and the records' English of
those phrases (thirtyone.text)."""

from __future__ import annotations

import pytest

from helpers import cards
from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.events import Acted
from thirtyone.events import GameOver
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.narration import KEYS
from thirtyone.narration import MOVES
from thirtyone.narration import Cards
from thirtyone.narration import Phrase
from thirtyone.narration import Points
from thirtyone.narration import Seats
from thirtyone.narration import acted
from thirtyone.narration import event
from thirtyone.narration import headline
from thirtyone.narration import loss
from thirtyone.narration import refusal
from thirtyone.narration import round_end
from thirtyone.rules import Rules
from thirtyone.settlement import Loss
from thirtyone.text import describe_end
from thirtyone.text import english
from thirtyone.text import loss_reason
from thirtyone.text import refusal as refused


@pytest.mark.parametrize(
    ("notation", "received", "private", "key"),
    [
        ("draw stock", None, False, "acted.draw_stock"),  # another's stock draw names no card (R4.4)
        ("draw stock", "9h", False, "acted.draw_stock_seen"),
        ("draw pile", "9h", False, "acted.take_pile"),
        ("draw pile", None, False, "acted.take_pile_top"),  # a record's step: no card
        ("discard 9h", None, False, "acted.discard"),
        ("knock", None, False, "acted.knock"),
        ("exchange 9h for As", None, False, "acted.exchange"),
        ("exchange all", None, False, "acted.exchange_all"),
        ("exchange all", "9h As Kd", False, "acted.exchange_all_seen"),
        ("exchange all", None, True, "acted.take_widow"),  # the face-down widow (R7.2)
        ("exchange all", "9h As Kd", True, "acted.take_widow_seen"),
        ("pass", None, False, "acted.pass"),
        ("keep", None, False, "acted.keep"),
        ("take widow", None, False, "acted.take_other"),
        ("take widow", "9h As Kd", False, "acted.take_other_seen"),
        ("look", None, False, "acted.look"),
        ("throw down", None, False, "acted.throw"),
    ],
)
def test_every_move_has_one_sentence_and_its_you_form(
    notation: str, received: str | None, private: bool, key: str
) -> None:
    event = Acted(1, parse_action(notation), None if received is None else cards(received), private)
    (told,) = acted(event)
    assert told.key == key
    assert told.values["who"] == Seats((1,))
    if received is not None:
        assert told.values["cards"] == Cards(cards(received))
    assert acted(event, you=1)[0].key == f"{key}_you"
    assert acted(event, you=0)[0].key == key


def test_a_discard_names_its_card_and_an_exchange_both_sides() -> None:
    assert acted(Acted(0, parse_action("discard 9h")))[0].values["card"] == Cards(cards("9h"))
    values = acted(Acted(0, parse_action("exchange 9h for As")))[0].values
    assert (values["give"], values["take"]) == (Cards(cards("9h")), Cards(cards("As")))


@pytest.mark.parametrize(
    ("notation", "private", "clause"),
    [
        ("exchange all", False, "acted.revealed.laid_down"),
        ("exchange all", True, "acted.revealed.old_hand"),  # R7.2: the old hand lies face up
        ("keep", False, "acted.revealed.second_widow"),  # R7.5
        ("take widow", False, "acted.revealed.first_widow"),
    ],
)
def test_r7_cards_a_move_turns_face_up_are_a_clause_around_its_sentence(
    notation: str, private: bool, clause: str
) -> None:
    (told,) = acted(Acted(2, parse_action(notation), None, private, cards("2c 3d 4h")))
    assert told.key == clause
    assert told.values["cards"] == Cards(cards("2c 3d 4h"))
    inner = told.values["action"]
    assert isinstance(inner, Phrase)
    assert inner.values["who"] == Seats((2,))


@pytest.mark.parametrize("notation", ["pass", "knock"])
def test_r7_2_the_openers_pass_or_knock_turns_the_widow_in_a_second_sentence(notation: str) -> None:
    told = acted(Acted(0, parse_action(notation), None, False, cards("2c 3d 4h")))
    assert [phrase.key for phrase in told] == [f"acted.{notation}", "acted.widow_turned"]
    assert told[1].values == {"cards": Cards(cards("2c 3d 4h"))}


def _result(
    end: str, knocker: int | None = None, blitz: tuple[int, ...] = (), values: tuple[int, ...] = (20, 20, 20)
) -> RoundResult:
    return RoundResult(3, 0, end, knocker, blitz, (None,) * 3, values, (), (3, 3, 3), (), False, 9)  # type: ignore[arg-type]


def test_r6_6_a_loss_that_names_the_knock_is_said_of_the_throw_down() -> None:
    charged = Loss(1, 1, "knocker_alone_lowest")
    assert loss(charged, _result("knock", 1)).key == "loss.knocker_alone_lowest"
    assert loss(charged, _result("throw_down", 1)).key == "loss.knocker_alone_lowest.throw"
    assert loss(Loss(2, 1, "lowest"), _result("throw_down", 1)).key == "loss.lowest"
    saved = Loss(2, 1, "lowest_knocker_saved", (0,))
    assert loss(saved, _result("knock", 0), you=0).key == "loss.lowest_knocker_saved_you"
    assert loss(saved, _result("throw_down", 0), you=0).key == "loss.lowest_knocker_saved_you.throw"
    assert loss(saved, _result("knock", 0), you=2).key == "loss.lowest_knocker_saved"


def test_r1_5_a_blitz_loss_says_what_was_shown() -> None:
    blitz = Loss(1, 1, "blitz", (0,))
    assert loss(blitz, _result("blitz", None, (0,), (31, 20, 20))).values["shown"] == Phrase("shown.31")
    assert loss(blitz, _result("blitz", None, (0,), (33, 20, 20))).values["shown"] == Phrase("shown.three_aces")
    assert loss_reason(blitz, _result("blitz", None, (0,), (33, 20, 20))) == "seat 0 showed three aces (33)"


@pytest.mark.parametrize(
    ("end", "knocker", "blitz", "key", "said"),
    [
        ("knock", 2, (), "end.knock", "knock by seat 2"),
        ("knock", None, (), "end.other", "knock"),  # a knock nobody is named for: its end alone
        ("throw_down", 1, (), "end.throw_down", "throw down by seat 1"),
        ("blitz", 2, (0, 1), "end.blitz", "blitz by seat 0, seat 1"),
        ("dealt_blitz", None, (1,), "end.dealt_blitz", "31 on the deal by seat 1"),
        ("all_pass", None, (), "end.all_pass", "all passed"),
        ("stock_exhausted", None, (), "end.stock_exhausted", "stock exhausted"),
        ("max_turns", None, (), "end.max_turns", "turn limit"),
    ],
)
def test_a_round_end_has_one_phrase_and_the_records_english(
    end: str, knocker: int | None, blitz: tuple[int, ...], key: str, said: str
) -> None:
    result = _result(end, knocker, blitz)
    told = round_end(result)
    assert told.key == key
    assert told.values["round"] == 3
    assert told.values["rule"] == ("R5.1" if knocker is None else "R5.3")
    assert describe_end(result) == said


def test_a_refusal_is_its_code_and_facts() -> None:
    error = refused("knock_too_low", seat=1, values=(21, 20))
    told = refusal(error)
    assert told.key == "refusal.knock_too_low"
    assert told.values["seat"] == Seats((1,))
    assert (told.values["need"], told.values["value"]) == (Points(21), Points(20))
    assert str(error) == f"{error.rule}: {english(told)}"
    assert (
        str(refused("second_knock", seat=1, seats=(2,))) == "R6.1: seat 2 has already knocked; only one knock per round"
    )


def test_english_names_seats_as_it_is_told() -> None:
    phrase = Phrase("loss.dealt_blitz", {"who": Seats((0, 2)), "shown": Phrase("shown.31")})
    assert english(phrase, ["Ann", "Ben", "Cy"].__getitem__) == "Ann, Cy were dealt 31"
    with pytest.raises(KeyError):
        english(Phrase("acted.discard", {"who": Seats((0,)), "card": Cards(cards("9h"))}))


@pytest.mark.parametrize(
    ("preset", "upcard", "key"),
    [
        ("scat", "9h", "event.dealt_upcard"),  # draw mode turns up the pile's first card (R3.3)
        ("widow", None, "event.dealt_widow_down"),  # R7.2
        ("schwimmen", None, "event.dealt_second_hand"),  # the dealer's second hand (R7.5)
    ],
)
def test_r3_a_deal_is_told_by_what_lies_on_the_table(preset: str, upcard: str | None, key: str) -> None:
    dealt = RoundStarted(2, 1, (0, 1, 2), None if upcard is None else Card.parse(upcard))
    (told,) = event(dealt, Rules.preset(preset))
    assert told.key == key
    assert (told.values["round"], told.values["who"]) == (2, Seats((1,)))
    assert told.values.get("card") == (None if upcard is None else Cards(cards(upcard)))


def test_the_other_events_each_have_one_phrase() -> None:
    rules = Rules.preset("widow")
    assert event(Reshuffled(20), rules) == (Phrase("event.reshuffled", {}, 20),)  # R4.3, counted
    assert event(NewWidow(cards("2c 3d 4h"), cards("5s 6s 7s")), rules) == (
        Phrase("event.new_widow", {"cards": Cards(cards("5s 6s 7s"))}),
    )  # R7.3: the new widow is named, not the one set aside
    assert event(GameOver(1), rules)[0].key == "over.winner"
    assert event(GameOver(1), rules, you=1)[0].key == "over.winner_you"
    assert event(Acted(0, parse_action("pass")), rules) == acted(Acted(0, parse_action("pass")))


def test_every_key_the_narrator_says_is_listed_for_the_catalogs() -> None:
    said = [
        *(acted(Acted(1, parse_action(text), got, private, shown), you) for text, got, private, shown, you in _ALL),
    ]
    keys = {phrase.key for phrases in said for phrase in phrases}
    keys |= {
        inner.key
        for phrases in said
        for phrase in phrases
        for inner in phrase.values.values()
        if isinstance(inner, Phrase)
    }
    assert keys <= KEYS
    assert {f"{key}_you" for key in MOVES} <= KEYS


_ALL = [
    (text, got, private, shown, you)
    for text in (
        "draw stock",
        "draw pile",
        "discard 9h",
        "knock",
        "exchange 9h for As",
        "exchange all",
        "pass",
        "keep",
        "take widow",
        "look",
        "throw down",
    )
    for got in (None, cards("2c 3d 4h"))
    for private in (False, True)
    for shown in ((), cards("5s 6s 7s"))
    for you in (None, 1)
]


@pytest.mark.parametrize(
    ("end", "knocker", "blitz", "you", "key"),
    [
        ("blitz", None, (0,), None, "head.blitz"),
        ("dealt_blitz", None, (1,), None, "head.dealt_one"),  # R5.2
        ("dealt_blitz", None, (1,), 1, "head.dealt_many"),  # "you were dealt"
        ("dealt_blitz", None, (0, 1), None, "head.dealt_many"),
        ("knock", 2, (), None, "head.knock"),
        ("knock", 2, (), 2, "head.knock_you"),
        ("throw_down", 1, (), 1, "head.throw_you"),  # R6.6
        ("all_pass", None, (), None, "head.all_pass"),  # R7.3
        ("stock_exhausted", None, (), None, "head.stock_out"),  # R4.3
        ("max_turns", None, (), None, "head.turn_limit"),  # R6.7
    ],
)
def test_a_headline_names_who_ended_the_round(
    end: str, knocker: int | None, blitz: tuple[int, ...], you: int | None, key: str
) -> None:
    told = headline(_result(end, knocker, blitz), you)
    assert told.key == key
    assert told.key in KEYS
    assert told.values["round"] == 3
    assert told.count == (9 if end == "max_turns" else None)  # counted by the round's turns
    if blitz:
        assert told.values["who"] == Seats(blitz)
