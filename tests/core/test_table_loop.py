"""The one table loop (:mod:`thirtyone.table_loop`): it asks the seat the engine says is to move,
takes the chance steps a dealer gives or leaves waiting (R3.1, R3.2, R4.3), plays on to the end
of the game (R2.5) and stops where a mover says so."""

from __future__ import annotations

import random

import pytest

from helpers import snapshot
from thirtyone import Card
from thirtyone import CardError
from thirtyone import ChanceStep
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Knock
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone.table_loop import WAIT
from thirtyone.table_loop import Mover
from thirtyone.table_loop import Wait
from thirtyone.table_loop import next_seat
from thirtyone.table_loop import play
from thirtyone.table_loop import play_out
from thirtyone.views import Phase

SCAT = Rules.preset("scat")


def randomly(seed: int) -> Mover[str]:
    """A mover that plays a random legal action (seeded)."""
    rng = random.Random(seed)

    def mover(game: Game, seat: int) -> None:
        game.apply(rng.choice(game.legal_actions()), seat=seat)

    return mover


def waits_for_later_deals(step: ChanceStep) -> Wait | None:
    return WAIT if step.kind == "deal" and step.round > 1 else None


def test_r2_5_play_out_plays_until_one_seat_is_left() -> None:
    game = Game(SCAT, 3, seed=4)
    assert play_out(game, [randomly(1)] * 3) is None
    assert game.is_over
    assert game.winner is not None
    assert sum(not game.is_out(seat) for seat in range(3)) == 1


def test_play_out_asks_the_seat_the_engine_says_is_to_move() -> None:
    game = Game(SCAT, 3, seed=8)
    asked: list[int] = []
    choose = randomly(2)

    def mover(game: Game, seat: int) -> None:
        assert seat == game.current_seat
        asked.append(seat)
        choose(game, seat)

    play_out(game, dict.fromkeys(range(3), mover))
    assert asked == [seat for log in game.round_logs for seat, _ in log.actions]


def test_play_out_stops_where_a_mover_says_and_returns_why() -> None:
    game = Game(SCAT, 2, seed=1)
    keep = randomly(3)

    def stubborn(game: Game, seat: int) -> str:
        return f"seat {seat} will not move"

    before_moves = 0

    def counting(game: Game, seat: int) -> None:
        nonlocal before_moves
        before_moves += 1
        keep(game, seat)

    first = game.current_seat
    assert first is not None
    movers: list[Mover[str]] = [counting, counting]
    movers[1 - first] = stubborn
    assert play_out(game, movers) == f"seat {1 - first} will not move"
    assert game.current_seat == 1 - first
    assert not game.is_over
    assert before_moves >= 1


def test_r6_2_after_a_knock_each_other_seat_has_one_last_turn_then_the_next_deal_waits() -> None:
    game = Game(SCAT, 3, seed=5, explicit_chance=True)
    seat = next_seat(game, waits_for_later_deals)
    assert seat is not None
    knocker = seat
    asked: list[int] = []

    def knock_first(game: Game, seat: int) -> None:
        asked.append(seat)
        legal = game.legal_actions()
        game.apply(Knock() if Knock() in legal else next(a for a in legal if a != Knock()), seat=seat)

    assert play_out(game, [knock_first] * 3, waits_for_later_deals) is None
    others = [game.next_seat(knocker), game.next_seat(game.next_seat(knocker))]
    assert [s for s in asked if s != knocker] == [others[0], others[0], others[1], others[1]]  # draw, discard
    assert asked.count(knocker) == 1
    assert game.chance_step is not None
    assert (game.chance_step.kind, game.chance_step.round) == ("deal", 2)
    assert game.last_result is not None
    assert game.last_result.knocker == knocker


def test_r3_2_the_next_deal_after_a_round_is_taken_by_play_unless_it_waits() -> None:
    waiting = Game(SCAT, 2, seed=6, explicit_chance=True)
    dealt = Game(SCAT, 2, seed=6, explicit_chance=True)
    rng_a, rng_b = random.Random(9), random.Random(9)
    next_seat(waiting, waits_for_later_deals)
    next_seat(dealt)
    while waiting.last_result is None:
        action = rng_a.choice(waiting.legal_actions())
        assert action == rng_b.choice(dealt.legal_actions())
        to_move = play(waiting, action, deal=waits_for_later_deals)
        play(dealt, action)
    assert to_move is None
    assert waiting.chance_step is not None
    assert waiting.chance_step.round == 2
    assert dealt.round == 2
    assert dealt.current_seat is not None
    assert next_seat(waiting) == dealt.current_seat
    assert waiting.hand(0) == dealt.hand(0)


def test_r3_1_the_dealer_gives_the_first_dealer_and_each_deal() -> None:
    game = Game(SCAT, 3, seed=1, explicit_chance=True)
    order = list(full_deck(SCAT.deck))
    steps: list[str] = []

    def dealer(step: ChanceStep) -> list[Card] | int:
        steps.append(step.kind)
        return 2 if step.kind == "dealer" else order

    seat = next_seat(game, dealer)
    assert steps == ["dealer", "deal"]
    assert game.dealer == 2
    assert seat == game.current_seat == 0
    assert game.hand(0) == tuple(order[0:9:3])  # one card at a time, from the dealer's left (R3.2)


def test_r4_3_a_reshuffle_is_the_dealers_and_the_draw_is_done_after_it() -> None:
    given: list[ChanceStep] = []

    def dealer(step: ChanceStep) -> list[Card] | None:
        if step.kind != "reshuffle":
            return None
        given.append(step)
        return list(reversed(step.cards))

    game = Game(SCAT, 2, seed=3, explicit_chance=True)
    seat = next_seat(game, dealer)
    while not given:  # draw from the stock and throw that card until the stock runs out
        assert seat is not None
        seat = play(game, "draw stock", seat, dealer)
        if not given:
            seat = play(game, f"discard {game.hand(seat)[-1]}", seat, dealer)
    assert seat == game.current_seat
    assert game.phase is Phase.DISCARD
    assert game.hand(seat)[-1] == given[0].cards[-1]  # the top of the new stock, drawn


def test_an_outcome_the_game_refuses_leaves_the_step_due() -> None:
    game = Game(SCAT, 3, seed=1, explicit_chance=True)
    next_seat(game, lambda step: 0 if step.kind == "dealer" else WAIT)
    before = snapshot(game)
    with pytest.raises(CardError):
        next_seat(game, lambda step: list(step.cards[:-1]))
    assert snapshot(game) == before


def test_play_refuses_a_move_out_of_turn_and_changes_nothing() -> None:
    game = Game(SCAT, 3, seed=2)
    seat = game.current_seat
    assert seat is not None
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as refused:
        play(game, "draw stock", seat=game.next_seat(seat))
    assert refused.value.code == "not_your_turn"
    assert snapshot(game) == before


def test_play_out_plays_the_games_play_out_and_a_plain_loop_play_alike() -> None:
    looped = Game(SCAT, 3, seed=12)
    rng = random.Random(4)
    while looped.current_seat is not None:
        looped.apply(rng.choice(looped.legal_actions()))
    explicit = Game(SCAT, 3, seed=12, explicit_chance=True)
    play_out(explicit, [randomly(4)] * 3)
    assert explicit.events == looped.events
