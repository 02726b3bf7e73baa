"""Small checks of input shared by the library: what counts as a whole number, and what text
shows as it is written (a player's name).

A whole number is an ``int`` or any integer type that says it is one (``numpy.int64`` from
:mod:`thirtyone.sim`'s arrays, ``operator.index``), but never a ``bool``, a float or text.

>>> whole_number(3), whole_number(True), whole_number(2.0), whole_number("3")
(3, None, None, None)
>>> printable("Ada"), printable("\U0001f469\u200d\U0001f4bb"), printable("a\x1b[31m"), printable("a\u200bb")
(True, True, False, False)
"""

from __future__ import annotations

import operator

__all__ = ["JOINERS", "printable", "whole_number"]

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
