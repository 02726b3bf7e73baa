"""The options every environment takes, checked in one place: :class:`EnvConfig`.

An environment is made from a preset and rule options (any option of
:class:`~thirtyone.rules.Rules`, as values or text), a player count (2–9), whether the game's end
pays ±1 (``win_reward``) and a cap on the rounds a game may last (``max_rounds``; a game still
going then is truncated). Anything else is refused with an error naming it, before anything is
made.

>>> config = EnvConfig.make(preset="schwimmen", players=3, lives=2)
>>> config.rules.deck, config.players, config.max_rounds
(32, 3, 18)
>>> EnvConfig.make(colour="red")
Traceback (most recent call last):
...
thirtyone.errors.ArgumentError: unknown environment option 'colour': give preset, players, win_reward, max_rounds \
or a rule option (mode, deck, lives, grace_life, three_of_a_kind, three_aces, straight_flush, knock_penalty, \
knock_from_round, min_knock_value, throw_down, max_turns, stock_exhausted, all_pass, exchange, dealer_hand)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from thirtyone.checks import whole_number
from thirtyone.errors import ArgumentError
from thirtyone.rules import OPTIONS
from thirtyone.rules import Rules

__all__ = ["EnvConfig", "ENV_OPTIONS", "default_max_rounds", "MAX_ROUNDS_LIMIT"]

ENV_OPTIONS = ("preset", "players", "win_reward", "max_rounds")
"""The options of an environment besides the rule options."""
MAX_ROUNDS_LIMIT = 100_000
"""The most rounds ``max_rounds`` may allow."""


def default_max_rounds(rules: Rules, players: int) -> int:
    """Twice the most rounds a game can last while every round costs someone a life (each does,
    R6.5, R5.1, but for R2.6's rounds that would put everyone out): ``2 * players * (lives +
    grace)``. A game still going after that is truncated."""
    return 2 * players * (rules.lives + (1 if rules.grace_life else 0))


@dataclass(frozen=True)
class EnvConfig:
    """The checked options of an environment.

    ``rules`` and ``players`` are the game's; ``win_reward`` adds -1 for a seat when it is put
    out and +1 for the winner when the game is over; ``max_rounds`` is the round after which a game that is
    not over is truncated.
    """

    rules: Rules
    players: int
    win_reward: bool
    max_rounds: int

    @classmethod
    def make(
        cls,
        preset: str | Rules = "scat",
        players: int = 4,
        *,
        win_reward: bool = False,
        max_rounds: int | None = None,
        **options: Any,
    ) -> EnvConfig:
        """Check the options: ``preset`` is a preset name or a :class:`Rules`; ``options`` are
        rule options on top of it (values or their text, as ``Rules.replace`` takes them).

        Raises:
            ArgumentError: for an unknown option, a player count outside 2–9 (or more than the
                deck deals), a ``win_reward`` that is not a bool or a ``max_rounds`` outside
                1–100,000.
            RulesError: for a bad preset or rule option (naming it).
        """
        for name in options:
            if name not in OPTIONS:
                raise ArgumentError(
                    f"unknown environment option {name!r}: give {', '.join(ENV_OPTIONS)} "
                    f"or a rule option ({', '.join(OPTIONS)})"
                )
        if isinstance(preset, Rules):
            rules = preset.replace(**options) if options else preset
        else:
            rules = Rules.preset(preset, **options)
        count = whole_number(players)
        if count is None:
            raise ArgumentError(f"players is a whole number from 2 to 9, not {players!r}")
        try:
            count = rules.check_players(count)
        except ValueError as error:
            raise ArgumentError(str(error)) from None
        if not isinstance(win_reward, bool):
            raise ArgumentError(f"win_reward is True or False, not {win_reward!r}")
        if max_rounds is None:
            rounds = default_max_rounds(rules, count)
        else:
            rounds = whole_number(max_rounds) or 0
            if not 1 <= rounds <= MAX_ROUNDS_LIMIT:
                raise ArgumentError(f"max_rounds is a whole number from 1 to {MAX_ROUNDS_LIMIT:,}, not {max_rounds!r}")
        return cls(rules, count, win_reward, rounds)

    def __deepcopy__(self, memo: dict[int, object]) -> EnvConfig:
        """Itself: a config is immutable (its rules are), and OpenSpiel's clone of a state
        deep-copies each attribute of it, this one at every step of a tree walk."""
        return self

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> EnvConfig:
        """:meth:`make` from a mapping of option names to values."""
        return cls.make(**dict(values))

    @property
    def full(self) -> int:
        """Each seat's remaining losses at the start (lives plus the grace life, R2.4)."""
        return self.rules.lives + (1 if self.rules.grace_life else 0)
