"""Suit symmetry: a decision seen with its suits relabelled.

No suit ranks above another in any preset the judge plays (a hand counts its best suit, R5.1;
three of a kind any suit, R5.2), so relabelling the suits of every card of a deal — clubs as
hearts, say — gives a deal whose every decision has the same values, move for move. The
distillation's fit (:func:`thirtyone.agents.distill.fit`, ``suits=True``) shows each batch of the
expert's decisions under one of the 24 relabellings, drawn at random: 24 times the positions from
the same games, as a network that had to learn every suit's version of a hand alone would need
(boards' symmetries serve the same way in Go programs).

A relabelling ``perm`` sends suit ``s`` to ``perm[s]``, a card ``rank * 4 + s`` to
``rank * 4 + perm[s]`` (:func:`card_map`). In the judge's input (:mod:`thirtyone.judge.network`)
it moves the entries of every card plane (the hand, taken, the pile's top card, the pile, the
widow, each seat's known and discarded cards) and of the card sums; in the action space
(:mod:`thirtyone.action_ids`) it moves a discard's id with its card and an exchange's id with the
places its cards take in the relabelled hand and widow, sorted by card index.

>>> import numpy as np
>>> from thirtyone.cards import Card
>>> hearts_as_clubs = np.array([2, 1, 0, 3])  # clubs and hearts trade places
>>> str(Card(int(card_map(hearts_as_clubs)[Card.parse("Qh")])))
'Qc'
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import DISCARD
from thirtyone.action_ids import EXCHANGE_ONE
from thirtyone.action_ids import EXCHANGE_TWO
from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import MOVE_FEATURES
from thirtyone.judge.observation import layout_for
from thirtyone.rules import MAX_PLAYERS

__all__ = ["PERMUTATIONS", "card_map", "relabel"]

Ints = npt.NDArray[np.int64]

PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(4)))
"""The 24 relabellings of the four suits (the first is the identity)."""

_WIDE = layout_for(MAX_PLAYERS)  # the judge's input lays every table out for the most seats
_PLANES = ("hand", "taken", "pile_top", "pile", "widow", "known", "discarded")
_CARD_SUMS_AT = _WIDE.size
_MOVES_AT = INPUT_SIZE - MOVE_FEATURES


def card_map(perm: Any) -> Ints:
    """``[52]``: the index each card (``rank * 4 + suit``) has after suit ``s`` becomes ``perm[s]``."""
    perm = np.asarray(perm, dtype=np.int64)
    if sorted(perm.tolist()) != [0, 1, 2, 3]:
        raise ValueError(f"a relabelling of the suits is a permutation of 0-3, not {perm.tolist()}")
    cards = np.arange(52, dtype=np.int64)
    mapped: Ints = (cards // 4) * 4 + perm[cards % 4]
    return mapped


def _columns(perm: Any) -> Ints:
    """``[INPUT_SIZE]``: for each entry of a relabelled input, the entry of the original it takes
    (the card planes and card sums; the move features are moved with the ids, :func:`relabel`)."""
    inverse = np.argsort(card_map(perm))  # the original card behind each relabelled one
    suits_back = np.argsort(np.asarray(perm, dtype=np.int64))
    source = np.arange(INPUT_SIZE)
    for name in _PLANES:
        where = _WIDE.slices[name]
        for start in range(where.start, where.stop, 52):
            source[start : start + 52] = start + inverse
    for group in range(3):  # each suit's points in the hand, with the pile's top card, with the widow (the
        # card sums' last two, the best suit's points, do not move)
        start = _CARD_SUMS_AT + 4 * group
        source[start : start + 4] = start + suits_back
    return source


def _action_map(x: npt.NDArray[Any], perm: Any) -> Ints:
    """``[n, 79]``: the id each action id of decisions ``x`` (judge inputs, before relabelling)
    has after relabelling: a discard moves with its card; an exchange with the places its cards
    take among the relabelled hand and widow, sorted by card index; every other id stays."""
    n = x.shape[0]
    ids = np.tile(np.arange(NUM_ACTIONS), (n, 1))
    cards = card_map(perm)
    ids[:, DISCARD : DISCARD + 52] = cards
    hand = x[:, _WIDE.slices["hand"]] > 0.5
    widow = x[:, _WIDE.slices["widow"]] > 0.5
    rows = np.flatnonzero((hand.sum(axis=1) == 3) & (widow.sum(axis=1) == 3))  # where an exchange can be
    if rows.size:
        places_hand = _new_places(hand[rows], cards)
        places_widow = _new_places(widow[rows], cards)
        for first in (EXCHANGE_ONE, EXCHANGE_TWO):
            for i in range(3):
                for j in range(3):
                    ids[rows, first + 3 * i + j] = first + 3 * places_hand[:, i] + places_widow[:, j]
    return ids


def _new_places(plane: npt.NDArray[np.bool_], cards: Ints) -> Ints:
    """``[n, 3]``: where the ``i``-th lowest card of each row's three (``plane [n, 52]``) stands
    among the three relabelled by ``cards``, lowest first."""
    held = np.nonzero(plane)[1].reshape(-1, 3)  # each row's cards, lowest first
    places: Ints = np.argsort(np.argsort(cards[held], axis=1), axis=1)
    return places


def relabel(
    x: npt.NDArray[Any], mask: npt.NDArray[Any], values: npt.NDArray[Any], best: npt.NDArray[Any], perm: Any
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """Decisions (judge inputs ``x [n, INPUT_SIZE]``, legal masks and values ``[n, 79]``, moves
    ``best [n]``, as :class:`thirtyone.agents.distill.Targets` holds them) with their suits
    relabelled by ``perm``: the same decisions of the relabelled deals, with the same values.

    Raises:
        ValueError: for a ``perm`` that is not a permutation of 0–3.
    """
    ids = _action_map(x, perm)
    rows = np.arange(x.shape[0])[:, None]
    moved = x[:, _columns(perm)]
    for start in (_MOVES_AT, _MOVES_AT + NUM_ACTIONS):  # each id's move features go with the id
        moved[rows, start + ids] = x[:, start : start + NUM_ACTIONS]
    new_mask = np.zeros_like(mask)
    new_mask[rows, ids] = mask
    new_values = np.zeros_like(values)
    new_values[rows, ids] = values
    return moved, new_mask, new_values, ids[rows[:, 0], best]
