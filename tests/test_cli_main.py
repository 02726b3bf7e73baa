"""The command line as a module: ``python -m thirtyone``."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from thirtyone.cli import bots as bots_cli
from thirtyone.cli import main
from thirtyone.cli.stopping import stopping


def test_python_dash_m_runs_the_command():
    result = subprocess.run(
        [sys.executable, "-m", "thirtyone", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("thirtyone ")


@pytest.mark.parametrize(("name", "status", "word"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_a_stop_no_command_handles_is_said_in_its_own_word_and_status(capsys, monkeypatch, ctrl_c, name, status, word):
    """A SIGTERM that escaped a command's own handling was said 'interrupted' with 130, Ctrl-C's
    (issue 42). The real signal comes in stopping()'s block of a command that reports nothing."""

    def run(_args):
        with stopping():
            signal.raise_signal(getattr(signal, name))
        return 0

    monkeypatch.setattr(bots_cli, "run", run)
    assert main(["bots"]) == status
    assert capsys.readouterr().err == f"thirtyone: {word}\n"
