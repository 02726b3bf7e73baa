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

from thirtyone import action_ids as core
from thirtyone.action_ids import *  # noqa: F403 - the core's names (its __all__), re-exported
from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.action_ids import Table
from thirtyone.action_ids import legal_ids
from thirtyone.views import PlayerView

__all__ = ["legal_mask"]
__all__ += core.__all__


def legal_mask(where: Table | PlayerView) -> npt.NDArray[np.int8]:
    """The legal actions of the seat to move as a mask: ``int8 [NUM_ACTIONS]``, 1 where legal.
    Every legal action has a distinct id, so ``mask.sum() == len(game.legal_actions())``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[legal_ids(where)] = 1
    return mask
