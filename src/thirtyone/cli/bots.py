"""``thirtyone bots``: the bots ``--bots`` (``play``, ``simulate``, ``arena``) and ``serve --bot``
accept — the built-in levels, the bots installed packages register under the entry-point group
``thirtyone.bots``, and how to name a bot of your own (``module:factory``)."""

from __future__ import annotations

import argparse

from thirtyone.bots import LEVELS
from thirtyone.bots import plugins
from thirtyone.bots.levels import BOT_INFO
from thirtyone.bots.plugins import ENTRY_POINT_GROUP

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``bots``."""
    parser.add_argument(
        "--check", action="store_true", help="exit with status 1 when a registered bot does not load (a CI check)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the bots: built in, installed (each registered bot's factory is loaded: one that does
    not load, such as ``ismcts`` without OpenSpiel, is listed apart with why); returns 0 (1 with
    ``--check`` when a registered bot does not load)."""
    levels = {base: level for level, base in LEVELS.items()}
    print("built in:")
    for name, info in BOT_INFO.items():
        level = f" ({levels[name]})" if name in levels else ""
        print(f"  {name + level:<20} {info.summary}")
    usable: list[tuple[str, str]] = []
    broken: list[tuple[str, str, str]] = []
    for name, target in sorted(plugins.installed_bots().items()):
        try:  # a bot is listed as installed only when it loads: ismcts needs the openspiel extra
            plugins.load_factory(name)
        except ValueError as error:
            broken.append((name, target, str(error)))
        else:
            usable.append((name, target))
    print(f"installed (entry-point group {ENTRY_POINT_GROUP}):")
    for name, target in usable:
        print(f"  {name:<20} {target}{'  ok' if args.check else ''}")
    if not usable:
        print("  (none)")
    if broken:
        print("registered, but not usable here:")
        for name, target, why in broken:
            print(f"  {name:<20} {target}  does not load: {why}")
    status = 1 if args.check and broken else 0
    print("your own: module:factory (a callable taking the seed, returning a bot), e.g. mybots.greedy:make_bot")
    return status
