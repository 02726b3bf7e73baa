"""The review of the game just played, in the terminal (issue 32 item 2): ``r`` at the final
standings opens the person's review, made off the screen's thread, a scrollable table with the
marks, the same review ``thirtyone review`` gives of the game's record; ``tab`` and the arrows
switch seats (a review made is kept); ``esc`` stops a review being made and goes back to the
standings; at 80×24 and 120×40 everything shows, and a screenshot is taken of each."""

from __future__ import annotations

import asyncio
import io
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from support.tui import REVIEW_WORLDS
from support.tui import make_app
from support.tui import screen_text
from support.tui import settle
from support.tui import to_game_over
from thirtyone.bots.review import Decision
from thirtyone.bots.review import Reviewer
from thirtyone.bots.review import review_record
from thirtyone.tui import review_screen
from thirtyone.tui.app import ThirtyOneApp
from thirtyone.tui.review_screen import ReviewScreen
from thirtyone.tui.screens import GameOverScreen

THREAD_WAIT = 30.0
"""The most seconds a test waits for the review's thread to reach a point (it takes a moment: the
bound only keeps a broken review from hanging the suite)."""
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s.*?(inaccuracy|mistake|blunder)\b")
"""A row of the decisions' table with a mark: its round, turn and mark."""


def the_app(**options: object) -> ThirtyOneApp:
    """Seed 5, three players, two lives: the person (who plays the keys offered in turn) makes
    blunders and mistakes the review marks."""
    return make_app("scat", 3, 5, lives=2, **options)


async def open_review(app: ThirtyOneApp, pilot: Pilot[None]) -> ReviewScreen:
    await to_game_over(app, pilot)
    await pilot.press("r")
    await settle(app, pilot)
    await pilot.pause()
    assert isinstance(app.screen, ReviewScreen)
    return app.screen


def body_lines(screen: ReviewScreen, width: int) -> list[str]:
    """The review the screen shows (all of it, scrolled or not), as plain lines ``width`` cells wide."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(screen.body())
    return console.export_text().splitlines()


def marked(decisions: Iterator[Decision] | list[Decision]) -> list[tuple[int, int, str]]:
    return [(d.round, d.turn, d.mark) for d in decisions if d.mark is not None]


class ExpertReviewer(Reviewer):
    """The expert's review (a budget in deals, marks to show), where the terminal asks for the judge's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs, valuer="expert")


@pytest.fixture
def expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's reviews valued by the expert (the judge's: tests/test_review_judge.py)."""
    monkeypatch.setattr(review_screen, "Reviewer", ExpertReviewer)


@pytest.mark.usefixtures("expert")
async def test_r_at_the_standings_shows_the_persons_review_as_a_table_with_the_marks() -> None:
    app = the_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await to_game_over(app, pilot)
        assert " r  review" in screen_text(app)  # the standings' key line, and the table's under it
        screen = await open_review(app, pilot)
        assert screen.seat == 0
        assert screen.job is None
        review = screen.reviews[0]
        assert review.seats == (0,)
        assert review.worlds == REVIEW_WORLDS
        assert not review.partial
        mine = [decision for decision in review.decisions if decision.seat == 0]
        assert len(marked(mine)) >= 2  # the table below has marks to show
        shown = [(int(m[1]), int(m[2]), m[3]) for line in body_lines(screen, 76) if (m := ROW.match(line))]
        assert shown == marked(mine)
        text = screen_text(app)
        assert "Review of this game" in text
        assert "you: " in text
        assert "accuracy" in text
        assert " esc  back" in text
        assert " tab  next player" in text
        # the same review as `thirtyone review RECORD --seat 0 --budget 10` of the game's record
        again = review_record(app.records.record(), [0], worlds=REVIEW_WORLDS, seed=0, valuer="expert")
        assert again.to_json() == review.to_json()


async def test_the_review_scrolls_and_esc_goes_back_to_the_standings() -> None:
    app = the_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot)
        body = screen.query_one("#review-body")
        assert body.max_scroll_y > 0  # more than a screenful
        await pilot.press("pagedown")
        assert body.scroll_y > 0
        await pilot.press("home")
        assert body.scroll_y == 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("r")  # again: the review made is kept, nothing is valued twice
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.job is None
        assert app.screen.reviews is screen.reviews


async def test_tab_and_the_arrows_switch_seats_and_a_review_made_is_kept() -> None:
    app = the_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot)
        yours = screen.reviews[0]
        await pilot.press("tab")
        assert screen.seat == 1  # Ada's review, made now
        await settle(app, pilot)
        await pilot.pause()
        assert set(screen.reviews) == {0, 1}
        assert screen.job is None
        ada = screen.reviews[1]
        assert ada.seats == (1,)
        assert all(decision.seat == 1 for decision in ada.decisions)
        assert "Ada (basic): " in screen_text(app)
        await pilot.press("left")
        assert screen.seat == 0
        assert screen.job is None
        assert screen.reviews[0] is yours
        assert "you: " in screen_text(app)
        await pilot.press("left")  # round the table: the last seat
        assert screen.seat == 2
        await settle(app, pilot)
        await pilot.press("right")
        assert screen.seat == 0
        assert screen.reviews[0] is yours
        assert screen.reviews[1] is ada


@pytest.fixture
def slow_review(monkeypatch: pytest.MonkeyPatch) -> dict[str, threading.Event]:
    """Reviews that say when they have begun (their first decision valued) and ended, and value
    each next decision only once the test lets them go on (``go``): a review is never done before
    the test stops it, however fast the machine."""
    said = {"begun": threading.Event(), "go": threading.Event(), "ended": threading.Event()}

    class Slow(ExpertReviewer):
        def decisions(self) -> Iterator[Decision]:
            try:
                for decision in super().decisions():
                    said["begun"].set()
                    yield decision
                    if not said["go"].wait(THREAD_WAIT):
                        return
            finally:
                said["ended"].set()

    monkeypatch.setattr(review_screen, "Reviewer", Slow)
    return said


async def test_esc_stops_a_review_being_made(slow_review: dict[str, threading.Event]) -> None:
    app = the_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await to_game_over(app, pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        job = screen.job
        assert job is not None
        assert await asyncio.to_thread(slow_review["begun"].wait, THREAD_WAIT)
        text = screen_text(app)
        assert "Reviewing" in text
        assert " esc  cancel" in text
        assert screen.query_one("#review-progress").display
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert job.cancelled
        slow_review["go"].set()
        assert slow_review["ended"].wait(THREAD_WAIT)  # the thread stopped after the decision it was valuing
        assert job.total is not None
        assert job.done < job.total
        assert screen.reviews == {}  # nothing half-made is kept
        assert app._exception is None


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_review_fits_the_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    app = the_app()
    async with app.run_test(size=size) as pilot:
        await open_review(app, pilot)
        text = screen_text(app).splitlines()
        assert len(text) == size[1]
        assert "Review of this game" in text[1]
        keys = text[-2]
        assert " esc  back" in keys
        assert " q  quit" in keys
        assert any("Round Turn Hand" in line for line in text)
        saved = Path(app.save_screenshot(f"review-{size[0]}x{size[1]}.svg", str(tmp_path)))
        assert saved.read_text(encoding="utf-8").startswith("<svg")


VALUE_ALONE = re.compile(r"^\s*[−+]\d+[.,]\d\d\s*$")
"""A line of the review that holds a value and nothing else: a move's value wrapped off its move."""


@pytest.mark.parametrize("lang", ["cs", "en"])
async def test_issue40_the_review_at_80_columns_gives_the_moves_their_width(lang: str) -> None:
    """Issue 40, item 5: at 80 columns the moves' column wrapped values onto lines of their own
    ("▸ Vzít karty na stole naslepo" over "−0,30", widow, seed 5) while the hand, the lives given
    away and the mark kept their columns. Where the six columns do not fit, what a move gave away
    and its mark go under the hand, the lives after "Given away" (issue 42); where they fit, the
    table keeps them."""
    app = make_app("widow", 3, 5, lives=1, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot)
        for _ in range(200):
            if screen.seat in screen.reviews:
                break
            await settle(app, pilot)
            await pilot.pause(0.05)
        lines = body_lines(screen, 76)  # the review's body at 80 columns
        wide = body_lines(screen, 160)
    assert not [line for line in lines if VALUE_ALONE.match(line)], "\n".join(lines)
    given = app.translate("review.column.given")
    assert any(given in line for line in wide)  # wide enough: the six columns
    if lang == "cs":  # the lives given away under the hand, after their column's name (issue 42)
        assert not any(line.lstrip().startswith("Kolo") and given in line for line in lines)  # no column
        assert any(re.match(rf" +{given} \d+,\d\d ", line) for line in lines)


@pytest.mark.usefixtures("expert")
async def test_issue43_each_decision_shows_its_noise_and_the_rules_behind_its_mark() -> None:
    """Issue 43: the noise of the values was never shown, and a mark that rests on a rule gave no
    reason. At 80 columns every decision says its noise under its hand ("Noise ±0.12", "Noise
    exact" on a counted last turn), each reason under the moves starts with "why:" and ends with
    its rule ids, a reason that wraps keeping its indent, and the legend says what a value is."""
    app = the_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(app, pilot)
        review = screen.reviews[0]
        lines = body_lines(screen, 76)
    noise = [line for line in lines if re.search(r"^\s+Noise (±\d\.\d\d|exact)\b", line)]
    assert len(noise) == len(review.decisions)
    explained = [decision for decision in review.decisions if decision.reasons]
    assert explained  # this game has marks that rules explain
    whys = [i for i, line in enumerate(lines) if re.search(r"\swhy: \S", line)]
    assert len(whys) == sum(len(decision.reasons) for decision in explained) + sum(
        len(decision.reasons) for decision in review.summaries[0].costliest
    )
    table = [i for i in whys if not lines[i].startswith("   why: ")]  # the table's, not the costliest's
    for i in table:
        column = lines[i].index("why: ") + len("why: ")
        j = i + 1
        while not re.search(r"\(R\d+\.\d+(, R\d+\.\d+)*\)\s*$", lines[j - 1]):  # the reason goes on
            assert lines[j][:column].strip() == "", lines[j]  # under the reason, not under "why:"
            j += 1
    assert any("(their average)" in line for line in lines)
