"""Small checks of input shared by the library: what counts as a whole number, what text shows
as it is written (a player's name), how text from outside is shown without being acted on, how
a message names a bad value, and whether a Ray cluster's address answers (the arena's and the
self-play's, :func:`check_ray_address`).

A whole number is an ``int`` or any integer type that says it is one (``numpy.int64`` from
:mod:`thirtyone.sim`'s arrays, ``operator.index``), but never a ``bool``, a float or text.

>>> whole_number(3), whole_number(True), whole_number(2.0), whole_number("3")
(3, None, None, None)
>>> printable("Ada"), printable("\U0001f469\u200d\U0001f4bb"), printable("a\x1b[31m"), printable("a\u200bb")
(True, True, False, False)
>>> escaped("Ada"), escaped("王小明"), escaped("\x1b]0;PWNED\x07"), escaped("Bo\u202eb")
('Ada', '王小明', '\\\\x1b]0;PWNED\\\\x07', 'Bo\\\\u202eb')
>>> print(escaped_json({"name": "Bo\u202eb\x1b", "city": "Zürich"}))
{"name": "Bo\\u202eb\\u001b", "city": "Zürich"}
>>> shown(True), shown({"a": 1}), shown("x" * 50)
('true', 'a table', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
"""

from __future__ import annotations

import json
import operator
import socket
import unicodedata

__all__ = ["JOINERS", "check_ray_address", "escaped", "escaped_json", "printable", "shows", "shown", "whole_number"]

JOINERS = "\u200c\u200d"
"""The zero-width non-joiner and joiner: invisible, but they shape what they stand between — the
letters of Urdu, Persian and Khmer words, emoji sequences (👩\u200d💻) — so names keep them."""


def whole_number(value: object) -> int | None:
    """``value`` as an ``int`` when it is a whole number (see above), else ``None``."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def printable(text: str) -> bool:
    """True when ``text`` shows as it is written: printable characters (no control characters,
    escape sequences, zero-width spaces or direction marks), and the :data:`JOINERS`."""
    return text.translate({ord(joiner): None for joiner in JOINERS}).isprintable()


_BLANKS = frozenset("\u2800\u115f\u1160\u3164\uffa0")
"""Characters that are letters or symbols to Unicode and show nothing: the blank braille cell and the
Hangul fillers (default-ignorable letters)."""


def shows(text: str) -> bool:
    """True when ``text`` shows something: a letter, digit, punctuation mark or symbol that is not
    blank. Spaces of any kind, format characters, marks with no letter and :data:`_BLANKS` alone
    show nothing (a name of them would be an empty name).

    >>> shows("Ann"), shows("?"), shows("\u2800"), shows(" \u200d\u3164"), shows("\u0301")
    (True, True, False, False, False)
    """
    return any(unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS for char in text)


def shown(value: object) -> str:
    """A bad value as a message names it, short and in the words of the text it came from (TOML,
    JSON): ``true``, ``a table``, ``an array``, or its repr cut to 40 characters."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# Text from outside (a shared record's names and comment, a --seen file, a plugin bot's error) is
# untrusted: an escape sequence in it would set a terminal's title or clear its screen, a direction
# override (U+202E) would turn the rest of the line around. Whatever prints such text escapes it.


def escaped(text: str) -> str:
    """``text`` with every character that would not show as written — a control character (ESC,
    BEL, a line break, DEL, the C1 controls), a direction mark or override, a zero-width space —
    as its Python escape (``\\x1b``, ``\\u202e``, ``\\n``); the joiners that shape scripts and
    emoji are kept (:data:`thirtyone.checks.JOINERS`). Printable text comes back as it is."""
    if printable(text):
        return text
    return "".join(char if printable(char) else repr(char)[1:-1] for char in text)


def escaped_json(data: object, *, indent: int | None = None) -> str:
    """``data`` as JSON text (non-ASCII letters as they are) in which every character that would
    not show as written is a ``\\u`` escape: the same JSON, safe to print to a terminal (JSON
    itself escapes only the C0 controls, not DEL, the C1 controls or U+202E)."""
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if printable(text.replace("\n", "")):
        return text
    # outside strings JSON has only printable characters and the indent's line breaks
    return "".join(char if char == "\n" or printable(char) else json.dumps(char)[1:-1] for char in text)


def check_ray_address(address: str, option: str, error: type[Exception], timeout: float = 5.0) -> None:
    """Fail fast (Ray itself retries for minutes) when the Ray cluster at ``address``, ``host:port``
    or ``ray://host:port`` (an IPv6 host in brackets), does not answer within ``timeout`` seconds;
    ``auto``, ``local`` and an address without a port are Ray's to find. ``option`` names where the
    address was given (``--address``), for the message.

    Raises:
        error: (the caller's class, with the message) when the port is not a number, or when
            nothing answers at ``host:port`` (naming the system's reason).

    >>> check_ray_address("auto", "--address", ValueError)
    >>> check_ray_address("10.0.0.5:head", "--address", ValueError)
    Traceback (most recent call last):
    ValueError: --address '10.0.0.5:head': give host:port (or ray://host:port), e.g. 10.0.0.5:6379
    """
    target = address.removeprefix("ray://")
    if address in ("auto", "local") or ":" not in target:
        return
    host, _, port_text = target.rpartition(":")
    try:
        port = int(port_text)
    except ValueError:
        raise error(f"{option} {address!r}: give host:port (or ray://host:port), e.g. 10.0.0.5:6379") from None
    try:
        with socket.create_connection((host.strip("[]"), port), timeout=timeout):
            pass
    except OSError as failure:
        reason = failure.strerror or type(failure).__name__
        raise error(
            f"cannot reach a Ray cluster at {address} ({reason}): start one there with `ray start --head` "
            f"or give another {option}"
        ) from None
