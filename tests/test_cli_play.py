"""``thirtyone play`` and signals: SIGTERM and SIGHUP (the terminal closed) quit the game the way
``q`` does, saving the record, and the command then exits with ``128 +`` the signal's number (143,
129), as a shell reports a process a signal stopped, not 0."""

from __future__ import annotations

import errno
import os
import select
import signal
import sys
from pathlib import Path

import pytest

from thirtyone.cli import main
from thirtyone.cli import play as play_cli
from thirtyone.tui.app import ThirtyOneApp

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")


class Quits:
    """Stands in for ``ThirtyOneApp.run``: sends ``number`` to this process (or nothing) and
    returns, as the app does once the signal handler has asked it to quit."""

    def __init__(self, number: int | None) -> None:
        self.number = number
        self.quits = 0
        self.saves = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        helper = self

        def run(app: ThirtyOneApp) -> None:
            monkeypatch.setattr(app, "request_quit", helper.request_quit)
            monkeypatch.setattr(app, "autosave", helper.autosave)
            if helper.number is not None:
                signal.raise_signal(helper.number)

        monkeypatch.setattr(ThirtyOneApp, "run", run)
        monkeypatch.setattr(play_cli, "interactive", lambda: True)

    def request_quit(self) -> None:
        self.quits += 1

    def autosave(self) -> None:
        self.saves += 1


@pytest.mark.parametrize(("name", "status"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_signal_quits_saving_and_exits_non_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, status: int
) -> None:
    app = Quits(getattr(signal, name))
    app.install(monkeypatch)
    before = signal.getsignal(getattr(signal, name))
    assert main(["play", "--seed", "1"]) == status
    assert (app.quits, app.saves) == (1, 1)
    assert capsys.readouterr().err == f"thirtyone: stopped by {name}\n"
    assert signal.getsignal(getattr(signal, name)) == before  # handlers restored


def test_quitting_without_a_signal_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    app = Quits(None)
    app.install(monkeypatch)
    assert main(["play", "--seed", "1"]) == 0
    assert (app.quits, app.saves) == (0, 1)
    assert capsys.readouterr().err == ""


class GoneTerminal:
    """Standard error after the terminal closed: every write fails with EIO."""

    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")


def test_a_closed_terminal_still_exits_with_the_signal_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the terminal closed (SIGHUP), writing "stopped by SIGHUP" failed with EIO and
    the command exited 1 instead of 129."""
    app = Quits(signal.SIGHUP)
    app.install(monkeypatch)
    monkeypatch.setattr(sys, "stderr", GoneTerminal())
    assert main(["play", "--seed", "1"]) == 129
    assert (app.quits, app.saves) == (1, 1)


def test_signal_status() -> None:
    assert play_cli.signal_status(signal.SIGTERM) == 143
    assert play_cli.signal_status(signal.SIGHUP) == 129


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal as Linux gives it")
@pytest.mark.parametrize(("name", "status"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_the_game_in_a_terminal_saves_and_exits_non_zero_on_a_signal(tmp_path: Path, name: str, status: int) -> None:
    import fcntl
    import pty
    import struct
    import termios

    record = tmp_path / "game.toml"
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        code = "import sys; from thirtyone.cli import main; sys.exit(main(sys.argv[1:]))"
        os.execv(sys.executable, [sys.executable, "-c", code, "play", "--seed", "1", "--fast", "--record", str(record)])
    try:
        # press "s" (draw from the stock) until the first move is saved; a select that waits in
        # vain 600 times (about a minute) fails the test instead of hanging it
        idle = 0
        while not record.exists():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                os.read(fd, 65536)
                idle = 0
            else:
                idle += 1
                assert idle < 600, "the game never saved its first move"
            os.write(fd, b"s")
        os.kill(pid, getattr(signal, name))
        idle = 0
        while True:  # drain the screen until the child closes the terminal (EOF or EIO)
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                idle += 1
                assert idle < 600, f"the game did not end on {name}"
                continue
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break
        _, wait_status = os.waitpid(pid, 0)
        pid = 0
        assert os.waitstatus_to_exitcode(wait_status) == status
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert record.exists()


def test_a_bot_that_cannot_play_the_table_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started = []
    monkeypatch.setattr(ThirtyOneApp, "run", lambda self, *a, **k: started.append(self))
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    assert main(["play", "--bots", "judge", "--preset", "namu", "--no-history"]) == 2
    error = capsys.readouterr().err.strip()
    assert started == []
    assert error.count("\n") == 0
    assert "--bots judge: the judge's weights were made for scat, schwimmen, widow, not namu" in error
