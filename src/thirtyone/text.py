"""The library's own English: the one place that turns the core's data into sentences.

Losses (:func:`loss_reason`), round ends (:func:`describe_end`) and refusals (:func:`refusal`)
are data first — a :class:`~thirtyone.settlement.Loss` has a kind, an
:class:`~thirtyone.refusals.IllegalActionError` a code — and these functions write them for
library users and game records, naming seats as ``seat 2``. The faces (terminal, browser) never
read these sentences: they put the same data in their own words and languages.

>>> from thirtyone.settlement import Loss
>>> from thirtyone.events import RoundResult
>>> result = RoundResult(3, 0, "knock", 2, (), (None,) * 3, (None,) * 3, (), (3, 3, 3), (), False, 9)
>>> loss_reason(Loss(2, 2, "knocker_alone_lowest"), result)
'knocker alone lowest (knock_penalty=scat)'
>>> describe_end(result)
'knock by seat 2'
>>> str(refusal("second_knock", seat=1, seats=(2,)))
'R6.1: seat 2 has already knocked; only one knock per round'
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Unpack

from thirtyone.cards import format_cards
from thirtyone.checks import escaped
from thirtyone.events import RoundResult
from thirtyone.refusals import IllegalActionError
from thirtyone.refusals import RefusalCode
from thirtyone.refusals import RefusalFacts
from thirtyone.scoring import HandValue
from thirtyone.scoring import format_value
from thirtyone.settlement import Loss
from thirtyone.settlement import LossKind

__all__ = [
    "seat_name",
    "loss_reason",
    "describe_end",
    "refusal",
    "refusal_words",
    "error_line",
    "LOSS_WORDS",
    "REFUSAL_WORDS",
]


def seat_name(seat: int) -> str:
    """How the library names a seat: ``seat 2``."""
    return f"seat {seat}"


LOSS_WORDS: Mapping[LossKind, str] = {
    "blitz": "{seats} showed {shown}",
    "blitz_after_knock": "{seats} showed {shown}",
    "dealt_blitz": "{seats} {was} dealt {shown}",
    "dealt_blitz_beaten": "{seats} {was} dealt {shown}",
    "lowest": "lowest hand",
    "knocker_alone_lowest": "knocker alone lowest (knock_penalty=scat)",
    "lowest_knocker_saved": "lowest hand; the knocker tied and is saved",
    "knocker_among_lowest": "knocker among the lowest (knock_penalty=widow)",
    "knocker_not_highest": "knocker without the highest hand (knock_penalty=namu_risky)",
    "lowest_all_passed": "lowest hand (everyone passed, R7.3)",
    "lowest_turn_limit": "lowest hand (the turn limit, R6.7)",
    "lowest_stock_out": "lowest hand (the stock ran out, R4.3)",
}
"""The English of each loss kind (placeholders ``{seats}``, ``{was}``, ``{shown}``)."""


def _shown(value: HandValue | None) -> str:
    return "three aces (33)" if value == 33 else "31" if value is None else format_value(value)


def loss_reason(loss: Loss, result: RoundResult, name: Callable[[int], str] = seat_name) -> str:
    """Why ``loss`` was charged in ``result``, in English: ``"seat 2 showed 31"``, ``"lowest hand"``."""
    shown = result.values[loss.seats[0]] if loss.seats and loss.seats[0] < len(result.values) else None
    return LOSS_WORDS[loss.kind].format(
        seats=", ".join(name(seat) for seat in loss.seats),
        was="was" if len(loss.seats) == 1 else "were",
        shown=_shown(shown),
    )


def describe_end(result: RoundResult, name: Callable[[int], str] = seat_name) -> str:
    """How a round ended, in words: ``"knock by seat 2"``, ``"blitz by seat 0"``, ``"all passed"``."""
    end = result.end
    if end in ("blitz", "dealt_blitz"):
        who = ", ".join(name(seat) for seat in result.blitz)
        return f"{'31 on the deal' if end == 'dealt_blitz' else 'blitz'} by {who}"
    if end in ("knock", "throw_down") and result.knocker is not None:
        return f"{end.replace('_', ' ')} by {name(result.knocker)}"
    return {"all_pass": "all passed", "stock_exhausted": "stock exhausted", "max_turns": "turn limit"}.get(end, end)


REFUSAL_WORDS: Mapping[RefusalCode, str] = {
    "game_over": "the game is over; start a new game",
    "chance_due": "a chance step is due (see chance_step): call deal() before any move",
    "no_chance_due": "no chance step is due: the game waits for a move ({legal})",
    "not_your_turn": "it is {to_move}'s turn, not {seat}'s",
    "not_blind_phase": "{action} belongs to the blind phase before anyone plays ({legal})",
    "must_look": "{seat} has not looked at its cards yet: the blind phase asks to look or to throw down",
    "not_dealer_choice": "{action} is the Schwimmen dealer's choice after the deal ({legal})",
    "must_choose_hand": "the dealer first keeps the first hand (keep) or takes the second unseen (take widow)",
    "must_discard": "you hold four cards; discard one to end your turn ({legal})",
    "discard_not_in_hand": "{card} is not in your hand ({among}); discard one of your cards",
    "discard_taken_card": "cannot discard the card just taken from the discard pile ({card}); discard another",
    "draw_first": "draw a card before you discard ({legal})",
    "draw_or_knock": "in draw mode a turn is to draw or to knock ({legal})",
    "pile_empty": "the discard pile is empty; draw from the stock",
    "stock_empty": "the stock is empty and the discard pile has no cards to reshuffle; draw from the pile",
    "widow_turn": "in widow mode a turn is to exchange, pass or knock ({legal})",
    "widow_face_down": "the widow is face down; take all of it (exchange all), pass or knock",
    "exchange_two_needs_any": "exchange one card or all three (exchange=one_or_all); two needs exchange=any",
    "exchange_not_in_hand": "{card} is not in your hand ({among})",
    "exchange_not_in_widow": "{card} is not in the widow ({among})",
    "second_knock": "{knocker} has already knocked; only one knock per round",
    "knock_too_early": "knocking is allowed only after every player has had a turn (knock_from_round=2)",
    "knock_too_low": "knocking needs a hand worth at least {need} (yours is {value})",
}
"""The English of each refusal code, after its rule id (placeholders: ``{seat}``, ``{to_move}``,
``{knocker}``, ``{card}``, ``{among}``, ``{action}``, ``{need}``, ``{value}``, ``{legal}``)."""


def refusal_words(error: IllegalActionError, name: Callable[[int], str] = seat_name) -> str:
    """A refusal's message, its rule id first, with seats named by ``name``:
    ``refusal_words(error, names.__getitem__)`` → ``"R6.1: Ann has already knocked; …"``."""
    seats, values = error.seats, error.values
    words = REFUSAL_WORDS[error.code].format(
        seat=name(error.seat) if error.seat is not None else "",
        to_move=name(seats[0]) if seats else "",
        knocker=name(seats[0]) if seats else "",
        card=error.cards[0] if error.cards else "",
        among=format_cards(error.among),
        action=error.action if error.action is not None else "",
        need=format_value(values[0]) if values else "",
        value=format_value(values[1]) if len(values) > 1 else "",
        legal="legal now: " + ", ".join(map(str, error.legal)),
    )
    return f"{error.rule}: {words}"


def refusal(code: RefusalCode, **facts: Unpack[RefusalFacts]) -> IllegalActionError:
    """The :class:`~thirtyone.refusals.IllegalActionError` for ``code`` with its data (see there),
    its message the rule id and the English of :data:`REFUSAL_WORDS`: ``R4.2: cannot discard …``."""
    error = IllegalActionError("", code=code, **facts)
    error.args = (refusal_words(error),)  # the words are told from the error's own facts
    return error


def error_line(error: BaseException) -> str:
    """An exception in one line, as a message quotes it: its type and the first line of its own
    message (``"ValueError: no idea"``), escaped (:func:`thirtyone.checks.escaped`): the text of a
    plugin's or a worker's exception comes from outside.

    >>> error_line(KeyError("a\\nb")), error_line(ValueError())
    ("KeyError: 'a\\\\nb'", 'ValueError')
    """
    lines = str(error).strip().splitlines()
    return escaped(f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__)
