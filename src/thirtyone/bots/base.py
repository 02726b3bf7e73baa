"""The bot interface: a bot sees one :class:`~thirtyone.views.PlayerView` and the legal actions,
and returns one of them. It never sees the full game, so it cannot cheat by construction.
:class:`UnknownBotError` is what making a bot refuses: a name, budget or argument no bot takes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from thirtyone.actions import Action
from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = ["Bot", "SeededBot", "UnknownBotError", "bot_seed", "table_refusal"]


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(view, legal)`` that returns one of ``legal``."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) for ``view.seat``."""
        ...


class UnknownBotError(ThirtyOneError):
    """A bot name that is not in :data:`~thirtyone.bots.BOTS` or :data:`~thirtyone.bots.LEVELS`, or a
    budget or argument the bot cannot take (a bot of another package raises it for a bad argument)."""


def bot_seed(seed: object) -> int | None:
    """``seed`` as a bot's seed: a whole number (as :class:`~thirtyone.engine.Game` takes one:
    an ``int`` or ``numpy`` integer, never a ``bool``, a float or text) or ``None``.

    Raises:
        ArgumentError: for any other seed.
    """
    number = whole_number(seed)
    if seed is not None and number is None:
        raise ArgumentError(f"seed is a whole number (or None for an unseeded bot), not {seed!r}")
    return number


class SeededBot:
    """Base class for bots with their own seeded random source (deterministic for a seed).

    Raises:
        ArgumentError: for a seed that is not a whole number or ``None`` (:func:`bot_seed`).
    """

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self._seed = bot_seed(seed)
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's random source, seeded with its seed, made when first used: the greedy bots
        never draw, and seeding one costs about 5 us (a simulation makes four bots a game)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def table_refusal(bot: object, rules: Rules, players: int) -> str | None:
    """Why ``bot`` cannot play ``rules`` at a table of ``players``, when it says so up front: a
    bot that plays only some tables has ``cannot_play(rules, players)``, which returns the reason
    (``None``: it can). ``None`` for any other bot."""
    check = getattr(bot, "cannot_play", None)
    return check(rules, players) if callable(check) else None
