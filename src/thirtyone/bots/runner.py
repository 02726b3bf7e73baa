"""Playing whole games with bots in every seat, and the statistics of many such games.

>>> from thirtyone.rules import Rules
>>> stats = simulate(Rules.preset("scat"), ["basic", "random", "random"], games=5, seed=1)
>>> stats.games, sum(seat.wins for seat in stats.seats)
(5, 5)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from thirtyone.actions import Action, Knock
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.turn import BotFailure, choose, play_turn
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError, ThirtyOneError
from thirtyone.events import Acted, RoundEnded
from thirtyone.rules import Rules
from thirtyone.settlement import loss_label
from thirtyone.views import PlayerView

__all__ = [
    "play_game",
    "bot_action",
    "simulate",
    "game_seeds",
    "iter_game_seeds",
    "BotError",
    "SeatStats",
    "SimulationStats",
]


class BotError(ThirtyOneError):
    """A bot returned an action that is not legal, or raised."""


def play_game(rules: Rules, bots: Sequence[Bot], seed: int | None = None) -> Game:
    """Play one game to the end with ``bots[seat]`` in each seat and return it.

    ``bots`` are bots, not their names: make them with :func:`~thirtyone.bots.make_bot`
    (``make_bot("basic", seed=1)``), or let :func:`simulate` make and seed them from names.

    Raises:
        ArgumentError: for ``bots`` that is not a list of bots (a name, say), or a seed that is
            not a whole number.
        RulesError: when the rules cannot be dealt to ``len(bots)`` players.
        BotError: when a bot raises or returns an illegal action (names the bot, seat and action).
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ArgumentError(f'bots is a list of bots, one a seat ([make_bot("basic"), ...]), not {bots!r}')
    for index, bot in enumerate(bots):
        if isinstance(bot, str):
            raise ArgumentError(f"bots[{index}] is the name {bot!r}, not a bot: pass make_bot({bot!r}) instead")
        if not hasattr(bot, "name") or not callable(getattr(bot, "choose", None)):
            raise ArgumentError(
                f'bots[{index}] is {bot!r}, not a bot (a name and a choose method): pass make_bot("basic") or such'
            )
    game = Game(rules, len(bots), seed=seed)
    while (seat := game.current_seat) is not None:  # None once the game is over (chance is taken at once)
        failure = play_turn(game, bots[seat])
        if failure is not None:
            raise BotError(str(failure)) from failure.error
    return game


def bot_action(bot: Bot, view: PlayerView) -> Action:
    """What ``bot`` plays in the seat of ``view``, checked (:func:`thirtyone.bots.turn.choose`).

    Raises:
        BotError: when the bot raises or returns an action that is not legal (names the bot, the
            seat and the action).
    """
    action = choose(bot, view)
    if isinstance(action, BotFailure):
        raise BotError(str(action)) from action.error
    return action


def game_seeds(seed: int | None, games: int) -> list[int]:
    """The seed of each of ``games`` games derived from one ``seed`` (same seed, same list)."""
    return list(itertools.islice(iter_game_seeds(seed), games))


def iter_game_seeds(seed: int | None) -> Iterator[int]:
    """The seeds of :func:`game_seeds`, one at a time and without end: a run of millions of games
    need not hold them all (``islice(iter_game_seeds(seed), games)``)."""
    rng = random.Random(seed)
    while True:
        yield rng.getrandbits(63)


@dataclass
class SeatStats:
    """One seat's results over many games: wins, places (place → games), knocks and lives."""

    seat: int
    bot: str
    wins: int = 0
    places: Counter[int] = field(default_factory=Counter)
    knocks: int = 0
    knocks_lost: int = 0
    lives_lost: int = 0

    @property
    def mean_place(self) -> float:
        """Mean finishing place (1 = won)."""
        total = sum(self.places.values())
        return sum(place * count for place, count in self.places.items()) / total if total else 0.0


@dataclass
class SimulationStats:
    """Totals of many games with the same rules and bots."""

    rules: Rules
    bots: list[str]
    games: int = 0
    rounds: int = 0
    turns: int = 0
    knocks: int = 0
    blitzes: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    lives_by_rule: Counter[str] = field(default_factory=Counter)
    seats: list[SeatStats] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatStats(seat, bot) for seat, bot in enumerate(self.bots)]

    def add(self, game: Game) -> None:
        """Count one finished game."""
        self.games += 1
        self.rounds += game.round
        for standing in game.standings:
            self.seats[standing.seat].places[standing.place] += 1
        if game.winner is not None:
            self.seats[game.winner].wins += 1
        for event in game.events:
            if isinstance(event, Acted) and isinstance(event.action, Knock):
                self.knocks += 1
                self.seats[event.seat].knocks += 1
            elif isinstance(event, RoundEnded):
                result = event.result
                self.turns += result.turns
                self.ends[result.end] += 1
                if result.end in ("blitz", "dealt_blitz"):
                    self.blitzes += 1
                for loss in result.losses:
                    self.lives_by_rule[loss_label(loss.kind)] += loss.lives
                    self.seats[loss.seat].lives_lost += loss.lives
                    if loss.seat == result.knocker and result.end in ("knock", "blitz"):  # R6.5, R5.3
                        self.seats[loss.seat].knocks_lost += 1

    def by_bot(self) -> dict[str, SeatStats]:
        """The seats' results summed per bot name (``seat`` is -1)."""
        totals: dict[str, SeatStats] = {}
        for seat in self.seats:
            total = totals.setdefault(seat.bot, SeatStats(-1, seat.bot))
            total.wins += seat.wins
            total.places.update(seat.places)
            total.knocks += seat.knocks
            total.knocks_lost += seat.knocks_lost
            total.lives_lost += seat.lives_lost
        return totals

    def seats_of(self, bot: str) -> list[int]:
        """The seats ``bot`` played."""
        return [seat.seat for seat in self.seats if seat.bot == bot]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""

        def seat_dict(seat: SeatStats) -> dict[str, Any]:
            where = {"seat": seat.seat} if seat.seat >= 0 else {"seats": self.seats_of(seat.bot)}
            return {
                **where,
                "bot": seat.bot,
                "wins": seat.wins,
                "win_share": seat.wins / self.games if self.games else 0.0,
                "mean_place": seat.mean_place,
                "places": {str(place): seat.places[place] for place in range(1, len(self.bots) + 1)},
                "knocks": seat.knocks,
                "knocks_that_lost_lives": seat.knocks_lost,
                "lives_lost": seat.lives_lost,
            }

        return {
            "rules": self.rules.describe(),
            "players": len(self.bots),
            "games": self.games,
            "rounds": self.rounds,
            "rounds_per_game": self.rounds / self.games if self.games else 0.0,
            "turns_per_round": self.turns / self.rounds if self.rounds else 0.0,
            "knocks": self.knocks,
            "blitzes": self.blitzes,
            "round_ends": dict(sorted(self.ends.items())),
            "lives_lost_by_rule": dict(sorted(self.lives_by_rule.items())),
            "seats": [seat_dict(seat) for seat in self.seats],
            "bots": [seat_dict(seat) for seat in self.by_bot().values()],
        }


def simulate(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    on_game: Callable[[int, Game], None] | None = None,
) -> SimulationStats:
    """Play ``games`` games with the named bots (seat ``i`` plays ``bots[i]``) and total them.

    Game ``g`` uses the ``g``-th of :func:`game_seeds`; its bots are seeded from it too, so the
    same arguments always give the same statistics. ``on_game(index, game)`` is called after
    each game (for progress bars and records).

    Raises:
        UnknownBotError: for an unknown bot name.
        RulesError: when the rules cannot be dealt to ``len(bots)`` players.
        BotError: when a bot fails.
    """
    rules.check_players(len(bots))
    for name in bots:
        make_bot(name)
    stats = SimulationStats(rules, list(bots))
    for index, game_seed in enumerate(game_seeds(seed, games)):
        players = [make_bot(name, game_seed + seat + 1) for seat, name in enumerate(bots)]
        game = play_game(rules, players, seed=game_seed)
        stats.add(game)
        if on_game is not None:
            on_game(index, game)
    return stats
