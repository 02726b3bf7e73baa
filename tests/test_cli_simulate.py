"""``thirtyone simulate``: tables, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from thirtyone.cli import main


def test_simulate_prints_tables(capsys):
    assert main(["simulate", "--games", "5", "--players", "3", "--bots", "basic,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 games" in out
    assert "Results by seat" in out
    assert "Results by bot" in out
    assert "Places" in out
    assert "Lives lost by rule" in out
    assert "random" in out


def test_simulate_json_is_reproducible(capsys):
    args = ["simulate", "--games", "8", "--preset", "schwimmen", "--bots", "basic,random", "--seed", "4", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games"] == 8
    assert sum(seat["wins"] for seat in first["seats"]) == 8
    assert first["rules"] == "schwimmen"


def test_simulate_rule_options(capsys):
    args = ["simulate", "--games", "3", "--three-of-a-kind", "30", "--throw-down", "--lives", "2", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "scat, lives=2, three_of_a_kind=30, throw_down=on"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "10"], "R2.1"),
        (["--players", "9", "--preset", "schwimmen"], "R2.1: 9 players need 33 cards"),
        (["--bots", "basic,wizard"], "unknown bot 'wizard'"),
        (["--games", "0"], "--games 0"),
        (["--preset", "poker"], "unknown preset 'poker'"),
        (["--three-of-a-kind", "29"], "option three_of_a_kind is one of off, 30, 30.5"),
        (["--all-pass", "showdown"], "option all_pass=showdown needs mode=widow"),
        (["--lives", "many"], "option lives is a whole number from 1 to 20"),
    ],
)
def test_simulate_bad_input_is_one_line_exit_2(capsys, args, message):
    assert main(["simulate", "--games", "2", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith("thirtyone: error: ")
    assert err.count("\n") == 1


def run_json(capsys, *args):
    assert main(["simulate", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_uses_the_compiled_simulator_for_basic_and_random_bots(capsys):
    pytest.importorskip("numba")
    fast = run_json(capsys, "--games", "400", "--bots", "basic,random", "--seed", "2")
    slow = run_json(capsys, "--games", "400", "--bots", "basic,random", "--seed", "2", "--engine", "reference")
    assert fast["engine"] == "sim"
    assert slow["engine"] == "reference"
    for stats in (fast, slow):
        assert stats["games"] == 400
        assert sum(seat["wins"] for seat in stats["seats"]) == 400
        assert stats["seats"][0]["win_share"] > 0.9  # basic against random, either way
    assert abs(fast["rounds_per_game"] - slow["rounds_per_game"]) < 1.0
    assert run_json(capsys, "--games", "50", "--bots", "basic", "--seed", "3") == run_json(
        capsys, "--games", "50", "--bots", "basic", "--seed", "3"
    )


def test_simulate_falls_back_to_the_engine_when_the_simulator_cannot(capsys, tmp_path):
    assert run_json(capsys, "--games", "2", "--bots", "heuristic")["engine"] == "reference"
    assert run_json(capsys, "--games", "2", "--record", str(tmp_path / "records"))["engine"] == "reference"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic"], "plays only the random and basic bots exactly"),
        (["--record", "never-made"], "keeps no game records"),
    ],
)
def test_simulate_engine_sim_says_why_it_cannot(capsys, args, message):
    assert main(["simulate", "--games", "2", "--engine", "sim", *args]) == 2
    assert message in capsys.readouterr().err
