"""The agents' encoding (thirtyone.agents): the fixed action id space and its mask against the
engine's legal actions everywhere, and the observation tensor: built from a seat's view only, so
two games whose views for a seat are equal give that seat equal observations."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from thirtyone import Game
from thirtyone import Rules
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.agents import NUM_ACTIONS
from thirtyone.agents import EnvConfig
from thirtyone.agents import ObservationLayout
from thirtyone.agents import action_from_id
from thirtyone.agents import encode
from thirtyone.agents import layout_for
from thirtyone.agents import legal_ids
from thirtyone.agents import legal_mask
from thirtyone.cards import Card
from thirtyone.chance import ScriptedChance
from thirtyone.errors import ActionError
from thirtyone.errors import ArgumentError
from thirtyone.errors import CardError
from thirtyone.errors import RulesError
from thirtyone.events import Acted
from thirtyone.events import NewWidow
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted

RULESETS = [
    Rules.preset("scat"),
    Rules.preset("widow"),
    Rules.preset("namu"),
    Rules.preset("schwimmen"),
    Rules.preset("scat", throw_down=True, min_knock_value=20, stock_exhausted="showdown"),
    Rules.preset("widow", exchange="any", all_pass="new_widow", knock_from_round=2, three_of_a_kind="30"),
    Rules.preset("scat", deck=32, three_aces=True, straight_flush=True, max_turns=12, lives=1, grace_life=False),
    Rules.preset("schwimmen", exchange="any", dealer_hand=False),
]


def random_positions(rules: Rules, players: int, seed: int, steps: int = 250) -> Iterator[Game]:
    """One randomly played game, yielded before each of its first ``steps`` moves."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        yield game
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("rules", RULESETS, ids=lambda rules: rules.describe())
@pytest.mark.parametrize("players", [2, 4, 7])
def test_legal_mask_equals_legal_actions_everywhere(rules: Rules, players: int) -> None:
    if rules.cards_needed(players) > rules.deck:
        pytest.skip("the deck cannot deal this table")
    for seed in range(2):
        for step, game in enumerate(random_positions(rules, players, seed)):
            legal = game.legal_actions()
            mask = legal_mask(game)
            assert mask.dtype == np.int8
            assert mask.shape == (NUM_ACTIONS,)
            ids = legal_ids(game)
            assert int(mask.sum()) == len(legal) == len(set(ids)), "every legal action has its own id"
            assert [action_from_id(game, number) for number in ids] == list(legal)
            view = game.view(game.current_seat)
            assert legal_ids(view) == ids, "the view names the same ids as the game"
            if step % 7:
                continue  # the ids the mask refuses, at every 7th move (each costs a refusal)
            for number in np.flatnonzero(mask == 0):
                try:
                    action = action_from_id(game, int(number))
                except ActionError:
                    continue  # an exchange with no face-up widow to name
                assert action not in legal
                assert not game.is_legal(action)


def test_numpy_integers_are_ids() -> None:
    game = Game(Rules.preset("scat"), 3, seed=1)
    assert action_from_id(game, np.int64(52)) == Draw("stock")


def test_layout_has_the_documented_slices() -> None:
    layout = ObservationLayout(4)
    assert layout.size == 52 * (5 + 2 * 4) + 7 * 4 + 10
    assert layout.shapes["known"] == (4, 52)
    assert layout.slices["hand"] == slice(0, 52)
    assert list(layout.slices) == list(layout.shapes)
    assert layout_for(4) is layout_for(4)
    assert layout_for(4) == layout
    ends = [part.stop for part in layout.slices.values()]
    starts = [part.start for part in layout.slices.values()]
    assert starts[1:] == ends[:-1]
    assert ends[-1] == layout.size
    for bad in (1, 10, 4.0, True):
        with pytest.raises(ArgumentError, match="2 to 9 players"):
            ObservationLayout(bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="float32"):
        encode(Game("scat", 4, seed=1).view(0), out=np.zeros(layout.size, dtype=np.float64))  # type: ignore[arg-type]


def test_observation_reads_the_view() -> None:
    game = Game(Rules.preset("scat"), 3, seed=11)
    seat = game.current_seat
    assert seat is not None
    game.apply("draw pile")
    taken = game.view(seat).taken_from_pile
    assert taken is not None
    parts = layout_for(3).unpack(encode(game.view(seat)))
    assert sorted(np.flatnonzero(parts["hand"])) == sorted(game.hand(seat))
    assert list(np.flatnonzero(parts["taken"])) == [taken]
    assert list(np.flatnonzero(parts["known"][0])) == [taken], "slot 0 is the observer"
    other = (seat + 1) % 3
    theirs = layout_for(3).unpack(encode(game.view(other)))
    assert list(np.flatnonzero(theirs["known"][2])) == [taken], "seen from the next seat, the observer is slot 2"
    assert theirs["hand"].sum() == 3
    assert theirs["taken"].sum() == 0
    assert parts["phase"].tolist() == [0, 0, 0, 1, 0]
    assert parts["to_move"].tolist() == [1, 0, 0]
    discard = next(card for card in game.hand(seat) if card != taken)
    game.apply(Discard(discard))
    parts = layout_for(3).unpack(encode(game.view(other)))
    assert list(np.flatnonzero(parts["discarded"][2])) == [discard]
    assert list(np.flatnonzero(parts["pile_top"])) == [discard]
    assert discard in np.flatnonzero(parts["pile"])
    assert parts["lives"].tolist() == [1.0, 1.0, 1.0]
    assert parts["players"][0] == pytest.approx(3 / 9)


def test_observations_are_in_their_box_for_every_ruleset() -> None:
    for rules in RULESETS:
        for game in random_positions(rules, 3, 5, steps=150):
            for seat in range(3):
                obs = encode(game.view(seat))
                assert obs.dtype == np.float32
                assert obs.shape == (layout_for(3).size,)
                assert obs.min() >= 0.0
                assert obs.max() <= 1.0


def _cards_seen(game: Game, seat: int) -> set[Card]:
    """Every card that seat ``seat`` has seen in this round's events (and holds or sees now)."""
    seen: set[Card] = set(game.hand(seat)) | set(game.discard_pile) | set(game.known_cards(seat))
    if game.widow_face_up:
        seen.update(game.widow)
    for event in game.round_events():
        event = event.for_seat(seat)
        if isinstance(event, Acted):
            seen.update(event.received or ())
            seen.update(event.revealed)
            for part in ("card", "give", "take"):
                value = getattr(event.action, part, ())
                seen.update(value if isinstance(value, tuple) else (value,))
        elif isinstance(event, RoundStarted) and event.upcard is not None:
            seen.add(event.upcard)
        elif isinstance(event, NewWidow):
            seen.update(event.set_aside + event.widow)
        elif isinstance(event, RoundEnded):
            for hand in event.result.hands:
                seen.update(hand or ())
    return seen


@settings(max_examples=40)
@given(
    ruleset=st.sampled_from(RULESETS),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    data=st.data(),
)
def test_equal_views_give_equal_observations(
    ruleset: Rules, players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    """Deal a second game whose current round differs only in cards a seat has never seen (the
    others' hidden cards and the stock, permuted), play the same actions in it, and wherever the
    seat's views of both are equal, so are its observations (and its mask, on its move)."""
    if ruleset.cards_needed(players) > ruleset.deck:
        return
    rng = random.Random(seed)
    game = Game(ruleset, players, seed=seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    if game.is_over:
        return
    seat = data.draw(st.sampled_from(game.active_seats))
    hidden = sorted(set(game.unseen_by(seat)) - _cards_seen(game, seat))
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    logs = game.round_logs
    decks = [list(log.deck) for log in logs[:-1]] + [[swap.get(card, card) for card in logs[-1].deck]]
    try:
        twin = Game(ruleset, players, chance=ScriptedChance(logs[0].dealer, decks, [log.reshuffles for log in logs]))
        for log in logs:
            for actor, action in log.actions:
                if twin.is_over or twin.current_seat != actor or not twin.is_legal(action):
                    return  # the other cards changed what could be played: no equal views to compare
                twin.apply(action)
    except CardError:  # the other cards ended the twin's round (a 31, dealt or drawn) where the game's goes on
        return
    if twin.round != game.round or twin.view(seat) != game.view(seat):
        return
    assert np.array_equal(encode(twin.view(seat)), encode(game.view(seat)))
    if game.current_seat == seat:
        assert np.array_equal(legal_mask(twin), legal_mask(game))


def test_the_twin_games_hide_different_cards() -> None:
    """The construction above is not empty: for most positions the twin holds other hidden cards
    and the views are still equal."""
    differing = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = Game(Rules.preset("scat"), 4, seed=seed)
        for _ in range(6):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        seat = game.current_seat
        assert seat is not None
        hidden = sorted(set(game.unseen_by(seat)) - _cards_seen(game, seat))
        order = hidden[1:] + hidden[:1]
        swap = dict(zip(hidden, order, strict=True))
        logs = game.round_logs
        decks = [list(log.deck) for log in logs[:-1]] + [[swap.get(card, card) for card in logs[-1].deck]]
        twin = Game(
            Rules.preset("scat"), 4, chance=ScriptedChance(logs[0].dealer, decks, [log.reshuffles for log in logs])
        )
        for log in logs:
            for actor, action in log.actions:
                if twin.is_legal(action) and twin.current_seat == actor:
                    twin.apply(action)
        if twin.view(seat) == game.view(seat) and any(
            twin.hand(other) != game.hand(other) for other in range(4) if other != seat
        ):
            differing += 1
            assert np.array_equal(encode(twin.view(seat)), encode(game.view(seat)))
    assert differing >= 20


def test_env_config_refuses_bad_options() -> None:
    with pytest.raises(ArgumentError, match="unknown environment option 'colour'"):
        EnvConfig.make(colour="red")
    with pytest.raises(ArgumentError, match=r"R2\.1"):
        EnvConfig.make(players=10)
    with pytest.raises(ArgumentError, match="players is a whole number"):
        EnvConfig.make(players="four")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="win_reward is True or False"):
        EnvConfig.make(win_reward=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="max_rounds is a whole number from 1"):
        EnvConfig.make(max_rounds=0)
    with pytest.raises(RulesError, match="unknown preset"):
        EnvConfig.make(preset="bridge")
    with pytest.raises(RulesError, match="option lives"):
        EnvConfig.make(lives=0)
    config = EnvConfig.make(Rules.preset("widow"), 3, exchange="any", max_rounds=7)
    assert config.rules.exchange == "any"
    assert config.max_rounds == 7
    assert config.full == 4
