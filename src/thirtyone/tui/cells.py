"""Terminal cells: how wide text is on the screen, and the one script where terminals and Rich
disagree.

Rich (and so Textual, which lays every screen out with Rich's counts) gives Khmer's spacing vowel
signs (ា, ើ, ះ …, Unicode category Mc) no cell, as the newest ``wcwidth`` tables do; terminals
that count with the C library's ``wcwidth`` — xterm, tmux, GNOME Terminal and the other VTE
terminals, Alacritty — give each a cell. A Khmer line is then drawn wider than Textual laid it
out, and every border after it moves. :func:`count_spacing_signs` makes Rich count as those
terminals do while the game plays in Khmer (``thirtyone play --lang km``), so the table lines up
there; a terminal that counts as Rich does by default would then see Khmer lines a little short.

>>> cell_len("សាមញ្ញ"), terminal_width("សាមញ្ញ")
(4, 5)
>>> with count_spacing_signs():
...     cell_len("សាមញ្ញ")
5
>>> cell_len("សាមញ្ញ")
4
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

import rich._unicode_data as rich_tables
import rich.cells
from rich.cells import cell_len

__all__ = ["terminal_width", "cells", "count_spacing_signs", "KHMER_SPACING_SIGNS", "unsure_width"]

KHMER_SPACING_SIGNS = frozenset(chr(code) for code in range(0x1780, 0x1800) if unicodedata.category(chr(code)) == "Mc")
"""Khmer's spacing vowel signs and marks (category Mc): a cell each in a ``wcwidth`` terminal."""


def unsure_width(text: str) -> str | None:
    """The first character of ``text`` that terminals draw one or two cells wide as their fonts
    have it, or ``None``: a symbol beyond the Basic Multilingual Plane that Unicode does not make
    wide (a playing card 🂡, a domino, a mahjong tile, an emoji shown as text by default). Every
    column after it would move by a cell in some terminals; an emoji that is wide (😀) is two cells
    everywhere.

    >>> unsure_width("Ann 🂡"), unsure_width("Ann 😀 王小明 ♠ é")
    ('🂡', None)
    """
    return next(
        (
            char
            for char in text
            if ord(char) > 0xFFFF
            and unicodedata.category(char) == "So"
            and unicodedata.east_asian_width(char) not in "WF"
        ),
        None,
    )


def terminal_width(text: str) -> int:
    """Cells ``text`` takes in a terminal that counts by the C library's ``wcwidth``: a spacing
    vowel sign (Khmer ា) takes a cell there, a non-spacing mark none, an East Asian wide
    character two."""
    width = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def cells(text: str) -> int:
    """The cells ``text`` may take in any terminal: the more of Rich's count and
    :func:`terminal_width`'s, so that a line measured with it fits in either kind of terminal."""
    return max(cell_len(text), terminal_width(text))


def _clear_caches() -> None:
    rich_tables.load.cache_clear()
    rich.cells.get_character_cell_size.cache_clear()
    rich.cells.cached_cell_len.cache_clear()


@contextmanager
def count_spacing_signs() -> Iterator[None]:
    """While inside, Rich (and Textual) count each of :data:`KHMER_SPACING_SIGNS` as one cell, as
    ``wcwidth`` terminals draw it; Rich's own table comes back on leaving. It changes Rich's table
    of the Unicode version in use for the whole process: the terminal game enters it for a game
    in Khmer and leaves it when the game ends."""
    table = rich_tables.load()
    module = importlib.import_module(f"rich._unicode_data.unicode{table.unicode_version.replace('.', '-')}")
    signs = sorted(ord(sign) for sign in KHMER_SPACING_SIGNS)
    widths: list[tuple[int, int, int]] = []
    for start, end, width in table.widths:
        inside = [code for code in signs if start <= code <= end]
        if width != 0 or not inside:
            widths.append((start, end, width))
            continue
        low = start
        for code in inside:  # split the zero-width range around each spacing sign
            if low < code:
                widths.append((low, code - 1, 0))
            widths.append((code, code, 1))
            low = code + 1
        if low <= end:
            widths.append((low, end, 0))
    setattr(module, "cell_table", table._replace(widths=widths))  # noqa: B010 - a module of data tables
    _clear_caches()
    try:
        yield
    finally:
        setattr(module, "cell_table", table)  # noqa: B010
        _clear_caches()
