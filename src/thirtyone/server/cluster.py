"""Beyond one machine: several ``thirtyone serve`` processes sharing one PostgreSQL database.

A player may reach any process (behind a load balancer, say); every process can serve every table.
What keeps them one authority:

* **Every write is a compare-and-set** (:meth:`Store.append <thirtyone.server.db_store.Store.append>`
  stores action N+1 only while the table is at seq N; joins take only a free seat; a close is of
  the table at a given seq). Of two processes that race, one stores and the other gets
  ``StaleError``, reloads, and its client gets ``stale`` with the current state. So an action is
  acknowledged only once it is stored, whichever process took it, and nothing is stored twice.
* **Changes fan out with LISTEN/NOTIFY.** Each committed change sends ``NOTIFY thirtyone, 'CODE
  SEQ PROCESS'`` in its own transaction (so only if it commits). :class:`Cluster` listens on a
  dedicated psycopg connection in a background thread; a notification from another process for a
  table this process serves makes its runner catch up (:meth:`TableRunner.sync
  <thirtyone.server.runner.TableRunner.sync>`: the new actions and deals only, applied to its
  replica of the game) and tell its own connections exactly what the writer told its own. When the
  listening connection drops it is opened again, and then every served table catches up, since
  notifications may have been missed meanwhile.
* **One process runs a table's bots and turn timer: the holder of its lease** (a row of
  ``leases``: table code, owner — the store's random process id — and expiry, by the database's
  clock). Every ``lease_renew`` seconds the process takes or renews the lease of each table it
  serves that is being played, all in one statement (``INSERT … SELECT … FROM unnest(codes) ON
  CONFLICT DO UPDATE … WHERE owner = me OR expires_at < now()``): so a lease that is free, expired
  or its own. However many tables, a renewal is one round trip and one commit. When a runner finds
  a bot or timer to run without the lease, the process takes at once the leases it lacks, and only
  those (:meth:`Cluster.renew` with ``lacking``). A process that stops
  gives its leases back; one that is killed keeps them until they expire (``lease_seconds``),
  then another process that serves the table takes it over, catches up and plays on. Were two
  processes ever to think they hold a lease (a process paused longer than the lease), the
  compare-and-set still lets only one of their moves be stored.

On SQLite (one process) none of this runs: no notifications, every lease is trivially the
process's own, nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import selectors
import threading
from collections.abc import Mapping

from thirtyone.server.config import ServerSettings
from thirtyone.server.db_open import keepalives
from thirtyone.server.db_store import CHANNEL
from thirtyone.server.db_store import PLAYING
from thirtyone.server.db_threads import Database
from thirtyone.server.errors import ServerError
from thirtyone.server.runner import TableRunner

__all__ = ["Cluster", "RECONNECT_SECONDS", "LISTENER_NAME"]

log = logging.getLogger("thirtyone.server")

RECONNECT_SECONDS = 1.0
"""Seconds between attempts to open the listening connection again after it dropped."""
LISTENER_NAME = "thirtyone listener"
"""The ``application_name`` of the listening connections (as ``pg_stat_activity`` shows them)."""
_POLL_SECONDS = 0.5
"""How often the listening thread checks whether it should stop."""
_RESYNC = ""
"""The queue item that makes every served table catch up (after the listener (re)connects)."""


class Cluster:
    """The processes' cooperation for one process: its listener and its leases (see the module
    docstring). ``runners`` is the service's own mapping of the tables being served, by code.
    Nothing runs unless the store is ``shared`` (PostgreSQL)."""

    def __init__(self, db: Database, settings: ServerSettings, runners: Mapping[str, TableRunner]) -> None:
        self.db = db
        self.store = db.store
        self.settings = settings
        self.runners = runners
        self.held: set[str] = set()
        self._wake = asyncio.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._queue: asyncio.Queue[str] = asyncio.Queue()

    async def start(self) -> None:
        """Start listening and keeping leases (on a shared store; otherwise do nothing)."""
        if not self.store.shared or self._tasks:
            return
        loop = asyncio.get_running_loop()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._listen, args=(loop,), name="thirtyone listener", daemon=True)
        self._thread.start()
        self._tasks = [
            asyncio.create_task(self._consume(), name="thirtyone notifications"),
            asyncio.create_task(self._keep_leases(), name="thirtyone leases"),
        ]
        log.info("cluster: process %s shares the database with any others", self.store.process)

    def wake(self) -> None:
        """Take leases now rather than at the next renewal (a runner has a bot or timer to run)."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop listening and give back every lease held, so another process may take them at once."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._stopping.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, _POLL_SECONDS * 4)
            self._thread = None
        held, self.held = sorted(self.held), set()
        for code in held:
            runner = self.runners.get(code)
            if runner is not None:
                runner.leased = False
        try:
            await self.db.write(self.store.release_leases, held)
        except ServerError as error:  # they expire on their own
            log.warning("cluster: the leases were not given back: %s", error)

    # ------------------------------------------------------------------------------ leases

    async def _keep_leases(self) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time()
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(due):
                    await self._wake.wait()
            self._wake.clear()
            if loop.time() >= due:
                due = loop.time() + self.settings.lease_renew
                await self.renew()
            else:  # woken between renewals: the tables that lack their lease only
                await self.renew(lacking=True)

    async def renew(self, lacking: bool = False) -> None:
        """Take or renew the lease of every served table being played, tell each runner whether it
        holds it, and give back the leases of tables no longer played. When the database cannot be
        reached no lease is assumed held (the bots and timers stop until it can).

        With ``lacking``, only take the leases of the tables being played whose runner does not
        lead (new tables, say; the others keep theirs until the next renewal): a burst of tables
        starting costs one short statement each, not a renewal of every table each."""
        playing = {code: runner for code, runner in list(self.runners.items()) if runner.data.status == PLAYING}
        if lacking:
            playing = {code: runner for code, runner in playing.items() if not runner.leased}
            if not playing:
                return
        try:
            held = await self.db.write(self.store.take_leases, sorted(playing), self.settings.lease_seconds)
        except ServerError as error:
            log.warning("cluster: the leases were not %s: %s", "taken" if lacking else "renewed", error)
            if lacking:
                return
            held = set()
        done: list[str] = []
        if lacking:
            self.held |= held
        else:
            done = sorted(self.held - set(playing))
            self.held = held
        for code, runner in playing.items():
            try:
                await runner.lead(code in held)
            except ServerError as error:
                log.warning("table %s: %s", code, error)
        if done:
            with contextlib.suppress(ServerError):
                await self.db.write(self.store.release_leases, done)

    # ------------------------------------------------------------------------------ notifications

    async def _consume(self) -> None:
        while True:
            payload = await self._queue.get()
            if payload == _RESYNC:
                codes = list(self.runners)
            else:
                code, _, origin = [*payload.split(), "", "", ""][:3]
                if origin == self.store.process:  # this process's own change: its runner knows it already
                    continue
                codes = [code]
            for code in codes:
                runner = self.runners.get(code)
                if runner is None:
                    continue
                try:
                    await runner.sync()
                except ServerError as error:
                    log.warning("table %s did not catch up: %s", code, error)
                except Exception:  # a bug must not stop the notifications of every other table
                    log.exception("table %s did not catch up", code)

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """The listening thread: LISTEN on a dedicated connection, hand each notification's payload
        to the event loop; open the connection again whenever it drops."""
        import psycopg  # only here: an SQLite server needs no PostgreSQL driver
        from psycopg.conninfo import make_conninfo

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        url = make_conninfo(url, **keepalives(self.store.engine.url))  # a listener cut off half-open is noticed
        while not self._stopping.is_set():
            try:
                connection = psycopg.connect(url, autocommit=True, connect_timeout=5, application_name=LISTENER_NAME)
                with connection, selectors.DefaultSelector() as selector:
                    connection.add_notify_handler(lambda notify: self._post(loop, notify.payload))
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._post(loop, _RESYNC)  # notifications may have been missed before this
                    selector.register(connection.fileno(), selectors.EVENT_READ)
                    while not self._stopping.is_set():
                        if selector.select(_POLL_SECONDS):
                            connection.execute("SELECT 1")  # reads what arrived; the handler gets each notification
            except (psycopg.Error, OSError, ValueError) as error:
                if self._stopping.is_set():
                    return
                log.warning("cluster: the listening connection failed (%s); opening it again", _first_line(error))
                self._stopping.wait(RECONNECT_SECONDS)

    def _post(self, loop: asyncio.AbstractEventLoop, payload: str) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the process is stopping
            loop.call_soon_threadsafe(self._queue.put_nowait, payload)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
