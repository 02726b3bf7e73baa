"""One arena game, played safely: a bot that raises or returns an illegal action ends that game
as *failed* (with the game's record, so it can be replayed) instead of ending the arena.

>>> from thirtyone.rules import Rules
>>> task = Task(Rules.preset("scat"), ("basic", "random", "random"), seed=5, start=0, stop=2)
>>> results = play_task(task)
>>> [(r.deal, r.rotation, r.bots) for r in results]
[(0, 0, ('basic', 'random', 'random')), (0, 1, ('random', 'basic', 'random'))]
>>> results[0].seed == results[1].seed, results[0].failure is None, sorted(results[0].places or ())[0]
(True, True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from time import process_time  # CPU time: what a move costs, whatever else the machine runs
from typing import Any

from thirtyone.actions import Knock
from thirtyone.arena.schedule import GameKey
from thirtyone.arena.schedule import bot_seed
from thirtyone.arena.schedule import deal_seed
from thirtyone.arena.schedule import seating
from thirtyone.bots import make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.levels import SIM_BOTS
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import play_turn
from thirtyone.engine import Game
from thirtyone.events import Acted
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.table_loop import play_out
from thirtyone.text import error_line

__all__ = [
    "Failure",
    "GameResult",
    "SeatTimes",
    "Task",
    "play_games_fast",
    "play_game_safely",
    "play_safely",
    "play_task",
    "SIM_BOTS",
]


@dataclass(frozen=True)
class Failure:
    """Why a game failed: the bot in ``seat`` (named ``bot``) raised, returned an action that is not
    legal, or could not be created. ``action`` is the illegal action's text (``None`` when the bot
    raised); ``error`` a one-line description; ``record`` the game's record (TOML text, see
    :class:`~thirtyone.record.GameRecord`) up to the failing move, which replays without error."""

    seat: int
    bot: str
    action: str | None
    error: str
    record: str


@dataclass(frozen=True)
class GameResult:
    """The outcome of game ``(deal, rotation)`` in compact, picklable form.

    Per-seat tuples are indexed by seat (length = players): ``bots`` the bot name in each seat,
    ``places`` the finishing place (1 = won; ties share a place, R2.5) or ``None`` for a failed
    game, ``rounds_played`` the rounds each seat was dealt in, ``lives_lost`` the lives the rules
    charged it, ``knocks`` its knocks and ``knocks_lost`` the rounds it knocked and then lost
    lives at the showdown. ``seed`` is the deal's seed, ``rounds`` the rounds played, ``winner``
    the winning seat (``None`` for a failed game).
    """

    deal: int
    rotation: int
    seed: int
    bots: tuple[str, ...]
    places: tuple[int, ...] | None
    winner: int | None
    rounds: int
    rounds_played: tuple[int, ...]
    lives_lost: tuple[int, ...]
    knocks: tuple[int, ...]
    knocks_lost: tuple[int, ...]
    failure: Failure | None = None
    decisions: tuple[int, ...] = field(default=(), compare=False)
    """The moves each seat chose (empty for games the simulator played); not compared: ``seconds``
    differ from run to run, and the simulator plays the same games untimed."""
    seconds: tuple[float, ...] = field(default=(), compare=False)
    """The CPU seconds each seat took over them (this process's: its view and applying the move included)."""

    @property
    def key(self) -> GameKey:
        """``(deal, rotation)``: the order results are counted in."""
        return self.deal, self.rotation

    @property
    def failed(self) -> bool:
        """True when a bot failed and the game was abandoned."""
        return self.failure is not None


@dataclass
class SeatTimes:
    """What :func:`play_safely` measures of each seat's bot: ``decisions`` (moves chosen) and
    ``seconds`` (this process's CPU seconds over them, the view and applying the move included: what
    a move costs, whatever else the machine runs)."""

    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Task:
    """A batch of games for one worker: games ``start`` to ``stop - 1`` (numbered in the fixed
    ``(deal, rotation)`` order, game ``deal * players + rotation``) of the arena with ``rules``,
    bot list ``bots`` (by seat, rotation 0) and arena ``seed``. Small and picklable."""

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    start: int
    stop: int
    engine: str = "reference"
    """``"reference"`` (the engine, :func:`play_game_safely`) or ``"sim"`` (:func:`play_game_fast`)."""

    @property
    def keys(self) -> list[GameKey]:
        """The ``(deal, rotation)`` of each game of the task, in order."""
        n = len(self.bots)
        return [divmod(index, n) for index in range(self.start, self.stop)]

    def __len__(self) -> int:
        return self.stop - self.start


def play_task(task: Task) -> list[GameResult]:
    """Play every game of ``task`` in order (runs in a worker process, a Ray task or in-process).

    A bot that cannot be created (an unknown name in this process, an error in its constructor)
    fails its games like a bot that raises; nothing here raises for a bot's fault.
    """
    if task.engine == "sim":
        return play_games_fast(task.rules, task.bots, task.seed, task.keys)
    return [play_game_safely(task.rules, task.bots, task.seed, deal, rotation) for deal, rotation in task.keys]


def play_games_fast(rules: Rules, bots: Sequence[str], seed: int, keys: Sequence[GameKey]) -> list[GameResult]:
    """Games ``keys`` (``(deal, rotation)`` pairs) played by the compiled simulator
    (:func:`thirtyone.sim.play_games`, one batch per seating), for bot lists of ``random`` and
    ``basic`` only, in the order of ``keys``. As with :func:`play_game_safely` every rotation of a
    deal meets the same cards, dealt by :class:`thirtyone.sim.CounterChance` from the deal's seed,
    and ``random``'s choices come from the simulator's counter generator: the results are those of
    :func:`play_game_safely`, game for game. The simulator's policies cannot fail."""
    from thirtyone import sim

    results: dict[GameKey, GameResult] = {}
    for rotation in sorted({rotation for _, rotation in keys}):
        deals = [deal for deal, turn in keys if turn == rotation]
        names = seating(bots, rotation)
        seeds = [deal_seed(seed, deal) for deal in deals]
        batch = sim.play_games(rules, len(names), [SIM_BOTS[name] for name in names], seeds)

        def row(values: Any, index: int) -> tuple[int, ...]:
            return tuple(int(value) for value in values[index])

        for index, (deal, game_seed) in enumerate(zip(deals, seeds, strict=True)):
            results[deal, rotation] = GameResult(
                deal=deal,
                rotation=rotation,
                seed=game_seed,
                bots=names,
                places=row(batch.places, index),
                winner=int(batch.winner[index]),
                rounds=int(batch.rounds[index]),
                rounds_played=row(batch.rounds_played, index),
                lives_lost=row(batch.lost, index),
                knocks=row(batch.knocks, index),
                knocks_lost=row(batch.knocks_lost, index),
            )
    return [results[key] for key in keys]


def play_game_safely(rules: Rules, bots: Sequence[str], seed: int, deal: int, rotation: int) -> GameResult:
    """Play game ``(deal, rotation)`` of an arena with bot list ``bots`` and arena ``seed``.

    The deal comes from :class:`thirtyone.sim.CounterChance` ``(deal_seed(seed, deal))`` (every
    rotation of a deal meets the same cards, as with :class:`~thirtyone.chance.DuplicateChance`);
    a ``random`` seat picks with the simulator's counter-based random policy
    (:func:`thirtyone.sim.rng.game_random_index`), so a game of ``random`` and ``basic`` bots is
    the one :func:`play_games_fast` plays; any other bot in seat ``s`` is
    ``make_bot(name, bot_seed(seed, deal, rotation, s))``. A bot that fails ends the game
    (:func:`play_safely`): the result's ``failure`` says which seat, bot and action or exception,
    and holds the game's record. ``KeyboardInterrupt`` and other ``BaseException`` pass through.
    """
    names = seating(bots, rotation)
    game_seed = deal_seed(seed, deal)
    bot_seeds = [bot_seed(seed, deal, rotation, seat) for seat in range(len(names))]
    timing = SeatTimes()
    game, failure = play_safely(rules, names, game_seed, bot_seeds, timing=timing)
    return _result(game, names, deal, rotation, game_seed, failure, timing)


def play_safely(
    rules: Rules,
    names: Sequence[str],
    game_seed: int,
    bot_seeds: Sequence[int],
    event: str = "thirtyone arena",
    timing: SeatTimes | None = None,
) -> tuple[Game, Failure | None]:
    """Play one game of the bots ``names`` (by seat) to its end or to the first bot that fails;
    the game and ``None``, or the game up to the failing move and the :class:`Failure`.

    The game is dealt by :class:`thirtyone.sim.CounterChance` ``(game_seed)``; a ``random`` seat
    picks with :func:`thirtyone.sim.rng.game_random_index` ``(game_seed, …)``; any other bot in
    seat ``s`` is ``make_bot(names[s], bot_seeds[s])``. A bot fails when it cannot be created,
    raises (any ``Exception``) or returns an action that is not legal; the failure's record
    (``event`` names the program in it) replays without error up to the failing move.
    ``timing``, when given, is filled with each seat's decisions and the seconds they took.
    ``KeyboardInterrupt`` and other ``BaseException`` pass through.
    """
    from thirtyone.sim.rng import CounterChance  # here: thirtyone.sim loads numba
    from thirtyone.sim.rng import game_random_index  # here: thirtyone.sim loads numba

    game = Game(rules, len(names), chance=CounterChance(game_seed))
    players: list[Bot | None] = []
    for index, name in enumerate(names):
        if SIM_BOTS.get(name) == "random":
            players.append(None)  # the simulator's counter-based random policy, below
            continue
        try:
            players.append(make_bot(name, bot_seeds[index]))
        except Exception as error:
            return game, _failure(game, names, index, None, f"could not be created: {error_line(error)}", event)
    if timing is not None:
        timing.decisions[:], timing.seconds[:] = [0] * len(names), [0.0] * len(names)
    round_number, decision = game.round, 0

    def move(game: Game, seat: int) -> BotFailure | None:
        """The seat's move, timed: the simulator's random policy, or the bot's turn."""
        nonlocal round_number, decision
        if game.round != round_number:
            round_number, decision = game.round, 0
        player = players[seat]
        started = process_time()
        failed = None
        if player is None:
            legal_actions = game.legal_actions()
            game.apply(legal_actions[game_random_index(game_seed, game.round, decision, len(legal_actions))])
        else:
            failed = play_turn(game, player)
        if timing is not None:
            timing.seconds[seat] += process_time() - started
            timing.decisions[seat] += 1
        decision += 1
        return failed

    failed = play_out(game, [move] * len(names))
    if failed is not None:
        return game, _failure(game, names, failed.seat, failed.action, failed.reason, event)
    return game, None


def _failure(game: Game, names: Sequence[str], seat: int, action: str | None, what: str, event: str) -> Failure:
    seats = [f"{name} (seat {index})" for index, name in enumerate(names)]
    record = GameRecord.from_game(game, seats, event=event, comment=f"failed: seat {seat} {what}")
    return Failure(seat, names[seat], action, f"bot {names[seat]} in seat {seat} {what}", record.dumps())


def _result(
    game: Game,
    names: tuple[str, ...],
    deal: int,
    rotation: int,
    seed: int,
    failure: Failure | None,
    timing: SeatTimes | None = None,
) -> GameResult:
    n = len(names)
    rounds_played, lives_lost, knocks, knocks_lost = [0] * n, [0] * n, [0] * n, [0] * n
    for event in game.events:
        if isinstance(event, RoundStarted):
            for seat in event.seats:
                rounds_played[seat] += 1
        elif isinstance(event, Acted) and isinstance(event.action, Knock):
            knocks[event.seat] += 1
        elif isinstance(event, RoundEnded):
            result = event.result
            for loss in result.losses:
                lives_lost[loss.seat] += loss.lives
            knocker = result.knocker if result.end in ("knock", "blitz") else None  # R6.5, R5.3
            if knocker is not None and result.lives_lost(knocker) > 0:
                knocks_lost[knocker] += 1
    places: tuple[int, ...] | None = None
    if failure is None:
        by_seat = sorted(game.standings, key=lambda standing: standing.seat)
        places = tuple(standing.place for standing in by_seat)
    return GameResult(
        deal=deal,
        rotation=rotation,
        seed=seed,
        bots=names,
        places=places,
        winner=game.winner if failure is None else None,
        rounds=game.round,
        rounds_played=tuple(rounds_played),
        lives_lost=tuple(lives_lost),
        knocks=tuple(knocks),
        knocks_lost=tuple(knocks_lost),
        failure=failure,
        decisions=tuple(timing.decisions) if timing is not None else (),
        seconds=tuple(timing.seconds) if timing is not None else (),
    )
