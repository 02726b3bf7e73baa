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
thirtyone.bots.base.UnknownBotError: unknown bot 'grandmaster': choose one of random, basic, heuristic, expert, \
judge, expert-v1 (or easy, medium, hard), an installed one (ismcts, mini-eq, policy:PATH, ppo), \
or module:factory for a bot of your own
"""

from __future__ import annotations

from thirtyone.bots.base import Bot
from thirtyone.bots.base import SeededBot
from thirtyone.bots.base import UnknownBotError
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import ExpertV1Bot
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.levels import LEVELS
from thirtyone.bots.levels import MAX_EXPERT_SECONDS
from thirtyone.bots.levels import MAX_EXPERT_WORLDS
from thirtyone.bots.making import BOTS
from thirtyone.bots.making import make_bot
from thirtyone.bots.making import parse_bot_list
from thirtyone.bots.random_bot import RandomBot

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

BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Flo", "Gus", "Hal", "Ivy", "Jo")
"""Bots' display names: the server names a bot by its seat (seat 0 Ada, seat 1 Bea, …), the
terminal game gives them in turn, leaving out one the person goes by."""
