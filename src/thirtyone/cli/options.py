"""Arguments shared by the subcommands: the preset, every rule option, players and bots."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from thirtyone.bots import make_bot
from thirtyone.bots import parse_bot_list
from thirtyone.bots.base import table_refusal
from thirtyone.bots.levels import SIM_BOTS
from thirtyone.bots.levels import SIM_EXACT_BOTS
from thirtyone.bots.levels import takes_budget
from thirtyone.errors import ArgumentError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import DEFAULT_PLAYERS
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import OPTIONS
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules

__all__ = [
    "whole_number",
    "seed_number",
    "add_players_argument",
    "add_engine_argument",
    "plays_on_sim",
    "add_rules_arguments",
    "rule_options",
    "rules_from_args",
    "check_bot_budgets",
    "parse_bots",
    "make_folder",
    "output_folder",
    "output_file",
    "clear_failed_folder",
]


def whole_number(text: str) -> int:
    """``type=`` of a whole-number flag (``--games``, ``--seed``), refusing other text in the words
    ``play`` uses.

    Raises:
        argparse.ArgumentTypeError: for text that is not a whole number.
    """
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a whole number, not {text!r}") from None


def seed_number(text: str) -> int:
    """``type=`` of ``--seed``: a whole number from 0 (Python's random source takes a seed's size,
    not its sign, so -7 would deal the games of 7).

    Raises:
        argparse.ArgumentTypeError: for text that is not a whole number from 0.
    """
    number = whole_number(text)
    if number < 0:
        raise argparse.ArgumentTypeError(f"give a whole number from 0, not {text!r}")
    return number


def add_players_argument(parser: argparse.ArgumentParser, what: str = "players at the table") -> None:
    """``--players N``: how many play at each table, a whole number (:func:`whole_number`), ``None``
    when not given (the rules' default, 4; 2 for the mini deck) and checked against the rules by
    the command; ``what`` opens its help (``players at the table, 2-9 (default 4; …)``)."""
    parser.add_argument(
        "--players",
        type=whole_number,
        default=None,
        metavar="N",
        help=f"{what}, {MIN_PLAYERS}-{MAX_PLAYERS} (default {DEFAULT_PLAYERS}; 2 for the mini deck)",
    )


def add_engine_argument(parser: argparse.ArgumentParser, also: str = "") -> None:
    """``--engine auto|reference|sim``: what plays the games of ``simulate`` and ``arena``
    (``also``: more words for the help)."""
    parser.add_argument(
        "--engine",
        choices=("auto", "reference", "sim"),
        default="auto",
        help=f"what plays the games: the compiled simulator (sim, for {' and '.join(SIM_EXACT_BOTS)} bots; needs "
        "numba), the reference engine, or auto: sim when it can, else the engine (default); both give "
        f"the same results for the same seed{also}",
    )


def plays_on_sim(
    choice: str, names: list[str], rules: Rules, error: type[ThirtyOneError], *, record: bool = False
) -> bool:
    """Whether the compiled simulator plays the games for ``--engine choice``: it copies only some
    bots exactly, keeps no game records (``record``) and plays only rules it supports.

    Raises:
        error: the command's, for ``--engine sim`` when it cannot play them (every reason said).
    """
    if choice == "reference":
        return False
    reasons = []
    if any(name not in SIM_BOTS for name in names):
        reasons.append(f"it plays only the {' and '.join(SIM_EXACT_BOTS)} bots exactly")
    if record:
        reasons.append("it keeps no game records (--record plays on the reference engine, with the same results)")
    if not reasons:
        from thirtyone import sim

        reason = sim.cannot_play(rules)
        if reason:
            reasons.append(reason)
    if choice == "sim" and reasons:
        raise error(f"--engine sim: {'; '.join(reasons)}; use --engine reference or auto")
    return not reasons


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset`` and one flag per rule option (``--three-of-a-kind 30.5``, ``--throw-down``)."""
    parser.add_argument(
        "--preset",
        default=None,
        metavar="NAME",
        help=f"rules preset: {', '.join(PRESETS)} (default scat)",
    )
    group = parser.add_argument_group("rule options (on top of the preset; see docs/RULES.md)")
    for name, spec in OPTIONS.items():
        flag = "--" + name.replace("_", "-")
        help_text = f"{spec.help} [{spec.rule}]"
        if spec.kind == "int" and not spec.only:  # the range, as the error for a value outside it says
            help_text = f"{spec.help}, {spec.low}-{spec.high:,} [{spec.rule}]"
        if spec.kind == "bool":
            group.add_argument(
                flag, dest=f"rule_{name}", action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        else:
            metavar = "|".join(spec.choices) if spec.kind == "choice" else "N"
            group.add_argument(flag, dest=f"rule_{name}", metavar=metavar, default=None, help=help_text)


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options given as flags, parsed (``{"lives": 1, "throw_down": True}``), as
    :meth:`Rules.preset <thirtyone.rules.Rules.preset>` takes them on top of a preset.

    Raises:
        RulesError: for a value an option does not take.
    """
    values: dict[str, Any] = {}
    for name, spec in OPTIONS.items():
        value = getattr(args, f"rule_{name}", None)
        if value is not None:
            values[name] = spec.parse(value) if isinstance(value, str) else value
    return values


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the arguments ask for (``--preset``, scat when not given, and the rule options);
    a command's ``--players`` not given becomes the rules' default
    (:meth:`~thirtyone.rules.Rules.default_players`: 4, or 2 for the mini deck).

    Raises:
        RulesError: for an unknown preset, a bad value or a contradiction.
    """
    rules = Rules.preset("scat" if args.preset is None else args.preset, **rule_options(args))
    if "players" in args and args.players is None:
        args.players = rules.default_players()
    return rules


def check_bot_budgets(text: str) -> None:
    """Check the expert budgets of a ``--bots`` list (``expert:200``, ``hard:0.5s``), so that a
    bad one is refused with its limits named (:func:`thirtyone.bots.make_bot`'s).

    Raises:
        UnknownBotError: for a budget that is not 1 to 1,000,000 worlds or more than 0 and at
            most 3,600 seconds.

    >>> check_bot_budgets("basic,expert:200,hard:1.5s")
    >>> check_bot_budgets("expert:0")
    Traceback (most recent call last):
    ...
    thirtyone.bots.base.UnknownBotError: bad expert budget '0' in 'expert:0': give 1 to 1,000,000 worlds \
per decision (expert:200) or more than 0 and up to 3,600 seconds (expert:0.5s)
    """
    for name in text.split(","):
        if takes_budget(name):
            make_bot(name)


def parse_bots(text: str, count: int, rules: Rules) -> list[str]:
    """:func:`thirtyone.bots.parse_bot_list` after :func:`check_bot_budgets`, each bot asked
    whether it can play ``rules`` at a table of ``count`` (:func:`~thirtyone.bots.base.table_refusal`),
    before any game is played or written.

    Raises:
        UnknownBotError: for an unknown name, a bad budget, an empty list or too many names.
        ArgumentError: for a bot that cannot play these rules or this many players.
    """
    check_bot_budgets(text)
    names = parse_bot_list(text, count)
    check_bots_play(names, rules, count)
    return names


def check_bots_play(
    names: Sequence[str], rules: Rules, players: int, error: type[ThirtyOneError] = ArgumentError
) -> None:
    """Ask each bot of ``names`` whether it can play ``rules`` at a table of ``players``
    (:func:`~thirtyone.bots.base.table_refusal`), before any game is played or written.

    Raises:
        ``error``: naming the first bot that cannot, and why.
    """
    for name in dict.fromkeys(names):
        refusal = table_refusal(make_bot(name, 0), rules, players)
        if refusal is not None:
            raise error(f"--bots {name}: {refusal}; choose another bot, or rules and players it plays")


def make_folder(folder: Path, flag: str, error: type[ThirtyOneError]) -> None:
    """Make ``folder`` for the output of ``flag`` (``--out``), if it is not there; its parent must
    exist (as for ``play --record``), so that a mistyped path makes no folders elsewhere.

    Raises:
        ThirtyOneError: ``error``, naming the flag and why, when the parent is missing or the folder
            cannot be made.
    """
    if not folder.parent.exists():  # (the parent of a bare name is ".")
        raise error(f"{flag} {folder}: the folder {folder.parent} does not exist; make it first or give another folder")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as reason:
        raise error(
            f"{flag} {folder}: cannot make the folder ({reason.strerror or reason}); give a folder you can write to"
        ) from None


def output_folder(
    text: str | None,
    overwrite: bool,
    flag: str,
    what: str,
    earlier: Callable[[Path], list[str]],
    error: type[ThirtyOneError],
) -> Path | None:
    """The checked folder of ``flag`` (``--out``, ``--chart``; ``None`` when not given): nothing
    is made or removed here. ``what`` is what it holds, in words (``results``); ``earlier`` names
    the files an earlier run left in a folder.

    Raises:
        ThirtyOneError: ``error``, for ``--overwrite`` without ``flag``, an empty path, a file, or a
            folder that holds an earlier run's files (without ``--overwrite``).
    """
    if text is None:
        if overwrite:
            raise error(f"--overwrite is for {flag} DIR: add {flag}, or leave --overwrite out")
        return None
    if text == "":
        raise error(f"{flag} '': an empty path; give a folder for the {what} ({flag} . for this folder)")
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise error(f"{flag} {folder}: that is a file, not a folder; give a folder for the {what}")
    found = earlier(folder) if folder.is_dir() and not overwrite else []
    if found:
        raise error(
            f"{flag} {folder}: the folder already holds {what} ({', '.join(found)}); give a new or empty folder "
            "or add --overwrite to replace them"
        )
    return folder


def output_file(
    text: str | None,
    overwrite: bool,
    flag: str,
    what: str,
    error: type[ThirtyOneError],
    *,
    suffix: str | None = None,
    beside: str | None = None,
    metavar: str | None = None,
) -> Path | None:
    """The checked file of ``flag`` (``--record``, ``--chart``; ``None`` when not given), before
    any work: nothing is written here. ``what`` is what it holds, in words (``the chart``);
    ``suffix`` the ending its name must have (``.png``, any case); ``beside`` the suffix of a
    second file written beside it (``.json``), checked as well; ``metavar`` names the file as the
    help does (default ``FILE`` and the suffix).

    Raises:
        ThirtyOneError: ``error``, in one line naming the flag and what to do, for ``--overwrite``
            without ``flag``, an empty path, a name without ``suffix``, a folder, a folder that does
            not exist, or a file that exists (without ``--overwrite``).
    """
    if text is None:
        if overwrite:
            named = metavar or f"FILE{suffix or ''}"
            raise error(f"--overwrite is for {flag} {named}: add {flag}, or leave --overwrite out")
        return None
    if text == "":
        raise error(f"{flag} '': an empty path; give a file name for {what}")
    path = Path(text)
    if suffix is not None and path.suffix.lower() != suffix:
        raise error(f"{flag} {path}: {what} is a {suffix} file; give a file name ending in {suffix}")
    if path.is_dir():
        raise error(f"{flag} {path}: that is a folder; give a file name for {what}")
    if not path.parent.is_dir():  # (the parent of a bare name is ".")
        raise error(f"{flag} {path}: the folder {path.parent} does not exist; make it first or give another")
    for file in (path, *([] if beside is None else [path.with_suffix(beside)])):
        if file.exists() and not overwrite:
            which = "the file" if file == path else f"the file {file} beside it"
            raise error(f"{flag} {path}: {which} already exists; choose another name or add --overwrite")
    return path


def clear_failed_folder(
    folder: Path, overwrite: bool, records: Callable[[Path], list[Path]], instead: str, error: type[ThirtyOneError]
) -> None:
    """Check ``folder``, where the records of failed games go when no output folder is given
    (``simulate-failed``, ``arena-failed``), before any game: a folder (or nothing yet) without
    the records of an earlier run (``records(folder)``); with ``overwrite`` they are removed, so
    that none is left among the new ones. ``instead`` is the flag that puts them elsewhere.

    Raises:
        ThirtyOneError: ``error``, for a file of that name, or an earlier run's records without
            ``overwrite``.
    """
    if folder.exists() and not folder.is_dir():
        raise error(
            f"{folder} is a file, and the records of failed games go into a folder of that name: "
            f"move the file, or give {instead}"
        )
    found = records(folder) if folder.is_dir() else []
    if found and not overwrite:
        raise error(
            f"{folder}/ holds the records of games that failed in an earlier run: move them, "
            "or add --overwrite to replace them"
        )
    for path in found:
        path.unlink()
