"""Display names: who a person at a table may not pretend to be.

A name is shown on every page of a table, and the pages call the reader "You" and the bots by
their names. So a name that reads as "You", as a bot's or another player's name, or as a seat label
("Seat 3", "Bot 2") would make the others' pages unreadable. Names are compared by their
*skeleton* (:func:`skeleton`): Unicode NFKC (``"Ａｎｎ"`` is ``"Ann"``), accents and other combining
marks dropped, the letters that look like Latin ones mapped to them (a Cyrillic ``"Аnn"`` is
``"Ann"``; a digit ``0`` is an ``o``, ``rn`` an ``m``, as Unicode's confusables do), case folded,
and everything but letters and digits left out. A name that mixes Latin letters with Cyrillic or
Greek ones is refused outright: that is how look-alikes are made.

>>> skeleton("Аnn") == skeleton("ann") == skeleton("ＡＮＮ") == skeleton("Ánn")
True
>>> check_display_name("Ben", ["Ann", "Cy"])
'Ben'
>>> check_display_name("YOU", [])
Traceback (most recent call last):
...
thirtyone.server.errors.InputError: the name 'YOU' reads as "You", which the pages call each player: choose another
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from thirtyone.server.errors import InputError
from thirtyone.server.limits import check_name

__all__ = ["skeleton", "check_display_name", "RESERVED"]

RESERVED = {
    "you": '"You", which the pages call each player',
    "yourself": '"You", which the pages call each player',
    "me": '"You", which the pages call each player',
    "host": "the table's host",
    "dealer": "the dealer",
    "bot": "a bot",
    "server": "the server",
    "system": "the server",
    "admin": "the server",
    "everyone": "everyone at the table",
    "nobody": "nobody",
    "spectator": "a spectator",
}
"""Skeletons no name may have, and what the name would read as."""

_LABEL = re.compile(r"^(seat|bot|player|spieler|platz)\d+$")
"""A seat's label as the pages write it (``"Seat 3"``, ``"Bot 2"``), as a skeleton."""

# Letters of other alphabets (and a few Latin ones and digits) that look like Latin letters, after
# NFKC and with their accents dropped; capitals and small letters apart (a Greek capital eta is an
# H, its small letter an n). From Unicode's confusables (UTS #39), the ones that matter for names.
# fmt: off
_LOOKALIKE = str.maketrans(
    {
        # Cyrillic capitals
        "А": "A", "В": "B", "С": "C", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M",
        "Н": "H", "О": "O", "Р": "P", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "Ԁ": "D", "Ԛ": "Q",
        "Ԝ": "W", "Ӏ": "l", "Ь": "b", "Ʒ": "3",
        # Cyrillic small letters
        "а": "a", "в": "b", "с": "c", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "к": "k", "м": "m",
        "н": "h", "о": "o", "р": "p", "т": "t", "х": "x", "у": "y", "ү": "y", "ԁ": "d", "ԛ": "q",
        "ԝ": "w", "ӏ": "l", "һ": "h", "ь": "b", "г": "r", "п": "n", "ы": "bl",
        # Greek capitals
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        # Greek small letters
        "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "ς": "c",
        # Latin look-alikes and digits
        "ı": "i", "ɩ": "i", "ɑ": "a", "ɡ": "g", "ʏ": "y", "ᴏ": "o", "ꓲ": "l",
        "0": "o", "1": "l", "I": "l", "|": "l",
    }
)
# fmt: on
_SEQUENCES = (("rn", "m"), ("vv", "w"))
"""Pairs of letters that read as one (after case folding)."""
_BLANKS = "\u115f\u1160\u3164\uffa0\u2800"
"""Characters that are letters to Unicode but show as nothing (Hangul fillers, the blank braille cell)."""
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names (see the module docstring): ``"Аnn"``
    (Cyrillic А), ``"ANN"``, ``"Ánn"`` and ``"A n n"`` all give ``"ann"``. A name with no letter
    or digit (emoji only) is its NFKC form, case folded."""
    text = unicodedata.normalize("NFKC", name)
    plain = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    shape = unicodedata.normalize("NFC", plain).translate(_LOOKALIKE).casefold().translate(_LOOKALIKE)
    for pair, one in _SEQUENCES:
        shape = shape.replace(pair, one)
    letters = "".join(ch for ch in shape if ch.isalnum() and ch not in _BLANKS)
    return letters or text.casefold().strip()


def _scripts(name: str) -> set[str]:
    found: set[str] = set()
    for ch in unicodedata.normalize("NFKC", name):
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ")[0]
            if script in _SCRIPTS:
                found.add(script)
    return found


def check_display_name(name: object, others: Iterable[str | None]) -> str:
    """``name`` with the spaces around it removed, if a person may take it at a table whose seats
    have the names ``others`` (``None`` for a free seat): 1–20 printable characters
    (:func:`~thirtyone.server.limits.check_name`), something visible, one alphabet, and a
    skeleton that is none of :data:`RESERVED`, no seat label, and no other seat's.

    Raises:
        InputError: ``bad_input`` for a name that is not one; ``name_reserved`` for one that reads
            as "You", a bot, the host or a seat label; ``name_taken`` for one that is, or looks
            like, the name of someone at the table (a bot included).
    """
    clean = check_name(name)
    if not any(ch.isalnum() and ch not in _BLANKS for ch in clean) and not any(
        unicodedata.category(ch) == "So" for ch in clean
    ):
        raise InputError(f"the name {clean!r} shows nothing readable: use letters, digits or an emoji")
    scripts = _scripts(clean)
    if "LATIN" in scripts and len(scripts) > 1:
        alphabet = sorted(scripts - {"LATIN"})[0].title()
        raise InputError(
            f"the name {clean!r} mixes Latin and {alphabet} letters, which look alike: write it in one alphabet",
            "name_reserved",
        )
    shape = skeleton(clean)
    if shape in RESERVED:
        raise InputError(f"the name {clean!r} reads as {RESERVED[shape]}: choose another", "name_reserved")
    if _LABEL.match("".join(ch for ch in unicodedata.normalize("NFKC", clean).casefold() if ch.isalnum())):
        raise InputError(f"the name {clean!r} reads as a seat's label: choose another", "name_reserved")
    for other in others:
        if other is not None and skeleton(other) == shape:
            same = "is" if other.casefold() == clean.casefold() else f"looks like {other!r}, which is"
            raise InputError(f"the name {clean!r} {same} taken at this table; choose another", "name_taken")
    return clean
