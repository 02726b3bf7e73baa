"""A table's runner: the one authority over one table's game while the server serves it.

The runner holds the table as stored (:class:`~thirtyone.server.store.TableData`) and the engine's
:class:`~thirtyone.engine.Game` rebuilt from it — the stored first dealer and deals replayed
through :class:`~thirtyone.server.fair.CommittedChance`, then every stored action in order — so a
restarted server resumes every table exactly where it was. Everything that changes the table goes
through :meth:`TableRunner.act`, :meth:`TableRunner.join` and :meth:`TableRunner.close`, one at a
time (an :class:`asyncio.Lock`):

1. the engine checks the action (an illegal one raises, naming the rule, and changes nothing);
2. the action, with any deal it led to (dealt from the table's committed salt chain and the seats'
   seeds, :mod:`thirtyone.server.fair`), is written to the database in one transaction;
3. only then the sender gets ``ack`` and every connection its news: ``round_end`` (with the
   revealed deck and salt, unless they wait for the game's end after a 31, R5.7), ``deal`` (the
   next deal's commitment, before any card of it is shown), ``reveal`` at the game's end, and
   ``state`` with its own view.

If the write fails, the game is rebuilt from what is stored and the sender gets the error: nothing
changed. After every change the table's :class:`~thirtyone.server.autoplay.Autoplay` starts the
bot or turn timer that waits (after a round, once the people have closed its showdown:
:meth:`TableRunner.showdown_closed`; :meth:`TableRunner.back` after the timer played a seat).
What each seat is sent of the current state is serialized once and kept until the next change,
so that a ``sync`` costs almost nothing. What is said is built by
:mod:`thirtyone.server.messages`, and sent to the table's
:class:`~thirtyone.server.connections.Connections`.

On PostgreSQL several processes may serve one table (:mod:`thirtyone.server.cluster`): each keeps
such a runner; :meth:`TableRunner.sync` catches up with another process's writes, and only the
runner whose process holds the table's lease (:meth:`TableRunner.lead`) runs its bots and timer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from thirtyone.actions import parse_action
from thirtyone.bots import BOT_NAMES
from thirtyone.engine import Game
from thirtyone.errors import ActionError, IllegalActionError, SeedError, ThirtyOneError
from thirtyone.fairness import SaltChain, parse_seed
from thirtyone.rules import Rules
from thirtyone.server import chat, messages
from thirtyone.server.autoplay import BOT_LEVELS, Autoplay
from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connection, Connections, dumps
from thirtyone.server.database import Database
from thirtyone.server.errors import AuthError, ConflictError, InputError, RefusedError, ServerError, UnavailableError
from thirtyone.server.fair import ChainUsedUpError, CommittedChance, Deal
from thirtyone.server.limits import check_name, hash_token, new_token, token_matches, token_matches_hash
from thirtyone.server.names import check_display_name
from thirtyone.server.serialize import JSON, event_json, refusal_json, result_json, seats_json, view_json
from thirtyone.server.store import CLOSED, FINISHED, OPEN, PLAYING, ActionData, ChatData, StaleError, TableData
from thirtyone.server.workers import WorkerPool
from thirtyone.text import refusal_words

__all__ = ["TableRunner", "CHAT_KEPT"]

log = logging.getLogger("thirtyone.server")

_TRIES = 3
"""Attempts of a join or close whose stored table changed meanwhile (another process wrote it)."""
CHAT_KEPT = 100
"""Chat lines a table keeps at hand for a connection that opens (the database keeps them all)."""
_Start = tuple[tuple[int, list[Deal], list[str | None]], Game, CommittedChance]
"""A game about to start: (first dealer, first deals, the seats' seeds), its game and chance."""


class TableRunner:
    """One table, served: see the module docstring. Create it with :meth:`open`."""

    def __init__(self, data: TableData, db: Database, settings: ServerSettings, bots: WorkerPool | None = None) -> None:
        self.code = data.code
        self.db = db
        self.store = db.store
        self.settings = settings
        self.lock = asyncio.Lock()
        self.connections = Connections()
        self.stopped = False
        self.leased = not db.store.shared
        self.claim: Callable[[], None] | None = None
        self.data = data
        self.rules = Rules(**data.options)
        self.game: Game | None = None
        self.chance: CommittedChance | None = None
        self._chain: SaltChain | None = None
        self._texts: dict[int | None, str] = {}  # each seat's state message as sent, until the next change
        self._texts_deadline: float | None = None
        self._table_text: str | None = None  # the TABLE object as sent, until the next change
        self._seats_text: str | None = None  # the views' seats (public), until the next change
        self._results: dict[int | None, tuple[int, str]] = {}  # each seat's last result, serialized
        self._events: dict[int | None, tuple[int, list[str]]] = {}  # each seat's round history, serialized
        # a spectator's history message and the (seq, chat line) it was built at, until the next change
        self._watchers_history: tuple[tuple[int, int], str] | None = None
        self._rechecks: set[asyncio.Task[None]] = set()  # kept until done (the loop holds tasks weakly)
        self._rebuild()
        self.autoplay = Autoplay(self, settings, bots)
        self.chat_limits = chat.ChatLimits()
        self.chat_lines: list[ChatData] = []
        """The table's newest chat lines (at most :data:`CHAT_KEPT`), oldest first."""
        self.chat_seen = 0
        """The id of the newest chat line this process knows."""

    @classmethod
    async def open(
        cls, code: str, db: Database, settings: ServerSettings, bots: WorkerPool | None = None
    ) -> TableRunner | None:
        """The runner of the stored table ``code`` (``None`` when there is none), its game rebuilt;
        ``bots`` is the pool the ``medium`` and ``hard`` bots think on.

        Raises:
            DatabaseError: when the database cannot be read.
            ServerError: when the stored actions do not replay (a damaged database).
        """
        data = await db.read(db.store.load, code)
        if data is None:
            return None
        runner = cls(data, db, settings, bots)
        runner._remember_chat(await db.read(db.store.chat, code))
        new = runner.chance.take_new() if runner.chance is not None else []
        if new:  # a deal the database lacks (written by an older server): store it before anyone sees it
            await db.write(db.store.add_deals, code, new)
            data.deals.extend(new)
        return runner

    # ------------------------------------------------------------------------------ the game

    def _rebuild(self) -> None:
        """Replay the stored deals and actions into a new game (none before the table starts).

        Raises:
            ServerError: when a stored action does not replay (the database was damaged).
        """
        data = self.data
        self._texts.clear()
        self._events.clear()
        self._results.clear()
        if data.first_dealer is None:
            self.game, self.chance = None, None
            return
        chance = CommittedChance(
            data.first_dealer,
            {deal.round: deal for deal in data.deals},
            chain=self.salt_chain(),
            seeds=[seat.seed for seat in data.seats],
            randomness=self.settings.randomness,
        )
        try:
            game = Game(self.rules, data.players, chance=chance)
            for stored in data.actions:
                chance.seq = stored.seq
                game.apply(stored.action, seat=stored.seat)
        except ThirtyOneError as error:
            raise UnavailableError(f"table {self.code} cannot be resumed: {error}", "damaged") from None
        chance.seq = data.seq
        self.game, self.chance = game, chance

    def salt_chain(self) -> SaltChain | None:
        """The table's salt chain (``None`` for a table of an older server, whose deals commit one
        by one); its links are worked out when the first new deal needs them."""
        data = self.data
        if data.chain_key is None or data.chain_length is None:
            return None
        if self._chain is None or self._chain.key != data.chain_key:
            self._chain = SaltChain(data.chain_key, data.chain_length, commitment=data.commitment)
        return self._chain

    async def _reload(self) -> None:
        """Read the table again from the database (another writer changed it) and tell everyone."""
        data = await self.db.read(self.store.load, self.code)
        if data is None:  # pragma: no cover - tables are never deleted
            return
        self.data = data
        self._rebuild()
        self.autoplay.schedule()
        self._texts.clear()
        self.connections.put_by_seat(lambda seat: [self.state_text(seat)])

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
        news = await self.db.read(self.store.load, self.code, old.seq, last_round)
        if news is None:  # pragma: no cover - tables are never deleted
            return
        self._tell_chat(await self.db.read(self.store.chat, self.code, self.chat_seen))

        def shown(data: TableData) -> list[tuple[str | None, ...]]:
            return [(s.name, s.token_hash, s.kind, s.level, s.reserved_hash, s.seed) for s in data.seats]

        seats = shown(news) != shown(old)
        if news.seq == old.seq and news.status == old.status and not seats:
            if news.rematch != old.rematch:  # another process made this table's rematch
                old.rematch = news.rematch
                self._broadcast_rematch()
            return
        actions, deals = news.actions, news.deals
        final = (news.seq, news.status, news.winner, news.record)
        news.actions, news.deals = old.actions + actions, old.deals + deals
        self.data = news
        if game is None or chance is None:  # the game started (or the table closed before it did): replay it
            self._rebuild()
            ended = [log.round for log in self.game.round_logs if log.result is not None] if self.game else []
            self.autoplay.schedule()
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
                    raise UnavailableError(f"table {self.code}: action {stored.seq} dealt a deal that is not stored")
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
            self.autoplay.schedule()
            self._broadcast([], [])
            return
        changed = news.status != final[1]  # closed without an action
        news.seq, news.status, news.winner, news.record = final
        news.deals.extend(deal for deal in deals if deal not in news.deals)
        self.autoplay.schedule()
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
            self.autoplay.schedule()

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
            except ChainUsedUpError as error:  # practically never: the game is closed, its record kept
                chance.forget_new()
                self._rebuild()
                await self._close_locked("used_up")
                raise ConflictError(
                    f"table {self.code} is closed: {error}; the record of its game is kept", "table_closed"
                ) from None
            except ThirtyOneError as error:  # a damaged deal: nothing was dealt
                chance.forget_new()
                self._rebuild()
                raise UnavailableError(f"table {self.code}: {error}", "damaged") from None
            deals = chance.take_new()
            stored = ActionData(seq + 1, round_number, seat, str(action), source)
            finished = (game.winner if game.winner is not None else -1, self._record(game)) if game.is_over else None
            try:
                await self.db.append(self.code, stored, deals, finished)
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
                origin.put(messages.ack_message(stored))
            if source == "player":  # a person who moves has read the showdown before it
                self.autoplay.close_showdown(seat)
            ended = [log.round for log in game.round_logs[first:] if log.result is not None]
            self.autoplay.schedule()
            self._broadcast(ended, deals)
            return stored.seq

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
        own_seed = None if seed is None else _seed(seed)
        async with self.lock:
            for _ in range(_TRIES):
                try:
                    return await self._join(clean, seat, own_seed, claim)
                except StaleError:  # another process seated someone meanwhile: read the seats again
                    await self._reload()
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")

    async def _join(self, clean: str, seat: int | None, seed: str | None, claim: str | None) -> tuple[int, str]:
        """One attempt of :meth:`join` (under the lock). Raises StaleError when the stored seats changed."""
        data = self.data
        if self.stopped or data.status in (FINISHED, CLOSED):
            raise ConflictError(f"table {self.code} is {data.status}: nobody can join it", "table_closed")
        free = [s.seat for s in data.seats if s.kind == "human" and not s.taken]
        if claim is not None:
            kept = [s.seat for s in data.seats if s.seat in free and token_matches_hash(claim, s.reserved_hash)]
            if data.status != OPEN or not kept:
                raise ConflictError(f"no seat of table {self.code} is kept for you (any more)", "seat_taken")
            seat = kept[0]
        open_seats = [s for s in free if data.seats[s].reserved_hash is None]
        if claim is None and (data.status != OPEN or not free or (seat is None and not open_seats)):
            waiting = data.status == OPEN and bool(free)
            raise ConflictError(
                f"table {self.code} is full: every free seat is kept for a player of the last game"
                if waiting
                else f"table {self.code} is full: every seat is taken; watch it as a spectator",
                "table_full",
            )
        if seat is None:
            seat = open_seats[0]
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < data.players:
            raise InputError(f"seat {seat!r} is not a seat of table {self.code}: seats are 0-{data.players - 1}")
        elif seat not in free:
            what = "a bot's" if data.seats[seat].kind == "bot" else "taken"
            raise ConflictError(
                f"seat {seat} of table {self.code} is {what}; free seats: {', '.join(map(str, open_seats))}",
                "seat_taken",
            )
        elif claim is None and seat not in open_seats:
            raise ConflictError(
                f"seat {seat} of table {self.code} is kept for {data.seats[seat].name}, who played it in the last "
                f"game; free seats: {', '.join(map(str, open_seats)) or 'none'}",
                "seat_reserved",
            )
        clean = check_display_name(clean, [s.name for s in data.seats if s.seat != seat])
        token = new_token()
        token_hash = hash_token(token)
        start = self._starting(free, seat, seed)
        await self.db.write(self.store.join, self.code, seat, clean, token_hash, start[0] if start else None, seed)
        data.seats[seat].name = clean
        data.seats[seat].token_hash = token_hash
        data.seats[seat].reserved_hash = None
        data.seats[seat].seed = seed
        self._started(start)
        await self._finish_on_the_deal()
        return seat, token

    def _starting(self, free: list[int], seat: int, seed: str | None) -> _Start | None:
        """When ``seat`` (whose person gives ``seed``) is the last of the ``free`` human seats: the
        game that starts (its first dealer drawn, R3.1, and its first deal dealt from the table's
        salt chain and every seat's seed), not yet stored; else ``None``."""
        if free != [seat]:
            return None
        first_dealer = self.settings.randomness.first_dealer(self.data.players)  # R3.1
        seeds = [seed if s.seat == seat else s.seed for s in self.data.seats]
        chance = CommittedChance(
            first_dealer, {}, chain=self.salt_chain(), seeds=seeds, randomness=self.settings.randomness
        )
        game = Game(self.rules, self.data.players, chance=chance)
        return (first_dealer, chance.take_new(), seeds), game, chance

    def _started(self, start: _Start | None) -> None:
        """After a seat was stored: start the game of :meth:`_starting`, if any, and tell everyone."""
        if start is None:
            self.autoplay.schedule()
            self._broadcast_table()
            return
        (first_dealer, deals, _), game, chance = start
        self.data.status, self.data.first_dealer = PLAYING, first_dealer
        self.data.deals.extend(deals)
        self.game, self.chance = game, chance
        ended = [log.round for log in game.round_logs if log.result is not None]
        self.autoplay.schedule()
        self._broadcast_table()  # the new player's name first: a 31 on the deal (R5.2) names them
        self._broadcast(ended, deals)

    async def _finish_on_the_deal(self) -> None:
        """Finish the table, with its winner and record, when the first deal ended its game: a 31
        dealt in a game of one life (R5.2). No action ends that game, so none finishes the table
        as :meth:`act` does; a table left playing by a failed write is finished when resumed."""
        game = self.game
        if game is None or not game.is_over or self.data.status != PLAYING or self.data.seq != 0:
            return
        winner = game.winner if game.winner is not None else -1
        record = self._record(game)
        try:
            await self.db.write(self.store.finish_on_the_deal, self.code, winner, record)
        except StaleError:
            await self._reload()
            return
        except ServerError as error:  # the seat is taken all the same: finished when resumed
            log.warning("table %s: its game ended on the deal but could not be finished: %s", self.code, error)
            return
        self.data.status, self.data.winner, self.data.record = FINISHED, winner, record
        self._broadcast_table()

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
            if not token_matches(host_token, self.data.host_token_hash):
                raise AuthError(f"that is not the host token of table {self.code}; only its host can seat a bot")
            data = self.data
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < data.players:
                raise InputError(f"seat {seat!r} is not a seat of table {self.code}: seats are 0-{data.players - 1}")
            if level not in BOT_LEVELS:
                raise InputError(f"unknown bot level {level!r}: choose one of {', '.join(BOT_LEVELS)}")
            if self.stopped or data.status not in (OPEN, PLAYING):
                raise ConflictError(f"table {self.code} is {data.status}: its seats do not change", "table_closed")
            chosen = data.seats[seat]
            if chosen.kind == "bot":
                raise ConflictError(f"seat {seat} of table {self.code} is a bot's already", "seat_taken")
            if chosen.taken and self._connected()[seat]:
                raise ConflictError(
                    f"{chosen.name} is at the table (connected): only the seat of someone who left goes to a bot",
                    "seat_taken",
                )
            if not any(s.kind == "human" and s.seat != seat for s in data.seats):
                raise ConflictError("a table needs at least one person: this is its last human seat", "last_person")
            free = [s.seat for s in data.seats if s.kind == "human" and not s.taken]
            start = self._starting(free, seat, chosen.seed) if data.status == OPEN and not chosen.taken else None
            try:
                await self.db.write(
                    self.store.seat_bot, self.code, seat, level, chosen.token_hash, start[0] if start else None
                )
            except StaleError:
                await self._reload()
                raise ConflictError(f"seat {seat} of table {self.code} changed meanwhile; try again", "busy") from None
            chosen.kind, chosen.level, chosen.token_hash, chosen.reserved_hash = "bot", level, None, None
            if chosen.name is None:
                chosen.name = BOT_NAMES[seat]
            self._started(start)
            await self._finish_on_the_deal()

    async def link_rematch(self, code: str) -> None:
        """The table's rematch is table ``code`` (stored): tell everyone at this table."""
        async with self.lock:
            if self.data.rematch != code:
                self.data.rematch = code
                self._broadcast_rematch()

    def _broadcast_rematch(self) -> None:
        if self.data.rematch is not None:
            self.connections.put_all(messages.rematch_message(self.data))
        self._broadcast_table()

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
            self._tell_chat([line])

    def _remember_chat(self, lines: list[ChatData]) -> list[ChatData]:
        """Keep the chat ``lines`` this process did not know yet; returns them."""
        fresh = [line for line in lines if line.id > self.chat_seen]
        if fresh:
            self.chat_seen = fresh[-1].id
            self.chat_lines = (self.chat_lines + fresh)[-CHAT_KEPT:]
        return fresh

    def _tell_chat(self, lines: list[ChatData]) -> None:
        for line in self._remember_chat(lines):
            self.connections.put_all(messages.chat_message(line))

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
        clean = _seed(seed)
        async with self.lock:
            for _ in range(_TRIES):
                data = self.data
                if self.stopped or data.status != OPEN:
                    raise ConflictError(
                        f"table {self.code} is {data.status}: its seeds are fixed (they are sent before the game "
                        "starts, with the join or once seated)",
                        "seeds_fixed",
                    )
                if data.seats[seat].seed is not None:
                    raise ConflictError(
                        f"seat {seat} of table {self.code} has given its seed already; a seed is given once",
                        "seed_given",
                    )
                try:
                    given = await self.db.write(self.store.give_seed, self.code, seat, clean)
                except StaleError:  # the game started meanwhile (another process): read it again
                    await self._reload()
                    continue
                if not given:
                    await self._reload()
                    continue
                data.seats[seat].seed = clean
                self._broadcast_table()
                return clean
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")

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
            if self.data.status not in (OPEN, PLAYING) or self._people_here():
                return False
            try:
                await self._close_locked(reason, idle_before)
            except ConflictError:
                return False
            return True

    async def _close_locked(self, reason: str, idle_before: datetime | None = None) -> None:
        for _ in range(_TRIES):
            record = None if self.game is None else self._record(self.game, reveal_all=True)
            try:
                await self.db.write(self.store.close, self.code, record, self.data.seq, reason, idle_before)
                break
            except StaleError:  # another process stored an action (or saw a person) meanwhile
                await self._reload()
                if self.data.status not in (OPEN, PLAYING) or idle_before is not None:
                    raise ConflictError(f"table {self.code} is {self.data.status} already", "table_closed") from None
        else:
            raise ConflictError(f"table {self.code} changed too often meanwhile; try again", "busy")
        self.data.status, self.data.record, self.data.close_reason = CLOSED, record, reason
        self.autoplay.schedule()
        self._broadcast([], [])

    def _people_here(self) -> bool:
        """Whether a person (a seat's connection) is connected to the table in this process."""
        return any(connection.seat is not None for connection in self.connections)

    def has_visitors(self) -> bool:
        """Whether anyone (a person or a spectator) is connected to the table in this process."""
        return len(self.connections) > 0

    def people_connected(self) -> bool:
        """Whether a person (not a spectator) is connected to the table in this process."""
        return self._people_here()

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
            self.connections.add(connection)
            connection.put(messages.welcome_message(self.data, seat, self.settings))
            if seat is not None:  # who is connected changes; a spectator's coming is told with the next change
                self._texts.clear()
            connection.put_text(self.state_text(seat))
            if self._has_history():
                connection.put_text(self._history_text(seat))
            reveal = messages.reveal_message(self.game, self.data)
            if reveal is not None:  # the game is over: what waited for its end (R5.7)
                connection.put(reveal)
            if self._connected() != before:
                self._broadcast_table(skip=connection)

    def detach(self, connection: Connection) -> None:
        """Remove a connection; the others hear if its seat is no longer connected. (Not a
        coroutine, so that it runs to its end even when the connection's task is being cancelled.)"""
        if connection not in self.connections:
            return
        before = self._connected()
        self.connections.remove(connection)
        if connection.seat is not None:
            self._texts.clear()
        if self._connected() != before:
            self._broadcast_table()
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
                self._broadcast_table()

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
                self._broadcast_table()

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
                self._broadcast_table()

    async def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the current state again (as last built for its seat: no work)."""
        if self.lock.locked():  # a change is being stored: send the state it leads to
            async with self.lock:
                pass
        connection.put_text(self.state_text(connection.seat))

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), serialized; built once per
        change (each seat's connections and every ``sync`` share it)."""
        deadline = self.autoplay.deadline
        if deadline != self._texts_deadline:  # the turn timer was set anew without any change
            self._texts.clear()
            self._texts_deadline = deadline
        if not self._texts:
            self._table_text = self._seats_text = self._watchers_history = None
        text = self._texts.get(seat)
        if text is None:
            if self._table_text is None:
                self._table_text = dumps(self.table_json())
            last = self.data.actions[-1] if self.data.actions else None
            played = None if last is None else {"seq": last.seq, "seat": last.seat, "source": last.source}
            text = (
                f'{{"type":"state","seq":{self.data.seq},"table":{self._table_text},'
                f'"view":{self._view_text(seat)},"last":{dumps(played) if played else "null"}}}'
            )
            self._texts[seat] = text
        return text

    def _view_text(self, seat: int | None) -> str:
        """What ``seat`` sees (``messages.seat_view``), serialized: the view, and its round's
        history with each event serialized once (the history only grows within a round)."""
        game = self.game
        if game is None:
            return "null"
        view = game.public_view() if seat is None else game.view(seat)
        cached = self._events.get(seat)
        if cached is None or cached[0] != view.round or len(cached[1]) > len(view.history):
            cached = (view.round, [])
            self._events[seat] = cached
        texts = cached[1]
        for event in view.history[len(texts) :]:
            texts.append(dumps(event_json(event)))
        if self._seats_text is None:
            self._seats_text = dumps(seats_json(view))
        result = view.last_result
        number = 0 if result is None else result.round
        kept = self._results.get(seat)
        if kept is None or kept[0] != number:
            kept = self._results[seat] = (number, "null" if result is None else dumps(result_json(result)))
        head = dumps(view_json(view, history=False, shared=False))
        return f'{head[:-1]},"seats":{self._seats_text},"last_result":{kept[1]},"history":[{",".join(texts)}]}}'

    def _history_text(self, seat: int | None) -> str:
        """The ``history`` message for ``seat``, serialized; a spectator's is built once per change
        or chat line and shared, so that spectators coming again and again cost no more than their
        state, however long the game (a person's is built for each of their few connections)."""
        if seat is not None:
            return dumps(messages.history_message(self.game, self.data, seat, self.chat_lines))
        at = (self.data.seq, self.chat_seen)
        kept = self._watchers_history
        if kept is None or kept[0] != at:
            kept = self._watchers_history = (
                at,
                dumps(messages.history_message(self.game, self.data, None, self.chat_lines)),
            )
        return kept[1]

    def _has_history(self) -> bool:
        """Whether a connection that opens now needs ``history`` to see what one that was there all
        along saw: an earlier round, the game's end, a move the timer played, or chat."""
        game = self.game
        if self.chat_lines:
            return True
        if game is None:
            return False
        return len(game.round_logs) > 1 or game.is_over or any(a.source == "timer" for a in self.data.actions)

    def _connected(self) -> tuple[bool, ...]:
        return self.connections.connected(self.data.players)

    # ------------------------------------------------------------------------------ messages

    def table_json(self) -> JSON:
        """The table's public information (see docs/server-protocol.md, "table"), from what is stored."""
        return messages.table_json(
            self.data,  # what is stored only: never a change still being written
            self.rules,
            self.settings,
            self._connected(),
            self.connections.spectators(),
            self.autoplay.pace(),
        )

    async def public(self) -> tuple[JSON, JSON | None]:
        """The table's public information, and what a spectator sees of the game (``None`` before
        it starts)."""
        async with self.lock:
            return self.table_json(), messages.seat_view(self.game, None)

    def deals_json(self) -> JSON:
        """The table's fairness (scheme, commitment, seeds) and every round's deal: its
        commitment, and the deck and salt of each round that has ended (every round of a closed
        table) but those that wait for the game's end (R5.7, :func:`messages.withheld_rounds`)."""
        return messages.deals_json(self.data, messages.withheld_rounds(self.game, self.data))

    def tell_table(self) -> None:
        """Tell everyone the TABLE anew (the showdown's wait or the turn timer changed without an action)."""
        self._broadcast_table()

    def _broadcast_table(self, skip: Connection | None = None) -> None:
        self._texts.clear()
        self.connections.put_all(messages.table_message(self.table_json()), skip)

    def _broadcast(self, ended: list[int], deals: list[Deal]) -> None:
        """Tell every connection: each round that ended (revealed), each new deal (its commitment),
        in round order, then its own state."""
        game = self.game
        self._texts.clear()
        news = messages.round_news(game, ended, deals, self.data)
        self.connections.put_by_seat(
            lambda seat: [*map(dumps, messages.seat_news(news, game, seat)), self.state_text(seat)]
        )

    def _record(self, game: Game, reveal_all: bool = False) -> str:
        deals = {deal.round: deal for deal in self.data.deals}
        if self.chance is not None:
            deals.update(self.chance.deals)
        names = [self.name(s.seat) for s in self.data.seats]
        return messages.table_record(game, self.data, names, deals, reveal_all)

    # ------------------------------------------------------------------------------ serving

    async def start(self) -> None:
        """Start what waits on a resumed table: a bot to move, or the turn timer."""
        async with self.lock:
            await self._finish_on_the_deal()
            self.autoplay.schedule()

    async def stop(self) -> None:
        """Stop serving: cancel the bot or timer and close every connection (code 1012, restart)."""
        self.stopped = True
        await self.autoplay.stop()
        self.connections.close_all(1012)


def _seed(seed: object) -> str:
    """A client seed as stored (lowercase hex).

    Raises:
        InputError: for a seed that is not hex or base64 of 16–64 bytes (``bad_seed``).
    """
    try:
        return parse_seed(seed)
    except SeedError as error:
        raise InputError(f"seed: {error}", "bad_seed") from None
