"""A league: a set of bots rated against each other over duplicate deals in several presets, and
its leaderboard (Markdown for people, JSON for programs).

Every table of ``players`` distinct bots of the set (all the combinations; one table when the set
has as many bots as seats) plays ``deals`` deals of each preset, each deal once per rotation of the
table's bots through the seats (:mod:`~thirtyone.arena.schedule`: every bot meets the same cards in
every seat); every table of a preset plays the same deals. Bots are any name ``make_bot`` takes:
built-in (``expert:50``), registered by an installed package (``greedy``), or ``module:factory``.

For each bot the leaderboard gives:

- its **rating**: one openskill Plackett-Luce rating over every finished game of the league, in a
  fixed order (preset, table, deal, rotation), each game a match of its seats ranked by their
  places: ``mu ± sigma`` and the ordinal ``mu - 3 sigma`` it is ranked by;
- its **win share** (games won / games played, fair share ``1 / players``) with its 95% Wilson
  interval, overall and in each preset, and the lives it lost per round it was dealt in;
- its **time per decision**: the mean CPU seconds a move took it (the process's own CPU time, its
  view and the move applied included, so that the machine's other load does not count), and the
  games it failed (a bot that raises or plays an illegal move loses only that game, which is left
  out of the ratings).

The same bots, presets, deals and seed give the same ratings and shares (the times differ).

>>> from thirtyone.arena import LocalBackend
>>> with LocalBackend(jobs=1) as backend:
...     league = run_league(["basic", "random"], ["scat", "schwimmen"], players=2, deals=3, seed=1, backend=backend)
>>> [(row.name, row.games, row.fair_share) for row in league.rows]
[('basic', 12, 0.5), ('random', 12, 0.5)]
>>> print(league_markdown(league).splitlines()[0])
# Leaderboard
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from openskill.models import PlackettLuce

from thirtyone.arena.backends import Backend
from thirtyone.arena.play import GameResult
from thirtyone.arena.run import run_arena
from thirtyone.arena.schedule import ArenaError
from thirtyone.arena.schedule import make_schedule
from thirtyone.arena.stats import Rating
from thirtyone.arena.stats import WinRecord
from thirtyone.bots import make_bot
from thirtyone.bots.base import table_refusal
from thirtyone.errors import RulesError
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules

__all__ = [
    "League",
    "LeagueRow",
    "league_tables",
    "league_rules",
    "check_league",
    "run_league",
    "league_markdown",
    "league_dict",
    "MAX_TABLES",
]

MAX_TABLES = 10_000
"""The most tables (combinations of bots) a league may have."""


@dataclass
class LeagueRow(WinRecord):
    """One bot's totals in a league (see the module): ``games`` finished and ``wins``, per preset
    (``by_preset``: preset → ``[wins, games]``), ``rounds_played`` and ``lives_lost``, ``failed``
    games, ``decisions`` timed and their ``seconds``, and its ``rating``."""

    name: str
    players: int
    games: int = 0
    wins: int = 0
    rounds_played: int = 0
    lives_lost: int = 0
    failed: int = 0
    decisions: int = 0
    seconds: float = 0.0
    by_preset: dict[str, list[int]] = field(default_factory=dict)
    rating: Rating = field(default_factory=lambda: Rating(25.0, 25.0 / 3))  # openskill's start

    @property
    def fair_share(self) -> float:
        """``1 / players``: the win share of a bot no better than the others."""
        return 1 / self.players

    @property
    def seconds_per_decision(self) -> float:
        """Mean CPU seconds a move took (0 with none)."""
        return self.seconds / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class League:
    """A league's leaderboard: its ``rows`` (best ordinal first) and what was played: ``bots``,
    ``presets``, ``players`` a table, ``tables`` (the combinations played), ``deals`` a table and
    preset, ``seed``, ``games`` finished and ``failed``, ``partial`` (interrupted or a backend
    failed: fewer games than scheduled)."""

    rows: tuple[LeagueRow, ...]
    bots: tuple[str, ...]
    presets: tuple[str, ...]
    players: int
    tables: tuple[tuple[str, ...], ...]
    deals: int
    seed: int
    games: int
    failed: int
    partial: bool


def league_tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tables of a league: every combination of ``players`` distinct bots, in list order.

    Raises:
        ArenaError: for fewer than two bots, a bot named twice, a table size outside 2–9 or above
            the number of bots, or more than :data:`MAX_TABLES` tables.
    """
    names = [name.strip() for name in bots]
    if len(names) < 2:
        raise ArenaError(f"a league needs at least two bots, not {len(names)}: give --bots a,b,...")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ArenaError(f"a league names each bot once: {', '.join(twice)} named twice")
    most = min(MAX_PLAYERS, len(names))
    if not MIN_PLAYERS <= players <= most:
        more = ", or name more bots in --bots" if most < MAX_PLAYERS and players > most else ""
        raise ArenaError(
            f"--players {players}: a league table seats {MIN_PLAYERS} to {most} of its {len(names)} bots; "
            f"give --players {MIN_PLAYERS}" + (f" to {most}" if most > MIN_PLAYERS else "") + more
        )
    count = math.comb(len(names), players)
    if count > MAX_TABLES:
        raise ArenaError(
            f"{count:,} tables of {players} of {len(names)} bots: at most {MAX_TABLES:,}; seat more a table"
        )
    return list(itertools.combinations(names, players))


def league_rules(presets: Sequence[str], options: Mapping[str, Any] | None = None) -> dict[str, Rules]:
    """The rules of each preset of a league, each once, in order, with the rule ``options``
    (``{"lives": 1}``, as :meth:`Rules.preset <thirtyone.rules.Rules.preset>` takes them) set on
    top of every preset.

    Raises:
        ArenaError: for no preset, a name that is not a preset (naming ``--presets`` and the
            presets there are), or an option a preset refuses (a bad value or a contradiction,
            naming the preset).
    """
    rules: dict[str, Rules] = {}
    for preset in dict.fromkeys(presets):
        try:
            rules[preset] = Rules.preset(preset, **(options or {}))
        except RulesError as error:
            where = f" {preset}" if preset in PRESETS else ""
            raise ArenaError(f"--presets{where}: {error}") from None
    if not rules:
        raise ArenaError("a league needs at least one preset: give --presets scat,...")
    return rules


def check_league(
    bots: Sequence[str],
    presets: Sequence[str],
    players: int,
    deals: int,
    options: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Rules], list[tuple[str, ...]]]:
    """Check a league before anything is played: its rules (:func:`league_rules`) and its tables
    (:func:`league_tables`), in order; every bot is made and asked whether it can play each
    preset's rules at a table of ``players`` (:func:`~thirtyone.bots.base.table_refusal`).

    Raises:
        ArenaError: for bad presets or options, bots or table size, ``deals`` below 1, or a bot
            that says it cannot play a preset at a table of ``players``.
        UnknownBotError: for a bot name that makes no bot (saying why).
        RulesError: for a table size a preset's deck cannot deal.
    """
    rules = league_rules(presets, options)
    tables = league_tables(bots, players)
    if not isinstance(deals, int) or deals < 1:
        raise ArenaError(f"a league plays at least one deal a table, not {deals!r}")
    for ruleset in rules.values():
        ruleset.check_players(players)
    for name in (name.strip() for name in bots):
        bot = make_bot(name, 0)  # an unknown or broken bot is said now, not as failed games
        for ruleset in rules.values():
            refusal = table_refusal(bot, ruleset, players)
            if refusal is not None:
                raise ArenaError(f"--bots {name}: {refusal}; leave it out of the league, or give presets it plays")
    return rules, tables


def run_league(
    bots: Sequence[str],
    presets: Sequence[str],
    players: int,
    deals: int,
    seed: int,
    backend: Backend,
    *,
    options: Mapping[str, Any] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> League:
    """Play the league (see the module) on a started ``backend``, the rule ``options`` set on top
    of every preset (:func:`league_rules`); ``on_progress(n)`` is told of every ``n`` games
    received. Nothing is played when a check of :func:`check_league` fails.

    Raises:
        ArenaError: for what :func:`check_league` refuses, or a backend that fails.
        UnknownBotError: for a bot name that makes no bot (saying why).
        RulesError: for a table size a preset's deck cannot deal.
    """
    rules, tables = check_league(bots, presets, players, deals, options)
    names = [name.strip() for name in bots]
    rows = {name: LeagueRow(name, players, by_preset={preset: [0, 0] for preset in rules}) for name in names}
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    games = failed = 0
    partial = False
    for preset, ruleset in rules.items():
        for table in tables:
            results: list[GameResult] = []
            outcome = run_arena(
                ruleset,
                make_schedule(table, deals * players),
                seed,
                backend,
                on_game=results.append,
                on_progress=on_progress,
            )
            if outcome.error:
                raise ArenaError(f"the league stopped ({preset}, table {', '.join(table)}): {outcome.error}")
            for result in results:
                _time(rows, result)
                if result.failure is not None:
                    rows[result.failure.bot].failed += 1
                    failed += 1
                    continue
                games += 1
                _count(rows, result, preset)
                order = [ratings[name] for name in result.bots]
                new = model.rate([[rating] for rating in order], ranks=[float(p) for p in result.places or ()])
                for name, team in zip(result.bots, new, strict=True):
                    ratings[name] = team[0]
            if outcome.interrupted or outcome.summary.partial:
                partial = True
                break
        if partial:
            break
    for name, row in rows.items():
        row.rating = Rating(ratings[name].mu, ratings[name].sigma)
    ordered = sorted(rows.values(), key=lambda row: (-row.rating.ordinal, -row.win_share, row.name))
    return League(
        tuple(ordered), tuple(names), tuple(rules), players, tuple(tables), deals, seed, games, failed, partial
    )


def _time(rows: dict[str, LeagueRow], result: GameResult) -> None:
    for name, decisions, seconds in zip(result.bots, result.decisions, result.seconds, strict=False):
        rows[name].decisions += decisions
        rows[name].seconds += seconds


def _count(rows: dict[str, LeagueRow], result: GameResult, preset: str) -> None:
    for seat, name in enumerate(result.bots):
        row = rows[name]
        won = int(result.winner == seat)
        row.games += 1
        row.wins += won
        row.by_preset[preset][0] += won
        row.by_preset[preset][1] += 1
        row.rounds_played += result.rounds_played[seat]
        row.lives_lost += result.lives_lost[seat]


def league_dict(league: League, command: str | None = None) -> dict[str, Any]:
    """The leaderboard as plain data for JSON: the run (``command`` when given) and one entry per
    bot, best first (shares as fractions, seconds per decision)."""
    bots = []
    for rank, row in enumerate(league.rows, start=1):
        low, high = row.win_interval
        bots.append(
            {
                "rank": rank,
                "bot": row.name,
                "mu": row.rating.mu,
                "sigma": row.rating.sigma,
                "ordinal": row.rating.ordinal,
                "games": row.games,
                "wins": row.wins,
                "win_share": row.win_share,
                "win_share_low": low,
                "win_share_high": high,
                "fair_share": row.fair_share,
                "by_preset": {
                    preset: {"games": games, "wins": wins, "win_share": wins / games if games else 0.0}
                    for preset, (wins, games) in row.by_preset.items()
                },
                "lives_per_round": row.lives_per_round,
                "seconds_per_decision": row.seconds_per_decision,
                "decisions": row.decisions,
                "failed": row.failed,
            }
        )
    run: dict[str, Any] = {
        "bots": list(league.bots),
        "presets": list(league.presets),
        "players": league.players,
        "tables": len(league.tables),
        "deals": league.deals,
        "seed": league.seed,
        "games": league.games,
        "failed": league.failed,
        "partial": league.partial,
    }
    if command is not None:
        run["command"] = command
    return {"format": "thirtyone-league-1", "run": run, "bots": bots}


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def league_markdown(league: League, command: str | None = None) -> str:
    """The leaderboard as a Markdown page: what was played (and ``command``, when given), the table
    of bots best first, and what its columns mean."""
    presets = ", ".join(f"`{preset}`" for preset in league.presets)
    lines = ["# Leaderboard", ""]
    lines.append(
        f"{len(league.bots)} bots, {len(league.tables)} table{'s' if len(league.tables) != 1 else ''} of "
        f"{league.players} (every combination), {league.deals} duplicate deal{'s' if league.deals != 1 else ''} "
        f"a table in each of {presets}, each deal in every rotation of the seats: {league.games:,} games"
        f"{f', {league.failed:,} failed' if league.failed else ''}, seed {league.seed}."
        + (" **Partial**: the league was stopped before its end." if league.partial else "")
    )
    if command is not None:
        lines += ["", "```sh", command, "```"]
    heads = ["rank", "bot", "rating μ ± σ", "ordinal", "games", "won", "95% interval"]
    heads += [f"won in `{preset}`" for preset in league.presets]
    heads += ["lives lost / round", "time / decision", "failed"]
    lines += ["", "| " + " | ".join(heads) + " |", "|" + "|".join("---" for _ in heads) + "|"]
    for rank, row in enumerate(league.rows, start=1):
        low, high = row.win_interval
        cells = [
            str(rank),
            f"`{row.name}`",
            f"{row.rating.mu:.1f} ± {row.rating.sigma:.1f}",
            f"{row.rating.ordinal:.1f}",
        ]
        cells += [f"{row.games:,}", f"{row.win_share:.1%}", f"{low:.1%}–{high:.1%}"]
        cells += [f"{wins / games:.1%}" if games else "–" for wins, games in row.by_preset.values()]
        cells += [f"{row.lives_per_round:.3f}", _seconds(row.seconds_per_decision), f"{row.failed:,}"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Rating: openskill's Plackett-Luce rating over every game of the league (each game a match of its "
        f"{league.players} seats ranked by their places); bots are ranked by the ordinal μ − 3σ. Won: games won "
        f"of the games played (fair share {1 / league.players:.0%}), with the 95% Wilson interval. Time / decision: "
        f"mean CPU time a move took (the process's own, its view and the move applied included), on the "
        f"machine that ran the league. Failed: games the bot ended by raising or playing an illegal move "
        f"(left out of the rest).",
        "",
    ]
    return "\n".join(lines)
