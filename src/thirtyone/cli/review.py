"""``thirtyone review RECORD [--seat N] [--valuer V] [--budget B] [--seed S] [--json] [--lang CODE]``:
the review of a game, move by move (:mod:`thirtyone.bots.review`), valued by the judge — the same
under any seed, in milliseconds a decision — where its values may be shown at the record's table
(:meth:`~thirtyone.bots.judge.JudgeBot.cannot_value`: weights made for its rules and table size,
their values' error measured within the bar), else by the expert (one line says so);
``--valuer expert`` asks for the expert. ``--budget`` and ``--seed`` are the expert's, and the line
under the review's heading says which valued it (the judge, with its values' measured error, or
the expert's budget after the line that says the judge does not value this game).

The record (any version, from ``play``, ``simulate``, ``arena`` or the server; an unfinished game
is reviewed up to its last move) is read as ``thirtyone replay`` reads it and replayed, every action
and result checked, before anything is valued. Then each decision of the seat (every seat by
default) is valued from what that seat could see, with a progress bar on a terminal (none when
piped or with ``--json``), and the review is printed (:func:`~thirtyone.tui.review_text.review_lines`):
each seat's summary (accuracy, lives given away in all and a round, its marks), its decisions
(each legal move's value, best first, the move played marked, what it gave away, its mark, the
noise of its values, and the rules that explain a mark, each with its id) and its three costliest
decisions in a sentence each ("Discard 7♠ gave away 0.98 lives; better: Discard K♠", then why),
in the language of ``--lang`` or of the environment, as ``play`` chooses it. ``--json`` prints
the review's data instead (:meth:`~thirtyone.bots.review.Review.to_json`, each costliest decision
with its ``sentence`` and its reasons in words, ``why``).
Ctrl-C stops the review and prints the decisions valued so far, marked partial, with exit status
130; SIGTERM (``timeout``, ``kill``) does the same with 143 (:func:`thirtyone.cli.stopping.stopping`).
A file that is not a record or does not replay, a seat that is not one of the record's, or a budget
out of range is a one-line error, exit status 2, and nothing is printed.
"""

from __future__ import annotations

import argparse
import os
import sys

from rich.console import Console
from rich.text import Text

from thirtyone.arena.report import progress_bar
from thirtyone.bots import UnknownBotError
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.levels import parse_budget
from thirtyone.bots.levels import resolve
from thirtyone.bots.review import DEFAULT_WORLDS
from thirtyone.bots.review import VALUERS
from thirtyone.bots.review import Review
from thirtyone.bots.review import Reviewer
from thirtyone.checks import escaped_json
from thirtyone.cli.options import seed_number
from thirtyone.cli.options import whole_number
from thirtyone.cli.replay import file_path
from thirtyone.cli.replay import read_record
from thirtyone.cli.stopping import Stop
from thirtyone.cli.stopping import stopping
from thirtyone.errors import RecordError
from thirtyone.errors import SeatError
from thirtyone.errors import ThirtyOneError
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.tui.language import terminal_language
from thirtyone.tui.review_text import progress_label
from thirtyone.tui.review_text import reason_text
from thirtyone.tui.review_text import review_lines
from thirtyone.tui.review_text import sentence_text
from thirtyone.tui.settings import shown_name

__all__ = ["configure", "run", "ReviewError", "budget_from_text", "review_json"]


class ReviewError(ThirtyOneError):
    """A ``review`` argument that cannot be used: a budget out of range, a seat not the record's."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``review``."""
    parser.add_argument("file", metavar="RECORD", help="the game record (TOML, any version; see docs/record-format.md)")
    parser.add_argument(
        "--seat", type=whole_number, default=None, metavar="N", help="review this seat only (default: every seat)"
    )
    parser.add_argument(
        "--valuer",
        choices=VALUERS,
        default=VALUERS[0],
        help="what values each decision: judge (default: the same review under any seed; where its weights "
        "were not made for the record's rules or table size the expert values it, and the review says so) "
        "or expert",
    )
    parser.add_argument(
        "--budget",
        default=str(DEFAULT_WORLDS),
        metavar="B",
        help=f"the expert's budget a decision, where the expert values, as a bot's (expert:B): worlds (default "
        f"{DEFAULT_WORLDS}: the same review for a seed) or seconds (0.5s); :engine or :sim after it chooses the "
        "rollouts",
    )
    parser.add_argument(
        "--seed",
        type=seed_number,
        default=0,
        metavar="S",
        help="the expert's seed, where the expert values (default 0): same seed, same review",
    )
    parser.add_argument("--json", action="store_true", help="print the review's data as JSON")
    parser.add_argument(
        "--lang",
        default=None,
        metavar="CODE",
        help="the review's language: en, de, cs, ms, km or ko (default: LANGUAGE, LC_ALL, LC_MESSAGES, LANG), "
        "as thirtyone play chooses it",
    )


def budget_from_text(text: str) -> tuple[int, float | None, Rollouts]:
    """The expert's budget a ``--budget`` gives, ``(worlds, seconds, rollouts)``, read as
    :func:`~thirtyone.bots.levels.parse_budget` reads the budget of ``expert:TEXT`` (``200``,
    ``0.5s``, ``200:engine``; ``expert:200`` and ``hard:0.5s`` as the bots are named too).

    Raises:
        ReviewError: for a budget out of range or not a budget (its limits named, as ``play`` names
            them), or another bot's (``basic:3``).

    >>> budget_from_text("200"), budget_from_text("hard:0.5s"), budget_from_text("20:engine")
    ((200, None, 'auto'), (1000000, 0.5, 'auto'), (20, None, 'engine'))
    """
    text = text.strip()
    head, _, rest = text.partition(":")
    named = bool(rest) and head[:1].isalpha()  # a bot's name first: expert:200, hard:0.5s
    if named and resolve(head) != "expert":
        raise ReviewError(
            f"--budget {text}: the review's budget is the expert's: worlds ({DEFAULT_WORLDS}, expert:{DEFAULT_WORLDS}) "
            "or seconds (0.5s, expert:0.5s) a decision"
        )
    spec = text if named else f"expert:{text}"
    try:
        return parse_budget(spec)
    except UnknownBotError as error:
        raise ReviewError(f"--budget {text}: {error}") from None


def run(args: argparse.Namespace) -> int:
    """Review the record and print it; 0 when every decision was valued, 130 when Ctrl-C stopped
    the review and 143 when SIGTERM did (after printing the decisions valued so far, marked partial).

    Raises:
        ReplayError: for an empty path, or a file that cannot be read or is not UTF-8.
        RecordError: for a bad record, or one whose replay differs (the message starts with the file).
        ReviewError: for a budget out of range or a seat that is not the record's.
        PlayError: for a malformed ``--lang``.
    """
    lang, notice = terminal_language(args.lang, os.environ, doing="reviewing")
    worlds, seconds, rollouts = budget_from_text(args.budget)
    path = file_path(args.file, "a record file")
    record = read_record(path)
    seats = None if args.seat is None else [args.seat]
    try:
        reviewer = Reviewer(
            record, seats, worlds=worlds, seconds=seconds, seed=args.seed, rollouts=rollouts, valuer=args.valuer
        )
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    except SeatError as error:
        raise ReviewError(f"--seat {args.seat}: {error}") from None
    t = messages(lang)
    console = Console(stderr=True)
    if notice is not None:
        console.print(f"thirtyone: {notice}", markup=False, soft_wrap=True)  # one line, as play says it
    stopped: Stop | None = None
    with (
        stopping() as stop,
        progress_bar(console, reviewer.total, disable=args.json, label=progress_label(t)) as advance,
    ):
        try:
            for _ in reviewer.decisions():
                advance(1)
        except KeyboardInterrupt:  # keep what is done
            stopped = stop
    review = reviewer.review()
    if args.json:
        print(escaped_json({"file": str(path), **review_json(review, t)}, indent=2))
    else:
        out = Console(highlight=False)
        for line in review_lines(t, review, str(path)):
            # into a file or a pipe a sentence stays on its line (a long file name is not broken)
            out.print(line, soft_wrap=isinstance(line, Text) and not out.is_terminal)
    if stopped is not None:
        print(f"thirtyone: {stopped.word}: the review above is partial", file=sys.stderr)
        return stopped.status
    return 0


def review_json(review: Review, t: Messages) -> dict[str, object]:
    """:meth:`Review.to_json <thirtyone.bots.review.Review.to_json>` with each costliest
    decision's ``sentence`` in the words of ``t`` (:func:`~thirtyone.tui.review_text.sentence_text`)
    and ``why``, the rules that explain it, one line each with its rule ids
    (:func:`~thirtyone.tui.review_text.reason_text`)."""
    data = review.to_json()
    names = [shown_name(name, t) for name in review.names]
    for summary, shown in zip(review.summaries, data["summaries"], strict=True):
        for decision, costly in zip(summary.costliest, shown["costliest"], strict=True):
            costly["sentence"] = sentence_text(t, decision, names).plain
            costly["why"] = [reason_text(t, reason, names).plain for reason in decision.reasons]
    return data
