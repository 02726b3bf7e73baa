"""The checks CI makes besides the tests: ruff (lint and format) and mypy --strict."""

from __future__ import annotations

import ast
import re
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
    from thirtyone.rules import OPTIONS
    from thirtyone.rules import PRESETS

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


def test_every_action_the_docs_quote_is_written_in_the_notation():
    """Regression: docs/server-protocol.md gave ``"exchange 7h Td"``, which the notation refuses."""
    import re

    from thirtyone.actions import parse_action

    quoted = re.compile(r'`"?(draw [^`"]*|discard \S\S|exchange [^`"]*|take widow|throw down)"?`')
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in quoted.finditer(path.read_text(encoding="utf-8")):
            found.append((path.name, match.group(1)))
            parse_action(match.group(1))  # raises for text the notation does not read
    assert ("server-protocol.md", "exchange 7h for Td") in found


_JS_IMPORT = re.compile(r'^import\b[^;]*?from\s+"\./([\w.-]+\.js)"', re.MULTILINE | re.DOTALL)


def js_circle(folder: Path) -> list[str]:
    """A circle of imports among the page's modules in ``folder`` (``["a.js", "b.js", "a.js"]``), or
    ``[]``: every import must point down, a part asking above it through ``state.hooks`` or a
    callback it is given (docs/architecture.md)."""
    imports = {path.name: _JS_IMPORT.findall(path.read_text(encoding="utf-8")) for path in folder.glob("*.js")}
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return []
        for target in imports.get(name, []):
            if found := walk(target, [*path, name]):
                return found
        done.add(name)
        return []

    for name in sorted(imports):
        if found := walk(name, []):
            return found
    return []


def test_the_pages_modules_import_in_one_direction(tmp_path: Path) -> None:
    assert js_circle(ROOT / "src/thirtyone/web/js") == []
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import {\n  a,\n} from "./a.js";\nexport const b = 2;\n')
    assert js_circle(tmp_path) == ["a.js", "b.js", "a.js"]  # the check sees one


def importers_of_test_modules(folder: Path) -> list[str]:
    """Where a module under ``folder`` imports a test module (``test_*``, ``core.test_*``), as ``"path: module"``:
    what tests share lives in tests/support/ (and the core's deals in tests/helpers.py), so that
    editing one test module breaks no other. tests/data/ is left out: its scripts made its files
    with the code of their own commit."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        if "data" in path.relative_to(folder).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
                modules = [node.module]
            else:
                continue
            found += [
                f"{path.relative_to(folder)}: {name}"
                for name in modules
                if any(part.startswith("test_") for part in name.split("."))
            ]
    return found


def test_no_test_module_imports_another(tmp_path: Path) -> None:
    assert importers_of_test_modules(ROOT / "tests") == []
    (tmp_path / "support").mkdir()
    (tmp_path / "support" / "web.py").write_text("from support.server import SEED\n")
    (tmp_path / "test_a.py").write_text("from support.web import SEED\n")
    (tmp_path / "test_b.py").write_text("def test_b():\n    from test_a import SEED\n")
    (tmp_path / "conftest.py").write_text("import test_b\n")
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "test_c.py").write_text("from core.test_d import d\n")
    assert importers_of_test_modules(tmp_path) == [  # the check sees them
        "conftest.py: test_b",
        "core/test_c.py: core.test_d",
        "test_b.py: test_a",
    ]
