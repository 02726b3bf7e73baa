"""``thirtyone verify RECORD [--seen FILE]``: check a game record's provably fair shuffles offline,
and replay it; with ``--seen``, check it against what a player's page saw during the game.

A record of ``thirtyone serve`` holds the salt chain's commitment the table published before
anyone sent a seed, every seat's client seed and each round's revealed salt (``[fairness]``): each
salt must be its round's salt of the committed chain, and each round's deck the one the salt and
the seeds deal, so that any card changed fails (docs/record-format.md, "Provably fair
shuffles"). An older record gives each round its own commitment and salt instead. Every reshuffle
must be the order the salt gives. Then the record is replayed through the engine, every action
checked (as ``thirtyone replay`` does).

A record checks against itself only; ``--seen FILE`` checks it against what a page saw: the file
the table page offers ("Download what this page saw"; JSON, ``format = "thirtyone-seen"``) holds the
commitment the page saw before it sent its seed, that seed and seat, and every round the page
checked (salt, deck, seeds). The record must agree with all of it, so that a record made up
afterwards (another commitment, other seeds, another deck) is refused.

Prints ``verified: N rounds …`` and returns 0; a file that cannot be read, a record that fails a
check, or a ``--seen`` file that does not belong to the record is a one-line error, exit status 2.

A commitment that does not match (:class:`~thirtyone.errors.CommitmentError`: the salt chain's in
``[fairness]``, or a round's; see :meth:`~thirtyone.record.GameRecord.check_commitments`) is the
one-line error followed by both hashes in full, the one in the record above the one computed, and
a caret under the first hex digit where they differ (:func:`hash_lines`)::

    thirtyone: error: game.toml: the commitment in [fairness] is not the one the salts were …
      recorded  296bf99bb3b104b9f3f7016aa02d15849e79f472424fe597f0fa24f688c9f200
      computed  296bf99bb3b104b9f3f7116aa02d15849e79f472424fe597f0fa24f688c9f200
                                    ^
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from thirtyone.cards import format_cards
from thirtyone.checks import escaped
from thirtyone.cli.replay import file_path
from thirtyone.cli.replay import read_record
from thirtyone.cli.replay import read_text
from thirtyone.cli.replay import seat_name
from thirtyone.errors import CommitmentError
from thirtyone.errors import RecordError
from thirtyone.record import GameRecord

__all__ = ["configure", "run", "check_seen", "hash_lines", "SEEN_FORMAT", "MAX_SEEN_BYTES"]

SEEN_FORMAT = "thirtyone-seen"
"""The ``format`` of the file a table page offers for ``--seen``."""
MAX_SEEN_BYTES = 4 * 1024 * 1024
"""The largest ``--seen`` file read (4 MiB; a page's is a few kB)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``verify``."""
    parser.add_argument("file", metavar="RECORD", help="a game record downloaded from thirtyone serve (TOML)")
    parser.add_argument(
        "--seen",
        metavar="FILE",
        help="what your table page saw during the game (its 'Download what this page saw' file): the record must agree",
    )


def run(args: argparse.Namespace) -> int:
    """Check the record's commitments (and, with ``--seen``, what the page saw), replay it, and
    print what was verified. Returns 0, or 2 for a commitment that does not match: then the
    one-line error naming it and both hashes (:func:`hash_lines`) are on stderr.

    Raises:
        ReplayError: for an empty path, or when a file cannot be read or is not UTF-8.
        RecordError: when the record is malformed, a commitment, salt, deck or reshuffle does not
            match, the replay differs, or the ``--seen`` file is not a page's or does not belong to
            the record (the message starts with the file name and names the round).
    """
    path = file_path(args.file, "a record file")
    record = read_record(path)
    seen_words = ""
    if args.seen is not None:
        seen_path = file_path(args.seen, "the file your table page offered")
        offered = "the file your table page offered"
        must = f"give {offered} ('Download what this page saw'): it must be JSON"
        text = read_text(seen_path, MAX_SEEN_BYTES, offered, must)
        try:
            seen_words = check_seen(record, _seen_json(text))
        except RecordError as error:
            raise RecordError(f"{seen_path}: {error}") from None
    if record.fairness is None and all(rnd.commitment is None for rnd in record.rounds):
        raise RecordError(
            f"{path}: nothing to verify: no round was dealt with a published commitment (a game of "
            f"`thirtyone serve` commits to its deals, one of `thirtyone play` does not); "
            f"`thirtyone replay {path}` checks its moves"
        )
    try:
        rounds = record.check_commitments()
    except CommitmentError as error:  # the one line, then both hashes with the difference marked
        print(escaped(f"thirtyone: error: {path}: {error}"), file=sys.stderr)
        for line in hash_lines(error.recorded, error.computed):
            print(line, file=sys.stderr)
        return 2
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    try:
        game = record.replay()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    if game.is_over:
        outcome = f"{escaped(seat_name(record.seats, game.winner))} won" if game.winner is not None else "over"
    else:
        outcome = "the game was not finished"
    if record.fairness is not None:
        what = "every deck order is the one its salt and the seats' seeds deal, and every salt the one committed to"
    else:
        what = "every deck order and salt match the commitment published before the deal"
    print(
        f"verified: {rounds} round{'s' if rounds != 1 else ''}: {what}, and all {record.action_count} actions "
        f"replay ({outcome}){seen_words}"
    )
    return 0


def hash_lines(recorded: str, computed: str) -> list[str]:
    """Two hashes in full, the record's above the computed one, and a caret under the first hex
    digit where they differ (three lines of at most 76 characters for SHA-256 hashes).

    >>> print("\\n".join(hash_lines("ab12cd", "ab32cd")))
      recorded  ab12cd
      computed  ab32cd
                  ^
    """
    indent = "  recorded  "
    differ_at = next(
        (index for index, (a, b) in enumerate(zip(recorded, computed, strict=False)) if a != b),
        min(len(recorded), len(computed)),
    )
    return [f"{indent}{recorded}", f"  computed  {computed}", " " * (len(indent) + differ_at) + "^"]


def _seen_json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise RecordError("not JSON: give the file your table page offered ('Download what this page saw')") from None
    except RecursionError:
        raise RecordError(
            "JSON nested too deeply to read: give the file your table page offered ('Download what this page saw')"
        ) from None
    if not isinstance(data, dict) or data.get("format") != SEEN_FORMAT:
        raise RecordError(
            f'not what a table page saw (no "format": "{SEEN_FORMAT}"): give the file the page offered '
            "('Download what this page saw')"
        )
    if data.get("version") != 1:
        raise RecordError(f"version {data.get('version')!r} of what a page saw is not known here (1 is); upgrade")
    return data


def check_seen(record: GameRecord, seen: dict[str, Any]) -> str:
    """Check ``record`` against what a page ``seen`` (the parsed ``--seen`` file): the commitment,
    the page's seed at its seat, and each round it checked (salt, deck, seeds). Returns the words
    of what was checked, for the ``verified:`` line.

    Raises:
        RecordError: naming what differs ("does not belong to this record: …").
    """
    fairness = record.fairness
    table = str(seen.get("table") or "?")[:12]
    if fairness is None:
        raise RecordError(
            "the record has no salt chain ([fairness]): its deals were committed to one by one, by an older "
            "server, so there is nothing of the page's to compare"
        )
    commitment = seen.get("commitment")
    if commitment != fairness.commitment:
        shown = commitment if isinstance(commitment, str) else "none"
        raise RecordError(
            f"does not belong to this record: the page (table {table}) saw the commitment {shown[:70]}, "
            f"the record has {fairness.commitment}"
        )
    seat, seed = seen.get("seat"), seen.get("seed")
    mine = ""
    if isinstance(seat, int) and not isinstance(seat, bool) and seed:
        if not 0 <= seat < record.players:
            raise RecordError(f"does not belong to this record: seat {seat} is not a seat of it")
        if fairness.seeds[seat] != seed:
            raise RecordError(
                f"does not belong to this record: your seed at seat {seat} was {str(seed)[:70]}, the record has "
                f"{fairness.seeds[seat] or 'none'} there: your seed was left out or changed"
            )
        mine = f", your seed at seat {seat}"
    rounds = seen.get("rounds") or []
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list of the rounds the page checked")
    by_number = {rnd.round: rnd for rnd in record.rounds}
    for item in rounds:
        if not isinstance(item, dict) or not isinstance(item.get("round"), int):
            raise RecordError("each round the page checked needs its round number")
        number = item["round"]
        rnd = by_number.get(number)
        if rnd is None:
            raise RecordError(f"does not belong to this record: the page checked round {number}, the record has none")
        if item.get("salt") != rnd.salt:
            raise RecordError(
                f"does not belong to this record: round {number}'s salt was {str(item.get('salt'))[:70]} on the page, "
                f"{rnd.salt} in the record"
            )
        deck = " ".join(str(item.get("deck") or "").split())
        if deck != format_cards(rnd.deck):
            raise RecordError(f"does not belong to this record: round {number}'s deck on the page is not the record's")
        seeds = [seed or "" for seed in item.get("seeds") or []]
        if seeds and seeds != list(fairness.seeds):
            raise RecordError(f"does not belong to this record: round {number} was dealt with other seeds on the page")
        if item.get("ok") is False:
            raise RecordError(f"the page found round {number}'s deal wrong when it was revealed")
    count = len(rounds)
    return f"; and it is what the page saw: the commitment{mine} and {count} revealed round{'s' if count != 1 else ''}"
