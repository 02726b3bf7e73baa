"""Hints over the WebSocket, on a budget: ``{"type": "hint"}`` asks what the judge — or, at a
table its weights were not made for or whose values it may not show
(:func:`thirtyone.bots.work.judge_refuses`), the expert —
would play in the asking seat's place, from that seat's view only (:func:`thirtyone.bots.work.judge_hint`
or :func:`thirtyone.bots.work.expert_hint`, the same as the terminal game's ``?``).

The answer goes to the asking connection only, as data (each client puts the moves in its own
words)::

    {"type": "hint", "seq": 12, "action": "draw pile", "id": 53,
     "moves": [{"action": "draw pile", "id": 53, "kind": "draw", "source": "pile", …, "value": 0.21},
               {"action": "draw stock", "id": 52, "kind": "draw", "source": "stock", …, "value": 0.05}, …],
     "reads": [{"seat": 1, "suit": "h", "probability": 0.72}], "deals": null, "rough": false}

``value`` is the move's value in lives (the others' average loss minus one's own this round),
best move first, each move with its ``id`` and its data as the state's ``legal`` lists them;
``null`` where nothing was weighed (a single legal move, or looking at one's cards, R6.6). The
judge's values are its network's, or on a last turn after a knock (R6.2) counted exactly; the
expert's, its search's (its move first: it leaves the heuristic's move only for a clear gain).
``reads`` says what the hint believes of the opponents (the belief's worlds): each one it is at
least half sure collects a suit (the share of its worlds where that suit is the opponent's best),
surest first ("Ben probably collects hearts"); empty when it is sure of nobody. ``deals`` is the
fewest deals a move was valued over (``null``: no sampling — the judge's network, a last turn
counted exactly, or no search) and ``rough`` whether that is fewer than :data:`HINT_DEALS`: an
expert's search that reached fewer in :data:`HINT_SECONDS` (a cold or busy worker) goes on for
that many, at most :data:`HINT_LONGEST` seconds, and a page says when even that was not enough.

Hints are worked out on a pool of worker processes of their own (``hint_workers``, with
``hint_queue`` more waiting at most: beyond that the answer is ``busy`` at once), so that they
can never delay an action, a bot's move or a database write; a seat has at most one hint being
worked out (its other connections asking meanwhile get the same answer), and the last answer of
each seat is kept, so asking again at the same position costs nothing. The judge's hint takes
milliseconds (``benchmarks/bench_hint.py``), so a seat may have one at every decision of its
own; the expert's search costs :data:`HINT_SECONDS` of a core or more, so a seat has
``hints_per_round`` of those a round.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from thirtyone.action_ids import action_id
from thirtyone.actions import parse_action
from thirtyone.bots.work import Hint
from thirtyone.bots.work import expert_hint
from thirtyone.bots.work import judge_hint
from thirtyone.bots.work import judge_refuses
from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connection
from thirtyone.server.connections import dumps
from thirtyone.server.errors import AuthError
from thirtyone.server.errors import ConflictError
from thirtyone.server.errors import LimitError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.rows import PLAYING
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.serialize import action_json
from thirtyone.server.workers import PoolBrokenError
from thirtyone.server.workers import PoolBusyError
from thirtyone.server.workers import WorkerPool
from thirtyone.views import PlayerView

__all__ = ["HINT_DEALS", "HINT_LONGEST", "HINT_SECONDS", "Hints", "hint_json"]

log = logging.getLogger("thirtyone.server")

HINT_SECONDS = 0.3
"""Seconds the expert searches for one hint (on a hint worker), where the judge does not hint."""

HINT_DEALS = 100
"""The fewest deals a hint's every move is valued over, when :data:`HINT_LONGEST` allows: fewer
are mostly noise (a cold or busy worker searched a handful in :data:`HINT_SECONDS`)."""

HINT_LONGEST = 2.0
"""Seconds a hint that reached fewer than :data:`HINT_DEALS` deals in :data:`HINT_SECONDS` may
search again for them (``hint_wait`` still bounds the whole wait)."""


_BUSY = "the hint workers are busy with other players' hints: ask again in a moment"


def hint_json(seq: int, hint: Hint, view: PlayerView) -> JSON:
    """The ``hint`` message for state ``seq`` of ``view``'s seat: the best move's notation and id,
    every move's value (with its id and its data, :func:`~thirtyone.server.serialize.action_json`),
    the reads of the opponents, the fewest deals and whether they are fewer than
    :data:`HINT_DEALS` (``rough``)."""
    actions = [parse_action(action) for action, _ in hint.moves]
    ids = [action_id(view, action) for action in actions]
    return {
        "type": "hint",
        "seq": seq,
        "action": hint.moves[0][0],
        "id": ids[0],
        "moves": [
            {"action": text, "id": number, **action_json(action), "value": value}
            for (text, value), action, number in zip(hint.moves, actions, ids, strict=True)
        ],
        "reads": [{"seat": seat, "suit": suit, "probability": chance} for seat, suit, chance in hint.reads],
        "deals": hint.deals,
        "rough": hint.deals is not None and hint.deals < HINT_DEALS,
    }


@dataclass
class _Seat:
    """What one seat of one table has asked: the round its ``used`` hints were in, the last
    answer (for its seq) and the hint being worked out (for its seq)."""

    round: int = 0
    used: int = 0
    answer: tuple[int, str] | None = None
    working: tuple[int, asyncio.Future[str]] | None = None


class Hints:
    """The hints of every table (see the module docstring), on their own worker pool."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.pool = WorkerPool("hint", settings.hint_workers, settings.hint_queue, settings.worker_kind)
        self._seats: dict[tuple[str, int], _Seat] = {}

    async def hint(self, runner: TableRunner, connection: Connection) -> str:
        """The hint for ``connection``'s seat at ``runner``'s table — the judge's, or the expert's
        where the judge does not hint (:func:`~thirtyone.bots.work.judge_refuses`) —, as the
        ``hint`` message above, serialized; ``seq`` is the table's seq the hint is for, so a client
        can drop a hint play has passed. Asking again at the same position, or while this seat's hint is being worked
        out, costs nothing (the same answer).

        Raises:
            AuthError: for a spectator (``spectator``).
            ConflictError: when no game is being played (``not_playing``) or it is not the seat's
                move (``not_your_turn``, R2.1).
            LimitError: when the seat has had its expert's hints this round (``hint_budget``), or
                the hint workers are busy (``busy``).
            ServerError: when the judge or the expert fails on the position (``no_hint``; logged).
        """
        seat = connection.seat
        if seat is None:
            raise AuthError("spectators get no hints: join a seat to play", "spectator")
        state = self._seats.setdefault((runner.code, seat), _Seat())
        if not runner.lock.locked():  # nothing being stored: the kept answer or the shared work, at once
            seq = runner.data.seq
            if state.answer is not None and state.answer[0] == seq:
                return state.answer[1]
            if state.working is not None and state.working[0] == seq:
                return await asyncio.shield(state.working[1])
        async with runner.lock:  # a consistent view: never one half-way through an action being stored
            game = runner.game
            if game is None or runner.data.status != PLAYING or game.is_over:
                raise ConflictError(
                    f"table {runner.code} is {runner.data.status}: no game is being played", "not_playing"
                )
            seq = runner.data.seq
            view = game.view(seat)
        if not view.is_my_turn:
            current = view.current_seat
            whose = runner.who(current) if current is not None else "nobody"
            raise ConflictError(f"R2.1: hints are for your own move; it is {whose}'s turn", "not_your_turn")
        if state.answer is not None and state.answer[0] == seq:
            return state.answer[1]
        if state.working is not None:
            working_seq, working = state.working
            if working_seq == seq:
                return await asyncio.shield(working)  # another tab of this seat asked first: share it
            raise LimitError("a hint for your previous move is still being worked out: ask again in a moment", "busy")
        if len(view.legal_actions) == 1 or view.phase.value == "look":  # no search: nothing spent
            answer = dumps(hint_json(seq, expert_hint(view, 0, HINT_SECONDS), view))
            state.answer = (seq, answer)
            return answer
        judged = judge_refuses(view.rules, view.players) is None
        if not judged:  # the expert's search: a few a round
            if state.round != view.round:
                state.round, state.used = view.round, 0
            budget = self.settings.hints_per_round
            if state.used >= budget:
                raise LimitError(
                    f"you have had {budget} hint{'s' if budget != 1 else ''} this round, the limit; "
                    "more in the next round",
                    "hint_budget",
                )
        if self.pool.busy:
            raise LimitError(_BUSY, "busy")
        if not judged:
            state.used += 1
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda done: done.cancelled() or done.exception())
        state.working = (seq, future)
        try:
            answer = await self._work(runner, seat, seq, view, judged)
        except BaseException as error:
            if not future.done():
                future.set_exception(error if isinstance(error, Exception) else UnavailableError("stopped", "busy"))
            raise
        else:
            future.set_result(answer)
            state.answer = (seq, answer)
            return answer
        finally:
            state.working = None

    async def _work(self, runner: TableRunner, seat: int, seq: int, view: PlayerView, judged: bool) -> str:
        who = "judge" if judged else "expert"
        try:
            async with asyncio.timeout(self.settings.hint_wait):
                if judged:
                    hint = await self.pool.run(judge_hint, view)
                else:
                    seed = self.settings.randomness.seed_for_bot()
                    hint = await self.pool.run(
                        expert_hint, view, seed, HINT_SECONDS, deals=HINT_DEALS, longest=HINT_LONGEST
                    )
        except (PoolBusyError, TimeoutError):
            raise LimitError(_BUSY, "busy") from None
        except PoolBrokenError as error:
            raise UnavailableError(f"no hint here: {error}; ask again", "no_hint") from None
        except Exception as error:  # say why rather than drop the connection
            log.error("table %s: the %s's hint for seat %d failed: %r", runner.code, who, seat, error)
            words = f"no hint here: the {who} could not weigh this position ({error})"
            raise UnavailableError(words, "no_hint") from None
        return dumps(hint_json(seq, hint, view))

    def forget(self, code: str) -> None:
        """Forget what the seats of table ``code`` asked (the table is no longer served)."""
        for key in [key for key in self._seats if key[0] == code]:
            del self._seats[key]

    def close(self) -> None:
        """Stop the hint workers."""
        self.pool.close()
