"""axe-core's accessibility check of a page in the browser (the rules it finds violated)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import pytest

import support.web  # noqa: F401 - skips the importing module without a browser

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core's browser script, as ``npm ci`` installs it (package.json pins its version)."""


def violations(page: Page) -> list[dict[str, Any]]:
    """What axe-core finds wrong in ``page`` as it is now: each violated rule's id, impact and
    (at most four of) the elements that violate it, with axe's reason."""
    if not AXE.exists():
        if os.environ.get("THIRTYONE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{AXE} is missing: run npm ci")
        pytest.skip("needs axe-core: npm ci")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")  # evaluated, not a script tag: the CSP allows it
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map((rule) => ({"
        " id: rule.id, impact: rule.impact,"
        " nodes: rule.nodes.slice(0, 4).map((node) => [node.target.join(' '), node.failureSummary]) }))"
    )
    return list(found)
