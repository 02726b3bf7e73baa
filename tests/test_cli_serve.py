"""``thirtyone serve``'s arguments: each is checked before anything starts (a one-line error, exit
2), and what is accepted reaches the server's settings (Uvicorn itself is not started here)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from helpers import cli_error_line
from thirtyone import sim
from thirtyone.cli import main
from thirtyone.cli import serve as serve_command
from thirtyone.sim import api as sim_api


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Stand-in for uvicorn.run: records the app's settings and Uvicorn's options."""
    calls: list[dict[str, Any]] = []

    def run(app: Any, **options: Any) -> None:
        calls.append({"settings": app.state.settings, **options})

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(serve_command, "_warm_up_simulator", lambda: None)  # tested on its own below
    return calls


def serve(tmp_path: Path, *args: str) -> list[str]:
    return ["serve", "--port", "48031", "--database-url", f"sqlite:///{tmp_path}/t.db", *args]


@pytest.mark.parametrize(("given", "timer"), [("off", None), ("0", None), ("OFF", None), ("30", 30.0), ("0.5", 0.5)])
def test_the_turn_timer_is_seconds_or_off(
    tmp_path: Path, started: list[dict[str, Any]], given: str, timer: float | None
) -> None:
    assert main(serve(tmp_path, "--turn-timer", given)) == 0
    assert started[-1]["settings"].turn_timer == timer


def test_what_is_accepted_reaches_the_settings(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    args = ("--bot-delay", "0.25", "--messages-per-second", "50", "--message-burst", "60", "--host", "127.0.0.1")
    assert main(serve(tmp_path, *args)) == 0
    settings = started[-1]["settings"]
    assert (settings.bot_delay, settings.messages_per_second, settings.message_burst) == (0.25, 50.0, 60)
    assert started[-1]["host"] == "127.0.0.1"
    assert started[-1]["ws_per_message_deflate"] is False


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--turn-timer", "0.05"), "turn_timer must be from 0.1"),
        (("--turn-timer", "soon"), "--turn-timer 'soon': give seconds as a number"),
        (("--turn-timer", "inf"), "finite"),
        (("--bot-delay", "-1"), "bot_delay must be from 0"),
        (("--port", "70000"), "--port 70000: give a whole number from 1 to 65535"),
        (("--database-url", "mysql://u@h/d"), "not mysql"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    line = cli_error_line(capsys, ["serve", "--port", "48031", "--database-url", f"sqlite:///{tmp_path}/t.db", *args])
    assert words in line
    assert started == []


def test_the_simulator_is_loaded_in_the_background_while_the_server_starts(
    tmp_path: Path, started: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = threading.Event()
    monkeypatch.setattr(serve_command, "_warm_up_simulator", loaded.set)
    assert main(serve(tmp_path)) == 0
    assert loaded.wait(10)


def test_warming_up_loads_the_kernels_when_numba_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(sim_api, "warm_up", lambda: calls.append("warm"))
    monkeypatch.setattr(sim, "available", lambda: False)
    serve_command._warm_up_simulator()
    assert calls == []
    monkeypatch.setattr(sim, "available", lambda: True)
    serve_command._warm_up_simulator()
    assert calls == ["warm"]

    def broken() -> None:
        raise RuntimeError("no kernels")

    monkeypatch.setattr(sim_api, "warm_up", broken)
    serve_command._warm_up_simulator()  # logged; the server goes on
