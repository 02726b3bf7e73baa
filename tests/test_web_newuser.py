"""What a new user's pass over the browser page found, each checked where they met it (the real
server, Debian's Chromium driven by Playwright, as in test_web_e2e): a hint says when its first
move is within the noise and when its values are rough.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from test_web_e2e import CHROMIUM
from test_web_e2e import _create
from test_web_e2e import ask_hint
from test_web_e2e import my_turn
from test_web_e2e import new_page

if not CHROMIUM.exists():  # pragma: no cover - test_web_e2e skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

SHOTS = Path(tempfile.gettempdir()) / "thirtyone-web-newuser"


def shot(page: Page, name: str) -> None:
    """A screenshot for a person to look at (not compared), in the temporary folder's thirtyone-web-newuser/."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def seated(browser: Browser, server: str, created: dict[str, Any], **options: Any) -> Page:
    """A page at ``created``'s table in its creator's seat (the seat's token in its storage)."""
    page = new_page(browser, **options)
    page.goto(f"{server}/")
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"thirtyone.token.{created['code']}", created["token"]],
    )
    return page


# ---------------------------------------------------------------------------------------------- the hint


def test_a_rough_hint_whose_first_move_scores_lower_says_both(server: str, browser: Browser) -> None:
    """The server's hint as a cold worker gives it (three deals, the expert's move first though
    another scores higher): the page says the higher value is within the noise, and that the
    values are rough, as the terminal does."""
    created = _create(server, "scat", ["human", "easy", "easy"])
    page = seated(browser, server, created)

    def route(socket: Any) -> None:
        upstream = socket.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "hint" and len(data["moves"]) > 1:
                data["moves"][0]["value"], data["moves"][1]["value"] = -0.25, 0.25
                data["deals"], data["rough"] = 3, True
            socket.send(json.dumps(data))

        upstream.on_message(to_page)
        socket.on_message(lambda message: upstream.send(message))

    try:
        page.route_web_socket(re.compile(r"/ws/tables/"), route)
        page.goto(f"{server}/t/{created['code']}")
        my_turn(page)
        ask_hint(page)
        hint = page.locator("#hint-text")
        expect(hint).to_contain_text("a higher value is within the noise of its deals")
        expect(hint).to_contain_text("Only 3 deals weighed: these values are rough.")
        shot(page, "rough-hint")
    finally:
        page.context.close()


def test_a_sure_hint_says_neither(server: str, browser: Browser) -> None:
    created = _create(server, "scat", ["human", "easy", "easy"])
    page = seated(browser, server, created)
    try:
        page.goto(f"{server}/t/{created['code']}")
        my_turn(page)
        ask_hint(page)
        hint = page.locator("#hint-text")
        expect(hint).to_contain_text("Hint:")
        assert "rough" not in hint.inner_text()
    finally:
        page.context.close()
