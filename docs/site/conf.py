"""Sphinx configuration of the docs site: the README, every page of docs/ and the API reference.

Build it from the repository's root (the one command, as in the README)::

    .venv/bin/pip install -e '.[docs]'
    .venv/bin/sphinx-build -W --keep-going -c docs/site -b html . build/docs

The source folder is the repository itself, so that the README and docs/*.md are pages as they
stand, their links between each other and to their pictures working as they do on a forge; this
folder holds only the site's own pages (the front page, the API reference) and this file. The API
reference is generated from the docstrings (autodoc, napoleon for their ``Raises:`` and ``Args:``
sections); ``internal_links`` then checks every link between the built pages.

The examples are doctests, run by pytest and not again here: the docstrings' with
``--doctest-modules``, the Markdown pages' with ``--doctest-glob`` (pyproject.toml). A page with an
example (``>>>``) that pytest does not run is a warning of this build.

Sphinx rather than MkDocs: the docstrings are reStructuredText (``:func:`x```, ``:class:``, tables,
``Raises:`` sections), which autodoc and napoleon read as they are; mkdocstrings reads Google or
NumPy style Markdown and would show the roles as text.
"""

from __future__ import annotations

import pkgutil
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))  # internal_links, the site's own extension

project = "thirtyone"
author = "the thirtyone authors"
copyright = "the thirtyone authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "internal_links",
]

# The pages: the README and docs/ (with docs/glossary/) in Markdown, this folder's own pages.
root_doc = "docs/site/index"
include_patterns = ["README.md", "docs/*.md", "docs/glossary/*.md", "docs/site/**"]
exclude_patterns = [".*", "build", "node_modules", "src", "tests", "docs/site/_templates"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}

# Markdown as GitHub reads it: headings get GitHub's anchors (the pages link #reviewing-a-game),
# and the README's <img> of the phone is a picture of the site too.
myst_heading_anchors = 4
myst_enable_extensions = ["html_image"]

# The API reference: the packages that api.md lists, each module a page of its own, generated
# (into generated/, not kept in git) from the docstrings. Modules that need an optional extra
# import against stand-ins, so the docs need neither OpenSpiel, PyTorch, Stable-Baselines3,
# PettingZoo, Gymnasium nor Ray: `pip install -e '.[docs]'` is enough, and the pages are the same
# whichever extras are installed.
autosummary_generate = True
autodoc_mock_imports = [
    "gymnasium",
    "open_spiel",
    "pettingzoo",
    "pyspiel",
    "ray",
    "sb3_contrib",
    "shimmy",
    "stable_baselines3",
    "torch",
]
# A module documents what it defines; a package's re-exports are documented where they are defined.
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# The packages of the public library are those api.md lists; thirtyone's own page lists only its
# modules (the core's), not its packages (the faces, the judge: no part of the reference yet).
PACKAGE = ROOT / "src" / "thirtyone"
NOT_PUBLIC = ["thirtyone.__main__"] + [
    f"thirtyone.{info.name}" for info in pkgutil.iter_modules([str(PACKAGE)]) if info.ispkg
]
autosummary_context = {"not_public": NOT_PUBLIC}  # read by _templates/autosummary/module.rst
# Listing a package's modules imports each of them: the faces (and `python -m thirtyone`, which
# would run the command line) are stood in for instead; the library imports none of them.
FACES = ["thirtyone.__main__", "thirtyone.cli", "thirtyone.server", "thirtyone.tui", "thirtyone.web"]
autosummary_mock_imports = autodoc_mock_imports + FACES

# The JSON of docs/server-protocol.md stands a name (TABLE) where a value goes: Pygments highlights
# it leniently, which is what we want, and says so in a warning.
suppress_warnings = ["misc.highlighting_failure"]
# The pages are written as a forge shows them: `--strict` stays two hyphens, quotes stay straight
# (the dash between a field's name and its text is an en dash still: FieldDashes).
smartquotes = False

html_theme = "furo"
html_title = "thirtyone"
# The front page is docs/site/index.html (the pages keep their places in the repository); the
# build's own index.html leads there.
html_additional_pages = {"index": "redirect.html"}
templates_path = [str(HERE / "_templates")]  # absolute: autosummary reads it from the source folder, HTML from here


class FolderLinks(SphinxPostTransform):
    """A link to a folder (``[glossary/](glossary/)``) leads to its README's page, as on a forge;
    a folder without one is no page of the site, so its link keeps only its text. Runs before
    myst resolves the links, which would call a folder a missing document."""

    default_priority = 8

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node["reftype"] != "myst" or node["refdomain"] is not None:
                continue
            _, folder = self.env.relfn2path(node["reftarget"], node.get("refdoc", self.env.docname))
            if not Path(folder).is_dir():
                continue
            readme = self.env.path2doc(str(Path(folder) / "README.md"))
            if readme in self.env.found_docs:
                node["refdomain"], node["reftarget"], node["reftargetid"] = "doc", readme, None
            else:
                node.replace_self(node.children)


logger = logging.getLogger(__name__)


class FieldDashes(SphinxPostTransform):
    """The " -- " Sphinx puts between a field's name and its text ("PositionError -- naming …"),
    which its smart quotes (off here) would make an en dash, is one."""

    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.Text)):
            if node.astext() == " -- ":
                node.parent.replace(node, nodes.Text(" \N{EN DASH} "))


RAISES_WHEN = re.compile(r"^(\s*)Raises \((.+)\):\s*$")


def raises_when(app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]) -> None:
    """The docstrings' ``Raises (before the first batch):`` becomes napoleon's ``Raises:`` section
    after a line that keeps the when ("Raised before the first batch:")."""
    for index, line in enumerate(lines):
        match = RAISES_WHEN.match(line)
        if match:
            indent, when = match.groups()
            lines[index : index + 1] = [f"{indent}Raised {when}:", "", f"{indent}Raises:"]


STAND_IN_NAME = re.compile(r"[\w.]+")


def stand_in_bases(app: Sphinx, name: str, obj: object, options: object, bases: list[Any]) -> None:
    """A base class from an optional extra is a stand-in (autodoc_mock_imports): name it by its
    class alone, ``gymnasium.Env``, not by the stand-in of ``gymnasium.Env[ObsType, ActType]``."""
    for index, base in enumerate(bases):
        if getattr(base, "__sphinx_mock__", False):
            name = STAND_IN_NAME.match(base.__display_name__)
            bases[index] = f":py:class:`{name.group(0).rstrip('.') if name else base.__display_name__}`"


def _loaded(name: str) -> object | None:
    """The object a dotted name names among the modules already imported, or None."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        module = sys.modules.get(".".join(parts[:split]))
        if module is not None:
            found: object = module
            for part in parts[split:]:
                found = getattr(found, part, None)
                if found is None:
                    return None
            return found
    return None


def reexported(app: Sphinx, env: Any, node: addnodes.pending_xref, contnode: Any) -> Any:
    """A reference to a name a package re-exports (``:func:`play_rounds``` in thirtyone.sim,
    :class:`thirtyone.Game`) leads to where it is documented, the module that defines it."""
    if node.get("refdomain") != "py":
        return None
    target, module = node["reftarget"], node.get("py:module")
    for name in [f"{module}.{target}", target] if module else [target]:
        found = _loaded(name)
        defined_in, qualname = getattr(found, "__module__", None), getattr(found, "__qualname__", None)
        if isinstance(defined_in, str) and isinstance(qualname, str) and f"{defined_in}.{qualname}" != name:
            return env.get_domain("py").resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], f"{defined_in}.{qualname}", node, contnode
            )
    return None


def _doctest_pages() -> set[str]:
    """The Markdown pages pytest runs as doctests: its testpaths that --doctest-glob names."""
    pytest = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    globs = re.findall(r"--doctest-glob=(\S+)", pytest["addopts"])
    return {path for path in pytest["testpaths"] if any(Path(path).match(glob) for glob in globs)}


DOCTEST_PAGES = _doctest_pages()


def examples_are_doctests(app: Sphinx, docname: str, source: list[str]) -> None:
    """Warn of a Markdown page with an example (``>>>``) that pytest does not run."""
    path = app.env.doc2path(docname, base=False)
    if path.suffix == ".md" and re.search(r"^>>> ", source[0], re.MULTILINE) and str(path) not in DOCTEST_PAGES:
        logger.warning(
            "%s has examples (>>>) that pytest does not run: add it to pyproject.toml's testpaths and --doctest-glob",
            path,
            location=docname,
        )


def every_page_in_the_site(app: Sphinx, docname: str, source: list[str]) -> None:
    """The front page's tables of contents list the pages of docs/ in a reader's order; a page
    they do not name yet (a new one) is listed under "More pages", so that every page is in the
    site and its navigation."""
    if docname != root_doc:
        return
    unlisted = [
        page
        for page in sorted(app.env.found_docs)
        if page.startswith("docs/")
        and not page.startswith("docs/site/")
        and not re.search(rf"/{re.escape(page)}(>|$)", source[0], re.MULTILINE)
    ]
    if unlisted:
        pages = "\n".join(f"/{page}" for page in unlisted)
        source[0] += f"\n```{{toctree}}\n:caption: More pages\n:maxdepth: 1\n\n{pages}\n```\n"


def front_page_again(app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """The front page is read at every build: a page added to docs/ may change it."""
    return [root_doc]


def setup(app: Sphinx) -> None:
    app.connect("source-read", examples_are_doctests)
    app.connect("source-read", every_page_in_the_site)
    app.connect("env-get-outdated", front_page_again)
    app.add_post_transform(FolderLinks)
    app.add_post_transform(FieldDashes)
    app.connect("autodoc-process-docstring", raises_when, priority=400)  # before napoleon (500)
    app.connect("autodoc-process-bases", stand_in_bases)
    app.connect("missing-reference", reexported)
