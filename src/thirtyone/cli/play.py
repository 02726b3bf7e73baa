"""``thirtyone play``: the terminal game, you against bots.

Every argument is checked before the screen opens: a bad preset, rule option, number of
players, bot name, seed, name or record path is a one-line error (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from thirtyone.bots import BOTS
from thirtyone.cli.options import add_rules_arguments, rules_from_args
from thirtyone.rules import MAX_PLAYERS, MIN_PLAYERS
from thirtyone.tui.settings import MAX_DELAY, MAX_NAME, PlayError, PlaySettings

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
        help=f"the bots by seat, comma separated, the last repeating ({', '.join(BOTS)}; default basic)",
    )
    parser.add_argument("--seed", default=None, metavar="S", help="seed (a whole number): same seed, same game")
    parser.add_argument("--fast", action="store_true", help="bots move at once instead of one at a time")
    parser.add_argument(
        "--delay",
        default="0.8",
        metavar="SECONDS",
        help=f"pause before each bot move, 0-{MAX_DELAY:g} seconds (default 0.8; --fast: none)",
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
        PlayError: for a bad seed, delay, name or record path.
    """
    rules = rules_from_args(args)
    players = _whole("--players", args.players)
    seed = None if args.seed is None else _whole("--seed", args.seed)
    try:
        delay = float(args.delay)
    except ValueError:
        raise PlayError(f"--delay {args.delay!r}: give a number of seconds") from None
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
