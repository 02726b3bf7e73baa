"""``thirtyone stats``: your progress over the games ``thirtyone play`` kept (tui/history.py):
games, wins, average place and lives lost a round by preset and table size, worked out here from
the games themselves; each game's review accuracy and blunders, the review made once and kept
beside its record; a chart as PNG; damaged or foreign files skipped and named, never fatal; an
empty history says how to fill it; bad options are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from thirtyone.bots import make_bot
from thirtyone.bots.review import FORMAT
from thirtyone.bots.review import VERSION
from thirtyone.cli import main
from thirtyone.engine import Game
from thirtyone.events import RoundEnded
from thirtyone.events import RoundStarted
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.tui import history as history_module
from thirtyone.tui.history import review_path
from thirtyone.tui.progress import by_table
from thirtyone.tui.progress import kept_game

BUDGET = ["--budget", "3:engine"]
"""A small review budget a decision, on the engine: a game's review takes a moment."""

TABLES = [("scat", 2, 0), ("scat", 2, 1), ("scat", 3, 2), ("schwimmen", 2, 3)]
"""The games of the made history: (preset, players, seed), one life each (short games)."""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The history folder of a user whose data folder is ``tmp_path`` (made by the tests that need it)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "thirtyone" / "history"


def played(preset: str, players: int, seed: int) -> Game:
    """A finished game of ``preset`` with one life, seat 0 played by the basic bot, the others by random ones."""
    game = Game(Rules.preset(preset, lives=1), players, seed=seed)
    bots = [make_bot("basic" if seat == 0 else "random", seed=seed + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


def keep(folder: Path, name: str, game: Game, event: str = "thirtyone play") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    names = ["you", *(f"Bot{seat} (random)" for seat in range(1, game.players))]
    path = folder / name
    path.write_text(GameRecord.from_game(game, names, event=event, date="2026-12-07").dumps(), encoding="utf-8")
    return path


def made_history(folder: Path) -> list[Game]:
    games = [played(*table) for table in TABLES]
    for number, game in enumerate(games, start=1):
        keep(folder, f"20261207-00000{number}-seed{number}.toml", game)
    return games


def expected(games: list[Game], preset: str, players: int) -> tuple[int, int, float, float]:
    """Seat 0's games, wins, mean place and lives lost a round at one kind of table, counted from
    the games' standings and events."""
    mine = [game for game, (p, n, _) in zip(games, TABLES, strict=True) if (p, n) == (preset, players)]
    places = [next(s.place for s in game.standings if s.seat == 0) for game in mine]
    losses = [e.result.losses for game in mine for e in game.events if isinstance(e, RoundEnded)]
    lives = sum(loss.lives for round_losses in losses for loss in round_losses if loss.seat == 0)
    rounds = sum(1 for g in mine for e in g.events if isinstance(e, RoundStarted) and 0 in e.seats)
    return len(mine), sum(game.winner == 0 for game in mine), sum(places) / len(mine), lives / rounds


def test_the_figures_by_preset_and_table_size_are_counted_from_the_games(folder: Path) -> None:
    games = made_history(folder)
    kept = [kept_game(path, GameRecord.loads(path.read_text(encoding="utf-8"))) for path in sorted(folder.iterdir())]
    rows = by_table(kept)
    assert [(row.preset, row.players) for row in rows] == [("scat", 2), ("scat", 3), ("schwimmen", 2)]
    for row in rows:
        found = (row.totals.games, row.totals.wins, row.totals.mean_place, row.lives_a_round)
        assert found == pytest.approx(expected(games, row.preset, row.players))
    assert [game.place for game in kept] == [next(s.place for s in g.standings if s.seat == 0) for g in games]


def test_stats_prints_the_tables_and_the_kept_reviews(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = made_history(folder)
    for number, path in enumerate(sorted(folder.glob("*.toml")), start=1):  # reviews kept beside: none is made
        summary = {"decisions": 8, "accurate": 8 - number, "given": 0.5}
        summary["marks"] = {"inaccuracy": 1, "mistake": 0, "blunder": number}
        made_by = {"format": FORMAT, "version": VERSION, "worlds": 3, "seconds": None, "seed": 0, "rollouts": "engine"}
        data = {"format": "thirtyone-history-review", "review": made_by, "summary": summary}
        review_path(path).write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(history_module, "review_record", lambda *args, **kwargs: pytest.fail("reviewed again"))
    assert main(["stats", *BUDGET]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert f"Your progress: 4 finished games in {folder}" in out
    games_, wins, place, lives = expected(games, "scat", 2)
    row = next(line.split() for line in out.splitlines() if line.split()[:2] == ["scat", "2"])
    assert row[2:] == [str(games_), str(wins), f"({wins / games_:.0%})", f"{place:.2f}", f"{lives:.2f}"]
    table = [line.split() for line in out.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"], ["4"])]
    assert [(cells[0], cells[-2], cells[-1]) for cells in table] == [
        ("1", "88%", "1"),  # 7 of 8 accurate, 1 blunder
        ("2", "75%", "2"),
        ("3", "62%", "3"),  # 5/8 = 62.5%, as the language rounds it
        ("4", "50%", "4"),
    ]


def test_each_review_is_made_once_and_kept_beside_its_record(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made_history(folder)
    made: list[int] = []
    review_record = history_module.review_record

    def counted(record: GameRecord, seats: list[int], **budget: object) -> object:
        made.append(record.players)
        assert seats == [0]
        return review_record(record, seats, **budget)  # type: ignore[arg-type]

    monkeypatch.setattr(history_module, "review_record", counted)
    assert main(["stats", *BUDGET]) == 0
    first = capsys.readouterr().out
    assert len(made) == len(TABLES)
    assert all(review_path(path).exists() for path in folder.glob("*.toml"))
    assert main(["stats", *BUDGET]) == 0
    assert capsys.readouterr().out == first
    assert len(made) == len(TABLES)  # none made again
    assert main(["stats", "--budget", "4:engine"]) == 0  # another budget: made again, and kept
    assert len(made) == 2 * len(TABLES)


def test_damaged_and_foreign_files_are_skipped_and_named(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = made_history(folder)
    unfinished = Game(Rules.preset("scat"), 2, seed=9)
    unfinished.apply(unfinished.legal_actions()[0])
    bad = {
        "notes.txt": "my notes",
        "20261208-000000-seed5.toml": "not toml [[[",
        "20261208-000001-seed6.toml": b"\xff\xfe binary",
    }
    for name, content in bad.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    keep(folder, "20261208-000002-seed7.toml", games[0], event="thirtyone arena")
    keep(folder, "20261208-000003-seed8.toml", unfinished)
    (folder / "subfolder").mkdir()
    review_path(folder / "20261207-000001-seed1.toml").write_text("{damaged", encoding="utf-8")  # made again
    (folder / ".20261208-000004-seed9.toml.123.tmp").write_text("being written", encoding="utf-8")
    assert main(["stats", *BUDGET, "--no-accuracy"]) == 0
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 6, err
    named = sorted([*bad, "20261208-000002-seed7.toml", "20261208-000003-seed8.toml", "subfolder"])
    for line, name in zip(lines, named, strict=True):
        assert line.startswith(f"Skipped: {folder / name}: "), line
    assert "not a game of thirtyone play" in err
    assert "an unfinished game" in err
    assert "not UTF-8" in err
    assert "Your progress: 4 finished games" in out
    assert main(["stats", *BUDGET]) == 0  # the damaged review is made again
    assert json.loads(review_path(folder / "20261207-000001-seed1.toml").read_text(encoding="utf-8"))["summary"]


def test_an_empty_history_says_how_to_get_one(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats"]) == 0  # no folder yet
    out = capsys.readouterr().out
    assert out.startswith(f"No finished games in {folder} yet: play one with thirtyone play")
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    assert main(["stats", "--chart", str(folder.parent / "c.png")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("No finished games in")
    assert err.startswith("Skipped:")
    assert not (folder.parent / "c.png").exists()


def test_no_accuracy_reviews_nothing(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made_history(folder)
    monkeypatch.setattr(history_module, "review_record", lambda *args, **kwargs: pytest.fail("reviewed"))
    assert main(["stats", "--no-accuracy", "--last", "2"]) == 0
    out = capsys.readouterr().out
    assert "Accuracy" not in out
    assert "Blunders" not in out
    rows = [line.split() for line in out.split("Game by game")[1].splitlines()]
    numbers = [cells[0] for cells in rows if cells and cells[0].isdigit()]
    assert numbers == ["3", "4"]  # the last two, numbered in the order played
    assert not list(folder.glob("*.review.json"))


def test_the_chart_is_a_png(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made_history(folder)
    chart = folder.parent / "progress.png"
    assert main(["stats", *BUDGET, "--chart", str(chart), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Dein Fortschritt: 4 beendete Spiele" in out
    assert "Genauigkeit" in out
    assert f"Diagramm gespeichert unter {chart}" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_chart_in_a_missing_folder_or_over_a_file_is_refused_before_any_work(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--chart`` failed after every review and table, in a folder that does not exist, and wrote
    over an existing file without ``--overwrite`` (issue 42)."""
    made_history(folder)
    missing = folder.parent / "no-such-folder" / "progress.png"
    line = cli_error_line(capsys, ["stats", *BUDGET, "--chart", str(missing)])
    assert line == (
        f"thirtyone: error: --chart {missing}: the folder {missing.parent} does not exist; make it first or give "
        "another"
    )
    chart = folder.parent / "progress.png"
    chart.write_bytes(b"the user's image")
    line = cli_error_line(capsys, ["stats", *BUDGET, "--chart", str(chart)])
    assert line == f"thirtyone: error: --chart {chart}: the file already exists; choose another name or add --overwrite"
    assert chart.read_bytes() == b"the user's image"
    assert not list(folder.glob("*.review.json")), "refused before any review"
    assert main(["stats", *BUDGET, "--chart", str(chart), "--overwrite"]) == 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--last", "0"], "--last 0: show at least 1 game"),
        (["--overwrite"], "--overwrite is for --chart FILE.png: add --chart, or leave --overwrite out"),
        (["--chart", "x.svg"], "--chart x.svg: the chart is a .png file; give a file name ending in .png"),
        (["--chart", "x.png", "--no-accuracy"], "--chart draws the review's accuracy: leave out --no-accuracy"),
        (["--budget", "basic:3"], "--budget basic:3: the review's budget is the expert's"),
        (["--lang", "ko;x"], "--lang 'ko;x': give a language code"),
    ],
)
def test_bad_options_are_one_line_errors(
    folder: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert said in cli_error_line(capsys, ["stats", *args])


def test_sigterm_keeps_the_reviews_made_as_ctrl_c_does(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGTERM (``timeout``, ``kill``) ended stats without a word (issue 42): it stops the reviews
    as Ctrl-C does, those made kept, and exits 143."""
    import signal

    from thirtyone.cli import stats as stats_cli

    made_history(folder)
    real = stats_cli.reviewed
    calls: list[Path] = []

    def reviewed(path: Path, *args: object, **kwargs: object) -> object:
        calls.append(path)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler stats sets
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    def unhandled(_number: int, _frame: object) -> None:
        raise AssertionError("stats set no handler for SIGTERM")

    monkeypatch.setattr(stats_cli, "reviewed", reviewed)
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should stats set none
    try:
        assert main(["stats", *BUDGET]) == 143
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    assert captured.err.endswith("thirtyone: terminated: the reviews made so far are kept\n")
    assert len(list(folder.glob("*.review.json"))) == 2
