"""Helpers for the command line's tests."""

from __future__ import annotations

import pytest

from thirtyone.cli import main


def cli_error_line(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """Run the CLI with ``args``, check that it fails as the CLI must (exit 2, nothing on stdout,
    one ``thirtyone: error:`` line, no traceback) and return that line."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().split("\n")
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("thirtyone: error: ")
    assert "Traceback" not in captured.err
    return lines[0]
