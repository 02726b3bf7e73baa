"""``thirtyone serve`` with its deals pinned, for browser tests that must not depend on chance:
``python tests/web_pinned.py KEY serve ...``. The server's randomness
(:class:`thirtyone.server.randomness.Randomness`) is seeded, and every table's salt chain comes
from the 64-hex-digit ``KEY`` and its first dealer (R3.1) from ``random.Random(0)``, whatever
tables were made before it (tests may run in any order); with every seat's client seed given at
the join, each round's deck is then fixed (:func:`thirtyone.fairness.deal_deck`), and so is a game
of deterministic bots and scripted clicks."""

from __future__ import annotations

import random
import sys

from thirtyone.cli import main
from thirtyone.server import randomness


class Pinned(randomness.Randomness):
    """A seeded source whose tables are all dealt alike: chain ``key``, the first dealer as
    ``random.Random(0)`` draws it."""

    key = ""

    def chain_key(self) -> str:
        return self.key

    def first_dealer(self, players: int) -> int:
        return random.Random(0).randrange(players)


if __name__ == "__main__":
    Pinned.key = sys.argv[1]
    randomness.Randomness = Pinned  # type: ignore[misc]  # what serve builds its settings' source from
    sys.exit(main([*sys.argv[2:], "--seed", "1"]))
