"""The database tables (SQLAlchemy 2 declarative models); the schema itself is made by the Alembic
migrations in ``thirtyone/server/migrations`` (run when the server starts).

``game_tables``  one row a table: code, status, rules, seat count, the host token's hash, the first
                 dealer, ``seq`` (actions stored so far), winner, the finished game's record; the
                 salt chain it committed to when it was created (``commitment``, the secret
                 ``chain_key`` and ``chain_length``; ``null`` for a table of an older server,
                 whose deals commit one by one), the people ``seated``, when a person was last
                 ``seen_at`` connected, and why it was closed (``close_reason``); whether the
                 lobby lists it (``public``) and the expert's hints are on (``hints``); the table
                 it is a rematch of (``rematch_of``) and its own rematch; the finished game's
                 ``review`` (JSON, made the first time it is asked for; read only by itself)
``seats``        one row a seat: human or bot (with its level), display name, the token's hash, the
                 client ``seed`` its person gave; on a rematch, the hash of the token that held the
                 seat at the old table (``reserved_hash``: the seat waits for that person)
``chat_lines``   the table's chat: each line's seat, text or quick reaction, and time
``actions``      every action in order: ``(code, seq)`` with seq from 1, round, seat, notation and
                 who played it (``player``, ``bot`` or ``timer``)
``deals``        every round's deal: deck order, salt and commitment (the table's chain commitment,
                 or the deal's own for an older table), and the ``seq`` after which it was dealt
``leases``       which server process serves a table (``owner``, a random id made at its start) and
                 until when (``expires_at``); used on PostgreSQL, where several processes share the
                 database (:mod:`thirtyone.server.cluster`)
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean
from sqlalchemy import DateTime
from sqlalchemy import ForeignKey
from sqlalchemy import Integer
from sqlalchemy import String
from sqlalchemy import Text
from sqlalchemy import true
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column

__all__ = ["Base", "TableRow", "SeatRow", "ActionRow", "DealRow", "LeaseRow", "ChatRow"]


class Base(DeclarativeBase):
    """The models' base."""


class TableRow(Base):
    """A table (``game_tables``)."""

    __tablename__ = "game_tables"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    status: Mapped[str] = mapped_column(String(12), index=True)
    preset: Mapped[str] = mapped_column(String(20))
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=true())
    hints: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    rematch: Mapped[str | None] = mapped_column(String(12), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(12), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    chain_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    chain_length: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seated: Mapped[int] = mapped_column(Integer, default=0)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    close_reason: Mapped[str | None] = mapped_column(String(12), nullable=True)
    review: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)


class SeatRow(Base):
    """A seat (``seats``): ``kind`` is ``human`` or ``bot``; a human seat's ``name`` and
    ``token_hash`` are set when someone joins."""

    __tablename__ = "seats"

    table_code: Mapped[str] = mapped_column(ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(12), nullable=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reserved_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """An action (``actions``), numbered ``seq`` 1, 2, 3, … per table."""

    __tablename__ = "actions"

    table_code: Mapped[str] = mapped_column(ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    round: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(80))
    source: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DealRow(Base):
    """A round's deal (``deals``): deck order (top first, card text), salt and commitment."""

    __tablename__ = "deals"

    table_code: Mapped[str] = mapped_column(ForeignKey("game_tables.code", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck: Mapped[str] = mapped_column(Text)
    salt: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeaseRow(Base):
    """A table's lease (``leases``): the process that runs its bots and turn timer, until ``expires_at``."""

    __tablename__ = "leases"

    table_code: Mapped[str] = mapped_column(String(12), primary_key=True)
    owner: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """A line of a table's chat (``chat_lines``): the seat that said it, and its ``text`` or its
    quick ``reaction`` (one of :data:`thirtyone.server.chat.REACTIONS`)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(ForeignKey("game_tables.code", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    reaction: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
