"""The table's layout as a card player meets it, measured box by box (the real server with pinned
deals, tests/web_pinned.py, and Debian's Chromium driven by Playwright, as in test_web_e2e): a
knock's banner lies in the middle under the piles, in the status line's place, with nothing of the
status left below it; a speech bubble lies over its own seat's cards, never over the middle (the
last result's chip); the Scores panel at 1280x800 shows eight rounds and says that more lie
before them; every seat's lives read alike on a phone; no seat's lives are cut at the game's end;
and the lobby offers bots for the other seats and its "Create the table" in view.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from support.web import CHROMIUM
from support.web import KEY
from support.web import SIZES
from support.web import close_showdown
from support.web import my_turn
from support.web import new_page
from support.web import play_a_turn
from support.web import running_server
from support.web import seat_people
from support.web_layout import assert_apart
from support.web_layout import assert_lives_read
from support.web_layout import boxes
from support.web_layout import inside
from support.web_layout import settle

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect


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


MOVE_MARKS = (
    "async ([dealer, knocker]) => { const [{state}, {renderSeats}] ="
    " await Promise.all([import('/static/js/state.js'), import('/static/js/seats.js')]);"
    " state.view.dealer = dealer; state.view.knocker = knocker; renderSeats(); }"
)
"""Draw the seats with the dealer's button at seat ``dealer`` and the knock's mark at ``knocker``
(or none), as a later round's view would have them."""


def assert_plates_whole(page: Page, seats: int, lives: int, where: str) -> None:
    """Every plate's lives read whole (test_web_found's reading), its name whole, and its lives,
    name, avatar and marks inside it, the marks over none of the others."""
    assert_lives_read(page, seats, lives, where)
    for seat in range(seats):
        plate = f".seat[data-seat='{seat}'] .plate"
        box = boxes(page, plate)[0]
        name = page.locator(f"{plate} h3")
        assert name.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1"), f"{where}: {name.inner_text()} is cut"
        parts = {part: boxes(page, f"{plate} {part}") for part in ("h3", ".lives", ".avatar", ".marks > *")}
        for part, found in parts.items():
            assert all(inside(b, box) for b in found), f"{where}: seat {seat}'s {part} {found} is not in {box}"
        marks = parts.pop(".marks > *")
        assert_apart({"mark": marks, "other": [b for found in parts.values() for b in found]}, f"{where}, seat {seat}")


@pytest.mark.parametrize(("seats", "lives"), [(3, 3), (3, 20), (4, 3), (4, 20), (5, 3), (5, 20)])
def test_the_dealers_button_and_knock_leave_every_plates_lives_and_name_whole_on_a_phone(
    pinned: str, browser: Browser, seats: int, lives: int
) -> None:
    """On a phone, where plates are narrowest: the dealer's button on the person's own plate (the
    pinned server's first dealer, tests/web_pinned.py, is where the person sits), then on every
    plate in turn, alone and with that seat's knock: every plate's lives, name and marks whole and
    inside it. Beside the marks on one line, the lives were cut to a penny, on the person's plate
    first (issue 30; which seat deals first was chance in test_every_seats_lives_can_be_read)."""
    dealer = random.Random(0).randrange(seats)  # as web_pinned.Pinned.first_dealer draws it
    _, (page,) = seat_people(
        browser,
        pinned,
        ["human" if seat == dealer else "easy" for seat in range(seats)],
        viewport=SIZES["phone"],
        lives=lives,
    )
    try:
        my_turn(page)
        expect(page.locator("#stage")).to_have_attribute("data-compact", "yes")
        expect(page.locator(".seat.me .dealer-button")).to_have_count(1)  # the person deals round 1
        assert_plates_whole(page, seats, lives, "the person deals")
        for seat in [(dealer + step) % seats for step in range(seats)]:  # the order the deal goes round
            for knocker in (None, seat):
                page.evaluate(MOVE_MARKS, [seat, knocker])
                where = f"seat {seat} deals" + (" and knocks" if knocker is not None else "")
                expect(page.locator(f".seat[data-seat='{seat}'] .dealer-button")).to_have_count(1)  # drawn as asked
                expect(page.locator(".knock-mark")).to_have_count(0 if knocker is None else 1)
                assert_plates_whole(page, seats, lives, where)
    finally:
        page.context.close()


# Every seat's plate checked inside the stage whenever the page has changed, before anything
# else runs (a MutationObserver's callback comes at the end of the change's task, before the
# ResizeObserver that lays the stage out again at the next frame).
WATCH_PLATES = """() => {
  window.platesOut = []; window.stageHeights = new Set();
  new MutationObserver(() => {
    const stage = document.getElementById('stage').getBoundingClientRect();
    window.stageHeights.add(Math.round(stage.height));
    for (const plate of document.querySelectorAll('.seat .plate')) {
      const r = plate.getBoundingClientRect();
      if (r.top < stage.top - 1 || r.bottom > stage.bottom + 1 || r.left < stage.left - 1 || r.right > stage.right + 1)
        window.platesOut.push({seat: plate.closest('.seat').dataset.seat, plate: [r.top, r.bottom],
          stage: [stage.top, stage.bottom], turn: document.body.dataset.turn});
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def test_the_seats_lie_inside_the_stage_as_your_moves_come_and_go_on_a_phone(pinned: str, browser: Browser) -> None:
    """On a phone your moves' row shows on your turn and hides after it, and the stage above it
    shrinks and grows by that row (about 100px): the seats are placed for the stage the hand's
    row leaves in the same redraw, never a frame later. Placed before the hand was drawn, your own
    plate lay below the stage until the next frame, and a page read in that moment found the
    dealer's button cut (a clean run's test_a_round_and_a_game_in_each_language[ms-phone])."""
    _, (page,) = seat_people(browser, pinned, ["human", "easy"], viewport=SIZES["phone"], lives=2)
    try:
        my_turn(page)
        page.evaluate(WATCH_PLATES)
        while page.evaluate("Number(document.body.dataset.round)") < 2 and not page.locator("#over").is_visible():
            if not close_showdown(page):
                play_a_turn(page, knock=False)
        assert len(page.evaluate("[...window.stageHeights]")) >= 2, "the stage's height never changed"
        assert page.evaluate("window.platesOut") == []
    finally:
        page.context.close()


# ---------------------------------------------------------------------------------------------- the seats' words


def test_a_free_seats_name_shows_whole_on_a_phone_and_a_laptop(pinned: str, browser: Browser) -> None:
    """A table waiting for two more people: each free seat's plate says which seat it is, whole
    ("Seat 3 (free)", not "Seat…"), at 1280x800 and 390x844."""
    _, (page,) = seat_people(browser, pinned, ["human", "human", "human", "easy", "easy"])
    try:
        for size in ("laptop", "phone"):
            width, height = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            names = page.evaluate(
                "[...document.querySelectorAll('.seat h3')].map((n) =>"
                " ({text: n.textContent, cut: n.scrollWidth > n.clientWidth + 1}))"
            )
            free = [name for name in names if "(free)" in name["text"]]
            assert [name["text"] for name in free] == ["Seat 2 (free)", "Seat 3 (free)"], names
            assert not [name for name in free if name["cut"]], f"at {size}: {names}"
    finally:
        page.context.close()


def test_a_discards_bubble_shows_its_card_whole_on_a_phone(pinned: str, browser: Browser) -> None:
    """On a phone, where a seat is narrowest, every "Discards …" bubble shows its card, nothing of
    it cut (it takes a second line instead)."""
    seats = ["human", "easy", "easy", "easy", "easy"]  # five: the narrowest plates
    _, (page,) = seat_people(browser, pinned, seats, viewport=SIZES["phone"], lives=3)
    try:
        page.evaluate(
            "() => { window.seenBubbles = []; const cut = (node) => { const range = document.createRange();"
            " range.selectNodeContents(node); const text = range.getBoundingClientRect();"
            " const box = node.getBoundingClientRect(); return node.scrollWidth > node.clientWidth + 1"
            " || text.bottom > box.bottom + 1; };"  # its words past its edge: cut off ("Discards …")
            " new MutationObserver((records) => { for (const record of records)"
            " for (const node of record.addedNodes) if (node.classList?.contains('bubble'))"
            " requestAnimationFrame(() => window.seenBubbles.push({text: node.textContent, cut: cut(node)})); })"
            ".observe(document.getElementById('flyers'), {childList: true}); }"
        )
        seen: list[dict[str, object]] = []
        for _ in range(400):
            seen = [b for b in page.evaluate("window.seenBubbles") if str(b["text"]).startswith("Discards")]
            if len(seen) >= 4:
                break
            if not close_showdown(page):
                play_a_turn(page, knock=False)
        assert len(seen) >= 4, seen
        for bubble in seen:
            assert re.fullmatch(r"Discards (10|[2-9JQKA])[♣♦♥♠]", str(bubble["text"])), bubble
            assert not bubble["cut"], bubble
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
