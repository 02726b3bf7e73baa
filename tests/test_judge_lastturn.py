"""The exact last turn (thirtyone.judge.lastturn) against a brute force written here from
docs/RULES.md alone: every deal of the unseen cards enumerated one by one, each seat's turn played
card by card, the round settled by the rules (R5.3, R6.5, R2.4-R2.6), in positions of each preset
at 2, 3 and 4 players."""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from itertools import combinations
from itertools import permutations

import pytest

from helpers import FallbackChance
from helpers import deck_order
from thirtyone import Game
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone import parse_cards
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Pass
from thirtyone.judge import NotALastTurnError
from thirtyone.judge import last_turn
from thirtyone.judge import last_turn_values
from thirtyone.scoring import hand_value
from thirtyone.settlement import settle
from thirtyone.settlement import showdown_losses

# ---------------------------------------------------------------------------------------------- brute force


def half(cards, rules):
    return int(hand_value(cards, rules) * 2)


def brute_force(game):
    """The values of the last turn of the seat to move in ``game``, by enumeration: a dict action ->
    lives (the others' mean loss minus this seat's, being put out counting two lives more)."""
    seat = game.current_seat
    view = game.view(seat)
    rules = view.rules
    draw_mode = rules.mode == "draw"
    active = list(view.active_seats)
    knocker = view.knocker
    order = [active[(active.index(knocker) + step) % len(active)] for step in range(1, len(active))]
    later = order[order.index(seat) + 1 :]
    others = [other for other in active if other != seat]
    known = {other: tuple(view.seats[other].known_cards) for other in active}
    public = set(game.discard_pile if draw_mode else game.position().discard_pile) | set(view.widow or ())
    for cards in known.values():
        public |= set(cards)
    mine = tuple(view.hand)
    unseen = [card for card in full_deck(rules.deck) if card not in public and card not in mine]
    holes = {other: 3 - len(known[other]) for other in others}
    own_draw = draw_mode and view.phase.value == "turn"
    draws = (int(own_draw) + len(later)) if draw_mode else 0
    remaining = [status.remaining for status in view.seats]

    def deals(cards, seats):
        if not seats:
            yield {}, cards
            return
        for chosen in combinations(cards, holes[seats[0]]):
            rest = [card for card in cards if card not in chosen]
            for more, left in deals(rest, seats[1:]):
                yield {seats[0]: known[seats[0]] + chosen, **more}, left

    worlds = [  # none where another seat holds a blitz: it would have shown it (R5.1, R5.4)
        (hands, stock)
        for hands, left in deals(unseen, others)
        if all(half(hands[other], rules) < 62 for other in others)
        for stock in permutations(left, draws)
    ]

    def utility(lost, out):
        cost = {s: lost.get(s, 0) + (2 if s in out else 0) for s in active}
        return sum(cost[s] for s in others) / len(others) - cost[seat]

    def blitz(by):  # R5.3: everyone else loses a life, the knocker too
        losses = {s: 1 for s in active if s != by}
        after = [left - losses.get(s, 0) for s, left in enumerate(remaining)]
        going = [s for s in active if after[s] <= 0]
        return utility(losses, set(going) if len(going) < len(active) else set())

    def best_three(four, taken):
        """Keep the best three of four (a card taken from the pile never discarded); among equal
        values discard the fewest points, then the highest card."""
        choices = [(half([c for c in four if c != card], rules), -card.points, card) for card in four if card != taken]
        _, _, thrown = max(choices)
        return tuple(c for c in four if c != thrown), thrown

    def later_turn(hand, top, stock, shown):
        """A later seat's draw-mode turn played for its best hand; returns hand, discard, stock used."""
        taking, thrown = best_three((*hand, top), top)
        sees = [c for c in full_deck(rules.deck) if c not in public and c not in hand and c not in shown]
        expected = sum(max(half(three, rules) for three in combinations((*hand, c), 3)) for c in sees) / len(sees)
        if half(taking, rules) >= expected:
            return taking, thrown, 0
        kept, thrown = best_three((*hand, stock[0]), None)
        return kept, thrown, 1

    def later_exchange(hand, widow):
        options = [(hand, widow)]
        for give in hand:
            for take in widow:
                options.append(
                    (
                        (*tuple(c for c in hand if c != give), take),
                        (*tuple(c for c in widow if c != take), give),
                    )
                )
        if rules.exchange == "any":
            for keep in hand:
                for leave in widow:
                    options.append(
                        ((keep, *(c for c in widow if c != leave)), (leave, *(c for c in hand if c != keep)))
                    )
        options.append((widow, hand))
        best = options[0]
        for option in options[1:]:
            if half(option[0], rules) > half(best[0], rules):
                best = option
        return best

    def finish(hands, stock, hand, laid):
        """This seat holds ``hand`` having laid ``laid`` (a discard, or the widow left); the later
        seats play; the value of the round for this seat."""
        if half(hand, rules) >= 62:
            return blitz(seat)
        final = {seat: hand, **{other: hands[other] for other in others}}
        shown = [laid] if draw_mode else []
        for other in later:
            if draw_mode:
                final[other], laid, used = later_turn(hands[other], laid, stock, shown)
                stock = stock[used:]
                shown.append(laid)
            else:
                final[other], laid = later_exchange(hands[other], laid)
            if half(final[other], rules) >= 62:
                return blitz(other)
        return showdown(tuple(half(final[s], rules) for s in active))

    def showdown(values):
        """R6.5 and R2.4-R2.6 for the seats' values (in seat order)."""
        halves = dict(zip(active, values, strict=True))
        losses = showdown_losses(halves, knocker, rules.knock_penalty, "knock")
        settled = settle(remaining, active, losses)
        lost = defaultdict(int)
        for loss in losses:
            lost[loss.seat] += loss.lives
        return utility(lost, set(settled.eliminated))

    def mean(values):
        values = list(values)
        return sum(values) / len(values)

    tallies = {}

    def average(group, hand, laid):
        """The mean over the deals ``group`` of this seat's value holding ``hand``. With no seat
        after this one a deal matters only by the others' values: each kind counted once."""
        if later:
            return mean(finish(h, s, hand, laid) for h, s in group)
        if id(group) not in tallies:
            tallies[id(group)] = Counter(tuple(half(h[o], rules) for o in others) for h, _ in group)
        mine_value = half(hand, rules)
        if mine_value >= 62:
            return blitz(seat)
        at = active.index(seat)
        counts = tallies[id(group)]
        return sum(n * showdown((*vals[:at], mine_value, *vals[at:])) for vals, n in counts.items()) / len(group)

    result = {}
    for action in view.legal_actions:
        if action == Draw("pile"):
            top = view.discard_top
            result[action] = max(average(worlds, (*tuple(c for c in mine if c != card), top), card) for card in mine)
        elif action == Draw("stock"):
            groups = defaultdict(list)
            for hands, stock in worlds:
                groups[stock[0]].append((hands, stock[1:]))
            total = 0.0
            for card, group in groups.items():
                four = (*mine, card)
                best = max(average(group, tuple(c for c in four if c != thrown), thrown) for thrown in four)
                total += best * len(group)
            result[action] = total / len(worlds)
        elif isinstance(action, Discard):
            kept = tuple(c for c in mine if c != action.card)
            result[action] = average(worlds, kept, action.card)
        else:
            widow = tuple(view.widow)
            if isinstance(action, Exchange):
                kept = tuple(c for c in mine if c not in action.give) + tuple(action.take)
                left = tuple(c for c in widow if c not in action.take) + tuple(action.give)
            elif isinstance(action, ExchangeAll):
                kept, left = widow, mine
            else:
                assert isinstance(action, Pass)
                kept, left = mine, widow
            result[action] = average(worlds, kept, left)
    return result


# ---------------------------------------------------------------------------------------------- positions


def scripted(preset, players, hands, actions, **table):
    """A game of ``preset`` dealt by seat 0 with ``hands`` (and the upcard or widow), then
    ``actions`` played in turn."""
    rules = Rules.preset(preset)
    deck = deck_order(rules, players, 0, hands, **table)
    game = Game(rules, players, chance=FallbackChance(0, [deck], [], 0))
    for action in actions:
        game.apply(action)
    return game


# Scat: each seat takes the previous discard three times, so that every hand is known but for the
# cards drawn from the stock.
SCAT3 = {
    "hands": {1: "9h 5h 2s", 2: "Kd 4d 3c", 0: "7s 6h 8c"},
    "upcard": "Qs",
    "actions": [
        *("draw pile", "discard 9h", "draw pile", "discard Kd", "draw pile", "discard 7s"),
        *("draw pile", "discard 5h", "draw pile", "discard 4d", "draw pile", "discard 6h"),
        *("draw pile", "discard 2s", "draw pile", "discard 3c", "draw pile", "discard 8c"),
        "knock",  # seat 1 with Q♠ 7♠ 6♥ (17); seat 2 holds 9♥ 5♥ 2♠, seat 0 K♦ 4♦ 3♣
    ],
}
SCAT4 = {
    "hands": {1: "9h 5h 2s", 2: "Kd 4d 3c", 3: "7s 6h 8c", 0: "Jc 5c Ts"},
    "upcard": "Qs",
    "actions": [
        *("draw pile", "discard 9h", "draw pile", "discard Kd", "draw pile", "discard 7s", "draw pile", "discard Jc"),
        *("draw pile", "discard 5h", "draw pile", "discard 4d", "draw pile", "discard 6h", "draw pile", "discard 5c"),
        *("draw pile", "discard 2s", "draw pile", "discard 3c", "draw pile", "discard 8c", "draw pile", "discard Ts"),
        "knock",  # seat 1: Q♠ J♣ 5♣ (15); seat 2: 9♥ 5♥ 2♠; seat 3: K♦ 4♦ 3♣; seat 0: 7♠ 6♥ 8♣
    ],
}
WIDOW3 = {
    "hands": {1: "9h 5h 2s", 2: "Kd 4d 3c", 0: "7s 6h 8c"},
    "widow": "Qs Js 4c",
    "actions": ["pass", "exchange all", "exchange all", "exchange 9h for 6h", "knock"],
}
WIDOW4 = {
    "hands": {1: "9h 5h 2s", 2: "Kd 4d 3c", 3: "7s 6h 8c", 0: "Jc 5c Ts"},
    "widow": "Qs Js 4c",
    "actions": ["pass", "exchange all", "exchange all", "exchange all", "exchange 2s for 5c", "knock"],
}
SCHWIMMEN2 = {
    "hands": {1: "9h Th 7s", 0: "Kd 8d 7c"},
    "widow": "Qs Js 8c",
    "actions": ["keep", "exchange 7s for Qs", "exchange 7c for 8c", "knock"],
}
SCHWIMMEN3 = {
    "hands": {1: "9h Th 7s", 2: "Kd 8d 7c", 0: "Ac 9c 8h"},
    "widow": "Qs Js 8c",
    "actions": ["keep", "exchange 7s for Qs", "exchange all", "exchange all", "knock"],
}
SCHWIMMEN4 = {
    "hands": {1: "9h Th 7s", 2: "Kd 8d 7c", 3: "Ac 9c 8h", 0: "Kh Qd 9s"},
    "widow": "Qs Js 8c",
    "actions": ["keep", "exchange 7s for Qs", "exchange all", "exchange all", "exchange all", "knock"],
}

POSITIONS = {
    # (preset, players, setup, actions played after the knock)
    "scat-2-pile-queen": ("scat", 2, {"hands": {0: "As Ks 7s"}, "upcard": "Qs", "actions": ["knock"]}, []),
    "scat-2-discard": ("scat", 2, {"hands": {0: "As Ks 7s"}, "upcard": "Qs", "actions": ["knock"]}, ["draw stock"]),
    "scat-3-first-after-knock": ("scat", 3, SCAT3, []),
    "scat-3-discard-before-a-later-seat": ("scat", 3, SCAT3, ["draw pile"]),
    "scat-3-last": ("scat", 3, SCAT3, ["draw stock", "discard 2s"]),
    "scat-4-discard-before-two-later-seats": ("scat", 4, SCAT4, ["draw stock"]),
    "scat-4-before-a-later-seat": ("scat", 4, SCAT4, ["draw pile", "discard 2s"]),
    "widow-2": ("widow", 2, {"hands": {1: "9h 5h 2s", 0: "Kd 4d 3c"}, "widow": "Qs Js 4c", "actions": ["knock"]}, []),
    "widow-3-before-a-later-seat": ("widow", 3, WIDOW3, []),
    "widow-3-last": ("widow", 3, WIDOW3, ["pass"]),
    "widow-4-before-two-later-seats": ("widow", 4, WIDOW4, []),
    "schwimmen-2": ("schwimmen", 2, SCHWIMMEN2, []),
    "schwimmen-3-before-a-later-seat": ("schwimmen", 3, SCHWIMMEN3, []),
    "schwimmen-4-before-two-later-seats": ("schwimmen", 4, SCHWIMMEN4, []),
}


def position(name):
    preset, players, setup, after = POSITIONS[name]
    setup = dict(setup)
    game = scripted(preset, players, setup.pop("hands"), setup.pop("actions"), **setup)
    for action in after:
        game.apply(action)
    return game


@pytest.mark.parametrize("name", list(POSITIONS))
def test_r6_2_last_turn_values_are_the_brute_force(name):
    game = position(name)
    view = game.view(game.current_seat)
    assert view.knocker is not None
    turn = last_turn(view)
    assert turn.exact
    expected = brute_force(game)
    assert set(turn.values) == set(expected) == set(view.legal_actions)
    for action, value in expected.items():
        assert turn.values[action] == pytest.approx(value, abs=1e-9), action
    assert all(move.stderr == 0 and move.gap_stderr == 0 for move in turn.moves)


def test_r6_5_taking_the_queen_and_keeping_28_gives_away_almost_nothing():
    """Issue 43's position: two players, scat, the other seat knocked; A♠ K♠ 7♠ with Q♠ on the
    pile. Taking Q♠ can make 31 (R5.3: the knocker loses one life), or keep 28 by discarding K♠
    (the knocker alone lowest loses two, R6.5): the best of these is within a hair of the stock."""
    game = position("scat-2-pile-queen")
    turn = last_turn(game.view(0))
    pile = next(move for move in turn.moves if move.action == Draw("pile"))
    stock = turn.values[Draw("stock")]
    assert pile.discard == parse_cards("Ks")[0]
    assert 0 <= stock - pile.value < 0.01
    assert pile.value > 1.0  # better than the 31 (one life from the knocker)


def test_last_turn_values_are_the_same_for_every_call():
    game = position("scat-4-before-a-later-seat")
    view = game.view(game.current_seat)
    assert last_turn_values(view) == last_turn_values(view)


def test_sampled_last_turns_say_so_and_carry_their_error():
    game = Game(Rules.preset("scat"), 4, seed=5)
    game.apply("knock")
    turn = last_turn(game.view(game.current_seat))
    assert not turn.exact
    assert all(move.stderr > 0 for move in turn.moves)
    assert turn.best.gap_stderr == 0


def test_r6_2_a_position_before_any_knock_is_refused_with_the_rule():
    game = Game(Rules.preset("scat"), 3, seed=1)
    with pytest.raises(NotALastTurnError, match=r"R6\.2") as caught:
        last_turn(game.view(game.current_seat))
    assert caught.value.rule == "R6.2"
    assert isinstance(caught.value, ValueError)


def test_r6_2_another_seats_view_is_refused_with_the_rule():
    game = position("scat-3-first-after-knock")
    other = (game.current_seat + 1) % 3
    with pytest.raises(NotALastTurnError, match=r"R6\.2"):
        last_turn(game.view(other))


def test_r4_3_a_stock_too_small_for_the_later_draws_is_refused_with_the_rule():
    rules = Rules.preset("scat")
    hands = {1: "9h 5h 2s", 2: "Kd 4d 3c", 0: "7s 6h 8c"}
    deck = deck_order(rules, 3, 0, hands, upcard="Qs")
    game = Game(rules, 3, chance=FallbackChance(0, [deck], [], 0))
    while game.view(game.current_seat).stock_size > 1:
        game.apply("draw stock")
        game.apply(f"discard {game.hand(game.current_seat)[-1]}")
    game.apply("knock")
    with pytest.raises(NotALastTurnError, match=r"R4\.3"):
        last_turn(game.view(game.current_seat))


# ---------------------------------------------------------------------------------------------- who reads it


def test_r6_2_the_expert_plays_and_shows_the_exact_last_turn():
    from thirtyone.bots.expert import ExpertBot
    from thirtyone.bots.expert import ExpertV1Bot

    game = position("scat-3-first-after-knock")
    view = game.view(game.current_seat)
    exact = last_turn(view)
    bot = ExpertBot(1, worlds=20, seconds=None, rollouts="engine")
    analysis = bot.analyse(view)
    assert [(e.action, e.mean, e.stderr) for e in analysis.estimates] == sorted(
        ((m.action, m.value, m.stderr) for m in exact.moves), key=lambda row: -row[1]
    )
    assert analysis.best == exact.best.action
    assert [read.seat for read in analysis.reads] == [0, 1]  # what it reads of the others, as elsewhere
    assert bot.choose(view, view.legal_actions) == exact.best.action
    rolled = ExpertV1Bot(1, worlds=20, seconds=None, rollouts="engine").analyse(view)
    assert rolled.estimates[0].worlds == 20  # expert-v1 rolls its last turns out, as it did


def test_r6_5_the_review_does_not_mark_taking_the_queen_a_blunder():
    """Issue 43's first finding: the review valued the pile draw by the heuristic's discard (31)."""
    from thirtyone.bots.review import review_record
    from thirtyone.record import GameRecord

    game = position("scat-2-pile-queen")
    game.apply("draw pile")
    game.apply("discard Ks")
    review = review_record(GameRecord.from_game(game, ["Ann", "Ben"]), [0], worlds=20, rollouts="engine")
    (decision,) = [d for d in review.decisions if d.played == Draw("pile")]
    values = last_turn_values(decision.view)
    assert decision.mark is None
    assert decision.loss == pytest.approx(values[Draw("stock")] - values[Draw("pile")])
    assert 0 < decision.loss < 0.001  # an exact count: 0.0004 lives


def test_r6_2_the_hint_shows_the_exact_last_turn():
    from thirtyone.bots.work import expert_hint

    game = position("widow-3-before-a-later-seat")
    view = game.view(game.current_seat)
    hint = expert_hint(view, seed=3, seconds=5.0)
    exact = last_turn_values(view)
    assert dict(hint.moves) == {str(action): round(value, 3) for action, value in exact.items()}
    assert hint.reads  # seat 2 took the widow face up: it is read surely


@pytest.mark.parametrize("name", list(POSITIONS))
def test_sampled_values_agree_with_the_counted_ones_within_their_errors(name, monkeypatch):
    """The sampled way (three or more players at a real table) on positions that can be counted."""
    from thirtyone.judge import lastturn

    game = position(name)
    view = game.view(game.current_seat)
    exact = last_turn(view)
    monkeypatch.setattr(lastturn, "EXACT_WORLDS", 0)
    monkeypatch.setattr(lastturn, "EXACT_PLAYED", 0)
    sampled = last_turn(view)
    assert not sampled.exact
    for counted, estimate in zip(exact.moves, sampled.moves, strict=True):
        assert estimate.action == counted.action
        assert abs(estimate.value - counted.value) <= 4 * estimate.stderr + 0.005, estimate.action
