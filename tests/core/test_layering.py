"""The core stays the core (DESIGN.md, layers): every core module imports only the standard
library's modules on an allow-list and other core modules — never a face, a player, the fast
simulator or a third-party package. Read from the source, so a lazy import inside a function
counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "thirtyone"

CORE = (
    "__init__", "actions", "cards", "chance", "checks", "engine", "errors", "events", "fairness", "position",
    "record", "rules", "scoring", "settlement", "strategy", "text", "views",
)  # fmt: skip
"""The core's modules (thirtyone/<name>.py)."""

STANDARD_LIBRARY = {
    "__future__", "base64", "binascii", "collections", "copy", "dataclasses", "datetime", "enum", "fractions",
    "functools", "hashlib", "hmac", "itertools", "operator", "random", "re", "tomllib", "typing",
}  # fmt: skip
"""The standard-library modules the core may use (a new one is a deliberate choice: add it here)."""

LAYERS_ABOVE = ("agents", "arena", "bots", "cli", "server", "sim", "tui", "web")


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
    assert modules == set(CORE), "a new module at the package's top is core: list it in CORE (or move it)"


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_imports_the_allowed_standard_library_and_the_core_only(name: str) -> None:
    for module in sorted(imports(PACKAGE / f"{name}.py")):
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
