"""The counter-based random source shared by :mod:`thirtyone.sim` and the engine (pure Python).

Every random outcome the simulator draws — a deck order, a reshuffle, the first dealer, a choice of
the ``random`` policy — is a pure function of a 64-bit *key* and a counter, so that the compiled
kernels and a Python program that drives :class:`~thirtyone.engine.Game` get exactly the same
outcomes without sharing any state. The functions here are the specification; the kernels in
:mod:`thirtyone.sim.kernels` implement the same arithmetic on ``numpy.uint64`` and the tests check
that the two agree.

- ``splitmix64(x)``: the SplitMix64 output function of the state ``x`` (add the golden gamma, then
  the two xor-shift-multiply rounds), modulo 2**64.
- ``derive(key, x) = splitmix64(key ^ splitmix64(x))``: a new key (or a random word) from a key and
  a number.
- A *round key*: ``round_key(seed, index)`` for row ``index`` of a batch played with ``seed``
  (:func:`thirtyone.sim.play_rounds`), ``derive(game_key(seed), round)`` for round ``round`` (from 1)
  of a whole game (:func:`thirtyone.sim.play_games`). From a round key come
  ``derive(key, TAG_DEAL)`` (the deck order), ``derive(key, TAG_RESHUFFLE)`` (reshuffles) and
  ``derive(key, TAG_POLICY)`` (the ``random`` policy's choices).
- ``bounded(word, n) = ((word >> 32) * n) >> 32``: a number from 0 to ``n - 1`` taken from the
  word's high 32 bits (a multiplication where a modulo would cost a slow division; the bias, below
  ``n / 2**32``, is far beneath anything a simulation can see).
- A shuffle of ``m`` cards with key ``k`` is Fisher–Yates from the top of the list (index 0) on:
  ``for i in 0 … m-2: j = i + bounded(derive(k, i), m - i); swap(cards[i], cards[j])``; as it
  fixes the top card first, the kernels shuffle a deck only as far as a round reads it. The ``r``-th
  reshuffle of a round (from 1) shuffles the discard pile but its top card, bottom first, with key
  ``derive(derive(round_key, TAG_RESHUFFLE), r)``; the result is the new stock, top card first.
- The ``random`` policy's ``d``-th action of a round (``d`` counts every action applied in the round
  so far, by any seat, from 0) is
  ``legal[bounded(derive(derive(round_key, TAG_POLICY), d), len(legal))]``, with ``legal`` in the
  order of :meth:`~thirtyone.engine.Game.legal_actions`; in a whole game
  (:func:`thirtyone.sim.play_games`) the round key is ``game_round_key(seed, round)``:
  :func:`game_random_index` gives that pick to a Python program driving the engine.
- A game's first dealer is ``bounded(derive(game_key(seed), TAG_DEALER), players)``.

:class:`CounterChance` and :class:`RoundChance` are :class:`~thirtyone.chance.Chance` objects that
give the engine these outcomes, so ``Game(rules, players, chance=CounterChance(seed))`` deals exactly
the games ``play_games(..., seeds=[seed])`` plays.

>>> hex(splitmix64(0))  # SplitMix64's first output for the seed 0
'0xe220a8397b1dcdaf'
>>> counter_shuffle([1, 2, 3, 4, 5], 42)
[2, 3, 1, 4, 5]
>>> random_index(derive(round_key(7, 0), TAG_POLICY), 0, 3)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from thirtyone.cards import Card
from thirtyone.chance import ScriptedChance

__all__ = [
    "MASK64",
    "GAMMA",
    "TAG_DEAL",
    "TAG_RESHUFFLE",
    "TAG_POLICY",
    "TAG_DEALER",
    "splitmix64",
    "derive",
    "round_key",
    "game_key",
    "game_round_key",
    "bounded",
    "counter_shuffle",
    "random_index",
    "game_random_index",
    "CounterChance",
    "RoundChance",
]

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""The golden-ratio increment of SplitMix64."""
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB

TAG_DEAL = 1
"""Derives a round's deck-order key from its round key."""
TAG_RESHUFFLE = 2
"""Derives a round's reshuffle key from its round key."""
TAG_POLICY = 3
"""Derives a round's ``random``-policy key from its round key."""
TAG_DEALER = 4
"""Derives the first dealer from a game key."""

T = TypeVar("T")


def splitmix64(x: int) -> int:
    """SplitMix64's output for state ``x`` (a 64-bit word; larger ints are taken modulo 2**64)."""
    z = (x + GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * _MUL1) & MASK64
    z = ((z ^ (z >> 27)) * _MUL2) & MASK64
    return z ^ (z >> 31)


def derive(key: int, x: int) -> int:
    """A 64-bit word from ``key`` and the counter ``x``: ``splitmix64(key ^ splitmix64(x))``."""
    return splitmix64((key & MASK64) ^ splitmix64(x & MASK64))


def round_key(seed: int, index: int) -> int:
    """The key of row ``index`` (from 0) of a batch of rounds played with ``seed``."""
    return derive(seed, index)


def game_key(seed: int) -> int:
    """The key of a whole game played with ``seed``."""
    return splitmix64(seed & MASK64)


def game_round_key(seed: int, round: int) -> int:
    """The key of round ``round`` (from 1) of the game played with ``seed``."""
    return derive(game_key(seed), round)


def bounded(word: int, n: int) -> int:
    """A number from 0 to ``n - 1`` (``1 <= n <= 2**32``) from a 64-bit word: ``((word >> 32) * n) >> 32``."""
    return ((word >> 32) * n) >> 32


def counter_shuffle(cards: Sequence[T], key: int) -> list[T]:
    """``cards`` shuffled by Fisher–Yates with the words ``derive(key, i)`` (see the module docstring)."""
    order = list(cards)
    size = len(order)
    for i in range(size - 1):
        j = i + bounded(derive(key, i), size - i)
        order[i], order[j] = order[j], order[i]
    return order


def random_index(policy_key: int, decision: int, choices: int) -> int:
    """The ``random`` policy's pick among ``choices`` legal actions at action ``decision`` (from 0)
    of a round whose policy key is ``policy_key`` (``derive(round_key, TAG_POLICY)``)."""
    return bounded(derive(policy_key, decision), choices)


def game_random_index(seed: int, round: int, decision: int, choices: int) -> int:
    """The ``random`` policy's pick among ``choices`` legal actions (in the order of
    :meth:`~thirtyone.engine.Game.legal_actions`) at action ``decision`` (from 0, every action
    applied in the round so far by any seat) of round ``round`` (from 1) of the game that
    :func:`thirtyone.sim.play_games` plays with ``seed``: with :class:`CounterChance` dealing, an
    engine game that picks so plays exactly the simulator's game.

    >>> game_random_index(5, 1, 0, 3) == random_index(derive(game_round_key(5, 1), TAG_POLICY), 0, 3)
    True
    """
    return random_index(derive(game_round_key(seed, round), TAG_POLICY), decision, choices)


class RoundChance(ScriptedChance):
    """Chance for one round as :func:`thirtyone.sim.play_rounds` plays it: the given first dealer and
    deck order, and reshuffles drawn from ``key`` (the row's round key, see :func:`round_key`).

    A game deals its next round as soon as the first has ended; that one gets the deck in index
    order, which deals no blitz (whoever drives the game reads the first round only).
    """

    def __init__(self, dealer: int, deck: Sequence[Card], key: int) -> None:
        super().__init__(dealer, [deck])
        self.key = key & MASK64
        self._deck = list(deck)

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        return list(self._deck) if round == 1 else list(deck)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        return counter_shuffle(cards, derive(derive(self.key, TAG_RESHUFFLE), number))


class CounterChance:
    """Chance for a whole game as :func:`thirtyone.sim.play_games` plays it with ``seed``: the first
    dealer, each round's deck order (the deck in index order, shuffled with the round's deal key)
    and each reshuffle, all from counters (see the module docstring). Round ``r`` is dealt the same
    cards whatever happened before, as with :class:`~thirtyone.chance.DuplicateChance`."""

    trusted = True  # it only shuffles the cards it is given

    def __init__(self, seed: int) -> None:
        self.seed = seed & MASK64

    def first_dealer(self, players: int) -> int:
        return bounded(derive(game_key(self.seed), TAG_DEALER), players)

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        return counter_shuffle(deck, derive(game_round_key(self.seed, round), TAG_DEAL))

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        key = derive(derive(game_round_key(self.seed, round), TAG_RESHUFFLE), number)
        return counter_shuffle(cards, key)
