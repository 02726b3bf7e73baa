"""Small checks of input shared by the core: what counts as a whole number.

A whole number is an ``int`` or any integer type that says it is one (``numpy.int64`` from
:mod:`thirtyone.sim`'s arrays, ``operator.index``), but never a ``bool``, a float or text.

>>> whole_number(3), whole_number(True), whole_number(2.0), whole_number("3")
(3, None, None, None)
"""

from __future__ import annotations

import operator

__all__ = ["whole_number"]


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
