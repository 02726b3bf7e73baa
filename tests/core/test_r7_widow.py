"""R7: widow mode (R7.1–R7.5) and the Schwimmen deal (R7.6), played through scripted deals."""

from __future__ import annotations

import pytest

from helpers import cards
from helpers import losses
from helpers import scripted_game
from helpers import snapshot
from thirtyone import Acted
from thirtyone import Card
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import NewWidow
from thirtyone import Pass
from thirtyone import Rules
from thirtyone import TakeWidow
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.views import Phase

WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")

# seat 1 = 20, seat 2 = 15, seat 0 = 10; widow Ac Kc 2c = 23
HANDS = {1: "Ks Ts 4h", 2: "9h 6h 2s", 0: "Jh 3s 5c"}
WIDOW_CARDS = "Ac Kc 2c"

# Schwimmen (32 cards, 7-A): seat 1 = 10, seat 2 = 25, dealer 0 = 21; the dealer's second hand = 27
S_HANDS = {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}
S_SECOND = "Tc 9c 8c"


def c(text: str) -> Card:
    return Card.parse(text)


def held(game: Game, seat: int) -> tuple[Card, ...]:
    return tuple(sorted(game.hand(seat)))


def widow_of(game: Game) -> tuple[Card, ...]:
    return tuple(sorted(game.widow))


def widow_game(rules: Rules = WIDOW, **kwargs) -> Game:
    return scripted_game(rules, 3, 0, HANDS, widow=WIDOW_CARDS, **kwargs)


def new_widows(game: Game, round_number: int = 1) -> list[NewWidow]:
    events, current = [], 0
    for event in game.events:
        if type(event).__name__ == "RoundStarted":
            current = event.round
        elif isinstance(event, NewWidow) and current == round_number:
            events.append(event)
    return events


def card_count(game: Game) -> int:
    everything = [card for seat in range(game.players) for card in game.hand(seat)]
    everything += list(game.widow) + list(game.discard_pile)
    assert len(set(everything)) == len(everything)
    return len(everything) + game.stock_size


# ---------------------------------------------------------------------------- R7.1 the turn options


def test_r7_1_face_up_turn_offers_every_single_exchange_all_pass_and_knock():
    game = widow_game()
    game.apply(Pass())  # seat 1's opening turns the widow face up
    hand, widow = game.hand(2), game.widow
    expected = {Exchange(give, take) for give in hand for take in widow} | {ExchangeAll(), Pass(), Knock()}
    assert len(expected) == 12
    assert set(game.legal_actions()) == expected
    assert len(game.legal_actions()) == 12


def test_r7_1_exchange_one_card():
    game = widow_game()
    game.apply(Pass())
    action = Exchange(c("2s"), c("Ac"))
    game.apply(action)  # seat 2
    assert held(game, 2) == cards("9h 6h Ac")
    assert widow_of(game) == cards("2s Kc 2c")
    assert game.round_events()[-1] == Acted(2, action, (c("Ac"),))
    assert game.view(1).seats[2].known_cards == (c("Ac"),)
    assert game.view(0).history[-1].received == (c("Ac"),)  # taken face up: public
    assert game.current_seat == 0
    assert game.turn == 2


def test_r7_1_exchange_all_three():
    game = widow_game()
    game.apply(Pass())
    game.apply(ExchangeAll())  # seat 2: the hand becomes the widow
    assert held(game, 2) == cards(WIDOW_CARDS)
    assert widow_of(game) == cards(HANDS[2])
    assert game.widow_face_up
    assert game.view(0).widow is not None
    assert tuple(sorted(game.view(0).widow)) == cards(HANDS[2])
    assert tuple(sorted(game.view(0).seats[2].known_cards)) == cards(WIDOW_CARDS)
    assert tuple(sorted(game.view(0).history[-1].received)) == cards(WIDOW_CARDS)
    assert game.current_seat == 0


def test_r7_1_pass_keeps_hand_and_widow():
    game = widow_game()
    game.apply(Pass())
    game.apply(Pass())  # seat 2
    assert held(game, 2) == cards(HANDS[2])
    assert widow_of(game) == cards(WIDOW_CARDS)
    assert game.current_seat == 0
    assert game.turn == 2
    assert game.round == 1


def test_r7_1_knock_then_last_turns_then_showdown():
    game = widow_game()
    game.apply(Pass())
    game.apply(Knock())  # seat 2
    assert game.knocker == 2
    game.apply(Exchange(c("Jh"), c("2c")))  # seat 0: 3s 5c 2c = 7
    assert game.current_seat == 1
    game.apply(Pass())
    assert game.round == 2
    result = game.last_result
    assert result.end == "knock"
    assert result.knocker == 2
    assert tuple(sorted(result.hands[0])) == cards("3s 5c 2c")
    assert result.values[0] == 7
    assert losses(game) == [(0, 1, "R6.5")]


def test_r7_1_exchange_of_a_card_not_held_or_not_in_the_widow_refused():
    game = widow_game()
    game.apply(Pass())
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R7\.1"):
        game.apply(Exchange(c("Ks"), c("Ac")))  # Ks is seat 1's, not seat 2's
    with pytest.raises(IllegalActionError, match=r"^R7\.1"):
        game.apply(Exchange(c("2s"), c("Qd")))  # Qd is not in the widow
    with pytest.raises(IllegalActionError, match=r"^R7\.1"):
        game.apply(Draw("stock"))  # no drawing in widow mode
    assert snapshot(game) == before


# ---------------------------------------------------------------------------- R7.2 the opening


def test_r7_2_opening_offers_the_face_down_widow_pass_or_knock():
    game = widow_game()
    assert game.current_seat == 1
    assert not game.widow_face_up
    assert set(game.legal_actions()) == {ExchangeAll(), Pass(), Knock()}
    for seat in range(3):
        view = game.view(seat)
        assert view.widow is None
        assert view.widow_face_down


def test_r7_2_single_exchange_refused_while_the_widow_is_face_down():
    game = widow_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R7\.2"):
        game.apply(Exchange(c("4h"), c("Ac")))
    assert snapshot(game) == before


def test_r7_2_take_the_face_down_widow_for_the_whole_hand():
    game = widow_game()
    game.apply(ExchangeAll())
    assert held(game, 1) == cards(WIDOW_CARDS)
    assert widow_of(game) == cards(HANDS[1])  # the old hand goes face up
    assert game.widow_face_up
    assert tuple(sorted(game.view(2).widow)) == cards(HANDS[1])
    assert game.current_seat == 2
    assert game.turn == 1
    # taken unseen: the others do not learn the cards, the taker does
    assert game.view(2).history[-1] == Acted(1, ExchangeAll(), None, private=True, revealed=parse_cards(HANDS[1]))
    assert tuple(sorted(game.view(1).history[-1].received)) == cards(WIDOW_CARDS)
    assert game.view(2).seats[1].known_cards == ()
    # the next player meets a face-up widow
    assert Exchange(c("2s"), c("Ks")) in game.legal_actions()


def test_r7_2_pass_turns_the_widow_face_up_and_ends_the_turn():
    game = widow_game()
    game.apply(Pass())
    assert game.widow_face_up
    assert widow_of(game) == cards(WIDOW_CARDS)
    assert tuple(sorted(game.view(0).widow)) == cards(WIDOW_CARDS)
    assert not game.view(0).widow_face_down
    assert held(game, 1) == cards(HANDS[1])
    assert game.current_seat == 2
    assert game.turn == 1


def test_r7_2_knock_turns_the_widow_face_up_and_ends_the_turn():
    game = widow_game()
    game.apply(Knock())
    assert game.knocker == 1
    assert game.widow_face_up
    assert tuple(sorted(game.view(2).widow)) == cards(WIDOW_CARDS)
    assert game.current_seat == 2
    assert game.turn == 1
    assert Exchange(c("2s"), c("Ac")) in game.legal_actions()
    game.apply(Pass())
    game.apply(Pass())
    assert game.round == 2
    assert game.last_result.knocker == 1
    assert [seat for seat, _ in game.round_logs[0].actions] == [1, 2, 0]


def test_r7_2_every_round_opens_with_a_face_down_widow():
    game = widow_game()
    for _ in range(3):
        game.apply(Pass())
    assert game.round == 2
    assert not game.widow_face_up
    assert game.current_seat == 2  # dealer 1 now
    assert set(game.legal_actions()) == {ExchangeAll(), Pass(), Knock()}


# ---------------------------------------------------------------------------- R7.3 everyone passes


def test_r7_3_all_pass_showdown():
    game = widow_game()
    assert WIDOW.all_pass == "showdown"
    game.apply(Pass())
    game.apply(Pass())
    assert game.round == 1
    game.apply(Pass())
    assert game.round == 2
    result = game.last_result
    assert result.end == "all_pass"
    assert result.knocker is None
    assert result.turns == 3
    assert losses(game) == [(0, 1, "R6.5")]


def test_r7_3_an_exchange_breaks_the_circle_of_passes():
    game = widow_game()
    game.apply(Pass())  # seat 1
    game.apply(Exchange(c("2s"), c("2c")))  # seat 2, still 15
    game.apply(Pass())  # seat 0
    game.apply(Pass())  # seat 1
    assert game.round == 1
    game.apply(Pass())  # seat 2: a full circle of passes since the exchange
    assert game.round == 2
    assert game.last_result.end == "all_pass"
    assert game.last_result.turns == 5
    assert losses(game) == [(0, 1, "R6.5")]


def test_r7_3_new_widow_from_the_stock():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules, stock="7c 8c 9c Qd")
    stock = game.stock_size
    assert stock == 52 - 12
    for _ in range(3):
        game.apply(Pass())
    assert game.round == 1
    assert new_widows(game) == [NewWidow(parse_cards(WIDOW_CARDS), parse_cards("7c 8c 9c"))]
    assert widow_of(game) == cards("7c 8c 9c")
    assert game.widow_face_up
    assert tuple(sorted(game.discard_pile)) == cards(WIDOW_CARDS)  # set aside
    assert game.stock_size == stock - 3
    assert card_count(game) == 52
    assert game.current_seat == 1
    assert game.phase is Phase.TURN
    assert tuple(sorted(game.view(2).widow)) == cards("7c 8c 9c")
    # the set-aside cards are out of play: no exchange can take them
    assert all(
        not (set(a.take) & set(parse_cards(WIDOW_CARDS))) for a in game.legal_actions() if isinstance(a, Exchange)
    )


def test_r7_3_new_widow_until_fewer_than_three_cards_remain_then_showdown_schwimmen():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    game.apply(Keep())
    assert game.stock_size == 32 - 12
    turns = 0
    while game.round == 1:
        game.apply(Pass())
        turns += 1
        assert card_count(game) == 32
    assert len(new_widows(game)) == 6  # 20 stock cards: six new widows, then two left
    result = game.last_result
    assert result.end == "all_pass"
    assert result.knocker is None
    assert turns == 21
    assert result.turns == 21
    assert losses(game) == [(1, 1, "R6.5")]  # seat 1 = 10


def test_r7_3_new_widow_until_fewer_than_three_cards_remain_52_cards():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules)
    while game.round == 1:
        game.apply(Pass())
    assert len(new_widows(game)) == 13  # 40 stock cards: thirteen new widows, then one left
    assert game.last_result.end == "all_pass"
    assert game.last_result.turns == 42


# ---------------------------------------------------------------------------- R7.4 passes after a knock


def test_r7_4_passes_after_a_knock_do_not_count_towards_all_pass():
    game = widow_game()
    game.apply(Pass())  # seat 1
    game.apply(Pass())  # seat 2
    game.apply(Knock())  # seat 0
    game.apply(Pass())  # seat 1: would be the third pass in a row if counted
    assert game.round == 1
    assert game.current_seat == 2
    game.apply(Pass())
    assert game.round == 2
    result = game.last_result
    assert result.end == "knock"
    assert result.knocker == 0
    assert losses(game) == [(0, 2, "R6.5")]  # knock_penalty=widow: the knocker alone lowest


def test_r7_4_passes_after_a_knock_make_no_new_widow():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules)
    game.apply(Pass())
    game.apply(Pass())
    game.apply(Knock())
    game.apply(Pass())
    game.apply(Pass())
    assert game.round == 2
    assert new_widows(game) == []
    assert game.last_result.end == "knock"


def test_r7_4_last_turns_may_exchange_or_pass_but_not_knock():
    game = widow_game()
    game.apply(Pass())
    game.apply(Knock())  # seat 2
    legal = set(game.legal_actions())
    assert Knock() not in legal
    assert {Pass(), ExchangeAll(), Exchange(c("3s"), c("Ac"))} <= legal
    assert len(legal) == 11


def test_r7_4_a_new_widow_starts_the_count_again():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules)
    for _ in range(3):
        game.apply(Pass())
    assert len(new_widows(game)) == 1
    game.apply(Pass())
    game.apply(Pass())
    assert len(new_widows(game)) == 1
    game.apply(Pass())
    assert len(new_widows(game)) == 2
    assert game.round == 1


def test_r7_4_a_new_widow_then_a_knock():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules)
    for _ in range(3):
        game.apply(Pass())
    game.apply(Pass())  # seat 1
    game.apply(Knock())  # seat 2
    game.apply(Pass())  # seat 0
    game.apply(Pass())  # seat 1
    assert game.round == 2
    assert len(new_widows(game)) == 1
    assert game.last_result.end == "knock"
    assert game.last_result.knocker == 2
    assert losses(game) == [(0, 1, "R6.5")]


# ---------------------------------------------------------------------------- R7.5 exchange option


def test_r7_5_exchange_any_allows_two_cards():
    rules = WIDOW.replace(exchange="any")
    game = widow_game(rules)
    game.apply(Pass())
    action = Exchange((c("9h"), c("6h")), (c("Ac"), c("Kc")))
    assert action in game.legal_actions()
    game.apply(action)  # seat 2
    assert held(game, 2) == cards("2s Ac Kc")
    assert widow_of(game) == cards("9h 6h 2c")
    assert game.hand_value(2) == 21
    assert tuple(sorted(game.view(0).seats[2].known_cards)) == cards("Ac Kc")
    assert game.current_seat == 0


def test_r7_5_exchange_any_legal_actions():
    rules = WIDOW.replace(exchange="any")
    game = widow_game(rules)
    game.apply(Pass())
    hand, widow = game.hand(2), game.widow
    singles = {Exchange(give, take) for give in hand for take in widow}
    doubles = {
        Exchange(tuple(g for g in hand if g != skip_g), tuple(t for t in widow if t != skip_t))
        for skip_g in hand
        for skip_t in widow
    }
    assert len(doubles) == 9
    assert set(game.legal_actions()) == singles | doubles | {ExchangeAll(), Pass(), Knock()}


def test_r7_5_one_or_all_refuses_two_cards():
    game = widow_game()
    assert WIDOW.exchange == "one_or_all"
    game.apply(Pass())
    action = Exchange((c("9h"), c("6h")), (c("Ac"), c("Kc")))
    assert action not in game.legal_actions()
    assert all(len(a.give) == 1 for a in game.legal_actions() if isinstance(a, Exchange))
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R7\.5") as error:
        game.apply(action)
    assert "R7.5" in str(error.value)
    with pytest.raises(IllegalActionError, match=r"^R7\.5"):
        game.apply("exchange 9h 6h for Ac Kc")
    assert snapshot(game) == before


def test_r7_5_schwimmen_never_two():
    assert SCHWIMMEN.exchange == "one_or_all"
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    game.apply(Keep())
    with pytest.raises(IllegalActionError, match=r"^R7\.5"):
        game.apply(Exchange((c("Jc"), c("9h")), (c("Tc"), c("9c"))))
    game.apply(Exchange(c("8s"), c("8c")))
    assert held(game, 1) == cards("Jc 9h 8c")


# ---------------------------------------------------------------------------- R7.6 Schwimmen deal


def test_r7_6_dealer_looks_at_the_first_hand_and_chooses():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    assert game.phase is Phase.DEALER_CHOICE
    assert game.current_seat == 0
    assert set(game.legal_actions()) == {Keep(), TakeWidow()}
    view = game.view(0)
    assert tuple(sorted(view.hand)) == cards(S_HANDS[0])
    assert view.widow is None  # the second hand is not seen
    assert view.widow_face_down
    assert game.view(1).widow is None


def test_r7_6_other_actions_refused_before_the_dealer_chooses():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    before = snapshot(game)
    for action in (Pass(), Knock(), ExchangeAll(), Exchange(c("As"), c("Tc")), Draw("stock")):
        with pytest.raises(IllegalActionError, match=r"^R7\.6"):
            game.apply(action)
    assert snapshot(game) == before


def test_r7_6_dealer_keeps_the_first_hand():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    game.apply(Keep())
    assert held(game, 0) == cards(S_HANDS[0])
    assert widow_of(game) == cards(S_SECOND)
    assert game.widow_face_up
    assert tuple(sorted(game.view(2).widow)) == cards(S_SECOND)
    assert game.phase is Phase.TURN
    assert game.current_seat == 1  # the dealer's left plays first
    assert game.turn == 0
    game.apply(Pass())
    assert game.current_seat == 2
    game.apply(Pass())
    assert game.current_seat == 0


def test_r7_6_dealer_takes_the_second_hand_unseen():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    game.apply(TakeWidow())
    assert held(game, 0) == cards(S_SECOND)
    assert widow_of(game) == cards(S_HANDS[0])  # the first hand goes face up
    assert game.widow_face_up
    assert tuple(sorted(game.view(1).widow)) == cards(S_HANDS[0])
    assert game.phase is Phase.TURN
    assert game.current_seat == 1
    assert game.turn == 0
    assert game.view(1).history[-1] == Acted(0, TakeWidow(), None, private=True, revealed=parse_cards(S_HANDS[0]))
    assert tuple(sorted(game.view(0).history[-1].received)) == cards(S_SECOND)
    assert game.view(1).seats[0].known_cards == ()


def test_r7_6_next_round_the_new_dealer_chooses():
    # seat 2 is dealt 31 (A K Q of spades): the round ends at once and seat 1 deals next
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "As Ks Qs", 0: "Ad Kd 7h"}, widow=S_SECOND)
    assert game.round == 2
    assert game.dealer == 1
    assert game.phase is Phase.DEALER_CHOICE
    assert game.current_seat == 1
    game.apply(Keep())
    assert game.current_seat == 2


def test_r7_6_deck_is_32_cards_and_all_are_accounted_for():
    game = scripted_game(SCHWIMMEN, 3, 0, S_HANDS, widow=S_SECOND)
    assert card_count(game) == 32
    assert set(game.widow) | {card for seat in range(3) for card in game.hand(seat)} <= set(full_deck(32))


def test_r7_3_decision_the_openers_pass_counts_toward_the_circle():
    """[decision] The opener's pass (R7.2) is the first of the circle: four players, four passes
    from the opening end the round (all_pass = showdown)."""
    game = Game(WIDOW, 4, seed=8)
    for count in range(1, 5):
        assert game.round == 1
        assert not game.widow_face_up or count > 1
        game.apply(Pass())
    assert game.round_logs[0].result is not None
    assert game.round_logs[0].result.end == "all_pass"
    assert game.round_logs[0].result.turns == 4


def test_r7_5_decision_exchange_any_may_be_set_on_schwimmen():
    rules = Rules.preset("schwimmen", exchange="any")
    assert rules.exchange == "any"
    game = scripted_game(rules, 3, 0, S_HANDS, widow=S_SECOND)
    game.apply(Keep())
    two = Exchange((c("Jc"), c("9h")), (c("Tc"), c("9c")))
    assert two in game.legal_actions()
    game.apply(two)
    assert held(game, 1) == cards("8s Tc 9c")


def test_r7_3_decision_a_set_aside_widow_is_out_of_play_for_the_round():
    rules = WIDOW.replace(all_pass="new_widow")
    game = widow_game(rules, stock="7c 8c 9c Qd Jd Td")
    set_aside = set(parse_cards(WIDOW_CARDS))
    for _ in range(3):
        game.apply(Pass())
    for _ in range(3):
        game.apply(Pass())  # a second circle: a second new widow, from the stock, never the set-aside one
    assert widow_of(game) == cards("Qd Jd Td")
    assert set_aside <= set(game.discard_pile)
    assert not set_aside & set(game.widow)
    assert all(not set_aside & set(getattr(a, "take", ())) for a in game.legal_actions())
