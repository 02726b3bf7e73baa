"""The library's own English: the phrases of :mod:`thirtyone.narration` as sentences.

Losses (:func:`loss_reason`), round ends (:func:`describe_end`) and refusals (:func:`refusal`)
are data first — a :class:`~thirtyone.settlement.Loss` has a kind, an
:class:`~thirtyone.refusals.IllegalActionError` a code — which the narrator tells as phrases (a
catalog key and values); :func:`english` writes those for library users and game records, naming
seats as ``seat 2``. The faces (terminal, browser) never read these sentences: they render the
same phrases in their own words and languages.

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

from thirtyone import narration
from thirtyone.cards import format_cards
from thirtyone.checks import escaped
from thirtyone.events import RoundResult
from thirtyone.narration import Cards
from thirtyone.narration import Phrase
from thirtyone.narration import Points
from thirtyone.narration import Seats
from thirtyone.refusals import IllegalActionError
from thirtyone.refusals import RefusalCode
from thirtyone.refusals import RefusalFacts
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
    "english",
    "LOSS_WORDS",
    "END_WORDS",
    "REFUSAL_WORDS",
]


def seat_name(seat: int) -> str:
    """How the library names a seat: ``seat 2``."""
    return f"seat {seat}"


LOSS_WORDS: Mapping[LossKind, str] = {
    "blitz": "{who} showed {shown}",
    "blitz_after_knock": "{who} showed {shown}",
    "dealt_blitz": "{who} {was} dealt {shown}",
    "dealt_blitz_beaten": "{who} {was} dealt {shown}",
    "lowest": "lowest hand",
    "knocker_alone_lowest": "knocker alone lowest (knock_penalty=scat)",
    "lowest_knocker_saved": "lowest hand; the knocker tied and is saved",
    "knocker_among_lowest": "knocker among the lowest (knock_penalty=widow)",
    "knocker_not_highest": "knocker without the highest hand (knock_penalty=namu_risky)",
    "lowest_all_passed": "lowest hand (everyone passed, R7.3)",
    "lowest_turn_limit": "lowest hand (the turn limit, R6.7)",
    "lowest_stock_out": "lowest hand (the stock ran out, R4.3)",
}
"""The English of each loss kind (placeholders ``{who}``, ``{was}``, ``{shown}``)."""


def loss_reason(loss: Loss, result: RoundResult, name: Callable[[int], str] = seat_name) -> str:
    """Why ``loss`` was charged in ``result``, in English: ``"seat 2 showed 31"``, ``"lowest hand"``
    (:func:`thirtyone.narration.loss`)."""
    return english(narration.loss(loss, result), name)


END_WORDS: Mapping[str, str] = {
    "end.blitz": "blitz by {who}",
    "end.dealt_blitz": "31 on the deal by {who}",
    "end.knock": "knock by {who}",
    "end.throw_down": "throw down by {who}",
    "end.all_pass": "all passed",
    "end.stock_exhausted": "stock exhausted",
    "end.max_turns": "turn limit",
    "end.other": "{end}",
}
"""The English of each round end's phrase (:func:`thirtyone.narration.round_end`)."""


def describe_end(result: RoundResult, name: Callable[[int], str] = seat_name) -> str:
    """How a round ended, in words: ``"knock by seat 2"``, ``"blitz by seat 0"``, ``"all passed"``
    (:func:`thirtyone.narration.round_end`)."""
    return english(narration.round_end(result), name)


REFUSAL_WORDS: Mapping[RefusalCode, str] = {
    "game_over": "the game is over; start a new game",
    "chance_due": "a chance step is due (see chance_step): call deal() before any move",
    "no_chance_due": "no chance step is due: the game waits for a move (legal now: {legal})",
    "not_your_turn": "it is {other}'s turn, not {seat}'s",
    "not_blind_phase": "{action} belongs to the blind phase before anyone plays (legal now: {legal})",
    "must_look": "{seat} has not looked at its cards yet: the blind phase asks to look or to throw down",
    "not_dealer_choice": "{action} is the Schwimmen dealer's choice after the deal (legal now: {legal})",
    "must_choose_hand": "the dealer first keeps the first hand (keep) or takes the second unseen (take widow)",
    "must_discard": "you hold four cards; discard one to end your turn (legal now: {legal})",
    "discard_not_in_hand": "{card} is not in your hand ({among}); discard one of your cards",
    "discard_taken_card": "cannot discard the card just taken from the discard pile ({card}); discard another",
    "draw_first": "draw a card before you discard (legal now: {legal})",
    "draw_or_knock": "in draw mode a turn is to draw or to knock (legal now: {legal})",
    "pile_empty": "the discard pile is empty; draw from the stock",
    "stock_empty": "the stock is empty and the discard pile has no cards to reshuffle; draw from the pile",
    "widow_turn": "in widow mode a turn is to exchange, pass or knock (legal now: {legal})",
    "widow_face_down": "the widow is face down; take all of it (exchange all), pass or knock",
    "exchange_two_needs_any": "exchange one card or all three (exchange=one_or_all); two needs exchange=any",
    "exchange_not_in_hand": "{card} is not in your hand ({among})",
    "exchange_not_in_widow": "{card} is not in the widow ({among})",
    "second_knock": "{other} has already knocked; only one knock per round",
    "knock_too_early": "knocking is allowed only after every player has had a turn (knock_from_round=2)",
    "knock_too_low": "knocking needs a hand worth at least {need} (yours is {value})",
}
"""The English of each refusal code, after its rule id (placeholders, :func:`thirtyone.narration.refusal`:
``{seat}``, ``{other}``, ``{card}``, ``{among}``, ``{action}``, ``{need}``, ``{value}``, ``{legal}``)."""


def refusal_words(error: IllegalActionError, name: Callable[[int], str] = seat_name) -> str:
    """A refusal's message, its rule id first, with seats named by ``name``:
    ``refusal_words(error, names.__getitem__)`` → ``"R6.1: Ann has already knocked; …"``."""
    return f"{error.rule}: {english(narration.refusal(error), name)}"


def refusal(code: RefusalCode, **facts: Unpack[RefusalFacts]) -> IllegalActionError:
    """The :class:`~thirtyone.refusals.IllegalActionError` for ``code`` with its data (see there),
    its message the rule id and the English of :data:`REFUSAL_WORDS`: ``R4.2: cannot discard …``."""
    error = IllegalActionError("", code=code, **facts)
    error.args = (refusal_words(error),)  # the words are told from the error's own facts
    return error


_WORDS: Mapping[str, str] = {
    **{f"loss.{kind}": words for kind, words in LOSS_WORDS.items()},
    # after a throw-down the records say the rule, as after a knock (their words name no move)
    **{f"loss.{kind}.throw": LOSS_WORDS[kind] for kind in narration.THROWN_LOSSES},
    **END_WORDS,
    **{f"refusal.{code}": words for code, words in REFUSAL_WORDS.items()},
    "shown.31": "31",
    "shown.three_aces": "three aces (33)",
}
"""The library's English of every phrase the records and messages use, by catalog key."""


def english(phrase: Phrase, name: Callable[[int], str] = seat_name) -> str:
    """A phrase (:mod:`thirtyone.narration`) in the library's English: seats named by ``name`` and
    joined by commas (``{was}`` agrees with them), cards as text (``Td 9h``), hand values as
    :func:`~thirtyone.scoring.format_value` writes them; raises ``KeyError`` for a key the records
    never say (a move's phrase is the faces').

    >>> english(Phrase("end.knock", {"who": Seats((2,))}))
    'knock by seat 2'
    """
    values = {key: _english_value(value, name) for key, value in phrase.values.items()}
    who = phrase.values.get("who")
    values["was"] = "were" if isinstance(who, Seats) and len(who.seats) != 1 else "was"
    return _WORDS[phrase.key].format(**values)


def _english_value(value: narration.Value, name: Callable[[int], str]) -> str:
    if isinstance(value, Seats):
        return ", ".join(name(seat) for seat in value.seats)
    if isinstance(value, Cards):
        return format_cards(value.cards)
    if isinstance(value, Points):
        return format_value(value.value)
    if isinstance(value, Phrase):
        return english(value, name)
    return str(value)


def error_line(error: BaseException) -> str:
    """An exception in one line, as a message quotes it: its type and the first line of its own
    message (``"ValueError: no idea"``), escaped (:func:`thirtyone.checks.escaped`): the text of a
    plugin's or a worker's exception comes from outside.

    >>> error_line(KeyError("a\\nb")), error_line(ValueError())
    ("KeyError: 'a\\\\nb'", 'ValueError')
    """
    lines = str(error).strip().splitlines()
    return escaped(f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__)
