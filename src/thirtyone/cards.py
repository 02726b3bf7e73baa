"""Cards: a compact, hashable :class:`Card` (an ``int`` 0–51) and its text forms (R1.1, R1.2).

A card's integer is ``rank * 4 + suit`` with ranks ``2 … A`` = 0 … 12 and suits
``c d h s`` = 0 … 3, so the 32-card Schwimmen deck (7–A) is the range 20 … 51. The decks a game
can be dealt from are :data:`DECK_SIZES` (:func:`full_deck`): the 52 and 32 cards of RULES.md
(R1.1), and the 8-card mini deck of the research variant ``mini`` (9, Q, K and A of hearts and
spades: a game small enough to solve, not a rule of RULES.md).

>>> card = Card.parse("As")
>>> card, card.points, card.pretty
(Card('As'), 11, 'A♠')
>>> parse_cards("As Td 9h")
(Card('As'), Card('Td'), Card('9h'))
>>> format_cards(parse_cards("10h, K♠"))
'Th Ks'
"""

from __future__ import annotations

from collections.abc import Iterable

from thirtyone.errors import CardError

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "parse_cards",
    "format_cards",
    "full_deck",
    "DECK_SIZES",
]

RANKS = "23456789TJQKA"
"""Rank letters, lowest first (``T`` is the ten)."""
SUITS = "cdhs"
"""Suit letters: clubs, diamonds, hearts, spades."""
SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in the order of :data:`SUITS`."""

_RANK_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)  # R1.2
_SYMBOL_TO_SUIT = {"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_HOW_TO_WRITE = "write a rank 2-9, T (or 10), J, Q, K, A and then a suit c, d, h, s or ♣♦♥♠, e.g. 'As', 'Td', '9h'"


class Card(int):
    """One playing card; an ``int`` 0–51 (``rank * 4 + suit``), interned, so ``Card(5) is Card(5)``.

    Raises:
        CardError: for an integer outside 0–51 (use :meth:`parse` for text).
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        try:
            if index >= 0 and not isinstance(index, bool):
                return _CARDS[index]
        except (IndexError, TypeError):
            pass
        if isinstance(index, str):
            raise CardError(f"Card takes an index 0-51; for text such as {index!r} use Card.parse({index!r})")
        raise CardError(f"no card has index {index!r}: card indexes are 0-51 (rank * 4 + suit)")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: ``As``, ``td``, ``10h``, ``K♠``.

        Raises:
            CardError: for anything else, with a one-line hint.
        """
        if not isinstance(text, str):
            raise CardError(f"card text must be a string such as 'As', not {text!r}")
        text = text.strip()
        if len(text) < 2:
            raise CardError(f"cannot read card {text!r}: {_HOW_TO_WRITE}")
        rank_text, suit_text = text[:-1], text[-1]
        rank_text = "T" if rank_text == "10" else rank_text.upper()
        rank = RANKS.find(rank_text) if len(rank_text) == 1 else -1
        suit = SUITS.find(suit_text.lower())
        if suit < 0:
            suit = _SYMBOL_TO_SUIT.get(suit_text, -1)
        if rank < 0 or suit < 0:
            raise CardError(f"cannot read card {text!r}: {_HOW_TO_WRITE}")
        return _CARDS[rank * 4 + suit]

    @property
    def rank(self) -> int:
        """Rank index: 0 for a two … 12 for an ace."""
        return self >> 2

    @property
    def suit(self) -> int:
        """Suit index: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    @property
    def points(self) -> int:
        """Card value in points (R1.2): ace 11, face cards 10, number cards their pips."""
        return _RANK_POINTS[self >> 2]

    @property
    def pretty(self) -> str:
        """Text with a suit symbol and ``10`` for the ten: ``A♠``, ``10♦``."""
        rank = "10" if self >> 2 == 8 else RANKS[self >> 2]
        return rank + SUIT_SYMBOLS[self & 3]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return (self & 3) in (1, 2)

    def __str__(self) -> str:
        return RANKS[self >> 2] + SUITS[self & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_DECKS: dict[int, tuple[Card, ...]] = {
    52: _CARDS,
    32: _CARDS[20:],  # 7 to ace (R1.1, Schwimmen)
    8: tuple(_CARDS[rank * 4 + suit] for rank in (7, 10, 11, 12) for suit in (2, 3)),  # 9 Q K A of ♥ ♠
}
DECK_SIZES: tuple[int, ...] = tuple(_DECKS)
"""The deck sizes :func:`full_deck` deals: 52, 32 and 8."""


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas: ``"As Td 9h"`` → three cards (in order).

    Raises:
        CardError: when any card cannot be read, or ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise CardError(f"card text must be a string such as 'As Td 9h', not {text!r}")
    return tuple(Card.parse(part) for part in text.replace(",", " ").split())


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text separated by single spaces: ``"As Td 9h"``."""
    return " ".join(map(str, cards))


def full_deck(size: int = 52) -> tuple[Card, ...]:
    """The cards of a deck in index order: 52 cards, or 32 (7–A) for Schwimmen (R1.1), or the 8
    of the mini deck (9, Q, K, A of hearts and spades; a research variant, not in RULES.md).

    >>> format_cards(full_deck(8))
    '9h 9s Qh Qs Kh Ks Ah As'

    Raises:
        CardError: for another size.
    """
    deck = _DECKS.get(size) if isinstance(size, int) and not isinstance(size, bool) else None
    if deck is not None:
        return deck
    if isinstance(size, int) and not isinstance(size, bool):
        raise CardError(f"no {size}-card deck: use 52, 32 or 8")
    raise CardError(f"full_deck takes a deck size, 52, 32 or 8 (such as rules.deck), not {size!r}")
