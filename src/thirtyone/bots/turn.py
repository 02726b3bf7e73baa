"""One bot turn, the same wherever a bot plays — the runner, the arena, the server, the terminal game
and the bench: ask the bot for its move from its seat's view only, check the move, and when the bot
fails say how, as data.

A bot fails when it raises (any ``Exception``: ``KeyboardInterrupt`` and other ``BaseException``
pass through), returns something that is not one of the legal actions, or one the engine then
refuses. A failure is a :class:`BotFailure`, never an exception: each caller decides what a failed
turn means for its game (the runner raises :class:`~thirtyone.bots.runner.BotError`, the arena ends
that game and keeps its record, the terminal game stops and says so, the server plays a safe move).
Its words quote the bot's own text escaped (:func:`thirtyone.checks.escaped`): a plugin's error is
text from outside.

>>> from thirtyone import Game
>>> from thirtyone.bots import make_bot
>>> game = Game("scat", players=2, seed=3)
>>> play_turn(game, make_bot("basic", 1)) is None, len(game.round_logs[0].actions)
(True, 1)
>>> class Stubborn:
...     name = "stubborn"
...     def choose(self, view, legal):
...         return "knock"
>>> failure = play_turn(game, Stubborn())
>>> str(failure)
"bot stubborn in seat 1 chose 'knock' (not an action), which is not legal now"
"""

from __future__ import annotations

from dataclasses import dataclass

from thirtyone.actions import Action
from thirtyone.bots.base import Bot
from thirtyone.checks import escaped
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.text import error_line
from thirtyone.text import refusal
from thirtyone.views import PlayerView

__all__ = ["BotFailure", "choose", "play_turn"]


@dataclass(frozen=True, slots=True)
class BotFailure:
    """Why a bot's turn failed: the bot ``bot`` (its name) in ``seat`` raised ``error``, or chose
    ``action`` (its notation, or the repr of what it returned that is no action; ``None`` when it
    raised) that is not legal now or that the engine refused.
    ``reason`` says which in the library's words (``"raised ValueError: no idea"``, ``"chose knock,
    which is not legal now"``); ``str()`` is the whole sentence."""

    seat: int
    bot: str
    action: str | None
    reason: str
    error: BaseException | None = None

    def __str__(self) -> str:
        return f"bot {self.bot} in seat {self.seat} {self.reason}"


def _shown(action: object) -> str:
    """The text of what a bot returned: an action's notation, else the object's repr (escaped)."""
    try:
        return escaped(str(action)) if isinstance(action, Action) else escaped(repr(action))
    except Exception:  # a bot's object whose str or repr raises
        return f"<{type(action).__name__}>"


def _name(bot: Bot) -> str:
    """The bot's name as a failure says it (escaped): asked only when a turn fails."""
    return escaped(str(getattr(bot, "name", type(bot).__name__)))


def choose(bot: Bot, view: PlayerView) -> Action | BotFailure:
    """What ``bot`` plays in the seat of ``view`` (whose turn it is): one of
    ``view.legal_actions``, or the :class:`BotFailure` that says why it gave none."""
    legal = view.legal_actions
    try:
        action = bot.choose(view, legal)
    except Exception as error:
        return _raised(bot, view.seat, error)
    return action if action in legal else _not_legal(bot, view.seat, action)


def play_turn(game: Game, bot: Bot) -> BotFailure | None:
    """Play ``bot``'s turn for the seat to move in ``game``: :func:`choose` from its view, then
    ``apply``. Returns ``None``, or the failure (the game is then as it was).

    Raises:
        IllegalActionError: when no seat is to move (the game is over, or a chance step is due).
    """
    seat = game.current_seat
    if seat is None:
        raise refusal("chance_due" if game.is_chance() else "game_over")
    view = game.view(seat)
    legal = view.legal_actions
    try:  # choose(), written out: every bot move of every face passes here
        action = bot.choose(view, legal)
    except Exception as error:
        return _raised(bot, seat, error)
    if action not in legal:
        return _not_legal(bot, seat, action)
    try:
        game.apply(action)
    except ThirtyOneError as error:  # legal by the view, refused by the engine: a bug, said as the bot's
        shown = _shown(action)
        return BotFailure(seat, _name(bot), shown, f"chose {shown}; the engine refused it: {error}")
    return None


def _raised(bot: Bot, seat: int, error: Exception) -> BotFailure:
    return BotFailure(seat, _name(bot), None, f"raised {error_line(error)}", error)


def _not_legal(bot: Bot, seat: int, action: object) -> BotFailure:
    shown = _shown(action)
    what = shown if isinstance(action, Action) else f"{shown} (not an action)"
    return BotFailure(seat, _name(bot), shown, f"chose {what}, which is not legal now")
