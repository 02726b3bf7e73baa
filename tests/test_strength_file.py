"""docs/strength.json is one file a researcher and a script can read (issue 41, item 3): every
figure names its kind and the command that made it; an arena figure gives its games, seed and a
95% Wilson interval that matches its games and share won."""

import json
from pathlib import Path

import pytest

from thirtyone.arena import wilson_interval

FIGURES = json.loads((Path(__file__).parents[1] / "docs" / "strength.json").read_text())["figures"]
NEEDS = {
    "arena": {"bots", "preset", "players", "games", "seed", "won", "interval", "fair_share"},
    "nash_conv": {"preset", "players", "nash_conv"},
    "values": {"preset", "players", "positions", "best_agrees", "gap_rmse"},
    "speed": {"preset", "players", "decisions", "mean_ms", "p99_ms"},
}


@pytest.mark.parametrize("figure", FIGURES, ids=[f["name"] for f in FIGURES])
def test_every_figure_says_what_it_is_and_how_it_was_made(figure: dict) -> None:
    assert figure["kind"] in NEEDS, f"unknown kind {figure['kind']!r}"
    missing = (NEEDS[figure["kind"]] | {"name", "command"}) - set(figure)
    assert not missing, f"{figure['name']}: missing {sorted(missing)}"
    assert figure["command"].strip()


@pytest.mark.parametrize("figure", [f for f in FIGURES if f["kind"] == "arena"], ids=lambda f: f["name"])
def test_an_arena_figure_is_a_share_of_its_games_with_its_wilson_interval(figure: dict) -> None:
    games, won = figure["games"], figure["won"]
    assert isinstance(games, int)
    assert games > 0
    assert isinstance(figure["seed"], int)
    assert round(won * games) == pytest.approx(won * games, abs=1e-6), "won is not wins / games"
    low, high = wilson_interval(round(won * games), games)
    assert figure["interval"] == pytest.approx([low, high], abs=1e-3)
    assert figure["fair_share"] == pytest.approx(1 / figure["players"])
