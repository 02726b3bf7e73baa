"""The ``state`` message, serialized once a change: :class:`StateCache` keeps each seat's text
until the table changes, so that every connection of a seat and every ``sync`` share it.

The message is written by orjson (:func:`thirtyone.server.connections.dumps`), with the parts
that stay the same longer than one message kept as serialized JSON and put in whole
(``orjson.Fragment``): the TABLE object (one per change, the same for every seat), the view's
``seats`` (public: the same for every viewer at one moment), each seat's last result (one per
round) and each event of a seat's round history (the history only grows within a round). What
:func:`~thirtyone.server.serialize.view_json` writes is the rest of the view.
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

from thirtyone.engine import Game
from thirtyone.server.history import ActionData
from thirtyone.server.serialize import JSON
from thirtyone.server.serialize import event_json
from thirtyone.server.serialize import result_json
from thirtyone.server.serialize import seats_json
from thirtyone.server.serialize import view_json

__all__ = ["StateCache"]


def _fragment(value: object) -> orjson.Fragment:
    # kept as text: the bytes orjson returns hold their whole buffer (about 4 KB each), and a
    # table keeps a fragment for every event of every seat's round
    return orjson.Fragment(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode())


class StateCache:
    """Each seat's ``state`` text (``None``: a spectator's) and the parts it is made of, kept until
    :meth:`clear` (a change) or a new turn deadline."""

    def __init__(self) -> None:
        self._texts: dict[int | None, str] = {}
        self._deadline: float | None = None
        self._table: orjson.Fragment | None = None
        self._seats: orjson.Fragment | None = None
        self._results: dict[int | None, tuple[int, orjson.Fragment | None]] = {}
        self._events: dict[int | None, tuple[int, list[orjson.Fragment]]] = {}

    def clear(self) -> None:
        """Forget every state (the table changed); the per-round parts are kept while they hold."""
        self._texts.clear()
        self._table = self._seats = None

    def forget(self) -> None:
        """Forget everything, the per-round parts too (the table's game was replaced)."""
        self.clear()
        self._results.clear()
        self._events.clear()

    @property
    def empty(self) -> bool:
        """Whether no state is kept (the next one is built anew)."""
        return not self._texts

    def state(
        self,
        seat: int | None,
        seq: int,
        game: Game | None,
        last: ActionData | None,
        table: Callable[[], JSON],
        deadline: float | None,
    ) -> str:
        """The ``state`` message for ``seat`` at ``seq``: ``{"type": "state", "seq", "table",
        "view", "last"}`` (docs/server-protocol.md), ``table`` the TABLE object (asked for once a
        change), ``view`` what ``seat`` sees of ``game`` (``null`` before it starts), ``last`` the
        newest stored action's ``{"seq", "seat", "source"}``. ``deadline`` is the turn timer's: a
        new one is a new state even without a change."""
        if deadline != self._deadline:  # the turn timer was set anew without any change
            self.clear()
            self._deadline = deadline
        text = self._texts.get(seat)
        if text is None:
            if self._table is None:
                self._table = _fragment(table())
            played = None if last is None else {"seq": last.seq, "seat": last.seat, "source": last.source}
            view = self._view(seat, game)
            message = {"type": "state", "seq": seq, "table": self._table, "view": view, "last": played}
            text = self._texts[seat] = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
        return text

    def _view(self, seat: int | None, game: Game | None) -> JSON | None:
        """What ``seat`` sees (:func:`~thirtyone.server.serialize.view_json`), its shared parts as
        kept fragments."""
        if game is None:
            return None
        view = game.public_view() if seat is None else game.view(seat)
        kept = self._events.get(seat)
        if kept is None or kept[0] != view.round or len(kept[1]) > len(view.history):
            kept = self._events[seat] = (view.round, [])
        events = kept[1]
        events.extend(_fragment(event_json(event, game.rules, seat)) for event in view.history[len(events) :])
        if self._seats is None:
            self._seats = _fragment(seats_json(view))
        result = view.last_result
        number = 0 if result is None else result.round
        shown = self._results.get(seat)
        if shown is None or shown[0] != number:
            shown = self._results[seat] = (number, None if result is None else _fragment(result_json(result)))
        return {
            **view_json(view, history=False, shared=False),
            "seats": self._seats,
            "last_result": shown[1],
            "history": events,
        }
