"""Arena statistics per bot name: wins against the fair share with a 95% Wilson interval, places,
lives, knocks, failed games, and openskill (Plackett-Luce) ratings over each game's finishing order.

Every number is computed from the games' results taken in ``(deal, rotation)`` order, so the same
results give the same statistics however they were played.

>>> low, high = wilson_interval(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from thirtyone.arena.play import Failure, GameResult
from thirtyone.arena.schedule import GameKey, Schedule

__all__ = ["Z95", "KEEP_FAILURES", "wilson_interval", "Rating", "BotStats", "Summary", "Tally", "summarize"]

KEEP_FAILURES = 1000
"""Failures a :class:`Summary` keeps in detail (all are counted)."""

_COUNTS = ("wins", "place_sum", "rounds_played", "lives_lost", "knocks", "knocks_lost", "failed")

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


@dataclass(frozen=True)
class BotStats:
    """One bot name's totals over the finished games of an arena.

    ``seats`` is the seats the name holds at every table, ``games`` the finished games (every bot
    plays in each), ``wins`` the games one of its seats won, ``seat_games`` ``seats * games``;
    ``place_sum`` sums its seats' places (1 = won), ``rounds_played`` the rounds its seats were
    dealt in, ``lives_lost`` the lives they lost, ``knocks`` their knocks and ``knocks_lost`` the
    knocks that cost the knocker lives. ``failed`` counts the games this bot failed (not in
    ``games``); ``fair_share`` is ``seats / players``, the win share of an equally strong bot.
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

    @property
    def fair_share(self) -> float:
        """``seats / players``: the share of wins of a bot no better than the others."""
        return self.seats / self.players

    @property
    def win_share(self) -> float:
        """``wins / games`` (0 when no game finished)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_share`."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_place(self) -> float:
        """Mean finishing place of its seats (1 = won; 0 when no game finished)."""
        return self.place_sum / self.seat_games if self.seat_games else 0.0

    @property
    def lives_per_round(self) -> float:
        """Lives lost per round played (a seat plays a round when it is dealt in)."""
        return self.lives_lost / self.rounds_played if self.rounds_played else 0.0

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

    Ratings: each finished game is one openskill Plackett-Luce match with a team per distinct bot
    name, ranked by its best-placed seat (ties share a rank); with one name they stay at 25 ± 8.33."""

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

    Keeps the first :data:`KEEP_FAILURES` failures (with their records) and counts all of them.
    """

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.finished = 0
        self.failed = 0
        self.failures: list[tuple[GameKey, Failure]] = []
        self._totals: dict[str, dict[str, int]] = {name: dict.fromkeys(_COUNTS, 0) for name in schedule.names}
        self._model = PlackettLuce()
        self._ratings = {name: self._model.rating(name=name) for name in schedule.names}

    def add(self, result: GameResult) -> None:
        """Count one game (the next in ``(deal, rotation)`` order: ratings depend on the order)."""
        if result.failure is not None:
            self.failed += 1
            self._totals[result.failure.bot]["failed"] += 1
            if len(self.failures) < KEEP_FAILURES:
                self.failures.append((result.key, result.failure))
            return
        if result.places is None or result.winner is None:
            raise ValueError(f"game {result.key} is neither finished nor failed")
        self.finished += 1
        self._totals[result.bots[result.winner]]["wins"] += 1
        best: dict[str, int] = {}
        for seat, name in enumerate(result.bots):
            total = self._totals[name]
            place = result.places[seat]
            total["place_sum"] += place
            total["rounds_played"] += result.rounds_played[seat]
            total["lives_lost"] += result.lives_lost[seat]
            total["knocks"] += result.knocks[seat]
            total["knocks_lost"] += result.knocks_lost[seat]
            best[name] = min(place, best.get(name, place))
        if len(self._ratings) >= 2:
            names = list(self._ratings)
            new = self._model.rate([[self._ratings[name]] for name in names], ranks=[best[name] for name in names])
            self._ratings = {name: team[0] for name, team in zip(names, new, strict=True)}

    def summary(self, partial: bool | None = None) -> Summary:
        """The statistics so far; ``partial`` defaults to "fewer games than scheduled"."""
        schedule = self.schedule
        bots = [
            BotStats(
                name=name,
                seats=schedule.seats_held(name),
                players=schedule.seats,
                games=self.finished,
                seat_games=schedule.seats_held(name) * self.finished,
                rating=Rating(self._ratings[name].mu, self._ratings[name].sigma),
                **self._totals[name],
            )
            for name in schedule.names
        ]
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
