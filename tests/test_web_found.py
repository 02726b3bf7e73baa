"""What a new user found in the browser game, each checked where they met it (the real server,
Debian's Chromium driven by Playwright, as in test_web_e2e): a pasted share link opens its table; a
double click creates one table and joins once; every seat's lives can be read on a phone and a
desktop; an emoji name gets its emoji as avatar and twenty of them fit; the final standings open at
their last rounds; a table closed in round 1 shows no empty result and no stale alert; the table's
code shows whole on a phone in every language; a refused chat line stays in its box, said as a
sentence; a new round is dealt once, as its hand first shows; a sure read is not "probably (100%)".

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from support.web import CHROMIUM
from support.web import ask_hint
from support.web import create_table
from support.web import get_json
from support.web import join_by_ui
from support.web import my_turn
from support.web import new_page
from support.web import play_one
from support.web import seated_page
from support.web import two_people
from support.web import wait_until
from support.web_layout import BOX
from support.web_layout import assert_lives_read
from support.web_layout import inside

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

from thirtyone.i18n import LANGUAGES

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = Path(tempfile.gettempdir()) / "thirtyone-web-found"


def shot(page: Page, name: str) -> None:
    """A screenshot for a person to look at (not compared), in the temporary folder's thirtyone-web-found/."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def posts(page: Page, pattern: str) -> list[str]:
    """The POST requests ``page`` sends to a path matching ``pattern``, collected as they go."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and re.search(pattern, r.url) else None)
    return sent


# ---------------------------------------------------------------------------------------------- the lobby


def test_a_pasted_share_link_opens_its_table(server: str, browser: Browser) -> None:
    code = create_table(server, "scat", ["human", "human"])["code"]
    page = new_page(browser, **PHONE)
    try:
        page.goto(f"{server}/")
        expect(page.locator("#seat-2")).to_be_attached()
        page.click("#join-code")
        page.keyboard.insert_text(f"{server}/t/{code}")  # what a paste types
        page.click("#code-form button[type=submit]")
        page.wait_for_url(f"**/t/{code}")
    finally:
        page.context.close()


def test_a_double_click_creates_one_table_and_a_double_join_takes_one_seat(server: str, browser: Browser) -> None:
    page = new_page(browser)
    try:
        created = posts(page, r"/api/tables$")
        page.goto(f"{server}/")
        expect(page.locator("#seat-2")).to_be_attached()
        page.fill("#name", "Ann")
        page.dblclick("#create")
        page.wait_for_url("**/t/*")
        page.wait_for_timeout(300)
        assert len(created) == 1
    finally:
        page.context.close()
    code = create_table(server, "scat", ["human", "human"])["code"]
    pat = new_page(browser)
    try:
        joins = posts(pat, r"/join$")
        pat.goto(f"{server}/t/{code}")
        pat.fill("#join-name", "Pat")
        pat.dblclick("#join-form button[type=submit]")
        expect(pat.locator("body")).to_have_attribute("data-role", "player")
        pat.wait_for_timeout(500)  # a second join would be refused within this
        assert len(joins) == 1
        expect(pat.locator("#alert")).to_be_hidden()
    finally:
        pat.context.close()


def test_an_emoji_name_has_its_avatar_and_twenty_emoji_are_twenty_characters(server: str, browser: Browser) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/")
        expect(page.locator("#seat-2")).to_be_attached()
        page.click("#name")
        page.keyboard.insert_text("😀" * 25)
        assert page.evaluate("Array.from(document.getElementById('name').value).length") == 20  # as the server counts
    finally:
        page.context.close()
    created = create_table(server, "scat", ["human", "human"])
    ann = seated_page(browser, server, created)
    pat = new_page(browser)
    try:
        join_by_ui(pat, server, created["code"], "🎲" * 19 + "x")
        expect(ann.locator(".seat[data-seat='1'] .avatar")).to_have_text("🎲")
        expect(pat.locator(".seat[data-seat='1'] .avatar")).to_have_text("🎲")
        expect(ann.locator(".seat[data-seat='1'] h3")).to_have_text("🎲" * 19 + "x")
        shot(ann, "04-emoji-avatar-desk")
    finally:
        ann.context.close()
        pat.context.close()


# ---------------------------------------------------------------------------------------------- the table


@pytest.mark.parametrize(
    ("size", "seats", "lives"),
    [("phone", 9, 3), ("phone", 5, 3), ("phone", 4, 20), ("desktop", 9, 20), ("desktop", 6, 3)],
)
def test_every_seats_lives_can_be_read(server: str, browser: Browser, size: str, seats: int, lives: int) -> None:
    created = create_table(server, "scat", ["human"] + ["easy"] * (seats - 1), lives=lives)
    page = seated_page(browser, server, created, **(PHONE if size == "phone" else DESKTOP))
    try:
        my_turn(page)
        assert_lives_read(page, seats, lives)
        shot(page, f"03-lives-{size}-{seats}-seats-{lives}-lives")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_table_code_shows_whole_on_a_phone_in_every_language(server: str, browser: Browser, lang: str) -> None:
    created = create_table(server, "scat", ["human", "easy", "easy", "easy"])
    page = seated_page(browser, server, created, **PHONE)
    try:
        page.goto(f"{server}/t/{created['code']}?lang={lang}")
        expect(page.locator("body")).to_have_attribute("data-role", "player")
        expect(page.locator("#code")).to_have_text(created["code"])
        wait_until(page, "document.fonts.status === 'loaded'")  # measured in the fonts shown, not the fallback
        code = page.locator("#code")
        assert code.evaluate("(n) => n.scrollWidth <= n.clientWidth")
        assert inside(code.evaluate(BOX), page.locator(".topbar h1").evaluate(BOX))
        assert page.locator(".topbar h1").evaluate("(n) => n.scrollWidth <= n.clientWidth")
        brand = page.locator(".topbar .brand").evaluate(BOX)
        assert abs(brand["w"] - brand["h"]) < 1  # a round badge, not squeezed
        tools = page.locator(".topbar .tools")
        assert tools.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1")  # every tool whole too
        h1, tools_box = page.locator(".topbar h1").evaluate(BOX), tools.evaluate(BOX)
        assert h1["x"] + h1["w"] <= tools_box["x"] + 0.5 or tools_box["x"] + tools_box["w"] <= h1["x"] + 0.5
        for node in page.locator(".topbar > *:visible").all():
            box = node.evaluate(BOX)
            assert box["x"] >= -0.5
            assert box["x"] + box["w"] <= 390.5
        shot(page, f"07-header-phone-{lang}")
    finally:
        page.context.close()


def _mover(*pages: Page) -> Page:
    """The page whose turn it is, once its buttons show (the others may render the deal later)."""
    deadline = time.monotonic() + 10
    while True:
        for page in pages:
            if page.locator("#actions button").count():
                return page
        assert time.monotonic() < deadline, "nobody's turn showed"
        pages[0].wait_for_timeout(50)


def test_a_table_closed_in_round_1_shows_no_empty_result_and_no_stale_alert(server: str, browser: Browser) -> None:
    _, ann, ben = two_people(browser, server)
    try:
        waiting = ben if _mover(ann, ben) is ann else ann
        waiting.keyboard.press("?")  # a hint asked out of turn: an alert
        expect(waiting.locator("#alert")).to_be_visible()
        ann.click("#tab-table")
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#close-table")
        for page in (ann, ben):
            expect(page.locator("#over-heading")).to_have_text("Table closed")
            expect(page.locator("#result")).to_be_hidden()
            expect(page.locator("#alert")).to_be_hidden()
        shot(ann, "06-closed-round-1-desk")
    finally:
        ann.context.close()
        ben.context.close()


def test_a_refused_chat_line_stays_in_its_box_and_is_said_as_a_sentence(server: str, browser: Browser) -> None:
    created = create_table(server, "scat", ["human", "easy"])
    page = seated_page(browser, server, created, **PHONE)
    try:
        page.click("#panel-chat")
        page.fill("#chat-text", "look \u202ehere")  # a direction override: refused
        page.press("#chat-text", "Enter")
        expect(page.locator("#chat-note")).to_have_text(re.compile(r"^Chat is one line of plain text: .*\.$"))
        expect(page.locator("#chat-text")).to_have_value("look \u202ehere")  # to mend, not to retype
        shot(page, "08-chat-refused-phone")
        page.fill("#chat-text", "look here")
        page.press("#chat-text", "Enter")
        expect(page.locator("#chat-lines")).to_contain_text("look here")
        expect(page.locator("#chat-text")).to_have_value("")
        expect(page.locator("#chat-note")).to_have_text("")
    finally:
        page.context.close()


def test_the_hint_does_not_say_probably_of_a_sure_read(server: str, browser: Browser) -> None:
    created = create_table(server, "scat", ["human", "easy", "easy"])
    page = new_page(browser)

    def route(socket: Any) -> None:
        upstream = socket.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "hint":
                data["reads"] = [
                    {"seat": 1, "suit": "c", "probability": 1.0},
                    {"seat": 2, "suit": "h", "probability": 0.72},
                ]
            socket.send(json.dumps(data))

        upstream.on_message(to_page)
        socket.on_message(lambda message: upstream.send(message))

    try:
        page.route_web_socket(re.compile(r"/ws/tables/"), route)
        page.goto(f"{server}/")
        page.evaluate(
            "([key, token]) => localStorage.setItem(key, token)",
            [f"thirtyone.token.{created['code']}", created["token"]],
        )
        page.goto(f"{server}/t/{created['code']}")
        my_turn(page)
        ask_hint(page)
        hint = page.locator("#hint-text")
        expect(hint).to_contain_text("Bea very likely collects clubs · Cy probably collects hearts (72%).")
        assert "100" not in hint.inner_text()
    finally:
        page.context.close()


def _to_round_2(page: Page, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while "Round 2" not in (page.locator("#status").text_content() or ""):
        assert time.monotonic() < deadline, "round 1 did not end in time"
        if not play_one(page):
            page.wait_for_timeout(50)


def test_a_new_round_is_dealt_once_as_its_hand_first_shows(server: str, browser: Browser) -> None:
    created = create_table(server, "scat", ["human", "easy"], lives=5)
    page = seated_page(browser, server, created)
    try:
        page.evaluate(
            """() => {
              window.handShown = []; window.landed = [];
              let cards = "";
              new MutationObserver(() => {
                const now = [...document.querySelectorAll('#hand [data-card]')]
                  .map((n) => n.dataset.card).sort().join(' ');
                if (now && now !== cards) window.handShown.push(performance.now());
                cards = now;
                for (const n of document.querySelectorAll('#hand .landing')) {
                  if (!n.seen) { n.seen = true; window.landed.push(performance.now()); }
                }
              }).observe(document.getElementById('hand'),
                {childList: true, subtree: true, attributes: true, attributeFilter: ['class']});
            }"""
        )
        _to_round_2(page)
        page.wait_for_timeout(7000)  # every step queued at the round's end has played
        shown, landed = page.evaluate("[window.handShown, window.landed]")
        assert landed, "the new round's cards were not dealt"
        for at in landed:
            first = max(t for t in shown if t <= at)  # the hand in view when a card of it flew in
            # at once, not after the showdown (3.6 s) as before; a loaded machine may take a while
            assert at - first < 2500, (shown, landed)
    finally:
        page.context.close()


def test_the_final_standings_open_at_their_last_rounds(server: str, browser: Browser) -> None:
    # 20 lives: at least 10 rounds (a round costs a seat at most 2), more than a phone shows at once
    created = create_table(server, "scat", ["human", "easy"], lives=20, grace_life=False)
    page = seated_page(browser, server, created, **PHONE)
    try:
        deadline = time.monotonic() + 400
        while not page.locator("#over").is_visible():
            assert time.monotonic() < deadline, "the game did not end in time"
            if not play_one(page):
                page.wait_for_timeout(50)
        rounds = get_json(f"{server}/api/tables/{created['code']}")["table"]
        assert rounds["status"] == "finished"
        for size in ("phone", "desktop"):
            if size == "desktop":
                page.set_viewport_size({"width": 1280, "height": 800})
                page.reload()
                expect(page.locator("#over")).to_be_visible()
            box = page.locator("#standings")
            wait_until(page, "document.querySelectorAll('#standings th[title]').length > 0")
            outer = box.evaluate(BOX)
            last = page.locator("#standings thead th").last
            # the round where the game was lost, scrolled as far as it goes: scrollWidth and clientWidth
            # are whole pixels of fractional widths (507.25 in 341.61), so up to 1 px may stay under the edge
            assert inside(last.evaluate(BOX), outer, slack=2), size
            for cell in ("#standings tbody tr:first-child .name", "#standings tbody tr:first-child .place"):
                assert inside(page.locator(cell).evaluate(BOX), outer), (size, cell)
            if size == "phone":
                assert box.evaluate("(n) => n.scrollWidth > n.clientWidth")  # more rounds than a phone shows
            if box.evaluate("(n) => n.scrollWidth > n.clientWidth"):
                expect(box).to_have_attribute("data-before", "yes")  # earlier rounds are under the names
            shot(page, f"05-standings-{size}")
    finally:
        page.context.close()
