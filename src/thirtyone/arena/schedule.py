"""Duplicate deals: who sits where in which game, and every seed, derived from one arena seed.

An arena of ``n`` seats plays each *deal* once per *rotation* of the bot list through the seats
(``n`` rotations), so every entry of the list sits in every seat on the same cards and the luck
of the deal cancels out. Deal ``d`` is dealt from :class:`thirtyone.sim.CounterChance` seeded
with :func:`deal_seed` ``(seed, d)`` (on the reference engine and in the compiled simulator
alike): every rotation of a deal gets the same first dealer, the same deck order in round ``r``
and the same reshuffles (as long as play leads there).

Every seed depends only on ``(seed, deal, rotation, seat)``, never on the order in which games
are played or on which process plays them, so results are the same for any number of workers.

>>> schedule = make_schedule(["basic", "random", "random"], games=7)
>>> schedule.deals, schedule.rotations, schedule.games, schedule.rounded_up
(3, 3, 9, True)
>>> [schedule.seating(rotation) for rotation in range(3)]
[('basic', 'random', 'random'), ('random', 'basic', 'random'), ('random', 'random', 'basic')]
>>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass

from thirtyone.errors import ThirtyOneError

__all__ = [
    "ArenaError",
    "GameKey",
    "Schedule",
    "make_schedule",
    "deal_seed",
    "bot_seed",
    "seating",
    "MAX_GAMES",
]

MAX_GAMES = 10_000_000
"""The most games one arena run plays."""

GameKey = tuple[int, int]
"""A game's place in the schedule: ``(deal, rotation)``, both from 0."""


class ArenaError(ThirtyOneError):
    """Bad arena arguments (bots, players, games, jobs, backend) or a backend that cannot start."""


def _derive(*key: object) -> int:
    """A 63-bit seed from a key: stable across processes, platforms and Python versions."""
    text = "thirtyone-arena/" + "/".join(map(str, key))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def deal_seed(seed: int, deal: int) -> int:
    """The :class:`~thirtyone.sim.CounterChance` seed of deal ``deal`` (the same for every rotation)."""
    return _derive(seed, "deal", deal)


def bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``(deal, rotation)``."""
    return _derive(seed, "bot", deal, rotation, seat)


def seating(bots: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot name in each seat (seat 0 first) in rotation ``rotation``: entry ``i`` of ``bots``
    sits in seat ``(i + rotation) % len(bots)``.

    >>> seating(["a", "b", "c"], 1)
    ('c', 'a', 'b')
    """
    n = len(bots)
    return tuple(bots[(seat - rotation) % n] for seat in range(n))


@dataclass(frozen=True)
class Schedule:
    """The games of an arena: ``deals`` deals, each played in ``rotations`` (= seats) seatings.

    ``bots`` is the bot list by seat for rotation 0 (names may repeat); rotation ``r`` moves entry
    ``i`` to seat ``(i + r) % seats``. ``requested`` is the number of games asked for; ``games``
    (``deals * rotations``) is that number rounded up to a multiple of the seat count.
    """

    bots: tuple[str, ...]
    requested: int
    deals: int

    @property
    def seats(self) -> int:
        """Players at the table (2–9)."""
        return len(self.bots)

    @property
    def rotations(self) -> int:
        """Seatings per deal: one per seat."""
        return len(self.bots)

    @property
    def games(self) -> int:
        """Games scheduled: ``deals * rotations``."""
        return self.deals * self.rotations

    @property
    def rounded_up(self) -> bool:
        """True when ``games`` is more than ``requested`` (rounded up to a multiple of the seats)."""
        return self.games != self.requested

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct bot names, in order of first appearance in ``bots``."""
        return tuple(dict.fromkeys(self.bots))

    def seats_held(self, name: str) -> int:
        """Seats ``name`` holds in every game."""
        return self.bots.count(name)

    def seating(self, rotation: int) -> tuple[str, ...]:
        """The bot name in each seat (seat 0 first) in rotation ``rotation``."""
        return seating(self.bots, rotation)

    def game_keys(self) -> Iterator[GameKey]:
        """Every game's ``(deal, rotation)`` in the fixed order results are counted in."""
        for deal in range(self.deals):
            for rotation in range(self.rotations):
                yield deal, rotation


def make_schedule(bots: Sequence[str], games: int) -> Schedule:
    """The schedule of at least ``games`` games of ``bots`` (one name per seat), rounded up to
    whole deals (a multiple of ``len(bots)`` games).

    Raises:
        ArenaError: for fewer than 2 seats or ``games`` outside 1 … :data:`MAX_GAMES`.
    """
    if len(bots) < 2:
        raise ArenaError(f"an arena needs at least 2 seats, not {len(bots)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ArenaError(f"--games {games}: play from 1 to {MAX_GAMES:,} games")
    deals = -(-games // len(bots))
    return Schedule(tuple(bots), games, deals)
