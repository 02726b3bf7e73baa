"""``thirtyone review RECORD`` and the review model (issue 32 item 1): every decision of a seat valued
from what that seat saw, never the hidden cards; what a move gave away beyond the noise and its
mark by the thresholds; each seat's summary and costliest decisions in sentences; the progress
bar; records of every version and from every source, unfinished ones up to their last move;
one-line errors with exit status 2; Ctrl-C keeps what is done; the same seed and worlds give the
same review. Small budgets (a few worlds, the engine's rollouts) keep it fast."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from cli_helpers import cli_error_line
from helpers import FallbackChance
from helpers import as_version
from helpers import deck_order
from support.review import BUDGET
from support.review import random_game
from support.review import review_cli
from support.review import scat2_last_turn
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Rules
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.review import BATCHES
from thirtyone.bots.review import COSTLIEST
from thirtyone.bots.review import FLOOR
from thirtyone.bots.review import MARKS
from thirtyone.bots.review import NOISE
from thirtyone.bots.review import THRESHOLDS
from thirtyone.bots.review import VERSION
from thirtyone.bots.review import Decision
from thirtyone.bots.review import Move
from thirtyone.bots.review import Reason
from thirtyone.bots.review import Review
from thirtyone.bots.review import Reviewer
from thirtyone.bots.review import mark_of
from thirtyone.bots.review import review_record
from thirtyone.cards import format_cards
from thirtyone.cli import main
from thirtyone.i18n import messages
from thirtyone.record import GameRecord
from thirtyone.tui.review_text import lives_text
from thirtyone.tui.review_text import reason_text
from thirtyone.tui.review_text import review_lines
from thirtyone.tui.review_text import sentence_text
from thirtyone.tui.words import value_text
from thirtyone.views import Phase

DATA = Path(__file__).parent / "data"
CLI_BUDGET = ["--valuer", "expert", "--budget", "20:engine"]
"""The expert's review (the judge's: tests/test_review_judge.py)."""


@pytest.fixture(scope="module")
def short() -> GameRecord:
    """The first 14 actions of a three-player game: unfinished, in round 1."""
    record = GameRecord.from_game(random_game(Rules.preset("scat"), 3, seed=1, actions=14), ["Ann", "Ben", "Cy"])
    assert len(record.rounds) == 1
    assert record.rounds[0].result is None
    return record


@pytest.fixture(scope="module")
def short_review(short: GameRecord) -> Review:
    return review_record(short, **BUDGET)


@pytest.fixture(scope="module")
def finished() -> GameRecord:
    """A whole game of random moves, three players, one life each: plenty of costly decisions."""
    return GameRecord.from_game(random_game(Rules.preset("scat", lives=1), 3, seed=3), ["Ann", "Ben", "Cy"])


@pytest.fixture(scope="module")
def finished_review(finished: GameRecord) -> Review:
    return review_record(finished, **BUDGET)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A record ``thirtyone simulate --record DIR`` wrote: random bots, three players, one life."""
    folder = tmp_path_factory.mktemp("simulate") / "records"
    args = ["simulate", "--bots", "random", "--players", "3", "--games", "1", "--lives", "1", "--seed", "2"]
    assert main([*args, "--record", str(folder)]) == 0
    return folder / "game-000001.toml"


# ---------------------------------------------------------------------------------------------- the model


def test_each_decision_values_every_legal_move_from_what_its_seat_saw(short: GameRecord, short_review: Review) -> None:
    moves = [(seat, action) for rnd in short.rounds for seat, action in rnd.actions]
    by_step = {decision.step: decision for decision in short_review.decisions}
    for step, game in enumerate(short.replay_steps()):
        if step == len(moves):
            break
        seat, action = moves[step]
        legal = game.legal_actions()
        if len(legal) < 2 or game.phase is Phase.LOOK:
            assert step not in by_step
            continue
        decision = by_step.pop(step)
        assert (decision.seat, decision.round, decision.played) == (seat, game.round, action)
        assert decision.view == game.view(seat)  # what the seat saw then, nothing more
        assert sorted(map(str, (move.action for move in decision.moves))) == sorted(map(str, legal))
        values = [move.value for move in decision.moves]
        assert values == sorted(values, reverse=True)
        assert decision.chosen.action == action
        assert all(move.worlds == 20 for move in decision.moves)
        assert decision.best.gap_stderr == 0.0
    assert not by_step
    assert short_review.total == len(short_review.decisions) > 8


def test_the_review_never_sees_the_hidden_cards(short: GameRecord, short_review: Review) -> None:
    """Cards seat 0 never saw (one of Ben's, the stock's last) change places: its review is the same."""
    game = short.replay(0)
    deck = list(short.rounds[0].deck)
    played_by_ben = {str(action).split()[-1] for seat, action in short.rounds[0].actions if seat == 1}
    hidden = next(card for card in game.hand(1) if str(card) not in played_by_ben)
    bottom = deck[-1]
    assert bottom not in game.hand(0)
    assert bottom not in game.hand(1)
    assert bottom not in game.hand(2)
    deck[deck.index(hidden)], deck[-1] = bottom, hidden
    other = dataclasses.replace(short, rounds=(dataclasses.replace(short.rounds[0], deck=tuple(deck)),))
    assert other.replay().hand(1) != short.replay().hand(1)  # the hidden cards do differ
    mine = [decision.to_json() for decision in short_review.decisions if decision.seat == 0]
    assert mine
    assert [decision.to_json() for decision in review_record(other, [0], **BUDGET).decisions] == mine


@pytest.mark.parametrize(
    ("given", "mark"),
    [(0.0, None), (0.049, None), (0.05, "inaccuracy"), (0.149, "inaccuracy"), (0.15, "mistake"), (0.4, "blunder")],
)
def test_marks_follow_the_documented_thresholds(given: float, mark: str | None) -> None:
    assert mark_of(given) == mark
    assert MARKS == ("inaccuracy", "mistake", "blunder")
    assert list(THRESHOLDS.values()) == [0.05, 0.15, 0.4]


def crafted(decision: Decision, best: float, played: float, gap_stderr: float) -> Decision:
    """``decision`` with two moves: the best, and the one played, ``gap_stderr`` apart in noise (no
    batches: tests/test_review_batches.py has those)."""
    other = next(move for move in decision.moves if move.action != decision.played)
    return dataclasses.replace(
        decision,
        moves=(Move(other.action, best, 0.1, 0.0, 20), Move(decision.played, played, 0.1, gap_stderr, 20)),
        batches=(),
    )


def test_a_move_within_the_noise_gives_nothing_away(short_review: Review) -> None:
    decision = short_review.decisions[0]
    within = crafted(decision, best=0.5, played=0.3, gap_stderr=0.2 / NOISE)  # the loss is the noise itself
    assert (within.loss, within.given, within.accurate, within.mark) == (pytest.approx(0.2), 0.0, True, None)
    beyond = crafted(decision, best=0.5, played=0.3, gap_stderr=0.05)
    assert (beyond.given, beyond.accurate, beyond.mark) == (pytest.approx(0.2), False, "mistake")
    blunder = crafted(decision, best=0.5, played=-0.5, gap_stderr=0.1)
    assert (blunder.given, blunder.mark) == (pytest.approx(1.0), "blunder")
    best = crafted(decision, best=0.1, played=0.3, gap_stderr=0.0)  # the move played is the best
    assert (best.loss, best.given, best.accurate) == (0.0, 0.0, True)


def test_each_seat_summary_adds_up_its_decisions(finished: GameRecord, finished_review: Review) -> None:
    summaries = finished_review.summaries
    assert [summary.seat for summary in summaries] == [0, 1, 2]
    out_after: dict[int, int] = {}
    for rnd in finished.rounds:
        assert rnd.result is not None
        for seat in rnd.result.eliminated:
            out_after[seat] = rnd.round
    for summary in summaries:
        mine = [decision for decision in finished_review.decisions if decision.seat == summary.seat]
        assert summary.decisions == len(mine) > 0
        assert summary.accurate == sum(decision.accurate for decision in mine)
        assert summary.accuracy == pytest.approx(summary.accurate / summary.decisions)
        assert summary.given == pytest.approx(sum(decision.given for decision in mine))
        assert summary.rounds == out_after.get(summary.seat, len(finished.rounds))
        assert summary.per_round == pytest.approx(summary.given / summary.rounds)
        assert summary.marks == tuple(sum(decision.mark == mark for decision in mine) for mark in MARKS)
        costly = sorted((d for d in mine if d.given > 0), key=lambda d: -d.given)[:COSTLIEST]
        assert [d.step for d in summary.costliest] == [d.step for d in costly]
    assert any(summary.accuracy is not None and summary.accuracy < 1 for summary in summaries)  # random play
    assert sum(len(summary.costliest) for summary in summaries) >= 3
    assert sum(sum(summary.marks) for summary in summaries) > 0


def test_a_costly_decision_is_said_in_a_sentence_from_its_data(finished_review: Review) -> None:
    decision = next(d for summary in finished_review.summaries for d in summary.costliest)
    names = finished_review.names
    plain = sentence_text(messages("en"), dataclasses.replace(decision, reads=()), names).plain
    start = f"Round {decision.round}, turn {decision.turn}, holding {decision.holding}: "
    assert plain.startswith(start)
    assert f" gave away {lives_text(decision.given)} lives; better: " in plain  # issue 43: not "−0.41"
    assert value_text(-decision.given) not in plain
    read = dataclasses.replace(decision, reads=((1, "h", 0.8),))
    plain = sentence_text(messages("en"), read, names).plain
    assert plain.startswith(f"{start[:-2]}, while Ben seemed to be collecting hearts: ")
    german = sentence_text(messages("de"), read, names).plain
    assert german.startswith(f"Runde {decision.round}, Zug {decision.turn}, mit {decision.holding} auf der Hand")
    assert "während Ben wahrscheinlich Herz sammelte" in german
    assert f" verschenkte {lives_text(decision.given, messages('de'))} Leben; besser: " in german


def test_a_seed_and_worlds_give_the_same_review_whichever_seats(short: GameRecord, short_review: Review) -> None:
    again = review_record(short, **BUDGET)
    assert again.to_json() == short_review.to_json()
    alone = review_record(short, [1], **BUDGET)
    assert [d.to_json() for d in alone.decisions] == [d.to_json() for d in short_review.decisions if d.seat == 1]
    other = review_record(short, [1], seed=9, **BUDGET)
    assert [d.to_json() for d in other.decisions] != [d.to_json() for d in alone.decisions]


def test_an_unfinished_game_is_reviewed_up_to_its_last_move(short: GameRecord, short_review: Review) -> None:
    assert short.winner is None
    assert short.rounds[-1].result is None
    assert (short_review.finished, short_review.partial) == (False, False)
    assert short_review.decisions[-1].step == short.action_count - 1
    assert [summary.rounds for summary in short_review.summaries] == [1, 1, 1]


@pytest.mark.parametrize(
    ("preset", "options"),
    [("widow", {}), ("schwimmen", {}), ("scat", {"throw_down": True}), ("widow", {"exchange": "any"})],
)
def test_every_kind_of_move_is_valued_and_said(preset: str, options: dict[str, Any]) -> None:
    game = random_game(Rules.preset(preset, **options), 3, seed=11, actions=20)
    review = review_record(GameRecord.from_game(game, ["Ann", "Ben", "Cy"]), worlds=4, rollouts="engine")
    assert review.decisions
    for decision in review.decisions:
        assert {move.action for move in decision.moves} == set(decision.view.legal_actions)
    assert review_lines(messages("en"), review, "game.toml")  # every move in words


def test_a_bad_budget_or_seat_is_refused_by_the_library(short: GameRecord) -> None:
    from thirtyone.errors import ArgumentError
    from thirtyone.errors import SeatError

    with pytest.raises(SeatError, match="seat 3 is not in this 3-player game: seats are 0-2"):
        Reviewer(short, [3])
    with pytest.raises(ArgumentError, match="worlds per decision are 1 to 1,000,000"):
        Reviewer(short, worlds=0)
    with pytest.raises(ArgumentError, match="seconds per decision are more than 0"):
        Reviewer(short, seconds=0.0)
    with pytest.raises(ArgumentError, match="seed is a whole number"):
        Reviewer(short, seed=1.5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------- the command


def test_review_prints_each_seat_its_decisions_and_costliest(
    capsys: pytest.CaptureFixture[str], simulated: Path
) -> None:
    status, out, err = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0")
    assert (status, err) == (0, "")
    assert out.startswith(f"Review of {simulated}\n")
    out = " ".join(out.split())  # as one line: rich wraps at 80 columns
    assert "The expert tried 20 deals a decision (seed 0)." in out
    assert "inaccuracy from 0.05, mistake from 0.15, blunder from 0.40." in out
    assert "random (seat 0): " in out
    assert "random (seat 1): " not in out
    assert "accuracy " in out
    assert "lives given away " in out
    for header in ("Round", "Turn", "Hand", "Given away", "Mark", "Moves and their values"):
        assert header in out
    assert "▸ " in out
    assert "Costliest decisions: 1. Round " in out
    assert "; better: " in out
    assert "not finished" not in out
    assert "PARTIAL" not in out


def test_review_in_a_language_it_lacks_says_it_reviews_in_english(
    capsys: pytest.CaptureFixture[str], simulated: Path
) -> None:
    status, out, err = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0", "--lang", "tlh")
    assert status == 0
    assert 'Language "tlh" is not available; reviewing in English.' in err
    assert out.startswith("Review of ")


def test_review_takes_a_seed_of_any_length(capsys: pytest.CaptureFixture[str], simulated: Path) -> None:
    """A 30-digit seed is said as the language writes numbers (decimal's 28 digits refused it)."""
    status, out, _ = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0", "--seed", str(10**29))
    assert status == 0
    assert "(seed 100,000,000,000,000,000,000,000,000,000)" in " ".join(out.split())


def test_review_into_a_pipe_keeps_each_sentence_on_its_line(
    capsys: pytest.CaptureFixture[str], simulated: Path, tmp_path: Path
) -> None:
    deep = tmp_path / ("a-long-folder-name-" * 5) / "game.toml"
    deep.parent.mkdir()
    deep.write_bytes(simulated.read_bytes())
    status, out, _ = review_cli(capsys, str(deep), *CLI_BUDGET, "--seat", "0")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"Review of {deep}"
    costliest = lines.index("Costliest decisions:")
    after = [line for line in lines[costliest + 1 :] if line]
    sentences = [line for line in after if not line.startswith("   why: ")]
    assert sentences
    assert all(line.split(". ", 1)[1].count("; better: ") == 1 for line in sentences)
    assert all(line.endswith(")") for line in after if line.startswith("   why: "))  # a reason and its rule ids


def test_review_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str], simulated: Path) -> None:
    status, out, _ = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0", "--lang", "de")
    assert status == 0
    assert out.startswith(f"Analyse von {simulated}\n")
    out = " ".join(out.split())
    assert "Der Experte probierte 20 Verteilungen pro Entscheidung (Saat 0)." in out
    assert "Genauigkeit" in out
    assert "Teuerste Entscheidungen:" in out
    assert "besser: " in out
    assert "Costliest" not in out


@pytest.mark.parametrize("columns", ["80", "60"])
def test_review_in_80_columns_or_fewer_says_what_each_move_gave_away(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, columns: str
) -> None:
    """A new user's finding (issue 42): where the moves need the width (schwimmen's exchanges, 80
    columns), what a move gave away goes under the hand, and it lost its label ("Given away")
    with the column: "0.29 mistake" said nothing of what 0.29 is."""
    args = ["simulate", "--preset", "schwimmen", "--bots", "random", "--players", "3", "--games", "1", "--seed", "5"]
    assert main([*args, "--record", str(tmp_path)]) == 0
    capsys.readouterr()
    record = str(tmp_path / "game-000001.toml")
    monkeypatch.setenv("COLUMNS", columns)
    status, out, _ = review_cli(capsys, record, *CLI_BUDGET, "--seat", "0")
    assert status == 0
    lines = out.splitlines()
    marks = [i for i, line in enumerate(lines) if re.fullmatch(r" +(inaccuracy|mistake|blunder) .*", line)]
    assert marks  # random play gives lives away
    assert all(re.match(r" +Given away \d+\.\d\d ", lines[i - 1]) for i in marks), out


def test_review_json_is_the_data_with_sentences(capsys: pytest.CaptureFixture[str], simulated: Path) -> None:
    status, out, err = review_cli(capsys, str(simulated), *CLI_BUDGET, "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert (data["format"], data["version"], data["file"]) == ("thirtyone-review", VERSION, str(simulated))
    assert (data["finished"], data["partial"], data["seats"]) == (True, False, [0, 1, 2])
    assert data["budget"] == {"worlds": 20, "seconds": None, "seed": 0, "batches": BATCHES}
    assert data["thresholds"] == THRESHOLDS
    assert data["noise"] == NOISE
    assert len(data["decisions"]) == data["total"] > 0
    for decision in data["decisions"]:
        assert decision["played"] in [move["action"] for move in decision["moves"]]
        assert decision["best"] == decision["moves"][0]["action"]
        assert decision["mark"] == mark_of(min([decision["given"], *decision["batches"]]))
    costly = [entry for summary in data["summaries"] for entry in summary["costliest"]]
    assert costly
    for entry in costly:
        assert entry["sentence"].startswith(f"Round {entry['round']}, turn {entry['turn']}, holding ")
        assert entry["given"] > 0


def test_the_same_seed_and_budget_give_the_same_review(capsys: pytest.CaptureFixture[str], simulated: Path) -> None:
    runs = [
        review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "1", "--seed", seed, "--json")[1] for seed in "778"
    ]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_a_progress_bar_shows_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, short: GameRecord, tmp_path: Path
) -> None:
    path = tmp_path / "short.toml"
    path.write_text(short.dumps(), encoding="utf-8")
    assert "Reviewing" not in review_cli(capsys, str(path), *CLI_BUDGET, "--seat", "0")[2]  # piped
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich: a terminal
    assert "Reviewing" in review_cli(capsys, str(path), *CLI_BUDGET, "--seat", "0")[2]
    status, out, err = review_cli(capsys, str(path), *CLI_BUDGET, "--seat", "0", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["partial"] is False


def test_ctrl_c_keeps_the_decisions_valued_so_far(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, simulated: Path
) -> None:
    analyse = ExpertBot.analyse
    calls = {"count": 0}

    def interrupted(self: ExpertBot, *args: Any, **kwargs: Any) -> Any:
        calls["count"] += 1
        if calls["count"] == 3 * BATCHES + 1:  # in the fourth decision: each is valued in BATCHES searches
            raise KeyboardInterrupt
        return analyse(self, *args, **kwargs)

    monkeypatch.setattr(ExpertBot, "analyse", interrupted)
    status, out, err = review_cli(capsys, str(simulated), *CLI_BUDGET)
    assert status == 130
    total = Reviewer(GameRecord.loads(simulated.read_text(encoding="utf-8"))).total
    assert f"PARTIAL REVIEW: 3 of {total} decisions valued (stopped)." in " ".join(out.split())
    assert "Costliest decisions:" in out or "No move gave anything away" in out
    assert err == "thirtyone: interrupted: the review above is partial\n"
    calls["count"] = 0
    status, out, _ = review_cli(capsys, str(simulated), *CLI_BUDGET, "--json")
    data = json.loads(out)
    assert (status, data["partial"], len(data["decisions"]), data["total"]) == (130, True, 3, total)
    rounds = {decision["round"] for decision in data["decisions"]}
    assert [summary["rounds"] for summary in data["summaries"]] == [max(rounds)] * 3


# ---------------------------------------------------------------------------------------------- every record

CRASHING_BOT = '''
from thirtyone.bots.basic import BasicBot


class CrashingBot(BasicBot):
    """Plays like basic, but raises in round 2."""

    name = "crasher"

    def choose(self, view, legal):
        if view.round >= 2:
            raise RuntimeError("the crasher crashed")
        return super().choose(view, legal)


def make(seed=None):
    return CrashingBot(seed)
'''


def arena_record(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The record ``thirtyone arena`` keeps of a failed game: the game up to the failure."""
    (folder / "review_crasher.py").write_text(CRASHING_BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, "review_crasher", raising=False)
    args = ["arena", "--bots", "review_crasher:make,basic", "--players", "2", "--games", "2", "--jobs", "1"]
    assert main([*args, "--seed", "1", "--out", str(folder / "out")]) == 1
    return sorted((folder / "out" / "failed").glob("*.toml"))[0]


def play_record(folder: Path) -> Path:
    """The record ``thirtyone play --record`` saves: a person and two bots, a few turns in."""
    from thirtyone.tui.autosave import Autosave
    from thirtyone.tui.session import PlaySession
    from thirtyone.tui.settings import PlaySettings

    path = folder / "play.toml"
    session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=3, seed=5, record=path))
    while session.game.round == 1 and len(session.game.round_logs[0].actions) < 12:
        if session.human_to_move:
            session.play(session.view().legal_actions[0])
        else:
            session.bot_move()
    assert Autosave(session).write() == path
    return path


def server_record(folder: Path, table: str) -> Path:
    """A record the server of schema 0004 gave (tests/data/server-0004)."""
    expected = json.loads((DATA / "server-0004" / "expected.json").read_text(encoding="utf-8"))
    code = expected["names"][table]
    path = folder / f"{code}.toml"
    path.write_text(expected["tables"][code]["record"], encoding="utf-8")
    return path


def old_version(folder: Path, version: int) -> Path:
    game = random_game(Rules.preset("scat", lives=1), 3, seed=3)
    path = folder / f"v{version}.toml"
    path.write_text(as_version(GameRecord.from_game(game).dumps(), version), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "source", ["simulate", "arena", "play", "server-finished", "server-bots", "arena-data", "version-1", "version-2"]
)
def test_records_of_every_version_and_source_are_reviewed(
    source: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    simulated: Path,
    tmp_path: Path,
) -> None:
    path = {
        "simulate": lambda: simulated,
        "arena": lambda: arena_record(tmp_path, monkeypatch),
        "play": lambda: play_record(tmp_path),
        "server-finished": lambda: server_record(tmp_path, "finished"),
        "server-bots": lambda: server_record(tmp_path, "bots"),
        "arena-data": lambda: DATA / "belief-card-back-from-a-reshuffle.toml",
        "version-1": lambda: old_version(tmp_path, 1),
        "version-2": lambda: old_version(tmp_path, 2),
    }[source]()
    capsys.readouterr()  # what the commands that made the record said
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    status, out, err = review_cli(capsys, str(path), "--budget", "4:engine", "--seat", "0", "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["finished"] == (record.winner is not None)
    assert data["partial"] is False
    assert len(data["decisions"]) == data["total"] > 0
    steps = [step for step, (seat, _) in enumerate(a for rnd in record.rounds for a in rnd.actions) if seat == 0]
    assert data["decisions"][-1]["step"] <= steps[-1]
    if source in ("arena", "play", "arena-data"):
        assert data["finished"] is False


# ---------------------------------------------------------------------------------------------- bad input


def bad_records(short: GameRecord) -> dict[str, tuple[str, str]]:
    text = short.dumps()
    deck = list(short.rounds[0].deck)
    discarded = next(action.card for _, action in short.rounds[0].actions if isinstance(action, Discard))
    where = deck.index(discarded)
    deck[where], deck[-1] = deck[-1], deck[where]  # the card discarded never dealt: the replay refuses it
    swapped = text.replace(format_cards(short.rounds[0].deck), format_cards(deck), 1)
    assert swapped != text
    return {
        "not a record": ("hello, world\n", "not valid TOML"),
        "another format": ('format = "pgn"\nversion = 1\n', "not a thirtyone record"),
        "truncated": (text[: len(text) // 2], ""),
        "fails its replay": (swapped, "round 1, action"),
    }


@pytest.mark.parametrize("problem", ["not a record", "another format", "truncated", "fails its replay"])
def test_a_bad_record_is_one_line_and_exit_2(
    problem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    short: GameRecord,
    tmp_path: Path,
) -> None:
    text, words = bad_records(short)[problem]
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(ExpertBot, "analyse", lambda *_: pytest.fail("nothing is valued"))
    line = cli_error_line(capsys, ["review", str(path), *CLI_BUDGET])
    assert line.startswith(f"thirtyone: error: {path}: ")
    assert words in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seat", "3"], "--seat 3: seat 3 is not in this 3-player game: seats are 0-2"),
        (["--seat", "-1"], "--seat -1: seat -1 is not in this 3-player game"),
        (["--budget", "0"], "--budget 0: bad expert budget '0' in 'expert:0': give 1 to 1,000,000 worlds"),
        (["--budget", "99999999"], "bad expert budget '99999999' in 'expert:99999999': give 1 to 1,000,000"),
        (["--budget", "0s"], "more than 0 and up to 3,600 seconds (expert:0.5s)"),
        (["--budget", "1e9s"], "more than 0 and up to 3,600 seconds"),
        (["--budget", "basic:3"], "--budget basic:3: the review's budget is the expert's: worlds (300"),
        (["--budget", "expert-v1:200"], "the review's budget is the expert's"),
        (["--budget", "200:gpu"], "bad expert rollouts 'gpu'"),
        (["--lang", "k!o"], "--lang 'k!o': give a language code such as ko or de-AT"),
    ],
)
def test_a_bad_seat_or_budget_is_refused_as_play_refuses_it(
    args: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    short: GameRecord,
    tmp_path: Path,
) -> None:
    path = tmp_path / "short.toml"
    path.write_text(short.dumps(), encoding="utf-8")
    monkeypatch.setattr(ExpertBot, "analyse", lambda *_: pytest.fail("nothing is valued"))
    assert words in cli_error_line(capsys, ["review", str(path), *args])


def test_a_seat_that_is_no_number_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["review", "game.toml", "--seat", "x"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (
        "",
        "thirtyone: error: argument --seat: give a whole number, not 'x' (see thirtyone review --help)\n",
    )


def test_a_missing_file_or_empty_path_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli_error_line(capsys, ["review", str(tmp_path / "none.toml")]).endswith("none.toml: no such file")
    assert "an empty path" in cli_error_line(capsys, ["review", ""])


# ---------------------------------------------------------------------------------------------- issue 43's words


@pytest.fixture(scope="module")
def blitz_review() -> Review:
    """Ben completes the 31 on his last turn (take Q♠, discard 7♠): every value exact."""
    record = GameRecord.from_game(scat2_last_turn("draw pile", "discard 7s"), ["Ben", "Ada"])
    return review_record(record, [0], **BUDGET)


def test_the_legend_says_a_value_is_the_others_average_loss_minus_yours(short_review: Review) -> None:
    """Issue 43: a 31 at three players shows +1.00, the others' average loss, not their sum."""
    legend = messages("en")("review.legend")
    assert "the lives the others lose this round (their average) minus the lives the player loses" in legend
    assert "being put out counts 2 lives more" in legend
    shown = [line.plain for line in review_lines(messages("en"), short_review, "game.toml") if isinstance(line, Text)]
    assert legend in shown


def test_r6_5_a_31_on_a_two_player_last_turn_is_a_blunder_that_says_why(blitz_review: Review) -> None:
    """Issue 43: "holding 31 … better: Discard K♠" gave no reason and read as a bug. The 31 costs
    the knocker one life (R5.3) where the showdown can cost the knocker two (R6.5): the review
    says so, as data (a catalog key, its rules, the knocker's seat) and in words."""
    decision = blitz_review.decisions[-1]
    assert (str(decision.played), str(decision.best.action), decision.mark) == ("discard 7s", "discard Ks", "blunder")
    assert decision.reasons == (Reason("blitz_spares_knocker", ("R5.3", "R6.5"), (("knocker", 1),)),)
    data = decision.to_json()["reasons"]
    assert data == [
        {
            "code": "blitz_spares_knocker",
            "key": "review.why.blitz_spares_knocker",
            "rules": ["R5.3", "R6.5"],
            "values": {"knocker": 1},
        }
    ]
    names = blitz_review.names
    said = reason_text(messages("en"), decision.reasons[0], names).plain
    assert said == "a 31 now costs Ada one life, where the showdown can cost the knocker two (R5.3, R6.5)"
    assert reason_text(messages("de"), decision.reasons[0], names).plain.endswith("(R5.3, R6.5)")
    lines = [line.plain for line in review_lines(messages("en"), blitz_review, "game.toml") if isinstance(line, Text)]
    sentence = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    assert lines[sentence] == "1. Round 1, turn 1, holding 31: Discard 7♠ gave away 0.98 lives; better: Discard K♠"
    assert lines[sentence + 1] == f"   why: {said}"


def test_a_move_below_the_floor_is_accurate_on_an_exact_last_turn(blitz_review: Review) -> None:
    """Issue 43: on an exact last turn the noise is 0, and taking Q♠ (to keep 28) is 0.0004 lives
    below the stock: below :data:`FLOOR` (0.01 lives) it gives nothing away and counts as accurate."""
    assert FLOOR == 0.01
    take = blitz_review.decisions[0]
    assert take.played == Draw("pile")
    assert take.stderr == 0
    assert take.noise == 0
    assert 0 < take.loss < 0.001
    assert (take.given, take.accurate, take.mark, take.reasons) == (0.0, True, None, ())
    assert blitz_review.summaries[0].accurate == 1
    assert blitz_review.to_json()["floor"] == FLOOR


@pytest.mark.parametrize(("loss", "given"), [(0.0099, 0.0), (0.0101, 0.0101), (0.3, 0.3)])
def test_the_floor_holds_where_the_noise_is_zero(loss: float, given: float) -> None:
    view = scat2_last_turn().view(0)
    moves = (Move(Draw("stock"), 1.0, 0.0, 0.0, 1), Move(Draw("pile"), 1.0 - loss, 0.0, 0.0, 1))
    decision = Decision(1, 1, view, Draw("pile"), moves, (), Draw("stock"))
    assert decision.given == pytest.approx(given)
    assert decision.accurate == (given == 0)


def ruled(game: Game, played: str, best: str, seat: int = 0) -> Decision:
    """A decision of ``seat`` in ``game`` whose best move is ``best`` and the one played ``played``,
    0.5 lives below it (the values made up: only the rules' reasons are looked at)."""
    view = game.view(seat)
    by_text = {str(action): action for action in view.legal_actions}
    moves = (Move(by_text[best], 1.0, 0.0, 0.0, 1), Move(by_text[played], 0.5, 0.0, 0.0, 1))
    return Decision(1, 1, view, by_text[played], moves, (), by_text[best])


def test_r5_3_a_31_left_unmade_on_a_last_turn_says_why() -> None:
    decision = ruled(scat2_last_turn("draw pile"), "discard Ks", "discard 7s")
    assert decision.reasons == (Reason("blitz_missed", ("R5.3",)),)
    said = reason_text(messages("en"), decision.reasons[0], ["Ben", "Ada"]).plain
    assert said == "a 31 ends the round at once: every other player loses a life (R5.3)"


def test_r1_4_three_of_a_kind_broken_says_what_they_count() -> None:
    rules = Rules.preset("scat", three_of_a_kind="30.5")
    deck = deck_order(rules, 2, 0, {1: "7s 7h 2c"}, upcard="7d")
    game = Game(rules, 2, chance=FallbackChance(0, [deck], [], 0))
    game.apply("draw pile")
    decision = ruled(game, "discard 7h", "discard 2c", seat=1)
    assert decision.reasons == (Reason("three_of_a_kind", ("R1.4",), (("points", 30.5),)),)
    assert reason_text(messages("en"), decision.reasons[0], ["Ben", "Ada"]).plain == "three of a kind count 30½ (R1.4)"


def test_r1_5_three_aces_left_unmade_say_why() -> None:
    rules = Rules.preset("scat", three_aces=True)
    deck = deck_order(rules, 2, 0, {1: "As Ah 2c"}, upcard="Ad")
    game = Game(rules, 2, chance=FallbackChance(0, [deck], [], 0))
    game.apply("draw pile")
    decision = ruled(game, "discard Ah", "discard 2c", seat=1)
    assert decision.reasons == (Reason("three_aces_missed", ("R1.5",)),)


@pytest.mark.parametrize(("preset", "penalty"), [("scat", "penalty_scat"), ("widow", "penalty_widow"), ("namu", None)])
def test_r6_5_a_knock_names_the_knock_penalty_or_r6_2_the_last_turns(preset: str, penalty: str | None) -> None:
    game = Game(Rules.preset(preset), 2, seed=1)
    seat = game.current_seat
    assert seat is not None
    legal = [str(action) for action in game.view(seat).legal_actions]
    other = next(action for action in legal if action != "knock")
    decision = ruled(game, "knock", other, seat=seat)
    expected = Reason(penalty, ("R6.5",)) if penalty else Reason("knock", ("R6.2",))
    assert decision.reasons == (expected,)
    assert decision.played == Knock()


def test_r2_4_the_last_life_and_r2_3_the_grace_life_are_named() -> None:
    game = Game(Rules.preset("namu", lives=1), 2, seed=1)  # no grace life: one loss left
    seat = game.current_seat
    assert seat is not None
    decision = ruled(game, "draw stock", "draw pile", seat=seat)
    assert decision.reasons == (Reason("last_life", ("R2.4",)),)
    assert ruled(Game(Rules.preset("scat", lives=1), 2, seed=1), "draw stock", "draw pile", seat=seat).reasons == ()


def test_r2_3_a_seat_on_its_grace_life_is_told_so(finished_review: Review) -> None:
    on_grace = [d for d in finished_review.decisions if d.given and d.view.seats[d.seat].on_grace]
    assert on_grace  # random play loses rounds
    assert all(Reason("grace", ("R2.3",)) in d.reasons for d in on_grace)
    assert all(d.reasons == () for d in finished_review.decisions if not d.given)


def test_the_noise_is_shown_in_the_table_and_the_data(
    capsys: pytest.CaptureFixture[str], simulated: Path, tmp_path: Path
) -> None:
    """Issue 43: the noise of sampled values was never shown. Each decision says the largest
    standard error of its values ("Noise ±0.12"), or "exact" on a counted last turn."""
    status, out, _ = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0")
    assert status == 0
    assert "Noise ±" in out
    assert "noise = the standard error of a decision's values" in " ".join(out.split())
    status, out, _ = review_cli(capsys, str(simulated), *CLI_BUDGET, "--seat", "0", "--json")
    data = json.loads(out)
    for decision in data["decisions"]:
        assert decision["stderr"] == max(move["stderr"] for move in decision["moves"])
    record = tmp_path / "blitz.toml"
    record.write_text(GameRecord.from_game(scat2_last_turn("draw pile", "discard 7s"), ["Ben", "Ada"]).dumps())
    status, out, _ = review_cli(capsys, str(record), *CLI_BUDGET, "--seat", "0")
    assert status == 0
    assert out.count("Noise exact") == 2
    joined = " ".join(out.split())
    assert "why: a 31 now costs Ada one life, where the showdown can cost the knocker two (R5.3, R6.5)" in joined
    status, out, _ = review_cli(capsys, str(record), *CLI_BUDGET, "--seat", "0", "--json")
    costly = json.loads(out)["summaries"][0]["costliest"]
    assert [one["why"] for one in costly] == [
        ["a 31 now costs Ada one life, where the showdown can cost the knocker two (R5.3, R6.5)"]
    ]
    assert costly[0]["reasons"][0]["key"] == "review.why.blitz_spares_knocker"
