"""``thirtyone stats [--no-accuracy] [--chart FILE.png [--overwrite]] [--last N] [--budget B] [--seed S]
[--lang CODE]``: your progress over the games ``thirtyone play`` kept in your history (:mod:`thirtyone.tui.history`).

Every record in the history folder is read and replayed, every action and result checked
(:func:`~thirtyone.tui.progress.kept_game`); a file that is damaged, not a record, or not a
finished game of ``thirtyone play`` is skipped and named in one line on standard error, never
fatal. Then the review values your decisions in each game (:mod:`thirtyone.bots.review`, as
``thirtyone review`` does, with its budget and seed), with a progress bar on a terminal: once a
game, since each review is kept beside its record; ``--no-accuracy`` skips it. Printed, in the
language of ``--lang`` or of the environment (as ``play`` chooses it): your games, wins, average
place and lives lost a round by preset and table size, and your last ``--last`` games one a row
with your place, the review's accuracy and your blunders; ``--chart FILE.png`` draws the
accuracy and blunders of every reviewed game (:mod:`thirtyone.tui.progress_chart`), into a folder
that exists and a file that does not (unless ``--overwrite``), both checked before any work. An empty
history says how to fill it. Ctrl-C stops the reviews (those made are kept) with exit status 130,
SIGTERM (``timeout``, ``kill``) with 143 (:func:`thirtyone.cli.stopping.stopping`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from thirtyone.arena.report import progress_bar
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.review import DEFAULT_WORLDS
from thirtyone.cli.options import output_file
from thirtyone.cli.options import seed_number
from thirtyone.cli.options import whole_number
from thirtyone.cli.replay import read_record
from thirtyone.cli.review import budget_from_text
from thirtyone.cli.stopping import stopping
from thirtyone.errors import ThirtyOneError
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.tui.history import RECORD_SUFFIX
from thirtyone.tui.history import REVIEW_SUFFIX
from thirtyone.tui.history import history_folder
from thirtyone.tui.history import reviewed
from thirtyone.tui.language import terminal_language
from thirtyone.tui.progress import KeptGame
from thirtyone.tui.progress import chart_line
from thirtyone.tui.progress import kept_game
from thirtyone.tui.progress import progress_label
from thirtyone.tui.progress import progress_lines
from thirtyone.tui.progress import skipped_line

__all__ = ["configure", "run", "StatsError", "read_history", "LAST"]

LAST = 20
"""The games shown one a row by default (``--last``)."""


class StatsError(ThirtyOneError):
    """A ``stats`` argument that cannot be used: ``--last`` below 1, a chart that is not PNG, asked
    for without the accuracy it draws, in a folder that does not exist or over a file without
    ``--overwrite``."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``stats``."""
    parser.add_argument(
        "--no-accuracy",
        action="store_true",
        help="leave out the review's accuracy and blunders (no game is reviewed: quick)",
    )
    parser.add_argument(
        "--chart",
        default=None,
        metavar="FILE.png",
        help="draw your accuracy game by game into FILE.png (a new file unless --overwrite)",
    )
    parser.add_argument("--overwrite", action="store_true", help="let --chart replace an existing file")
    parser.add_argument(
        "--last",
        type=whole_number,
        default=LAST,
        metavar="N",
        help=f"show your last N games one a row (default {LAST})",
    )
    parser.add_argument(
        "--budget",
        default=str(DEFAULT_WORLDS),
        metavar="B",
        help=f"the review's budget a decision, as thirtyone review takes it (default {DEFAULT_WORLDS} worlds); "
        "a game reviewed with another budget is reviewed again",
    )
    parser.add_argument("--seed", type=seed_number, default=0, metavar="S", help="the review's seed (default 0)")
    parser.add_argument(
        "--lang",
        default=None,
        metavar="CODE",
        help="the language: en, de, cs, ms, km or ko (default: LANGUAGE, LC_ALL, LC_MESSAGES, LANG)",
    )


def read_history(folder: Path) -> tuple[list[KeptGame], list[str]]:
    """The finished games kept in ``folder``, in the order of their names (the time each ended),
    and the reason each other file there was skipped, one line each, starting with its path.
    Hidden files (a record being written) and the reviews beside the records are not games and
    not skipped. A folder that does not exist holds no games."""
    games: list[KeptGame] = []
    skipped: list[str] = []
    if not folder.is_dir():
        return games, skipped
    for path in sorted(folder.iterdir()):
        name = path.name
        if name.startswith(".") or name.endswith(REVIEW_SUFFIX):
            continue
        if not name.endswith(RECORD_SUFFIX):
            skipped.append(f"{path}: not a game record ({RECORD_SUFFIX})")
            continue
        try:
            record = read_record(path)
            games.append(kept_game(path, record))
        except ThirtyOneError as error:
            reason = str(error)
            skipped.append(reason if reason.startswith(f"{path}: ") else f"{path}: {reason}")
    return games, skipped


def run(args: argparse.Namespace) -> int:
    """Print your progress; 0 when done (an empty history too), 130 when Ctrl-C stopped the
    reviews and 143 when SIGTERM did (the reviews made are kept, nothing is printed).

    Raises:
        StatsError: for ``--last`` below 1, a ``--chart`` given with ``--no-accuracy`` or refused by
            :func:`~thirtyone.cli.options.output_file` (not a ``.png`` file, an empty path, a
            folder, in a folder that does not exist, over a file without ``--overwrite``), or
            ``--overwrite`` without ``--chart``.
        ReviewError: for a budget out of range.
        PlayError: for a malformed ``--lang``.
        OSError: when the chart cannot be written.
    """
    if args.last < 1:
        raise StatsError(f"--last {args.last}: show at least 1 game")
    chart = output_file(args.chart, args.overwrite, "--chart", "the chart", StatsError, suffix=".png")
    if chart is not None and args.no_accuracy:
        raise StatsError("--chart draws the review's accuracy: leave out --no-accuracy")
    worlds, seconds, rollouts = budget_from_text(args.budget)
    lang, notice = terminal_language(args.lang, os.environ, doing="showing")
    t = messages(lang)
    err = Console(stderr=True, highlight=False)
    if notice is not None:
        err.print(f"thirtyone: {notice}", markup=False, soft_wrap=True)
    folder = history_folder(os.environ)
    games, skipped = read_history(folder)
    for reason in skipped:
        err.print(skipped_line(t, reason), markup=False, soft_wrap=True)
    if games and not args.no_accuracy:
        with stopping() as stop:
            try:
                games = _reviewed(games, err, t, worlds=worlds, seconds=seconds, seed=args.seed, rollouts=rollouts)
            except KeyboardInterrupt:
                print(f"thirtyone: {stop.word}: the reviews made so far are kept", file=sys.stderr)
                return stop.status
    out = Console(highlight=False)
    for part in progress_lines(t, folder, games, last=args.last, accuracy=not args.no_accuracy):
        out.print(part, soft_wrap=isinstance(part, Text) and not out.is_terminal)  # a path stays on its line
    if chart is not None and games:
        _write_chart(chart, t, games)
        out.print(chart_line(t, chart), markup=False, soft_wrap=not out.is_terminal)
    return 0


def _reviewed(
    games: list[KeptGame],
    console: Console,
    t: Messages,
    *,
    worlds: int,
    seconds: float | None,
    seed: int,
    rollouts: Rollouts,
) -> list[KeptGame]:
    """``games``, each with the review of your decisions (made now where none is kept)."""
    out = []
    with progress_bar(console, len(games), label=progress_label(t)) as advance:
        for game in games:
            review = reviewed(game.path, game.record, worlds=worlds, seconds=seconds, seed=seed, rollouts=rollouts)
            out.append(game.reviewed(review))
            advance(1)
    return out


def _write_chart(path: Path, t: Messages, games: list[KeptGame]) -> None:
    from thirtyone.tui.progress_chart import write_chart  # matplotlib only for a chart

    write_chart(path, t, games)
