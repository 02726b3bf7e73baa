"""``thirtyone serve``'s arguments: each is checked before anything starts (a one-line error, exit
2), and what is accepted reaches the server's settings (Uvicorn itself is not started here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli_helpers import cli_error_line
from support.server import serve
from support.server import uvicorn_stand_in  # noqa: F401 - the fixture started
from thirtyone.cli import main


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
        (("--turn-timer", "0.05"), "--turn-timer must be from 0.1"),
        (("--turn-timer", "soon"), "--turn-timer 'soon': give seconds as a number"),
        (("--turn-timer", "inf"), "finite"),
        (("--bot-delay", "-1"), "--bot-delay must be from 0"),
        (("--port", "70000"), "--port 70000: give a whole number from 1 to 65535"),
        (("--database-url", "mysql://u@h/d"), "not mysql"),
        (("--trusted-proxies", "my-proxy"), "--trusted-proxies 'my-proxy': 'my-proxy' is not an address or a network"),
        (("--trusted-proxies", ""), "is not an address or a network"),
        (("--trusted-proxies", "10.0.0.1,"), "is not an address or a network"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    line = cli_error_line(capsys, ["serve", "--port", "48031", "--database-url", f"sqlite:///{tmp_path}/t.db", *args])
    assert words in line
    assert started == []


def test_every_limit_is_a_flag_whose_default_is_the_settings_own(tmp_path: Path, started: list[dict[str, Any]]) -> None:
    from thirtyone.cli.serve import LIMIT_FLAGS
    from thirtyone.server import ServerSettings

    assert main(serve(tmp_path)) == 0
    settings = started[-1]["settings"]
    for name, kind, default, _words in LIMIT_FLAGS:
        assert getattr(ServerSettings(), name) == kind(default), name
        assert getattr(settings, name) == kind(default), name
    args = (
        "--max-spectators",
        "3",
        "--hints-per-round",
        "0",
        "--open-table-expiry",
        "30",
        "--tables-per-minute",
        "0.5",
        "--hint-wait",
        "45",
    )
    assert main(serve(tmp_path, *args)) == 0
    settings = started[-1]["settings"]
    assert (settings.max_spectators, settings.hints_per_round, settings.open_table_expiry) == (3, 0, 30.0)
    assert settings.tables_per_minute == 0.5
    assert settings.hint_wait == 45.0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--max-connections", "0"), "--max-connections must be from 1 to 1000000"),
        (("--max-connections-per-seat", "2.5"), "--max-connections-per-seat '2.5': give a whole number"),
        (("--hint-workers", "100"), "--hint-workers must be from 0 to 64"),
        (("--open-table-expiry", "soon"), "--open-table-expiry 'soon': give a number"),
        (("--requests-per-second", "0"), "--requests-per-second must be from 0.1"),
        (("--hint-wait", "0.5"), "--hint-wait must be from 1"),
    ],
)
def test_bad_limits_are_one_line_errors(
    tmp_path: Path, started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    assert words in cli_error_line(capsys, serve(tmp_path, *args))
    assert started == []


@pytest.mark.parametrize(
    ("given", "headers", "allowed"),
    [
        (None, True, ["127.0.0.1", "::1"]),  # loopback: a proxy on this machine, as Uvicorn has it
        ("none", False, []),  # X-Forwarded-For is never read
        ("NONE", False, []),
        ("10.0.0.5, 192.168.1.0/24", True, ["10.0.0.5", "192.168.1.0/24"]),
    ],
)
def test_the_trusted_proxies_reach_uvicorn(
    tmp_path: Path, started: list[dict[str, Any]], given: str | None, headers: bool, allowed: list[str]
) -> None:
    assert main(serve(tmp_path, *(() if given is None else ("--trusted-proxies", given)))) == 0
    assert (started[-1]["proxy_headers"], started[-1]["forwarded_allow_ips"]) == (headers, allowed)
    assert started[-1]["door"].proxied is headers  # no proxy: the door counts forwarded upgrades too
