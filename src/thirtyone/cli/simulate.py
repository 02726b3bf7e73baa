"""``thirtyone simulate``: many bot games, a progress bar and a results table."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from thirtyone.bots import BOTS, parse_bot_list
from thirtyone.bots.runner import SeatStats, SimulationStats, game_seeds, simulate
from thirtyone.cli.options import add_rules_arguments, rules_from_args
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.record import GameRecord
from thirtyone.rules import Rules

__all__ = ["configure", "run"]

MAX_GAMES = 10_000_000


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``simulate``."""
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players, 2-9 (default 4)")
    parser.add_argument(
        "--bots",
        default="basic",
        metavar="LIST",
        help=f"bots by seat, comma separated, the last repeating ({', '.join(BOTS)}; default basic)",
    )
    parser.add_argument("--games", type=int, default=100, metavar="G", help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="seed: same seed, same results")
    parser.add_argument("--record", type=Path, default=None, metavar="DIR", help="save every game's record here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--engine",
        choices=("auto", "reference", "sim"),
        default="auto",
        help="what plays the games: the compiled simulator (sim, for random and basic bots; needs "
        "numba), the reference engine, or auto: sim when it can, else the engine (default)",
    )
    add_rules_arguments(parser)


class SimulateError(ThirtyOneError):
    """Bad arguments to ``simulate``."""


def run(args: argparse.Namespace) -> int:
    """Play the games and print the results."""
    rules = rules_from_args(args)
    rules.check_players(args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise SimulateError(f"--games {args.games}: play from 1 to {MAX_GAMES:,} games")
    names = parse_bot_list(args.bots, args.players)
    record_dir: Path | None = args.record
    fast = _use_sim(args.engine, names, record_dir, rules)
    if record_dir is not None:
        _check_record_dir(record_dir)
    console = Console(stderr=True)

    with Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=args.json and not console.is_terminal,
    ) as progress:
        task = progress.add_task("games", total=args.games)

        def on_game(index: int, game: Game) -> None:
            if record_dir is not None:
                seats = [f"{name} (seat {seat})" for seat, name in enumerate(names)]
                text = GameRecord.from_game(game, seats, event="thirtyone simulate").dumps()
                (record_dir / f"game-{index + 1:06d}.toml").write_text(text, encoding="utf-8")
            progress.advance(task)

        if fast:
            stats = _simulate_fast(rules, names, args.games, args.seed, lambda count: progress.advance(task, count))
        else:
            stats = simulate(rules, names, args.games, args.seed, on_game)

    if args.json:
        print(json.dumps({**stats.to_dict(), "engine": "sim" if fast else "reference"}, indent=2))
    else:
        _print_tables(Console(), stats)
        Console(stderr=True).print(f"[dim]played by the {'compiled simulator' if fast else 'reference engine'}[/]")
    return 0


_SIM_BOTS = ("random", "basic")  # the simulator's policies that are exactly these bots


def _use_sim(engine: str, names: list[str], record_dir: Path | None, rules: Rules) -> bool:
    """Whether the compiled simulator plays the games (``--engine``), or the reference engine."""
    if engine == "reference":
        return False
    reasons = []
    if any(name not in _SIM_BOTS for name in names):
        reasons.append(f"it plays only the {' and '.join(_SIM_BOTS)} bots exactly")
    if record_dir is not None:
        reasons.append("it keeps no game records (--record)")
    if not reasons:
        from thirtyone import sim

        if not sim.available():
            reasons.append(sim.unavailable_reason())
        else:
            from thirtyone.sim.params import check_covered

            try:
                check_covered(rules)
            except sim.UnsupportedRulesError as error:
                reasons.append(str(error))
    if engine == "sim" and reasons:
        raise SimulateError(f"--engine sim: {'; '.join(reasons)}; use --engine reference or auto")
    return not reasons


def _simulate_fast(
    rules: Rules, names: list[str], games: int, seed: int | None, advance: Callable[[int], None]
) -> SimulationStats:
    """The games played by :mod:`thirtyone.sim` (game ``g`` from the ``g``-th of :func:`game_seeds`),
    totalled as :func:`~thirtyone.bots.runner.simulate` totals them."""
    from thirtyone import sim

    totals = sim.GameTotals(rules, tuple(names))
    for batch in sim.iter_games(rules, len(names), names, game_seeds(seed, games), chunk=4096):
        totals.add(batch)
        advance(len(batch))
    stats = SimulationStats(rules, names)
    stats.games, stats.rounds, stats.turns = totals.games, totals.rounds, totals.turns
    stats.knocks, stats.blitzes = totals.knocks, totals.blitzes
    stats.ends.update(totals.ends)
    stats.lives_by_rule.update(totals.lives_by_rule)
    for seat, row in enumerate(stats.seats):
        row.wins, row.knocks = totals.wins[seat], totals.seat_knocks[seat]
        row.knocks_lost, row.lives_lost = totals.seat_knocks_lost[seat], totals.seat_lives_lost[seat]
        row.places.update(totals.places[seat])
    return stats


def _check_record_dir(folder: Path) -> None:
    """A folder for the records: new, or without records of an earlier run (they are not overwritten)."""
    if folder.exists() and not folder.is_dir():
        raise SimulateError(f"--record {folder}: that is a file; give a folder for the game records")
    if folder.is_dir() and any(folder.glob("game-*.toml")):
        raise SimulateError(f"--record {folder}: the folder already holds game records; give a new or empty folder")
    folder.mkdir(parents=True, exist_ok=True)


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def _print_tables(console: Console, stats: SimulationStats) -> None:
    games = stats.games
    console.print(
        f"[bold]{_count(games, 'game')}[/] of {stats.rules.describe()} with {len(stats.bots)} players: "
        f"{stats.rounds / games:.2f} rounds a game, {stats.turns / stats.rounds:.2f} turns a round, "
        f"{_count(stats.knocks, 'knock')}, {_count(stats.blitzes, 'blitz')}".replace("blitzs", "blitzes")
    )
    places = range(1, len(stats.bots) + 1)
    groups = [("seat", stats.seats), ("bot", list(stats.by_bot().values()))]
    for label, rows in groups:
        table = _table(
            f"Results by {label}",
            "seat",
            "bot",
            "wins",
            "share",
            "mean place",
            "knocks",
            "knocks that lost lives",
            "lives lost",
        )
        for row in rows:
            table.add_row(
                _seat_label(row, stats),
                row.bot,
                str(row.wins),
                f"{row.wins / games:.1%}",
                f"{row.mean_place:.2f}",
                str(row.knocks),
                str(row.knocks_lost),
                str(row.lives_lost),
            )
        console.print(table)
    table = _table("Places (games finished in each place)", "seat", "bot", *map(str, places))
    for _, rows in groups:
        for row in rows:
            table.add_row(_seat_label(row, stats), row.bot, *(str(row.places.get(place, 0)) for place in places))
    console.print(table)
    table = _table("How rounds ended", "end", "rounds")
    for end, count in sorted(stats.ends.items(), key=lambda item: -item[1]):
        table.add_row(end, str(count))
    console.print(table)
    table = _table("Lives lost by rule", "rule", "lives")
    for rule, count in sorted(stats.lives_by_rule.items()):
        table.add_row(rule, str(count))
    console.print(table)


def _seat_label(row: SeatStats, stats: SimulationStats) -> str:
    return ",".join(map(str, stats.seats_of(row.bot))) if row.seat < 0 else str(row.seat)


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "end", "rule") else "right")
    return table
