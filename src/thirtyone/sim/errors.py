"""Errors of :mod:`thirtyone.sim`, each with a one-line message, raised before any work starts:
bad input is a :class:`SimError` (a :class:`~thirtyone.errors.ThirtyOneError`, so a ``ValueError``);
a simulator that cannot run here is a :class:`SimUnavailableError` (a ``RuntimeError``: the
environment lacks numba, not the caller's input)."""

from __future__ import annotations

from thirtyone.errors import ThirtyOneError
from thirtyone.errors import ThirtyOneRuntimeError

__all__ = ["SimError", "UnsupportedRulesError", "SimInputError", "SimUnavailableError"]


class SimError(ThirtyOneError):
    """Base class of the simulator's errors for bad input."""


class UnsupportedRulesError(SimError):
    """A ruleset the simulator does not cover; the message names the option. Play it with the
    engine (:class:`~thirtyone.engine.Game`) instead."""


class SimInputError(SimError):
    """Bad input: a batch size of 0 or beyond the limits, deck orders that are not permutations
    of the rules' deck, a dealer or seat that is not in the game, an unknown policy, a bad seed."""


class SimUnavailableError(ThirtyOneRuntimeError):
    """numba or numpy is not installed (``pip install 'thirtyone[fast]'``); use the engine."""
