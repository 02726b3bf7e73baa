"""``thirtyone play``: the terminal game (being written)."""

from __future__ import annotations

import argparse

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``play``."""


def run(args: argparse.Namespace) -> int:
    """Start the terminal game."""
    raise NotImplementedError
