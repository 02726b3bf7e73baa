"""What a table stores beside its game: its deals and its actions as stored, one append per deal
and per action — the database's rows (:mod:`thirtyone.server.db_store`). The rounds themselves (each
dealer, reshuffle, action and result) are the game's own history, which grows with it
(:attr:`Game.round_logs <thirtyone.engine.Game.round_logs>`); the server keeps no copy of them.
The table's record joins the two (:meth:`TableHistory.record`): the game's record
(:meth:`GameRecord.from_game <thirtyone.record.GameRecord.from_game>`) with each deal's salt and
commitment.

A move (:mod:`thirtyone.server.table`) says what it stores — its action and the deals it dealt —
and the history takes them only once they are stored (:meth:`TableHistory.add`), when its game
becomes the table's.
"""

from __future__ import annotations

from bisect import bisect_left
from bisect import bisect_right
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace

from thirtyone.engine import Game
from thirtyone.errors import RecordError
from thirtyone.events import RoundResult
from thirtyone.record import Fairness
from thirtyone.record import GameRecord
from thirtyone.server.fair import Deal

__all__ = ["ActionData", "TableHistory", "ended_rounds", "round_result"]


@dataclass(frozen=True)
class ActionData:
    """A stored action: its ``seq`` (from 1), round, seat, notation and source (``player``,
    ``bot``, ``timer``)."""

    seq: int
    round: int
    seat: int
    action: str
    source: str


class TableHistory:
    """A table's stored deals and actions (see the module docstring), in order, empty before its
    game starts."""

    def __init__(self) -> None:
        self.deals: list[Deal] = []
        self.actions: list[ActionData] = []

    @property
    def round(self) -> int:
        """The number of the last round dealt (0 before the game starts)."""
        return self.deals[-1].round if self.deals else 0

    @property
    def last_action(self) -> ActionData | None:
        """The newest stored action (``None`` before any)."""
        return self.actions[-1] if self.actions else None

    def deal(self, number: int) -> Deal | None:
        """Round ``number``'s deal (``None`` before it is dealt)."""
        return self.deals[number - 1] if 0 < number <= len(self.deals) else None

    def round_actions(self, number: int) -> list[ActionData]:
        """Round ``number``'s stored actions, in order."""
        actions = self.actions  # in round order: found by bisection
        start = bisect_left(actions, number, key=_round_of)
        return actions[start : bisect_right(actions, number, lo=start, key=_round_of)]

    def add(self, action: ActionData | None, deals: Iterable[Deal]) -> None:
        """Append what a move stored: its action (``None`` for the deals that start the game) and
        the deals it dealt, in order."""
        if action is not None:
            self.actions.append(action)
        self.deals.extend(deals)

    def copy(self) -> TableHistory:
        """A history with the same deals and actions, to add to apart from this one."""
        twin = TableHistory()
        twin.deals, twin.actions = list(self.deals), list(self.actions)
        return twin

    def record(
        self,
        game: Game,
        names: Sequence[str],
        *,
        event: str,
        date: str,
        fairness: Fairness | None,
        reveal_all: bool = False,
    ) -> GameRecord:
        """The record (R3.5) of ``game``, dealt by these deals: the game's record (every round's
        dealer, deck, reshuffles, actions and public result, R5.1, and the outcome once the game is
        over) with each round's salt once the round has ended (every round's with ``reveal_all``,
        as when the host closes the table) and, without ``fairness`` (an older table), each deal's
        own commitment.

        Raises:
            RecordError: when the deals are not the game's (the database was changed).
        """
        record = GameRecord.from_game(game, names, event=event, date=date)
        if [rnd.round for rnd in record.rounds] != [deal.round for deal in self.deals]:
            raise RecordError(
                f"the table's deals (rounds {[deal.round for deal in self.deals]}) are not its game's "
                f"(rounds {[rnd.round for rnd in record.rounds]}): the stored history was changed"
            )
        rounds = tuple(
            replace(
                rnd,
                salt=deal.salt if reveal_all or rnd.result is not None else None,
                commitment=None if fairness is not None else deal.commitment,
            )
            for rnd, deal in zip(record.rounds, self.deals, strict=True)
        )
        return replace(record, rounds=rounds, fairness=fairness)


def _round_of(stored: ActionData) -> int:
    return stored.round


def ended_rounds(game: Game | None) -> list[int]:
    """The numbers of the rounds of ``game`` that have ended, in order (none without a game)."""
    return [] if game is None else [log.round for log in game.round_logs if log.result is not None]


def round_result(game: Game | None, number: int) -> RoundResult | None:
    """Round ``number``'s result in ``game`` (``None`` while it is played, before it is dealt, or
    without a game)."""
    if game is None or not game.round_logs:
        return None
    index = number - game.round_logs[0].round
    return game.round_logs[index].result if 0 <= index < len(game.round_logs) else None
