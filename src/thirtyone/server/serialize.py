"""JSON forms of what the server sends: views, events, results, rules (plain dicts, lists, text,
numbers, booleans and ``null``).

Cards are their text (``"As"``, ``"Td"``), actions their notation (``"discard Td"``) with their
data beside it (:func:`action_json`: what a client reads, never the notation) and, where a seat
may play them, their id too (:mod:`thirtyone.action_ids`), hand values numbers (``30.5`` for 30½,
R1.4). A card a viewer may not know is ``null`` (another player's stock
draw, the face-down widow taken in the opening); a view never holds another player's hidden card.
A move is sent with its words as data: the phrases the game's one narrator
(:mod:`thirtyone.narration`) tells the viewer (:func:`phrase_json`); the page looks their keys up.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any
from typing import Literal

from thirtyone import narration
from thirtyone.action_ids import action_id
from thirtyone.actions import Action
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
from thirtyone.engine import Game
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import GameOver
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.narration import Cards
from thirtyone.narration import Phrase
from thirtyone.narration import Points
from thirtyone.narration import Seats
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import Rules
from thirtyone.scoring import HandValue
from thirtyone.text import loss_reason
from thirtyone.views import PlayerView
from thirtyone.views import PublicView
from thirtyone.views import SeatStatus

__all__ = [
    "JSON",
    "ActionKind",
    "ACTION_KEYS",
    "action_json",
    "cards",
    "value",
    "rules_json",
    "event_json",
    "phrase_json",
    "result_json",
    "view_json",
    "seats_json",
    "spectator_view_json",
    "refusal_json",
    "legal_json",
]

JSON = dict[str, Any]
"""A JSON object."""


def cards(items: Iterable[Card] | None) -> list[str] | None:
    """Cards as a list of text (``["As", "Td"]``), ``None`` for ``None``."""
    return None if items is None else [str(card) for card in items]


def value(number: HandValue | None) -> int | float | None:
    """A hand value as a JSON number: whole numbers as such, 30½ as ``30.5``."""
    if number is None:
        return None
    if isinstance(number, Fraction) and number.denominator != 1:
        return float(number)
    return int(number)


ActionKind = Literal[
    "draw", "discard", "knock", "exchange", "exchange_all", "pass", "keep", "take_widow", "look", "throw_down"
]
"""What an action is, on the wire: one word for each class of :data:`~thirtyone.actions.Action`."""

_KINDS: dict[type, ActionKind] = {
    Draw: "draw",
    Discard: "discard",
    Knock: "knock",
    Exchange: "exchange",
    ExchangeAll: "exchange_all",
    Pass: "pass",
    Keep: "keep",
    TakeWidow: "take_widow",
    Look: "look",
    ThrowDown: "throw_down",
}

ACTION_KEYS = ("kind", "card", "source", "give", "take")
"""The keys :func:`action_json` writes, in its order."""


def action_json(action: Action | None) -> JSON:
    """What ``action`` is, as data, for a client that must never read the notation: ``kind``
    (:data:`ActionKind`), ``card`` (a discard's card, ``"Td"``), ``source`` (a draw's,
    ``"stock"`` or ``"pile"``), ``give`` and ``take`` (an exchange's cards from the hand and from
    the widow, each sorted by card index: ``["Td"]``, ``["Ah"]``; an ``exchange_all`` names none,
    its event's ``received`` and ``revealed`` do); every key that does not apply is ``null``, and
    so is every key for ``None`` (no action: a replay's first step)."""
    data: JSON = dict.fromkeys(ACTION_KEYS)
    if action is None:
        return data
    data["kind"] = _KINDS[type(action)]
    if isinstance(action, Draw):
        data["source"] = action.source
    elif isinstance(action, Discard):
        data["card"] = str(action.card)
    elif isinstance(action, Exchange):
        data["give"] = cards(action.give)
        data["take"] = cards(action.take)
    return data


def rules_json(rules: Rules) -> JSON:
    """Every rule option by name (``null`` for one that does not apply to the mode)."""
    return dict(rules.options())


def result_json(result: RoundResult) -> JSON:
    """A round's result: ``hands`` and ``values`` by seat (``null`` where not shown), ``losses``
    with their kind (:data:`thirtyone.settlement.LossKind`), the seats it names and the rule that
    charged them (``reason``: the library's English, for people; ``why``: its phrase,
    :func:`thirtyone.narration.loss`, which clients say in their own words), how the round ended
    (``how``: :func:`thirtyone.narration.round_end`'s phrase), ``remaining`` losses by seat after
    the round. Phrases as :func:`phrase_json` writes them."""
    return {
        "round": result.round,
        "dealer": result.dealer,
        "end": result.end,
        "knocker": result.knocker,
        "blitz": list(result.blitz),
        "hands": [cards(hand) for hand in result.hands],
        "values": [value(number) for number in result.values],
        "losses": [
            {
                "seat": loss.seat,
                "lives": loss.lives,
                "kind": loss.kind,
                "seats": list(loss.seats),
                "rule": loss.rule,
                "reason": loss_reason(loss, result),
                "why": phrase_json(narration.loss(loss, result)),
            }
            for loss in result.losses
        ],
        "remaining": list(result.remaining),
        "eliminated": list(result.eliminated),
        "saved_by_r2_6": result.saved_by_r2_6,
        "turns": result.turns,
        "how": phrase_json(narration.round_end(result)),
    }


def refusal_json(error: IllegalActionError) -> JSON:
    """An action the rules refused, as data (:class:`~thirtyone.refusals.IllegalActionError`):
    ``code`` (e.g. ``"discard_taken_card"``), ``rule`` (``"R4.2"``), ``seat`` (who tried),
    ``action`` (its notation), ``cards`` and ``among`` (the cards refused, and those it could have
    named), ``seats`` (other seats involved), ``values`` (points, ``knock_too_low``), ``legal`` and
    ``said``, its phrase (:func:`thirtyone.narration.refusal`, as :func:`phrase_json` writes it)."""
    return {
        "code": error.code,
        "rule": error.rule,
        "seat": error.seat,
        "action": None if error.action is None else str(error.action),
        "cards": cards(error.cards),
        "among": cards(error.among),
        "seats": list(error.seats),
        "values": [value(number) for number in error.values],
        "legal": [str(action) for action in error.legal],
        "said": phrase_json(narration.refusal(error)),
    }


def phrase_json(phrase: Phrase) -> JSON:
    """A phrase of :mod:`thirtyone.narration` as ``{"key", "values"}`` (and ``"count"`` for a plural
    message): each value a number, a text, ``{"seats": [2]}``, ``{"cards": ["9h"]}``,
    ``{"points": 30.5}`` or ``{"phrase": …}`` (a clause).

    >>> from thirtyone.cards import Card
    >>> phrase_json(Phrase("acted.discard", {"who": Seats((2,)), "card": Cards((Card.parse("9h"),))}))
    {'key': 'acted.discard', 'values': {'who': {'seats': [2]}, 'card': {'cards': ['9h']}}}
    """
    said: JSON = {"key": phrase.key, "values": {name: _phrase_value(item) for name, item in phrase.values.items()}}
    if phrase.count is not None:
        said["count"] = phrase.count
    return said


def _phrase_value(item: narration.Value) -> Any:
    if isinstance(item, Seats):
        return {"seats": list(item.seats)}
    if isinstance(item, Cards):
        return {"cards": cards(item.cards)}
    if isinstance(item, Points):
        return {"points": value(item.value)}
    if isinstance(item, Phrase):
        return {"phrase": phrase_json(item)}
    return item


def event_json(event: Event, rules: Rules, viewer: int | None = None) -> JSON:
    """One event of a round's history under ``rules``, as ``viewer`` sees it
    (``event.for_seat(viewer)`` first; ``None`` or ``-1``: a spectator), with its words as data:
    ``said``, the narrator's phrases for the viewer (:func:`thirtyone.narration.event`, as
    :func:`phrase_json` writes them; none for ``round_ended``, whose result carries its own). An
    ``acted`` event's action is its notation (``action``) and its data (:func:`action_json`)."""
    return {**_event_data(event), "said": [phrase_json(phrase) for phrase in narration.event(event, rules, viewer)]}


def _event_data(event: Event) -> JSON:
    if isinstance(event, RoundStarted):
        return {
            "type": "round_started",
            "round": event.round,
            "dealer": event.dealer,
            "seats": list(event.seats),
            "upcard": None if event.upcard is None else str(event.upcard),
        }
    if isinstance(event, Acted):
        return {
            "type": "acted",
            "seat": event.seat,
            "action": str(event.action),
            **action_json(event.action),
            "received": cards(event.received),
            "private": event.private,
            "revealed": cards(event.revealed),
        }
    if isinstance(event, Reshuffled):
        return {"type": "reshuffled", "stock_size": event.stock_size}
    if isinstance(event, NewWidow):
        return {"type": "new_widow", "set_aside": cards(event.set_aside), "widow": cards(event.widow)}
    if isinstance(event, RoundEnded):
        return {"type": "round_ended", "result": result_json(event.result)}
    assert isinstance(event, GameOver)
    return {"type": "game_over", "winner": event.winner}


def _seat_json(status: SeatStatus) -> JSON:
    return {
        "seat": status.seat,
        "remaining": status.remaining,
        "lives": status.lives,
        "on_grace": status.on_grace,
        "out": status.out,
        "has_looked": status.has_looked,
        "known_cards": cards(status.known_cards),
    }


def seats_json(view: PlayerView | PublicView) -> list[JSON]:
    """The view's ``seats`` (the same for every viewer at one moment: public)."""
    return [_seat_json(status) for status in view.seats]


def view_json(view: PlayerView | PublicView, history: bool = True, shared: bool = True) -> JSON:
    """A seat's :class:`~thirtyone.views.PlayerView`: everything that seat may know, nothing more;
    or a spectator's :class:`~thirtyone.views.PublicView` (``Game.public_view()``), with ``seat``,
    ``hand``, ``hand_value`` and ``taken_from_pile`` ``null`` and no legal actions.

    Keys: ``seat``, ``players``, ``round``, ``dealer``, ``phase``, ``current_seat``, ``is_my_turn``,
    ``hand`` (``null`` before the seat has looked, R6.6, or once it is out), ``hand_value``,
    ``discard_top``, ``discard_size``, ``widow`` (face up only), ``widow_face_down``, ``stock_size``,
    ``seats`` (each: ``seat``, ``remaining``, ``lives``, ``on_grace``, ``out``, ``has_looked``,
    ``known_cards``), ``knocker``, ``turn``, ``taken_from_pile`` (R4.2), ``history`` (this round's
    events), ``last_result``, ``legal_actions`` (notation; empty unless it is this seat's move)
    and ``legal``, the same actions as :func:`legal_json` writes them: each one's id
    (:func:`~thirtyone.action_ids.action_id`, what an ``action`` message may send), its notation
    and its data (:func:`action_json`).
    Without ``history`` the key is left out (the caller adds the events, serialized once each);
    without ``shared``, ``seats`` and ``last_result`` are too (the caller adds them, serialized
    once per change and per round).
    """
    own = view if isinstance(view, PlayerView) else None
    view_seat = None if own is None else own.seat
    return {
        "seat": None if own is None else own.seat,
        "players": view.players,
        "round": view.round,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "current_seat": view.current_seat,
        "is_my_turn": own is not None and own.is_my_turn,
        "hand": None if own is None else cards(own.hand),
        "hand_value": None if own is None else value(own.hand_value),
        "discard_top": None if view.discard_top is None else str(view.discard_top),
        "discard_size": view.discard_size,
        "widow": cards(view.widow),
        "widow_face_down": view.widow_face_down,
        "stock_size": view.stock_size,
        **({"seats": seats_json(view)} if shared else {}),
        "knocker": view.knocker,
        "turn": view.turn,
        "taken_from_pile": None if own is None or own.taken_from_pile is None else str(own.taken_from_pile),
        **({"history": [event_json(event, view.rules, view_seat) for event in view.history]} if history else {}),
        **({"last_result": None if view.last_result is None else result_json(view.last_result)} if shared else {}),
        "legal_actions": [] if own is None else [str(action) for action in own.legal_actions],
        "legal": [] if own is None else legal_json(own),
    }


def legal_json(view: PlayerView) -> list[JSON]:
    """The seat's legal actions as ``{"id", "text", "kind", "card", "source", "give", "take"}``
    (its id for this view, its notation, its data: :func:`action_json`), in the order of
    ``view.legal_actions``."""
    return [
        {"id": action_id(view, action), "text": str(action), **action_json(action)} for action in view.legal_actions
    ]


def spectator_view_json(game: Game) -> JSON:
    """What anyone at the table may see (:meth:`Game.public_view`) as :func:`view_json` writes it."""
    return view_json(game.public_view())
