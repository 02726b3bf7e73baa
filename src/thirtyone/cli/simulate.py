"""``thirtyone simulate``: many bot games, a progress bar and a results table.

Game ``g`` is played with the ``g``-th of :func:`~thirtyone.bots.runner.game_seeds` ``(--seed,
--games)``, dealt by :class:`thirtyone.sim.CounterChance` and, in the seats of ``random`` bots,
played by the simulator's counter-based random policy
(:func:`thirtyone.sim.rng.game_random_index`): the compiled simulator (``--engine sim``, for
``random`` and ``basic`` bots) and the reference engine (``--engine reference``, every bot, and
``--record``) play the same games and print the same results for the same seed. Ctrl-C prints
the games finished so far, marked partial, and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from thirtyone.actions import Action
from thirtyone.bots import BOTS, make_bot
from thirtyone.bots.base import Bot
from thirtyone.bots.levels import SIM_BOTS, SIM_EXACT_BOTS
from thirtyone.bots.runner import SeatStats, SimulationStats, bot_action, game_seeds
from thirtyone.cli.options import add_rules_arguments, make_folder, parse_bots, rules_from_args, whole_number
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.record import GameRecord
from thirtyone.rules import Rules

__all__ = ["configure", "run", "play_game", "simulate_reference", "MAX_GAMES"]

MAX_GAMES = 10_000_000


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``simulate``."""
    parser.add_argument("--players", type=whole_number, default=4, metavar="N", help="players, 2-9 (default 4)")
    parser.add_argument(
        "--bots",
        default="basic",
        metavar="LIST",
        help=f"bots by seat, comma separated, the last repeating ({', '.join(BOTS)}; default basic)",
    )
    parser.add_argument("--games", type=whole_number, default=100, metavar="G", help="games to play (default 100)")
    parser.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        metavar="S",
        help="seed: same seed, same games and results, whichever engine plays them",
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="save every game's record in this folder (new, or without game records; played by the reference "
        "engine, with the same results)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--engine",
        choices=("auto", "reference", "sim"),
        default="auto",
        help=f"what plays the games: the compiled simulator (sim, for {' and '.join(SIM_EXACT_BOTS)} bots; needs "
        "numba), the reference engine, or auto: sim when it can, else the engine (default); both give "
        "the same results for the same seed",
    )
    add_rules_arguments(parser)


class SimulateError(ThirtyOneError):
    """Bad arguments to ``simulate``."""


def run(args: argparse.Namespace) -> int:
    """Play the games and print the results; 0 when every game was played, 130 when Ctrl-C
    stopped the run (after printing the games finished so far, marked partial)."""
    rules = rules_from_args(args)
    rules.check_players(args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise SimulateError(f"--games {args.games}: play from 1 to {MAX_GAMES:,} games")
    names = parse_bots(args.bots, args.players)
    record_dir = _record_dir(args.record)
    fast = _use_sim(args.engine, names, record_dir, rules)
    if record_dir is not None:
        _check_record_dir(record_dir)
    console = Console(stderr=True)
    seeds = game_seeds(args.seed, args.games)
    stats = SimulationStats(rules, names)
    interrupted = False

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

        try:
            if fast:
                _simulate_fast(rules, names, seeds, stats, lambda count: progress.advance(task, count))
            else:
                simulate_reference(rules, names, seeds, stats, on_game)
        except KeyboardInterrupt:
            interrupted = True

    engine = "sim" if fast else "reference"
    partial = interrupted or stats.games < args.games
    if args.json:
        data = {**stats.to_dict(), "engine": engine, "games_requested": args.games, "partial": partial}
        data["stopped"] = "interrupted" if interrupted else None
        print(json.dumps(data, indent=2))
    else:
        out = Console()
        if partial:
            out.print(
                f"[bold red]PARTIAL RESULTS[/]: {stats.games:,} of {args.games:,} games played"
                + (" (interrupted)" if interrupted else "")
            )
        _print_tables(out, stats)
    console.print(f"[dim]played by the {'compiled simulator' if fast else 'reference engine'}[/]")
    if interrupted:
        console.print("thirtyone: interrupted: the results above are partial", markup=False)
        return 130
    return 0


def _record_dir(text: str | None) -> Path | None:
    if text is None:
        return None
    if text == "":
        raise SimulateError(
            f"--record {text!r}: an empty path; give a folder for the game records (--record . for this folder)"
        )
    return Path(text)


def _use_sim(engine: str, names: list[str], record_dir: Path | None, rules: Rules) -> bool:
    """Whether the compiled simulator plays the games (``--engine``), or the reference engine."""
    if engine == "reference":
        return False
    reasons = []
    if any(name not in SIM_BOTS for name in names):
        reasons.append(f"it plays only the {' and '.join(SIM_EXACT_BOTS)} bots exactly")
    if record_dir is not None:
        reasons.append("it keeps no game records (--record plays on the reference engine, with the same results)")
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


def play_game(rules: Rules, names: Sequence[str], seed: int) -> Game:
    """One game on the reference engine as :func:`thirtyone.sim.play_games` plays it with ``seed``
    when the simulator can: dealt by ``CounterChance(seed)``, a ``random`` seat picking with
    :func:`~thirtyone.sim.rng.game_random_index`; any other bot is ``make_bot(name, seed + seat + 1)``.

    Raises:
        BotError: when a bot raises or returns an illegal action (names the bot, seat and action).
    """
    from thirtyone.sim.rng import CounterChance, game_random_index  # here: thirtyone.sim loads numba

    game = Game(rules, len(names), chance=CounterChance(seed))
    bots: list[Bot | None] = [
        None if SIM_BOTS.get(name) == "random" else make_bot(name, seed + seat + 1) for seat, name in enumerate(names)
    ]
    round_number, decision = game.round, 0
    while not game.is_over:
        if game.round != round_number:
            round_number, decision = game.round, 0
        seat = game.current_seat
        assert seat is not None
        bot = bots[seat]
        action: Action
        if bot is None:
            legal = game.legal_actions()
            action = legal[game_random_index(seed, game.round, decision, len(legal))]
        else:
            action = bot_action(bot, game.view(seat))
        game.apply(action)
        decision += 1
    return game


def simulate_reference(
    rules: Rules,
    names: Sequence[str],
    seeds: Sequence[int],
    stats: SimulationStats,
    on_game: Callable[[int, Game], None] | None = None,
) -> None:
    """Play game ``g`` with ``seeds[g]`` (:func:`play_game`) and add it to ``stats``, one after
    another; ``on_game(index, game)`` is called after each (records, progress). An interruption
    leaves ``stats`` holding the games finished before it."""
    for index, game_seed in enumerate(seeds):
        game = play_game(rules, names, game_seed)
        if on_game is not None:
            on_game(index, game)
        stats.add(game)


def _simulate_fast(
    rules: Rules, names: list[str], seeds: Sequence[int], stats: SimulationStats, advance: Callable[[int], None]
) -> None:
    """The games played by :mod:`thirtyone.sim` (game ``g`` with ``seeds[g]``), added to ``stats``
    chunk by chunk as :meth:`~thirtyone.bots.runner.SimulationStats.add` counts them."""
    from thirtyone import sim

    policies = [SIM_BOTS[name] for name in names]
    for batch in sim.iter_games(rules, len(names), policies, seeds, chunk=4096):
        totals = sim.GameTotals(rules, tuple(names))
        totals.add(batch)
        _add_totals(stats, totals)
        advance(len(batch))


def _add_totals(stats: SimulationStats, totals: object) -> None:
    from thirtyone.sim import GameTotals

    assert isinstance(totals, GameTotals)
    stats.games += totals.games
    stats.rounds += totals.rounds
    stats.turns += totals.turns
    stats.knocks += totals.knocks
    stats.blitzes += totals.blitzes
    stats.ends.update(totals.ends)
    stats.lives_by_rule.update(totals.lives_by_rule)
    for seat, row in enumerate(stats.seats):
        row.wins += totals.wins[seat]
        row.knocks += totals.seat_knocks[seat]
        row.knocks_lost += totals.seat_knocks_lost[seat]
        row.lives_lost += totals.seat_lives_lost[seat]
        row.places.update(totals.places[seat])


def _check_record_dir(folder: Path) -> None:
    """A folder for the records: new, or without records of an earlier run (they are not overwritten)."""
    if folder.exists() and not folder.is_dir():
        raise SimulateError(f"--record {folder}: that is a file; give a folder for the game records")
    if folder.is_dir() and any(folder.glob("game-*.toml")):
        raise SimulateError(f"--record {folder}: the folder already holds game records; give a new or empty folder")
    make_folder(folder, "--record", SimulateError)


def _count(number: int, word: str) -> str:
    return f"{number:,} {word}{'' if number == 1 else 'es' if word.endswith('z') else 's'}"


def _print_tables(console: Console, stats: SimulationStats) -> None:
    games = stats.games
    if not games:
        console.print(f"[bold]no game finished[/] of {stats.rules.describe()} with {len(stats.bots)} players")
        return
    console.print(
        f"[bold]{_count(games, 'game')}[/] of {stats.rules.describe()} with {len(stats.bots)} players: "
        f"{stats.rounds / games:.2f} rounds a game, {stats.turns / stats.rounds:.2f} turns a round, "
        f"{_count(stats.knocks, 'knock')}, {_count(stats.blitzes, 'blitz')}"
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
    for index, (_, rows) in enumerate(groups):
        for number, row in enumerate(rows):
            cells = (str(row.places.get(place, 0)) for place in places)
            table.add_row(_seat_label(row, stats), row.bot, *cells, end_section=index == 0 and number == len(rows) - 1)
    console.print(table)
    table = _table("How rounds ended", "end", "rounds")
    for end, count in sorted(stats.ends.items(), key=lambda item: (-item[1], item[0])):
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
