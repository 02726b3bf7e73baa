"""The core stays the core (DESIGN.md, layers): every core module imports only the standard
library's modules on an allow-list and other core modules — never a face, a player, the fast
simulator or a third-party package. Read from the source, so a lazy import inside a function
counts as much as one at the top."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "thirtyone"

CORE = (
    "__init__", "action_ids", "actions", "cards", "chance", "checks", "engine", "errors", "events", "fairness",
    "position", "record", "refusals", "rules", "scoring", "settlement", "strategy", "text", "totals", "views",
)  # fmt: skip
"""The core's modules (thirtyone/<name>.py) and packages (thirtyone/<name>/)."""


def core_files(name: str) -> list[Path]:
    """The source files of core module or package ``name``."""
    package = PACKAGE / name
    return sorted(package.glob("*.py")) if package.is_dir() else [PACKAGE / f"{name}.py"]


STANDARD_LIBRARY = {
    "__future__", "base64", "binascii", "collections", "copy", "dataclasses", "datetime", "enum", "fractions", "json",
    "functools", "hashlib", "hmac", "itertools", "operator", "random", "re", "tomllib", "typing", "unicodedata",
}  # fmt: skip
"""The standard-library modules the core may use (a new one is a deliberate choice: add it here)."""

LAYERS_ABOVE = ("agents", "arena", "bots", "cli", "i18n", "judge", "server", "sim", "tui", "web")


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (relative imports resolved)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            found.add(f"thirtyone.{base}" if node.level else base)
    return found


def test_every_core_module_is_checked() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__main__"}
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()} - set(LAYERS_ABOVE)
    assert modules | packages == set(CORE), "a new module at the package's top is core: list it in CORE (or move it)"


@pytest.mark.parametrize("path", [path for name in CORE for path in core_files(name)], ids=str)
def test_a_core_module_imports_the_allowed_standard_library_and_the_core_only(path: Path) -> None:
    name = path.stem
    for module in sorted(imports(path)):
        top, _, rest = module.partition(".")
        if top == "thirtyone":
            inner = rest.split(".")[0]
            assert inner not in LAYERS_ABOVE, f"thirtyone.{name} imports {module}, a layer above the core"
            assert inner in CORE, f"thirtyone.{name} imports {module}, which is not a core module"
        else:
            assert top in STANDARD_LIBRARY, f"thirtyone.{name} imports {module}: not on the core's allow-list"


def test_the_check_sees_a_face_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("def f():\n    from thirtyone.tui import app\n    import numpy\n", encoding="utf-8")
    assert imports(module) == {"thirtyone.tui", "numpy"}


def top_level_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it is loaded: its top-level statements, not a function's body
    nor a ``try`` that can catch the ImportError."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


TEST_TOOLS = {"pytest", "hypothesis", "_pytest"}
CORE_TESTS = [*sorted(Path(__file__).parent.glob("*.py")), Path(__file__).parents[1] / "helpers.py"]
"""tests/core and the one shared module they load, tests/helpers.py."""
CORE_TEST_MODULES = {path.stem for path in CORE_TESTS}


@pytest.mark.parametrize("path", CORE_TESTS, ids=lambda path: path.name)
def test_the_core_tests_load_with_pytest_and_hypothesis_alone(path: Path) -> None:
    # .ci/run runs tests/core in a virtual environment with only these two: numpy there fails collection.
    for module in sorted(top_level_imports(path)):
        top, _, rest = module.partition(".")
        if top == "thirtyone":
            assert rest.split(".")[0] in {"", *CORE}, f"{path.name} imports {module}, which is not a core module"
        else:
            known = sys.stdlib_module_names | TEST_TOOLS | CORE_TEST_MODULES
            assert top in known, (
                f"{path.name} imports {module} when loaded: import it inside the test, or skip without it"
            )


def test_the_test_check_sees_numpy_at_the_top(tmp_path: Path) -> None:
    module = tmp_path / "bad_test.py"
    module.write_text("import numpy as np\ntry:\n    import scipy\nexcept ImportError:\n    pass\n", encoding="utf-8")
    assert top_level_imports(module) == {"numpy"}
