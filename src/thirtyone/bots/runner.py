"""Playing whole games with bots in every seat, and the statistics of many such games.

>>> from thirtyone.rules import Rules
>>> stats = simulate(Rules.preset("scat"), ["basic", "random", "random"], games=5, seed=1)
>>> stats.games, sum(seat.wins for seat in stats.seats)
(5, 5)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence

from thirtyone.actions import Action
from thirtyone.bots.base import Bot
from thirtyone.bots.making import make_bot
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.bots.turn import play_turn
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules
from thirtyone.table_loop import Mover
from thirtyone.table_loop import play_out
from thirtyone.totals import GameTotals
from thirtyone.views import PlayerView

__all__ = [
    "play_game",
    "bot_action",
    "simulate",
    "game_seeds",
    "iter_game_seeds",
    "BotError",
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
    failure = play_out(game, [_turns(bot) for bot in bots])
    if failure is not None:
        raise BotError(str(failure)) from failure.error
    return game


def _turns(bot: Bot) -> Mover[BotFailure]:
    """The table loop's mover of ``bot``'s seat: each move the bot's turn (:func:`play_turn`)."""

    def move(game: Game, seat: int) -> BotFailure | None:
        return play_turn(game, bot)

    return move


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


def simulate(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    seed: int | None = None,
    on_game: Callable[[int, Game], None] | None = None,
) -> GameTotals:
    """Play ``games`` games with the named bots (seat ``i`` plays ``bots[i]``) and total them
    (:class:`~thirtyone.totals.GameTotals`).

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
    stats = GameTotals(rules, tuple(bots))
    for index, game_seed in enumerate(game_seeds(seed, games)):
        players = [make_bot(name, game_seed + seat + 1) for seat, name in enumerate(bots)]
        game = play_game(rules, players, seed=game_seed)
        stats.add_game(game)
        if on_game is not None:
            on_game(index, game)
    return stats
