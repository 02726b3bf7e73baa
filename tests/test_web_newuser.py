"""What a new user's pass over the browser page found, each checked where they met it (the real
server, Debian's Chromium driven by Playwright, as in test_web_e2e): a hint says when its first
move is within the noise and when its values are rough; a fifth tab on a seat is refused once,
readably, and comes in when a place is free; a name cut to twenty characters says so; the live
region says each sentence with one full stop.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from support.web import CHROMIUM
from support.web import ask_hint
from support.web import create_table
from support.web import my_turn
from support.web import new_page

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
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
    created = create_table(server, "scat", ["human", "easy", "easy"])
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
    created = create_table(server, "scat", ["human", "easy", "easy"])
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


# ---------------------------------------------------------------------------------------------- a fifth tab


def test_a_fifth_tab_on_a_seat_is_refused_once_readably_and_comes_in_when_a_place_is_free(
    server: str, browser: Browser
) -> None:
    """Issue: a seat open in 4 places refused a 5th tab, which reconnected three times a second
    forever under a "Connection lost — reconnecting…" that covered the refusal, with `scat` for
    a header and a Hint button, and kept the refusal once a place was free."""
    created = create_table(server, "scat", ["human", "easy"])
    pages = [seated(browser, server, created) for _ in range(5)]
    try:
        for page in pages[:4]:
            page.goto(f"{server}/t/{created['code']}")
            expect(page.locator("body[data-connected=yes]")).to_have_count(1)
        fifth = pages[4]
        sockets: list[str] = []
        fifth.on("websocket", lambda socket: sockets.append(socket.url))
        fifth.goto(f"{server}/t/{created['code']}")
        alert = fifth.locator("#alert")
        expect(alert).to_contain_text("open in 4 places already")
        expect(fifth.locator("#describe")).to_have_text("Scat, 3 lives")
        fifth.wait_for_timeout(1500)  # the old page tried again every 300 ms from here on
        expect(fifth.locator("#conn")).to_be_hidden()
        expect(alert).to_be_visible()
        expect(fifth.locator("#hint")).to_be_hidden()
        shot(fifth, "fifth-tab")
        assert len(sockets) == 1, sockets  # refused once: no loop
        pages[0].close()  # a place is free; the person comes back to the fifth tab
        fifth.evaluate("dispatchEvent(new Event('focus'))")
        expect(fifth.locator("body[data-connected=yes]")).to_have_count(1)
        expect(alert).to_be_hidden()
        expect(fifth.locator("#hand .card").first).to_be_visible()
        shot(fifth, "fifth-tab-in")
    finally:
        for page in pages:
            page.context.close()


# ---------------------------------------------------------------------------------------------- small words


def test_a_name_longer_than_twenty_characters_is_cut_and_said_so(server: str, browser: Browser) -> None:
    """Issue: the name box took 40 characters and the page cut a name to 20 without a word."""
    page = new_page(browser)
    try:
        page.goto(f"{server}/")
        name = page.locator("#name")
        expect(page.locator("#preset option").first).to_be_attached()  # the limits have come
        name.fill("Bartholomew-Alexander-the-Third-of-Many")
        expect(name).to_have_value("Bartholomew-Alexande")
        expect(page.locator("#alert")).to_have_text("Give your name (1 to 20 characters) to create a table.")
        shot(page, "long-name")
    finally:
        page.context.close()


def test_the_live_region_says_each_sentence_with_one_full_stop(server: str, browser: Browser) -> None:
    """Issue: the end of a game was read "You lose 2 lives (R6.5).. Game over"."""
    created = create_table(server, "scat", ["human", "easy"])
    page = seated(browser, server, created)
    try:
        page.goto(f"{server}/t/{created['code']}")
        expect(page.locator("body[data-connected=yes]")).to_have_count(1)
        page.evaluate(
            "async () => (await import('/static/js/notices.js'))"
            ".announce('You lose 2 lives (R6.5).', 'Game over: Ann wins', 'Well played!', 'Next')"
        )
        said = "You lose 2 lives (R6.5). Game over: Ann wins. Well played! Next"
        expect(page.locator("#announce")).to_have_text(said)
    finally:
        page.context.close()
