"""Bots: opponents for the terminal game and players for simulations and the arena.

A bot is named by its level — ``random``, ``basic``, ``heuristic``, ``expert`` — or by the terminal
game's words for them: ``easy`` (basic), ``medium`` (heuristic), ``hard`` (expert). The expert takes
a budget after a colon: ``expert:200`` samples 200 worlds per decision, ``expert:0.25s`` stops after
a quarter of a second, and ``expert:200:engine`` plays its rollouts on the reference engine instead of
the compiled simulator (``:sim``; by default the simulator when numba is installed). ``expert-v1`` is
the expert before its belief, under a name that stays (budgets as ``expert``'s), to measure a stronger one against.
The bots, the levels and their budgets are registered once, in :mod:`thirtyone.bots.levels`.

>>> make_bot("basic", seed=1).name
'basic'
>>> make_bot("expert:50").worlds, make_bot("expert-v1:0.05s").name
(50, 'expert-v1')
>>> make_bot("grandmaster")
Traceback (most recent call last):
...
thirtyone.bots.UnknownBotError: unknown bot 'grandmaster': choose one of random, basic, heuristic, expert, \
judge, expert-v1 (or easy, medium, hard), an installed one (ismcts, mini-eq, policy:PATH, ppo), \
or module:factory for a bot of your own
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.bots.base import Bot
from thirtyone.bots.base import SeededBot
from thirtyone.bots.base import bot_seed
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import ExpertV1Bot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.levels import BOT_INFO
from thirtyone.bots.levels import LEVELS
from thirtyone.bots.levels import MAX_EXPERT_SECONDS
from thirtyone.bots.levels import MAX_EXPERT_WORLDS
from thirtyone.bots.levels import parse_budget
from thirtyone.bots.random_bot import RandomBot
from thirtyone.errors import ThirtyOneError

__all__ = [
    "MAX_EXPERT_WORLDS",
    "MAX_EXPERT_SECONDS",
    "Bot",
    "SeededBot",
    "BasicBot",
    "HeuristicBot",
    "ExpertBot",
    "ExpertV1Bot",
    "RandomBot",
    "BOTS",
    "LEVELS",
    "make_bot",
    "parse_bot_list",
    "UnknownBotError",
    "BOT_NAMES",
]

BOTS: dict[str, Callable[[int | None], Bot]] = {name: info.factory for name, info in BOT_INFO.items()}
"""Bot factories by name: each takes a seed (:data:`thirtyone.bots.levels.BOT_INFO`)."""

BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Flo", "Gus", "Hal", "Ivy", "Jo")
"""Bots' display names: the server names a bot by its seat (seat 0 Ada, seat 1 Bea, …), the
terminal game gives them in turn, leaving out one the person goes by."""


class UnknownBotError(ThirtyOneError):
    """A bot name that is not in :data:`BOTS` or :data:`LEVELS`, or a budget the bot cannot take."""


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
