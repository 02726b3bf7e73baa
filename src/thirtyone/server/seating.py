"""A table's seats: who holds which (tokens, checked in constant time), joining with a display
name and a client seed, a seed given once seated, a seat given to a bot, and the game's start
when the last human seat is taken — its first dealer drawn (R3.1) and its first deal dealt from
the table's salt chain and every seat's seed, stored with the seat in one transaction.

:class:`Seating` works for its :class:`~thirtyone.server.runner.TableRunner`, under the runner's
lock: each change is stored before the table changes, and a stored table that changed meanwhile
(another process seated someone) is read again and the change tried anew.
"""

from __future__ import annotations

import logging
from typing import Protocol

from thirtyone.bots import BOT_NAMES
from thirtyone.engine import Game
from thirtyone.errors import SeedError
from thirtyone.fairness import parse_seed
from thirtyone.server.autoplay import BOT_LEVELS
from thirtyone.server.autoplay import Autoplay
from thirtyone.server.broadcast import Broadcaster
from thirtyone.server.config import ServerSettings
from thirtyone.server.db_store import Store
from thirtyone.server.db_threads import Database
from thirtyone.server.errors import AuthError
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import InputError
from thirtyone.server.errors import ServerError
from thirtyone.server.fair import Deal
from thirtyone.server.limits import hash_token
from thirtyone.server.limits import new_token
from thirtyone.server.limits import token_matches
from thirtyone.server.limits import token_matches_hash
from thirtyone.server.names import check_display_name
from thirtyone.server.rows import CLOSED
from thirtyone.server.rows import FINISHED
from thirtyone.server.rows import OPEN
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import StaleError
from thirtyone.server.rows import TableData
from thirtyone.server.table import Move
from thirtyone.server.table import Table

__all__ = ["Seating", "SeatingTable", "TRIES", "parse_client_seed"]

log = logging.getLogger("thirtyone.server")

TRIES = 3
"""Attempts of a join or seed whose stored table changed meanwhile (another process wrote it)."""

_Start = tuple[int, list[str | None], Move]
"""A game about to start: its first dealer, the seats' seeds, and the move that deals it."""


def parse_client_seed(seed: object) -> str:
    """A client seed as stored (lowercase hex).

    Raises:
        InputError: for a seed that is not hex or base64 of 16–64 bytes (``bad_seed``).
    """
    try:
        return parse_seed(seed)
    except SeedError as error:
        raise InputError(f"seed: {error}", "bad_seed") from None


class SeatingTable(Protocol):
    """What :class:`Seating` reads and calls of its table (:class:`~thirtyone.server.runner.TableRunner`):
    its ``code``, ``settings``, whether it is ``stopped``, its ``db`` and ``store``, the ``table``
    (its game and moves), its ``autoplay``, what it tells the connections (``tell``), the stored ``data``
    and the ``game``, and ``catch_up`` (read the stored table again)."""

    code: str
    settings: ServerSettings
    stopped: bool
    db: Database
    store: Store
    table: Table
    autoplay: Autoplay
    tell: Broadcaster

    @property
    def data(self) -> TableData: ...

    @property
    def game(self) -> Game | None: ...

    async def catch_up(self) -> None: ...


class Seating:
    """The seats of ``runner``'s table (see the module docstring)."""

    def __init__(self, runner: SeatingTable) -> None:
        self.runner = runner

    def authenticate(self, token: str | None) -> int | None:
        """The seat ``token`` opens (each seat's stored hash compared in constant time), or ``None``
        for no token (a spectator).

        Raises:
            AuthError: for a token that opens no seat of this table.
        """
        code = self.runner.code
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise AuthError(f"that token opens no seat of table {code}")
        found: int | None = None
        for seat in self.runner.data.seats:
            if token_matches(token, seat.token_hash) and found is None:
                found = seat.seat
        if found is None:
            raise AuthError(f"that token opens no seat of table {code}")
        return found

    async def join(self, clean: str, seat: int | None, seed: str | None, claim: str | None) -> tuple[int, str]:
        """One attempt of :meth:`TableRunner.join <thirtyone.server.runner.TableRunner.join>`
        (under the lock): seat ``clean`` (a checked name). Returns the seat and its new token.

        Raises:
            StaleError: when the stored seats changed meanwhile (nothing changed here).
            InputError, ConflictError, DatabaseError: as ``TableRunner.join``.
        """
        runner = self.runner
        data, code = runner.data, runner.code
        if runner.stopped or data.status in (FINISHED, CLOSED):
            raise ConflictError(f"table {code} is {data.status}: nobody can join it", "table_closed")
        free = [s.seat for s in data.seats if s.kind == "human" and not s.taken]
        if claim is not None:
            kept = [s.seat for s in data.seats if s.seat in free and token_matches_hash(claim, s.reserved_hash)]
            if data.status != OPEN or not kept:
                raise ConflictError(f"no seat of table {code} is kept for you (any more)", "seat_taken")
            seat = kept[0]
        open_seats = [s for s in free if data.seats[s].reserved_hash is None]
        if claim is None and (data.status != OPEN or not free or (seat is None and not open_seats)):
            waiting = data.status == OPEN and bool(free)
            raise ConflictError(
                f"table {code} is full: every free seat is kept for a player of the last game"
                if waiting
                else f"table {code} is full: every seat is taken; watch it as a spectator",
                "table_full",
            )
        if seat is None:
            seat = open_seats[0]
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < data.players:
            raise InputError(f"seat {seat!r} is not a seat of table {code}: seats are 0-{data.players - 1}")
        elif seat not in free:
            what = "a bot's" if data.seats[seat].kind == "bot" else "taken"
            raise ConflictError(
                f"seat {seat} of table {code} is {what}; free seats: {', '.join(map(str, open_seats))}",
                "seat_taken",
            )
        elif claim is None and seat not in open_seats:
            raise ConflictError(
                f"seat {seat} of table {code} is kept for {data.seats[seat].name}, who played it in the last "
                f"game; free seats: {', '.join(map(str, open_seats)) or 'none'}",
                "seat_reserved",
            )
        clean = check_display_name(clean, [s.name for s in data.seats if s.seat != seat])
        token = new_token()
        token_hash = hash_token(token)
        start = self._starting(free, seat, seed)
        await runner.db.write(runner.store.join, code, seat, clean, token_hash, _stored(start), seed)
        chosen = data.seats[seat]
        chosen.name, chosen.token_hash, chosen.reserved_hash, chosen.seed = clean, token_hash, None, seed
        self._started(start)
        await self.finish_on_the_deal()
        return seat, token

    def _starting(self, free: list[int], seat: int, seed: str | None) -> _Start | None:
        """When ``seat`` (whose person gives ``seed``) is the last of the ``free`` human seats: the
        game that starts (its first dealer drawn, R3.1, and its first deal dealt from the table's
        salt chain and every seat's seed), not yet stored; else ``None``."""
        if free != [seat]:
            return None
        runner = self.runner
        first_dealer = runner.settings.randomness.first_dealer(runner.data.players)  # R3.1
        seeds = [seed if s.seat == seat else s.seed for s in runner.data.seats]
        return first_dealer, seeds, runner.table.start(first_dealer, seeds)

    def _started(self, start: _Start | None) -> None:
        """After a seat was stored: start the game of :meth:`_starting`, if any, and tell everyone."""
        runner = self.runner
        if start is None:
            runner.autoplay.schedule()
            runner.tell.tell_table()
            return
        first_dealer, _, move = start
        runner.data.status, runner.data.first_dealer = PLAYING, first_dealer
        runner.table.keep(move)
        runner.autoplay.schedule()
        runner.tell.tell_table()  # the new player's name first: a 31 on the deal (R5.2) names them
        runner.tell.tell(move.ended, move.deals)

    async def finish_on_the_deal(self) -> None:
        """Finish the table, with its winner and record, when the first deal ended its game: a 31
        dealt in a game of one life (R5.2). No action ends that game, so none finishes the table
        as an action does; a table left playing by a failed write is finished when resumed."""
        runner = self.runner
        game, data = runner.game, runner.data
        if game is None or not game.is_over or data.status != PLAYING or data.seq != 0:
            return
        winner = game.winner if game.winner is not None else -1
        record = runner.table.record(game)
        try:
            await runner.db.write(runner.store.finish_on_the_deal, runner.code, winner, record)
        except StaleError:
            await runner.catch_up()
            return
        except ServerError as error:  # the seat is taken all the same: finished when resumed
            log.warning("table %s: its game ended on the deal but could not be finished: %s", runner.code, error)
            return
        data.status, data.winner, data.record = FINISHED, winner, record
        runner.tell.tell_table()

    async def give_to_bot(self, host_token: str, seat: object, level: str) -> None:
        """:meth:`TableRunner.give_to_bot <thirtyone.server.runner.TableRunner.give_to_bot>`, under
        the lock."""
        runner = self.runner
        data, code = runner.data, runner.code
        if not token_matches(host_token, data.host_token_hash):
            raise AuthError(f"that is not the host token of table {code}; only its host can seat a bot")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < data.players:
            raise InputError(f"seat {seat!r} is not a seat of table {code}: seats are 0-{data.players - 1}")
        if level not in BOT_LEVELS:
            raise InputError(f"unknown bot level {level!r}: choose one of {', '.join(BOT_LEVELS)}")
        if runner.stopped or data.status not in (OPEN, PLAYING):
            raise ConflictError(f"table {code} is {data.status}: its seats do not change", "table_closed")
        chosen = data.seats[seat]
        if chosen.kind == "bot":
            raise ConflictError(f"seat {seat} of table {code} is a bot's already", "seat_taken")
        if chosen.taken and runner.tell.connected()[seat]:
            raise ConflictError(
                f"{chosen.name} is at the table (connected): only the seat of someone who left goes to a bot",
                "seat_taken",
            )
        if not any(s.kind == "human" and s.seat != seat for s in data.seats):
            raise ConflictError("a table needs at least one person: this is its last human seat", "last_person")
        free = [s.seat for s in data.seats if s.kind == "human" and not s.taken]
        start = self._starting(free, seat, chosen.seed) if data.status == OPEN and not chosen.taken else None
        try:
            await runner.db.write(runner.store.seat_bot, code, seat, level, chosen.token_hash, _stored(start))
        except StaleError:
            await runner.catch_up()
            raise ConflictError(f"seat {seat} of table {code} changed meanwhile; try again", "busy") from None
        chosen.kind, chosen.level, chosen.token_hash, chosen.reserved_hash = "bot", level, None, None
        if chosen.name is None:
            chosen.name = BOT_NAMES[seat]
        self._started(start)
        await self.finish_on_the_deal()

    async def give_seed(self, seat: int, clean: str) -> str | None:
        """One attempt of :meth:`TableRunner.give_seed <thirtyone.server.runner.TableRunner.give_seed>`
        (under the lock): the seed as stored, or ``None`` when the stored table changed meanwhile
        (it has been read again: try again).

        Raises:
            ConflictError, DatabaseError: as ``TableRunner.give_seed``.
        """
        runner = self.runner
        data, code = runner.data, runner.code
        if runner.stopped or data.status != OPEN:
            raise ConflictError(
                f"table {code} is {data.status}: its seeds are fixed (they are sent before the game "
                "starts, with the join or once seated)",
                "seeds_fixed",
            )
        if data.seats[seat].seed is not None:
            raise ConflictError(
                f"seat {seat} of table {code} has given its seed already; a seed is given once", "seed_given"
            )
        try:
            given = await runner.db.write(runner.store.give_seed, code, seat, clean)
        except StaleError:  # the game started meanwhile (another process): read it again
            given = False
        if not given:
            await runner.catch_up()
            return None
        data.seats[seat].seed = clean
        runner.tell.tell_table()
        return clean


def _stored(start: _Start | None) -> tuple[int, list[Deal], list[str | None]] | None:
    """What the store keeps of a game that starts: its first dealer, first deals and the seeds."""
    if start is None:
        return None
    first_dealer, seeds, move = start
    return first_dealer, list(move.deals), seeds
