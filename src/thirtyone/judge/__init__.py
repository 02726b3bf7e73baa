"""The judge of good play: what the `hard` bot, the hint, the review and ``analyze`` read.

Two parts, both at play time with numpy alone (DESIGN.md, "The judge"): the exact value of a last
turn after a knock (:mod:`thirtyone.judge.lastturn`), and the learned network's policy and action
values (:mod:`thirtyone.judge.network`). It knows views and action ids; nothing here imports a
face, an agent environment or a training library.
"""

from thirtyone.judge.lastturn import LastTurn
from thirtyone.judge.lastturn import LastTurnMove
from thirtyone.judge.lastturn import NotALastTurnError
from thirtyone.judge.lastturn import is_last_turn
from thirtyone.judge.lastturn import last_turn
from thirtyone.judge.lastturn import last_turn_values
from thirtyone.judge.lastturn import seat_utility

__all__ = [
    "LastTurn",
    "LastTurnMove",
    "NotALastTurnError",
    "is_last_turn",
    "last_turn",
    "last_turn_values",
    "seat_utility",
]
