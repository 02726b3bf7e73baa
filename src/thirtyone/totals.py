"""Totals of many finished games with the same rules and bots: one type for ``thirtyone simulate``
(games of the reference engine, :meth:`GameTotals.add_game`, and of the compiled simulator,
:func:`thirtyone.sim.add_batch`) and for the arena's per-bot counts (:class:`SeatTotals`).

Numpy-free, so that it imports wherever the engine does. Counts are whole numbers: games, rounds,
turns, actions, knocks, lives; places run from 1 (won) to the number of players.

>>> from thirtyone.engine import Game
>>> from thirtyone.rules import Rules
>>> rules = Rules.preset("scat")
>>> totals = GameTotals(rules, ("basic", "random", "basic"))
>>> game = Game(rules, 3, seed=1)
>>> while game.current_seat is not None:
...     _ = game.apply(next(iter(game.legal_actions())))
>>> totals.add_game(game)
>>> totals.games, sum(seat.wins for seat in totals.seats), sorted(totals.by_bot())
(1, 1, ['basic', 'random'])
>>> totals.by_bot()["basic"].games, totals.seats_of("basic")
(2, [0, 2])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from thirtyone.actions import Knock
from thirtyone.engine import Game
from thirtyone.events import Acted
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.rules import Rules
from thirtyone.settlement import loss_label

__all__ = ["SeatTotals", "GameTotals"]


@dataclass
class SeatTotals:
    """One seat's results over many finished games, or one bot's over the seats it held (``seat``
    is then -1).

    ``wins`` counts the games it won, ``places`` its finishing places (place → games; 1 = won,
    seats put out by the same round share a place), ``knocks`` its knocks and ``knocks_lost``
    those after which the showdown (or the blitz that answered it) cost it lives (R6.5, R5.3),
    ``lives_lost`` the lives the rules charged it and ``rounds_played`` the rounds it was dealt in.
    """

    seat: int
    bot: str
    wins: int = 0
    places: Counter[int] = field(default_factory=Counter)
    knocks: int = 0
    knocks_lost: int = 0
    lives_lost: int = 0
    rounds_played: int = 0

    @property
    def games(self) -> int:
        """Games counted (a bot's total counts each of its seats' games)."""
        return sum(self.places.values())

    @property
    def place_sum(self) -> int:
        """The sum of its places over the games counted."""
        return sum(place * count for place, count in self.places.items())

    @property
    def mean_place(self) -> float:
        """Mean finishing place (1 = won; 0.0 before any game)."""
        games = self.games
        return self.place_sum / games if games else 0.0

    def add(self, place: int, *, won: bool, rounds_played: int, lives_lost: int, knocks: int, knocks_lost: int) -> None:
        """Count one finished game of this seat: its ``place`` (1 = won), whether it ``won`` and its counts.

        Raises:
            ValueError: for a place below 1 or a negative count.
        """
        if place < 1 or min(rounds_played, lives_lost, knocks, knocks_lost) < 0:
            raise ValueError(
                f"SeatTotals.add: place {place} and counts {rounds_played, lives_lost, knocks, knocks_lost}: "
                "a place is 1 or more and counts are not negative"
            )
        self.wins += int(won)
        self.places[place] += 1
        self.rounds_played += rounds_played
        self.lives_lost += lives_lost
        self.knocks += knocks
        self.knocks_lost += knocks_lost

    def merge(self, other: SeatTotals) -> None:
        """Add ``other``'s counts to these (``seat`` and ``bot`` stay these)."""
        self.wins += other.wins
        self.places.update(other.places)
        self.knocks += other.knocks
        self.knocks_lost += other.knocks_lost
        self.lives_lost += other.lives_lost
        self.rounds_played += other.rounds_played


@dataclass
class GameTotals:
    """Totals of many finished games of ``rules`` with ``bots[seat]`` in each seat; memory does
    not grow with the games added.

    ``games`` counts the games, ``rounds`` their rounds, ``turns`` the completed turns of those
    rounds (R6.7), ``actions`` the moves played, ``knocks`` the knocks, ``blitzes`` the rounds that
    ended in a blitz (dealt or played), ``ends`` rounds by how they ended (``RoundResult.end``:
    ``"knock"``, ``"dealt_blitz"``, …), ``lives_by_rule`` lives lost by rule
    (:func:`thirtyone.settlement.loss_label`: ``"R6.5 lowest"``); ``seats`` has one
    :class:`SeatTotals` a seat. Add engine games with :meth:`add_game`, the simulator's
    ``GameBatch`` es with :func:`thirtyone.sim.add_batch`, other totals with :meth:`merge`.
    """

    rules: Rules
    bots: tuple[str, ...]
    games: int = 0
    rounds: int = 0
    turns: int = 0
    actions: int = 0
    knocks: int = 0
    blitzes: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    lives_by_rule: Counter[str] = field(default_factory=Counter)
    seats: list[SeatTotals] = field(init=False)

    def __post_init__(self) -> None:
        self.bots = tuple(self.bots)
        self.seats = [SeatTotals(seat, bot) for seat, bot in enumerate(self.bots)]

    def add_game(self, game: Game) -> None:
        """Count one finished engine game, played with these rules and ``len(bots)`` players.

        Raises:
            ValueError: for a game that is not over, or one of other rules or another number of players.
        """
        if game.rules != self.rules or game.players != len(self.bots):
            raise ValueError(
                f"GameTotals.add_game: a game of {game.rules.describe()} with {game.players} players "
                f"added to totals of {self.rules.describe()} with {len(self.bots)}"
            )
        if game.winner is None:
            raise ValueError("GameTotals.add_game: the game is not over")
        self.games += 1
        self.rounds += game.round
        seats = self.seats
        for standing in game.standings:
            seats[standing.seat].places[standing.place] += 1
        seats[game.winner].wins += 1
        for event in game.events:
            if isinstance(event, Acted):
                self.actions += 1
                if isinstance(event.action, Knock):
                    self.knocks += 1
                    seats[event.seat].knocks += 1
            elif isinstance(event, RoundStarted):
                for seat in event.seats:
                    seats[seat].rounds_played += 1
            elif isinstance(event, RoundEnded):
                result = event.result
                self.turns += result.turns
                self.ends[result.end] += 1
                if result.end in ("blitz", "dealt_blitz"):
                    self.blitzes += 1
                for loss in result.losses:
                    self.lives_by_rule[loss_label(loss.kind)] += loss.lives
                    seats[loss.seat].lives_lost += loss.lives
                    if loss.seat == result.knocker and result.end in ("knock", "blitz"):  # R6.5, R5.3
                        seats[loss.seat].knocks_lost += 1

    def merge(self, other: GameTotals) -> None:
        """Add ``other``'s totals (of the same rules and bots) to these.

        Raises:
            ValueError: when ``other`` counts other rules or other bots.
        """
        if other.rules != self.rules or other.bots != self.bots:
            raise ValueError(
                f"GameTotals.merge: totals of {other.rules.describe()} with {', '.join(other.bots)} "
                f"cannot join those of {self.rules.describe()} with {', '.join(self.bots)}"
            )
        self.games += other.games
        self.rounds += other.rounds
        self.turns += other.turns
        self.actions += other.actions
        self.knocks += other.knocks
        self.blitzes += other.blitzes
        self.ends.update(other.ends)
        self.lives_by_rule.update(other.lives_by_rule)
        for mine, theirs in zip(self.seats, other.seats, strict=True):
            mine.merge(theirs)

    def by_bot(self) -> dict[str, SeatTotals]:
        """The seats' results summed per bot name (``seat`` is -1), in the order of their first seats."""
        totals: dict[str, SeatTotals] = {}
        for seat in self.seats:
            totals.setdefault(seat.bot, SeatTotals(-1, seat.bot)).merge(seat)
        return totals

    def seats_of(self, bot: str) -> list[int]:
        """The seats ``bot`` played (empty for a name that played none)."""
        return [seat.seat for seat in self.seats if seat.bot == bot]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (the keys of ``thirtyone simulate --json``): the rules, the totals,
        the means (rounds a game, turns a round; 0.0 before any game), and one entry a seat
        (``seats``) and a bot (``bots``, with the ``seats`` it played)."""

        def seat_dict(seat: SeatTotals) -> dict[str, Any]:
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
