"""The rules' refusal of an action: :class:`IllegalActionError`, a ``ValueError`` whose message names
the rule (``R4.2: cannot discard …``) and which holds the same facts as data — a stable code
(:data:`RefusalCode`), the rule behind it (:data:`REFUSAL_RULES`), the seat, the action, the cards
and seats involved, the actions legal now — for any face to put in its own words
(:func:`thirtyone.text.refusal` builds one with the library's English)."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from typing import Literal
from typing import TypedDict
from typing import cast

from thirtyone.actions import Action
from thirtyone.cards import Card
from thirtyone.errors import ThirtyOneError
from thirtyone.scoring import HandValue

__all__ = ["IllegalActionError", "RefusalFacts", "RefusalCode", "REFUSAL_RULES"]


RefusalCode = Literal[
    "game_over",
    "chance_due",
    "no_chance_due",
    "not_your_turn",
    "not_blind_phase",
    "must_look",
    "not_dealer_choice",
    "must_choose_hand",
    "must_discard",
    "discard_not_in_hand",
    "discard_taken_card",
    "draw_first",
    "draw_or_knock",
    "pile_empty",
    "stock_empty",
    "widow_turn",
    "widow_face_down",
    "exchange_two_needs_any",
    "exchange_not_in_hand",
    "exchange_not_in_widow",
    "second_knock",
    "knock_too_early",
    "knock_too_low",
]
"""Why the rules refuse an action: a stable code a face can translate (see :data:`REFUSAL_RULES`)."""

REFUSAL_RULES: Mapping[RefusalCode, str] = {
    "game_over": "R2.5",  # one player is left: the game is over
    "chance_due": "R3.2",  # explicit chance: a deal (or the first dealer, a reshuffle) is due before any move
    "no_chance_due": "R3.2",  # explicit chance: a deal was given when none is due
    "not_your_turn": "R2.1",  # play passes clockwise: another seat is to move
    "not_blind_phase": "R6.6",  # look or throw down after the blind phase
    "must_look": "R6.6",  # in the blind phase: look or throw down first
    "not_dealer_choice": "R7.6",  # keep or take widow outside the Schwimmen dealer's choice
    "must_choose_hand": "R7.6",  # the Schwimmen dealer must keep or take the second hand first
    "must_discard": "R4.1",  # four cards held: discard one
    "discard_not_in_hand": "R4.1",  # ``cards[0]`` is not in the hand (``among``)
    "discard_taken_card": "R4.2",  # ``cards[0]`` was just taken from the discard pile
    "draw_first": "R4.1",  # a discard before drawing
    "draw_or_knock": "R4.1",  # a widow-mode action in draw mode
    "pile_empty": "R4.1",  # the discard pile is empty
    "stock_empty": "R4.3",  # empty stock and nothing to reshuffle
    "widow_turn": "R7.1",  # a draw-mode action in widow mode
    "widow_face_down": "R7.2",  # exchanging single cards with the face-down widow
    "exchange_two_needs_any": "R7.5",  # two cards need exchange=any
    "exchange_not_in_hand": "R7.1",  # ``cards[0]`` is not in the hand (``among``)
    "exchange_not_in_widow": "R7.1",  # ``cards[0]`` is not in the widow (``among``)
    "second_knock": "R6.1",  # ``seats[0]`` has already knocked
    "knock_too_early": "R6.3",  # knock_from_round=2 and not every player has had a turn
    "knock_too_low": "R6.4",  # ``values`` = (the least value that may knock, the hand's value)
}
"""The rule behind each refusal code."""


class RefusalFacts(TypedDict, total=False):
    """The facts of a refusal besides its code, as keywords of :class:`IllegalActionError` and
    :func:`thirtyone.text.refusal` (see :class:`IllegalActionError` for each one)."""

    seat: int | None
    action: Action | None
    cards: tuple[Card, ...]
    among: tuple[Card, ...]
    seats: tuple[int, ...]
    values: tuple[HandValue, ...]
    legal: Sequence[Action]


class IllegalActionError(ThirtyOneError):
    """An action the rules forbid in the current state. The game is left exactly as it was.

    The message names the rule, e.g. ``R4.2: cannot discard the card just taken from the discard
    pile (Td); discard another``; the same facts are data for any face to put in its own words:
    ``code`` (a :data:`RefusalCode`, e.g. ``"discard_taken_card"``), ``rule`` (``"R4.2"``),
    ``seat`` (the seat that tried, when known), ``action`` (the action refused), ``cards`` (the
    cards refused), ``among`` (the cards it could have named: its hand or the widow), ``seats``
    (other seats involved: the knocker of ``second_knock``, the seat to move of
    ``not_your_turn``), ``values`` (points, for ``knock_too_low``: the least that may knock and
    the hand's value) and ``legal`` (the actions legal now, a tuple).
    """

    def __init__(  # the facts as keywords of their own: from **RefusalFacts a refusal took 30% longer
        self,
        message: str,
        *,
        code: RefusalCode,
        seat: int | None = None,
        action: Action | None = None,
        cards: tuple[Card, ...] = (),
        among: tuple[Card, ...] = (),
        seats: tuple[int, ...] = (),
        values: tuple[HandValue, ...] = (),
        legal: Sequence[Action] = (),
    ) -> None:
        super().__init__(message)
        self.code: RefusalCode = code
        self.rule: str = REFUSAL_RULES[code]
        self.seat = seat
        self.action = action
        self.cards = cards
        self.among = among
        self.seats = seats
        self.values = values
        self.legal = tuple(legal)

    def where(self, prefix: str) -> IllegalActionError:
        """The same refusal with its message prefixed: ``"row 3: R4.2: …"``."""
        return _refusal(f"{prefix}: {self}", self.code, self.facts())

    def facts(self) -> RefusalFacts:
        """The refusal's facts besides its code, as keywords for another one."""
        return cast(RefusalFacts, {name: getattr(self, name) for name in RefusalFacts.__annotations__})

    def __reduce__(self) -> tuple[object, ...]:  # the facts are keywords: pickle (Ray, processes) needs this
        return (_refusal, (str(self), self.code, self.facts()))


def _refusal(message: str, code: RefusalCode, facts: RefusalFacts) -> IllegalActionError:
    return IllegalActionError(message, code=code, **facts)
