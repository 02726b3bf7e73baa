"""The review's tests share: the expert's budget, games of random bots, ``thirtyone review`` run in
process, and issue 43's last-turn position."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import FallbackChance
from helpers import deck_order
from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.cli import main

BUDGET: dict[str, Any] = {"worlds": 20, "rollouts": "engine", "valuer": "expert"}
"""The expert's review in the tests: 20 deals a decision, its rollouts on the engine."""


def random_game(rules: Rules, players: int, seed: int, actions: int | None = None) -> Game:
    """A game of ``random`` bots, its first ``actions`` actions only when given."""
    game = Game(rules, players, seed=seed)
    bot = make_bot("random", seed)
    while not game.is_over and (actions is None or _acted(game) < actions):
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        game.apply(bot.choose(view, view.legal_actions))
    return game


def _acted(game: Game) -> int:
    return sum(len(log.actions) for log in game.round_logs)


def review_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``thirtyone review ARGS``: its exit status, standard output and standard error."""
    status = main(["review", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def scat2_last_turn(*after: str) -> Game:
    """Issue 43's position: two players, scat, seat 1 (Ada) knocked; seat 0 (Ben) holds A♠ K♠ 7♠
    with Q♠ on the pile, its last turn; then ``after`` played."""
    rules = Rules.preset("scat")
    deck = deck_order(rules, 2, 0, {0: "As Ks 7s"}, upcard="Qs")
    game = Game(rules, 2, chance=FallbackChance(0, [deck], [], 0))
    for action in ("knock", *after):
        game.apply(action)
    return game
