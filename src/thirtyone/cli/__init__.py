"""The ``thirtyone`` command: ``play``, ``simulate``, ``replay``, ``arena``, ``stats`` and more.

Each subcommand lives in its own module with ``configure(parser)`` and ``run(args) -> int``.
Library errors (every one a ``ValueError`` subclass with a one-line message) become a one-line
``thirtyone: error: …`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from thirtyone import __version__
from thirtyone.checks import escaped
from thirtyone.cli import analyze
from thirtyone.cli import arena
from thirtyone.cli import bench
from thirtyone.cli import bots
from thirtyone.cli import play
from thirtyone.cli import replay
from thirtyone.cli import review
from thirtyone.cli import serve
from thirtyone.cli import simulate
from thirtyone.cli import stats
from thirtyone.cli import verify
from thirtyone.cli.stopping import Stop
from thirtyone.cli.stopping import Terminated
from thirtyone.errors import ThirtyOneError
from thirtyone.errors import ThirtyOneRuntimeError

__all__ = ["main", "build_parser", "parse_args"]

_COMMANDS = {
    "play": (play, "play against bots in the terminal"),
    "simulate": (simulate, "play many bot games and print statistics"),
    "replay": (replay, "replay and verify a game record"),
    "arena": (arena, "rate bots against each other on duplicate deals"),
    "bench": (bench, "measure the engine and the compiled simulator side by side"),
    "serve": (serve, "serve tables to play over the network (HTTP and WebSockets)"),
    "verify": (verify, "check a game record's committed shuffles and replay it"),
    "bots": (bots, "list the bots --bots accepts: built in, installed, your own"),
    "analyze": (analyze, "the odds of a variant: exact and simulated figures, tables and SVG charts"),
    "review": (review, "a game record reviewed move by move (by the judge or the expert): values, mistakes, accuracy"),
    "stats": (stats, "your progress over the games thirtyone play kept: wins, places, accuracy, a chart"),
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like the library's: ``thirtyone: error: …``
    with a pointer to the help of the command that was given (``thirtyone simulate --help``), and
    exit status 2."""

    def error(self, message: str) -> NoReturn:
        if "required: COMMAND" in message:
            message = f"choose a command: {', '.join(_COMMANDS)} (see thirtyone --help)"
        else:
            message = f"{message} (see {self.prog} --help)"
        self.exit(2, f"thirtyone: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``thirtyone`` command."""
    parser = _Parser(
        prog="thirtyone",
        description="Thirty-One (Scat, Blitz, Schwimmen): play, simulate, replay, rate bots and measure speed.",
    )
    parser.add_argument("--version", action="version", version=f"thirtyone {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name, (module, help_text) in _COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        module.configure(sub)
        sub.set_defaults(run=module.run, command_parser=sub)
    return parser


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line; an argument no part of it knows is refused by the subcommand's
    parser, so that the error points to its help (``thirtyone simulate --help``).

    Raises:
        SystemExit: with status 2 after a one-line ``thirtyone: error: …``, for bad arguments.
    """
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        owner: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        owner.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or an environment that
    failed, such as a database that cannot be opened, said in one line; 130 interrupted, 143
    terminated (SIGTERM); 1, and nothing said, when the reader of its output left early: ``| head``)."""
    parser = build_parser()
    args = parse_args(parser, argv)
    try:
        status: int = args.run(args)
    except (ThirtyOneError, ThirtyOneRuntimeError) as error:  # bad input, or an environment that failed
        print(f"thirtyone: error: {escaped(str(error))}", file=sys.stderr)  # it may quote a record: shared text
        return 2
    except BrokenPipeError:  # the reader left (``| head``): stop quietly, as other command-line tools do
        with contextlib.suppress(OSError, ValueError):  # nothing more to flush at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1  # (as rich's console does when its reader leaves)
    except OSError as error:
        line = f"thirtyone: error: {error.strerror or error}: {error.filename or ''}".rstrip(": ")
        print(escaped(line), file=sys.stderr)
        return 2
    except KeyboardInterrupt as raised:  # one the command's own handling let through
        stop = Stop(terminated=isinstance(raised, Terminated))
        print(f"thirtyone: {stop.word}", file=sys.stderr)
        return stop.status
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
