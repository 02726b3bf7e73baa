"""Bots: opponents for the terminal game and players for simulations.

>>> bot = make_bot("basic", seed=1)
>>> bot.name
'basic'
>>> make_bot("grandmaster")
Traceback (most recent call last):
...
thirtyone.bots.UnknownBotError: unknown bot 'grandmaster': choose one of random, basic, heuristic
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.bots.base import Bot, SeededBot
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.random_bot import RandomBot
from thirtyone.errors import ThirtyOneError

__all__ = [
    "Bot",
    "SeededBot",
    "BasicBot",
    "HeuristicBot",
    "RandomBot",
    "BOTS",
    "make_bot",
    "parse_bot_list",
    "UnknownBotError",
]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "basic": BasicBot,
    "heuristic": HeuristicBot,
}
"""Bot factories by name: each takes a seed."""


class UnknownBotError(ThirtyOneError):
    """A bot name that is not in :data:`BOTS`."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by name, seeded.

    Raises:
        UnknownBotError: for a name not in :data:`BOTS`.
    """
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise UnknownBotError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    return factory(seed)


def parse_bot_list(text: str, count: int) -> list[str]:
    """Bot names for ``count`` seats from a comma list, the last name repeating:
    ``"basic,random"`` for 3 seats → ``["basic", "random", "random"]``.

    Raises:
        UnknownBotError: for an unknown name or an empty list.
    """
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise UnknownBotError(f"no bot named in {text!r}: give names such as {','.join(BOTS)}")
    for name in names:
        if name not in BOTS:
            raise UnknownBotError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
    if len(names) > count:
        raise UnknownBotError(
            f"{len(names)} bots named for {count} bot seat{'s' if count != 1 else ''}: name at most {count}"
        )
    return names + [names[-1]] * (count - len(names))
