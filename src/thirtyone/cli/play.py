"""``thirtyone play``: the terminal game, you against bots.

Every argument is checked before the screen opens: a bad preset, rule option, number of
players, bot name, seed, name, pacing, hint time or record path is a one-line error (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from thirtyone.bots import BOTS
from thirtyone.cli.options import add_rules_arguments, rules_from_args
from thirtyone.rules import MAX_PLAYERS, MIN_PLAYERS
from thirtyone.tui.settings import (
    MAX_DELAY,
    MAX_HINT_SECONDS,
    MAX_NAME,
    MIN_HINT_SECONDS,
    PLAY_EXPERT_SECONDS,
    PlayError,
    PlaySettings,
)

__all__ = ["configure", "run", "settings_from_args"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``play``."""
    parser.add_argument(
        "--players",
        default="4",
        metavar="N",
        help=f"players at the table, you included, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4)",
    )
    parser.add_argument(
        "--bots",
        default="basic",
        metavar="LIST",
        help=(
            f"the bots by seat, comma separated, the last repeating ({', '.join(BOTS)}, or the levels "
            f"easy, medium, hard; default basic); an expert thinks {PLAY_EXPERT_SECONDS:g} s a move "
            "unless given a budget (hard:200 deals, hard:1s)"
        ),
    )
    parser.add_argument("--seed", default=None, metavar="S", help="seed (a whole number): same seed, same game")
    parser.add_argument("--fast", action="store_true", help="bots move at once instead of one at a time")
    parser.add_argument(
        "--delay",
        default="0.8",
        metavar="SECONDS",
        help=f"time each bot move takes, thinking included, 0-{MAX_DELAY:g} seconds (default 0.8; --fast: none)",
    )
    parser.add_argument(
        "--hint-seconds",
        default="0.5",
        metavar="SECONDS",
        help=f"how long the expert thinks about a hint (key ?), {MIN_HINT_SECONDS:g}-{MAX_HINT_SECONDS:g} s "
        "(default 0.5)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="PATH",
        help="save the game record here when the game ends or when you quit (further games: PATH-2, ...)",
    )
    parser.add_argument("--name", default="you", metavar="NAME", help=f"your name, at most {MAX_NAME} characters")
    add_rules_arguments(parser)


def _whole(flag: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PlayError(f"{flag} {text!r}: give a whole number") from None


def settings_from_args(args: argparse.Namespace) -> PlaySettings:
    """The checked settings of a ``play`` command line.

    Raises:
        RulesError: for a bad preset or rule option, or players the deck cannot deal (R2.1).
        UnknownBotError: for an unknown bot or too many bot names.
        PlayError: for a bad seed, delay, hint time, name or record path.
    """
    rules = rules_from_args(args)
    players = _whole("--players", args.players)
    seed = None if args.seed is None else _whole("--seed", args.seed)
    try:
        delay = float(args.delay)
    except ValueError:
        raise PlayError(f"--delay {args.delay!r}: give a number of seconds") from None
    try:
        hint_seconds = float(args.hint_seconds)
    except ValueError:
        raise PlayError(f"--hint-seconds {args.hint_seconds!r}: give a number of seconds") from None
    record: Path | None = args.record
    if record is not None:
        if record.is_dir():
            raise PlayError(f"--record {record}: that is a folder; give a file name")
        folder = record.parent if str(record.parent) else Path(".")
        if not folder.is_dir():
            raise PlayError(f"--record {record}: the folder {folder} does not exist")
    return PlaySettings.create(
        rules,
        players,
        args.bots,
        seed=seed,
        fast=args.fast,
        record=record,
        name=args.name,
        delay=0.0 if args.fast else delay,
        hint_seconds=hint_seconds,
    )


def run(args: argparse.Namespace) -> int:
    """Check the arguments, then play in the terminal until the person quits."""
    settings = settings_from_args(args)
    from thirtyone.tui.app import ThirtyOneApp  # Textual loads only once the arguments are good

    app = ThirtyOneApp(settings)
    app.run()
    for note in app.notes:
        print(note, file=sys.stderr)
    return 0
