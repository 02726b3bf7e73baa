"""R4: a turn in draw mode (R4.1–R4.4): draw and discard or knock, the pile-card rule, the
empty stock, and what a player sees of the discard pile."""

from __future__ import annotations

import dataclasses

import pytest

from helpers import FallbackChance
from helpers import deck_order
from helpers import scripted_game
from helpers import snapshot
from thirtyone import Acted
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Knock
from thirtyone import Pass
from thirtyone import Reshuffled
from thirtyone import RoundEnded
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.views import Phase

SCAT = Rules.preset("scat")
NAMU = Rules.preset("namu")


def c(text: str) -> Card:
    return Card.parse(text)


def visible_outside_history(view) -> str:
    """The text of every field of a view except the event history."""
    return " ".join(
        repr(getattr(view, f.name)) for f in dataclasses.fields(view) if f.name not in ("history", "events", "span")
    )


def three_player_game(rules: Rules = SCAT) -> Game:
    """Dealer 0; seat 1 plays first. Upcard 9c; the stock starts Jd Qs 3c."""
    return scripted_game(
        rules,
        3,
        0,
        {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "2h 4s 6c"},
        upcard="9c",
        stock="Jd Qs 3c",
    )


# ---------------------------------------------------------------------------- R4.1 the turn


def test_r4_1_turn_is_draw_stock_draw_pile_or_knock():
    game = three_player_game()
    assert game.phase is Phase.TURN
    assert game.current_seat == 1
    assert set(game.legal_actions()) == {Draw("stock"), Draw("pile"), Knock()}
    assert game.view(1).legal_actions == game.legal_actions()
    assert game.view(2).legal_actions == ()


def test_r4_1_draw_from_stock_then_discard():
    game = three_player_game()
    game.apply("draw stock")
    assert game.hand(1) == parse_cards("2c 4d 6h Jd")
    assert game.phase is Phase.DISCARD
    assert game.current_seat == 1
    assert game.stock_size == 52 - 10 - 1
    assert set(game.legal_actions()) == {Discard(card) for card in parse_cards("2c 4d 6h Jd")}
    game.apply("discard 2c")
    assert game.hand(1) == parse_cards("4d 6h Jd")
    assert game.discard_pile == parse_cards("9c 2c")
    assert game.phase is Phase.TURN
    assert game.current_seat == 2
    assert game.turn == 1


def test_r4_1_draw_from_pile_takes_its_top_card():
    game = three_player_game()
    game.apply("draw pile")
    assert game.hand(1) == parse_cards("2c 4d 6h 9c")
    assert game.discard_pile == ()
    assert game.stock_size == 42
    game.apply("discard 2c")
    assert game.discard_pile == parse_cards("2c")
    assert game.hand(1) == parse_cards("4d 6h 9c")


def test_r4_1_knock_instead_of_drawing():
    game = three_player_game()
    game.apply("knock")
    assert game.knocker == 1
    assert game.hand(1) == parse_cards("2c 4d 6h")
    assert game.discard_pile == parse_cards("9c")
    assert game.stock_size == 42
    assert game.current_seat == 2
    assert game.phase is Phase.TURN


def test_r4_1_must_draw_before_discarding():
    game = three_player_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.1"):
        game.apply("discard 2c")
    assert snapshot(game) == before


def test_r4_1_cannot_knock_or_draw_again_after_drawing():
    game = three_player_game()
    game.apply("draw stock")
    before = snapshot(game)
    for action in (Knock(), Draw("stock"), Draw("pile")):
        with pytest.raises(IllegalActionError, match=r"^R4\.1"):
            game.apply(action)
        assert not game.is_legal(action)
        assert snapshot(game) == before


def test_r4_1_cannot_discard_a_card_not_in_hand():
    game = three_player_game()
    game.apply("draw stock")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.1"):
        game.apply("discard As")
    assert snapshot(game) == before


@pytest.mark.parametrize("action", [Pass(), ExchangeAll(), "exchange 2c for 9c", "keep", "look"])
def test_r4_1_widow_and_other_actions_are_not_draw_mode_turns(action):
    game = three_player_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert snapshot(game) == before


def test_r4_1_only_the_current_seat_may_act():
    game = three_player_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="seat 1"):
        game.apply("draw stock", seat=2)
    assert snapshot(game) == before
    game.apply("draw stock", seat=1)
    assert game.hand(1)[-1] == c("Jd")


# ---------------------------------------------------------------------------- R4.2 pile card


def test_r4_2_cannot_discard_card_taken_from_pile():
    game = three_player_game()
    game.apply("draw pile")
    assert game.view(1).taken_from_pile == c("9c")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        game.apply(Discard(c("9c")))
    assert snapshot(game) == before
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        game.apply("discard 9c")
    assert snapshot(game) == before
    assert not game.is_legal("discard 9c")
    assert Discard(c("9c")) not in game.legal_actions()
    assert set(game.legal_actions()) == {Discard(card) for card in parse_cards("2c 4d 6h")}


def test_r4_2_card_from_stock_may_be_discarded_at_once():
    game = three_player_game()
    game.apply("draw stock")
    assert game.view(1).taken_from_pile is None
    assert Discard(c("Jd")) in game.legal_actions()
    game.apply("discard Jd")
    assert game.hand(1) == parse_cards("2c 4d 6h")
    assert game.discard_pile == parse_cards("9c Jd")
    assert game.current_seat == 2


def test_r4_2_pile_card_may_be_discarded_on_a_later_turn():
    game = scripted_game(SCAT, 2, 0, {1: "2c 4d 6h", 0: "2d 4h 6s"}, upcard="9c", stock="Jd Qs 3c")
    game.apply("draw pile")
    game.apply("discard 2c")
    game.apply("draw stock")
    game.apply("discard Jd")
    game.apply("draw stock")
    assert game.current_seat == 1
    assert Discard(c("9c")) in game.legal_actions()
    game.apply("discard 9c")
    assert game.discard_pile[-1] == c("9c")


def test_r4_2_card_another_player_discarded_may_be_taken_and_kept():
    game = three_player_game()
    game.apply("draw stock")
    game.apply("discard Jd")
    game.apply("draw pile")  # seat 2 takes the jack seat 1 threw away
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        game.apply("discard Jd")
    assert snapshot(game) == before
    game.apply("discard 2d")
    assert game.hand(2) == parse_cards("4h 6s Jd")


# ---------------------------------------------------------------------------- R4.3 empty stock


def _two_player_deck(rules: Rules) -> list[Card]:
    return deck_order(rules, 2, 0, {1: "2c 4d 6h", 0: "Ks Qh 8d"}, upcard="9c")


def _throw_away_until_stock_empty(game: Game) -> None:
    while game.stock_size > 0 and game.round == 1:
        seat = game.current_seat
        game.apply("draw stock")
        if game.round == 1:
            game.apply(Discard(game.hand(seat)[-1]))


def test_r4_3_reshuffle_is_the_default_of_every_draw_preset():
    assert SCAT.stock_exhausted == "reshuffle"
    assert NAMU.stock_exhausted == "reshuffle"
    assert Rules.preset("widow", mode="draw").stock_exhausted == "reshuffle"
    assert Rules.preset("schwimmen", mode="draw").stock_exhausted == "reshuffle"


def test_r4_3_empty_stock_reshuffles_the_pile_except_its_top():
    deck = _two_player_deck(SCAT)
    # both players throw away every stock card: the pile is then the upcard and the 45 stock cards
    pile_then = deck[6:]
    top = pile_then[-1]
    below = pile_then[:-1]
    order = list(reversed(below))
    game = Game(SCAT, 2, chance=FallbackChance(0, [deck], [order]))
    _throw_away_until_stock_empty(game)
    assert game.round == 1
    assert game.stock_size == 0
    assert game.discard_pile == tuple(pile_then)
    assert Draw("stock") in game.legal_actions()
    seat = game.current_seat
    events_before = len(game.events)
    game.apply("draw stock")
    new = game.events[events_before:]
    assert isinstance(new[0], Reshuffled)
    assert new[0].stock_size == 45
    assert isinstance(new[1], Acted)
    assert new[1].received == (order[0],)
    assert game.hand(seat)[-1] == order[0]
    assert game.discard_pile == (top,)
    assert game.stock_size == 44
    assert game.round_logs[0].reshuffles == [tuple(order)]
    # play goes on normally from the new stock
    game.apply(Discard(order[0]))
    game.apply("draw stock")
    assert game.hand(game.current_seat)[-1] == order[1]


def test_r4_3_reshuffle_goes_on_without_crash_or_loop():
    rules = SCAT.replace(max_turns=1000)
    game = Game(rules, 2, chance=FallbackChance(0, [_two_player_deck(rules)], seed=4))
    for _ in range(200):
        seat = game.current_seat
        game.apply("draw stock")
        game.apply(Discard(game.hand(seat)[-1]))
    assert game.round == 1
    reshuffles = game.round_logs[0].reshuffles
    assert len(reshuffles) == 4  # 45 stock cards, then 45, 45, 45 after each reshuffle
    assert all(len(order) == 45 for order in reshuffles)
    assert sum(isinstance(event, Reshuffled) for event in game.round_events()) == 4
    cards = [card for seat in (0, 1) for card in game.hand(seat)] + list(game.discard_pile)
    assert game.stock_size + len(cards) == 52
    assert len(set(cards)) == len(cards)


def test_r4_3_reshuffle_order_comes_from_the_random_source_and_is_recorded():
    game = Game(SCAT, 2, chance=FallbackChance(0, [_two_player_deck(SCAT)], seed=9))
    _throw_away_until_stock_empty(game)
    below = game.discard_pile[:-1]
    seat = game.current_seat
    game.apply("draw stock")
    (order,) = game.round_logs[0].reshuffles
    assert sorted(order) == sorted(below)
    assert game.hand(seat)[-1] == order[0]


def test_r4_3_stock_exhausted_showdown_ends_the_round_without_reshuffle():
    rules = SCAT.replace(stock_exhausted="showdown")
    game = Game(rules, 2, chance=FallbackChance(0, [_two_player_deck(rules)], seed=1))
    while game.round == 1:
        seat = game.current_seat
        game.apply("draw stock")  # from an empty stock this must end the round at once
        if game.round == 1:
            game.apply(Discard(game.hand(seat)[-1]))
    result = game.round_logs[0].result
    assert result.end == "stock_exhausted"
    assert result.knocker is None
    assert [(loss.seat, loss.lives, loss.rule) for loss in result.losses] == [(1, 1, "R6.5")]
    assert game.round_logs[0].reshuffles == []
    assert not any(isinstance(event, Reshuffled) for event in game.events)
    assert sum(isinstance(event, RoundEnded) for event in game.events) == 1


def test_r4_3_stock_exhausted_showdown_is_scored_as_if_nobody_knocked():
    # seat 1 is alone lowest; with a knock under knock_penalty=scat it would lose two, here one
    rules = SCAT.replace(stock_exhausted="showdown")
    game = Game(rules, 2, chance=FallbackChance(0, [_two_player_deck(rules)], seed=1))
    while game.round == 1:
        seat = game.current_seat
        game.apply("draw stock")
        if game.round == 1:
            game.apply(Discard(game.hand(seat)[-1]))
    assert game.round_logs[0].result.lives_lost(1) == 1
    assert game.round_logs[0].result.lives_lost(0) == 0


# ---------------------------------------------------------------------------- R4.4 the pile's top


def _public_history_game() -> Game:
    game = three_player_game()
    game.apply("draw stock")  # seat 1 draws Jd
    game.apply("discard Jd")
    game.apply("draw pile")  # seat 2 takes Jd
    game.apply("discard 2d")
    game.apply("draw stock")  # seat 0 draws Qs
    game.apply("discard 2h")
    game.apply("draw pile")  # seat 1 takes 2h
    game.apply("discard 2c")
    return game


def test_r4_4_view_shows_only_the_top_of_the_discard_pile():
    game = _public_history_game()
    assert game.discard_pile == parse_cards("9c 2d 2c")
    view = game.view(0)
    assert view.discard_top == c("2c")
    assert view.discard_size == 3
    # the buried cards 9c and 2d appear nowhere in the view but in the history
    rest = visible_outside_history(view)
    assert "Card('9c')" not in rest
    assert "Card('2d')" not in rest
    assert "Card('2c')" in rest


def test_r4_4_history_has_every_discard_and_every_pile_take():
    game = _public_history_game()
    for viewer in range(3):
        history = game.view(viewer).history
        acted = [event for event in history if isinstance(event, Acted)]
        discards = [(e.seat, e.action.card) for e in acted if isinstance(e.action, Discard)]
        assert discards == [(1, c("Jd")), (2, c("2d")), (0, c("2h")), (1, c("2c"))]
        takes = [(e.seat, e.received) for e in acted if e.action == Draw("pile")]
        assert takes == [(2, (c("Jd"),)), (1, (c("2h"),))]


def test_r4_4_cards_drawn_from_the_stock_stay_hidden_from_others():
    game = _public_history_game()
    for viewer in range(3):
        stock_draws = [
            (e.seat, e.received)
            for e in game.view(viewer).history
            if isinstance(e, Acted) and e.action == Draw("stock")
        ]
        expected = [(1, (c("Jd"),) if viewer == 1 else None), (0, (c("Qs"),) if viewer == 0 else None)]
        assert stock_draws == expected


def test_r4_4_cards_taken_from_the_pile_are_known():
    game = _public_history_game()
    seats = game.view(0).seats
    assert seats[2].known_cards == (c("Jd"),)
    assert seats[1].known_cards == (c("2h"),)
    assert seats[0].known_cards == ()
    # once discarded a card is no longer known to be held
    game.apply("draw stock")  # seat 2
    game.apply("discard Jd")
    assert game.view(0).seats[2].known_cards == ()


def test_r4_4_view_hides_other_hands():
    game = _public_history_game()
    view = game.view(0)
    assert view.hand == game.hand(0)
    rest = visible_outside_history(view)
    for seat in (1, 2):
        hidden = [card for card in game.hand(seat) if card not in view.seats[seat].known_cards]
        for card in hidden:
            assert repr(card) not in rest


def _reachable_cards(value, seen=None) -> set[Card]:
    """Every card reachable from ``value`` through its public attributes and items."""
    seen = set() if seen is None else seen
    if isinstance(value, Card):
        return {value}
    if isinstance(value, (str, bytes, int, float, type(None), Rules)) or id(value) in seen:
        return set()
    seen.add(id(value))
    found: set[Card] = set()
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    elif dataclasses.is_dataclass(value):
        items = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        items = []
    for item in items:
        found |= _reachable_cards(item, seen)
    return found


def test_r4_4_view_holds_no_card_another_player_drew_from_the_stock():
    game = _public_history_game()
    # seat 0 drew Qs from the stock and still holds it: only seat 0 may know it
    assert c("Qs") in game.hand(0)
    assert c("Qs") in _reachable_cards(game.view(0))
    for viewer in (1, 2):
        view = game.view(viewer)
        assert c("Qs") not in _reachable_cards(view), f"seat {viewer}'s view holds seat 0's hidden Qs"
        assert c("Qs") not in _reachable_cards(view.history)


def test_r4_3_decision_a_knock_still_waiting_when_the_stock_runs_out_is_void():
    """[decision] With stock_exhausted=showdown the round ends when the turn that took the last
    stock card is over, scored as if nobody knocked: the knocker, alone lowest, loses one life
    (not two, knock_penalty=scat), and the seat still owed a last turn gets none."""
    from thirtyone import Position
    from thirtyone import full_deck
    from thirtyone import parse_cards

    rules = SCAT.replace(stock_exhausted="showdown")
    hands = ("9s 8d 2h", "Ah Kh 2c", "As Ks 3d")
    held = parse_cards(" ".join(hands) + " 4c")
    position = Position(
        rules=rules,
        dealer=2,
        to_move=1,
        phase=Phase.TURN,
        hands=tuple(parse_cards(hand) for hand in hands),
        stock=parse_cards("4c"),
        discard_pile=tuple(card for card in full_deck() if card not in held),
        knocker=0,
    )
    game = Game.from_position(position, seed=1)
    game.apply("draw stock")  # the last stock card: seat 2's last turn never comes
    game.apply("discard 4c")
    result = game.round_logs[0].result
    assert result is not None
    assert (result.end, result.knocker) == ("stock_exhausted", None)
    assert [(loss.seat, loss.lives, loss.kind) for loss in result.losses] == [(0, 1, "lowest_stock_out")]
    assert [seat for seat, _ in game.round_logs[0].actions] == [1, 1]


def test_r4_3_decision_the_last_stock_card_on_the_knocks_final_last_turn_plays_the_knock():
    """[decision] When the last stock card is taken on the knock's final last turn, no last turn is
    waiting any more: the knock's showdown is played (the knocker, alone lowest, loses two under
    knock_penalty=scat), not a stock_exhausted showdown."""
    from thirtyone import Position
    from thirtyone import full_deck
    from thirtyone import parse_cards

    rules = SCAT.replace(stock_exhausted="showdown")
    hands = ("9s 8d 2h", "Ah Kh 2c", "As Ks 3d")
    held = parse_cards(" ".join(hands) + " 4c")
    position = Position(
        rules=rules,
        dealer=1,
        to_move=1,
        phase=Phase.TURN,
        hands=tuple(parse_cards(hand) for hand in hands),
        stock=parse_cards("4c"),
        discard_pile=tuple(card for card in full_deck() if card not in held),
        knocker=2,
    )
    game = Game.from_position(position, seed=1)
    assert game.current_seat == 1  # the seat to the knocker's right: the final last turn
    game.apply("draw stock")
    game.apply("discard 4c")
    result = game.round_logs[0].result
    assert result is not None
    assert (result.end, result.knocker) == ("knock", 2)
    assert [(loss.seat, loss.lives) for loss in result.losses] == [(0, 1)]
