"""The policy this package ships as a bot: weights trained by ``examples/train_ppo.py``
(MaskablePPO on the vector env), saved as :class:`~thirtyone.agents.policy.Policy` ``.npz`` files in
``thirtyone/agents/data/`` and played with numpy alone (no PyTorch at play time).

The bot ``ppo`` (entry point ``thirtyone.bots``, so ``thirtyone bots`` lists it and every
``--bots`` takes it) plays the weights for its table's size: :data:`SHIPPED` has one for 4-player
tables and one for heads-up play, both trained on ``scat`` (they play any rules' legal moves).
Like ``policy:PATH`` it plays the legal id of the highest logit: deterministic, the seed unused.

>>> from thirtyone.bots import make_bot
>>> bot = make_bot("ppo", 1)
>>> bot.name, sorted(bot.policies)
('ppo', [2, 4])
>>> make_bot("ppo:other", 1)
Traceback (most recent call last):
...
thirtyone.agents.policy.PolicyError: bot 'ppo' takes no argument (it is the shipped policy), not 'other'; \
policy:PATH plays weights of your own
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from thirtyone.actions import Action
from thirtyone.agents.policy import Policy
from thirtyone.agents.policy import PolicyBot
from thirtyone.agents.policy import PolicyError
from thirtyone.views import PlayerView

__all__ = ["SHIPPED", "ShippedBot", "load", "make_bot"]

SHIPPED = {4: "ppo-scat-4.npz", 2: "ppo-scat-2.npz"}
"""The shipped weights' files in ``thirtyone/agents/data/``, by the table size they play."""


@lru_cache(maxsize=len(SHIPPED))
def load(players: int) -> Policy:
    """The shipped policy for ``players``-seat tables (read once a process: not to be changed).

    Raises:
        PolicyError: for a table size no shipped policy plays, or weights missing from the installation.
    """
    if players not in SHIPPED:
        sizes = " and ".join(str(size) for size in sorted(SHIPPED))
        raise PolicyError(f"bot 'ppo' plays {sizes}-player tables, not {players}-player ones")
    with resources.as_file(resources.files("thirtyone.agents") / "data" / SHIPPED[players]) as path:
        return Policy.load(path)


class ShippedBot:
    """The bot ``ppo``: the shipped policy of its table's size (see the module)."""

    name = "ppo"

    def __init__(self) -> None:
        self.policies = {players: PolicyBot(load(players), f"ppo ({players} players)") for players in SHIPPED}

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The policy's move.

        Raises:
            PolicyError: at a table of a size no shipped policy plays.
        """
        bot = self.policies.get(view.players)
        if bot is None:
            load(view.players)  # raises, naming the sizes it plays
        assert bot is not None
        return bot.choose(view, legal)

    def __repr__(self) -> str:
        return "<ShippedBot ppo>"


def make_bot(seed: int | None = None, argument: str | None = None) -> ShippedBot:
    """The factory of the bot ``ppo`` (entry point ``thirtyone.bots``).

    Raises:
        PolicyError: for an argument (``ppo:x``: the shipped policy takes none).
    """
    del seed  # the policy plays deterministically
    if argument is not None:
        raise PolicyError(
            f"bot 'ppo' takes no argument (it is the shipped policy), not {argument!r}; policy:PATH plays weights "
            "of your own"
        )
    return ShippedBot()
