"""Helpers for the command line's tests: its one-line errors, and bots with long names for its tables
at 80 columns."""

from __future__ import annotations

import re
from pathlib import Path

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


LONG_NAME = "a_bot_module_whose_name_is_long_enough_to_wrap_in_any_table_{}"


def long_named_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Two ``module:factory`` bots (both play ``basic``) whose names differ only at their end."""
    names = []
    for which in ("one", "two"):
        module = LONG_NAME.format(which)
        (tmp_path / f"{module}.py").write_text(
            "from thirtyone.bots.basic import BasicBot\n\ndef make(seed=None):\n    return BasicBot(seed)\n",
            encoding="utf-8",
        )
        names.append(f"{module}:make")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    return names


def bot_names_in_tables(text: str) -> list[list[str]]:
    """The ``bot`` column of each table of ``text`` (a rich table with a rule under its header),
    each name put back together from the lines a long one is folded over."""
    lines = text.split("\n")
    tables = []
    for index, line in enumerate(lines):
        column = re.search(r"(?<!\S)bot(?!\S)", lines[index - 1]) if "───" in line else None
        if column is None:
            continue
        start = column.start()  # the column is left-justified under its header
        names: list[str] = []
        for row in lines[index + 1 :]:
            if not row.strip():
                break
            piece = row[start:].split()[0] if row[start : start + 1].strip() else ""
            if (row[:start] + row[start + len(piece) :]).strip() or not names:  # other columns filled: a new row
                names.append(piece)
            else:
                names[-1] += piece
        tables.append(names)
    return tables
