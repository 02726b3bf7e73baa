"""One table loop, below every place that plays a game: who is to move, let what decides that
seat play, and take the chance steps that follow — the first dealer (R3.1), the next round's deal
(R3.2), a reshuffle of the discard pile (R4.3) — until the game is over (R2.5).

The runner, the arena, the agents' table, the terminal's session and the server's table all go
through it; each keeps only what is its own (the arena's failures and timing, the agents'
rewards, the terminal's and the server's pacing and persistence).

- :func:`next_seat` is the step that does not block: it takes the chance steps that are due and
  says which seat is to move (``None`` when none is: the game is over, or a step waits).
- :func:`play` applies one move and then takes the steps that follow it (:func:`next_seat`).
- :func:`play_out` is the whole loop: it asks each seat's *mover* for its move until the game is
  over, a step waits, or a mover stops it.

A *dealer* ``deal(step)`` gives each chance step's outcome, as :meth:`Game.deal
<thirtyone.engine.Game.deal>` takes it: a seat for the first dealer, an order of the step's cards,
``None`` for the game's own chance source — or :data:`WAIT` to leave the step due (the terminal
shows a round's end until the person closes it; the server stops where a stored deal is missing).
Without a dealer every step is the game's own. A game made without ``explicit_chance`` takes its
steps itself: then no step is ever due here.

A *mover* ``mover(game, seat)`` plays ``seat``'s move on ``game`` (a bot's turn, an agent's
policy, a person's answer): it applies one action and returns ``None``, or anything else to stop
the loop there (a bot's failure, say), which :func:`play_out` returns. Movers are indexed by seat.

>>> from thirtyone.engine import Game
>>> def first(game, seat):
...     game.apply(game.legal_actions()[0])
>>> game = Game("scat", players=2, seed=3)
>>> play_out(game, [first, first]) is None, game.is_over
(True, True)

With explicit chance, a dealer says which steps wait:

>>> game = Game("scat", players=2, seed=3, explicit_chance=True)
>>> next_seat(game, lambda step: WAIT), game.chance_step.kind
(None, 'dealer')
>>> next_seat(game) == game.current_seat != None   # the first dealer and deal, from the game's seed
True
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from enum import Enum
from typing import Final
from typing import TypeVar

from thirtyone.actions import Action
from thirtyone.cards import Card
from thirtyone.chance import ChanceStep
from thirtyone.engine import Game

__all__ = ["WAIT", "Wait", "Dealer", "Mover", "next_seat", "play", "play_out"]

_Stop = TypeVar("_Stop")


class Wait(Enum):
    """The type of :data:`WAIT`."""

    WAIT = "wait"


WAIT: Final = Wait.WAIT
"""What a dealer returns to leave a chance step due: the loop stops there."""

Dealer = Callable[[ChanceStep], Sequence[Card] | int | Wait | None]
"""``deal(step)``: the outcome of a chance step (see the module), or :data:`WAIT`."""

Mover = Callable[[Game, int], _Stop | None]
"""``mover(game, seat)``: play ``seat``'s move on ``game``; ``None``, or why the loop stops."""


def next_seat(game: Game, deal: Dealer | None = None) -> int | None:
    """Take every chance step of ``game`` that is due, each with ``deal(step)``'s outcome (the
    game's own without ``deal``), and return the seat to move: ``None`` when the game is over
    (R2.5) or ``deal`` returned :data:`WAIT` (that step stays due).

    Raises:
        IllegalActionError, SeatError, CardError, ArgumentError: for an outcome that
            :meth:`Game.deal <thirtyone.engine.Game.deal>` refuses (the step stays due).
    """
    while (step := game.chance_step) is not None:
        outcome = None if deal is None else deal(step)
        if outcome is WAIT:
            return None
        game.deal(outcome)
    return game.current_seat


def play(game: Game, action: Action | str, seat: int | None = None, deal: Dealer | None = None) -> int | None:
    """Apply ``action`` (for ``seat``, when given: it must be the seat to move) and take the chance
    steps that follow, the next round's deal after the move that ends a round included
    (:func:`next_seat` with ``deal``). Returns the seat to move next, or ``None``.

    Raises:
        IllegalActionError: when the rules forbid the action or it is not ``seat``'s turn (the
            engine's refusal, naming the rule; the game is unchanged).
        ActionError: for text that is not an action.
    """
    game.apply(action, seat=seat)
    return next_seat(game, deal)


def play_out(
    game: Game, movers: Sequence[Mover[_Stop]] | Mapping[int, Mover[_Stop]], deal: Dealer | None = None
) -> _Stop | None:
    """Play ``game`` on: take the chance steps due (:func:`next_seat` with ``deal``), let
    ``movers[seat]`` play the seat to move, and again, until the game is over (R2.5), a step waits
    or a mover returns something other than ``None``. Returns what that mover returned, else
    ``None``. What a mover raises passes through."""
    while (seat := next_seat(game, deal)) is not None:
        stopped = movers[seat](game, seat)
        if stopped is not None:
            return stopped
    return None
