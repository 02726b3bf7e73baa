"""The table store: every read and write of the database, as plain synchronous methods (the
server calls them on a worker thread) over the models of :mod:`thirtyone.server.models`.

An action is stored with the deals it led to and the table's new ``seq`` together, guarded by the
old ``seq`` (``UPDATE … WHERE seq = old``): when another writer got there first (a second server
process on the same PostgreSQL database), nothing is written and :class:`StaleError` is raised, so
the table reloads what is stored. On SQLite the actions of different tables that wait for the
write lock at the same moment share one transaction and one commit (a group commit: the commit's
wait for the disk is paid once), each with its own guard and its own answer; every other write is
one transaction.

On PostgreSQL (``shared``: several server processes may use the database, see
:mod:`thirtyone.server.cluster`) every committed change also sends ``NOTIFY thirtyone, 'CODE SEQ
PROCESS'`` (``pg_notify`` in the writing transaction, so it is sent only if the change commits), and
the ``leases`` table says which process runs each table's bots and timer.

The server, on its event loop, calls these methods through :class:`~thirtyone.server.database.Database`
(its own threads: reads on a few, writes on one, so that nothing else waits for them, and a
database failure turned into :class:`~thirtyone.server.errors.DatabaseError`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from thirtyone.cards import format_cards, parse_cards
from thirtyone.errors import ThirtyOneRuntimeError
from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData
from thirtyone.server.models import ActionRow, ChatRow, DealRow, LeaseRow, SeatRow, TableRow

__all__ = [
    "Store",
    "TableData",
    "SeatData",
    "Loaded",
    "ChatData",
    "StaleError",
    "OPEN",
    "PLAYING",
    "FINISHED",
    "CLOSED",
    "CHANNEL",
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
CHANNEL = "thirtyone"
"""The PostgreSQL notification channel of committed changes (payload ``"CODE SEQ PROCESS"``)."""

log = logging.getLogger("thirtyone.server")


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
class _Append:
    """One action waiting to be written (see :meth:`Store.append`), and what came of it."""

    code: str
    action: ActionData
    deals: Sequence[Deal]
    finished: tuple[int, str] | None
    done: bool = False
    error: Exception | None = None


@dataclass
class TableData:
    """What is stored about one table but its deals and actions (its history,
    :mod:`thirtyone.server.history`): its row and seats; its salt chain (``commitment``, the secret
    ``chain_key`` and ``chain_length``: ``None`` for a table of an older server, whose deals
    commit one by one), why it was closed, and when a person was last seen. ``seq`` is the
    number of actions stored."""

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
    """A table as read (:meth:`Store.load`): what is stored of it (``table``), and its ``deals``
    and ``actions`` in order (those after the round and seq asked for)."""

    table: TableData
    deals: list[Deal]
    actions: list[ActionData]


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class _WriteTurns:
    """SQLite's one writer at a time, in turns: ``with turns:`` waits for a turn; ``with
    _FirstTurn(turns):`` (actions, whose players wait for their ack) takes the next turn ahead of every
    other write waiting, so that a burst of other writes (tables created, seats joined) delays an
    action by one write at most, not by all of them."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._busy = False
        self._first_waiting = 0
        self.waiting = 0
        """Writers waiting for a turn now."""

    def _take(self, first: bool) -> None:
        with self._changed:
            self._first_waiting += int(first)
            self.waiting += 1
            try:
                while self._busy or (not first and self._first_waiting):
                    self._changed.wait()
            finally:
                self._first_waiting -= int(first)
                self.waiting -= 1
            self._busy = True

    def _give(self) -> None:
        with self._changed:
            self._busy = False
            self._changed.notify_all()

    def __enter__(self) -> None:
        self._take(first=False)

    def __exit__(self, *_: object) -> None:
        self._give()


class _FirstTurn:
    """``with``: a turn of ``turns`` ahead of the other writes waiting (see :class:`_WriteTurns`)."""

    def __init__(self, turns: _WriteTurns) -> None:
        self._turns = turns

    def __enter__(self) -> None:
        self._turns._take(first=True)

    def __exit__(self, *_: object) -> None:
        self._turns._give()


class Store:
    """Reads and writes tables in the database behind ``engine`` (already migrated).

    Every method may raise :class:`sqlalchemy.exc.SQLAlchemyError` when the database cannot be
    reached or written; then nothing was changed.

    ``shared`` is true on PostgreSQL (other processes may write the same tables: changes are
    notified, leases are kept); ``process`` is this store's random id (16 hex digits), the owner of
    its leases and the origin named in its notifications.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.shared = engine.dialect.name == "postgresql"
        self.process = secrets.token_hex(8)
        # one snapshot for a whole load, so that a table's row, actions and deals agree while others write
        self._reader = engine.execution_options(isolation_level="REPEATABLE READ") if self.shared else engine
        # SQLite has one writer at a time, and a writer that finds it taken sleeps and retries (up to
        # 100 ms a try): the server's writes wait for each other here instead, woken at once, and
        # actions (whose players wait for their ack) go before any other write waiting
        turns = _WriteTurns() if engine.dialect.name == "sqlite" else None
        self._writing: contextlib.AbstractContextManager[Any] = turns or contextlib.nullcontext()
        self._writing_actions: contextlib.AbstractContextManager[Any] = (
            _FirstTurn(turns) if turns is not None else contextlib.nullcontext()
        )
        self._queue: list[_Append] = []  # SQLite: actions waiting for the next group commit
        self._queue_lock = threading.Lock()

    # ------------------------------------------------------------------------------ reading

    def load(self, code: str, after_seq: int = 0, after_round: int = 0) -> Loaded | None:
        """The table with this code, seats, deals and actions included; ``None`` if there is none.
        With ``after_seq`` and ``after_round`` only the actions after that seq and the deals after
        that round are read (catching up with another process's writes)."""
        with Session(self._reader) as session, session.begin():
            row = session.get(TableRow, code)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.table_code == code).order_by(SeatRow.seat))
            deals = session.scalars(
                select(DealRow).where(DealRow.table_code == code, DealRow.round > after_round).order_by(DealRow.round)
            )
            actions = session.scalars(
                select(ActionRow).where(ActionRow.table_code == code, ActionRow.seq > after_seq).order_by(ActionRow.seq)
            )
            return Loaded(
                _table_data(row, [_seat_data(s) for s in seats], record=row.record),
                [Deal(d.round, parse_cards(d.deck), d.salt, d.commitment, d.seq) for d in deals],
                [ActionData(a.seq, a.round, a.seat, a.action, a.source) for a in actions],
            )

    def codes(self, status: str) -> list[str]:
        """The codes of the tables with this status, oldest first."""
        with Session(self.engine) as session:
            query = select(TableRow.code).where(TableRow.status == status).order_by(TableRow.created_at)
            return list(session.scalars(query))

    def lobby(self, status: str, limit: int, offset: int = 0) -> list[TableData]:
        """Up to ``limit`` public tables with this status from the ``offset``-th on, with their
        seats (no deals or actions): open tables fullest first (the most people seated), then
        newest first; the others newest first. A private table (the default) is reached by its
        code only."""
        order = [TableRow.created_at.desc(), TableRow.code]
        if status == OPEN:
            order.insert(0, TableRow.seated.desc())
        with Session(self.engine) as session:
            rows = list(
                session.scalars(
                    select(TableRow)
                    .where(TableRow.status == status, TableRow.public.is_(True))
                    .order_by(*order)
                    .offset(offset)
                    .limit(limit)
                )
            )
            codes = [row.code for row in rows]
            seats: dict[str, list[SeatData]] = {code: [] for code in codes}
            if codes:
                query = select(SeatRow).where(SeatRow.table_code.in_(codes)).order_by(SeatRow.seat)
                for s in session.scalars(query):
                    seats[s.table_code].append(_seat_data(s))
            return [_table_data(row, seats[row.code]) for row in rows]

    def count(self, statuses: Sequence[str] = ACTIVE) -> int:
        """How many tables have one of these statuses (by default: open or being played)."""
        with Session(self.engine) as session:
            query = select(func.count()).select_from(TableRow).where(TableRow.status.in_(list(statuses)))
            return int(session.scalar(query) or 0)

    def idle(self, status: str, before: datetime, limit: int = 100) -> list[str]:
        """The codes of up to ``limit`` tables with this status whose person was last seen before
        ``before`` (the longest idle first)."""
        with Session(self.engine) as session:
            query = (
                select(TableRow.code)
                .where(TableRow.status == status, TableRow.seen_at < before)
                .order_by(TableRow.seen_at)
                .limit(limit)
            )
            return list(session.scalars(query))

    # ------------------------------------------------------------------------------ writing

    def create(self, table: TableData) -> bool:
        """Store a new table and its seats (status ``open``). False when the code is taken. A
        rematch (``table.rematch_of`` set) is named as the old table's ``rematch`` in the same
        transaction.

        Raises:
            StaleError: when the old table has a rematch already (nothing is stored).
        """
        now = _now()
        try:
            with self._writing, Session(self.engine) as session, session.begin():
                session.add(
                    TableRow(
                        code=table.code,
                        status=table.status,
                        preset=table.preset,
                        rules=json.dumps(table.options),
                        players=table.players,
                        host_token_hash=table.host_token_hash,
                        seq=0,
                        created_at=table.created_at,  # as the table was answered when it was created
                        updated_at=now,
                        public=table.public,
                        hints=table.hints,
                        rematch_of=table.rematch_of,
                        commitment=table.commitment,
                        chain_key=table.chain_key,
                        chain_length=table.chain_length,
                        seated=table.seated,
                        seen_at=now,
                    )
                )
                session.flush()
                for seat in table.seats:
                    session.add(
                        SeatRow(
                            table_code=table.code,
                            seat=seat.seat,
                            kind=seat.kind,
                            level=seat.level,
                            name=seat.name,
                            token_hash=seat.token_hash,
                            reserved_hash=seat.reserved_hash,
                            seed=seat.seed,
                        )
                    )
                if table.rematch_of is not None:  # the old table names it, once: a second rematch loses
                    linked = session.execute(
                        update(TableRow)
                        .where(TableRow.code == table.rematch_of, TableRow.rematch.is_(None))
                        .values(rematch=table.code, updated_at=now)
                    )
                    if _rowcount(linked) != 1:
                        raise StaleError(f"table {table.rematch_of} has a rematch already")
                    self._notify(session, table.rematch_of)
        except IntegrityError:
            return False
        return True

    def join(
        self,
        code: str,
        seat: int,
        name: str,
        token_hash: str,
        start: tuple[int, Sequence[Deal], Sequence[str | None]] | None = None,
        seed: str | None = None,
    ) -> None:
        """Give free human seat ``seat`` to ``name`` with the token's hash and the person's client
        ``seed``; with ``start`` (the first dealer, the first deals and the seats' seeds they were
        dealt with) the game starts in the same transaction.

        Raises:
            StaleError: when the seat was taken meanwhile, the table is no longer open, or (with
                ``start``) the stored seeds are not the ones the deals were dealt with.
        """
        now = _now()
        with self._writing, Session(self.engine) as session, session.begin():
            taken = session.execute(
                update(SeatRow)
                .where(SeatRow.table_code == code, SeatRow.seat == seat, SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, seed=seed, joined_at=now, reserved_hash=None)
            )
            if _rowcount(taken) != 1:
                raise StaleError(f"seat {seat} of table {code} is no longer free")
            values: dict[str, Any] = {"updated_at": now, "seen_at": now, "seated": TableRow.seated + 1}
            if start is not None:
                values.update(status=PLAYING, first_dealer=start[0])
            changed = session.execute(  # the table's row is locked from here on: no seed can change
                update(TableRow).where(TableRow.code == code, TableRow.status == OPEN).values(**values)
            )
            if _rowcount(changed) != 1:
                raise StaleError(f"table {code} is no longer open")
            if start is not None:
                stored = list(
                    session.scalars(select(SeatRow.seed).where(SeatRow.table_code == code).order_by(SeatRow.seat))
                )
                if [seed or None for seed in stored] != [seed or None for seed in start[2]]:
                    raise StaleError(f"table {code}: a seat's seed changed meanwhile")
                self._add_deals(session, code, start[1], now)
            else:  # a replica that missed another's join must not take the last seat without starting
                free = session.scalar(
                    select(SeatRow.seat).where(
                        SeatRow.table_code == code, SeatRow.kind == "human", SeatRow.token_hash.is_(None)
                    )
                )
                if free is None:
                    raise StaleError(f"seat {seat} is the last free seat of table {code}: the game must start")
            self._notify(session, code)

    def finish_on_the_deal(self, code: str, winner: int, record: str) -> None:
        """Finish table ``code`` with its ``winner`` (a seat, or -1) and ``record`` (TOML) when its
        first deal ended the game (a 31 dealt in a game of one life, R5.2): no action was played.

        Raises:
            StaleError: when the table is not playing, or has actions.
        """
        now = _now()
        with self._writing, Session(self.engine) as session, session.begin():
            changed = session.execute(
                update(TableRow)
                .where(TableRow.code == code, TableRow.status == PLAYING, TableRow.seq == 0)
                .values(status=FINISHED, winner=winner, record=record, updated_at=now)
            )
            if _rowcount(changed) != 1:
                raise StaleError(f"table {code} is not playing its first deal")
            self._notify(session, code)

    def give_seed(self, code: str, seat: int, seed: str) -> bool:
        """Keep ``seed`` as seat ``seat``'s client seed while the table is open (its game not
        started: the seeds are not fixed yet). False when the seat has a seed already.

        Raises:
            StaleError: when the table is no longer open (its seeds are fixed).
        """
        now = _now()
        with self._writing, Session(self.engine) as session, session.begin():
            changed = session.execute(  # locks the table's row: a join that starts the game waits
                update(TableRow).where(TableRow.code == code, TableRow.status == OPEN).values(updated_at=now)
            )
            if _rowcount(changed) != 1:
                raise StaleError(f"table {code} is no longer open: its seeds are fixed")
            given = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_code == code,
                    SeatRow.seat == seat,
                    SeatRow.token_hash.is_not(None),
                    SeatRow.seed.is_(None),
                )
                .values(seed=seed)
            )
            if _rowcount(given) != 1:
                return False
            self._notify(session, code)
        return True

    def touch(self, codes: Sequence[str], now: datetime | None = None) -> None:
        """Someone is connected to each of these tables ``now`` (default: the clock): mark them
        seen (idle tables expire)."""
        if not codes:
            return
        with self._writing, Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.code.in_(list(codes))).values(seen_at=now or _now()))

    def expire_open(self, before: datetime, limit: int = 500) -> list[str]:
        """Close up to ``limit`` open tables nobody was seen at since ``before`` (reason
        ``expired``; they had no game, so no record); returns their codes."""
        with self._writing, Session(self.engine) as session, session.begin():
            codes = list(
                session.scalars(
                    select(TableRow.code)
                    .where(TableRow.status == OPEN, TableRow.seen_at < before)
                    .order_by(TableRow.seen_at)
                    .limit(limit)
                )
            )
            if not codes:
                return []
            closed = session.scalars(
                update(TableRow)
                .where(TableRow.code.in_(codes), TableRow.status == OPEN, TableRow.seen_at < before)
                .values(status=CLOSED, close_reason="expired", updated_at=_now())
                .returning(TableRow.code)
            )
            done = list(closed)
            for code in done:
                self._notify(session, code)
            return done

    def append(
        self,
        code: str,
        action: ActionData,
        deals: Sequence[Deal],
        finished: tuple[int, str] | None = None,
    ) -> None:
        """Store one action (its ``seq`` must be the table's ``seq`` + 1) with the deals it led to;
        with ``finished`` (winner, record text) the table is finished in the same transaction.

        Raises:
            StaleError: when the table's ``seq`` is not ``action.seq - 1`` (another writer was first).
        """
        job = _Append(code, action, deals, finished)
        if self.shared:  # several processes: each action is its own transaction
            self._write_alone(job)
        else:
            self._group_commit(job)
        if job.error is not None:
            raise job.error

    def append_batch(
        self, jobs: Sequence[tuple[str, ActionData, Sequence[Deal], tuple[int, str] | None]]
    ) -> list[Exception | None]:
        """Store several actions (each as :meth:`append` takes them) at once: on SQLite in one
        transaction with one commit, each with its own compare-and-set; on PostgreSQL each in a
        transaction of its own. Returns each one's error (``StaleError``, or the database's when
        it could not be written) or ``None`` when it was stored, in order. If the transaction fails
        as a whole, each action is tried again on its own, so that each gets its own answer."""
        batch = [_Append(code, action, deals, finished) for code, action, deals, finished in jobs]
        if self.shared:
            for job in batch:
                self._write_alone(job)
        else:
            with self._writing_actions:
                self._write_batch(batch)
        return [job.error for job in batch]

    def _write_batch(self, batch: list[_Append]) -> None:
        try:
            with self.engine.begin() as connection:
                self._write_many(connection, batch)
            for item in batch:
                item.done = True
        except SQLAlchemyError:
            for item in batch:
                item.error = None
                self._write_alone(item)
        finally:
            for item in batch:
                if not item.done:  # interrupted, stored or not: its table must reload to know
                    item.error = item.error or StaleError(f"table {item.code}: the write was interrupted")
                    item.done = True

    def _group_commit(self, job: _Append) -> None:
        """SQLite: one writer at a time, and a commit waits for the disk (fsync); so whoever holds
        the write lock writes every action waiting for it in one transaction with one commit.
        Each action's compare-and-set stands alone: one that finds its table moved on writes
        nothing and gets its StaleError, the others are stored. If the transaction fails as a whole
        (a full disk, say), each action is tried again on its own, so that each gets its own answer."""
        with self._queue_lock:
            self._queue.append(job)
        with self._writing_actions:
            if job.done:  # an earlier holder of the lock wrote it
                return
            with self._queue_lock:
                batch, self._queue = self._queue, []
            self._write_batch(batch)

    def _write_alone(self, job: _Append) -> None:
        """Write one action in a transaction of its own; its error, if any, goes in ``job.error``."""
        try:
            with self.engine.begin() as connection:
                self._write(connection, job)
        except IntegrityError:
            job.error = StaleError(f"table {job.code} already has an action {job.action.seq} or its deal")
        except SQLAlchemyError as error:
            job.error = error
        job.done = True

    def _write(self, connection: Connection, job: _Append) -> None:
        """Write one action in ``connection``'s transaction, or set ``job.error`` (StaleError) and
        write nothing when the table is not at the seq before it."""
        self._write_many(connection, [job])

    def _write_many(self, connection: Connection, jobs: Sequence[_Append]) -> None:
        """Write actions in ``connection``'s transaction: each table's compare-and-set on its own
        (one that finds its table moved on gets its StaleError and writes nothing), then the
        actions and deals of the others in one statement each."""
        # SQLAlchemy Core with statements built once, not the ORM: this is the write of every
        # action (benchmarks/bench_server.py: the ORM's unit of work cost a third of it, building
        # each statement anew another fifth)
        now = _now()
        actions: list[dict[str, Any]] = []
        deals: list[dict[str, Any]] = []
        for job in jobs:
            action, code = job.action, job.code
            params: dict[str, Any] = {"b_code": code, "b_before": action.seq - 1, "b_seq": action.seq, "b_now": now}
            if job.finished is None:
                moved = connection.execute(_ADVANCE, params)
            else:
                params.update(b_winner=job.finished[0], b_record=job.finished[1])
                moved = connection.execute(_FINISH, params)
            if _rowcount(moved) != 1:  # nothing written: the other actions of a batch go on
                job.error = StaleError(f"table {code} is not at seq {action.seq - 1}")
                continue
            actions.append(
                {
                    "table_code": code,
                    "seq": action.seq,
                    "round": action.round,
                    "seat": action.seat,
                    "action": action.action,
                    "source": action.source,
                    "created_at": now,
                }
            )
            deals.extend(_deal_row(code, deal, now) for deal in job.deals)
            self._notify(connection, code)
        if actions:
            connection.execute(insert(ActionRow), actions)
        if deals:
            connection.execute(insert(DealRow), deals)

    def add_deals(self, code: str, deals: Sequence[Deal]) -> None:
        """Store deals on their own (a table repairing a deal it lacked)."""
        now = _now()
        with self._writing, Session(self.engine) as session, session.begin():
            self._add_deals(session, code, deals, now)

    def close(
        self, code: str, record: str | None, seq: int, reason: str = "host", idle_before: datetime | None = None
    ) -> None:
        """Close an open or playing table at ``seq`` (the record is of the game after that many
        actions), keeping ``record`` (the unfinished game's, if it started) and the ``reason``
        (``host``; ``abandoned``: nobody came back; ``used_up``: its salt chain dealt every round it
        could). With ``idle_before`` only if no person was seen at it since then.

        Raises:
            StaleError: when the table is finished or closed already, no longer at ``seq``, or (with
                ``idle_before``) a person was seen at it since.
        """
        with self._writing, Session(self.engine) as session, session.begin():
            where = [TableRow.code == code, TableRow.seq == seq, TableRow.status.in_(ACTIVE)]
            if idle_before is not None:
                where.append(TableRow.seen_at < idle_before)
            changed = session.execute(
                update(TableRow)
                .where(*where)
                .values(status=CLOSED, record=record, close_reason=reason, updated_at=_now())
            )
            if _rowcount(changed) != 1:
                raise StaleError(f"table {code} is not open or playing at seq {seq}")
            self._notify(session, code)

    def seat_bot(
        self,
        code: str,
        seat: int,
        level: str,
        token_hash: str | None,
        start: tuple[int, Sequence[Deal], Sequence[str | None]] | None = None,
    ) -> None:
        """Give human seat ``seat`` to a bot of ``level`` (it keeps the person's name, if any):
        the seat that held ``token_hash`` (``None``: a free seat) opens to no token any more. With
        ``start`` (the first dealer, the first deals and the seats' seeds they were dealt with) the
        game starts in the same transaction.

        Raises:
            StaleError: when the seat changed meanwhile (someone took it, or it is a bot's), or the
                table is finished or closed.
        """
        now = _now()
        guard = SeatRow.token_hash.is_(None) if token_hash is None else SeatRow.token_hash == token_hash
        with self._writing, Session(self.engine) as session, session.begin():
            changed = session.execute(
                update(SeatRow)
                .where(SeatRow.table_code == code, SeatRow.seat == seat, SeatRow.kind == "human", guard)
                .values(kind="bot", level=level, token_hash=None, reserved_hash=None)
            )
            if _rowcount(changed) != 1:
                raise StaleError(f"seat {seat} of table {code} changed meanwhile")
            values: dict[str, Any] = {"updated_at": now}
            if token_hash is not None:  # a person's seat: one person fewer seated
                values["seated"] = TableRow.seated - 1
            if start is not None:
                values.update(status=PLAYING, first_dealer=start[0])
                self._add_deals(session, code, start[1], now)
            statuses = (OPEN,) if start is not None else (OPEN, PLAYING)
            moved = session.execute(
                update(TableRow).where(TableRow.code == code, TableRow.status.in_(statuses)).values(**values)
            )
            if _rowcount(moved) != 1:
                raise StaleError(f"table {code} is no longer open or playing")
            self._notify(session, code)

    def add_chat(self, code: str, seat: int, text: str | None, reaction: str | None) -> ChatData:
        """Store a line of the table's chat; returns it with its id and time."""
        now = _now()
        with self._writing, Session(self.engine) as session, session.begin():
            row = ChatRow(table_code=code, seat=seat, text=text, reaction=reaction, created_at=now)
            session.add(row)
            session.flush()
            line = ChatData(row.id, seat, text, reaction, now)
            self._notify(session, code)
        return line

    def chat(self, code: str, after: int = 0, limit: int = 100) -> list[ChatData]:
        """The table's chat lines after id ``after``, oldest first: the newest ``limit`` of them."""
        with Session(self.engine) as session:
            rows = list(
                session.scalars(
                    select(ChatRow)
                    .where(ChatRow.table_code == code, ChatRow.id > after)
                    .order_by(ChatRow.id.desc())
                    .limit(limit)
                )
            )
        return [ChatData(r.id, r.seat, r.text, r.reaction, _utc(r.created_at)) for r in reversed(rows)]

    def checkpoint(self) -> None:
        """SQLite: copy what the write-ahead log holds back into the database file, as far as it
        can without waiting (a passive checkpoint: writers go on meanwhile). Nothing elsewhere."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # ------------------------------------------------------------------------------ leases (shared only)

    def take_leases(self, codes: Sequence[str], seconds: float) -> set[str]:
        """Take or renew this process's lease of each table in ``codes`` for ``seconds`` (by the
        database's clock, so that the processes' clocks need not agree): a lease is taken when it is
        free, expired or already this process's. Returns the codes whose lease this process now
        holds (every code when not ``shared``: a single process serves everything)."""
        if not self.shared:
            return set(codes)
        held: set[str] = set()
        with Session(self.engine) as session, session.begin():
            for code in codes:
                taken = session.execute(
                    text(
                        "INSERT INTO leases (table_code, owner, expires_at) "
                        "VALUES (:code, :owner, now() + make_interval(secs => :seconds)) "
                        "ON CONFLICT (table_code) DO UPDATE "
                        "SET owner = excluded.owner, expires_at = excluded.expires_at "
                        "WHERE leases.owner = excluded.owner OR leases.expires_at < now() RETURNING table_code"
                    ),
                    {"code": code, "owner": self.process, "seconds": seconds},
                ).first()
                if taken is not None:
                    held.add(code)
        return held

    def release_leases(self, codes: Sequence[str]) -> None:
        """Give up this process's leases of these tables (on shutdown, or a table no longer played),
        so that another process may take them at once."""
        if not self.shared or not codes:
            return
        with Session(self.engine) as session, session.begin():
            session.execute(delete(LeaseRow).where(LeaseRow.owner == self.process, LeaseRow.table_code.in_(codes)))

    def _notify(self, session: Session | Connection, code: str) -> None:
        """On a shared database: notify the other processes of this transaction's change once it commits."""
        if self.shared:
            session.execute(
                text(
                    "SELECT pg_notify(:channel, code || ' ' || seq || ' ' || :process) "
                    "FROM game_tables WHERE code = :code"
                ),
                {"channel": CHANNEL, "process": self.process, "code": code},
            )

    @staticmethod
    def _add_deals(session: Session | Connection, code: str, deals: Sequence[Deal], now: datetime) -> None:
        if deals:
            session.execute(insert(DealRow), [_deal_row(code, deal, now) for deal in deals])


_ADVANCE = (
    update(TableRow)
    .where(TableRow.code == bindparam("b_code"), TableRow.seq == bindparam("b_before"), TableRow.status == PLAYING)
    .values(seq=bindparam("b_seq"), updated_at=bindparam("b_now"))
)
"""An action's compare-and-set: the table moves from seq ``b_before`` to ``b_seq`` (built once)."""
_FINISH = _ADVANCE.values(status=FINISHED, winner=bindparam("b_winner"), record=bindparam("b_record"))
"""The same for the action that ends the game: the table is finished with its winner and record."""


def _deal_row(code: str, deal: Deal, now: datetime) -> dict[str, Any]:
    return {
        "table_code": code,
        "round": deal.round,
        "deck": format_cards(deal.deck),
        "salt": deal.salt,
        "commitment": deal.commitment,
        "seq": deal.seq,
        "created_at": now,
    }


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(row.seat, row.kind, row.level, row.name, row.token_hash, row.reserved_hash, row.seed)


def _table_data(row: TableRow, seats: list[SeatData], **more: Any) -> TableData:
    """A table as stored in ``row`` with its ``seats``; ``more``: its record."""
    return TableData(
        code=row.code,
        status=row.status,
        preset=row.preset,
        options=json.loads(row.rules),
        players=row.players,
        host_token_hash=row.host_token_hash,
        seats=seats,
        created_at=_utc(row.created_at),
        first_dealer=row.first_dealer,
        seq=row.seq,
        winner=row.winner,
        public=bool(row.public),
        hints=bool(row.hints),
        rematch=row.rematch,
        rematch_of=row.rematch_of,
        commitment=row.commitment,
        chain_key=row.chain_key,
        chain_length=row.chain_length,
        close_reason=row.close_reason,
        seen_at=None if row.seen_at is None else _utc(row.seen_at),
        **more,
    )


def _rowcount(result: Any) -> int:
    count: int = result.rowcount
    return count
