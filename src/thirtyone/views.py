"""What one seat may know (R4.4, R6.6): :class:`PlayerView`; what anyone at the table may know:
:class:`PublicView`; plus seat and standing summaries.

A view never holds another player's hidden card: only the seat's own hand (once looked at),
the face-up cards, the public history of this round (with other players' stock draws blanked),
and which cards each opponent is known to hold because they took them face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from typing import NamedTuple

from thirtyone.actions import Action
from thirtyone.cards import Card
from thirtyone.events import Event
from thirtyone.events import RoundResult
from thirtyone.rules import Rules
from thirtyone.scoring import HandValue

__all__ = ["Phase", "SeatStatus", "Standing", "PublicView", "PlayerView"]


class Phase(StrEnum):
    """What the game waits for."""

    LOOK = "look"
    """Blind phase (R6.6): the current seat looks or throws down."""
    DEALER_CHOICE = "dealer_choice"
    """Schwimmen deal (R7.6): the dealer keeps the first hand or takes the second."""
    TURN = "turn"
    """A turn: draw or knock (draw mode), exchange, pass or knock (widow mode)."""
    DISCARD = "discard"
    """Draw mode, after drawing: the current seat discards one of four cards (R4.1)."""
    CHANCE = "chance"
    """A game made with ``explicit_chance=True`` waits for a chance step: the first dealer, a deal
    or a reshuffle (``Game.chance_step``, ``Game.deal``). No seat is to move."""
    OVER = "over"
    """The game is over (R2.5)."""


class SeatStatus(NamedTuple):
    """Public facts about one seat.

    ``remaining`` counts the losses the seat can still take (R2.4); ``lives`` is what is shown as
    lives, and ``on_grace`` is true when only the grace life is left ("on the dole/bus", R2.3).
    ``known_cards`` are cards this seat is publicly known to hold (taken face up from the
    discard pile or the widow and not given away since).
    """

    seat: int
    remaining: int
    lives: int
    on_grace: bool
    out: bool
    has_looked: bool
    known_cards: tuple[Card, ...]


class Standing(NamedTuple):
    """A seat's place (1 = best; shared places for ties, R2.5) with its lives."""

    seat: int
    place: int
    remaining: int
    lives: int
    on_grace: bool
    out: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone at the table may know now, a spectator too (R4.4): no hand, no hidden card.

    ``discard_top`` and ``discard_size`` describe the discard pile (draw mode; R4.4: only the top
    card is visible). ``widow`` is the widow when it lies face up (widow mode). ``turn`` counts the
    turns completed this round. ``history`` is this round's events as the viewer sees them (cards
    drawn unseen blanked); ``last_result`` the previous round's result as the viewer was shown it.
    """

    players: int
    rules: Rules
    round: int
    dealer: int
    phase: Phase
    current_seat: int | None
    discard_top: Card | None
    discard_size: int
    widow: tuple[Card, ...] | None
    widow_face_down: bool
    stock_size: int
    seats: tuple[SeatStatus, ...]
    knocker: int | None
    turn: int
    history: tuple[Event, ...]
    last_result: RoundResult | None

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple([status.seat for status in self.seats if not status.out])


@dataclass(frozen=True, slots=True)
class PlayerView(PublicView):
    """Everything seat ``seat`` may know now: the :class:`PublicView` and its own cards.

    ``hand`` is ``None`` before the seat has looked at its cards (R6.6) or when it is out.
    ``taken_from_pile`` is the card this seat took from the discard pile this turn, which it may
    not discard (R4.2). ``history`` holds what this seat saw of its own draws. ``legal_actions``
    is empty unless it is this seat's move.
    """

    seat: int
    hand: tuple[Card, ...] | None
    hand_value: HandValue | None
    taken_from_pile: Card | None
    legal_actions: tuple[Action, ...]

    @property
    def is_my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.current_seat == self.seat


TableFields = tuple[
    int, Rules, int, int, Phase, int | None, Card | None, int, tuple[Card, ...] | None, bool, int,
    tuple[SeatStatus, ...], int | None, int,
]  # fmt: skip
"""The first fields of a :class:`PublicView`, in order: ``players`` … ``turn``."""


class _Filling(PublicView):
    """A :class:`PlayerView` while :func:`build_player_view` fills it: the same slots, stored by plain
    assignment (``__setattr__`` and ``__delattr__`` are object's), where a frozen dataclass sets each
    field through ``object.__setattr__``: most of a view's cost, and the engine builds a view for
    every bot decision."""

    __slots__ = PlayerView.__slots__
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


def build_player_view(
    table: TableFields,
    history: tuple[Event, ...],
    last_result: RoundResult | None,
    seat: int,
    hand: tuple[Card, ...] | None,
    hand_value: HandValue | None,
    taken_from_pile: Card | None,
    legal_actions: tuple[Action, ...],
) -> PlayerView:
    """``PlayerView(*table, history, …)`` for the engine, made as fast as Python allows: filled as a
    :class:`_Filling`, then made a :class:`PlayerView` (their slots are the same). Not checked."""
    view: Any = object.__new__(_Filling)
    (
        view.players, view.rules, view.round, view.dealer, view.phase, view.current_seat, view.discard_top,
        view.discard_size, view.widow, view.widow_face_down, view.stock_size, view.seats, view.knocker, view.turn,
    ) = table  # fmt: skip
    view.history = history
    view.last_result = last_result
    view.seat = seat
    view.hand = hand
    view.hand_value = hand_value
    view.taken_from_pile = taken_from_pile
    view.legal_actions = legal_actions
    view.__class__ = PlayerView
    return view  # type: ignore[no-any-return]
