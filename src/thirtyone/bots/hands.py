"""Hand arithmetic bots share: the best three of four cards, the best exchange with a widow."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from thirtyone.cards import Card
from thirtyone.rules import Rules
from thirtyone.scoring import half_points

__all__ = ["half_value", "best_discard", "best_after_taking"]

_AB = 52 * 52


def half_value(cards: Sequence[Card], rules: Rules) -> int:
    """The value of three cards in half points (31 = 62)."""
    a, b, c = cards
    return half_points(rules)[a * _AB + b * 52 + c]


def best_discard(cards: Sequence[Card], rules: Rules, keep: Card | None = None) -> tuple[int, Card]:
    """For four cards: the best value (half points) of three, and the card to discard for it.

    ``keep`` (a card just taken from the pile, R4.2) is never discarded. Ties go to discarding
    the card of fewest points, which keeps the higher cards for later.
    """
    table = half_points(rules)
    best: tuple[int, int, Card] | None = None
    for i, card in enumerate(cards):
        if card == keep:
            continue
        a, b, c = (other for j, other in enumerate(cards) if j != i)
        key = (table[a * _AB + b * 52 + c], -card.points, card)
        if best is None or key > best:
            best = key
    assert best is not None
    return best[0], best[2]


def best_after_taking(hand: Sequence[Card], card: Card, rules: Rules) -> int:
    """The best value (half points) of three cards from ``hand`` plus ``card``, keeping ``card``."""
    table = half_points(rules)
    return max(table[a * _AB + b * 52 + card] for a, b in combinations(hand, 2))
