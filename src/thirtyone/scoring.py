"""Hand values (R1.3–R1.6) from precomputed tables: one list lookup per hand.

Values are exact: an ``int``, or a :class:`~fractions.Fraction` for 30½ (R1.4). Inside the
library values travel as *half points* (``int``, 30½ = 61) so that comparing them is exact
and cheap.

>>> from thirtyone.cards import parse_cards
>>> from thirtyone.rules import Rules
>>> hand_value(parse_cards("Ks Ts 4h"))
20
>>> hand_value(parse_cards("Ac 6s 4s"))
11
>>> hand_value(parse_cards("7h 7s 7d"), Rules.preset("schwimmen"))
Fraction(61, 2)
>>> hand_value(parse_cards("Ac Ad Ah"), Rules.preset("schwimmen"))
33
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from itertools import permutations

from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.errors import CardError
from thirtyone.errors import RulesError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules

__all__ = [
    "hand_value",
    "format_value",
    "half_points",
    "value_from_half",
    "HAND_VALUES",
    "is_blitz",
    "BLITZ_HALF",
    "HandValue",
]

HandValue = int | Fraction
"""A hand's value in points: an ``int``, or ``Fraction(61, 2)`` for 30½."""

BLITZ_HALF = 62
"""Half points of a 31; any hand worth at least this is a blitz (R5.1, R1.5)."""

_STRIDE_A = 52 * 52
_SCAT = Rules()
_Values = list[list[list[HandValue | None]]]
_TABLES: dict[tuple[int, str, bool, bool], tuple[list[int], _Values]] = {}
_last: tuple[object, tuple[list[int], _Values]] = (object(), ([], []))  # the rules asked last, their tables


def value_from_half(half: int) -> HandValue:
    """Half points as points: ``62`` → ``31``, ``61`` → ``Fraction(61, 2)``."""
    return half >> 1 if half & 1 == 0 else Fraction(half, 2)


HAND_VALUES: tuple[HandValue, ...] = tuple(value_from_half(half) for half in range(67))
"""``value_from_half(half)`` for every half points a hand can be worth (0–66, a three aces' 33 the
most), for the engine's every view: one index, no call."""


def _half_value(cards: tuple[Card, Card, Card], rules: Rules) -> int:
    suit_points = [0, 0, 0, 0]
    for card in cards:
        suit_points[card.suit] += card.points
    best = 2 * max(suit_points)  # R1.3
    ranks = sorted(card.rank for card in cards)
    if ranks[0] == ranks[2]:
        if rules.three_aces and ranks[0] == 12:  # R1.5
            best = max(best, 66)
        elif rules.three_of_a_kind == "30":  # R1.4
            best = max(best, 60)
        elif rules.three_of_a_kind == "30.5":
            best = max(best, 61)
    if rules.straight_flush and max(suit_points) == sum(suit_points) and ranks[1] == ranks[0] + 1 == ranks[2] - 1:
        best = max(best, 62 if ranks[0] == 10 else 60)  # R1.6: Q-K-A is 31, aces high only
    return best


def _tables(rules: Rules) -> tuple[list[int], _Values]:
    global _last
    last = _last
    if last[0] is rules:  # the same rules again (every hand of a game): no key to build and look up
        return last[1]
    key = rules.scoring_key
    tables = _TABLES.get(key)
    if tables is None:
        halves = [-1] * (52 * _STRIDE_A)
        # hand_value's table is nested, values[a][b][c]: a card past 51 is an IndexError, where
        # in a flat table it would index another hand (and the lookup is faster)
        values: _Values = [[[None] * 52 for _ in range(52)] for _ in range(52)]
        for triple in combinations(full_deck(rules.deck), 3):
            half = _half_value(triple, rules)
            value = value_from_half(half)
            for a, b, c in permutations(triple):
                index = a * _STRIDE_A + b * 52 + c
                halves[index] = half
                values[a][b][c] = value
        tables = _TABLES[key] = (halves, values)
    _last = (rules, tables)
    return tables


def half_points(rules: Rules) -> list[int]:
    """The table of hand values in half points for these rules' scoring options, indexed by
    ``a * 2704 + b * 52 + c`` for the cards ``a, b, c`` (any order); ``-1`` where the three
    are not different cards of the deck. Shared: do not modify it."""
    last = _last
    return last[1][0] if last[0] is rules else _tables(rules)[0]  # every decision asks: no call for the last rules


def format_value(value: HandValue) -> str:
    """A hand value as people write it: ``31``, ``30½``.

    >>> format_value(Fraction(61, 2)), format_value(20)
    ('30½', '20')
    """
    whole = int(value)
    return f"{whole}½" if value != whole else str(whole)


def hand_value(cards: Sequence[Card], rules: Rules = _SCAT) -> HandValue:
    """The value of a three-card hand in points (R1.3–R1.6): the best suit's sum, or a special
    score the rules allow (three of a kind 30 or 30½, three aces 33, straight flush 30/31).
    ``cards`` are three :class:`~thirtyone.cards.Card` values or card indexes (0–51, any integer type).

    Raises:
        CardError: unless the hand is three different cards of the rules' deck.
    """
    try:
        a, b, c = cards
        value = None if (a | b | c) < 0 else _tables(rules)[1][a][b][c]  # a negative index counts from the end
    except (ValueError, TypeError, IndexError, AttributeError):
        value = None
    if value is None:
        raise _bad_hand(cards, rules)
    return value


def is_blitz(cards: Sequence[Card], rules: Rules = _SCAT) -> bool:
    """True for a hand worth 31, or three aces when ``three_aces`` is on (R5.1, R1.5).

    Raises:
        CardError: unless the hand is three different cards of the rules' deck.
    """
    return hand_value(cards, rules) >= 31


def _bad_hand(cards: object, rules: object) -> ThirtyOneError:
    if not isinstance(rules, Rules):
        return RulesError(f"rules must be a Rules, such as Rules.preset('scat'), not {rules!r}")
    if isinstance(cards, str) or (isinstance(cards, Sequence) and any(isinstance(card, str) for card in cards)):
        text = cards if isinstance(cards, str) else " ".join(map(str, cards))
        return CardError(f"a hand is three Card values, not text: use parse_cards({text!r})")
    if isinstance(cards, Sequence) and all(isinstance(card, Card) for card in cards):
        return CardError(f"a hand is three different cards of the {rules.deck}-card deck, not {format_cards(cards)!r}")
    return CardError(f"a hand is three different cards of the {rules.deck}-card deck, not {cards!r}")
