"""Typed errors of the library, each with a one-line message that says what is wrong and how to
fix it: bad input is a ``ValueError`` (:class:`ThirtyOneError`), a failure of the environment —
a database that cannot be reached, a compiled simulator that is not installed — a
``RuntimeError`` (:class:`ThirtyOneRuntimeError`). The rules' refusal of an action,
:class:`~thirtyone.refusals.IllegalActionError`, is in :mod:`thirtyone.refusals`, with its codes."""

from __future__ import annotations

__all__ = [
    "ThirtyOneError",
    "ThirtyOneRuntimeError",
    "CardError",
    "RulesError",
    "ActionError",
    "RecordError",
    "PositionError",
    "SeatError",
    "SeedError",
    "ArgumentError",
    "missing_extra",
]


class ThirtyOneError(ValueError):
    """Base class of every error this library raises for bad input."""


class ThirtyOneRuntimeError(RuntimeError):
    """Base class of every error this library raises for a failure of its environment, never of
    the caller's input: a database that cannot be reached, a compiled simulator that is missing,
    a worker process that died. Trying again later (or installing what is missing) may help."""


class CardError(ThirtyOneError):
    """Card text that cannot be read, or cards that do not form a valid hand."""


class RulesError(ThirtyOneError):
    """An unknown preset or option, a bad option value, options that contradict each
    other, or a player count the deck cannot deal (R2.1, R8)."""


class ActionError(ThirtyOneError):
    """Action text that cannot be read (see :mod:`thirtyone.actions` for the notation)."""


class RecordError(ThirtyOneError):
    """A game record that cannot be read, or whose replay does not match what it says.
    The message names the round, the action index and the rule where it applies."""


class CommitmentError(RecordError):
    """A published commitment that does not match what it commits to. ``recorded`` is the
    commitment in the record, ``computed`` the one its salts (and decks) give, each 64 lowercase
    hex digits; the message says which commitment and what can have been changed."""

    def __init__(self, message: str, *, recorded: str, computed: str) -> None:
        super().__init__(message)
        self.recorded = recorded
        self.computed = computed


class SeedError(ThirtyOneError):
    """A client seed that cannot be used (not hex or base64, too short, too long), or a salt chain
    asked for a round it does not reach (:mod:`thirtyone.fairness`)."""


class SeatError(ThirtyOneError):
    """A seat number that is not a seat of the game."""


class PositionError(ThirtyOneError):
    """A :class:`~thirtyone.position.Position` that no game can be in (a card missing or
    twice, a hand of the wrong size, a seat to move that is out, …)."""


class ArgumentError(ThirtyOneError):
    """An argument of the wrong type or out of range that no more specific error covers: a seed
    that is not a whole number, a round the game has not dealt, a number of rounds below 1."""


def missing_extra(error: ImportError, extra: str) -> ImportError:
    """The error to raise for an optional package that failed to import: the same type and
    ``name`` as ``error`` (``ModuleNotFoundError`` stays one), its message ending with how to
    install the package's extra.

    >>> missing_extra(ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel"), "openspiel")
    ModuleNotFoundError("No module named 'pyspiel' (pip install 'thirtyone[openspiel]')")
    """
    kind = ModuleNotFoundError if isinstance(error, ModuleNotFoundError) else ImportError
    return kind(f"{error} (pip install 'thirtyone[{extra}]')", name=error.name)
