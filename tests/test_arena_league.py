"""The league (``thirtyone arena --league``): every table of the bots on duplicate deals in several
presets, one rating per bot, a leaderboard in Markdown and JSON; a researcher's bot joins as an
installed plugin (examples/greedy_bot) or as ``module:factory``; bad input is one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from thirtyone.arena import ArenaError
from thirtyone.arena import LocalBackend
from thirtyone.arena.league import league_dict
from thirtyone.arena.league import league_markdown
from thirtyone.arena.league import league_rules
from thirtyone.arena.league import league_tables
from thirtyone.arena.league import run_league
from thirtyone.bots import UnknownBotError
from thirtyone.bots import plugins
from thirtyone.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "greedy_bot" / "src"


@pytest.fixture
def greedy_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As after ``pip install ./examples/greedy_bot``: its module importable, its entry point registered."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.delitem(sys.modules, "greedy_bot", raising=False)
    monkeypatch.setattr(plugins, "installed_bots", lambda: {"greedy": "greedy_bot:make_bot"})


def play(bots: list[str], presets: list[str], players: int, deals: int, seed: int = 1):  # type: ignore[no-untyped-def]
    with LocalBackend(jobs=1) as backend:
        return run_league(bots, presets, players, deals, seed, backend)


def test_every_table_plays_every_presets_duplicate_deals() -> None:
    league = play(["random", "basic", "heuristic"], ["scat", "widow"], players=2, deals=2)
    assert league.tables == (("random", "basic"), ("random", "heuristic"), ("basic", "heuristic"))
    assert league.games == 3 * 2 * 2 * 2  # tables × presets × deals × rotations
    for row in league.rows:
        assert row.games == 2 * 2 * 2 * 2  # two tables a bot, presets, deals, rotations
        assert {preset: games for preset, (_, games) in row.by_preset.items()} == {"scat": 8, "widow": 8}
        assert row.decisions > 0
        assert row.seconds_per_decision > 0
    assert sum(row.wins for row in league.rows) == league.games
    assert league.rows[-1].name == "random"
    assert league.rows[0].rating.ordinal >= league.rows[1].rating.ordinal >= league.rows[2].rating.ordinal


def test_the_same_seed_gives_the_same_leaderboard_but_the_times() -> None:
    def shown(seed: int) -> list[dict[str, object]]:
        entries = league_dict(play(["basic", "random", "heuristic"], ["scat"], 3, deals=3, seed=seed))["bots"]
        return [{k: v for k, v in entry.items() if k != "seconds_per_decision"} for entry in entries]

    assert shown(4) == shown(4)
    assert shown(4) != shown(5)


def test_the_markdown_and_json_leaderboards() -> None:
    league = play(["basic", "random"], ["scat"], 2, deals=2)
    page = league_markdown(league, "thirtyone arena --league --bots basic,random")
    assert page.startswith("# Leaderboard\n")
    assert "thirtyone arena --league --bots basic,random" in page
    rows = [line for line in page.splitlines() if line.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2
    assert "`basic`" in rows[0]
    data = league_dict(league, "cmd")
    assert data["format"] == "thirtyone-league-1"
    assert data["run"]["command"] == "cmd"
    entry = data["bots"][0]
    assert entry["win_share_low"] <= entry["win_share"] <= entry["win_share_high"]
    assert set(entry) >= {"mu", "sigma", "ordinal", "win_share", "seconds_per_decision", "by_preset"}


def test_a_researchers_plugin_joins_with_the_same_command(
    greedy_installed: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "leaderboard.md"
    args = ["arena", "--league", "--bots", "greedy,basic,random", "--players", "2", "--presets", "scat,schwimmen"]
    args += ["--deals", "2", "--seed", "3", "--leaderboard", str(page)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out == page.read_text(encoding="utf-8")
    assert "`greedy`" in out
    data = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert {entry["bot"] for entry in data["bots"]} == {"greedy", "basic", "random"}
    assert data["run"]["command"].startswith("thirtyone arena --league --bots greedy,basic,random")
    assert main([*args[:3], "greedy_bot:make_bot,basic", *args[4:-2], "--json"]) == 0  # module:factory too
    assert {entry["bot"] for entry in json.loads(capsys.readouterr().out)["bots"]} == {"greedy_bot:make_bot", "basic"}


def test_the_leaderboard_files_are_not_overwritten_unasked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "board.md"
    page.write_text("mine")
    args = ["arena", "--league", "--bots", "basic,random", "--players", "2", "--deals", "1", "--leaderboard"]
    line = cli_error_line(capsys, [*args, str(page)])
    assert (
        line
        == f"thirtyone: error: --leaderboard {page}: the file already exists; choose another name or add --overwrite"
    )
    assert page.read_text() == "mine"
    assert main([*args, str(page), "--overwrite"]) == 0
    assert capsys.readouterr().out == page.read_text()
    assert page.read_text().startswith("# Leaderboard")
    other = tmp_path / "other.md"
    (tmp_path / "other.json").write_text("mine")
    assert cli_error_line(capsys, [*args, str(other)]) == (
        f"thirtyone: error: --leaderboard {other}: the file {tmp_path / 'other.json'} beside it already exists; "
        "choose another name or add --overwrite"
    )
    text = tmp_path / "board.txt"
    assert cli_error_line(capsys, [*args, str(text)]) == (
        f"thirtyone: error: --leaderboard {text}: the leaderboard is a .md file; give a file name ending in .md"
    )
    missing = tmp_path / "no" / "board.md"
    assert cli_error_line(capsys, [*args, str(missing)]) == (
        f"thirtyone: error: --leaderboard {missing}: the folder {missing.parent} does not exist; make it first or "
        "give another"
    )


def test_sigterm_prints_the_leaderboard_so_far_as_ctrl_c_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGTERM (``timeout``, ``kill``) ended a league with nothing printed (issue 42)."""
    import signal

    from thirtyone.arena import backends

    real = backends.play_game_safely
    calls: list[object] = []

    def terminated_at_the_third(*args: object) -> object:
        calls.append(args)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler the league sets
        return real(*args)  # type: ignore[arg-type]

    def unhandled(_number: int, _frame: object) -> None:
        raise AssertionError("the league set no handler for SIGTERM")

    monkeypatch.setattr(backends, "play_game_safely", terminated_at_the_third)
    page = tmp_path / "board.md"
    args = ["arena", "--league", "--bots", "basic,random", "--players", "2", "--deals", "4", "--seed", "1"]
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should the league set none
    try:
        assert main([*args, "--leaderboard", str(page)]) == 143
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    assert "**Partial**" in captured.out
    assert captured.err.endswith("thirtyone: terminated: the leaderboard above is partial (no file written)\n")
    assert not page.exists()


@pytest.mark.parametrize(
    ("bots", "players", "deals", "presets", "says"),
    [
        (["basic"], 2, 1, ["scat"], "at least two bots"),
        (["basic", "basic"], 2, 1, ["scat"], "named twice"),
        (
            ["basic", "random"],
            3,
            1,
            ["scat"],
            "--players 3: a league table seats 2 to 2 of its 2 bots; give --players 2",
        ),
        (["basic", "random"], 2, 0, ["scat"], "at least one deal"),
        (["basic", "random"], 2, 1, [], "at least one preset"),
    ],
)
def test_bad_leagues_are_refused_before_any_game(
    bots: list[str], players: int, deals: int, presets: list[str], says: str
) -> None:
    with pytest.raises(ArenaError, match=says):
        play(bots, presets, players, deals)


def test_bad_names_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownBotError, match="unknown bot"):
        play(["basic", "grandmaster"], ["scat"], 2, 1)
    assert "unknown preset" in cli_error_line(
        capsys, ["arena", "--league", "--bots", "basic,random", "--players", "2", "--presets", "nope"]
    )
    assert league_tables(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]


def test_a_bot_that_fails_loses_only_its_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "broken_bot.py").write_text(
        "class Broken:\n"
        "    name = 'broken'\n"
        "    def choose(self, view, legal):\n"
        "        raise RuntimeError('no idea')\n"
        "def make_bot(seed):\n"
        "    return Broken()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    league = play(["broken_bot:make_bot", "basic", "random"], ["scat"], 2, deals=1)
    broken = next(row for row in league.rows if row.name == "broken_bot:make_bot")
    assert broken.failed == 4  # two tables, each deal in two rotations
    assert broken.games == 0
    assert league.games == 2
    assert main(["arena", "--league", "--bots", "broken_bot:make_bot,basic", "--players", "2", "--deals", "1"]) == 1
    assert "2 games failed (bot broken_bot:make_bot failed 2)" in capsys.readouterr().err


def test_the_arenas_and_the_leagues_files_are_not_mixed_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = ["arena", "--league", "--bots", "basic,random", "--players", "2", "--deals", "1"]
    assert "--out is the arena's" in cli_error_line(capsys, [*league, "--out", str(tmp_path / "x")])
    arena = ["arena", "--bots", "basic,random", "--games", "4", "--leaderboard", str(tmp_path / "b.md")]
    assert "--leaderboard is for a league" in cli_error_line(capsys, arena)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--games", "4"], "--games is the arena's: a league plays --deals D"),
        (["--presets", "nosuch"], "--presets: unknown preset 'nosuch': choose one of scat"),
        (["--players", "4"], "--players 4: a league table seats 2 to 2 of its 2 bots; give --players 2, or name more"),
        (["--bots", "basic,random,heuristic", "--players", "5"], "give --players 2 to 3, or name more bots in --bots"),
        (["--players", "4", "--presets", "nosuch"], "--presets: unknown preset"),
    ],
)
def test_issue40_league_errors_name_the_option_and_the_fix(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """Issue 40, item 6: ``arena --league --games 4`` said "a league table seats 2 to 2 of its 2
    bots, not 4" (the default table of four for the default two bots) without naming ``--players``,
    and ``--presets nosuch`` got the same message."""
    assert says in cli_error_line(capsys, ["arena", "--league", *argv])


def test_issue40_a_league_of_the_default_bots_seats_them_all(capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--players`` a league seats as many of its bots as the usual table (four) can."""
    assert main(["arena", "--league", "--deals", "1", "--seed", "3", "--json"]) == 0
    assert '"players": 2' in capsys.readouterr().out


def test_a_leagues_rule_options_are_set_on_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """``--lives 1`` and ``--three-of-a-kind 30`` (any rule option) play in every preset of
    ``--presets``, as ``run_league(options=...)`` plays them, and the command to play it again says them."""
    options = {"lives": 1, "three_of_a_kind": "30"}
    rules = league_rules(["scat", "widow"], options)
    assert [(ruleset.lives, ruleset.three_of_a_kind) for ruleset in rules.values()] == [(1, "30"), (1, "30")]
    argv = ["arena", "--league", "--bots", "basic,random", "--presets", "scat,widow", "--deals", "2", "--seed", "5"]
    assert main([*argv, "--lives", "1", "--three-of-a-kind", "30", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert "--lives 1 --three-of-a-kind 30" in played["run"]["command"]
    with LocalBackend(jobs=1) as backend:
        one_life = run_league(["basic", "random"], ["scat", "widow"], 2, 2, 5, backend, options=options)
    three_lives = play(["basic", "random"], ["scat", "widow"], 2, 2, seed=5)

    said = [(row["bot"], row["games"], row["wins"], row["lives_per_round"]) for row in played["bots"]]
    assert said == [(row.name, row.games, row.wins, row.lives_per_round) for row in one_life.rows]
    assert [row.lives_lost for row in one_life.rows] != [row.lives_lost for row in three_lives.rows]


def test_a_rule_option_a_preset_refuses_is_said_naming_the_preset() -> None:
    with pytest.raises(ArenaError, match="--presets scat: option all_pass=new_widow needs mode=widow"):
        league_rules(["widow", "scat"], {"all_pass": "new_widow"})


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--league", "--preset", "widow"], "--preset is the arena's: a league plays --presets LIST"),
        (["--league", "--overwrite"], "--overwrite is for --leaderboard FILE.md: add --leaderboard"),
        (["--league", "--engine", "sim"], "--engine sim is the arena's: a league plays on the reference engine"),
        (["--league", "--bots", "basic,mini-eq"], "--bots mini-eq: mini-eq plays the preset mini heads-up"),
        (["--presets", "nope"], "--presets is for a league: add --league"),
        (["--presets", "scat"], "--presets is for a league: add --league"),
        (["--deals", "3"], "--deals is for a league: add --league"),
    ],
)
def test_an_option_the_arena_or_league_does_not_use_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """``--preset widow`` in a league played scat, ``--presets``/``--deals`` outside one were
    dropped, and a bot that cannot play a preset failed every game (exit 1) rather than being refused."""
    from thirtyone.arena import league as league_module
    from thirtyone.cli import arena as arena_cli

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(league_module, "run_arena", no_games)
    monkeypatch.setattr(arena_cli, "run_arena", no_games)
    assert says in cli_error_line(capsys, ["arena", "--deals", "1", *argv] if "--league" in argv else ["arena", *argv])
