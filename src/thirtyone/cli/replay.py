"""``thirtyone replay FILE``: replay and verify a game record (being written)."""

from __future__ import annotations

import argparse

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``replay``."""
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    """Replay the record and print each round's result."""
    raise NotImplementedError
