"""Properties over many random games: random legal play under random presets, options and player counts.

Each property plays whole games choosing uniformly among ``legal_actions()`` with a seeded random source,
and checks an invariant after every action:

- every card is in exactly one place (hands, discard pile, widow, stock) (R1.1, R3, R4.3, R7.3);
- lives never increase (R2.4, R2.6) and a seat is out exactly when it has no loss left;
- every game ends, and every round within ``max_turns`` turns (R6.7);
- the same seed and the same actions give the same events (R3.5);
- a refused action leaves the game exactly as it was, and ``legal_actions()`` is exactly what ``apply`` accepts;
- one knock per round, then exactly one more turn for every other player (R6.1, R6.2);
- a view never names a card hidden from its seat (R4.4, R6.6, R9).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from helpers import event_cards
from thirtyone import Acted
from thirtyone import Action
from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Event
from thirtyone import Exchange
from thirtyone import ExchangeAll
from thirtyone import Game
from thirtyone import IllegalActionError
from thirtyone import Keep
from thirtyone import Knock
from thirtyone import Look
from thirtyone import Pass
from thirtyone import Reshuffled
from thirtyone import RoundStarted
from thirtyone import Rules
from thirtyone import TakeWidow
from thirtyone import ThrowDown
from thirtyone import full_deck
from thirtyone.chance import SeededChance
from thirtyone.scoring import half_points
from thirtyone.views import Phase
from thirtyone.views import PlayerView

PRESET_NAMES = ("scat", "widow", "namu", "schwimmen")
ACTION_CAP = 50_000
"""No game of random play may need more actions than this (R6.7 bounds every round)."""


# ---------------------------------------------------------------------------- random setups


@dataclass(frozen=True)
class Setup:
    rules: Rules
    players: int
    seed: int

    def game(self) -> Game:
        return Game(self.rules, self.players, seed=self.seed)


@st.composite
def setups(draw: Callable, preset: str | None = None) -> Setup:
    """A preset with some of its options overridden, a player count the deck can deal, a seed."""
    name = preset or draw(st.sampled_from(PRESET_NAMES))
    base = Rules.preset(name)
    options: dict[str, object] = {
        # short games: few lives; a turn limit that random play sometimes reaches
        "lives": draw(st.integers(1, 2)),
        "max_turns": draw(st.sampled_from([200, 40, 12])),
    }

    def maybe(option: str, values: st.SearchStrategy) -> None:
        if draw(st.booleans()):
            options[option] = draw(values)

    maybe("grace_life", st.booleans())
    maybe("three_of_a_kind", st.sampled_from(["off", "30", "30.5"]))
    maybe("three_aces", st.booleans())
    maybe("straight_flush", st.booleans())
    maybe("knock_penalty", st.sampled_from(["scat", "namu", "namu_risky", "widow", "plain"]))
    maybe("knock_from_round", st.sampled_from([1, 2]))
    maybe("min_knock_value", st.sampled_from([17, 21, 25]))
    if base.mode == "draw":
        maybe("throw_down", st.booleans())
        maybe("stock_exhausted", st.sampled_from(["reshuffle", "showdown"]))
    else:
        maybe("exchange", st.sampled_from(["one_or_all", "any"]))
        maybe("all_pass", st.sampled_from(["showdown", "new_widow"]))
    rules = base.replace(**options)
    most = min(9, (rules.deck - 6) // 3)
    players = draw(st.integers(2, most))
    return Setup(rules, players, draw(st.integers(0, 2**32 - 1)))


def play(game: Game, seed: int, after: Callable[[Game], None] | None = None) -> list[Action]:
    """Random legal play to the end of the game; ``after(game)`` after every action. Returns the actions."""
    rng = random.Random(seed)
    actions: list[Action] = []
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal action in {game!r}"
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        actions.append(action)
        assert len(actions) < ACTION_CAP, f"{game!r} still running after {ACTION_CAP} actions"
        if after is not None:
            after(game)
    return actions


PROPERTY = settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------- card conservation


def check_cards(game: Game) -> None:
    deck = full_deck(game.rules.deck)
    places = [card for seat in range(game.players) for card in game.hand(seat)]
    places += list(game.discard_pile) + list(game.widow)
    assert len(set(places)) == len(places), f"a card is in two places: {sorted(places)}"
    assert set(places) <= set(deck), "a card that is not in the deck"
    assert len(places) + game.stock_size == len(deck), "cards missing or extra"
    if game.is_over:
        return
    for seat in game.active_seats:
        expected = 4 if game.phase is Phase.DISCARD and seat == game.current_seat else 3
        assert len(game.hand(seat)) == expected
    for seat in range(game.players):
        if game.is_out(seat):
            assert game.hand(seat) == ()
    if game.rules.mode == "widow":
        assert len(game.widow) == 3
    else:
        assert game.widow == ()
        # the pile is empty only just after its last card was taken (R4.1)
        assert game.discard_pile or (
            game.phase is Phase.DISCARD and game.view(game.current_seat).taken_from_pile is not None
        )


@PROPERTY
@given(setups())
def test_property_every_card_exactly_once(setup):
    game = setup.game()
    check_cards(game)
    play(game, setup.seed, check_cards)


# ---------------------------------------------------------------------------- lives, ending


@PROPERTY
@given(setups())
def test_property_lives_never_increase(setup):
    game = setup.game()
    start = setup.rules.lives + (1 if setup.rules.grace_life else 0)
    before = [game.remaining(seat) for seat in range(game.players)]
    assert all(left <= start for left in before)

    def check(game: Game) -> None:
        nonlocal before
        now = [game.remaining(seat) for seat in range(game.players)]
        for seat, (old, new) in enumerate(zip(before, now, strict=True)):
            assert 0 <= new <= old, f"seat {seat}: {old} -> {new} remaining losses"
            assert game.is_out(seat) == (new == 0)
        before = now

    play(game, setup.seed, check)
    assert sum(not game.is_out(seat) for seat in range(game.players)) == 1


@PROPERTY
@given(setups())
def test_property_every_game_ends(setup):
    game = setup.game()
    actions = play(game, setup.seed)
    assert game.is_over
    assert game.winner is not None
    assert not game.is_out(game.winner)
    assert game.legal_actions() == ()
    assert len(actions) < ACTION_CAP
    for log in game.round_logs:
        assert log.result is not None
        assert log.result.turns <= setup.rules.max_turns
        if log.result.end == "max_turns":
            assert log.result.turns == setup.rules.max_turns


# ---------------------------------------------------------------------------- determinism


@settings(max_examples=30)
@given(setups())
def test_property_same_seed_same_actions_same_events(setup):
    first = setup.game()
    actions = play(first, setup.seed)
    second = setup.game()
    for action in actions:
        second.apply(action)
    assert second.is_over
    assert second.events == first.events
    assert [log.deck for log in second.round_logs] == [log.deck for log in first.round_logs]
    assert [log.reshuffles for log in second.round_logs] == [log.reshuffles for log in first.round_logs]
    # and the same seed with the same random choices plays the same game again
    third = setup.game()
    play(third, setup.seed)
    assert third.events == first.events


# ---------------------------------------------------------------------------- refused actions


def state(game: Game, *, live: bool = False) -> dict[str, object]:
    """A full snapshot: every attribute of the game (the random source by its state), and every view.

    Immutable things (cards, events, results) and the logs of finished rounds are compared as they
    are, not copied: a change to them shows as a change of the containers that hold them. With
    ``live`` the attributes are the game's own, not copies: for a snapshot compared at once with
    one taken before, while the game does not change."""
    memo: dict[int, object] = {}
    if not live:
        memo.update((id(card), card) for card in full_deck(52))
        memo.update((id(event), event) for event in game.events)
        memo.update((id(log), copy.copy(log)) for log in game.round_logs[:-1])
    table = half_points(game.rules)
    snap: dict[str, object] = {}
    for name, value in vars(game).items():
        if value is table:
            snap[name] = "shared value table"
        elif isinstance(value, SeededChance):
            snap[name] = value.rng.getstate()
        else:
            snap[name] = value if live else copy.deepcopy(value, memo)
    snap["public"] = (
        game.phase,
        game.current_seat,
        game.round,
        game.knocker,
        game.turn,
        game.stock_size,
        game.discard_pile,
        game.widow,
        game.legal_actions(),
        tuple(game.hand(seat) for seat in range(game.players)),
        tuple(game.remaining(seat) for seat in range(game.players)),
        tuple(game.events),
    )
    snap["views"] = tuple((view, view.history) for view in (game.view(s) for s in range(game.players)))
    return snap


def candidate_actions(game: Game) -> list[Action]:
    """Actions of every kind, legal or not, for the current seat: the universe to try."""
    actions: list[Action] = [
        Draw("stock"),
        Draw("pile"),
        Knock(),
        Pass(),
        ExchangeAll(),
        Keep(),
        TakeWidow(),
        Look(),
        ThrowDown(),
    ]
    actions += [Discard(card) for card in full_deck(52)]
    if game.is_over:
        return actions
    hand = list(game.hand(game.current_seat))
    widow = list(game.widow)
    outside = [card for card in full_deck(game.rules.deck) if card not in hand and card not in widow][:2]
    actions += [Exchange(give, take) for give in hand for take in widow + outside]
    actions += [Exchange(outside[0], take) for take in widow]
    if len(widow) == 3:
        actions.append(Exchange((hand[0], hand[1]), (widow[0], widow[1])))
        actions.append(Exchange((hand[0], outside[0]), (widow[0], widow[1])))
        actions.append(Exchange((hand[0], hand[1]), (widow[0], outside[1])))
    return actions


def check_refusals(game: Game) -> None:
    before = state(game)
    legal = set(game.legal_actions())
    for action in candidate_actions(game):
        if action in legal:
            assert game.is_legal(action), f"{action} is offered but not legal"
            continue
        assert not game.is_legal(action), f"{action} is legal but not offered"
        with pytest.raises(IllegalActionError):
            game.apply(action)
    if not game.is_over:
        seat = game.current_seat
        with pytest.raises(IllegalActionError):
            game.apply(game.legal_actions()[0], seat=(seat + 1) % game.players)
    after = state(game, live=True)  # compared at once: no copy needed
    assert after == before, "a refused action changed the game"


@settings(max_examples=25)
@given(setups())
def test_property_refused_action_leaves_game_exactly_as_it_was(setup):
    game = setup.game()
    checked = 0

    def check(game: Game) -> None:
        nonlocal checked
        if checked < 150 or game.is_over:  # the first 150 states of each game, and the end
            checked += 1
            check_refusals(game)

    check(game)
    play(game, setup.seed, check)
    assert game.is_over


# ---------------------------------------------------------------------------- knock, last turns


def round_turns(log) -> list[tuple[int, Action]]:
    """The round's turns as (seat, first action of the turn): a draw and its discard are one turn."""
    turns: list[tuple[int, Action]] = []
    for seat, action in log.actions:
        if isinstance(action, (Discard, Look, Keep, TakeWidow)):
            continue
        turns.append((seat, action))
    return turns


@PROPERTY
@given(setups())
def test_property_one_knock_then_one_more_turn_for_every_other_player(setup):
    game = setup.game()
    play(game, setup.seed)
    starts = [event for event in game.events if isinstance(event, RoundStarted)]
    assert len(starts) == len(game.round_logs)
    for start, log in zip(starts, game.round_logs, strict=True):
        turns = round_turns(log)
        knocks = [i for i, (_, action) in enumerate(turns) if isinstance(action, Knock)]
        assert len(knocks) <= 1, "R6.1: two knocks in one round"
        if not knocks:
            assert log.result.knocker is None or log.result.end == "throw_down"
            continue
        knocker = turns[knocks[0]][0]
        seats = list(start.seats)
        at = seats.index(knocker)
        expected = seats[at + 1 :] + seats[:at]
        after = [seat for seat, _ in turns[knocks[0] + 1 :]]
        if log.result.end == "knock":
            assert log.result.knocker == knocker
            assert after == expected, f"R6.2: after seat {knocker}'s knock {after}, expected {expected}"
        else:  # a 31 on a last turn, the turn limit or the empty stock ends it earlier
            assert log.result.end in ("blitz", "max_turns", "stock_exhausted")
            assert after == expected[: len(after)]
            assert len(after) < len(expected) or log.result.end == "blitz"


# ---------------------------------------------------------------------------- view privacy


def action_cards(action: Action) -> set[Card]:
    if isinstance(action, Discard):
        return {action.card}
    if isinstance(action, Exchange):
        return set(action.give + action.take)
    return set()


@dataclass
class Public:
    """What the table knows, worked out from the round's events independently of the engine's views."""

    known: list[set[Card]]
    looked: set[int]
    widow_up: bool
    reshuffled: list[tuple[int, set[Card]]]  # (event index, the cards that went back into the stock)


def public_knowledge(game: Game) -> Public:
    rules = game.rules
    known: list[set[Card]] = [set() for _ in range(game.players)]
    looked = set() if rules.throw_down else set(range(game.players))
    widow_up = False
    reshuffled: list[tuple[int, set[Card]]] = []
    orders = game.round_logs[-1].reshuffles
    for index, event in enumerate(game.round_events()):
        if isinstance(event, Reshuffled):
            reshuffled.append((index, set(orders[len(reshuffled)])))
            continue
        if not isinstance(event, Acted):
            continue
        seat, action = event.seat, event.action
        if isinstance(action, Draw) and action.source == "pile":
            known[seat].update(event.received)  # the top of the discard pile: face up
        elif isinstance(action, Discard):
            known[seat].discard(action.card)
        elif isinstance(action, Exchange):
            known[seat] -= set(action.give)
            known[seat] |= set(action.take)
        elif isinstance(action, ExchangeAll):
            known[seat] = set(event.received) if widow_up else set()  # R7.2: the face-down widow is unseen
        elif isinstance(action, TakeWidow):
            known[seat] = set()  # R7.6: taken unseen
        elif isinstance(action, Look):
            looked.add(seat)
        elif isinstance(action, ThrowDown):
            looked = set(range(game.players))
        widow_up = True  # after the round's first action the widow lies face up (R7.2, R7.6)
    return Public(known, looked, widow_up, reshuffled)


def check_privacy(game: Game) -> None:
    rules = game.rules
    public = public_knowledge(game)
    events = game.round_events()
    deck = full_deck(rules.deck)
    placed = {card for seat in range(game.players) for card in game.hand(seat)}
    placed |= set(game.discard_pile) | set(game.widow)
    stock = set(deck) - placed
    if rules.mode == "widow":
        assert game.widow_face_up == public.widow_up
    result = game.last_result
    if result is not None:
        if result.end in ("blitz", "dealt_blitz"):  # R5.1: only the 31 is shown
            shown = result.public().hands
            assert all((hand is not None) == (seat in result.blitz) for seat, hand in enumerate(shown))
        if result.round == game.round:
            assert game.is_over
        else:
            assert result.round < game.round
    for viewer in range(game.players):
        view = game.view(viewer)
        seen_result = view.last_result
        revealed: set[Card] = set()
        if result is not None:
            assert seen_result == result.for_seat(viewer)
            assert seen_result is not None
            if result.end in ("blitz", "dealt_blitz") and result.hands[viewer] is not None:
                assert seen_result.hands[viewer] == result.hands[viewer]  # one's own hand is no secret
            if result.round == game.round:
                revealed = {card for hand in seen_result.hands for card in hand or ()}
        hidden: dict[Card, str] = dict.fromkeys(stock, "the stock")
        if rules.mode == "widow" and not public.widow_up:
            hidden.update(dict.fromkeys(game.widow, "the face-down widow"))
        for seat in range(game.players):
            if seat != viewer:
                hidden.update(dict.fromkeys(set(game.hand(seat)) - public.known[seat], f"seat {seat}'s hand"))
        sees_own = viewer in public.looked and not game.is_out(viewer) and not game.is_over
        if sees_own:
            assert view.hand is not None
            assert sorted(view.hand) == sorted(game.hand(viewer))
        else:
            assert view.hand is None, f"seat {viewer} sees its hand before looking (R6.6) or after the game"
            assert view.hand_value is None
            if viewer not in public.looked:
                hidden.update(dict.fromkeys(game.hand(viewer), "its own unseen hand"))
        for card in revealed:
            hidden.pop(card, None)
        # what the view shows now
        now: set[Card] = set(view.hand or ())
        if view.discard_top is not None:
            assert rules.mode == "draw"
            assert view.discard_top == game.discard_pile[-1]
            now.add(view.discard_top)
        if view.widow is not None:
            assert public.widow_up
            assert view.widow == game.widow
            now.update(view.widow)
        for status in view.seats:
            assert set(status.known_cards) == public.known[status.seat], "known_cards differ from the public record"
            assert set(status.known_cards) <= set(game.hand(status.seat))
            now.update(status.known_cards)
        for action in view.legal_actions:
            now.update(action_cards(action))
        if seen_result is not None and seen_result.round == game.round:
            for hand in seen_result.hands:
                now.update(hand or ())
        leaked = {card: hidden[card] for card in now if card in hidden}
        assert not leaked, f"seat {viewer}'s view shows {leaked}"
        # the round's history: a card seen before it was shuffled back into the stock is no secret
        history = view.history
        assert len(history) == len(events)
        for index, event in enumerate(history):
            assert type(event) is type(events[index])
            for card in event_cards(event):
                if card not in hidden:
                    continue
                stale = any(at > index and card in cards for at, cards in public.reshuffled)
                assert stale, f"seat {viewer}'s history event {event} shows {card}, in {hidden[card]}"
    check_public_view(game, public, stock, events)


def check_public_view(game: Game, public: Public, stock: set[Card], events: tuple[Event, ...]) -> None:
    """What a spectator gets (``Game.public_view``): the table every seat sees, no hand, and a
    history and last result with no card that some seat alone may know."""
    shown = game.public_view()
    assert not isinstance(shown, PlayerView)
    table = game.view(0)
    for name in ("players", "round", "dealer", "phase", "current_seat", "discard_top", "discard_size", "widow",
                 "widow_face_down", "stock_size", "seats", "knocker", "turn"):  # fmt: skip
        assert getattr(shown, name) == getattr(table, name), name
    result = game.last_result
    assert shown.last_result == (None if result is None else result.public())
    hidden: dict[Card, str] = dict.fromkeys(stock, "the stock")
    if game.rules.mode == "widow" and not public.widow_up:
        hidden.update(dict.fromkeys(game.widow, "the face-down widow"))
    for seat in range(game.players):
        hidden.update(dict.fromkeys(set(game.hand(seat)) - public.known[seat], f"seat {seat}'s hand"))
    if shown.last_result is not None and shown.last_result.round == game.round:
        for hand in shown.last_result.hands:
            for card in hand or ():
                hidden.pop(card, None)
    assert len(shown.history) == len(events)
    for index, event in enumerate(shown.history):
        assert event == events[index].for_seat(-1)
        for card in event_cards(event):
            if card in hidden:
                stale = any(at > index and card in cards for at, cards in public.reshuffled)
                assert stale, f"the public history event {event} shows {card}, in {hidden[card]}"


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_view_privacy(preset, data):
    setup = data.draw(setups(preset))
    game = setup.game()
    check_privacy(game)
    play(game, setup.seed, check_privacy)


@pytest.mark.parametrize(
    "options",
    [
        {"throw_down": True},
        {"stock_exhausted": "showdown", "min_knock_value": 25, "max_turns": 200},
        {"knock_from_round": 2, "three_of_a_kind": "30", "straight_flush": True},
    ],
    ids=["throw_down", "stock_exhausted", "late_knock"],
)
@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_property_view_privacy_draw_options(options, seed, players):
    game = Game(Rules.preset("scat", lives=1, **options), players, seed=seed)
    check_privacy(game)
    play(game, seed, check_privacy)


@settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_property_view_privacy_through_reshuffles(seed, players):
    """Nobody knocks and most draws are from the stock: every round reshuffles the discard pile (R4.3)."""
    game = Game(Rules.preset("scat", lives=1, max_turns=120), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = [action for action in game.legal_actions() if action != Knock()]
        if Draw("stock") in legal and rng.random() < 0.8:
            game.apply(Draw("stock"))
        else:
            game.apply(legal[rng.randrange(len(legal))])
        check_privacy(game)
    assert any(isinstance(event, Reshuffled) for event in game.events)
