"""Arena statistics per bot name: wins against the fair share with a 95% Wilson interval, places,
lives, knocks, failed games, and openskill (Plackett-Luce) ratings over each game's finishing order.

Ratings are kept per *seat-player*: entry ``i`` of the bot list (the player that rotation moves
through the seats) is one openskill player, and each finished game is one Plackett-Luce match of
all of them, ranked by their places (ties share a rank). A bot name's rating is the mean ``mu`` of
its seat-players with their root-mean-square ``sigma``: the rating of one seat played by that bot.
So a name that holds more seats is neither favoured (as rating it by its best-placed seat would)
nor made to look more certain; holding three seats of four, an equal bot still rates like the
fourth.

Every number is computed from the games' results taken in ``(deal, rotation)`` order, so the same
results give the same statistics however they were played.

>>> low, high = wilson_interval(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from thirtyone.arena.play import Failure
from thirtyone.arena.play import GameResult
from thirtyone.arena.schedule import GameKey
from thirtyone.arena.schedule import Schedule
from thirtyone.totals import SeatTotals

__all__ = [
    "Z95",
    "KEEP_FAILURES",
    "wilson_interval",
    "Rating",
    "pooled_rating",
    "WinRecord",
    "BotStats",
    "Summary",
    "Tally",
    "summarize",
]

KEEP_FAILURES = 1000
"""Failures a :class:`Summary` keeps in detail (all are counted)."""

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of a proportion ``successes / trials`` (95% for the
    default ``z``); ``(0.0, 1.0)`` when there are no trials.

    The arena's games are not independent (the rotations of a deal share its cards, which makes
    the interval conservative for comparing bots): read it as a guide, not an exact test.

    Raises:
        ValueError: unless ``0 <= successes <= trials``.

    >>> wilson_interval(0, 10)[1] == Z95**2 / (10 + Z95**2)
    True
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"wilson_interval: {successes} successes in {trials} trials is impossible")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Rating:
    """An openskill rating: ``mu`` (skill), ``sigma`` (its uncertainty) and ``ordinal``
    (``mu - 3 * sigma``, a conservative skill to rank by). A new bot starts at 25 ± 8.33."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma


def pooled_rating(ratings: Sequence[Rating]) -> Rating:
    """One bot name's rating from the ratings of its seat-players: their mean ``mu`` and their
    root-mean-square ``sigma`` (one seat's uncertainty, not shrunk by the number of seats).

    Raises:
        ValueError: for no ratings.

    >>> pooled_rating([Rating(24.0, 1.0), Rating(26.0, 1.0)])
    Rating(mu=25.0, sigma=1.0)
    """
    if not ratings:
        raise ValueError("pooled_rating: no ratings to pool")
    mu = math.fsum(rating.mu for rating in ratings) / len(ratings)
    sigma = math.sqrt(math.fsum(rating.sigma**2 for rating in ratings) / len(ratings))
    return Rating(mu, sigma)


class WinRecord:
    """What a bot's totals say of its wins and lives, for a class with ``wins`` and ``games``
    (finished games), ``lives_lost`` and ``rounds_played`` (rounds its seats were dealt in)."""

    wins: int
    games: int
    lives_lost: int
    rounds_played: int

    @property
    def win_share(self) -> float:
        """``wins / games`` (0 when no game finished)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_share`."""
        return wilson_interval(self.wins, self.games)

    @property
    def lives_per_round(self) -> float:
        """Lives lost per round played (a seat plays a round when it is dealt in)."""
        return self.lives_lost / self.rounds_played if self.rounds_played else 0.0


@dataclass(frozen=True)
class BotStats(WinRecord):
    """One bot name's totals over the finished games of an arena.

    ``seats`` is the seats the name holds at every table, ``games`` the finished games (every bot
    plays in each), ``wins`` the games one of its seats won, ``seat_games`` ``seats * games``;
    ``place_sum`` sums its seats' places (1 = won), ``rounds_played`` the rounds its seats were
    dealt in, ``lives_lost`` the lives they lost, ``knocks`` their knocks and ``knocks_lost`` the
    knocks that cost the knocker lives. ``failed`` counts the games this bot failed (not in
    ``games``); ``fair_share`` is ``seats / players``, the win share of an equally strong bot.
    ``rating`` pools ``seat_ratings``, the ratings of its seat-players (its entries of the bot
    list, in list order; see :func:`pooled_rating`).
    """

    name: str
    seats: int
    players: int
    games: int
    wins: int
    seat_games: int
    place_sum: int
    rounds_played: int
    lives_lost: int
    knocks: int
    knocks_lost: int
    failed: int
    rating: Rating
    seat_ratings: tuple[Rating, ...] = ()

    @property
    def fair_share(self) -> float:
        """``seats / players``: the share of wins of a bot no better than the others."""
        return self.seats / self.players

    @property
    def mean_place(self) -> float:
        """Mean finishing place of its seats (1 = won; 0 when no game finished)."""
        return self.place_sum / self.seat_games if self.seat_games else 0.0

    @property
    def knock_loss_share(self) -> float:
        """Share of its knocks that cost it lives (0 when it never knocked)."""
        return self.knocks_lost / self.knocks if self.knocks else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON and CSV (keys in a fixed order)."""
        low, high = self.win_interval
        return {
            "bot": self.name,
            "seats": self.seats,
            "games": self.games,
            "wins": self.wins,
            "win_share": self.win_share,
            "win_share_low": low,
            "win_share_high": high,
            "fair_share": self.fair_share,
            "mean_place": self.mean_place,
            "rounds_played": self.rounds_played,
            "lives_lost": self.lives_lost,
            "lives_per_round": self.lives_per_round,
            "knocks": self.knocks,
            "knocks_lost": self.knocks_lost,
            "knock_loss_share": self.knock_loss_share,
            "failed": self.failed,
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "ordinal": self.rating.ordinal,
        }


@dataclass(frozen=True)
class Summary:
    """What an arena found: ``bots`` (one :class:`BotStats` per distinct name, best ordinal first),
    the ``finished`` and ``failed`` game counts, and ``failures`` (``(deal, rotation)`` and what
    failed, in that order; the first :data:`KEEP_FAILURES`). ``partial`` is true when not every
    scheduled game was played.

    Ratings: each finished game is one openskill Plackett-Luce match of the seat-players (one per
    entry of the bot list, ranked by their places; ties share a rank), and a name's rating pools
    those of its seat-players (:func:`pooled_rating`); with one name they stay at 25 ± 8.33."""

    schedule: Schedule
    bots: tuple[BotStats, ...]
    finished: int
    failed: int
    failures: tuple[tuple[GameKey, Failure], ...]
    partial: bool

    @property
    def played(self) -> int:
        """Games played: finished plus failed."""
        return self.finished + self.failed


class Tally:
    """Running totals of an arena's results, fed in ``(deal, rotation)`` order with :meth:`add`.

    Each bot name's results are one :class:`~thirtyone.totals.SeatTotals` over the seats it
    held (``seat`` -1: rotation moves a name through the seats), its failed games a count beside
    it. Keeps the first :data:`KEEP_FAILURES` failures (with their records) and counts all of them.
    """

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.finished = 0
        self.failed = 0
        self.failures: list[tuple[GameKey, Failure]] = []
        self._totals = {name: SeatTotals(-1, name) for name in schedule.names}
        self._failed: Counter[str] = Counter()
        self._model = PlackettLuce()
        self._rated = len(schedule.names) >= 2
        self._ratings = [self._model.rating(name=f"{name}#{entry}") for entry, name in enumerate(schedule.bots)]
        """One openskill rating per seat-player: entry ``i`` of ``schedule.bots``."""

    def add(self, result: GameResult) -> None:
        """Count one game (the next in ``(deal, rotation)`` order: ratings depend on the order)."""
        if result.failure is not None:
            self.failed += 1
            self._failed[result.failure.bot] += 1
            if len(self.failures) < KEEP_FAILURES:
                self.failures.append((result.key, result.failure))
            return
        if result.places is None or result.winner is None:
            raise ValueError(f"game {result.key} is neither finished nor failed")
        self.finished += 1
        for seat, name in enumerate(result.bots):
            self._totals[name].add(
                result.places[seat],
                won=seat == result.winner,
                rounds_played=result.rounds_played[seat],
                lives_lost=result.lives_lost[seat],
                knocks=result.knocks[seat],
                knocks_lost=result.knocks_lost[seat],
            )
        if self._rated:
            n = self.schedule.seats
            # rotation r sits entry e in seat (e + r) % n (see schedule.seating)
            ranks: list[float] = [result.places[(entry + result.rotation) % n] for entry in range(n)]
            new = self._model.rate([[rating] for rating in self._ratings], ranks=ranks)
            self._ratings = [team[0] for team in new]

    def summary(self, partial: bool | None = None) -> Summary:
        """The statistics so far; ``partial`` defaults to "fewer games than scheduled"."""
        schedule = self.schedule
        bots = []
        for name in schedule.names:
            totals = self._totals[name]
            seat_ratings = tuple(
                Rating(rating.mu, rating.sigma)
                for rating, entry in zip(self._ratings, schedule.bots, strict=True)
                if entry == name
            )
            bots.append(
                BotStats(
                    name=name,
                    seats=schedule.seats_held(name),
                    players=schedule.seats,
                    games=self.finished,
                    wins=totals.wins,
                    seat_games=schedule.seats_held(name) * self.finished,
                    place_sum=totals.place_sum,
                    rounds_played=totals.rounds_played,
                    lives_lost=totals.lives_lost,
                    knocks=totals.knocks,
                    knocks_lost=totals.knocks_lost,
                    failed=self._failed[name],
                    rating=pooled_rating(seat_ratings),
                    seat_ratings=seat_ratings,
                )
            )
        bots.sort(key=lambda bot: (-bot.rating.ordinal, -bot.win_share, bot.name))
        played = self.finished + self.failed
        return Summary(
            schedule=schedule,
            bots=tuple(bots),
            finished=self.finished,
            failed=self.failed,
            failures=tuple(self.failures),
            partial=played < schedule.games if partial is None else partial,
        )


def summarize(schedule: Schedule, results: Iterable[GameResult]) -> Summary:
    """The statistics of ``results`` (any order: they are sorted by ``(deal, rotation)`` here) of ``schedule``.

    Failed games count only in the failing bot's ``failed`` and in ``failures``.
    """
    tally = Tally(schedule)
    for result in sorted(results, key=lambda result: result.key):
        tally.add(result)
    return tally.summary()
