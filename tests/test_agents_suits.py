"""Suit symmetry (thirtyone.agents.suits) against real games: a game dealt with its suits
relabelled, played move for move like the original, must show at every decision the inputs,
legal ids and moves that relabel() makes from the original's."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import numpy as np
import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.action_ids import action_from_id
from thirtyone.action_ids import action_id
from thirtyone.action_ids import legal_ids
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Exchange
from thirtyone.agents.suits import PERMUTATIONS
from thirtyone.agents.suits import card_map
from thirtyone.agents.suits import relabel
from thirtyone.cards import Card
from thirtyone.chance import SeededChance
from thirtyone.judge.network import judge_inputs
from thirtyone.judge.observation import encode


class Relabelled:
    """The deals of ``SeededChance(seed)`` with every card's suit relabelled by ``cards``; a
    reshuffle orders the (relabelled) pile by the same shuffle, place for place."""

    def __init__(self, seed: int, cards: np.ndarray) -> None:
        self.base = SeededChance(seed)
        self.cards = [Card(int(c)) for c in cards]

    def first_dealer(self, players: int) -> int:
        return self.base.first_dealer(players)

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        return [self.cards[c] for c in self.base.deal_order(deck, round)]

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        return self.base.reshuffle_order(cards, round, number)


def _moved(action: Action, cards: list[Card]) -> Action:
    if isinstance(action, Discard):
        return Discard(cards[action.card])
    if isinstance(action, Exchange):
        return dataclasses.replace(
            action, give=tuple(cards[c] for c in action.give), take=tuple(cards[c] for c in action.take)
        )
    return action


def _inputs(game: Game) -> np.ndarray:
    view = game.view(game.current_seat)
    return judge_inputs(encode(view)[None, :], game.players, game.rules)


@pytest.mark.parametrize("preset", ["scat", "widow", "schwimmen"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_relabelled_game_shows_the_relabelled_decisions(preset, players):
    rng = random.Random(f"{preset}-{players}")
    decisions = exchanges = 0
    for deal in range(3):
        perm = PERMUTATIONS[rng.randrange(1, 24)]  # never the identity
        cards = [Card(int(c)) for c in card_map(perm)]
        seed = rng.randrange(10**6)
        original = Game(Rules.preset(preset), players, chance=SeededChance(seed))
        twin = Game(Rules.preset(preset), players, chance=Relabelled(seed, card_map(perm)))
        while not original.is_over and decisions < 400 * (deal + 1):
            ids = legal_ids(original)
            x = _inputs(original)
            mask = np.zeros((1, 79), bool)
            mask[0, ids] = True
            values = np.where(mask, np.arange(79, dtype=np.float32)[None, :] + 1, 0)
            chosen = rng.choice(ids)
            got_x, got_mask, got_values, got_best = relabel(x, mask, values, np.array([chosen]), perm)
            assert np.array_equal(got_x, _inputs(twin))
            assert sorted(np.flatnonzero(got_mask[0])) == sorted(legal_ids(twin))
            twin_action = _moved(action_from_id(original, chosen), cards)
            assert action_id(twin, twin_action) == got_best[0]
            for number in ids:  # every legal move's value goes with its move
                moved = action_id(twin, _moved(action_from_id(original, number), cards))
                assert got_values[0, moved] == number + 1
            exchanges += isinstance(twin_action, Exchange)
            original.apply(action_from_id(original, chosen))
            twin.apply(twin_action)
            decisions += 1
    assert decisions > 100
    if preset != "scat":
        assert exchanges > 10


def test_a_relabelling_is_a_permutation_of_the_suits():
    assert len(set(PERMUTATIONS)) == 24
    assert np.array_equal(card_map(PERMUTATIONS[0]), np.arange(52))
    with pytest.raises(ValueError, match="permutation of 0-3"):
        card_map([0, 0, 1, 2])
