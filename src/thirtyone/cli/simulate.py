"""``thirtyone simulate``: many bot games, a progress bar and a results table.

Game ``g`` is played with the ``g``-th of :func:`~thirtyone.bots.runner.game_seeds` ``(--seed,
--games)``, dealt by :class:`thirtyone.sim.CounterChance` and, in the seats of ``random`` bots,
played by the simulator's counter-based random policy
(:func:`thirtyone.sim.rng.game_random_index`): the compiled simulator (``--engine sim``, for
``random`` and ``basic`` bots) and the reference engine (``--engine reference``, every bot, and
``--record``) play the same games and print the same results for the same seed. Ctrl-C prints
the games finished so far, marked partial, and exits with status 130; SIGTERM (``timeout``,
``kill``) does the same with status 143 (:func:`thirtyone.cli.stopping.stopping`); a game is
counted whole or not at all (:func:`~thirtyone.arena.interrupts.held`).

A bot that raises or returns an illegal action ends only its game, as in the arena
(:func:`thirtyone.arena.play.play_safely`): the game is left out of the statistics and counted as
failed, its record is saved as ``failed/game-NNNNNN.toml`` in the ``--record`` folder (else in
:data:`FAILED_DIR`), and the run ends with the first failure named on stderr and exit status 1.

Records are never written over those of an earlier run: a ``--record`` folder that holds game
records, or (for a run that may fail games: on the reference engine) a :data:`FAILED_DIR` that
holds failed games' records, is refused before any game is played, unless ``--overwrite``, which
removes them first.
"""

from __future__ import annotations

import argparse
import itertools
import json
import secrets
import sys
import threading
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from thirtyone.arena.interrupts import held
from thirtyone.arena.play import Failure
from thirtyone.arena.play import play_safely
from thirtyone.arena.report import FailureRecords
from thirtyone.arena.report import failed_games_line
from thirtyone.arena.report import progress_bar
from thirtyone.bots import BOTS
from thirtyone.bots.levels import SIM_BOTS
from thirtyone.bots.runner import BotError
from thirtyone.bots.runner import iter_game_seeds
from thirtyone.cli.options import add_engine_argument
from thirtyone.cli.options import add_rules_arguments
from thirtyone.cli.options import clear_failed_folder
from thirtyone.cli.options import make_folder
from thirtyone.cli.options import output_folder
from thirtyone.cli.options import parse_bots
from thirtyone.cli.options import plays_on_sim
from thirtyone.cli.options import rules_from_args
from thirtyone.cli.options import seed_number
from thirtyone.cli.options import whole_number
from thirtyone.cli.stopping import Stop
from thirtyone.cli.stopping import stopping
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.totals import GameTotals
from thirtyone.totals import SeatTotals

__all__ = [
    "configure",
    "run",
    "play_game",
    "play_game_safely",
    "simulate_reference",
    "FailedGame",
    "MAX_GAMES",
    "FAILED_DIR",
]

MAX_GAMES = 10_000_000

FAILED_DIR = Path("simulate-failed")
"""Where the records of failed games go without ``--record`` (relative to the working directory)."""

SHOW_FAILURES = 10
"""Failed games listed under the tables (all are in ``--json``)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``simulate``."""
    parser.add_argument(
        "--players", type=whole_number, default=None, metavar="N", help="players, 2-9 (default 4; 2 for the mini deck)"
    )
    parser.add_argument(
        "--bots",
        default="basic",
        metavar="LIST",
        help=f"bots by seat, comma separated, the last repeating ({', '.join(BOTS)}; default basic)",
    )
    parser.add_argument("--games", type=whole_number, default=100, metavar="G", help="games to play (default 100)")
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=None,
        metavar="S",
        help="seed: same seed, same games and results, whichever engine plays them",
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="save every game's record in this folder (new, or without game records; played by the reference "
        f"engine, with the same results); the record of a game a bot failed goes to DIR/failed/ (without "
        f"--record to {FAILED_DIR}/)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help=f"let this run replace the game records of an earlier one, in --record DIR or {FAILED_DIR}/ "
        "(removed first)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    add_engine_argument(parser)
    add_rules_arguments(parser)


class SimulateError(ThirtyOneError):
    """Bad arguments to ``simulate``."""


@dataclass(frozen=True)
class FailedGame:
    """A game a bot failed in: game ``number`` (1-based, as in the record names) played with
    ``seed``, what failed (arena's :class:`~thirtyone.arena.play.Failure`, with the record) and
    where the record was saved."""

    number: int
    seed: int
    failure: Failure
    record: Path

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON, as an arena failure with ``game`` and ``seed`` for its deal and rotation."""
        failure = self.failure
        return {
            "game": self.number,
            "seed": self.seed,
            "seat": failure.seat,
            "bot": failure.bot,
            "action": failure.action,
            "error": failure.error,
            "record": str(self.record),
        }


def run(args: argparse.Namespace) -> int:
    """Play the games and print the results; 0 when every game was played, 130 when Ctrl-C
    stopped the run and 143 when SIGTERM did (after printing the games finished so far, marked
    partial), 1 when a bot failed games (after the results of the others, naming the first
    failure on stderr)."""
    rules = rules_from_args(args)
    rules.check_players(args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise SimulateError(f"--games {args.games}: play from 1 to {MAX_GAMES:,} games")
    names = parse_bots(args.bots, args.players, rules)
    record_dir = _record_dir(args.record, args.overwrite)
    fast = plays_on_sim(args.engine, names, rules, SimulateError, record=record_dir is not None)
    if record_dir is not None:
        make_folder(record_dir, "--record", SimulateError)
        if args.overwrite:
            _remove_records(record_dir)
    elif not fast:  # the simulator's bots never fail: it writes no records
        clear_failed_folder(FAILED_DIR, args.overwrite, _failed_records, "--record DIR", SimulateError)
    console = Console(stderr=True)
    seed: int = args.seed if args.seed is not None else secrets.randbits(32)  # said, so a run can be repeated
    seeds = itertools.islice(iter_game_seeds(seed), args.games)  # one at a time: millions are not held
    stats = GameTotals(rules, tuple(names))
    records = FailureRecords(record_dir / "failed" if record_dir is not None else FAILED_DIR)
    failed: list[FailedGame] = []
    stopped: Stop | None = None

    if fast:
        load_kernels()
    with stopping() as stop:
        try:
            with progress_bar(console, args.games, label="simulating") as advance:

                def on_game(index: int, game: Game) -> None:
                    if record_dir is not None:
                        seats = [f"{name} (seat {seat})" for seat, name in enumerate(names)]
                        text = GameRecord.from_game(game, seats, event="thirtyone simulate").dumps()
                        (record_dir / _record_name(index + 1)).write_text(text, encoding="utf-8")
                    advance(1)

                def on_failure(index: int, seed: int, failure: Failure) -> None:
                    path = records.save(_record_name(index + 1), failure)
                    failed.append(FailedGame(index + 1, seed, failure, path))
                    advance(1)

                if fast:
                    _simulate_fast(rules, names, seeds, stats, advance)
                else:
                    simulate_reference(rules, names, seeds, stats, on_game, on_failure)
        except KeyboardInterrupt:
            stopped = stop

    engine = "sim" if fast else "reference"
    played = stats.games + len(failed)
    partial = stopped is not None or played < args.games
    if args.json:
        data = {**stats.to_dict(), "engine": engine, "seed": seed, "games_requested": args.games, "partial": partial}
        data["stopped"] = None if stopped is None else stopped.word
        _add_failures(data, failed)
        print(json.dumps(data, indent=2))
    else:
        out = Console()
        if partial:
            out.print(
                f"[bold red]PARTIAL RESULTS[/]: {played:,} of {args.games:,} games played"
                + (f" ({stopped.word})" if stopped is not None else "")
            )
        _print_tables(out, stats, seed, failed)
    console.print(f"[dim]played by the {'compiled simulator' if fast else 'reference engine'}[/]")
    if failed:
        first = failed[0]
        where = f"game {first.number} (seed {first.seed})"
        line = failed_games_line(len(failed), played, where, first.failure, first.record)
        console.print(line, markup=False, soft_wrap=True)
    if stopped is not None:
        console.print(f"thirtyone: {stopped.word}: the results above are partial", markup=False)
        return stopped.status
    return 1 if failed else 0


def _record_name(number: int) -> str:
    """The file name of game ``number``'s record (1-based): ``game-000012.toml``."""
    return f"game-{number:06d}.toml"


def _add_failures(data: dict[str, Any], failed: Sequence[FailedGame]) -> None:
    """Add the failed games to ``--json``'s ``data``: ``games_failed``, ``failures`` (in game
    order) and ``failed`` (the games each seat's or bot's bot failed) in each ``seats`` and ``bots`` entry."""
    by_seat = Counter(game.failure.seat for game in failed)
    data["games_failed"] = len(failed)
    data["failures"] = [game.to_dict() for game in failed]
    for entry in data["seats"]:
        entry["failed"] = by_seat[entry["seat"]]
    for entry in data["bots"]:
        entry["failed"] = sum(by_seat[seat] for seat in entry["seats"])


_RECORDS = ("game-*.toml", "failed/game-*.toml")
"""The game records of a run in its ``--record`` folder (those of failed games in ``failed/``)."""


def _earlier_records(folder: Path) -> list[str]:
    """The kinds of game records (:data:`_RECORDS`) an earlier run left in ``folder``."""
    return [pattern for pattern in _RECORDS if any(folder.glob(pattern))]


def _remove_records(folder: Path) -> None:
    """Remove an earlier run's game records from ``folder`` (``--overwrite``), so none is left among the new ones."""
    for pattern in _RECORDS:
        for path in folder.glob(pattern):
            path.unlink()


def _record_dir(text: str | None, overwrite: bool) -> Path | None:
    """The checked ``--record`` folder (:func:`~thirtyone.cli.options.output_folder`), ``None`` without one."""
    if text is None:
        return None
    return output_folder(text, overwrite, "--record", "game records", _earlier_records, SimulateError)


def _failed_records(folder: Path) -> list[Path]:
    """The records of failed games in :data:`FAILED_DIR` (``folder``)."""
    return sorted(folder.glob("game-*.toml"))


def play_game_safely(rules: Rules, names: Sequence[str], seed: int) -> tuple[Game, Failure | None]:
    """One game on the reference engine as :func:`thirtyone.sim.play_games` plays it with ``seed``
    when the simulator can: dealt by ``CounterChance(seed)``, a ``random`` seat picking with
    :func:`~thirtyone.sim.rng.game_random_index`; any other bot is ``make_bot(name, seed + seat + 1)``.
    A bot that fails ends the game (:func:`thirtyone.arena.play.play_safely`): the game up to the
    failing move and the failure, else the finished game and ``None``."""
    bot_seeds = [seed + seat + 1 for seat in range(len(names))]
    return play_safely(rules, names, seed, bot_seeds, event="thirtyone simulate")


def play_game(rules: Rules, names: Sequence[str], seed: int) -> Game:
    """The finished game of :func:`play_game_safely`.

    Raises:
        BotError: when a bot raises or returns an illegal action (names the bot, seat and action).
    """
    game, failure = play_game_safely(rules, names, seed)
    if failure is not None:
        raise BotError(failure.error)
    return game


def simulate_reference(
    rules: Rules,
    names: Sequence[str],
    seeds: Iterable[int],
    stats: GameTotals,
    on_game: Callable[[int, Game], None] | None = None,
    on_failure: Callable[[int, int, Failure], None] | None = None,
) -> None:
    """Play game ``g`` with the ``g``-th of ``seeds`` (:func:`play_game_safely`) and add it to
    ``stats``, one after another; ``on_game(index, game)`` is called after each (records,
    progress). A game a bot failed is left out of ``stats`` and passed to ``on_failure(index,
    seed, failure)``. An interruption leaves ``stats`` holding the games finished before it.

    Raises:
        BotError: for a failed game when there is no ``on_failure``.
    """
    for index, game_seed in enumerate(seeds):
        game, failure = play_game_safely(rules, names, game_seed)
        with held():  # counted whole or not at all, whenever Ctrl-C comes
            if failure is not None:
                if on_failure is None:
                    raise BotError(failure.error)
                on_failure(index, game_seed, failure)
                continue
            if on_game is not None:
                on_game(index, game)
            stats.add_game(game)


_FAST_CHUNK = 4096
"""Games the simulator plays at a time in ``simulate`` (their seeds and results the only ones held)."""


COMPILE_NOTICE_SECONDS = 2.0
"""How long loading the compiled simulator may take before ``simulate`` says that it is compiling
(a load from numba's disk cache takes about a second)."""

COMPILING = (
    "thirtyone: compiling the simulator (the first run after installing: about half a minute; later runs load it)"
)
"""The line ``simulate`` says on standard error while the kernels compile."""


def say_compiling() -> None:
    """Say :data:`COMPILING` on standard error."""
    print(COMPILING, file=sys.stderr, flush=True)


def load_kernels() -> None:
    """Load the simulator's kernels before the games (:func:`thirtyone.sim.api.warm_up`), saying
    so in one line on standard error (:func:`say_compiling`) when that takes longer than
    :data:`COMPILE_NOTICE_SECONDS`: the first run after installing compiles them, which took
    half a minute in silence."""
    from thirtyone.sim.api import warm_up

    notice = threading.Timer(COMPILE_NOTICE_SECONDS, say_compiling)
    notice.daemon = True
    notice.start()
    try:
        warm_up()
    finally:
        notice.cancel()


def _simulate_fast(
    rules: Rules, names: list[str], seeds: Iterable[int], stats: GameTotals, advance: Callable[[int], None]
) -> None:
    """The games played by :mod:`thirtyone.sim` (game ``g`` with the ``g``-th of ``seeds``), added
    to ``stats`` chunk by chunk (:func:`thirtyone.sim.add_batch`) as
    :meth:`~thirtyone.totals.GameTotals.add_game` counts them;
    the seeds are read a chunk at a time, so memory stays flat however many games."""
    from thirtyone import sim

    policies = [SIM_BOTS[name] for name in names]
    seeds = iter(seeds)
    while chunk := list(itertools.islice(seeds, _FAST_CHUNK)):
        batch = sim.play_games(rules, len(names), policies, chunk)
        with held():  # counted whole or not at all, whenever Ctrl-C comes
            sim.add_batch(stats, batch)
            advance(len(batch))


def _count(number: int, word: str) -> str:
    return f"{number:,} {word}{'' if number == 1 else 'es' if word.endswith('z') else 's'}"


def _print_tables(console: Console, stats: GameTotals, seed: int, failed: Sequence[FailedGame] = ()) -> None:
    """The results of the finished games (played from ``seed``), by seat and by bot, then the
    failed games (if any)."""
    games = stats.games
    table = f"{stats.rules.describe()} with {len(stats.bots)} players, seed {seed}"
    if not games:
        console.print(f"[bold]no game finished[/] of {table}")
    else:
        console.print(
            f"[bold]{_count(games, 'game')}[/] of {table}: "
            f"{stats.rounds / games:.2f} rounds a game, {stats.turns / stats.rounds:.2f} turns a round, "
            f"{_count(stats.knocks, 'knock')}, {_count(stats.blitzes, 'blitz')}"
        )
    if failed:
        console.print(
            f"[yellow]{_count(len(failed), 'game')} failed (a bot raised, chose an illegal action or could not "
            f"be made) and {'is' if len(failed) == 1 else 'are'} left out of these results; listed below[/]"
        )
    if games:
        _print_results(console, stats, failed)
    for game in failed[:SHOW_FAILURES]:
        console.print(
            f"failed: game {game.number} (seed {game.seed}): {game.failure.error}; record: {game.record}",
            style="yellow",
            markup=False,
        )
    if len(failed) > SHOW_FAILURES:
        console.print(f"… and {len(failed) - SHOW_FAILURES:,} more failed games", style="yellow")


def _print_results(console: Console, stats: GameTotals, failed: Sequence[FailedGame]) -> None:
    games = stats.games
    failed_by_seat = Counter(game.failure.seat for game in failed)
    places = range(1, len(stats.bots) + 1)
    groups = [("seat", stats.seats), ("bot", list(stats.by_bot().values()))]
    failed_column = ("failed\ngames",) if failed else ()
    for label, rows in groups:
        # two-line headers: a long one would take the width the bot names need at 80 columns
        columns = ("wins", "share", "mean\nplace", "knocks", "knocks that\nlost lives", "lives\nlost")
        table = _table(f"Results by {label}", "seat", "bot", *columns, *failed_column)
        for row in rows:
            seats = _seats(row, stats)
            failures = (f"{sum(failed_by_seat[seat] for seat in seats):,}",) if failed else ()
            table.add_row(
                _seat_label(seats),
                row.bot,
                f"{row.wins:,}",
                f"{row.wins / games:.1%}",
                f"{row.mean_place:.2f}",
                f"{row.knocks:,}",
                f"{row.knocks_lost:,}",
                f"{row.lives_lost:,}",
                *failures,
            )
        console.print(table)
    for label, rows in groups:
        # shares, not counts: a column stays 5 wide however many games, so 9 places fit 80 columns
        table = _table(f"Places by {label} (% of its games finished)", "seat", "bot", *map(str, places))
        for row in rows:
            finished = sum(row.places.values())
            cells = (f"{100 * row.places.get(place, 0) / finished:.1f}" for place in places)
            table.add_row(_seat_label(_seats(row, stats)), row.bot, *cells)
        console.print(table)
    table = _table("How rounds ended", "end", "rounds")
    for end, count in sorted(stats.ends.items(), key=lambda item: (-item[1], item[0])):
        table.add_row(end, f"{count:,}")
    console.print(table)
    table = _table("Lives lost by rule", "rule", "lives")
    for rule, count in sorted(stats.lives_by_rule.items()):
        table.add_row(rule, f"{count:,}")
    console.print(table)


def _seats(row: SeatTotals, stats: GameTotals) -> list[int]:
    """The seats of a row of results: its seat, or every seat of its bot for a row by bot."""
    return stats.seats_of(row.bot) if row.seat < 0 else [row.seat]


def _seat_label(seats: Sequence[int]) -> str:
    """Seats as runs: ``0-2,5`` for seats 0, 1, 2 and 5.

    >>> _seat_label([0, 1, 2, 5]), _seat_label([3]), _seat_label([0, 1])
    ('0-2,5', '3', '0-1')
    """
    runs: list[list[int]] = []
    for seat in seats:
        if runs and seat == runs[-1][-1] + 1:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    return ",".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def _table(title: str, *columns: str) -> Table:
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        min_width=len(title),  # a narrow table would wrap its title
    )
    for column in columns:
        if column in ("bot", "seat"):  # a long name or seat list wraps whole, never cut
            table.add_column(column, justify="left" if column == "bot" else "right", overflow="fold")
        else:
            table.add_column(column, justify="left" if column in ("end", "rule") else "right")
    return table
