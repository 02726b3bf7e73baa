"""Where a game's chance comes from: the first dealer, each deal's deck order and each reshuffle.

:class:`SeededChance` draws them from a seeded ``random.Random`` (or any instance, such as
``secrets.SystemRandom()``); :class:`ScriptedChance` replays given outcomes (records, tests,
cross-checks). Deck orders are lists of cards, top card first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from typing import Protocol

from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError
from thirtyone.errors import CardError

__all__ = [
    "Chance",
    "ChanceStep",
    "ChanceKind",
    "SeededChance",
    "ScriptedChance",
    "DuplicateChance",
    "check_permutation",
]


ChanceKind = Literal["dealer", "deal", "reshuffle"]
"""What a chance step decides: the first dealer (R3.1), a round's deck order (R3.2) or a reshuffle
of the discard pile into a new stock (R4.3)."""


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """A random outcome the game waits for (``Game.chance_step``), as OpenSpiel's chance nodes.

    ``kind`` says what it decides; ``round`` is the round it belongs to (the first dealer's: 1);
    ``number`` counts a round's reshuffles from 1 (0 for the others). The outcome is a seat of
    ``seats`` for the first dealer, else an order of ``cards`` (top card first): the whole deck
    for a deal, the discard pile but its top card for a reshuffle.
    """

    kind: ChanceKind
    round: int
    number: int = 0
    cards: tuple[Card, ...] = ()
    seats: tuple[int, ...] = ()


class Chance(Protocol):
    """The source of every random outcome of a game (R3.1, R3.2, R4.3).

    The engine checks that every deck order and reshuffle it is given is a permutation of the
    cards it asked to be ordered, unless the source declares ``trusted = True`` (it only ever
    shuffles the cards it is given, as :class:`SeededChance` does): that check is a cost on every
    deal of a simulation.
    """

    def first_dealer(self, players: int) -> int:
        """The first dealer's seat, ``0 <= seat < players`` (R3.1)."""
        ...

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        """The shuffled deck of round ``round`` (from 1), top card first (R3.2)."""
        ...

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        """The new stock made of ``cards`` (the discard pile but its top card), top first: the
        ``number``-th reshuffle (from 1) of round ``round`` (R4.3)."""
        ...


class SeededChance:
    """Chance from a random source: ``SeededChance(42)`` is reproducible; ``SeededChance(None)``
    seeds from the system; ``SeededChance(secrets.SystemRandom())`` is unpredictable.

    Raises:
        ArgumentError: for a seed that is not a whole number from 0, a ``random.Random`` or
            ``None`` (Python's random source takes a seed's size, not its sign: -7 would deal the
            games of 7, so a negative seed is refused, as ``thirtyone play --seed`` and the
            server refuse it).
    """

    trusted = True  # it only shuffles the cards it is given

    def __init__(self, seed: int | random.Random | None = None) -> None:
        if isinstance(seed, random.Random):
            self.rng = seed
            return
        number = whole_number(seed)
        if seed is not None and number is None:
            raise ArgumentError(f"seed is a whole number, a random.Random or None, not {seed!r}")
        if number is not None and number < 0:
            raise ArgumentError(
                f"seed is a whole number from 0, not {number}: a seed's sign would not change its games"
            )
        self.rng = random.Random(number)

    def __deepcopy__(self, memo: dict[int, object]) -> SeededChance:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.rng = type(self.rng)()
        twin.rng.setstate(self.rng.getstate())  # much quicker than deep-copying the generator
        return twin

    def first_dealer(self, players: int) -> int:
        return self.rng.randrange(players)

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        return _shuffled(self.rng, deck)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        return _shuffled(self.rng, cards)


_BIT_LENGTHS = tuple(n.bit_length() for n in range(105))  # up to two decks of 52


def _shuffled(rng: random.Random, cards: Sequence[Card]) -> list[Card]:
    """``cards`` in the order ``rng.shuffle`` gives, leaving ``rng`` in the same state.

    A plain ``random.Random`` is shuffled here, the same Fisher-Yates swaps drawing the same bits
    as the standard library's (checked by a test), without its two Python calls a card: three
    times as fast, and every simulated deal pays it. Any other generator shuffles itself."""
    order = list(cards)
    if type(rng) is not random.Random or len(order) >= len(_BIT_LENGTHS):
        rng.shuffle(order)
        return order
    bits, getrandbits = _BIT_LENGTHS, rng.getrandbits
    for i in range(len(order) - 1, 0, -1):
        k = bits[i + 1]
        j = getrandbits(k)
        while j > i:  # rejection sampling, as random's _randbelow: j < i + 1
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return order


class ScriptedChance:
    """Chance that replays given outcomes: the first dealer, one deck order per round, and the
    reshuffles of each round in order (``reshuffles[round - 1]``). The game checks that each is
    a permutation of the cards it needs.

    Raises:
        ArgumentError: at once, for a first dealer that is not a whole number or orders that are
            not lists of Cards.
        CardError: when the game asks for an outcome: the first dealer is not a seat or the
            script has run out.
    """

    def __init__(
        self,
        first_dealer: int,
        decks: Sequence[Sequence[Card]],
        reshuffles: Sequence[Sequence[Sequence[Card]]] = (),
    ) -> None:
        dealer = whole_number(first_dealer)
        if dealer is None:
            raise ArgumentError(f"first_dealer is a seat number, not {first_dealer!r}")
        for name, value, depth in (("decks", decks, 2), ("reshuffles", reshuffles, 3)):
            if not _nested(value, depth):
                raise ArgumentError(f"{name} is a list of card orders (lists of Cards), not {value!r}")
        self._first_dealer = dealer
        self._decks = [list(deck) for deck in decks]
        self._reshuffles = [[list(order) for order in orders] for orders in reshuffles]

    def first_dealer(self, players: int) -> int:
        if not 0 <= self._first_dealer < players:
            raise CardError(f"first dealer {self._first_dealer} is not a seat of {players} players")
        return self._first_dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        if round > len(self._decks):
            raise CardError(f"round {round}: no deck order given (the script has {len(self._decks)})")
        return list(self._decks[round - 1])

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        orders = self._reshuffles[round - 1] if round <= len(self._reshuffles) else []
        if not 1 <= number <= len(orders):
            raise CardError(f"round {round}: no order given for reshuffle {number}")
        return list(orders[number - 1])


def _nested(value: object, depth: int) -> bool:
    """True for ``depth`` levels of lists or tuples around Cards (``depth`` 1: a card order)."""
    if not isinstance(value, list | tuple):
        return False
    if depth == 1:
        return all(isinstance(card, Card) for card in value)
    return all(_nested(item, depth - 1) for item in value)


def check_permutation(order: Sequence[Card], cards: Sequence[Card], what: str) -> None:
    """Check that ``order`` holds exactly ``cards`` (in any order).

    Raises:
        CardError: naming ``what``, the missing and the extra cards.
    """
    if sorted(order) != sorted(cards):
        missing = sorted(set(cards) - set(order))
        extra = sorted(set(order) - set(cards))
        repeated = sorted({c for c in order if list(order).count(c) > 1})
        parts = [f"{len(order)} cards for {len(cards)}"]
        if missing:
            parts.append(f"missing {format_cards(missing)}")
        if extra:
            parts.append(f"not expected {format_cards(extra)}")
        if repeated:
            parts.append(f"repeated {format_cards(repeated)}")
        raise CardError(f"{what} is not a permutation of its cards: {'; '.join(parts)}")


class DuplicateChance:
    """Chance that depends only on ``seed``, the round number and the reshuffle's number in the
    round: whatever happened before, round ``r`` of two games with the same seed is dealt the same
    deck order. Duplicate play (the same deals with the players rotated through the seats) uses it
    so that the luck of the cards cancels out."""

    trusted = True  # it only shuffles the cards it is given

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _rng(self, *key: object) -> random.Random:
        return random.Random("/".join(map(str, (self.seed, *key))))

    def first_dealer(self, players: int) -> int:
        return self._rng("dealer").randrange(players)

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        order = list(deck)
        self._rng("deal", round).shuffle(order)
        return order

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        order = list(cards)
        self._rng("reshuffle", round, number).shuffle(order)
        return order
