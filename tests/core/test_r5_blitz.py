"""R5: thirty-one, the blitz (R5.1–R5.6)."""

from __future__ import annotations

import random

from helpers import scripted_game
from thirtyone import Acted
from thirtyone import Card
from thirtyone import Game
from thirtyone import RoundEnded
from thirtyone import RoundResult
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.views import Phase

SCAT = Rules.preset("scat")
WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")
ACES = SCAT.replace(three_aces=True)


def c(text: str) -> Card:
    return Card.parse(text)


def first_result(game: Game) -> RoundResult:
    result = game.round_logs[0].result
    assert result is not None, "round 1 has not ended"
    return result


def losses(result: RoundResult) -> list[tuple[int, int, str]]:
    return sorted((loss.seat, loss.lives, loss.rule) for loss in result.losses)


def round_ended_count(game: Game, round_number: int) -> int:
    return sum(isinstance(e, RoundEnded) and e.result.round == round_number for e in game.events)


def acted_seats(game: Game, round_number: int) -> list[int]:
    log = game.round_logs[round_number - 1]
    return [seat for seat, _ in log.actions]


def draw_game(rules: Rules = SCAT, **hands: str) -> Game:
    """3 players, dealer 0 (seat 1 plays first, then 2, then 0); upcard Td, stock 3c 5d 7h …"""
    given = {int(seat[1:]): text for seat, text in hands.items()}
    defaults = {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "2h 4s 6c"}
    for seat, text in defaults.items():
        given.setdefault(seat, text)
    return scripted_game(rules, 3, 0, given, upcard="Td", stock="3c 5d 7h 8s")


# ---------------------------------------------------------------------------- R5.1 blitz in play


def test_r5_1_thirty_one_ends_the_round_at_once_others_lose_one():
    game = draw_game(s1="Ad Kd 2c")
    game.apply("draw pile")
    assert game.round == 1  # four cards: not yet a blitz
    game.apply("discard 2c")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.blitz == (1,)
    assert result.knocker is None
    assert losses(result) == [(0, 1, "R5.1"), (2, 1, "R5.1")]
    assert result.hands[1] == parse_cards("Ad Kd Td")
    assert result.values[1] == 31
    assert result.hands[0] == parse_cards("2h 4s 6c")  # the all-seeing result holds every hand
    shown = result.public()  # R5.1: at the table only the 31 is shown
    assert shown.hands[1] == parse_cards("Ad Kd Td")
    assert shown.hands[0] is None
    assert shown.hands[2] is None
    assert result.for_seat(0).hands[0] == parse_cards("2h 4s 6c")  # and each player still knows their own
    assert result.for_seat(0).hands[2] is None
    assert result.remaining == (3, 4, 3)
    assert game.round == 2  # dealt again without any action
    assert game.dealer == 1
    assert round_ended_count(game, 1) == 1


def test_r5_1_knocker_loses_too():
    game = draw_game(s2="Ad Kd 2s")
    game.apply("knock")  # seat 1
    game.apply("draw pile")  # seat 2 takes Td
    game.apply("discard 2s")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.knocker == 1
    assert result.blitz == (2,)
    assert [(seat, lives) for seat, lives, _ in losses(result)] == [(0, 1), (1, 1)]
    assert all(rule in ("R5.1", "R5.3") for _, _, rule in losses(result))


def test_r5_1_blitz_in_widow_mode_knocker_loses_one_not_the_widow_penalty():
    game = scripted_game(WIDOW, 3, 0, {1: "2c 4d 6h", 2: "Ah Kh 2s", 0: "2h 4s 6c"}, widow="Th 3c 5d")
    game.apply("knock")  # seat 1: the widow is turned face up
    assert game.widow_face_up
    game.apply("exchange 2s for Th")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.blitz == (2,)
    assert [(seat, lives) for seat, lives, _ in losses(result)] == [(0, 1), (1, 1)]
    assert all(rule in ("R5.1", "R5.3") for _, _, rule in losses(result))


def test_r5_1_blitz_is_automatic_no_action_needed():
    game = draw_game(s1="Ad Kd 2c")
    game.apply("draw pile")
    game.apply("discard 2c")
    assert [str(action) for _, action in game.round_logs[0].actions] == ["draw pile", "discard 2c"]
    assert game.phase is Phase.TURN
    assert game.current_seat == 2  # round 2: dealer 1, seat 2 plays first


# ---------------------------------------------------------------------------- R5.2 dealt 31


def test_r5_2_dealt_31_ends_the_round_before_the_first_turn():
    game = scripted_game(SCAT, 4, 0, {2: "Ad Kd Td", 1: "2c 4d 6h", 3: "2d 4h 6s", 0: "2h 4s 6c"})
    result = first_result(game)
    assert result.end == "dealt_blitz"
    assert result.blitz == (2,)
    assert result.knocker is None
    assert result.turns == 0
    assert game.round_logs[0].actions == []
    assert losses(result) == [(0, 1, "R5.2"), (1, 1, "R5.2"), (3, 1, "R5.2")]
    assert result.hands[2] == parse_cards("Ad Kd Td")
    assert game.round == 2


def test_r5_2_two_dealt_31s_neither_loses_others_lose_one():
    game = scripted_game(SCAT, 4, 0, {1: "Ad Kd Td", 3: "Ah Kh Th", 2: "2c 4d 6h", 0: "2h 4s 6c"})
    result = first_result(game)
    assert result.end == "dealt_blitz"
    assert sorted(result.blitz) == [1, 3]
    assert losses(result) == [(0, 1, "R5.2"), (2, 1, "R5.2")]
    assert result.remaining == (3, 4, 3, 4)
    assert round_ended_count(game, 1) == 1


def test_r5_2_every_player_dealt_31_nobody_loses():
    game = scripted_game(SCAT, 2, 0, {1: "Ad Kd Td", 0: "Ah Kh Th"})
    result = first_result(game)
    assert sorted(result.blitz) == [0, 1]
    assert result.losses == ()
    assert result.remaining == (4, 4)
    assert game.round == 2


def test_r5_2_dealt_31_in_widow_mode():
    game = scripted_game(WIDOW, 3, 2, {0: "2c 4d 6h", 1: "Ac Kc Tc", 2: "2h 4s 6c"}, widow="Ad Kd Td")
    result = first_result(game)
    assert result.end == "dealt_blitz"
    assert result.blitz == (1,)  # the face-down widow is nobody's hand
    assert losses(result) == [(0, 1, "R5.2"), (2, 1, "R5.2")]


def test_r5_2_dealt_31_in_schwimmen_before_the_dealers_choice():
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Ac Kc Tc", 2: "7d 9h Js", 0: "8d Th Qs"}, widow="7h 9s Jd")
    result = first_result(game)
    assert result.end == "dealt_blitz"
    assert result.blitz == (1,)
    assert losses(result) == [(0, 1, "R5.2"), (2, 1, "R5.2")]
    assert game.round_logs[0].actions == []


def test_r5_2_dealt_straight_flush_31():
    rules = SCAT.replace(straight_flush=True)
    game = scripted_game(rules, 3, 0, {1: "Qs Ks As", 2: "2d 4h 6s", 0: "2h 4s 6c"})
    result = first_result(game)
    assert result.blitz == (1,)
    assert losses(result) == [(0, 1, "R5.2"), (2, 1, "R5.2")]


def test_r5_2_30_5_is_not_a_dealt_blitz():
    rules = SCAT.replace(three_of_a_kind="30.5")
    game = scripted_game(rules, 3, 0, {1: "7c 7d 7h", 2: "2d 4h 6s", 0: "2h 4s 6c"})
    assert game.round == 1
    assert game.round_logs[0].result is None
    assert game.current_seat == 1


# ---------------------------------------------------------------------------- R5.3 after a knock


def test_r5_3_thirty_one_on_a_last_turn_ends_the_round_at_once():
    game = draw_game(s2="Ad Kd 2s")
    game.apply("knock")  # seat 1
    game.apply("draw pile")  # seat 2, last turn
    game.apply("discard 2s")
    result = first_result(game)
    assert result.end == "blitz"
    # seat 0 still had a last turn; it never came
    assert acted_seats(game, 1) == [1, 2, 2]
    round_one = game.events[: next(i for i, e in enumerate(game.events) if isinstance(e, RoundEnded))]
    assert not any(isinstance(e, Acted) and e.seat == 0 for e in round_one)
    assert game.round == 2


def test_r5_3_last_player_after_knock_makes_31_blitz_instead_of_showdown():
    game = scripted_game(SCAT, 3, 0, {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "Ad Kd 2s"}, upcard="9c", stock="3c Td 5h")
    game.apply("knock")  # seat 1
    game.apply("draw stock")  # seat 2 draws 3c
    game.apply("discard 3c")
    game.apply("draw stock")  # seat 0 draws Td on the last turn of the round
    game.apply("discard 2s")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.knocker == 1
    assert result.blitz == (0,)
    assert [(seat, lives) for seat, lives, _ in losses(result)] == [(1, 1), (2, 1)]
    assert all(rule in ("R5.1", "R5.3") for _, _, rule in losses(result))
    assert round_ended_count(game, 1) == 1


# ---------------------------------------------------------------------------- R5.4 when it is checked


def test_r5_4_checked_after_the_discard_not_on_four_cards():
    game = draw_game(s1="Ad Kd 2c")
    game.apply("draw pile")
    assert game.phase is Phase.DISCARD
    assert game.round == 1
    game.apply("discard Kd")  # keeps Ad 2c Td: 21, no blitz
    assert game.round == 1
    assert game.round_logs[0].result is None
    assert game.current_seat == 2
    assert game.hand_value(1) == 21


def test_r5_4_blitz_after_exchanging_one_card():
    game = scripted_game(WIDOW, 3, 0, {1: "2c 4d 6h", 2: "Ah Kh 2s", 0: "2h 4s 6c"}, widow="Th 3c 5d")
    game.apply("pass")  # seat 1 passes the opening: the widow is turned face up
    game.apply("exchange 2s for Th")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.blitz == (2,)
    assert losses(result) == [(0, 1, "R5.1"), (1, 1, "R5.1")]


def test_r5_4_blitz_after_taking_the_face_down_widow():
    game = scripted_game(WIDOW, 3, 0, {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "2h 4s 6c"}, widow="Ac Kc Tc")
    game.apply("exchange all")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.blitz == (1,)
    assert result.hands[1] == parse_cards("Ac Kc Tc")
    assert losses(result) == [(0, 1, "R5.1"), (2, 1, "R5.1")]


def test_r5_4_blitz_after_exchanging_all_with_face_up_widow():
    game = scripted_game(WIDOW, 3, 0, {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "2h 4s 6c"}, widow="3c 5d 7h")
    game.apply("pass")  # widow face up: 3c 5d 7h
    game.apply("exchange all")  # seat 2 takes 3c 5d 7h, leaves 2d 4h 6s
    assert game.round == 1
    game = scripted_game(WIDOW, 3, 0, {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "2h 4s 6c"}, widow="As Ks Ts")
    game.apply("pass")
    game.apply("exchange all")
    result = first_result(game)
    assert result.blitz == (2,)
    assert losses(result) == [(0, 1, "R5.1"), (1, 1, "R5.1")]


def test_r5_4_schwimmen_dealer_takes_a_31_second_hand():
    game = scripted_game(SCHWIMMEN, 3, 1, {2: "7c 9d Jh", 0: "8c Td Qh", 1: "7d 9h Js"}, widow="As Ks Ts")
    assert game.phase is Phase.DEALER_CHOICE
    game.apply("take widow")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.blitz == (1,)
    assert losses(result) == [(0, 1, "R5.1"), (2, 1, "R5.1")]


def test_r5_4_three_aces_made_in_play_are_a_blitz():
    game = scripted_game(ACES, 3, 0, {1: "Ac Ad 2c", 2: "2d 4h 6s", 0: "2h 4s 6c"}, upcard="Ah")
    game.apply("draw pile")
    game.apply("discard 2c")
    result = first_result(game)
    assert result.end == "blitz"
    assert result.values[1] == 33
    assert losses(result) == [(0, 1, "R5.1"), (2, 1, "R5.1")]


# ---------------------------------------------------------------------------- R5.5 three aces


def test_r5_5_three_aces_beat_a_dealt_31():
    game = scripted_game(ACES, 3, 0, {1: "Ac Ad Ah", 2: "As Ks Ts", 0: "2h 4s 6c"})
    result = first_result(game)
    assert result.end == "dealt_blitz"
    assert result.blitz == (1,)
    assert [(seat, lives) for seat, lives, _ in losses(result)] == [(0, 1), (2, 1)]
    rules = {loss.seat: loss.rule for loss in result.losses}
    assert rules[2] == "R5.5"
    assert rules[0] in ("R5.2", "R5.5")
    assert result.remaining == (3, 4, 3)


def test_r5_5_three_aces_beat_a_dealt_31_in_schwimmen():
    game = scripted_game(
        SCHWIMMEN, 4, 0, {1: "As Ks Ts", 2: "Ac Ad Ah", 3: "Qh Kh Th", 0: "7c 9d Jh"}, widow="8c Td Qs"
    )
    result = first_result(game)
    assert result.blitz == (2,)
    assert [(seat, lives) for seat, lives, _ in losses(result)] == [(0, 1), (1, 1), (3, 1)]
    assert {loss.seat: loss.rule for loss in result.losses}[1] == "R5.5"  # the beaten 31
    assert {loss.seat: loss.rule for loss in result.losses}[3] == "R5.2"  # Q K 10 of hearts is 30, no blitz


def test_r5_5_without_three_aces_they_are_no_blitz():
    game = scripted_game(SCAT, 3, 0, {1: "Ac Ad Ah", 2: "As Ks Ts", 0: "2h 4s 6c"})
    result = first_result(game)
    assert result.blitz == (2,)
    assert losses(result) == [(0, 1, "R5.2"), (1, 1, "R5.2")]


# ---------------------------------------------------------------------------- R5.6 one result


def test_r5_6_blitz_after_knock_never_also_charges_the_lowest_hand():
    # the knocker is alone lowest: at a showdown (scat) that would cost two; the blitz costs one
    game = draw_game(s1="2c 3d 4h", s2="Ad Kd 2s", s0="9c 8d 6h")
    game.apply("knock")
    game.apply("draw pile")
    game.apply("discard 2s")
    result = first_result(game)
    assert result.lives_lost(1) == 1
    assert result.lives_lost(0) == 1
    assert result.lives_lost(2) == 0
    assert len(result.losses) == 2
    assert not any(loss.rule.startswith("R6") for loss in result.losses)
    assert round_ended_count(game, 1) == 1
    assert result.remaining == (3, 3, 4)


def test_r5_6_dealt_31_never_also_charges_the_lowest_hand():
    game = scripted_game(SCAT, 4, 0, {1: "Ad Kd Td", 2: "2c 3d 4h", 3: "9h 8s 7c", 0: "Qh Js 9d"})
    result = first_result(game)
    assert sorted((loss.seat, loss.lives) for loss in result.losses) == [(0, 1), (2, 1), (3, 1)]
    assert all(loss.rule == "R5.2" for loss in result.losses)
    assert round_ended_count(game, 1) == 1
    assert sum(isinstance(e, RoundEnded) for e in game.events) == 1


def test_r5_6_exactly_one_result_per_round_over_many_games():
    for preset in ("scat", "widow", "namu", "schwimmen"):
        game = Game(Rules.preset(preset), 4, seed=17)
        rng = random.Random(3)
        for _ in range(3000):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        ended = [e.result.round for e in game.events if isinstance(e, RoundEnded)]
        assert ended == list(range(1, len(ended) + 1))
        for log in game.round_logs:
            result = log.result
            if result is None:
                continue
            seats = [loss.seat for loss in result.losses]
            assert len(seats) == len(set(seats)), f"{preset} round {result.round}: a seat charged twice"
            if result.blitz:
                assert all(loss.lives == 1 and loss.rule.startswith("R5") for loss in result.losses)
                assert not set(seats) & set(result.blitz)


def test_r5_2_a_long_run_of_dealt_31s_deals_again_without_exhausting_the_stack():
    from thirtyone import Card
    from thirtyone import Game

    class TiedBlitzes:  # every deal gives two players 31 each: nobody loses, the deal passes on
        def first_dealer(self, players):
            return 0

        def deal_order(self, deck, round):
            if round > 3000:
                return list(deck)
            hands = parse_cards("Ah Ad Kh Kd Qh Qd")  # seat 1: Ah Kh Qh, seat 0: Ad Kd Qd
            rest = [card for card in map(Card, range(52)) if card not in hands]
            return list(hands) + rest

        def reshuffle_order(self, cards, round):
            return list(cards)

    game = Game(Rules(), 2, chance=TiedBlitzes())
    assert game.round > 3000
    assert all(log.result.end == "dealt_blitz" and not log.result.losses for log in game.round_logs[:3000])


def test_r5_2_decision_the_schwimmen_dealers_second_hand_is_no_dealt_blitz():
    """[decision] The dealer's second hand is not a player's hand: a 31 in it is no blitz on the
    deal, and counts (R5.4, R5.1) only once the dealer takes it."""
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "7s 8h 9c"}, widow="Ac Kc Tc")
    assert game.round == 1
    assert game.phase is Phase.DEALER_CHOICE
    game.apply("take widow")
    result = game.round_logs[0].result
    assert result is not None
    assert (result.end, result.blitz) == ("blitz", (0,))
    assert [(loss.seat, loss.kind, loss.rule) for loss in result.losses] == [(1, "blitz", "R5.1"), (2, "blitz", "R5.1")]
