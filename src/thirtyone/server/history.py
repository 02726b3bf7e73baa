"""A table's history: its deals and its actions in order, one append per round and per action —
what the database stores (a row each: :mod:`thirtyone.server.store`) — with what the game said of
each round as it was played (its dealer, the order of each reshuffle, its result). It is the
game's record as it grows: the messages are told from it, ``GET /api/tables/{code}/deals`` and
``history`` read it, and the record the table keeps when its game ends (or is closed) is written
from it (:meth:`TableHistory.record`), not worked out again from a game.

A move (:mod:`thirtyone.server.table`) says what it adds as a list of :data:`Entry` — the stored
action, a reshuffle, a round's result, a new round — and the history takes them only once they
are stored (:meth:`TableHistory.extend`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.events import RoundResult
from thirtyone.record import Fairness
from thirtyone.record import GameRecord
from thirtyone.record import RoundRecord
from thirtyone.rules import Rules
from thirtyone.server.fair import Deal

__all__ = ["ActionData", "NewRound", "Reshuffle", "Entry", "RoundHistory", "TableHistory"]


@dataclass(frozen=True)
class ActionData:
    """A stored action: its ``seq`` (from 1), round, seat, notation and source (``player``,
    ``bot``, ``timer``)."""

    seq: int
    round: int
    seat: int
    action: str
    source: str


@dataclass(frozen=True)
class NewRound:
    """A round dealt: its ``deal`` and its ``dealer`` (a seat, R3.1)."""

    deal: Deal
    dealer: int


@dataclass(frozen=True)
class Reshuffle:
    """The current round's stock made anew from the discard pile (R4.3): the new stock, top first."""

    order: tuple[Card, ...]


Entry = ActionData | NewRound | Reshuffle | RoundResult
"""What a move adds to the history, in order: its action, each reshuffle it took, the result of
each round it ended, each round it dealt."""


@dataclass
class RoundHistory:
    """One round of the history: its ``deal``, its ``dealer``, where its actions begin in the
    history's actions (``start``), each reshuffle's new stock, and its ``result`` once it ended."""

    deal: Deal
    dealer: int
    start: int
    reshuffles: list[tuple[Card, ...]] = field(default_factory=list)
    result: RoundResult | None = None

    @property
    def number(self) -> int:
        """The round's number (from 1)."""
        return self.deal.round


class TableHistory:
    """A table's history (see the module docstring): ``rounds`` and ``actions`` in order, empty
    before its game starts."""

    def __init__(self) -> None:
        self.rounds: list[RoundHistory] = []
        self.actions: list[ActionData] = []

    @property
    def round(self) -> int:
        """The number of the last round dealt (0 before the game starts)."""
        return self.rounds[-1].number if self.rounds else 0

    @property
    def deals(self) -> list[Deal]:
        """Every round's deal, in order."""
        return [rnd.deal for rnd in self.rounds]

    @property
    def last_action(self) -> ActionData | None:
        """The newest stored action (``None`` before any)."""
        return self.actions[-1] if self.actions else None

    def deal(self, number: int) -> Deal | None:
        """Round ``number``'s deal (``None`` before it is dealt)."""
        return self.rounds[number - 1].deal if 0 < number <= len(self.rounds) else None

    def result(self, number: int) -> RoundResult | None:
        """Round ``number``'s result (``None`` while it is played, or before it is dealt)."""
        return self.rounds[number - 1].result if 0 < number <= len(self.rounds) else None

    def ended(self) -> list[int]:
        """The numbers of the rounds that have ended, in order."""
        return [rnd.number for rnd in self.rounds if rnd.result is not None]

    def round_actions(self, number: int) -> list[ActionData]:
        """Round ``number``'s stored actions, in order."""
        if not 0 < number <= len(self.rounds):
            return []
        end = self.rounds[number].start if number < len(self.rounds) else len(self.actions)
        return self.actions[self.rounds[number - 1].start : end]

    def extend(self, entries: Iterable[Entry]) -> None:
        """Append what a move stored (its :data:`Entry` list, in order)."""
        for entry in entries:
            if isinstance(entry, ActionData):
                self.actions.append(entry)
            elif isinstance(entry, NewRound):
                self.rounds.append(RoundHistory(entry.deal, entry.dealer, len(self.actions)))
            elif isinstance(entry, Reshuffle):
                self.rounds[-1].reshuffles.append(entry.order)
            else:
                self.rounds[entry.round - 1].result = entry

    def record(
        self,
        rules: Rules,
        names: Sequence[str],
        *,
        event: str,
        date: str,
        fairness: Fairness | None,
        reveal_all: bool = False,
        winner: int | None = None,
        places: Sequence[int] | None = None,
    ) -> GameRecord:
        """The game's record (R3.5) as the history holds it: every round's dealer, deck, reshuffles,
        actions and public result (R5.1), its salt once the round has ended (every round's with
        ``reveal_all``, as when the host closes the table), and without ``fairness`` (an older
        table) each deal's own commitment. ``winner`` and ``places`` are the outcome of a finished
        game (``None`` for one still going or closed).

        Raises:
            RecordError: when the history is not one a game can have (a stored action that is no
                action: the database was changed).
        """
        rounds = tuple(
            RoundRecord(
                round=rnd.number,
                dealer=rnd.dealer,
                deck=rnd.deal.deck,
                reshuffles=tuple(rnd.reshuffles),
                actions=tuple((stored.seat, parse_action(stored.action)) for stored in self.round_actions(rnd.number)),
                result=None if rnd.result is None else rnd.result.public(),
                salt=rnd.deal.salt if reveal_all or rnd.result is not None else None,
                commitment=None if fairness is not None else rnd.deal.commitment,
            )
            for rnd in self.rounds
        )
        return GameRecord(
            rules=rules,
            seats=tuple(names),
            rounds=rounds,
            event=event,
            date=date,
            winner=winner,
            places=None if places is None else tuple(places),
            fairness=fairness,
        )
