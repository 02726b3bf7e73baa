"""The checks CI makes besides the tests: ruff (lint and format) and mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint():
    result = run("ruff", "check", "src", "tests", "benchmarks", "examples")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = run("ruff", "format", "--check", "src", "tests", "benchmarks", "examples")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict():
    result = run("mypy", "--strict", "src/thirtyone")
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_lists_every_preset_and_option():
    from thirtyone.rules import OPTIONS, PRESETS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"`{name}`" in readme, f"README does not describe preset {name}"
    for name in OPTIONS:
        assert f"| `{name}` |" in readme, f"README's option table lacks {name}"


def test_the_rules_in_docs_are_the_team_specification():
    shared = ROOT.parent / "shared" / "RULES.md"
    if not shared.exists():
        pytest.skip("the team's shared folder is not beside this checkout")
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")
