"""The settings of one ``thirtyone play`` session, checked before any screen opens.

>>> from thirtyone.rules import Rules
>>> settings = PlaySettings.create(Rules.preset("scat"), players=3, bots="basic,random", seed=7)
>>> settings.bots, settings.seat_names()
(('basic', 'random'), ('you', 'Ada (basic)', 'Bea (random)'))
>>> PlaySettings.create(Rules.preset("scat"), players=10)
Traceback (most recent call last):
...
thirtyone.errors.RulesError: R2.1: 10 players cannot play; use 2 to 9 players
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from thirtyone.bots import parse_bot_list
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules

__all__ = ["PlayError", "PlaySettings", "BOT_NAMES", "MAX_NAME", "MAX_DELAY"]

BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Flo", "Gus", "Hal", "Ivy", "Jo")
"""Friendly names for the bots, by seat (the person's own name is skipped if it is one of them)."""

MAX_NAME = 12
"""The longest player name, in characters (it has to fit the 80-column table)."""

MAX_DELAY = 10.0
"""The longest pause between bot moves, in seconds."""


class PlayError(ThirtyOneError):
    """A bad argument to ``thirtyone play`` (the player's name, the seed, the pacing)."""


@dataclass(frozen=True)
class PlaySettings:
    """Everything a session needs: the rules, the number of players (the person included, in
    seat 0), the bot names of seats 1…n-1, the seed (``None``: unpredictable), whether bots move
    at once (``fast``) or after ``delay`` seconds, where to save game records, and the person's name.

    Build one with :meth:`create`, which checks every value.
    """

    rules: Rules
    players: int
    bots: tuple[str, ...]
    seed: int | None = None
    fast: bool = False
    record: Path | None = None
    name: str = "you"
    delay: float = 0.8

    @classmethod
    def create(
        cls,
        rules: Rules,
        players: int = 4,
        bots: str = "basic",
        *,
        seed: int | None = None,
        fast: bool = False,
        record: Path | None = None,
        name: str = "you",
        delay: float = 0.8,
    ) -> PlaySettings:
        """Checked settings; ``bots`` is a comma list for seats 1…n-1, the last name repeating.

        Raises:
            RulesError: when the rules cannot be dealt to ``players`` players (R2.1).
            UnknownBotError: for an unknown bot name or more names than bot seats.
            PlayError: for an empty or too long name, or a delay outside 0–10 seconds.
        """
        rules.check_players(players)
        names = parse_bot_list(bots, players - 1)
        clean = " ".join(name.split())
        if not clean:
            raise PlayError("--name: give a name of at least one character")
        if len(clean) > MAX_NAME:
            raise PlayError(f"--name {clean!r}: use at most {MAX_NAME} characters")
        if not 0 <= delay <= MAX_DELAY:
            raise PlayError(f"--delay {delay}: give a pause from 0 to {MAX_DELAY:g} seconds")
        return cls(rules, players, tuple(names), seed, fast, record, clean, delay)

    def seat_names(self) -> tuple[str, ...]:
        """The name shown for each seat: the person's, then ``"Ada (basic)"`` and so on."""
        taken = self.name.split(" (", 1)[0].lower()
        friendly = [name for name in BOT_NAMES if name.lower() != taken]
        return (self.name, *(f"{friendly[i]} ({bot})" for i, bot in enumerate(self.bots)))

    def record_path(self, game_number: int) -> Path | None:
        """Where the ``game_number``-th game of the session (from 1) is saved: ``record`` for the
        first, ``NAME-2.EXT`` for the second and so on; ``None`` without ``record``."""
        if self.record is None:
            return None
        if game_number == 1:
            return self.record
        return self.record.with_name(f"{self.record.stem}-{game_number}{self.record.suffix}")
