"""R9: the known traps of other implementations, one test (or a few) per trap; each must be impossible here."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from collections.abc import Sequence

import pytest

from helpers import FallbackChance
from helpers import cards
from helpers import deck_order
from helpers import event_cards
from helpers import losses
from helpers import scripted_game
from helpers import snapshot
from thirtyone import Acted
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import GameOver
from thirtyone import IllegalActionError
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Pass
from thirtyone import Reshuffled
from thirtyone import RoundEnded
from thirtyone import Rules
from thirtyone import TakeWidow
from thirtyone import full_deck
from thirtyone import hand_value
from thirtyone import parse_cards
from thirtyone.chance import SeededChance
from thirtyone.scoring import half_points
from thirtyone.views import Phase
from thirtyone.views import PlayerView

SCAT = Rules.preset("scat")
WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")

H25 = "Kd 8d 7d"  # 25
H20 = "Ks Ts 4h"  # 20
H15 = "9h 6h 2s"  # 15
H12A = "8c 4c 3d"  # 12
H12B = "7s 5s 2h"  # 12
H10 = "Jh 3s 5c"  # 10


def c(text: str) -> Card:
    return Card.parse(text)


def stock_turn(game: Game) -> None:
    """The current seat draws from the stock and discards that very card (its hand is unchanged)."""
    seat = game.current_seat
    before = set(game.hand(seat))
    game.apply(Draw("stock"))
    (drawn,) = set(game.hand(seat)) - before
    game.apply(Discard(drawn))


def multi_round_game(
    rules: Rules, players: int, rounds: Sequence[tuple[int, Mapping[int, str], Sequence[int] | None]]
) -> Game:
    """A game whose rounds deal exactly what is given: ``(dealer, hands, active seats or None)``."""
    decks = [deck_order(rules, players, dealer, hands, active=active) for dealer, hands, active in rounds]
    return Game(rules, players, chance=FallbackChance(rounds[0][0], decks))


def card_total(game: Game) -> int:
    everything = [card for seat in range(game.players) for card in game.hand(seat)]
    everything += list(game.discard_pile) + list(game.widow)
    assert len(set(everything)) == len(everything), "a card is in two places"
    return len(everything) + game.stock_size


def view_cards(view: PlayerView) -> set[Card]:
    """Every card a view names anywhere."""
    seen: set[Card] = set(view.hand or ())
    if view.discard_top is not None:
        seen.add(view.discard_top)
    seen.update(view.widow or ())
    for status in view.seats:
        seen.update(status.known_cards)
    for event in view.history:
        seen.update(event_cards(event))
    return seen


# ---------------------------------------------------------------------------- empty stock


def test_r9_empty_stock_reshuffles_without_crash_or_loop():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10})
    assert game.stock_size == 52 - 10
    reshuffles = 0
    while game.round == 1:
        if game.stock_size == 0:
            pile = len(game.discard_pile)
            top = game.discard_pile[-1]
            assert Draw("stock") in game.legal_actions()
            game.apply(Draw("stock"))
            reshuffles += 1
            assert game.round_events()[-2] == Reshuffled(pile - 1)
            assert game.discard_pile == (top,)
            assert game.stock_size == pile - 2  # the new stock, less the card just drawn
            game.apply(Discard(game.hand(game.current_seat)[-1]))
        else:
            stock_turn(game)
        assert card_total(game) == 52
    # only stock turns: the round runs to the turn limit (R6.7), reshuffling as often as needed (R4.3)
    assert reshuffles == 4
    assert game.last_result.end == "max_turns"
    assert game.last_result.turns == 200
    assert losses(game) == [(0, 1, "R6.5")]


def test_r9_empty_stock_with_stock_exhausted_showdown_ends_the_round():
    rules = SCAT.replace(stock_exhausted="showdown")
    game = scripted_game(rules, 3, 0, {1: H20, 2: H15, 0: H10})
    while game.round == 1:
        stock_turn(game)
    result = game.last_result
    assert result.end == "stock_exhausted"
    assert result.knocker is None
    assert not any(isinstance(event, Reshuffled) for event in game.events)
    assert result.turns == 42
    assert losses(game) == [(0, 1, "R6.5")]


def test_r9_empty_stock_during_last_turns_scores_as_if_nobody_knocked():
    rules = SCAT.replace(stock_exhausted="showdown")
    game = scripted_game(rules, 3, 0, {1: H20, 2: H15, 0: H10})
    while game.stock_size > 1:
        stock_turn(game)
    assert game.current_seat == 0
    game.apply(Knock())  # seat 0 knocks, alone lowest
    stock_turn(game)  # seat 1 takes the last stock card
    assert game.round == 2
    result = game.last_result
    assert result.end == "stock_exhausted"
    assert result.knocker is None
    assert losses(game) == [(0, 1, "R6.5")]  # one, not the scat knocker's two


# ---------------------------------------------------------------------------- pile card discarded again


def test_r9_card_just_taken_from_the_pile_cannot_be_discarded_again():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10}, upcard="Qd")
    game.apply(Draw("pile"))
    assert game.phase is Phase.DISCARD
    assert game.view(1).taken_from_pile == c("Qd")
    assert set(game.legal_actions()) == {Discard(card) for card in parse_cards(H20)}
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        game.apply(Discard(c("Qd")))
    with pytest.raises(IllegalActionError, match=r"^R4\.2"):
        game.apply("discard Qd")
    assert snapshot(game) == before
    game.apply(Discard(c("4h")))
    assert cards("Ks Ts Qd") == tuple(sorted(game.hand(1)))
    assert game.discard_pile[-1] == c("4h")


def test_r9_card_drawn_from_the_stock_may_be_discarded_at_once():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10}, stock="Qd")
    game.apply(Draw("stock"))
    assert Discard(c("Qd")) in game.legal_actions()
    game.apply(Discard(c("Qd")))
    assert game.discard_pile[-1] == c("Qd")


# ---------------------------------------------------------------------------- second knock


@pytest.mark.parametrize("rules", [SCAT, WIDOW, SCHWIMMEN.replace(knock_from_round=1)], ids=["scat", "widow", "schw"])
def test_r9_second_knock_neither_accepted_nor_overwriting_the_first(rules):
    if rules.dealer_hand:
        game = scripted_game(rules, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}, widow="Tc 9c 8c")
        game.apply(Keep())
    else:
        game = scripted_game(rules, 3, 0, {1: H10, 2: H20, 0: H15})
    game.apply(Knock())  # seat 1, alone lowest
    for _ in range(2):
        before = snapshot(game)
        with pytest.raises(IllegalActionError, match=r"^R6\.1"):
            game.apply(Knock())
        assert snapshot(game) == before
        assert game.knocker == 1
        if rules.mode == "draw":
            stock_turn(game)
        else:
            game.apply(Pass())
    assert game.round == 2
    assert game.last_result.knocker == 1
    expected = {"scat": 2, "widow": 2, "plain": 1}[rules.knock_penalty]
    assert losses(game) == [(1, expected, "R6.5")]


# ---------------------------------------------------------------------------- a 31 charged twice


def test_r9_31_on_a_last_turn_charged_once_not_also_as_lowest():
    game = scripted_game(SCAT, 3, 0, {1: H10, 2: "Ah Kh 2c", 0: H15}, upcard="Qh")
    game.apply(Knock())  # seat 1, alone lowest
    game.apply(Draw("pile"))  # seat 2 takes Qh
    game.apply(Discard(c("2c")))  # Ah Kh Qh = 31
    assert game.round == 2
    result = game.last_result
    assert result.end == "blitz"
    assert result.blitz == (2,)
    assert result.knocker == 1
    # everyone else loses exactly one life (R5.1, R5.3); no showdown loss on top, the knocker not two
    assert [(seat, lives) for seat, lives, _ in losses(game)] == [(0, 1), (1, 1)]
    assert {rule for _, _, rule in losses(game)} <= {"R5.1", "R5.3"}
    assert [game.remaining(seat) for seat in range(3)] == [3, 3, 4]


def test_r9_31_by_exchange_in_widow_mode_charged_once():
    game = scripted_game(WIDOW, 3, 0, {1: H10, 2: "Ah Kh 2c", 0: H15}, widow="Qh 3d 4d")
    game.apply(Knock())  # the widow goes face up
    game.apply(Exchange(c("2c"), c("Qh")))  # seat 2: 31
    assert game.round == 2
    assert game.last_result.end == "blitz"
    assert [(seat, lives) for seat, lives, _ in losses(game)] == [(0, 1), (1, 1)]
    assert {rule for _, _, rule in losses(game)} <= {"R5.1", "R5.3"}


def test_r9_dealt_31_charged_once():
    game = scripted_game(SCAT, 3, 0, {1: H10, 2: "Ah Kh Qh", 0: H15})
    assert game.round == 2
    assert game.last_result.end == "dealt_blitz"
    assert losses(game) == [(0, 1, "R5.2"), (1, 1, "R5.2")]
    assert sum(loss.lives for loss in game.last_result.losses) == 2


# ---------------------------------------------------------------------------- two dealt 31s


def test_r9_two_dealt_31s_scored_once():
    game = scripted_game(SCAT, 4, 0, {1: "Ah Kh Qh", 2: H15, 3: "As Ks Qs", 0: H10})
    assert game.round == 2
    result = game.last_result
    assert result.end == "dealt_blitz"
    assert result.blitz == (1, 3)
    assert losses(game) == [(0, 1, "R5.2"), (2, 1, "R5.2")]
    assert [game.remaining(seat) for seat in range(4)] == [3, 4, 3, 4]
    assert sum(isinstance(event, RoundEnded) for event in game.events) == 1


# ---------------------------------------------------------------------------- a lone high card


def test_r9_lone_high_card_beats_two_low_suited_cards():
    assert hand_value(parse_cards("As 2c 3c")) == 11
    assert hand_value(parse_cards("Ac 6s 4s")) == 11
    assert hand_value(parse_cards("Jc 7h 4s")) == 10
    # in a showdown: seat 1 knocks with As 2c 3c (11, not 5); seat 2 with 10 is the lowest
    game = scripted_game(SCAT, 3, 0, {1: "As 2c 3c", 2: "Td 4h 2h", 0: H25})
    assert game.hand_value(1) == 11
    game.apply(Knock())
    stock_turn(game)
    stock_turn(game)
    assert game.last_result.values[1] == 11
    assert game.last_result.values[2] == 10
    assert losses(game) == [(2, 1, "R6.5")]


# ---------------------------------------------------------------------------- grace life for everyone


def test_r9_grace_life_for_every_player_reaching_zero_not_only_the_first():
    rules = SCAT.replace(lives=1)
    game = multi_round_game(
        rules,
        4,
        [
            (0, {1: "Ah Kh Qh", 2: H15, 3: H20, 0: H10}, None),  # seat 1 dealt 31: three reach zero together
            (1, {2: "As Ks Qs", 3: H15, 0: H25, 1: H10}, None),  # seat 2 dealt 31
        ],
    )
    first = game.round_logs[0].result
    assert first.eliminated == ()
    assert game.round_logs[1].result.eliminated == (0, 3)
    # after round 1, seats 0, 2 and 3 were all on the dole; seat 1 reached zero later and has its grace too
    assert [first.remaining[seat] for seat in range(4)] == [1, 2, 1, 1]
    assert game.on_grace(1)
    assert game.lives(1) == 0
    assert not game.is_out(1)
    assert game.on_grace(2)
    assert not game.is_out(2)
    assert game.remaining(2) == 1
    assert game.is_out(0)
    assert game.is_out(3)
    assert game.active_seats == (1, 2)
    assert game.view(2).seats[1].on_grace


def test_r9_grace_life_for_all_who_reach_zero_in_one_result():
    rules = SCAT.replace(lives=1)
    game = scripted_game(rules, 4, 0, {1: "Ah Kh Qh", 2: H15, 3: H20, 0: H10})
    assert game.round == 2
    for seat in (0, 2, 3):
        assert game.lives(seat) == 0
        assert game.on_grace(seat)
        assert not game.is_out(seat)
        assert game.remaining(seat) == 1
    assert game.active_seats == (0, 1, 2, 3)


# ---------------------------------------------------------------------------- eliminated players


def test_r9_eliminated_player_gets_no_turn_and_is_not_the_winner():
    rules = SCAT.replace(lives=2, grace_life=False)
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "Ah Kh Qh", 2: H15, 0: H10}, None),  # seats 0 and 2 lose one
            (1, {2: H15, 0: "As Ks Qs", 1: H25}, None),  # seats 1 and 2 lose one: seat 2 is out
            (0, {1: H10, 0: H20}, [0, 1]),  # the deal skips seat 2; seat 1 plays first
        ],
    )
    assert game.round_logs[1].result.eliminated == (2,)
    assert game.round == 3
    assert game.dealer == 0  # R3.1: the deal passes over the eliminated seat 2
    assert game.current_seat == 1
    assert game.round_events()[0].seats == (0, 1)
    assert game.hand(2) == ()
    game.apply(Knock())  # seat 1 knocks, alone lowest: two lives, out
    assert game.current_seat == 0  # not seat 2
    stock_turn(game)
    assert game.is_over
    assert [seat for seat, _ in game.round_logs[2].actions] == [1, 0, 0]
    assert game.winner == 0
    assert game.events[-1] == GameOver(0)
    assert [(s.seat, s.place) for s in game.standings] == [(0, 1), (1, 2), (2, 3)]
    assert game.current_seat is None
    assert game.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        game.apply(Knock())


def test_r9_eliminated_players_never_act_in_random_games():
    for seed in range(40):
        rules = [SCAT, WIDOW, SCHWIMMEN, Rules.preset("namu")][seed % 4].replace(lives=1)
        game = Game(rules, 4 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_seat
            assert not game.is_out(seat)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        assert not game.is_out(game.winner)
        assert [s.seat for s in game.standings if s.place == 1] == [game.winner]
        out: set[int] = set()
        for log in game.round_logs:
            assert not out & {seat for seat, _ in log.actions}
            assert all(log.result.hands[seat] is None and log.result.remaining[seat] == 0 for seat in out)
            assert not out & {loss.seat for loss in log.result.losses}
            out |= set(log.result.eliminated)
        assert out == set(range(game.players)) - {game.winner}


# ---------------------------------------------------------------------------- eliminated together


def test_r9_two_players_eliminated_together_share_a_place_and_the_third_wins():
    rules = SCAT.replace(lives=1, grace_life=False)
    game = scripted_game(rules, 3, 0, {1: "Ah Kh Qh", 2: H15, 0: H10})
    assert game.is_over
    assert game.winner == 1
    assert game.last_result.eliminated == (0, 2)
    assert [(s.seat, s.place) for s in game.standings] == [(1, 1), (0, 2), (2, 2)]


def test_r9_last_two_players_eliminated_together_are_both_saved():
    rules = WIDOW.replace(lives=1, grace_life=False)
    game = scripted_game(rules, 2, 0, {1: H12A, 0: H12B})
    game.apply(Pass())
    game.apply(Pass())  # all pass: a showdown, both tie for lowest
    result = game.last_result
    assert result.end == "all_pass"
    assert losses(game) == [(0, 1, "R6.5"), (1, 1, "R6.5")]
    assert result.saved_by_r2_6
    assert result.eliminated == ()
    assert result.remaining == (1, 1)
    assert not game.is_over
    assert game.winner is None
    assert game.round == 2
    assert game.active_seats == (0, 1)


def test_r9_last_two_players_eliminated_together_with_grace():
    rules = WIDOW.replace(lives=1)
    game = multi_round_game(rules, 2, [(0, {1: H12A, 0: H12B}, None), (1, {0: H12A, 1: H12B}, None)])
    game.apply(Pass())
    game.apply(Pass())
    assert game.round_logs[0].result.remaining == (1, 1)
    assert game.on_grace(0)
    assert game.on_grace(1)
    game.apply(Pass())
    game.apply(Pass())
    result = game.round_logs[1].result
    assert result.saved_by_r2_6
    assert result.remaining == (1, 1)
    assert not game.is_over
    assert game.on_grace(0)
    assert game.on_grace(1)
    assert game.round == 3


# ---------------------------------------------------------------------------- hidden cards in views


def test_r9_stock_draw_hidden_from_the_others():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10}, stock="Qd")
    game.apply(Draw("stock"))
    assert game.view(1).history[-1].received == (c("Qd"),)
    for other in (0, 2):
        view = game.view(other)
        assert view.history[-1] == Acted(1, Draw("stock"), None, private=True)
        assert not view_cards(view) & set(game.hand(1))
    game.apply(Discard(c("Ks")))
    for other in (0, 2):
        assert not view_cards(game.view(other)) & set(game.hand(1))


def test_r9_pile_draw_is_public_and_known():
    game = scripted_game(SCAT, 3, 0, {1: H20, 2: H15, 0: H10}, upcard="Qd")
    game.apply(Draw("pile"))
    game.apply(Discard(c("4h")))
    for other in (0, 2):
        view = game.view(other)
        assert view.seats[1].known_cards == (c("Qd"),)
        # the only card of seat 1's hand the others may see is the one taken face up
        assert view_cards(view) & set(game.hand(1)) == {c("Qd")}


def test_r9_face_down_widow_taken_is_hidden_from_the_others():
    game = scripted_game(WIDOW, 3, 0, {1: H20, 2: H15, 0: H10}, widow="Ac Kc 2c")
    for seat in range(3):
        assert not view_cards(game.view(seat)) & set(game.widow)
    game.apply(ExchangeAll())
    assert tuple(sorted(game.hand(1))) == cards("Ac Kc 2c")
    for other in (0, 2):
        assert not view_cards(game.view(other)) & set(game.hand(1))
    assert set(game.view(1).hand) == set(parse_cards("Ac Kc 2c"))


def test_r9_schwimmen_second_hand_hidden_until_chosen():
    game = scripted_game(SCHWIMMEN, 3, 0, {1: "Jc 9h 8s", 2: "Qd 8d 7d", 0: "As Ks 7h"}, widow="Tc 9c 8c")
    for seat in range(3):
        assert not view_cards(game.view(seat)) & set(parse_cards("Tc 9c 8c"))
    for seat in range(3):
        for other in range(3):
            if other != seat:
                assert not view_cards(game.view(seat)) & set(game.hand(other))
    game.apply(TakeWidow())
    for other in (1, 2):
        assert not view_cards(game.view(other)) & set(game.hand(0))


# ---------------------------------------------------------------------------- default actions


def _check_every_legal_action(game: Game, table: list[int]) -> None:
    legal = game.legal_actions()
    assert legal, "a game that is not over always has a legal action"
    assert len(set(legal)) == len(legal)
    seat = game.current_seat
    taken = game.view(seat).taken_from_pile
    # immutable or finished things are shared, not copied: the value table, the cards, the events,
    # the logs of finished rounds, the current round's deck and actions
    memo: dict[int, object] = {id(table): table}
    memo.update((id(card), card) for card in full_deck(52))
    memo.update((id(event), event) for event in game.events)
    memo.update((id(log), log) for log in game.round_logs[:-1])
    current = game.round_logs[-1]
    memo[id(current.deck)] = current.deck
    memo.update((id(item), item) for item in current.actions)
    memo.update((id(order), order) for order in current.reshuffles)
    if game.last_result is not None:
        memo[id(game.last_result)] = game.last_result
    for value in vars(game).values():
        if isinstance(value, SeededChance):  # copied by its state: deepcopy of a Random is slow
            clone = SeededChance(random.Random())
            clone.rng.setstate(value.rng.getstate())
            memo[id(value)] = clone
    for action in legal:
        assert game.is_legal(action), action
        if taken is not None:
            assert action != Discard(taken), "R4.2: the card just taken from the pile is offered for discard"
        trial = copy.deepcopy(game, dict(memo))
        trial.apply(action)  # must not raise


@pytest.mark.parametrize(
    "rules",
    [
        SCAT,
        SCAT.replace(throw_down=True, min_knock_value=21, stock_exhausted="showdown"),
        Rules.preset("namu", knock_from_round=2, three_of_a_kind="30"),
        WIDOW,
        WIDOW.replace(exchange="any", all_pass="new_widow"),
        SCHWIMMEN,
    ],
    ids=["scat", "scat_options", "namu", "widow", "widow_any", "schwimmen"],
)
def test_r9_every_offered_action_is_accepted_and_none_breaks_a_rule(rules):
    table = half_points(rules)
    for seed in range(3):
        game = Game(rules.replace(max_turns=30), 3 + seed, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < 150:
            _check_every_legal_action(game, table)
            legal = game.legal_actions()
            game.apply(legal[0] if steps % 2 else legal[rng.randrange(len(legal))])
            steps += 1


@pytest.mark.parametrize("preset", ["scat", "widow", "namu", "schwimmen"])
def test_r9_always_taking_the_first_offered_action_finishes_the_game(preset):
    rules = Rules.preset(preset)
    game = Game(rules, 4, seed=5)
    actions = 0
    while not game.is_over:
        legal = game.legal_actions()
        taken = game.view(game.current_seat).taken_from_pile
        assert taken is None or Discard(taken) not in legal
        game.apply(legal[0])
        actions += 1
        assert actions < 20_000
        assert card_total(game) == len(full_deck(rules.deck))
    assert game.winner is not None
    assert [s.seat for s in game.standings if s.place == 1] == [game.winner]
    assert all(log.result.turns <= rules.max_turns for log in game.round_logs)
