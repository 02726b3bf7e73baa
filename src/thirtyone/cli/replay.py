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
import stat
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from thirtyone.cards import format_cards
from thirtyone.cards import parse_cards
from thirtyone.checks import escaped
from thirtyone.checks import escaped_json
from thirtyone.engine import Game
from thirtyone.errors import RecordError
from thirtyone.errors import ThirtyOneError
from thirtyone.record import FORMAT
from thirtyone.record import GameRecord
from thirtyone.record import describe_end
from thirtyone.scoring import HandValue
from thirtyone.scoring import format_value
from thirtyone.text import loss_reason

__all__ = ["configure", "run", "ReplayError", "file_path", "read_record", "seat_name", "summary", "MAX_RECORD_BYTES"]

_ROUND_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("seat", "right"), ("player", "left"), ("hand", "left"), ("value", "right"),
    ("lost", "right"), ("rule", "left"), ("lives after", "left"), ("notes", "left"),
)  # fmt: skip
_WHOLE = frozenset({"player"})
"""The columns of a round's table whose cells never wrap: a player's name is read whole."""
_STANDING_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("place", "right"), ("seat", "right"), ("player", "left"), ("lives", "left"),
)  # fmt: skip
_UNFINISHED_COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("seat", "right"), ("player", "left"), ("lives left", "left"),
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
        print(escaped_json({"file": str(path), **data}, indent=2))
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
    bytes, checked before anything is read; ``what`` names it in the errors ("a record file") and
    ``kind`` ends the one for text that is not UTF-8 ("a record is UTF-8 TOML").

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
    seats, every round's result and the standings. In an unfinished game only the seats already
    out have a ``place`` (theirs is settled, R2.5); a seat still playing has ``None`` (its place is
    not decided until the game ends), and the standings are in that order still: most lives first.
    """
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
    over = game.is_over
    standings = [
        {
            # an unfinished game settles only the places of the seats already out (R2.5)
            "place": standing.place if over or standing.out else None,
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


def seat_name(seats: Sequence[str], seat: int) -> str:
    """The name a record gives ``seat`` with its seat number, once: ``"Ada (seat 0)"``, ``"seat 1"``.

    >>> seat_name(["Ada", "seat 1"], 0), seat_name(["Ada", "seat 1"], 1)
    ('Ada (seat 0)', 'seat 1')
    """
    name = seats[seat]
    return name if f"seat {seat}" in name else f"{name} (seat {seat})"


def _print(console: Console, path: Path, record: GameRecord, data: dict[str, Any]) -> None:
    """Print the record's rounds and standings; every text of the record (its names, event, date,
    comment, and the loss reasons that name the seats) is
    :func:`~thirtyone.checks.escaped`: records are shared."""
    seats = tuple(escaped(name) for name in record.seats)
    grace_word = record.rules.grace_word

    def who(seat: int) -> Text:
        return Text(seat_name(seats, seat))

    def how(log_round: dict[str, Any]) -> list[tuple[str, Text]]:
        end = log_round["end"]
        if end in ("knock", "throw_down"):
            return [(" · ", Text(f"{end.replace('_', ' ')} by ").append_text(who(log_round["knocker"])))]
        if end in ("blitz", "dealt_blitz"):
            first, *others = log_round["blitz"]
            lead = Text("31 on the deal: " if end == "dealt_blitz" else "blitz by ").append_text(who(first))
            return [(" · ", lead), *((", ", who(seat)) for seat in others)]
        return [(" · ", Text(escaped(log_round["how"])))]

    width = console.width
    head = [Text(escaped(str(path)), style="bold")]
    for label in ("event", "date", "comment"):
        if data[label] is not None:
            head.append(Text(f"{label}: {escaped(str(data[label]))}"))
    console.print(_phrases([(" · ", phrase) for phrase in head], width))
    players = Text(f"{record.players} players: ").append_text(who(0))
    line = [("", Text(f"rules: {data['rules']['describe']}")), (" · ", players)]
    console.print(_phrases(line + [(", ", who(seat)) for seat in range(1, record.players)], width))

    out: set[int] = set()
    for log_round in data["rounds"]:
        console.print()
        counts = f"{log_round['turns']} turns, {log_round['actions']} actions"
        if log_round["reshuffles"]:
            counts += f", {log_round['reshuffles']} reshuffle(s)"
        title = [
            ("", Text(f"Round {log_round['round']}", style="bold")),
            (" · ", Text("dealer ").append_text(who(log_round["dealer"]))),
            *how(log_round),
            (" · ", Text(counts)),
        ]
        console.print(_phrases(title, width))
        rows: list[tuple[str, ...]] = []
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
            notes += [escaped(loss["reason"]) for loss in losses]
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
            rows.append(
                (
                    str(seat),
                    seats[seat],
                    _pretty(entry["hand"]) if entry else "",
                    _show_value(entry["value"]) if entry else "",
                    str(lost) if lost else "",
                    ", ".join(sorted({loss["rule"] for loss in losses})),
                    left,
                    "; ".join(notes),
                )
            )
        console.print(_round_table(rows, console.width))
        if log_round["saved_by_r2_6"]:
            console.print("  nobody is eliminated: this result would have put out everyone (R2.6)")

    console.print()
    if data["finished"]:
        winner = Text("Winner: ", style="bold")
        winner.append_text(who(data["winner"]))
        console.print(winner)
        standings = Table(title="Standings", title_justify="left", header_style="bold")
        for column, justify in _STANDING_COLUMNS:
            standings.add_column(column, justify=justify)
        for standing in data["standings"]:
            lives = _lives_word(standing, grace_word)
            standings.add_row(str(standing["place"]), str(standing["seat"]), Text(seats[standing["seat"]]), lives)
        console.print(standings)
    else:
        state = Text(f"Game not finished: round {data['round_in_progress']} in progress", style="bold")
        console.print(_phrases([("", state), (", ", who(data["to_move"]).append(" to move"))], width))
        console.print(_standing_so_far(data, seats, grace_word))
    console.print(
        f"verified: {len(data['rounds'])} round result(s) and {data['actions']} action(s) replayed; "
        "everything matches the record"
    )


def _phrases(phrases: Sequence[tuple[str, Text]], width: int) -> Text:
    """Phrases one after the other, each after its separator (``", "``, ``" · "``), a line broken
    only between two of them (the separator's mark ending the line) so that no line is wider than
    ``width`` cells: "Cy (seat 2)" stays whole. A phrase wider than a line is left to wrap between
    its words, and the next starts a line.

    >>> line = [("", Text("rules: scat")), (" · ", Text("2 players: Ann (seat 0)")), (", ", Text("Bo (seat 1)"))]
    >>> print(_phrases(line, 40))
    rules: scat · 2 players: Ann (seat 0),
    Bo (seat 1)
    """
    text = Text()
    column = 0
    for separator, phrase in phrases:
        if column and column + cell_len(separator) + phrase.cell_len > width:
            text.append(separator.rstrip() + "\n")
            column = 0
        elif column:
            text.append(separator)
            column += cell_len(separator)
        text.append_text(phrase)
        column = column + phrase.cell_len if column + phrase.cell_len <= width else width
    return text


_COLUMN_GAP = 2
"""Cells between two columns of a round's table (a column's padding of 1 on either side)."""


def _round_table(rows: list[tuple[str, ...]], width: int) -> Table:
    """A round's table of ``rows`` (one text per column of :data:`_ROUND_COLUMNS`; names and notes
    are plain text, never markup) for a console ``width`` cells wide.

    Text wraps at spaces and never inside a word: when the table is too wide, a column made wide
    by its header alone gives way first ("lives after" over one digit takes two lines), then the
    widest column (the notes, "knocker alone lowest (knock_penalty=scat); eliminated"), but no
    column narrower than its longest word, so that ``(knock_penalty=scat)`` or a name is never
    split. (Left to itself, rich narrows columns below their longest word and folds the word.)
    Only when even that does not fit (a very narrow console) does rich fold words.
    """
    fitted = _word_widths(_ROUND_COLUMNS, rows, width)
    widths: list[int | None] = list(fitted) if fitted is not None else [None] * len(_ROUND_COLUMNS)
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for (header, justify), column_width in zip(_ROUND_COLUMNS, widths, strict=True):
        table.add_column(header, justify=justify, overflow="fold", width=column_width)
    for row in rows:
        table.add_row(*row[:1], Text(row[1]), *row[2:-1], Text(row[-1]))
    return table


def _word_widths(
    columns: tuple[tuple[str, JustifyMethod], ...], rows: list[tuple[str, ...]], width: int
) -> list[int] | None:
    """The width of each column (cells, padding not counted) so that the table fits ``width``
    without splitting a word: each column as wide as its widest cell, then narrowed one cell at a
    time, none below its longest word (a name not at all, :data:`_WHOLE`): first a column whose
    header is wider than its cells (the header takes two lines), then the widest. ``None`` when
    the table fits as it is, or cannot fit without splitting words (then rich's own narrowing is
    left to do it).
    """
    cells = [max((cell_len(row[index]) for row in rows), default=0) for index in range(len(columns))]
    natural = [max(cell_len(header), cells[index]) for index, (header, _) in enumerate(columns)]
    least = [
        cells[index]
        if header in _WHOLE
        else max(
            (cell_len(word) for text in [header] + [row[index] for row in rows] for word in text.split()), default=0
        )
        for index, (header, _) in enumerate(columns)
    ]
    room = width - _COLUMN_GAP * (len(columns) - 1)
    if sum(natural) <= room or sum(least) > room:
        return None
    widths = list(natural)
    while sum(widths) > room:
        headers = [index for index in range(len(widths)) if widths[index] > max(least[index], cells[index])]
        narrower = headers or [index for index in range(len(widths)) if widths[index] > least[index]]
        widest = max(narrower, key=widths.__getitem__)
        widths[widest] -= 1
    return widths


def _lives_word(standing: dict[str, Any], grace_word: str) -> str:
    if standing["out"]:
        return "out"
    if standing["on_grace"]:
        return grace_word
    return str(standing["lives"])


def _standing_so_far(data: dict[str, Any], seats: Sequence[str], grace_word: str) -> Table:
    """Where an unfinished game stands: each seat's lives left, in seat order; a seat already out
    with the place it finished in (settled, R2.5: ``out, 4th place``); no place for the seats still
    playing, since nobody has won or come second yet. ``seats``: the names as shown."""
    table = Table(title="Standing so far", title_justify="left", header_style="bold")
    for column, justify in _UNFINISHED_COLUMNS:
        table.add_column(column, justify=justify)
    for standing in sorted(data["standings"], key=lambda standing: standing["seat"]):
        lives = _lives_word(standing, grace_word)
        if standing["out"]:
            lives = f"out, {_ordinal(standing['place'])} place"
        table.add_row(str(standing["seat"]), Text(seats[standing["seat"]]), lives)
    return table


def _ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _pretty(hand: str) -> str:
    return " ".join(card.pretty for card in parse_cards(hand))


def _show_value(value: int | float) -> str:
    return format_value(Fraction(value).limit_denominator(2))
