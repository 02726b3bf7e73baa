"""The one registry of the built-in bots and the levels of play, read by every face.

- :data:`BOT_INFO`: each bot this package ships, by name: what it does (one line, for
  ``thirtyone bots``), its factory, whether it takes a budget (``expert:200``, ``expert:0.5s``),
  and the compiled simulator's policy that plays it — *exactly* (move for move, so the arena and
  ``thirtyone simulate`` may play it there with the same results) or not.
- :data:`LEVEL_INFO`: each level a seat can have, by name: the bot, the time a move may take at a
  table (the server's seats and the terminal game: ``hard`` is the expert at
  :data:`TABLE_EXPERT_SECONDS` a move), and whether its moves take thought (the server plays them
  on its bot workers, off the event loop).

Everything else is derived here: the terminal game's aliases :data:`LEVELS` (``easy`` → ``basic``),
the server's :data:`LEVEL_SPECS` and :data:`THINKING_LEVELS`, the names the simulator plays
exactly (:data:`SIM_BOTS`, for the arena and ``simulate``) and the names it has a policy for
(:func:`sim_policy`, for the vector env). :func:`thirtyone.bots.make_bot` (:mod:`thirtyone.bots.making`)
makes a bot from a name.

>>> LEVEL_INFO["hard"].spec, LEVEL_INFO["hard"].thinks, THINKING_LEVELS
('expert:0.4s', True, ('medium', 'hard'))
>>> resolve("Medium"), sim_policy("easy"), sim_policy("heuristic"), sim_policy("expert")
('heuristic', 'basic', 'heuristic', None)
>>> SIM_BOTS
{'random': 'random', 'basic': 'basic', 'easy': 'basic'}
>>> parse_budget("expert-v1:0.25s:engine")
(1000000, 0.25, 'engine')
>>> parse_budget("hard:1e9")
Traceback (most recent call last):
...
thirtyone.bots.base.UnknownBotError: bad expert budget '1e9' in 'hard:1e9': give 1 to 1,000,000 worlds per \
decision (expert:200) or more than 0 and up to 3,600 seconds (expert:0.5s)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from thirtyone.bots.base import Bot
from thirtyone.bots.base import UnknownBotError
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.expert import ExpertV1Bot
from thirtyone.bots.expert import Rollouts
from thirtyone.bots.heuristic import HeuristicBot
from thirtyone.bots.random_bot import RandomBot

if TYPE_CHECKING:
    from thirtyone.bots.judge import JudgeBot

__all__ = [
    "BotInfo",
    "Level",
    "BOT_INFO",
    "LEVEL_INFO",
    "LEVELS",
    "LEVEL_SPECS",
    "THINKING_LEVELS",
    "SIM_BOTS",
    "SIM_EXACT_BOTS",
    "TABLE_EXPERT_SECONDS",
    "MAX_EXPERT_WORLDS",
    "MAX_EXPERT_SECONDS",
    "resolve",
    "takes_budget",
    "sim_policy",
    "level",
    "parse_budget",
]

MAX_EXPERT_WORLDS = 1_000_000
"""The most sampled worlds per decision a budget may ask for (``expert:200``)."""
MAX_EXPERT_SECONDS = 3600.0
"""The most seconds per decision a budget may ask for (``expert:0.5s``)."""
TABLE_EXPERT_SECONDS = 0.4
"""Seconds the expert (the ``hard`` level) thinks about a move at a table — a seat of the server,
a bot of the terminal game named without a budget — so that the game keeps its pace."""


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A built-in bot: its ``name``, a one-line ``summary`` of how it plays, its ``factory`` (takes
    the seed; a bot that takes a budget also ``worlds=``, ``seconds=`` and ``rollouts=``, as
    :class:`~thirtyone.bots.expert.ExpertBot`), whether it takes a budget (``budget``), the
    compiled simulator's policy that plays it (``sim_policy``, one of
    :data:`thirtyone.sim.codes.POLICIES`, or ``None``) and whether that policy is this bot move for
    move (``sim_exact``: the arena and ``simulate`` may then play it on the simulator)."""

    name: str
    summary: str
    factory: Callable[..., Bot]
    budget: bool = False
    sim_policy: str | None = None
    sim_exact: bool = False
    with_argument: Callable[[int | None, str], Bot] | None = None
    """For a bot that takes an argument after a colon other than a budget (``judge:PATH``, its
    weights): the factory of the seed and the argument."""


@dataclass(frozen=True, slots=True)
class Level:
    """A level of play: its ``name``, the ``bot`` that plays it (a key of :data:`BOT_INFO`), the
    seconds a move may take at a table (``seconds``; ``None``: the bot takes no budget there) and
    whether its moves take thought (``thinks``: the server runs them off its event loop)."""

    name: str
    bot: str
    seconds: float | None = None
    thinks: bool = False

    @property
    def spec(self) -> str:
        """The bot name a table makes this level's bot from: ``expert:0.4s``, ``basic``."""
        return self.bot if self.seconds is None else f"{self.bot}:{self.seconds:g}s"


BOT_INFO: dict[str, BotInfo] = {
    info.name: info
    for info in (
        BotInfo("random", "uniform over the legal actions", RandomBot, sim_policy="random", sim_exact=True),
        BotInfo(
            "basic",
            "takes the pile card when it helps, knocks above a rising bar",
            BasicBot,
            sim_policy="basic",
            sim_exact=True,
        ),
        BotInfo(
            "heuristic",
            "counts cards, compares the stock's expected value with the pile card",
            HeuristicBot,
            # the simulator's heuristic is the rollouts' (rollout_action): it knocks without reading
            # what the opponents are known to hold, so it is not this bot move for move
            sim_policy="heuristic",
        ),
        BotInfo(
            "expert",
            "samples the hidden cards as its belief has them, plays every move out (expert:200, expert:0.5s)",
            ExpertBot,
            budget=True,
        ),
        BotInfo(
            "judge",
            "the learned judge: a network distilled from the expert, exact on last turns (judge:PATH)",
            lambda seed=None: _judge_bot()(seed),
            with_argument=lambda seed, path: _judge_bot().from_file(seed, path),
        ),
        BotInfo(
            "expert-v1",
            "the expert before the belief, a name that stays, to measure a stronger one against (expert-v1:200)",
            ExpertV1Bot,
            budget=True,
        ),
    )
}
"""The built-in bots by name, in the order they are listed."""

LEVEL_INFO: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", "basic"),
        Level("medium", "heuristic", thinks=True),
        Level("hard", "expert", seconds=TABLE_EXPERT_SECONDS, thinks=True),
        Level("random", "random"),
    )
}
"""The levels of play by name, in the order a table offers them."""

LEVELS: dict[str, str] = {name: info.bot for name, info in LEVEL_INFO.items() if info.bot != name}
"""The level names that stand for a bot of another name wherever a bot is named (``easy`` →
``basic``, ``medium`` → ``heuristic``, ``hard`` → ``expert``, without the table's budget)."""
LEVEL_SPECS: dict[str, str] = {name: info.spec for name, info in LEVEL_INFO.items()}
"""The bot each level's seat is made from at a table (:attr:`Level.spec`)."""
THINKING_LEVELS: tuple[str, ...] = tuple(name for name, info in LEVEL_INFO.items() if info.thinks)
"""The levels whose moves take thought."""


def _judge_bot() -> type[JudgeBot]:
    """The judge's bot class, imported when a judge is made (it loads numpy, which ``import
    thirtyone.bots`` does not)."""
    from thirtyone.bots.judge import JudgeBot

    return JudgeBot


def resolve(name: str) -> str:
    """The bot a name stands for: a level's bot, else the name itself (lowercase, budget left out):
    ``resolve("hard:200")`` is ``"expert"``."""
    base = name.strip().lower().partition(":")[0]
    return LEVELS.get(base, base)


def takes_budget(name: str) -> bool:
    """Whether the built-in bot a name stands for takes a budget (``expert``, ``hard``, ``expert-v1``)."""
    info = BOT_INFO.get(resolve(name))
    return info is not None and info.budget


def sim_policy(name: str) -> str | None:
    """The compiled simulator's policy for the bot a name (a bot or a level, any case, no budget)
    stands for, exact or not; ``None`` when the simulator cannot play it (the experts, a budget,
    other packages' bots)."""
    key = name.strip().lower()
    info = BOT_INFO.get(LEVELS.get(key, key))
    return None if info is None else info.sim_policy


def _exact_names() -> dict[str, str]:
    exact = {name: info.sim_policy for name, info in BOT_INFO.items() if info.sim_exact and info.sim_policy}
    return exact | {name: exact[info.bot] for name, info in LEVEL_INFO.items() if info.bot in exact}


SIM_BOTS: dict[str, str] = _exact_names()
"""The names (bots and levels) the compiled simulator plays exactly, and its policy for each: the
arena and ``thirtyone simulate`` play a list of these on the simulator, with the engine's results."""
SIM_EXACT_BOTS: tuple[str, ...] = tuple(name for name, info in BOT_INFO.items() if info.sim_exact)
"""The built-in bots the compiled simulator plays exactly (``random``, ``basic``)."""


def level(name: str) -> Level:
    """The level of this name (``easy``, ``medium``, ``hard``, ``random``; any case).

    Raises:
        UnknownBotError: for another name, listing the levels.
    """
    found = LEVEL_INFO.get(name.strip().lower()) if isinstance(name, str) else None
    if found is None:
        raise UnknownBotError(f"unknown bot level {name!r}: choose one of {', '.join(LEVEL_INFO)}")
    return found


def parse_budget(name: str) -> tuple[int, float | None, Rollouts]:
    """The budget a bot name gives a bot that takes one: ``(worlds, seconds, rollouts)``.
    ``expert:200`` is 200 worlds per decision, no time cap; ``expert:0.5s`` at most
    :data:`MAX_EXPERT_WORLDS` worlds and 0.5 seconds a decision; a third part names the rollouts
    (``expert:200:engine``, ``:sim``, ``:auto``, the default).

    Raises:
        UnknownBotError: for a bot that takes no budget, no budget, or a bad one — worlds not
            1 to :data:`MAX_EXPERT_WORLDS`, seconds not more than 0 and at most
            :data:`MAX_EXPERT_SECONDS` (0, negative, not a number, infinite, absurdly large), or
            rollouts other than ``sim``, ``engine``, ``auto`` — with one line naming the limits.
    """
    text = name.strip()
    base, _, budget = text.lower().partition(":")
    base = LEVELS.get(base, base)
    info = BOT_INFO.get(base)
    if info is None or not info.budget:
        takers = " and ".join(name for name, info in BOT_INFO.items() if info.budget)
        raise UnknownBotError(f"bot {base!r} takes no budget: only {takers} do (expert:200, expert:0.5s)")
    budget, _, rollouts = budget.partition(":")
    if rollouts not in ("", "auto", "sim", "engine"):
        raise UnknownBotError(f"bad {base} rollouts {rollouts!r}: give sim, engine or auto ({base}:200:engine)")
    mode: Rollouts = "sim" if rollouts == "sim" else "engine" if rollouts == "engine" else "auto"
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= MAX_EXPERT_SECONDS:
                raise ValueError
            return MAX_EXPERT_WORLDS, seconds, mode
        worlds = int(budget)
        if not 1 <= worlds <= MAX_EXPERT_WORLDS:
            raise ValueError
        return worlds, None, mode
    except ValueError:
        raise UnknownBotError(
            f"bad {base} budget {budget!r} in {text!r}: give 1 to {MAX_EXPERT_WORLDS:,} worlds per "
            f"decision ({base}:200) or more than 0 and up to {MAX_EXPERT_SECONDS:,.0f} seconds ({base}:0.5s)"
        ) from None
