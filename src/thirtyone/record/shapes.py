"""The shapes of a game record (R3.5): its rounds, its fairness, the game as a whole with its
structure checked, and the text of an action as a record writes it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from typing import Final

from thirtyone.actions import Action
from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.cards import full_deck
from thirtyone.chance import check_permutation
from thirtyone.checks import shown
from thirtyone.errors import RecordError
from thirtyone.errors import SeedError
from thirtyone.errors import ThirtyOneError
from thirtyone.events import RoundResult
from thirtyone.fairness import check_salt
from thirtyone.fairness import parse_seed
from thirtyone.rules import Rules

__all__ = [
    "FORMAT",
    "VERSION",
    "SUPPORTED_VERSIONS",
    "V1_OPTIONS",
    "RoundRecord",
    "Fairness",
    "RecordBody",
    "format_action",
    "parse_record_action",
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

_COMMITMENT: Final = re.compile(r"[0-9a-f]{64}")


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
class RecordBody:
    """The fields of a :class:`~thirtyone.record.GameRecord` (see there) and the check of their
    structure on creation; :class:`~thirtyone.record.GameRecord` adds reading, writing, replaying and
    verifying.

    Raises:
        RecordError: for a structure no game can have (see :class:`~thirtyone.record.GameRecord`).
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


def _check_fairness_shape(rnd: RoundRecord, where: str, chained: bool = False) -> None:
    if rnd.commitment is not None and (
        not isinstance(rnd.commitment, str) or not _COMMITMENT.fullmatch(rnd.commitment)
    ):
        raise RecordError(
            f"{where}: commitment must be 64 lowercase hex digits (a SHA-256), not {shown(rnd.commitment)}"
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
        raise RecordError(f"fairness: commitment must be 64 lowercase hex digits (a SHA-256), not {shown(commitment)}")
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
            raise RecordError(f"fairness: the seed of seat {seat} must be lowercase hex, not {shown(seed)}")


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
        raise RecordError(f"{what}: must be text, not {shown(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{what}: not valid Unicode text (it holds a lone surrogate)") from None


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
