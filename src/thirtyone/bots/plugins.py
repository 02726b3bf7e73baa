"""Bots from other packages: a bot named ``module:factory`` (``mybots.greedy:make_bot``), or one
an installed package registers under the entry-point group ``thirtyone.bots``.

A *factory* is any callable that takes the seed (``int`` or ``None``) — and, when the name gives
one after a second colon (``module:factory:ARG``, or ``NAME:ARG`` for a registered bot), that
text as a second argument — and returns a bot: an object with a ``name`` and
``choose(view, legal)`` (:class:`~thirtyone.bots.base.Bot`). A package registers bots in its
``pyproject.toml``::

    [project.entry-points."thirtyone.bots"]
    greedy = "mybots.greedy:make_bot"

and ``thirtyone bots`` lists what is installed (:func:`installed_bots`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from thirtyone.bots.base import Bot
from thirtyone.bots.base import UnknownBotError

__all__ = ["ENTRY_POINT_GROUP", "installed_bots", "external_bot", "load_factory"]

ENTRY_POINT_GROUP = "thirtyone.bots"
"""The entry-point group packages register bots under."""


@lru_cache(maxsize=1)
def installed_bots() -> dict[str, str]:
    """The bots installed packages register (:data:`ENTRY_POINT_GROUP`): name → ``module:factory``."""
    return {point.name.lower(): point.value for point in entry_points(group=ENTRY_POINT_GROUP)}


def load_factory(name: str) -> tuple[Callable[..., Any], str | None]:
    """The factory a name stands for (a registered bot or ``module:factory``) and its argument.

    Raises:
        UnknownBotError: when the module does not import or has no such factory (saying which).
    """
    text = name.strip()
    head, _, rest = text.partition(":")
    registered = installed_bots().get(head.lower())
    if registered is not None:
        target, argument = registered, rest or None
    else:
        attribute, _, argument_text = rest.partition(":")
        target, argument = f"{head}:{attribute}", argument_text or None
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise UnknownBotError(f"bot {text!r}: give module:factory, such as mybots.greedy:make_bot")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownBotError(f"bot {text!r}: cannot import module {module_name!r} ({error})") from None
    factory: Any = module
    for part in attribute.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise UnknownBotError(f"bot {text!r}: module {module_name!r} has no {attribute!r}")
    if not callable(factory):
        raise UnknownBotError(f"bot {text!r}: {target} is not callable (a factory takes the seed and returns a bot)")
    return factory, argument


def external_bot(name: str, seed: int | None, unknown: Exception) -> Bot:
    """A bot of another package by ``name`` (see the module), seeded.

    Raises:
        UnknownBotError: ``unknown`` for a name that is neither registered nor ``module:factory``;
            otherwise one that says what failed: the import, the factory (it raised, naming the
            error), or what it returned (not a bot).
    """
    text = name.strip() if isinstance(name, str) else ""
    head = text.partition(":")[0]
    if not text or (":" not in text and head.lower() not in installed_bots()):
        raise unknown
    factory, argument = load_factory(text)
    try:
        bot = factory(seed) if argument is None else factory(seed, argument)
    except Exception as error:
        if isinstance(error, UnknownBotError):  # the factory's own word on a bad argument (and its subclasses)
            raise
        raise UnknownBotError(f"bot {text!r}: its factory raised {type(error).__name__}: {error}") from error
    if not isinstance(getattr(bot, "name", None), str) or not callable(getattr(bot, "choose", None)):
        raise UnknownBotError(
            f"bot {text!r}: its factory returned {bot!r}, not a bot (an object with a name and choose(view, legal))"
        )
    return bot  # type: ignore[no-any-return]
