"""A table's runner: the one authority over one table's game while the server serves it.

The runner holds the table as stored (:class:`~thirtyone.server.store.TableData`) and the engine's
:class:`~thirtyone.engine.Game` rebuilt from it — the stored first dealer and deals replayed
through :class:`~thirtyone.server.fair.CommittedChance`, then every stored action in order — so a
restarted server resumes every table exactly where it was. Everything that changes the table goes
through :meth:`TableRunner.act`, :meth:`TableRunner.join` and :meth:`TableRunner.close`, one at a
time (an :class:`asyncio.Lock`):

1. the engine checks the action (an illegal one raises, naming the rule, and changes nothing);
2. the action, with any deal it led to (drawn, salted and committed to), is written to the
   database in one transaction;
3. only then the sender gets ``ack`` and every connection its news: ``round_end`` (with the
   revealed deck and salt), ``deal`` (the next deal's commitment, before any card of it is shown),
   and ``state`` with its own view.

If the write fails, the game is rebuilt from what is stored and the sender gets the error: nothing
changed. Bots play server-side after ``bot_delay`` seconds a turn; with a turn timer, a person who
has not acted in time gets a legal default played for them (the ``basic`` bot's choice, which the
engine checks like any other action: never the card just taken from the pile, R4.2).

On PostgreSQL several processes may serve one table (:mod:`thirtyone.server.cluster`): each keeps
such a runner; :meth:`TableRunner.sync` catches up with another process's writes, and only the
runner whose process holds the table's lease (:meth:`TableRunner.lead`) runs its bots and timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from thirtyone.actions import Action, parse_action
from thirtyone.bots import Bot, make_bot
from thirtyone.bots.basic import BasicBot
from thirtyone.engine import Game
from thirtyone.errors import ActionError, IllegalActionError, ThirtyOneError
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.server.config import ServerSettings
from thirtyone.server.errors import AuthError, ConflictError, DatabaseError, InputError, RefusedError, ServerError
from thirtyone.server.fair import CommittedChance, Deal
from thirtyone.server.limits import check_name, hash_token, new_token, token_matches
from thirtyone.server.serialize import JSON, event_json, refusal_json, result_json, spectator_view_json, view_json
from thirtyone.server.store import CLOSED, FINISHED, OPEN, PLAYING, ActionData, StaleError, Store, TableData
from thirtyone.text import refusal_words
from thirtyone.views import Phase, PlayerView

__all__ = [
    "Connection",
    "TableRunner",
    "run_db",
    "warm_up_simulator",
    "default_action",
    "BOT_LEVELS",
    "BOT_NAMES",
    "HARD_SECONDS",
    "RETRY_SECONDS",
    "TIMER_FOLLOW_UP",
]

log = logging.getLogger("thirtyone.server")

HARD_SECONDS = 0.4
"""Seconds the ``hard`` bot (the expert) searches a move."""
BOT_LEVELS = {"easy": "basic", "medium": "heuristic", "hard": f"expert:{HARD_SECONDS:g}s", "random": "random"}
"""Bot levels a seat may have, and the bot that plays each (:func:`thirtyone.bots.make_bot`)."""
BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy")
"""Bots' display names, by seat."""
TIMER_FOLLOW_UP = 1.0
"""Seconds the turn timer waits for the rest of a turn it has begun for an absent player (after
drawing for them, the discard), instead of a whole turn timer again."""
RETRY_SECONDS = 2.0
"""After a failed database write, seconds before a bot or the turn timer tries again."""
_TRIES = 3
"""Attempts of a join or close whose stored table changed meanwhile (another process wrote it)."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


async def run_db(function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run a :class:`~thirtyone.server.store.Store` method on a worker thread.

    Raises:
        DatabaseError: when the database cannot be reached or written (nothing was changed).
        StaleError: as the method raises it.
    """
    try:
        return await asyncio.to_thread(function, *args, **kwargs)
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()
        log.warning("database error: %s", reason[0] if reason else type(error).__name__)
        raise DatabaseError(
            f"the database is unavailable ({reason[0] if reason else type(error).__name__}); nothing was changed, "
            "try again"
        ) from None


def default_action(view: PlayerView) -> Action:
    """The action the turn timer plays for an absent player: the ``basic`` bot's choice, which is one
    of ``view.legal_actions`` (so never the card just taken from the pile, R4.2).

    Raises:
        ConflictError: when the view's seat has no move.
    """
    legal = view.legal_actions
    if not legal:
        raise ConflictError(f"seat {view.seat} has no move now", code="not_your_turn")
    choice = BasicBot(0).choose(view, legal)
    return choice if choice in legal else legal[0]


_warming = threading.Lock()
_warmed = False


def warm_up_simulator() -> None:
    """Once per process, in the background: load the compiled simulator's kernels (compile them,
    the first time after installing: up to half a minute), on which the ``hard`` bot's search plays
    its rollouts, so that its first move does not wait for them. Called when a table with a hard
    bot is opened; without numba there is nothing to load."""
    global _warmed
    with _warming:
        if _warmed:
            return
        _warmed = True
    threading.Thread(target=_load_kernels, name="thirtyone-warm-up", daemon=True).start()


def _load_kernels() -> None:
    from thirtyone import sim

    if not sim.available():
        return
    try:
        from thirtyone.sim.api import warm_up

        warm_up()
    except Exception:  # the expert falls back to the engine's rollouts; the server goes on
        log.exception("the compiled simulator could not be loaded")


class Connection:
    """One WebSocket client of a table: its ``seat`` (``None`` for a spectator) and a queue of
    messages waiting to be sent, written by :meth:`run` so that a slow client never holds up the
    others. A client that lets more than ``queue_size`` messages pile up is disconnected.

    ``send`` sends one text message; ``close`` closes the socket with a WebSocket close code.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        queue_size: int = 256,
    ) -> None:
        self.seat: int | None = None
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | int] = asyncio.Queue(queue_size + 1)
        self._limit = queue_size
        self.closing = False
        self.sent: int = 0

    def put(self, message: JSON) -> None:
        """Queue ``message`` (a JSON object) for sending; drops the client if it is too far behind."""
        if self.closing:
            return
        if self._queue.qsize() >= self._limit:
            log.info("a client fell %d messages behind; disconnecting it", self._limit)
            self.close(1008)
            return
        self._queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close with ``code``; nothing more is queued after this."""
        if not self.closing:
            self.closing = True
            self._queue.put_nowait(code)

    async def run(self) -> None:
        """Send queued messages until :meth:`close`, then close the socket (errors end it quietly)."""
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await self._close(item)
                    return
                await self._send(item)
                self.sent += 1
        except Exception:  # the client went away; the reader side notices and detaches it
            self.closing = True


class TableRunner:
    """One table, served: see the module docstring. Create it with :meth:`open`."""

    def __init__(self, data: TableData, store: Store, settings: ServerSettings) -> None:
        self.code = data.code
        self.store = store
        self.settings = settings
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.deadline: float | None = None
        self.stopped = False
        self._task: asyncio.Task[None] | None = None
        self._bots: dict[int, Bot] = {}
        self.leased = not store.shared
        self.claim: Callable[[], None] | None = None
        self.data = data
        self.rules = Rules(**data.options)
        self.game: Game | None = None
        self.chance: CommittedChance | None = None
        self._rebuild()
        if any(seat.level == "hard" for seat in data.seats) and data.status in (OPEN, PLAYING):
            warm_up_simulator()

    @classmethod
    async def open(cls, code: str, store: Store, settings: ServerSettings) -> TableRunner | None:
        """The runner of the stored table ``code`` (``None`` when there is none), its game rebuilt.

        Raises:
            DatabaseError: when the database cannot be read.
            ServerError: when the stored actions do not replay (a damaged database).
        """
        data = await run_db(store.load, code)
        if data is None:
            return None
        runner = cls(data, store, settings)
        new = runner.chance.take_new() if runner.chance is not None else []
        if new:  # a deal the database lacks (written by an older server): store it before anyone sees it
            await run_db(store.add_deals, code, new)
            data.deals.extend(new)
        return runner

    # ------------------------------------------------------------------------------ the game

    def _rebuild(self) -> None:
        """Replay the stored deals and actions into a new game (none before the table starts).

        Raises:
            ServerError: when a stored action does not replay (the database was damaged).
        """
        data = self.data
        if data.first_dealer is None:
            self.game, self.chance = None, None
            return
        chance = CommittedChance(data.first_dealer, {deal.round: deal for deal in data.deals})
        try:
            game = Game(self.rules, data.players, chance=chance)
            for stored in data.actions:
                chance.seq = stored.seq
                game.apply(stored.action, seat=stored.seat)
        except ThirtyOneError as error:
            raise ServerError(f"table {self.code} cannot be resumed: {error}", code="damaged") from None
        chance.seq = data.seq
        self.game, self.chance = game, chance

    async def _reload(self) -> None:
        """Read the table again from the database (another writer changed it) and tell everyone."""
        data = await run_db(self.store.load, self.code)
        if data is None:  # pragma: no cover - tables are never deleted
            return
        self.data = data
        self._rebuild()
        self._schedule()
        table = self.table_json()
        for connection in self.connections:
            connection.put(self._state(connection, table))

    async def sync(self) -> None:
        """Catch up with what another process stored (it notified a change): read only the new
        actions and deals, apply them to the game, and tell every connection just as the writer
        told its own (``round_end``, ``deal``, ``state``; ``table`` for a join that did not start
        the game). Nothing happens when nothing changed.

        Raises:
            DatabaseError: when the database cannot be read (the game is as it was).
            ServerError: when the stored actions do not replay (a damaged database).
        """
        async with self.lock:
            if not self.stopped:
                await self._catch_up()

    async def _catch_up(self) -> None:
        old, game, chance = self.data, self.game, self.chance
        last_round = old.deals[-1].round if old.deals else 0
        news = await run_db(self.store.load, self.code, old.seq, last_round)
        if news is None:  # pragma: no cover - tables are never deleted
            return
        seats = [(s.name, s.token_hash) for s in news.seats] != [(s.name, s.token_hash) for s in old.seats]
        if news.seq == old.seq and news.status == old.status and not seats:
            return
        actions, deals = news.actions, news.deals
        final = (news.seq, news.status, news.winner, news.record)
        news.actions, news.deals = old.actions + actions, old.deals + deals
        self.data = news
        if game is None or chance is None:  # the game started (or the table closed before it did): replay it
            self._rebuild()
            ended = [log.round for log in self.game.round_logs if log.result is not None] if self.game else []
            self._schedule()
            if news.status != old.status:
                self._broadcast_table()
                self._broadcast(ended, deals)
            else:
                self._broadcast_table()
            return
        # one action at a time, each told as its writer told it, so every process's clients see the same states
        news.actions, news.deals = list(old.actions), list(old.deals)
        news.seq, news.status, news.winner, news.record = old.seq, old.status, old.winner, old.record
        try:
            for stored in actions:
                step = [deal for deal in deals if deal.seq == stored.seq]
                chance.deals.update({deal.round: deal for deal in step})
                chance.seq = stored.seq
                first = len(game.round_logs) - 1
                game.apply(stored.action, seat=stored.seat)
                if chance.take_new():
                    raise ServerError(f"table {self.code}: action {stored.seq} dealt a deal that is not stored")
                news.actions.append(stored)
                news.deals.extend(step)
                news.seq = stored.seq
                if stored.seq == final[0]:
                    news.status, news.winner, news.record = final[1:]
                self._broadcast([log.round for log in game.round_logs[first:] if log.result is not None], step)
        except (ThirtyOneError, ServerError) as error:
            log.error("table %s: %s; replaying it from the database", self.code, error)
            news.actions, news.deals = old.actions + actions, old.deals + deals
            news.seq, news.status, news.winner, news.record = final
            self._rebuild()  # raises ServerError when the stored actions do not replay at all
            self._schedule()
            self._broadcast([], [])
            return
        changed = news.status != final[1]  # closed without an action
        news.seq, news.status, news.winner, news.record = final
        news.deals.extend(deal for deal in deals if deal not in news.deals)
        self._schedule()
        if changed:
            self._broadcast([], [])
        elif not actions:
            self._broadcast_table()

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
                await self._catch_up()
            self.leased = held
            self._schedule()

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.data.seats[seat].level or "easy"
            bot = make_bot(BOT_LEVELS.get(level, "basic"), secrets.randbits(64))
            self._bots[seat] = bot
        return bot

    def who(self, seat: int) -> str:
        """A seat in words: ``"Ann (seat 0)"``."""
        name = self.data.seats[seat].name
        return f"{name} (seat {seat})" if name else f"seat {seat}"

    def name(self, seat: int) -> str:
        """A seat's display name (a bot's is its table name)."""
        return self.data.seats[seat].name or BOT_NAMES[seat]

    # ------------------------------------------------------------------------------ changes

    async def act(
        self, seat: int, text: str, seq: int, source: str = "player", origin: Connection | None = None
    ) -> int:
        """Play ``text`` (an action's notation) for ``seat``, which last saw ``seq``; returns the new seq.

        The action is stored before anyone hears of it; ``origin`` (the sender's connection) gets
        ``ack`` first, then every connection its news and state.

        Raises:
            ConflictError: the table is not playing (``not_playing``), ``seq`` is not the table's
                (``stale``), it is not ``seat``'s turn (``not_your_turn``, R2.1), or the rules forbid
                the action (``illegal_action``; the message starts with the rule id).
            InputError: for text that is not an action (``bad_action``).
            DatabaseError: when it could not be stored (the game is as it was).
        """
        async with self.lock:
            game, chance = self.game, self.chance
            if self.stopped or self.data.status != PLAYING or game is None or chance is None:
                raise ConflictError(f"table {self.code} is {self.data.status}: no game is being played", "not_playing")
            if seq != self.data.seq:
                raise ConflictError(
                    f"stale: you sent seq {seq}, but table {self.code} is at seq {self.data.seq}; "
                    "here is the current state",
                    "stale",
                )
            try:
                action = parse_action(text)
            except ActionError as error:
                raise InputError(str(error), "bad_action") from None
            first = len(game.round_logs) - 1
            round_number = game.round
            chance.seq = seq + 1
            try:
                game.apply(action, seat=seat)
            except IllegalActionError as error:  # not this seat's turn (R2.1), or the rules forbid it
                code = "not_your_turn" if error.code == "not_your_turn" else "illegal_action"
                raise RefusedError(refusal_words(error, self.name), code, refusal_json(error)) from None
            except ThirtyOneError as error:  # a damaged deal: nothing was dealt
                chance.forget_new()
                self._rebuild()
                raise ServerError(f"table {self.code}: {error}", "damaged") from None
            deals = chance.take_new()
            stored = ActionData(seq + 1, round_number, seat, str(action), source)
            finished = (game.winner if game.winner is not None else -1, self._record(game)) if game.is_over else None
            try:
                await run_db(self.store.append, self.code, stored, deals, finished)
            except StaleError:
                await self._reload()
                raise ConflictError(
                    f"stale: table {self.code} moved on meanwhile (now seq {self.data.seq}); here is the current state",
                    "stale",
                ) from None
            except BaseException:  # a database error, or cancelled while writing: back to what is stored
                self._rebuild()
                raise
            self.data.actions.append(stored)
            self.data.deals.extend(deals)
            self.data.seq = stored.seq
            if finished is not None:
                self.data.status, self.data.winner, self.data.record = FINISHED, finished[0], finished[1]
            if origin is not None:
                origin.put({"type": "ack", "seq": stored.seq, "action": stored.action})
            ended = [log.round for log in game.round_logs[first:] if log.result is not None]
            self._schedule()
            self._broadcast(ended, deals)
            return stored.seq

    async def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Seat ``name`` (1–20 printable characters) at a free human seat (``seat``, or the first
        free one); returns the seat and its new token. When the last human seat is taken the game
        starts: the first dealer is drawn and the first deal committed to, in the same transaction.

        Raises:
            InputError: for a bad name or seat number, or a name already at the table.
            ConflictError: the table is full (``table_full``) or closed (``table_closed``), or that
                seat is a bot's or taken (``seat_taken``).
            DatabaseError: when it could not be stored (nothing changed).
        """
        clean = check_name(name)
        async with self.lock:
            for _ in range(_TRIES):
                try:
                    return await self._join(clean, seat)
                except StaleError:  # another process seated someone meanwhile: read the seats again
                    await self._reload()
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")

    async def _join(self, clean: str, seat: int | None) -> tuple[int, str]:
        """One attempt of :meth:`join` (under the lock). Raises StaleError when the stored seats changed."""
        data = self.data
        if self.stopped or data.status in (FINISHED, CLOSED):
            raise ConflictError(f"table {self.code} is {data.status}: nobody can join it", "table_closed")
        free = [s.seat for s in data.seats if s.kind == "human" and not s.taken]
        if data.status != OPEN or not free:
            raise ConflictError(
                f"table {self.code} is full: every seat is taken; watch it as a spectator", "table_full"
            )
        if seat is None:
            seat = free[0]
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < data.players:
            raise InputError(f"seat {seat!r} is not a seat of table {self.code}: seats are 0-{data.players - 1}")
        elif seat not in free:
            what = "a bot's" if data.seats[seat].kind == "bot" else "taken"
            raise ConflictError(
                f"seat {seat} of table {self.code} is {what}; free seats: {', '.join(map(str, free))}",
                "seat_taken",
            )
        if any(s.name is not None and s.name.casefold() == clean.casefold() for s in data.seats):
            raise InputError(f"the name {clean!r} is taken at table {self.code}; choose another", "name_taken")
        token = new_token()
        token_hash = hash_token(token)
        start: tuple[int, list[Deal]] | None = None
        game: Game | None = None
        chance: CommittedChance | None = None
        if free == [seat]:
            first_dealer = secrets.SystemRandom().randrange(data.players)  # R3.1
            chance = CommittedChance(first_dealer, {})
            game = Game(self.rules, data.players, chance=chance)
            start = (first_dealer, chance.take_new())
        await run_db(self.store.join, self.code, seat, clean, token_hash, start)
        data.seats[seat].name = clean
        data.seats[seat].token_hash = token_hash
        if start is not None:
            data.status, data.first_dealer = PLAYING, start[0]
            data.deals.extend(start[1])
            self.game, self.chance = game, chance
            ended = [log.round for log in game.round_logs if log.result is not None] if game else []
            self._schedule()
            self._broadcast_table()  # the new player's name first: a 31 on the deal (R5.2) names them
            self._broadcast(ended, start[1])
        else:
            self._broadcast_table()
        return seat, token

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
            for _ in range(_TRIES):
                record = None if self.game is None else self._record(self.game, reveal_all=True)
                try:
                    await run_db(self.store.close, self.code, record, self.data.seq)
                    break
                except StaleError:  # another process stored an action meanwhile: record the game as it is
                    await self._reload()
                    if self.data.status not in (OPEN, PLAYING):
                        raise ConflictError(
                            f"table {self.code} is {self.data.status} already", "table_closed"
                        ) from None
            else:
                raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")
            self.data.status, self.data.record = CLOSED, record
            self._schedule()
            self._broadcast([], [])

    # ------------------------------------------------------------------------------ connections

    def authenticate(self, token: str | None) -> int | None:
        """The seat ``token`` opens (each seat's stored hash compared in constant time), or ``None``
        for no token (a spectator).

        Raises:
            AuthError: for a token that opens no seat of this table.
        """
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise AuthError(f"that token opens no seat of table {self.code}")
        found: int | None = None
        for seat in self.data.seats:
            if token_matches(token, seat.token_hash) and found is None:
                found = seat.seat
        if found is None:
            raise AuthError(f"that token opens no seat of table {self.code}")
        return found

    async def attach(self, connection: Connection, seat: int | None) -> None:
        """Add a connection for ``seat`` (``None``: spectator): it gets ``welcome`` and the table's
        state; the others hear that the seat is connected."""
        async with self.lock:
            connection.seat = seat
            before = self._connected()
            self.connections.append(connection)
            connection.put(
                {
                    "type": "welcome",
                    "table": self.code,
                    "seat": seat,
                    "name": None if seat is None else self.data.seats[seat].name,
                    "role": "spectator" if seat is None else "player",
                    "limits": {
                        "max_message_bytes": self.settings.max_message_bytes,
                        "messages_per_second": self.settings.messages_per_second,
                        "message_burst": self.settings.message_burst,
                    },
                }
            )
            table = self.table_json()
            connection.put(self._state(connection, table))
            if self._connected() != before:
                self._broadcast_table(skip=connection)

    def detach(self, connection: Connection) -> None:
        """Remove a connection; the others hear if its seat is no longer connected. (Not a
        coroutine, so that it runs to its end even when the connection's task is being cancelled.)"""
        if connection not in self.connections:
            return
        before = self._connected()
        self.connections.remove(connection)
        if self._connected() != before:
            self._broadcast_table()

    async def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the current state again."""
        async with self.lock:
            connection.put(self._state(connection, self.table_json()))

    def _connected(self) -> tuple[bool, ...]:
        seats = {connection.seat for connection in self.connections}
        return tuple(seat in seats for seat in range(self.data.players))

    # ------------------------------------------------------------------------------ messages

    def table_json(self) -> JSON:
        """The table's public information (see docs/server-protocol.md, "table"), from what is stored."""
        data = self.data  # what is stored only: never a change still being written
        connected = self._connected()
        commitment = data.deals[-1].commitment if data.status == PLAYING and data.deals else None
        return {
            "code": data.code,
            "status": data.status,
            "preset": data.preset,
            "describe": self.rules.describe(),
            "rules": dict(data.options),
            "players": data.players,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "taken": s.taken,
                    "connected": s.kind == "bot" or connected[s.seat],
                }
                for s in data.seats
            ],
            "spectators": sum(1 for connection in self.connections if connection.seat is None),
            "seq": data.seq,
            "round": data.deals[-1].round if data.deals else 0,
            "commitment": commitment,
            "turn_timer": self.settings.turn_timer,
            "turn_deadline": self.deadline,
            "bot_delay": self.settings.bot_delay,
            "winner": data.winner if data.status == FINISHED else None,
            "created_at": data.created_at.isoformat(),
            "share_path": f"/t/{data.code}",
            "record_path": f"/api/tables/{data.code}/record" if data.record is not None else None,
        }

    async def public(self) -> tuple[JSON, JSON | None]:
        """The table's public information, and what a spectator sees of the game (``None`` before
        it starts)."""
        async with self.lock:
            return self.table_json(), None if self.game is None else spectator_view_json(self.game)

    def _state(self, connection: Connection, table: JSON, views: dict[int | None, JSON | None] | None = None) -> JSON:
        seat = connection.seat
        if views is not None and seat in views:
            view = views[seat]
        else:
            view = self._view(seat)
            if views is not None:
                views[seat] = view
        last = self.data.actions[-1] if self.data.actions else None
        played = None if last is None else {"seq": last.seq, "seat": last.seat, "source": last.source}
        return {"type": "state", "seq": self.data.seq, "table": table, "view": view, "last": played}

    def _view(self, seat: int | None) -> JSON | None:
        game = self.game
        if game is None:
            return None
        return spectator_view_json(game) if seat is None else view_json(game.view(seat))

    def _broadcast_table(self, skip: Connection | None = None) -> None:
        message = {"type": "table", "table": self.table_json()}
        for connection in self.connections:
            if connection is not skip:
                connection.put(message)

    def _broadcast(self, ended: list[int], deals: list[Deal]) -> None:
        """Tell every connection: each round that ended (revealed), each new deal (its commitment),
        in round order, then its own state."""
        news: list[JSON] = []
        new = {deal.round: deal for deal in deals}
        stored = {deal.round: deal for deal in self.data.deals}
        game = self.game
        for number in sorted(set(ended) | set(new)):
            if number in new:
                deal = new[number]
                news.append({"type": "deal", "round": number, "commitment": deal.commitment, "seq": deal.seq})
            if number in ended and game is not None:
                result = game.round_logs[number - 1].result
                deal = stored[number]
                news.append(
                    {
                        "type": "round_end",
                        "round": number,
                        "result": None if result is None else result_json(result.public()),
                        "deck": " ".join(map(str, deal.deck)),
                        "salt": deal.salt,
                        "commitment": deal.commitment,
                    }
                )
        table = self.table_json()
        views: dict[int | None, JSON | None] = {}
        histories: dict[tuple[int, int | None], list[JSON]] = {}
        for connection in self.connections:
            for message in news:
                if message["type"] == "round_end":
                    key = (message["round"], connection.seat)
                    if key not in histories:
                        histories[key] = self._round_history(*key)
                    message = {**message, "history": histories[key]}
                connection.put(message)
            connection.put(self._state(connection, table, views))

    def _round_history(self, number: int, seat: int | None) -> list[JSON]:
        """Round ``number``'s events as ``seat`` saw them (``None``: a spectator), its last move
        included: the next state is already the next round's."""
        game = self.game
        if game is None:  # pragma: no cover - a round ended, so there is a game
            return []
        return [event_json(event.for_seat(-1 if seat is None else seat)) for event in game.round_events(number)]

    # ------------------------------------------------------------------------------ records

    def _record(self, game: Game, reveal_all: bool = False) -> str:
        names = [s.name or BOT_NAMES[s.seat] for s in self.data.seats]
        record = GameRecord.from_game(
            game,
            names,
            event=f"thirtyone serve, table {self.code}",
            date=self.data.created_at.date().isoformat(),
        )
        deals = {deal.round: deal for deal in self.data.deals}
        if self.chance is not None:
            deals.update(self.chance.deals)
        rounds = []
        for rnd in record.rounds:
            deal = deals.get(rnd.round)
            if deal is None:  # pragma: no cover - every round's deal is stored
                rounds.append(rnd)
                continue
            revealed = reveal_all or rnd.result is not None
            rounds.append(dataclasses.replace(rnd, commitment=deal.commitment, salt=deal.salt if revealed else None))
        return dataclasses.replace(record, rounds=tuple(rounds)).dumps()

    def deals_json(self) -> list[JSON]:
        """Every round's commitment; the deck and salt of each round that has ended (every round
        of a closed table)."""
        data = self.data  # what is stored: a round has ended when the next is dealt or the game is over
        last = data.deals[-1].round if data.deals else 0
        out: list[JSON] = []
        for deal in data.deals:
            ended = data.status in (FINISHED, CLOSED) or deal.round < last
            out.append(
                {
                    "round": deal.round,
                    "commitment": deal.commitment,
                    "seq": deal.seq,
                    "revealed": ended,
                    "deck": " ".join(map(str, deal.deck)) if ended else None,
                    "salt": deal.salt if ended else None,
                }
            )
        return out

    # ------------------------------------------------------------------------------ bots and the timer

    def _schedule(self) -> None:
        """After each change: cancel the waiting bot or timer, and start the next one if a bot is to
        move (after ``bot_delay``) or a person is and the turn timer is on."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        self.deadline = None
        game = self.game
        if self.stopped or self.data.status != PLAYING or game is None or game.is_over:
            return
        seat = game.current_seat
        assert seat is not None
        seq = self.data.seq
        automatic = self.data.seats[seat].kind == "bot" or self.settings.turn_timer is not None
        if automatic and not self.leased:  # another process runs this table's bots and timer, or will
            if self.claim is not None:
                self.claim()
            return
        if self.data.seats[seat].kind == "bot":
            self._task = asyncio.create_task(self._bot_turn(seat, seq), name=f"bot {self.code}/{seat}")
        elif self.settings.turn_timer is not None:
            seconds = self.settings.turn_timer
            last = self.data.actions[-1] if self.data.actions else None
            if last is not None and last.source == "timer" and last.seat == seat:
                seconds = min(seconds, TIMER_FOLLOW_UP)  # the same absent player's turn goes on: finish it
            self.deadline = round(time.time() + seconds, 3)
            self._task = asyncio.create_task(self._timer(seat, seq, seconds), name=f"timer {self.code}/{seat}")

    async def start(self) -> None:
        """Start what waits on a resumed table: a bot to move, or the turn timer."""
        async with self.lock:
            self._schedule()

    async def _bot_turn(self, seat: int, seq: int) -> None:
        game = self.game
        if game is None:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.0 if game.phase is Phase.DISCARD else self.settings.bot_delay  # a turn shows at once
        view = game.view(seat)
        legal = view.legal_actions
        try:
            bot = self._bot(seat)
            if self.data.seats[seat].level in ("medium", "hard"):
                action = await asyncio.to_thread(bot.choose, view, legal)
            else:
                action = bot.choose(view, legal)
            if action not in legal:
                raise ValueError(f"the bot chose {action}, which is not legal")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot of seat %d failed; it plays a default", self.code, seat)
            action = default_action(view)
        rest = delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        await self._play_for(seat, seq, action, "bot")

    async def _timer(self, seat: int, seq: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        game = self.game
        if game is None or self.data.seq != seq:
            return
        await self._play_for(seat, seq, default_action(game.view(seat)), "timer")

    async def _play_for(self, seat: int, seq: int, action: Action, source: str) -> None:
        try:
            stored = await self.act(seat, str(action), seq, source)
            log.debug("table %s: the %s of seat %d played %s as seq %d", self.code, source, seat, action, stored)
        except DatabaseError:
            await asyncio.sleep(RETRY_SECONDS)
            async with self.lock:
                if self.data.seq == seq and (self._task is None or self._task is asyncio.current_task()):
                    self._schedule()
        except ServerError as error:  # stale: someone acted first; the new state scheduled what follows
            log.debug("table %s: %s's %s was not played: %s", self.code, source, action, error)

    async def stop(self) -> None:
        """Stop serving: cancel the bot or timer and close every connection (code 1012, restart)."""
        self.stopped = True
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connection in list(self.connections):
            connection.close(1012)
