"""What play says, measured by playing: a knock's chance of costing the knocker a life by its hand
and turn (:class:`KnockTable`, from the simulator's rounds or from a bot's on the engine), the
visible card against the hidden one (:class:`DrawTable`: the discard pile's top card against a
stock draw, or the best exchange with the widow against a pass), and the seats and the length of
play (:class:`SeatTable`). Every figure is simulated and carries its 95% interval.

A knock's turn is the knocker's own: 1 is its first turn of the round. The simulator reports a
round's completed turns and who knocked, not when; :func:`knocks_of_rounds` works the knock's turn
out from them (R6.2: after a knock each other player has exactly one more turn).

>>> import numpy as np
>>> rows, turns = knocks_of_rounds(4, 0, knocked=[2, -1, 1], turns=[5, 9, 12], thrown=[False, False, False])
>>> rows.tolist(), turns.tolist()    # seat 2 knocked on turn 1 (its 1st), seat 1 on turn 8 (its 3rd)
([0, 2], [1, 3])
>>> table = KnockTable().plus(3, halves=[50, 61], turns=[1, 3], lost=[0, 2])
>>> table.share().to_dict()["share"], table.share(value=30).hits, int(table.lives.sum())
(0.5, 1, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.actions import PILE
from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Knock
from thirtyone.actions import Pass
from thirtyone.arena.odds_measures import Mean
from thirtyone.arena.odds_measures import Share
from thirtyone.arena.odds_measures import points
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.hands import best_with
from thirtyone.bots.hands import half_value
from thirtyone.bots.hands import stock_draw_value
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.runner import BotError
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import play_turn
from thirtyone.engine import Game
from thirtyone.position import Position
from thirtyone.rules import Rules
from thirtyone.scoring import half_points
from thirtyone.table_loop import play_out
from thirtyone.views import Phase

__all__ = [
    "TURNS",
    "WORLDS",
    "GAINS",
    "KnockTable",
    "knocks_of_rounds",
    "expert_first_round",
    "seat_bots",
    "DrawTable",
    "Decision",
    "draw_positions",
    "value_draws",
    "SeatTable",
]

TURNS = 8
"""Columns of a knock table: the knocker's own turns 1 to 7, and 8 or later."""
_VALUES = 34  # rows of a knock table: whole points 0 to 33 (30½ counts as 30)

WORLDS = 8
"""Stock orders each position of a :class:`DrawTable` is played out in, with each of its two moves."""

GAINS = (-20, 21)
"""The gains in points a :class:`DrawTable` keeps apart, ``low`` to ``high - 1``; the ends collect
the gains beyond them."""

_EMPTY_GAMES = 1000  # games in a row without a decision of the draws after which draw_positions stops

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def _zeros() -> IntArray:
    return np.zeros((_VALUES, TURNS), dtype=np.int64)


@dataclass(frozen=True)
class KnockTable:
    """Knocks over ``rounds`` rounds, by the knocker's hand in whole points (row; 30½ counts as 30)
    and its own turn (column 0 is its first turn; the last, :data:`TURNS` and later), as ``[34,
    TURNS]`` arrays: ``knocks``, ``costly`` (those that cost the knocker at least one life: R6.5's
    knocker rules, or a 31 made on a last turn, R5.3) and ``lives`` (the lives they cost it)."""

    rounds: int = 0
    knocks: IntArray = field(default_factory=_zeros)
    costly: IntArray = field(default_factory=_zeros)
    lives: IntArray = field(default_factory=_zeros)

    def plus(self, rounds: int, halves: npt.ArrayLike, turns: npt.ArrayLike, lost: npt.ArrayLike) -> KnockTable:
        """This table with ``rounds`` more rounds and their knocks, one entry a knock: the
        knocker's hand (half points), its own turn (1 = its first) and the lives it lost."""
        value = np.clip(np.asarray(halves, dtype=np.int64) // 2, 0, _VALUES - 1)
        turn = np.clip(np.asarray(turns, dtype=np.int64), 1, TURNS) - 1
        lost_array = np.asarray(lost, dtype=np.int64)
        cell = value * TURNS + turn

        def count(weights: IntArray | None) -> IntArray:
            found = np.bincount(cell, weights=weights, minlength=_VALUES * TURNS)
            return found.astype(np.int64).reshape(_VALUES, TURNS)

        return KnockTable(
            self.rounds + rounds,
            self.knocks + count(None),
            self.costly + count((lost_array > 0).astype(np.int64)),
            self.lives + count(lost_array),
        )

    def share(self, value: int | None = None, turn: int | None = None) -> Share:
        """The knocks that cost a life among those at ``value`` points and own turn ``turn`` (1 to
        :data:`TURNS`, the last meaning that turn or later); ``None`` takes every value or turn."""
        rows = slice(None) if value is None else slice(value, value + 1)
        columns = slice(None) if turn is None else slice(turn - 1, turn)
        return Share(int(self.costly[rows, columns].sum()), int(self.knocks[rows, columns].sum()))

    def values(self) -> list[int]:
        """The hand values (points) someone knocked with, lowest first."""
        return [int(value) for value in np.flatnonzero(self.knocks.sum(axis=1))]

    def to_dict(self, how: str) -> dict[str, Any]:
        """Plain data: every cell with knocks, then the shares by value and by turn; ``how`` says
        who played and how."""
        cells = []
        for value in self.values():
            for turn in range(1, TURNS + 1):
                if self.knocks[value, turn - 1]:
                    lives = int(self.lives[value, turn - 1])
                    cells.append({"value": value, "turn": turn, **self.share(value, turn).to_dict(), "lives": lives})
        return {
            "method": "simulated",
            "how": how,
            "rounds": self.rounds,
            "knocks": int(self.knocks.sum()),
            "costly": self.share().to_dict(),
            "turns": f"the knocker's own turn, 1 = its first; {TURNS} = that turn or later",
            "cells": cells,
            "by_value": [{"value": value, **self.share(value=value).to_dict()} for value in self.values()],
            "by_turn": [
                {"turn": turn, **self.share(turn=turn).to_dict()}
                for turn in range(1, TURNS + 1)
                if self.knocks[:, turn - 1].any()
            ],
        }


def knocks_of_rounds(
    players: int, dealers: npt.ArrayLike, knocked: npt.ArrayLike, turns: npt.ArrayLike, thrown: npt.ArrayLike
) -> tuple[IntArray, IntArray]:
    """Which rounds of a :class:`~thirtyone.sim.RoundBatch` played by a full table (every seat in)
    had a knock, and the knocker's own turn in each (1 = its first): ``(rows, own_turns)``.

    ``dealers``, ``knocked`` (the seat that knocked, ``-1`` for none), ``turns`` (completed turns)
    and ``thrown`` (the rounds a throw-down ended: no knock, R6.6) are one value a round (or one
    dealer for all). Turn ``t`` (counted from 0) is played by the seat ``t`` places after the
    dealer's left, and the knock is a turn after which each other player has one more (R6.2), so
    it is the one turn among the round's last ``players`` that falls to the knocker's seat. That
    holds when the round ended early too (a 31 on a last turn, R5.3; an empty stock, R4.3; the
    turn limit, R6.7): it ended within those last turns.
    """
    dealer = np.asarray(dealers, dtype=np.int64)
    seat = np.asarray(knocked, dtype=np.int64)
    done = np.asarray(turns, dtype=np.int64)
    rows = np.flatnonzero((seat >= 0) & ~np.asarray(thrown, dtype=bool))
    offset = (seat[rows] - np.broadcast_to(dealer, seat.shape)[rows] - 1) % players
    first = done[rows] - players
    turn = first + (offset - first) % players
    return rows, turn // players + 1


def seat_bots(name: str, rules: Rules, players: int) -> Callable[[int], Bot]:
    """The bot ``name`` made from a seed, for one seat of each round of a table of ``players`` of
    ``rules``: ``make_bot(name, seed)``, but a judge's weights are read once (the network that
    plays this table, :meth:`~thirtyone.bots.judge.JudgeBot.judge_for`), not for every seat.

    Raises:
        UnknownBotError, ThirtyOneError: for a bad name, or weights the judge cannot read.
    """
    from thirtyone.bots.judge import JudgeBot

    bot = make_bot(name, 0)
    if isinstance(bot, JudgeBot):
        net = bot.judge_for(rules, players)
        return lambda seed: JudgeBot(seed, bot.greedy, net)
    return lambda seed: make_bot(name, seed)


def expert_first_round(
    rules: Rules, players: int, expert: str | Callable[[int], Bot], seed: int
) -> tuple[int, int, int] | None:
    """Play the first round of the game ``Game(rules, players, chance=CounterChance(seed))`` deals,
    with ``make_bot(expert, seed + seat + 1)`` in every seat (``expert(seed + seat + 1)`` where it
    makes the bot, :func:`seat_bots`; each bot's turn as everywhere,
    :func:`~thirtyone.bots.turn.play_turn`), and return its knock as ``(half points of the
    knocker's hand, its own turn, lives it lost)``, or ``None`` when nobody knocked.

    Raises:
        BotError: when a bot fails (raises, or chooses a move that is not legal).
    """
    from thirtyone.sim import CounterChance

    make = seat_bots(expert, rules, players) if isinstance(expert, str) else expert
    bots = [make(seed + seat + 1) for seat in range(players)]
    game = Game(rules, players, chance=CounterChance(seed))
    log = game.round_logs[0]
    knocks: list[tuple[int, int]] = []  # the knocker and its own turn

    def move(game: Game, seat: int) -> BotFailure | bool | None:
        """Every seat's mover in the table loop: the bot's turn, until the first round is over (True)."""
        if log.result is not None:
            return True
        turn = game.turn
        failure = play_turn(game, bots[seat])
        if failure is None and log.actions[-1] == (seat, Knock()):
            knocks.append((seat, turn // players + 1))
        return failure

    stopped = play_out(game, [move] * players)
    if isinstance(stopped, BotFailure):
        raise BotError(str(stopped)) from stopped.error
    result = log.result
    assert result is not None  # the loop stops once the first round is over, or the game with it
    if not knocks:
        return None
    seat, own_turn = knocks[0]
    hand = result.hands[seat]  # frozen since the knock (R6.1)
    assert hand is not None
    return half_value(hand, rules), own_turn, result.lives_lost(seat)


@dataclass(frozen=True)
class Decision:
    """One position of a :class:`DrawTable`: the ``seat`` to move, its ``visible`` move (take the
    pile card, or the best exchange with the widow) and its ``hidden`` one (draw from the stock, or
    pass), the half points the visible move adds at once (``gain``), whether the heuristic played
    it (``took``), the hand's value after it in points (``card_points``) and, in draw mode, the
    exact expected value after a stock draw over the cards the seat has not seen
    (``stock_points``)."""

    position: Position
    seat: int
    visible: Action
    hidden: Action
    gain: int
    took: bool
    card_points: float
    stock_points: float | None


def _decision(game: Game, seat: int, legal: Sequence[Action], played: Action) -> Decision | None:
    """The decision of a :class:`DrawTable` at this move of ``seat``, or ``None`` where it has none."""
    rules = game.rules
    hand = game.hand(seat)
    value = half_value(hand, rules)
    table = half_points(rules)
    if rules.mode == "draw":
        if Draw(PILE) not in legal:
            return None
        best = best_with(hand, game.discard_pile[-1], table)
        stock = stock_draw_value(hand, game.unseen_by(seat), table) / 2
        took = played == Draw(PILE)
        return Decision(game.position(), seat, Draw(PILE), Draw(STOCK), best - value, took, points(best), stock)
    if not game.widow_face_up or Pass() not in legal:
        return None
    widow = game.widow

    def after(action: Action) -> int:
        if isinstance(action, ExchangeAll):
            return half_value(widow, rules)
        assert isinstance(action, Exchange)
        return half_value([*(card for card in hand if card not in action.give), *action.take], rules)

    options = [action for action in legal if isinstance(action, Exchange | ExchangeAll)]
    if not options:
        return None
    best_action = max(options, key=after)
    best = after(best_action)
    took = isinstance(played, Exchange | ExchangeAll)
    return Decision(game.position(), seat, best_action, Pass(), best - value, took, points(best), None)


def draw_positions(rules: Rules, players: int, seeds: Iterator[int]) -> Iterator[Decision]:
    """The decisions of a :class:`DrawTable` in the first rounds of games of the heuristic
    (:func:`~thirtyone.bots.heuristic.rollout_action` in every seat, on the engine), one game a
    seed (dealt by :class:`~thirtyone.sim.CounterChance`): every turn before anyone knocked.
    Stops when :data:`_EMPTY_GAMES` games in a row had none (rules under which the choice never
    comes up)."""
    from thirtyone.sim import CounterChance

    empty = 0
    for seed in seeds:
        game = Game(rules, players, chance=CounterChance(seed))
        log = game.round_logs[0]
        found = False
        while log.result is None:
            seat = game.current_seat
            assert seat is not None
            legal = game.legal_actions()
            action = rollout_action(game, seat, legal)
            if game.phase is Phase.TURN and game.knocker is None:
                decision = _decision(game, seat, legal, action)
                if decision is not None:
                    found = True
                    yield decision
            game.apply(action)
        empty = 0 if found else empty + 1
        if empty >= _EMPTY_GAMES:
            return


def play_both(items: Sequence[tuple[Position, Action, Action]], seed: int) -> IntArray:
    """Each ``(position, first, second)`` played out after each of its two moves by
    :func:`thirtyone.sim.rollout` with the heuristic in every seat, in :data:`WORLDS` stock orders
    shuffled from ``seed`` (nobody knows the stock's order; both moves of a world meet the same
    stock and reshuffles): the lives every seat lost this round, ``[len(items), WORLDS, 2, players]``."""
    from thirtyone import sim

    rng = random.Random(seed)
    positions: list[Position] = []
    actions: list[Action] = []
    worlds: list[int] = []
    for number, (position, first, second) in enumerate(items):
        for world in range(WORLDS):
            stock = list(position.stock)
            rng.shuffle(stock)
            shuffled = replace(position, stock=tuple(stock))
            positions += [shuffled, shuffled]
            actions += [first, second]
            worlds += [number * WORLDS + world] * 2
    lost = np.asarray(sim.rollout(positions, actions, seed=seed, worlds=worlds).lost, dtype=np.int64)
    shaped: IntArray = lost.reshape(len(items), WORLDS, 2, lost.shape[1])
    return shaped


def value_draws(decisions: Sequence[Decision], seed: int) -> tuple[FloatArray, FloatArray]:
    """The lives each decision's seat lost this round after its hidden and after its visible move
    (``(hidden, visible)``, one mean a decision), each played out by :func:`play_both`."""
    lost = play_both([(d.position, d.hidden, d.visible) for d in decisions], seed)
    seats = np.array([decision.seat for decision in decisions], dtype=np.int64)
    own = lost[np.arange(len(decisions)), :, :, seats].astype(np.float64)  # [decisions, WORLDS, 2]
    return own[:, :, 0].mean(axis=1), own[:, :, 1].mean(axis=1)


def _no_means() -> tuple[Mean, ...]:
    return (Mean(),) * (GAINS[1] - GAINS[0])


def _no_counts() -> IntArray:
    return np.zeros(GAINS[1] - GAINS[0], dtype=np.int64)


@dataclass(frozen=True)
class DrawTable:
    """The visible move against the hidden one (see :class:`Decision`) in ``mode`` (``draw`` or
    ``widow``), by the points the visible move gains at once (whole points, rounded down; index
    ``gain - GAINS[0]``): ``positions``, how often the heuristic played the visible move
    (``took``), the expected points after a stock draw (``stock_points``, draw mode) and after the
    visible move (``card_points``), the lives the seat lost this round after each move
    (``after_hidden``, ``after_visible``) and the lives the visible move saved (``saved``: hidden
    less visible, position by position, so that positive favours the visible move)."""

    mode: str
    positions: IntArray = field(default_factory=_no_counts)
    took: IntArray = field(default_factory=_no_counts)
    stock_points: tuple[Mean, ...] = field(default_factory=_no_means)
    card_points: tuple[Mean, ...] = field(default_factory=_no_means)
    after_hidden: tuple[Mean, ...] = field(default_factory=_no_means)
    after_visible: tuple[Mean, ...] = field(default_factory=_no_means)
    saved: tuple[Mean, ...] = field(default_factory=_no_means)

    def plus(self, decisions: Sequence[Decision], hidden: FloatArray, visible: FloatArray) -> DrawTable:
        """This table with ``decisions`` more and the lives each seat lost after its hidden and
        after its visible move (:func:`value_draws`)."""
        index = np.array([self.slot(decision.gain // 2) for decision in decisions], dtype=np.int64)
        size = GAINS[1] - GAINS[0]

        def means(old: tuple[Mean, ...], values: Sequence[float | None]) -> tuple[Mean, ...]:
            array = np.array([np.nan if value is None else value for value in values], dtype=np.float64)
            return tuple(old[g] + Mean.of(array[(index == g) & ~np.isnan(array)]) for g in range(size))

        took = np.array([decision.took for decision in decisions], dtype=np.int64)
        return replace(
            self,
            positions=self.positions + np.bincount(index, minlength=size),
            took=self.took + np.bincount(index, weights=took, minlength=size).astype(np.int64),
            stock_points=means(self.stock_points, [decision.stock_points for decision in decisions]),
            card_points=means(self.card_points, [decision.card_points for decision in decisions]),
            after_hidden=means(self.after_hidden, hidden.tolist()),
            after_visible=means(self.after_visible, visible.tolist()),
            saved=means(self.saved, (hidden - visible).tolist()),
        )

    @staticmethod
    def slot(gain: int) -> int:
        """Where a gain of ``gain`` points sits in the arrays."""
        return min(max(gain, GAINS[0]), GAINS[1] - 1) - GAINS[0]

    def gains(self) -> list[int]:
        """The gains (points) some position had, lowest first."""
        return [int(g) + GAINS[0] for g in np.flatnonzero(self.positions)]

    def row(self, gain: int) -> dict[str, Any]:
        """Plain data of the positions with a gain of ``gain`` points."""
        g = self.slot(gain)
        stock = self.stock_points[g]
        return {
            "gain": gain,
            "positions": int(self.positions[g]),
            "heuristic_took": Share(int(self.took[g]), int(self.positions[g])).to_dict(),
            "stock_points": stock.mean if stock.count else None,
            "card_points": self.card_points[g].mean,
            "lives_after_hidden": self.after_hidden[g].to_dict(),
            "lives_after_visible": self.after_visible[g].to_dict(),
            "lives_saved_by_visible": self.saved[g].to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain data: one row a gain."""
        draw = self.mode == "draw"
        return {
            "method": "simulated",
            "how": (
                "positions of the heuristic's play before anyone knocked (first rounds, on the engine); each "
                f"played out by the simulator after both moves in {WORLDS} shuffled stocks, the heuristic in every "
                "seat; lives the seat lost this round, 95% intervals over the positions"
            ),
            "visible": "take the discard pile's top card" if draw else "the best exchange with the widow",
            "hidden": "draw from the stock" if draw else "pass",
            "gain": "points the visible move adds to the hand at once (whole points, rounded down; the ends "
            f"collect {GAINS[0]} or less and {GAINS[1] - 1} or more)",
            "positions": int(self.positions.sum()),
            "rows": [self.row(gain) for gain in self.gains()],
        }


@dataclass(frozen=True)
class SeatTable:
    """The seats and the length of play at a table of ``players``. From rounds dealt at full lives
    (``rounds``): ``round_lives[place]``, the lives lost a round by the place after the dealer (0
    plays first, the last deals), and ``round_turns``. From whole games (``games``): ``wins[place]``
    by the place after the first dealer, ``game_rounds``, ``game_turns`` and ``rounds_seen[r]``, the
    games that lasted ``r`` rounds."""

    players: int
    rounds: int = 0
    round_lives: tuple[Mean, ...] = ()
    round_turns: Mean = field(default_factory=Mean)
    games: int = 0
    wins: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    game_rounds: Mean = field(default_factory=Mean)
    game_turns: Mean = field(default_factory=Mean)
    rounds_seen: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __post_init__(self) -> None:
        if not self.round_lives:
            object.__setattr__(self, "round_lives", (Mean(),) * self.players)
        if not self.wins.size:
            object.__setattr__(self, "wins", np.zeros(self.players, dtype=np.int64))

    def win_share(self, place: int) -> Share:
        """The games won by the place after the first dealer (0 plays first in the first round)."""
        return Share(int(self.wins[place]), self.games)

    def plus_rounds(self, lost: npt.ArrayLike, turns: npt.ArrayLike) -> SeatTable:
        """This table with more rounds dealt by seat 0: ``lost[round, seat]`` and ``turns[round]``."""
        lives = np.asarray(lost, dtype=np.float64)
        seats = [(place + 1) % self.players for place in range(self.players)]  # place 0: the dealer's left
        return replace(
            self,
            rounds=self.rounds + lives.shape[0],
            round_lives=tuple(old + Mean.of(lives[:, seat]) for old, seat in zip(self.round_lives, seats, strict=True)),
            round_turns=self.round_turns + Mean.of(turns),
        )

    def plus_games(self, places: npt.ArrayLike, rounds: npt.ArrayLike, turns: npt.ArrayLike) -> SeatTable:
        """This table with more games: the winner's ``places`` after the first dealer, each game's
        ``rounds`` and ``turns``."""
        rounds_array = np.asarray(rounds, dtype=np.int64)
        seen = np.bincount(rounds_array, minlength=self.rounds_seen.size)
        seen[: self.rounds_seen.size] += self.rounds_seen
        return replace(
            self,
            games=self.games + rounds_array.size,
            wins=self.wins + np.bincount(np.asarray(places, dtype=np.int64), minlength=self.players),
            game_rounds=self.game_rounds + Mean.of(rounds_array),
            game_turns=self.game_turns + Mean.of(turns),
            rounds_seen=seen,
        )

    def rounds_dict(self) -> dict[str, Any]:
        """Plain data from the rounds: lives lost a round by place, turns a round."""
        return {
            "method": "simulated",
            "how": "the heuristic in every seat, rounds dealt at full lives; place 0 plays first, the last place deals",
            "rounds": self.rounds,
            "lives_per_round": [{"place": place, **mean.to_dict()} for place, mean in enumerate(self.round_lives)],
            "turns_per_round": self.round_turns.to_dict(),
        }

    def quantile(self, share: float) -> int | None:
        """The rounds within which ``share`` (0 to 1) of the games ended (``None`` without games)."""
        if not self.games:
            return None
        return int(np.searchsorted(np.cumsum(self.rounds_seen), share * self.games))

    def games_dict(self) -> dict[str, Any]:
        """Plain data from the games: the win share by place, rounds and turns a game."""
        rounds = {
            **self.game_rounds.to_dict(),
            "median": self.quantile(0.5),
            "p10": self.quantile(0.1),
            "p90": self.quantile(0.9),
        }
        return {
            "method": "simulated",
            "how": "the heuristic in every seat, whole games; place 0 plays first in the first round, the last "
            "place deals it (the deal then moves on, R3.1)",
            "games": self.games,
            "win_share": [{"place": place, **self.win_share(place).to_dict()} for place in range(self.players)],
            "rounds_per_game": rounds,
            "turns_per_game": self.game_turns.to_dict(),
            "games_by_rounds": {str(r): int(n) for r, n in enumerate(self.rounds_seen) if n},
        }
