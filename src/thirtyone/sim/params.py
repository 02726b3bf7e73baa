"""What the kernels need to know about a ruleset and the policies, as numpy arrays.

- :func:`check_covered` refuses a ruleset the kernels do not cover (:class:`UnsupportedRulesError`
  naming the option). Today they cover every option of :class:`~thirtyone.rules.Rules` with every
  value it takes; an option added to the rules later is refused until the kernels learn it.
- :func:`rule_params` packs the options into an ``int64`` vector (indexes ``R_*``).
- :func:`basic_bars` and :func:`heuristic_bars` tabulate the policies' knock thresholds (half
  points) so that the kernels compare integers only. They call the functions the bots call,
  :func:`thirtyone.strategy.basic_knock_bar` and :func:`thirtyone.strategy.heuristic_knock_bar`
  (the core's one home of the bots' tuning: ``sim`` sits below the bots and never imports them),
  so nothing is copied; a test compares the tables with the bots' functions over their whole domain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.rules import OPTIONS
from thirtyone.rules import Rules
from thirtyone.scoring import half_points
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.sim.codes import LOSS_CODES
from thirtyone.sim.errors import UnsupportedRulesError
from thirtyone.strategy import basic_knock_bar
from thirtyone.strategy import heuristic_knock_bar
from thirtyone.strategy import knock_penalty_lives
from thirtyone.strategy import style_for

__all__ = [
    "COVERED",
    "check_covered",
    "rule_params",
    "float_params",
    "basic_bars",
    "heuristic_bars",
    "heuristic_blind",
    "value_table",
    "points_table",
]

R_DRAW, R_DECK, R_MAXT, R_KNOCK2, R_MINK, R_THROW, R_STOCKSD = range(7)
R_NEWW, R_EXANY, R_DHAND, R_FULL, R_PENLIVES, R_DECKLO = range(7, 13)
# The knock penalty (R6.5, thirtyone.settlement.KNOCK_PENALTIES): the knocker's lives lost when
# alone lowest, tied lowest and without the highest hand, and the loss codes of the first two.
R_KALONE, R_KTIED, R_KNOTHI, R_KALONE_CODE, R_KTIED_CODE = range(13, 18)
N_RP = 19
F_FEED2 = 0
N_FP = 10


def _bools(value: Any) -> bool:
    return isinstance(value, bool)


COVERED: dict[str, Callable[[Any], bool]] = {
    "mode": lambda v: v in ("draw", "widow"),
    "deck": lambda v: v in (32, 52),
    "lives": lambda v: isinstance(v, int) and 1 <= v <= 20,
    "grace_life": _bools,
    "three_of_a_kind": lambda v: v in ("off", "30", "30.5"),
    "three_aces": _bools,
    "straight_flush": _bools,
    "knock_penalty": lambda v: v in KNOCK_PENALTIES,
    "knock_from_round": lambda v: v in (1, 2),
    "min_knock_value": lambda v: isinstance(v, int) and 0 <= v <= 30,
    "throw_down": _bools,
    "max_turns": lambda v: isinstance(v, int) and 1 <= v <= 10_000,
    "stock_exhausted": lambda v: v in (None, "reshuffle", "showdown"),
    "all_pass": lambda v: v in (None, "showdown", "new_widow"),
    "exchange": lambda v: v in (None, "one_or_all", "any"),
    "dealer_hand": _bools,
}
"""Each option the kernels know, with a test of the values they cover."""


def check_covered(rules: Rules) -> None:
    """Refuse rules the kernels do not cover.

    Raises:
        UnsupportedRulesError: naming the first option (or value) not covered.
    """
    for name, value in rules.options().items():
        covered = COVERED.get(name)
        if covered is None or not covered(value):
            shown = OPTIONS[name].format(value) if name in OPTIONS else repr(value)
            raise UnsupportedRulesError(
                f"thirtyone.sim does not cover option {name}={shown}; play these rules with the engine (thirtyone.Game)"
            )


def basic_bars() -> npt.NDArray[np.int64]:
    """``bars[t]``: half points the basic policy needs to knock on its ``t``-th own turn (t ≥ 9: ``bars[9]``),
    as :func:`thirtyone.bots.basic.knock_threshold`; shape ``[10]``."""
    return np.array(
        [basic_knock_bar(t) for t in range(10)],
        dtype=np.int64,
    )


def heuristic_bars(rules: Rules, players: int) -> npt.NDArray[np.int64]:
    """``bars[t, n, o, low]``: the heuristic's knock bar in half points on own turn ``t`` (0–9; 9 for
    later turns) with ``n`` seats still in (2–9), seat offset ``o = (seat - dealer) % players`` and
    ``low`` = 1 when the seat's remaining losses are at most the knock penalty; shape
    ``[10, 10, players, 2]``."""
    bars = np.zeros((10, 10, players, 2), dtype=np.int64)
    penalty = knock_penalty_lives(rules)
    for own in range(10):
        for active in range(2, 10):
            for offset in range(players):
                for low in range(2):
                    remaining = penalty if low else penalty + 1
                    bars[own, active, offset, low] = heuristic_knock_bar(rules, own * active, active, offset, remaining)
    return bars


def rule_params(rules: Rules) -> npt.NDArray[np.int64]:
    """The options as an ``int64`` vector of length ``N_RP`` (indexes ``R_*``)."""
    rp = np.zeros(N_RP, dtype=np.int64)
    rp[R_DRAW] = rules.mode == "draw"
    rp[R_DECK] = rules.deck
    rp[R_MAXT] = rules.max_turns
    rp[R_KNOCK2] = rules.knock_from_round == 2
    rp[R_MINK] = 2 * rules.min_knock_value
    rp[R_THROW] = rules.throw_down
    rp[R_STOCKSD] = rules.stock_exhausted == "showdown"
    rp[R_NEWW] = rules.all_pass == "new_widow"
    rp[R_EXANY] = rules.exchange == "any"
    rp[R_DHAND] = rules.dealer_hand
    rp[R_FULL] = rules.lives + (1 if rules.grace_life else 0)
    penalty = KNOCK_PENALTIES[rules.knock_penalty]
    rp[R_PENLIVES] = penalty.most
    rp[R_KALONE] = penalty.alone_lowest
    rp[R_KTIED] = penalty.tied_lowest
    rp[R_KNOTHI] = penalty.not_highest
    rp[R_KALONE_CODE] = LOSS_CODES[penalty.knocker_kind(tied=False)]
    rp[R_KTIED_CODE] = LOSS_CODES[penalty.knocker_kind(tied=True)]
    rp[R_DECKLO] = 52 - rules.deck
    return rp


def float_params(rules: Rules) -> npt.NDArray[np.float64]:
    """The heuristic's float constants (half points): ``floats[F_FEED2 + n]`` = ``2 * feed_cost``
    with ``n`` seats in, shape ``[N_FP]``."""
    floats = np.zeros(N_FP, dtype=np.float64)
    for active in range(2, 10):
        floats[F_FEED2 + active] = 2 * style_for(rules, active).feed_cost
    return floats


def heuristic_blind(rules: Rules) -> npt.NDArray[np.int64]:
    """``blind[n]``: the half points under which the heuristic takes an unseen widow or second hand
    with ``n`` seats in (``value < 2 * blind_widow``, as ``value < ceil(2 * blind_widow)``), shape ``[10]``."""
    blind = np.zeros(10, dtype=np.int64)
    for active in range(2, 10):
        blind[active] = math.ceil(2 * style_for(rules, active).blind_widow)
    return blind


def value_table(rules: Rules) -> npt.NDArray[np.int8]:
    """Hand values in half points, indexed ``a * 2704 + b * 52 + c`` (``-1``: not a hand);
    :func:`thirtyone.scoring.half_points` as ``int8``, shape ``[140608]``."""
    return np.array(half_points(rules), dtype=np.int8)


def points_table() -> npt.NDArray[np.int64]:
    """Card points by card index (R1.2), shape ``[52]``."""
    return np.array([(2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)[card >> 2] for card in range(52)], dtype=np.int64)
