"""The review on the replay page (``/r/CODE``, issue 32 item 2), in Debian's Chromium driven by
Playwright against a real server (its review made by a real review worker process, at the
server's budget): the page says the review is being prepared, then shows a seat chooser with this
browser's seat first, a strip with one mark per decision of that seat coloured by its mark, the
seat's summary and its costliest decisions; a mark (or a costly decision) is a button that takes
the replay to the position before that decision and says the moves' values there; another seat
shows its own strip. Above it, what valued the review: the judge's line, or the one line that says
the judge does not value this game and the expert's budget (issue 43). At 1280x800 and 390x844
(nothing wider than the screen); screenshots of both are written to the test's folder
(``THIRTYONE_SCREENSHOTS=DIR`` copies them there).

Skipped when chromium or Playwright is missing, unless ``THIRTYONE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.axe import violations
from support.server import FAST
from support.server import finished_game
from support.server import make_app
from support.web import CHROMIUM
from support.web import get_json
from support.web import new_page
from support.web import running_server

if not CHROMIUM.exists():  # pragma: no cover - support.web skipped the module already
    pytest.skip("needs chromium", allow_module_level=True)

from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

REVIEW_MS = 180_000
"""The longest the first review may take on a busy machine (a worker process starts, loads the
compiled rollouts and values every decision)."""
SIZES = [(1280, 800), (390, 844)]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A real server over a database holding a finished game (Ann and an easy bot, two lives):
    its base URL and the game's code. Nobody has asked for its review yet."""
    folder = tmp_path_factory.mktemp("review")
    with TestClient(make_app(folder / "web.db", **FAST)) as client:
        code = finished_game(client, lives=2)
    with running_server(folder) as base:
        yield base, code


def _open(browser: Browser, base: str, code: str, size: tuple[int, int], seat: int | None) -> Page:
    width, height = size
    phone = width < 600
    page = new_page(browser, viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    if seat is not None:  # this browser held that seat at the table (fairness.js keeps it)
        page.add_init_script(f"localStorage.setItem('thirtyone.fair.{code}', JSON.stringify({{seat: {seat}}}))")
    page.goto(f"{base}/r/{code}")
    return page


def _review(base: str, code: str) -> dict[str, Any]:
    answer = get_json(f"{base}/api/tables/{code}/review")
    assert answer["status"] == "ready", answer
    return dict(answer["review"])


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    folder = os.environ.get("THIRTYONE_SCREENSHOTS")
    if folder:
        shutil.copy(path, Path(folder) / name)


def assert_the_played_move_is_labelled(page: Page, decision: dict[str, Any]) -> None:
    """The values at ``decision`` (shown) label the move that was played, where it stands
    among them ("played", and its mark), and no other move."""
    expect(page.locator("#review-now")).to_contain_text("(played")
    said = page.locator("#review-now .line").first.inner_text().split(": ", 1)[1].split(" · ")
    played = [index for index, move in enumerate(decision["moves"]) if move["chosen"]]
    labelled = [index for index, words in enumerate(said) if "(played" in words]
    assert labelled == played, (said, decision["moves"])
    label = f"(played: {decision['mark']})" if decision["mark"] else "(played)"
    assert said[played[0]].startswith("▸\u00a0"), said
    assert said[played[0]].endswith(label), said
    for words in said[: played[0]] + said[played[0] + 1 :]:
        assert not any(mark in words for mark in ("inaccuracy", "mistake", "blunder")), said


def test_the_page_says_the_review_is_prepared_then_shows_the_strip_of_this_browsers_seat(
    served: tuple[str, str], browser: Browser, tmp_path: Path
) -> None:
    base, code = served
    page = _open(browser, base, code, SIZES[0], seat=1)
    try:
        expect(page.locator("#review-status")).to_contain_text("The review is being prepared")
        expect(page.locator("#review-body")).to_be_visible(timeout=REVIEW_MS)
        review = _review(base, code)
        record = get_json(f"{base}/api/tables/{code}/record.json")
        expect(page.locator("#describe")).to_have_text("Scat, 2 lives")  # as the table says it, not "scat, lives=2"
        expect(page.locator("#review-about")).to_contain_text("can be more than the lives a player had")
        options = page.locator("#review-seat option")
        expect(options).to_have_count(2)
        assert options.nth(0).get_attribute("value") == "1"  # this browser's seat first, and chosen
        assert options.nth(0).inner_text() == f"{record['seats'][1]} (you)"
        assert page.locator("#review-seat").input_value() == "1"
        mine = [decision for decision in review["decisions"] if decision["seat"] == 1]
        marks = page.locator("#review-strip .mark")
        expect(marks).to_have_count(len(mine))
        assert marks.evaluate_all("nodes => nodes.map((n) => Number(n.dataset.step))") == [d["step"] for d in mine]
        assert marks.evaluate_all("nodes => nodes.map((n) => n.dataset.mark)") == [d["mark"] or "none" for d in mine]
        colours = {
            mark: marks.nth(index).evaluate("n => getComputedStyle(n).backgroundColor")
            for index, mark in reversed(list(enumerate(d["mark"] or "none" for d in mine)))
        }
        assert len(set(colours.values())) == len(colours)  # each mark its own colour
        summary = next(s for s in review["summaries"] if s["seat"] == 1)
        said = f"{record['seats'][1]}: {summary['decisions']} decision"
        expect(page.locator("#review-summary")).to_contain_text(said)
        costliest = page.locator("#review-costliest li")
        expect(costliest).to_have_count(max(len(summary["costliest"]), 1))
        target = max(mine, key=lambda d: (d["given"], -d["step"]))  # the costliest, else the first
        steps = len(record["steps"])
        page.locator(f"#review-strip .mark[data-step='{target['step']}']").click()
        expect(page.locator("#position")).to_contain_text(f"Step {target['step'] + 1} of {steps}")
        expect(page.locator(f"#review-strip .mark[data-step='{target['step']}']")).to_have_attribute(
            "aria-current", "step"
        )
        expect(page.locator("#review-now")).to_contain_text("The moves' values:")
        expect(page.locator("#review-now")).to_contain_text("▸\u00a0")
        assert_the_played_move_is_labelled(page, target)
        for decision in mine:  # every marked decision: its label beside the move that was played
            if decision["mark"]:
                page.locator(f"#review-strip .mark[data-step='{decision['step']}']").click()
                assert_the_played_move_is_labelled(page, decision)
        page.locator(f"#review-strip .mark[data-step='{target['step']}']").click()
        page.click("#next")  # the move played next is the decision's
        assert record["steps"][target["step"] + 1]["seat"] == 1
        expect(page.locator("#review-strip .mark[aria-current]")).to_have_count(
            1 if any(d["step"] == target["step"] + 1 for d in mine) else 0
        )
        if summary["costliest"]:
            costly = summary["costliest"][0]
            page.locator("#review-costliest button").first.click()
            expect(page.locator("#position")).to_contain_text(f"Step {costly['step'] + 1} of {steps}")
        page.locator(f"#review-strip .mark[data-step='{target['step']}']").click()
        assert violations(page) == []  # axe-core: the review, a decision shown
        _shot(page, tmp_path, "review-1280x800.png")
        page.select_option("#review-seat", "0")
        theirs = [decision for decision in review["decisions"] if decision["seat"] == 0]
        expect(marks).to_have_count(len(theirs))
        expect(page.locator("#review-summary")).to_contain_text(record["seats"][0])
    finally:
        page.context.close()


def test_on_a_phone_the_strip_fits_and_a_tap_goes_to_the_position(
    served: tuple[str, str], browser: Browser, tmp_path: Path
) -> None:
    base, code = served
    page = _open(browser, base, code, SIZES[1], seat=None)
    try:
        expect(page.locator("#review-body")).to_be_visible(timeout=REVIEW_MS)
        review = _review(base, code)
        assert page.locator("#review-seat").input_value() == "0"  # no seat of this browser's: seat order
        mine = [decision for decision in review["decisions"] if decision["seat"] == 0]
        marks = page.locator("#review-strip .mark")
        expect(marks).to_have_count(len(mine))
        last = mine[-1]
        mark = page.locator(f"#review-strip .mark[data-step='{last['step']}']")
        mark.scroll_into_view_if_needed()
        box = mark.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390
        mark.tap()
        steps = len(get_json(f"{base}/api/tables/{code}/record.json")["steps"])
        expect(page.locator("#position")).to_contain_text(f"Step {last['step'] + 1} of {steps}")
        expect(page.locator("#review-now")).to_contain_text("The moves' values:")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        _shot(page, tmp_path, "review-390x844.png")
    finally:
        page.context.close()


def test_the_review_is_in_the_pages_language(served: tuple[str, str], browser: Browser) -> None:
    base, code = served
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/r/{code}?lang=de")
        expect(page.locator("#review-body")).to_be_visible(timeout=REVIEW_MS)
        expect(page.locator("#review-heading")).to_have_text("Die Analyse des Spiels")
        expect(page.locator("#review-legend")).to_contain_text("grober Fehler")
        label = page.locator("#review-strip .mark").first.get_attribute("aria-label") or ""
        assert label.startswith("Runde 1, Zug ")
        stored = json.dumps(_review(base, code))
        assert "Runde" not in stored  # words are the page's, from the data
    finally:
        page.context.close()


def test_a_review_that_takes_long_says_for_how_long(served: tuple[str, str], browser: Browser) -> None:
    """A busy server's review may take a while: the page counts the seconds instead of saying the
    same sentence for ever (the server answers "pending" here as long as the test likes)."""
    base, code = served
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    try:
        page.route(
            f"**/api/tables/{code}/review",
            lambda route: route.fulfill(status=202, json={"status": "pending", "retry_after": 1}),
        )
        page.goto(f"{base}/r/{code}")
        status = page.locator("#review-status")
        expect(status).to_contain_text("The review is being prepared")
        expect(status).to_contain_text(re.compile(r"\(([3-9]|\d\d) s so far"))
    finally:
        page.context.close()


def _planted(review: dict[str, Any], seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """``review`` with the first decision of ``seat`` made a mistake that gave away 0.4123 lives
    for a rule's reason (a 31 that spares the knocker, seat 0: R5.3, R6.5), and that decision
    its seat's only costly one: the planted review and the decision."""
    planted = json.loads(json.dumps(review))
    decision = next(one for one in planted["decisions"] if one["seat"] == seat)
    reason = {
        "code": "blitz_spares_knocker",
        "key": "review.why.blitz_spares_knocker",
        "rules": ["R5.3", "R6.5"],
        "values": {"knocker": 0},
    }
    decision.update(given=0.4123, mark="mistake", reasons=[reason])
    chosen = next(move for move in decision["moves"] if move["chosen"])
    costly = {
        **{key: decision[key] for key in ("step", "round", "turn", "holding", "given", "reasons")},
        "played": chosen,
        "best": decision["moves"][0],
        "read": None,
    }
    summary = next(one for one in planted["summaries"] if one["seat"] == seat)
    summary["costliest"] = [costly]
    return planted, decision


def test_issue43_the_page_says_what_a_costly_move_gave_away_and_why_as_the_terminal_does(
    served: tuple[str, str], browser: Browser
) -> None:
    """Issue 43, item 3: the page said a costly decision as "Discard 7♠ −0.41" (review.costly, the
    form of a move's value) and gave no reason. It says "gave away 0.41 lives" (review.costly_lives,
    the terminal's sentence), the strip's mark too, and under the sentence and under the values
    shown the rule that explains it (review.why.*, its rule ids), from the review's data."""
    base, code = served
    page = _open(browser, base, code, SIZES[0], seat=1)
    try:
        expect(page.locator("#review-body")).to_be_visible(timeout=REVIEW_MS)
        record = get_json(f"{base}/api/tables/{code}/record.json")
        planted, decision = _planted(_review(base, code), seat=1)
        page.route(
            f"**/api/tables/{code}/review", lambda route: route.fulfill(json={"status": "ready", "review": planted})
        )
        page.reload()
        expect(page.locator("#review-body")).to_be_visible()
        knocker = record["seats"][0]
        why = f"why: a 31 now costs {knocker} one life, where the showdown can cost the knocker two (R5.3, R6.5)"
        costly = page.locator("#review-costliest li")
        expect(costly).to_have_count(1)
        expect(costly.locator("button")).to_contain_text(" gave away 0.41 lives; better: ")
        expect(costly.locator(".why")).to_have_text(why)
        assert "−0.41" not in costly.inner_text()
        mark = page.locator(f"#review-strip .mark[data-step='{decision['step']}']")
        assert re.search(r" gave away 0\.41 lives \(mistake\)$", mark.get_attribute("title") or "")
        mark.click()
        expect(page.locator("#review-now .line")).to_have_count(2)
        expect(page.locator("#review-now .line").nth(1)).to_have_text(why)
        assert_the_played_move_is_labelled(page, decision)
    finally:
        page.context.close()


@pytest.mark.parametrize("valuer", ["expert", "judge"])
def test_issue43_the_page_says_what_valued_the_review(served: tuple[str, str], browser: Browser, valuer: str) -> None:
    """Issue 43, item 3: the review says what valued it, above its legend: where the judge does
    not value the game, one line says so (review.fallback) and the next the expert's budget
    (review.budget_worlds: its deals a decision and seed); where the judge valued it, its line
    with its values' measured error (review.budget_judge) and no fallback line. The legend then
    says a value's meaning without naming a valuer it may not have (no "the expert's deals")."""
    base, code = served
    page = _open(browser, base, code, SIZES[0], seat=1)
    try:
        expect(page.locator("#review-body")).to_be_visible(timeout=REVIEW_MS)
        review = _review(base, code)
        if valuer == "judge":
            review.update(valuer="judge", fallback=None, judge_error=0.0412)
        else:
            review.update(valuer="expert", fallback="the judge's values are not accurate enough yet")
        page.route(
            f"**/api/tables/{code}/review", lambda route: route.fulfill(json={"status": "ready", "review": review})
        )
        page.reload()
        expect(page.locator("#review-body")).to_be_visible()
        lines = page.locator("#review-about .line").all_inner_texts()
        fallback = [line for line in lines if line.startswith("The judge does not value this game")]
        judged = [line for line in lines if line.startswith("The judge valued every decision")]
        expert = [line for line in lines if line.startswith("The expert tried")]
        if valuer == "judge":
            assert (len(fallback), len(expert), len(judged)) == (0, 0, 1), lines
            assert "(±0.04 lives, measured)" in judged[0]
        else:
            assert (len(fallback), len(expert), len(judged)) == (1, 1, 0), lines
            assert fallback[0].endswith("the expert valued it instead.")
            worlds, seed = review["budget"]["worlds"], review["budget"]["seed"]
            assert expert[0] == f"The expert tried {worlds} deals a decision (seed {seed}).", lines
            assert lines.index(fallback[0]) + 1 == lines.index(expert[0])  # the budget right under why
        legend = next(line for line in lines if line.startswith("value = "))
        assert "the expert's deals (" not in legend
        assert "as the line above says" in legend
    finally:
        page.context.close()
