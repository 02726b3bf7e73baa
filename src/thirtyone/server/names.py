"""Display names: who a person at a table may not pretend to be.

A name is shown on every page of a table, and the pages call the reader "You" and the bots by
their names. So a name that reads as "You", as a bot's or another player's name, or as a seat label
("Seat 3", "Bot 2") would make the others' pages unreadable, and so would a name that shows
nothing. What a name looks like is Unicode's own answer, through ICU's spoof checker (PyICU), which
implements Unicode's security mechanisms (UTS #39) on Unicode's data:

- a name must be *highly restrictive* in UTS #39's sense: its resolved script set is not empty (one
  script, with the characters every script uses, Common and Inherited, and those a character shares
  with several scripts), or it is Latin with Han and Japanese kana, Han and Bopomofo, or Han and
  Hangul; and its digits are of one system. ``ꓮnn`` (a Lisu ꓮ), ``Ꭺnn`` (Cherokee), ``Anո``
  (an Armenian ո) or a Cyrillic ``Аnn`` mix scripts that look alike, and are refused;
- names are compared by their *skeleton* (:func:`skeleton`): NFKC (``"Ａｎｎ"`` is ``"Ann"``, a
  modifier letter ``ᴴ`` is ``H``), small capitals folded to their letters by their Unicode names
  (``ʜᴏꜱᴛ``, ``ᴅᴇᴀʟᴇʀ`` and ``Sᴇᴀᴛ 3`` read as ``host``, ``dealer`` and ``Seat 3``: UTS #39's
  confusables map only some of them, and NFKC none), UTS #39's skeleton from its confusables
  (a Lisu ``ꓮꓠꓠ`` is ``ANN``), case folded, the accents and other generic combining marks (script
  Inherited) dropped (``"Zoë"`` reads as ``"Zoe"``), and everything but letters, marks and digits
  left out (``"A n n"`` is ``"ann"``);
- a name needs a letter, a digit or an emoji that shows: spaces of any kind, the blank braille cell
  (U+2800), format characters, default-ignorable characters (the Hangul fillers) and marks with no
  letter to sit on show nothing.

The script-shaping joiners (:data:`thirtyone.checks.JOINERS`: Urdu, Khmer, emoji sequences) are
kept, as :func:`thirtyone.checks.printable` keeps them for the terminal's names.

>>> skeleton("Аnn") == skeleton("ann") == skeleton("ＡＮＮ") == skeleton("Ánn") == skeleton("ꓮꓠꓠ")
True
>>> check_display_name("Ben", ["Ann", "Cy"])
'Ben'
>>> check_display_name("김민준", ["Ann"]), check_display_name("محمد\u200cعلی", ["Ann"])
('김민준', 'محمد\u200cعلی')
>>> check_display_name("YOU", [])
Traceback (most recent call last):
...
thirtyone.server.errors.InputError: the name 'YOU' reads as "You", which the pages call each player: choose another
>>> check_display_name("ꓮnn", [])
Traceback (most recent call last):
...
thirtyone.server.errors.InputError: the name 'ꓮnn' mixes Lisu and Latin letters, which look alike: use one script
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

import icu  # PyICU (pyicu-wheels): Unicode's confusables and script data, UTS #39's checks (SpoofChecker)

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
"""Words no name may look like (compared by :func:`skeleton`), and what the name would read as."""

_LABEL = re.compile(r"^(seat|bot|player|spieler|platz)\d+$")
"""A seat's label as the pages write it (``"Seat 3"``, ``"Bot 2"``), letters and digits only, case folded."""
_BRACKETS = frozenset("()[]{}<>（）［］｛｝＜＞")
"""Characters no name has: a bot's level is shown in brackets ("Cy (medium)"), markup starts with "<"."""
_BLANK_CELL = "\u2800"
"""The braille pattern blank: a symbol to Unicode, and nothing on the screen."""

_CHECKS = icu.USpoofChecks
_SPOOF = icu.SpoofChecker()
_SPOOF.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
_SPOOF.setChecks(_CHECKS.RESTRICTION_LEVEL | _CHECKS.MIXED_NUMBERS | _CHECKS.INVISIBLE)
_SHARED_SCRIPTS = frozenset({icu.UScriptCode.COMMON, icu.UScriptCode.INHERITED, icu.UScriptCode.UNKNOWN})


def _ignorable(char: str) -> bool:
    return bool(icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))


def _script(char: str) -> int:
    return int(icu.Script.getScript(char).getScriptCode())


def _letters(shape: str) -> str:
    """The letters, marks and digits of a skeleton, without the accents (marks of script Inherited)
    and the default-ignorable characters (a Hangul filler is a letter that shows nothing)."""
    kept = []
    for char in shape:
        kind = unicodedata.category(char)
        if kind[0] not in "LMN" or _ignorable(char):
            continue
        if kind == "Mn" and _script(char) == icu.UScriptCode.INHERITED:
            continue
        kept.append(char)
    return "".join(kept)


@functools.cache
def _letter(char: str) -> str:
    """The small letter a small capital stands for, by their Unicode names (``ʜ``, LATIN LETTER
    SMALL CAPITAL H, is ``h``; ``ᵻ``, LATIN SMALL CAPITAL LETTER I WITH STROKE, is ``ɨ``); any other
    character, or a small capital with no such letter, as it is."""
    name = unicodedata.name(char, "")
    for between in (" LETTER SMALL CAPITAL ", " SMALL CAPITAL LETTER "):
        script, found, letter = name.partition(between)
        if found and " " not in script:
            try:
                return unicodedata.lookup(f"{script} SMALL LETTER {letter}")
            except KeyError:
                return char
    return char


def _folded(text: str) -> str:
    """``text`` in NFKC (which turns the modifier letters into letters: ``ᴴ`` is ``H``, ``ᶦ`` a small
    capital ``ɪ``) with its small capitals folded to their letters (:func:`_letter`)."""
    return "".join(_letter(char) for char in unicodedata.normalize("NFKC", text))


def _shapes(name: str) -> tuple[str, str]:
    """What ``name`` looks like, two ways: the skeleton of its skeleton case folded (a capital ``I``
    reads as ``l`` first), and the skeleton of the name case folded (``Ivy`` is ``ivy``), its small
    capitals folded to letters before each skeleton (:func:`_folded`)."""
    text = _folded(name)
    shapes = []
    for start in (_SPOOF.getSkeleton(0, text), text):
        shape = _SPOOF.getSkeleton(0, _folded(start.casefold()))
        shapes.append(_letters(shape) or unicodedata.normalize("NFC", shape).strip())
    return shapes[0], shapes[1]


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names (see the module docstring): ``"Аnn"``
    (Cyrillic А), ``"ANN"``, ``"Ánn"`` and ``"A n n"`` all give ``"ann"``, ``"Ivy"`` gives
    ``"lvy"``, as ``"lvy"`` does. A name with no letter or digit (emoji only) is its skeleton."""
    return _shapes(name)[0]


_RESERVED_SHAPES = {shape: reads for word, reads in RESERVED.items() for shape in _shapes(word)}


def _shows(char: str) -> bool:
    """True when ``char`` shows on its own: a letter, digit or symbol (an emoji) that is not a space,
    the blank braille cell or a default-ignorable character."""
    return (
        unicodedata.category(char)[0] in "LNS"
        and char != _BLANK_CELL
        and not _ignorable(char)
        and not icu.Char.hasBinaryProperty(char, icu.UProperty.WHITE_SPACE)
    )


def _scripts(text: str) -> list[str]:
    """The scripts of ``text``'s characters that belong to one script, in order of appearance."""
    names: list[str] = []
    for char in text:
        script = icu.Script.getScript(char)
        if script.getScriptCode() not in _SHARED_SCRIPTS and script.getName() not in names:
            names.append(script.getName())
    return names


def check_display_name(name: object, others: Iterable[str | None]) -> str:
    """``name`` with the spaces around it removed, if a person may take it at a table whose seats
    have the names ``others`` (``None`` for a free seat): 1–20 printable characters
    (:func:`~thirtyone.server.limits.check_name`), something that shows, no brackets, one script
    (UTS #39, see the module docstring), and a skeleton that is none of :data:`RESERVED`'s, no seat
    label, and no other seat's.

    Raises:
        InputError: ``bad_input`` for a name that is not one (or stacks a mark on itself);
            ``name_blank`` for one that shows nothing; ``name_mixed`` for one that mixes scripts or
            digit systems; ``name_reserved`` for one that reads as "You", a bot, the host or a seat
            label, or has brackets; ``name_taken`` for one that is, or looks like, the name of
            someone at the table (a bot included).
    """
    clean = check_name(name)
    if not any(_shows(char) for char in clean):
        raise InputError(
            f"the name {clean!r} shows nothing (spaces, blanks or marks alone): use letters, digits or an emoji",
            "name_blank",
        )
    brackets = sorted(set(clean) & _BRACKETS)
    if brackets:  # the pages put a bot's level in brackets, and markup starts with "<"
        raise InputError(
            f"the name {clean!r} has {' '.join(brackets)}: names have no brackets (the pages write a bot's level in "
            "them); use letters, digits, spaces or an emoji",
            "name_reserved",
        )
    found = _SPOOF.check(unicodedata.normalize("NFKC", clean))
    if found & _CHECKS.RESTRICTION_LEVEL:
        scripts = _scripts(clean)
        mixed = f"{' and '.join(scripts)} letters" if len(scripts) > 1 else "letters of several scripts"
        raise InputError(f"the name {clean!r} mixes {mixed}, which look alike: use one script", "name_mixed")
    if found & _CHECKS.MIXED_NUMBERS:
        raise InputError(
            f"the name {clean!r} mixes digits of different scripts, which look alike: write them in one", "name_mixed"
        )
    if found:  # INVISIBLE: one mark twice on a letter, which shows as once
        raise InputError(f"the name {clean!r} puts the same mark twice on one letter: retype it", "bad_input")
    shapes = _shapes(clean)
    for shape in shapes:
        if shape in _RESERVED_SHAPES:
            raise InputError(f"the name {clean!r} reads as {_RESERVED_SHAPES[shape]}: choose another", "name_reserved")
    if _LABEL.match("".join(ch for ch in _folded(_folded(clean).casefold()) if ch.isalnum())):
        raise InputError(f"the name {clean!r} reads as a seat's label: choose another", "name_reserved")
    for other in others:
        if other is not None and set(_shapes(other)) & set(shapes):
            same = "is" if other.casefold() == clean.casefold() else f"looks like {other!r}, which is"
            raise InputError(f"the name {clean!r} {same} taken at this table; choose another", "name_taken")
    return clean
