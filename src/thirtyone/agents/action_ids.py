"""The core's action ids (:mod:`thirtyone.action_ids`: one integer 0–78 per action, the one
action space of the project) for agents, with the legal actions as a numpy mask.

>>> from thirtyone import Game
>>> game = Game("scat", players=3, seed=42)
>>> mask = legal_mask(game)
>>> mask.shape, [int(i) for i in mask.nonzero()[0]]
((79,), [52, 53, 54])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import (
    ACTION_NAMES,
    DISCARD,
    DRAW_PILE,
    DRAW_STOCK,
    EXCHANGE_ALL,
    EXCHANGE_ONE,
    EXCHANGE_TWO,
    KEEP,
    KNOCK,
    LOOK,
    NUM_ACTIONS,
    PASS,
    TAKE_WIDOW,
    THROW_DOWN,
    Table,
    action_from_id,
    action_id,
    describe_id,
    legal_ids,
    num_distinct_actions,
)
from thirtyone.views import PlayerView

__all__ = [
    "NUM_ACTIONS",
    "DISCARD",
    "DRAW_STOCK",
    "DRAW_PILE",
    "KNOCK",
    "EXCHANGE_ALL",
    "PASS",
    "KEEP",
    "TAKE_WIDOW",
    "LOOK",
    "THROW_DOWN",
    "EXCHANGE_ONE",
    "EXCHANGE_TWO",
    "ACTION_NAMES",
    "num_distinct_actions",
    "action_id",
    "action_from_id",
    "legal_ids",
    "legal_mask",
    "describe_id",
]


def legal_mask(where: Table | PlayerView) -> npt.NDArray[np.int8]:
    """The legal actions of the seat to move as a mask: ``int8 [NUM_ACTIONS]``, 1 where legal.
    Every legal action has a distinct id, so ``mask.sum() == len(game.legal_actions())``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[legal_ids(where)] = 1
    return mask
