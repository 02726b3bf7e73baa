"""Typed errors of the library: every one is a ``ValueError`` with a one-line message
that says what is wrong and how to fix it."""

from __future__ import annotations

__all__ = [
    "ThirtyOneError",
    "CardError",
    "RulesError",
    "ActionError",
    "IllegalActionError",
    "RecordError",
    "PositionError",
    "SeatError",
]


class ThirtyOneError(ValueError):
    """Base class of every error this library raises for bad input."""


class CardError(ThirtyOneError):
    """Card text that cannot be read, or cards that do not form a valid hand."""


class RulesError(ThirtyOneError):
    """An unknown preset or option, a bad option value, options that contradict each
    other, or a player count the deck cannot deal (R2.1, R8)."""


class ActionError(ThirtyOneError):
    """Action text that cannot be read (see :mod:`thirtyone.actions` for the notation)."""


class IllegalActionError(ThirtyOneError):
    """An action the rules forbid in the current state. The message names the rule,
    e.g. ``R4.2: cannot discard the card just taken from the discard pile``. The game
    is left exactly as it was."""


class RecordError(ThirtyOneError):
    """A game record that cannot be read, or whose replay does not match what it says.
    The message names the round, the action index and the rule where it applies."""


class SeatError(ThirtyOneError):
    """A seat number that is not a seat of the game."""


class PositionError(ThirtyOneError):
    """A :class:`~thirtyone.position.Position` that no game can be in (a card missing or
    twice, a hand of the wrong size, a seat to move that is out, …)."""
