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
from thirtyone.record import GameRecord, deal_commitment, salted_reshuffle

__all__ = ["configure", "run", "hash_difference"]


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
        _check_deal_commitments(record)
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


def hash_difference(published: str, computed: str) -> str:
    """Two hashes side by side in full, with where they first differ, for a one-line message.

    >>> hash_difference("ab12", "ab32")
    'published ab12, computed ab32 (they first differ at hex digit 3 of 4: 1 against 3)'
    """
    length = max(len(published), len(computed))
    where = next(
        (index for index, (a, b) in enumerate(zip(published, computed, strict=False)) if a != b),
        min(len(published), len(computed)),
    )
    if where < min(len(published), len(computed)):
        detail = f"{published[where]} against {computed[where]}"
    else:
        detail = f"one is {len(published)} digits long, the other {len(computed)}"
    return (
        f"published {published}, computed {computed} (they first differ at hex digit {where + 1} of {length}: {detail})"
    )


def _check_deal_commitments(record: GameRecord) -> None:
    """The check of :meth:`~thirtyone.record.GameRecord.check_commitments`, in its order, up to its
    first failure: a commitment that does not match is refused here with both hashes in full and
    the first digit where they differ (the library's message cuts them to 16 digits, which hides a
    change at the end). Any other failure is left to ``check_commitments`` to report.

    Raises:
        RecordError: naming the round, for a commitment that does not match its deck and salt.
    """
    for rnd in record.rounds:
        if rnd.commitment is None or rnd.salt is None:
            return
        computed = deal_commitment(rnd.salt, rnd.deck)
        if computed != rnd.commitment:
            raise RecordError(
                f"round {rnd.round}: the commitment does not match the deck order and the salt: "
                f"{hash_difference(rnd.commitment, computed)}; the deck or the salt was changed"
            )
        if any(
            list(order) != salted_reshuffle(rnd.salt, order, number) for number, order in enumerate(rnd.reshuffles, 1)
        ):
            return
