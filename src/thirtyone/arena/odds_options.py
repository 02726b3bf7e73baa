"""What ``thirtyone analyze`` is asked (:mod:`thirtyone.arena.odds`): the sizes of its simulated
sections and the expert of its knocks (:class:`Sizes`), the charts it may write, and the error bad
input raises. Free of numpy, so that the command line can offer and check them without it.

>>> Sizes(rounds=0).rounds, Sizes().expert
(0, 'expert:100')
>>> check_size("games", -1)
Traceback (most recent call last):
thirtyone.arena.odds_options.OddsError: games -1: give a whole number from 0 (skip it) to 10,000,000
"""

from __future__ import annotations

from dataclasses import dataclass

from thirtyone.bots import make_bot
from thirtyone.bots.levels import takes_budget
from thirtyone.errors import ThirtyOneError

__all__ = ["SIZES", "CHART_FILES", "Sizes", "OddsError", "check_size", "check_expert"]

SIZES: dict[str, tuple[int, str]] = {
    "deals": (100_000_000, "tables dealt for each number of players from 3 up (the lowest hand)"),
    "rounds": (100_000_000, "rounds of the heuristic (its knocks, the seats' lives, a round's length)"),
    "positions": (10_000_000, "positions of the heuristic's play valued after both moves (the visible card or not)"),
    "games": (10_000_000, "whole games of the heuristic (the win share by seat, a game's length)"),
    "expert_rounds": (1_000_000, "rounds with the expert in every seat (its knocks)"),
}
"""Each size of :class:`Sizes`: its largest value and what it counts (0 skips its section)."""

CHART_FILES = (
    "hand-values.svg",
    "lowest.svg",
    "knocks-heuristic.svg",
    "knocks-expert.svg",
    "draws.svg",
    "seats.svg",
    "length.svg",
)
"""Every file :func:`thirtyone.arena.odds_charts.write_charts` may write, in the order of the analysis's sections."""


class OddsError(ThirtyOneError):
    """Bad input to the analysis: a size or seed out of range, a bot that is not an expert, a
    number of players the deck cannot deal."""


def check_size(name: str, value: object, flag: str | None = None) -> int:
    """``value`` as the size ``name`` of :data:`SIZES`, named ``flag`` in the error (by default the
    name, ``expert-rounds``).

    Raises:
        OddsError: for something that is not a whole number from 0 to the size's largest.
    """
    high, _ = SIZES[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        shown = flag or name.replace("_", "-")
        raise OddsError(f"{shown} {value!r}: give a whole number from 0 (skip it) to {high:,}")
    return value


def check_expert(name: object, flag: str = "expert") -> str:
    """``name`` when it names an expert with a budget the bots accept (``expert:100``, ``hard:0.1s``),
    named ``flag`` in the error.

    Raises:
        OddsError: for a bot that is not an expert.
        UnknownBotError: for a bad budget (its limits named).
    """
    if not isinstance(name, str) or not takes_budget(name):
        raise OddsError(f"{flag} {name!r}: give an expert and its budget, such as expert:100 or expert:0.05s")
    make_bot(name, 0)
    return name


@dataclass(frozen=True)
class Sizes:
    """How much each simulated section plays (see :data:`SIZES`; 0 skips it) and the expert of the
    ``expert`` section with its budget (``expert:100``: 100 sampled worlds a decision, the same
    moves for the same seed; a time budget such as ``expert:0.05s`` is not repeatable).

    Raises:
        OddsError, UnknownBotError: for a size out of range or a bad expert (:func:`check_size`,
            :func:`check_expert`).
    """

    deals: int = 200_000
    rounds: int = 1_000_000
    positions: int = 20_000
    games: int = 100_000
    expert_rounds: int = 300
    expert: str = "expert:100"

    def __post_init__(self) -> None:
        for name in SIZES:
            check_size(name, getattr(self, name))
        check_expert(self.expert)
