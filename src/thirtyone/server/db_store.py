"""The table store: every read and write of the database, as plain synchronous methods (the
server calls them on a worker thread) over the models of :mod:`thirtyone.server.models`, in the
shapes of :mod:`thirtyone.server.rows`.

An action is stored with the deals it led to and the table's new ``seq`` together, guarded by the
old ``seq`` (:mod:`thirtyone.server.appends`: group commits); every other write is one
transaction, on SQLite in turns (:class:`~thirtyone.server.appends.WriteTurns`).

On PostgreSQL (``shared``: several server processes may use the database, see
:mod:`thirtyone.server.cluster`) every committed change also sends ``NOTIFY thirtyone, 'CODE SEQ
PROCESS'`` (``pg_notify`` in the writing transaction, so it is sent only if the change commits), and
the ``leases`` table says which process runs each table's bots and timer.

The server, on its event loop, calls these methods through :class:`~thirtyone.server.db_threads.Database`
(its own threads: reads on a few, writes on one, so that nothing else waits for them, and a
database failure turned into :class:`~thirtyone.server.errors.DatabaseError`).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import Engine
from sqlalchemy import Select
from sqlalchemy import delete
from sqlalchemy import func
from sqlalchemy import insert
from sqlalchemy import select
from sqlalchemy import text
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from thirtyone.cards import parse_cards
from thirtyone.server.appends import ActionWriter
from thirtyone.server.appends import AppendJob
from thirtyone.server.appends import WriteTurns
from thirtyone.server.fair import Deal
from thirtyone.server.history import ActionData
from thirtyone.server.models import ActionRow
from thirtyone.server.models import ChatRow
from thirtyone.server.models import DealRow
from thirtyone.server.models import LeaseRow
from thirtyone.server.models import SeatRow
from thirtyone.server.models import TableRow
from thirtyone.server.rows import ACTIVE
from thirtyone.server.rows import CLOSED
from thirtyone.server.rows import FINISHED
from thirtyone.server.rows import OPEN
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import ChatData
from thirtyone.server.rows import Loaded
from thirtyone.server.rows import SeatData
from thirtyone.server.rows import StaleError
from thirtyone.server.rows import TableData
from thirtyone.server.rows import deal_values as _deal_row
from thirtyone.server.rows import now as _now
from thirtyone.server.rows import rowcount as _rowcount
from thirtyone.server.rows import seat_data
from thirtyone.server.rows import seat_values
from thirtyone.server.rows import table_data
from thirtyone.server.rows import table_values
from thirtyone.server.rows import utc as _utc

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

CHANNEL = "thirtyone"
"""The PostgreSQL notification channel of committed changes (payload ``"CODE SEQ PROCESS"``)."""

log = logging.getLogger("thirtyone.server")


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
        turns = WriteTurns() if engine.dialect.name == "sqlite" else None
        self._writing: contextlib.AbstractContextManager[Any] = turns or contextlib.nullcontext()
        self._actions = ActionWriter(engine, self.shared, turns, CHANNEL, self.process)

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
                table_data(row, [seat_data(s) for s in seats]),
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
                    seats[s.table_code].append(seat_data(s))
            return [table_data(row, seats[row.code], record=False) for row in rows]

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

    def review(self, code: str) -> str | None:
        """The review (JSON text) kept with table ``code``'s finished game; ``None`` while none is
        kept (or there is no such table). Only this reads the column: it is deferred, so loading a
        table never reads its review."""
        with Session(self.engine) as session:
            return session.scalar(select(TableRow.review).where(TableRow.code == code))

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
                # as the table was answered when it was created; a person is there now
                session.add(TableRow(**{**table_values(table), "updated_at": now, "seen_at": now}))
                session.flush()
                for seat in table.seats:
                    session.add(SeatRow(**seat_values(table.code, seat)))
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

    def keep_review(self, code: str, review: str) -> bool:
        """Keep ``review`` (JSON text) with table ``code``'s game, once: False when the table has
        no record (nothing to review) or a review is kept already (another process made it first:
        the first one stays)."""
        with self._writing, Session(self.engine) as session, session.begin():
            kept = session.execute(
                update(TableRow)
                .where(TableRow.code == code, TableRow.record.is_not(None), TableRow.review.is_(None))
                .values(review=review)
            )
            return _rowcount(kept) == 1

    def touch(self, codes: Sequence[str], now: datetime | None = None) -> None:
        """Someone is connected to each of these tables ``now`` (default: the clock): mark them
        seen (idle tables expire)."""
        if not codes:
            return
        with self._writing, Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.code.in_(_in_order(codes))).values(seen_at=now or _now()))

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
                .where(TableRow.code.in_(_in_order(codes)), TableRow.status == OPEN, TableRow.seen_at < before)
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
        self._actions.append(code, action, deals, finished)

    def append_batch(self, jobs: Sequence[AppendJob]) -> list[Exception | None]:
        """Store several actions (each as :meth:`append` takes them) at once, in one transaction
        with one commit, each with its own compare-and-set (on PostgreSQL the tables are locked in
        the order of their codes). Returns each one's error (``StaleError``, or the database's when
        it could not be written) or ``None`` when it was stored, in order. If the transaction fails
        as a whole, each action is tried again on its own, so that each gets its own answer."""
        return self._actions.append_batch(jobs)

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
        holds (every code when not ``shared``: a single process serves everything).

        On PostgreSQL this is one statement, however many tables (an upsert over ``unnest`` of the
        codes, :data:`_TAKE_LEASES`): one round trip and one commit a renewal."""
        if not self.shared:
            return set(codes)
        if not codes:
            return set()
        with self.engine.begin() as connection:
            taken = connection.execute(_TAKE_LEASES, {"codes": list(codes), "owner": self.process, "seconds": seconds})
            return set(taken.scalars())

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


def _in_order(codes: Sequence[str]) -> Select[str]:
    """The tables ``codes``, locked in the order of their codes (PostgreSQL; SQLite has one writer
    at a time): a write of many tables' rows takes their locks in the order a batch of actions
    takes them (:mod:`thirtyone.server.appends`), so that neither waits for the other in a circle
    (before, the idle tables' sweep and a batch could deadlock)."""
    return select(TableRow.code).where(TableRow.code.in_(list(codes))).order_by(TableRow.code).with_for_update()


_TAKE_LEASES = text(
    "INSERT INTO leases (table_code, owner, expires_at) "
    "SELECT code, :owner, now() + make_interval(secs => :seconds) FROM unnest(CAST(:codes AS text[])) AS code "
    "ON CONFLICT (table_code) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
    "WHERE leases.owner = excluded.owner OR leases.expires_at < now() RETURNING table_code"
)
"""Take or renew the leases of many tables in one statement (PostgreSQL): each one free, expired
or already ``:owner``'s is set to expire ``:seconds`` from now; returns the codes taken."""
