"""What a table's connections are told, and when: :class:`Broadcaster`.

After a change each connection gets the news of it (:func:`~thirtyone.server.messages.round_news`:
``round_end``, ``deal``, ``reveal``, each seat's ``round_end`` with its own history) and then its
own ``state`` (:class:`~thirtyone.server.state_json.StateCache`: serialized once a change, shared
by a seat's connections and every ``sync``). A connection that opens gets ``welcome``, its
``state``, the ``history`` it needs to catch up (a spectator's serialized once a change or chat
line and shared) and ``reveal`` once the game is over. ``table`` tells everyone the TABLE anew
(someone joined, connected or left, the showdown's wait or the timer changed), ``chat`` a line,
``rematch`` the finished table's rematch. The table's newest chat lines are kept here for those
that open.
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.server import messages
from thirtyone.server.autoplay import Pace
from thirtyone.server.config import ServerSettings
from thirtyone.server.connections import Connection
from thirtyone.server.connections import Connections
from thirtyone.server.connections import dumps
from thirtyone.server.fair import Deal
from thirtyone.server.rows import ChatData
from thirtyone.server.serialize import JSON
from thirtyone.server.state_json import StateCache
from thirtyone.server.table import Table

__all__ = ["Broadcaster", "CHAT_KEPT"]

CHAT_KEPT = 100
"""Chat lines a table keeps at hand for a connection that opens (the database keeps them all)."""


class Broadcaster:
    """Tells ``connections`` of ``table`` what happened (see the module docstring); ``pace`` gives
    what its bots and timer show (:meth:`Autoplay.pace <thirtyone.server.autoplay.Autoplay.pace>`)
    and ``deadline`` the turn timer's."""

    def __init__(
        self,
        table: Table,
        connections: Connections,
        settings: ServerSettings,
        pace: Callable[[], Pace | None],
        deadline: Callable[[], float | None],
    ) -> None:
        self.table = table
        self.connections = connections
        self.settings = settings
        self._pace = pace
        self._deadline = deadline
        self._states = StateCache()
        # a spectator's history message and the (seq, chat line) it was built at, until the next change
        self._watchers_history: tuple[tuple[int, int], str] | None = None
        self.chat_lines: list[ChatData] = []
        """The table's newest chat lines (at most :data:`CHAT_KEPT`), oldest first."""
        self.chat_seen = 0
        """The id of the newest chat line this process knows."""

    # ------------------------------------------------------------------------------ what is told

    def table_json(self) -> JSON:
        """The table's public information (docs/server-protocol.md, "table"), from what is stored."""
        table = self.table
        return messages.table_json(
            table.data,  # what is stored only: never a change still being written
            table.history,
            table.rules,
            self.settings,
            self.connected(),
            self.connections.spectators(),
            self._pace(),
        )

    def connected(self) -> tuple[bool, ...]:
        """Whether each seat has a connection in this process."""
        return self.connections.connected(self.table.data.players)

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator), serialized; built once per
        change (each seat's connections and every ``sync`` share it)."""
        table = self.table
        if self._states.empty:
            self._watchers_history = None
        return self._states.state(
            seat, table.data.seq, table.game, table.history.last_action, self.table_json, self._deadline()
        )

    def changed(self, game_replaced: bool = False) -> None:
        """Forget every state built (the table changed; ``game_replaced``: its game is a new one)."""
        if game_replaced:
            self._states.forget()
        else:
            self._states.clear()

    def history_text(self, seat: int | None) -> str:
        """The ``history`` message for ``seat``, serialized; a spectator's is built once per change
        or chat line and shared, so that spectators coming again and again cost no more than their
        state, however long the game (a person's is built for each of their few connections)."""
        table = self.table
        if seat is not None:
            return dumps(messages.history_message(table.game, table.history, seat, self.chat_lines))
        at = (table.data.seq, self.chat_seen)
        kept = self._watchers_history
        if kept is None or kept[0] != at:
            built = dumps(messages.history_message(table.game, table.history, None, self.chat_lines))
            kept = self._watchers_history = (at, built)
        return kept[1]

    def has_history(self) -> bool:
        """Whether a connection that opens now needs ``history`` to see what one that was there all
        along saw: an earlier round, the game's end, a move the timer played, or chat."""
        table = self.table
        if self.chat_lines:
            return True
        if table.game is None:
            return False
        history = table.history
        return len(history.deals) > 1 or table.game.is_over or any(a.source == "timer" for a in history.actions)

    # ------------------------------------------------------------------------------ telling

    def welcome(self, connection: Connection, seat: int | None) -> None:
        """What a connection that opens for ``seat`` gets: ``welcome``, its ``state``, the
        ``history`` it needs, and ``reveal`` once the game is over."""
        table = self.table
        connection.put(messages.welcome_message(table.data, seat, self.settings))
        if seat is not None:  # who is connected changes; a spectator's coming is told with the next change
            self.changed()
        connection.put_text(self.state_text(seat))
        if self.has_history():
            connection.put_text(self.history_text(seat))
        reveal = messages.reveal_message(table.game, table.history, table.data)
        if reveal is not None:  # the game is over: what waited for its end (R5.7)
            connection.put(reveal)

    def tell_table(self, skip: Connection | None = None) -> None:
        """Everyone (but ``skip``) hears the TABLE anew."""
        self.changed()
        self.connections.put_all(messages.table_message(self.table_json()), skip)

    def tell_states(self) -> None:
        """Every connection gets its state anew (nothing else changed)."""
        self.changed()
        self.connections.put_by_seat(lambda seat: [self.state_text(seat)])

    def tell(self, ended: list[int], deals: list[Deal]) -> None:
        """Tell every connection: each round that ended (revealed), each new deal (its commitment),
        in round order, then its own state."""
        table = self.table
        self.changed()
        news = messages.round_news(table.game, table.history, ended, deals, table.data)
        self.connections.put_by_seat(
            lambda seat: [*map(dumps, messages.seat_news(news, table.game, seat)), self.state_text(seat)]
        )

    def tell_rematch(self) -> None:
        """Everyone hears of the table's rematch, then the TABLE."""
        if self.table.data.rematch is not None:
            self.connections.put_all(messages.rematch_message(self.table.data))
        self.tell_table()

    def remember_chat(self, lines: list[ChatData]) -> list[ChatData]:
        """Keep the chat ``lines`` this process did not know yet; returns them."""
        fresh = [line for line in lines if line.id > self.chat_seen]
        if fresh:
            self.chat_seen = fresh[-1].id
            self.chat_lines = (self.chat_lines + fresh)[-CHAT_KEPT:]
        return fresh

    def tell_chat(self, lines: list[ChatData]) -> None:
        """Everyone hears each chat line this process did not know yet."""
        for line in self.remember_chat(lines):
            self.connections.put_all(messages.chat_message(line))
