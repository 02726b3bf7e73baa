"""R3: the deal (R3.1–R3.5): first dealer, passing the deal, dealing order, upcard, widow,
Schwimmen dealer hand, recorded deck orders and determinism."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from helpers import FallbackChance
from helpers import deck_order
from thirtyone import ArgumentError
from thirtyone import Card
from thirtyone import CardError
from thirtyone import Discard
from thirtyone import Game
from thirtyone import Keep
from thirtyone import RoundStarted
from thirtyone import Rules
from thirtyone import ScriptedChance
from thirtyone import SeededChance
from thirtyone import TakeWidow
from thirtyone import full_deck
from thirtyone.views import Phase

SCAT = Rules.preset("scat")
WIDOW = Rules.preset("widow")
SCHWIMMEN = Rules.preset("schwimmen")


def shuffled(size: int, seed: int) -> list[Card]:
    deck = list(full_deck(size))
    random.Random(seed).shuffle(deck)
    return deck


def no_blitz_deck(rules: Rules, players: int, dealer: int, seed: int) -> list[Card]:
    """A shuffled deck whose deal gives nobody a blitz (so the round waits for a first action)."""
    for attempt in range(1000):
        deck = shuffled(rules.deck, seed * 1000 + attempt)
        game = Game(rules, players, chance=ScriptedChance(dealer, [deck]))
        if game.round == 1:
            return deck
    raise AssertionError("no deck without a blitz")


def play_randomly(game: Game, rng: random.Random, steps: int) -> list[str]:
    done = []
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        done.append(str(action))
        game.apply(action)
    return done


# ---------------------------------------------------------------------------- R3.1 first dealer


class RecordingChance(SeededChance):
    def __init__(self, dealer: int) -> None:
        super().__init__(0)
        self.dealer = dealer
        self.asked: list[int] = []

    def first_dealer(self, players: int) -> int:
        self.asked.append(players)
        return self.dealer


@pytest.mark.parametrize("dealer", [0, 1, 2, 3, 4])
def test_r3_1_first_dealer_comes_from_the_random_source(dealer):
    chance = RecordingChance(dealer)
    game = Game(SCAT, 5, chance=chance)
    assert chance.asked == [5]
    assert game.round_logs[0].dealer == dealer
    assert game.round == 1
    assert game.dealer == dealer
    assert game.current_seat == (dealer + 1) % 5  # the player to the dealer's left plays first


def test_r3_1_seeded_first_dealer_varies_and_is_reproducible():
    dealers = [Game(SCAT, 4, seed=seed).round_logs[0].dealer for seed in range(60)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Game(SCAT, 4, seed=seed).round_logs[0].dealer for seed in range(60)]


def test_r3_1_player_to_dealers_left_plays_first():
    for dealer in range(4):
        deck = no_blitz_deck(SCAT, 4, dealer, seed=dealer)
        game = Game(SCAT, 4, chance=ScriptedChance(dealer, [deck]))
        assert game.dealer == dealer
        assert game.current_seat == (dealer + 1) % 4
        started = game.events[0]
        assert isinstance(started, RoundStarted)
        assert started.dealer == dealer
        assert started.round == 1


def test_r3_1_deal_passes_clockwise_each_round():
    # every round is a dealt 31 for the dealer's left-hand player; lives are plenty
    rules = SCAT.replace(lives=20)
    decks = []
    for r in range(6):
        dealer = (2 + r) % 4
        decks.append(deck_order(rules, 4, dealer, {(dealer + 1) % 4: "Ad Kd Td"}))
    decks.append(deck_order(rules, 4, 0, {1: "2c 4d 6h", 2: "2d 4h 6s", 3: "2h 4s 6c", 0: "2s 4c 6d"}))
    game = Game(rules, 4, chance=FallbackChance(2, decks))
    assert [log.dealer for log in game.round_logs] == [2, 3, 0, 1, 2, 3, 0]
    assert game.round == 7
    assert game.dealer == 0
    assert game.current_seat == 1


def test_r3_1_deal_passes_on_when_the_dealer_is_eliminated():
    rules = SCAT.replace(lives=1, grace_life=False)
    # round 1, dealer 0: seats 1 and 2 are dealt 31 together; seats 3, 4 and the dealer 0 are out
    decks = [deck_order(rules, 5, 0, {2: "Ad Kd Td", 1: "Ah Kh Th", 3: "2c 4d 6h", 4: "2d 4h 6s", 0: "2h 4s 6c"})]
    decks.append(deck_order(rules, 5, 1, {2: "2c 4d 6h", 1: "2d 4h 6s"}, active=[1, 2]))
    game = Game(rules, 5, chance=FallbackChance(0, decks))
    first = game.round_logs[0].result
    assert sorted(first.eliminated) == [0, 3, 4]
    assert game.active_seats == (1, 2)
    assert game.dealer == 1
    assert game.current_seat == 2


def test_r3_1_deal_passes_over_an_eliminated_next_seat():
    rules = SCAT.replace(lives=1, grace_life=False)
    # round 1, dealer 0, 4 players: seats 0 and 2 hold 31; seats 1 and 3 are out
    decks = [
        deck_order(rules, 4, 0, {1: "2c 4d 6h", 2: "Ad Kd Td", 3: "2d 4h 6s", 0: "Ah Kh Th"}),
        deck_order(rules, 4, 2, {0: "2c 4d 6h", 2: "2d 4h 6s"}, active=[0, 2]),
    ]
    game = Game(rules, 4, chance=FallbackChance(0, decks))
    assert sorted(game.round_logs[0].result.eliminated) == [1, 3]
    # the deal passes from 0 past the eliminated seat 1 to seat 2
    assert game.dealer == 2
    assert game.round_logs[1].dealer == 2
    # play passes from 2 past the eliminated seat 3 to seat 0
    assert game.current_seat == 0
    assert game.hand(1) == ()
    assert game.hand(3) == ()
    started = [event for event in game.events if isinstance(event, RoundStarted)]
    assert started[1].seats == (0, 2)


# ---------------------------------------------------------------------------- R3.2 dealing order


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 2), (4, 1), (6, 5), (9, 4)])
def test_r3_2_one_card_at_a_time_clockwise_from_the_dealers_left(players, dealer):
    deck = no_blitz_deck(SCAT, players, dealer, seed=players)
    game = Game(SCAT, players, chance=ScriptedChance(dealer, [deck]))
    order = [(dealer + 1 + i) % players for i in range(players)]
    for position, seat in enumerate(order):
        assert game.hand(seat) == (deck[position], deck[position + players], deck[position + 2 * players])


def test_r3_2_deals_only_to_players_still_in():
    rules = SCAT.replace(lives=1, grace_life=False)
    decks = [deck_order(rules, 4, 0, {1: "2c 4d 6h", 2: "Ad Kd Td", 3: "2d 4h 6s", 0: "Ah Kh Th"})]
    second = no_blitz_deck(rules, 2, 0, seed=9)
    decks.append(second)
    game = Game(rules, 4, chance=FallbackChance(0, decks))
    assert game.round == 2
    assert game.dealer == 2
    # dealt from the dealer's left among seats still in: seat 0, then seat 2
    assert game.hand(0) == (second[0], second[2], second[4])
    assert game.hand(2) == (second[1], second[3], second[5])
    assert game.discard_pile == (second[6],)
    assert game.stock_size == 52 - 7


# ---------------------------------------------------------------------------- R3.3 draw mode


def test_r3_3_upcard_starts_the_discard_pile_rest_is_the_stock():
    players, dealer = 3, 0
    deck = no_blitz_deck(SCAT, players, dealer, seed=33)
    game = Game(SCAT, players, chance=ScriptedChance(dealer, [deck]))
    assert game.discard_pile == (deck[9],)
    assert game.stock_size == 52 - 10
    assert game.widow == ()
    started = game.events[0]
    assert started.upcard == deck[9]
    view = game.view(1)
    assert view.discard_top == deck[9]
    assert view.discard_size == 1
    assert view.stock_size == 42
    # the stock is the rest of the deck in order: the next card is drawn first
    seat = game.current_seat
    game.apply("draw stock")
    assert game.hand(seat)[-1] == deck[10]
    game.apply(Discard(deck[10]))
    seat = game.current_seat
    game.apply("draw stock")
    assert game.hand(seat)[-1] == deck[11]


def test_r3_3_pile_draw_takes_the_upcard():
    deck = no_blitz_deck(SCAT, 2, 1, seed=34)
    game = Game(SCAT, 2, chance=ScriptedChance(1, [deck]))
    game.apply("draw pile")
    assert game.hand(0)[-1] == deck[6]
    assert game.discard_pile == ()


# ---------------------------------------------------------------------------- R3.4 widow mode


def test_r3_4_widow_of_three_face_down_after_the_players_cards():
    players, dealer = 4, 3
    deck = no_blitz_deck(WIDOW, players, dealer, seed=44)
    game = Game(WIDOW, players, chance=ScriptedChance(dealer, [deck]))
    assert game.widow == tuple(deck[12:15])
    assert not game.widow_face_up
    assert game.discard_pile == ()
    assert game.stock_size == 52 - 15
    assert game.events[0].upcard is None
    assert game.current_seat == 0
    assert game.phase is Phase.TURN
    view = game.view(0)
    assert view.widow is None
    assert view.widow_face_down
    assert view.discard_top is None


def test_r3_4_schwimmen_dealer_gets_a_second_hand():
    players, dealer = 3, 1
    deck = no_blitz_deck(SCHWIMMEN, players, dealer, seed=45)
    game = Game(SCHWIMMEN, players, chance=ScriptedChance(dealer, [deck]))
    # the dealer's second hand is the three cards after the players' cards (the widow-to-be)
    assert game.hand(dealer) == (deck[2], deck[5], deck[8])
    assert game.widow == tuple(deck[9:12])
    assert not game.widow_face_up
    assert game.stock_size == 32 - 12
    assert game.phase is Phase.DEALER_CHOICE
    assert game.current_seat == dealer
    assert set(game.legal_actions()) == {Keep(), TakeWidow()}
    assert game.view(dealer).widow is None


def test_r3_4_schwimmen_dealer_keeps_then_left_player_plays():
    deck = no_blitz_deck(SCHWIMMEN, 3, 1, seed=46)
    game = Game(SCHWIMMEN, 3, chance=ScriptedChance(1, [deck]))
    first_hand = game.hand(1)
    second_hand = game.widow
    game.apply("keep")
    assert game.hand(1) == first_hand
    assert game.widow == second_hand
    assert game.widow_face_up
    assert game.current_seat == 2
    assert game.phase is Phase.TURN


def test_r3_4_schwimmen_dealer_takes_second_hand_then_left_player_plays():
    deck = no_blitz_deck(SCHWIMMEN, 3, 1, seed=47)
    game = Game(SCHWIMMEN, 3, chance=ScriptedChance(1, [deck]))
    first_hand = game.hand(1)
    second_hand = game.widow
    game.apply("take widow")
    assert game.round == 1
    assert game.hand(1) == second_hand
    assert game.widow == first_hand
    assert game.widow_face_up
    assert game.current_seat == 2


# ---------------------------------------------------------------------------- R3.5 records, determinism


def test_r3_5_round_logs_store_each_rounds_deck_order():
    game = Game(SCAT.replace(lives=1), 3, seed=8)
    play_randomly(game, random.Random(1), 3000)
    assert game.is_over
    assert len(game.round_logs) == game.round
    for log in game.round_logs:
        assert sorted(log.deck) == sorted(full_deck(52))
        assert log.result is not None


def _replay(rules: Rules, players: int, game: Game) -> Game:
    logs = game.round_logs
    chance = ScriptedChance(logs[0].dealer, [log.deck for log in logs], [log.reshuffles for log in logs])
    copy = Game(rules, players, chance=chance)
    for log in logs:
        for seat, action in log.actions:
            copy.apply(action, seat=seat)
    return copy


@pytest.mark.parametrize("preset", ["scat", "widow", "namu", "schwimmen"])
def test_r3_5_any_game_replays_exactly_from_its_deck_orders(preset):
    rules = Rules.preset(preset, lives=2)
    game = Game(rules, 4, seed=77)
    play_randomly(game, random.Random(5), 4000)
    copy = _replay(rules, 4, game)
    assert copy.events == game.events
    assert copy.round_logs == game.round_logs
    assert copy.winner == game.winner
    assert copy.standings == game.standings


def test_r3_5_replay_includes_reshuffles():
    rules = SCAT.replace(lives=1, max_turns=400)
    game = Game(rules, 2, seed=3)
    # both players draw from the stock and throw the drawn card away: the stock runs out
    for _ in range(60):
        seat = game.current_seat
        game.apply("draw stock")
        game.apply(Discard(game.hand(seat)[-1]))
        if game.round > 1:
            break
    assert game.round_logs[0].reshuffles, "expected a reshuffle in round 1"
    copy = _replay(rules, 2, game)
    assert copy.events == game.events
    assert copy.round_logs == game.round_logs


@pytest.mark.parametrize("preset", ["scat", "schwimmen"])
def test_r3_5_same_seed_and_actions_give_the_same_game(preset):
    rules = Rules.preset(preset)
    one = Game(rules, 5, seed=123)
    two = Game(rules, 5, seed=123)
    actions = play_randomly(one, random.Random(9), 2500)
    for action in actions:
        two.apply(action)
    assert one.events == two.events
    assert one.round_logs == two.round_logs
    assert [log.deck for log in one.round_logs] == [log.deck for log in two.round_logs]
    assert [log.reshuffles for log in one.round_logs] == [log.reshuffles for log in two.round_logs]
    assert one.standings == two.standings


def test_r3_5_different_seeds_give_different_deals():
    decks: Sequence[tuple[Card, ...]] = [Game(SCAT, 4, seed=seed).round_logs[0].deck for seed in range(5)]
    assert len(set(decks)) == 5


def test_r3_5_round_log_records_actions_with_seats():
    deck = no_blitz_deck(SCAT, 3, 0, seed=51)
    game = Game(SCAT, 3, chance=ScriptedChance(0, [deck]))
    game.apply("draw stock")
    game.apply(Discard(deck[10]))
    game.apply("knock")
    log = game.round_logs[0]
    assert log.dealer == 0
    assert log.deck == tuple(deck)
    assert [(seat, str(action)) for seat, action in log.actions] == [
        (1, "draw stock"),
        (1, f"discard {deck[10]}"),
        (2, "knock"),
    ]


def test_r3_scripted_deck_must_be_a_permutation():
    deck = list(full_deck(52))
    deck[5] = deck[4]
    with pytest.raises(CardError, match="permutation"):
        Game(SCAT, 3, chance=ScriptedChance(0, [deck]))


def test_round_events_by_number_split_the_games_events_into_its_deals() -> None:
    game = Game(Rules.preset("scat", lives=2), 3, seed=11)
    policy = random.Random(11)
    while not game.is_over:
        game.apply(policy.choice(game.legal_actions()))
    rounds = len(game.round_logs)
    parts = [game.round_events(number) for number in range(1, rounds + 1)]
    assert [event for part in parts for event in part] == list(game.events)
    assert all(isinstance(part[0], RoundStarted) and part[0].round == n for n, part in enumerate(parts, 1))
    assert game.round_events(rounds) == game.round_events()
    for number in (rounds + 1, 0, -1, True, "1"):
        with pytest.raises(ArgumentError, match="is not a round of this game"):
            game.round_events(number)  # type: ignore[arg-type]
