"""``random``: picks uniformly among the legal actions (a baseline and a fuzzer)."""

from __future__ import annotations

from collections.abc import Sequence

from thirtyone.actions import Action
from thirtyone.bots.base import SeededBot
from thirtyone.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot(SeededBot):
    """Uniformly random legal play."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
