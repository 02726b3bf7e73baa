"""Limits and secrets: names, seat counts, table codes, seat tokens and the per-connection rate.

Seat tokens come from :mod:`secrets` (256 bits, URL-safe text); the database keeps only their
SHA-256, and a presented token is compared with each stored hash in constant time
(:func:`secrets.compare_digest`).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from thirtyone.server.errors import InputError

__all__ = [
    "MAX_NAME",
    "MAX_SEATS",
    "MIN_SEATS",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "check_name",
    "new_token",
    "hash_token",
    "token_matches",
    "token_matches_hash",
    "new_code",
    "normalize_code",
    "RateLimiter",
]

MAX_NAME = 20
"""The longest display name, in characters."""
MIN_SEATS = 2
MAX_SEATS = 9
"""Seats at a table (R2.1: 2–9 players; fewer where the deck cannot deal them)."""
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Letters of a table's short code: no 0/O, 1/I/L, so that it can be read out and typed."""
CODE_LENGTH = 6


def check_name(name: object) -> str:
    """A display name with the spaces around it removed: 1–20 printable characters.

    Raises:
        InputError: for anything else (empty, too long, a control or other unprintable character).
    """
    if not isinstance(name, str):
        raise InputError(f"name must be text, not {type(name).__name__}")
    clean = name.strip()
    if not clean:
        raise InputError("name: give a display name of 1 to 20 printable characters")
    if len(clean) > MAX_NAME:
        raise InputError(f"name: at most {MAX_NAME} characters, not {len(clean)}")
    if not clean.isprintable():
        raise InputError("name: only printable characters (no control characters or line breaks)")
    return clean


def new_token() -> str:
    """A fresh seat token: 32 random bytes from :mod:`secrets`, as 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The SHA-256 of a token, as 64 hex digits: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    """True when ``token`` hashes to ``stored``, compared in constant time."""
    if stored is None:
        secrets.compare_digest(hash_token(token), "0" * 64)  # the same work either way
        return False
    return secrets.compare_digest(hash_token(token), stored)


def token_matches_hash(token_hash: str, stored: str | None) -> bool:
    """True when the hash ``token_hash`` (:func:`hash_token`) is ``stored``, compared in constant time."""
    if stored is None:
        secrets.compare_digest(token_hash, "0" * 64)
        return False
    return secrets.compare_digest(token_hash, stored)


def new_code() -> str:
    """A new short table code: six letters of :data:`CODE_ALPHABET` (about 2**29 codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A table code as stored: upper case, spaces and dashes removed (``"ab-c2 3d"`` → ``"ABC23D"``)."""
    return code.replace("-", "").replace(" ", "").upper()


class RateLimiter:
    """A token bucket: on average ``rate`` messages a second, at most ``burst`` at once.

    ``clock`` gives seconds (default :func:`time.monotonic`).
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        """Take one message's token: True if the message may be handled, False if over the limit."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
