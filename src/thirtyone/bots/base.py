"""The bot interface: a bot sees one :class:`~thirtyone.views.PlayerView` and the legal actions,
and returns one of them. It never sees the full game, so it cannot cheat by construction."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from thirtyone.actions import Action
from thirtyone.views import PlayerView

__all__ = ["Bot", "SeededBot"]


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(view, legal)`` that returns one of ``legal``."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) for ``view.seat``."""
        ...


class SeededBot:
    """Base class for bots with their own seeded random source (deterministic for a seed)."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
