"""The table's layout as a card player meets it, measured box by box (the real server with pinned
deals, tests/web_pinned.py, and Debian's Chromium driven by Playwright, as in test_web_e2e): a
knock's banner lies in the middle under the piles, in the status line's place, with nothing of the
status left below it; a speech bubble lies over its own seat's cards, never over the middle (the
last result's chip); the Scores panel at 1280x800 shows eight rounds and says that more lie
before them; every seat's lives read alike on a phone; no seat's lives are cut at the game's end;
and the lobby offers bots for the other seats and its "Create the table" in view.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_web_e2e import CHROMIUM, close_showdown, new_page, running_server
from test_web_showdown import (
    KEY,
    SIZES,
    assert_apart,
    boxes,
    play_a_turn,
    seat_people,
    settle,
)

if not CHROMIUM.exists():  # pragma: no cover - test_web_e2e skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A pinned server (its bots wait for no showdown: the pages here close theirs at once)."""
    with running_server(tmp_path_factory.mktemp("layout"), pinned=KEY) as base:
        yield base


def my_turn_in_round(page: Page, round: int, knock: bool = False) -> None:
    """Play (draw from the stock and discard; knock when ``knock`` and the rules let, which ends a
    round sooner; close each showdown) until it is this page's turn in round ``round`` or later."""
    moves = "#actions-section:not([hidden]) #actions button[data-action='draw stock']"
    while not (page.locator(moves).count() and page.evaluate(f"Number(document.body.dataset.round) >= {round}")):
        if not close_showdown(page):  # checked and clicked in one step: it may close by itself meanwhile
            play_a_turn(page, knock=knock)


# ---------------------------------------------------------------------------------------------- the middle


def test_a_knocks_banner_and_the_bubbles_lie_over_nothing_in_the_middle(pinned: str, browser: Browser) -> None:
    """On my turn of a later round (nothing moves, the last result's chip shows), the knock's moment
    as the page shows it: the banner under the piles, the status line not under it, the bubbles at
    their seats; then, the moment over, the chip under no bubble."""
    _, (page,) = seat_people(browser, pinned, ["human", "easy", "easy", "easy"], lives=5)
    try:
        my_turn_in_round(page, 2)
        expect(page.locator("#last-result")).to_be_visible()
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            where = f"a knock at {size}"
            page.evaluate(
                "Promise.all([import('/static/js/flights.js'), import('/static/js/i18n.js')]).then(([f, i]) => {"
                " f.banner(i.t('banner.knocked', {who: 'Bea'}), 'knock');"
                " for (const seat of [0, 1, 2, 3]) f.bubble(seat, i.t('bubble.knocks'), 'knock'); })"
            )
            banner = boxes(page, "#banner")
            assert len(banner) == 1, where
            assert not boxes(page, "#status"), f"{where}: the status line shows under the banner"
            piles = boxes(page, "#stock, #discard")
            bubbles = boxes(page, ".bubble")
            assert len(bubbles) == 4, where
            assert_apart({"banner": banner, "pile": piles, "bubble": bubbles}, where)
            middle = boxes(page, "#middle")[0]
            assert banner[0]["y"] + banner[0]["h"] <= middle["y"] + middle["h"] + 0.5, f"{where}: the banner is cut"
            page.evaluate("import('/static/js/flights.js').then((f) => f.banner('', ''))")  # the moment is over
            chip = boxes(page, "#last-result")
            status = boxes(page, "#status")
            assert chip, where
            assert status, where
            assert_apart({"chip": chip, "status": status, "pile": piles, "bubble": bubbles}, where)
            page.evaluate("document.getElementById('flyers').replaceChildren()")  # the bubbles go
    finally:
        page.context.close()


# ---------------------------------------------------------------------------------------------- the scores, the lives


def test_the_scores_panel_shows_eight_rounds_and_that_more_lie_before_them(pinned: str, browser: Browser) -> None:
    # 20 lives: knocking every round costs at most 2 a round (R6.5), so both seats see round 11
    _, (page,) = seat_people(browser, pinned, ["human", "easy"], lives=20)
    try:
        my_turn_in_round(page, 11, knock=True)
        page.click("#tab-scores")
        scroll = page.locator(".scores-scroll")
        expect(scroll).to_be_visible()
        inside = page.evaluate(
            "() => { const box = document.querySelector('.scores-scroll').getBoundingClientRect();"
            " return [...document.querySelectorAll('.scores thead th')].slice(1).filter((th) => {"
            " const r = th.getBoundingClientRect(); return r.left >= box.left - 0.5 && r.right <= box.right + 0.5; })"
            ".map((th) => th.textContent); }"
        )
        assert len(inside) >= 8, inside  # eight rounds or more at once, beside the names
        assert inside[-1] == page.locator(".scores thead th").last.inner_text()  # the newest round in view
        expect(scroll).to_have_attribute("data-before", "yes")  # and an edge: earlier rounds lie before
        assert page.evaluate("getComputedStyle(document.querySelector('.scores tbody th')).position") == "sticky"
    finally:
        page.context.close()


def test_every_seat_reads_its_lives_alike_on_a_phone(pinned: str, browser: Browser) -> None:
    _, (page,) = seat_people(browser, pinned, ["human", "easy", "easy", "easy"], viewport=SIZES["phone"], lives=3)
    try:
        my_turn_in_round(page, 1)
        forms = page.evaluate(
            "[...document.querySelectorAll('.seat .lives[role=img]')].map((n) => n.classList.contains('short'))"
        )
        assert len(forms) == 4
        assert len(set(forms)) == 1, forms  # pennies at every seat, or one penny and a number at every seat
    finally:
        page.context.close()


def test_a_seat_on_its_grace_life_shows_the_whole_word_to_the_games_end(pinned: str, browser: Browser) -> None:
    """On a phone, where plates are narrowest: once a seat is on the dole its word shows whole (no
    "on th…"), while the game goes on and at its end."""
    _, (page,) = seat_people(browser, pinned, ["human", "easy", "easy", "easy"], viewport=SIZES["phone"], lives=1)
    cut = (
        "[...document.querySelectorAll('.seat .lives, .seat .grace-word, .seat .out-word')]"
        ".filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.closest('.seat').textContent)"
    )
    try:
        seen = 0
        while not page.locator("#over").is_visible():
            if not close_showdown(page):
                play_a_turn(page, knock=False)
            if page.locator(".seat .grace.now").count():
                seen += 1
                assert page.evaluate(cut) == []
        assert seen, "nobody was on the grace life: the case is not met"
        settle(page)
        assert page.evaluate(cut) == []
    finally:
        page.context.close()


# ---------------------------------------------------------------------------------------------- the lobby


@pytest.mark.parametrize("lang", ["en", "de", "ur"])
def test_the_lobby_offers_bots_and_its_create_button_is_in_view(pinned: str, browser: Browser, lang: str) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{pinned}/?lang={lang}")
        expect(page.locator("#seat-2")).to_be_attached()
        assert page.locator("#seat-1").input_value() != "human"  # a first-time solo player's table starts at once
        expect(page.locator("#create")).to_be_in_viewport(ratio=1)
        page.fill("#name", "Ann")
        page.click("#create")
        page.wait_for_url("**/t/*")
        expect(page.locator("body")).to_have_attribute("data-status", "playing")
    finally:
        page.context.close()
