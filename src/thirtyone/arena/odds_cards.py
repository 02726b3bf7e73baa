"""What the cards alone say, before anyone plays: the value of every hand the deck can deal
(exact), the chance of a dealt blitz for one hand and at a table (exact), and the chance that a
dealt hand is the lowest at the table, by its value and the number of players (exact for two
players, dealt at random for more, with 95% Wilson intervals).

Values are in half points (31 = 62, 30½ = 61), read from :func:`thirtyone.scoring.half_points`,
the table the engine scores with (R1.3–R1.6).

>>> from thirtyone.rules import Rules
>>> hands = hand_values(Rules.preset("scat"))        # R1.7's reference counts
>>> hands.hands, hands.counts[62], hands.counts[60], hands.counts[20], round(float(hands.mean), 3)
(22100, 24, 32, 5732, 13.088)
>>> str(hands.blitz), str(hands.blitz_at_table(2))
('6/5525', '11049/5089630')
>>> str(lowest_two(Rules.preset("scat"))[62])    # lowest only when the other holds 31 too: 18 of C(49, 3)
'9/9212'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.arena.odds_measures import Share
from thirtyone.arena.odds_measures import points
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.rules import Rules
from thirtyone.scoring import BLITZ_HALF
from thirtyone.scoring import half_points

__all__ = [
    "HALVES",
    "deck_hands",
    "value_table",
    "hand_halves",
    "HandValues",
    "hand_values",
    "lowest_two",
    "Lowest",
    "deal_lowest",
]

HALVES = 67
"""Hand values in half points run from 0 to 66 (three aces: 33 points, R1.5): the length of an
array by value."""

IntArray = npt.NDArray[np.int64]


def deck_hands(rules: Rules) -> IntArray:
    """Every three cards of the rules' deck, ``[C(deck, 3), 3]`` card indexes, each row in index
    order and the rows in lexicographic order."""
    return np.array(list(combinations(full_deck(rules.deck), 3)), dtype=np.int64).reshape(-1, 3)


def value_table(rules: Rules) -> IntArray:
    """:func:`~thirtyone.scoring.half_points` as an array, for :func:`hand_halves`."""
    return np.asarray(half_points(rules), dtype=np.int64)


def hand_halves(table: IntArray, hands: IntArray) -> IntArray:
    """The value in half points of each three cards along the last axis of ``hands`` (``[..., 3]``
    card indexes), read from ``table`` (:func:`value_table`); the shape of ``hands`` less its last axis."""
    values: IntArray = table[hands[..., 0] * 2704 + hands[..., 1] * 52 + hands[..., 2]]
    return values


@dataclass(frozen=True)
class HandValues:
    """The exact distribution of dealt hand values: ``counts[half]`` of the ``hands`` = C(deck, 3)
    hands are worth ``half`` half points, and ``blitz_hands`` are the hands that are a blitz when
    dealt (worth 31 or more: 31, or three aces with ``three_aces``, R5.2, R5.5)."""

    rules: Rules
    hands: int
    counts: dict[int, int]
    blitz_hands: tuple[tuple[Card, Card, Card], ...]

    @property
    def mean(self) -> Fraction:
        """The mean value of a dealt hand in points, exactly."""
        return Fraction(sum(half * count for half, count in self.counts.items()), 2 * self.hands)

    def at_least(self, half: int) -> Fraction:
        """The chance that a dealt hand is worth at least ``half`` half points."""
        return Fraction(sum(count for value, count in self.counts.items() if value >= half), self.hands)

    @property
    def blitz(self) -> Fraction:
        """The chance that one dealt hand is a blitz (R5.2)."""
        return Fraction(len(self.blitz_hands), self.hands)

    def blitz_at_table(self, players: int) -> Fraction:
        """The chance that someone at a table of ``players`` is dealt a blitz (R5.2; in the
        Schwimmen deal the dealer's first hand counts, the second is not a player's), exactly: by
        inclusion-exclusion over ``k`` given players all dealt one, the ordered ``k`` blitz hands
        with no card in common over the ordered ``k`` hands the deck can deal.

        Raises:
            RulesError: when the rules cannot be dealt to ``players`` (R2.1).
        """
        players = self.rules.check_players(players)
        deck = self.rules.deck
        total = Fraction(0)
        for k in range(1, players + 1):
            together = _disjoint_sequences(self.blitz_hands, k)
            if together == 0:
                break
            ways = math.prod(math.comb(deck - 3 * i, 3) for i in range(k))
            total += (-1) ** (k + 1) * math.comb(players, k) * Fraction(together, ways)
        return total

    def to_dict(self, tables: Sequence[int]) -> dict[str, Any]:
        """Plain data: the hands of each value (points) with their share and the share worth at
        least as much, the mean, and the chance of a dealt blitz for one hand and at each of
        ``tables`` (numbers of players); exact fractions as text beside the floats."""
        return {
            "method": "exact",
            "how": f"every one of the {self.hands:,} hands of three cards of the {self.rules.deck}-card deck",
            "hands": self.hands,
            "values": [
                {
                    "value": points(half),
                    "hands": count,
                    "share": count / self.hands,
                    "at_least": float(self.at_least(half)),
                }
                for half, count in sorted(self.counts.items())
            ],
            "mean": float(self.mean),
            "mean_exact": str(self.mean),
            "blitz": {
                "hands": len(self.blitz_hands),
                "one_hand": float(self.blitz),
                "one_hand_exact": str(self.blitz),
                "at_table": {
                    str(players): {"share": float(chance), "exact": str(chance)}
                    for players in tables
                    for chance in (self.blitz_at_table(players),)
                },
            },
        }


def _disjoint_sequences(hands: Sequence[tuple[Card, ...]], k: int, used: frozenset[Card] = frozenset()) -> int:
    """Ordered sequences of ``k`` of ``hands`` with no card in common, nor with ``used``."""
    if k == 0:
        return 1
    return sum(_disjoint_sequences(hands, k - 1, used | set(hand)) for hand in hands if used.isdisjoint(hand))


def hand_values(rules: Rules) -> HandValues:
    """The exact distribution of dealt hand values under the rules' scoring (R1.3–R1.6)."""
    hands = deck_hands(rules)
    values = hand_halves(value_table(rules), hands)
    counts = Counter(values.tolist())
    blitz = tuple((Card(a), Card(b), Card(c)) for (a, b, c) in hands[values >= BLITZ_HALF].tolist())
    return HandValues(rules, int(hands.shape[0]), dict(sorted(counts.items())), blitz)


def lowest_two(rules: Rules) -> dict[int, Fraction]:
    """For each value (half points) a dealt hand can have, the exact chance that it is the lowest
    at a table of two, tied included (the other hand is worth no less; R6.5 charges the lowest).

    For each hand, the other player's hands worth at least as much are counted among the
    C(deck - 3, 3) hands of the cards left: those of the whole deck, less those that share a card
    with it (inclusion-exclusion over its cards and its pairs of cards, each counted from tables by
    card and by pair); the chance for a value is the mean over its hands, each dealt as often.
    """
    hands = deck_hands(rules)
    values = hand_halves(value_table(rules), hands)
    levels = np.unique(values)
    rank = np.searchsorted(levels, values)
    count = len(levels)

    def at_least(keys: IntArray, size: int) -> IntArray:
        """``[key, level]``: the hands holding each key (a card, a pair) worth at least each level."""
        flat = np.bincount((keys * count + rank[:, None]).ravel(), minlength=size * count).reshape(size, count)
        return np.cumsum(flat[:, ::-1], axis=1)[:, ::-1]

    every = np.cumsum(np.bincount(rank, minlength=count)[::-1])[::-1]
    by_card = at_least(hands, 52)
    a, b, c = hands[:, 0], hands[:, 1], hands[:, 2]
    pairs = np.stack([a * 52 + b, a * 52 + c, b * 52 + c], axis=1)
    by_pair = at_least(pairs, 52 * 52)
    others = every[rank] - 1  # every hand worth as much, less the hand itself (it shares all three cards)
    for column in range(3):
        others = others - by_card[hands[:, column], rank] + by_pair[pairs[:, column], rank]
    left = math.comb(rules.deck - 3, 3)
    hands_of = np.bincount(rank, minlength=count)
    totals = np.bincount(rank, weights=others, minlength=count)
    return {int(levels[i]): Fraction(int(totals[i]), int(hands_of[i]) * left) for i in range(count)}


@dataclass(frozen=True)
class Lowest:
    """The chance a dealt hand is the lowest at the table (tied included), by its value in half
    points and the number of players: ``exact[half]`` for two players (:func:`lowest_two`), and for
    the tables dealt at random ``hits[players][half]`` of ``trials[players][half]`` (arrays of
    :data:`HALVES`)."""

    exact: dict[int, Fraction]
    hits: dict[int, IntArray] = field(default_factory=dict)
    trials: dict[int, IntArray] = field(default_factory=dict)

    def dealt(self, players: int) -> int:
        """Tables dealt at random for ``players`` players."""
        return int(self.trials[players].sum()) if players in self.trials else 0

    def share(self, players: int, half: int) -> Share:
        """The dealt chance for a hand of ``half`` half points at a table of ``players``."""
        return Share(int(self.hits[players][half]), int(self.trials[players][half]))

    def plus(self, players: int, hits: IntArray, trials: IntArray) -> Lowest:
        """These figures with ``hits`` and ``trials`` (by half points) more for ``players`` players."""
        old_hits = self.hits.get(players, np.zeros(HALVES, dtype=np.int64))
        old_trials = self.trials.get(players, np.zeros(HALVES, dtype=np.int64))
        return replace(
            self, hits={**self.hits, players: old_hits + hits}, trials={**self.trials, players: old_trials + trials}
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data: one row a value (points), with the chance at each number of players (exact
        as a fraction, or dealt with its interval)."""
        halves = sorted(set(self.exact) | {int(h) for t in self.trials.values() for h in np.flatnonzero(t)})
        rows = []
        for half in halves:
            row: dict[str, Any] = {"value": points(half), "players": {}}
            if half in self.exact:
                row["players"]["2"] = {"share": float(self.exact[half]), "exact": str(self.exact[half])}
            for players in sorted(self.trials):
                if self.trials[players][half]:
                    row["players"][str(players)] = self.share(players, half).to_dict()
            rows.append(row)
        return {
            "method": {"2": "exact", **{str(players): "simulated" for players in sorted(self.trials)}},
            "how": "lowest or tied for lowest among the players' dealt hands; two players exactly, more dealt at "
            "random (seat 0's hand of each table, numpy's generator seeded from the analysis's seed), "
            "95% Wilson intervals",
            "deals": {str(players): self.dealt(players) for players in sorted(self.trials)},
            "rows": rows,
        }


def deal_lowest(
    rules: Rules, players: int, deals: int, rng: np.random.Generator, table: IntArray
) -> tuple[IntArray, IntArray]:
    """Deal ``deals`` tables of ``players`` hands from shuffled decks (every deal as likely as
    another, R3.2) and count, by the value of seat 0's hand (half points, :data:`HALVES` long):
    ``(lowest, dealt)``, the tables where it is the lowest or tied for it, and all tables."""
    deck = np.array(full_deck(rules.deck), dtype=np.int64)
    orders = rng.permuted(np.tile(deck, (deals, 1)), axis=1)[:, : 3 * players].reshape(deals, players, 3)
    values = hand_halves(table, orders)
    mine = values[:, 0]
    lowest = mine <= values[:, 1:].min(axis=1)
    return np.bincount(mine[lowest], minlength=HALVES), np.bincount(mine, minlength=HALVES)
