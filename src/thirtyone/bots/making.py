"""Making a bot from its name: :func:`make_bot` (``basic``, ``hard``, ``expert:200``, a bot of
another package) and :func:`parse_bot_list` (one name a seat), both re-exported by
:mod:`thirtyone.bots`. The names and levels themselves are registered in :mod:`thirtyone.bots.levels`.
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.bots.base import Bot
from thirtyone.bots.base import UnknownBotError
from thirtyone.bots.base import bot_seed
from thirtyone.bots.levels import BOT_INFO
from thirtyone.bots.levels import LEVELS
from thirtyone.bots.levels import parse_budget

__all__ = ["BOTS", "make_bot", "parse_bot_list"]

BOTS: dict[str, Callable[[int | None], Bot]] = {name: info.factory for name, info in BOT_INFO.items()}
"""Bot factories by name: each takes a seed (:data:`thirtyone.bots.levels.BOT_INFO`)."""


def _unknown(name: str) -> UnknownBotError:
    from thirtyone.bots.plugins import installed_bots

    # the policy bot cannot be named without the path of its weights
    installed = ", ".join(f"{bot}:PATH" if bot == "policy" else bot for bot in sorted(installed_bots()))
    return UnknownBotError(
        f"unknown bot {name!r}: choose one of {', '.join(BOTS)} (or {', '.join(LEVELS)}), "
        + (f"an installed one ({installed}), " if installed else "")
        + "or module:factory for a bot of your own"
    )


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by name (``basic``, ``hard``, ``expert:200``, ``expert:0.5s``, ``expert-v1``), seeded;
    or a bot of another package (:mod:`thirtyone.bots.plugins`).

    Raises:
        UnknownBotError: for an unknown name or a bad budget (:func:`~thirtyone.bots.levels.parse_budget`).
        ArgumentError: for a seed that is not a whole number or ``None``, as :class:`~thirtyone.engine.Game`
            refuses one (:func:`~thirtyone.bots.base.bot_seed`).
    """
    if not isinstance(name, str):
        raise _unknown(repr(name))
    seed = bot_seed(seed)  # before a factory of another package gets it
    spec = name.strip().lower()
    base, colon, _ = spec.partition(":")
    base = LEVELS.get(base, base)
    factory = BOTS.get(base)
    if factory is None:
        from thirtyone.bots.plugins import external_bot  # bots from other packages (entry points, module:factory)

        return external_bot(name, seed, _unknown(name))
    if not colon:
        return factory(seed)  # "expert:" is a budget left out by mistake: parse_budget refuses it
    with_argument = BOT_INFO[base].with_argument
    if with_argument is not None:
        return with_argument(seed, name.strip().partition(":")[2])
    worlds, seconds, rollouts = parse_budget(name)
    return BOT_INFO[base].factory(seed, worlds=worlds, seconds=seconds, rollouts=rollouts)


def _normal(name: str) -> str:
    """A bot name as the list keeps it: lowercase, but for a ``module:factory`` (case matters there)."""
    name = name.strip()
    head = name.partition(":")[0].lower()
    return name if ":" in name and head not in BOTS and head not in LEVELS else name.lower()


def parse_bot_list(text: str, count: int) -> list[str]:
    """Bot names for ``count`` seats from a comma list, the last name repeating:
    ``"basic,random"`` for 3 seats → ``["basic", "random", "random"]``.

    Raises:
        UnknownBotError: for an unknown name or an empty list.
    """
    names = [_normal(name) for name in text.split(",")]
    if not any(names):
        raise UnknownBotError(f"no bot named in {text!r}: give names such as {','.join(BOTS)}")
    if not all(names):
        raise UnknownBotError(f"an empty bot name in {text!r}: separate the names with single commas")
    for name in names:
        make_bot(name)
    if len(names) > count:
        raise UnknownBotError(
            f"{len(names)} bots named for {count} bot seat{'s' if count != 1 else ''}: name at most {count}"
        )
    return names + [names[-1]] * (count - len(names))
