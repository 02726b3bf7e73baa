"""``thirtyone arena``: bots against each other on duplicate deals, with ratings, confidence
intervals, a progress bar, a results table and (``--out DIR``) CSV, JSON and a chart.

``thirtyone arena --league --bots A,B,C,... --presets scat,schwimmen --players 4 --deals 10``
plays a league instead (:mod:`thirtyone.arena.league`): every table of ``--players`` of the bots,
each preset's duplicate deals (the rule options given set on top of every preset), one rating per
bot; it prints the leaderboard as Markdown, and ``--leaderboard FILE.md`` writes it there with
``FILE.json`` beside it (new files unless ``--overwrite``). Options of the other kind are refused,
each in one line: ``--preset``, ``--games``, ``--out`` and ``--engine sim`` in a league, ``--presets``,
``--deals`` and ``--leaderboard`` outside one, ``--overwrite`` without its path.

``--out DIR`` must be a new folder or one without results (:data:`RESULT_FILES` or records in
``failed/``) unless ``--overwrite``, which removes them first; an empty path is refused. Without
``--out``, on the reference engine (whose bots may fail games), the records of failed games go to
:data:`FAILED_DIR`, refused in the same way when it holds an earlier run's.

Ctrl-C prints the games finished so far (a league: its leaderboard so far, no file written), marked
partial, and exits with status 130; SIGTERM (``timeout``, ``kill``) does the same with status 143
(:func:`thirtyone.cli.stopping.stopping`).
"""

from __future__ import annotations

import argparse
import json
import secrets
import shlex
import time
from pathlib import Path

from rich.console import Console

from thirtyone.arena import ArenaError
from thirtyone.arena import LocalBackend
from thirtyone.arena import make_backend
from thirtyone.arena import make_schedule
from thirtyone.arena import run_arena
from thirtyone.arena.play import GameResult
from thirtyone.arena.report import FailureRecords
from thirtyone.arena.report import GamesWriter
from thirtyone.arena.report import RunInfo
from thirtyone.arena.report import failed_games_line
from thirtyone.arena.report import progress_bar
from thirtyone.arena.report import render
from thirtyone.arena.report import speed_text
from thirtyone.arena.report import summary_dict
from thirtyone.arena.report import write_summary
from thirtyone.bots import BOTS
from thirtyone.cli.options import add_engine_argument
from thirtyone.cli.options import add_players_argument
from thirtyone.cli.options import add_rules_arguments
from thirtyone.cli.options import clear_failed_folder
from thirtyone.cli.options import make_folder
from thirtyone.cli.options import output_file
from thirtyone.cli.options import output_folder
from thirtyone.cli.options import parse_bots
from thirtyone.cli.options import plays_on_sim
from thirtyone.cli.options import rule_options
from thirtyone.cli.options import rules_from_args
from thirtyone.cli.options import seed_number
from thirtyone.cli.options import whole_number
from thirtyone.cli.stopping import stopping
from thirtyone.rules import DEFAULT_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import OPTIONS

__all__ = ["configure", "run", "FAILED_DIR", "RESULT_FILES"]

FAILED_DIR = Path("arena-failed")
"""Where the records of failed games go without ``--out`` (relative to the working directory)."""


ARENA_GAMES = 1000
"""The games an arena plays when ``--games`` is not given."""

LEAGUE_DEALS = 10
"""The deals a league plays a table and preset when ``--deals`` is not given."""

_LEAGUE_ONLY = {
    "presets": "play one preset with --preset NAME",
    "deals": "give the games with --games G",
    "leaderboard": "write the arena's results with --out DIR",
}
"""The options only a league takes, each with what the arena takes instead (in words)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``arena``."""
    parser.add_argument(
        "--bots",
        default="basic,random",
        metavar="LIST",
        help=f"bots by seat, comma separated, names may repeat, the last repeating to fill the table "
        f"({', '.join(BOTS)}; default basic,random)",
    )
    add_players_argument(parser)
    parser.add_argument(
        "--games",
        type=whole_number,
        default=None,
        metavar="G",
        help=f"games to play, rounded up to a multiple of the players (default {ARENA_GAMES}; a league plays --deals)",
    )
    parser.add_argument(
        "--seed", type=seed_number, default=None, metavar="S", help="seed: same seed, same results (default: random)"
    )
    parser.add_argument(
        "--jobs",
        type=whole_number,
        default=1,
        metavar="N",
        help="local worker processes, at most one per game and per CPU (default 1; with --backend ray the "
        "cluster decides)",
    )
    parser.add_argument("--backend", default="local", metavar="local|ray", help="where games run (default local)")
    parser.add_argument(
        "--address", default=None, metavar="ADDR", help="Ray cluster address (host:port; default: start a local Ray)"
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="write games.csv, summary.csv, summary.json, win_share.png (and failed/) into this folder: a new "
        "one, or one without results unless --overwrite",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help=f"let --out replace the results of an earlier run in its folder (without --out, the failed games' "
        f"records in {FAILED_DIR}/), or --leaderboard its files",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    add_engine_argument(parser)
    league = parser.add_argument_group("league (--league: every bot against the others, a leaderboard)")
    league.add_argument(
        "--league",
        action="store_true",
        help="play a league: --bots is the set of bots (each once), every table of --players of them",
    )
    league.add_argument(
        "--presets",
        default=None,
        metavar="LIST",
        help="the league's presets, comma separated, each with the rule options given (default scat)",
    )
    league.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        metavar="D",
        help=f"duplicate deals a table and preset, each played in every rotation (default {LEAGUE_DEALS})",
    )
    league.add_argument(
        "--leaderboard",
        default=None,
        metavar="FILE.md",
        help="write the leaderboard as Markdown here and as JSON beside it (FILE.json)",
    )
    add_rules_arguments(parser)


RESULT_FILES = ("games.csv", "summary.csv", "summary.json", "win_share.png")
"""The files ``--out DIR`` writes (besides the records in ``DIR/failed/``)."""


def _failed_records(folder: Path) -> list[Path]:
    """The records of failed games in ``folder`` (``DIR/failed``, :data:`FAILED_DIR`)."""
    return sorted(folder.glob("deal-*-rotation-*.toml"))


def _earlier_results(out: Path) -> list[str]:
    """The results an earlier run left in ``out``."""
    failed = ["failed/"] if _failed_records(out / "failed") else []
    return [name for name in RESULT_FILES if (out / name).exists()] + failed


def _remove_results(out: Path) -> None:
    """Remove an earlier run's results from ``out`` (``--overwrite``), so none is left among the new ones."""
    for path in [*(out / name for name in RESULT_FILES), *_failed_records(out / "failed")]:
        path.unlink(missing_ok=True)


def _league_command(args: argparse.Namespace, bots: list[str], presets: list[str], deals: int, seed: int) -> str:
    """The command that plays this league again (for the leaderboard), rule options included."""
    parts = ["thirtyone arena --league", f"--bots {','.join(bots)}", f"--presets {','.join(presets)}"]
    for name in OPTIONS:
        value = getattr(args, f"rule_{name}", None)
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            parts.append(f"--{flag}" if value else f"--no-{flag}")
        elif value is not None:
            parts.append(f"--{flag} {shlex.quote(value)}")
    parts += [f"--players {args.players}", f"--deals {deals}", f"--seed {seed}"]
    if args.leaderboard is not None:
        parts.append(f"--leaderboard {args.leaderboard}")
    return " ".join(parts)


def run_league_command(args: argparse.Namespace) -> int:
    """``arena --league`` (see the module): 0 when every game finished, 1 when a bot failed games,
    130 when Ctrl-C stopped it and 143 when SIGTERM did (the leaderboard so far is printed,
    marked partial, and no file written)."""
    from thirtyone.arena.league import check_league
    from thirtyone.arena.league import league_dict
    from thirtyone.arena.league import league_markdown
    from thirtyone.arena.league import run_league

    if args.out is not None:
        raise ArenaError("--out is the arena's: a league writes --leaderboard FILE.md (and FILE.json)")
    if args.games is not None:
        raise ArenaError(
            f"--games is the arena's: a league plays --deals D deals a table and preset (default {LEAGUE_DEALS})"
        )
    if args.preset is not None:
        raise ArenaError(
            "--preset is the arena's: a league plays --presets LIST (default scat), each with the rule options given"
        )
    if args.engine == "sim":
        raise ArenaError("--engine sim is the arena's: a league plays on the reference engine; leave --engine out")
    page = output_file(
        args.leaderboard, args.overwrite, "--leaderboard", "the leaderboard", ArenaError, suffix=".md", beside=".json"
    )
    bots = [name.strip() for name in args.bots.split(",")]
    if args.players is None:  # as many as the bots seat, up to the usual table
        args.players = max(min(DEFAULT_PLAYERS, len(bots)), MIN_PLAYERS)
    presets = [name.strip() for name in ("scat" if args.presets is None else args.presets).split(",") if name.strip()]
    deals: int = LEAGUE_DEALS if args.deals is None else args.deals
    options = rule_options(args)
    rules, tables = check_league(bots, presets, args.players, deals, options)  # all said before any game
    seed: int = args.seed if args.seed is not None else secrets.randbits(32)
    command = _league_command(args, bots, presets, deals, seed)
    console = Console(stderr=True)
    total = len(tables) * len(rules) * deals * args.players
    backend = make_backend(args.backend, args.jobs, args.address, total)
    started = time.perf_counter()
    with backend, stopping() as stop, progress_bar(console, total, label="league") as advance:
        league = run_league(bots, presets, args.players, deals, seed, backend, options=options, on_progress=advance)
    elapsed = time.perf_counter() - started
    markdown = league_markdown(league, command)
    if args.json:
        print(json.dumps(league_dict(league, command), indent=2))
    else:
        print(markdown, end="", flush=True)
    console.print(f"{league.games + league.failed:,} games in {elapsed:.1f} s", style="dim")
    if league.partial:
        console.print(f"thirtyone: {stop.word}: the leaderboard above is partial (no file written)")
        return stop.status
    if page is not None:
        data = page.with_suffix(".json")
        page.write_text(markdown, encoding="utf-8")
        data.write_text(json.dumps(league_dict(league, command), indent=1) + "\n", encoding="utf-8")
        console.print(f"wrote {page} and {data}", style="dim", markup=False)
    if league.failed:
        first = next(row for row in league.rows if row.failed)
        console.print(f"thirtyone: error: {league.failed:,} games failed (bot {first.name} failed {first.failed:,})")
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    """Play the arena (or, with ``--league``, a league) and report; 0 when every game finished, 130
    when Ctrl-C stopped it and 143 when SIGTERM did, 1 when the backend failed (all after reporting
    the games finished so far, marked partial) or when a bot failed games (after the report, naming
    the first on stderr)."""
    if args.league:
        return run_league_command(args)
    for name, instead in _LEAGUE_ONLY.items():
        if getattr(args, name) is not None:
            raise ArenaError(f"--{name} is for a league: add --league (or {instead})")
    rules = rules_from_args(args)
    rules.check_players(args.players)
    names = parse_bots(args.bots, args.players, rules)
    schedule = make_schedule(names, ARENA_GAMES if args.games is None else args.games)
    engine = "sim" if plays_on_sim(args.engine, names, rules, ArenaError) else "reference"
    backend = make_backend(args.backend, args.jobs, args.address, schedule.games)
    seed: int = args.seed if args.seed is not None else secrets.randbits(32)
    out = (
        None
        if args.out is None
        else output_folder(args.out, args.overwrite, "--out", "results", _earlier_results, ArenaError)
    )
    if out is not None:
        make_folder(out, "--out", ArenaError)
        if args.overwrite:
            _remove_results(out)
    elif engine == "reference":  # a bot may fail games (the simulator's never do)
        clear_failed_folder(FAILED_DIR, args.overwrite, _failed_records, "--out DIR", ArenaError)
    records = FailureRecords(out / "failed" if out is not None else FAILED_DIR)
    console = Console(stderr=True)

    with backend, stopping() as stop:
        started = time.perf_counter()
        games = GamesWriter(out / "games.csv", schedule.seats) if out is not None else None
        try:

            def on_game(result: GameResult) -> None:
                records.add(result)
                if games is not None:
                    games.add(result)

            with progress_bar(console, schedule.games) as advance:
                outcome = run_arena(rules, schedule, seed, backend, on_game=on_game, on_progress=advance, engine=engine)
        finally:
            if games is not None:
                games.close()
        elapsed = time.perf_counter() - started

    summary = outcome.summary
    stopped = stop.word if outcome.interrupted else f"backend failed: {outcome.error}" if outcome.error else None
    info = RunInfo(rules.describe(), seed, stopped, engine)
    if out is not None:
        write_summary(out, summary, info, records.paths)
    if args.json:
        print(json.dumps(summary_dict(summary, info, records.paths), indent=2))
    else:
        Console().print(render(summary, info, records.paths))
    jobs = f"{backend.jobs} job{'s' if backend.jobs != 1 else ''}" if isinstance(backend, LocalBackend) else "ray"
    speed = speed_text(summary.played, elapsed)
    console.print(f"{summary.played:,} games in {elapsed:.1f} s ({speed}, {jobs})", style="dim")
    if out is not None:
        console.print(f"wrote {out}/games.csv, summary.csv, summary.json, win_share.png", style="dim", markup=False)
    if outcome.interrupted:
        console.print(f"thirtyone: {stop.word}: the results above are partial")
        return stop.status
    if outcome.error:
        console.print(f"thirtyone: error: {outcome.error}: the results above are partial", markup=False, soft_wrap=True)
        return 1
    if summary.failures:
        key, failure = summary.failures[0]
        first = f"deal {key[0]}, rotation {key[1]}"
        line = failed_games_line(summary.failed, summary.played, first, failure, records.paths.get(key))
        console.print(line, markup=False, soft_wrap=True)
        return 1
    return 0
