"""``thirtyone play``: the terminal game, you against bots.

Every argument is checked before the screen opens: a bad preset, rule option, number of
players, bot name, seed, name, pacing, hint time or record path (a folder that does not exist, a
file that exists without ``--overwrite``) is a one-line error (exit status 2), and so is a
standard input or output that is not a terminal. With ``--record`` the record is saved after
every action and on every way out (``q``, ctrl+q, ctrl+c, SIGHUP when the terminal closes,
SIGTERM); a record that could not be saved is a one-line error and exit status 1. A game that
SIGHUP or SIGTERM ended exits with ``128 +`` the signal's number (129, 143), as a shell reports
a process a signal stopped. ``--resume RECORD`` goes on with an unfinished game where it stopped
(the rules, players, bots and seed from the record); a missing file, a finished game, a damaged
record or a dealing option given as well is a one-line error (exit status 2). A language the
terminal game does not speak (``--lang xx``, ``--lang ur``) is said in one line on standard error
before the game, naming those it speaks, and again on its screen; the game plays in English. Each
finished game is kept for ``thirtyone stats`` (:mod:`thirtyone.tui.history`) unless ``--no-history``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from thirtyone.arena.interrupts import handling
from thirtyone.bots import BOTS
from thirtyone.cli.options import add_rules_arguments
from thirtyone.cli.options import check_bot_budgets
from thirtyone.cli.options import check_bots_play
from thirtyone.cli.options import output_file
from thirtyone.cli.options import rules_from_args
from thirtyone.errors import RecordError
from thirtyone.record import GameRecord
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.tui.history import history_folder
from thirtyone.tui.language import TERMINAL_LANGUAGES
from thirtyone.tui.language import terminal_language
from thirtyone.tui.session import PlaySession
from thirtyone.tui.settings import DEFAULT_DELAY
from thirtyone.tui.settings import MAX_DELAY
from thirtyone.tui.settings import MAX_HINT_SECONDS
from thirtyone.tui.settings import MAX_NAME
from thirtyone.tui.settings import MIN_HINT_SECONDS
from thirtyone.tui.settings import PLAY_EXPERT_SECONDS
from thirtyone.tui.settings import PlayError
from thirtyone.tui.settings import PlaySettings

if TYPE_CHECKING:
    from thirtyone.tui.app import ThirtyOneApp

__all__ = ["configure", "run", "settings_from_args", "quit_on_signals", "signal_status", "tell", "NEEDS_TERMINAL"]

NEEDS_TERMINAL = "thirtyone play needs an interactive terminal (80×24 or larger)"
"""The error when standard input or output is not a terminal."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``play``."""
    parser.add_argument(
        "--players",
        default=None,
        metavar="N",
        help=f"players at the table, you included, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4; 2 for the mini deck)",
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
        default=None,
        metavar="SECONDS",
        help=f"pause for each bot turn (its draw and discard show together), thinking included, 0-{MAX_DELAY:g} "
        f"seconds (default {DEFAULT_DELAY:g}; not with --fast, which plays them at once)",
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
        default=None,
        metavar="PATH",
        help="save the game record here, after every move and when you quit; further games of the session go "
        "next to it with -2, -3, ... before the extension (g1.toml, g1-2.toml, g1-3.toml); PATH must not exist "
        "unless --overwrite",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="let --record replace existing record files",
    )
    parser.add_argument(
        "--no-history",
        action="store_true",
        help="keep no record of your finished games (kept by default in $XDG_DATA_HOME/thirtyone/history, "
        "else ~/.local/share/thirtyone/history, for thirtyone stats)",
    )
    parser.add_argument("--name", default="you", metavar="NAME", help=f"your name, at most {MAX_NAME} characters")
    parser.add_argument(
        "--lang",
        default=None,
        metavar="CODE",
        help="the language of the game's screen: en, de, cs, ms, km or ko (de-AT and ko_KR.UTF-8 work too; "
        "default: LANGUAGE, LC_ALL, LC_MESSAGES, LANG); Urdu, which terminals cannot shape, and any other "
        "language are said in one line and played in English",
    )
    parser.add_argument(
        "--resume",
        default=None,
        metavar="RECORD",
        help="go on with the unfinished game saved in RECORD (by --record) where it stopped: the same rules, "
        "players, bots, seed and deals to come; it is saved there again (or to --record)",
    )
    add_rules_arguments(parser)


_DEALING = ("players", "bots", "seed", "preset")
"""The options of ``play`` that ``--resume`` takes from the record (and every rule option)."""


def _resumed(args: argparse.Namespace) -> argparse.Namespace:
    """The arguments of the game that ``args.resume`` names: the options that deal it again (from
    its record's comment, :func:`~thirtyone.tui.autosave.dealt_again`) and the person's name from
    the record, with the pace, hint, language and record options of ``args``.

    Raises:
        PlayError: for a dealing option given as well, a file that cannot be read, a record that is
            damaged, finished or not written by ``thirtyone play``.
    """
    from thirtyone.tui.autosave import dealt_again

    defaults = {"bots": "basic", "preset": "scat"}
    given = [name for name in _DEALING if getattr(args, name) not in (None, defaults.get(name))]
    given += [
        name.removeprefix("rule_")
        for name, value in vars(args).items()
        if name.startswith("rule_") and value is not None
    ]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise PlayError(f"--resume takes the rules, players, bots and seed from the record: leave out {flags}")
    path = Path(args.resume)
    if path.is_dir():
        raise PlayError(f"--resume {path}: is a directory; give a record file")
    try:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        record.replay()
    except FileNotFoundError:
        raise PlayError(f"--resume {path}: no such file") from None
    except OSError as error:
        raise PlayError(f"--resume {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, RecordError) as error:
        raise PlayError(f"--resume {path}: a damaged record: {error}") from None
    if record.winner is not None:
        raise PlayError(f"--resume {path}: that game is over; thirtyone play deals a new one")
    try:
        options = dealt_again(record)
    except PlayError as error:
        raise PlayError(f"--resume {path}: {error}") from None
    parser = argparse.ArgumentParser(add_help=False)
    configure(parser)
    resumed, unknown = parser.parse_known_args(options)
    if unknown:
        raise PlayError(f"--resume {path}: its comment names options play does not know: {' '.join(unknown)}")
    for name in ("fast", "delay", "hint_seconds", "lang", "record", "overwrite", "name", "no_history"):
        setattr(resumed, name, getattr(args, name))
    if args.name == "you":
        resumed.name = record.seats[0]
    if args.record is None:  # saved where it was
        resumed.record, resumed.overwrite = str(path), True
    resumed.resume_record = (path, record)
    return resumed


def _whole(flag: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PlayError(f"{flag} {text!r}: give a whole number") from None


def settings_from_args(args: argparse.Namespace) -> PlaySettings:
    """The checked settings of a ``play`` command line.

    Raises:
        RulesError: for a bad preset or rule option, or players the deck cannot deal (R2.1).
        UnknownBotError: for an unknown bot, a bad expert budget (its limits named) or too many
            bot names.
        PlayError: for a bad seed, delay (or one given with ``--fast``), hint time, name or record
            path, or ``--overwrite`` without ``--record``.
    """
    if getattr(args, "resume", None) is not None:
        args = _resumed(args)
    rules = rules_from_args(args)
    lang, notice = terminal_language(getattr(args, "lang", None), os.environ)
    players = _whole("--players", args.players)
    check_bot_budgets(args.bots)
    seed = None if args.seed is None else _whole("--seed", args.seed)
    if seed is not None and seed < 0:  # Python's random source takes a seed's size, not its sign
        raise PlayError(f"--seed {args.seed!r}: give a whole number from 0 (the same seed deals the same game)")
    if args.fast and args.delay is not None:
        raise PlayError(f"--delay {args.delay}: --fast plays the bots at once, with no pause; give one of them")
    try:
        delay = DEFAULT_DELAY if args.delay is None else float(args.delay)
    except ValueError:
        raise PlayError(f"--delay {args.delay!r}: give a number of seconds") from None
    try:
        hint_seconds = float(args.hint_seconds)
    except ValueError:
        raise PlayError(f"--hint-seconds {args.hint_seconds!r}: give a number of seconds") from None
    record = output_file(args.record, args.overwrite, "--record", "the game record", PlayError, metavar="PATH")
    resume = getattr(args, "resume_record", None)
    settings = PlaySettings.create(
        rules,
        players,
        args.bots,
        seed=seed,
        fast=args.fast,
        record=record,
        name=args.name,
        delay=0.0 if args.fast else delay,
        hint_seconds=hint_seconds,
        overwrite=args.overwrite,
        notice=notice,
        lang=lang,
        resume=None if resume is None else resume[1],
        history=None if args.no_history else history_folder(os.environ),
    )
    check_bots_play(settings.bots, rules, players, PlayError)  # a bot that plays only some tables says so now
    if resume is not None:
        try:
            PlaySession(settings)  # its moves played again, as the game will: refused here, before the screen
        except PlayError as error:
            raise PlayError(f"--resume {resume[0]}: {error}") from None
    return settings


def interactive() -> bool:
    """True when standard input and output are terminals (and standard error, which Textual
    draws the screen on): the game needs one."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    return all(stream is not None and stream.isatty() for stream in streams)


@contextlib.contextmanager
def quit_on_signals(app: ThirtyOneApp) -> Iterator[list[int]]:
    """While the app runs, SIGHUP (the terminal closed) and SIGTERM quit it the way ``q`` does,
    saving the record first (only possible on the main thread; elsewhere nothing changes).
    Yields the list of the signal numbers received, in order, for the exit status."""
    signals = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def on_signal(number: int, _frame: object) -> None:
        received.append(number)
        app.request_quit()

    with handling(signals, on_signal):
        yield received


def signal_status(number: int) -> int:
    """The exit status of a command that a signal stopped: ``128 + number``, as a shell reports
    a process the signal killed (143 for SIGTERM, 129 for SIGHUP; 130 for Ctrl-C elsewhere)."""
    return 128 + number


def run(args: argparse.Namespace) -> int:
    """Check the arguments and the terminal, then play until the person quits: 0; 1 when a game
    record could not be saved (the reason on one line); ``128 + N`` when signal ``N`` (SIGHUP,
    SIGTERM) ended the game, after the record was saved: 129 or 143."""
    settings = settings_from_args(args)
    if not interactive():
        raise PlayError(NEEDS_TERMINAL)
    if settings.notice:  # before the game, as other options are refused (its screen says it too)
        spoken = f"{', '.join(TERMINAL_LANGUAGES[:-1])} or {TERMINAL_LANGUAGES[-1]}"
        tell(f"thirtyone: {settings.notice} --lang takes {spoken}.")
    from thirtyone.tui.app import ThirtyOneApp  # Textual loads only once the arguments are good

    app = ThirtyOneApp(settings)
    with quit_on_signals(app) as received:
        try:
            app.run()
        finally:
            app.autosave()  # every way out: the record as the game stands
    for note in app.records.saved:
        tell(note)
    failure = app.records.failure
    if failure is not None:
        tell(f"thirtyone: error: the game record could not be saved: {failure}")
    status = 1 if failure is not None else 0
    if received:
        number = received[0]
        tell(f"thirtyone: stopped by {signal.Signals(number).name}")
        status = signal_status(number)
    preparation = app.preparation
    if preparation.started and not preparation.ready:
        leave_mid_compile(status)
    return status


def tell(line: str) -> None:
    """Say ``line`` on standard error, if it is still there: when the terminal has closed
    (SIGHUP), writing fails (EIO) and nothing can be said; the exit status says the rest."""
    with contextlib.suppress(OSError, ValueError):  # ValueError: the stream was closed
        print(line, file=sys.stderr)
        sys.stderr.flush()


def leave_mid_compile(status: int) -> None:
    """End the process now, with ``status``: the expert's simulator is still compiling on its
    thread, and LLVM aborts the process if Python shuts down under a compile. The record is
    saved and every line said by then; nothing else is left to finish."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the terminal has closed (SIGHUP)
            stream.flush()
    os._exit(status)
