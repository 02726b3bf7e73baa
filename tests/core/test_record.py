"""Game records (R3.5): the TOML format, the round trip through text and the engine, stepping
through a replay, and every kind of corrupt or illegal record giving a one-line RecordError."""

from __future__ import annotations

import dataclasses
import random
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import event
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from helpers import as_version
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.errors import RecordError
from thirtyone.record import FORMAT
from thirtyone.record import V1_OPTIONS
from thirtyone.record import VERSION
from thirtyone.record import GameRecord
from thirtyone.record import deal_commitment
from thirtyone.record import format_action
from thirtyone.record import parse_record_action
from thirtyone.rules import OPTIONS
from thirtyone.rules import PRESETS
from thirtyone.settlement import LOSS_KINDS
from thirtyone.text import loss_reason

DOCS = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"

# Options that can go on top of each mode's presets (all valid together).
DRAW_OPTIONS: dict[str, list[Any]] = {
    "three_of_a_kind": ["off", "30", "30.5"],
    "three_aces": [False, True],
    "straight_flush": [False, True],
    "knock_penalty": ["scat", "namu", "namu_risky", "widow", "plain"],
    "min_knock_value": [0, 21],
    "throw_down": [False, True],
    "max_turns": [200, 7],
    "stock_exhausted": ["reshuffle", "showdown"],
    "lives": [1, 2, 3],
    "grace_life": [True, False],
}
WIDOW_OPTIONS: dict[str, list[Any]] = {
    "three_of_a_kind": ["off", "30.5"],
    "knock_penalty": ["widow", "plain", "scat"],
    "all_pass": ["showdown", "new_widow"],
    "exchange": ["one_or_all", "any"],
    "knock_from_round": [1, 2],
    "max_turns": [200, 9],
    "lives": [1, 3],
}


# ---------------------------------------------------------------------------------------------- helpers


def play(game: Game, rng: random.Random, limit: int | None = None) -> list[int]:
    """Random legal play until the game is over or ``limit`` actions; returns the number of
    events after the deal and after each action (for comparing replays step by step)."""
    marks = [len(game.events)]
    while not game.is_over and (limit is None or len(marks) <= limit):
        game.apply(rng.choice(game.legal_actions()))
        marks.append(len(game.events))
    return marks


def random_game(preset: str, players: int, seed: int, limit: int | None = None, **options: Any) -> Game:
    game = Game(Rules.preset(preset, **options), players, seed=seed)
    play(game, random.Random(seed), limit)
    return game


def assert_same_game(replayed: Game, game: Game) -> None:
    assert replayed.events == game.events
    assert replayed.round_logs == game.round_logs
    assert replayed.standings == game.standings
    assert replayed.phase == game.phase
    assert replayed.current_seat == game.current_seat
    assert replayed.winner == game.winner
    assert replayed.legal_actions() == game.legal_actions()
    for seat in range(game.players):
        assert replayed.hand(seat) == game.hand(seat)
        assert replayed.remaining(seat) == game.remaining(seat)


def find_game(preset: str, wanted, players: int = 3, tries: int = 400, **options: Any) -> Game:
    """The first random game (seeds 0, 1, …) for which ``wanted(game)`` holds."""
    for seed in range(tries):
        game = random_game(preset, players, seed, **options)
        if wanted(game):
            return game
    raise AssertionError(f"no {preset} game found with the property wanted")


def split_rounds(text: str) -> list[str]:
    """The text before the first round, then each round's text (rejoin with ``join_rounds``)."""
    return text.split("\n[[rounds]]\n")


def join_rounds(parts: list[str]) -> str:
    return "\n[[rounds]]\n".join(parts)


def edit_round(text: str, number: int, old: str, new: str, count: int = 1) -> str:
    parts = split_rounds(text)
    assert old in parts[number], f"{old!r} not in round {number}"
    parts[number] = parts[number].replace(old, new, count)
    return join_rounds(parts)


def actions_of(text: str, number: int) -> list[str]:
    return tomllib.loads(text)["rounds"][number - 1]["actions"]


def set_actions(text: str, number: int, actions: list[str]) -> str:
    parts = split_rounds(text)
    body = "actions = [\n" + "".join(f'    "{a}",\n' for a in actions) + "]" if actions else "actions = []"
    parts[number] = re.sub(r"actions = \[\]|actions = \[\n(?:    .*\n)*\]", lambda _: body, parts[number], count=1)
    return join_rounds(parts)


def drop_outcome(text: str) -> str:
    return "\n".join(
        line for line in text.split("\n") if line != "[outcome]" and not line.startswith(("winner = ", "places = "))
    )


def record_error(text: str) -> str:
    """The message of the RecordError that loading and replaying ``text`` raises."""
    with pytest.raises(RecordError) as caught:
        GameRecord.loads(text).replay()
    message = str(caught.value)
    assert "\n" not in message, "a RecordError message is one line"
    return message


@pytest.fixture(scope="module")
def finished() -> Game:
    """A finished 3-player scat game of several rounds."""
    return find_game("scat", lambda g: len(g.round_logs) >= 3 and all(len(log.actions) > 4 for log in g.round_logs))


@pytest.fixture(scope="module")
def finished_text(finished: Game) -> str:
    return GameRecord.from_game(finished, ["Ann", "Ben", "Cy"]).dumps()


# ---------------------------------------------------------------------------------------------- the text


def test_dumps_writes_the_documented_keys(finished: Game, finished_text: str) -> None:
    lines = finished_text.splitlines()
    assert lines[0].startswith("#")
    assert lines[1] == f'format = "{FORMAT}"'
    assert lines[2] == "version = 3"
    data = tomllib.loads(finished_text)
    assert data["seats"] == ["Ann", "Ben", "Cy"]
    assert set(data["rules"]) == {"preset", *OPTIONS}
    assert data["rules"]["preset"] == "scat"
    assert data["rules"]["lives"] == 3
    assert data["rules"]["grace_life"] is True
    assert data["rules"]["all_pass"] == "none"
    assert len(data["rounds"]) == len(finished.round_logs)
    first = data["rounds"][0]
    log = finished.round_logs[0]
    assert first["round"] == 1
    assert first["dealer"] == log.dealer
    assert first["deck"] == " ".join(str(card) for card in log.deck)
    assert first["actions"] == [f"{seat}: {action}" for seat, action in log.actions]
    assert first["result"]["end"] == log.result.end
    assert first["result"]["remaining"] == list(log.result.remaining)
    assert data["outcome"] == {
        "winner": finished.winner,
        "places": [s.place for s in sorted(finished.standings, key=lambda s: s.seat)],
    }
    assert "event" not in data
    assert "comment" not in data


def test_v1_options_are_the_libraries_options() -> None:
    # A new option needs a default that keeps the old behaviour (docs/record-format.md, versioning).
    assert set(V1_OPTIONS) <= set(OPTIONS)


def test_default_seat_names_and_metadata(finished: Game) -> None:
    record = GameRecord.from_game(finished, event="Club night", date="2025-01-15", comment="first game")
    assert record.seats == ("seat 0", "seat 1", "seat 2")
    data = tomllib.loads(record.dumps())
    assert (data["event"], data["date"], data["comment"]) == ("Club night", "2025-01-15", "first game")
    assert GameRecord.loads(record.dumps()) == record


def test_strings_are_escaped(finished: Game) -> None:
    names = ['Ann "the Ace"', "back\\slash", "tab\there", "new\nline", "ctl\x01\x7f\x1b", "Jürgen ♠ 😀", "[bold]x[/]"]
    game = random_game("scat", len(names), 3, limit=10)
    comment = 'multi-line\ncomment with """ quotes """ and \\u0041 and \r\n'
    record = GameRecord.from_game(game, names, comment=comment, event="'single'", date="")
    text = record.dumps()
    assert tomllib.loads(text)["seats"] == names
    again = GameRecord.loads(text)
    assert again == record
    assert again.comment == comment
    assert again.date == ""


def test_lone_surrogate_is_refused(finished: Game) -> None:
    with pytest.raises(RecordError, match="seats: the name of seat 1: not valid Unicode"):
        GameRecord.from_game(finished, ["Ann", "B\ud800", "Cy"])


def test_seat_names_must_fit_the_players(finished: Game) -> None:
    with pytest.raises(RecordError, match="2 seat names for 3 players"):
        GameRecord.from_game(finished, ["Ann", "Ben"])


def test_a_toml_date_is_kept_as_text(finished_text: str) -> None:
    text = finished_text.replace("version = 3\n", "version = 3\ndate = 2025-01-15\n")
    assert GameRecord.loads(text).date == "2025-01-15"


def test_half_points_round_trip_exactly() -> None:
    # R1.4: 30½ is stored as 30.5 and read back as the exact Fraction(61, 2).
    def has_half(game: Game) -> bool:
        return any(value == Fraction(61, 2) for log in game.round_logs if log.result for value in log.result.values)

    game = find_game("schwimmen", has_half, players=5, tries=2000)
    text = GameRecord.from_game(game).dumps()
    assert "value = 30.5" in text
    record = GameRecord.loads(text)
    values = [v for result in record.results for v in result.values if v is not None]
    assert Fraction(61, 2) in values
    assert all(type(v) in (int, Fraction) for v in values)
    assert_same_game(record.replay(), game)


def test_rules_come_from_the_options_not_the_preset(finished_text: str) -> None:
    # A record is complete without presets: the options decide, the preset name is a label.
    text = finished_text.replace('preset = "scat"', 'preset = "my house rules"')
    record = GameRecord.loads(text)
    assert record.preset == "my house rules"
    assert record.rules == PRESETS["scat"]
    changed = finished_text.replace('knock_penalty = "scat"', 'knock_penalty = "namu"')
    assert GameRecord.loads(changed).rules.knock_penalty == "namu"


def test_parse_record_action() -> None:
    assert parse_record_action("2: draw stock") == (2, Draw("stock"))
    assert parse_record_action(" 1 :DISCARD td ") == (1, Discard(parse_cards("Td")[0]))
    assert format_action(1, Discard(parse_cards("Td")[0])) == "1: discard Td"
    for bad in ("draw stock", ": knock", "x: knock", "1: dance", "-1: knock", "١: knock"):
        with pytest.raises(RecordError):
            parse_record_action(bad)


# ---------------------------------------------------------------------------------------------- round trip


PRESET_NAMES = sorted(PRESETS)


@st.composite
def games(draw: st.DrawFn) -> Game:
    preset = draw(st.sampled_from(PRESET_NAMES))
    rules = Rules.preset(preset)
    table = DRAW_OPTIONS if rules.mode == "draw" else WIDOW_OPTIONS
    options = {key: draw(st.sampled_from(values)) for key, values in table.items() if draw(st.booleans())}
    if rules.deck == 8:  # the two-suited mini deck has no three of a kind (R1.4, R1.5)
        options.update(three_of_a_kind="off", three_aces=False)
    rules = rules.replace(**options)
    most = (rules.deck - rules.cards_spare()) // 3
    players = draw(st.integers(2, min(6, most)))
    seed = draw(st.integers(0, 2**32))
    limit = draw(st.one_of(st.none(), st.integers(0, 80)))
    game = Game(rules, players, seed=seed)
    play(game, random.Random(seed), limit)
    return game


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_round_trip_reproduces_the_game(game: Game) -> None:
    event(f"{game.rules.describe().split(',')[0]} {'finished' if game.is_over else 'unfinished'}")
    record = GameRecord.from_game(game, [f"p{seat}" for seat in range(game.players)], event="hypothesis")
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again == record
    assert again.dumps() == text
    assert again.is_finished == game.is_over
    assert again.action_count == sum(len(log.actions) for log in game.round_logs)
    assert_same_game(again.replay(), game)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_round_trip_every_preset(preset: str, players: int) -> None:
    if players > 2 and Rules.preset(preset).deck == 8:
        pytest.skip("the mini deck deals two players")
    for seed in range(4):
        for limit in (None, 0, 1, 25):
            game = random_game(preset, players, seed, limit)
            replayed = GameRecord.loads(GameRecord.from_game(game).dumps()).replay()
            assert_same_game(replayed, game)


def test_replay_steps_and_upto(finished: Game) -> None:
    game = Game(finished.rules, finished.players, seed=11)
    marks = play(game, random.Random(11))
    record = GameRecord.loads(GameRecord.from_game(game).dumps())
    steps = [len(step.events) for step in record.replay_steps()]
    assert steps == marks
    assert len(steps) == record.action_count + 1
    for upto in (0, 1, 2, len(marks) // 2, len(marks) - 2):
        replayed = record.replay(upto=upto)
        assert replayed.events == game.events[: marks[upto]]
        assert sum(len(log.actions) for log in replayed.round_logs) == upto
    assert record.replay(upto=10**6).events == game.events
    with pytest.raises(RecordError, match="upto"):
        record.replay(upto=-1)


def test_unfinished_game_mid_turn() -> None:
    # Stopped after a draw, before the discard: the replay waits for the same discard.
    game = Game(Rules.preset("scat"), 3, seed=5)
    rng = random.Random(5)
    while not game.is_over and (game.round < 2 or game.phase.value != "discard"):
        game.apply(rng.choice(game.legal_actions()))
    record = GameRecord.loads(GameRecord.from_game(game).dumps())
    assert not record.is_finished
    assert record.rounds[-1].result is None
    assert record.winner is None
    replayed = record.replay()
    assert_same_game(replayed, game)
    assert replayed.phase.value == "discard"


# ---------------------------------------------------------------------------------------------- docs


def docs_example() -> str:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"```toml\n(.*?)```", text, re.DOTALL)
    assert found, "docs/record-format.md has a ```toml example"
    return found.group(1)


def test_docs_example_replays() -> None:
    example = docs_example()
    record = GameRecord.loads(example)
    game = record.replay()
    assert game.is_over
    assert game.winner == record.winner
    assert record.dumps() == example, "the example is written exactly as GameRecord.dumps writes it"
    kinds = {result.end for result in record.results}
    assert {"dealt_blitz", "blitz", "knock"} <= kinds


# ---------------------------------------------------------------------------------------------- errors


def test_malformed_toml(finished_text: str) -> None:
    assert record_error(finished_text.replace("version = 3", "version = = 1")).startswith("not valid TOML")
    assert record_error("[[rounds]\n").startswith("not valid TOML")
    assert record_error("x = " + "[" * 100_000 + "]" * 100_000) == (
        "not valid TOML: arrays or tables nested too deeply"
    )


def test_not_a_record() -> None:
    assert "not a thirtyone record" in record_error('title = "x"\n')
    assert "not a thirtyone record" in record_error('format = "pgn"\nversion = 1\n')


def test_unknown_version(finished_text: str) -> None:
    message = record_error(finished_text.replace("version = 3", f"version = {VERSION + 1}"))
    assert message == (
        f"record version {VERSION + 1} is not supported: this thirtyone reads versions 1, 2, 3; upgrade thirtyone"
    )
    assert "must be a whole number" in record_error(finished_text.replace("version = 3", 'version = "1"'))


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("version = 3\n", "missing key 'version'"),
        ("seats = [", "missing key 'seats'"),
        ("lives = 3\n", "rules: missing key 'lives'"),
        ("preset = ", "rules: missing key 'preset'"),
    ],
)
def test_missing_top_level_keys(finished_text: str, line: str, where: str) -> None:
    text = "\n".join(row for row in finished_text.split("\n") if not (row + "\n").startswith(line))
    assert where in record_error(text)


def test_missing_round_keys(finished_text: str) -> None:
    parts = split_rounds(finished_text)
    deck_line = next(line for line in parts[2].split("\n") if line.startswith("deck = "))
    assert record_error(edit_round(finished_text, 2, deck_line + "\n", "")) == "round 2: missing key 'deck'"
    assert record_error(edit_round(finished_text, 1, "\nend = ", "\nfinish = ")).startswith(
        "round 1: result: unknown key 'finish'"
    )
    no_end = edit_round(finished_text, 3, 'end = "', 'xend = "')
    assert "round 3: result: unknown key 'xend'" in record_error(no_end)
    renamed = finished_text.replace("[[rounds]]", "[[games]]").replace("[rounds.result]", "[games.result]")
    assert record_error(renamed).startswith("unknown key 'games'")


def test_unknown_keys_are_refused(finished_text: str) -> None:
    assert record_error(finished_text.replace("version = 3\n", "version = 3\nsite = 'x'\n")).startswith(
        "unknown key 'site'"
    )
    assert "rules: unknown key 'jokers'" in record_error(
        finished_text.replace("deck = 52\n", "deck = 52\njokers = 2\n")
    )


def test_bad_rules(finished_text: str) -> None:
    assert record_error(finished_text.replace("lives = 3", "lives = 0")) == (
        "rules: option lives is a whole number from 1 to 20, not 0"
    )
    assert record_error(finished_text.replace("lives = 3", "lives = true")) == (
        "rules: lives must be a whole number, not true"
    )
    for text in ('"maybe"', '"yes"', '"on"', '"true"', "1"):  # the format says boolean: true or false only
        assert record_error(finished_text.replace("grace_life = true", f"grace_life = {text}")) == (
            f"rules: grace_life must be true or false, not {'1' if text == '1' else repr(text.strip(chr(34)))}"
        )
    contradiction = finished_text.replace('exchange = "none"', 'exchange = "any"')
    assert record_error(contradiction).startswith("rules: option exchange=any needs mode=widow")


def test_too_many_seats_for_the_deck(finished_text: str) -> None:
    text = finished_text.replace('seats = ["Ann", "Ben", "Cy"]', "seats = [" + ", ".join(['"x"'] * 10) + "]")
    assert record_error(text).startswith("seats: R2.1: 10 players cannot play")


def test_bad_card_text(finished_text: str) -> None:
    deck = tomllib.loads(finished_text)["rounds"][1]["deck"]
    broken = deck.replace(deck.split()[5], "Xx", 1)
    message = record_error(finished_text.replace(deck, broken))
    assert message.startswith("round 2: deck: cannot read card 'Xx'")


def test_deck_not_a_permutation(finished_text: str) -> None:
    deck = tomllib.loads(finished_text)["rounds"][1]["deck"]
    cards = deck.split()
    repeated = " ".join([*cards[:-1], cards[0]])
    message = record_error(finished_text.replace(deck, repeated))
    assert message.startswith("round 2: the deck order is not a permutation of its cards")
    assert f"missing {cards[-1]}" in message
    assert f"repeated {cards[0]}" in message
    short = " ".join(cards[:-1])
    assert "51 cards for 52" in record_error(finished_text.replace(deck, short))


def test_bad_action_text(finished_text: str) -> None:
    actions = actions_of(finished_text, 2)
    first = actions[2]
    message = record_error(set_actions(finished_text, 2, [*actions[:2], "1: dance", *actions[3:]]))
    assert message.startswith('round 2, action 3 ("1: dance"): cannot read action')
    message = record_error(set_actions(finished_text, 2, [*actions[:2], first.split(": ")[1], *actions[3:]]))
    assert message.startswith("round 2, action 3 (")
    assert 'write an action as "SEAT: ACTION"' in message


def test_seat_prefix_must_be_the_seat_to_move(finished_text: str) -> None:
    actions = actions_of(finished_text, 2)
    seat, action = actions[0].split(": ")
    wrong = str((int(seat) + 1) % 3)
    message = record_error(set_actions(finished_text, 2, [f"{wrong}: {action}", *actions[1:]]))
    assert message == f"round 2, action 1 (\"{wrong}: {action}\"): R2.1: it is seat {seat}'s turn, not seat {wrong}'s"
    message = record_error(set_actions(finished_text, 2, [f"7: {action}", *actions[1:]]))
    assert message == f'round 2, action 1 ("7: {action}"): 7 is not a seat (seats 0-2)'


def test_illegal_action_names_the_rule() -> None:
    # R4.2: the card just taken from the discard pile may not be discarded on the same turn.
    def takes_from_pile(game: Game) -> bool:
        return any(action == Draw("pile") for log in game.round_logs[1:] for _, action in log.actions)

    game = find_game("scat", takes_from_pile)
    text = GameRecord.from_game(game).dumps()
    for number, log in enumerate(game.round_logs, 1):
        events = list(log.actions)
        hits = [i for i, (_, action) in enumerate(events) if action == Draw("pile")]
        if number > 1 and hits:
            break
    index = hits[0]
    pile_top = _pile_top_before(game, number, index)
    seat = events[index][0]
    actions = actions_of(text, number)
    actions[index + 1] = f"{seat}: discard {pile_top}"
    message = record_error(set_actions(text, number, actions))
    assert message == (
        f'round {number}, action {index + 2} ("{seat}: discard {pile_top}"): '
        f"R4.2: cannot discard the card just taken from the discard pile ({pile_top}); discard another"
    )


def _pile_top_before(game: Game, number: int, index: int) -> str:
    """The discard pile's top card before action ``index`` (0-based) of round ``number``."""
    record = GameRecord.from_game(game)
    upto = sum(len(r.actions) for r in record.rounds[: number - 1]) + index
    replayed = record.replay(upto=upto)
    return str(replayed.discard_pile[-1])


def test_knock_refused_names_r6_1(finished_text: str) -> None:
    data = tomllib.loads(finished_text)
    found = [
        (number, rnd["actions"], index + 1)
        for number, rnd in enumerate(data["rounds"], 1)
        for index, text in enumerate(rnd["actions"][:-1])
        if text.endswith(": knock")
    ]
    assert found, "the game has a knock with a turn after it"
    number, actions, i = found[0]
    seat = actions[i].split(":")[0]
    actions[i] = f"{seat}: knock"
    message = record_error(set_actions(finished_text, number, actions))
    assert message.startswith(f'round {number}, action {i + 1} ("{seat}: knock"): R6.1: ')


def test_recorded_result_differs(finished: Game, finished_text: str) -> None:
    result = finished.round_logs[0].result
    remaining = "remaining = [" + ", ".join(map(str, result.remaining)) + "]"
    changed = "remaining = [" + ", ".join(str(n + 1) for n in result.remaining) + "]"
    message = record_error(edit_round(finished_text, 1, remaining, changed))
    assert message.startswith("round 1: the recorded result differs from the replay: remaining:")
    loss = result.losses[0]
    old = f"{{ seat = {loss.seat}, lives = {loss.lives}, kind = "
    new = f"{{ seat = {loss.seat}, lives = {loss.lives + 1}, kind = "
    message = record_error(edit_round(finished_text, 1, old, new))
    assert message.startswith("round 1: the recorded result differs from the replay: losses:")
    named = f", naming seat {', '.join(map(str, loss.seats))}" if loss.seats else ""
    assert f"the record says seat {loss.seat} lost {loss.lives + 1} ({loss.rule} {loss.kind}{named})" in message
    turns = f"turns = {result.turns}\n"
    message = record_error(edit_round(finished_text, 1, turns, f"turns = {result.turns + 3}\n"))
    assert message == (
        f"round 1: the recorded result differs from the replay: turns: the record says {result.turns + 3}, "
        f"the replay {result.turns}"
    )


def test_loss_reasons_are_free_text(finished: Game, finished_text: str) -> None:
    result = finished.round_logs[0].result
    reason = loss_reason(result.losses[0], result)
    text = edit_round(finished_text, 1, f'reason = "{reason}"', 'reason = "bad luck"')
    assert GameRecord.loads(text).replay().events == finished.events


def test_wrong_dealer(finished: Game, finished_text: str) -> None:
    dealer = finished.round_logs[1].dealer
    other = (dealer + 1) % 3
    message = record_error(edit_round(finished_text, 2, f"dealer = {dealer}\n", f"dealer = {other}\n"))
    assert message == f"round 2: the record says dealer {other}, but the deal passes to seat {dealer} (R3.1)"


def test_trailing_actions_after_a_round(finished_text: str) -> None:
    actions = actions_of(finished_text, 1)
    message = record_error(set_actions(finished_text, 1, [*actions, actions[-1]]))
    assert message.startswith(f'round 1, action {len(actions) + 1} ("{actions[-1]}"): the round already ended')
    assert "trailing actions" in message


def test_trailing_actions_after_the_game(finished: Game, finished_text: str) -> None:
    last = len(finished.round_logs)
    actions = actions_of(finished_text, last)
    message = record_error(set_actions(finished_text, last, [*actions, "0: knock"]))
    assert message.startswith(f'round {last}, action {len(actions) + 1} ("0: knock"): the round already ended')
    assert "the game is over" in message


def test_extra_round_after_the_game(finished: Game, finished_text: str) -> None:
    parts = split_rounds(finished_text)
    last = len(parts) - 1
    extra = parts[last].replace(f"round = {last}\n", f"round = {last + 1}\n", 1)
    message = record_error(join_rounds([*parts, extra]))
    assert message.startswith(f"round {last + 1}: the game ended after round {last}")


def test_actions_missing(finished_text: str) -> None:
    actions = actions_of(finished_text, 1)
    message = record_error(set_actions(finished_text, 1, actions[:-1]))
    assert message.startswith(f"round 1: actions missing: the record ends the round after {len(actions) - 1} actions")


def test_round_missing(finished: Game, finished_text: str) -> None:
    parts = split_rounds(finished_text)
    last = len(parts) - 1
    message = record_error(join_rounds(parts[:-1]))
    assert message.startswith(f"round {last - 1}, action ")
    assert f"the record has no round {last} (rounds missing)" in message
    # A middle round taken out: the numbers no longer follow.
    assert record_error(join_rounds([*parts[:2], *parts[3:]])) == (
        "round 2: its number is 3; rounds are numbered 1, 2, 3 … in order"
    )


def test_round_without_result_before_the_last(finished_text: str) -> None:
    parts = split_rounds(finished_text)
    parts[1] = parts[1].split("\n[rounds.result]\n")[0]
    assert record_error(join_rounds(parts)) == "round 1: no result, but only the last round may be unfinished"


def test_result_missing_where_the_replay_ends_the_round(finished: Game, finished_text: str) -> None:
    parts = split_rounds(finished_text)
    parts[-1] = parts[-1].split("\n[rounds.result]\n")[0] + "\n"
    parts[0] = drop_outcome(parts[0])
    last = len(parts) - 1
    message = record_error(join_rounds(parts))
    assert message.startswith(f"round {last}: the replay ends the round (")
    assert message.endswith("but the record gives no result")


def test_outcome_checked(finished: Game, finished_text: str) -> None:
    other = next(seat for seat in range(3) if seat != finished.winner)
    message = record_error(finished_text.replace(f"winner = {finished.winner}", f"winner = {other}"))
    assert message == f"outcome: the record says seat {other} won, the replay seat {finished.winner} (R2.5)"
    no_outcome = drop_outcome(finished_text)
    assert record_error(no_outcome).startswith("outcome: missing: the game is over")
    places = re.search(r"places = \[.*\]", finished_text).group(0)
    assert record_error(finished_text.replace(places, "places = [1, 1, 1]")).startswith(
        "outcome: the record gives places [1, 1, 1]"
    )


def test_outcome_on_an_unfinished_game() -> None:
    game = random_game("scat", 3, 4, limit=12)
    text = GameRecord.from_game(game).dumps()
    text = text.replace("\n[[rounds]]\n", "\n[outcome]\nwinner = 1\nplaces = [2, 1, 2]\n\n[[rounds]]\n", 1)
    # The last round of an unfinished game has no result, so the outcome cannot be right.
    assert record_error(text).startswith("outcome: the game is over, but round")


def reshuffled_game() -> Game:
    """A finished round with one reshuffle: nobody knocks until the stock has been reshuffled."""
    for seed in range(200):
        game = Game(Rules.preset("scat"), 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.round == 1:
            actions = game.legal_actions()
            if game.round_logs[-1].reshuffles and Knock() in actions:
                game.apply(Knock())
            else:
                game.apply(rng.choice([a for a in actions if a != Knock()]))
        if game.round_logs[0].result is not None and len(game.round_logs[0].reshuffles) == 1:
            return game
    raise AssertionError("no game with a reshuffle found")


def test_reshuffles_checked() -> None:
    # R4.3: a reshuffle order missing, extra, or not a permutation of the discard pile.
    game = reshuffled_game()
    number = next(i for i, log in enumerate(game.round_logs, 1) if len(log.reshuffles) == 1 and log.result)
    log = game.round_logs[number - 1]
    text = GameRecord.from_game(game).dumps()
    order = " ".join(map(str, log.reshuffles[0]))
    block = f'reshuffles = [\n    "{order}",\n]'
    assert block in text
    missing = record_error(edit_round(text, number, block, "reshuffles = []"))
    assert re.match(rf'round {number}, action \d+ \("\d: draw stock"\): ', missing)
    assert missing.endswith("the stock is empty and the record gives no order for reshuffle 1 (R4.3)")
    extra = record_error(edit_round(text, number, block, f'reshuffles = ["{order}", "{order}"]'))
    assert extra == f"round {number}: the record gives 2 reshuffle order(s), but the replay reshuffled 1 time(s) (R4.3)"
    cards = order.split()
    bad = " ".join([*cards[:-1], cards[0]])
    message = record_error(edit_round(text, number, block, f'reshuffles = ["{bad}"]'))
    assert re.match(rf'round {number}, action \d+ \("\d: draw stock"\): reshuffle 1 is not a permutation', message)
    unreadable = record_error(edit_round(text, number, block, 'reshuffles = ["As Qq"]'))
    assert unreadable.startswith(f"round {number}: reshuffle 1: cannot read card 'Qq'")


def test_extra_reshuffle_in_an_unfinished_round(finished_text: str) -> None:
    game = random_game("scat", 3, 8, limit=5)
    assert game.round_logs[-1].result is None
    assert not game.round_logs[-1].reshuffles
    text = GameRecord.from_game(game).dumps()
    number = len(game.round_logs)
    extra = edit_round(text, number, "reshuffles = []", 'reshuffles = ["As Ks"]')
    assert record_error(extra) == (
        f"round {number}: the record gives 1 reshuffle order(s), but the replay reshuffled 0 time(s) (R4.3)"
    )
    # Stepping only part of the way does not need the end of the round.
    stepped = GameRecord.loads(extra).replay(upto=2)
    assert sum(len(log.actions) for log in stepped.round_logs) == 2


def test_unknown_round_end(finished_text: str) -> None:
    parts = split_rounds(finished_text)
    parts[1] = re.sub(r'\nend = "\w+"', '\nend = "timeout"', parts[1])
    message = record_error(join_rounds(parts))
    assert message.startswith("round 1: result: end must be one of all_pass, blitz, dealt_blitz,")
    assert message.endswith("not 'timeout'")


def test_wrong_types(finished_text: str) -> None:
    parts = split_rounds(finished_text)
    dealer = re.search(r"dealer = \d", parts[1]).group(0)
    assert record_error(edit_round(finished_text, 1, dealer, 'dealer = "two"')) == (
        "round 1: dealer must be a whole number, not 'two'"
    )
    assert (
        record_error(edit_round(finished_text, 1, dealer, "dealer = 9")) == "round 1: dealer must be from 0 to 2, not 9"
    )
    assert (
        record_error(finished_text.replace('seats = ["Ann"', "seats = [1")) == "seats[0] must be text in quotes, not 1"
    )
    turns = re.search(r"turns = \d+", parts[1]).group(0)
    assert record_error(edit_round(finished_text, 1, turns, "turns = -1")) == (
        "round 1: result: turns must be at least 0, not -1"
    )
    assert "saved_by_r2_6 must be true or false" in record_error(
        edit_round(finished_text, 1, "saved_by_r2_6 = false", "saved_by_r2_6 = 0")
    )
    assert "rounds must be an array" in record_error(
        finished_text.split("\n[[rounds]]\n")[0].replace("version = 3\n", "version = 3\nrounds = 3\n")
    )
    assert "value must be a whole number or a half" in record_error(
        re.sub(r"value = (\d+) }", r"value = \1.25 }", finished_text, count=1)
    )


def test_empty_rounds(finished_text: str) -> None:
    head = drop_outcome(split_rounds(finished_text)[0]).replace("version = 3\n", "version = 3\nrounds = []\n")
    assert record_error(head).startswith("rounds: a record has at least one round")


def test_dealt_blitz_round_with_actions_is_trailing() -> None:
    def dealt(game: Game) -> bool:
        return any(log.result and log.result.end == "dealt_blitz" for log in game.round_logs[:-1])

    game = find_game("scat", dealt, players=5, tries=3000)
    number = next(i for i, log in enumerate(game.round_logs, 1) if log.result and log.result.end == "dealt_blitz")
    text = GameRecord.from_game(game).dumps()
    message = record_error(set_actions(text, number, ["0: knock"]))
    assert message.startswith(f'round {number}, action 1 ("0: knock"): the round already ended on the deal')


@settings(max_examples=150)
@given(st.data())
def test_corrupted_text_gives_only_record_errors(finished_text: str, data: st.DataObject) -> None:
    # Whatever is done to a record's text, reading and replaying it either works or raises RecordError.
    lines = finished_text.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["drop", "repeat", "char", "swap"]))
        if kind == "drop":
            del lines[index]
        elif kind == "repeat":
            lines.insert(index, lines[index])
        elif kind == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        elif lines[index]:
            at = data.draw(st.integers(0, len(lines[index]) - 1))
            char = data.draw(st.sampled_from(list('0123456789"[]{},=.:- \\AsTdKhx\t')))
            lines[index] = lines[index][:at] + char + lines[index][at + 1 :]
    message = ""
    try:
        GameRecord.loads("\n".join(lines)).replay()
    except RecordError as error:
        message = str(error)
    assert "\n" not in message


def test_commitments_need_version_2_or_later(finished: Game) -> None:
    record = GameRecord.from_game(finished)
    salt = "0f" * 32
    rounds = tuple(
        dataclasses.replace(rnd, salt=salt, commitment=deal_commitment(salt, rnd.deck)) for rnd in record.rounds
    )
    committed = dataclasses.replace(record, rounds=rounds)
    text = committed.dumps()
    assert "version = 3\n" in text
    assert GameRecord.loads(text) == committed
    assert GameRecord.loads(text).check_commitments() == len(rounds)
    message = record_error(as_version(text, 1))
    assert message == "round 1: commitment and salt are keys of version 2 and later; write version = 3"
    assert GameRecord.loads(as_version(text, 2)) == committed


def test_older_versions_are_read_and_their_loss_kinds_worked_out() -> None:
    """Versions 1 and 2 wrote a loss's rule and English only: the kind (and the seats it names)
    is worked out from the result, for every kind the engine charges."""
    seen: set[str] = set()
    for preset in PRESETS:
        for penalty in ("scat", "namu", "namu_risky", "widow", "plain"):
            for seed in range(12):
                rules = Rules.preset(preset, knock_penalty=penalty, lives=2, max_turns=200 if seed % 4 else 9)
                game = Game(rules, 3 + seed % 3 if rules.deck > 8 else 2, seed=seed)  # mini deals two
                policy = random.Random(seed)
                while not game.is_over:
                    game.apply(policy.choice(game.legal_actions()))
                record = GameRecord.from_game(game)
                for version in (1, 2):
                    old = GameRecord.loads(as_version(record.dumps(), version))
                    assert old == record, (preset, penalty, seed, version)
                seen |= {loss.kind for result in record.results for loss in result.losses}
    assert seen >= set(LOSS_KINDS) - {"dealt_blitz_beaten", "lowest_stock_out"}


def test_a_version_3_loss_names_a_known_kind(finished_text: str) -> None:
    kind = re.search(r', kind = "([a-z_]+)"', finished_text)
    assert kind is not None
    message = record_error(finished_text.replace(f', kind = "{kind.group(1)}"', ', kind = "bad_luck"', 1))
    assert "kind must be one of blitz, dealt_blitz" in message
    assert "not 'bad_luck'" in message


def test_a_loss_naming_other_seats_shows_them_in_a_mismatch(finished: Game, finished_text: str) -> None:
    match = re.search(r'\{ seat = (\d), lives = (\d), kind = "lowest", rule', finished_text)
    assert match is not None
    old = match.group(0)
    new = old.replace('kind = "lowest", rule', 'kind = "lowest", seats = [2], rule')
    message = record_error(finished_text.replace(old, new, 1))
    assert f"the record says seat {match.group(1)} lost {match.group(2)} (R6.5 lowest, naming seat 2)" in message


def test_a_record_read_from_an_older_version_says_so(finished_text: str) -> None:
    assert GameRecord.loads(finished_text).read_version == 3
    old = GameRecord.loads(as_version(finished_text, 1))
    assert old.read_version == 1
    assert old == GameRecord.loads(finished_text)  # the version read is no part of the record's equality


def test_every_seat_has_a_name(finished_text: str) -> None:
    assert record_error(finished_text.replace('seats = ["Ann"', 'seats = [" "', 1)) == (
        "seats: the name of seat 0 is empty; give every seat a name"
    )


def test_array_entries_in_messages_count_from_0_as_seats_do(finished_text: str) -> None:
    assert record_error(finished_text.replace('"Ben"', "7", 1)) == "seats[1] must be text in quotes, not 7"
    shown = re.search(r"shown = \[\n    \{ seat = \d", finished_text)
    assert shown is not None
    message = record_error(finished_text.replace(shown.group(0), shown.group(0)[:-1] + '"x"', 1))
    assert message == "round 1: result: shown[0]: seat must be a whole number, not 'x'"
    loss = re.search(r"losses = \[\n    \{ seat = \d, lives = \d", finished_text)
    assert loss is not None
    message = record_error(finished_text.replace(loss.group(0), loss.group(0)[:-1] + "true", 1))
    assert re.fullmatch(r"round \d+: result: losses\[0\]: lives must be a whole number, not true", message)
    remaining = re.search(r"remaining = \[\d", finished_text)
    assert remaining is not None
    message = record_error(finished_text.replace(remaining.group(0), remaining.group(0)[:-1] + '"3"', 1))
    assert message == "round 1: result: remaining[0] must be a whole number, not '3'"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b"x", r"^a game record is text \(str\), not bytes: decode it first"),
        (bytearray(b"x"), r"^a game record is text \(str\), not bytes: decode it first"),
        (None, r"^a game record is text \(str\), not None: pass the TOML text of a record$"),
        (3, r"^a game record is text \(str\), not 3: "),
    ],
)
def test_loads_refuses_what_is_not_text(text: object, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        GameRecord.loads(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["x", None, 3])
def test_from_game_refuses_what_is_not_a_game(game: object) -> None:
    with pytest.raises(RecordError, match=rf"^GameRecord.from_game needs a Game \(the game to record\), not {game!r}$"):
        GameRecord.from_game(game, ["a", "b"])  # type: ignore[arg-type]


def test_from_game_refuses_seats_that_are_not_a_list_of_names(finished: Game) -> None:
    for seats in ("ABC", b"ABC", 3):
        with pytest.raises(RecordError, match=r"^seats is a list of names \(\["):
            GameRecord.from_game(finished, seats)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^seats: the name of seat 2: must be text, not 7$"):
        GameRecord.from_game(finished, ["Ann", "Ben", 7])  # type: ignore[list-item]
    with pytest.raises(RecordError, match=r"^event: must be text, not 5$"):
        GameRecord.from_game(finished, event=5)  # type: ignore[arg-type]
    assert GameRecord.from_game(finished, iter(["Ann", "Ben", "Cy"])).seats == ("Ann", "Ben", "Cy")


@pytest.mark.parametrize("upto", [-1, "3", 1.5, True])
def test_replay_refuses_an_upto_that_is_not_a_count_of_actions(finished: Game, upto: object) -> None:
    record = GameRecord.from_game(finished)
    with pytest.raises(RecordError, match=r"^upto is a whole number of actions from 0 \(or None for all\), not "):
        record.replay(upto=upto)  # type: ignore[arg-type]


def test_a_salt_missing_from_an_ended_round_is_not_called_unrevealed(finished: Game) -> None:
    record = GameRecord.from_game(finished)
    salt = "0f" * 32
    rounds = tuple(
        dataclasses.replace(rnd, salt=None if rnd.round == 1 else salt, commitment=deal_commitment(salt, rnd.deck))
        for rnd in record.rounds
    )
    with pytest.raises(RecordError, match=r"^round 1: the salt is missing, though the round ended and revealed it$"):
        dataclasses.replace(record, rounds=rounds).check_commitments()
