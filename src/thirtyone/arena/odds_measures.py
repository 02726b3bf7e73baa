"""The figures of ``thirtyone analyze`` and how sure they are: a share of trials with its 95%
Wilson interval (:class:`Share`), a mean with its normal 95% interval (:class:`Mean`), half points
as points (:func:`points`).

>>> share = Share(8, 10)
>>> share.share, [round(bound, 4) for bound in share.interval]
(0.8, [0.4902, 0.9433])
>>> mean = Mean.of([1, 0, 0, 1]) + Mean.of([1])
>>> mean.count, mean.mean, round(mean.half_width, 3)
(5, 0.6, 0.48)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.arena.stats import Z95
from thirtyone.arena.stats import wilson_interval

__all__ = ["Share", "Mean", "points", "MIN_CELL"]

MIN_CELL = 20
"""Fewest trials a share needs to be shown in a report's table or a chart (fewer say too little)."""


def points(half: int) -> float:
    """Half points as points: ``61`` → ``30.5`` (R1.4: values are kept in half points)."""
    return half / 2


@dataclass(frozen=True)
class Share:
    """``hits`` of ``trials`` (a count of each), with its 95% Wilson interval
    (:func:`~thirtyone.arena.stats.wilson_interval`, ``(0, 1)`` without trials)."""

    hits: int
    trials: int

    @property
    def share(self) -> float:
        """``hits / trials``, 0 to 1 (0 without trials)."""
        return self.hits / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval ``(low, high)``, 0 to 1."""
        return wilson_interval(self.hits, self.trials)

    def to_dict(self) -> dict[str, Any]:
        """``hits``, ``trials``, ``share`` and its interval's ``low`` and ``high``."""
        low, high = self.interval
        return {"hits": self.hits, "trials": self.trials, "share": self.share, "low": low, "high": high}


@dataclass(frozen=True)
class Mean:
    """The mean of ``count`` values kept as their ``total`` and the total of their ``squares`` (so
    that two means add up exactly as their values would), with the normal 95% half-width of the
    mean (the values taken as independent)."""

    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    @classmethod
    def of(cls, values: npt.ArrayLike) -> Mean:
        """The mean of an array of values (any shape; every element counts)."""
        array = np.asarray(values, dtype=np.float64)
        return cls(int(array.size), float(array.sum()), float((array * array).sum()))

    def __add__(self, other: Mean) -> Mean:
        return Mean(self.count + other.count, self.total + other.total, self.squares + other.squares)

    @property
    def mean(self) -> float:
        """The mean, in the values' unit (0 without values)."""
        return self.total / self.count if self.count else 0.0

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the mean (infinite with fewer than two values)."""
        if self.count < 2:
            return math.inf
        spread = max(0.0, self.squares - self.total * self.total / self.count) / (self.count - 1)
        return Z95 * math.sqrt(spread / self.count)

    def to_dict(self) -> dict[str, Any]:
        """``count``, ``mean`` and the interval's ``low`` and ``high`` (``None`` with fewer than two values)."""
        half = self.half_width
        finite = math.isfinite(half)
        return {
            "count": self.count,
            "mean": self.mean,
            "low": self.mean - half if finite else None,
            "high": self.mean + half if finite else None,
        }
