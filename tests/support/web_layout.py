"""Where things lie on a page: the boxes of what a selector finds, whether boxes overlap or one lies
inside another, and whether every seat's lives can be read whole."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from support.web import expect  # Playwright's, once support.web has skipped a module without a browser

if TYPE_CHECKING:
    from playwright.sync_api import Page

BOX = "(n) => { const r = n.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"


def settle(page: Page) -> None:
    """Wait for the page to be laid out anew (after a resize: its ResizeObserver, then a frame)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    """The boxes of what ``selector`` finds and the page shows (not hidden, not of no size)."""
    return list(
        page.evaluate(
            f"(s) => [...document.querySelectorAll(s)].filter((n) => n.getClientRects().length && n.checkVisibility())"
            f".map({BOX})",
            selector,
        )
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes overlap by more than half a pixel each way."""
    return (
        a["x"] < b["x"] + b["w"] - 0.5
        and b["x"] < a["x"] + a["w"] - 0.5
        and a["y"] < b["y"] + b["h"] - 0.5
        and b["y"] < a["y"] + a["h"] - 0.5
    )


def assert_apart(groups: dict[str, list[dict[str, float]]], where: str) -> None:
    """No box of one group lies over a box of another."""
    for (one, first), (other, second) in itertools.combinations(groups.items(), 2):
        for a in first:
            for b in second:
                assert not overlap(a, b), f"{where}: a {one} and a {other} overlap: {a} {b}"


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 0.5) -> bool:
    """Whether a box lies within another, give or take `slack` pixels on each side."""
    return (
        inner["x"] >= outer["x"] - slack
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + slack
        and inner["y"] >= outer["y"] - slack
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + slack
    )


def assert_lives_read(page: Page, seats: int, lives: int, where: str = "") -> None:
    """Every one of ``seats`` plates shows its lives whole, at the start of a game of ``lives``: no
    penny or number cut or squeezed in its box, the dole on every plate, twenty as a number."""
    plates = page.locator(".seat .lives[role=img]")
    expect(plates).to_have_count(seats)
    for i in range(seats):
        lives_node = plates.nth(i)
        said = f"{where} {lives_node.inner_html()}"
        assert lives_node.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1"), said
        outer = lives_node.evaluate(BOX)
        for child in lives_node.locator(":scope > *").all():
            assert inside(child.evaluate(BOX), outer), said
            assert child.evaluate("(n) => n.getBoundingClientRect().width >= n.scrollWidth - 1"), said  # not squeezed
        assert lives_node.locator(".grace").count() == 1, said  # the dole is on every plate
        if lives > 5:
            assert str(lives) in lives_node.inner_text(), said  # the number, not five pennies of twenty
