"""The review valued by the judge (issue 43 item 3): the same marks under any seed and budget,
the judge's values best first (a last turn after a knock counted exactly, R6.2, a draw valued by
its best discard; the network's values elsewhere, each with the network's measured error as its
standard error, the floor raised to it), the valuer said in the text and the JSON, and a record
whose rules the judge was not trained for, or whose values' error is too large or unmeasured,
reviewed by the expert, said in one line. No value the network gives is written here, nor its
measured error: its weights change (the tests stamp an error of their own, :data:`ERROR`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from support.review import BUDGET
from support.review import random_game
from support.review import review_cli
from support.review import scat2_last_turn
from support.tui import REVIEW_WORLDS
from support.tui import make_app
from support.tui import settle
from support.tui import to_game_over
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.judge import VALUE_ERROR_BAR
from thirtyone.bots.judge import JudgeBot
from thirtyone.bots.judge import shipped_judge
from thirtyone.bots.review import THRESHOLDS
from thirtyone.bots.review import VERSION
from thirtyone.bots.review import Decision
from thirtyone.bots.review import Move
from thirtyone.bots.review import Review
from thirtyone.bots.review import Reviewer
from thirtyone.bots.review import review_record
from thirtyone.bots.runner import play_game
from thirtyone.bots.work import judge_analysis
from thirtyone.bots.work import told_reads
from thirtyone.errors import ArgumentError
from thirtyone.i18n import messages
from thirtyone.judge.lastturn import last_turn
from thirtyone.record import GameRecord
from thirtyone.tui import history
from thirtyone.tui.history import History
from thirtyone.tui.history import keep_review
from thirtyone.tui.history import review_path
from thirtyone.tui.history import reviewed
from thirtyone.tui.prepare import Preparation
from thirtyone.tui.review_screen import ReviewJob
from thirtyone.tui.review_screen import ReviewScreen
from thirtyone.tui.review_text import review_lines

JUDGE_LINE = "The judge valued every decision, the same under any seed"
FALLBACK_LINE = (
    "The judge does not value this game (rules or a table size it was not trained for, or values not yet "
    "accurate enough): the expert valued it instead."
)
ERROR = 0.04
"""The error the tests stamp on the shipped weights' values (below the bar: the judge values)."""


def stamped(monkeypatch: pytest.MonkeyPatch, error: float | None) -> None:
    """The shipped full game's weights with their values' error measured as ``error`` (``None``: never)."""
    meta = shipped_judge().meta
    if error is None:
        monkeypatch.delitem(meta, "value_check", raising=False)
    else:
        monkeypatch.setitem(meta, "value_check", {"gap_rmse": error, "positions": 9, "command": "a test"})


@pytest.fixture(scope="module", autouse=True)
def checked() -> Iterator[None]:
    """Weights whose values' error is :data:`ERROR`, for every test here."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        stamped(monkeypatch, ERROR)
        yield


@pytest.fixture(scope="module")
def played() -> GameRecord:
    """A whole three-player scat game of heuristic bots (last turns sampled, R6.2, and the network's)."""
    game = play_game(Rules.preset("scat"), [make_bot("heuristic", seed) for seed in (1, 2, 3)], seed=5)
    return GameRecord.from_game(game, ["Ann", "Ben", "Cy"])


@pytest.fixture(scope="module")
def judged(played: GameRecord) -> Review:
    return review_record(played)


def shown(review: Review) -> list[str]:
    return [line.plain for line in review_lines(messages("en"), review, "game.toml") if isinstance(line, Text)]


def test_the_judges_review_is_the_same_under_any_seed_and_budget(played: GameRecord, judged: Review) -> None:
    """Issue 43: seed 1 against seed 0 changed 6 of 102 marks; the judge's marks never change."""
    assert (judged.valuer, judged.fallback) == ("judge", None)
    other = review_record(played, seed=1, worlds=7, rollouts="engine")
    assert [decision.to_json() for decision in other.decisions] == [d.to_json() for d in judged.decisions]
    assert [summary.to_json() for summary in other.summaries] == [s.to_json() for s in judged.summaries]


def test_each_decision_has_the_judges_values_best_first(judged: Review) -> None:
    sources = {decision.source for decision in judged.decisions}
    assert {"network", "sampled"} <= sources <= {"network", "sampled", "exact"}  # sampled at three players
    for decision in judged.decisions:
        valued = JudgeBot().values(decision.view)
        assert [(m.action, m.value) for m in decision.moves] == [(m.action, m.value) for m in valued.moves]
        assert decision.source == valued.source
        assert decision.expert == valued.best.action
        if decision.source == "network":  # no sampling: the network's measured error is the noise
            assert [(m.stderr, m.gap_stderr, m.worlds) for m in decision.moves] == [
                (ERROR, ERROR if number else 0.0, 0) for number in range(len(decision.moves))
            ]
            assert decision.stderr == ERROR
        else:
            assert all(move.worlds == valued.worlds > 0 for move in decision.moves)
            assert [m.gap_stderr for m in decision.moves] == [m.gap_stderr for m in valued.moves]


def test_r6_2_a_last_turn_is_valued_exactly_and_a_draw_by_its_best_discard() -> None:
    """Issue 43's position: Ben holds A♠ K♠ 7♠ with Q♠ on the pile on his last turn (two players,
    scat). Taking Q♠ is valued by its best discard, and gives nothing away; the 31 completed
    after it is a blunder that says why (R5.3, R6.5) — every value counted over every deal."""
    game = scat2_last_turn("draw pile", "discard 7s")
    review = review_record(GameRecord.from_game(game, ["Ben", "Ada"]), [0])
    take, discard = review.decisions
    assert (take.source, discard.source) == ("exact", "exact")
    assert take.view.discard_top is not None
    assert str(take.view.discard_top) == "Qs"
    assert {m.action: m.value for m in take.moves} == last_turn(take.view).values
    assert take.stderr == discard.stderr == 0
    after = scat2_last_turn("draw pile").view(0)
    assert take.chosen.action == Draw("pile")
    assert take.chosen.value == pytest.approx(max(last_turn(after).values.values()))
    assert (take.given, take.mark) == (0.0, None)
    assert {m.action: m.value for m in discard.moves} == last_turn(after).values
    assert discard.mark == "blunder"
    assert [reason.code for reason in discard.reasons] == ["blitz_spares_knocker"]


@pytest.mark.parametrize("below", [True, False])
def test_a_network_value_within_the_judges_error_gives_nothing_away(below: bool) -> None:
    """The network has no sampling error but an approximation error (its measured one): a move
    less than that error below the network's best gives nothing away (the floor raised to it);
    beyond, it is marked by the lives it gave."""
    view = scat2_last_turn().view(0)
    loss = ERROR + (-0.01 if below else 0.01)
    moves = (Move(Draw("stock"), 0.5, ERROR, 0.0, 0), Move(Draw("pile"), 0.5 - loss, ERROR, ERROR, 0))
    decision = Decision(1, 1, view, Draw("pile"), moves, (), Draw("stock"), "network")
    assert decision.noise == pytest.approx(ERROR)
    assert decision.given == (0.0 if below else pytest.approx(loss))
    assert decision.accurate is below
    assert decision.to_json()["source"] == "network"


def test_the_bars_stand_as_lives_given_and_the_error_is_shown(judged: Review) -> None:
    """The marks' bars stay the lives a move gave away and stand above any error the judge's
    values are shown with; that error raises the floor of the network's values (the noise) and is
    shown: in each decision's noise, in the valuer's line and in the JSON."""
    assert list(THRESHOLDS.values()) == sorted(THRESHOLDS.values())
    assert THRESHOLDS["inaccuracy"] >= VALUE_ERROR_BAR
    assert judged.judge_error == ERROR
    network = [decision for decision in judged.decisions if decision.source == "network"]
    assert network
    assert all(decision.to_json()["stderr"] == ERROR for decision in network)
    assert all(decision.given == 0 or decision.loss > decision.noise for decision in judged.decisions)
    lines = shown(judged)
    assert sum(line.startswith(JUDGE_LINE) for line in lines) == 1
    assert f"(±{ERROR:.2f} lives, measured)" in next(line for line in lines if line.startswith(JUDGE_LINE))
    assert not any(line.startswith("The expert tried") for line in lines)


def test_the_reads_are_made_for_the_decisions_a_sentence_tells(judged: Review) -> None:
    """The costliest decisions' sentences tell the hint's reads ("while Ben seemed to be
    collecting hearts"); no other decision pays for the belief's worlds."""
    told = {decision.step: decision for summary in judged.summaries for decision in summary.costliest}
    assert told
    for decision in judged.decisions:
        if decision.step in told:
            assert decision.reads == tuple(told_reads(judge_analysis(decision.view).reads))
            assert told[decision.step] is decision
        else:
            assert decision.reads == ()
    assert any(decision.read is not None for decision in told.values())


def test_the_json_says_the_valuer_and_each_decisions_source(judged: Review) -> None:
    data = judged.to_json()
    assert (data["version"], data["valuer"], data["fallback"], data["judge_error"]) == (3, "judge", None, ERROR)
    assert VERSION == 3
    assert [decision["source"] for decision in data["decisions"]] == [d.source for d in judged.decisions]


def test_the_expert_values_when_asked(played: GameRecord) -> None:
    review = review_record(played, [0], **BUDGET)
    assert (review.valuer, review.fallback) == ("expert", None)
    # the expert's searches, and its last turns after a knock counted (no seed to vary there)
    assert {decision.source for decision in review.decisions} <= {"expert", "exact", "sampled"}
    assert any(decision.source == "expert" for decision in review.decisions)
    lines = shown(review)
    assert "The expert tried 20 deals a decision (seed 0)." in lines
    assert FALLBACK_LINE not in lines


def test_rules_the_judge_was_not_trained_for_fall_back_to_the_expert_in_one_line() -> None:
    """Issue 43, bad input: namu (the judge's weights were made for scat, schwimmen and widow)."""
    game = random_game(Rules.preset("namu"), 3, 2, actions=12)
    record = GameRecord.from_game(game, ["Ann", "Ben", "Cy"])
    review = review_record(record, [0], worlds=4, rollouts="engine")
    assert review.valuer == "expert"
    assert review.fallback == JudgeBot().cannot_play(record.rules, 3) == JudgeBot().cannot_value(record.rules, 3)
    assert review.fallback is not None
    assert "namu" in review.fallback
    # the expert's searches, and its last turns after a knock counted (no seed to vary there)
    assert {decision.source for decision in review.decisions} <= {"expert", "exact", "sampled"}
    assert any(decision.source == "expert" for decision in review.decisions)
    lines = shown(review)
    assert lines.count(FALLBACK_LINE) == 1
    assert lines[lines.index(FALLBACK_LINE) + 1] == "The expert tried 4 deals a decision (seed 0)."
    assert review.to_json()["valuer"] == "expert"


@pytest.mark.parametrize("error", [VALUE_ERROR_BAR + 0.01, None])
def test_values_not_accurate_enough_or_unmeasured_fall_back_to_the_expert(
    monkeypatch: pytest.MonkeyPatch, played: GameRecord, error: float | None
) -> None:
    """The judge's values are shown only where their measured error is within the bar; last turns
    after a knock are counted exactly either way (the expert counts them too)."""
    stamped(monkeypatch, error)
    review = review_record(played, [0], worlds=3, rollouts="engine")
    assert (review.valuer, review.judge_error) == ("expert", None)
    assert review.fallback == JudgeBot().cannot_value(played.rules, played.players)
    assert shown(review).count(FALLBACK_LINE) == 1
    last = [d for d in review.decisions if d.view.knocker is not None and d.view.current_seat == d.seat]
    assert last
    for decision in last:
        exact = JudgeBot().values(decision.view)
        assert {m.action: m.value for m in decision.moves} == {m.action: m.value for m in exact.moves}


def test_a_valuer_not_known_is_refused(played: GameRecord) -> None:
    with pytest.raises(ArgumentError, match="the review's valuer is judge or expert, not 'gpu'"):
        Reviewer(played, valuer="gpu")


def test_the_cli_says_which_valuer_valued(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, played: GameRecord
) -> None:
    path = tmp_path / "game.toml"
    path.write_text(played.dumps(), encoding="utf-8")
    status, out, err = review_cli(capsys, str(path), "--seat", "0")
    assert (status, err) == (0, "")
    assert " ".join(out.split()).count(JUDGE_LINE) == 1
    assert review_cli(capsys, str(path), "--seat", "0", "--seed", "9")[1] == out  # any seed: the same review
    status, out, _ = review_cli(capsys, str(path), "--seat", "0", "--json")
    assert '"valuer": "judge"' in out
    namu = tmp_path / "namu.toml"
    game: Game = random_game(Rules.preset("namu"), 2, 3, actions=8)
    namu.write_text(GameRecord.from_game(game, ["Ann", "Ben"]).dumps(), encoding="utf-8")
    status, out, err = review_cli(capsys, str(namu), "--budget", "3:engine")
    assert (status, err) == (0, "")
    assert " ".join(out.split()).count(FALLBACK_LINE) == 1


def test_the_terminals_review_is_the_judges_and_waits_for_no_compiler(played: GameRecord, judged: Review) -> None:
    """The review opened with ``r`` after a game: the judge needs no compiled rollouts, so a
    preparation that never ends (never started here) keeps nothing waiting."""
    job = ReviewJob(played, 1, 10, Preparation(lambda: None))
    review = job.run()
    assert review is not None
    assert (review.valuer, job.done, job.total) == ("judge", len(review.decisions), len(review.decisions))
    assert [d.to_json() for d in review.decisions] == [d.to_json() for d in judged.decisions if d.seat == 1]


def test_a_review_kept_beside_a_game_is_read_by_stats_not_made_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, played: GameRecord, judged: Review
) -> None:
    path = History(tmp_path).keep(played, 1, seed=5)
    assert path is not None
    budget: dict[str, Any] = {"worlds": 300, "seconds": None, "seed": 0, "rollouts": "auto"}
    kept = keep_review(path, judged, **budget)
    yours = judged.summaries[0]
    assert (kept.decisions, kept.accurate, kept.given) == (yours.decisions, yours.accurate, yours.given)
    monkeypatch.setattr(history, "review_record", None)  # reading it must not review again
    assert reviewed(path, played, **budget) == kept


async def test_the_review_opened_after_a_game_is_kept_in_your_history(tmp_path: Path) -> None:
    """Issue 43: ``r`` at the final standings reviews your seat; ``thirtyone stats`` then finds that
    review beside the kept game instead of making it again."""
    app = make_app("scat", 3, 5, lives=2)
    app.history = History(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_game_over(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        review = screen.reviews[0]
    [record_path] = sorted(tmp_path.glob("*.toml"))
    data = json.loads(review_path(record_path).read_text(encoding="utf-8"))
    made_by = data["review"]
    assert (made_by["version"], made_by["worlds"], made_by["seed"]) == (VERSION, REVIEW_WORLDS, 0)
    record = GameRecord.loads(record_path.read_text(encoding="utf-8"))
    budget = {key: made_by[key] for key in ("worlds", "seconds", "seed", "rollouts")}
    found = reviewed(record_path, record, **budget)
    assert (found.decisions, found.accurate) == (review.summaries[0].decisions, review.summaries[0].accurate)
