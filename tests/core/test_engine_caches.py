"""What the core keeps to be fast is always what the state says now. The engine's legal actions
(shared by a view and ``apply``), the seats' statuses every view holds and the last result as
each seat was shown it: at every state of seeded random games of every preset and option, they
equal what a game freshly resumed from the same position computes (for the last result, what
:meth:`~thirtyone.events.RoundResult.for_seat` gives). The discards the engine offers are the
canonical ones; the hand-value tables follow the rules asked; the views and events made fast are
the frozen dataclasses they always were."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from fractions import Fraction

import pytest

from thirtyone import Acted
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Reshuffled
from thirtyone import Rules
from thirtyone import SeatStatus
from thirtyone import hand_value
from thirtyone import parse_cards
from thirtyone.actions import DISCARDS
from thirtyone.scoring import HAND_VALUES
from thirtyone.scoring import half_points
from thirtyone.scoring import value_from_half
from thirtyone.views import Phase
from thirtyone.views import PlayerView

RULESETS = {
    "scat": Rules.preset("scat"),
    "widow": Rules.preset("widow"),
    "namu": Rules.preset("namu"),
    "schwimmen": Rules.preset("schwimmen"),
    "throw_down": Rules.preset("scat", throw_down=True, lives=2),
    "exchange_any": Rules.preset("widow", exchange="any", all_pass="new_widow"),
    "knock_rules": Rules.preset("scat", knock_from_round=2, min_knock_value=25, grace_life=False),
    "stock_out": Rules.preset("scat", stock_exhausted="showdown", lives=2),
}
SEEDS = (3, 8, 13)
"""The seeds of the deals (and of the random moves, from ``seed + 1``): three games per ruleset."""


def fresh_statuses(game: Game, looked: tuple[bool, ...]) -> tuple[SeatStatus, ...]:
    """The seats' statuses built from the game's own accessors (and ``looked``), nothing cached."""
    return tuple(
        SeatStatus(
            seat,
            game.remaining(seat),
            game.lives(seat),
            game.on_grace(seat),
            game.is_out(seat),
            looked[seat],
            game.known_cards(seat),
        )
        for seat in range(game.players)
    )


def check_against_fresh(game: Game) -> None:
    if game.is_over or game.is_chance():  # no position to resume from: the round has ended, or waits
        assert game.legal_actions() == ()
        for seat in range(game.players):
            view = game.view(seat)
            assert view.legal_actions == ()
            assert view.seats == fresh_statuses(game, tuple(status.has_looked for status in view.seats))
        return
    fresh = Game.from_position(game.position())
    assert game.legal_actions() == fresh.legal_actions()
    looked = game.position().looked
    assert looked is not None
    statuses = fresh_statuses(game, looked)
    for seat in range(game.players):
        view, again = game.view(seat), fresh.view(seat)
        assert view.seats == again.seats == statuses
        assert (view.hand, view.hand_value, view.taken_from_pile, view.legal_actions) == (
            again.hand, again.hand_value, again.taken_from_pile, again.legal_actions,
        )  # fmt: skip
        shown = None if game.last_result is None else game.last_result.for_seat(seat)
        assert view.last_result == shown


def play(game: Game, seed: int, stock: float = 0.0) -> int:
    """Random legal play to the end, checking every state (chance steps dealt from the game's own
    source when they are explicit); with ``stock``, that share of the turns draws from the stock
    and nobody knocks (so that the stock runs out, R4.3). Returns the number of states checked."""
    rng = random.Random(seed)
    states = 0
    while not game.is_over:
        check_against_fresh(game)
        states += 1
        if game.is_chance():
            game.deal()
            continue
        legal = game.legal_actions()
        assert game.view(game.current_seat or 0).legal_actions == legal
        if stock:
            legal = tuple(action for action in legal if action != Knock())
            if Draw("stock") in legal and rng.random() < stock:
                legal = (Draw("stock"),)
        game.apply(legal[rng.randrange(len(legal))])
    check_against_fresh(game)
    return states


@pytest.mark.parametrize("name", list(RULESETS))
@pytest.mark.parametrize("seed", SEEDS)
def test_what_the_engine_keeps_between_moves_is_what_its_state_says(name, seed):
    game = Game(RULESETS[name], 4, seed=seed)
    assert play(game, seed + 1) > 10


@pytest.mark.parametrize("name", ["scat", "widow", "schwimmen", "throw_down"])
def test_what_the_engine_keeps_follows_explicit_chance_steps(name):
    """Seed 5: the chance steps (dealer, deals, R4.3 reshuffles) leave no stale legal actions."""
    game = Game(RULESETS[name], 3, seed=5, explicit_chance=True)
    assert play(game, 6) > 20


def test_what_the_engine_keeps_follows_explicit_reshuffles():
    """Seed 4: stock draws, no knocks, so that explicit reshuffle steps (R4.3) come in every round."""
    game = Game(Rules.preset("scat", lives=1, max_turns=120), 3, seed=4, explicit_chance=True)
    play(game, 5, stock=0.8)
    assert sum(isinstance(event, Reshuffled) for event in game.events) > 2


def test_the_engine_offers_the_canonical_discards():
    assert all(DISCARDS[index] == Discard(Card(index)) for index in range(52))
    game = Game(RULESETS["scat"], 3, seed=2)
    game.apply("draw stock")
    assert game.phase is Phase.DISCARD
    assert all(action is DISCARDS[action.card] for action in game.legal_actions())  # type: ignore[union-attr]


def test_hand_values_follow_the_rules_asked_whichever_was_asked_before():
    """The value tables remember the rules asked last: asking others in turn, or equal rules that
    are another object, still gives each its own values (R1.4, R1.5)."""
    sevens, aces = parse_cards("7h 7s 7d"), parse_cards("Ac Ad Ah")
    scat, schwimmen = Rules.preset("scat"), Rules.preset("schwimmen")
    for _ in range(3):
        assert (hand_value(sevens, scat), hand_value(sevens, schwimmen)) == (7, Fraction(61, 2))
        assert hand_value(aces, Rules.preset("schwimmen")) == 33
        assert hand_value(aces) == 11
        a, b, c = sevens
        assert half_points(schwimmen)[a * 2704 + b * 52 + c] == 61
        assert half_points(Rules())[a * 2704 + b * 52 + c] == 14


def test_a_view_the_engine_builds_is_a_frozen_player_view_like_any_other():
    game = Game(RULESETS["scat"], 3, seed=2)
    view = game.view(game.current_seat or 0)
    again = PlayerView(*(getattr(view, field.name) for field in dataclasses.fields(PlayerView)))
    assert type(view) is PlayerView
    assert (view, hash(view), repr(view)) == (again, hash(again), repr(again))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 3  # type: ignore[misc]
    assert dataclasses.replace(view, turn=3).turn == 3


def test_an_event_the_engine_makes_is_a_frozen_acted_like_any_other():
    """Acted is made by plain slot stores (the engine makes one every move), and is still the
    frozen dataclass it was: defaults, keywords, equality, hash, repr, replace, copies and pickles."""
    game = Game(RULESETS["scat"], 3, seed=2)
    game.apply("draw stock")
    event = game.events[-1]
    assert isinstance(event, Acted)
    again = Acted(seat=event.seat, action=event.action, received=event.received, private=True)
    assert type(event) is Acted
    assert (event, hash(event), repr(event)) == (again, hash(again), repr(again))
    assert Acted(1, Knock()) == Acted(1, Knock(), None, False, ())
    assert [field.default for field in dataclasses.fields(Acted)][2:] == [None, False, ()]
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]
    assert dataclasses.replace(event, seat=2).seat == 2
    assert copy.deepcopy(event) == pickle.loads(pickle.dumps(event)) == event
    assert event.for_seat(event.seat + 1) == Acted(event.seat, event.action, None, True)


def test_a_round_result_the_engine_makes_is_a_frozen_dataclass_like_any_other():
    """RoundResult is made by plain slot stores too (every round, and each seat's form of a blitz),
    and is still the frozen dataclass it was: keywords, equality, hash, repr, replace, copies and
    pickles; a seat's form of a blitz hides just the hands it hid (R5.1)."""
    game = Game(RULESETS["scat"], 3, seed=2)
    while game.last_result is None:
        game.apply(game.legal_actions()[0])
    result = game.last_result
    fields = {field.name: getattr(result, field.name) for field in dataclasses.fields(result)}
    again = type(result)(**fields)
    assert type(result) is type(again)
    assert list(fields) == list(type(result).__slots__)
    assert (result, hash(result), repr(result)) == (again, hash(again), repr(again))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.turns = 2  # type: ignore[misc]
    assert dataclasses.replace(result, turns=2).turns == 2
    assert copy.deepcopy(result) == pickle.loads(pickle.dumps(result)) == result
    hands = (parse_cards("As Ks Qs"), parse_cards("2h 3h 4d"), parse_cards("5c 6c 7d"))
    blitz = dataclasses.replace(result, end="blitz", knocker=None, blitz=(0,), hands=hands, values=(31, 5, 11))
    seen = blitz.for_seat(1)
    assert (seen.hands, seen.values) == ((hands[0], hands[1], None), (31, 5, None))
    assert dataclasses.replace(seen, hands=hands, values=blitz.values) == blitz


def test_the_hand_value_table_is_value_from_half_for_every_hand_of_every_rules():
    """The engine's views read a hand's value from HAND_VALUES: the same as value_from_half, for
    every half points any rules give (R1.3-R1.5: up to three aces' 33)."""
    assert tuple(value_from_half(half) for half in range(len(HAND_VALUES))) == HAND_VALUES
    for rules in RULESETS.values():
        assert max(half_points(rules)) < len(HAND_VALUES)
    assert HAND_VALUES[61] == Fraction(61, 2)
    assert HAND_VALUES[66] == 33
