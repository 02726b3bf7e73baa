"""Every random choice the server makes, from one source: :class:`Randomness`, set in the server's
settings (``ServerSettings.randomness``), secure by default.

The choices are named, so that a test can pin one of them (a subclass that returns a chosen salt
chain key or first dealer) and the rest stay seeded:

=================  ==============================================================================
``chain_key``      a new table's secret salt chain key (:func:`thirtyone.server.fair.new_chain`)
``salt``           an older table's deal salt (:func:`thirtyone.server.fair.new_deal`)
``shuffle``        an older table's deck order
``first_dealer``   the seat that deals the first round (R3.1)
``seed``           a bot's seed, for its move, and the expert's, for a hint
``table_code``     a new table's code (:func:`thirtyone.server.limits.new_code`)
=================  ==============================================================================

By default the source is :class:`secrets.SystemRandom` (the operating system's randomness): no
one can foresee a salt chain, a deal, a code. ``Randomness(seed=N)`` draws every choice from
``random.Random(N)`` instead, so that a test's or a demonstration's tables and deals repeat: never
for real games, since whoever knows ``N`` knows every deck. Seat and host tokens are credentials,
not choices: they always come from :mod:`secrets` (:func:`thirtyone.server.limits.new_token`), as
does the store's process id.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Sequence
from typing import TypeVar

from thirtyone.cards import Card
from thirtyone.checks import whole_number
from thirtyone.server.errors import InputError
from thirtyone.server.limits import new_code

__all__ = ["Randomness"]

_T = TypeVar("_T")


class Randomness:
    """The server's one random source (see the module docstring): :class:`secrets.SystemRandom`,
    or with ``seed`` (a whole number) ``random.Random(seed)``. Safe to share between the event
    loop and threads (a new table's salt chain is worked out on one).

    Raises:
        InputError: for a seed that is not a whole number.
    """

    def __init__(self, seed: int | None = None) -> None:
        number = whole_number(seed)
        if seed is not None and (number is None or isinstance(seed, bool)):
            raise InputError(f"seed is a whole number (or none: the system's randomness), not {seed!r}")
        self.seed = number
        """The seed (``None``: the system's randomness)."""
        self._rng: random.Random = secrets.SystemRandom() if number is None else random.Random(number)
        self._lock = threading.Lock()  # a seeded source's draws in one order, whichever thread asks

    @property
    def secure(self) -> bool:
        """Whether the choices are unpredictable (no seed)."""
        return self.seed is None

    def __repr__(self) -> str:
        return "Randomness()" if self.seed is None else f"Randomness(seed={self.seed})"

    def _hex(self, size: int) -> str:
        with self._lock:
            return f"{self._rng.getrandbits(8 * size):0{2 * size}x}"

    def chain_key(self) -> str:
        """A new salt chain's secret key: 32 random bytes as 64 lowercase hex digits."""
        return self._hex(32)

    def salt(self) -> str:
        """An older table's deal salt: 32 random bytes as 64 lowercase hex digits."""
        return self._hex(32)

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        """``cards`` in a random order (top card first), as a new list."""
        order = list(cards)
        with self._lock:
            self._rng.shuffle(order)
        return order

    def first_dealer(self, players: int) -> int:
        """The first dealer's seat, ``0 <= seat < players`` (R3.1)."""
        with self._lock:
            return self._rng.randrange(players)

    def seed_for_bot(self) -> int:
        """A seed for a bot's move or the expert's hint: 64 random bits."""
        with self._lock:
            return self._rng.getrandbits(64)

    def table_code(self) -> str:
        """A new table's code (:func:`~thirtyone.server.limits.new_code`)."""
        with self._lock:
            return new_code(self._rng)
