"""What a seat may see, told as phrases: a catalog key and structured values, for any face.

The one narrator of the game: it decides which sentence a move, an event, a loss, a round's end
or a refusal gets — its key in the catalogs (``i18n/locale/*.po``: ``acted.discard``,
``loss.lowest``, ``refusal.second_knock``) — and hands over the facts the sentence names as data:
seats (:class:`Seats`), cards (:class:`Cards`), hand values (:class:`Points`), numbers, rule ids
and other phrases (a clause inside a sentence). It writes no words: the library's English for
records (:mod:`thirtyone.text`), the terminal (``tui/words.py``) and the page (the server sends
each event's phrases, the page looks the key up) each render the same phrase.

A phrase is told to one seat (``you``: the seat addressed as "you", whose moves take the ``_you``
form German and Czech conjugate for, ``Du legst``), from what that seat may see (the event as
``event.for_seat(seat)`` gives it: another's stock draw names no card, R4.4).

>>> from thirtyone.actions import Discard
>>> from thirtyone.cards import Card
>>> from thirtyone.events import Acted
>>> acted(Acted(2, Discard(Card.parse("9h"))))
(Phrase(key='acted.discard', values={'who': Seats(seats=(2,)), 'card': Cards(cards=(Card('9h'),))}, count=None),)
>>> acted(Acted(2, Discard(Card.parse("9h"))), you=2)[0].key
'acted.discard_you'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Union
from typing import get_args

from thirtyone.actions import PILE
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.cards import Card
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import GameOver
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.refusals import IllegalActionError
from thirtyone.refusals import RefusalCode
from thirtyone.rules import Rules
from thirtyone.scoring import HandValue
from thirtyone.settlement import LOSS_KINDS
from thirtyone.settlement import Loss
from thirtyone.settlement import LossKind

__all__ = [
    "Seats",
    "Cards",
    "Points",
    "Value",
    "Phrase",
    "THROWN_LOSSES",
    "MOVES",
    "CLAUSES",
    "EVENTS",
    "KEYS",
    "event",
    "acted",
    "loss",
    "round_end",
    "headline",
    "shown",
    "refusal",
]


@dataclass(frozen=True, slots=True)
class Seats:
    """Seats a phrase names, by number (a face writes their names, a list the language's way)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards a phrase names (a face writes them with their suits, space-separated)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Points:
    """A hand's value in points (R1.4: ``Fraction(61, 2)`` is 30½)."""

    value: HandValue


Value = Union[Seats, Cards, Points, int, str, "Phrase"]
"""What a phrase's placeholder holds: seats, cards, a hand value, a number (a round, a count), a
text every language writes alike (a rule id, a move's notation) or a phrase (a clause)."""


@dataclass(frozen=True, slots=True)
class Phrase:
    """One sentence as data: its catalog ``key``, the ``values`` of its placeholders and, for a
    plural message, the ``count`` that chooses its form."""

    key: str
    values: Mapping[str, Value] = field(default_factory=dict)
    count: int | None = None


def event(told: Event, rules: Rules, you: int | None = None) -> tuple[Phrase, ...]:
    """An event in phrases, as the seat it is told to sees it (``told.for_seat(seat)``) under
    ``rules``: a move (:func:`acted`); a deal, ``event.dealt_upcard`` (draw mode's first card of
    the pile, R3.3), ``event.dealt_second_hand`` (the dealer's second hand, R7.5) or
    ``event.dealt_widow_down`` (R7.2), with ``round`` and ``who`` (the dealer); a reshuffle,
    ``event.reshuffled`` counted by the new stock's cards (R4.3); a new widow after everyone
    passed, ``event.new_widow`` (R7.3); the game's end, ``over.winner(_you)``. A round's end is no
    sentence of its own: its result is told by :func:`round_end` and :func:`loss`.

    >>> event(Reshuffled(20), Rules.preset("scat"))
    (Phrase(key='event.reshuffled', values={}, count=20),)
    """
    if isinstance(told, Acted):
        return acted(told, you)
    if isinstance(told, RoundStarted):
        values: dict[str, Value] = {"round": told.round, "who": Seats((told.dealer,))}
        if told.upcard is not None:
            return (Phrase("event.dealt_upcard", {**values, "card": Cards((told.upcard,))}),)
        return (Phrase("event.dealt_second_hand" if rules.dealer_hand else "event.dealt_widow_down", values),)
    if isinstance(told, Reshuffled):
        return (Phrase("event.reshuffled", {}, told.stock_size),)
    if isinstance(told, NewWidow):
        return (Phrase("event.new_widow", {"cards": Cards(told.widow)}),)
    if isinstance(told, GameOver):
        return (Phrase("over.winner_you" if told.winner == you else "over.winner", {"who": Seats((told.winner,))}),)
    return ()


def _move(key: str, event: Acted, you: int | None, **values: Value) -> Phrase:
    """A move's sentence, the ``_you`` form when the mover is ``you``."""
    return Phrase(f"{key}_you" if event.seat == you else key, {"who": Seats((event.seat,)), **values})


def _seen(key: str, event: Acted, you: int | None) -> Phrase:
    """``key`` naming the cards the mover got where this view may see them (``key_seen``)."""
    if event.received:
        return _move(f"{key}_seen", event, you, cards=Cards(event.received))
    return _move(key, event, you)


def acted(event: Acted, you: int | None = None) -> tuple[Phrase, ...]:
    """A move in phrases, as the seat it is told to sees ``event``: one sentence, with the cards
    the move turned face up (``event.revealed``, R7.2, R7.6) in a clause, or, after the opener's
    pass or knock that turns the widow (R7.2), a second sentence.

    Keys (each with its ``_you`` form): ``acted.draw_stock``, ``acted.draw_stock_seen`` (the card
    is this seat's to know), ``acted.take_pile``, ``acted.take_pile_top`` (a record's step, no
    card), ``acted.discard``, ``acted.knock``, ``acted.exchange``, ``acted.exchange_all(_seen)``,
    ``acted.take_widow(_seen)`` (the face-down widow, R7.6), ``acted.pass``, ``acted.keep``,
    ``acted.take_other(_seen)`` (the dealer's second hand, R7.5), ``acted.look``, ``acted.throw``;
    clauses ``acted.revealed.*``; ``acted.widow_turned``.
    """
    action = event.action
    line: Phrase
    if isinstance(action, Draw):
        if action.source == PILE:
            got = event.received
            line = (
                _move("acted.take_pile", event, you, cards=Cards(got))
                if got
                else _move("acted.take_pile_top", event, you)
            )
        else:
            line = _seen("acted.draw_stock", event, you)
    elif isinstance(action, Discard):
        line = _move("acted.discard", event, you, card=Cards((action.card,)))
    elif isinstance(action, Exchange):
        line = _move("acted.exchange", event, you, give=Cards(action.give), take=Cards(action.take))
    elif isinstance(action, ExchangeAll):
        private = event.private
        line = _seen("acted.take_widow" if private else "acted.exchange_all", event, you)
        return _with_revealed("acted.revealed.old_hand" if private else "acted.revealed.laid_down", line, event)
    elif isinstance(action, TakeWidow):
        return _with_revealed("acted.revealed.first_widow", _seen("acted.take_other", event, you), event)
    elif isinstance(action, Keep):
        return _with_revealed("acted.revealed.second_widow", _move("acted.keep", event, you), event)
    else:
        key = {Knock: "acted.knock", Pass: "acted.pass", Look: "acted.look", ThrowDown: "acted.throw"}[type(action)]
        line = _move(key, event, you)
    if event.revealed and isinstance(action, Pass | Knock):  # R7.2: the opener's pass or knock turns the widow
        return (line, Phrase("acted.widow_turned", {"cards": Cards(event.revealed)}))
    return (line,)


def _with_revealed(key: str, line: Phrase, event: Acted) -> tuple[Phrase]:
    """``line`` inside the clause ``key`` that names the cards the move turned face up, if any."""
    return (Phrase(key, {"action": line, "cards": Cards(event.revealed)}) if event.revealed else line,)


THROWN_LOSSES: frozenset[LossKind] = frozenset(
    {"knocker_alone_lowest", "lowest_knocker_saved", "knocker_among_lowest", "knocker_not_highest"}
)
"""The loss kinds that name the knock, said of a throw-down instead (R6.6 ends the round as a knock)."""


def loss(charged: Loss, result: RoundResult, you: int | None = None) -> Phrase:
    """Why ``charged`` was charged in ``result``: ``loss.<kind>`` (:data:`thirtyone.settlement.LossKind`),
    ``loss.<kind>.throw`` for a kind that names the knock in a round a throw-down ended, and
    ``loss.lowest_knocker_saved_you(.throw)`` when the knocker it names is ``you``. Values: ``who``
    (the seats the kind names) and ``shown`` (``shown.31`` or ``shown.three_aces``, R1.5, what the
    first of them showed)."""
    seats = charged.seats
    key = f"loss.{charged.kind}"
    if charged.kind == "lowest_knocker_saved" and you is not None and seats == (you,):
        key += "_you"
    if result.end == "throw_down" and charged.kind in THROWN_LOSSES:
        key += ".throw"
    return Phrase(key, {"who": Seats(seats), "shown": shown(result, seats)})


def shown(result: RoundResult, seats: tuple[int, ...]) -> Phrase:
    """What the first of ``seats`` showed in ``result`` to end it with a blitz: ``shown.three_aces``
    (33, R1.5) or ``shown.31`` (also where the hand is not shown)."""
    value = result.values[seats[0]] if seats and seats[0] < len(result.values) else None
    return Phrase("shown.three_aces" if value == 33 else "shown.31")


_ENDS = frozenset({"knock", "blitz", "dealt_blitz", "stock_exhausted", "max_turns", "all_pass", "throw_down"})


def round_end(result: RoundResult) -> Phrase:
    """How a round ended: ``end.<end>`` (``end.other`` for an end without its own words, or a knock
    with no knocker), with ``round``, ``rule`` (R5.3 for a 31 after a knock, else R5.1), ``end``
    and ``who`` (the blitz seats; the knocker or thrower)."""
    end = result.end
    who = result.blitz if end in ("blitz", "dealt_blitz") else () if result.knocker is None else (result.knocker,)
    known = end in _ENDS and (end not in ("knock", "throw_down") or result.knocker is not None)
    values: dict[str, Value] = {
        "round": result.round,
        "rule": "R5.1" if result.knocker is None else "R5.3",
        "end": end,
        "who": Seats(who),
    }
    return Phrase(f"end.{end}" if known else "end.other", values)


_HEADS: Mapping[str, str] = {
    "knock": "head.knock",
    "throw_down": "head.throw",
    "all_pass": "head.all_pass",
    "stock_exhausted": "head.stock_out",
}


def headline(result: RoundResult, you: int | None = None) -> Phrase:
    """How a round ended, as a headline that names who ended it (the terminal's log; the page says
    :func:`round_end`): ``head.blitz``; ``head.dealt_one`` or ``head.dealt_many`` (R5.2: one seat
    other than ``you``, or more, as English says "was" or "were"); ``head.knock`` or
    ``head.throw`` (R6.6), ``_you`` when the knocker is ``you``; ``head.all_pass`` (R7.3);
    ``head.stock_out`` (R4.3); ``head.turn_limit``, counted by the round's turns (R6.7). Values:
    ``round``, ``who`` and ``shown`` (:func:`shown`)."""
    end, number = result.end, result.round
    if end in ("blitz", "dealt_blitz"):
        seats = result.blitz
        key = "head.blitz"
        if end == "dealt_blitz":
            key = "head.dealt_one" if len(seats) == 1 and seats[0] != you else "head.dealt_many"
        return Phrase(key, {"round": number, "who": Seats(seats), "shown": shown(result, seats)})
    if end in _HEADS:
        knocker = () if result.knocker is None else (result.knocker,)
        if knocker == (you,) and end in ("knock", "throw_down"):
            return Phrase(f"{_HEADS[end]}_you", {"round": number})
        return Phrase(_HEADS[end], {"round": number, "who": Seats(knocker)})
    return Phrase("head.turn_limit", {"round": number}, result.turns)


def refusal(error: IllegalActionError) -> Phrase:
    """A refused move: ``refusal.<code>`` (:data:`thirtyone.refusals.RefusalCode`), with ``rule``,
    ``seat`` (who tried), ``other`` (the seat the refusal names: whose turn it is, who knocked),
    ``card`` (the card refused), ``among`` (the cards it was looked for among), ``action``
    (its notation), ``need`` and ``value`` (hand values, R6.4) and ``legal`` (the moves legal
    now, in notation, comma-separated); an absent fact is empty."""
    values = error.values
    return Phrase(
        f"refusal.{error.code}",
        {
            "rule": error.rule,
            "seat": Seats(() if error.seat is None else (error.seat,)),
            "other": Seats(error.seats[:1]),
            "card": Cards(error.cards[:1]),
            "among": Cards(tuple(error.among)),
            "action": "" if error.action is None else str(error.action),
            "need": Points(values[0]) if values else "",
            "value": Points(values[1]) if len(values) > 1 else "",
            "legal": ", ".join(map(str, error.legal)),
        },
    )


MOVES = (
    "acted.draw_stock",
    "acted.draw_stock_seen",
    "acted.take_pile",
    "acted.take_pile_top",
    "acted.discard",
    "acted.knock",
    "acted.exchange",
    "acted.exchange_all",
    "acted.exchange_all_seen",
    "acted.take_widow",
    "acted.take_widow_seen",
    "acted.pass",
    "acted.keep",
    "acted.take_other",
    "acted.take_other_seen",
    "acted.look",
    "acted.throw",
)
"""The key of every move's sentence (:func:`acted`); each has its ``_you`` form too."""

CLAUSES = (
    "acted.revealed.first_widow",
    "acted.revealed.second_widow",
    "acted.revealed.old_hand",
    "acted.revealed.laid_down",
    "acted.widow_turned",
)
"""The keys of the cards a move turns face up: a clause around the move's sentence, or one of its own."""

EVENTS = (
    "event.dealt_upcard",
    "event.dealt_second_hand",
    "event.dealt_widow_down",
    "event.reshuffled",
    "event.new_widow",
    "over.winner",
    "over.winner_you",
)
"""The keys of the events that are not moves (:func:`event`)."""

KEYS: frozenset[str] = frozenset(
    {
        *MOVES,
        *(f"{key}_you" for key in MOVES),
        *CLAUSES,
        *EVENTS,
        *(f"loss.{kind}" for kind in LOSS_KINDS),
        *(f"loss.{kind}.throw" for kind in THROWN_LOSSES),
        "loss.lowest_knocker_saved_you",
        "loss.lowest_knocker_saved_you.throw",
        "shown.31",
        "shown.three_aces",
        *_HEADS.values(),
        "head.knock_you",
        "head.throw_you",
        "head.blitz",
        "head.dealt_one",
        "head.dealt_many",
        "head.turn_limit",
        *(f"end.{end}" for end in _ENDS),
        "end.other",
        *(f"refusal.{code}" for code in get_args(RefusalCode)),
    }
)
"""Every key the narrator may say: each is in every catalog (``tests/test_i18n.py``)."""
