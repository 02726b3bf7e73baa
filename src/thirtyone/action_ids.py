"""One id per action: the fixed action space, one integer 0–78 for every action of every preset
and option — what agents, the simulator, the bots' worker processes and the server's wire speak
(notation is for people).

=========  ==========================================================================
id         action
=========  ==========================================================================
0–51       ``discard c``: the card with index ``c`` (:class:`~thirtyone.cards.Card`, ``rank * 4 + suit``)
52         ``draw stock``
53         ``draw pile``
54         ``knock``
55         ``exchange all`` (in the opening, with the face-down widow: R7.2)
56         ``pass``
57         ``keep`` (the Schwimmen dealer keeps the first hand, R7.6)
58         ``take widow`` (the Schwimmen dealer takes the second hand, R7.6)
59         ``look`` (R6.6)
60         ``throw down`` (R6.6)
61–69      exchange one card, ``61 + 3 * i + j``: give the ``i``-th lowest card of the hand for the
           ``j``-th lowest card of the widow (lowest by card index, from 0)
70–78      exchange two cards (``exchange=any``), ``70 + 3 * i + j``: keep the ``i``-th lowest hand
           card, leave the ``j``-th lowest widow card, and swap the other two for the other two
=========  ==========================================================================

A discard names its card, never a place in the hand, so an id means the same card whatever
order the engine holds the hand in. An exchange names places in the hand and the widow *sorted
by card index* — nine pairs for one card, nine for two — which the observation shows as sets
of cards, so its meaning is fixed by what the player sees (and the space stays small: a mask of
79 entries, not one per pair of cards). So an exchange's id belongs to a moment of the game: the
functions take the game, or the view of the seat to move, that says which cards are where.

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("scat"), players=3, seed=42)
>>> [str(action_from_id(game, i)) for i in legal_ids(game)]
['draw stock', 'draw pile', 'knock']
>>> action_id(game, game.legal_actions()[1]), num_distinct_actions(game.rules)
(53, 79)
"""

from __future__ import annotations

from typing import Protocol

from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.cards import Card
from thirtyone.checks import whole_number
from thirtyone.errors import ActionError
from thirtyone.refusals import IllegalActionError
from thirtyone.refusals import RefusalCode
from thirtyone.rules import Rules
from thirtyone.text import refusal
from thirtyone.views import PlayerView

__all__ = [
    "NUM_ACTIONS",
    "DISCARD",
    "DRAW_STOCK",
    "DRAW_PILE",
    "KNOCK",
    "EXCHANGE_ALL",
    "PASS",
    "KEEP",
    "TAKE_WIDOW",
    "LOOK",
    "THROW_DOWN",
    "EXCHANGE_ONE",
    "EXCHANGE_TWO",
    "SIMPLE_IDS",
    "ACTION_NAMES",
    "num_distinct_actions",
    "action_id",
    "action_from_id",
    "legal_ids",
    "describe_id",
]

DISCARD = 0
"""Id of ``discard`` of card 0; card ``c`` is ``DISCARD + c``."""
DRAW_STOCK, DRAW_PILE, KNOCK, EXCHANGE_ALL, PASS, KEEP, TAKE_WIDOW, LOOK, THROW_DOWN = range(52, 61)
EXCHANGE_ONE = 61
"""Id of the first one-card exchange (``EXCHANGE_ONE + 3 * i + j``)."""
EXCHANGE_TWO = 70
"""Id of the first two-card exchange (``EXCHANGE_TWO + 3 * i + j``)."""
NUM_ACTIONS = 79
"""How many action ids there are (the size of the mask)."""


def num_distinct_actions(rules: Rules) -> int:
    """How many action ids ``rules`` can use (as OpenSpiel's ``num_distinct_actions``): the whole
    space, :data:`NUM_ACTIONS`, for every rules, so that agents of every variant share one space
    (an id a variant never offers is never legal in it)."""
    return NUM_ACTIONS


class Table(Protocol):
    """What the id functions read of a :class:`~thirtyone.engine.Game`: the seat to move's hand
    and the widow."""

    @property
    def current_seat(self) -> int | None: ...
    @property
    def widow(self) -> tuple[Card, ...]: ...
    @property
    def widow_face_up(self) -> bool: ...
    def hand(self, seat: int) -> tuple[Card, ...]: ...
    def legal_actions(self) -> tuple[Action, ...]: ...


SIMPLE_IDS: dict[Action, int] = {
    Draw(STOCK): DRAW_STOCK,
    Draw(PILE): DRAW_PILE,
    Knock(): KNOCK,
    ExchangeAll(): EXCHANGE_ALL,
    Pass(): PASS,
    Keep(): KEEP,
    TakeWidow(): TAKE_WIDOW,
    Look(): LOOK,
    ThrowDown(): THROW_DOWN,
}
"""The id of each action that names no card."""
_BY_ID: dict[int, Action] = {number: action for action, number in SIMPLE_IDS.items()}


def _check_id(number: object) -> int:
    index = whole_number(number)
    if index is None or not 0 <= index < NUM_ACTIONS:
        raise ActionError(f"an action id is a whole number from 0 to {NUM_ACTIONS - 1}, not {number!r}")
    return index


def describe_id(number: int) -> str:
    """What an id means in words, whatever the cards: ``'discard Td'``, ``'knock'``,
    ``'exchange hand card 0 for widow card 2'`` (places of the sorted hand and widow).

    Raises:
        ActionError: for a number outside 0–78.
    """
    index = _check_id(number)
    if index < 52:
        return f"discard {Card(index)}"
    if index < EXCHANGE_ONE:
        return str(_BY_ID[index])
    if index < EXCHANGE_TWO:
        i, j = divmod(index - EXCHANGE_ONE, 3)
        return f"exchange hand card {i} for widow card {j}"
    i, j = divmod(index - EXCHANGE_TWO, 3)
    return f"exchange two: keep hand card {i}, leave widow card {j}"


ACTION_NAMES: tuple[str, ...] = tuple(describe_id(number) for number in range(NUM_ACTIONS))
""":func:`describe_id` of every id, in order."""


def _hand_and_widow(where: Table | PlayerView) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The seat to move's hand and the widow, each sorted by card index."""
    if isinstance(where, PlayerView):
        hand = where.hand or ()
        widow = where.widow or ()
    else:
        seat = where.current_seat
        hand = where.hand(seat) if seat is not None else ()
        widow = where.widow if where.widow_face_up else ()
    return tuple(sorted(hand)), tuple(sorted(widow))


def action_id(where: Table | PlayerView, action: Action) -> int:
    """The id of ``action`` for the seat to move in ``where`` (a game, or that seat's view: an
    exchange's id depends on the cards of its hand and the widow).

    Raises:
        IllegalActionError: for an exchange of cards that are not in the hand or the face-up
            widow (code ``exchange_not_in_hand`` / ``exchange_not_in_widow``).
        ActionError: for something that is not an action.
    """
    simple = SIMPLE_IDS.get(action) if not isinstance(action, Discard | Exchange) else None
    if simple is not None:
        return simple
    if isinstance(action, Discard):
        return DISCARD + int(action.card)
    if not isinstance(action, Exchange):
        raise ActionError(f"not an action: {action!r}; give an Action such as Draw('stock')")
    hand, widow = _hand_and_widow(where)
    for card in action.give:
        if card not in hand:
            raise _refusal("exchange_not_in_hand", action, card, hand)
    for card in action.take:
        if card not in widow:
            raise _refusal("exchange_not_in_widow", action, card, widow)
    if len(action.give) == 1:
        return EXCHANGE_ONE + 3 * hand.index(action.give[0]) + widow.index(action.take[0])
    keep = next(i for i, card in enumerate(hand) if card not in action.give)
    stay = next(j for j, card in enumerate(widow) if card not in action.take)
    return EXCHANGE_TWO + 3 * keep + stay


def _refusal(code: RefusalCode, action: Action, card: Card, among: tuple[Card, ...]) -> IllegalActionError:
    return refusal(code, action=action, cards=(card,), among=among)


def action_from_id(where: Table | PlayerView, number: int) -> Action:
    """The action id ``number`` means for the seat to move in ``where`` (a game or its view).
    The action need not be legal there (check with :func:`legal_ids`); an exchange needs a hand
    and a face-up widow to name its cards.

    Raises:
        ActionError: for a number outside 0–78, or an exchange where there is no hand or no
            face-up widow to take its cards from.
    """
    index = _check_id(number)
    if index < 52:
        return Discard(Card(index))
    if index < EXCHANGE_ONE:
        return _BY_ID[index]
    hand, widow = _hand_and_widow(where)
    if len(hand) != 3 or len(widow) != 3:
        raise ActionError(
            f"action id {index} ({describe_id(index)}) is an exchange, which needs a hand of three cards and a "
            "face-up widow: there is none now"
        )
    if index < EXCHANGE_TWO:
        i, j = divmod(index - EXCHANGE_ONE, 3)
        return Exchange(hand[i], widow[j])
    i, j = divmod(index - EXCHANGE_TWO, 3)
    return Exchange([card for k, card in enumerate(hand) if k != i], [card for k, card in enumerate(widow) if k != j])


def legal_ids(where: Table | PlayerView) -> list[int]:
    """The ids of the legal actions of the seat to move, in the order of ``legal_actions()``
    (``[]`` once the game is over, or for a view whose seat is not to move)."""
    legal = where.legal_actions if isinstance(where, PlayerView) else where.legal_actions()
    return [action_id(where, action) for action in legal]
