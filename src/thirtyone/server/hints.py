"""Expert hints over the WebSocket: ``{"type": "hint"}`` asks what the expert bot would play in
the asking seat's place, from that seat's view only (:meth:`thirtyone.bots.expert.ExpertBot.analyse`,
the same analysis as the terminal game's ``?``, put in words by :mod:`thirtyone.tui.words`).

The answer goes to the asking connection only::

    {"type": "hint", "seq": 12, "action": "draw pile",
     "text": "Hint: take 9♥ from the pile +0.21 · draw from the stock +0.05 · knock −0.30",
     "moves": [{"action": "draw pile", "words": "take 9♥ from the pile", "value": 0.21}, …]}

``value`` is the expert's estimate in lives (the others' mean loss minus one's own this round);
``null`` where no search was needed (a single legal move, or looking at one's cards, R6.6).
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from thirtyone.bots.expert import ExpertBot
from thirtyone.server.connections import Connection
from thirtyone.server.errors import AuthError, ConflictError, ServerError
from thirtyone.server.runner import TableRunner
from thirtyone.server.serialize import JSON
from thirtyone.server.store import PLAYING
from thirtyone.tui.words import HINT_LEGEND, hint_text, move_words
from thirtyone.views import Phase

__all__ = ["HINT_SECONDS", "hint_message"]

log = logging.getLogger("thirtyone.server")

HINT_SECONDS = 0.3
"""Seconds the expert searches for one hint (on a worker thread)."""


async def hint_message(runner: TableRunner, connection: Connection) -> JSON:
    """The expert's hint for ``connection``'s seat at ``runner``'s table, as the ``hint`` message
    above (keys ``type``, ``seq``, ``action``, ``text``, ``moves``). The search runs on a worker
    thread for at most :data:`HINT_SECONDS` seconds with the engine's rollouts (no compilation
    wait); ``seq`` is the table's seq the hint is for, so a client can drop a hint play has passed.

    Raises:
        AuthError: for a spectator (``spectator``).
        ConflictError: when no game is being played (``not_playing``) or it is not the seat's move
            (``not_your_turn``, R2.1).
        ServerError: when the expert fails on the position (``no_hint``; logged).
    """
    seat = connection.seat
    if seat is None:
        raise AuthError("spectators get no hints: join a seat to play", "spectator")
    async with runner.lock:  # a consistent view: never one half-way through an action being stored
        game = runner.game
        if game is None or runner.data.status != PLAYING or game.is_over:
            raise ConflictError(f"table {runner.code} is {runner.data.status}: no game is being played", "not_playing")
        seq = runner.data.seq
        view = game.view(seat)
    if not view.is_my_turn:
        current = view.current_seat
        whose = runner.who(current) if current is not None else "nobody"
        raise ConflictError(f"R2.1: hints are for your own move; it is {whose}'s turn", "not_your_turn")
    legal = view.legal_actions
    if len(legal) == 1 or view.phase is Phase.LOOK:
        only = legal[0] if len(legal) == 1 else next(a for a in legal if str(a) == "look")
        words = move_words(only, view).plain
        why = "only one move is possible" if len(legal) == 1 else "the expert always looks first (R6.6)"
        return {
            "type": "hint",
            "seq": seq,
            "action": str(only),
            "text": f"Hint: {words} ({why})",
            "moves": [{"action": str(only), "words": words, "value": None}],
        }
    bot = ExpertBot(secrets.randbits(64), worlds=1_000_000, seconds=HINT_SECONDS, rollouts="engine")
    try:
        analysis = await asyncio.to_thread(bot.analyse, view)
    except Exception as error:  # say why rather than drop the connection
        log.exception("table %s: the expert's hint for seat %d failed", runner.code, seat)
        raise ServerError(f"no hint here: the expert could not weigh this position ({error})", "no_hint") from None
    return {
        "type": "hint",
        "seq": seq,
        "action": str(analysis.best),
        "text": f"{hint_text(analysis.estimates, view, width=10_000).plain} ({HINT_LEGEND})",
        "moves": [
            {"action": str(e.action), "words": move_words(e.action, view).plain, "value": round(e.mean, 3)}
            for e in analysis.estimates
        ],
    }
