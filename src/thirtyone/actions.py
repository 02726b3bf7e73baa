"""Actions a player can take, as small frozen values with a stable text notation.

========================  =========================================  ==========
action                    notation                                   rule
========================  =========================================  ==========
``Draw("stock")``         ``draw stock``                             R4.1
``Draw("pile")``          ``draw pile`` (top of the discard pile)    R4.1
``Discard(card)``         ``discard Td``                             R4.1, R4.2
``Knock()``               ``knock``                                  R6.1
``Exchange(give, take)``  ``exchange Td for Ah`` (or two cards:      R7.1, R7.5
                          ``exchange Td 9h for Ah Kh``)
``ExchangeAll()``         ``exchange all``                           R7.1, R7.2
``Pass()``                ``pass``                                   R7.1
``Keep()``                ``keep`` (dealer keeps the first hand)     R7.6
``TakeWidow()``           ``take widow`` (dealer takes the second)   R7.6
``Look()``                ``look``                                   R6.6
``ThrowDown()``           ``throw down``                             R6.6
========================  =========================================  ==========

>>> parse_action("exchange Td for Ah")
Exchange(give=(Card('Td'),), take=(Card('Ah'),))
>>> str(Discard(Card.parse("9h")))
'discard 9h'
>>> parse_action("draw pile") == Draw("pile")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from typing import Self
from typing import TypeVar

from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.cards import parse_cards
from thirtyone.checks import whole_number
from thirtyone.errors import ActionError
from thirtyone.errors import CardError

__all__ = [
    "Action",
    "Draw",
    "Discard",
    "Knock",
    "Exchange",
    "ExchangeAll",
    "Pass",
    "Keep",
    "TakeWidow",
    "Look",
    "ThrowDown",
    "parse_action",
    "as_card",
    "two_card_exchanges",
    "DISCARDS",
    "STOCK",
    "PILE",
]

Source = Literal["stock", "pile"]
STOCK: Source = "stock"
PILE: Source = "pile"


def as_card(value: object, field: str) -> Card:
    """``value`` as a :class:`Card`: a card, or its index 0–51 as any integer (``int``,
    ``numpy.int64``), so that actions built from arrays hold the same cards as any other.

    Raises:
        CardError: naming ``field`` for anything else (text, a float, a bool, an index outside 0–51).
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        raise CardError(f"{field} is a Card, not the text {value!r}: use Card.parse({value!r}) or parse_action")
    index = whole_number(value)
    if index is None or not 0 <= index < 52:
        raise CardError(f"{field} is a Card or its index 0-51, not {value!r}")
    return Card(index)


def _as_cards(value: object, field: str) -> tuple[Card, ...]:
    if type(value) is Card:  # the engine's own exchanges: no conversion to make
        return (value,)
    if isinstance(value, tuple | list):
        return tuple(sorted(as_card(card, field) for card in value))
    return (as_card(value, field),)


class _Bare:
    """An action with nothing to choose (``Knock()``, ``Pass()``, …): one value, made once, so
    ``Knock() is Knock()`` (see :data:`DISCARDS`). Arguments are refused as bad input, in the
    library's words, not with Python's own ``TypeError``."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        if args or kwargs:
            given = ", ".join([*map(repr, args), *(f"{key}={value!r}" for key, value in kwargs.items())])
            raise ActionError(f"{cls.__name__}() takes no arguments, not ({given}): write {cls.__name__}()")
        one = _BARE[cls]
        assert isinstance(one, cls)
        return one

    def __reduce__(self) -> tuple[type[_Bare], tuple[()]]:
        return (type(self), ())


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Draw:
    """Draw the top card of the stock (``"stock"``) or of the discard pile (``"pile"``) (R4.1).
    One value a source, made once: ``Draw("stock") is Draw("stock")``.

    Raises:
        ActionError: for another source.
    """

    source: Source = STOCK

    def __new__(cls, source: Source = STOCK) -> Draw:
        if source not in (STOCK, PILE):
            raise ActionError(f"draw from 'stock' or 'pile', not {source!r}")
        return _DRAWS[source]

    def __reduce__(self) -> tuple[type[Draw], tuple[Source]]:
        return (Draw, (self.source,))

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Discard:
    """Discard a card face up after drawing (R4.1); not the one just taken from the pile (R4.2).
    ``card`` may be given as its index (any integer 0–51): it is held as a :class:`Card`. One
    value a card, made once: ``Discard(card) is DISCARDS[card]``.

    Raises:
        CardError: for a card that is not a card (see :func:`as_card`).
    """

    card: Card

    def __new__(cls, card: Card) -> Discard:
        return DISCARDS[card if type(card) is Card else as_card(card, "Discard.card")]

    def __reduce__(self) -> tuple[type[Discard], tuple[Card]]:
        return (Discard, (self.card,))

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Knock(_Bare):
    """Knock instead of drawing or exchanging (R6.1): everyone else gets one more turn."""

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Give cards of your hand for as many face-up widow cards (R7.1): one card, or with option
    ``exchange=any`` two. Single cards may be given bare; both sides are kept as sorted tuples.

    Cards may be given as their indexes (integers 0–51): they are held as :class:`Card` values.

    Raises:
        ActionError: when the two sides differ in length or hold 0 or more than 2 cards, or a
            card repeats.
        CardError: for a card that is not a card (see :func:`as_card`).
    """

    give: tuple[Card, ...]
    take: tuple[Card, ...]

    def __init__(self, give: Card | Sequence[Card], take: Card | Sequence[Card]) -> None:
        give_t = _as_cards(give, "Exchange.give")
        take_t = _as_cards(take, "Exchange.take")
        if len(give_t) != len(take_t) or not 1 <= len(give_t) <= 2:
            raise ActionError(
                "an exchange gives one or two cards for as many widow cards; to swap all three use 'exchange all'"
            )
        if len(set(give_t + take_t)) != 2 * len(give_t):
            raise ActionError("an exchange names each card once")
        object.__setattr__(self, "give", give_t)
        object.__setattr__(self, "take", take_t)

    def __str__(self) -> str:
        return f"exchange {format_cards(self.give)} for {format_cards(self.take)}"


def two_card_exchanges(hand: Sequence[Card], widow: Sequence[Card]) -> list[Exchange]:
    """The nine exchanges of two cards between a hand and the face-up widow, 3 cards each (R7.5,
    ``exchange=any``): each hand card not given, in hand order, with each widow card not taken.

    >>> [str(e) for e in two_card_exchanges(parse_cards("As Kd 2c"), parse_cards("7h 8h 9h"))[:2]]
    ['exchange 2c Kd for 8h 9h', 'exchange 2c Kd for 7h 9h']
    """
    return [
        Exchange(
            tuple(card for k, card in enumerate(hand) if k != skip_give),
            tuple(card for k, card in enumerate(widow) if k != skip_take),
        )
        for skip_give in range(3)
        for skip_take in range(3)
    ]


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class ExchangeAll(_Bare):
    """Swap your whole hand with the widow (R7.1); in the opening with the face-down widow (R7.2)."""

    def __str__(self) -> str:
        return "exchange all"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Pass(_Bare):
    """Keep your hand this turn (widow mode, R7.1)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Keep(_Bare):
    """The dealer keeps the first hand; the second goes face up as the widow (R7.6)."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class TakeWidow(_Bare):
    """The dealer takes the second hand unseen; the first goes face up as the widow (R7.6)."""

    def __str__(self) -> str:
        return "take widow"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class Look(_Bare):
    """Look at your dealt cards in the blind phase (R6.6)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True, init=False, eq=False, unsafe_hash=True)
class ThrowDown(_Bare):
    """Throw down without having looked (R6.6): the showdown comes at once, you as the knocker."""

    def __str__(self) -> str:
        return "throw down"


Action = Draw | Discard | Knock | Exchange | ExchangeAll | Pass | Keep | TakeWidow | Look | ThrowDown
"""Any action."""

_Made = TypeVar("_Made", Draw, Discard)


def _made_once(cls: type[_Made], field: str, value: object) -> _Made:
    """The one action of ``cls`` whose ``field`` is ``value`` (past ``__new__``, which hands it out)."""
    action = object.__new__(cls)
    object.__setattr__(action, field, value)
    return action


# Every action but an exchange is one of a few values, each made once: equal actions are the same
# object, so they compare as objects do (eq=False), in C, where a dataclass's __eq__ is a Python
# call for every action `in legal` passes over; they hash as the dataclasses did (unsafe_hash).
_BARE: dict[type[_Bare], _Bare] = {
    cls: object.__new__(cls) for cls in (Knock, ExchangeAll, Pass, Keep, TakeWidow, Look, ThrowDown)
}
_DRAWS: dict[str, Draw] = {source: _made_once(Draw, "source", source) for source in (STOCK, PILE)}
DISCARDS: tuple[Discard, ...] = tuple(_made_once(Discard, "card", card) for card in full_deck(52))
"""``DISCARDS[card]`` is ``Discard(card)``: the one discard of each card, by its index."""

_WORDS: dict[str, Action] = {
    "draw stock": Draw(STOCK),
    "draw pile": Draw(PILE),
    "knock": Knock(),
    "exchange all": ExchangeAll(),
    "pass": Pass(),
    "keep": Keep(),
    "take widow": TakeWidow(),
    "look": Look(),
    "throw down": ThrowDown(),
}
_HELP = (
    "write one of: draw stock, draw pile, discard Td, knock, exchange Td for Ah, exchange all, "
    "pass, keep, take widow, look, throw down"
)


def parse_action(text: str) -> Action:
    """Read an action from its notation (see the table above); case and spacing are free.

    Raises:
        ActionError: for text that is not an action, with the list of forms.
    """
    if not isinstance(text, str):
        raise ActionError(f"an action is an Action or its text, not {text!r}: {_HELP}")
    original = text.split()
    words = [word.lower() for word in original]
    found = _WORDS.get(" ".join(words))
    if found is not None:
        return found
    try:
        if len(words) == 2 and words[0] == "discard":
            return Discard(Card.parse(original[1]))
        if words and words[0] == "exchange" and "for" in words:
            cut = words.index("for")
            return Exchange(parse_cards(" ".join(original[1:cut])), parse_cards(" ".join(original[cut + 1 :])))
    except CardError as error:
        raise ActionError(f"cannot read action {text.strip()!r}: {error}") from None
    raise ActionError(f"cannot read action {text.strip()!r}: {_HELP}")
