"""Limits and secrets: names, seat counts, table codes, seat tokens, rates (a token bucket per
connection, per client address), and the connections let in (:class:`Admission`).

Seat tokens come from :mod:`secrets` (256 bits, URL-safe text); the database keeps only their
SHA-256, and a presented token is compared with each stored hash in constant time
(:func:`secrets.compare_digest`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import random
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import TypeVar

from thirtyone.checks import printable
from thirtyone.server.errors import InputError
from thirtyone.server.errors import LimitError

_K = TypeVar("_K")

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
    "Buckets",
    "address_key",
    "Admission",
    "Ticket",
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
    if not printable(clean):
        hidden = any(unicodedata.category(ch) == "Cf" for ch in clean)
        if hidden:  # a zero-width space or a direction mark, often pasted in unseen
            raise InputError("name: it holds an invisible character (a zero-width space or direction mark): retype it")
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


def new_code(rng: random.Random) -> str:
    """A new short table code: six letters of :data:`CODE_ALPHABET` (about 2**29 codes), chosen by
    ``rng`` (the server's :class:`~thirtyone.server.randomness.Randomness` passes its own)."""
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


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
        self.last = clock()

    def allow(self) -> bool:
        """Take one message's token: True if the message may be handled, False if over the limit."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self.last) * self.rate)
        self.last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


def address_key(host: str | None) -> str:
    """The client address a limit counts: an IPv4 address as it is, an IPv6 address by its /64
    (one household or host has a whole /64), anything else (no address, a Unix socket) as is.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:3:4:5:6"), address_key("::ffff:10.0.0.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Buckets:
    """A token bucket (:class:`RateLimiter`) per key (a client address), made on first use and
    forgotten once full again and unused for a while, so that many addresses cost little.

    ``clock`` gives seconds (default :func:`time.monotonic`).
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, RateLimiter] = {}
        self._swept = clock()

    def allow(self, key: str) -> bool:
        """Take one token from ``key``'s bucket: True if allowed."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._sweep()
            bucket = self._buckets[key] = RateLimiter(self.rate, self.burst, self._clock)
        return bucket.allow()

    def _sweep(self) -> None:
        """Forget the buckets that have filled up again (nobody spends from them)."""
        now = self._clock()
        refill = self.burst / self.rate
        self._buckets = {key: b for key, b in self._buckets.items() if now - b.last < refill}
        self._swept = now

    def __len__(self) -> int:
        return len(self._buckets)


class Ticket:
    """One connection let in by :class:`Admission`: its client ``address``, and the table and seat
    it holds once it has said hello. :meth:`Admission.leave` gives it back."""

    __slots__ = ("address", "attached", "seat", "table")

    def __init__(self, address: str) -> None:
        self.address = address
        self.table: str | None = None
        self.seat: int | None = None
        self.attached = False


class Admission:
    """How many WebSocket connections there are, in all, from each client address, at each table
    and on each seat, and whether one more may come: ``total`` connections at most, ``per_address``
    from one address, ``per_table`` at one table, ``per_seat`` on one seat (a person's tabs) and
    ``spectators`` watching one table.

    :meth:`enter` lets a connection in (or refuses it: total, per address); :meth:`attach` seats it
    at a table (or refuses: per table, per seat, spectators); :meth:`leave` gives everything back.
    Refusals raise :class:`~thirtyone.server.errors.LimitError` with the limit in words.
    """

    def __init__(self, total: int, per_address: int, per_table: int, per_seat: int, spectators: int) -> None:
        self.total = total
        self.per_address = per_address
        self.per_table = per_table
        self.per_seat = per_seat
        self.spectators = spectators
        self.count = 0
        self._addresses: dict[str, int] = {}
        self._tables: dict[str, int] = {}
        self._seats: dict[tuple[str, int | None], int] = {}

    def enter(self, address: str) -> Ticket:
        """Let a new connection from ``address`` in.

        Raises:
            LimitError: when the server has ``total`` connections, or ``address`` has ``per_address``.
        """
        if self.count >= self.total:
            raise LimitError(
                f"the server has {self.total} connections, its limit: try again later", "too_many_connections"
            )
        held = self._addresses.get(address, 0)
        if held >= self.per_address:
            raise LimitError(
                f"{self.per_address} connections from your address already: close some tabs", "too_many_connections"
            )
        self.count += 1
        self._addresses[address] = held + 1
        return Ticket(address)

    def attach(self, ticket: Ticket, table: str, seat: int | None) -> None:
        """Count ``ticket``'s connection at ``table`` on ``seat`` (``None``: watching).

        Raises:
            LimitError: when the table has ``per_table`` connections, the seat ``per_seat``, or the
                table ``spectators`` watching.
        """
        if ticket.attached:
            return
        if self._tables.get(table, 0) >= self.per_table:
            raise LimitError(
                f"table {table} has {self.per_table} connections, its limit: try again later", "too_many_connections"
            )
        held = self._seats.get((table, seat), 0)
        if seat is not None and held >= self.per_seat:
            raise LimitError(
                f"seat {seat} of table {table} is open in {self.per_seat} places already (tabs or devices): close one",
                "too_many_connections",
            )
        if seat is None and held >= self.spectators:
            raise LimitError(
                f"table {table} has {self.spectators} spectators, its limit: try again later", "too_many_spectators"
            )
        self._tables[table] = self._tables.get(table, 0) + 1
        self._seats[(table, seat)] = held + 1
        ticket.table, ticket.seat, ticket.attached = table, seat, True

    def leave(self, ticket: Ticket) -> None:
        """Give back what ``ticket`` holds (once)."""
        if ticket.attached:
            ticket.attached = False
            _drop(self._tables, ticket.table or "")
            _drop(self._seats, (ticket.table or "", ticket.seat))
        if ticket.address:
            _drop(self._addresses, ticket.address)
            ticket.address = ""
            self.count -= 1


def _drop(counts: dict[_K, int], key: _K) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
