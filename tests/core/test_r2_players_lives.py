"""R2: players, seats and lives (R2.1–R2.6), played through scripted rounds."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

import pytest

from helpers import FallbackChance
from helpers import deck_order
from helpers import scripted_game
from thirtyone import Discard
from thirtyone import Game
from thirtyone import GameOver
from thirtyone import Loss
from thirtyone import RoundEnded
from thirtyone import Rules
from thirtyone import RulesError
from thirtyone.views import Phase

SCAT = Rules.preset("scat")
NAMU = Rules.preset("namu")


def multi_round_game(
    rules: Rules,
    players: int,
    rounds: Sequence[tuple[int, Mapping[int, str], Sequence[int] | None]],
    *,
    seed: int = 0,
) -> Game:
    """A game whose rounds deal exactly what is given: ``(dealer, hands, active seats or None)``."""
    decks = [deck_order(rules, players, dealer, hands, active=active) for dealer, hands, active in rounds]
    return Game(rules, players, chance=FallbackChance(rounds[0][0], decks, seed=seed))


def play_knock_round(game: Game) -> None:
    """The current seat knocks; every other seat draws from the stock and discards that card."""
    start = game.round
    game.apply("knock")
    while game.round == start and not game.is_over:
        seat = game.current_seat
        game.apply("draw stock")
        game.apply(Discard(game.hand(seat)[-1]))


def results(game: Game):
    return [log.result for log in game.round_logs if log.result is not None]


# ---------------------------------------------------------------------------- R2.1 player counts


@pytest.mark.parametrize("players", range(2, 10))
def test_r2_1_two_to_nine_players(players):
    game = Game(SCAT, players, seed=11)
    assert game.players == players
    assert game.active_seats == tuple(range(players))
    assert all(len(game.hand(seat)) == 3 for seat in range(players))
    assert len({card for seat in range(players) for card in game.hand(seat)}) == 3 * players


@pytest.mark.parametrize("players", [-1, 0, 1, 10, 12])
def test_r2_1_other_player_counts_refused(players):
    with pytest.raises(RulesError, match=r"^R2\.1"):
        Game(SCAT, players, seed=1)


@pytest.mark.parametrize("players", ["3", 3.0, True, None])
def test_r2_1_player_count_must_be_a_whole_number(players):
    with pytest.raises(RulesError, match="whole number"):
        Game(SCAT, players, seed=1)


def test_r2_1_32_cards_and_9_players_refused_naming_r2_1():
    with pytest.raises(RulesError, match=r"^R2\.1") as info:
        Game(Rules.preset("schwimmen"), 9, seed=1)
    message = str(info.value)
    assert "32" in message
    assert "\n" not in message
    with pytest.raises(RulesError, match=r"^R2\.1"):
        Game(SCAT.replace(deck=32), 9, seed=1)
    with pytest.raises(RulesError, match=r"^R2\.1"):
        Rules.preset("schwimmen").check_players(9)


def test_r2_1_32_cards_with_fewer_players_can_be_dealt():
    game = Game(Rules.preset("schwimmen"), 4, seed=2)
    assert game.players == 4
    Rules.preset("schwimmen").check_players(2)


def test_r2_1_seats_clockwise_play_passes_to_the_left():
    game = scripted_game(SCAT, 4, 1, {2: "2c 4d 6h", 3: "2d 4h 6s", 0: "2h 4s 6c", 1: "2s 4c 6d"})
    seen = []
    for _ in range(5):
        seat = game.current_seat
        seen.append(seat)
        game.apply("draw stock")
        game.apply(Discard(game.hand(seat)[-1]))
    assert seen == [2, 3, 0, 1, 2]


# ---------------------------------------------------------------------------- R2.2 lives


def test_r2_2_players_start_with_three_lives_by_default():
    game = Game(SCAT, 4, seed=5)
    for seat in range(4):
        assert game.lives(seat) == 3
        assert game.remaining(seat) == 4  # three lives and the grace life
        assert not game.on_grace(seat)
        assert not game.is_out(seat)
    view = game.view(0)
    assert [status.lives for status in view.seats] == [3, 3, 3, 3]


def test_r2_2_lives_option():
    game = Game(SCAT.replace(lives=5), 3, seed=5)
    assert [game.lives(seat) for seat in range(3)] == [5, 5, 5]
    assert [game.remaining(seat) for seat in range(3)] == [6, 6, 6]
    game = Game(NAMU.replace(lives=2), 3, seed=5)
    assert [game.lives(seat) for seat in range(3)] == [2, 2, 2]
    assert [game.remaining(seat) for seat in range(3)] == [2, 2, 2]


# ---------------------------------------------------------------------------- R2.3 grace life


def test_r2_3_grace_life_every_player_reaching_zero_stays_in():
    rules = SCAT.replace(lives=1)
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "Ad Kd Td", 2: "2c 4d 6h", 0: "2d 4h 6s"}, None),  # seat 1 dealt 31
            (1, {2: "2c 4d 6h", 0: "2d 4h 6s", 1: "2h 4s 6c"}, None),  # plain deal
        ],
    )
    first = results(game)[0]
    assert first.end == "dealt_blitz"
    assert sorted((loss.seat, loss.lives) for loss in first.losses) == [(0, 1), (2, 1)]
    # both players who reached zero are "on the dole", not only the first one
    for seat in (0, 2):
        assert game.lives(seat) == 0
        assert game.remaining(seat) == 1
        assert game.on_grace(seat)
        assert not game.is_out(seat)
    assert game.lives(1) == 1
    assert not game.on_grace(1)
    assert game.active_seats == (0, 1, 2)
    assert game.round == 2
    view = game.view(1)
    assert [status.on_grace for status in view.seats] == [True, False, True]
    assert [status.lives for status in view.seats] == [0, 1, 0]


def test_r2_3_next_loss_on_grace_puts_the_player_out():
    rules = SCAT.replace(lives=1)
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "Ad Kd Td", 2: "2c 4d 6h", 0: "2d 4h 6s"}, None),  # 0 and 2 on the dole
            (1, {2: "Ah Kh Th", 0: "2c 4d 6h", 1: "2d 4h 6s"}, None),  # seat 2 dealt 31
            (2, {1: "2c 4d 6h", 2: "2d 4h 6s"}, [1, 2]),
        ],
    )
    second = results(game)[1]
    assert sorted((loss.seat, loss.lives, loss.rule) for loss in second.losses) == [(0, 1, "R5.2"), (1, 1, "R5.2")]
    assert second.eliminated == (0,)
    assert game.is_out(0)
    assert game.remaining(0) == 0
    # seat 1 reached zero only now and gets its own grace life
    assert not game.is_out(1)
    assert game.on_grace(1)
    assert game.on_grace(2)
    assert game.active_seats == (1, 2)
    assert not game.is_over


def test_r2_3_without_grace_life_out_at_zero():
    rules = NAMU.replace(lives=2)
    assert rules.grace_life is False
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "Ad Kd Td", 2: "2c 4d 6h", 0: "2d 4h 6s"}, None),
            (1, {2: "Ah Kh Th", 0: "2c 4d 6h", 1: "2d 4h 6s"}, None),
            (2, {1: "2c 4d 6h", 2: "2d 4h 6s"}, [1, 2]),
        ],
    )
    first, second = results(game)[:2]
    assert first.eliminated == ()
    assert [game.round_logs[0].result.remaining[seat] for seat in range(3)] == [1, 2, 1]
    assert second.eliminated == (0,)
    assert game.is_out(0)
    assert not game.on_grace(1)
    assert game.lives(1) == 1
    assert game.lives(2) == 1
    assert game.active_seats == (1, 2)


def test_r2_3_namu_preset_is_out_at_zero():
    game = scripted_game(NAMU.replace(lives=1), 3, 0, {1: "Ad Kd Td", 2: "2c 4d 6h", 0: "2d 4h 6s"})
    result = results(game)[0]
    assert sorted(result.eliminated) == [0, 2]
    assert game.is_over
    assert game.winner == 1


# ---------------------------------------------------------------------------- R2.4 single counter


def _knocker_alone_lowest(rules: Rules) -> Game:
    """3 players, dealer 0: seat 1 knocks and is alone lowest (scat penalty: two lives)."""
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "2c 4d 6h", 2: "Kc Qd 9h", 0: "Ks Qh 8d"}, None),
            (1, {2: "2c 4d 6h", 0: "2d 4h 6s", 1: "2h 4s 6c"}, None),
        ],
    )
    assert game.current_seat == 1
    play_knock_round(game)
    return game


def test_r2_4_two_lives_lost_with_one_left_uses_up_the_grace():
    game = _knocker_alone_lowest(SCAT.replace(lives=1))
    result = results(game)[0]
    assert result.losses == (Loss(1, 2, "knocker_alone_lowest"),)
    assert result.eliminated == (1,)
    assert game.is_out(1)
    assert game.remaining(1) == 0
    assert game.lives(1) == 0
    assert not game.on_grace(1)
    assert game.remaining(0) == 2
    assert game.remaining(2) == 2


def test_r2_4_two_lives_lost_with_two_left_leaves_the_grace():
    game = _knocker_alone_lowest(SCAT.replace(lives=2))
    result = results(game)[0]
    assert result.lives_lost(1) == 2
    assert result.eliminated == ()
    assert result.remaining == (3, 1, 3)
    assert not game.is_out(1)
    assert game.lives(1) == 0
    assert game.on_grace(1)  # "on the dole"
    assert game.view(0).seats[1].on_grace


def test_r2_4_two_lives_lost_with_one_left_without_grace():
    game = _knocker_alone_lowest(SCAT.replace(lives=1, grace_life=False))
    result = results(game)[0]
    assert result.lives_lost(1) == 2
    assert result.eliminated == (1,)
    assert game.remaining(1) == 0
    assert game.is_out(1)
    assert not game.on_grace(1)


def test_r2_4_remaining_is_lives_plus_grace():
    game = _knocker_alone_lowest(SCAT.replace(lives=3))
    assert results(game)[0].remaining == (4, 2, 4)
    assert game.lives(1) == 1
    assert not game.on_grace(1)


# ---------------------------------------------------------------------------- R2.5 standings


def test_r2_5_standings_reverse_order_of_elimination_shared_places():
    rules = SCAT.replace(lives=1, grace_life=False)
    game = multi_round_game(
        rules,
        4,
        [
            # round 1, dealer 0: seat 1 knocks; seat 3 is alone lowest and goes out
            (0, {1: "Ac Kc 9c", 2: "Ah Kh 8h", 3: "2c 4d 6h", 0: "Ks Qs 7s"}, None),
            # round 2, dealer 1: seat 2 knocks; seats 0 and 1 tie for lowest and go out together
            (1, {2: "Ac Kc 9c", 0: "2c 4d 6h", 1: "2d 4h 6s"}, [0, 1, 2]),
        ],
    )
    assert game.current_seat == 1
    play_knock_round(game)
    first = results(game)[0]
    assert first.eliminated == (3,)
    assert [(loss.seat, loss.lives) for loss in first.losses] == [(3, 1)]
    assert game.dealer == 1
    assert game.current_seat == 2
    play_knock_round(game)
    second = results(game)[1]
    assert sorted(second.eliminated) == [0, 1]
    assert game.is_over
    assert game.winner == 2
    assert game.current_seat is None
    assert game.legal_actions() == ()
    assert isinstance(game.events[-1], GameOver)
    assert game.events[-1].winner == 2
    places = {standing.seat: standing.place for standing in game.standings}
    assert places == {2: 1, 0: 2, 1: 2, 3: 4}
    assert game.standings[0].seat == 2
    assert [standing.out for standing in game.standings] == [False, True, True, True]


def test_r2_5_game_ends_when_one_player_remains():
    game = scripted_game(SCAT.replace(lives=1, grace_life=False), 3, 0, {1: "Ad Kd Td", 2: "2c 4d 6h", 0: "2d 4h 6s"})
    assert game.is_over
    assert game.winner == 1
    assert game.phase is Phase.OVER
    assert sum(isinstance(event, GameOver) for event in game.events) == 1
    assert {s.seat: s.place for s in game.standings} == {1: 1, 0: 2, 2: 2}


def test_r2_5_eliminated_player_is_never_the_winner():
    game = Game(SCAT.replace(lives=1), 4, seed=21)
    import random

    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.winner is not None
    assert not game.is_out(game.winner)
    assert game.active_seats == (game.winner,)
    assert game.standings[0].seat == game.winner
    assert game.standings[0].place == 1
    assert all(standing.place > 1 for standing in game.standings[1:])


# ---------------------------------------------------------------------------- R2.6 nobody eliminated by all


def test_r2_6_tie_that_would_eliminate_both_players_eliminates_nobody():
    rules = SCAT.replace(lives=1, grace_life=False, knock_penalty="plain")
    game = multi_round_game(
        rules,
        2,
        [
            (0, {1: "2c 4d 6h", 0: "2d 4h 6s"}, None),
            (1, {0: "2c 4d 6h", 1: "3d 5h 7s"}, None),
        ],
    )
    play_knock_round(game)
    result = results(game)[0]
    assert sorted((loss.seat, loss.lives) for loss in result.losses) == [(0, 1), (1, 1)]
    assert result.saved_by_r2_6
    assert result.eliminated == ()
    assert result.remaining == (1, 1)
    assert not game.is_over
    assert game.winner is None
    assert game.active_seats == (0, 1)
    assert [game.remaining(seat) for seat in (0, 1)] == [1, 1]
    assert [game.lives(seat) for seat in (0, 1)] == [1, 1]  # one life without grace_life
    assert game.round == 2
    assert sum(isinstance(event, GameOver) for event in game.events) == 0


def test_r2_6_each_left_with_exactly_one_even_when_losing_more():
    # knock_penalty=widow: the knocker among the lowest loses two, the other tied player one.
    rules = SCAT.replace(lives=1, grace_life=False, knock_penalty="widow")
    game = multi_round_game(
        rules,
        2,
        [
            (0, {1: "2c 4d 6h", 0: "2d 4h 6s"}, None),
            (1, {0: "2c 4d 6h", 1: "3d 5h 7s"}, None),
        ],
    )
    play_knock_round(game)
    result = results(game)[0]
    assert sorted((loss.seat, loss.lives) for loss in result.losses) == [(0, 1), (1, 2)]
    assert result.saved_by_r2_6
    assert result.remaining == (1, 1)
    assert result.eliminated == ()
    assert not game.is_over
    assert game.round == 2


def test_r2_6_with_grace_everyone_is_left_on_the_grace():
    rules = SCAT.replace(lives=1, knock_penalty="widow")
    game = multi_round_game(
        rules,
        3,
        [
            (0, {2: "Ad Kd Td", 1: "2c 4d 6h", 0: "2d 4h 6s"}, None),  # 0 and 1 on the dole
            # round 2, dealer 1: seat 2 knocks; all three tie for lowest
            (1, {2: "2c 4d 6h", 0: "2d 4h 6s", 1: "2h 4s 6c"}, None),
            (2, {0: "2c 4d 6h", 1: "3d 5h 7s", 2: "4c 6d 8h"}, None),
        ],
    )
    assert [game.remaining(seat) for seat in range(3)] == [1, 1, 2]
    assert game.current_seat == 2
    play_knock_round(game)
    result = results(game)[1]
    assert sorted((loss.seat, loss.lives) for loss in result.losses) == [(0, 1), (1, 1), (2, 2)]
    assert result.saved_by_r2_6
    assert result.eliminated == ()
    assert result.remaining == (1, 1, 1)
    assert all(game.on_grace(seat) for seat in range(3))
    assert all(game.lives(seat) == 0 for seat in range(3))
    assert game.active_seats == (0, 1, 2)
    assert not game.is_over
    assert game.round == 3


def test_r2_6_does_not_apply_when_someone_is_left():
    rules = SCAT.replace(lives=1, grace_life=False, knock_penalty="plain")
    game = multi_round_game(
        rules,
        3,
        [
            (0, {1: "2c 4d 6h", 2: "2d 4h 6s", 0: "Ac Kc 9c"}, None),
        ],
    )
    play_knock_round(game)
    result = results(game)[0]
    assert not result.saved_by_r2_6
    assert sorted(result.eliminated) == [1, 2]
    assert game.is_over
    assert game.winner == 0


def test_r2_6_round_ended_event_reports_the_capped_result():
    rules = SCAT.replace(lives=1, grace_life=False, knock_penalty="plain")
    game = multi_round_game(
        rules,
        2,
        [
            (0, {1: "2c 4d 6h", 0: "2d 4h 6s"}, None),
            (1, {0: "2c 4d 6h", 1: "3d 5h 7s"}, None),
        ],
    )
    play_knock_round(game)
    ended = [event for event in game.events if isinstance(event, RoundEnded)]
    assert len(ended) == 1
    assert ended[0].result.remaining == (1, 1)
    assert ended[0].result.saved_by_r2_6


def test_r2_5_decision_the_next_place_skips_as_many_numbers_as_were_shared():
    """[decision] Places after a shared place skip (1, 2, 2, 4), in play as at the end."""
    from thirtyone import Position
    from thirtyone import full_deck
    from thirtyone import parse_cards

    hands = ("Ah Kh 2c", "As Ks 3d", "9s 8d 2h", "9c 8h 3s", "")
    held = parse_cards(" ".join(hands))
    position = Position(
        rules=SCAT,
        dealer=0,
        to_move=1,
        phase=Phase.TURN,
        hands=tuple(parse_cards(hand) for hand in hands),
        stock=tuple(card for card in full_deck() if card not in held)[1:],
        discard_pile=tuple(card for card in full_deck() if card not in held)[:1],
        remaining=(4, 4, 2, 2, 0),
    )
    game = Game.from_position(position, seed=1)
    assert [(standing.seat, standing.place) for standing in game.standings] == [(0, 1), (1, 1), (2, 3), (3, 3), (4, 5)]
