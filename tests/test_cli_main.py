"""The command line as a module: ``python -m thirtyone``."""

from __future__ import annotations

import subprocess
import sys


def test_python_dash_m_runs_the_command():
    result = subprocess.run(
        [sys.executable, "-m", "thirtyone", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("thirtyone ")
