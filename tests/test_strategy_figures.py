"""examples/strategy_figures.py, the measurements behind docs/strategy.md (issue 43, item 4): each
figure's positions are the ones it says (a knock against the heuristic's move without it; a last
turn's best hand below 31 against the 31), a planted heads-up last turn is valued by the rules
(R6.5: beaten, the knocker loses two lives; by a 31 one, R5.3), the knock table reads the least
value to knock with from its rows, and the stock draw's exact figures are those the guide quotes."""

from __future__ import annotations

import re
import shlex
import sys
from importlib.util import module_from_spec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

import pytest

from helpers import FallbackChance
from helpers import deck_order
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Rules
from thirtyone.actions import PILE
from thirtyone.actions import parse_action
from thirtyone.arena.odds_measures import Mean


@pytest.fixture(scope="module")
def figures() -> ModuleType:
    spec = spec_from_file_location("strategy_figures", Path(__file__).parents[1] / "examples" / "strategy_figures.py")
    assert spec is not None
    assert spec.loader is not None
    module = module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def heads_up_last_turn(knocker: str) -> Game:
    """Scat, two players, seat 1 knocked holding ``knocker``; seat 0 holds A♠ K♠ 7♠ and took Q♠
    from the pile: its last turn's discard."""
    rules = Rules.preset("scat")
    deck = deck_order(rules, 2, 0, {0: "As Ks 7s", 1: knocker}, upcard="Qs")
    game = Game(rules, 2, chance=FallbackChance(0, [deck], [], 0))
    game.apply("knock")
    game.apply(Draw(PILE))
    return game


@pytest.mark.parametrize(("knocker", "gained"), [("Ah 9h 2c", 1.0), ("Ah 9h 8h", -2.0), ("Ah Kh 9h", -2.0)])
def test_r6_5_heads_up_keeping_28_against_the_31(figures: ModuleType, knocker: str, gained: float) -> None:
    """A♠ K♠ 7♠ Q♠ on a heads-up last turn: the 31 (discard 7♠) costs the knocker one life (R5.3).
    Keeping 28 (discard K♠) costs the knocker two when 28 beats the knocker's 20 (+1 in value
    against the 31); tied at 28 the knocker is saved and the holder loses one (R6.5), and below
    the knocker's 30 the holder loses one: −2 against the 31."""
    game = heads_up_last_turn(knocker)
    legal = game.legal_actions()
    [pair] = figures.last_discard_pairs(game, 0, legal, legal[0])
    assert (pair.move, pair.other, pair.key) == (parse_action("discard Ks"), parse_action("discard 7s"), (28,))
    saved, value = figures.play_out([pair], seed=3)
    assert value.tolist() == [gained]  # exact: the showdown follows at once, no card is drawn
    assert saved.tolist() == [-1.0 if gained < 0 else 0.0]


def test_a_knock_is_measured_against_the_heuristics_move_without_it(figures: ModuleType) -> None:
    rules = Rules.preset("scat")
    deck = deck_order(rules, 4, 0, {1: "Ks Qs 9s"}, upcard="2c")
    game = Game(rules, 4, chance=FallbackChance(0, [deck], [], 0))
    legal = game.legal_actions()
    [pair] = figures.knock_pairs(game, 1, legal, legal[0])
    assert pair.move == Knock()
    assert pair.other == parse_action("draw stock")  # the 2♣ adds nothing: the heuristic draws from the stock
    assert pair.key == (1, 29)  # its first turn, 29 points
    assert list(figures.knock_pairs(game, 1, tuple(move for move in legal if move != Knock()), legal[0])) == []


def test_the_knock_table_reads_the_least_value_from_its_rows(figures: ModuleType) -> None:
    """Turn 1: knocking costs below 20 and saves from 20 up; turn 2: it saves at 18-19 but surely
    costs at 22-23, so only from 24; turn 3: a row above that costs within its noise does not
    count against 20, nor does a row of fewer than MIN_CELL positions."""

    def cell(value: float, count: int = 40) -> Mean:
        return Mean.of([value] * count)

    saved = {
        (1, 18): cell(-0.1),
        (1, 20): cell(0.05),
        (1, 24): cell(0.2),
        (1, 30): cell(-0.5, count=5),
        (2, 18): cell(0.1),
        (2, 22): cell(-0.05),
        (2, 24): cell(0.1),
        (3, 20): cell(0.05),
        (3, 28): Mean.of([-0.5, 0.4] * 20),
    }
    measured = figures.Measured(saved=saved, value=saved, pairs=280)
    least = figures.knock_from(measured)
    assert (least[1], least[2], least[3], least[4]) == (20, 24, 20, None)


def test_the_value_of_a_stock_draw_from_a_dealt_hand_is_exact(figures: ModuleType) -> None:
    """docs/strategy.md: a dealt scat hand is worth 13.09 points, 15.88 after a stock draw, and
    47.8% of draws improve it (every hand of three, every other card of the deck)."""
    found = figures.stock_draw(Rules.preset("scat"))
    assert found["hands"] == 22_100
    assert (round(found["before"], 2), round(found["after"], 2), round(found["improves"], 3)) == (13.09, 15.88, 0.478)


def test_every_command_the_guide_names_runs_on_its_rules(figures: ModuleType) -> None:
    """docs/strategy.md names the command of each figure played both ways: each is one this script
    takes (a figure it has, a preset and a table size the rules deal), and so is each row of the
    knock bars' table (its ``--preset`` and ``--players``)."""
    guide = (Path(__file__).parents[1] / "docs" / "strategy.md").read_text(encoding="utf-8")
    commands = re.findall(r"`python\s+examples/strategy_figures\.py\s+([^`]+)`", guide)
    commands += re.findall(r"^nice python examples/strategy_figures\.py (.+)$", guide, re.MULTILINE)
    rows = re.findall(r"`(--preset \w+ --players \d+)` \|", guide)
    assert len(commands) >= 8
    assert len(rows) >= 4
    for line in [*commands, *(f"knock {row}" for row in rows)]:
        args = figures.arguments().parse_args(shlex.split(line))
        Rules.preset(args.preset).check_players(args.players)
