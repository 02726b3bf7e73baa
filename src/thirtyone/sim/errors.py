"""Errors of :mod:`thirtyone.sim`: each a :class:`~thirtyone.errors.ThirtyOneError` (a ``ValueError``)
with a one-line message, raised before any work starts."""

from __future__ import annotations

from thirtyone.errors import ThirtyOneError

__all__ = ["SimError", "UnsupportedRulesError", "SimInputError", "SimUnavailableError"]


class SimError(ThirtyOneError):
    """Base class of the simulator's errors."""


class UnsupportedRulesError(SimError):
    """A ruleset the simulator does not cover; the message names the option. Play it with the
    engine (:class:`~thirtyone.engine.Game`) instead."""


class SimInputError(SimError):
    """Bad input: a batch size of 0 or beyond the limits, deck orders that are not permutations
    of the rules' deck, a dealer or seat that is not in the game, an unknown policy, a bad seed."""


class SimUnavailableError(SimError):
    """numba or numpy is not installed (``pip install 'thirtyone[fast]'``); use the engine."""
