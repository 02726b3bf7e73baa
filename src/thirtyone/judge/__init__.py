"""The judge of good play: what the `hard` bot, the hint, the review and ``analyze`` read.

Two parts, both at play time with numpy alone (docs/judge.md): the exact value of a last
turn after a knock (:mod:`thirtyone.judge.lastturn`), and the learned network's policy and action
values (:mod:`thirtyone.judge.network`). It knows views and action ids; nothing here imports a
face, an agent environment or a training library.
"""

from typing import Any

_LAST_TURN = (
    "LastTurn",
    "LastTurnMove",
    "NotALastTurnError",
    "is_last_turn",
    "last_turn",
    "last_turn_values",
    "seat_utility",
)

__all__ = [*_LAST_TURN]


def __getattr__(name: str) -> Any:
    """The last turn's names, imported when first asked for (the module needs numpy, which
    ``import thirtyone.bots`` does not load)."""
    if name in _LAST_TURN:
        from thirtyone.judge import lastturn

        return getattr(lastturn, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
