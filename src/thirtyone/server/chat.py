"""The table chat: what a line may hold, the quick reactions, and how often a seat may speak.

A player's connection sends ``{"type": "chat", "text": "nice one"}`` or ``{"type": "chat",
"reaction": "good_game"}``; the table stores the line and sends everyone ``{"type": "chat", "id",
"seat", "text", "reaction", "at"}`` (:func:`thirtyone.server.messages.chat_message`). A line is
plain text, and every client shows it as text (the pages set ``textContent``): so ``a<b and b>c``
or ``<3`` is a line like any other. A line is 1 to :data:`MAX_CHARS` characters of printable text:
no line breaks or other control characters, no direction overrides or isolates (U+202A–U+202E,
U+2066–U+2069: they would turn the rest of a page's line around) and no other invisible formatting
characters, but the joiners that scripts and emoji need (:data:`thirtyone.checks.JOINERS`), and
the no-break and ideographic spaces; at most :data:`MAX_MARKS` combining marks stacked on one
letter (after NFC: a line of one letter under 150 accents would draw over the page's heading;
the scripts that stack marks need a few). A seat may say
:data:`BURST` lines at once and then one every ``1 / RATE`` seconds (:class:`ChatLimits`).
Reactions are ids from :data:`REACTIONS`; each page words and draws them itself.

>>> check_line({"text": "  good luck!  "})
('good luck!', None)
>>> check_line({"reaction": "good_game"})
(None, 'good_game')
>>> check_line({"text": "a<b and b>c"})
('a<b and b>c', None)
>>> check_line({"text": "gg\u202e"})
Traceback (most recent call last):
...
thirtyone.server.errors.InputError: chat is one line of plain text: no control or formatting characters (found U+202E)
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from typing import Any

from thirtyone.checks import JOINERS
from thirtyone.checks import shows
from thirtyone.server.errors import InputError
from thirtyone.server.limits import RateLimiter

__all__ = ["REACTIONS", "MAX_CHARS", "MAX_MARKS", "RATE", "BURST", "TOO_FAST", "check_line", "ChatLimits"]

REACTIONS = ("good_luck", "nice_hand", "well_played", "good_game", "unlucky", "wow", "laugh", "thinking")
"""The quick reactions, by id."""
MAX_CHARS = 200
"""The longest line, in characters."""
MAX_MARKS = 6
"""The most combining marks (Unicode category M) in a row, after NFC."""
RATE = 0.5
"""Lines a second a seat may say on average."""
BURST = 4
"""Lines a seat may say at once."""
TOO_FAST = f"you are chatting too fast: {BURST} lines at once, then one every {1 / RATE:g} seconds; wait a moment"

_ALLOWED = frozenset(JOINERS) | {" ", "\u00a0", "\u3000"}
"""Spaces and formatting characters a line may hold: the (non-)joiners that shape Urdu and Khmer
words and build emoji (👩‍👩‍👧), the space, the no-break space and the ideographic space."""


def check_line(message: dict[str, Any]) -> tuple[str | None, str | None]:
    """The ``(text, reaction)`` of a chat message (one of them ``None``), the text with the spaces
    around it removed.

    Raises:
        InputError: ``bad_chat``, saying what is wrong: neither or both given, not text, empty, over
            :data:`MAX_CHARS` characters, a character that is not printable text (see above), nothing
            that shows (:func:`thirtyone.checks.shows`: 50 zero-width joiners), more than
            :data:`MAX_MARKS` combining marks on one letter, or an unknown reaction.
    """
    text, reaction = message.get("text"), message.get("reaction")
    if (text is None) == (reaction is None):
        raise InputError('a chat message has "text" (a line) or "reaction" (one of the quick reactions)', "bad_chat")
    if reaction is not None:
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            shown = reaction[:20] if isinstance(reaction, str) else type(reaction).__name__
            raise InputError(f"unknown reaction {shown!r}: choose one of {', '.join(REACTIONS)}", "bad_chat")
        return None, reaction
    if not isinstance(text, str):
        raise InputError(f"chat text must be text, not {type(text).__name__}", "bad_chat")
    clean = unicodedata.normalize("NFC", text).strip()
    if not clean:
        raise InputError("an empty line: write something (at most 200 characters)", "bad_chat")
    if len(clean) > MAX_CHARS:
        raise InputError(f"a chat line has at most {MAX_CHARS} characters, not {len(clean)}", "bad_chat")
    for char in clean:
        if unicodedata.category(char)[0] in ("C", "Z") and char not in _ALLOWED:
            raise InputError(
                f"chat is one line of plain text: no control or formatting characters (found U+{ord(char):04X})",
                "bad_chat",
            )
    stacked = 0
    for char in clean:
        stacked = stacked + 1 if unicodedata.category(char)[0] == "M" else 0
        if stacked > MAX_MARKS:
            raise InputError(
                f"at most {MAX_MARKS} accents or other combining marks on one letter: they would draw over the page",
                "bad_chat",
            )
    if not shows(clean):  # only joiners and spaces: a line nobody could read
        raise InputError("a line that shows nothing (joiners and spaces alone): write something", "bad_chat")
    return clean, None


class ChatLimits:
    """How often each seat may speak: :data:`BURST` lines at once, then :data:`RATE` a second
    (a token bucket per seat, :class:`~thirtyone.server.limits.RateLimiter`). ``clock`` gives
    seconds (default :func:`time.monotonic`)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seats: dict[int, RateLimiter] = {}

    def allow(self, seat: int) -> bool:
        """Take one line's token for ``seat``: True if it may be said now."""
        limiter = self._seats.get(seat)
        if limiter is None:
            limiter = self._seats[seat] = RateLimiter(RATE, BURST, self._clock)
        return limiter.allow()
