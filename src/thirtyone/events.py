"""What happened in a game: events, in order, in ``Game.events``.

Every event has ``for_seat(seat)``, the form that seat may see: cards only one player may know
(a card drawn from the stock, the face-down widow taken in the opening) are blanked for the
others. Round results are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from thirtyone.actions import Action
from thirtyone.cards import Card
from thirtyone.scoring import HandValue
from thirtyone.settlement import Loss
from thirtyone.settlement import RoundEnd

__all__ = [
    "Event",
    "RoundStarted",
    "Acted",
    "Reshuffled",
    "NewWidow",
    "RoundEnded",
    "GameOver",
    "Loss",
    "RoundResult",
    "RoundEnd",
]


def _unfrozen(cls: type) -> type:
    """A class with the slots of ``cls`` (a frozen dataclass) and no frozen ``__setattr__``: the
    engine fills one of its many events by plain assignment, then makes it a ``cls`` by setting
    its ``__class__`` (the layouts are the same)."""
    return type(f"_{cls.__name__}Filling", (), {"__slots__": vars(cls)["__slots__"]})


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new deal (R3): its round number (from 1), dealer, the seats dealt in, and the first card
    of the discard pile (draw mode; ``None`` in widow mode)."""

    round: int
    dealer: int
    seats: tuple[int, ...]
    upcard: Card | None

    def for_seat(self, seat: int) -> RoundStarted:
        return self


@dataclass(frozen=True, slots=True, init=False)
class Acted:
    """A seat took an action. ``received`` holds the cards it got (a drawn card, the cards taken
    from the widow); it is ``None`` for a viewer who may not know them (``private``). ``revealed``
    holds the cards the action turned face up besides those it names: the old hand laid down as
    the widow by ``exchange all`` (R7.2), the face-down widow turned up by the opener's pass or
    knock (R7.2), the Schwimmen dealer's other hand laid down as the widow (R7.6). Every seat sees
    them."""

    seat: int
    action: Action
    received: tuple[Card, ...] | None = None
    private: bool = False
    revealed: tuple[Card, ...] = ()

    def __new__(
        cls,
        seat: int,
        action: Action,
        received: tuple[Card, ...] | None = None,
        private: bool = False,
        revealed: tuple[Card, ...] = (),
    ) -> Acted:
        # the engine makes one every move: filled by plain assignment, then made an Acted (the
        # same slots), where a frozen dataclass's __init__ sets each field through object.__setattr__
        event: Any = object.__new__(_ActedFilling)
        event.seat, event.action, event.received, event.private, event.revealed = (
            seat, action, received, private, revealed
        )  # fmt: skip
        event.__class__ = cls
        return event  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[type[Acted], tuple[object, ...]]:
        return (Acted, (self.seat, self.action, self.received, self.private, self.revealed))

    def for_seat(self, seat: int) -> Acted:
        if self.private and seat != self.seat and self.received is not None:
            return Acted(self.seat, self.action, None, True, self.revealed)  # every stock draw: replace() is slow
        return self


_ActedFilling = _unfrozen(Acted)


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile but its top card was shuffled into a new stock of ``stock_size`` cards (R4.3)."""

    stock_size: int

    def for_seat(self, seat: int) -> Reshuffled:
        return self


@dataclass(frozen=True, slots=True)
class NewWidow:
    """Everyone passed: the widow was set aside and three stock cards became the new widow (R7.3)."""

    set_aside: tuple[Card, ...]
    widow: tuple[Card, ...]

    def for_seat(self, seat: int) -> NewWidow:
        return self


@dataclass(frozen=True, slots=True, init=False)
class RoundResult:
    """The outcome of one round.

    ``end`` says how it ended, ``knocker`` who knocked (or threw down), ``blitz`` the seats that
    showed a blitz. ``hands`` and ``values`` are indexed by seat (``None`` for a seat not in the round, or one a
    viewer may not see). ``Game.last_result`` and ``Game.events`` hold every hand; what a player
    is shown is :meth:`for_seat`: every hand after a showdown, but after a blitz only the blitz
    hands and the player's own. ``losses`` are what the rules charged (each with its kind,
    :class:`~thirtyone.settlement.Loss`);
    ``remaining`` is each seat's remaining losses afterwards (R2.4), which R2.6 may have capped
    (``saved_by_r2_6``). ``eliminated`` lists the seats this round put out.
    """

    round: int
    dealer: int
    end: RoundEnd
    knocker: int | None
    blitz: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    values: tuple[HandValue | None, ...]
    losses: tuple[Loss, ...]
    remaining: tuple[int, ...]
    eliminated: tuple[int, ...]
    saved_by_r2_6: bool
    turns: int

    def __new__(
        cls,
        round: int,
        dealer: int,
        end: RoundEnd,
        knocker: int | None,
        blitz: tuple[int, ...],
        hands: tuple[tuple[Card, ...] | None, ...],
        values: tuple[HandValue | None, ...],
        losses: tuple[Loss, ...],
        remaining: tuple[int, ...],
        eliminated: tuple[int, ...],
        saved_by_r2_6: bool,
        turns: int,
    ) -> RoundResult:
        # made every round (and a seat's form of each blitz): filled as Acted is, at a third of the cost
        result: Any = object.__new__(_ResultFilling)
        (
            result.round, result.dealer, result.end, result.knocker, result.blitz, result.hands, result.values,
            result.losses, result.remaining, result.eliminated, result.saved_by_r2_6, result.turns,
        ) = (
            round, dealer, end, knocker, blitz, hands, values, losses, remaining, eliminated, saved_by_r2_6, turns
        )  # fmt: skip
        result.__class__ = cls
        return result  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[type[RoundResult], tuple[object, ...]]:
        return (RoundResult, tuple(getattr(self, name) for name in self.__slots__))

    def for_seat(self, seat: int) -> RoundResult:
        """The result as ``seat`` sees it (``-1``: as anyone at the table sees it, see :meth:`public`)."""
        if self.end not in ("blitz", "dealt_blitz"):
            return self
        hidden = [other not in self.blitz and other != seat for other in range(len(self.hands))]
        if not any(hidden[other] and hand is not None for other, hand in enumerate(self.hands)):
            return self
        return RoundResult(  # each seat's form of a blitz: dataclasses.replace() costs twice this
            self.round, self.dealer, self.end, self.knocker, self.blitz,
            tuple([None if hide else hand for hide, hand in zip(hidden, self.hands, strict=True)]),
            tuple([None if hide else value for hide, value in zip(hidden, self.values, strict=True)]),
            self.losses, self.remaining, self.eliminated, self.saved_by_r2_6, self.turns,
        )  # fmt: skip

    def public(self) -> RoundResult:
        """The result as shown at the table: every hand after a showdown, the blitz hands after a blitz."""
        return self.for_seat(-1)

    def lives_lost(self, seat: int) -> int:
        """Lives the rules charged ``seat`` this round (0 if none)."""
        return sum(loss.lives for loss in self.losses if loss.seat == seat)


_ResultFilling = _unfrozen(RoundResult)


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended with ``result``."""

    result: RoundResult

    def for_seat(self, seat: int) -> RoundEnded:
        result = self.result.for_seat(seat)
        return self if result is self.result else RoundEnded(result)


@dataclass(frozen=True, slots=True)
class GameOver:
    """One player is left: ``winner`` (R2.5)."""

    winner: int

    def for_seat(self, seat: int) -> GameOver:
        return self


Event = RoundStarted | Acted | Reshuffled | NewWidow | RoundEnded | GameOver
"""Any event."""
