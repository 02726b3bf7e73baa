"""What the database stores of a table, as plain values: :class:`TableData` (its ``game_tables``
row and its seats), :class:`SeatData`, :class:`ChatData`, :class:`Loaded` (a table as read, with
its deals and actions), the statuses, and the one mapping between them and the rows of
:mod:`thirtyone.server.models`.

Each field of a table or a seat is listed once, in its dataclass: a row is written and read back
by the fields' names (:func:`table_values`, :func:`table_data`, :func:`seat_values`,
:func:`seat_data`), the column types saying how a value is read (times in UTC, booleans), and a
new table, a rematch too, is made by :func:`new_table`.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import fields
from datetime import UTC
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean
from sqlalchemy import DateTime

from thirtyone.cards import format_cards
from thirtyone.errors import ThirtyOneRuntimeError
from thirtyone.fairness import SaltChain
from thirtyone.rules import Rules
from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData
from thirtyone.server.models import SeatRow
from thirtyone.server.models import TableRow

__all__ = [
    "OPEN",
    "PLAYING",
    "FINISHED",
    "CLOSED",
    "ACTIVE",
    "StaleError",
    "SeatData",
    "ChatData",
    "TableData",
    "Loaded",
    "new_table",
    "table_values",
    "table_data",
    "seat_values",
    "seat_data",
    "deal_values",
    "rowcount",
    "now",
    "utc",
]

OPEN = "open"
"""Waiting for people to join its human seats."""
PLAYING = "playing"
"""Every seat taken; the game is on."""
FINISHED = "finished"
"""The game is over; its record is kept."""
CLOSED = "closed"
"""Closed before the game ended (by its host, or because it stood idle: ``close_reason``); its
(unfinished) record is kept."""
ACTIVE = (OPEN, PLAYING)
"""The statuses of a table that is not over: what the cap on tables counts."""


class StaleError(ThirtyOneRuntimeError):
    """The table's ``seq`` in the database is not the one the write expected: another writer
    stored an action first (or the seat was taken meanwhile). Nothing was written."""


@dataclass
class SeatData:
    """A seat: ``kind`` ``human`` or ``bot``, the bot's ``level``, the display ``name`` and the
    token's hash (both ``None`` while a human seat is free; a free seat of a rematch that waits
    for its player has the player's name and, as ``reserved_hash``, the hash of the token that
    held the seat at the old table), and the client ``seed`` its person gave (lowercase hex;
    ``None`` for none)."""

    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None = None
    reserved_hash: str | None = None
    seed: str | None = None

    @property
    def taken(self) -> bool:
        """True for a bot seat, or a human seat someone has joined."""
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True)
class ChatData:
    """A stored line of the table's chat: its ``id`` (rising), ``seat``, ``text`` or quick
    ``reaction`` (one of them is ``None``) and when it was said."""

    id: int
    seat: int
    text: str | None
    reaction: str | None
    at: datetime


@dataclass
class TableData:
    """What is stored about one table but its deals and actions (its history,
    :mod:`thirtyone.server.history`): its row and seats; its salt chain (``commitment``, the secret
    ``chain_key`` and ``chain_length``: ``None`` for a table of an older server, whose deals
    commit one by one), why it was closed, and when a person was last seen. ``seq`` is the
    number of actions stored; ``options`` are its rules' (stored as the ``rules`` column)."""

    code: str
    status: str
    preset: str
    options: dict[str, Any]
    players: int
    host_token_hash: str
    seats: list[SeatData]
    created_at: datetime
    first_dealer: int | None = None
    seq: int = 0
    winner: int | None = None
    record: str | None = None
    public: bool = False
    hints: bool = True
    rematch: str | None = None
    rematch_of: str | None = None
    commitment: str | None = None
    chain_key: str | None = None
    chain_length: int | None = None
    close_reason: str | None = None
    seen_at: datetime | None = None

    @property
    def seated(self) -> int:
        """The people seated (human seats taken)."""
        return sum(1 for seat in self.seats if seat.kind == "human" and seat.token_hash is not None)


@dataclass(frozen=True)
class Loaded:
    """A table as read (:meth:`Store.load <thirtyone.server.db_store.Store.load>`): what is stored of
    it (``table``), and its ``deals`` and ``actions`` in order (those after the round and seq
    asked for)."""

    table: TableData
    deals: list[Deal]
    actions: list[ActionData]


def now() -> datetime:
    """The time now, in UTC."""
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives times back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def new_table(
    code: str,
    rules: Rules,
    seats: list[SeatData],
    host_token_hash: str,
    chain: SaltChain,
    *,
    public: bool,
    hints: bool,
    rematch_of: str | None = None,
) -> TableData:
    """A new open table of ``rules`` (its nearest preset and every option) with ``seats``, the host
    token's hash, the salt ``chain`` it commits to (its key and commitment), whether it is listed
    (``public``) and has ``hints``; a rematch names the table it is a rematch of (``rematch_of``)."""
    return TableData(
        code=code,
        status=OPEN,
        preset=rules.nearest_preset()[0],
        options=rules.options(),
        players=len(seats),
        host_token_hash=host_token_hash,
        seats=seats,
        created_at=now(),
        public=public,
        hints=hints,
        rematch_of=rematch_of,
        commitment=chain.commitment,
        chain_key=chain.key,
        chain_length=chain.length,
    )


_TABLE_FIELDS = tuple(field.name for field in fields(TableData) if field.name != "seats")
_COLUMN_OF = {"options": "rules"}
"""A table's fields stored under another column's name."""


def table_values(table: TableData) -> dict[str, Any]:
    """The ``game_tables`` row of ``table`` as column values: each field in the column of its name
    (``options`` as JSON in ``rules``), and the people ``seated``."""
    values = {_COLUMN_OF.get(name, name): getattr(table, name) for name in _TABLE_FIELDS}
    values["rules"] = json.dumps(table.options)
    values["seated"] = table.seated
    return values


def table_data(row: TableRow, seats: list[SeatData], *, record: bool = True) -> TableData:
    """The table stored in ``row`` with its ``seats`` (each value read as its column's type: a
    time in UTC, a boolean); without ``record`` its record is not read (the lobby's)."""
    columns = TableRow.__table__.columns
    values: dict[str, Any] = {}
    for name in _TABLE_FIELDS:
        column = _COLUMN_OF.get(name, name)
        value = getattr(row, column)
        kind = columns[column].type
        if value is not None and isinstance(kind, DateTime):
            value = utc(value)
        elif isinstance(kind, Boolean):
            value = bool(value)
        values[name] = value
    values["options"] = json.loads(row.rules)
    if not record:
        values["record"] = None
    return TableData(seats=seats, **values)


def seat_values(code: str, seat: SeatData) -> dict[str, Any]:
    """The ``seats`` row of table ``code``'s ``seat`` as column values."""
    return {"table_code": code, **asdict(seat)}


def seat_data(row: SeatRow) -> SeatData:
    """The seat stored in ``row``."""
    return SeatData(**{field.name: getattr(row, field.name) for field in fields(SeatData)})


def deal_values(code: str, deal: Deal, at: datetime) -> dict[str, Any]:
    """The ``deals`` row of table ``code``'s ``deal`` (stored ``at``) as column values."""
    return {
        "table_code": code,
        "round": deal.round,
        "deck": format_cards(deal.deck),
        "salt": deal.salt,
        "commitment": deal.commitment,
        "seq": deal.seq,
        "created_at": at,
    }


def rowcount(result: Any) -> int:
    """How many rows an ``UPDATE`` changed."""
    count: int = result.rowcount
    return count
