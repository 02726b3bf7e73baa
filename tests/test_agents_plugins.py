"""Bring your own bot: make_bot (and so play, simulate, arena) takes ``module:factory`` and the
bots installed packages register under the entry-point group ``thirtyone.bots``; ``thirtyone
bots`` lists them; ``serve --bot LEVEL=BOT`` offers one for seats; bad names are one clear error.
The example package in examples/greedy_bot is played through all of them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from thirtyone import Rules
from thirtyone.bots import UnknownBotError
from thirtyone.bots import make_bot
from thirtyone.bots import parse_bot_list
from thirtyone.bots import plugins
from thirtyone.bots.runner import play_game
from thirtyone.bots.runner import simulate
from thirtyone.cli import main
from thirtyone.cli.serve import ServeError
from thirtyone.cli.serve import bot_levels
from thirtyone.tui.settings import PlaySettings

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "greedy_bot" / "src"


@pytest.fixture
def example_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.delitem(sys.modules, "greedy_bot", raising=False)


@pytest.fixture
def greedy_installed(example_on_path: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """As after ``pip install ./examples/greedy_bot``: its entry point registered."""
    monkeypatch.setattr(plugins, "installed_bots", lambda: {"greedy": "greedy_bot:make_bot", "ismcts": "x:y"})


def test_module_factory_bots_play(example_on_path: None) -> None:
    bot = make_bot("greedy_bot:make_bot", seed=1)
    assert bot.name == "greedy"
    assert make_bot("greedy_bot:make_bot:29").knock_at == 29  # type: ignore[attr-defined]
    game = play_game(Rules.preset("widow"), [bot, make_bot("basic", 2), make_bot("random", 3)], seed=4)
    assert game.is_over
    stats = simulate(Rules.preset("scat"), ["greedy_bot:make_bot", "basic"], games=6, seed=1)
    assert stats.games == 6
    assert parse_bot_list("greedy_bot:GreedyBot,Basic", 3) == ["greedy_bot:GreedyBot", "basic", "basic"]


def test_registered_bots_are_found_by_name(greedy_installed: None) -> None:
    assert make_bot("greedy", seed=1).name == "greedy"
    assert make_bot("Greedy:28").knock_at == 28  # type: ignore[attr-defined]
    settings = PlaySettings.create(Rules.preset("scat"), 3, "greedy,basic")
    assert settings.bots == ("greedy", "basic")


def test_the_cli_plays_them(example_on_path: None, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "--bots", "greedy_bot:make_bot,basic", "--games", "4", "--seed", "1", "--json"])
    assert status == 0
    assert "greedy_bot:make_bot" in capsys.readouterr().out
    status = main(["arena", "--bots", "greedy_bot:make_bot,basic", "--players", "2", "--games", "4", "--seed", "1"])
    assert status == 0


def test_thirtyone_bots_lists_what_is_installed(greedy_installed: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    assert "basic (easy)" in out
    assert "greedy               greedy_bot:make_bot" in out
    assert main(["bots", "--check"]) == 1, "ismcts points to a module that is not there"
    assert "does not load" in capsys.readouterr().out


def test_this_package_registers_ismcts() -> None:
    assert plugins.installed_bots()["ismcts"] == "thirtyone.agents.ismcts:make_bot"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nosuch_module:make", "cannot import module 'nosuch_module'"),
        ("greedy_bot:nothing", "module 'greedy_bot' has no 'nothing'"),
        ("greedy_bot:__doc__", "is not callable"),
        ("greedy_bot:make_bot:lots", "its factory raised ValueError: greedy takes the points it knocks at"),
        ("greedy_bot._pairs:x", "cannot import module 'greedy_bot._pairs'"),
        ("os.path:join", "its factory raised TypeError"),
        ("os.path:basename:x", "its factory raised TypeError"),
        ("grandmaster", "unknown bot 'grandmaster'"),
    ],
)
def test_bad_bots_are_one_clear_error(example_on_path: None, name: str, message: str) -> None:
    with pytest.raises(UnknownBotError, match=message.replace("(", r"\(")):
        make_bot(name)


def test_a_factory_that_returns_no_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notabot.py").write_text("def make(seed):\n    return 42\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UnknownBotError, match="returned 42, not a bot"):
        make_bot("notabot:make")
    assert cli_error_line(capsys, ["simulate", "--bots", "notabot:make", "--games", "2"]).startswith(
        "thirtyone: error: bot 'notabot:make': its factory returned 42"
    )


def test_serve_bot_levels(example_on_path: None) -> None:
    assert bot_levels(["greedy=greedy_bot:make_bot", "Deep=ismcts:0.5s"]) == {
        "greedy": "greedy_bot:make_bot",
        "deep": "ismcts:0.5s",
    }
    for bad, message in (
        ("greedy", "give LEVEL=BOT"),
        ("easy=basic", "exists already"),
        ("x=nosuch:f", "cannot import module"),
        ("two words=basic", "give LEVEL=BOT"),
    ):
        with pytest.raises(ServeError, match=message):
            bot_levels([bad])
