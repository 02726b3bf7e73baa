"""``thirtyone verify RECORD``: check a game record's provably fair shuffles offline, and replay it.

For every round the record must give the ``commitment`` the table published before the deal and
the ``salt`` it revealed after the round; the commitment must be the SHA-256 of the canonical text
of that salt and the round's deck order, and every reshuffle the order the salt gives
(docs/record-format.md, "Provably fair shuffles"). Then the record is replayed through the engine,
every action checked (as ``thirtyone replay`` does). Prints ``verified: N rounds …`` and returns
0; a file that cannot be read or a record that fails a check is a one-line error, exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from thirtyone.cli.replay import read_record
from thirtyone.errors import RecordError

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``verify``."""
    parser.add_argument("file", metavar="RECORD", help="a game record downloaded from thirtyone serve (TOML)")


def run(args: argparse.Namespace) -> int:
    """Check the record's commitments, replay it, and print what was verified.

    Raises:
        ReplayError: when the file cannot be read or is not UTF-8.
        RecordError: when the record is malformed, a commitment, salt or reshuffle does not match,
            or the replay differs (the message starts with the file name and names the round).
    """
    path = Path(args.file)
    record = read_record(path)
    try:
        rounds = record.check_commitments()
        game = record.replay()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    if game.is_over:
        outcome = f"{record.seats[game.winner]} (seat {game.winner}) won" if game.winner is not None else "over"
    else:
        outcome = "the game was not finished"
    print(
        f"verified: {rounds} round{'s' if rounds != 1 else ''}: every deck order and salt match the commitment "
        f"published before the deal, and all {record.action_count} actions replay ({outcome})"
    )
    return 0
