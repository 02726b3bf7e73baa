"""Writing a game record as TOML text (docs/record-format.md), in the current version."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from thirtyone.cards import format_cards
from thirtyone.events import RoundResult
from thirtyone.record.shapes import FORMAT
from thirtyone.record.shapes import RecordBody
from thirtyone.record.shapes import format_action
from thirtyone.scoring import HandValue
from thirtyone.text import loss_reason

__all__ = ["dumps"]


def dumps(record: RecordBody) -> str:
    """``record`` as TOML text (UTF-8 when written to a file; ends with a newline), in the
    current version (:data:`~thirtyone.record.shapes.VERSION`); reading it back gives an equal record."""
    out = [
        f"# Thirty-One game record ({FORMAT}, version {record.version}); the format: docs/record-format.md",
        f"format = {_toml_str(FORMAT)}",
        f"version = {record.version}",
    ]
    for key, text in (("event", record.event), ("date", record.date), ("comment", record.comment)):
        if text is not None:
            out.append(f"{key} = {_toml_str(text)}")
    out.append(f"seats = [{', '.join(_toml_str(name) for name in record.seats)}]")
    out += ["", "[rules]", f"# {record.rules.describe()}", f"preset = {_toml_str(record.preset or '')}"]
    for name, value in record.rules.options().items():
        out.append(f"{name} = {_toml_option(value)}")
    if record.winner is not None and record.places is not None:
        out += ["", "[outcome]", f"winner = {record.winner}", f"places = {_toml_ints(record.places)}"]
    if record.fairness is not None:
        seeds = ", ".join(_toml_str(seed) for seed in record.fairness.seeds)
        out += ["", "[fairness]", f"commitment = {_toml_str(record.fairness.commitment)}", f"seeds = [{seeds}]"]
    for rnd in record.rounds:
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
