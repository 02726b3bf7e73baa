"""One game as the environments step it: :class:`Table` applies action ids and says what each
step paid every seat, who it put out, and whether the game is over or truncated.

Rewards (in lives; every environment pays these)
    When a round ends, each seat dealt into it gets the lives the *other* seats of that round
    lost, on average, minus the lives it lost itself: ``mean(d[o] for o != s) - d[s]``, where
    ``d`` is what the round took from each seat's remaining losses (R2.4; a knocker who loses 2
    with 1 left loses 1, and R2.6's saved round takes nothing). The rewards of a round sum to 0
    over its seats. With ``win_reward`` a seat's game ends with ±1 too: -1 when it is put out (in
    the step that puts it out), +1 for the winner when the game is over; a truncated game pays
    no +1. A step that ends no round pays 0. Rounds that end before the first move (a 31
    on the deal, R5.2) are paid with the first step.

Moves
    A step is a move of the one table loop (:func:`thirtyone.table_loop.play`): the action
    applied, then the chance steps it leads to; what the table adds is its own, the rewards.

Chance
    The game is dealt by :class:`~thirtyone.sim.rng.CounterChance` from its seed, as
    :func:`thirtyone.sim.play_games` deals it, so the compiled vector env
    (:mod:`thirtyone.agents.vector`) plays the same cards for the same seed. A game that would end
    or be truncated before anyone moves (31s on the deal with one life and no grace, or with
    ``max_rounds=1``) is not played: the seed + 1 is dealt instead.

Length
    A game ends when one seat is left (R2.5), or is truncated once ``config.max_rounds`` rounds
    have ended; each round ends by ``max_turns`` turns (R6.7).

>>> from thirtyone.agents.config import EnvConfig
>>> table = Table(EnvConfig.make("scat", 3), seed=5)
>>> table.seat, table.legal_ids()
(0, [52, 53, 54])
>>> step = table.step(54)   # seat 0 knocks
>>> step.rewards, step.over
((0.0, 0.0, 0.0), False)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import legal_ids
from thirtyone.agents.action_ids import legal_mask
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import encode
from thirtyone.checks import whole_number
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.events import GameOver
from thirtyone.events import RoundEnded
from thirtyone.sim.rng import MASK64
from thirtyone.sim.rng import CounterChance
from thirtyone.table_loop import play
from thirtyone.text import refusal
from thirtyone.views import PlayerView

__all__ = ["Table", "Ledger", "Step", "round_rewards", "check_seed"]


@dataclass(frozen=True, slots=True)
class Step:
    """What one step did: ``rewards[seat]`` (lives, see the module), the seats it put out, whether
    the game is now over (``over``) or was cut at ``max_rounds`` (``truncated``), and the number
    of rounds that ended in it."""

    rewards: tuple[float, ...]
    eliminated: tuple[int, ...]
    over: bool
    truncated: bool
    rounds: int


def round_rewards(before: list[int] | tuple[int, ...], after: tuple[int, ...]) -> list[float]:
    """One round's rewards by seat from the remaining losses before and after it (see the module):
    0 for seats not dealt in."""
    seats = [seat for seat, left in enumerate(before) if left > 0]
    lost = [b - a for b, a in zip(before, after, strict=True)]
    total = sum(lost[seat] for seat in seats)
    rewards = [0.0] * len(before)
    for seat in seats:
        rewards[seat] = (total - lost[seat]) / (len(seats) - 1) - lost[seat]
    return rewards


def check_seed(seed: object) -> int:
    """A seed as a 64-bit word: any whole number, taken modulo 2**64.

    Raises:
        ArgumentError: for anything else.
    """
    number = whole_number(seed)
    if number is None:
        raise ArgumentError(f"a seed is a whole number, not {seed!r}")
    return number & MASK64


class Ledger:
    """What a game has paid so far (see the module): it reads the game's new events each time it
    is asked (:meth:`collect`) and keeps each seat's remaining losses, the rounds counted, and
    whether the game is over or truncated. Copy it with the game (:meth:`copy`)."""

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self.remaining = [config.full] * config.players
        self.rounds = 0
        """Rounds ended so far (counted up to ``max_rounds``)."""
        self.over = False
        self.truncated = False
        self.seen = 0
        """Events of the game already read."""

    @property
    def done(self) -> bool:
        """True once the game is over or truncated."""
        return self.over or self.truncated

    def copy(self) -> Ledger:
        """An independent copy."""
        twin = Ledger.__new__(Ledger)
        twin.__dict__.update(self.__dict__)
        twin.remaining = list(self.remaining)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Ledger:
        return self.copy()

    def collect(self, game: Game, rewards: list[float]) -> tuple[float, ...]:
        """Add to ``rewards`` what the rounds that ended since the last call paid each seat; mark
        the game over or truncated. Returns the rewards as a tuple."""
        config = self.config
        events = game.events
        for event in events[self.seen :]:
            if isinstance(event, RoundEnded):
                if self.rounds >= config.max_rounds:
                    self.truncated = True  # a round past the cap: the game was cut before it
                    break
                after = event.result.remaining
                for seat, reward in enumerate(round_rewards(self.remaining, after)):
                    rewards[seat] += reward
                    if config.win_reward and after[seat] == 0 < self.remaining[seat]:
                        rewards[seat] -= 1.0  # put out: its game is lost
                self.remaining = list(after)
                self.rounds += 1
            elif isinstance(event, GameOver):
                self.over = True
                if config.win_reward:
                    rewards[event.winner] += 1.0
        self.seen = len(events)
        if not self.over and self.rounds >= config.max_rounds:
            self.truncated = True
        return tuple(rewards)


class Table:
    """A game of ``config`` dealt from ``seed`` (see the module), stepped by action ids."""

    def __init__(self, config: EnvConfig, seed: int) -> None:
        self.config = config
        number = check_seed(seed)
        while True:
            self.game = Game(config.rules, config.players, chance=CounterChance(number))
            self.ledger = Ledger(config)
            self.pending = self.ledger.collect(self.game, [0.0] * config.players)
            """The rewards of rounds that ended before the first move, paid with the first step."""
            if not self.done:
                break
            number = (number + 1) & MASK64
        self.seed = number
        """The seed of the game dealt (``seed``, or the next that deals a game to play)."""

    @property
    def done(self) -> bool:
        """True once the game is over or truncated: it takes no more steps."""
        return self.ledger.done

    @property
    def over(self) -> bool:
        """True once one seat is left (R2.5)."""
        return self.ledger.over

    @property
    def truncated(self) -> bool:
        """True once the game was cut at ``max_rounds``."""
        return self.ledger.truncated

    @property
    def rounds(self) -> int:
        """Rounds ended so far (counted up to ``max_rounds``)."""
        return self.ledger.rounds

    @property
    def seat(self) -> int | None:
        """The seat to move (``None`` once done)."""
        return None if self.done else self.game.current_seat

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now."""
        return self.game.view(seat)

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation tensor (:func:`~thirtyone.agents.observation.encode`)."""
        return encode(self.game.view(seat))

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move (``[]`` once done)."""
        return [] if self.done else legal_ids(self.game)

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the seat to move (all 0 once done)."""
        if self.done:
            return np.zeros(79, dtype=np.int8)
        return legal_mask(self.game)

    def step(self, number: int) -> Step:
        """Play action id ``number`` for the seat to move.

        Raises:
            IllegalActionError: for an id that is not legal now, with the engine's rule and code
                (``game_over`` once done), and the game unchanged.
            ActionError: for an id outside 0–78, or an exchange while no widow lies face up.
        """
        if self.done:
            raise refusal("game_over")
        game = self.game
        play(game, action_from_id(game, number))  # the engine refuses an illegal one, changing nothing
        rewards = list(self.pending)
        self.pending = (0.0,) * self.config.players
        before = [left > 0 for left in self.ledger.remaining]
        rounds = self.ledger.rounds
        total = self.ledger.collect(game, rewards)
        eliminated = tuple(seat for seat, was in enumerate(before) if was and self.ledger.remaining[seat] == 0)
        return Step(total, eliminated, self.over, self.truncated, self.ledger.rounds - rounds)
