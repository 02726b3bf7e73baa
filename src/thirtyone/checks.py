"""Small checks of input shared by the library: what counts as a whole number, what text shows
as it is written (a player's name), and how a message names a bad value.

A whole number is an ``int`` or any integer type that says it is one (``numpy.int64`` from
:mod:`thirtyone.sim`'s arrays, ``operator.index``), but never a ``bool``, a float or text.

>>> whole_number(3), whole_number(True), whole_number(2.0), whole_number("3")
(3, None, None, None)
>>> printable("Ada"), printable("\U0001f469\u200d\U0001f4bb"), printable("a\x1b[31m"), printable("a\u200bb")
(True, True, False, False)
>>> shown(True), shown({"a": 1}), shown("x" * 50)
('true', 'a table', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
"""

from __future__ import annotations

import operator

__all__ = ["JOINERS", "printable", "shown", "whole_number"]

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
