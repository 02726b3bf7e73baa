"""Hand arithmetic the bots share, written once: where three cards sit in the value table, the
best three of four, the best value with a given card, the best exchange with a widow, the exact
expected value of a stock draw, the best completion of known cards from candidates.

Every value is in *half points* (31 = 62, 30½ = 61), read from the table
:func:`thirtyone.scoring.half_points` builds for the rules, which is indexed by three cards
(:func:`hand_index`; any order). The core's engine and the compiled simulator read the same table
with their own copy of the index (the core imports no bot, the kernels no Python); everything in
the bots' layer calls these functions.

>>> from thirtyone.cards import parse_cards
>>> from thirtyone.rules import Rules
>>> hand = parse_cards("As Ks 2h")
>>> half_value(hand, Rules())
42
>>> best_with(hand, parse_cards("Qs")[0], half_points(Rules()))
62
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.rules import Rules
from thirtyone.scoring import half_points

__all__ = [
    "half_points",
    "hand_index",
    "pair_index",
    "half_value",
    "best_with",
    "best_discard",
    "best_after_taking",
    "stock_draw_value",
    "likely_completion",
    "MAX_EXTRA",
]

_AB = 52 * 52  # the table's stride of the first card (the second's is 52, the third's 1)
_POINTS = tuple(card.points for card in full_deck(52))  # by card: Card.points is a property, a call


def pair_index(a: int, b: int) -> int:
    """Where the hands of cards ``a``, ``b`` and a third card ``c`` begin in the value table: the
    hand sits at ``pair_index(a, b) + c`` (for loops over the third card)."""
    return a * _AB + b * 52


def hand_index(cards: Sequence[Card]) -> int:
    """Where three cards sit in :func:`~thirtyone.scoring.half_points`'s table (``a * 2704 + b * 52 + c``)."""
    a, b, c = cards
    return a * _AB + b * 52 + c


def half_value(cards: Sequence[Card], rules: Rules) -> int:
    """The value of three cards in half points (31 = 62)."""
    a, b, c = cards
    return half_points(rules)[a * _AB + b * 52 + c]  # hand_index, inlined: every decision asks


def best_with(hand: Sequence[Card], card: Card, table: Sequence[int]) -> int:
    """The best value (half points) of three of the three cards ``hand`` and ``card``, keeping
    ``card`` (a card taken from the pile, R4.2); ``table`` is :func:`half_points` of the rules."""
    a, b, c = hand
    return max(table[a * _AB + b * 52 + card], table[a * _AB + c * 52 + card], table[b * _AB + c * 52 + card])


def best_discard(cards: Sequence[Card], rules: Rules, keep: Card | None = None) -> tuple[int, Card]:
    """For four cards: the best value (half points) of three, and the card to discard for it.

    ``keep`` (a card just taken from the pile, R4.2) is never discarded. Ties go to discarding
    the card of fewest points, which keeps the higher cards for later.
    """
    table = half_points(rules)
    a, b, c, d = cards
    best: tuple[int, int, Card] | None = None
    for card, x, y, z in ((a, b, c, d), (b, a, c, d), (c, a, b, d), (d, a, b, c)):  # a discard, the three kept
        if card != keep:
            key = (table[x * _AB + y * 52 + z], -_POINTS[card], card)
            if best is None or key > best:
                best = key
    assert best is not None
    return best[0], best[2]


def best_after_taking(hand: Sequence[Card], card: Card, rules: Rules) -> int:
    """The best value (half points) of three cards from ``hand`` (three cards) plus ``card``,
    keeping ``card``: :func:`best_with` for the rules."""
    return best_with(hand, card, half_points(rules))


def stock_draw_value(hand: Sequence[Card], unseen: Sequence[Card], table: Sequence[int]) -> float:
    """Expected half points after drawing one of ``unseen`` at random and discarding the best card
    (the exact mean over the unseen cards of the best three of four); the hand's value when
    nothing is unseen."""
    a, b, c = hand
    base = table[a * _AB + b * 52 + c]
    ab = a * _AB + b * 52
    ac = a * _AB + c * 52
    bc = b * _AB + c * 52
    total = 0
    for d in unseen:
        best = base
        x = table[ab + d]
        if x > best:
            best = x
        x = table[ac + d]
        if x > best:
            best = x
        x = table[bc + d]
        if x > best:
            best = x
        total += best
    return total / len(unseen) if unseen else float(base)


MAX_EXTRA = 5
"""The most extra candidates :func:`likely_completion` is given for one hand (C(8, 3) = 56 hands to weigh)."""


def likely_completion(
    known: tuple[Card, ...], pool: list[Card], extra: int, table: Sequence[int]
) -> tuple[tuple[Card, ...], list[Card]]:
    """Complete ``known`` to three cards with the best of ``3 - len(known) + extra`` cards from the
    front of ``pool``: a player who has drawn ``extra`` times kept what suited it. Returns the hand
    and the candidates it did not keep."""
    missing = 3 - len(known)
    candidates = pool[: missing + extra]
    if extra == 0 or missing == 0:
        return known + tuple(candidates[:missing]), candidates[missing:]
    best: tuple[int, tuple[Card, ...]] | None = None
    for chosen in combinations(candidates, missing):
        hand = known + chosen
        value = table[hand_index(hand)]
        if best is None or value > best[0]:
            best = (value, chosen)
    assert best is not None
    rest = [card for card in candidates if card not in best[1]]
    return known + best[1], rest
