"""Refusals as data: every refusal code of the engine, reached in a real game, carries its rule,
the seat that tried, the action, the cards and seats involved and the legal moves, and changes
nothing; the message is the library's English made from the same data."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

import pytest

from helpers import snapshot
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Position
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import parse_action
from thirtyone import parse_cards
from thirtyone.refusals import REFUSAL_RULES
from thirtyone.refusals import RefusalCode
from thirtyone.text import refusal_words
from thirtyone.views import Phase


def finished() -> Game:
    game = Game(Rules.preset("scat", lives=1), 2, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game


def drawn() -> Game:
    game = Game(Rules.preset("scat"), 3, seed=5)
    game.apply("draw pile")
    return game


def no_pile() -> Game:
    """A draw-mode position whose discard pile is empty (every card not held is in the stock)."""
    hands = ("Ah Kh 2c", "9s 8d 2h", "As Ks 3d")
    held = parse_cards(" ".join(hands))
    position = Position(
        rules=Rules.preset("scat"),
        dealer=2,
        to_move=0,
        phase=Phase.TURN,
        hands=tuple(parse_cards(hand) for hand in hands),
        stock=tuple(card for card in full_deck() if card not in held),
    )
    return Game.from_position(position, seed=1)


def widow_open() -> Game:
    return Game(Rules.preset("widow"), 3, seed=4)


def widow_up() -> Game:
    game = widow_open()
    game.apply("pass")
    return game


def schwimmen_turn() -> Game:
    game = Game(Rules.preset("schwimmen"), 3, seed=4)
    game.apply("keep")
    return game


CASES: list[tuple[RefusalCode, Callable[[], Game], Callable[[Game], str]]] = [
    ("game_over", finished, lambda game: "knock"),
    ("not_blind_phase", drawn, lambda game: "look"),
    ("must_look", lambda: Game(Rules.preset("scat", throw_down=True), 3, seed=1), lambda game: "draw stock"),
    ("not_dealer_choice", drawn, lambda game: "keep"),
    ("must_choose_hand", lambda: Game(Rules.preset("schwimmen"), 3, seed=4), lambda game: "pass"),
    ("must_discard", drawn, lambda game: "knock"),
    (
        "discard_not_in_hand",
        drawn,
        lambda game: f"discard {next(c for c in full_deck() if c not in game.hand(game.current_seat or 0))}",
    ),
    ("discard_taken_card", drawn, lambda game: f"discard {game.taken_from_pile}"),
    (
        "draw_first",
        lambda: Game(Rules.preset("scat"), 3, seed=5),
        lambda game: f"discard {game.hand(game.current_seat or 0)[0]}",
    ),
    ("draw_or_knock", lambda: Game(Rules.preset("scat"), 3, seed=5), lambda game: "pass"),
    ("pile_empty", no_pile, lambda game: "draw pile"),
    ("widow_turn", widow_up, lambda game: "draw stock"),
    (
        "widow_face_down",
        widow_open,
        lambda game: f"exchange {game.hand(game.current_seat or 0)[0]} for {game.widow[0]}",
    ),
    (
        "exchange_two_needs_any",
        widow_up,
        lambda game: "exchange {} {} for {} {}".format(*game.hand(game.current_seat or 0)[:2], *game.widow[:2]),
    ),
    ("exchange_not_in_hand", widow_up, lambda game: f"exchange {game.widow[1]} for {game.widow[0]}"),
    (
        "exchange_not_in_widow",
        widow_up,
        lambda game: f"exchange {game.hand(game.current_seat or 0)[0]} for {game.hand(game.current_seat or 0)[1]}",
    ),
    ("knock_too_early", schwimmen_turn, lambda game: "knock"),
    ("knock_too_low", lambda: Game(Rules.preset("scat", min_knock_value=30), 3, seed=5), lambda game: "knock"),
]


@pytest.mark.parametrize(("code", "make", "action"), CASES, ids=[case[0] for case in CASES])
def test_every_refusal_is_data(code: RefusalCode, make: Callable[[], Game], action: Callable[[Game], str]) -> None:
    game = make()
    move = action(game)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(move)
    error = refused.value
    assert error.code == code
    assert error.rule == REFUSAL_RULES[code]
    assert str(error).startswith(f"{error.rule}: ")
    assert str(error) == refusal_words(error)
    assert error.action == parse_action(move)
    assert error.legal == game.legal_actions()
    assert snapshot(game) == before
    if code != "game_over":
        assert error.seat == game.current_seat


def test_not_your_turn_has_its_rule_and_names_the_seat_to_move() -> None:
    game = Game(Rules.preset("scat"), 3, seed=5)
    to_move = game.current_seat
    assert to_move is not None
    other = (to_move + 1) % 3
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R2\.1: ") as refused:
        game.apply("draw stock", seat=other)
    assert (refused.value.code, refused.value.seat, refused.value.seats) == ("not_your_turn", other, (to_move,))
    assert str(refused.value) == f"R2.1: it is seat {to_move}'s turn, not seat {other}'s"
    assert snapshot(game) == before


def test_second_knock_names_the_knocker() -> None:
    game = Game(Rules.preset("scat"), 3, seed=5)
    knocker = game.current_seat
    game.apply("knock")
    with pytest.raises(IllegalActionError) as refused:
        game.apply("knock")
    assert (refused.value.code, refused.value.seats) == ("second_knock", (knocker,))
    assert refusal_words(refused.value, ["Ann", "Ben", "Cy"].__getitem__).startswith(
        f"R6.1: {['Ann', 'Ben', 'Cy'][knocker or 0]} has already knocked"
    )


def test_knock_too_low_carries_the_values() -> None:
    game = Game(Rules.preset("scat", min_knock_value=30), 3, seed=5)
    with pytest.raises(IllegalActionError) as refused:
        game.apply("knock")
    assert refused.value.values == (30, game.hand_value(game.current_seat or 0))


def test_refusals_survive_pickling() -> None:
    import pickle

    game = drawn()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(f"discard {game.taken_from_pile}")
    again = pickle.loads(pickle.dumps(refused.value))
    assert (str(again), again.code, again.cards, again.legal) == (
        str(refused.value), refused.value.code, refused.value.cards, refused.value.legal,
    )  # fmt: skip
    assert again.facts() == refused.value.facts()
    placed = refused.value.where("row 3")
    assert str(placed) == f"row 3: {refused.value}"
    assert (placed.code, placed.facts()) == (refused.value.code, refused.value.facts())


def test_r4_3_an_empty_stock_with_nothing_to_reshuffle_is_refused() -> None:
    """Unreachable in play (every stock draw puts a card on the pile, so an empty stock always
    leaves at least two there): the engine still refuses it with its rule, tested on a game whose
    pile is cut down by hand."""
    game = Game(Rules.preset("scat"), 3, seed=5)
    game._r.stock.clear()  # a state no deal reaches
    del game._r.discard_pile[:-1]
    assert "draw stock" not in map(str, game.legal_actions())
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as refused:
        game.apply("draw stock")
    assert (refused.value.code, refused.value.rule) == ("stock_empty", "R4.3")
    assert snapshot(game) == before


def test_every_refusal_code_is_reached() -> None:
    reached = {case[0] for case in CASES} | {"not_your_turn", "second_knock", "stock_empty"}
    reached |= {"chance_due", "no_chance_due"}  # explicit chance: tests/core/test_chance_steps.py
    assert reached == set(get_args(RefusalCode))
