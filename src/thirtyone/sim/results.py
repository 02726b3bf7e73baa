"""What the simulator returns: :class:`RoundBatch` (one row per round), :class:`GameBatch` (one row
per game), running totals over many round batches (:class:`RoundTotals`) and :func:`add_batch`,
which adds a game batch to the :class:`thirtyone.totals.GameTotals` the engine's games are counted
in: both keep memory flat however many deals are streamed through them.

Arrays are numpy views of the kernels' outputs (no copies); the codes are those of
:mod:`thirtyone.sim.codes` (:data:`~thirtyone.sim.codes.ENDS`,
:data:`~thirtyone.sim.codes.LOSS_NAMES`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import cast

import numpy as np
import numpy.typing as npt

from thirtyone.rules import Rules
from thirtyone.settlement import LOSS_RULES
from thirtyone.settlement import LossKind
from thirtyone.settlement import loss_label
from thirtyone.sim.codes import E_BLITZ
from thirtyone.sim.codes import E_DEALT
from thirtyone.sim.codes import ENDS
from thirtyone.sim.codes import LOSS_NAMES
from thirtyone.totals import GameTotals

__all__ = ["RoundBatch", "GameBatch", "RoundTotals", "add_batch", "loss_key"]

IntArray = npt.NDArray[np.integer[Any]]


def loss_key(code: int) -> str:
    """The label :class:`thirtyone.totals.GameTotals` files lives under for a loss code
    (:func:`thirtyone.settlement.loss_label`: ``"R6.5 lowest"``)."""
    return loss_label(cast(LossKind, LOSS_NAMES[code]))


@dataclass(frozen=True)
class RoundBatch:
    """Results of ``n`` rounds of ``players`` seats, one row per round (all arrays are ``[n]`` or ``[n, players]``).

    - ``end``: how the round ended, a code into :data:`~thirtyone.sim.codes.ENDS` (``RoundResult.end``).
    - ``knocker``: ``RoundResult.knocker`` (the knocker of a showdown after a knock or a blitz after
      a knock, the caller of a throw-down), ``-1`` for none; ``knocked``: the seat that knocked
      this round (``-1``: nobody), whatever ended it.
    - ``turns``: ``RoundResult.turns``, completed turns (R6.7); ``actions``: actions applied.
    - ``saved``: 1 when R2.6 saved everyone; ``reshuffles`` (R4.3) and ``new_widows`` (R7.3): counts.
    - ``lost[n, players]``: lives each seat lost (``RoundResult.lives_lost``); ``rule``: the loss
      code (into :data:`~thirtyone.sim.codes.LOSS_NAMES`, 0 for none); ``remaining``: remaining
      losses after the round (``RoundResult.remaining``); ``eliminated`` and ``blitz``: 0/1 flags;
      ``values``: each hand's value in half points at the end (-1 for a seat out).

    ``first_row`` is the index of row 0 in the seed's key space (rows of a streamed batch keep
    their global index, so results never depend on the chunk size).
    """

    rules: Rules
    players: int
    policies: tuple[str, ...]
    seed: int
    first_row: int
    end: IntArray
    knocker: IntArray
    knocked: IntArray
    turns: IntArray
    saved: IntArray
    reshuffles: IntArray
    new_widows: IntArray
    actions: IntArray
    lost: IntArray
    rule: IntArray
    remaining: IntArray
    eliminated: IntArray
    blitz: IntArray
    values: IntArray

    @classmethod
    def from_outputs(
        cls,
        rules: Rules,
        policies: tuple[str, ...],
        seed: int,
        first_row: int,
        out: IntArray,
        seats: IntArray,
    ) -> RoundBatch:
        """Wrap the kernels' ``out[n, 9]`` and ``seats[n, 6, players]`` arrays (views, no copies)."""
        return cls(
            rules=rules,
            players=len(policies),
            policies=policies,
            seed=seed,
            first_row=first_row,
            end=out[:, 0],
            knocker=out[:, 1],
            knocked=out[:, 2],
            turns=out[:, 3],
            saved=out[:, 4],
            reshuffles=out[:, 5],
            new_widows=out[:, 6],
            actions=out[:, 7],
            lost=seats[:, 0, :],
            rule=seats[:, 1, :],
            remaining=seats[:, 2, :],
            eliminated=seats[:, 3, :],
            blitz=seats[:, 4, :],
            values=seats[:, 5, :],
        )

    def __len__(self) -> int:
        return int(self.end.shape[0])

    def end_name(self, row: int) -> str:
        """How round ``row`` ended, in the engine's words (``"knock"``, ``"dealt_blitz"``, …)."""
        return ENDS[int(self.end[row])]

    def losses(self, row: int) -> tuple[tuple[int, int, str, LossKind], ...]:
        """Round ``row``'s losses as ``(seat, lives, rule, kind)``, by seat (the engine's
        :class:`~thirtyone.settlement.Loss` less the seats its kind names)."""
        found = []
        for seat in range(self.players):
            lives = int(self.lost[row, seat])
            if lives:
                kind = cast(LossKind, LOSS_NAMES[int(self.rule[row, seat])])
                found.append((seat, lives, LOSS_RULES[kind], kind))
        return tuple(found)


@dataclass
class RoundTotals:
    """Running totals over many :class:`RoundBatch` es (memory does not grow with the rounds added):
    rounds, actions, turns, knocks, blitz rounds, reshuffles, rounds by end, lives by rule (labels
    of :func:`loss_key`), and each seat's lives lost and knocks."""

    players: int
    rounds: int = 0
    actions: int = 0
    turns: int = 0
    knocks: int = 0
    blitzes: int = 0
    reshuffles: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    lives_by_rule: Counter[str] = field(default_factory=Counter)
    seat_lives_lost: list[int] = field(default_factory=list)
    seat_knocks: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seat_lives_lost:
            self.seat_lives_lost = [0] * self.players
        if not self.seat_knocks:
            self.seat_knocks = [0] * self.players

    def add(self, batch: RoundBatch) -> None:
        """Count the rounds of ``batch``."""
        self.rounds += len(batch)
        self.actions += int(batch.actions.sum())
        self.turns += int(batch.turns.sum())
        knocked = batch.knocked[batch.knocked >= 0]
        self.knocks += int(knocked.shape[0])
        ends = np.bincount(batch.end, minlength=len(ENDS))
        self.blitzes += int(ends[E_BLITZ] + ends[E_DEALT])
        self.reshuffles += int(batch.reshuffles.sum())
        for code, count in enumerate(ends):
            if count:
                self.ends[ENDS[code]] += int(count)
        by_rule = np.bincount(batch.rule.ravel(), weights=batch.lost.ravel(), minlength=len(LOSS_NAMES))
        for code in range(1, len(LOSS_NAMES)):
            if by_rule[code]:
                self.lives_by_rule[loss_key(code)] += int(by_rule[code])
        lost = batch.lost.sum(axis=0)
        knocks = np.bincount(knocked, minlength=self.players)
        for seat in range(self.players):
            self.seat_lives_lost[seat] += int(lost[seat])
            self.seat_knocks[seat] += int(knocks[seat])


@dataclass(frozen=True)
class GameBatch:
    """Results of ``n`` whole games, one row per game (arrays ``[n]`` or ``[n, players]``).

    ``seeds`` (``uint64``) are the games' seeds (:class:`~thirtyone.sim.rng.CounterChance`);
    ``winner`` the last seat left (R2.5); ``rounds``, ``blitzes`` (rounds ended by a 31 or three
    aces, dealt or made), ``turns``, ``actions`` and ``reshuffles`` are totals per game; ``places``
    each seat's finishing place (1 = won; seats put out by the same round share a place);
    ``lost`` each seat's lives lost over the game (charged, before R2.6); ``knocks`` each seat's
    knocks and ``knocks_lost`` those whose showdown cost it lives; ``rounds_played`` the rounds each
    seat was dealt in (until it went out); ``lives_by_rule[n, codes]``
    lives lost by loss code; ``ends[n, codes]`` rounds by end code.
    """

    rules: Rules
    players: int
    policies: tuple[str, ...]
    seeds: npt.NDArray[np.uint64]
    winner: IntArray
    rounds: IntArray
    blitzes: IntArray
    turns: IntArray
    actions: IntArray
    reshuffles: IntArray
    places: IntArray
    lost: IntArray
    knocks: IntArray
    knocks_lost: IntArray
    rounds_played: IntArray
    lives_by_rule: IntArray
    ends: IntArray

    def __len__(self) -> int:
        return int(self.seeds.shape[0])


def add_batch(totals: GameTotals, batch: GameBatch) -> None:
    """Count the games of ``batch`` into ``totals`` (:class:`thirtyone.totals.GameTotals`), as
    :meth:`~thirtyone.totals.GameTotals.add_game` counts the same games played by the engine; a
    batch's arrays are summed with numpy, so memory stays at one batch however many are streamed.

    Raises:
        ValueError: for a batch of other rules or another number of players than ``totals``.
    """
    players = len(totals.bots)
    if batch.rules != totals.rules or batch.players != players:
        raise ValueError(
            f"add_batch: games of {batch.rules.describe()} with {batch.players} players "
            f"added to totals of {totals.rules.describe()} with {players}"
        )
    totals.games += len(batch)
    totals.rounds += int(batch.rounds.sum())
    totals.turns += int(batch.turns.sum())
    totals.actions += int(batch.actions.sum())
    totals.knocks += int(batch.knocks.sum())
    totals.blitzes += int(batch.blitzes.sum())
    for code, count in enumerate(batch.ends.sum(axis=0)):
        if count:
            totals.ends[ENDS[code]] += int(count)
    for code, lives in enumerate(batch.lives_by_rule.sum(axis=0)):
        if code and lives:
            totals.lives_by_rule[loss_key(code)] += int(lives)
    wins = np.bincount(batch.winner, minlength=players)
    for seat, row in enumerate(totals.seats):
        row.wins += int(wins[seat])
        places = np.bincount(batch.places[:, seat], minlength=players + 1)
        for place in range(1, players + 1):
            if places[place]:
                row.places[place] += int(places[place])
        row.knocks += int(batch.knocks[:, seat].sum())
        row.knocks_lost += int(batch.knocks_lost[:, seat].sum())
        row.lives_lost += int(batch.lost[:, seat].sum())
        row.rounds_played += int(batch.rounds_played[:, seat].sum())
