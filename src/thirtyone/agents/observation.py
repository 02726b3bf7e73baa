"""Observations and information states for the agents' environments.

The observation tensor of one seat is the judge's (:mod:`thirtyone.judge.observation`, re-exported
here: :class:`ObservationLayout`, :func:`layout_for`, :func:`encode`, built from a seat's view
only); this module adds what the OpenSpiel game gives besides: each event as a player saw it
(:func:`event_text`), the information state with perfect recall as a string
(:func:`information_text`) and as a tensor (:class:`InfoStateLayout`, :func:`encode_information`).

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("mini"), players=2, seed=1)
>>> InfoStateLayout(2, history_slots(game.rules, 2), 1).size
1901
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import EXCHANGE_ONE
from thirtyone.action_ids import EXCHANGE_TWO
from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.action_ids import action_id
from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Look
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.cards import Card
from thirtyone.errors import ArgumentError
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.judge.observation import BLOCKS
from thirtyone.judge.observation import PHASES
from thirtyone.judge.observation import ObservationLayout
from thirtyone.judge.observation import encode
from thirtyone.judge.observation import lay_end_to_end
from thirtyone.judge.observation import layout_for
from thirtyone.judge.observation import zeroed
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = [
    "ObservationLayout",
    "PHASES",
    "BLOCKS",
    "encode",
    "layout_for",
    "event_text",
    "information_text",
    "join_information",
    "history_slots",
    "InfoStateLayout",
    "ROUND_BLOCKS",
    "encode_information",
]

# ---------------------------------------------------------------------------- the information state


def _identity(seat: int) -> int:
    return seat


class _Nowhere:
    """No table: the id of an action that is not an exchange needs none (:func:`_history_id`)."""

    current_seat = None
    widow: tuple[Card, ...] = ()
    widow_face_up = False

    def hand(self, seat: int) -> tuple[Card, ...]:
        return ()

    def legal_actions(self) -> tuple[Action, ...]:
        return ()


_NOWHERE = _Nowhere()


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, sorted(cards)))


def event_text(event: Event, seat_of: Callable[[int], int] = _identity) -> str:
    """One event, in the form a seat saw it (``event.for_seat(seat)``), in the words of the
    information-state string: ``deal d1 up Qh``, ``0 draw stock Ks`` (the card only for the seat
    that drew it), ``1 discard 9h``, ``0 knock``, ``reshuffle 3``, ``new widow …``, ``end knock k0
    hands … left …``, ``winner 1``. Cards in a set (a hand, the widow) are sorted by index; seats
    are written as ``seat_of(seat)``."""
    if isinstance(event, Acted):
        text = f"{seat_of(event.seat)} {event.action}"
        if event.received is not None and not isinstance(event.action, Exchange):  # an exchange names them
            text += f" +{_cards(event.received)}"
        if event.revealed:
            text += f" ^{_cards(event.revealed)}"
        return text
    if isinstance(event, RoundStarted):
        up = "" if event.upcard is None else f" up {event.upcard}"
        return f"deal d{seat_of(event.dealer)} seats {' '.join(str(s) for s in sorted(map(seat_of, event.seats)))}{up}"
    if isinstance(event, Reshuffled):
        return f"reshuffle {event.stock_size}"
    if isinstance(event, NewWidow):
        return f"new widow {_cards(event.widow)}"
    if isinstance(event, RoundEnded):
        result = event.result
        by_seat = sorted(range(len(result.hands)), key=seat_of)
        hands = ",".join("?" if result.hands[s] is None else _cards(result.hands[s] or ()) for s in by_seat)
        knocker = "-" if result.knocker is None else seat_of(result.knocker)
        left = " ".join(str(result.remaining[s]) for s in by_seat)
        return f"end {result.end} k{knocker} hands {hands} left {left}"
    return f"winner {seat_of(event.winner)}"


def information_text(
    seat: int,
    events: Iterable[Event],
    hand: Sequence[Card] | None,
    seat_of: Callable[[int], int] = _identity,
) -> str:
    """The information-state string of ``seat`` (perfect recall): ``p{seat}``, then every event
    of the game in the form the seat saw it (:func:`event_text`), then its hand now, sorted
    (``hand -`` before it looked, R6.6, or when out), separated by ``;``. Its hand as dealt
    follows from the hand now and its own draws and discards, so nothing it knew is forgotten::

        p0;deal d1 seats 0 1 up Qh;0 draw stock +Ks;0 discard 9h;hand Ah Kh Ks
    """
    return join_information(seat_of(seat), [event_text(event, seat_of) for event in events], hand)


def join_information(seat: int, texts: Iterable[str], hand: Sequence[Card] | None) -> str:
    """The information-state string from its parts: the seat, the texts of its events
    (:func:`event_text`) and its hand now (see :func:`information_text`)."""
    return ";".join([f"p{seat}", *texts, "hand -" if hand is None else f"hand {_cards(hand)}"])


def history_slots(rules: Rules, players: int) -> int:
    """The most decisions a round can hold (one slot each in :class:`InfoStateLayout`): two a
    turn (draw, discard) for ``max_turns`` turns (R6.7), a look each (R6.6) and the dealer's
    choice (R7.6)."""
    return 2 * rules.max_turns + players + 1


ROUND_BLOCKS: tuple[str, ...] = ("dealt", "upcard", "actor", "action", "cards", "shown", "lost")
"""The slices of each round's part of the information-state tensor, in order."""


@dataclass(frozen=True)
class InfoStateLayout:
    """Where each part of the perfect-recall information-state tensor lies: the observation now
    (:class:`ObservationLayout`), then one block per round the game may last (``rounds``, the
    OpenSpiel game's ``max_rounds``), each of ``slots`` decisions (:func:`history_slots`).

    ==========  =========================  ==================================================
    slice       shape                      meaning (seats counted from the observer)
    ==========  =========================  ==================================================
    ``obs``     ``[obs size]``             the observation tensor now (:func:`encode`)
    ``seat``    ``[p]``                    one-hot: the observer's own seat (OpenSpiel's player)
    ``dealt``   ``[rounds, 52]``           own cards as dealt (once looked at, R6.6)
    ``upcard``  ``[rounds, 52]``           the discard pile's first card (draw mode)
    ``actor``   ``[rounds, slots, p]``     one-hot: who took the round's ``k``-th decision
    ``action``  ``[rounds, slots, 79]``    one-hot: its action id (:mod:`thirtyone.action_ids`;
                                           an exchange: 61 for one card, 70 for two)
    ``cards``   ``[rounds, slots, 52]``    the cards it showed the observer: a card drawn (from
                                           the stock only one's own), the cards of an exchange
                                           (given and taken), a hand laid down or a widow turned
                                           up, a new widow (R7.3)
    ``shown``   ``[rounds, p, 52]``        the hands shown when the round ended (R5.7: after a
                                           31 only the 31 and one's own)
    ``lost``    ``[rounds, p]``            lives each seat lost in the round / its lives at the start
    ==========  =========================  ==================================================

    Rounds not played yet, and slots not reached, are zeros. The tensor has perfect recall:
    equal tensors mean equal information states (a property test holds it against the string).

    Raises:
        ArgumentError: for a player count outside 2–9, or rounds or slots below 1.
    """

    players: int
    slots: int
    rounds: int
    slices: dict[str, slice] = field(init=False, repr=False, compare=False)
    shapes: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    size: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        observation = ObservationLayout(self.players)
        for name in ("slots", "rounds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArgumentError(f"an information-state layout needs {name} of 1 or more, not {value!r}")
        p, rounds, slots = self.players, self.rounds, self.slots
        shapes: dict[str, tuple[int, ...]] = {
            "obs": (observation.size,),
            "seat": (p,),
            "dealt": (rounds, 52),
            "upcard": (rounds, 52),
            "actor": (rounds, slots, p),
            "action": (rounds, slots, NUM_ACTIONS),
            "cards": (rounds, slots, 52),
            "shown": (rounds, p, 52),
            "lost": (rounds, p),
        }
        lay_end_to_end(self, shapes)

    def unpack(self, tensor: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """The named parts of one tensor (views into it, shaped as ``shapes``)."""
        return {name: tensor[where].reshape(self.shapes[name]) for name, where in self.slices.items()}

    def __deepcopy__(self, memo: dict[int, object]) -> InfoStateLayout:
        """Itself: a layout is not changed once made, and OpenSpiel's clone of a state deep-copies
        each attribute of it, this one at every step of a tree walk."""
        return self


def encode_information(
    layout: InfoStateLayout,
    seat: int,
    events: Sequence[Event],
    view: PlayerView | None,
    full: int,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """The perfect-recall information-state tensor of ``seat`` (see :class:`InfoStateLayout`):
    ``float32 [layout.size]`` from the game's ``events`` in the form the seat saw them, its
    ``view`` now (``None`` before the first deal: the observation part stays zeros) and ``full``,
    a seat's lives at the start (lives plus grace, R2.4). Written into ``out`` when given.

    Raises:
        ArgumentError: for ``out`` of the wrong shape or dtype, or a game longer than the layout.
    """
    tensor = zeroed(layout.size, out)
    parts = layout.unpack(tensor)
    players = layout.players
    if view is not None:
        encode(view, parts["obs"])
    parts["seat"][seat] = 1.0

    def slot(other: int) -> int:
        return (other - seat) % players

    rounds: list[list[Event]] = []
    for event in events:
        if isinstance(event, RoundStarted) or not rounds:
            rounds.append([])
        rounds[-1].append(event)
    if len(rounds) > layout.rounds:
        raise ArgumentError(f"this game has {len(rounds)} rounds; the layout holds {layout.rounds}")
    for number, history in enumerate(rounds):
        last = number == len(rounds) - 1
        hand = None if not last or view is None else view.hand
        dealt = _dealt(seat, history, hand)
        if dealt is not None:
            parts["dealt"][number, list(dealt)] = 1.0
        k = -1
        for event in history:
            if isinstance(event, RoundStarted):
                if event.upcard is not None:
                    parts["upcard"][number, event.upcard] = 1.0
            elif isinstance(event, Acted):
                k += 1
                if k >= layout.slots:
                    raise ArgumentError(f"round {number + 1} has more than {layout.slots} decisions")
                parts["actor"][number, k, slot(event.seat)] = 1.0
                parts["action"][number, k, _history_id(event.action)] = 1.0
                seen = list(event.revealed) + list(event.received or ())
                if isinstance(event.action, Exchange):
                    seen += event.action.give
                parts["cards"][number, k, seen] = 1.0
            elif isinstance(event, NewWidow) and k >= 0:
                parts["cards"][number, k, list(event.widow)] = 1.0
            elif isinstance(event, RoundEnded):
                result = event.result
                for other, cards in enumerate(result.hands):
                    if cards is not None:
                        parts["shown"][number, slot(other), list(cards)] = 1.0
                for loss in result.losses:
                    parts["lost"][number, slot(loss.seat)] += loss.lives / full
    return tensor


def _history_id(action: Action) -> int:
    """The id of ``action`` in the ``action`` slice. An exchange's own id names places in the
    sorted hand, which others cannot see: it is marked by its kind's first id (61 for one card,
    70 for two) and its cards are in the ``cards`` slice (the taken ones were in the widow)."""
    if isinstance(action, Exchange):
        return EXCHANGE_ONE if len(action.give) == 1 else EXCHANGE_TWO
    return action_id(_NOWHERE, action)


def _dealt(seat: int, history: Sequence[Event], hand: Sequence[Card] | None) -> tuple[Card, ...] | None:
    """``seat``'s cards as dealt in a round, worked back from its hand at the end (``hand`` now,
    or the hand shown when the round ended) through its own moves; ``None`` if it never saw them."""
    cards: set[Card] | None = None if hand is None else set(hand)
    for event in reversed(history):
        if isinstance(event, RoundEnded) and cards is None:
            shown = event.result.hands[seat] if seat < len(event.result.hands) else None
            cards = None if shown is None else set(shown)
        elif isinstance(event, Acted) and event.seat == seat and cards is not None:
            action = event.action
            if isinstance(action, Discard):
                cards.add(action.card)
            elif isinstance(action, Draw):
                cards -= set(event.received or ())
            elif isinstance(action, Exchange):
                cards = (cards - set(action.take)) | set(action.give)
            elif isinstance(action, ExchangeAll | TakeWidow):
                cards = set(event.revealed)
            elif isinstance(action, Look):
                break
            elif isinstance(action, ThrowDown):
                return None
    if cards is None or len(cards) != 3:
        return None
    return tuple(sorted(cards))
