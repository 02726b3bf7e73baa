"""The game record: :class:`GameRecord`, a whole game as its record holds it, made from a game or
read from text, written, replayed and verified."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass

from thirtyone.checks import shown
from thirtyone.engine import Game
from thirtyone.errors import RecordError
from thirtyone.record.reading import loads
from thirtyone.record.replay import replay
from thirtyone.record.replay import replay_steps
from thirtyone.record.shapes import RecordBody
from thirtyone.record.shapes import RoundRecord
from thirtyone.record.verify import check_commitments
from thirtyone.record.writing import dumps

__all__ = ["GameRecord"]


@dataclass(frozen=True)
class GameRecord(RecordBody):
    """A whole game, finished or not, as its record holds it.

    ``seats`` are the players' names (seat 0 first; their number is the number of players, R2.1);
    ``fairness`` the salt chain's commitment and the seats' client seeds of a game whose deals no
    one could choose (``None`` for another game);
    ``rounds`` the rounds in order (at least one; the first round's dealer is the first dealer,
    R3.1); ``preset`` the name of the preset the rules are nearest to (informational: ``rules``
    holds every option); ``winner`` and ``places`` (each seat's finishing place, R2.5) are set
    exactly when the game is over. ``event``, ``date`` and ``comment`` are free text.
    ``read_version`` is the format version of the text :meth:`loads` read it from (``None`` for a
    record made from a game; it is not part of equality: a record reads the same in any version).

    Create one with :meth:`from_game` or :meth:`loads`; the structure is checked on creation.

    Raises:
        RecordError: for a structure no game can have: a seat count the rules cannot deal, no
            rounds, rounds out of order, a dealer or an acting seat that is not a seat, a deck
            order that is not a permutation of the deck, a round without a result before the
            last, or an outcome that does not fit the seats.
    """

    # ------------------------------------------------------------------------------ construction

    @classmethod
    def from_game(
        cls,
        game: Game,
        seats: Sequence[str] | None = None,
        *,
        event: str | None = None,
        date: str | None = None,
        comment: str | None = None,
    ) -> GameRecord:
        """The record of ``game`` as it stands now (finished or not).

        ``seats`` names the players (default ``"seat 0"``, ``"seat 1"``, …); ``event``, ``date``
        and ``comment`` are optional free text.

        Raises:
            RecordError: when ``game`` is not a :class:`~thirtyone.engine.Game`, ``seats`` is not a
                list of names or does not name every seat once, or a name or text is not text or
                not valid Unicode (a lone surrogate).
        """
        if not isinstance(game, Game):
            raise RecordError(f"GameRecord.from_game needs a Game (the game to record), not {shown(game)}")
        if seats is None:
            names = tuple(f"seat {seat}" for seat in range(game.players))
        elif isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
            raise RecordError(f'seats is a list of names (["Ann", "Bob"]), not {shown(seats)}')
        else:
            names = tuple(seats)
        if len(names) != game.players:
            raise RecordError(f"{len(names)} seat names for {game.players} players: name every seat once")
        rounds = tuple(
            RoundRecord(
                round=log.round,
                dealer=log.dealer,
                deck=tuple(log.deck),
                reshuffles=tuple(tuple(order) for order in log.reshuffles),
                actions=tuple(log.actions),
                result=None if log.result is None else log.result.public(),
            )
            for log in game.round_logs
        )
        places = tuple(standing.place for standing in sorted(game.standings, key=lambda s: s.seat))
        return cls(
            rules=game.rules,
            seats=names,
            rounds=rounds,
            event=event,
            date=date,
            comment=comment,
            winner=game.winner if game.is_over else None,
            places=places if game.is_over else None,
        )

    # ------------------------------------------------------------------------------ text

    def dumps(self) -> str:
        """The record as TOML text (UTF-8 when written to a file; ends with a newline).

        :meth:`loads` reads it back to an equal record.
        """
        return dumps(self)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from TOML text (see ``docs/record-format.md``).

        The structure is checked here; that the actions are legal and the results right is
        checked by :meth:`replay`.

        Raises:
            RecordError: for ``text`` that is not a ``str`` (bytes: decode them first), text that
                is not TOML, is not a thirtyone record, has an unknown version, a missing or
                unknown key, a value of the wrong type, bad card or action text, or a structure
                no game can have. The message names the round and the action index (from 1)
                where they apply; entries of an array count from 0, as seats do (``seats[0]``).
        """
        return cls(**loads(text))

    # ------------------------------------------------------------------------------ replay

    def replay(self, upto: int | None = None) -> Game:
        """Replay the record through the engine and return the game.

        Every action is checked by :meth:`Game.apply <thirtyone.engine.Game.apply>`; each round's
        dealer, reshuffles and result, and the outcome, are checked against the record. With
        ``upto`` the replay stops after that many actions in total (``0``: just after the first
        deal), having checked everything up to there; ``upto`` at or beyond
        :attr:`action_count` replays and checks the whole record.

        Raises:
            RecordError: for an ``upto`` that is not a whole number from 0; when the engine
                refuses an action (the message names the round, the action index within the
                round, from 1, the action and the engine's reason, which starts with the rule
                id), when the record's result, dealer or outcome differs from the replay, when
                actions are missing or trail after a round or the game ended, or when a deck or
                reshuffle order is missing or wrong.
        """
        return replay(self, upto)

    def replay_steps(self) -> Iterator[Game]:
        """Replay the record step by step: yields the game after the first deal, then after each
        action (``action_count + 1`` times in all). It is the *same* :class:`Game` object each
        time, moved on by one action; copy what you need before the next step.

        Everything is checked as in :meth:`replay`, as soon as it can be.

        Raises:
            RecordError: as :meth:`replay`.
        """
        return replay_steps(self)

    def check_commitments(self) -> int:
        """Check the provably fair shuffles; returns the number of rounds checked. (Whether the
        actions are legal and the results right is :meth:`replay`'s to check.)

        With ``fairness`` (deals no one could choose, :mod:`thirtyone.fairness`): every round has
        its revealed ``salt``, the salt is the round's salt of the committed chain (``link`` applied
        ``round`` times gives the commitment), and the round's deck is the one the salt and the
        seats' seeds deal (:func:`~thirtyone.fairness.deal_deck`): so any card changed, dealt or
        not, fails. Without: every round has a published ``commitment`` and a revealed ``salt``,
        and the commitment is :func:`deal_commitment` of that salt and the round's deck order.
        Either way every reshuffle (R4.3) must be the order :func:`salted_reshuffle` gives.

        Raises:
            RecordError: naming the round: no commitment, no salt (not revealed yet), a salt that
                is not the chain's, a deck that is not the one the salt and the seeds deal, or a
                reshuffle that is not the salt's.
            CommitmentError: (a RecordError) for a commitment that does not match: a round's that
                is not the SHA-256 of its salt and deck, or the chain's in ``[fairness]`` when every
                salt leads to one other commitment and deals its deck (so the commitment changed).
        """
        return check_commitments(self)
