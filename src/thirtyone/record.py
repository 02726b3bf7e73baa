"""Game records (R3.5): a documented, versioned, human-readable TOML format that holds everything
needed to replay a game exactly, and to check that the replay says what the record says.

A record holds the format and version (``format = "thirtyone-record"``, ``version = 3``), optional
metadata (``event``, ``date``, ``comment``), the seats' names, the rules (the nearest preset's name
and *every* option, so that a record stays complete if presets change), the outcome of a finished
game, and one ``[[rounds]]`` table per round: its number, dealer, full deck order (top card first),
the order of every reshuffle (R4.3), every action as ``"SEAT: ACTION"`` (``"2: discard Td"``, see
:mod:`thirtyone.actions`) and the round's result. ``docs/record-format.md`` documents every key.

A round dealt with a published commitment (``thirtyone serve``'s provably fair shuffles) also holds
its ``commitment`` (SHA-256 over a canonical text of the salt and the deck order, see
:func:`deal_commitment`) and, once revealed, its secret ``salt``; :meth:`GameRecord.check_commitments`
checks them, and that every reshuffle is the one the salt gives (:func:`salted_reshuffle`).

This module is core: standard library only, strings in and strings out (no files).

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("scat"), players=3, seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> record = GameRecord.from_game(game, ["Ann", "Bob", "Cy"], event="doctest")
>>> text = record.dumps()
>>> text.splitlines()[1:3]
['format = "thirtyone-record"', 'version = 3']
>>> again = GameRecord.loads(text)
>>> again == record, again.players, again.winner, again.action_count > 0
(True, 3, 0, True)
>>> replayed = again.replay()
>>> replayed.events == game.events
True
>>> again.replay(upto=2).round_logs[0].actions == game.round_logs[0].actions[:2]
True
>>> GameRecord.loads(text.replace("version = 3", "version = 7"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
thirtyone.errors.RecordError: record version 7 is not supported: this thirtyone reads versions 1, 2, 3; ...
"""

from __future__ import annotations

import datetime
import hashlib
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, cast, get_args

from thirtyone.actions import Action, parse_action
from thirtyone.cards import Card, format_cards, full_deck, parse_cards
from thirtyone.chance import check_permutation
from thirtyone.checks import whole_number
from thirtyone.engine import Game
from thirtyone.errors import CommitmentError, RecordError, SeedError, ThirtyOneError
from thirtyone.events import RoundResult
from thirtyone.fairness import chain_link, deal_deck, parse_seed, salt_matches
from thirtyone.rules import OPTIONS, Rules
from thirtyone.scoring import HandValue
from thirtyone.settlement import KNOCK_PENALTIES, LOSS_KINDS, LOSS_RULES, NO_KNOCK_KINDS, Loss, LossKind, RoundEnd
from thirtyone.text import describe_end, loss_reason

__all__ = [
    "FORMAT",
    "VERSION",
    "SUPPORTED_VERSIONS",
    "V1_OPTIONS",
    "GameRecord",
    "RoundRecord",
    "Fairness",
    "format_action",
    "parse_record_action",
    "describe_end",
    "deal_commitment",
    "salted_reshuffle",
    "check_salt",
    "DEAL_COMMITMENT_PREFIX",
    "RESHUFFLE_PREFIX",
]

FORMAT: Final = "thirtyone-record"
"""The value of the ``format`` key of every record."""
VERSION: Final = 3
"""The version this library writes: 3, whose losses carry their kind (``kind``, ``seats``; see
:data:`~thirtyone.settlement.LossKind`), which may hold a ``[fairness]`` table (the salt chain's
commitment and every seat's client seed: deals no one can choose, :mod:`thirtyone.fairness`), and
whose rounds may hold their salts (or, as in version 2, each deal's own commitment and salt)."""
SUPPORTED_VERSIONS: Final = (1, 2, 3)
"""The versions this library reads."""
V1_OPTIONS: Final = (
    "mode", "deck", "lives", "grace_life", "three_of_a_kind", "three_aces", "straight_flush", "knock_penalty",
    "knock_from_round", "min_knock_value", "throw_down", "max_turns", "stock_exhausted", "all_pass", "exchange",
    "dealer_hand",
)  # fmt: skip
"""The rule options a version-1 record must list. An option added to the library later must
default to the old behaviour; a record that omits it gets that default (``Rules``' default)."""

_ENDS: Final = frozenset(get_args(RoundEnd))
_TOP_KEYS: Final = ("format", "version", "event", "date", "comment", "seats", "rules", "outcome", "rounds")
_TOP_KEYS_V3: Final = (*_TOP_KEYS, "fairness")
_ROUND_KEYS: Final = ("round", "dealer", "deck", "reshuffles", "actions", "result")
_ROUND_KEYS_V2: Final = ("round", "dealer", "deck", "commitment", "salt", "reshuffles", "actions", "result")
DEAL_COMMITMENT_PREFIX: Final = "thirtyone-deal/1"
"""The first word of the canonical text a deal's commitment hashes (see :func:`deal_commitment`)."""
RESHUFFLE_PREFIX: Final = "thirtyone-reshuffle/1"
"""The first word of the text whose hash orders a salted reshuffle (see :func:`salted_reshuffle`)."""
_SALT: Final = re.compile(r"[0-9a-f]{32,128}")
_COMMITMENT: Final = re.compile(r"[0-9a-f]{64}")
_LOSS_KEYS_V1: Final = ("seat", "lives", "rule", "reason")
_LOSS_KEYS: Final = ("seat", "lives", "kind", "seats", "rule", "reason")
_RESULT_KEYS: Final = (
    "end", "knocker", "blitz", "turns", "shown", "losses", "remaining", "eliminated", "saved_by_r2_6",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------- shapes


@dataclass(frozen=True)
class RoundRecord:
    """One round of a record (R3.5).

    ``round`` counts from 1; ``dealer`` is a seat; ``deck`` is the full deck order, top card first
    (52 or 32 cards, R1.1); ``reshuffles`` holds the new stock of each reshuffle in order, top
    first (R4.3); ``actions`` is every ``(seat, action)`` of the round in order; ``result`` is the
    round's result as shown at the table (``RoundResult.public()``), or ``None`` for a round still
    being played (only the last round of an unfinished game). ``commitment`` is the SHA-256 (64
    lowercase hex digits) published before the deal, and ``salt`` (32–128 lowercase hex digits)
    the secret revealed after the round (:func:`deal_commitment`); both ``None`` for a round not
    dealt with a commitment, and the salt ``None`` while it is not revealed yet.
    """

    round: int
    dealer: int
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...] = ()
    actions: tuple[tuple[int, Action], ...] = ()
    result: RoundResult | None = None
    salt: str | None = None
    commitment: str | None = None


@dataclass(frozen=True)
class Fairness:
    """How a game's deals were made so that no one could choose them (:mod:`thirtyone.fairness`):
    the salt chain's ``commitment`` (64 lowercase hex digits) the table published before anyone
    sent a seed, and each seat's client ``seeds`` in seat order (lowercase hex; ``""`` for a seat
    that gave none, such as a bot). Each round's salt is its round's ``salt``."""

    commitment: str
    seeds: tuple[str, ...]


@dataclass(frozen=True)
class GameRecord:
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

    rules: Rules
    seats: tuple[str, ...]
    rounds: tuple[RoundRecord, ...]
    preset: str | None = None
    event: str | None = None
    date: str | None = None
    comment: str | None = None
    winner: int | None = None
    places: tuple[int, ...] | None = None
    fairness: Fairness | None = None
    read_version: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.preset is None:
            object.__setattr__(self, "preset", self.rules.nearest_preset()[0])
        object.__setattr__(self, "seats", tuple(self.seats))
        object.__setattr__(self, "rounds", tuple(self.rounds))
        self._check()

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
            raise RecordError(f"GameRecord.from_game needs a Game (the game to record), not {_show(game)}")
        if seats is None:
            names = tuple(f"seat {seat}" for seat in range(game.players))
        elif isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
            raise RecordError(f'seats is a list of names (["Ann", "Bob"]), not {_show(seats)}')
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

    # ------------------------------------------------------------------------------ summaries

    @property
    def players(self) -> int:
        """The number of seats (2–9, R2.1)."""
        return len(self.seats)

    @property
    def first_dealer(self) -> int:
        """The seat that dealt round 1 (R3.1)."""
        return self.rounds[0].dealer

    @property
    def action_count(self) -> int:
        """Actions in the whole record (what :meth:`replay`'s ``upto`` counts)."""
        return sum(len(rnd.actions) for rnd in self.rounds)

    @property
    def is_finished(self) -> bool:
        """True when the record is of a game that is over (one player left, R2.5)."""
        return self.winner is not None

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The results of the rounds that have ended, in order."""
        return tuple(rnd.result for rnd in self.rounds if rnd.result is not None)

    @property
    def version(self) -> int:
        """The format version this record is written in (:data:`VERSION`)."""
        return VERSION

    # ------------------------------------------------------------------------------ text

    def dumps(self) -> str:
        """The record as TOML text (UTF-8 when written to a file; ends with a newline).

        :meth:`loads` reads it back to an equal record.
        """
        out = [
            f"# Thirty-One game record ({FORMAT}, version {self.version}); the format: docs/record-format.md",
            f"format = {_toml_str(FORMAT)}",
            f"version = {self.version}",
        ]
        for key, text in (("event", self.event), ("date", self.date), ("comment", self.comment)):
            if text is not None:
                out.append(f"{key} = {_toml_str(text)}")
        out.append(f"seats = [{', '.join(_toml_str(name) for name in self.seats)}]")
        out += ["", "[rules]", f"# {self.rules.describe()}", f"preset = {_toml_str(self.preset or '')}"]
        for name, value in self.rules.options().items():
            out.append(f"{name} = {_toml_option(value)}")
        if self.winner is not None and self.places is not None:
            out += ["", "[outcome]", f"winner = {self.winner}", f"places = {_toml_ints(self.places)}"]
        if self.fairness is not None:
            seeds = ", ".join(_toml_str(seed) for seed in self.fairness.seeds)
            out += ["", "[fairness]", f"commitment = {_toml_str(self.fairness.commitment)}", f"seeds = [{seeds}]"]
        for rnd in self.rounds:
            out += ["", "[[rounds]]", f"round = {rnd.round}", f"dealer = {rnd.dealer}"]
            out.append(f"deck = {_toml_str(format_cards(rnd.deck))}")
            if rnd.commitment is not None:
                out.append(f"commitment = {_toml_str(rnd.commitment)}")
            if rnd.salt is not None:
                out.append(f"salt = {_toml_str(rnd.salt)}")
            out += _toml_array("reshuffles", [_toml_str(format_cards(order)) for order in rnd.reshuffles])
            out += _toml_array("actions", [_toml_str(format_action(seat, action)) for seat, action in rnd.actions])
            if rnd.result is not None:
                out += ["", "[rounds.result]", *_result_lines(rnd.result)]
        return "\n".join(out) + "\n"

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
        if not isinstance(text, str):
            if isinstance(text, bytes | bytearray):
                raise RecordError('a game record is text (str), not bytes: decode it first (data.decode("utf-8"))')
            raise RecordError(f"a game record is text (str), not {_show(text)}: pass the TOML text of a record")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RecordError(f"not valid TOML: {error}") from None
        except RecursionError:
            raise RecordError("not valid TOML: arrays or tables nested too deeply") from None
        return _parse_record(data)

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
        wanted = None if upto is None else whole_number(upto)
        if upto is not None and (wanted is None or wanted < 0):
            raise RecordError(f"upto is a whole number of actions from 0 (or None for all), not {_show(upto)}")
        stop = None if wanted is None or wanted >= self.action_count else wanted
        last: Game | None = None
        for count, game in enumerate(self.replay_steps()):
            last = game
            if stop is not None and count >= stop:
                break
        assert last is not None
        return last

    def replay_steps(self) -> Iterator[Game]:
        """Replay the record step by step: yields the game after the first deal, then after each
        action (``action_count + 1`` times in all). It is the *same* :class:`Game` object each
        time, moved on by one action; copy what you need before the next step.

        Everything is checked as in :meth:`replay`, as soon as it can be.

        Raises:
            RecordError: as :meth:`replay`.
        """
        return _Replayer(self).steps()

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
        fairness = self.fairness
        for rnd in self.rounds:
            where = f"round {rnd.round}"
            if fairness is None and rnd.commitment is None:
                raise RecordError(
                    f"{where}: no commitment: this round was not dealt with a published commitment, "
                    "so its shuffle cannot be verified"
                )
            if rnd.salt is None:
                if rnd.result is not None:
                    raise RecordError(f"{where}: the salt is missing, though the round ended and revealed it")
                raise RecordError(f"{where}: the salt is not revealed (the round was still being played)")
            if fairness is not None:
                if not salt_matches(fairness.commitment, rnd.salt, rnd.round):
                    self._check_chain_commitment()
                    raise RecordError(
                        f"{where}: the salt {rnd.salt} is not round {rnd.round}'s salt of the chain committed to "
                        f"before the game ({fairness.commitment}): SHA-256 of 'thirtyone-chain/1 SALT' taken "
                        f"{rnd.round} time(s) does not give the commitment; the salt was changed"
                    )
                dealt = deal_deck(rnd.salt, rnd.round, fairness.seeds, self.rules.deck)
                if list(rnd.deck) != dealt:
                    at = next(i for i, (a, b) in enumerate(zip(rnd.deck, dealt, strict=True)) if a != b)
                    raise RecordError(
                        f"{where}: the deck order is not the one the salt and the seats' seeds deal: card "
                        f"{at + 1} from the top is {rnd.deck[at]} in the record, {dealt[at]} dealt "
                        "(docs/record-format.md); the deck was changed"
                    )
            else:
                computed = deal_commitment(rnd.salt, rnd.deck)
                if computed != rnd.commitment:
                    raise CommitmentError(
                        f"{where}: the commitment does not match the deck order and the salt: the commitment, the "
                        "deck order or the salt was changed (one hash cannot tell which): "
                        f"{_hash_difference(rnd.commitment or '', computed)}",
                        recorded=rnd.commitment or "",
                        computed=computed,
                    )
            for number, order in enumerate(rnd.reshuffles, 1):
                if list(order) != salted_reshuffle(rnd.salt, order, number):
                    raise RecordError(
                        f"{where}: reshuffle {number} is not the order the round's salt gives (R4.3, "
                        "docs/record-format.md)"
                    )
        return len(self.rounds)

    def _check_chain_commitment(self) -> None:
        """Raise :class:`CommitmentError` when every round's salt leads (``link`` applied
        ``round`` times) to one and the same other commitment and deals its round's recorded
        deck: the salts, seeds and decks agree, so the commitment in ``[fairness]`` was changed.
        Otherwise return (a salt was changed, as the caller says)."""
        fairness = self.fairness
        assert fairness is not None
        tops: set[str] = set()
        for rnd in self.rounds:
            if rnd.salt is None:
                return  # the caller's error (salts are checked for their shape on loading)
            tops.add(_chain_top(rnd.salt, rnd.round))
            if list(rnd.deck) != deal_deck(rnd.salt, rnd.round, fairness.seeds, self.rules.deck):
                return
        if len(tops) != 1:
            return
        computed = tops.pop()
        raise CommitmentError(
            f"the commitment in [fairness] is not the one the salts were committed to: every round's salt leads "
            f"to one other commitment and deals the recorded deck, so the commitment was changed: "
            f"{_hash_difference(fairness.commitment, computed)}",
            recorded=fairness.commitment,
            computed=computed,
        )

    # ------------------------------------------------------------------------------ checks

    def _check(self) -> None:
        players = len(self.seats)
        try:
            self.rules.check_players(players)
        except ThirtyOneError as error:
            raise RecordError(f"seats: {error}") from None
        for seat, name in enumerate(self.seats):
            _check_text(name, f"seats: the name of seat {seat}")
            if not name.strip():
                raise RecordError(f"seats: the name of seat {seat} is empty; give every seat a name")
        for key in ("preset", "event", "date", "comment"):
            value = getattr(self, key)
            if value is not None:
                _check_text(value, key)
        if not self.rounds:
            raise RecordError("rounds: a record has at least one round (the first gives the first dealer)")
        deck = full_deck(self.rules.deck)
        last = len(self.rounds)
        for index, rnd in enumerate(self.rounds, 1):
            where = f"round {index}"
            if rnd.round != index:
                raise RecordError(f"{where}: its number is {rnd.round}; rounds are numbered 1, 2, 3 … in order")
            if not 0 <= rnd.dealer < players:
                raise RecordError(f"{where}: dealer {rnd.dealer} is not a seat (seats 0-{players - 1})")
            try:
                check_permutation(rnd.deck, deck, f"{where}: the deck order")
            except ThirtyOneError as error:
                raise RecordError(f"{error} ({self.rules.deck}-card deck, R1.1)") from None
            for number, (seat, action) in enumerate(rnd.actions, 1):
                if not 0 <= seat < players:
                    raise RecordError(
                        f'{where}, action {number} ("{format_action(seat, action)}"): '
                        f"{seat} is not a seat (seats 0-{players - 1})"
                    )
            if rnd.result is None and index != last:
                raise RecordError(f"{where}: no result, but only the last round may be unfinished")
            _check_fairness_shape(rnd, where, chained=self.fairness is not None)
            if self.fairness is not None and rnd.commitment is not None:
                raise RecordError(
                    f"{where}: a round of a record with [fairness] has no commitment of its own "
                    "(the chain's commitment covers every round)"
                )
            if rnd.result is not None:
                _check_result_shape(rnd.result, players, where)
        if self.fairness is not None:
            _check_fairness(self.fairness, players)
        if (self.winner is None) != (self.places is None):
            raise RecordError("outcome: give both winner and places, or neither (unfinished game)")
        if self.winner is not None and self.places is not None:
            if not 0 <= self.winner < players:
                raise RecordError(f"outcome: winner {self.winner} is not a seat (seats 0-{players - 1})")
            if len(self.places) != players:
                raise RecordError(f"outcome: places has {len(self.places)} entries for {players} seats")
            if self.rounds[-1].result is None:
                raise RecordError(f"outcome: the game is over, but round {last} has no result")


def _chain_top(salt: str, round: int) -> str:
    """What round ``round``'s ``salt`` commits to: ``link`` applied ``round`` times."""
    value = salt
    for _ in range(round):
        value = chain_link(value)
    return value


def _hash_difference(published: str, computed: str) -> str:
    """Two hashes in full, with where they first differ (a change at the end shows too).

    >>> _hash_difference("ab12", "ab32")
    'published ab12, computed ab32 (they first differ at hex digit 3 of 4: 1 against 3)'
    """
    where = next((index for index, (a, b) in enumerate(zip(published, computed, strict=False)) if a != b), None)
    if where is None:
        where, detail = (
            min(len(published), len(computed)),
            f"one is {len(published)} digits long, the other {len(computed)}",
        )
    else:
        detail = f"{published[where]} against {computed[where]}"
    length = max(len(published), len(computed))
    return (
        f"published {published}, computed {computed} (they first differ at hex digit {where + 1} of {length}: {detail})"
    )


def _check_fairness_shape(rnd: RoundRecord, where: str, chained: bool = False) -> None:
    if rnd.commitment is not None and (
        not isinstance(rnd.commitment, str) or not _COMMITMENT.fullmatch(rnd.commitment)
    ):
        raise RecordError(
            f"{where}: commitment must be 64 lowercase hex digits (a SHA-256), not {_show(rnd.commitment)}"
        )
    if rnd.salt is not None:
        try:
            check_salt(rnd.salt)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
        if rnd.commitment is None and not chained:
            raise RecordError(f"{where}: a salt without a commitment; give the commitment published before the deal")


def _check_fairness(fairness: Fairness, players: int) -> None:
    commitment = fairness.commitment
    if not isinstance(commitment, str) or not _COMMITMENT.fullmatch(commitment):
        raise RecordError(f"fairness: commitment must be 64 lowercase hex digits (a SHA-256), not {_show(commitment)}")
    if len(fairness.seeds) != players:
        raise RecordError(f'fairness: seeds has {len(fairness.seeds)} entries for {players} seats ("" for none)')
    for seat, seed in enumerate(fairness.seeds):
        if seed == "":
            continue
        try:
            clean = parse_seed(seed)
        except SeedError as error:
            raise RecordError(f"fairness: the seed of seat {seat}: {error}") from None
        if clean != seed:
            raise RecordError(f"fairness: the seed of seat {seat} must be lowercase hex, not {_show(seed)}")


def _check_result_shape(result: RoundResult, players: int, where: str) -> None:
    for name in ("hands", "values", "remaining"):
        if len(getattr(result, name)) != players:
            raise RecordError(f"{where}: result: {name} has {len(getattr(result, name))} entries for {players} seats")
    seats: list[int] = [*result.blitz, *result.eliminated, *(loss.seat for loss in result.losses)]
    if result.knocker is not None:
        seats.append(result.knocker)
    for seat in seats:
        if not 0 <= seat < players:
            raise RecordError(f"{where}: result: {seat} is not a seat (seats 0-{players - 1})")


def _check_text(text: str, what: str) -> None:
    if not isinstance(text, str):
        raise RecordError(f"{what}: must be text, not {_show(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{what}: not valid Unicode text (it holds a lone surrogate)") from None


# ---------------------------------------------------------------------------------------------- fair shuffles


def check_salt(salt: str) -> None:
    """Check that ``salt`` is 32–128 lowercase hex digits (16–64 random bytes).

    Raises:
        RecordError: for anything else.
    """
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        raise RecordError(f"salt must be 32 to 128 lowercase hex digits, not {_show(salt)}")


def deal_commitment(salt: str, deck: Sequence[Card]) -> str:
    """The commitment to a deal: the SHA-256, as 64 lowercase hex digits, of the UTF-8 (here plain
    ASCII) text ``"thirtyone-deal/1 SALT DECK"``, where SALT is the salt's hex digits and DECK the
    deck order, top card first, each card as its two-character text (rank ``23456789TJQKA``, suit
    ``cdhs``) and single spaces between them, as :func:`~thirtyone.cards.format_cards` writes it.

    >>> from thirtyone.cards import full_deck
    >>> deal_commitment("00" * 16, full_deck(32))[:16]
    '28ff418ec319017b'

    Raises:
        RecordError: for a salt that is not 32–128 lowercase hex digits.
    """
    check_salt(salt)
    text = f"{DEAL_COMMITMENT_PREFIX} {salt} {format_cards(deck)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def salted_reshuffle(salt: str, cards: Iterable[Card], number: int) -> list[Card]:
    """The new stock of reshuffle ``number`` (from 1) of a round dealt with ``salt`` (R4.3), top
    card first: ``cards`` sorted by the SHA-256 digest of ``"thirtyone-reshuffle/1 SALT NUMBER
    CARD"`` (the card as two-character text). The order is fixed by the salt, which was committed
    to before the deal and stays secret until the round ends, so nobody can foresee it or choose
    it; the order the cards come in does not matter.

    >>> from thirtyone.cards import parse_cards
    >>> order = salted_reshuffle("ab" * 16, parse_cards("As Kd 2c"), 1)
    >>> order == salted_reshuffle("ab" * 16, parse_cards("2c As Kd"), 1), len(order)
    (True, 3)

    Raises:
        RecordError: for a salt that is not 32–128 lowercase hex digits.
    """
    check_salt(salt)
    prefix = f"{RESHUFFLE_PREFIX} {salt} {number} "
    return sorted(cards, key=lambda card: hashlib.sha256(f"{prefix}{card}".encode()).digest())


# ---------------------------------------------------------------------------------------------- actions


def format_action(seat: int, action: Action) -> str:
    """An action with its seat as a record writes it: ``"2: discard Td"``.

    >>> from thirtyone.actions import Draw
    >>> format_action(2, Draw("stock"))
    '2: draw stock'
    """
    return f"{seat}: {action}"


def parse_record_action(text: str) -> tuple[int, Action]:
    """Read ``"SEAT: ACTION"`` (``"2: discard Td"``; spacing and case are free).

    >>> parse_record_action("1: exchange Td for Ah")
    (1, Exchange(give=(Card('Td'),), take=(Card('Ah'),)))

    Raises:
        RecordError: for text without a seat number and a colon, or an action that cannot be read.
    """
    seat_text, colon, action_text = text.partition(":")
    seat_text = seat_text.strip()
    if not colon or not seat_text.isdecimal() or not seat_text.isascii():
        raise RecordError('write an action as "SEAT: ACTION", e.g. "2: draw stock"')
    try:
        return int(seat_text), parse_action(action_text)
    except ThirtyOneError as error:
        raise RecordError(str(error)) from None


# ---------------------------------------------------------------------------------------------- writing


_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_str(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    parts = ['"']
    for char in text:
        escaped = _ESCAPES.get(char)
        if escaped is not None:
            parts.append(escaped)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            parts.append(f"\\u{ord(char):04X}")
        else:
            parts.append(char)
    parts.append('"')
    return "".join(parts)


def _toml_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


def _toml_array(key: str, items: Sequence[str]) -> list[str]:
    if not items:
        return [f"{key} = []"]
    return [f"{key} = [", *(f"    {item}," for item in items), "]"]


def _toml_option(value: object) -> str:
    if value is None:
        return _toml_str("none")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _toml_str(str(value))


def _toml_value(value: HandValue) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return str(float(value))  # only halves occur (30.5, R1.4): exact as a float
    return str(int(value))


def _result_lines(result: RoundResult) -> list[str]:
    lines = [f"end = {_toml_str(result.end)}"]
    if result.knocker is not None:
        lines.append(f"knocker = {result.knocker}")
    lines += [f"blitz = {_toml_ints(result.blitz)}", f"turns = {result.turns}"]
    shown = [
        f"{{ seat = {seat}, hand = {_toml_str(format_cards(hand))}, value = {_toml_value(value)} }}"
        for seat, (hand, value) in enumerate(zip(result.hands, result.values, strict=True))
        if hand is not None and value is not None
    ]
    lines += _toml_array("shown", shown)
    losses = [
        f"{{ seat = {loss.seat}, lives = {loss.lives}, kind = {_toml_str(loss.kind)}, "
        + (f"seats = {_toml_ints(loss.seats)}, " if loss.seats else "")
        + f"rule = {_toml_str(loss.rule)}, reason = {_toml_str(loss_reason(loss, result))} }}"
        for loss in result.losses
    ]
    lines += _toml_array("losses", losses)
    lines += [
        f"remaining = {_toml_ints(result.remaining)}",
        f"eliminated = {_toml_ints(result.eliminated)}",
        f"saved_by_r2_6 = {'true' if result.saved_by_r2_6 else 'false'}",
    ]
    return lines


# ---------------------------------------------------------------------------------------------- reading


def _at(where: str) -> str:
    return f"{where}: " if where else ""


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _table(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: must be a table, not {_show(value)}")
    return cast(dict[str, Any], value)


def _keys(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise RecordError(f"{_at(where)}unknown key {key!r} (keys here: {', '.join(allowed)})")


def _need(table: Mapping[str, Any], key: str, where: str) -> object:
    if key not in table:
        raise RecordError(f"{_at(where)}missing key {key!r}")
    return cast(object, table[key])


def _int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number, not {_show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"at most {high}" if low is None else f"at least {low}" if high is None else f"from {low} to {high}"
        raise RecordError(f"{what} must be {bounds}, not {value}")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text in quotes, not {_show(value)}")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, not {_show(value)}")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be an array [...], not {_show(value)}")
    return cast(list[object], value)


def _ints(value: object, what: str) -> tuple[int, ...]:
    return tuple(_int(item, f"{what}[{index}]") for index, item in enumerate(_list(value, what)))


def _cards(value: object, what: str) -> tuple[Card, ...]:
    try:
        return parse_cards(_str(value, what))
    except ThirtyOneError as error:
        raise RecordError(f"{what}: {error}") from None


def _hand_value(value: object, what: str) -> HandValue:
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        exact = Fraction(value)
        if exact.denominator == 1:
            return int(exact)
        if exact.denominator == 2:
            return exact
        raise RecordError(f"{what} must be a whole number or a half (30.5), not {value}")
    return _int(value, what)


def _metadata(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, datetime.date | datetime.time):  # a bare TOML date or time: keep its text
        return value.isoformat()
    return _str(value, key)


def _parse_record(data: Mapping[str, Any]) -> GameRecord:
    found = data.get("format")
    if found != FORMAT:
        shown = "no format key" if found is None else f"format is {_show(found)}"
        raise RecordError(f'not a thirtyone record: {shown} (expected format = "{FORMAT}")')
    version = _int(_need(data, "version", ""), "version")
    if version not in SUPPORTED_VERSIONS:
        readable = ", ".join(map(str, SUPPORTED_VERSIONS))
        raise RecordError(
            f"record version {version} is not supported: this thirtyone reads versions {readable}; upgrade thirtyone"
        )
    _keys(data, _TOP_KEYS_V3 if version >= 3 else _TOP_KEYS, "")
    seats = tuple(_str(name, f"seats[{seat}]") for seat, name in enumerate(_list(_need(data, "seats", ""), "seats")))
    preset, rules = _parse_rules(_table(_need(data, "rules", ""), "rules"))
    try:
        rules.check_players(len(seats))
    except ThirtyOneError as error:
        raise RecordError(f"seats: {error}") from None
    winner: int | None = None
    places: tuple[int, ...] | None = None
    if "outcome" in data:
        outcome = _table(data["outcome"], "outcome")
        _keys(outcome, ("winner", "places"), "outcome")
        winner = _int(_need(outcome, "winner", "outcome"), "outcome: winner")
        places = _ints(_need(outcome, "places", "outcome"), "outcome: places")
    fairness: Fairness | None = None
    if "fairness" in data:
        table = _table(data["fairness"], "fairness")
        _keys(table, ("commitment", "seeds"), "fairness")
        commitment = _str(_need(table, "commitment", "fairness"), "fairness: commitment")
        seeds = tuple(
            _str(seed, f"fairness: seeds[{seat}]")
            for seat, seed in enumerate(_list(_need(table, "seeds", "fairness"), "fairness: seeds"))
        )
        fairness = Fairness(commitment, seeds)
    rounds_data = _list(_need(data, "rounds", ""), "rounds")
    rounds = tuple(
        _parse_round(_table(item, f"round {index}"), index, rules, len(seats), version)
        for index, item in enumerate(rounds_data, 1)
    )
    return GameRecord(
        rules=rules,
        seats=seats,
        rounds=rounds,
        preset=preset,
        event=_metadata(data, "event"),
        date=_metadata(data, "date"),
        comment=_metadata(data, "comment"),
        winner=winner,
        places=places,
        fairness=fairness,
        read_version=version,
    )


def _parse_rules(table: Mapping[str, Any]) -> tuple[str, Rules]:
    preset = _str(_need(table, "preset", "rules"), "rules: preset")
    _keys(table, ("preset", *OPTIONS), "rules")
    values: dict[str, Any] = {}
    for name, spec in OPTIONS.items():
        if name not in table:
            if name in V1_OPTIONS:
                raise RecordError(f"rules: missing key {name!r} (a record lists every option)")
            continue
        value = cast(object, table[name])
        what = f"rules: {name}"
        try:
            if spec.kind == "bool":
                values[name] = _bool(value, what)
            elif spec.kind == "int":
                values[name] = _int(value, what)
            else:
                values[name] = spec.parse(_str(value, what))
        except ThirtyOneError as error:
            raise RecordError(str(error) if str(error).startswith("rules: ") else f"rules: {error}") from None
    try:
        return preset, Rules(**values)
    except ThirtyOneError as error:
        raise RecordError(f"rules: {error}") from None


def _parse_round(table: Mapping[str, Any], index: int, rules: Rules, players: int, version: int) -> RoundRecord:
    where = f"round {index}"
    if version == 1 and ("commitment" in table or "salt" in table):
        raise RecordError(f"{where}: commitment and salt are keys of version 2 and later; write version = {VERSION}")
    _keys(table, _ROUND_KEYS_V2 if version >= 2 else _ROUND_KEYS, where)
    number = _int(_need(table, "round", where), f"{where}: round")
    if number != index:
        raise RecordError(f"{where}: its number is {number}; rounds are numbered 1, 2, 3 … in order")
    dealer = _int(_need(table, "dealer", where), f"{where}: dealer", 0, players - 1)
    deck = _cards(_need(table, "deck", where), f"{where}: deck")
    reshuffles = tuple(
        _cards(order, f"{where}: reshuffle {number}")
        for number, order in enumerate(_list(table.get("reshuffles", []), f"{where}: reshuffles"), 1)
    )
    actions: list[tuple[int, Action]] = []
    for number, item in enumerate(_list(_need(table, "actions", where), f"{where}: actions"), 1):
        text = _str(item, f"{where}, action {number}")
        try:
            actions.append(parse_record_action(text))
        except RecordError as error:
            raise RecordError(f"{where}, action {number} ({_quote(text)}): {error}") from None
    result = None
    if "result" in table:
        result = _parse_result(
            _table(table["result"], f"{where}: result"), where, index, dealer, rules, players, version
        )
    salt = _str(table["salt"], f"{where}: salt") if "salt" in table else None
    commitment = _str(table["commitment"], f"{where}: commitment") if "commitment" in table else None
    return RoundRecord(index, dealer, deck, reshuffles, tuple(actions), result, salt, commitment)


def _parse_result(
    table: Mapping[str, Any], where: str, number: int, dealer: int, rules: Rules, players: int, version: int
) -> RoundResult:
    at = f"{where}: result"
    _keys(table, _RESULT_KEYS, at)
    end = _str(_need(table, "end", at), f"{at}: end")
    if end not in _ENDS:
        raise RecordError(f"{at}: end must be one of {', '.join(sorted(_ENDS))}, not {end!r}")
    knocker = _int(table["knocker"], f"{at}: knocker", 0, players - 1) if "knocker" in table else None
    hands: list[tuple[Card, ...] | None] = [None] * players
    values: list[HandValue | None] = [None] * players
    for index, item in enumerate(_list(_need(table, "shown", at), f"{at}: shown")):
        what = f"{at}: shown[{index}]"
        entry = _table(item, what)
        _keys(entry, ("seat", "hand", "value"), what)
        seat = _int(_need(entry, "seat", what), f"{what}: seat", 0, players - 1)
        if hands[seat] is not None:
            raise RecordError(f"{what}: seat {seat} is shown twice")
        hands[seat] = _cards(_need(entry, "hand", what), f"{what}: hand")
        values[seat] = _hand_value(_need(entry, "value", what), f"{what}: value")
    blitz = _ints(_need(table, "blitz", at), f"{at}: blitz")
    losses: list[Loss] = []
    for index, item in enumerate(_list(_need(table, "losses", at), f"{at}: losses")):
        what = f"{at}: losses[{index}]"
        entry = _table(item, what)
        _keys(entry, _LOSS_KEYS if version >= 3 else _LOSS_KEYS_V1, what)
        seat = _int(_need(entry, "seat", what), f"{what}: seat", 0, players - 1)
        lives = _int(_need(entry, "lives", what), f"{what}: lives", 1, 2)
        rule = _str(_need(entry, "rule", what), f"{what}: rule")
        _str(entry.get("reason", ""), f"{what}: reason")  # words for people: read, never compared
        if version >= 3:
            kind = _str(_need(entry, "kind", what), f"{what}: kind")
            if kind not in LOSS_RULES:
                raise RecordError(f"{what}: kind must be one of {', '.join(LOSS_KINDS)}, not {kind!r}")
            named = _ints(entry.get("seats", []), f"{what}: seats")
        else:
            kind, named = _legacy_kind(rule, seat, lives, end, knocker, blitz, values, rules, what)
        loss = Loss(seat, lives, cast(LossKind, kind), named)
        if loss.rule != rule:
            raise RecordError(f"{what}: a loss of kind {kind} is charged by rule {loss.rule}, not {rule!r}")
        losses.append(loss)
    return RoundResult(
        round=number,
        dealer=dealer,
        end=cast(RoundEnd, end),
        knocker=knocker,
        blitz=blitz,
        hands=tuple(hands),
        values=tuple(values),
        losses=tuple(losses),
        remaining=_ints(_need(table, "remaining", at), f"{at}: remaining"),
        eliminated=_ints(_need(table, "eliminated", at), f"{at}: eliminated"),
        saved_by_r2_6=_bool(_need(table, "saved_by_r2_6", at), f"{at}: saved_by_r2_6"),
        turns=_int(_need(table, "turns", at), f"{at}: turns", 0),
    )


_LEGACY_BLITZ_KINDS: Final[Mapping[str, LossKind]] = {
    "R5.1": "blitz",
    "R5.2": "dealt_blitz",
    "R5.3": "blitz_after_knock",
    "R5.5": "dealt_blitz_beaten",
}


def _legacy_kind(
    rule: str,
    seat: int,
    lives: int,
    end: str,
    knocker: int | None,
    blitz: tuple[int, ...],
    values: Sequence[HandValue | None],
    rules: Rules,
    what: str,
) -> tuple[LossKind, tuple[int, ...]]:
    """The kind of a loss in a version 1 or 2 record, which gave only its rule and English words:
    worked out from the result (the words are not read)."""
    if rule in _LEGACY_BLITZ_KINDS:
        return _LEGACY_BLITZ_KINDS[rule], blitz
    if rule != "R6.5":
        raise RecordError(f"{what}: rule must be one of R5.1, R5.2, R5.3, R5.5, R6.5, not {rule!r}")
    if knocker is None:
        return NO_KNOCK_KINDS.get(end, "lowest"), ()
    penalty = KNOCK_PENALTIES[rules.knock_penalty]
    shown = [value for value in values if value is not None]
    low = min(shown) if shown else -1
    knocker_lowest = values[knocker] == low
    if seat == knocker:
        if lives < 2:
            return "lowest", ()
        if penalty.not_highest:
            return "knocker_not_highest", ()
        return penalty.knocker_kind(tied=shown.count(low) > 1), ()
    if knocker_lowest and penalty.tie_saves:
        return "lowest_knocker_saved", (knocker,)
    return "lowest", ()


def _quote(text: str) -> str:
    shown = text if len(text) <= 60 else text[:57] + "..."
    return '"' + shown.replace("\n", "\\n") + '"'


# ---------------------------------------------------------------------------------------------- replay


class _MissingChanceError(Exception):
    """The record has no deck for a round, or no order for a reshuffle, that the replay needs."""

    def __init__(self, round: int, message: str) -> None:
        super().__init__(message)
        self.round = round
        self.message = message


class _RecordChance:
    """The record's chance (R3.5): its first dealer, deck orders and reshuffle orders."""

    def __init__(self, record: GameRecord) -> None:
        self._record = record

    def first_dealer(self, players: int) -> int:
        return self._record.first_dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        rounds = self._record.rounds
        if round > len(rounds):
            raise _MissingChanceError(
                round,
                f"round {round - 1} ended and the game goes on, but the record has no round {round} (rounds missing)",
            )
        return list(rounds[round - 1].deck)

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        orders = self._record.rounds[round - 1].reshuffles
        if number > len(orders):
            raise _MissingChanceError(
                round, f"the stock is empty and the record gives no order for reshuffle {number} (R4.3)"
            )
        return list(orders[number - 1])


class _Replayer:
    """Plays a record through the engine and checks it as it goes."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.started = 0  # rounds whose dealer has been checked
        self.checked = 0  # rounds whose result has been checked

    def steps(self) -> Iterator[Game]:
        record = self.record
        try:
            game = Game(record.rules, record.players, chance=_RecordChance(record))
        except _MissingChanceError as missing:
            raise RecordError(missing.message) from None
        except ThirtyOneError as error:
            raise RecordError(f"round 1: {error}") from None
        self.sync(game)
        yield game
        for index, rnd in enumerate(record.rounds):
            number = index + 1
            if index >= len(game.round_logs):
                raise RecordError(
                    f"round {number}: the game ended after round {index} (seat {game.winner} won), "
                    f"but the record goes on to round {len(record.rounds)}"
                )
            log = game.round_logs[index]
            for position, (seat, action) in enumerate(rnd.actions, 1):
                where = f'round {number}, action {position} ("{format_action(seat, action)}")'
                if log.result is not None:  # also caught by sync; kept as a guard
                    raise RecordError(f"{where}: the round has already ended ({log.result.end}); extra actions")
                try:
                    game.apply(action, seat=seat)
                except _MissingChanceError as missing:
                    raise RecordError(f"{where}: {missing.message}") from None
                except ThirtyOneError as error:
                    raise RecordError(f"{where}: {_strip_round(str(error), number)}") from None
                self.sync(game)
                yield game
            if rnd.result is not None and log.result is None:
                raise RecordError(
                    f"round {number}: actions missing: the record ends the round after {len(rnd.actions)} actions, "
                    f"but in the replay {self.waiting(game)}"
                )
        last = record.rounds[-1]
        log = game.round_logs[len(record.rounds) - 1]
        if last.result is None and len(log.reshuffles) != len(last.reshuffles):
            raise RecordError(self.reshuffle_mismatch(last, len(log.reshuffles)))
        self.check_outcome(game)

    def waiting(self, game: Game) -> str:
        return f"seat {game.current_seat} is still to move ({game.phase.value})"

    def sync(self, game: Game) -> None:
        """Check each newly dealt round's dealer, and each newly ended round's actions,
        reshuffles and result."""
        record = self.record
        logs = game.round_logs
        while self.started < len(logs):
            index = self.started
            if logs[index].dealer != record.rounds[index].dealer:
                raise RecordError(
                    f"round {index + 1}: the record says dealer {record.rounds[index].dealer}, "
                    f"but the deal passes to seat {logs[index].dealer} (R3.1)"
                )
            self.started += 1
        while self.checked < len(logs) and logs[self.checked].result is not None:
            index = self.checked
            log, rnd = logs[index], record.rounds[index]
            result = log.result
            assert result is not None
            done = len(log.actions)
            if done < len(rnd.actions):
                seat, action = rnd.actions[done]
                ended = "on the deal" if done == 0 else f"after action {done}"
                over = "; the game is over" if game.is_over else ""
                raise RecordError(
                    f'round {index + 1}, action {done + 1} ("{format_action(seat, action)}"): '
                    f"the round already ended {ended} ({result.end}){over}: trailing actions"
                )
            if len(log.reshuffles) != len(rnd.reshuffles):
                raise RecordError(self.reshuffle_mismatch(rnd, len(log.reshuffles)))
            if rnd.result is None:
                raise RecordError(
                    f"round {index + 1}: the replay ends the round ({describe_end(result)}), "
                    "but the record gives no result"
                )
            difference = _difference(rnd.result, result.public())
            if difference is not None:
                raise RecordError(f"round {index + 1}: the recorded result differs from the replay: {difference}")
            self.checked += 1

    @staticmethod
    def reshuffle_mismatch(rnd: RoundRecord, used: int) -> str:
        return (
            f"round {rnd.round}: the record gives {len(rnd.reshuffles)} reshuffle order(s), "
            f"but the replay reshuffled {used} time(s) (R4.3)"
        )

    def check_outcome(self, game: Game) -> None:
        record = self.record
        if not game.is_over:
            if record.winner is not None:
                raise RecordError(
                    f"outcome: the record says seat {record.winner} won, but after round {game.round} "
                    f"the game goes on ({self.waiting(game)})"
                )
            return
        places = tuple(standing.place for standing in sorted(game.standings, key=lambda s: s.seat))
        if record.winner is None:
            raise RecordError(
                f"outcome: missing: the game is over (seat {game.winner} won) but the record has no [outcome]"
            )
        if record.winner != game.winner:
            raise RecordError(
                f"outcome: the record says seat {record.winner} won, the replay seat {game.winner} (R2.5)"
            )
        if record.places != places:
            raise RecordError(
                f"outcome: the record gives places {_toml_ints(record.places or ())}, "
                f"the replay {_toml_ints(places)} (R2.5)"
            )


def _strip_round(message: str, number: int) -> str:
    prefix = f"round {number}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


_COMPARED: Final = (
    "end", "knocker", "blitz", "hands", "values", "losses", "remaining", "eliminated", "saved_by_r2_6", "turns",
)  # fmt: skip


def _difference(recorded: RoundResult, replayed: RoundResult) -> str | None:
    """The first field in which two results differ, in words; ``None`` if they agree. The
    losses' words (``reason``) are for people and are not read."""
    for name in _COMPARED:
        mine, theirs = getattr(recorded, name), getattr(replayed, name)
        if mine != theirs:
            return f"{name}: the record says {_describe(name, mine)}, the replay {_describe(name, theirs)}"
    return None


def _describe(name: str, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "knocker":
        return f"seat {value}"
    if name in ("blitz", "eliminated"):
        return ", ".join(f"seat {seat}" for seat in value) if value else "nobody"
    if name == "hands":
        shown = [f"seat {seat} {format_cards(hand)}" for seat, hand in enumerate(value) if hand is not None]
        return ", ".join(shown) if shown else "none shown"
    if name == "values":
        shown = [f"seat {seat} {_toml_value(v)}" for seat, v in enumerate(value) if v is not None]
        return ", ".join(shown) if shown else "none shown"
    if name == "losses":
        losses = [
            f"seat {loss.seat} lost {loss.lives} ({loss.rule} {loss.kind}"
            + (f", naming seat {', '.join(map(str, loss.seats))}" if loss.seats else "")
            + ")"
            for loss in value
        ]
        return ", ".join(losses) if losses else "no losses"
    if name == "remaining":
        return _toml_ints(value)
    return str(value)
