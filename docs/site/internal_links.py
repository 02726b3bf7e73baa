"""The site's own extension: after an HTML build, every link between its pages must lead somewhere.

Each ``href`` and ``src`` of the built pages that names no scheme (no ``https:``, ``mailto:``) must
name a file of the build, and its ``#fragment`` an ``id`` of that page. A broken one is a warning
(so ``sphinx-build -W`` fails), with the page and the link. External links are left alone: CI has
no network.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from urllib.parse import urlsplit

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)


class _Page(HTMLParser):
    """The links (``href``, ``src``) and the ids of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)
            elif name in ("href", "src") and not (tag == "link" and name == "href" and value.startswith("_")):
                self.links.append(value)


def _read(page: Path) -> _Page:
    parsed = _Page()
    parsed.feed(page.read_text(encoding="utf-8"))
    return parsed


def broken_links(outdir: Path) -> list[tuple[Path, str]]:
    """Each (page, link) of the HTML under ``outdir`` whose file or fragment is not there."""
    pages = {page: _read(page) for page in sorted(outdir.rglob("*.html"))}
    broken = []
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append((page, link))
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _read(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append((page, link))
    return broken


def _check(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for page, link in broken_links(outdir):
        logger.warning("broken internal link %r in %s", link, page.relative_to(outdir))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", _check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
