"""R8: the four presets (and the research variant mini), options on top of any preset, refused
combinations, text options."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest

from thirtyone import PRESETS
from thirtyone import Game
from thirtyone import Rules
from thirtyone import RulesError
from thirtyone.rules import OPTIONS

BASE = {
    "mode": "draw",
    "deck": 52,
    "lives": 3,
    "grace_life": True,
    "three_of_a_kind": "off",
    "three_aces": False,
    "straight_flush": False,
    "knock_penalty": "scat",
    "knock_from_round": 1,
    "min_knock_value": 0,
    "throw_down": False,
    "max_turns": 200,
    "stock_exhausted": "reshuffle",
    "all_pass": None,
    "exchange": None,
    "dealer_hand": False,
}

EXPECTED = {
    "scat": dict(BASE),
    "widow": dict(
        BASE,
        mode="widow",
        knock_penalty="widow",
        stock_exhausted=None,
        all_pass="showdown",
        exchange="one_or_all",
    ),
    "namu": dict(BASE, knock_penalty="namu", grace_life=False),
    "schwimmen": dict(
        BASE,
        mode="widow",
        deck=32,
        three_of_a_kind="30.5",
        three_aces=True,
        knock_penalty="plain",
        knock_from_round=2,
        stock_exhausted=None,
        all_pass="new_widow",
        exchange="one_or_all",
        dealer_hand=True,
    ),
    "mini": dict(BASE, deck=8, lives=1, grace_life=False, max_turns=3),  # a research variant, not R8's
}

VALUES = {
    "mode": ["draw", "widow"],
    "deck": [8, 32, 52],
    "lives": [1, 5, 20],
    "grace_life": [True, False],
    "three_of_a_kind": ["off", "30", "30.5"],
    "three_aces": [True, False],
    "straight_flush": [True, False],
    "knock_penalty": ["scat", "namu", "namu_risky", "widow", "plain"],
    "knock_from_round": [1, 2],
    "min_knock_value": [0, 17, 21, 30],
    "throw_down": [True, False],
    "max_turns": [1, 200, 10_000],
    "stock_exhausted": ["reshuffle", "showdown"],
    "all_pass": ["showdown", "new_widow"],
    "exchange": ["one_or_all", "any"],
    "dealer_hand": [True, False],
}

DRAW_ONLY = {"stock_exhausted", "throw_down"}
WIDOW_ONLY = {"all_pass", "exchange", "dealer_hand"}
MODE_DEFAULTS = {
    "draw": {"stock_exhausted": "reshuffle", "all_pass": None, "exchange": None, "dealer_hand": False},
    "widow": {"stock_exhausted": None, "all_pass": "showdown", "exchange": "one_or_all", "throw_down": False},
}


def fits(preset: str, option: str, value: object) -> bool:
    mode = EXPECTED[preset]["mode"]
    if option in DRAW_ONLY and mode != "draw":
        return value is False
    if option in WIDOW_ONLY and mode != "widow":
        return value is False
    return True


def fits_the_deck(preset: str, option: str, value: object) -> bool:
    """Three of a kind and three aces need three suits: the mini deck has two (R1.4, R1.5)."""
    rules = dict(EXPECTED[preset], **{option: value})
    return rules["deck"] != 8 or (rules["three_of_a_kind"] == "off" and not rules["three_aces"])


COMBOS = [(preset, option, value) for preset in EXPECTED for option, values in VALUES.items() for value in values]
FITTING = [combo for combo in COMBOS if fits(*combo) and fits_the_deck(*combo)]
MISFITS = [combo for combo in COMBOS if not fits(*combo)]
DECK_MISFITS = [combo for combo in COMBOS if fits(*combo) and not fits_the_deck(*combo)]


def _id(combo: tuple) -> str:
    return "-".join(map(str, combo))


# ---------------------------------------------------------------------------- the presets


def test_r8_every_option_is_covered_by_these_tests():
    assert set(OPTIONS) == set(BASE) == set(VALUES)
    assert set(PRESETS) == set(EXPECTED)


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_r8_preset_has_exactly_the_tables_settings(preset):
    rules = Rules.preset(preset)
    assert rules.options() == EXPECTED[preset]
    assert PRESETS[preset] == rules


def test_r8_scat_is_the_default():
    assert Rules() == Rules.preset("scat")
    assert Rules.preset() == Rules.preset("scat")
    assert Game(seed=1).rules == Rules.preset("scat")


def test_r8_presets_differ():
    assert len({Rules.preset(name) for name in EXPECTED}) == len(EXPECTED) == 5


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_r8_preset_describes_itself(preset):
    assert Rules.preset(preset).describe() == preset


def test_r8_scat_table_row():
    rules = Rules.preset("scat")
    assert (rules.mode, rules.deck, rules.knock_penalty, rules.grace_life) == ("draw", 52, "scat", True)
    assert rules.three_of_a_kind == "off"
    assert rules.stock_exhausted == "reshuffle"


def test_r8_widow_table_row():
    rules = Rules.preset("widow")
    assert (rules.mode, rules.deck, rules.knock_penalty, rules.grace_life) == ("widow", 52, "widow", True)
    assert (rules.all_pass, rules.exchange) == ("showdown", "one_or_all")


def test_r8_namu_table_row():
    rules = Rules.preset("namu")
    assert (rules.mode, rules.deck, rules.knock_penalty, rules.grace_life) == ("draw", 52, "namu", False)
    assert rules.stock_exhausted == "reshuffle"


def test_r8_schwimmen_table_row():
    rules = Rules.preset("schwimmen")
    assert (rules.mode, rules.dealer_hand, rules.deck, rules.knock_penalty, rules.grace_life) == (
        "widow",
        True,
        32,
        "plain",
        True,
    )
    assert rules.three_aces is True
    assert rules.three_of_a_kind == "30.5"
    assert rules.knock_from_round == 2
    assert rules.all_pass == "new_widow"


def test_mini_is_two_players_one_round_of_three_turns_from_eight_cards():
    rules = Rules.preset("mini")
    assert (rules.mode, rules.deck, rules.lives, rules.grace_life, rules.max_turns) == ("draw", 8, 1, False, 3)
    assert rules.check_players(2) == 2
    with pytest.raises(RulesError, match=r"R2\.1: 3 players need 11 cards .* \(deck=8\); use at most 2 players"):
        rules.check_players(3)


# ---------------------------------------------------------------------------- options on top of presets


@pytest.mark.parametrize(("preset", "option", "value"), FITTING, ids=[_id(c) for c in FITTING])
def test_r8_option_on_top_of_preset(preset, option, value):
    rules = Rules.preset(preset, **{option: value})
    assert getattr(rules, option) == value
    expected = dict(EXPECTED[preset], **{option: value})
    if option == "mode" and value != EXPECTED[preset]["mode"]:
        expected.update(MODE_DEFAULTS[value])
    assert rules.options() == expected
    assert Rules.preset(preset).replace(**{option: value}) == rules


@pytest.mark.parametrize(("preset", "option", "value"), FITTING, ids=[_id(c) for c in FITTING])
def test_r8_option_on_top_of_preset_plays(preset, option, value):
    rules = Rules.preset(preset, **{option: value})
    players = 3 if rules.deck > 8 else 2  # the mini deck deals two players
    if rules.deck == 8 and rules.mode == "widow":  # and no widow besides: it is refused, naming the deck
        with pytest.raises(RulesError, match=r"R2\.1: 2 players need 10 cards .*deck=8"):
            Game(rules, players)
        return
    game = Game(rules, players, seed=FITTING.index((preset, option, value)))
    rng = random.Random(1)
    for _ in range(400):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert actions, "a game that is not over always has a legal action"
        game.apply(rng.choice(actions))
    assert game.round >= 1


def test_r8_several_options_on_top_of_scat():
    rules = Rules.preset("scat", three_of_a_kind="30", straight_flush=True, min_knock_value=21, throw_down=True)
    assert rules.options() == dict(
        EXPECTED["scat"], three_of_a_kind="30", straight_flush=True, min_knock_value=21, throw_down=True
    )
    assert rules.describe() == "scat, three_of_a_kind=30, straight_flush=on, min_knock_value=21, throw_down=on"


def test_r8_mode_change_brings_the_modes_options():
    rules = Rules.preset("scat", mode="widow")
    assert (rules.all_pass, rules.exchange, rules.stock_exhausted, rules.dealer_hand) == (
        "showdown",
        "one_or_all",
        None,
        False,
    )
    rules = Rules.preset("schwimmen", mode="draw")
    assert (rules.all_pass, rules.exchange, rules.stock_exhausted, rules.dealer_hand) == (
        None,
        None,
        "reshuffle",
        False,
    )
    assert rules.deck == 32
    rules = Rules.preset("scat", mode="widow", all_pass="new_widow", dealer_hand=True)
    assert (rules.all_pass, rules.dealer_hand) == ("new_widow", True)


def test_r8_presets_are_immutable():
    rules = Rules.preset("scat")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.lives = 5  # type: ignore[misc]
    rules.replace(lives=5)
    assert Rules.preset("scat").lives == 3


# ---------------------------------------------------------------------------- refused combinations


@pytest.mark.parametrize(("preset", "option", "value"), MISFITS, ids=[_id(c) for c in MISFITS])
def test_r8_option_of_the_other_mode_is_refused_naming_both(preset, option, value):
    with pytest.raises(RulesError) as info:
        Rules.preset(preset, **{option: value})
    message = str(info.value)
    assert option in message
    assert "mode" in message
    assert "\n" not in message


@pytest.mark.parametrize(("preset", "option", "value"), DECK_MISFITS, ids=[_id(c) for c in DECK_MISFITS])
def test_r8_three_of_a_kind_on_the_two_suited_mini_deck_is_refused_naming_both(preset, option, value):
    with pytest.raises(RulesError) as info:
        Rules.preset(preset, **{option: value})
    message = str(info.value)
    assert "deck=8" in message
    assert "three_of_a_kind" in message or "three_aces" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("preset", "overrides", "names"),
    [
        ("scat", {"all_pass": "showdown"}, ("all_pass", "mode")),
        ("scat", {"mode": "draw", "all_pass": "new_widow"}, ("all_pass", "mode")),
        ("widow", {"throw_down": True}, ("throw_down", "mode")),
        ("schwimmen", {"throw_down": True}, ("throw_down", "mode")),
        ("scat", {"dealer_hand": True}, ("dealer_hand", "mode")),
        ("schwimmen", {"mode": "draw", "dealer_hand": True}, ("dealer_hand", "mode")),
        ("namu", {"exchange": "any"}, ("exchange", "mode")),
        ("widow", {"stock_exhausted": "showdown"}, ("stock_exhausted", "mode")),
        ("scat", {"mode": "widow", "stock_exhausted": "reshuffle"}, ("stock_exhausted", "mode")),
        ("scat", {"mode": "widow", "throw_down": True}, ("throw_down", "mode")),
    ],
)
def test_r8_contradicting_options_refused_naming_both(preset, overrides, names):
    with pytest.raises(RulesError) as info:
        Rules.preset(preset, **overrides)
    for name in names:
        assert name in str(info.value)


def test_r8_widow_mode_without_its_options_is_refused():
    with pytest.raises(RulesError, match="all_pass") as info:
        Rules(mode="widow", stock_exhausted=None)
    assert "mode=widow" in str(info.value)
    with pytest.raises(RulesError, match="stock_exhausted"):
        Rules(stock_exhausted=None)


# ---------------------------------------------------------------------------- unknown preset, option, value


@pytest.mark.parametrize("name", ["bridge", "Scat", "", None, 3])
def test_r8_unknown_preset(name):
    with pytest.raises(RulesError, match="unknown preset") as info:
        Rules.preset(name)
    message = str(info.value)
    for preset in EXPECTED:
        assert preset in message


def test_r8_unknown_option():
    with pytest.raises(RulesError, match="unknown option 'jokers'") as info:
        Rules.preset("scat", jokers=True)
    assert "three_of_a_kind" in str(info.value)
    with pytest.raises(RulesError, match="unknown option 'jokers'"):
        Rules.preset("widow").replace(jokers=True)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("mode", "both"),
        ("deck", 40),
        ("deck", 36),
        ("deck", 9),
        ("deck", 12),
        ("lives", 0),
        ("lives", 21),
        ("lives", True),
        ("grace_life", 2),
        ("three_of_a_kind", "31"),
        ("three_aces", "33"),
        ("straight_flush", None),
        ("knock_penalty", "bridge"),
        ("knock_from_round", 3),
        ("knock_from_round", 0),
        ("min_knock_value", -1),
        ("min_knock_value", 31),
        ("max_turns", 0),
        ("stock_exhausted", "loop"),
    ],
)
def test_r8_bad_option_value(option, value):
    with pytest.raises(RulesError) as info:
        Rules.preset("scat", **{option: value})
    assert option in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("option", ["mode", "three_of_a_kind", "knock_penalty"])
def test_r8_only_the_options_of_a_mode_may_be_none(option):
    # mode=None was blamed on stock_exhausted; knock_penalty=None was accepted
    choices = ", ".join(OPTIONS[option].choices)
    for make in (Rules, functools.partial(Rules.preset, "scat"), Rules().replace):
        with pytest.raises(RulesError, match=f"^option {option} is one of {choices}, not None$"):
            make(**{option: None})


@pytest.mark.parametrize(("option", "value"), [("all_pass", "sometimes"), ("exchange", "two"), ("dealer_hand", 2)])
def test_r8_bad_widow_option_value(option, value):
    with pytest.raises(RulesError) as info:
        Rules.preset("widow", **{option: value})
    assert option in str(info.value)


# ---------------------------------------------------------------------------- text options


def test_r8_with_text_options():
    rules = Rules.preset("scat").with_text_options(
        {"three_of_a_kind": "30.5", "throw_down": "on", "lives": "5", "knock_penalty": "namu"}
    )
    assert rules.options() == dict(
        EXPECTED["scat"], three_of_a_kind="30.5", throw_down=True, lives=5, knock_penalty="namu"
    )
    assert Rules.preset("scat").lives == 3


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on", True),
        ("off", False),
        ("true", True),
        ("false", False),
        ("yes", True),
        ("no", False),
        ("1", True),
        ("0", False),
        ("ON", True),
        (" Off ", False),
    ],
)
def test_r8_with_text_options_booleans(text, value):
    assert Rules.preset("scat").with_text_options({"straight_flush": text}).straight_flush is value


def test_r8_with_text_options_mode_and_none():
    rules = Rules.preset("scat").with_text_options({"mode": "widow", "all_pass": "new_widow"})
    assert (rules.mode, rules.all_pass, rules.exchange, rules.stock_exhausted) == (
        "widow",
        "new_widow",
        "one_or_all",
        None,
    )
    rules = Rules.preset("widow").with_text_options({"stock_exhausted": "none"})
    assert rules == Rules.preset("widow")


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"jokers": "on"}, ("jokers",)),
        ({"throw_down": "maybe"}, ("throw_down", "maybe")),
        ({"lives": "five"}, ("lives", "five")),
        ({"lives": "0"}, ("lives",)),
        ({"three_of_a_kind": "31"}, ("three_of_a_kind", "31")),
        ({"all_pass": "showdown"}, ("all_pass", "mode")),
        ({"knock_penalty": "none"}, ("knock_penalty",)),
    ],
)
def test_r8_with_text_options_errors(options, names):
    with pytest.raises(RulesError) as info:
        Rules.preset("scat").with_text_options(options)
    for name in names:
        assert name in str(info.value)


@pytest.mark.parametrize(("preset", "option", "value"), FITTING, ids=[_id(c) for c in FITTING])
def test_r8_text_option_round_trip(preset, option, value):
    spec = OPTIONS[option]
    rules = Rules.preset(preset).with_text_options({option: spec.format(value)})
    assert rules == Rules.preset(preset, **{option: value})


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("lives", "3", 3),
        ("grace_life", "yes", True),
        ("grace_life", "off", False),
        ("three_of_a_kind", 30, "30"),
        ("three_of_a_kind", 30.5, "30.5"),
        ("throw_down", "on", True),
        ("deck", "32", 32),
    ],
)
def test_r8_option_values_may_be_given_as_text_or_numbers(option, value, expected):
    assert getattr(Rules.preset("scat", **{option: value}), option) == expected


# ---------------------------------------------------------------------------- on/off options


ON_OFF = [name for name, spec in OPTIONS.items() if spec.kind == "bool"]


def numpy_on_off() -> list[tuple[object, bool]]:
    try:
        import numpy as np
    except ImportError:  # the core's tests also run without numpy
        return []
    return [(np.int64(1), True), (np.int64(0), False)]


NUMPY_ON_OFF = numpy_on_off()


@pytest.mark.parametrize("option", ON_OFF)
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        *[(True, True), (1, True), ("1", True), ("on", True), ("yes", True)],
        *[(False, False), (0, False), ("0", False), ("off", False), ("no", False)],
        *NUMPY_ON_OFF,
    ],
    ids=repr,
)
def test_r8_on_off_options_take_1_and_0_as_their_text_1_and_0(option: str, value: object, expected: bool) -> None:
    preset = "widow" if OPTIONS[option].mode == "widow" else "scat"
    assert getattr(Rules.preset(preset, **{option: value}), option) is expected
    assert getattr(Rules.preset(preset).replace(**{option: value}), option) is expected
    assert getattr(Rules(**{**PRESETS[preset].options(), option: value}), option) is expected


def test_r8_on_off_options_are_the_same_rules_whether_given_as_1_or_true() -> None:
    assert Rules.preset("scat", grace_life=1) == Rules.preset("scat", grace_life="1") == Rules.preset("scat")
    assert Rules(grace_life=0) == Rules(grace_life=False) == Rules.preset("scat", grace_life="0")
    assert Rules(grace_life=0).describe() == "scat, grace_life=off"


@pytest.mark.parametrize("value", [2, -1, 1.0, 0.5, "2", "maybe", "", None, [1]], ids=repr)
def test_r8_on_off_options_refuse_other_values_and_text_with_one_message(value: object) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("scat", grace_life=value)
    assert str(info.value) == f"option grace_life is on or off: give True or False (or 1 or 0), not {value!r}"
    with pytest.raises(RulesError) as direct:
        Rules(grace_life=value)  # type: ignore[arg-type]
    assert str(direct.value) == str(info.value)
    if isinstance(value, str):
        with pytest.raises(RulesError) as text:
            Rules.preset("scat").with_text_options({"grace_life": value})
        assert str(text.value) == str(info.value)
