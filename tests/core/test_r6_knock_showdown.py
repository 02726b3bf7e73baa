"""R6: knocking and the showdown (R6.1–R6.7), played through scripted deals.

Every showdown here is built so that nothing but the knock changes the hands: after the knock each
other player draws from the stock and discards the card just drawn (allowed by R4.2), or passes in
widow mode. The expected losses are then fixed by the dealt hands alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

import pytest

from helpers import FallbackChance
from helpers import cards
from helpers import deck_order
from helpers import losses
from helpers import scripted_game
from helpers import snapshot
from thirtyone import Acted
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Look
from thirtyone import NewWidow
from thirtyone import Pass
from thirtyone import Rules
from thirtyone import ThrowDown
from thirtyone import parse_cards
from thirtyone.views import Phase

SCAT = Rules.preset("scat")
WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")

# Disjoint hands of known standard value (R1.3); none is a 31 and none has a special score.
H30 = "Ac Kc 9c"  # 30
H25 = "Kd 8d 7d"  # 25
H25B = "Js 9s 6s"  # 25
H20 = "Ks Ts 4h"  # 20
H15 = "9h 6h 2s"  # 15
H12A = "8c 4c 3d"  # 12
H12B = "7s 5s 2h"  # 12
H12C = "6d 4d 2d"  # 12
H10 = "Jh 3s 5c"  # 10


# ---------------------------------------------------------------------------- helpers


def held(game: Game, seat: int) -> tuple:
    return tuple(sorted(game.hand(seat)))


def stock_turn(game: Game) -> None:
    """Draw mode: the current seat draws from the stock and discards that very card (hand unchanged)."""
    seat = game.current_seat
    before = set(game.hand(seat))
    game.apply(Draw("stock"))
    (drawn,) = set(game.hand(seat)) - before
    game.apply(Discard(drawn))


def quiet_turn(game: Game) -> None:
    """One turn that leaves the current seat's hand as it is: a stock turn, or a pass in widow mode."""
    if game.rules.mode == "draw":
        stock_turn(game)
    else:
        game.apply(Pass())


def knock_showdown(rules: Rules, hands: Mapping[int, str], *, knocker: int = 1, players: int = 4) -> Game:
    """Dealer 0; quiet turns until ``knocker`` is to move, it knocks, quiet turns to the showdown."""
    game = scripted_game(rules, players, 0, hands)
    while game.current_seat != knocker:
        quiet_turn(game)
    game.apply(Knock())
    while game.round == 1:
        quiet_turn(game)
    result = game.last_result
    assert result is not None
    assert result.round == 1
    assert result.end == "knock"
    assert result.knocker == knocker
    for seat, text in hands.items():
        assert tuple(sorted(result.hands[seat])) == cards(text), f"seat {seat}'s hand changed"
    return game


def multi_round_game(
    rules: Rules, players: int, rounds: Sequence[tuple[int, Mapping[int, str], Sequence[int] | None]]
) -> Game:
    """A game whose rounds deal exactly what is given: ``(dealer, hands, active seats or None)``."""
    decks = [deck_order(rules, players, dealer, hands, active=active) for dealer, hands, active in rounds]
    return Game(rules, players, chance=FallbackChance(rounds[0][0], decks))


def round_actors(game: Game, round_number: int) -> list[tuple[int, str]]:
    return [(seat, str(action)) for seat, action in game.round_logs[round_number - 1].actions]


# ---------------------------------------------------------------------------- R6.1 the knock


def test_r6_1_knock_ends_the_turn_and_passes_play_on():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10})
    assert game.current_seat == 1
    assert Knock() in game.legal_actions()
    game.apply(Knock())
    assert game.knocker == 1
    assert game.round == 1
    assert game.phase is Phase.TURN
    assert game.current_seat == 2
    assert game.turn == 1
    assert held(game, 1) == cards(H20)
    assert game.round_events()[-1] == Acted(1, Knock())


def test_r6_1_knocker_hand_is_frozen_and_knocker_plays_no_more():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10}, stock="Ah Kh Qh Jd Tc")
    game.apply(Knock())
    stock_turn(game)
    assert game.current_seat == 0
    stock_turn(game)
    assert game.round == 2
    assert [seat for seat, _ in game.round_logs[0].actions] == [1, 2, 2, 0, 0]
    assert tuple(sorted(game.last_result.hands[1])) == cards(H20)


@pytest.mark.parametrize("rules", [SCAT, WIDOW], ids=["draw", "widow"])
def test_r6_1_second_knock_refused_and_state_unchanged(rules):
    game = scripted_game(rules, 4, 0, {1: H20, 2: H25, 3: H15, 0: H10})
    game.apply(Knock())
    assert game.current_seat == 2
    assert Knock() not in game.legal_actions()
    assert not game.is_legal(Knock())
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R6\.1"):
        game.apply(Knock())
    with pytest.raises(IllegalActionError, match=r"^R6\.1"):
        game.apply("knock")
    assert snapshot(game) == before
    assert game.knocker == 1
    # the next player cannot knock either
    quiet_turn(game)
    assert game.current_seat == 3
    with pytest.raises(IllegalActionError, match=r"^R6\.1"):
        game.apply(Knock())
    assert game.knocker == 1


def test_r6_1_second_knock_does_not_overwrite_the_first():
    # seat 1 knocks with the lowest hand; if seat 2's knock replaced it, seat 1 would lose one, not two
    game = scripted_game(SCAT, 3, 0, {1: H10, 2: H20, 0: H15})
    game.apply(Knock())
    with pytest.raises(IllegalActionError, match=r"^R6\.1"):
        game.apply(Knock())
    stock_turn(game)
    stock_turn(game)
    assert game.last_result.knocker == 1
    assert losses(game) == [(1, 2, "R6.5")]


# ---------------------------------------------------------------------------- R6.2 one more turn each


def test_r6_2_every_other_player_gets_exactly_one_more_turn_in_order():
    game = scripted_game(SCAT, 4, 0, {1: H20, 2: H25, 3: H15, 0: H10})
    stock_turn(game)  # seat 1
    assert game.current_seat == 2
    game.apply(Knock())  # seat 2 knocks
    order = []
    while game.round == 1:
        order.append(game.current_seat)
        stock_turn(game)
    assert order == [3, 0, 1]
    result = game.last_result
    assert result.end == "knock"
    assert result.knocker == 2
    assert result.turns == 5
    # the showdown shows every hand
    assert all(result.hands[seat] is not None for seat in range(4))
    assert losses(game) == [(0, 1, "R6.5")]


def test_r6_2_showdown_comes_right_after_the_knockers_right_hand_neighbour():
    game = scripted_game(SCAT, 4, 0, {1: H20, 2: H25, 3: H15, 0: H10})
    game.apply(Knock())  # seat 1 knocks; seat 0 is on its right
    stock_turn(game)  # seat 2
    stock_turn(game)  # seat 3
    assert game.round == 1
    assert game.current_seat == 0
    game.apply(Draw("stock"))
    assert game.round == 1
    game.apply(Discard(game.hand(0)[-1]))
    assert game.round == 2
    assert game.last_result.end == "knock"


def test_r6_2_widow_mode_last_turns_then_showdown():
    game = scripted_game(WIDOW, 3, 0, {1: H20, 2: H15, 0: H10})
    game.apply(Pass())  # seat 1 (opening)
    game.apply(Knock())  # seat 2
    assert game.current_seat == 0
    game.apply(Pass())
    assert game.round == 1
    assert game.current_seat == 1
    game.apply(Pass())
    assert game.round == 2
    assert game.last_result.end == "knock"
    assert game.last_result.knocker == 2
    assert losses(game) == [(0, 1, "R6.5")]


def test_r6_2_eliminated_players_are_skipped():
    rules = SCAT.replace(lives=1, grace_life=False)
    game = multi_round_game(
        rules,
        4,
        [
            (0, {1: H30, 2: H10, 3: H20, 0: H25}, None),
            # round 2: dealer 1, seat 2 is out, so seat 3 plays first
            (1, {3: H20, 0: H25, 1: H15}, [0, 1, 3]),
        ],
    )
    game.apply(Knock())  # seat 1
    while game.round == 1:
        stock_turn(game)
    assert game.last_result.eliminated == (2,)
    assert game.is_out(2)
    assert game.dealer == 1
    assert game.current_seat == 3
    stock_turn(game)  # seat 3
    stock_turn(game)  # seat 0
    assert game.current_seat == 1
    game.apply(Knock())  # seat 1 knocks; seat 2 sits between seats 1 and 3 but is out
    assert game.current_seat == 3
    stock_turn(game)
    assert game.current_seat == 0
    assert game.round == 2
    stock_turn(game)
    assert game.round == 3
    assert 2 not in {seat for seat, _ in game.round_logs[1].actions}
    assert [seat for seat, _ in game.round_logs[1].actions] == [3, 3, 0, 0, 1, 3, 3, 0, 0]
    result = game.round_logs[1].result
    assert result.end == "knock"
    assert result.knocker == 1
    assert result.hands[2] is None
    assert losses(game) == [(1, 2, "R6.5")]  # scat: the knocker alone lowest
    assert game.active_seats == (0, 3)


# ---------------------------------------------------------------------------- R6.3 knock_from_round


def test_r6_3_knock_from_round_1_allows_a_first_turn_knock():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10})
    assert game.turn == 0
    assert Knock() in game.legal_actions()
    game.apply(Knock())
    assert game.knocker == 1


def test_r6_3_knock_from_round_2_refuses_knocks_until_everyone_has_played():
    rules = SCAT.replace(knock_from_round=2)
    game = scripted_game(rules, 3, 0, {1: H20, 2: H15, 0: H10})
    for seat in (1, 2, 0):
        assert game.current_seat == seat
        assert Knock() not in game.legal_actions()
        before = snapshot(game)
        with pytest.raises(IllegalActionError, match=r"^R6\.3"):
            game.apply(Knock())
        assert snapshot(game) == before
        stock_turn(game)
    assert game.current_seat == 1
    assert game.turn == 3
    assert Knock() in game.legal_actions()
    game.apply(Knock())
    assert game.knocker == 1


def test_r6_3_schwimmen_preset_knocks_from_round_2():
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}, widow="Tc 9c 8c")
    assert SCHWIMMEN.knock_from_round == 2
    game.apply(Keep())
    assert game.current_seat == 1
    with pytest.raises(IllegalActionError, match=r"^R6\.3"):
        game.apply(Knock())
    assert Knock() not in game.legal_actions()


# ---------------------------------------------------------------------------- R6.4 min_knock_value


def test_r6_4_min_knock_value_refuses_a_lower_hand():
    rules = SCAT.replace(min_knock_value=21)
    game = scripted_game(rules, 3, 0, {1: H20, 2: "Ad Td 2c", 0: H10})  # seat 2: 21
    assert Knock() not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R6\.4"):
        game.apply(Knock())
    assert snapshot(game) == before
    stock_turn(game)
    assert game.current_seat == 2
    assert Knock() in game.legal_actions()
    game.apply(Knock())
    assert game.knocker == 2


def test_r6_4_min_knock_value_counts_special_scores():
    rules = SCAT.replace(min_knock_value=30, three_of_a_kind="30")
    game = scripted_game(rules, 3, 0, {1: "7c 7d 7h", 2: H15, 0: H10})
    assert game.hand_value(1) == 30
    game.apply(Knock())
    assert game.knocker == 1


def test_r6_4_min_knock_value_in_widow_mode():
    rules = WIDOW.replace(min_knock_value=21)
    game = scripted_game(rules, 3, 0, {1: H20, 2: H25, 0: H10})
    assert set(game.legal_actions()) == {Pass(), ExchangeAll()}
    with pytest.raises(IllegalActionError, match=r"^R6\.4"):
        game.apply(Knock())
    game.apply(Pass())
    assert Knock() in game.legal_actions()


# ---------------------------------------------------------------------------- R6.5 scat


def test_r6_5_scat_knocker_alone_lowest_loses_two():
    game = knock_showdown(SCAT, {1: H10, 2: H15, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5")]
    assert game.remaining(1) == 2  # 3 lives + grace - 2


def test_r6_5_scat_knocker_tied_for_lowest_is_saved_other_loses_one():
    game = knock_showdown(SCAT, {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(2, 1, "R6.5")]
    assert game.remaining(1) == 4


def test_r6_5_scat_knocker_tied_with_two_others_both_others_lose_one():
    game = knock_showdown(SCAT, {1: H12A, 2: H12B, 3: H12C, 0: H25})
    assert losses(game) == [(2, 1, "R6.5"), (3, 1, "R6.5")]


def test_r6_5_scat_ties_among_non_knockers_all_lose_one():
    game = knock_showdown(SCAT, {1: H20, 2: H12A, 3: H25, 0: H12B})
    assert losses(game) == [(0, 1, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_scat_lowest_non_knocker_loses_one():
    game = knock_showdown(SCAT, {1: H25, 2: H20, 3: H10, 0: H15})
    assert losses(game) == [(3, 1, "R6.5")]


def test_r6_5_scat_is_the_default_penalty():
    assert SCAT.knock_penalty == "scat"
    assert Rules().knock_penalty == "scat"


def test_r6_5_scat_knocker_not_first_to_play():
    game = knock_showdown(SCAT, {1: H20, 2: H15, 3: H10, 0: H25}, knocker=3)
    assert losses(game) == [(3, 2, "R6.5")]


# ---------------------------------------------------------------------------- R6.5 namu

NAMU = Rules.preset("namu")
NAMU_RISKY = NAMU.replace(knock_penalty="namu_risky")


def test_r6_5_namu_knocker_alone_lowest_loses_one():
    game = knock_showdown(NAMU, {1: H10, 2: H15, 3: H20, 0: H25})
    assert losses(game) == [(1, 1, "R6.5")]


def test_r6_5_namu_knocker_tied_for_lowest_is_saved():
    game = knock_showdown(NAMU, {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(2, 1, "R6.5")]


def test_r6_5_namu_knocker_tied_with_two_others_is_saved():
    game = knock_showdown(NAMU, {1: H12A, 2: H12B, 3: H12C, 0: H25})
    assert losses(game) == [(2, 1, "R6.5"), (3, 1, "R6.5")]


def test_r6_5_namu_ties_among_non_knockers_all_lose_one():
    game = knock_showdown(NAMU, {1: H25, 2: H12A, 3: H20, 0: H12B})
    assert losses(game) == [(0, 1, "R6.5"), (2, 1, "R6.5")]


# ---------------------------------------------------------------------------- R6.5 namu_risky


def test_r6_5_namu_risky_knocker_alone_lowest_loses_two_in_all():
    game = knock_showdown(NAMU_RISKY, {1: H10, 2: H15, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5")]
    assert game.last_result.lives_lost(1) == 2


def test_r6_5_namu_risky_knocker_tied_for_lowest_loses_two_in_all_other_loses_one():
    game = knock_showdown(NAMU_RISKY, {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5"), (2, 1, "R6.5")]
    assert game.last_result.lives_lost(1) == 2


def test_r6_5_namu_risky_knocker_in_the_middle_loses_two():
    game = knock_showdown(NAMU_RISKY, {1: H20, 2: H10, 3: H25, 0: H15})
    assert losses(game) == [(1, 2, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_namu_risky_knocker_sharing_the_highest_loses_nothing():
    game = knock_showdown(NAMU_RISKY, {1: H25, 2: H25B, 3: H10, 0: H15})
    assert losses(game) == [(3, 1, "R6.5")]


def test_r6_5_namu_risky_knocker_alone_highest_loses_nothing():
    game = knock_showdown(NAMU_RISKY, {1: H30, 2: H20, 3: H10, 0: H15})
    assert losses(game) == [(3, 1, "R6.5")]


def test_r6_5_namu_risky_all_tied_knocker_holds_the_highest_and_is_saved():
    game = knock_showdown(NAMU_RISKY, {1: H12A, 2: H12B, 0: H12C}, players=3)
    assert losses(game) == [(0, 1, "R6.5"), (2, 1, "R6.5")]


# ---------------------------------------------------------------------------- R6.5 widow


def test_r6_5_widow_preset_uses_widow_penalty():
    assert WIDOW.knock_penalty == "widow"


def test_r6_5_widow_knocker_alone_lowest_loses_two():
    game = knock_showdown(WIDOW, {1: H10, 2: H15, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5")]


def test_r6_5_widow_knocker_tied_for_lowest_loses_two_other_loses_one():
    game = knock_showdown(WIDOW, {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_widow_knocker_tied_with_two_others():
    game = knock_showdown(WIDOW, {1: H12A, 2: H12B, 3: H12C, 0: H25})
    assert losses(game) == [(1, 2, "R6.5"), (2, 1, "R6.5"), (3, 1, "R6.5")]


def test_r6_5_widow_knocker_not_lowest_lowest_loses_one():
    game = knock_showdown(WIDOW, {1: H20, 2: H12A, 3: H25, 0: H12B})
    assert losses(game) == [(0, 1, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_widow_penalty_in_draw_mode():
    game = knock_showdown(SCAT.replace(knock_penalty="widow"), {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(1, 2, "R6.5"), (2, 1, "R6.5")]


# ---------------------------------------------------------------------------- R6.5 plain

PLAIN = SCAT.replace(knock_penalty="plain")


def test_r6_5_plain_knocker_alone_lowest_loses_one():
    game = knock_showdown(PLAIN, {1: H10, 2: H15, 3: H20, 0: H25})
    assert losses(game) == [(1, 1, "R6.5")]


def test_r6_5_plain_knocker_tied_for_lowest_loses_one_like_everyone():
    game = knock_showdown(PLAIN, {1: H12A, 2: H12B, 3: H20, 0: H25})
    assert losses(game) == [(1, 1, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_plain_knocker_not_lowest():
    game = knock_showdown(PLAIN, {1: H25, 2: H12A, 3: H20, 0: H12B})
    assert losses(game) == [(0, 1, "R6.5"), (2, 1, "R6.5")]


def test_r6_5_schwimmen_plain_knock_after_a_new_widow():
    # R7.6 keep, R6.3 no knock before everyone has played, R7.3 new widow, then R6.5 plain
    game = scripted_game(
        SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}, widow="Tc 9c 8c", stock="7c 8h 9s"
    )
    assert SCHWIMMEN.knock_penalty == "plain"
    game.apply(Keep())
    for _ in range(3):
        game.apply(Pass())
    assert [e for e in game.round_events() if isinstance(e, NewWidow)] == [
        NewWidow(parse_cards("Tc 9c 8c"), parse_cards("7c 8h 9s"))
    ]
    assert game.current_seat == 1
    game.apply(Knock())  # seat 1, value 10, alone lowest
    game.apply(Pass())
    game.apply(Pass())
    assert game.round == 2
    assert game.last_result.end == "knock"
    assert game.last_result.knocker == 1
    assert losses(game) == [(1, 1, "R6.5")]


# ---------------------------------------------------------------------------- R6.6 throw_down

THROW = SCAT.replace(throw_down=True)


def test_r6_6_blind_phase_view_hides_own_hand_until_look():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    assert game.phase is Phase.LOOK
    assert game.current_seat == 1
    assert set(game.legal_actions()) == {Look(), ThrowDown()}
    for seat in range(3):
        view = game.view(seat)
        assert view.hand is None
        assert view.hand_value is None
        assert not view.seats[seat].has_looked
    game.apply(Look())
    assert game.view(1).hand == game.hand(1)
    assert game.view(1).hand_value == 20
    assert game.view(1).seats[1].has_looked
    assert game.view(2).hand is None
    assert game.view(0).hand is None
    assert game.current_seat == 2
    assert game.phase is Phase.LOOK


def test_r6_6_no_draw_or_knock_in_the_blind_phase():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    before = snapshot(game)
    for action in (Draw("stock"), Draw("pile"), Knock(), Pass()):
        with pytest.raises(IllegalActionError, match=r"^R6\.6"):
            game.apply(action)
    assert snapshot(game) == before


def test_r6_6_when_everyone_has_looked_the_first_turn_starts():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    for seat in (1, 2, 0):
        assert game.current_seat == seat
        game.apply(Look())
    assert game.phase is Phase.TURN
    assert game.current_seat == 1
    assert game.turn == 0
    assert all(game.view(seat).hand == game.hand(seat) for seat in range(3))


def test_r6_6_throw_down_is_a_showdown_with_the_caller_as_knocker():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    game.apply(Look())
    game.apply(ThrowDown())  # seat 2, alone lowest: scat knocker alone lowest loses two
    assert game.round == 2
    result = game.last_result
    assert result.end == "throw_down"
    assert result.knocker == 2
    assert all(result.hands[seat] is not None for seat in range(3))
    assert losses(game) == [(2, 2, "R6.5")]


def test_r6_6_throw_down_by_a_higher_hand():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    game.apply(ThrowDown())  # seat 1 throws down at once
    result = game.last_result
    assert result.end == "throw_down"
    assert result.knocker == 1
    assert result.round == 1
    assert losses(game) == [(2, 1, "R6.5")]
    assert [(seat, str(action)) for seat, action in game.round_logs[0].actions] == [(1, "throw down")]


def test_r6_6_player_who_looked_cannot_throw_down():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: H10, 0: H15})
    game.apply(Look())
    with pytest.raises(IllegalActionError):
        game.apply(ThrowDown(), seat=1)
    for _ in range(2):
        game.apply(Look())
    assert game.current_seat == 1
    assert ThrowDown() not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(ThrowDown())
    assert snapshot(game) == before


def test_r6_6_dealt_31_is_shown_before_the_blind_phase():
    game = scripted_game(THROW, 3, 0, {1: H20, 2: "Ah Kh Qh", 0: H15})
    assert game.round == 2
    assert game.round_logs[0].actions == []
    result = game.last_result
    assert result.end == "dealt_blitz"
    assert result.blitz == (2,)
    assert tuple(sorted(result.hands[2])) == cards("Ah Kh Qh")
    assert losses(game) == [(0, 1, "R5.2"), (1, 1, "R5.2")]
    assert game.phase is Phase.LOOK


def test_r6_6_throw_down_off_has_no_blind_phase():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H10, 0: H15})
    assert game.phase is Phase.TURN
    assert game.view(1).hand == game.hand(1)
    assert ThrowDown() not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.apply(ThrowDown())


# ---------------------------------------------------------------------------- R6.7 max_turns


def test_r6_7_max_turns_ends_in_a_showdown_with_no_knocker():
    rules = SCAT.replace(max_turns=6)
    game = scripted_game(rules, 3, 0, {1: H10, 2: H15, 0: H20})
    for _ in range(5):
        stock_turn(game)
    assert game.round == 1
    assert game.turn == 5
    stock_turn(game)
    assert game.round == 2
    result = game.last_result
    assert result.end == "max_turns"
    assert result.knocker is None
    assert result.turns == 6
    # no knocker: seat 1 (lowest) loses one, not the knocker's two
    assert losses(game) == [(1, 1, "R6.5")]


def test_r6_7_max_turns_ties_all_lose_one():
    rules = SCAT.replace(max_turns=3)
    game = scripted_game(rules, 3, 0, {1: H12A, 2: H12B, 0: H20})
    for _ in range(3):
        stock_turn(game)
    assert game.last_result.end == "max_turns"
    assert losses(game) == [(1, 1, "R6.5"), (2, 1, "R6.5")]


def test_r6_7_max_turns_in_widow_mode():
    rules = WIDOW.replace(max_turns=4)
    game = scripted_game(rules, 3, 0, {1: H10, 2: H15, 0: H20}, widow="2c 3c 4c")
    game.apply(Pass())  # seat 1 (opening; the widow goes face up)
    # exchanges, so that no circle of passes ends the round first (R7.3)
    game.apply(Exchange(*parse_cards("2s 2c")))  # seat 2: 9h 6h 2c = 15
    game.apply(Exchange(*parse_cards("4h 2s")))  # seat 0: Ks Ts 2s = 22
    assert game.round == 1
    assert game.turn == 3
    game.apply(Exchange(*parse_cards("5c 4c")))  # seat 1: Jh 3s 4c = 10
    assert game.round == 2
    result = game.last_result
    assert result.end == "max_turns"
    assert result.knocker is None
    assert result.turns == 4
    assert result.values[1] == 10
    assert result.values[2] == 15
    assert result.values[0] == 22
    assert losses(game) == [(1, 1, "R6.5")]


def test_r6_3_decision_the_schwimmen_dealers_choice_is_not_a_turn():
    """[decision] Keep-or-take is not a turn: after it no turn is counted, and a knock is first
    allowed once each of the three players has had a turn."""
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}, widow="Tc 9c 8c")
    game.apply(Keep())
    assert game.turn == 0
    for _ in range(3):
        assert Knock() not in game.legal_actions()
        game.apply(Pass())
    assert game.turn == 3
    assert Knock() in game.legal_actions()


def test_r6_6_decision_a_throw_down_is_not_a_turn():
    game = scripted_game(THROW.replace(max_turns=1), 3, 0, {1: H20, 2: H10, 0: H15})
    game.apply(Look())
    game.apply(ThrowDown())
    result = game.last_result
    assert result.end == "throw_down"
    assert result.turns == 0  # no turn was played: R6.3 and R6.7 count none for it


@pytest.mark.parametrize(
    "limits", [{"min_knock_value": 25}, {"knock_from_round": 2}, {"min_knock_value": 21, "knock_from_round": 2}]
)
def test_r6_6_decision_knock_limits_do_not_block_a_throw_down(limits):
    rules = THROW.replace(**limits)
    game = scripted_game(rules, 3, 0, {1: H20, 2: H10, 0: H15})
    assert ThrowDown() in game.legal_actions()  # seat 1 holds 20, before anyone has had a turn
    game.apply(ThrowDown())
    assert (game.last_result.end, game.last_result.knocker) == ("throw_down", 1)
    assert losses(game) == [(2, 1, "R6.5")]


def test_r6_7_decision_the_last_turn_of_a_knock_as_the_max_turns_th_plays_the_knock():
    """[decision] When the max_turns-th turn is the knock's final last turn, the knock's showdown is
    played: the knocker (seat 1, alone lowest) loses two, as knock_penalty=scat says."""
    rules = SCAT.replace(max_turns=3)
    game = scripted_game(rules, 3, 0, {1: H10, 2: H15, 0: H20})
    game.apply(Knock())  # turn 1: seat 1 knocks
    stock_turn(game)  # turn 2: seat 2's last turn
    assert game.round == 1
    stock_turn(game)  # turn 3 = max_turns: seat 0's last turn, the knock's final one
    result = game.last_result
    assert (result.end, result.knocker, result.turns) == ("knock", 1, 3)
    assert losses(game) == [(1, 2, "R6.5")]


def test_r6_7_decision_a_knock_still_waiting_at_max_turns_is_void():
    rules = SCAT.replace(max_turns=2)
    game = scripted_game(rules, 3, 0, {1: H10, 2: H15, 0: H20})
    game.apply(Knock())  # turn 1: seat 1 knocks
    stock_turn(game)  # turn 2 = max_turns: seat 0's last turn never comes
    result = game.last_result
    assert (result.end, result.knocker) == ("max_turns", None)
    assert losses(game) == [(1, 1, "R6.5")]  # one life, as if nobody knocked
