"""``thirtyone bots``: the bots ``--bots`` (``play``, ``simulate``, ``arena``) and ``serve --bot``
accept — the built-in levels, the bots installed packages register under the entry-point group
``thirtyone.bots``, and how to name a bot of your own (``module:factory``)."""

from __future__ import annotations

import argparse

from thirtyone.bots import LEVELS, plugins
from thirtyone.bots.levels import BOT_INFO
from thirtyone.bots.plugins import ENTRY_POINT_GROUP

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``bots``."""
    parser.add_argument("--check", action="store_true", help="import each installed bot's factory to check it loads")


def run(args: argparse.Namespace) -> int:
    """Print the bots; returns 0 (1 with ``--check`` when an installed bot does not load)."""
    levels = {base: level for level, base in LEVELS.items()}
    print("built in:")
    for name, info in BOT_INFO.items():
        level = f" ({levels[name]})" if name in levels else ""
        print(f"  {name + level:<20} {info.summary}")
    installed = plugins.installed_bots()
    print(f"installed (entry-point group {ENTRY_POINT_GROUP}):")
    status = 0
    for name, target in sorted(installed.items()):
        note = ""
        if args.check:
            try:
                plugins.load_factory(name)
                note = "  ok"
            except ValueError as error:
                note = f"  does not load: {error}"
                status = 1
        print(f"  {name:<20} {target}{note}")
    if not installed:
        print("  (none)")
    print("your own: module:factory (a callable taking the seed, returning a bot), e.g. mybots.greedy:make_bot")
    return status
