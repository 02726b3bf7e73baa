"""A slip of a finger does not end the game (issue 40, item 2): ``q`` mid-round asks first, and
``thirtyone play --resume RECORD`` goes on with a saved game exactly where it stopped: the same
rules, players, bots, seed and deals to come."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tui import SIZE
from support.tui import make_app
from support.tui import screen_text
from support.tui import settle
from support.tui import to_my_move
from thirtyone.cli import main
from thirtyone.cli import play as play_cli
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.autosave import Autosave
from thirtyone.tui.screens import RoundEndScreen
from thirtyone.tui.session import PlaySession
from thirtyone.tui.settings import PlaySettings
from thirtyone.tui.words import ENGLISH


async def test_q_mid_round_asks_and_any_other_key_plays_on() -> None:
    app = make_app("scat", 3, 50)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press("q")
        assert app.is_running
        assert app.feedback.plain == ENGLISH("tui.quit.ask")
        assert ENGLISH("tui.quit.ask") in screen_text(app)
        events = len(app.game.events)
        await pilot.press("s")  # plays on, and draws
        assert app.is_running
        assert len(app.game.events) == events + 1
        assert app.feedback.plain != ENGLISH("tui.quit.ask")
        await pilot.press("Q", "q")
    assert not app.is_running
    assert app.return_code == 0


async def test_q_in_a_terminal_too_small_quits_at_once() -> None:
    # a new user's finding: at 40x12 the notice says "(q quits)", but q asked first, on a
    # feedback line the notice hides, so q quit only when pressed twice
    app = make_app("scat", 3, 50)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        assert "(q quits)" in screen_text(app)
        await pilot.press("q")
    assert app.return_code == 0  # None: the app did not quit


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
async def test_ctrl_q_and_ctrl_c_quit_at_once(key: str) -> None:
    app = make_app("scat", 3, 50)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press(key)
    assert not app.is_running


async def test_q_at_the_showdown_quits_without_asking() -> None:
    app = make_app("scat", 3, 5)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press("k")
        await settle(app, pilot)
        assert isinstance(app.screen, RoundEndScreen)
        await pilot.press("q")
    assert not app.is_running


def play_on(session: PlaySession, moves: int) -> None:
    """Play ``moves`` moves of ``session`` (the person's first legal move, the bots' own), closing
    showdowns, or until the game ends."""
    for _ in range(moves):
        if session.game.is_over:
            return
        if session.round_over:
            session.deal_next()
        elif session.human_to_move:
            session.play(session.view().legal_actions[-1])
        else:
            assert session.bot_move() is None


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> list[PlaySettings]:
    """Standard input and output are a terminal, and the app does not open: the settings it
    would have opened with are listed."""
    started: list[PlaySettings] = []
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    monkeypatch.setattr(ThirtyOneApp, "run", lambda self: started.append(self.settings))
    return started


@pytest.mark.parametrize(
    ("preset", "options", "players", "bots"),
    [
        ("scat", {"lives": 5}, 3, "random"),
        ("schwimmen", {"lives": 4}, 4, "random,basic,medium"),
        ("widow", {"exchange": "any", "lives": 9}, 3, "random,basic"),
    ],
)
@pytest.mark.parametrize("moved", [1, 17, 40])
def test_resume_goes_on_exactly_where_the_game_stopped(
    tmp_path: Path, terminal: list[PlaySettings], preset: str, options: dict[str, object], players: int, bots: str,
    moved: int,
) -> None:  # fmt: skip
    """The game saved after ``moved`` moves, resumed from its record, plays on as the game that
    was not stopped: the same deals to come and the same bots (random ones included), to the end."""
    path = tmp_path / "g.toml"
    settings = PlaySettings.create(Rules.preset(preset, **options), players, bots, seed=148284, record=path, name="Sam")
    original = PlaySession(settings)
    play_on(original, moved)
    assert not original.game.is_over
    assert Autosave(original).save()
    stopped = list(original.game.events)
    play_on(original, 5000)
    assert original.game.is_over

    assert main(["play", "--resume", str(path), "--fast"]) == 0
    (resumed_settings,) = terminal
    assert resumed_settings.rules == settings.rules
    assert (resumed_settings.players, resumed_settings.bots, resumed_settings.seed) == (players, settings.bots, 148284)
    assert resumed_settings.name == "Sam"
    assert resumed_settings.record == path  # saved where it was
    resumed = PlaySession(resumed_settings)
    assert resumed.game.events[: len(stopped)] == stopped
    play_on(resumed, 5000)
    assert resumed.game.events == original.game.events


async def test_a_resumed_game_shows_its_log_and_plays_on(tmp_path: Path, terminal: list[PlaySettings]) -> None:
    path = tmp_path / "g.toml"
    app = make_app("scat", 3, 5, record=path)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        await pilot.press("k")
        await settle(app, pilot)
        await pilot.press("enter")
        await to_my_move(app, pilot)
        await pilot.press("s", "1", "ctrl+c")
    log = list(app.log_lines)
    assert main(["play", "--resume", str(path)]) == 0
    resumed = ThirtyOneApp(terminal[0], preparation=app.preparation)
    async with resumed.run_test(size=SIZE) as pilot:
        await to_my_move(resumed, pilot)
        assert len(resumed.screen_stack) == 1  # no showdown shown again
        assert resumed.log_lines[: len(log)] == log
        assert resumed.feedback.plain == ENGLISH("tui.resumed", round=2)
        await pilot.press("s", "1")
        await settle(resumed, pilot)
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    assert record.replay().events[: len(resumed.game.events)] == resumed.game.events


def saved_game(folder: Path, *, over: bool = False) -> Path:
    path = folder / "g.toml"
    session = PlaySession(PlaySettings.create(Rules.preset("scat", lives=1), 2, seed=3, record=path))
    play_on(session, 5000 if over else 3)
    Autosave(session).save()
    return path


@pytest.mark.parametrize(
    ("make", "extra", "needle"),
    [
        (lambda folder: folder / "none.toml", [], "none.toml: no such file"),
        (lambda folder: saved_game(folder, over=True), [], "that game is over"),
        (lambda folder: folder, [], "is a directory; give a record file"),
        (
            lambda folder: _written(folder / "g.toml", b"rules = 3\n"),
            [],
            "a damaged record",
        ),
        (lambda folder: _written(folder / "g.toml", b"\xff\xfe"), [], "a damaged record"),
        (
            lambda folder: _edited(saved_game(folder), "deals this game again", "was played"),
            [],
            "not a record of thirtyone play",
        ),
        (lambda folder: _edited(saved_game(folder), "--seed=3", "--seed=4"), [], "was not dealt by seed 4"),
        (lambda folder: _edited(saved_game(folder), "--seed=3", "--seed=3 --preset=widow"), [], "rules and players"),
        (lambda folder: _edited(saved_game(folder), "--seed=3", "--seed=3 --frobnicate"), [], "--frobnicate"),
        (lambda folder: saved_game(folder), ["--seed", "4"], "leave out --seed"),
        (lambda folder: saved_game(folder), ["--lives", "4", "--players", "3"], "leave out --players, --lives"),
    ],
    ids=str.split(
        "missing over folder not-a-record not-text no-comment other-seed other-rules unknown seed-given rules-given"
    ),
)
def test_bad_resume_input_is_one_line_and_exit_2(
    tmp_path: Path, terminal: list[PlaySettings], capsys: pytest.CaptureFixture[str], make, extra: list[str],
    needle: str,
) -> None:  # fmt: skip
    path = make(tmp_path)
    assert main(["play", "--resume", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error: ")
    assert needle in err, err
    assert err.count("\n") == 1, err
    assert not terminal


def _edited(path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
