"""The pages for everyone (the real server, Debian's Chromium driven by Playwright, as in
test_web_e2e): axe-core (npm, pinned in package.json; ``npm ci`` installs it) finds no violation
of its rules in the lobby, on your turn and at a round's showdown, in English, German and Urdu,
at 1280x800 and on a phone (390x844; the review's page is checked in test_web_review); and a
whole round is played by the keyboard alone, with the moves' own keys (S, P, K, A, ".", H, W,
1-4, Enter), shown in "How to play": no Tab.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``; there
axe-core must be installed too."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from test_web_e2e import CHROMIUM
from test_web_e2e import SHOWDOWN_OPEN
from test_web_e2e import WAIT_MS
from test_web_e2e import _create
from test_web_e2e import _legal
from test_web_e2e import _seated
from test_web_e2e import new_page
from test_web_e2e import wait_until

if not CHROMIUM.exists():  # pragma: no cover - test_web_e2e skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

AXE = Path(__file__).parents[1] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core's browser script, as ``npm ci`` installs it (package.json pins its version)."""
LANGUAGES = ["en", "de", "ur"]


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_has_no_accessibility_violation(server: str, browser: Browser, lang: str) -> None:
    page = new_page(browser, locale=lang, viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{server}/")
        expect(page.locator("#seat-2")).to_be_attached()
        assert violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_your_turn_and_the_showdown_have_no_accessibility_violation(
    server: str, browser: Browser, lang: str, size: tuple[int, int]
) -> None:
    created = _create(server, "scat", ["human", "easy"], lives=3)
    width, height = size
    phone = {"is_mobile": True, "has_touch": True} if width < 600 else {}
    page = _seated(browser, server, created, locale=lang, viewport={"width": width, "height": height}, **phone)
    try:
        expect(page.locator("#actions button").first).to_be_visible()
        assert violations(page) == []  # the piles named by what they show first; a phone's moves by their names
        play_round_by_keys(page)
        assert violations(page) == []  # the showdown: its badges readable (4.5:1)
    finally:
        page.context.close()


def play_round_by_keys(page: Page) -> list[str]:
    """Play this page's turns by the moves' keys (knock where it may, else draw from the stock and
    discard the first card; in widow mode keep the dealt hand, then pass) until the round's
    showdown shows; returns the keys pressed, one list entry a key."""
    keys: list[str] = []
    deadline = time.monotonic() + WAIT_MS / 1000 * 4
    while not page.evaluate(SHOWDOWN_OPEN):
        assert time.monotonic() < deadline, "the round did not end"
        if not page.locator("#actions-section:not([hidden]) #actions button").count():
            page.wait_for_timeout(25)  # the bot's turn
            continue
        legal = _legal(page)
        turn = (
            ["k"] if "knock" in legal else ["s", "1"] if "draw stock" in legal else ["h"] if "keep" in legal else ["."]
        )
        for key in turn:
            seq = page.get_attribute("body", "data-seq")
            page.keyboard.press(key)
            keys.append(key)
            wait_until(page, f"document.body.dataset.seq !== {json.dumps(seq)} || {SHOWDOWN_OPEN}")
    return keys


@pytest.mark.parametrize(("preset", "keys"), [("scat", "S: draw from the stock"), ("schwimmen", "A: swap all three")])
def test_a_whole_round_is_played_by_the_keyboard_alone(server: str, browser: Browser, preset: str, keys: str) -> None:
    created = _create(server, preset, ["human", "easy"], lives=3)
    page = _seated(browser, server, created)
    try:
        expect(page.locator("#howto")).to_contain_text(keys)  # "How to play" says the keys
        page.locator("body").focus()
        pressed = play_round_by_keys(page)
        page.keyboard.press("Enter")  # closes the showdown: the next round
        pressed.append("Enter")
        wait_until(page, "Number(document.body.dataset.round) >= 2")
        assert "Tab" not in pressed
        turns = sum(pressed.count(key) for key in ("k", "s", ".", "h"))
        assert turns >= 1
        assert len(pressed) <= 2 * turns + 1, pressed  # a move is one key, a draw and its discard two
    finally:
        page.context.close()
