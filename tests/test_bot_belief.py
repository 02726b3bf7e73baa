"""The belief (issue 15, item 2): the likelihood of the opponents' hands given what they did this
round, its weights, its fallback when nothing seen can be explained, and the expert that uses it."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from helpers import scripted_game
from thirtyone import Discard
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Phase
from thirtyone import Rules
from thirtyone import parse_cards
from thirtyone.bots import make_bot
from thirtyone.bots.belief import POOL_SIZE
from thirtyone.bots.belief import Belief
from thirtyone.bots.belief import Pools
from thirtyone.bots.belief import pool_size
from thirtyone.bots.belief import reads
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import _passes
from thirtyone.bots.expert import sample_position
from thirtyone.bots.knowledge import Knowledge
from thirtyone.events import Reshuffled
from thirtyone.record import GameRecord

HEARTS = 2


def passed_on_a_heart() -> Game:
    """Seat 1 (holding K♠ 7♠ 2♥) leaves the T♥ on the pile, draws the 9♠ and throws the 2♥; seat 2
    draws the 2♦ and throws it. Seat 0 is to move."""
    game = scripted_game(Rules(), 3, 0, {1: "Ks 7s 2h", 2: "4c 7d 8c", 0: "3d 5c 6d"}, upcard="Th", stock="9s 2d 3c")
    for action in ("draw stock", "discard 2h", "draw stock", "discard 2d"):
        game.apply(action)
    assert game.current_seat == 0
    assert game.hand(1) == parse_cards("Ks 7s 9s")
    return game


def test_an_opponent_who_passed_on_a_heart_and_threw_one_is_unlikely_to_collect_hearts() -> None:
    view = passed_on_a_heart().view(0)
    belief = Belief(view)
    assert belief.steps(1) == 2
    assert belief.steps(2) == 2
    true = belief.log_likelihood(1, parse_cards("Ks 7s 9s"))
    for hearts in ("Ah Kh 4c", "Qh 9h 3s", "Ah 8h 7h", "Kh Jh 5d"):
        assert belief.log_likelihood(1, parse_cards(hearts)) < true, hearts
    pools = belief.pools(random.Random(3), 200)
    worlds = [
        sample_position(view, Knowledge.from_view(view), 0, random.Random(seed), pools.complete) for seed in range(300)
    ]
    hearts_share = next(read for read in reads(view, worlds) if read.seat == 1)
    assert hearts_share.suit != HEARTS
    uniform = [sample_position(view, Knowledge.from_view(view), 0, random.Random(seed)) for seed in range(300)]
    collects = [sum(1 for world in sample if _best_suit(world.hands[1]) == HEARTS) for sample in (worlds, uniform)]
    assert collects[0] < 0.6 * collects[1]  # the belief's worlds give it hearts far less often


def _best_suit(hand: tuple[object, ...]) -> int:
    points = [0, 0, 0, 0]
    for card in hand:
        points[card.suit] += card.points  # type: ignore[attr-defined]
    return max(range(4), key=lambda suit: (points[suit], suit))


def test_a_card_taken_from_the_pile_and_kept_makes_its_suit_likely() -> None:
    game = scripted_game(Rules(), 3, 0, {1: "Kh 7h 2c", 2: "4c 7d 8c", 0: "3d 5c 6d"}, upcard="Ah", stock="2d 9s 3c")
    for action in ("draw pile", "discard 2c", "draw stock", "discard 2d"):
        game.apply(action)
    belief = Belief(game.view(0))
    # the heuristic takes the A♥ and throws the 2♣ from K♥ 7♥ 2♣, not from a hand without hearts
    assert belief.log_likelihood(1, parse_cards("Ah Kh 7h")) > belief.log_likelihood(1, parse_cards("Ah 9s 8s"))


def games(preset: str, seed: int, players: int = 3):
    game = Game(Rules.preset(preset), players, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seat) for seat in range(players)]
    while not game.is_over:
        seat = game.current_seat
        view = game.view(seat)
        if view.hand is not None and view.phase in (Phase.TURN, Phase.DISCARD):
            yield view, game
        legal = view.legal_actions
        action = bots[seat].choose(view, legal) if rng.random() < 0.8 else legal[rng.randrange(len(legal))]
        game.apply(action)


@settings(max_examples=12)
@given(preset=st.sampled_from(["scat", "widow", "schwimmen"]), seed=st.integers(0, 10_000))
def test_weights_are_finite_and_in_zero_one_and_true_hands_are_explained(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    for number, (view, game) in enumerate(games(preset, seed)):
        if number % 4:
            continue
        belief = Belief(view)
        for seat in view.active_seats:
            if seat != view.seat:
                value = belief.log_likelihood(seat, game.hand(seat))
                assert math.isfinite(value)
                assert value <= 0.0
        for hidden, weights in belief.pools(rng, 20).pools.values():
            assert len(hidden) == len(weights) == 20
            assert all(math.isfinite(weight) and 0.0 <= weight <= 1.0 for weight in weights)
            assert max(weights) == 1.0


def test_a_pool_without_a_positive_finite_weight_falls_back_to_uniform() -> None:
    unseen = list(parse_cards("2c 3c 4c 5c 6c"))
    hidden = [parse_cards("2c 3c"), parse_cards("4c 5c")]
    for weights in ([0.0, 0.0], [math.nan, math.nan], [math.inf, 0.0]):
        pools = Pools({1: (hidden, weights)})
        for seed in range(20):
            hand, rest = pools.complete(1, parse_cards("As"), unseen, random.Random(seed))
            assert hand == (*parse_cards("As"), *unseen[:2])
            assert rest == unseen[2:]
    # a hidden part another opponent of the world already holds is never dealt twice
    pools = Pools({1: (hidden, [0.5, 1.0])})
    for seed in range(20):
        hand, rest = pools.complete(1, parse_cards("As"), unseen[2:], random.Random(seed))
        assert hand == parse_cards("As 4c 5c")
        assert rest == unseen[4:]


def test_a_pool_deals_its_hidden_parts_by_weight_among_those_undealt() -> None:
    unseen = list(parse_cards("8c 9c 2c 3c 4c 5c 6c 7c"))  # shuffled: the uniform share deals 8c 9c
    hidden = [parse_cards("2c 3c"), parse_cards("4c 5c"), parse_cards("6c 7c")]
    pools = Pools({1: (hidden, [1.0, 3.0, 0.0])})
    rng = random.Random(4)
    drawn = [pools.complete(1, parse_cards("As"), unseen, rng)[0][1:] for _ in range(4000)]
    pooled = [cards for cards in drawn if cards != parse_cards("8c 9c")]
    assert 0.8 < len(pooled) / len(drawn) < 0.9  # the uniform share aside (UNIFORM_SHARE)
    assert parse_cards("6c 7c") not in pooled  # weight 0: never
    assert 0.72 < pooled.count(parse_cards("4c 5c")) / len(pooled) < 0.78  # 3 to 1
    # the likelier part held by another opponent of the world: the other one, never a card twice
    held = [card for card in unseen if card not in parse_cards("4c 5c")]
    for seed in range(200):
        hand, rest = pools.complete(1, parse_cards("As"), held, random.Random(seed))
        assert hand[1:] in (parse_cards("2c 3c"), parse_cards("8c 9c"))
        assert sorted([*hand[1:], *rest]) == sorted(held)


def test_the_stock_of_the_beliefs_worlds_is_shuffled_uniformly() -> None:
    """The belief's completions keep the shuffled order of the cards they leave, so the stock is
    dealt from them without a second shuffle: every card left is as likely on top of it."""
    game = Game(Rules(), 2, seed=5)
    for _ in range(4):
        seat = game.current_seat
        assert seat is not None
        game.apply(make_bot("heuristic", 0).choose(game.view(seat), game.legal_actions()))
    view = game.view(game.current_seat)  # type: ignore[arg-type]
    knowledge = Knowledge.from_view(view)
    complete = Belief(view, knowledge).pools(random.Random(1), 50).complete
    rng = random.Random(2)
    tops: dict[int, int] = {}
    hidden: dict[int, int] = {}
    for _ in range(6000):
        position = sample_position(view, knowledge, _passes(view), rng, complete)
        tops[position.stock[0]] = tops.get(position.stock[0], 0) + 1
        for card in position.hands[1 - view.seat]:
            hidden[card] = hidden.get(card, 0) + 1
    # each card's chance to lie on top is its chance not to be in the opponent's hand, spread evenly
    for card in knowledge.unseen:
        free = 6000 - hidden.get(card, 0)
        expected = free / view.stock_size
        assert abs(tops.get(card, 0) - expected) < 4 * expected**0.5 + 5, card


def test_a_corrupted_history_gives_a_legal_move_or_a_clear_error() -> None:
    """Histories that no world explains: the belief reads what it can and the expert still moves;
    a history of another game, whose counts do not add up, is a clear ``ValueError``."""
    view = passed_on_a_heart().view(0)
    history = list(view.history)
    throws = [i for i, event in enumerate(history) if getattr(event, "action", None) in DISCARDS]
    history[throws[0]], history[throws[1]] = (  # seat 1 threw the 2♦ and seat 2 the 2♥: nothing fits
        replace(history[throws[0]], action=DISCARDS[1]),
        replace(history[throws[1]], action=DISCARDS[0]),
    )
    swapped = replace(view, history=tuple(history))
    belief = Belief(swapped, epsilon=1e-12)  # (nearly) the hard model: a mismatched step all but rules a hand out
    for seat in (1, 2):
        assert math.isfinite(belief.log_likelihood(seat, parse_cards("Ah Kh 4c")))
    pools = belief.pools(random.Random(2), 30)
    knowledge = Knowledge.from_view(swapped)
    for seed in range(40):
        sample_position(swapped, knowledge, _passes(swapped), random.Random(seed), pools.complete).check()
    expert = ExpertBot(1, worlds=16, seconds=None, rollouts="engine")
    assert expert.choose(swapped, swapped.legal_actions) in swapped.legal_actions
    other = next(other for number, (other, _) in enumerate(games("scat", 5)) if number >= 20 and other.seat == 0)
    foreign = replace(view, history=other.history)
    with pytest.raises(ValueError, match="does not add up"):
        expert.choose(foreign, foreign.legal_actions)


DISCARDS = (Discard(parse_cards("2h")[0]), Discard(parse_cards("2d")[0]))


def test_a_stock_draw_with_every_card_known_reads_nothing_and_does_not_crash() -> None:
    """A corrupted view that says seat 1 is known to hold its three cards and the card it threw:
    no hand before its stock draw is left to weigh, so that step is not read."""
    view = passed_on_a_heart().view(0)
    seats = list(view.seats)
    seats[1] = seats[1]._replace(known_cards=parse_cards("Ks 7s 9s 2h"))
    forged = replace(view, seats=tuple(seats))
    belief = Belief(forged)
    assert math.isfinite(belief.log_likelihood(1, parse_cards("Ks 7s 9s")))
    assert len(belief.outcomes(1, parse_cards("Ks 7s 9s"))) < len(Belief(view).outcomes(1, parse_cards("Ks 7s 9s")))


def test_a_card_thrown_and_back_in_the_stock_after_a_reshuffle_does_not_break_the_belief() -> None:
    """A 4-player arena game (``expert`` against three ``expert-v1``): seat 2 took the 9♥ from the
    pile for the K♥, then the pile went back into the stock, so a world may deal seat 2 the K♥
    again. Undoing its take then gave a hand holding the K♥ twice, and the expert raised
    ``ValueError`` (43 of seat 2's hands). Such a hand now does not explain the step (as a
    tremble would) and is less likely than one without the K♥."""
    record = GameRecord.loads((Path(__file__).parent / "data" / "belief-card-back-from-a-reshuffle.toml").read_text())
    game = record.replay()
    view = game.view(game.current_seat)  # type: ignore[arg-type]
    knowledge = Knowledge.from_view(view)
    belief = Belief(view, knowledge)
    for seat in view.active_seats:
        if seat == view.seat:
            continue
        known = knowledge.known[seat]
        for hidden in itertools.combinations(knowledge.unseen, 3 - len(known)):
            value = belief.log_likelihood(seat, known + hidden)
            assert math.isfinite(value)
            assert value <= 0.0
    assert belief.log_likelihood(2, parse_cards("9h 2c Kh")) < belief.log_likelihood(2, parse_cards("9h 2c Qh"))
    expert = ExpertBot(0, worlds=40, seconds=None)
    assert expert.choose(view, view.legal_actions) in view.legal_actions


@pytest.mark.parametrize("seed", [1, 2])
def test_after_reshuffles_every_hand_of_every_opponent_has_a_finite_likelihood(seed: int) -> None:
    """Long rounds (nobody knocks, most moves at random) reshuffle the pile into the stock, so
    cards once thrown are unseen again: the belief reads every position after it without raising."""
    rng = random.Random(seed)
    game = Game(Rules(), 4, seed=seed)
    read = 0
    while read < 300 and not game.is_over:
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        if view.phase is Phase.TURN and any(isinstance(event, Reshuffled) for event in view.history):
            knowledge = Knowledge.from_view(view)
            belief = Belief(view, knowledge)
            for other in view.active_seats:
                known = knowledge.known[other]
                if other != seat:
                    for _ in range(10):
                        hidden = tuple(rng.sample(knowledge.unseen, 3 - len(known)))
                        value = belief.log_likelihood(other, known + hidden)
                        assert math.isfinite(value)
                        assert value <= 0.0
            read += 1
        moves = [action for action in view.legal_actions if not isinstance(action, Knock)] or view.legal_actions
        game.apply(rng.choice(moves))
    assert read == 300


def test_bad_softness_is_refused() -> None:
    view = passed_on_a_heart().view(0)
    for epsilon in (0.0, -0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="epsilon"):
            Belief(view, epsilon=epsilon)
    with pytest.raises(ValueError, match="proxy_weight"):
        Belief(view, proxy_weight=-1.0)


@pytest.mark.parametrize("preset", ["scat", "widow", "schwimmen"])
def test_the_expert_moves_legally_and_deterministically_for_a_seed(preset: str) -> None:
    checked = 0
    for number, (view, _) in enumerate(games(preset, 11, players=4)):
        if number % 3 or len(view.legal_actions) < 2:
            continue
        first = ExpertBot(4, worlds=10, seconds=None, rollouts="engine").analyse(view)
        again = ExpertBot(4, worlds=10, seconds=None, rollouts="engine").analyse(view)
        assert first.best in view.legal_actions
        assert [(e.action, e.mean) for e in first.estimates] == [(e.action, e.mean) for e in again.estimates]
        assert first.reads == again.reads
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_the_analysis_says_what_each_opponent_probably_collects() -> None:
    view = passed_on_a_heart().view(0)
    analysis = ExpertBot(2, worlds=60, seconds=None, rollouts="engine").analyse(view)
    assert [read.seat for read in analysis.reads] == [1, 2]
    for read in analysis.reads:
        assert 0 <= read.suit <= 3
        assert 0.0 < read.probability <= 1.0
    assert analysis.reads[0].suit != HEARTS


def test_the_pool_follows_the_budget() -> None:
    assert [pool_size(200), pool_size(10), pool_size(10**6)] == [100, 16, POOL_SIZE]
    assert [pool_size(10**6, 0.05), pool_size(10**6, 0.4), pool_size(200, 1.0)] == [50, POOL_SIZE, 100]
    assert make_bot("expert:0.05s", 1).analyse(passed_on_a_heart().view(0)).best is not None  # type: ignore[attr-defined]
