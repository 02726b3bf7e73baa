"""R1: cards, card values and hand values (R1.1–R1.7), card text, hand-value errors."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from thirtyone import Card
from thirtyone import CardError
from thirtyone import Game
from thirtyone import Rules
from thirtyone import format_cards
from thirtyone import full_deck
from thirtyone import hand_value
from thirtyone import is_blitz
from thirtyone import parse_cards
from thirtyone.chance import ScriptedChance

SCAT = Rules.preset("scat")
TOK30 = Rules.preset("scat", three_of_a_kind="30")
TOK305 = Rules.preset("scat", three_of_a_kind="30.5")
ACES = Rules.preset("scat", three_aces=True)
STRAIGHT = Rules.preset("scat", straight_flush=True)


def value(text: str, rules: Rules = SCAT) -> int | Fraction:
    return hand_value(parse_cards(text), rules)


# ---------------------------------------------------------------------------- R1.1 deck


def test_r1_1_full_deck_has_52_distinct_cards_in_four_suits_and_thirteen_ranks():
    deck = full_deck(52)
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert Counter(card.suit for card in deck) == {0: 13, 1: 13, 2: 13, 3: 13}
    assert Counter(card.rank for card in deck) == dict.fromkeys(range(13), 4)
    assert {str(card) for card in deck} == {r + s for r in "23456789TJQKA" for s in "cdhs"}


def test_r1_1_default_full_deck_is_52_cards():
    assert full_deck() == full_deck(52)


def test_r1_1_schwimmen_deck_is_32_cards_seven_to_ace():
    deck = full_deck(32)
    assert len(deck) == 32
    assert len(set(deck)) == 32
    assert {str(card) for card in deck} == {r + s for r in "789TJQKA" for s in "cdhs"}
    assert Rules.preset("schwimmen").deck == 32


@pytest.mark.parametrize("size", [0, 7, 9, 12, 31, 36, 40, 53])
def test_r1_1_no_other_deck_size(size):
    with pytest.raises(CardError, match="52, 32 or 8"):
        full_deck(size)


def test_the_mini_deck_is_nine_to_ace_but_ten_and_jack_of_hearts_and_spades():
    deck = full_deck(8)  # a research variant (preset mini), not a deck of RULES.md
    assert format_cards(deck) == "9h 9s Qh Qs Kh Ks Ah As"
    assert list(deck) == sorted(deck)
    values = Counter(hand_value(hand) for hand in combinations(deck, 3))
    assert values == {31: 2, 30: 4, 29: 2, 21: 16, 20: 16, 19: 16}  # a 31 (Q K A of one suit) can be made


def test_r1_1_schwimmen_game_deals_from_the_32_card_deck():
    game = Game(Rules.preset("schwimmen"), 4, seed=3)
    deck = game.round_logs[0].deck
    assert sorted(deck) == sorted(full_deck(32))
    assert all(card.rank >= 5 for card in deck)  # rank index 5 is the seven


def test_r1_1_scat_game_deals_from_the_52_card_deck():
    game = Game(Rules.preset("scat"), 4, seed=3)
    assert sorted(game.round_logs[0].deck) == sorted(full_deck(52))


# ---------------------------------------------------------------------------- R1.2 card values


@pytest.mark.parametrize(
    ("rank", "points"),
    [
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("6", 6),
        ("7", 7),
        ("8", 8),
        ("9", 9),
        ("T", 10),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
        ("A", 11),
    ],
)
def test_r1_2_card_values(rank, points):
    for suit in "cdhs":
        assert Card.parse(rank + suit).points == points


def test_r1_2_total_points_of_the_deck():
    # 4 * (2+…+10 + 3*10 + 11) = 4 * 95
    assert sum(card.points for card in full_deck(52)) == 380


# ---------------------------------------------------------------------------- R1.3 standard value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("K♠ 10♠ 4♥", 20),
        ("K♦ 9♦ 4♠", 19),
        ("A♣ 6♠ 4♠", 11),
        ("J♣ 7♥ 4♠", 10),
        ("A♦ K♦ 10♦", 31),
    ],
)
def test_r1_3_seed_examples(text, expected):
    result = value(text)
    assert result == expected
    assert type(result) is int


def test_r1_3_value_does_not_depend_on_card_order():
    cards = parse_cards("Ks Ts 4h")
    for order in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:
        assert hand_value([cards[i] for i in order]) == 20


def test_r1_3_lone_high_card_beats_two_low_suited_cards():
    # trap: a lone high card ignored in favour of two low suited cards
    assert value("As 2h 3h") == 11
    assert value("Kc 2d 4d") == 10
    assert value("Ac 5d 4d") == 11
    assert value("Jc 5d 6d") == 11


def test_r1_3_three_different_suits_is_worth_the_highest_card():
    assert value("2c 9d 5h") == 9
    assert value("Qc Ad 5h") == 11


def test_r1_3_maximum_is_31_in_standard_scoring():
    assert max(hand_value(hand) for hand in combinations(full_deck(52), 3)) == 31


def test_r1_3_three_of_a_kind_is_not_special_in_standard_scoring():
    assert value("7h 7s 7d") == 7
    assert value("Ah As Ad") == 11
    assert not is_blitz(parse_cards("Ah As Ad"))


def test_r1_3_is_blitz_only_for_31():
    assert is_blitz(parse_cards("Ad Kd Td"))
    assert not is_blitz(parse_cards("Jd Kd Td"))


# ---------------------------------------------------------------------------- R1.4 three of a kind


def test_r1_4_three_of_a_kind_30():
    result = value("7h 7s 7d", TOK30)
    assert result == 30
    assert type(result) is int
    assert value("2h 2s 2d", TOK30) == 30
    assert value("Ah As Ad", TOK30) == 30


def test_r1_4_three_of_a_kind_30_5_is_an_exact_half():
    result = value("7h 7s 7d", TOK305)
    assert isinstance(result, Fraction)
    assert result == Fraction(61, 2)
    assert result.denominator == 2
    assert value("Ac Ad As", TOK305) == Fraction(61, 2)


def test_r1_4_30_5_beats_every_30_and_loses_to_31():
    half = value("7h 7s 7d", TOK305)
    thirty = value("Jd Kd Td", TOK305)
    thirty_one = value("Ad Kd Td", TOK305)
    assert thirty == 30
    assert thirty_one == 31
    assert thirty < half < thirty_one
    assert half > value("7h 7s 7d", TOK30)
    assert not is_blitz(parse_cards("7h 7s 7d"), TOK305)


def test_r1_4_three_of_a_kind_off_by_default_and_other_hands_unchanged():
    assert SCAT.three_of_a_kind == "off"
    for rules in (TOK30, TOK305):
        assert value("K♠ 10♠ 4♥", rules) == 20
        assert value("7h 7s 6d", rules) == 7
        assert value("A♦ K♦ 10♦", rules) == 31


def test_r1_4_schwimmen_uses_30_5():
    assert value("7h 7s 7d", Rules.preset("schwimmen")) == Fraction(61, 2)


# ---------------------------------------------------------------------------- R1.5 three aces


def test_r1_5_three_aces_score_33_and_are_a_blitz():
    for text in ("Ac Ad Ah", "Ac Ad As", "Ac Ah As", "Ad Ah As"):
        result = value(text, ACES)
        assert result == 33
        assert type(result) is int
        assert is_blitz(parse_cards(text), ACES)


def test_r1_5_three_aces_beat_31():
    assert value("Ac Ad Ah", ACES) > value("Ad Kd Td", ACES) == 31


def test_r1_5_three_aces_over_three_of_a_kind():
    assert value("Ac Ad Ah", ACES.replace(three_of_a_kind="30.5")) == 33
    assert value("Ac Ad Ah", ACES.replace(three_of_a_kind="30")) == 33
    # other trips are not affected by three_aces
    assert value("Kc Kd Kh", ACES) == 10
    assert value("Kc Kd Kh", ACES.replace(three_of_a_kind="30")) == 30


def test_r1_5_three_aces_off_by_default():
    assert value("Ac Ad Ah") == 11
    assert Rules.preset("schwimmen").three_aces is True
    assert value("Ac Ad Ah", Rules.preset("schwimmen")) == 33


# ---------------------------------------------------------------------------- R1.6 straight flush


def test_r1_6_q_k_a_suited_is_31():
    assert value("Qh Kh Ah", STRAIGHT) == 31
    assert is_blitz(parse_cards("Qh Kh Ah"), STRAIGHT)


def test_r1_6_low_straight_flush_is_30():
    assert value("2h 3h 4h", STRAIGHT) == 30
    assert value("8c 9c Tc", STRAIGHT) == 30
    assert value("9s Ts Js", STRAIGHT) == 30
    assert value("Td Jd Qd", STRAIGHT) == 30


def test_r1_6_j_q_k_is_30():
    assert value("Jd Qd Kd", STRAIGHT) == 30


def test_r1_6_aces_high_only_a_2_3_is_not_a_sequence():
    assert value("Ah 2h 3h", STRAIGHT) == 16
    assert value("Kh Ah 2h", STRAIGHT) == 23  # no wrap round


def test_r1_6_sequence_must_be_one_suit():
    assert value("2h 3s 4h", STRAIGHT) == 6
    assert value("Jc Qd Kh", STRAIGHT) == 10


def test_r1_6_not_a_sequence():
    assert value("2h 3h 5h", STRAIGHT) == 10
    assert value("Th Jh Kh", STRAIGHT) == 30  # standard value is 30 anyway


def test_r1_6_straight_flush_off_by_default():
    assert value("2h 3h 4h") == 9


def test_r1_6_straight_flush_counts_only_if_higher_than_standard():
    # Q-K-A is 31 either way; no straight flush can lower a value.
    for hand in combinations(full_deck(52), 3):
        assert hand_value(hand, STRAIGHT) >= hand_value(hand)


# ---------------------------------------------------------------------------- R1.7 reference counts


def _counts(rules: Rules) -> tuple[Counter, Fraction]:
    counts: Counter = Counter()
    total = Fraction(0)
    for hand in combinations(full_deck(52), 3):
        v = hand_value(hand, rules)
        counts[v] += 1
        total += v
    return counts, total / 22_100


def test_r1_7_reference_counts_standard():
    counts, mean = _counts(SCAT)
    assert sum(counts.values()) == 22_100
    assert counts[31] == 24
    assert counts[30] == 32
    assert counts[10] == 5_732
    assert round(mean, 3) == Fraction(13_088, 1_000)
    assert mean == Fraction(72_311, 5_525)


def test_r1_7_reference_count_three_of_a_kind_30():
    counts, _ = _counts(TOK30)
    assert counts[30] == 84
    assert counts[31] == 24


def test_r1_7_reference_count_three_of_a_kind_30_5():
    counts, _ = _counts(TOK305)
    assert counts[Fraction(61, 2)] == 52
    assert counts[30] == 32
    assert counts[31] == 24


def test_r1_7_a_9_10_suited_scores_30():
    # the hand C's footnote misses
    assert value("Ac 9c Tc") == 30


# ---------------------------------------------------------------------------- card text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("10h", "Th"),
        ("Th", "Th"),
        ("td", "Td"),
        ("K♠", "Ks"),
        ("10♦", "Td"),
        ("2♣", "2c"),
        ("Q♥", "Qh"),
        ("  9c ", "9c"),
    ],
)
def test_card_parse(text, expected):
    card = Card.parse(text)
    assert str(card) == expected
    assert Card.parse(expected) is card


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "11h", "AsKd", "Zs", "10", "s", "A ♠x"])
def test_card_parse_bad_text_gives_one_line_hint(text):
    with pytest.raises(CardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert "\n" not in message
    assert repr(text.strip()) in message
    assert "'As'" in message  # an example of how to write a card


def test_card_formats():
    card = Card.parse("As")
    assert str(card) == "As"
    assert repr(card) == "Card('As')"
    assert card.pretty == "A♠"
    assert Card.parse("Td").pretty == "10♦"
    assert Card.parse("2c").pretty == "2♣"
    assert Card.parse("Qh").pretty == "Q♥"


def test_every_card_round_trips_through_both_text_forms():
    for card in full_deck(52):
        assert Card.parse(str(card)) is card
        assert Card.parse(card.pretty) is card


def test_parse_cards_and_format_cards():
    cards = parse_cards("As Td, 9h")
    assert cards == (Card.parse("As"), Card.parse("Td"), Card.parse("9h"))
    assert format_cards(cards) == "As Td 9h"
    assert format_cards(parse_cards("10h, K♠")) == "Th Ks"
    with pytest.raises(CardError, match="'Xx'"):
        parse_cards("As Xx")


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_index_out_of_range(index):
    with pytest.raises(CardError, match="0-51"):
        Card(index)


# ---------------------------------------------------------------------------- hand_value errors


@pytest.mark.parametrize(
    "cards",
    [
        parse_cards("As As Kd"),
        parse_cards("As Kd"),
        parse_cards("As Kd Qd Jd"),
        (),
    ],
)
def test_hand_value_needs_three_different_cards(cards):
    with pytest.raises(CardError, match="three different cards"):
        hand_value(cards)


def test_hand_value_rejects_card_outside_the_32_card_deck():
    rules = Rules.preset("schwimmen")
    with pytest.raises(CardError, match="32-card deck"):
        hand_value(parse_cards("2c Ac Kc"), rules)
    with pytest.raises(CardError):
        is_blitz(parse_cards("6h Ah Kh"), rules)
    assert hand_value(parse_cards("7c Ac Kc"), rules) == 28


@pytest.mark.parametrize("cards", [[0, 1, 99], [-3, -2, -1], [0, 60, 2], [0, 1, 52], [-13, 1, 2], [55, 1, 2]])
def test_hand_value_refuses_integers_outside_0_to_51(cards):
    # a flat table indexed a * 2704 + b * 52 + c once gave these the value of another hand
    with pytest.raises(CardError, match="three different cards of the 52-card deck"):
        hand_value(cards)
    with pytest.raises(CardError):
        hand_value(cards, STRAIGHT)


@given(st.lists(st.integers(-200, 200), min_size=3, max_size=3))
def test_hand_value_of_any_three_integers_is_that_of_the_cards_or_a_card_error(cards):
    if len(set(cards)) == 3 and all(0 <= card < 52 for card in cards):
        hand = [Card(card) for card in cards]
        assert hand_value(cards) == max(sum(card.points for card in hand if card.suit == suit) for suit in range(4))
    else:
        with pytest.raises(CardError):
            hand_value(cards)


def test_hand_value_error_is_one_line():
    with pytest.raises(CardError) as info:
        hand_value(parse_cards("As As Kd"))
    assert "\n" not in str(info.value)
    assert "As As Kd" in str(info.value)


def test_r1_schwimmen_scripted_game_rejects_2c_in_deck_order():
    # a deck order for a 32-card game containing a 2 is not a permutation of the deck
    bad = list(full_deck(32))
    bad[0] = Card.parse("2c")
    with pytest.raises(CardError, match="permutation"):
        Game(Rules.preset("schwimmen"), 3, chance=ScriptedChance(0, [bad]))
