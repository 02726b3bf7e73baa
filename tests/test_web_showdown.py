"""The showdown in the browser, as a card player reads it (the real server with pinned deals,
tests/web_pinned.py, and Debian's Chromium driven by Playwright, as in test_web_e2e): every hand
lies face up at its seat and the result in the middle until the person closes it (its button,
Enter or Escape); meanwhile the table stays as the round left it and the bots wait; the page
says whom the table still waits for; a showdown the next round overtakes (the server's timeout)
closes by itself; and at 1280x800, 1920x1080 and 390x844 the result panel lies over no seat, no
pile and no card, and no value badge over the cards it counts.

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.web import CHROMIUM
from support.web import KEY
from support.web import SHOWDOWN_OPEN
from support.web import SIZES
from support.web import WAIT_MS
from support.web import get_json
from support.web import play_a_turn
from support.web import press
from support.web import running_server
from support.web import seat_people
from support.web import wait_until
from support.web_layout import assert_apart
from support.web_layout import boxes
from support.web_layout import settle

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A pinned server whose bots wait for the showdown to be read (at most 20 s, the default)."""
    with running_server(tmp_path_factory.mktemp("pinned"), "--showdown-timeout", "20", pinned=KEY) as base:
        yield base


def hand(page: Page) -> list[str]:
    return sorted(page.locator("#hand [data-card]").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)"))


def play_to_showdown(page: Page, knock: bool = False) -> None:
    """Play this page's turns (knock as soon as the rules let when ``knock``, else draw from the
    stock and discard the first card) until a round's showdown opens."""
    while not page.evaluate(SHOWDOWN_OPEN):
        assert not page.locator("#over").is_visible(), "the game ended before a showdown to close"
        play_a_turn(page, knock)


# ---------------------------------------------------------------------------------------------- the showdown


def test_the_showdown_stays_until_its_person_closes_it_and_the_table_waits_behind_it(
    pinned: str, browser: Browser
) -> None:
    code, (page,) = seat_people(browser, pinned, ["human", "easy", "easy"], lives=3, knock_from_round=1)
    try:
        while True:  # a knock's showdown (every hand shown, R5.1) after which a bot moves first: it waits
            play_to_showdown(page)
            view = get_json(f"{pinned}/api/tables/{code}")["view"]
            if view["current_seat"] != 0 and not view["last_result"]["blitz"]:
                break
            page.click("#showdown-close")
        result = view["last_result"]
        ended = result["round"]
        mine = sorted(result["hands"][0])
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-heading")).to_contain_text(str(ended))
        expect(page.locator("#showdown-close")).to_be_focused()  # the next thing to do
        expect(page.locator(".seat-cards.shown")).to_have_count(3)  # every hand, face up at its seat
        # the table stays as the round left it: the next round is dealt, but not shown, and the bots wait
        table = get_json(f"{pinned}/api/tables/{code}")
        assert table["view"]["round"] == ended + 1
        assert table["table"]["showdown"]["waiting"] == [0]
        assert hand(page) == mine
        expect(page.locator("#actions-section")).to_be_hidden()
        expect(page.locator("#middle")).to_be_hidden()  # no stock or pile through the panel
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            where = f"the showdown at {size}"
            panel = boxes(page, "#result")
            seats = boxes(page, ".seat")
            assert len(panel) == 1, where
            assert len(seats) == 3, where
            groups = {
                "result panel": panel,
                "seat": seats,
                "pile": boxes(page, "#middle .pile"),
                "hand": boxes(page, "#hand"),
            }
            assert_apart(groups, where)
            stage = boxes(page, "#stage")[0]
            box = panel[0]
            assert stage["y"] - 0.5 <= box["y"], where
            assert box["y"] + box["h"] <= stage["y"] + stage["h"] + 0.5, where
            for seat in range(3):
                cards = boxes(page, f".seat[data-seat='{seat}'] .seat-cards .card")
                badges = boxes(page, f".seat[data-seat='{seat}'] .value-badge")
                assert_apart({"card": cards, "value badge": badges}, f"{where}, seat {seat}")
                assert_apart({"card": cards + badges, "result panel": panel}, f"{where}, seat {seat}")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.keyboard.press("Enter")  # closed: the page says so, and the next deal shows
        expect(page.locator("#result")).to_be_hidden()
        expect(page.locator("#middle")).to_be_visible()
        wait_until(page, f"document.getElementById('status').textContent.includes('Round {ended + 1}')")
        wait_until(page, f"fetch('/api/tables/{code}').then((r) => r.json()).then((d) => d.table.showdown === null)")
        assert len(hand(page)) == 3
        assert hand(page) != mine  # the next round's deal (pinned: never the same cards)
    finally:
        page.context.close()


def test_the_page_says_whom_the_table_waits_for_and_escape_closes_the_showdown(pinned: str, browser: Browser) -> None:
    code, (ann, ben) = seat_people(browser, pinned, ["human", "human", "easy"], people=2, lives=3, knock_from_round=1)
    try:
        while not (ann.evaluate(SHOWDOWN_OPEN) and ben.evaluate(SHOWDOWN_OPEN)):
            for page in (ann, ben):
                if not page.evaluate(SHOWDOWN_OPEN):
                    play_a_turn(page)
        ann.click("#showdown-close")
        expect(ann.locator("#result")).to_be_hidden()
        expect(ben.locator("#showdown-waiting")).to_be_hidden()  # Ben reads; nobody else is left
        seat = get_json(f"{pinned}/api/tables/{code}")["view"]["current_seat"]
        if seat != 0:  # not Ann's turn: her table waits, and says for whom
            expect(ann.locator("#status")).to_contain_text("waiting for Ben to read the last round")
        ben.keyboard.press("Escape")
        expect(ben.locator("#result")).to_be_hidden()
        expect(ann.locator("#status")).not_to_contain_text("waiting for Ben")
    finally:
        ann.context.close()
        ben.context.close()


def test_a_showdown_the_next_round_overtakes_closes_by_itself(browser: Browser, tmp_path: Path) -> None:
    """Ben never closes his showdown: after the server's timeout the bots play the next round, and
    his page closes it and shows that round."""
    with running_server(tmp_path, "--showdown-timeout", "1", pinned=KEY) as base:
        code, (ann, ben) = seat_people(browser, base, ["human", "human", "easy"], people=2, lives=3, knock_from_round=1)
        try:
            while not (ann.evaluate(SHOWDOWN_OPEN) and ben.evaluate(SHOWDOWN_OPEN)):
                for page in (ann, ben):
                    if not page.evaluate(SHOWDOWN_OPEN):
                        play_a_turn(page)
            ended = int(get_json(f"{base}/api/tables/{code}")["view"]["last_result"]["round"])
            ann.click("#showdown-close")
            for _ in range(WAIT_MS // 25):  # Ann plays her turns of the next round; the bot plays after the timeout
                if not ben.evaluate(SHOWDOWN_OPEN):
                    break
                play_a_turn(ann)
            expect(ben.locator("#result")).to_be_hidden()
            expect(ben.locator("#status")).to_contain_text(f"Round {ended + 1}")
        finally:
            ann.context.close()
            ben.context.close()


# ---------------------------------------------------------------------------------------------- after a 31


BLITZ_KEY = f"{640:064x}"
"""A chain whose first deal gives seat 1 of three (two easy bots after Ann, whose seed is SEEDS[0])
a 31 (R5.2): the hands it hides keep every later round's deal hidden until the game's end (R5.7)."""


def test_the_deals_a_31_hid_are_verified_at_the_games_end(browser: Browser, tmp_path: Path) -> None:
    with running_server(tmp_path, "--showdown-timeout", "20", pinned=BLITZ_KEY) as base:
        code, (page,) = seat_people(browser, base, ["human", "easy", "easy"], lives=2)
        try:
            rounds = get_json(f"{base}/api/tables/{code}/deals")["deals"]
            assert rounds[0]["salt"] is None  # round 1 ended on the deal with a 31: its salt waits
            play_to_showdown(page)  # round 2 ends: its deal waits for the game's end too
            verify = page.locator("#verify")
            expect(verify).to_have_attribute("data-state", "waits")
            expect(verify).to_contain_text("checked at the game's end")
            while not page.locator("#over").is_visible():
                if page.evaluate(SHOWDOWN_OPEN):
                    page.click("#showdown-close")
                else:
                    play_a_turn(page)  # knock when the rules let: the game ends sooner
            expect(verify).to_have_attribute("data-state", "verified")
            expect(verify).to_contain_text("kept hidden after a 31 until the game's end (R5.7), verified")
            assert "WARNING" not in verify.inner_text()
        finally:
            page.context.close()


# ---------------------------------------------------------------------------------------------- your last move


RANKS = {"A": 11, "K": 10, "Q": 10, "J": 10, "T": 10}


def best_suit(cards: list[str]) -> int:
    """A hand's points in its best suit (R5.1), three of a kind aside."""
    return max(sum(RANKS.get(c[0]) or int(c[0]) for c in cards if c[1] == suit) for suit in "cdhs")


def play_until_my_discard_ends_a_round(
    page: Page, base: str, code: str, wanted: Callable[[dict[str, Any]], bool], greedy: bool = False
) -> dict[str, Any]:
    """Play this page's turns, never knocking, closing every other showdown, until its own
    discard ends a round whose result is ``wanted``; that result. Plain: draw from the stock and
    discard the first card; ``greedy``: take the pile's card when it makes a better hand, and
    discard what keeps the best one. The discard is in no state: the showdown opens while the
    page's seq stays."""
    moves = "#actions-section:not([hidden]) #actions button"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert not page.locator("#over").is_visible(), "the game ended before the round wanted"
        if page.evaluate(SHOWDOWN_OPEN):
            page.click("#showdown-close")
            continue
        stock = page.locator(f"{moves}[data-action='draw stock']")
        pile = page.locator(f"{moves}[data-action='draw pile']")
        discard = page.locator(f"{moves}[data-action^='discard ']")
        button = stock if stock.count() else discard.first
        if greedy and stock.count() and pile.count():
            held = sorted(set(hand(page)))
            top = page.get_attribute("#discard [data-card]", "data-card")
            if top and max(best_suit([*held[:i], *held[i + 1 :], top]) for i in range(3)) > best_suit(held):
                button = pile
        elif greedy and discard.count():
            held = sorted(set(hand(page)))
            cards = [action.split()[1] for action in discard.evaluate_all("(ns) => ns.map((n) => n.dataset.action)")]
            best = max(cards, key=lambda card: best_suit([c for c in held if c != card]))
            button = page.locator(f"{moves}[data-action='discard {best}']")
        seq = press(page, button)
        if seq is not None and page.evaluate(SHOWDOWN_OPEN) and page.get_attribute("body", "data-seq") == seq:
            result = get_json(f"{base}/api/tables/{code}")["view"]["last_result"]
            if wanted(result):
                return dict(result)
    raise AssertionError("no round ended on my discard as wanted")


def assert_the_hand_shown(page: Page, result: dict[str, Any]) -> None:
    """The page's hand is the one its person showed in ``result``: three plain cards, the
    discarded one gone, no mark, no move, and their value."""
    value = result["values"][0]
    assert hand(page) == sorted(result["hands"][0])
    expect(page.locator("#hand .card")).to_have_count(3)
    expect(page.locator("#hand .new-mark, #hand .kept-mark, #hand .card-button")).to_have_count(0)
    expect(page.locator("#hand-value")).to_have_text(f"{int(value)}½ points" if value % 1 else f"{int(value)} points")
    expect(page.locator("#actions-section")).to_be_hidden()


def test_the_hand_that_ended_the_round_with_a_discard_is_the_one_shown(pinned: str, browser: Browser) -> None:
    """A bot knocks and the person's last turn ends the round with a discard: the showdown shows
    their hand as it ended the round (three cards, the one discarded gone, no "new" mark, no
    prompt to discard), its value, and every plate the lives the result left, until it closes.
    The page's view is from before that discard (the next state is the next round's, held)."""
    code, (page,) = seat_people(browser, pinned, ["human", "easy", "easy"], lives=5, knock_from_round=1)
    try:
        result = play_until_my_discard_ends_a_round(
            page, pinned, code, lambda result: result["end"] == "knock" and result["knocker"] not in (None, 0)
        )
        mine = sorted(result["hands"][0])
        after = get_json(f"{pinned}/api/tables/{code}")["view"]["seats"]  # the next round's: the lives the result left
        for _ in range(2):  # at once, and a while later (the flights have landed)
            assert_the_hand_shown(page, result)
            for seat in range(3):
                coins = page.locator(f".seat[data-seat='{seat}'] .lives .coin:not(.lost)")
                expect(coins).to_have_count(after[seat]["lives"])
            page.wait_for_timeout(1500)
        assert any(loss["lives"] for loss in result["losses"])  # the plates did change
        page.click("#showdown-close")  # the next round's deal shows
        wait_until(page, f"document.getElementById('status').textContent.includes('Round {result['round'] + 1}')")
        expect(page.locator("#hand .card")).to_have_count(3)
        assert hand(page) != mine
    finally:
        page.context.close()


def test_the_hand_that_made_31_with_a_discard_is_the_one_shown(pinned: str, browser: Browser) -> None:
    """The person's discard makes 31 and ends the round (R5.2): the showdown shows the 31 they
    made, three cards, not the four they held before that discard."""
    code, (page,) = seat_people(browser, pinned, ["human", "easy", "easy"], lives=5, knock_from_round=1)
    try:
        result = play_until_my_discard_ends_a_round(
            page, pinned, code, lambda result: result["end"] == "blitz" and 0 in result["blitz"], greedy=True
        )
        assert result["values"][0] == 31
        assert_the_hand_shown(page, result)
        expect(page.locator(".seat[data-seat='0'] .seat-cards.shown .card")).to_have_count(3)
    finally:
        page.context.close()


def test_the_knocks_tag_lies_in_its_plate_over_nothing_else(pinned: str, browser: Browser) -> None:
    """The showdown of a bot's knock at a table of five: the knocker's "Knocked" tag lies inside
    its plate, over no card, value badge, other plate or the result, at 1280x800 and 390x844."""
    code, (page,) = seat_people(browser, pinned, ["human", "easy", "easy", "easy", "easy"], lives=3, knock_from_round=1)
    try:
        while True:
            play_to_showdown(page)
            result = get_json(f"{pinned}/api/tables/{code}")["view"]["last_result"]
            if result["end"] == "knock" and result["knocker"] not in (None, 0):
                break
            page.click("#showdown-close")
        knocker = result["knocker"]
        for size in ("laptop", "phone"):
            width, height = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            where = f"the showdown at {size}"
            tag = boxes(page, ".knock-mark")
            assert len(tag) == 1, where
            plate = boxes(page, f".seat[data-seat='{knocker}'] .plate")[0]
            box = tag[0]
            assert plate["x"] - 0.5 <= box["x"], where
            assert box["x"] + box["w"] <= plate["x"] + plate["w"] + 0.5, where
            assert plate["y"] - 0.5 <= box["y"], where
            assert box["y"] + box["h"] <= plate["y"] + plate["h"] + 0.5, where
            others = [f".seat:not([data-seat='{knocker}']) .plate", ".seat-cards .card", ".value-badge", "#result"]
            assert_apart({"knock tag": tag, "others": [b for s in others for b in boxes(page, s)]}, where)
            assert_apart(
                {"knock tag": tag, "its name": boxes(page, f".seat[data-seat='{knocker}'] h3")}, f"{where}, its name"
            )
    finally:
        page.context.close()
