"""The review of a finished game for the replay page (``GET /api/tables/{code}/review``): every
seat's decisions valued (:func:`thirtyone.bots.review.review_record`: by the judge, or by the expert
for rules the judge was not trained for, which the review's ``valuer`` and ``fallback`` say), made
once and kept with the game.

**When it is made.** Lazily, the first time someone asks for a game's review, not when the game
ends: most finished games are never replayed, so nothing is spent on them; a game that ends does
not compete with the tables being played for a worker at that moment; and every game with a
record gets its review the same way, those that ended before this server existed, those closed
by their host or abandoned (reviewed up to their last move) and those another server process
finished. The first answer is ``pending`` (HTTP 202); the page says "the review is being
prepared" and asks again after :data:`RETRY_SECONDS`.

**Where.** On a worker process of its own (:class:`~thirtyone.server.workers.WorkerPool`
``review``: :data:`WORKERS` worker, :data:`QUEUE` more reviews waiting), never on the event loop
nor on the hint or bot workers, so that a review never delays an action, a bot's move or a hint.
A table has at most one review being made in this process; a request while it is made gets
``pending`` at once. When the pool is full the request is ``pending`` too and the next one tries
again. On PostgreSQL two processes may make the same review; the first one kept stays
(:meth:`Store.keep_review <thirtyone.server.db_store.Store.keep_review>`).

**The budget.** The judge needs none: its review is the same for every request and every process,
a 10-round four-player ``scat`` game (164 decisions, every seat) in 0.76 s of one core
(``benchmarks/bench_review.py``). Where the expert reviews, :data:`WORLDS` deals a decision with
the seed :data:`SEED`: a modest budget (the terminal's review tries 300), so that a review is
quick, and the same for every request and every process (measured on the development machine, 2
cores shared with other work, compiled rollouts: a four-player game of 10 rounds, 140 decisions, in
4 s, 6 s when the worker first loads the compiled kernels). Its JSON is about 130 KB. Each review
made is logged with its time.

**What is kept** (:func:`review_data`) is :meth:`Review.to_json
<thirtyone.bots.review.Review.to_json>` of every seat, and for the page, which never reads
notation, each move's data besides its notation (:func:`~thirtyone.server.serialize.action_json`:
``kind``, ``source``, ``card``, ``give``, ``take``) and ``chosen`` (the move played), each
decision's ``played_move`` (the played move's data), and in each summary's ``costliest`` the data
of ``played`` and ``best``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Final

from thirtyone.bots.review import Review
from thirtyone.bots.review import review_record
from thirtyone.errors import RecordError
from thirtyone.record import GameRecord
from thirtyone.server.config import ServerSettings
from thirtyone.server.db_store import Store
from thirtyone.server.db_threads import Database
from thirtyone.server.errors import ServerError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.serialize import JSON
from thirtyone.server.serialize import action_json
from thirtyone.server.workers import PoolBrokenError
from thirtyone.server.workers import PoolBusyError
from thirtyone.server.workers import WorkerPool

__all__ = ["WORLDS", "SEED", "WORKERS", "QUEUE", "RETRY_SECONDS", "Reviews", "make_review", "review_data"]

log = logging.getLogger("thirtyone.server")

WORLDS: Final = 100
"""Deals the expert tries a decision in the server's reviews where it reviews (rules the judge was not
trained for; the terminal's default is 300)."""
SEED: Final = 0
"""The seed of the server's reviews: the same review for every request and process."""
WORKERS: Final = 1
"""Processes making reviews (apart from the hint and bot workers)."""
QUEUE: Final = 8
"""Reviews that may wait for the worker; beyond that a request is ``pending`` and tries again."""
RETRY_SECONDS: Final = 2
"""How long the page waits before it asks again for a review being made (``Retry-After``)."""


def review_data(review: Review) -> JSON:
    """The review as the server keeps and serves it (see the module's docstring)."""
    data = review.to_json()
    for decision, shown in zip(review.decisions, data["decisions"], strict=True):
        for move, moved in zip(decision.moves, shown["moves"], strict=True):
            moved.update(action_json(move.action), chosen=move.action == decision.played)
        shown["played_move"] = action_json(decision.played)
    for summary, told in zip(review.summaries, data["summaries"], strict=True):
        for decision, costly in zip(summary.costliest, told["costliest"], strict=True):
            costly["played"].update(action_json(decision.chosen.action))
            costly["best"].update(action_json(decision.best.action))
    return data


def make_review(record: str, worlds: int = WORLDS) -> str:
    """The review of every seat of ``record`` (TOML), as JSON text (:func:`review_data`), by the
    judge, or by the expert with ``worlds`` deals a decision and the seed :data:`SEED` where the
    judge was not trained for the record's rules: the review worker's job.

    Raises:
        RecordError: when the record cannot be read or does not replay.
    """
    review = review_record(GameRecord.loads(record), worlds=worlds, seed=SEED)
    return json.dumps(review_data(review), ensure_ascii=False, separators=(",", ":"))


class Reviews:
    """The reviews being made by this process, on their own worker pool (see the module docstring)."""

    def __init__(self, settings: ServerSettings, db: Database, store: Store) -> None:
        self.db = db
        self.store = store
        self.pool = WorkerPool("review", WORKERS, QUEUE, settings.worker_kind)
        self._making: dict[str, asyncio.Task[None]] = {}
        self._failed: dict[str, ServerError] = {}

    async def review(self, code: str, record: str) -> str | None:
        """The review kept for table ``code`` (JSON text), or ``None`` while it is being made: the
        first request starts making it from ``record`` (the game's record, TOML) on the review
        worker, and keeps it when it is made.

        Raises:
            UnavailableError: when the last try to make it failed (``damaged``: the record does not
                replay; ``busy``: the worker stopped, or the review failed); the next request tries again.
            DatabaseError: when the database cannot be read.
        """
        kept = await self.db.read(self.store.review, code)
        if kept is not None:
            return kept
        failed = self._failed.pop(code, None)
        if failed is not None:
            raise failed
        if code not in self._making:
            task = asyncio.create_task(self._make(code, record), name=f"thirtyone review {code}")
            self._making[code] = task
            task.add_done_callback(lambda _: self._making.pop(code, None))
        return None

    async def _make(self, code: str, record: str) -> None:
        try:
            if await self.db.read(self.store.review, code) is not None:
                return  # made meanwhile: the request that started this one read before it was kept
            began = time.monotonic()
            made = await self.pool.run(make_review, record)
            await self.db.write(self.store.keep_review, code, made)
            log.info("table %s: its review was made in %.1f s", code, time.monotonic() - began)
        except PoolBusyError:  # every worker busy and the queue full: the next request tries again
            return
        except PoolBrokenError as error:
            self._failed[code] = UnavailableError(f"no review: {error}; ask again", "busy")
        except RecordError as error:
            self._failed[code] = UnavailableError(f"the stored record does not replay: {error}", "damaged")
        except ServerError as error:  # the database: said to the next request
            self._failed[code] = error
        except Exception as error:  # a bug: said, and logged
            log.error("table %s: its review failed: %r", code, error)
            self._failed[code] = UnavailableError(f"no review: this game could not be reviewed ({error})", "busy")

    def making(self, code: str) -> bool:
        """True while table ``code``'s review is being made in this process."""
        return code in self._making

    async def close(self) -> None:
        """Stop the reviews being made (nothing half-made is kept) and the worker."""
        tasks = list(self._making.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.pool.close()
