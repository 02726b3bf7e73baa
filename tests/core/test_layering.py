"""Imports point down only (docs/architecture.md, "Layers"). The core stays the core: every core
module imports only the standard library's modules on an allow-list and other core modules — never
a face, a player, the fast simulator or a third-party package. Above it each layer imports only the
layers below it (:data:`LAYERS`), and no module imports the ``__init__`` of its own package. Read
from the source, so a lazy import inside a function, or one for type checking only, counts as much
as one at the top."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "thirtyone"

CORE = (
    "__init__", "action_ids", "actions", "cards", "chance", "checks", "engine", "errors", "events", "fairness",
    "narration", "position", "record", "refusals", "rules", "scoring", "settlement", "strategy", "table_loop", "text",
    "totals", "views",
)  # fmt: skip
"""The core's modules (thirtyone/<name>.py) and packages (thirtyone/<name>/)."""


def core_files(name: str) -> list[Path]:
    """The source files of core module or package ``name``."""
    package = PACKAGE / name
    return sorted(package.glob("*.py")) if package.is_dir() else [PACKAGE / f"{name}.py"]


STANDARD_LIBRARY = {
    "__future__", "base64", "binascii", "collections", "copy", "dataclasses", "datetime", "enum", "fractions", "json",
    "functools", "hashlib", "hmac", "itertools", "operator", "random", "re", "socket", "tomllib", "typing",
    "unicodedata",
}  # fmt: skip
"""The standard-library modules the core may use (a new one is a deliberate choice: add it here)."""

LAYERS = (
    ("core",),
    ("i18n",),
    ("sim",),
    ("judge",),
    ("bots",),
    ("agents", "arena"),
    ("server", "tui"),
    ("cli",),
)
"""The layers from the bottom up, each the packages of ``thirtyone`` in it (``core``: the modules in
:data:`CORE`; ``thirtyone.__main__`` is the command line's). A module imports its own package and
the layers below its own only: not one above, nor another package of its own layer (the agents and
the arena know nothing of each other, nor do the terminal game and the server)."""

RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}
LAYERS_ABOVE = tuple(sorted(package for package in RANK if package != "core"))


def module_name(path: Path, src: Path = SRC) -> str:
    """The dotted name of the module at ``path`` under ``src`` (a package's ``__init__`` is the package)."""
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_lines(path: Path, src: Path = SRC) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it, with its line: ``from thirtyone.bots import
    make_bot`` imports ``thirtyone.bots`` (the package's ``__init__``), ``from thirtyone.bots import
    levels`` the module ``thirtyone.bots.levels`` (a file or package under ``src``); relative
    imports are resolved."""
    package = module_name(path, src).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            head = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*head, *([node.module] if node.module else [])])
            for alias in node.names:
                inner = src.joinpath(*base.split("."), alias.name)
                is_module = inner.with_suffix(".py").exists() or (inner / "__init__.py").exists()
                found.append((node.lineno, f"{base}.{alias.name}" if is_module else base))
    return found


def imports(path: Path, src: Path = SRC) -> set[str]:
    """Every module ``path`` imports, anywhere in it (:func:`import_lines`)."""
    return {module for _, module in import_lines(path, src)}


def test_every_core_module_is_checked() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - {"__main__"}
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()} - set(LAYERS_ABOVE)
    assert modules | packages == set(CORE), (
        "a new module at the package's top is core: list it in CORE (or move it); a new package: place it in LAYERS"
    )


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
    assert imports(module, tmp_path) == {"thirtyone.tui", "numpy"}


def layer(module: str) -> str:
    """The layer of ``thirtyone`` that module ``module`` belongs to (a key of :data:`RANK`)."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in CORE:
        return "core"
    return "cli" if parts[1] == "__main__" else parts[1]


def layering_faults(src: Path = SRC) -> list[str]:
    """Every import of a module under ``src/thirtyone`` that points up a layer, across to another
    package of its own layer, or back to the ``__init__`` of a package of its own layer that holds
    it (a name the package defines for the others: move it to a module of its own), one line each."""
    faults: list[str] = []
    for path in sorted((src / "thirtyone").rglob("*.py")):
        name = module_name(path, src)
        own = layer(name)
        holders = [".".join(name.split(".")[:end]) for end in range(1, name.count(".") + 1)]
        for line, module in import_lines(path, src):
            if not module.startswith("thirtyone"):
                continue
            where = f"{name} (line {line}) imports {module}"
            other = layer(module)
            if other not in RANK:
                faults.append(f"{where}: {other} is in no layer (place it in LAYERS)")
            elif RANK[other] > RANK[own]:
                faults.append(f"{where}: {other} sits above {own}")
            elif RANK[other] == RANK[own] and other != own:
                faults.append(f"{where}: {other} and {own} are one layer, and neither imports the other")
            elif module in holders and layer(module) == own:
                faults.append(f"{where}, the __init__ of its own package: import the module that defines the name")
    return faults


def test_every_import_points_down_a_layer() -> None:
    assert layering_faults() == []


def test_the_layer_check_sees_upward_sideways_and_own_package_imports(tmp_path: Path) -> None:
    files = {
        "__init__.py": "",
        "engine.py": "from thirtyone import Game\n",
        "sim/__init__.py": "",
        "sim/api.py": "from thirtyone.sim import api\n\ndef f():\n    from thirtyone.bots import make_bot\n",
        "judge/__init__.py": "",
        "judge/network.py": "from ..bots import base\nfrom . import network\nimport numpy\n",
        "bots/__init__.py": "from thirtyone.bots.base import make_bot\n",
        "bots/base.py": "from thirtyone import Game\nfrom thirtyone.judge import network\n",
        "bots/levels.py": "from thirtyone.bots import make_bot\nfrom thirtyone.bots import base\n",
        "tui/__init__.py": "",
        "tui/app.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import thirtyone.server.app\n",
        "server/__init__.py": "",
        "server/app.py": "import thirtyone.cli\n",
        "cli/__init__.py": "import thirtyone.tui.app\nimport thirtyone.server.app\n",
        "__main__.py": "from thirtyone.cli import main\n",
    }
    for name, text in files.items():
        (tmp_path / "thirtyone" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "thirtyone" / name).write_text(text, encoding="utf-8")
    assert layering_faults(tmp_path) == [
        "thirtyone.bots.levels (line 1) imports thirtyone.bots, the __init__ of its own package: "
        "import the module that defines the name",
        "thirtyone.engine (line 1) imports thirtyone, the __init__ of its own package: import the module that "
        "defines the name",
        "thirtyone.judge.network (line 1) imports thirtyone.bots.base: bots sits above judge",
        "thirtyone.server.app (line 1) imports thirtyone.cli: cli sits above server",
        "thirtyone.sim.api (line 4) imports thirtyone.bots: bots sits above sim",
        "thirtyone.tui.app (line 3) imports thirtyone.server.app: server and tui are one layer, and neither "
        "imports the other",
    ]


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
