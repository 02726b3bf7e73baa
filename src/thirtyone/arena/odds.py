"""The odds of a variant (``thirtyone analyze``): what a card player can know before and during a
round, exact where the cards can be enumerated and simulated elsewhere, each figure saying which
(``method``: ``exact`` or ``simulated``, and ``how``).

The sections, in the order :meth:`Analysis.run` computes them (:data:`SECTIONS`):

- ``hands`` (exact, :mod:`~thirtyone.arena.odds_cards`): the value of every hand of three cards
  the deck can deal, its mean, and the chance of a dealt blitz (R5.2) for one hand and for anyone
  at a table of each size the deck deals.
- ``lowest``: the chance a dealt hand is the lowest at the table (tied included), by its value and
  the number of players: exact for two players, dealt at random for more (``deals`` tables each).
- ``heuristic`` (simulated on the compiled simulator, :func:`thirtyone.sim.iter_rounds`, the
  heuristic in every seat, ``rounds`` rounds at full lives, seat 0 dealing): a knock's chance of
  costing the knocker a life, by its hand and its own turn; the lives each place after the dealer
  loses a round; the turns a round lasts.
- ``expert`` (simulated on the engine): the same knock table for a strong player in every seat,
  over the first rounds of ``expert_rounds`` games: the learned judge where it plays the table,
  else the expert (a search in Python, far slower; :meth:`Sizes.at_table
  <thirtyone.arena.odds_options.Sizes.at_table>`), unless ``sizes`` names the bot.
- ``draws`` (simulated): the visible card against the hidden one by the points it gains: the
  discard pile's top card against a stock draw (draw mode), the best exchange with the widow
  against a pass (widow mode); ``positions`` positions of the heuristic's play, each played out
  after both moves (:mod:`~thirtyone.arena.odds_play`).
- ``games`` (simulated on the compiled simulator, ``games`` whole games of the heuristic): the win
  share by place after the first dealer, and a game's length in rounds and turns.

Sections the compiled simulator plays are skipped, with the reason, for rules it cannot play
(:func:`thirtyone.sim.cannot_play`); a size of 0 skips its section. Every simulated figure is
repeatable from ``seed`` (but an expert with a time budget); each section draws its own seeds.

Ctrl-C during :meth:`Analysis.run` keeps what is done: a section adds a whole chunk at a time
(one attribute set), so the section it stopped in holds the chunks it finished (``partial``) and
the sections after it are ``not run``.

>>> from thirtyone.rules import Rules
>>> analysis = Analysis(Rules.preset("schwimmen"), players=3, sizes=Sizes(deals=0, rounds=0, positions=0,
...     games=0, expert_rounds=0)).run()
>>> [analysis.status(name) for name in SECTIONS]
['done', 'done', 'skipped', 'skipped', 'skipped', 'skipped']
>>> analysis.hands is not None and str(analysis.hands.blitz)   # 24 hands of 31 and 4 of three aces
'7/1240'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from itertools import islice
from typing import Any

import numpy as np

from thirtyone.arena.odds_cards import HandValues
from thirtyone.arena.odds_cards import Lowest
from thirtyone.arena.odds_cards import deal_lowest
from thirtyone.arena.odds_cards import hand_values
from thirtyone.arena.odds_cards import lowest_two
from thirtyone.arena.odds_cards import value_table
from thirtyone.arena.odds_options import SIZES
from thirtyone.arena.odds_options import OddsError
from thirtyone.arena.odds_options import Sizes
from thirtyone.arena.odds_play import WORLDS
from thirtyone.arena.odds_play import DrawTable
from thirtyone.arena.odds_play import KnockTable
from thirtyone.arena.odds_play import SeatTable
from thirtyone.arena.odds_play import draw_positions
from thirtyone.arena.odds_play import expert_first_round
from thirtyone.arena.odds_play import knocks_of_rounds
from thirtyone.arena.odds_play import seat_bots
from thirtyone.arena.odds_play import value_draws
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import Rules

__all__ = ["SECTIONS", "Analysis", "Advance", "Progress"]

SECTIONS = ("hands", "lowest", "heuristic", "expert", "draws", "games")
"""The sections, in the order they are computed."""

_NEEDS = {"heuristic": "rounds", "expert": "expert_rounds", "draws": "positions", "games": "games"}
_ON_SIM = ("heuristic", "draws", "games")  # the sections the compiled simulator plays

_CHUNK_DEALS = 20_000
_CHUNK_ROUNDS = 1 << 15
_CHUNK_GAMES = 1 << 13
_CHUNK_POSITIONS = 256


Advance = Callable[[int], None]
Progress = Callable[[str, int], Advance]
"""``progress(label, total)`` is called as a section starts with the trials it will run and
returns ``advance(count)``, called as they are done (a progress bar)."""


def _quiet(label: str, total: int) -> Advance:
    return lambda count: None


def _seeds(seed: int, section: str) -> Iterator[int]:
    """A section's own stream of 63-bit seeds from the analysis's seed (no two sections share deals)."""
    rng = random.Random(f"{seed}/{section}")
    while True:
        yield rng.getrandbits(63)


@dataclass
class Analysis:
    """The odds of ``rules`` at a table of ``players``, filled in by :meth:`run` section by section
    (see the module's docstring); ``seed`` (0 to 2**63 - 1) makes every simulated figure repeatable.

    :attr:`sizes` holds the knocks' bot and rounds as chosen for the table, :attr:`fallback` why
    the judge does not play them (``None`` where it does, or where ``sizes`` named the bot).

    Raises (when made):
        RulesError: when the rules cannot be dealt to ``players`` (R2.1).
        OddsError: for a seed that is not a whole number from 0 to 2**63 - 1, or a named bot that
            cannot play the table.
    """

    rules: Rules
    players: int = 4
    sizes: Sizes = field(default_factory=Sizes)
    seed: int = 1
    hands: HandValues | None = None
    lowest: Lowest | None = None
    heuristic: KnockTable | None = None
    expert: KnockTable | None = None
    draws: DrawTable | None = None
    seats: SeatTable = field(init=False)
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    stopped: str | None = None
    running: str | None = None
    fallback: str | None = field(init=False)

    def __post_init__(self) -> None:
        self.players = self.rules.check_players(self.players)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**63:
            raise OddsError(f"seed {self.seed!r}: give a whole number from 0 to 2**63 - 1")
        self.sizes, self.fallback = self.sizes.at_table(self.rules, self.players)
        self.seats = SeatTable(self.players)

    @property
    def partial(self) -> bool:
        """Whether the run was stopped before every section was done."""
        return self.stopped is not None

    def table_sizes(self) -> list[int]:
        """The numbers of players the deck deals (R2.1), for the figures by number of players."""
        sizes = []
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            try:
                sizes.append(self.rules.check_players(players))
            except ThirtyOneError:
                break
        return sizes

    def run(self, progress: Progress = _quiet) -> Analysis:
        """Compute every section in turn (:data:`SECTIONS`) and return this analysis.

        Raises:
            KeyboardInterrupt: re-raised after :attr:`stopped` is set: what was done stays
                (:attr:`partial`, :meth:`status`).
            BotError: when the knocks' bot fails.
        """
        from thirtyone import sim

        cannot = sim.cannot_play(self.rules)
        steps: dict[str, Callable[[Progress], None]] = {
            "hands": self._run_hands,
            "lowest": self._run_lowest,
            "heuristic": self._run_heuristic,
            "expert": self._run_expert,
            "draws": self._run_draws,
            "games": self._run_games,
        }
        for name, step in steps.items():
            size = _NEEDS.get(name)
            if size is not None and getattr(self.sizes, size) == 0:
                self.skipped[name] = f"{size.replace('_', '-')} 0"
                continue
            if cannot and name in _ON_SIM:
                self.skipped[name] = cannot
                continue
            start = time.perf_counter()
            self.running = name
            try:
                step(progress)
            except KeyboardInterrupt:
                self.stopped = "interrupted"
                raise
            finally:
                self.seconds[name] = time.perf_counter() - start
            self.running = None
        return self

    def _run_hands(self, progress: Progress) -> None:
        self.hands = hand_values(self.rules)

    def _run_lowest(self, progress: Progress) -> None:
        self.lowest = Lowest(lowest_two(self.rules))
        more = [players for players in self.table_sizes() if players > 2]
        if not self.sizes.deals or not more:
            return
        advance = progress("lowest hand", self.sizes.deals * len(more))
        rng = np.random.default_rng(next(_seeds(self.seed, "lowest")))
        table = value_table(self.rules)
        for players in more:
            left = self.sizes.deals
            while left:
                count = min(left, _CHUNK_DEALS)
                self.lowest = self.lowest.plus(players, *deal_lowest(self.rules, players, count, rng, table))
                left -= count
                advance(count)

    def _run_heuristic(self, progress: Progress) -> None:
        from thirtyone import sim
        from thirtyone.sim.codes import E_THROW

        self.heuristic = KnockTable()
        advance = progress("heuristic rounds", self.sizes.rounds)
        seed = next(_seeds(self.seed, "heuristic"))
        for batch in sim.iter_rounds(
            self.rules, self.players, self.sizes.rounds, "heuristic", seed, chunk=_CHUNK_ROUNDS
        ):
            rows, turns = knocks_of_rounds(self.players, 0, batch.knocked, batch.turns, batch.end == E_THROW)
            knocker = batch.knocked[rows]
            table = self.heuristic.plus(len(batch), batch.values[rows, knocker], turns, batch.lost[rows, knocker])
            seats = self.seats.plus_rounds(batch.lost, batch.turns)
            self.heuristic, self.seats = table, seats  # one chunk at a time: an interruption keeps both or neither
            advance(len(batch))

    def _run_expert(self, progress: Progress) -> None:
        assert self.sizes.expert is not None  # chosen for the table when made, as the rounds
        assert self.sizes.expert_rounds is not None
        self.expert = KnockTable()
        advance = progress(f"{self.sizes.expert} rounds", self.sizes.expert_rounds)
        bot = seat_bots(self.sizes.expert, self.rules, self.players)
        for seed in islice(_seeds(self.seed, "expert"), self.sizes.expert_rounds):
            knock = expert_first_round(self.rules, self.players, bot, seed)
            halves, turns, lost = ([], [], []) if knock is None else ([knock[0]], [knock[1]], [knock[2]])
            self.expert = self.expert.plus(1, halves, turns, lost)
            advance(1)

    def _run_draws(self, progress: Progress) -> None:
        self.draws = DrawTable(self.rules.mode)
        label = "pile or stock" if self.rules.mode == "draw" else "exchange or pass"
        advance = progress(label, self.sizes.positions)
        found = draw_positions(self.rules, self.players, _seeds(self.seed, "draws"))
        rollout_seeds = _seeds(self.seed, "draws/rollouts")
        left = self.sizes.positions
        while left:
            chunk = list(islice(found, min(left, _CHUNK_POSITIONS)))
            if not chunk:  # the rules never offer the choice
                break
            hidden, visible = value_draws(chunk, next(rollout_seeds))
            self.draws = self.draws.plus(chunk, hidden, visible)
            left -= len(chunk)
            advance(len(chunk))

    def _run_games(self, progress: Progress) -> None:
        from thirtyone import sim
        from thirtyone.sim import CounterChance

        advance = progress("heuristic games", self.sizes.games)
        seeds = _seeds(self.seed, "games")
        left = self.sizes.games
        while left:
            chunk = list(islice(seeds, min(left, _CHUNK_GAMES)))
            batch = sim.play_games(self.rules, self.players, "heuristic", chunk)
            first = np.array([CounterChance(seed).first_dealer(self.players) for seed in chunk], dtype=np.int64)
            places = (np.asarray(batch.winner, dtype=np.int64) - first - 1) % self.players
            self.seats = self.seats.plus_games(places, batch.rounds, batch.turns)
            left -= len(chunk)
            advance(len(chunk))

    def status(self, name: str) -> str:
        """Section ``name``'s state: ``done``, ``partial`` (stopped in it), ``skipped`` or ``not run``
        (stopped before it, or not run yet)."""
        if name in self.skipped:
            return "skipped"
        if name == self.running:
            return "partial"
        return "done" if name in self.seconds else "not run"

    def to_dict(self) -> dict[str, Any]:
        """Everything measured, as plain data (``thirtyone analyze --json``): the rules, players,
        seed and sizes, whether the run is ``partial``, and each section with its ``status``
        (``reason`` when skipped), its ``seconds``, ``method`` (``exact`` or ``simulated``; by number
        of players for ``lowest``), ``how`` and figures."""
        data: dict[str, Any] = {
            "rules": self.rules.describe(),
            "options": self.rules.options(),
            "players": self.players,
            "seed": self.seed,
            "sizes": {
                **{name: getattr(self.sizes, name) for name in SIZES},
                "expert": self.sizes.expert,
                "worlds": WORLDS,
            },
            "partial": self.partial,
            "stopped": self.stopped,
            "sections": {},
        }
        for name in SECTIONS:
            entry: dict[str, Any] = {"status": self.status(name)}
            if name in self.skipped:
                entry["reason"] = self.skipped[name]
            if name in self.seconds:
                entry["seconds"] = round(self.seconds[name], 3)
            entry.update(self._section(name))
            data["sections"][name] = entry
        return data

    def _section(self, name: str) -> dict[str, Any]:
        if name == "hands" and self.hands is not None:
            return self.hands.to_dict(self.table_sizes())
        if name == "lowest" and self.lowest is not None:
            return self.lowest.to_dict()
        if name == "heuristic" and self.heuristic is not None:
            how = "the compiled simulator's heuristic in every seat, rounds dealt at full lives; 95% Wilson intervals"
            return {**self.heuristic.to_dict(how), "seats": self.seats.rounds_dict()}
        if name == "expert" and self.expert is not None:
            how = f"{self.sizes.expert} in every seat on the engine, first rounds of games; 95% Wilson intervals"
            why = {} if self.fallback is None else {"fallback": self.fallback}
            return {**self.expert.to_dict(how), "bot": self.sizes.expert, **why}
        if name == "draws" and self.draws is not None:
            return self.draws.to_dict()
        if name == "games" and self.seats.games:
            return self.seats.games_dict()
        return {}
