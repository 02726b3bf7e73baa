"""Text from outside shown in a terminal as it is written, never acted on.

A game record is shared and downloaded, so its names, event, date and comment are untrusted, and
so is a page's ``--seen`` file and anything an error message quotes from them: an escape sequence
in a seat's name would set the window title or clear the screen, a direction override (U+202E)
would turn the rest of the line around. Every command writes such text through :func:`escaped` (or
:func:`escaped_json`), which writes each character that would not show as itself (what
:func:`thirtyone.checks.printable` refuses) as its escape.

>>> escaped("Ada"), escaped("王小明"), escaped("\\x1b]0;PWNED\\x07"), escaped("Bo\\u202eb"), escaped("a\\nb")
('Ada', '王小明', '\\\\x1b]0;PWNED\\\\x07', 'Bo\\\\u202eb', 'a\\\\nb')
>>> print(escaped_json({"name": "Bo\\u202eb\\x1b", "city": "Zürich"}))
{"name": "Bo\\u202eb\\u001b", "city": "Zürich"}
"""

from __future__ import annotations

import json

from thirtyone.checks import printable

__all__ = ["escaped", "escaped_json"]


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
