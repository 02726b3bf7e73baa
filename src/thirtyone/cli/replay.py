"""``thirtyone replay FILE [--json]``: replay and verify a game record, and show what happened.

The record (``docs/record-format.md``) is read as UTF-8, replayed through the engine (every action
checked, R3.5) and compared with what it says. Then each round's result is printed: dealer, how
it ended, the knocker, the blitz, every hand shown with its value, who lost how many lives under
which rule, who was eliminated; and the final standings (or where an unfinished game stands).
``--json`` prints the same as JSON. A file that cannot be read, is not a regular file, is larger
than :data:`MAX_RECORD_BYTES` (16 MiB), is not UTF-8, or holds a bad record gives a one-line error
and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import stat
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from thirtyone.cards import format_cards, parse_cards
from thirtyone.engine import Game
from thirtyone.errors import RecordError, ThirtyOneError
from thirtyone.record import FORMAT, GameRecord, describe_end
from thirtyone.scoring import HandValue, format_value
from thirtyone.text import loss_reason

__all__ = ["configure", "run", "ReplayError", "file_path", "read_record", "summary", "MAX_RECORD_BYTES"]

_ROUND_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("seat", "right"), ("player", "left"), ("hand", "left"), ("value", "right"),
    ("lost", "right"), ("rule", "left"), ("lives after", "left"), ("", "left"),
)  # fmt: skip
_STANDING_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("place", "right"), ("seat", "right"), ("player", "left"), ("lives", "left"),
)  # fmt: skip


MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file ``replay`` and ``verify`` read: 16 MiB. The largest records real games
make are far smaller (a 9-player game of 20 lives played to the turn limit of 200 in every round
is under 1 MB; the bots' games are under 200 kB), and the bound keeps a wrong path (``/dev/zero``,
a disk image) from filling the memory."""


class ReplayError(ThirtyOneError):
    """A record file that cannot be read: missing, a directory, unreadable, or not UTF-8."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``replay``."""
    parser.add_argument("file", metavar="FILE", help="the game record (TOML, UTF-8; see docs/record-format.md)")
    parser.add_argument("--json", action="store_true", help="print the rounds and standings as JSON")


def run(args: argparse.Namespace) -> int:
    """Replay the record, verify it, and print each round's result and the standings.

    Returns 0 when the record replays and matches. Raises (the CLI turns these into a one-line
    error and exit status 2):

    Raises:
        ReplayError: for an empty path, or when the file cannot be read or is not UTF-8.
        RecordError: when the record is bad or its replay differs (the message starts with the
            file name and names the round and action).
    """
    path = file_path(args.file, "a record file")
    record = read_record(path)
    try:
        game = record.replay()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    data = summary(record, game)
    if args.json:
        print(json.dumps({"file": str(path), **data}, indent=2, ensure_ascii=False))
    else:
        _print(Console(highlight=False), path, record, data)
    return 0


def file_path(text: str, what: str) -> Path:
    """The path of a file named on the command line; ``what`` names it in the error ("a record file").

    Raises:
        ReplayError: for an empty path (which :class:`~pathlib.Path` would read as this folder).
    """
    if not text:
        raise ReplayError(f"'': an empty path; give {what}")
    return Path(text)


def read_text(path: Path, limit: int, what: str, kind: str) -> str:
    """The UTF-8 text (a byte-order mark allowed) of ``path``: a regular file of at most ``limit``
    bytes, checked before anything is read; ``what`` and ``kind`` name it in the errors ("a record
    file", "a record is UTF-8 TOML").

    Raises:
        ReplayError: for a missing file, a directory, a device, pipe or socket, a file larger than
            ``limit``, a file that cannot be read or is not UTF-8.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except OSError as error:
        raise ReplayError(f"{path}: cannot read it: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise ReplayError(f"{path}: is a directory; give {what}")
    if not stat.S_ISREG(info.st_mode):
        raise ReplayError(f"{path}: not a regular file (a device, pipe or socket); give {what}")
    if info.st_size > limit:
        raise _too_large(path, info.st_size, limit)
    try:
        with path.open("rb") as file:
            raw = file.read(limit + 1)  # the file may have grown since
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a directory; give {what}") from None
    except OSError as error:
        raise ReplayError(f"{path}: cannot read it: {error.strerror or error}") from None
    if len(raw) > limit:
        raise _too_large(path, None, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReplayError(f"{path}: not UTF-8 text (bad byte at offset {error.start}); {kind}") from None


def _too_large(path: Path, size: int | None, limit: int = MAX_RECORD_BYTES) -> ReplayError:
    known = f" ({size:,} bytes)" if size is not None else ""
    if limit != MAX_RECORD_BYTES:
        return ReplayError(f"{path}: too large{known}: at most {limit:,} bytes")
    return ReplayError(
        f"{path}: larger than a game record can be{known}: a record is at most {MAX_RECORD_BYTES:,} bytes "
        "(16 MiB); give a record file"
    )


def read_record(path: Path) -> GameRecord:
    """Read and parse the record in ``path`` (UTF-8, a byte-order mark allowed): a regular file of
    at most :data:`MAX_RECORD_BYTES`, checked before anything is read.

    Raises:
        ReplayError: for a missing file, a directory, a device, pipe or socket, a file larger than
            :data:`MAX_RECORD_BYTES`, a file that cannot be read or is not UTF-8.
        RecordError: for a bad record (the message starts with the file name).
    """
    text = read_text(path, MAX_RECORD_BYTES, "a record file", "a record is UTF-8 TOML")
    try:
        return GameRecord.loads(text)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None


# ---------------------------------------------------------------------------------------------- data


def _value(value: HandValue | None) -> int | float | None:
    if value is None:
        return None
    return value if isinstance(value, int) else float(value)  # only halves occur: exact


def summary(record: GameRecord, game: Game) -> dict[str, Any]:
    """Plain data (for JSON) of a verified record and its replayed ``game``: metadata, rules,
    seats, every round's result and the standings."""
    grace = 1 if record.rules.grace_life else 0
    rounds: list[dict[str, Any]] = []
    for log in game.round_logs:
        result = log.result
        if result is None:
            continue
        rounds.append(
            {
                "round": result.round,
                "dealer": result.dealer,
                "end": result.end,
                "how": describe_end(result),
                "knocker": result.knocker,
                "blitz": list(result.blitz),
                "turns": result.turns,
                "actions": len(log.actions),
                "reshuffles": len(log.reshuffles),
                "hands": [
                    {"seat": seat, "name": record.seats[seat], "hand": format_cards(hand), "value": _value(value)}
                    for seat, (hand, value) in enumerate(zip(result.hands, result.values, strict=True))
                    if hand is not None
                ],
                "losses": [
                    {
                        "seat": loss.seat,
                        "name": record.seats[loss.seat],
                        "lives": loss.lives,
                        "rule": loss.rule,
                        "kind": loss.kind,
                        "seats": list(loss.seats),
                        "reason": loss_reason(loss, result, name=record.seats.__getitem__),
                    }
                    for loss in result.losses
                ],
                "remaining": list(result.remaining),
                "lives": [max(left - grace, 0) for left in result.remaining],
                "eliminated": list(result.eliminated),
                "saved_by_r2_6": result.saved_by_r2_6,
            }
        )
    standings = [
        {
            "place": standing.place,
            "seat": standing.seat,
            "name": record.seats[standing.seat],
            "remaining": standing.remaining,
            "lives": standing.lives,
            "on_grace": standing.on_grace,
            "out": standing.out,
        }
        for standing in game.standings
    ]
    return {
        "format": FORMAT,
        "version": record.read_version or record.version,
        "verified": True,
        "event": record.event,
        "date": record.date,
        "comment": record.comment,
        "rules": {"preset": record.preset, "describe": record.rules.describe(), "options": record.rules.options()},
        "seats": list(record.seats),
        "first_dealer": record.first_dealer,
        "actions": record.action_count,
        "rounds": rounds,
        "finished": game.is_over,
        "winner": game.winner,
        "round_in_progress": None if game.is_over else game.round,
        "to_move": game.current_seat,
        "standings": standings,
    }


# ---------------------------------------------------------------------------------------------- text


def _print(console: Console, path: Path, record: GameRecord, data: dict[str, Any]) -> None:
    seats = record.seats
    grace_word = record.rules.grace_word

    def who(seat: int) -> Text:
        name = seats[seat]
        return Text(name if f"seat {seat}" in name else f"{name} (seat {seat})")

    def how(log_round: dict[str, Any]) -> Text:
        end, text = log_round["end"], Text()
        if end in ("knock", "throw_down"):
            text.append(f"{end.replace('_', ' ')} by ")
            text.append_text(who(log_round["knocker"]))
        elif end in ("blitz", "dealt_blitz"):
            text.append("31 on the deal: " if end == "dealt_blitz" else "blitz by ")
            text.append_text(Text(", ").join(who(seat) for seat in log_round["blitz"]))
        else:
            text.append(log_round["how"])
        return text

    head = Text()
    head.append(str(path), style="bold")
    for label in ("event", "date", "comment"):
        if data[label] is not None:
            head.append(f" · {label}: ")
            head.append(str(data[label]))
    console.print(head)
    line = Text(f"rules: {data['rules']['describe']} · {record.players} players: ")
    line.append_text(Text(", ").join(who(seat) for seat in range(record.players)))
    console.print(line)

    out: set[int] = set()
    for log_round in data["rounds"]:
        console.print()
        title = Text(f"Round {log_round['round']}", style="bold")
        title.append(" · dealer ")
        title.append_text(who(log_round["dealer"]))
        title.append(" · ")
        title.append_text(how(log_round))
        title.append(f" · {log_round['turns']} turns, {log_round['actions']} actions")
        if log_round["reshuffles"]:
            title.append(f", {log_round['reshuffles']} reshuffle(s)")
        console.print(title)
        table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
        for column, justify in _ROUND_COLUMNS:
            table.add_column(column, justify=justify, overflow="fold")
        hands = {entry["seat"]: entry for entry in log_round["hands"]}
        for seat in range(record.players):
            if seat in out:
                continue
            losses = [loss for loss in log_round["losses"] if loss["seat"] == seat]
            lost = sum(loss["lives"] for loss in losses)
            notes: list[str] = []
            if seat == log_round["knocker"]:
                notes.append("knocked")
            if seat in log_round["blitz"]:
                notes.append("31!" if hands.get(seat, {}).get("value") != 33 else "three aces!")
            notes += [loss["reason"] for loss in losses]
            remaining = log_round["remaining"][seat]
            if seat in log_round["eliminated"]:
                left = "out"
                notes.append("eliminated")
                out.add(seat)
            elif record.rules.grace_life and remaining == 1:
                left = grace_word
            else:
                left = str(log_round["lives"][seat])
            entry = hands.get(seat)
            table.add_row(
                str(seat),
                Text(seats[seat]),
                _pretty(entry["hand"]) if entry else "",
                _show_value(entry["value"]) if entry else "",
                str(lost) if lost else "",
                ", ".join(sorted({loss["rule"] for loss in losses})),
                left,
                Text("; ".join(notes)),
            )
        console.print(table)
        if log_round["saved_by_r2_6"]:
            console.print("  nobody is eliminated: this result would have put out everyone (R2.6)")

    console.print()
    if data["finished"]:
        winner = Text("Winner: ", style="bold")
        winner.append_text(who(data["winner"]))
        console.print(winner)
    else:
        state = Text(f"Game not finished: round {data['round_in_progress']} in progress, ", style="bold")
        state.append_text(who(data["to_move"]))
        state.append(" to move")
        console.print(state)
    standings = Table(title="Standings", title_justify="left", header_style="bold")
    for column, justify in _STANDING_COLUMNS:
        standings.add_column(column, justify=justify)
    for standing in data["standings"]:
        if standing["out"]:
            lives = "out"
        elif standing["on_grace"]:
            lives = grace_word
        else:
            lives = str(standing["lives"])
        standings.add_row(str(standing["place"]), str(standing["seat"]), Text(standing["name"]), lives)
    console.print(standings)
    console.print(
        f"verified: {len(data['rounds'])} round result(s) and {data['actions']} action(s) replayed; "
        "everything matches the record"
    )


def _pretty(hand: str) -> str:
    return " ".join(card.pretty for card in parse_cards(hand))


def _show_value(value: int | float) -> str:
    return format_value(Fraction(value).limit_denominator(2))
