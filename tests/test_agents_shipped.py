"""The shipped policy ``ppo``: listed by ``thirtyone bots``, made by name wherever bots are named,
legal moves at the table sizes it ships weights for (one line for another size or an argument),
and played with numpy alone: no PyTorch at play time."""

from __future__ import annotations

import subprocess
import sys

import pytest

from thirtyone import Rules
from thirtyone.agents.policy import Policy
from thirtyone.agents.policy import PolicyError
from thirtyone.agents.shipped import SHIPPED
from thirtyone.agents.shipped import ShippedBot
from thirtyone.agents.shipped import load
from thirtyone.bots import make_bot
from thirtyone.bots import plugins
from thirtyone.bots.runner import BotError
from thirtyone.bots.runner import play_game
from thirtyone.cli import main

pytest.importorskip("numba")


def test_thirtyone_bots_lists_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert plugins.installed_bots()["ppo"] == "thirtyone.agents.shipped:make_bot"
    assert main(["bots"]) == 0
    installed = capsys.readouterr().out.split("installed")[1].split("your own")[0]
    assert "ppo " in installed
    assert "not usable" not in installed.split("ppo")[1].split("\n")[0]


@pytest.mark.parametrize("players", sorted(SHIPPED))
def test_the_weights_load_for_their_table(players: int) -> None:
    policy = load(players)
    assert isinstance(policy, Policy)
    assert policy.players == players
    assert policy.preset == "scat"


@pytest.mark.parametrize(("preset", "players"), [("scat", 4), ("scat", 2), ("schwimmen", 4), ("widow", 2)])
def test_it_plays_legal_moves_at_its_table_sizes(preset: str, players: int) -> None:
    bot = make_bot("ppo", seed=1)
    assert isinstance(bot, ShippedBot)
    others = [make_bot("heuristic", seat) for seat in range(2, players + 1)]
    game = play_game(Rules.preset(preset), [bot, *others], seed=7)  # seed 7; play_game raises on an illegal move
    assert game.is_over


def test_another_table_size_or_an_argument_is_one_line() -> None:
    with pytest.raises(
        BotError, match=r"raised PolicyError: bot 'ppo' plays 2 and 4-player tables, not 3-player ones$"
    ):
        play_game(Rules.preset("scat"), [make_bot("ppo", 1), make_bot("basic", 2), make_bot("basic", 3)], seed=1)
    with pytest.raises(PolicyError, match="takes no argument"):
        make_bot("ppo:x", 1)


def test_it_plays_without_torch() -> None:
    """No deep-learning framework at play time: a game with torch made unimportable."""
    script = (
        "import sys\n"
        "sys.modules['torch'] = None  # import torch now fails\n"
        "from thirtyone import Rules\n"
        "from thirtyone.bots import make_bot\n"
        "from thirtyone.bots.runner import play_game\n"
        "bots = [make_bot('ppo', 1)] + [make_bot('basic', s) for s in (2, 3, 4)]\n"
        "game = play_game(Rules.preset('scat'), bots, seed=3)\n"
        "print(game.is_over, 'stable_baselines3' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True False"
