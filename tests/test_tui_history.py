"""The terminal game keeps each finished game in your history (tui/history.py): a game played to
its end through the keys leaves one record there that replays to it, once however often the end
is shown; ``--no-history`` keeps none; a history that cannot be written is said at the final
standings, never fatal; ``play`` finds the folder as the XDG rule says."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from support.tui import SIZE
from support.tui import make_app
from support.tui import play_command
from support.tui import play_to_end
from support.tui import screen_text
from thirtyone.record import GameRecord
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.history import History
from thirtyone.tui.history import history_folder


def app_keeping(folder: Path | None, seed: int) -> ThirtyOneApp:
    """A two-player game of one life (short), its history kept in ``folder``."""
    app = make_app("scat", 2, seed, lives=1)
    return ThirtyOneApp(dataclasses.replace(app.settings, history=folder), preparation=app.preparation)


async def test_a_game_played_to_its_end_is_kept_once_as_a_record_that_replays(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "thirtyone" / "history"  # made when the first game is kept
    app = app_keeping(folder, 21)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(app, pilot, 21)
        app.show_game_over()  # the end shown again: the same game, the same file
        await pilot.pause()
        game = app.game
        kept = sorted(folder.iterdir())
    assert len(kept) == 1
    assert kept[0].name.endswith(f"-seed{app.session.game_seed}.toml")
    record = GameRecord.loads(kept[0].read_text(encoding="utf-8"))
    assert record.event == "thirtyone play"
    assert record.seats[0] == "you"
    assert record.winner == game.winner
    assert record.replay().events == game.events


async def test_without_a_history_folder_nothing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    app = app_keeping(None, 22)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(app, pilot, 22)
        assert "history" not in screen_text(app)
    assert list(tmp_path.iterdir()) == []


async def test_a_history_that_cannot_be_written_is_said_at_the_standings(tmp_path: Path) -> None:
    blocked = tmp_path / "history"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    app = app_keeping(blocked, 23)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(app, pilot, 23)
        assert "Not kept in your history:" in screen_text(app)
        assert app.history.failure is not None


def test_play_keeps_the_history_in_the_data_folder_unless_no_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = play_command(monkeypatch, ["--seed", "1"], {"XDG_DATA_HOME": str(tmp_path)})
    assert app.settings.history == tmp_path / "thirtyone" / "history"
    assert app.history.folder == app.settings.history
    assert play_command(monkeypatch, ["--seed", "1", "--no-history"], {}).settings.history is None


def test_the_folder_follows_the_xdg_rule() -> None:
    home = {"HOME": "/home/ann"}
    assert history_folder({**home, "XDG_DATA_HOME": "/srv/data"}) == Path("/srv/data/thirtyone/history")
    for unset in ({}, {"XDG_DATA_HOME": ""}, {"XDG_DATA_HOME": "data"}):  # relative: ignored, as the rule says
        assert history_folder({**home, **unset}) == Path("/home/ann/.local/share/thirtyone/history")


def test_two_games_of_the_same_seed_and_second_keep_two_files(tmp_path: Path) -> None:
    app = make_app("scat", 2, 5)
    record = app.records.record()
    history = History(tmp_path)
    first, second = history.keep(record, 1, seed=5), history.keep(record, 2, seed=5)
    assert first is not None
    assert second is not None
    assert first != second
    assert history.keep(record, 1, seed=5) == first
    assert len(list(tmp_path.iterdir())) == 2
