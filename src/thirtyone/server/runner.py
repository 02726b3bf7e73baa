"""A table's runner: the one authority over one table while the server serves it, one change at
a time (an :class:`asyncio.Lock`).

The runner holds the table's state (:class:`~thirtyone.server.table.Table`: what is stored, its
history, its game), its seats (:class:`~thirtyone.server.seating.Seating`), what its connections
are told (:class:`~thirtyone.server.broadcast.Broadcaster`) and its bots and turn timer
(:class:`~thirtyone.server.autoplay.Autoplay`). An action goes straight through:

1. the engine checks the action on a copy of the game (an illegal one raises, naming the rule,
   and changes nothing) and the copy takes the chance steps it leads to, dealt from the table's
   committed salt chain and the seats' seeds (:mod:`thirtyone.server.fair`);
2. the action, with any deal it led to, is written to the database in one transaction; if the
   write fails, nothing changed: the table still has the game it had;
3. only then the copy becomes the table's game, the sender gets ``ack`` and every connection its
   news: ``round_end`` (with the revealed deck and salt, unless they wait for the game's end after
   a 31, R5.7), ``deal`` (the next deal's commitment, before any card of it is shown), ``reveal``
   at the game's end, and ``state`` with its own view.

After every change the table's :class:`~thirtyone.server.autoplay.Autoplay` starts the bot or
turn timer that waits (after a round, once the people have closed its showdown:
:meth:`TableRunner.showdown_closed`; :meth:`TableRunner.back` after the timer played a seat).

On PostgreSQL several processes may serve one table (:mod:`thirtyone.server.cluster`): each keeps
such a runner; :meth:`TableRunner.sync` catches up with another process's writes, and only the
runner whose process holds the table's lease (:meth:`TableRunner.lead`) runs its bots and timer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from thirtyone.action_ids import action_from_id
from thirtyone.action_ids import action_id
from thirtyone.actions import Action
from thirtyone.actions import parse_action
from thirtyone.engine import Game
from thirtyone.errors import ActionError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules
from thirtyone.server import chat
from thirtyone.server import messages
from thirtyone.server.autoplay import Autoplay
from thirtyone.server.broadcast import CHAT_KEPT
from thirtyone.server.broadcast import Broadcaster
from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connection
from thirtyone.server.connections import Connections
from thirtyone.server.db_threads import Database
from thirtyone.server.errors import AuthError
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import InputError
from thirtyone.server.errors import ServerError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.fair import ChainUsedUpError
from thirtyone.server.history import TableHistory
from thirtyone.server.history import ended_rounds
from thirtyone.server.limits import check_name
from thirtyone.server.limits import token_matches
from thirtyone.server.rows import CLOSED
from thirtyone.server.rows import OPEN
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import StaleError
from thirtyone.server.rows import TableData
from thirtyone.server.seating import TRIES
from thirtyone.server.seating import Seating
from thirtyone.server.seating import parse_client_seed
from thirtyone.server.serialize import JSON
from thirtyone.server.table import Table
from thirtyone.server.workers import WorkerPool

__all__ = ["TableRunner", "CHAT_KEPT"]

log = logging.getLogger("thirtyone.server")


class TableRunner:
    """One table, served: see the module docstring. Create it with :meth:`open` (a stored table),
    or from what was just stored of a new table (``data``)."""

    def __init__(
        self,
        data: TableData,
        db: Database,
        settings: ServerSettings,
        bots: WorkerPool | None = None,
        table: Table | None = None,
    ) -> None:
        self.code = data.code
        self.db = db
        self.store = db.store
        self.settings = settings
        self.lock = asyncio.Lock()
        self.connections = Connections()
        self.stopped = False
        self.leased = not db.store.shared
        self.claim: Callable[[], None] | None = None
        self.table = table or Table(data, settings)
        self.autoplay = Autoplay(self, settings, bots)
        self.tell = Broadcaster(
            self.table, self.connections, settings, self.autoplay.pace, lambda: self.autoplay.deadline
        )
        self.seating = Seating(self)
        self.chat_limits = chat.ChatLimits()
        self._rechecks: set[asyncio.Task[None]] = set()  # kept until done (the loop holds tasks weakly)

    @classmethod
    async def open(
        cls, code: str, db: Database, settings: ServerSettings, bots: WorkerPool | None = None
    ) -> TableRunner | None:
        """The runner of the stored table ``code`` (``None`` when there is none), its game played
        from the stored deals and actions; ``bots`` is the pool the ``medium`` and ``hard`` bots
        think on. A deal the database lacks (an older server stored an action without the deal it
        led to) is stored before anyone sees it.

        Raises:
            DatabaseError: when the database cannot be read or written.
            UnavailableError: when the stored actions do not replay (``damaged``).
        """
        loaded = await db.read(db.store.load, code)
        if loaded is None:
            return None
        table, lacking = Table.opened(loaded.table, loaded.deals, loaded.actions, settings)
        if lacking is not None:
            await db.write(db.store.add_deals, code, lacking.deals)
            table.keep(lacking)
        runner = cls(table.data, db, settings, bots, table)
        runner.tell.remember_chat(await db.read(db.store.chat, code))
        return runner

    # ------------------------------------------------------------------------------ the table

    @property
    def data(self) -> TableData:
        """What is stored of the table (its row and seats)."""
        return self.table.data

    @property
    def game(self) -> Game | None:
        """The table's game (``None`` before it starts)."""
        return self.table.game

    @property
    def history(self) -> TableHistory:
        """The table's history: its deals and actions as stored."""
        return self.table.history

    @property
    def rules(self) -> Rules:
        """The table's rules."""
        return self.table.rules

    def who(self, seat: int) -> str:
        """A seat in words: ``"Ann (seat 0)"``."""
        return self.table.who(seat)

    def name(self, seat: int) -> str:
        """A seat's display name (a bot's is its table name)."""
        return self.table.name(seat)

    def table_json(self) -> JSON:
        """The table's public information (docs/server-protocol.md, "table"), from what is stored."""
        return self.tell.table_json()

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), serialized once a change."""
        return self.tell.state_text(seat)

    def deals_json(self) -> JSON:
        """The table's fairness (scheme, commitment, seeds) and every round's deal: its
        commitment, and the deck and salt of each round that has ended (every round of a closed
        table) but those that wait for the game's end (R5.7)."""
        withheld = messages.withheld_rounds(self.game, self.data)
        return messages.deals_json(self.data, self.history, withheld)

    async def public(self) -> tuple[JSON, JSON | None]:
        """The table's public information, and what a spectator sees of the game (``None`` before
        it starts)."""
        async with self.lock:
            return self.table_json(), messages.seat_view(self.game, None)

    def tell_table(self) -> None:
        """Tell everyone the TABLE anew (the showdown's wait or the turn timer changed without an action)."""
        self.tell.tell_table()

    # ------------------------------------------------------------------------------ other processes

    async def sync(self) -> None:
        """Catch up with what another process stored (it notified a change): read only the new
        actions and deals, play them on the game, and tell every connection just as the writer
        told its own (``round_end``, ``deal``, ``state``; ``table`` for a join that did not start
        the game). Nothing happens when nothing changed.

        Raises:
            DatabaseError: when the database cannot be read (the game is as it was).
            UnavailableError: when the stored actions do not replay (``damaged``; the game is as
                it was after the last one that did).
        """
        async with self.lock:
            if not self.stopped:
                await self.catch_up()

    async def catch_up(self) -> None:
        """:meth:`sync`, under the lock: the table as stored now, another writer's actions played
        one at a time, each told as its writer told it (so every process's clients see the same
        states); a game another process started is played from the database (the table opens here)."""
        table = self.table
        old = table.data
        loaded = await self.db.read(self.store.load, self.code, old.seq, table.history.round)
        if loaded is None:  # pragma: no cover - tables are never deleted
            return
        self.tell.tell_chat(await self.db.read(self.store.chat, self.code, self.tell.chat_seen))
        news = loaded.table
        if news.seq == old.seq and news.status == old.status and news.seats == old.seats:
            if news.rematch != old.rematch:  # another process made this table's rematch
                old.rematch = news.rematch
                self.tell.tell_rematch()
            return
        if table.game is None:  # not started here: it started elsewhere (or closed before it did)
            table.data = news
            lacking = table.resume(loaded.deals, loaded.actions)  # the game opens in this process
            if lacking is not None:  # pragma: no cover - the join that started it stored its deals
                await self.db.write(self.store.add_deals, self.code, lacking.deals)
                table.keep(lacking)
            self.tell.changed(game_replaced=True)
            self.autoplay.schedule()
            self.tell.tell_table()
            if news.status != old.status and table.game is not None:
                self.tell.tell(ended_rounds(table.game), table.history.deals)
            return
        if news.seats != old.seats and loaded.actions:  # a seat changed, then play went on: told in that order
            old.seats = news.seats
            self.tell.tell_table()
        deals = {deal.round: deal for deal in loaded.deals}
        for stored in loaded.actions:
            try:
                move = table.replay(stored, deals)
            except UnavailableError as error:
                log.error("table %s: %s", self.code, error)
                self.autoplay.schedule()
                raise
            if stored.seq == news.seq:  # the last: the table as stored with it (finished, say)
                table.data = news
            table.keep(move)
            self.tell.tell(move.ended, move.deals)
        closed = news.status != table.data.status  # closed without an action
        table.data = news
        self.autoplay.schedule()
        if closed and not loaded.actions:
            self.tell.tell([], [])
        elif not loaded.actions:
            self.tell.tell_table()

    async def lead(self, held: bool) -> None:
        """Whether this process holds the table's lease (:mod:`thirtyone.server.cluster`): taking it,
        the runner first catches up with what is stored, then runs the bot or timer that waits;
        losing it, the runner stops its bot and timer (the new holder runs them).

        Raises:
            DatabaseError: when the database cannot be read while taking the lease.
        """
        async with self.lock:
            if held == self.leased or self.stopped:
                return
            if held:  # not leased until caught up, so that a failed read is tried again at the next renewal
                await self.catch_up()
            self.leased = held
            self.autoplay.schedule()

    # ------------------------------------------------------------------------------ changes

    async def act(
        self,
        seat: int,
        action: Action | str | int,
        seq: int,
        source: str = "player",
        origin: Connection | None = None,
        notation: str | None = None,
    ) -> int:
        """Play ``action`` (an :class:`~thirtyone.actions.Action`, its notation, or its id:
        :mod:`thirtyone.action_ids`) for ``seat``, which last saw ``seq``; returns the new seq.
        ``notation``, sent beside an id, must name the same action.

        The action is stored before anyone hears of it; ``origin`` (the sender's connection) gets
        ``ack`` first, then every connection its news and state.

        Raises:
            ConflictError: the table is not playing (``not_playing``), ``seq`` is not the table's
                (``stale``), it is not ``seat``'s turn (``not_your_turn``, R2.1), or the rules forbid
                the action (``illegal_action``; the message starts with the rule id).
            InputError: for text that is not an action, an id that is none, or a notation that is
                not the id's action (``bad_action``).
            DatabaseError: when it could not be stored (the game is as it was).
        """
        async with self.lock:
            table, game = self.table, self.game
            if self.stopped or self.data.status != PLAYING or game is None:
                raise ConflictError(f"table {self.code} is {self.data.status}: no game is being played", "not_playing")
            if seq != self.data.seq:
                raise ConflictError(
                    f"stale: you sent seq {seq}, but table {self.code} is at seq {self.data.seq}; "
                    "here is the current state",
                    "stale",
                )
            chosen = _action(game, action, notation)
            try:
                move = table.play(seat, chosen, source)
            except ChainUsedUpError as error:  # practically never: the game is closed, its record kept
                await self._close_locked("used_up")
                raise ConflictError(
                    f"table {self.code} is closed: {error}; the record of its game is kept", "table_closed"
                ) from None
            except ServerError:
                raise
            except ThirtyOneError as error:  # a damaged deal: nothing was dealt
                raise UnavailableError(f"table {self.code}: {error}", "damaged") from None
            assert move.action is not None
            try:
                await self.db.append(self.code, move.action, move.deals, move.finished)
            except StaleError:  # another process stored an action first: take it, then say so
                await self.catch_up()
                raise ConflictError(
                    f"stale: table {self.code} moved on meanwhile (now seq {self.data.seq}); here is the current state",
                    "stale",
                ) from None
            table.keep(move)  # stored: only now is it the table's
            if origin is not None:
                origin.put(messages.ack_message(move.action, action_id(game, chosen)))
            if source == "player":  # a person who moves has read the showdown before it
                self.autoplay.close_showdown(seat)
            self.autoplay.schedule()
            self.tell.tell(move.ended, move.deals)
            return move.action.seq

    async def join(
        self, name: str, seat: int | None = None, seed: str | None = None, claim: str | None = None
    ) -> tuple[int, str]:
        """Seat ``name`` at a free human seat (``seat``, or the first free one) with the person's
        client ``seed`` (hex or base64, 16–64 bytes: :func:`thirtyone.fairness.parse_seed`;
        ``None``: none); returns the seat and its new token. When the last human seat is taken the
        game starts: the first dealer is drawn and the first deal dealt from the table's salt chain
        and every seat's seed, in the same transaction. The name is checked by
        :func:`~thirtyone.server.names.check_display_name` against every seat's. A seat of a
        rematch kept for its player is taken only with ``claim``, the hash of the token that held
        it at the old table (:mod:`thirtyone.server.rematch`).

        Raises:
            InputError: for a bad name, seat number or seed (``bad_seed``), a name that reads as
                "You", a bot or a seat label (``name_reserved``), or one that is or looks like a
                name at the table (``name_taken``).
            ConflictError: the table is full (``table_full``) or closed (``table_closed``), or that
                seat is a bot's or taken (``seat_taken``) or kept for a player of the last game
                (``seat_reserved``).
            DatabaseError: when it could not be stored (nothing changed).
        """
        clean = check_name(name)
        own_seed = None if seed is None else parse_client_seed(seed)
        async with self.lock:
            for _ in range(TRIES):
                try:
                    return await self.seating.join(clean, seat, own_seed, claim)
                except StaleError:  # another process seated someone meanwhile: read the seats again
                    await self.catch_up()
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")

    async def give_to_bot(self, host_token: str, seat: object, level: str) -> None:
        """Give human seat ``seat`` to a bot of ``level`` (its host only): a free seat of a table
        waiting for people, or the seat of a player who left (no connection holds it). The bot
        keeps the player's name and plays on from where they were; their token opens no seat any
        more. When it was the last free human seat, the game starts.

        Raises:
            AuthError: when ``host_token`` is not the table's host token.
            InputError: for a seat that is not one of the table's, or an unknown level.
            ConflictError: when the table is finished or closed (``table_closed``), the seat is a
                bot's already or its player is connected (``seat_taken``), or no other human seat
                would be left (``last_person``).
            DatabaseError: when it could not be stored (nothing changed).
        """
        async with self.lock:
            await self.seating.give_to_bot(host_token, seat, level)

    async def give_seed(self, seat: int, seed: object) -> str:
        """Keep ``seed`` (hex or base64 text of 16–64 random bytes) as ``seat``'s client seed, for
        every deal of the game; returns it as stored (lowercase hex). Only before the game starts
        (its seeds are fixed then), once per seat; everyone hears the seat is seeded.

        Raises:
            InputError: for a seed that is not hex or base64 of 16–64 bytes (``bad_seed``).
            ConflictError: once the game has started or the table is closed (``seeds_fixed``), or
                when the seat has a seed already (``seed_given``).
            DatabaseError: when it could not be stored (nothing changed).
        """
        clean = parse_client_seed(seed)
        async with self.lock:
            for _ in range(TRIES):
                given = await self.seating.give_seed(seat, clean)
                if given is not None:
                    return given
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")

    def authenticate(self, token: str | None) -> int | None:
        """The seat ``token`` opens, or ``None`` for no token (a spectator).

        Raises:
            AuthError: for a token that opens no seat of this table.
        """
        return self.seating.authenticate(token)

    async def link_rematch(self, code: str) -> None:
        """The table's rematch is table ``code`` (stored): tell everyone at this table."""
        async with self.lock:
            if self.data.rematch != code:
                self.data.rematch = code
                self.tell.tell_rematch()

    async def chat(self, connection: Connection, message: JSON) -> None:
        """A line of chat (its ``text``) or a quick reaction from ``connection``'s seat, stored and
        sent to everyone at the table (:mod:`thirtyone.server.chat`).

        Raises:
            AuthError: for a spectator (``spectator``).
            InputError: for a line that is empty, too long, not plain text, or an unknown
                reaction (``bad_chat``), or one sent too soon after the last ones (``chat_too_fast``).
            DatabaseError: when it could not be stored (nothing was said).
        """
        seat = connection.seat
        if seat is None:
            raise AuthError("spectators watch: join a seat to chat", "spectator")
        text, reaction = chat.check_line(message)
        if not self.chat_limits.allow(seat):
            raise InputError(chat.TOO_FAST, "chat_too_fast")
        line = await self.db.write(self.store.add_chat, self.code, seat, text, reaction)
        async with self.lock:
            self.tell.tell_chat([line])

    async def close(self, host_token: str) -> None:
        """Close the table (its host only): an open table takes nobody more, a game being played
        ends where it is; its record, every deal revealed, is kept.

        Raises:
            AuthError: when ``host_token`` is not the table's host token.
            ConflictError: when the table is finished or closed already (``table_closed``).
            DatabaseError: when it could not be stored (nothing changed).
        """
        async with self.lock:
            if not token_matches(host_token, self.data.host_token_hash):
                raise AuthError(f"that is not the host token of table {self.code}; only its host can close it")
            if self.data.status not in (OPEN, PLAYING):
                raise ConflictError(f"table {self.code} is {self.data.status} already", "table_closed")
            await self._close_locked("host")

    async def expire(self, reason: str, idle_before: datetime) -> bool:
        """Close the table because it stood idle (``reason``: ``abandoned``, no person connected to
        its game since ``idle_before``), if nobody is connected here and no person was seen at it
        since then (another process may serve one); its record is kept. Returns whether it closed.

        Raises:
            DatabaseError: when it could not be stored (nothing changed).
        """
        async with self.lock:
            if self.data.status not in (OPEN, PLAYING) or self.people_connected():
                return False
            try:
                await self._close_locked(reason, idle_before)
            except ConflictError:
                return False
            return True

    async def _close_locked(self, reason: str, idle_before: datetime | None = None) -> None:
        for _ in range(TRIES):
            game = self.game
            record = None if game is None else self.table.record(game, reveal_all=True)
            try:
                await self.db.write(self.store.close, self.code, record, self.data.seq, reason, idle_before)
                break
            except StaleError:  # another process stored an action (or saw a person) meanwhile
                await self.catch_up()
                if self.data.status not in (OPEN, PLAYING) or idle_before is not None:
                    raise ConflictError(f"table {self.code} is {self.data.status} already", "table_closed") from None
        else:
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")
        self.data.status, self.data.record, self.data.close_reason = CLOSED, record, reason
        self.autoplay.schedule()
        self.tell.tell([], [])

    # ------------------------------------------------------------------------------ connections

    def has_visitors(self) -> bool:
        """Whether anyone (a person or a spectator) is connected to the table in this process."""
        return len(self.connections) > 0

    def people_connected(self) -> bool:
        """Whether a person (not a spectator) is connected to the table in this process."""
        return any(connection.seat is not None for connection in self.connections)

    async def attach(self, connection: Connection, seat: int | None) -> None:
        """Add a connection for ``seat`` (``None``: spectator): it gets ``welcome`` and the table's
        state; the others hear that the seat is connected."""
        async with self.lock:
            connection.seat = seat
            before = self.tell.connected()
            self.connections.add(connection)
            self.tell.welcome(connection, seat)
            if self.tell.connected() != before:
                self.tell.tell_table(skip=connection)

    def detach(self, connection: Connection) -> None:
        """Remove a connection; the others hear if its seat is no longer connected. (Not a
        coroutine, so that it runs to its end even when the connection's task is being cancelled.)"""
        if connection not in self.connections:
            return
        before = self.tell.connected()
        self.connections.remove(connection)
        if connection.seat is not None:
            self.tell.changed()
        if self.tell.connected() != before:
            self.tell.tell_table()
            if self.autoplay.holding:  # they no longer count among the showdown's readers
                task = asyncio.create_task(self._recheck(), name=f"recheck {self.code}")
                self._rechecks.add(task)
                task.add_done_callback(self._rechecks.discard)

    async def _recheck(self) -> None:
        """Schedule the bots and timer anew (someone left during the showdown's wait), telling
        everyone when the wait is over."""
        async with self.lock:
            if self.stopped or not self.autoplay.holding:
                return
            self.autoplay.schedule()
            if not self.autoplay.holding:
                self.tell.tell_table()

    async def showdown_closed(self, connection: Connection, number: object) -> None:
        """``connection``'s person has closed the showdown of round ``number``: answered
        ``showdown_closed``; when that was the last reader the bots and the timer go on, and
        everyone hears the TABLE (docs/server-protocol.md, "The showdown's pace"). A close of
        another round, a second close or one after the wait is over changes nothing.

        Raises:
            AuthError: for a spectator (``spectator``).
            InputError: for a round that is not a whole number (``bad_message``).
        """
        seat = connection.seat
        if seat is None:
            raise AuthError("spectators close no showdown: only the people at the table hold it up", "spectator")
        if isinstance(number, bool) or not isinstance(number, int):
            raise InputError(
                'a showdown_closed message needs "round": the number of the round that ended, e.g. 3', "bad_message"
            )
        async with self.lock:
            connection.put({"type": "showdown_closed", "round": number})
            if self.autoplay.close_showdown(seat, number):
                self.autoplay.schedule()
                self.tell.tell_table()

    async def back(self, connection: Connection) -> None:
        """``connection``'s person is back after the turn timer played for their seat: answered
        ``back``; the seat is no longer away (its turns wait for its person again) and everyone
        hears the TABLE. Nothing changes for a seat the timer has not played for.

        Raises:
            AuthError: for a spectator (``spectator``).
        """
        seat = connection.seat
        if seat is None:
            raise AuthError("spectators hold no seat: only a seat's person comes back to it", "spectator")
        async with self.lock:
            connection.put({"type": "back", "seat": seat})
            if self.autoplay.back(seat):
                self.autoplay.schedule()
                self.tell.tell_table()

    async def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the current state again (as last built for its seat: no work)."""
        if self.lock.locked():  # a change is being stored: send the state it leads to
            async with self.lock:
                pass
        connection.put_text(self.state_text(connection.seat))

    # ------------------------------------------------------------------------------ serving

    async def start(self) -> None:
        """Start what waits on a resumed table: a bot to move, or the turn timer."""
        async with self.lock:
            await self.seating.finish_on_the_deal()
            self.autoplay.schedule()

    async def stop(self) -> None:
        """Stop serving: cancel the bot or timer and close every connection (code 1012, restart)."""
        self.stopped = True
        await self.autoplay.stop()
        self.connections.close_all(1012)


def _action(game: Game, action: Action | str | int, notation: str | None = None) -> Action:
    """``action`` as an :class:`~thirtyone.actions.Action`: itself, its notation read, or its id
    (:func:`~thirtyone.action_ids.action_from_id`, for the seat to move in ``game``), which
    ``notation`` (sent beside it) must name too.

    Raises:
        InputError: for text that is not an action, a number that is not an action id, or a
            notation that names another action (``bad_action``).
    """
    if not isinstance(action, str | int):
        return action
    try:
        chosen = parse_action(action) if isinstance(action, str) else action_from_id(game, action)
        if notation is not None and parse_action(notation) != chosen:
            raise ActionError(f"action id {action} is {chosen!s} here, not {notation.strip()!r}: send one of them")
    except ActionError as error:
        raise InputError(str(error), "bad_action") from None
    return chosen
