"""The terminal game's hint (``?``) is the judge's where it may show its values (issue 43, item 2:
hints at once): shown as the key is pressed, every legal move valued by the judge, best first, with
what the belief reads of the opponents, and never waiting for the expert's compiled simulator; at a
table the judge's weights were not made for (namu), or whose values were not measured close enough
to the exact ones, the expert searches as before, and the app says why. No value the network gives
is written here, and each test sets the values' measured error (support.judging): the shipped
weights change."""

from __future__ import annotations

import threading

import pytest

from support.judging import values_checked
from support.tui import SIZE
from support.tui import make_app
from support.tui import settle
from support.tui import to_my_move
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.work import judge_analysis
from thirtyone.bots.work import told_reads
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.words import ENGLISH
from thirtyone.tui.words import move_words
from thirtyone.tui.words import value_text


def no_expert() -> ExpertBot:
    raise AssertionError("the expert was asked where the judge plays the table")


async def test_the_hint_is_the_judges_every_move_best_first_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    values_checked(monkeypatch)
    app = make_app("scat", 3, 8)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        assert app.hints.expert_why is None
        monkeypatch.setattr(app.session, "hint_bot", no_expert)
        view = app.session.view()
        await pilot.press("?")
        analysis = app.hints.analysis  # at once: nothing worked out on a thread
        assert analysis is not None
        expected = judge_analysis(view)
        assert analysis.estimates == expected.estimates
        assert analysis.reads == expected.reads
        assert {estimate.action for estimate in analysis.estimates} == set(view.legal_actions)
        values = [estimate.mean for estimate in analysis.estimates]
        assert values == sorted(values, reverse=True)
        hint = app.hints.text.plain
        best = analysis.estimates[0]
        assert hint.startswith(f"Hint: {move_words(best.action, view).plain} {value_text(best.mean)}")
        assert ENGLISH("tui.hint.legend") in hint
        assert ENGLISH("tui.hint.noise") not in hint  # best first: no choice kept below another
        told = told_reads(analysis.reads)
        assert ("Reads: " in hint) == bool(told)
        await pilot.press("?")  # again at the same position: the same hint
        assert app.hints.analysis is analysis
        await settle(app, pilot)


async def test_the_judges_hint_never_waits_for_the_experts_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled simulator is still being prepared (held at a gate): the hint shows anyway, and
    the status line says nothing of the expert getting ready (no expert is in play)."""
    values_checked(monkeypatch)
    gate = threading.Event()
    preparation = Preparation(lambda: "loaded" if gate.wait(30) else "unavailable")
    app = make_app("scat", 3, 8, preparation=preparation)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await to_my_move(app, pilot)
            await pilot.press("?")
            assert not preparation.ready
            assert app.hints.analysis is not None
            assert app.hints.text.plain.startswith("Hint: ")
            assert not app.hints.expert_used
            assert app.hints.note(short=False).plain == ""
            assert "getting ready" not in app.hints.note(short=True).plain
    finally:
        gate.set()


async def test_at_a_table_the_judge_was_not_made_for_the_expert_hints_and_the_app_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values_checked(monkeypatch)
    asked: list[ExpertBot] = []
    app = make_app("namu", 3, 8)
    hint_bot = app.session.hint_bot

    def expert() -> ExpertBot:
        asked.append(hint_bot())
        return asked[-1]

    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        assert app.hints.expert_why is not None
        assert "namu" in app.hints.expert_why
        monkeypatch.setattr(app.session, "hint_bot", expert)
        await pilot.press("?")
        await settle(app, pilot)
        assert len(asked) == 1
        assert app.hints.expert_used
        assert app.hints.analysis is not None
        assert app.hints.text.plain.startswith("Hint: ")


async def test_where_the_judges_values_are_not_measured_within_the_bar_the_expert_hints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values_checked(monkeypatch, gap_rmse=0.5)
    app = make_app("scat", 3, 8)
    async with app.run_test(size=SIZE) as pilot:
        await to_my_move(app, pilot)
        assert app.hints.expert_why is not None
        assert "lives from the exact ones" in app.hints.expert_why
        await pilot.press("?")
        await settle(app, pilot)
        assert app.hints.expert_used  # the expert searched
        assert app.hints.analysis is not None
