"""``thirtyone arena``: bots against each other on duplicate deals, with ratings, confidence
intervals, a progress bar, a results table and (``--out DIR``) CSV, JSON and a chart.

``--out DIR`` must be a new folder or one without results (:data:`RESULT_FILES` or records in
``failed/``) unless ``--overwrite``, which removes them first; an empty path is refused.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from pathlib import Path

from rich.console import Console

from thirtyone.arena import ArenaError, LocalBackend, make_backend, make_schedule, run_arena
from thirtyone.arena.play import GameResult
from thirtyone.arena.report import (
    FailureRecords,
    GamesWriter,
    RunInfo,
    failed_games_line,
    progress_bar,
    render,
    speed_text,
    summary_dict,
    write_summary,
)
from thirtyone.bots import BOTS
from thirtyone.bots.levels import SIM_BOTS, SIM_EXACT_BOTS
from thirtyone.cli.options import add_rules_arguments, make_folder, parse_bots, rules_from_args, whole_number
from thirtyone.rules import Rules

__all__ = ["configure", "run", "FAILED_DIR", "RESULT_FILES"]

FAILED_DIR = Path("arena-failed")
"""Where the records of failed games go without ``--out`` (relative to the working directory)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``arena``."""
    parser.add_argument(
        "--bots",
        default="basic,random",
        metavar="LIST",
        help=f"bots by seat, comma separated, names may repeat, the last repeating to fill the table "
        f"({', '.join(BOTS)}; default basic,random)",
    )
    parser.add_argument(
        "--players", type=whole_number, default=4, metavar="N", help="players at the table, 2-9 (default 4)"
    )
    parser.add_argument(
        "--games",
        type=whole_number,
        default=1000,
        metavar="G",
        help="games to play, rounded up to a multiple of the players (default 1000)",
    )
    parser.add_argument(
        "--seed", type=whole_number, default=None, metavar="S", help="seed: same seed, same results (default: random)"
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
        help="let --out replace the results of an earlier run in its folder",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--engine",
        choices=("auto", "reference", "sim"),
        default="auto",
        help=f"what plays the games: the compiled simulator (sim: {' and '.join(SIM_EXACT_BOTS)} bots only; "
        "needs numba), the reference engine, or auto: sim when it can (default)",
    )
    add_rules_arguments(parser)


def _engine(choice: str, names: list[str], rules: Rules) -> str:
    """``"sim"`` or ``"reference"`` for ``--engine``: the simulator plays only bots it copies exactly."""
    if choice == "reference":
        return "reference"
    reasons = []
    if any(name not in SIM_BOTS for name in names):
        reasons.append(f"it plays only the {' and '.join(SIM_EXACT_BOTS)} bots exactly")
    else:
        from thirtyone import sim

        reason = sim.cannot_play(rules)
        if reason:
            reasons.append(reason)
    if choice == "sim" and reasons:
        raise ArenaError(f"--engine sim: {'; '.join(reasons)}; use --engine reference or auto")
    return "reference" if reasons else "sim"


RESULT_FILES = ("games.csv", "summary.csv", "summary.json", "win_share.png")
"""The files ``--out DIR`` writes (besides the records in ``DIR/failed/``)."""


def _failed_records(folder: Path) -> list[Path]:
    failed = folder / "failed"
    return sorted(failed.glob("deal-*-rotation-*.toml")) if failed.is_dir() else []


def _out_dir(text: str | None, overwrite: bool) -> Path | None:
    """The checked ``--out`` folder (``None`` without one); nothing is created here.

    Raises:
        ArenaError: for ``--overwrite`` without ``--out``, an empty path, a file, or a folder that
            holds results of an earlier run (without ``--overwrite``).
    """
    if text is None:
        if overwrite:
            raise ArenaError("--overwrite is for --out DIR: add --out, or leave --overwrite out")
        return None
    if text == "":
        raise ArenaError("--out '': an empty path; give a folder for the results (--out . for this folder)")
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise ArenaError(f"--out {out}: that is a file, not a folder; give a folder for the results")
    if out.is_dir() and not overwrite:
        found = [name for name in RESULT_FILES if (out / name).exists()]
        if _failed_records(out):
            found.append("failed/")
        if found:
            raise ArenaError(
                f"--out {out}: the folder already holds results ({', '.join(found)}); give a new or empty folder "
                "or add --overwrite to replace them"
            )
    return out


def _remove_results(out: Path) -> None:
    """Remove an earlier run's results from ``out`` (``--overwrite``), so none is left among the new ones."""
    for path in [*(out / name for name in RESULT_FILES), *_failed_records(out)]:
        path.unlink(missing_ok=True)


def run(args: argparse.Namespace) -> int:
    """Play the arena and report; 0 when every game finished, 130 when interrupted, 1 when the
    backend failed (both after reporting the games finished so far, marked partial) or when a bot
    failed games (after the report, naming the first on stderr)."""
    rules = rules_from_args(args)
    rules.check_players(args.players)
    names = parse_bots(args.bots, args.players)
    schedule = make_schedule(names, args.games)
    engine = _engine(args.engine, names, rules)
    backend = make_backend(args.backend, args.jobs, args.address, schedule.games)
    seed: int = args.seed if args.seed is not None else secrets.randbits(32)
    out = _out_dir(args.out, args.overwrite)
    if out is not None:
        make_folder(out, "--out", ArenaError)
        if args.overwrite:
            _remove_results(out)
    records = FailureRecords(out / "failed" if out is not None else FAILED_DIR)
    console = Console(stderr=True)

    with backend:
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
    stopped = "interrupted" if outcome.interrupted else f"backend failed: {outcome.error}" if outcome.error else None
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
        console.print("thirtyone: interrupted: the results above are partial")
        return 130
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
