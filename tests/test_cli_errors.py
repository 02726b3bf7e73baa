"""One-line errors of the ``thirtyone`` command: one ``thirtyone: error:`` prefix, a pointer to the
help of the command that was given, expert budgets that name their limits, and ``--overwrite``
only with the path it lets replace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from thirtyone.cli import main


def parser_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    return captured.err


@pytest.mark.parametrize("command", ["play", "simulate", "arena", "bench", "verify x.toml", "replay x.toml"])
def test_an_unknown_argument_points_to_the_commands_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    name, *rest = command.split()
    err = parser_error(capsys, [name, *rest, "--bogus", "1"])
    assert err == f"thirtyone: error: unrecognized arguments: --bogus 1 (see thirtyone {name} --help)\n"


def test_a_bad_value_has_one_prefix_and_points_to_the_commands_help(capsys: pytest.CaptureFixture[str]) -> None:
    err = parser_error(capsys, ["simulate", "--players", "x"])
    assert err == "thirtyone: error: argument --players: give a whole number, not 'x' (see thirtyone simulate --help)\n"
    err = parser_error(capsys, ["arena", "--engine", "fast"])
    assert err.startswith("thirtyone: error: argument --engine: invalid choice: 'fast'")
    assert err.endswith("(see thirtyone arena --help)\n")


@pytest.mark.parametrize("command", ["play", "simulate", "arena"])
def test_the_help_gives_the_range_of_each_whole_number_rule_option(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "--lives N lives each player starts with, 1-20 [R2.2]" in text
    assert "--max-turns N turns after which a round ends in a showdown, 1-10,000 [R6.7]" in text
    assert (
        "--deck N cards in the deck: 52, 32 (7 to ace), or 8 (9, Q, K, A of hearts and spades: the mini research"
        " deck) [R1.1]" in text
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "abc"],
        ["simulate", "--seed", "1.5"],
        ["arena", "--jobs", "two"],
        ["bench", "--rounds", ""],
    ],
)
def test_every_whole_number_flag_says_so_in_the_same_words(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    command, flag, value = argv
    err = parser_error(capsys, argv)
    assert (
        err
        == f"thirtyone: error: argument {flag}: give a whole number, not {value!r} (see thirtyone {command} --help)\n"
    )


def test_no_command_or_an_unknown_one_points_to_the_main_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert parser_error(capsys, []).startswith("thirtyone: error: choose a command: play, simulate")
    err = parser_error(capsys, ["simulat"])
    assert err.startswith("thirtyone: error: argument COMMAND: invalid choice: 'simulat'")
    assert err.endswith("(see thirtyone --help)\n")


LIMITS = "give 1 to 1,000,000 worlds per decision (expert:200) or more than 0 and up to 3,600 seconds (expert:0.5s)"


@pytest.mark.parametrize("budget", ["0", "99999999", "5000s", "0s", "-3", "many", "1.5", "nans"])
@pytest.mark.parametrize("command", ["simulate", "arena", "play"])
def test_a_bad_expert_budget_names_the_limits(capsys: pytest.CaptureFixture[str], command: str, budget: str) -> None:
    assert main([command, "--bots", f"basic,expert:{budget}", "--games" if command != "play" else "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert err == f"thirtyone: error: bad expert budget {budget!r} in 'expert:{budget}': {LIMITS}\n"


@pytest.mark.parametrize("budget", ["hard:0", "expert:2000000:engine"])
def test_a_bad_budget_of_a_level_or_with_rollouts_names_the_limits(
    capsys: pytest.CaptureFixture[str], budget: str
) -> None:
    assert main(["simulate", "--bots", budget, "--games", "1"]) == 2
    assert LIMITS in capsys.readouterr().err


@pytest.mark.parametrize("budget", ["expert:1", "expert:1000000", "hard:3600s", "expert:0.001s:engine"])
def test_budgets_within_the_limits_are_taken(budget: str) -> None:
    from thirtyone.cli.options import parse_bots
    from thirtyone.rules import Rules

    assert parse_bots(f"basic,{budget}", 2, Rules()) == ["basic", budget]


def test_play_overwrite_without_record_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--overwrite"]) == 2
    assert capsys.readouterr().err == (
        "thirtyone: error: --overwrite is for --record PATH: add --record, or leave --overwrite out\n"
    )


@pytest.mark.parametrize("command", [["replay", ""], ["verify", ""]])
def test_an_empty_file_path_is_named_as_empty_not_as_this_folder(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err == "thirtyone: error: '': an empty path; give a record file\n"


def test_a_folder_that_cannot_be_made_names_its_flag(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert main(["arena", "--bots", "basic,random", "--games", "2", "--out", str(blocker / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"thirtyone: error: --out {blocker / 'out'}: cannot make the folder (")
    assert err.endswith("give a folder you can write to\n")
    assert main(["simulate", "--games", "1", "--record", str(blocker / "records")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"thirtyone: error: --record {blocker / 'records'}: cannot make the folder (")


@pytest.mark.parametrize(
    ("command", "flag"),
    [(["arena", "--bots", "basic,random", "--games", "2"], "--out"), (["simulate", "--games", "1"], "--record")],
)
def test_a_folder_whose_parent_is_missing_is_refused_and_nothing_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str], flag: str
) -> None:
    target = tmp_path / "typo" / "nested" / "out"
    assert main([*command, flag, str(target)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"thirtyone: error: {flag} {target}: the folder {target.parent} does not exist; "
        "make it first or give another folder\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_output_to_a_reader_that_left_ends_quietly(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left before a line was written (``| head`` done)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "thirtyone", "simulate", "--games", "4", "--json", "--seed", "1"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 1


@pytest.mark.parametrize(
    "command", [["simulate"], ["arena"], ["play"], ["review", "record.toml"], ["analyze", "--preset", "mini"]]
)
def test_a_negative_seed_is_refused_not_played_as_its_size(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """random.Random(-7) deals as random.Random(7): a negative seed would repeat another's games."""
    if command[0] == "play":  # play checks its numbers itself
        line = cli_error_line(capsys, [*command, "--seed", "-7"])
    else:
        line = parser_error(capsys, [*command, "--seed", "-7"]).strip()
    assert line.startswith("thirtyone: error: ")
    assert "--seed" in line
    assert "give a whole number from 0" in line


def test_simulate_says_its_seed_so_that_a_run_can_be_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--json"]) == 0
    seed = json.loads(capsys.readouterr().out)["seed"]
    assert main(["simulate", "--games", "2", "--seed", str(seed)]) == 0
    assert f"2 games of scat with 4 players, seed {seed}: " in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("command", "flag", "suffix"),
    [
        (["play"], "--record", ".toml"),
        (["stats"], "--chart", ".png"),
        (["arena", "--league", "--bots", "basic,random", "--players", "2", "--deals", "1"], "--leaderboard", ".md"),
    ],
)
def test_an_output_file_is_checked_in_the_same_words_by_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str], flag: str, suffix: str
) -> None:
    """play --record, stats --chart and arena --leaderboard each checked their file in words of
    their own (a missing folder: '… does not exist' with or without what to do), three copies of
    one check (issue 42); nothing is written over."""
    missing = tmp_path / "no" / f"f{suffix}"
    existing = tmp_path / f"f{suffix}"
    existing.write_text("mine", encoding="utf-8")
    folder = tmp_path / f"d{suffix}"
    folder.mkdir()
    for path, says in [
        (missing, f"the folder {missing.parent} does not exist; make it first or give another"),
        (existing, "the file already exists; choose another name or add --overwrite"),
        (folder, "that is a folder; give a file name for the "),
        ("", "an empty path; give a file name for the "),
    ]:
        shown = str(path) or "''"
        assert cli_error_line(capsys, [*command, flag, str(path)]).startswith(
            f"thirtyone: error: {flag} {shown}: {says}"
        )
    assert existing.read_text(encoding="utf-8") == "mine"
