"""A table's state: what is stored of it (:class:`~thirtyone.server.db_store.TableData`, its row and
seats), its history (:class:`~thirtyone.server.history.TableHistory`) and its game, which takes
every chance step explicitly (``Game(..., explicit_chance=True)``: the first dealer, each deal from
the table's salt chain and the seats' seeds, each reshuffle from the round's salt, :mod:`fair`).
The game's own history holds the rounds; the table's history, what is stored beside it (its deals
and its actions as stored).

A change is worked out first, as a :class:`Move`, on a copy of the game (``Game.copy()``): the
action checked by the engine and played, its chance steps dealt (through the one table loop,
:mod:`thirtyone.table_loop`, with the table's dealer), the deals and the rounds it ended listed, and
the record written if the game ended. Nothing of the table changes until the move is stored and
:meth:`Table.keep` makes the copy the table's game: a failed write leaves the table as it was. The
game is built from the database only when the table is opened (:meth:`Table.opened`, a restarted
server, or a table this process had not served): from the stored deals and actions, through the same
moves. What another process stores is taken as moves too (:meth:`Table.replay`).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from thirtyone.actions import Action
from thirtyone.bots import BOT_NAMES
from thirtyone.cards import Card
from thirtyone.chance import ChanceStep
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.events import RoundEnded
from thirtyone.fairness import SaltChain
from thirtyone.record import Fairness
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import Rules
from thirtyone.server.config import ServerSettings
from thirtyone.server.errors import RefusedError
from thirtyone.server.errors import UnavailableError
from thirtyone.server.fair import Deal
from thirtyone.server.fair import deal_for
from thirtyone.server.fair import reshuffle_order
from thirtyone.server.history import ActionData
from thirtyone.server.history import TableHistory
from thirtyone.server.rows import FINISHED
from thirtyone.server.rows import TableData
from thirtyone.server.serialize import refusal_json
from thirtyone.table_loop import WAIT
from thirtyone.table_loop import Wait
from thirtyone.table_loop import next_seat
from thirtyone.text import refusal_words

__all__ = ["Move", "Table"]


class _DealtByTheTable:
    """The chance of a table's game: none of its own. The table deals every chance step itself
    (``explicit_chance=True``, :meth:`Table._deal`), so the game never asks; stateless, every copy
    of the game shares it (a seeded source would be copied with each action's copy of the game)."""

    def first_dealer(self, players: int) -> int:  # pragma: no cover - the table deals it
        raise AssertionError("a table's game takes its first dealer from the table")

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:  # pragma: no cover
        raise AssertionError("a table's game takes its deals from the table")

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:  # pragma: no cover
        raise AssertionError("a table's game takes its reshuffles from the table")

    def __deepcopy__(self, memo: dict[int, object]) -> _DealtByTheTable:
        return self


_CHANCE = _DealtByTheTable()


@dataclass
class Move:
    """One change of a table's game, worked out and not yet stored: the ``game`` after it (a copy),
    the stored ``action`` (``None`` for the deals that start the game, or a deal the database
    lacked), the ``deals`` it dealt and the numbers of the rounds it ``ended``, in order, and, when
    it ended the game, its ``winner`` and ``record`` (TOML)."""

    game: Game
    action: ActionData | None
    deals: list[Deal] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)
    winner: int | None = None
    record: str | None = None

    @property
    def finished(self) -> tuple[int, str] | None:
        """``(winner, record)`` when it ended the game (winner -1 for none), as the store takes it."""
        if self.record is None:
            return None
        return (-1 if self.winner is None else self.winner), self.record


class Table:
    """A table's state (see the module docstring), from what is stored of it: ``data``, and its
    ``history`` and ``game`` once it starts; ``settings`` give the server's randomness (a deal of
    an older table)."""

    def __init__(self, data: TableData, settings: ServerSettings) -> None:
        self.data = data
        self.settings = settings
        self.rules = Rules(**data.options)
        self.history = TableHistory()
        self.game: Game | None = None
        self._chain: SaltChain | None = None

    @property
    def code(self) -> str:
        """The table's code."""
        return self.data.code

    @classmethod
    def opened(
        cls, data: TableData, deals: Sequence[Deal], actions: Sequence[ActionData], settings: ServerSettings
    ) -> tuple[Table, Move | None]:
        """The table stored as ``data`` with its ``deals`` and ``actions``, its game played from them
        (none before the table starts); and the move that deals what the database lacks, if any (a
        deal due after the last action, which an older server did not store): store it, then keep it.

        Raises:
            UnavailableError: when the stored deals and actions do not replay (``damaged``).
        """
        table = cls(data, settings)
        return table, table.resume(deals, actions)

    def resume(self, deals: Sequence[Deal], actions: Sequence[ActionData]) -> Move | None:
        """Play the stored ``deals`` and ``actions`` into a new game and history (none before the
        table starts): the one time the game is built from the database, when the table opens in
        this process. Returns the move that deals what the database lacks, if any (see
        :meth:`opened`).

        Raises:
            UnavailableError: when they do not replay (``damaged``).
        """
        data = self.data
        self.game, self.history = None, TableHistory()
        if data.first_dealer is None:
            return None
        given = {deal.round: deal for deal in deals}
        try:
            self.keep(self._started(data.first_dealer, given, make=False))
            for stored in actions:
                self.keep(self._moved(self._current(), stored, given, copy=False))
        except ThirtyOneError as error:
            raise UnavailableError(f"table {data.code} cannot be resumed: {error}", "damaged") from None
        game = self._current()
        if not game.is_chance():
            return None
        move = Move(game.copy(), None)
        self._deal(move, data.seq, {}, make=True)
        return move

    # ------------------------------------------------------------------------------ what it holds

    def name(self, seat: int) -> str:
        """A seat's display name (a bot's is its table name)."""
        return self.data.seats[seat].name or BOT_NAMES[seat]

    def who(self, seat: int) -> str:
        """A seat in words: ``"Ann (seat 0)"``."""
        name = self.data.seats[seat].name
        return f"{name} (seat {seat})" if name else f"seat {seat}"

    def salt_chain(self) -> SaltChain | None:
        """The table's salt chain (``None`` for a table of an older server, whose deals commit one
        by one); its links are worked out when the first deal needs them."""
        data = self.data
        if data.chain_key is None or data.chain_length is None:
            return None
        if self._chain is None or self._chain.key != data.chain_key:
            self._chain = SaltChain(data.chain_key, data.chain_length, commitment=data.commitment)
        return self._chain

    def seeds(self) -> list[str | None]:
        """Each seat's client seed (lowercase hex; ``None`` for none), in seat order."""
        return [seat.seed for seat in self.data.seats]

    def record(self, game: Game, history: TableHistory | None = None, reveal_all: bool = False) -> str:
        """The record (TOML) of ``game``, dealt by ``history``'s deals (default: the table's): the
        salt chain's commitment and the seats' seeds (``[fairness]``), each round's salt once it has
        ended (every round's with ``reveal_all``, as when the host closes the table); an older
        table's rounds each with their own commitment."""
        data = self.data
        fairness = None
        if data.commitment is not None:
            fairness = Fairness(data.commitment, tuple(seed or "" for seed in self.seeds()))
        return (
            (self.history if history is None else history)
            .record(
                game,
                [self.name(seat.seat) for seat in data.seats],
                event=f"thirtyone serve, table {data.code}",
                date=data.created_at.date().isoformat(),
                fairness=fairness,
                reveal_all=reveal_all,
            )
            .dumps()
        )

    # ------------------------------------------------------------------------------ moves

    def start(self, first_dealer: int, seeds: Sequence[str | None]) -> Move:
        """The game that starts with seat ``first_dealer`` dealing (R3.1) and the seats' ``seeds``:
        its first deal (and any after it: a 31 on the deal ends a round at once, R5.2), not yet kept."""
        return self._started(first_dealer, {}, make=True, seeds=seeds)

    def play(self, seat: int, action: Action, source: str) -> Move:
        """``seat``'s ``action`` (stored as source ``source``: ``player``, ``bot``, ``timer``) played
        on a copy of the game, with the deals it leads to; nothing of the table changes.

        Raises:
            RefusedError: when it is not the seat's turn (``not_your_turn``, R2.1) or the rules
                forbid it (``illegal_action``; the message starts with the rule id), with the
                engine's refusal as data.
            ChainUsedUpError: when the next round would need a salt past the table's chain.
        """
        game = self._current()
        stored = ActionData(self.data.seq + 1, game.round, seat, str(action), source)
        try:
            move = self._moved(game, stored, {}, make=True, action=action)
        except IllegalActionError as error:  # not this seat's turn (R2.1), or the rules forbid it
            code = "not_your_turn" if error.code == "not_your_turn" else "illegal_action"
            raise RefusedError(refusal_words(error, self.name), code, refusal_json(error)) from None
        if move.game.is_over:  # the record, with the deals this move leads to
            move.winner = move.game.winner
            after = self.history.copy()
            after.add(move.action, move.deals)
            move.record = self.record(move.game, after)
        return move

    def replay(self, stored: ActionData, deals: Mapping[int, Deal]) -> Move:
        """An action another process stored (``stored``, with the ``deals`` stored since), played on
        a copy of the game as its writer played it.

        Raises:
            UnavailableError: when it does not replay, or it dealt a round that is not stored
                (``damaged``).
        """
        try:
            move = self._moved(self._current(), stored, deals)
        except ThirtyOneError as error:
            raise UnavailableError(f"table {self.code}: stored action {stored.seq} does not replay: {error}") from None
        if move.game.is_chance():
            raise UnavailableError(f"table {self.code}: action {stored.seq} dealt a deal that is not stored")
        return move

    def keep(self, move: Move) -> None:
        """Make a stored ``move`` the table's: its game, its history, its seq (and a finished game)."""
        self.game = move.game
        self.history.add(move.action, move.deals)
        data = self.data
        if move.action is not None:
            data.seq = move.action.seq
        finished = move.finished
        if finished is not None:
            data.status, data.winner, data.record = FINISHED, finished[0], finished[1]

    def _current(self) -> Game:
        if self.game is None:  # pragma: no cover - the runner checks that the table is playing
            raise UnavailableError(f"table {self.code} has no game", "not_playing")
        return self.game

    def _started(
        self, first_dealer: int, given: Mapping[int, Deal], make: bool, seeds: Sequence[str | None] | None = None
    ) -> Move:
        game = Game(self.rules, self.data.players, chance=_CHANCE, explicit_chance=True)
        game.deal(first_dealer)  # R3.1
        move = Move(game, None)
        self._deal(move, 0, given, make, seeds)
        return move

    def _moved(
        self,
        game: Game,
        stored: ActionData,
        given: Mapping[int, Deal],
        make: bool = False,
        copy: bool = True,
        action: Action | None = None,
    ) -> Move:
        """``stored`` (or ``action``, its parsed form) played on ``game`` (a copy of it unless
        ``copy`` is false), its chance steps dealt from ``given`` or, with ``make``, made anew."""
        twin = game.copy() if copy else game
        start = len(twin.events)
        twin.apply(stored.action if action is None else action, seat=stored.seat)
        move = Move(twin, stored)
        self._deal(move, stored.seq, given, make, since=start)
        return move

    def _deal(
        self,
        move: Move,
        seq: int,
        given: Mapping[int, Deal],
        make: bool,
        seeds: Sequence[str | None] | None = None,
        since: int | None = None,
    ) -> None:
        """Take the chance steps ``move``'s game waits for through the one table loop
        (:func:`~thirtyone.table_loop.next_seat`) with the table's dealer: each deal from ``given``
        or, with ``make``, :func:`~thirtyone.server.fair.deal_for` (else it waits there), each
        reshuffle from its round's salt. The move lists each deal, and each round ended since the
        game's event ``since`` (default: the rounds these deals ended)."""
        game = move.game
        start = len(game.events) if since is None else since

        def deal(step: ChanceStep) -> Sequence[Card] | Wait:
            assert step.kind != "dealer"  # the first dealer is dealt at the start
            if step.kind == "reshuffle":
                return reshuffle_order(step, self._deal_of(step.round, move))
            dealt = given.get(step.round)
            if dealt is None:
                if not make:
                    return WAIT
                dealt = deal_for(
                    step, seq, self.salt_chain(), self.seeds() if seeds is None else seeds, self.settings.randomness
                )
            move.deals.append(dealt)
            return dealt.deck

        next_seat(game, deal)
        move.ended += [event.result.round for event in game.events[start:] if isinstance(event, RoundEnded)]

    def _deal_of(self, number: int, move: Move) -> Deal:
        """Round ``number``'s deal: in the history, or dealt by ``move``."""
        deal = next((dealt for dealt in move.deals if dealt.round == number), None) or self.history.deal(number)
        assert deal is not None, number
        return deal
