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
import time

import pytest

from support.axe import violations
from support.web import CHROMIUM
from support.web import SHOWDOWN_OPEN
from support.web import WAIT_MS
from support.web import create_table
from support.web import new_page
from support.web import offered_actions
from support.web import seated_page
from support.web import wait_until

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

LANGUAGES = ["en", "de", "ur"]


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
    created = create_table(server, "scat", ["human", "easy"], lives=3)
    width, height = size
    phone = {"is_mobile": True, "has_touch": True} if width < 600 else {}
    page = seated_page(browser, server, created, locale=lang, viewport={"width": width, "height": height}, **phone)
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
        legal = offered_actions(page)
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
    created = create_table(server, preset, ["human", "easy"], lives=3)
    page = seated_page(browser, server, created)
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
