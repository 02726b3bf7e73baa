"""Arguments shared by the subcommands: the preset, every rule option, players and bots."""

from __future__ import annotations

import argparse
from typing import Any

from thirtyone.rules import OPTIONS, PRESETS, Rules

__all__ = ["add_rules_arguments", "rules_from_args"]


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset`` and one flag per rule option (``--three-of-a-kind 30.5``, ``--throw-down``)."""
    parser.add_argument(
        "--preset",
        default="scat",
        metavar="NAME",
        help=f"rules preset: {', '.join(PRESETS)} (default scat)",
    )
    group = parser.add_argument_group("rule options (on top of the preset; see docs/RULES.md)")
    for name, spec in OPTIONS.items():
        flag = "--" + name.replace("_", "-")
        help_text = f"{spec.help} [{spec.rule}]"
        if spec.kind == "bool":
            group.add_argument(
                flag, dest=f"rule_{name}", action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        else:
            metavar = "|".join(spec.choices) if spec.kind == "choice" else "N"
            group.add_argument(flag, dest=f"rule_{name}", metavar=metavar, default=None, help=help_text)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the arguments ask for.

    Raises:
        RulesError: for an unknown preset, a bad value or a contradiction.
    """
    values: dict[str, Any] = {}
    for name, spec in OPTIONS.items():
        value = getattr(args, f"rule_{name}", None)
        if value is not None:
            values[name] = spec.parse(value) if isinstance(value, str) else value
    return Rules.preset(args.preset, **values)
