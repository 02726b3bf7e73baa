"""``mini-eq``: an approximate equilibrium of Mini Thirty-One, shipped as a table and played as a
bot (numpy and the standard library only; no OpenSpiel at play time).

Mini Thirty-One is the preset ``mini`` (a research variant, not a rule of RULES.md): two players,
one round, at most three turns, from the 8-card deck 9, Q, K, A of hearts and spades. Its game tree
is small enough to solve: ``examples/solve_mini.py`` walks it through the OpenSpiel game
``python_thirtyone`` and runs OpenSpiel's CFR+ on it (:mod:`thirtyone.agents.solve`) to an
approximate equilibrium, and writes the policy here, to ``data/mini-eq.npz``:

- ``keys``: ``uint64 [n]``, sorted: for each information set the bot can reach (its own earlier
  moves all have a probability above 0), the first 8 bytes of BLAKE2b of its information-state
  string (:func:`information_key`), as an unsigned big-endian integer;
- ``probs``: ``uint8 [n, 4]``: the probabilities of its legal ids in increasing order, in 255ths
  (each row sums to 255; a decision of the mini game has at most four legal ids);
- ``meta``: ``uint8 [k]``, UTF-8 JSON: the format, the solved game's parameters, the iterations,
  and the NashConv of this table (lives), measured on the table itself, after rounding.

The solved game is seat 0 first to play and seat 1 the dealer (``first_dealer=1``); at any table of
the mini rules the bot maps seats so that the dealer is 1 (a round after a tie R2.6 saved, dealt
by the other seat, is the same game again).

>>> from thirtyone import Rules
>>> from thirtyone.bots.runner import play_game
>>> bot = make_bot(1)
>>> bot.name, bot.table.nash_conv < 0.01
('mini-eq', True)
>>> play_game(Rules.preset("mini"), [bot, make_bot(2)], seed=3).is_over
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.actions import Action
from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import legal_ids
from thirtyone.agents.observation import information_text
from thirtyone.bots import UnknownBotError
from thirtyone.bots.base import SeededBot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.errors import ArgumentError
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules
from thirtyone.views import PlayerView

__all__ = [
    "FORMAT",
    "WIDTH",
    "DEALER",
    "EquilibriumTable",
    "MiniEquilibriumBot",
    "information_key",
    "key_hash",
    "default_table",
    "make_bot",
]

FORMAT = "thirtyone-mini-eq-1"
"""The ``format`` of a table's ``meta`` (a file of another format is refused)."""
WIDTH = 4
"""The most legal ids a decision of the mini game has (a discard from four cards)."""
DEALER = 1
"""The dealer's seat in the solved game (``first_dealer``): seat 0 plays first."""
RULES = PRESETS["mini"]
"""The rules the table was solved for."""


def information_key(view: PlayerView) -> str:
    """The information-state string of the solved game (``python_thirtyone`` with
    :func:`thirtyone.agents.solve.mini_params`) for ``view``'s seat at this moment: the round so
    far as the seat saw it and its hand now, the seats renamed so that the dealer is seat
    :data:`DEALER`."""
    dealer = view.dealer

    def seat_of(seat: int) -> int:
        return (seat - dealer + DEALER) % view.players

    return information_text(view.seat, view.history, view.hand, seat_of)


def key_hash(text: str) -> int:
    """A string's 64-bit key in a table: the first 8 bytes of its BLAKE2b, big-endian."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


@dataclass
class EquilibriumTable:
    """A policy as a table (see the module): ``keys`` ``uint64 [n]`` sorted, ``probs`` ``uint8
    [n, 4]`` in 255ths of the legal ids in increasing order, and ``meta`` (a dict)."""

    keys: npt.NDArray[np.uint64]
    probs: npt.NDArray[np.uint8]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def nash_conv(self) -> float:
        """The NashConv the solver measured of this table (lives; ``inf`` if not given)."""
        return float(self.meta.get("nash_conv", float("inf")))

    @classmethod
    def from_policy(cls, policy: Mapping[str, Sequence[float]], meta: Mapping[str, Any]) -> EquilibriumTable:
        """A table of ``policy`` (information-state string → probabilities of the legal ids),
        rounded to 255ths (largest remainders, so each row sums to 255). Every string is kept:
        leave out those the policy cannot reach before (see :func:`thirtyone.agents.solve.tabulate`).

        Raises:
            ArgumentError: for a row of more than :data:`WIDTH` ids, or two strings with one key.
        """
        items = sorted((key_hash(text), probs) for text, probs in policy.items())
        keys = np.array([key for key, _ in items], dtype=np.uint64)
        if len(np.unique(keys)) != len(keys):
            raise ArgumentError("two information-state strings have the same 64-bit key: the table cannot hold them")
        rows = np.zeros((len(items), WIDTH), dtype=np.uint8)
        for row, (_, probs) in enumerate(items):
            if len(probs) > WIDTH:
                raise ArgumentError(f"a decision with {len(probs)} legal ids: a table holds {WIDTH} at most")
            rows[row, : len(probs)] = _in_255ths(probs)
        return cls(keys, rows, dict(meta))

    def policy(self, text: str, legal: int) -> list[float] | None:
        """The probabilities of ``legal`` ids at the information-state string ``text``, or ``None``
        when the table does not hold it."""
        key = np.uint64(key_hash(text))
        at = int(np.searchsorted(self.keys, key))
        if at == len(self.keys) or self.keys[at] != key:
            return None
        row = self.probs[at].astype(np.float64)
        if row[legal:].any() or not row[:legal].any():
            return None  # the string is another's: a 64-bit collision with one the table holds
        return list(row[:legal] / row[:legal].sum())

    def save(self, path: str | Path) -> None:
        """Write the table as a compressed ``.npz`` file."""
        meta = np.frombuffer(json.dumps({"format": FORMAT, **self.meta}, sort_keys=True).encode(), dtype=np.uint8)
        np.savez_compressed(path, keys=self.keys, probs=self.probs, meta=meta)

    @classmethod
    def load(cls, path: str | Path) -> EquilibriumTable:
        """Read a table written by :meth:`save` (never unpickling: ``allow_pickle=False``).

        Raises:
            UnknownBotError: naming the file and what is wrong with it (missing, not a table, of
                another format or shape).
        """
        where = f"equilibrium table {str(path)!r}"
        try:
            with np.load(path, allow_pickle=False) as data:
                keys, probs, meta_bytes = data["keys"], data["probs"], data["meta"]
            meta = json.loads(bytes(meta_bytes.astype(np.uint8)).decode("utf-8"))
        except FileNotFoundError:
            raise UnknownBotError(f"{where}: no such file") from None
        except (OSError, ValueError, KeyError, UnicodeDecodeError) as error:
            raise UnknownBotError(f"{where}: not a table of examples/solve_mini.py ({error})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise UnknownBotError(f"{where}: its format is not {FORMAT}")
        if keys.dtype != np.uint64 or keys.ndim != 1 or probs.dtype != np.uint8 or probs.shape != (len(keys), WIDTH):
            raise UnknownBotError(f"{where}: keys must be uint64 [n] and probs uint8 [n, {WIDTH}]")
        return cls(keys, probs, meta)


def _in_255ths(probs: Sequence[float]) -> list[int]:
    """Probabilities as whole 255ths summing to 255 (largest remainders)."""
    total = sum(probs)
    exact = [255 * p / total for p in probs]
    whole = [int(x) for x in exact]
    for k in sorted(range(len(exact)), key=lambda k: whole[k] - exact[k])[: 255 - sum(whole)]:
        whole[k] += 1
    return whole


@cache
def default_table() -> EquilibriumTable:
    """The table shipped in the package (``thirtyone/agents/data/mini-eq.npz``), read once."""
    with resources.as_file(resources.files("thirtyone.agents") / "data" / "mini-eq.npz") as path:
        return EquilibriumTable.load(path)


class MiniEquilibriumBot(SeededBot):
    """Plays the mini rules (heads-up, ``Rules.preset("mini")``) by an equilibrium table: at each
    decision it draws a legal id with the table's probabilities, from its seeded source.

    Raises:
        ArgumentError: from :meth:`choose`, for a game of other rules or more players.
    """

    name = "mini-eq"

    def __init__(self, seed: int | None = None, table: EquilibriumTable | None = None) -> None:
        super().__init__(seed)
        self.table = default_table() if table is None else table
        self._fallback = HeuristicBot(self.rng.getrandbits(32))

    def cannot_play(self, rules: Rules, players: int) -> str | None:
        """Why it cannot play ``rules`` with ``players`` (``None`` for the mini rules heads-up)."""
        if rules == RULES and players == 2:
            return None
        return f"mini-eq plays the preset mini heads-up (2 players), not {rules.describe()} with {players} players"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        refusal = self.cannot_play(view.rules, view.players)
        if refusal is not None:
            raise ArgumentError(refusal)
        ids = sorted(legal_ids(view))
        probs = self.table.policy(information_key(view), len(ids))
        if probs is None:  # a decision the table's own play never reaches: the heuristic's move
            return self._fallback.choose(view, legal)
        return action_from_id(view, self.rng.choices(ids, probs)[0])


def make_bot(seed: int | None = None, path: str | None = None) -> MiniEquilibriumBot:
    """The factory of ``mini-eq`` (entry point ``thirtyone.bots``): the shipped table, or the one
    at ``path`` (``mini-eq:runs/mini.npz``).

    Raises:
        UnknownBotError: for a table that cannot be read (naming the file and why).
    """
    return MiniEquilibriumBot(seed, None if path is None else EquilibriumTable.load(path))
