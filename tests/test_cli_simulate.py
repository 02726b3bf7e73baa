"""``thirtyone simulate``: tables, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli_helpers import bot_names_in_tables
from cli_helpers import cli_error_line
from cli_helpers import long_named_bots
from thirtyone.cli import main
from thirtyone.cli import simulate as simulate_cli
from thirtyone.cli.simulate import COMPILING


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in a folder of its own: a run on the reference engine without --record refuses the
    failed games' records an earlier run left in simulate-failed/ (issue 42), and writes its own there."""
    monkeypatch.chdir(tmp_path)


def test_simulate_prints_tables(capsys):
    assert main(["simulate", "--games", "5", "--players", "3", "--bots", "basic,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 games" in out
    assert "Results by seat" in out
    assert "Results by bot" in out
    assert "Places" in out
    assert "Lives lost by rule" in out
    assert "random" in out


def test_json_goes_to_stdout_and_the_engine_is_named_on_stderr(capsys):
    assert (
        main(["simulate", "--games", "2", "--bots", "basic,random", "--seed", "1", "--json", "--engine", "reference"])
        == 0
    )
    captured = capsys.readouterr()
    assert json.loads(captured.out)["engine"] == "reference"
    assert captured.err.strip() == "played by the reference engine"


def test_simulate_json_is_reproducible(capsys):
    args = ["simulate", "--games", "8", "--preset", "schwimmen", "--bots", "basic,random", "--seed", "4", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games"] == 8
    assert sum(seat["wins"] for seat in first["seats"]) == 8
    assert first["rules"] == "schwimmen"


@pytest.mark.parametrize("engine", ["sim", "reference"])
def test_every_seat_has_every_place_in_json_even_one_never_reached(capsys, engine):
    args = ["simulate", "--games", "60", "--players", "4", "--bots", "basic,random", "--seed", "1", "--json"]
    assert main([*args, "--engine", engine]) == 0
    seats = json.loads(capsys.readouterr().out)["seats"]
    assert all(list(seat["places"]) == ["1", "2", "3", "4"] for seat in seats), [seat["places"] for seat in seats]
    assert any(0 in seat["places"].values() for seat in seats)  # the case: a place some seat never had
    assert all(sum(seat["places"].values()) == 60 for seat in seats)


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


# ---------------------------------------------------------------------------------------- one seed, one result


def run_text(capsys, *args):
    assert main(["simulate", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("preset", "bots", "players"),
    [("scat", "basic,random", "4"), ("schwimmen", "random,basic,easy", "3"), ("widow", "random", "5")],
)
def test_same_seed_same_results_on_either_engine_and_with_records(capsys, tmp_path, preset, bots, players):
    args = ["--games", "60", "--preset", preset, "--bots", bots, "--players", players, "--seed", "11"]
    reference = run_json(capsys, *args, "--engine", "reference")
    recorded = run_json(capsys, *args, "--record", str(tmp_path / "records"))
    assert (reference.pop("engine"), recorded.pop("engine")) == ("reference", "reference")
    assert recorded == reference
    assert len(list((tmp_path / "records").glob("game-*.toml"))) == 60
    table = run_text(capsys, *args, "--engine", "reference")
    assert run_text(capsys, *args, "--record", str(tmp_path / "again")) == table
    pytest.importorskip("numba")
    fast = run_json(capsys, *args, "--engine", "sim")
    assert fast.pop("engine") == "sim"
    assert fast == reference
    assert run_text(capsys, *args, "--engine", "sim") == table


def test_a_recorded_game_is_the_game_the_simulator_played(capsys, tmp_path):
    from thirtyone.bots.runner import game_seeds
    from thirtyone.record import GameRecord
    from thirtyone.sim.rng import CounterChance

    assert main(["simulate", "--games", "3", "--bots", "random", "--seed", "2", "--record", str(tmp_path)]) == 0
    capsys.readouterr()
    record = GameRecord.loads((tmp_path / "game-000002.toml").read_text(encoding="utf-8"))
    chance = CounterChance(game_seeds(2, 3)[1])
    assert record.rounds[0].dealer == chance.first_dealer(4)
    assert list(record.rounds[0].deck) == chance.deal_order(sorted(record.rounds[0].deck), 1)


# ---------------------------------------------------------------------------------------- interrupted


def interrupt_after(monkeypatch, games):
    from thirtyone.cli import simulate as cli_simulate

    real = cli_simulate.play_game_safely
    played = []

    def play(*args):
        if len(played) == games:
            raise KeyboardInterrupt
        played.append(args)
        return real(*args)

    monkeypatch.setattr(cli_simulate, "play_game_safely", play)


def test_ctrl_c_prints_the_games_finished_marked_partial(capsys, monkeypatch):
    interrupt_after(monkeypatch, 3)
    assert main(["simulate", "--games", "10", "--bots", "heuristic,basic", "--seed", "1"]) == 130
    captured = capsys.readouterr()
    assert "PARTIAL RESULTS: 3 of 10 games played (interrupted)" in captured.out
    assert "3 games of scat" in captured.out
    assert "Results by bot" in captured.out
    assert captured.err.endswith("thirtyone: interrupted: the results above are partial\n")


def test_ctrl_c_json_and_records_keep_the_games_finished(capsys, monkeypatch, tmp_path):
    interrupt_after(monkeypatch, 4)
    args = ["simulate", "--games", "9", "--bots", "basic,random", "--seed", "3", "--json"]
    assert main([*args, "--record", str(tmp_path)]) == 130
    data = json.loads(capsys.readouterr().out)
    assert (data["partial"], data["stopped"], data["games"], data["games_requested"]) == (True, "interrupted", 4, 9)
    assert sum(seat["wins"] for seat in data["seats"]) == 4
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"game-00000{i}.toml" for i in range(1, 5)]
    monkeypatch.undo()
    assert main([*args, "--games", "4", "--engine", "reference"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert (whole["partial"], whole["stopped"]) == (False, None)
    assert {key: value for key, value in data.items() if key not in ("partial", "stopped", "games_requested")} == {
        key: value for key, value in whole.items() if key not in ("partial", "stopped", "games_requested")
    }


def test_ctrl_c_before_any_game_finished(capsys, monkeypatch):
    interrupt_after(monkeypatch, 0)
    assert main(["simulate", "--games", "5", "--engine", "reference", "--seed", "1"]) == 130
    out = capsys.readouterr().out
    assert "PARTIAL RESULTS: 0 of 5 games played (interrupted)" in out
    assert "no game finished" in out


def test_ctrl_c_in_the_simulator_keeps_the_chunks_finished(capsys, monkeypatch):
    pytest.importorskip("numba")
    from thirtyone import sim

    real = sim.play_games
    chunks: list[int] = []

    def one_chunk_then_interrupted(*args, **kwargs):
        if chunks:
            raise KeyboardInterrupt
        batch = real(*args, **kwargs)
        chunks.append(len(batch))
        return batch

    monkeypatch.setattr(sim, "play_games", one_chunk_then_interrupted)
    assert main(["simulate", "--games", "5000", "--engine", "sim", "--seed", "1", "--json"]) == 130
    data = json.loads(capsys.readouterr().out)
    assert (data["partial"], data["games"], data["games_requested"]) == (True, 4096, 5000)


def test_sigterm_prints_the_games_finished_marked_partial_as_ctrl_c_does(capsys, monkeypatch):
    """SIGTERM (``timeout``, ``kill``) ended simulate with no results at all (issue 42)."""
    import signal

    from thirtyone.cli import simulate as cli_simulate

    real = cli_simulate.play_game_safely
    played = []

    def play(*args):
        if len(played) == 3:
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler simulate sets
        played.append(args)
        return real(*args)

    def unhandled(_number, _frame):
        raise AssertionError("simulate set no handler for SIGTERM")

    monkeypatch.setattr(cli_simulate, "play_game_safely", play)
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should simulate set none
    try:
        assert main(["simulate", "--games", "10", "--bots", "heuristic,basic", "--seed", "1"]) == 143
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    assert "PARTIAL RESULTS: 3 of 10 games played (terminated)" in captured.out
    assert "3 games of scat" in captured.out
    assert captured.err.endswith("thirtyone: terminated: the results above are partial\n")


@pytest.mark.parametrize(("name", "status", "word"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_a_stop_while_a_game_is_counted_leaves_it_counted_whole(capsys, monkeypatch, ctrl_c, name, status, word):
    """Ctrl-C or SIGTERM that came while a game was added to the totals left it half counted in
    the partial results: its places and wins, not the lives of its rounds (issue 42). The real
    signal comes in the third game's counting of lives (GameTotals.add_game)."""
    import signal

    from thirtyone import totals

    real_add, real_label = totals.GameTotals.add_game, totals.loss_label
    added: list[object] = []
    sent: list[int] = []

    def add_game(self, game):
        added.append(game)
        real_add(self, game)

    def loss_label(kind):
        if len(added) == 3 and not sent:
            sent.append(1)
            signal.raise_signal(getattr(signal, name))
        return real_label(kind)

    monkeypatch.setattr(totals.GameTotals, "add_game", add_game)
    monkeypatch.setattr(totals, "loss_label", loss_label)
    args = ["simulate", "--bots", "basic,random", "--seed", "1", "--engine", "reference", "--json"]
    assert main([*args, "--games", "6"]) == status
    partial = json.loads(capsys.readouterr().out)
    assert (sent, partial["stopped"], partial["games"]) == ([1], word, 3)
    monkeypatch.undo()
    assert main([*args, "--games", "3"]) == 0
    whole = json.loads(capsys.readouterr().out)
    same = ("partial", "stopped", "games_requested")
    assert {key: value for key, value in partial.items() if key not in same} == {
        key: value for key, value in whole.items() if key not in same
    }


ANNOUNCING_BOT = """
import sys

from thirtyone.bots.basic import BasicBot


class AnnouncingBot(BasicBot):
    \"\"\"Plays like basic, and says 'playing' on standard error at its first move.\"\"\"

    said = False

    def choose(self, view, legal):
        if not AnnouncingBot.said:
            AnnouncingBot.said = True
            print("playing", file=sys.stderr, flush=True)
        return super().choose(view, legal)


def make(seed=None):
    return AnnouncingBot(seed)
"""


def test_sigterm_to_the_command_reports_the_games_finished_and_exits_143(tmp_path):
    """``timeout 5 thirtyone simulate --games 100000`` printed nothing; the signal is sent once the
    games have started (the bot says so), and the run reports what it played."""
    import os
    import signal
    import subprocess

    (tmp_path / "announcing_bot.py").write_text(ANNOUNCING_BOT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "thirtyone", "simulate", "--games", "100000", "--seed", "1", "--json"]
    command += ["--bots", "announcing_bot:make,basic"]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stderr is not None
        for line in process.stderr:  # until the games have started
            if line == "playing\n":
                break
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 143, err
    data = json.loads(out)
    assert (data["partial"], data["stopped"], data["games_requested"]) == (True, "terminated", 100000)
    assert data["games"] < 100000
    assert err.endswith("thirtyone: terminated: the results above are partial\n")


# ---------------------------------------------------------------------------------------- paths


@pytest.mark.parametrize("path", [""])
def test_an_empty_record_path_is_refused(capsys, monkeypatch, tmp_path, path):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "2", "--record", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error: --record ")
    assert "an empty path; give a folder" in err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_loads_numba_only_when_it_simulates():
    import subprocess
    import sys

    code = "import sys, thirtyone.cli; print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# ---------------------------------------------------------------------------------------- tables at 80 columns


def test_long_bot_names_are_never_cut_at_80_columns(capsys, tmp_path, monkeypatch):
    one, two = long_named_bots(tmp_path, monkeypatch)
    args = ["simulate", "--games", "2", "--players", "6", "--bots", f"{one},{two},basic", "--seed", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in out.split("\n")) <= 80
    tables = bot_names_in_tables(out)
    assert len(tables) == 4  # results and places, by seat and by bot
    for names in tables:
        assert names[:2] == [one, two], names


def test_places_read_cleanly_at_80_columns_with_9_players(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    args = ["simulate", "--games", "3", "--players", "9", "--bots", "basic,random,heuristic", "--seed", "1"]
    assert main([*args, "--engine", "reference"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in out.split("\n")) <= 80
    for title, rows in (("Places by seat", 9), ("Places by bot", 3)):
        table = out[out.index(title) :].split("\n")
        header, rule = table[2], table[3]
        assert header.split() == ["seat", "bot", *map(str, range(1, 10))], "one header over every column"
        assert "───" in rule
        body = table[4 : 4 + rows]
        assert all(len(row.split()) == 11 for row in body), "one line a row, every place under its header"
        assert not table[4 + rows].strip(), "no second block of rows without a header"
    bots = out[out.index("Places by bot") :].split("\n")[4:7]
    assert [row.split()[:2] for row in bots] == [["0", "basic"], ["1", "random"], ["2-8", "heuristic"]]


@pytest.mark.parametrize("engine", ["reference", "sim"])
def test_stderr_has_no_blank_lines(capsys, engine):
    if engine == "sim":
        pytest.importorskip("numba")
    assert main(["simulate", "--games", "3", "--bots", "basic,random", "--seed", "1", "--engine", engine]) == 0
    err = capsys.readouterr().err.replace(f"{COMPILING}\n", "", 1)  # said the first time after installing
    assert err == f"played by the {'compiled simulator' if engine == 'sim' else 'reference engine'}\n"


# ---------------------------------------------------------------------------------------- failing bots

CRASHING_BOT = '''
from thirtyone.bots.basic import BasicBot


class CrashingBot(BasicBot):
    """Plays like basic, but raises from round 2 on when its seed is even."""

    name = "crasher"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.crashes = seed is not None and seed % 2 == 0

    def choose(self, view, legal):
        if self.crashes and view.round >= 2:
            raise RuntimeError("the crasher crashed")
        return super().choose(view, legal)


def make(seed=None):
    return CrashingBot(seed)
'''


@pytest.fixture
def crashing_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``crashing_bot:make``, a bot that raises in about half the games; the run in ``tmp_path/run``."""
    (tmp_path / "crashing_bot.py").write_text(CRASHING_BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "crashing_bot", raising=False)
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")
    return "crashing_bot:make"


def test_a_failing_bot_fails_only_its_games_which_are_counted_saved_and_named(capsys, crashing_bot):
    from thirtyone.bots.runner import game_seeds
    from thirtyone.record import GameRecord

    args = ["simulate", "--games", "8", "--players", "3", "--bots", f"{crashing_bot},basic", "--seed", "1"]
    assert main([*args, "--json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    failures = data["failures"]
    assert data["games_failed"] == len(failures) > 0
    assert data["games"] == 8 - len(failures) > 0
    assert (data["partial"], data["games_requested"]) == (False, 8)
    assert sum(seat["wins"] for seat in data["seats"]) == data["games"]
    assert [seat["failed"] for seat in data["seats"]] == [len(failures), 0, 0]
    assert [bot["failed"] for bot in data["bots"]] == [len(failures), 0]
    seeds = game_seeds(1, 8)
    for failure in failures:
        assert failure["seed"] == seeds[failure["game"] - 1]
        assert (failure["seat"], failure["bot"], failure["action"]) == (0, crashing_bot, None)
        assert failure["error"] == f"bot {crashing_bot} in seat 0 raised RuntimeError: the crasher crashed"
        path = Path(failure["record"])
        assert path == Path("simulate-failed") / f"game-{failure['game']:06d}.toml"
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        assert record.event == "thirtyone simulate"
        assert record.replay().current_seat == 0
        assert main(["replay", str(path), "--json"]) == 0
        capsys.readouterr()
    first = failures[0]
    lines = captured.err.split("\n")
    assert lines[-1] == ""
    assert lines[-2] == (
        f"thirtyone: error: {len(failures)} of 8 games failed; the first, game {first['game']} "
        f"(seed {first['seed']}): {first['error']}; record: {first['record']}"
    )
    assert "" not in lines[:-1]

    assert main([*args, "--overwrite"]) == 1
    table = capsys.readouterr().out
    out = " ".join(table.split())
    assert f"{data['games']} games of scat" in out
    assert f"{len(failures)} games failed (a bot raised, chose an illegal action or could not be made)" in out
    assert f"failed: game {first['game']} (seed {first['seed']}): {first['error']}" in out
    assert "PARTIAL" not in out
    for title in ("Results by seat", "Results by bot"):
        lines = table[table.index(title) :].split("\n")
        rule = next(index for index, line in enumerate(lines) if "───" in line)
        assert lines[rule - 1].split()[-1] == "games"  # the last column: failed games, per seat or bot
        assert lines[rule + 1].split()[-1] == str(len(failures))


def test_failed_games_go_to_the_record_folders_failed(capsys, crashing_bot):
    args = ["simulate", "--games", "6", "--players", "2", "--bots", f"{crashing_bot},random", "--seed", "2"]
    assert main([*args, "--record", "records", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    failed = {f"game-{failure['game']:06d}.toml" for failure in data["failures"]}
    assert failed
    assert {path.name for path in Path("records/failed").iterdir()} == failed
    finished = {path.name for path in Path("records").glob("game-*.toml")}
    assert len(finished) == data["games"]
    assert finished | failed == {f"game-{number:06d}.toml" for number in range(1, 7)}
    assert not Path("simulate-failed").exists()
    assert main([*args, "--record", "records"]) == 2, "a folder with records of an earlier run is refused"
    assert "already holds game records" in capsys.readouterr().err
    for path in Path("records").glob("game-*.toml"):
        path.unlink()
    assert main([*args, "--record", "records"]) == 2, "failed/ alone is records too"
    assert "already holds game records" in capsys.readouterr().err


def test_simulate_reference_without_on_failure_still_raises_bot_error(crashing_bot):
    from thirtyone.bots.runner import BotError
    from thirtyone.bots.runner import game_seeds
    from thirtyone.cli.simulate import simulate_reference
    from thirtyone.rules import Rules
    from thirtyone.totals import GameTotals

    rules, names = Rules.preset("scat"), [crashing_bot, "basic"]
    with pytest.raises(BotError, match="raised RuntimeError: the crasher crashed"):
        simulate_reference(rules, names, game_seeds(1, 8), GameTotals(rules, tuple(names)))


def _totals_of(seeds, names=("basic", "random", "heuristic")):
    from thirtyone.cli.simulate import simulate_reference
    from thirtyone.rules import Rules
    from thirtyone.totals import GameTotals

    totals = GameTotals(Rules.preset("scat"), names)
    simulate_reference(totals.rules, names, seeds, totals)
    return totals


def test_merged_totals_are_the_totals_of_all_the_games_in_any_grouping():
    import copy

    from thirtyone.bots.runner import game_seeds

    seeds = game_seeds(2, 30)
    a, b, c = _totals_of(seeds[:7]), _totals_of(seeds[7:20]), _totals_of(seeds[20:])
    left, right = copy.deepcopy(a), copy.deepcopy(b)
    left.merge(b)
    left.merge(c)
    right.merge(c)
    a.merge(right)
    assert left == a == _totals_of(seeds)
    assert left.games == 30
    assert sum(seat.wins for seat in left.seats) == 30
    with pytest.raises(ValueError, match="cannot join"):
        left.merge(_totals_of(seeds[:2], ("basic", "basic", "random")))


def test_totals_to_dict_has_the_keys_of_simulate_json():
    from thirtyone.bots.runner import game_seeds
    from thirtyone.rules import Rules
    from thirtyone.totals import GameTotals

    rules, names = Rules.preset("scat"), ("basic", "random", "basic")
    empty = GameTotals(rules, names).to_dict()
    assert list(empty) == [
        "rules",
        "players",
        "games",
        "rounds",
        "rounds_per_game",
        "turns_per_round",
        "knocks",
        "blitzes",
        "round_ends",
        "lives_lost_by_rule",
        "seats",
        "bots",
    ]
    seat_keys = ["bot", "wins", "win_share", "mean_place", "places", "knocks", "knocks_that_lost_lives", "lives_lost"]
    assert [list(seat) for seat in empty["seats"]] == [["seat", *seat_keys]] * 3
    assert [(bot["seats"], bot["bot"]) for bot in empty["bots"]] == [([0, 2], "basic"), ([1], "random")]
    assert (empty["rounds_per_game"], empty["turns_per_round"], empty["seats"][0]["mean_place"]) == (0.0, 0.0, 0.0)
    totals = _totals_of(game_seeds(9, 10), names)
    assert list(totals.to_dict()) == list(empty)
    by_bot = totals.by_bot()
    assert (by_bot["basic"].games, by_bot["basic"].seat) == (20, -1)
    assert by_bot["basic"].wins == totals.seats[0].wins + totals.seats[2].wins


def test_totals_refuse_a_game_of_another_table_or_not_over():
    from thirtyone.engine import Game
    from thirtyone.rules import Rules
    from thirtyone.totals import GameTotals
    from thirtyone.totals import SeatTotals

    totals = GameTotals(Rules.preset("scat"), ("basic", "random"))
    with pytest.raises(ValueError, match=r"with 3 players added to totals of .* with 2"):
        totals.add_game(Game(Rules.preset("scat"), 3, seed=1))
    with pytest.raises(ValueError, match="not over"):
        totals.add_game(Game(Rules.preset("scat"), 2, seed=1))
    with pytest.raises(ValueError, match="a place is 1 or more"):
        SeatTotals(0, "basic").add(0, won=False, rounds_played=1, lives_lost=0, knocks=0, knocks_lost=0)
    assert totals == GameTotals(Rules.preset("scat"), ("basic", "random"))


def test_results_headers_take_two_lines_and_counts_have_separators_at_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["simulate", "--games", "120", "--players", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    lines = out[out.index("Results by bot") :].split("\n")
    rule = next(index for index, line in enumerate(lines) if "───" in line)
    assert lines[rule - 2].split() == ["mean", "knocks", "that", "lives"]
    assert lines[rule - 1].split() == ["seat", "bot", "wins", "share", "place", "knocks", "lost", "lives", "lost"]
    assert not lines[rule - 3].strip(), "no third header line"
    cells = lines[rule + 1].split()
    assert int(cells[5].replace(",", "")) >= 1000, cells
    assert "," in cells[5], cells  # knocks, grouped by thousands
    assert max(len(line) for line in out.split("\n")) <= 80


@pytest.mark.parametrize("engine", ["sim", "reference"])
def test_item14_a_long_run_holds_no_seeds_before_its_first_game(engine, monkeypatch, capsys):
    """``--games 10000000`` held every game's seed (584 MB) before playing one: now they are read
    a chunk at a time. Measured where the first game starts, stopped there (Ctrl-C)."""
    import tracemalloc

    from thirtyone import sim
    from thirtyone.cli import simulate as cli_simulate

    peaks: list[int] = []

    def first_game(*args, **kwargs):
        peaks.append(tracemalloc.get_traced_memory()[1])
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "play_games", first_game)
    monkeypatch.setattr(cli_simulate, "play_game_safely", first_game)
    tracemalloc.start()
    try:
        status = main(["simulate", "--games", "2000000", "--seed", "1", "--engine", engine, "--json"])
    finally:
        tracemalloc.stop()
    assert status == 130
    assert json.loads(capsys.readouterr().out)["partial"] is True
    assert len(peaks) == 1
    assert peaks[0] < 8 * 1024 * 1024, f"{peaks[0]:,} bytes traced before the first game"


@pytest.mark.parametrize("slow", [True, False])
def test_issue40_the_first_simulate_after_installing_says_that_it_is_compiling(capsys, monkeypatch, slow):
    """Issue 40, item 7: the first ``simulate`` after installing compiled for 30 s in silence. A
    load of the kernels that takes longer than a load from numba's cache says so, in one line on
    stderr; one that does not says nothing."""
    import threading

    pytest.importorskip("numba")
    from thirtyone.sim import api

    said = threading.Event()
    say = simulate_cli.say_compiling

    def saying() -> None:
        say()
        said.set()

    def compiling() -> None:  # a compile: it lasts until the line is said
        assert said.wait(timeout=60)

    monkeypatch.setattr(simulate_cli, "say_compiling", saying)
    monkeypatch.setattr(simulate_cli, "COMPILE_NOTICE_SECONDS", 0.0 if slow else 3600.0)
    real = api.warm_up
    monkeypatch.setattr(api, "warm_up", lambda: (compiling() if slow else None, real()))
    assert main(["simulate", "--games", "2", "--bots", "basic,random", "--seed", "1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert (COMPILING in err) is slow
    assert err.count(COMPILING) <= 1


def test_an_earlier_runs_failed_records_are_refused_before_any_game_unless_overwrite(capsys, crashing_bot):
    """``simulate-failed/`` was written over by the next run's failed games, without a word (issue 42)."""
    args = ["simulate", "--games", "6", "--players", "2", "--bots", f"{crashing_bot},random"]
    assert main([*args, "--seed", "2", "--json"]) == 1
    first = {Path(failure["record"]) for failure in json.loads(capsys.readouterr().out)["failures"]}
    kept = sorted(first)[0]
    kept.write_text("the user's notes", encoding="utf-8")

    line = cli_error_line(capsys, [*args, "--seed", "5"])
    assert line == (
        "thirtyone: error: simulate-failed/ holds the records of games that failed in an earlier run: move them, "
        "or add --overwrite to replace them"
    )
    assert set(Path("simulate-failed").iterdir()) == first
    assert kept.read_text(encoding="utf-8") == "the user's notes"

    assert main([*args, "--seed", "5", "--json", "--overwrite"]) == 1
    second = {Path(failure["record"]) for failure in json.loads(capsys.readouterr().out)["failures"]}
    assert set(Path("simulate-failed").iterdir()) == second, "none of the earlier run's is left among them"


def test_overwrite_replaces_the_records_of_the_record_folder(capsys, crashing_bot):
    args = ["simulate", "--games", "6", "--players", "2", "--bots", f"{crashing_bot},random", "--record", "records"]
    assert main([*args, "--seed", "2"]) == 1
    capsys.readouterr()
    line = cli_error_line(capsys, [*args, "--seed", "2"])
    assert line.startswith("thirtyone: error: --record records: the folder already holds game records (")
    assert line.endswith("; give a new or empty folder or add --overwrite to replace them")
    assert main([*args, "--seed", "2", "--games", "1", "--overwrite", "--json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    assert len(list(Path("records").glob("**/game-*.toml"))) == 1 == data["games"] + data["games_failed"]


def test_a_run_on_the_simulator_writes_no_records_and_leaves_simulate_failed_alone(capsys, tmp_path, monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / "simulate-failed" / "game-000001.toml"
    earlier.parent.mkdir()
    earlier.write_text("an earlier failure", encoding="utf-8")
    for extra in ([], ["--overwrite"]):
        assert main(["simulate", "--games", "3", "--seed", "1", "--engine", "sim", *extra]) == 0
        assert earlier.read_text(encoding="utf-8") == "an earlier failure"
    capsys.readouterr()
