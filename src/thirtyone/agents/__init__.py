"""``thirtyone.agents``: the game for agents and researchers — a fixed action id space with a
legal-action mask, observation tensors built from a seat's view only, and environments for
PettingZoo, Gymnasium and OpenSpiel, plus a vector env on the compiled simulator.

- :mod:`~thirtyone.agents.action_ids`: the core's 79 action ids (:mod:`thirtyone.action_ids`:
  ``action_id``, ``action_from_id``) and ``legal_mask``.
- :mod:`~thirtyone.agents.observation`: ``encode(view)`` and its :class:`ObservationLayout`.
- :mod:`~thirtyone.agents.config`: the options every environment takes (:class:`EnvConfig`).
- :mod:`~thirtyone.agents.table`: one game stepped by ids, with the rewards (:class:`Table`).
- :mod:`~thirtyone.agents.pettingzoo` (PettingZoo AEC), :mod:`~thirtyone.agents.gymnasium`
  (one seat against bots), :mod:`~thirtyone.agents.openspiel` (``python_thirtyone``),
  :mod:`~thirtyone.agents.vector` (N games at once on the kernels): each needs its package
  (``pip install 'thirtyone[agents]'``, ``'thirtyone[openspiel]'``).

See docs/agents.md for the tables.
"""

from __future__ import annotations

from thirtyone.agents.action_ids import ACTION_NAMES
from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import action_id
from thirtyone.agents.action_ids import describe_id
from thirtyone.agents.action_ids import legal_ids
from thirtyone.agents.action_ids import legal_mask
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import ObservationLayout
from thirtyone.agents.observation import encode
from thirtyone.agents.observation import layout_for
from thirtyone.agents.table import Step
from thirtyone.agents.table import Table

__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "action_from_id",
    "action_id",
    "describe_id",
    "legal_ids",
    "legal_mask",
    "EnvConfig",
    "ObservationLayout",
    "encode",
    "layout_for",
    "Step",
    "Table",
]
