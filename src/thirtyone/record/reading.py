"""Reading a game record from TOML text: every version this library reads (1, 2, 3), the older
ones' losses given their kind from the result."""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Mapping
from collections.abc import Sequence
from fractions import Fraction
from typing import Any
from typing import Final
from typing import cast
from typing import get_args

from thirtyone.actions import Action
from thirtyone.cards import Card
from thirtyone.cards import parse_cards
from thirtyone.checks import shown
from thirtyone.errors import RecordError
from thirtyone.errors import ThirtyOneError
from thirtyone.events import RoundResult
from thirtyone.record.shapes import FORMAT
from thirtyone.record.shapes import SUPPORTED_VERSIONS
from thirtyone.record.shapes import V1_OPTIONS
from thirtyone.record.shapes import VERSION
from thirtyone.record.shapes import Fairness
from thirtyone.record.shapes import RoundRecord
from thirtyone.record.shapes import parse_record_action
from thirtyone.rules import OPTIONS
from thirtyone.rules import Rules
from thirtyone.scoring import HandValue
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.settlement import LOSS_KINDS
from thirtyone.settlement import LOSS_RULES
from thirtyone.settlement import NO_KNOCK_KINDS
from thirtyone.settlement import Loss
from thirtyone.settlement import LossKind
from thirtyone.settlement import RoundEnd

__all__ = ["loads"]

_ENDS: Final = frozenset(get_args(RoundEnd))
_TOP_KEYS: Final = ("format", "version", "event", "date", "comment", "seats", "rules", "outcome", "rounds")
_TOP_KEYS_V3: Final = (*_TOP_KEYS, "fairness")
_ROUND_KEYS: Final = ("round", "dealer", "deck", "reshuffles", "actions", "result")
_ROUND_KEYS_V2: Final = ("round", "dealer", "deck", "commitment", "salt", "reshuffles", "actions", "result")
_LOSS_KEYS_V1: Final = ("seat", "lives", "rule", "reason")
_LOSS_KEYS: Final = ("seat", "lives", "kind", "seats", "rule", "reason")
_RESULT_KEYS: Final = (
    "end", "knocker", "blitz", "turns", "shown", "losses", "remaining", "eliminated", "saved_by_r2_6",
)  # fmt: skip


def loads(text: str) -> dict[str, Any]:
    """The fields of the record ``text`` holds (TOML, any supported version; see
    ``docs/record-format.md``), for :class:`~thirtyone.record.GameRecord`: its structure is
    checked here, its actions and results by replaying it.

    Raises:
        RecordError: see :meth:`GameRecord.loads <thirtyone.record.GameRecord.loads>`.
    """
    if not isinstance(text, str):
        if isinstance(text, bytes | bytearray):
            raise RecordError('a game record is text (str), not bytes: decode it first (data.decode("utf-8"))')
        raise RecordError(f"a game record is text (str), not {shown(text)}: pass the TOML text of a record")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"not valid TOML: {error}") from None
    except RecursionError:
        raise RecordError("not valid TOML: arrays or tables nested too deeply") from None
    return _parse_record(data)


def _at(where: str) -> str:
    return f"{where}: " if where else ""


def _table(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: must be a table, not {shown(value)}")
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
        raise RecordError(f"{what} must be a whole number, not {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"at most {high}" if low is None else f"at least {low}" if high is None else f"from {low} to {high}"
        raise RecordError(f"{what} must be {bounds}, not {value}")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text in quotes, not {shown(value)}")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, not {shown(value)}")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be an array [...], not {shown(value)}")
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


def _parse_record(data: Mapping[str, Any]) -> dict[str, Any]:
    found = data.get("format")
    if found != FORMAT:
        said = "no format key" if found is None else f"format is {shown(found)}"
        raise RecordError(f'not a thirtyone record: {said} (expected format = "{FORMAT}")')
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
    return {
        "rules": rules,
        "seats": seats,
        "rounds": rounds,
        "preset": preset,
        "event": _metadata(data, "event"),
        "date": _metadata(data, "date"),
        "comment": _metadata(data, "comment"),
        "winner": winner,
        "places": places,
        "fairness": fairness,
        "read_version": version,
    }


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
